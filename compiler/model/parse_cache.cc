#include "model/parse_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "base/digest.h"
#include "base/file_system.h"
#include "base/json_text.h"

namespace kbc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kCacheFormat = 14;  // bump when what is stored changes
constexpr char kLastLintName[] = "last-lint";
constexpr char kLastLintFactsName[] = "last-lint-facts";
constexpr char kSiteFiguresName[] = "site-figures";
constexpr char kLastLoadName[] = "last-load";
constexpr char kFileStampsName[] = "file-stamps";
constexpr char kFoldersName[] = "folders";
constexpr char kResultsPack[] = "results";
constexpr char kRecordsPack[] = "records";
constexpr char kSearchFolder[] = "search-index";
// The named files, which prune() keeps with the packs' and the search indexes.
constexpr std::string_view kNamed[] = {kLastLintName, kLastLintFactsName, kSiteFiguresName,
                                       kLastLoadName, kFileStampsName,    kFoldersName,
                                       kSearchFolder};

// The document of the CBOR `bytes`, as json::from_cbor reads it, less its copy: from_cbor
// returns `ok ? result : discarded`, which copies every document it read (half the time of
// loading an entry from the cache). Throws on bytes that are not CBOR.
json cbor_document(std::string_view bytes) {
  json document;
  nlohmann::detail::json_sax_dom_parser<json> builder(document, /*allow_exceptions=*/true);
  if (!json::sax_parse(bytes, &builder, json::input_format_t::cbor))
    throw std::runtime_error("damaged CBOR");
  return document;
}

// This build of kbc and the salt.
std::string fingerprint(std::string_view salt) {
  const std::string build = executable_identity();
  if (build.empty()) return "";
  return Digest().add(std::uint64_t{kCacheFormat}).add(build).add(salt).hex().substr(0, 32);
}

