// Loading a knowledge base in two steps (list the files, then load them), and the unread
// knowledge base made from what the load of the same files left (load_summary): what a lint of
// unchanged files uses instead of reading every entry again.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/file_system.h"
#include "model/knowledge_base.h"
#include "model/languages.h"
#include "validate/schema_validator.h"

namespace {

using nlohmann::json;

const std::string kValid =
    "id: cuda/a\nsignature: 'Error a happened'\nregex: 'Error a happened'\ndomain: cuda\n"
    "category: runtime_error\nroot_cause: 'A cause.'\ndead_ends: []\nworkarounds: []\n"
    "verification_tier: human_reviewed\nconfidence: 0.8\nfix_success_rate: 0.8\n"
    "resolvable: 'true'\nfirst_seen: '2024-01-01'\nlast_confirmed: '2024-01-01'\n"
    "last_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n";

struct Loaded {
  kbc::EntryListing listing;
  kbc::KnowledgeBase kb;
  kbc::Diagnostics diagnostics;
};

Loaded load(const kbc::FileSystem& fs) {
  const kbc::SchemaValidator schema(json::parse(kbc::entry_schema_text(kbc::default_languages())));
  Loaded loaded;
  loaded.listing = kbc::list_entry_files(fs, "kb");
  loaded.kb = kbc::load_listed_entries(fs, "kb", loaded.listing, schema, loaded.diagnostics);
  return loaded;
}

std::vector<std::string> lines(const kbc::Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const kbc::Diagnostic& d : diagnostics) out.push_back(kbc::format_diagnostic(d));
  return out;
}

kbc::MemoryFileSystem knowledge_base() {
  kbc::MemoryFileSystem fs;
  fs.files["kb/entries/cuda/a.yaml"] = kValid;  // valid
  // Loadable, rejected by the schema, with a kbc-disable comment and a recipe file.
  fs.files["kb/entries/cuda/b.yaml"] =
      "id: cuda/b\n# kbc-disable-next-line i18n-missing\nsignature: x\n"
      "reproduce:\n  file: b.sh\n";
  fs.files["kb/entries/cuda/b.sh"] = "echo b\n";
  fs.files["kb/entries/cuda/c.yaml"] = "id: [unclosed\n";  // not YAML: not an entry
  fs.files["kb/entries/cuda/d.yml"] = kValid;              // refused
  return fs;
}

}  // namespace

TEST_CASE("the unread knowledge base has the load's entries, ids, recipes and diagnostics") {
  const kbc::MemoryFileSystem fs = knowledge_base();
  const Loaded loaded = load(fs);
  REQUIRE(loaded.kb.entries.size() == 2);
  CHECK(loaded.kb.entries[0].shape_ok);
  CHECK_FALSE(loaded.kb.entries[1].shape_ok);
  CHECK(loaded.kb.recipe_paths == std::vector<std::string>{"entries/cuda/b.sh"});
  REQUIRE(loaded.diagnostics.size() >= 2);      // schema, YAML syntax
  REQUIRE(loaded.listing.refused.size() == 1);  // the .yml file

  // Through the cache's CBOR, as the next run reads it.
  const json summary = json::from_cbor(
      json::to_cbor(kbc::load_summary(loaded.listing, loaded.kb, loaded.diagnostics)));
  const kbc::EntryListing again = kbc::list_entry_files(fs, "kb");
  kbc::Diagnostics out;
  const auto unread = kbc::unread_knowledge_base(again, summary, out);
  REQUIRE(unread);
  CHECK_FALSE(unread->read);
  CHECK(unread->digest == loaded.kb.digest);
  CHECK(unread->file_ids == loaded.kb.file_ids);
  CHECK(unread->recipe_paths == loaded.kb.recipe_paths);
  kbc::Diagnostics expected = loaded.diagnostics;
  expected.insert(expected.end(), again.refused.begin(), again.refused.end());
  CHECK(lines(out) == lines(expected));
  REQUIRE(unread->entries.size() == loaded.kb.entries.size());
  for (std::size_t i = 0; i < unread->entries.size(); ++i) {
    const kbc::Entry& entry = unread->entries[i];
    const kbc::Entry& read = loaded.kb.entries[i];
    CHECK(entry.path == read.path);
    CHECK(entry.shape_ok == read.shape_ok);
    CHECK(entry.digest == read.digest);
    CHECK(entry.suppressions.size() == read.suppressions.size());
    CHECK(entry.data.is_null());
  }
  CHECK(unread->entries[1].suppressions.size() == 1);

  // A file kbc refuses is no entry and changes no digest; it is reported as the listing finds it.
  kbc::MemoryFileSystem more = fs;
  more.files["kb/entries/cuda/e.yml"] = kValid;
  kbc::Diagnostics now;
  REQUIRE(kbc::unread_knowledge_base(kbc::list_entry_files(more, "kb"), summary, now));
  CHECK(now.size() == out.size() + 1);
  CHECK(now.back().path == "entries/cuda/e.yml");
}

TEST_CASE("a summary of other files, or a damaged one, gives no unread knowledge base") {
  kbc::MemoryFileSystem fs = knowledge_base();
  const Loaded loaded = load(fs);
  const json summary = kbc::load_summary(loaded.listing, loaded.kb, loaded.diagnostics);
  kbc::Diagnostics out;

  fs.files["kb/entries/cuda/a.yaml"] = kValid + "# a comment\n";  // one byte more
  CHECK_FALSE(kbc::unread_knowledge_base(kbc::list_entry_files(fs, "kb"), summary, out));
  fs.files["kb/entries/cuda/a.yaml"] = kValid;
  fs.files["kb/entries/cuda/e.yaml"] = kValid;  // one file more
  CHECK_FALSE(kbc::unread_knowledge_base(kbc::list_entry_files(fs, "kb"), summary, out));
  fs.files.erase("kb/entries/cuda/e.yaml");

  const kbc::EntryListing same = kbc::list_entry_files(fs, "kb");
  json damaged = summary;
  damaged["entries"][0][0] = 99;  // no such file
  CHECK_FALSE(kbc::unread_knowledge_base(same, damaged, out));
  damaged = summary;
  damaged["diagnostics"] = "garbage";
  CHECK_FALSE(kbc::unread_knowledge_base(same, damaged, out));
  CHECK(out.empty());  // nothing added by the misses
  CHECK(kbc::unread_knowledge_base(same, summary, out));
}

TEST_CASE("a file that changes between the listing and the load is loaded as it is now") {
  kbc::MemoryFileSystem fs = knowledge_base();
  const kbc::SchemaValidator schema(json::parse(kbc::entry_schema_text(kbc::default_languages())));
  kbc::EntryListing listing = kbc::list_entry_files(fs, "kb");
  const std::string listed = listing.digest;
  fs.files["kb/entries/cuda/a.yaml"] = kValid + "# kbc-disable-next-line i18n-missing\n";
  kbc::Diagnostics diagnostics;
  const kbc::KnowledgeBase kb = kbc::load_listed_entries(fs, "kb", listing, schema, diagnostics);
  CHECK(listing.digest != listed);
  CHECK(kb.digest == listing.digest);
  CHECK(kb.digest == kbc::list_entry_files(fs, "kb").digest);
  CHECK(kb.entries[0].suppressions.size() == 1);
}
