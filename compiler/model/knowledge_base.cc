#include "model/knowledge_base.h"

#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>

#include "base/digest.h"
#include "base/parallel.h"
#include "model/recipe.h"

namespace kbc {

const Entry* KnowledgeBase::find(std::string_view id) const {
  const auto it = by_id.find(std::string(id));
  return it == by_id.end() ? nullptr : &entries[it->second.front()];
}

namespace {

// Loads the entry file at `path`; `digest` becomes a digest of its content.
std::optional<Entry> load_entry(const FileSystem& fs, const std::string& root,
                                const std::string& path, const SchemaValidator& schema,
                                Diagnostics& out, ParseCache* cache, std::string& digest) {
  const std::string file = join_path(root, path);
  const auto bytes = fs.size(file);
  if (bytes && *bytes > kMaxFileBytes) {  // refuse before reading it into memory
    digest = "too large " + std::to_string(*bytes);
    out.push_back({path,
                   {},
                   Severity::kError,
                   "file is " + std::to_string(*bytes) + " bytes; entries are limited to " +
                       std::to_string(kMaxFileBytes) + " bytes",
                   "yaml-structure",
                   ""});
    return std::nullopt;
  }
  const std::string text = fs.read(file);
  digest = digest_of(text);
  if (cache) {
    if (auto stored = cache->find(path, digest)) {
      out.insert(out.end(), stored->diagnostics.begin(), stored->diagnostics.end());
      if (stored->entry) {
        stored->entry->suppressions = scan_suppression_comments(text);
        stored->entry->digest = digest;
      }
      return std::move(stored->entry);
    }
  }
  ParseCache::Result result;
  if (auto document = load_yaml(path, text, result.diagnostics)) {
    result.entry = Entry{path, id_from_entry_path(path), std::move(document->value),
                         std::move(document->sources)};
    result.entry->shape_ok =
        schema.validate(path, result.entry->data, result.entry->sources, result.diagnostics);
  }
  if (cache) cache->store(path, digest, result);
  out.insert(out.end(), result.diagnostics.begin(), result.diagnostics.end());
  if (result.entry) {
    result.entry->suppressions = scan_suppression_comments(text);
    result.entry->digest = digest;
  }
  return std::move(result.entry);
}

// The files under entries/ that kbc does not read, each with its entry-file error: symbolic
// links and files ending in .yml.
Diagnostics refused_files(const FileSystem::Listing& listing) {
  Diagnostics refused;
  for (const std::string& link : listing.links) {
    refused.push_back({"entries/" + link,
                       {1, 1},
                       Severity::kError,
                       "a symbolic link, which kbc does not follow (a link in a pull request could "
                       "publish or print any file of the machine that runs kbc): put the file "
                       "itself here",
                       "entry-file",
                       ""});
  }
  for (const std::string& yml : listing.files) {
    if (!yml.ends_with(".yml")) continue;
    const std::string name = std::filesystem::path(yml).stem().string() + ".yaml";
    refused.push_back({"entries/" + yml,
                       {1, 1},
                       Severity::kError,
                       "kbc reads only files ending in .yaml: rename it to " + name,
                       "entry-file",
                       ""});
  }
  return refused;
}

}  // namespace

KnowledgeBase load_knowledge_base(const FileSystem& fs, const std::string& root,
                                  const SchemaValidator& schema, Diagnostics& out,
                                  ParseCache* cache, Progress* progress) {
  const std::string entries_dir = join_path(root, "entries");
  if (!fs.is_directory(entries_dir)) {
    throw ToolError("no entries/ folder in " + (root.empty() ? std::string(".") : root));
  }
  const FileSystem::Listing found_files = fs.walk(entries_dir);  // one walk of the tree
  std::vector<std::string> files;
  for (const std::string& file : found_files.files) {
    if (file.ends_with(".yaml")) files.push_back(file);
  }
  Diagnostics refused = refused_files(found_files);
  std::vector<std::optional<Entry>> loaded(files.size());
  std::vector<Diagnostics> found(files.size());
  std::vector<std::string> digests(files.size());
  std::exception_ptr failure;
  std::mutex failure_mutex;
  if (progress) progress->start("loading", files.size());
  parallel_slices(files.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    try {
      for (std::size_t i = begin; i < end; ++i) {
        loaded[i] =
            load_entry(fs, root, "entries/" + files[i], schema, found[i], cache, digests[i]);
        if (progress) progress->advance();
      }
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  if (cache) cache->prune();
  KnowledgeBase kb;
  Digest listing;
  for (std::size_t i = 0; i < files.size(); ++i) listing.add(files[i]).add(digests[i]);
  kb.digest = listing.hex();
  for (std::size_t i = 0; i < files.size(); ++i) {
    kb.file_ids.insert(id_from_entry_path("entries/" + files[i]));
    if (loaded[i]) kb.entries.push_back(std::move(*loaded[i]));
    out.insert(out.end(), std::make_move_iterator(found[i].begin()),
               std::make_move_iterator(found[i].end()));
  }
  out.insert(out.end(), refused.begin(), refused.end());
  for (std::size_t i = 0; i < kb.entries.size(); ++i) kb.by_id[kb.entries[i].id()].push_back(i);
  return kb;
}

const Evidence* KnowledgeBase::current_evidence(const Entry& entry) const {
  const auto it = evidence.find(entry.id());
  if (it == evidence.end() || !it->second.reproduced()) return nullptr;
  const auto recipe = read_recipe(entry, recipe_files);
  return recipe && recipe->digest == it->second.recipe_digest ? &it->second : nullptr;
}

void load_evidence(const FileSystem& fs, const std::string& root, KnowledgeBase& kb,
                   Diagnostics& out) {
  Digest digest;
  bool any = false;
  for (const Entry& entry : kb.entries) {
    const std::string path = recipe_file_path(entry);
    if (path.empty() || !fs.size(join_path(root, path))) continue;
    std::string text = fs.read(join_path(root, path));
    digest.add(path).add(text);
    kb.recipe_files.emplace(path, std::move(text));
    any = true;
  }
  if (fs.size(join_path(root, kEvidenceFile))) {
    const std::string text = fs.read(join_path(root, kEvidenceFile));
    digest.add(kEvidenceFile).add(text);
    kb.evidence = parse_evidence_lock(text, out);
    any = true;
  }
  if (any) kb.digest += "-evidence-" + digest.hex();
}

}  // namespace kbc