// Writes `stored` as CBOR aside and renames it into place, so a reader never sees half of it.
// Failing to write is not an error.
void write_stored(const fs::path& target, const json& stored) {
  const std::vector<std::uint8_t> bytes = json::to_cbor(stored);
  replace_file(target.string(),
               std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

json diagnostic_to_json(const Diagnostic& d) {
  return {d.at.line, d.at.column, d.severity == Severity::kError, d.message, d.rule, d.excerpt,
          d.pointer, d.path};
}

json diagnostics_to_json(const Diagnostics& diagnostics) {
  json out = json::array();
  for (const Diagnostic& d : diagnostics) out.push_back(diagnostic_to_json(d));
  return out;
}

namespace {

// The diagnostics stored by diagnostics_to_json; `path` when given, else their own.
Diagnostics diagnostics_at(const std::optional<std::string>& path, const json& value) {
  Diagnostics out;
  for (const json& d : value) {
    out.push_back({path ? *path : d.at(7).get<std::string>(),
                   {d.at(0).get<int>(), d.at(1).get<int>()},
                   d.at(2).get<bool>() ? Severity::kError : Severity::kWarning,
                   d.at(3).get<std::string>(),
                   d.at(4).get<std::string>(),
                   d.at(5).get<std::string>(),
                   d.at(6).get<std::string>()});
  }
  return out;
}

}  // namespace

Diagnostics diagnostics_from_json(const json& stored) {
  return diagnostics_at(std::nullopt, stored);
}

ParseCache::ParseCache(const std::string& root, std::string_view salt) {
  const std::string build = fingerprint(salt);
  if (build.empty()) return;
  const fs::path base = fs::path(root.empty() ? "." : root) / ".kbc-cache";
  std::error_code error;
  fs::create_directories(base / build, error);
  if (error) return;
  if (!fs::exists(base / ".gitignore", error)) std::ofstream(base / ".gitignore") << "*\n";
  // Results of other builds of kbc can never be used again.
  for (const auto& item : fs::directory_iterator(base, error)) {
    if (item.is_directory(error) && item.path().filename() != build)
      fs::remove_all(item.path(), error);
  }
  folder_ = (base / build).string();
  results_ = std::make_unique<CachePack>((base / build / kResultsPack).string());
  records_ = std::make_unique<CachePack>((base / build / kRecordsPack).string());
}

// From the content's digest, not the content: the loader has that already (hashing the text
// twice was 0.8 s of CPU at 100,000 entries).
std::string ParseCache::key(const std::string& path, std::string_view digest) const {
  return Digest().add(path).add(digest).hex();
}

// The slim copy's key, from the result's (hashing the path and digest again per entry is not
// needed for a key of its own).
std::string ParseCache::slim_key(const std::string& key) { return key + "-slim"; }

// A result is stored framed (base/json_text.h): a head of its path, diagnostics and shape, and
// for an entry two parts, its value as JSON text and its packed source map. Read back through
// simdjson, not as CBOR: an entry's strings are most of its bytes, and nlohmann's CBOR reader
// takes them a byte at a time. Its slim copy is stored the same way under a key of its own.
std::optional<ParseCache::Result> ParseCache::result_of(const std::string& path,
                                                        const std::string& bytes, bool slim) const {
  const std::optional<Framed> stored = unframed(bytes);
  if (!stored) return std::nullopt;
  try {
    const json& head = stored->head;
    if (head.at("path") != path) return std::nullopt;  // a different file with the same key
    Result result;
    result.diagnostics = diagnostics_at(path, head.at("diagnostics"));
    if (stored->parts.empty()) return result;  // no entry
    if (stored->parts.size() != 2) return std::nullopt;
    result.entry = Entry{path, id_from_entry_path(path), json_from_text(stored->parts[0]),
                         SourceMap::unpack(std::string(stored->parts[1]))};
    result.entry->shape_ok = head.at("shape_ok").get<bool>();
    result.entry->slim = slim;
    return result;
  } catch (const std::exception&) {
    return std::nullopt;  // damaged or foreign: parse the file again
  }
}

std::optional<ParseCache::Result> ParseCache::find(const std::string& path,
                                                   std::string_view digest) const {
  if (folder_.empty()) return std::nullopt;
  const std::string full = key(path, digest);
  const auto bytes = results_->find(full);
  results_->keep(slim_key(full));  // prune keeps the two together
  return bytes ? result_of(path, *bytes, false) : std::nullopt;
}

std::optional<ParseCache::Result> ParseCache::find_slim(const std::string& path,
                                                        std::string_view digest) const {
  if (folder_.empty()) return std::nullopt;
  const std::string full = key(path, digest);
  const auto bytes = results_->find(slim_key(full));
  std::optional<Result> found = bytes ? result_of(path, *bytes, true) : std::nullopt;
  if (!found) return find(path, digest);  // no entry (no slim copy), or a damaged one
  results_->keep(full);
  return found;
}

void ParseCache::store(const std::string& path, std::string_view digest, const Result& result) {
  if (folder_.empty()) return;
  // A value with NaN or an infinity has no JSON text: that file is parsed again on every run.
  if (result.entry && has_non_finite_number(result.entry->data)) return;
  const json head = {{"path", path},
                     {"diagnostics", diagnostics_to_json(result.diagnostics)},
                     {"shape_ok", result.entry && result.entry->shape_ok}};
  const std::string full = key(path, digest);
  if (!result.entry) {
    results_->store(full, framed(head, {}));
    return;
  }
  const Entry slim = result.entry->slimmed();
  results_->store(slim_key(full), framed(head, {slim.data.dump(), slim.sources.pack()}));
  results_->store(full, framed(head, {result.entry->data.dump(), result.entry->sources.pack()}));
}

template <typename Bytes>
void ParseCache::store_named_bytes(const char* name, const Bytes& bytes) {
  if (!folder_.empty()) replace_file((fs::path(folder_) / name).string(), bytes);
}

std::optional<std::string> ParseCache::find_named_bytes(const char* name) const {
  if (folder_.empty()) return std::nullopt;
  return read_whole_file(fs::path(folder_) / name);
}

std::optional<json> ParseCache::find_named(const char* name) const {
  const auto bytes = find_named_bytes(name);
  if (!bytes) return std::nullopt;
  try {
    return cbor_document(*bytes);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void ParseCache::store_named(const char* name, const json& stored) {
  if (folder_.empty()) return;
  write_stored(fs::path(folder_) / name, stored);
}

std::optional<std::string> ParseCache::find_last_lint() const {
  return find_named_bytes(kLastLintName);
}

std::optional<std::string> ParseCache::find_last_lint_facts() const {
  return find_named_bytes(kLastLintFactsName);
}

void ParseCache::store_last_lint(const Writer& write) { store_named_bytes(kLastLintName, write); }

void ParseCache::store_last_lint_facts(const Writer& write) {
  store_named_bytes(kLastLintFactsName, write);
}

std::optional<json> ParseCache::find_last_load() const { return find_named(kLastLoadName); }

void ParseCache::store_last_load(const json& summary) { store_named(kLastLoadName, summary); }

std::optional<std::string> ParseCache::find_file_stamps() const {
  return find_named_bytes(kFileStampsName);
}

void ParseCache::store_file_stamps(std::string_view text) {
  store_named_bytes(kFileStampsName, text);
}

std::optional<std::string> ParseCache::find_folders() const {
  return find_named_bytes(kFoldersName);
}

void ParseCache::store_folders(std::string_view text) { store_named_bytes(kFoldersName, text); }

std::optional<json> ParseCache::find_site_figures() const { return find_named(kSiteFiguresName); }

void ParseCache::store_site_figures(const json& figures) { store_named(kSiteFiguresName, figures); }

std::optional<std::string> ParseCache::find_search_index(const std::string& code) const {
  if (folder_.empty()) return std::nullopt;
  return read_whole_file(fs::path(folder_) / kSearchFolder / code);
}

void ParseCache::store_search_index(const std::string& code, const Writer& write) {
  if (folder_.empty()) return;
  const fs::path target = fs::path(folder_) / kSearchFolder / code;
  if (replace_file(target.string(), write)) return;
  std::error_code error;  // the folder's first index
  fs::create_directories(target.parent_path(), error);
  replace_file(target.string(), write);
}

std::optional<std::string> ParseCache::find_record(const std::string& key) const {
  if (folder_.empty()) return std::nullopt;
  return records_->find(key);
}

void ParseCache::store_record(const std::string& key, std::string_view bytes) {
  if (!folder_.empty()) records_->store(key, bytes);
}

void ParseCache::prune_records() {
  if (!folder_.empty()) records_->drop_unused();
}

// Drops the results no longer used and writes their pack's index (a run asks for no result
// after it), and removes any file of the folder that is neither named nor a pack's (what a run
// killed while replacing a file left).
void ParseCache::prune() {
  if (folder_.empty()) return;
  results_->drop_unused();
  results_->commit();
  std::error_code error;
  for (const auto& item : fs::directory_iterator(folder_, error)) {
    const std::string name = item.path().filename().string();
    if (std::ranges::find(kNamed, name) == std::end(kNamed) && !results_->owns(name) &&
        !records_->owns(name))
      fs::remove(item.path(), error);
  }
}

}  // namespace kbc
