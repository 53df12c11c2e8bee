// find_backtracking (lint/backtracking.h), which lint's regex-backtracking rule reports: a table
// of RE2 patterns a backtracking engine can take exponential time over, with the parts the
// finding names, and a table of near misses it must leave alone (escapes, classes, passes that
// end with a character the inner repetition cannot match, polynomial shapes).
#include <catch2/catch.hpp>

#include <re2/re2.h>

#include <string>

#include "lint/backtracking.h"
#include "match/regex_index.h"

using namespace kbc;

namespace {

struct Flagged {
  const char* pattern;
  Backtracking::Kind kind;
  const char* repeated;
  const char* inner;
  const char* other;
};

struct Kept {
  const char* pattern;
  const char* why;  // why a backtracking engine runs it without blowing up
};

constexpr auto kNested = Backtracking::kNestedRepetition;
constexpr auto kAlternatives = Backtracking::kOverlappingAlternatives;

bool re2_takes(const std::string& pattern) { return RE2(pattern, entry_regex_options()).ok(); }

}  // namespace

TEST_CASE("find_backtracking finds repeated parts that split a text in many ways") {
  const Flagged rows[] = {
      {"(a+)+", kNested, "(a+)+", "a+", ""},
      {"^(a+)+$", kNested, "(a+)+", "a+", ""},
      {"(a*)*", kNested, "(a*)*", "a*", ""},
      {"(.*)*", kNested, "(.*)*", ".*", ""},
      {"(\\w+\\s?)+", kNested, "(\\w+\\s?)+", "\\w+", ""},
      {"(?:[a-z]+\\d*)+", kNested, "(?:[a-z]+\\d*)+", "[a-z]+", ""},
      {"error: (?:\\S+\\s*)+\\)", kNested, "(?:\\S+\\s*)+", "\\S+", ""},
      {"(a+|b)+c", kNested, "(a+|b)+", "a+", ""},
      {"(.*,)*x", kNested, "(.*,)*", ".*", ""},  // `,` is also `.`
      {"(\\d+[0-9])+x", kNested, "(\\d+[0-9])+", "\\d+", ""},
      {"(a{2,})+$", kNested, "(a{2,})+", "a{2,}", ""},
      {"(a+){1,10}$", kNested, "(a+){1,10}", "a+", ""},  // a large bound
      {"(a+?)+?$", kNested, "(a+?)+?", "a+?", ""},       // lazy as greedy
      {"((a+)?b?)+$", kNested, "((a+)?b?)+", "a+", ""},
      {"(?:(?:ab)+)+$", kNested, "(?:(?:ab)+)+", "(?:ab)+", ""},
      {"x(?:y(z+)+)?$", kNested, "(z+)+", "z+", ""},                 // found inside another group
      {"(?i)(?:[a-z]+K)+$", kNested, "(?:[a-z]+K)+", "[a-z]+", ""},  // K is [a-z] under (?i)
      {"(?s)(?:.*\\n)+x", kNested, "(?:.*\\n)+", ".*", ""},          // `.` matches \n under (?s)
      {"(?i)(?:a+\\x{41})+$", kNested, "(?:a+\\x{41})+", "a+", ""},
      {"(\\w+\\Qa\\E)+$", kNested, "(\\w+\\Qa\\E)+", "\\w+", ""},
      {"(a|a)*b", kAlternatives, "(a|a)*", "a", "a"},
      {"(\\w|\\d)+$", kAlternatives, "(\\w|\\d)+", "\\w", "\\d"},
      {"(?:.|\\s)*x", kAlternatives, "(?:.|\\s)*", ".", "\\s"},
      {"(a|aa)*b", kAlternatives, "(a|aa)*", "a", "aa"},
      {"(?:[ab]c|a[c-e])+$", kAlternatives, "(?:[ab]c|a[c-e])+", "[ab]c", "a[c-e]"},
      {"(?:x(?:\\pL|[a-z])y)+$", kAlternatives, "(?:x(?:\\pL|[a-z])y)+", "\\pL", "[a-z]"},
      {"(?i)(?:a|A)+$", kAlternatives, "(?:a|A)+", "a", "A"},
  };
  for (const Flagged& row : rows) {
    INFO("pattern " << row.pattern);
    CHECK(re2_takes(row.pattern));
    const auto found = find_backtracking(row.pattern);
    CHECK(found);
    if (!found) continue;
    CHECK(found->kind == row.kind);
    CHECK(found->repeated == row.repeated);
    CHECK(found->inner == row.inner);
    CHECK(found->other == row.other);
  }
}

TEST_CASE("find_backtracking leaves linear and polynomial regexes alone") {
  const Kept rows[] = {
      {"a+b+", "no repeated part holds a repetition"},
      {".*foo.*bar", "polynomial"},
      {"\\d+.*\\d+$", "polynomial"},
      {".*.*x", "polynomial"},
      {"\\s*\\s*$", "polynomial"},
      {"(\\w+\\.)+\\w+", "each pass ends with a dot, which \\w cannot match"},
      {"([^,]*,)*x", "the classic fix of (.*,)*"},
      {"(?:[0-9]+ )*0\\b", "a shipped entry's"},
      {"libcudnn\\.so(?:\\.[0-9]+)*", "a shipped entry's"},
      {"(\\w+\\s)+$", "\\s is not \\w"},
      {"(a+b)+$", "b is not a"},
      {"(ab+)+$", "each pass starts with a, which is not b"},
      {"(?:(?:ab)+c)+$", "each pass ends with c"},
      {"(\\w+\\b)+$", "\\b holds only at the end of a word"},
      {"(a+){2,5}$", "a small bound"},
      {"(a+)?$", "not repeated"},
      {"(?:a|b+)c", "not repeated"},
      {"(a+){0}x", "repeated zero times"},
      {"x(?:\\b+)+$", "a repeated assertion matches no character"},
      {"(a|b)*c", "alternatives that never match the same text"},
      {"(\\d|[a-f])+$", "alternatives that never match the same text"},
      {"(ab|ba)+$", "alternatives that never match the same text"},
      {"(.|\\n)*x", ". does not match \\n"},
      {"(?:.*\\n)+x", ". does not match \\n"},
      {"(a|ab)*c", "a text splits one way only"},
      {"(?:[a-z]+K)+$", "K is not [a-z] without (?i)"},
      {"(?i)(?:[a-z]+\\d)+$", "\\d is not [a-z], even under (?i)"},
      {"\\(a+\\)+", "escaped parentheses"},
      {"\\(a\\+\\)\\+", "escaped parentheses and quantifiers"},
      {"[(a+)+]", "a class"},
      {"[+*]+", "quantifiers in a class"},
      {"\\Q(a+)+\\E", "quoted"},
  };
  for (const Kept& row : rows) {
    INFO("pattern " << row.pattern << ": " << row.why);
    CHECK(re2_takes(row.pattern));
    CHECK_FALSE(find_backtracking(row.pattern));
  }
}

TEST_CASE("find_backtracking claims nothing on text that is not RE2 syntax") {
  for (const char* pattern : {"(a+", "a+)", "(a+)+\\", "\\1(a+)+", "(?<a+)+"}) {
    INFO("pattern " << pattern);
    CHECK_FALSE(find_backtracking(pattern));
  }
}
