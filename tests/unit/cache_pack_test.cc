// CachePack on a real file system: what a run finds of what the last ones stored, whatever they
// dropped, however the pack was written anew, and what damage or a second writer does.
#include "base/cache_pack.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using kbc::CachePack;
using kbc_test::TempDir;

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put_bytes(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Stores `values` in the pack at `path`, as one run.
void store_all(const fs::path& path, const std::map<std::string, std::string>& values) {
  CachePack pack(path.string());
  for (const auto& [key, value] : values) pack.store(key, value);
}

// What one run finds of `keys` in the pack at `path`.
std::map<std::string, std::optional<std::string>> find_all(const fs::path& path,
                                                           const std::vector<std::string>& keys) {
  CachePack pack(path.string());
  std::map<std::string, std::optional<std::string>> out;
  for (const std::string& key : keys) out[key] = pack.find(key);
  return out;
}

}  // namespace

TEST_CASE("a pack finds what earlier runs stored, under its key only") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  {
    CachePack pack(path.string());
    CHECK_FALSE(pack.find("a"));
    pack.store("a", "first");
    pack.store("b", std::string(10000, 'b'));
    pack.store("c", "");
    CHECK(pack.find("a") == "first");  // in the same run
    pack.store("a", "second");         // stored again: the later value
    CHECK(pack.find("a") == "second");
    pack.commit();  // and its memory let go: nothing found or kept after it
    CHECK_FALSE(pack.find("a"));
    pack.store("z", "late");
  }
  const auto found = find_all(path, {"a", "b", "c", "ab", "", "d", "z"});
  CHECK(found.at("a") == "second");
  CHECK(found.at("b") == std::string(10000, 'b'));
  CHECK(found.at("c") == "");
  CHECK_FALSE(found.at("ab"));
  CHECK_FALSE(found.at(""));
  CHECK_FALSE(found.at("d"));
  CHECK_FALSE(found.at("z"));
  // A run that only reads writes nothing.
  const auto index_time = fs::last_write_time(temp.root / "pack.index");
  const std::string pack_bytes = file_bytes(path);
  find_all(path, {"a"});
  CHECK(fs::last_write_time(temp.root / "pack.index") == index_time);
  CHECK(file_bytes(path) == pack_bytes);
}

TEST_CASE("a pack that drops unused values keeps those found or stored") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  store_all(path, {{"a", "1"}, {"b", "2"}, {"c", "3"}});
  {
    CachePack pack(path.string());
    CHECK(pack.find("a") == "1");
    pack.store("d", "4");
    pack.drop_unused();
  }
  const auto found = find_all(path, {"a", "b", "c", "d"});
  CHECK(found.at("a") == "1");
  CHECK_FALSE(found.at("b"));
  CHECK_FALSE(found.at("c"));
  CHECK(found.at("d") == "4");
  // Without drop_unused, what a run did not ask for stays.
  {
    CachePack pack(path.string());
    pack.store("e", "5");
  }
  CHECK(find_all(path, {"a", "d", "e"}) ==
        std::map<std::string, std::optional<std::string>>{{"a", "1"}, {"d", "4"}, {"e", "5"}});
}

// Random runs against a model: values stored, stored again, dropped; the pack written anew
// whenever most of it is dead. Every run then finds exactly the model's values.
TEST_CASE("a pack written anew over many runs finds what a model of it holds") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  std::mt19937 random(7);
  std::map<std::string, std::string> model;
  std::uintmax_t largest = 0;
  bool shrank = false;
  for (int round = 0; round < 40; ++round) {
    {
      CachePack pack(path.string());
      const bool drop = random() % 3 == 0;
      std::map<std::string, std::string> kept;
      for (auto& [key, value] : model) {
        if (random() % 4 == 0) {
          value = std::string(random() % 3000, static_cast<char>('a' + random() % 26));
          pack.store(key, value);
          kept[key] = value;
        } else if (!drop || random() % 2 == 0) {
          REQUIRE(pack.find(key) == value);
          kept[key] = value;
        }
      }
      for (int added = 0; added < 5; ++added) {
        const std::string key = "k" + std::to_string(random() % 200);
        const std::string value(random() % 3000, static_cast<char>('A' + random() % 26));
        pack.store(key, value);
        kept[key] = value;
      }
      if (drop) {
        pack.drop_unused();
        model = kept;
      } else {
        for (const auto& [key, value] : kept) model[key] = value;
      }
    }
    CAPTURE(round);
    std::vector<std::string> keys;
    for (const auto& [key, value] : model) keys.push_back(key);
    for (const auto& [key, value] : find_all(path, keys)) CHECK(value == model.at(key));
    const std::uintmax_t size = fs::file_size(path);
    shrank = shrank || size < largest;
    largest = std::max(largest, size);
  }
  CHECK(shrank);  // written anew at least once
  std::uintmax_t live = 0;
  for (const auto& [key, value] : model) live += key.size() + value.size();
  CHECK(fs::file_size(path) <= 2 * live + 64);
}

