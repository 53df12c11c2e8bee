#include "model/knowledge_base.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>

#include "base/digest.h"
#include "base/folder_memo.h"
#include "base/parallel.h"
#include "model/file_stamps.h"
#include "model/recipe.h"

namespace kbc {

const Entry* KnowledgeBase::find(std::string_view id) const {
  const auto it = by_id.find(std::string(id));
  return it == by_id.end() ? nullptr : &entries[it->second.front()];
}

namespace {

constexpr std::string_view kTooLarge = "too large ";

// The digest and kbc-disable comments of the entry file at `path` (relative to the root); a file
// over kMaxFileBytes is not read, and its digest names its size. `stamp`, when the listing has
// it, gives the size without asking the file system again.
void list_file(const FileSystem& fs, const std::string& root, const std::string& path,
               std::string& digest, std::vector<SuppressionComment>& suppressions,
               const std::optional<FileStamp>& stamp = std::nullopt) {
  const std::string file = join_path(root, path);
  const auto bytes = stamp ? std::optional<std::uintmax_t>(stamp->size) : fs.size(file);
  if (bytes && *bytes > kMaxFileBytes) {  // refuse before reading it into memory
    digest = std::string(kTooLarge) + std::to_string(*bytes);
    return;
  }
  const std::string text = fs.read(file);
  digest = digest_of(text);
  suppressions = scan_suppression_comments(text);
}

// Loads the entry file at `path` that list_file found with `digest`: from `cache` when it holds
// the result for that digest (`slim`: its slim copy, when it has one), else read again and
// parsed (`digest` and `suppressions` become the text's, should the file have changed since it
// was listed).
std::optional<Entry> load_entry(const FileSystem& fs, const std::string& root,
                                const std::string& path, const SchemaValidator& schema,
                                Diagnostics& out, ParseCache* cache, std::string& digest,
                                std::vector<SuppressionComment>& suppressions, bool slim) {
  if (digest.starts_with(kTooLarge)) {
    out.push_back({path,
                   {},
                   Severity::kError,
                   "file is " + digest.substr(kTooLarge.size()) +
                       " bytes; entries are limited to " + std::to_string(kMaxFileBytes) + " bytes",
                   "yaml-structure",
                   ""});
    return std::nullopt;
  }
  if (cache) {
    if (auto stored = slim ? cache->find_slim(path, digest) : cache->find(path, digest)) {
      out.insert(out.end(), stored->diagnostics.begin(), stored->diagnostics.end());
      if (stored->entry) {
        stored->entry->suppressions = suppressions;
        stored->entry->digest = digest;
      }
      return std::move(stored->entry);
    }
  }
  const std::string text = fs.read(join_path(root, path));
  if (std::string now = digest_of(text); now != digest) {
    digest = std::move(now);
    suppressions = scan_suppression_comments(text);
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
    result.entry->suppressions = suppressions;
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

// Runs `work(i)` for every index below `count` on every core; the first exception is rethrown.
void on_every_core(std::size_t count, const std::function<void(std::size_t)>& work) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  parallel_slices(count, [&](std::size_t begin, std::size_t end, std::size_t) {
    try {
      for (std::size_t i = begin; i < end; ++i) work(i);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
}

// The stamp table and the folder memo are made and written again only when what they record
// changed in number, or would teach the next run this many files or folders: until then each of
// those is read or listed again by every run, microseconds apiece, where making and writing
// either at 100,000 entries took 0.15-0.3 s of a build after one edit, on one core.
constexpr std::size_t kStaleRows = 64;

// Lists the files of `listing` through the cache's stamp table: a file whose stamp is trusted
// is not read. The table is stored again only when that teaches the next listing enough (files
// added or removed, or kStaleRows files changed or old enough to trust by now), so an unchanged
// lint or build writes nothing.
void list_by_stamps(const FileSystem& fs, const std::string& root, EntryListing& listing,
                    ParseCache& cache) {
  const std::size_t count = listing.files.size();
  std::optional<std::string> stored = cache.find_file_stamps();
  const FileStamps known = stored ? FileStamps::parse(std::move(*stored)) : FileStamps();
  FileStamps next(wall_clock_ns());  // before any file is looked at
  std::vector<std::optional<FileStamp>> stamps(count);
  std::vector<char> teaches(count, 0);
  on_every_core(count, [&](std::size_t i) {
    const std::string path = "entries/" + listing.files[i];
    stamps[i] = fs.stamp(join_path(root, path));  // before the read: a later write changes it
    if (!stamps[i]) {
      list_file(fs, root, path, listing.digests[i], listing.suppressions[i]);
    } else if (std::optional<FileStamps::Known> same = known.trusted(path, *stamps[i])) {
      listing.digests[i] = std::move(same->digest);
      listing.suppressions[i] = std::move(same->suppressions);
    } else {
      list_file(fs, root, path, listing.digests[i], listing.suppressions[i], stamps[i]);
      const std::optional<FileStamps::Known> last = known.find(path);
      const bool taught = FileStamps::recordable(path) &&
                          (!last || !(last->stamp == *stamps[i]) ||
                           last->digest != listing.digests[i] || next.settled(*stamps[i]));
      teaches[i] = taught ? 1 : 0;
    }
  });
  std::size_t stamped = 0;  // what the table would hold
  for (std::size_t i = 0; i < count; ++i)
    stamped += stamps[i] && FileStamps::recordable(listing.files[i]) ? 1 : 0;
  if (stamped == known.size() &&
      static_cast<std::size_t>(std::count(teaches.begin(), teaches.end(), 1)) < kStaleRows)
    return;
  for (std::size_t i = 0; i < count; ++i) {
    if (stamps[i])
      next.record("entries/" + listing.files[i],
                  {*stamps[i], listing.digests[i], listing.suppressions[i]});
  }
  cache.store_file_stamps(next.text());
}

std::string listing_digest(const EntryListing& listing) {
  Digest digest;
  for (std::size_t i = 0; i < listing.files.size(); ++i)
    digest.add(listing.files[i]).add(listing.digests[i]);
  return digest.hex();
}

// One walk of entries/: with the cache, the folders whose stamps the last walk recorded are
// not listed again (base/folder_memo.h).
FileSystem::Listing walk_entries(const FileSystem& fs, const std::string& entries_dir,
                                 ParseCache* cache) {
  if (!cache) return fs.walk(entries_dir);
  std::optional<std::string> stored = cache->find_folders();
  const FolderMemo last = stored ? FolderMemo::parse(std::move(*stored)) : FolderMemo();
  FolderRecord next(wall_clock_ns());  // before any folder is looked at
  FileSystem::Listing listing = fs.walk(entries_dir, &last, &next);
  if (next.listed() >= kStaleRows || next.size() != last.size()) cache->store_folders(next.text());
  return listing;
}

}  // namespace

EntryListing list_entry_files(const FileSystem& fs, const std::string& root, ParseCache* cache) {
  const std::string entries_dir = join_path(root, "entries");
  if (!fs.is_directory(entries_dir)) {
    throw ToolError("no entries/ folder in " + (root.empty() ? std::string(".") : root));
  }
  const FileSystem::Listing found_files = walk_entries(fs, entries_dir, cache);
  EntryListing listing;
  for (const std::string& file : found_files.files) {
    if (file.ends_with(".yaml")) listing.files.push_back(file);
  }
  listing.refused = refused_files(found_files);
  const std::size_t count = listing.files.size();
  listing.digests.resize(count);
  listing.suppressions.resize(count);
  if (cache) {
    list_by_stamps(fs, root, listing, *cache);
  } else {
    on_every_core(count, [&](std::size_t i) {
      list_file(fs, root, "entries/" + listing.files[i], listing.digests[i],
                listing.suppressions[i]);
    });
  }
  listing.digest = listing_digest(listing);
  return listing;
}

KnowledgeBase load_listed_entries(const FileSystem& fs, const std::string& root,
                                  EntryListing& listing, const SchemaValidator& schema,
                                  Diagnostics& out, ParseCache* cache, Progress* progress,
                                  const std::vector<bool>& slim) {
  const std::vector<std::string>& files = listing.files;
  std::vector<std::optional<Entry>> loaded(files.size());
  std::vector<Diagnostics> found(files.size());
  if (progress) progress->start("loading", files.size());
  on_every_core(files.size(), [&](std::size_t i) {
    loaded[i] = load_entry(fs, root, "entries/" + files[i], schema, found[i], cache,
                           listing.digests[i], listing.suppressions[i], i < slim.size() && slim[i]);
    if (progress) progress->advance();
  });
  if (cache) cache->prune();
  listing.digest = listing_digest(listing);  // a file changed since it was listed changes it
  KnowledgeBase kb;
  kb.digest = listing.digest;
  for (std::size_t i = 0; i < files.size(); ++i) {
    kb.file_ids.insert(id_from_entry_path("entries/" + files[i]));
    if (loaded[i]) kb.entries.push_back(std::move(*loaded[i]));
    out.insert(out.end(), std::make_move_iterator(found[i].begin()),
               std::make_move_iterator(found[i].end()));
  }
  for (std::size_t i = 0; i < kb.entries.size(); ++i) {
    kb.by_id[kb.entries[i].id()].push_back(i);
    std::string recipe = recipe_file_path(kb.entries[i]);
    if (!recipe.empty()) kb.recipe_paths.push_back(std::move(recipe));
  }
  return kb;
}

Entry whole_entry(const FileSystem& fs, const std::string& root, const Entry& entry,
                  const SchemaValidator& schema, ParseCache* cache) {
  if (!entry.slim) return entry;
  std::string digest = entry.digest;
  std::vector<SuppressionComment> suppressions = entry.suppressions;
  Diagnostics found;  // reported when it was loaded slim
  std::optional<Entry> whole =
      load_entry(fs, root, entry.path, schema, found, cache, digest, suppressions, false);
  if (!whole || digest != entry.digest)
    throw ToolError(entry.path + " changed while kbc was reading it: run kbc again");
  return std::move(*whole);
}

KnowledgeBase load_knowledge_base(const FileSystem& fs, const std::string& root,
                                  const SchemaValidator& schema, Diagnostics& out,
                                  ParseCache* cache, Progress* progress) {
  EntryListing listing = list_entry_files(fs, root, cache);
  KnowledgeBase kb = load_listed_entries(fs, root, listing, schema, out, cache, progress);
  out.insert(out.end(), listing.refused.begin(), listing.refused.end());
  return kb;
}

nlohmann::json load_summary(const EntryListing& listing, const KnowledgeBase& kb,
                            const Diagnostics& loading) {
  nlohmann::json entries = nlohmann::json::array();
  std::size_t file = 0;
  for (const Entry& entry : kb.entries) {  // both in the listing's order
    while (file < listing.files.size() && "entries/" + listing.files[file] != entry.path) ++file;
    entries.push_back({file, entry.shape_ok});
  }
  return {{"listing", listing.digest},
          {"entries", std::move(entries)},
          {"recipes", kb.recipe_paths},
          {"diagnostics", diagnostics_to_json(loading)}};
}

std::optional<KnowledgeBase> unread_knowledge_base(const EntryListing& listing,
                                                   const nlohmann::json& summary,
                                                   Diagnostics& out) {
  try {
    if (summary.at("listing") != listing.digest) return std::nullopt;
    KnowledgeBase kb;
    kb.digest = listing.digest;
    kb.read = false;
    for (const std::string& file : listing.files)
      kb.file_ids.insert(id_from_entry_path("entries/" + file));
    for (const nlohmann::json& stored : summary.at("entries")) {
      const std::size_t file = stored.at(0).get<std::size_t>();
      const std::string path = "entries/" + listing.files.at(file);
      Entry& entry = kb.entries.emplace_back(Entry{path, id_from_entry_path(path), {}, {}});
      entry.shape_ok = stored.at(1).get<bool>();
      entry.suppressions = listing.suppressions[file];
      entry.digest = listing.digests[file];
    }
    kb.recipe_paths = summary.at("recipes").get<std::vector<std::string>>();
    Diagnostics loading = diagnostics_from_json(summary.at("diagnostics"));
    out.insert(out.end(), std::make_move_iterator(loading.begin()),
               std::make_move_iterator(loading.end()));
    out.insert(out.end(), listing.refused.begin(), listing.refused.end());  // as they are now
    return kb;
  } catch (const std::exception&) {  // not what load_summary wrote
    return std::nullopt;
  }
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
  for (const std::string& path : kb.recipe_paths) {
    if (!fs.size(join_path(root, path))) continue;
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
