// Slim entries (Entry::slim): what a lint after an edit loads of the files it only cross-checks,
// from the parse cache's slim copy of each result.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/digest.h"
#include "base/file_system.h"
#include "model/knowledge_base.h"
#include "model/languages.h"
#include "model/parse_cache.h"
#include "temp_dir.h"
#include "validate/schema_validator.h"

namespace {

using nlohmann::json;

const std::string kEntry =
    "id: cuda/a\nsignature: 'Error a happened'\nregex: 'Error a happened'\ndomain: cuda\n"
    "category: runtime_error\nroot_cause: 'A cause.'\ndead_ends: []\nworkarounds: []\n"
    "verification_tier: human_reviewed\nconfidence: 0.8\nfix_success_rate: 0.8\n"
    "resolvable: 'true'\nfirst_seen: '2024-01-01'\nlast_confirmed: '2024-01-01'\n"
    "last_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n"
    "samples:\n  - 'Error a happened twice'\n";

const kbc::SchemaValidator& schema() {
  static const kbc::SchemaValidator validator(
      json::parse(kbc::entry_schema_text(kbc::default_languages())));
  return validator;
}

}  // namespace

TEST_CASE("a slim entry keeps its slim keys with their positions, and refuses the others") {
  kbc::Diagnostics out;
  auto document = kbc::load_yaml("entries/cuda/a.yaml", kEntry, out);
  REQUIRE(document);
  const kbc::Entry entry{"entries/cuda/a.yaml", "cuda/a", document->value, document->sources};
  const kbc::Entry slim = entry.slimmed();
  CHECK(slim.slim);
  CHECK(slim.id() == "cuda/a");
  CHECK(slim.text("/signature") == "Error a happened");
  CHECK(slim.text("/samples/0") == "Error a happened twice");
  CHECK(slim.find("/fix_success_rate")->get<double>() == 0.8);
  CHECK(slim.value_at("/samples/0").line == entry.value_at("/samples/0").line);
  CHECK(slim.value_at("/samples/0").line == 19);
  CHECK(slim.value_at("/regex").column == entry.value_at("/regex").column);
  CHECK_FALSE(slim.data.contains("root_cause"));
  CHECK(slim.sources.pack().size() < entry.sources.pack().size());
  CHECK_THROWS_AS(slim.find("/root_cause"), std::logic_error);
  CHECK_THROWS_AS(slim.list("/workarounds"), std::logic_error);
  CHECK(entry.text("/root_cause") == "A cause.");  // the whole entry reads every key
}

TEST_CASE("the parse cache gives a slim copy, and keeps the whole result for a later run") {
  const kbc_test::TempDir dir;
  std::filesystem::create_directories(dir.root / "entries/cuda");
  std::ofstream(dir.root / "entries/cuda/a.yaml") << kEntry;
  const kbc::RealFileSystem fs;
  const std::string root = dir.root.string();
  const auto load = [&](bool slim) {
    kbc::ParseCache cache(root, "salt");
    kbc::EntryListing listing = kbc::list_entry_files(fs, root);
    kbc::Diagnostics out;
    return kbc::load_listed_entries(fs, root, listing, schema(), out, &cache, nullptr,
                                    std::vector<bool>(listing.files.size(), slim));
  };
  CHECK_FALSE(load(false).entries.at(0).slim);  // parsed, then stored with its slim copy
  kbc::KnowledgeBase slim = load(true);         // from the slim copy; the prune keeps the whole
  REQUIRE(slim.entries.size() == 1);
  CHECK(slim.entries[0].slim);
  CHECK(slim.entries[0].shape_ok);
  CHECK(slim.entries[0].digest == kbc::digest_of(kEntry));
  CHECK(slim.by_id.count("cuda/a") == 1);
  kbc::ParseCache cache(root, "salt");
  const auto whole = cache.find("entries/cuda/a.yaml", kbc::digest_of(kEntry));
  REQUIRE(whole);
  CHECK_FALSE(whole->entry->slim);
  CHECK(whole->entry->text("/root_cause") == "A cause.");
  // whole_entry reads it back from there, and a file changed since is refused.
  CHECK(kbc::whole_entry(fs, root, slim.entries[0], schema(), &cache).text("/root_cause") ==
        "A cause.");
  std::ofstream(dir.root / "entries/cuda/a.yaml") << kEntry << "# changed\n";
  CHECK_THROWS_AS(kbc::whole_entry(fs, root, slim.entries[0], schema(), nullptr), kbc::ToolError);
}