TEST_CASE("while one pack writes, another of the same file only reads") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  store_all(path, {{"a", "1"}});
  {
    CachePack writer(path.string());
    writer.store("b", "2");  // holds the lock from here
    CachePack reader(path.string());
    CHECK(reader.find("a") == "1");
    CHECK_FALSE(reader.find("b"));  // not in the index it read
    reader.store("c", "3");         // not kept
    reader.drop_unused();
  }
  const auto found = find_all(path, {"a", "b", "c"});
  CHECK(found.at("a") == "1");
  CHECK(found.at("b") == "2");
  CHECK_FALSE(found.at("c"));
}

TEST_CASE("a damaged pack or index finds nothing wrong, and is written anew") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  const fs::path index = temp.root / "pack.index";
  const std::map<std::string, std::string> values = {
      {"a", "alpha"}, {"b", std::string(500, 'b')}, {"c", "gamma"}};
  std::vector<std::string> keys = {"a", "b", "c"};
  const auto all_or_none = [&] {
    const auto found = find_all(path, keys);
    const std::size_t hits =
        std::ranges::count_if(found, [](const auto& f) { return bool(f.second); });
    for (const auto& [key, value] : found) {
      if (value) CHECK(*value == values.at(key));
    }
    return hits;
  };
  store_all(path, values);
  REQUIRE(all_or_none() == 3);

  SECTION("every byte of the index changed in turn") {
    const std::string bytes = file_bytes(index);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ 0x20);
      put_bytes(index, damaged);
      CAPTURE(i);
      CHECK(all_or_none() == 0);
    }
  }
  SECTION("the index cut short") {
    const std::string bytes = file_bytes(index);
    for (std::size_t size = 0; size < bytes.size(); size += 7) {
      put_bytes(index, bytes.substr(0, size));
      CHECK(all_or_none() == 0);
    }
  }
  SECTION("the index of another pack") {
    store_all(temp.root / "other", values);
    fs::copy_file(temp.root / "other.index", index, fs::copy_options::overwrite_existing);
    CHECK(all_or_none() == 0);
  }
  SECTION("the pack cut short") {
    const std::string bytes = file_bytes(path);
    put_bytes(path, bytes.substr(0, bytes.size() - 1));
    CHECK(all_or_none() == 0);
  }
  SECTION("a key in the pack changed") {
    std::string bytes = file_bytes(path);
    const std::size_t at = bytes.find("gamma") - 1;  // the key "c"
    REQUIRE(bytes[at] == 'c');
    bytes[at] = 'x';
    put_bytes(path, bytes);
    const auto found = find_all(path, keys);
    CHECK(found.at("a") == "alpha");
    CHECK_FALSE(found.at("c"));
  }
  SECTION("a pack of garbage") {
    put_bytes(path, "\x9f garbage");
    CHECK(all_or_none() == 0);
    store_all(path, values);  // a writer starts a pack anew
    CHECK(all_or_none() == 3);
  }
  SECTION("bytes a killed run appended") {
    put_bytes(path, file_bytes(path) + "k" + std::string(100, 'z'));
    CHECK(all_or_none() == 3);
    store_all(path, {{"d", "delta"}});
    keys.push_back("d");
    const auto found = find_all(path, keys);
    CHECK(found.at("a") == "alpha");
    CHECK(found.at("d") == "delta");
  }
}

TEST_CASE("a pack that is a link is neither read nor written through") {
  TempDir temp;
  const fs::path path = temp.root / "pack";
  store_all(temp.root / "elsewhere", {{"a", "1"}});
  const std::string elsewhere = file_bytes(temp.root / "elsewhere");
  fs::create_symlink(temp.root / "elsewhere", path);
  fs::copy_file(temp.root / "elsewhere.index", temp.root / "pack.index");
  {
    CachePack pack(path.string());
    CHECK_FALSE(pack.find("a"));
    pack.store("b", "2");
  }
  CHECK(file_bytes(temp.root / "elsewhere") == elsewhere);
  CHECK(fs::is_symlink(path));
}

TEST_CASE("a pack owns its three files and no other") {
  const CachePack pack("/cache/results");
  for (const char* name : {"results", "results.index", "results.lock"}) CHECK(pack.owns(name));
  for (const char* name : {"records", "results.tmp-12", "results.indexx", "result", ""})
    CHECK_FALSE(pack.owns(name));
}
