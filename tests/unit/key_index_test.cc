// KeyIndex: every key indexed is found at its position, and nothing else is, whatever the keys
// share (a cache pack's keys share their first 64 characters with their slim copies').
#include "base/key_index.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

struct Keys {
  std::vector<std::string> keys;
  std::string_view operator()(std::size_t i) const { return keys[i]; }
};

}  // namespace

TEST_CASE("KeyIndex finds every key at its position and nothing else", "[key_index]") {
  Keys keys;
  for (int i = 0; i < 5000; ++i) {
    const std::string key = std::string(64, 'a' + i % 26) + std::to_string(i);
    keys.keys.push_back(key);
    keys.keys.push_back(key + "-slim");
  }
  kbc::KeyIndex index;
  index.build(keys.keys.size(), keys);
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    const std::optional<std::size_t> found = index.find(keys.keys[i], keys);
    REQUIRE(found);
    REQUIRE(*found == i);
  }
  CHECK_FALSE(index.find("", keys));
  CHECK_FALSE(index.find(std::string(64, 'a'), keys));
  CHECK_FALSE(index.find(keys.keys[0] + "x", keys));
  CHECK_FALSE(index.find(keys.keys[1].substr(0, keys.keys[1].size() - 1), keys));
}

TEST_CASE("KeyIndex of no keys, or cleared, finds nothing", "[key_index]") {
  Keys keys{{"one"}};
  kbc::KeyIndex index;
  CHECK_FALSE(index.find("one", keys));
  index.build(0, keys);
  CHECK_FALSE(index.find("one", keys));
  index.build(1, keys);
  CHECK(index.find("one", keys) == std::optional<std::size_t>(0));
  index.clear();
  CHECK_FALSE(index.find("one", keys));
}
