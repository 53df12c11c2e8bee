// How kbc match reads a line of a real log (log_lines.h), and near matches (near_match.h): tables
// of inputs and what each must give.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "match/log_lines.h"
#include "match/near_match.h"
#include "match/rank.h"

using namespace kbc;

TEST_CASE("normalized_line takes off colours, CI prefixes, Markdown quoting and bold") {
  struct Row {
    std::string line;
    std::string normalized;
  };
  const Row rows[] = {
      {"\x1b[31mERROR\x1b[0m: boom", "ERROR: boom"},
      {"2024-05-01T10:00:00.1234567Z npm ERR! code ERESOLVE", "npm ERR! code ERESOLVE"},
      {"2024-05-01 10:00:00,123 Traceback", "Traceback"},
      {"[2024-05-01 10:00:00] x", "x"},
      {"#12 0.345 npm ERR! code E404", "npm ERR! code E404"},
      {"#12 [2/4] RUN pip install", "#12 [2/4] RUN pip install"},  // a step name stays
      {"[INFO] BUILD FAILURE", "BUILD FAILURE"},
      {"[ERROR] Failed to execute goal", "Failed to execute goal"},
      {"##[error]Process completed with exit code 1.", "Process completed with exit code 1."},
      {"> > RuntimeError: x", "RuntimeError: x"},
      {"**RuntimeError: x**", "RuntimeError: x"},
      {"$ kubectl get pods", "kubectl get pods"},
      {"[10:00:01.123] fatal: not a git repository", "fatal: not a git repository"},
      {"10:00:01 error: x", "error: x"},
      {"2024 was a year", "2024 was a year"},  // a number is no timestamp
      {"**", ""},
      {"", ""},
  };
  for (const Row& row : rows) {
    INFO(row.line);
    std::string buffer;
    CHECK(normalized_line(row.line, buffer) == row.normalized);
  }
  // At most kMaxPrefixes prefixes go, so a hostile line cannot make it loop long.
  std::string quoted;
  for (int i = 0; i < 20; ++i) quoted += "> ";
  std::string buffer;
  CHECK(normalized_line(quoted + "x", buffer).starts_with(">"));
}

TEST_CASE("line_kind: the line that states the error, context and the rest") {
  struct Row {
    std::string line;
    LineKind kind;
    bool after_frame = false;
    bool error_word = false;
  };
  const Row rows[] = {
      {"torch.cuda.OutOfMemoryError: CUDA out of memory.", LineKind::key},
      {"KeyboardInterrupt", LineKind::key},
      {"java.lang.NullPointerException: x", LineKind::key},
      {"Exception in thread \"main\" java.lang.Error", LineKind::key},
      {"Caused by: java.net.ConnectException: refused", LineKind::key},
      {"panic: runtime error: index out of range", LineKind::key},
      {"error[E0382]: borrow of moved value: `x`", LineKind::key},
      {"src/main.c:3:5: error: unknown type name 'foo'", LineKind::key},
      {"src/app.ts(4,7): error TS2304: Cannot find name 'x'.", LineKind::key},
      {"npm ERR! code ERESOLVE", LineKind::key},
      {"npm error code E404", LineKind::key},
      {"docker: Error response from daemon: conflict", LineKind::key},
      {"Error from server (NotFound): pods \"x\" not found", LineKind::key},
      {"fatal: not a git repository", LineKind::key},
      {"E: Unable to locate package foo", LineKind::key},
      {"File \"/app/x.py\", line 3, in <module>", LineKind::context},
      {"import torch", LineKind::context, true},
      {"ModuleNotFoundError: No module named 'torch'", LineKind::key, true},  // no source shown
      {"at com.example.App.main(App.java:12)", LineKind::context, false, true},
      {"at Object.<anonymous> (/app/index.js:1:7)", LineKind::context},
      {"... 12 more", LineKind::context},
      {"Traceback (most recent call last):", LineKind::context, false, true},
      {"goroutine 1 [running]:", LineKind::context},
      {"/usr/local/go/src/runtime/panic.go:1038 +0x215", LineKind::context},
      {"main.go:12:5: undefined: foo", LineKind::plain},  // a compile error, not a frame
      {"12 |     let y = x;", LineKind::context},
      {"--> src/main.rs:4:5", LineKind::context},
      {"^^^^^^^^", LineKind::context},
      {"connection refused by db", LineKind::error, false, true},
      {"Successfully installed torch-2.1.0", LineKind::plain},
      {"Errors: 0, Failures: 0", LineKind::error, false, true},
  };
  for (const Row& row : rows) {
    INFO(row.line);
    CHECK(line_kind(row.line, row.after_frame, row.error_word) == row.kind);
  }
  CHECK(is_python_frame("File \"x.py\", line 3, in f"));
  CHECK_FALSE(is_python_frame("File not found"));
}

