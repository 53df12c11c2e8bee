#include <catch2/catch.hpp>

#include "base/text.h"

using namespace kbc;

TEST_CASE("edit distance and did-you-mean") {
  CHECK(edit_distance("signature", "signatur") == 1);
  CHECK(closest_match("why_fail", {"why_fails", "action"}) ==
        std::optional<std::string>("why_fails"));
  CHECK_FALSE(closest_match("zzzzzz", {"why_fails", "action"}));
}