TEST_CASE("hit_score adds what the pattern says, its coverage and the line's part") {
  // A signature of 20 characters in a line of 40, on an error line: 100 + 100 + 50 + 100.
  CHECK(hit_score(true, 20, 40, LineKind::error) == 350);
  // A regex of 10 literal characters over a line of 100, on a plain line.
  CHECK(hit_score(false, 10, 100, LineKind::plain) == 60);
  // Capped at kMaxSpecificity; context weighs against.
  CHECK(hit_score(false, 500, 500, LineKind::context) == 400 + 100 - 200);
  CHECK(hit_score(false, 20, 20, LineKind::key) == 100 + 100 + 150);
  CHECK(breadth_penalty(0, 0) == 0);
  CHECK(breadth_penalty(1, 0) == 101);
  CHECK(breadth_penalty(5000, 0) == 200);
  CHECK(breadth_penalty(0, 3) == 60);
  CHECK(breadth_penalty(0, 50) == 200);
}

TEST_CASE("top_alternatives splits an alternation at its top, flags kept") {
  using V = std::vector<std::string>;
  CHECK(top_alternatives("(?i)(ResourceExhaustedError|OOM when allocating tensor)") ==
        V{"(?i)ResourceExhaustedError", "(?i)OOM when allocating tensor"});
  CHECK(top_alternatives("a|b(c|d)|[|]") == V{"a", "b(c|d)", "[|]"});
  CHECK(top_alternatives("(?:x|y)") == V{"x", "y"});
  CHECK(top_alternatives("(a|b)c").empty());  // the group is not the whole pattern
  CHECK(top_alternatives("(a|b)(c|d)").empty());
  CHECK(top_alternatives("(?P<n>a|b)").empty());  // a named group keeps its name
  CHECK(top_alternatives("a\\|b").empty());
  CHECK(top_alternatives("plain").empty());
  CHECK(top_alternatives("(unclosed|x").empty());
}

TEST_CASE("near matches: the words of an entry's phrases, rare ones weighing more") {
  std::vector<NearPhrases> entries;
  for (int i = 0; i < 30; ++i) entries.push_back({{"filler error number " + std::to_string(i)}});
  entries.push_back({{"error[E0382]: borrow of moved value", "use after move"}});
  entries.push_back({{"cuDNN error", "CUDNN_STATUS_BAD_PARAM"}});
  const NearIndex index(entries);
  CHECK(index.weight("error") == 0);  // in every entry
  CHECK(index.weight("e0382") == 5);  // in one of 32
  // A reworded message: the code and two of three other rare words.
  auto hits = index.match("error[E0382]: use of moved value: `a`");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].entry == 30);
  CHECK(hits[0].score >= kMinNearScore);
  // An error code alone.
  hits = index.match("CUDNN_STATUS_BAD_PARAM");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].entry == 31);
  CHECK(hits[0].score == 99);
  // One ordinary word is not enough, nor are common ones.
  CHECK(index.match("the value was moved").empty());
  CHECK(index.match("filler error number").empty());
  CHECK(near_words("Error: 404 at x_y E0382 ab") ==
        std::vector<std::string>{"error", "x_y", "e0382"});
  CHECK(is_code_word("cudnn_status"));
  CHECK(is_code_word("e0382"));
  CHECK_FALSE(is_code_word("moved"));
  CHECK_FALSE(is_code_word("e382"));
}
