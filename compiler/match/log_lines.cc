#include "match/log_lines.h"

#include <re2/re2.h>

#include "base/text.h"

namespace kbc {

const char* const kAnsiPattern = R"(\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_])";

const char* const kPrefixPattern =
    R"(^(?:> ?|\*\*|\$ |\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?)"
    R"(|#\d+ \d+\.\d+|\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?)"
    R"(|\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\]|##\[[a-z]+\])[ \t]*)";

const char* const kContextPattern =
    R"(^(?:File "[^"]*", line \d+|at [^ ]|\.\.\. \d+ more|Traceback \(most recent call last\))"
    R"(|During handling of the above exception|The above exception was the direct cause)"
    R"(|goroutine \d+ \[|[^ ]+\.go:\d+(?: \+0x[0-9a-f]+)?$|\d* *\||-->|= (?:note|help):|[\^~]+$))";

const char* const kKeyLinePattern =
    R"(^(?:(?:[A-Za-z_][A-Za-z0-9_$]*\.)*[A-Za-z_][A-Za-z0-9_$]*(?:Error|Exception|Interrupt|Exit|Fault)(?::|$))"
    R"(|Exception in thread |Caused by: |panic: |fatal error: )"
    R"(|(?:[A-Za-z][A-Za-z0-9_.-]*: )?(?:(?:error|Error|ERROR|FATAL|fatal|E)(?:\[E?\d+\])?: )"
    R"(|Error (?:from server|response from daemon))|npm (?:ERR!|error) code ))"
    R"(|:\d+:\d+: (?:fatal )?error: |\berror (?:TS|CS|C|LNK)\d+:)";

const char* const kPythonFramePattern = R"(^File "[^"]*", line \d+)";

namespace {

// The patterns compiled once, on first use; RE2 objects are safe to share between threads.
struct Compiled {
  RE2 ansi{kAnsiPattern}, prefix{kPrefixPattern}, context{kContextPattern}, key{kKeyLinePattern},
      frame{kPythonFramePattern};
};

const Compiled& compiled() {
  static const Compiled patterns;
  return patterns;
}

// Whether the prefix pattern can match at all: its alternatives all begin with one of these.
bool may_have_prefix(std::string_view line) {
  if (line.empty()) return false;
  const char c = line[0];
  return c == '>' || c == '*' || c == '$' || c == '#' || c == '[' || (c >= '0' && c <= '9');
}

}  // namespace

std::string_view line_kind_name(LineKind kind) {
  switch (kind) {
    case LineKind::context:
      return "context";
    case LineKind::plain:
      return "plain";
    case LineKind::error:
      return "error";
    case LineKind::key:
      return "key";
  }
  return "plain";
}

std::string_view normalized_line(std::string_view line, std::string& buffer) {
  if (line.find('\x1b') != std::string_view::npos) {
    buffer.assign(line);
    RE2::GlobalReplace(&buffer, compiled().ansi, "");
    line = trim(buffer);
  }
  const RE2& prefix = compiled().prefix;
  for (int i = 0; i < kMaxPrefixes && may_have_prefix(line); ++i) {
    re2::StringPiece input(line.data(), line.size());
    if (!RE2::Consume(&input, prefix) || input.size() == line.size()) break;
    line = trim(std::string_view(input.data(), input.size()));
  }
  if (line.size() > kBoldMarker.size() &&
      line.substr(line.size() - kBoldMarker.size()) == kBoldMarker)
    line = trim(line.substr(0, line.size() - kBoldMarker.size()));
  return line;
}

bool is_python_frame(std::string_view normalized) {
  return normalized.substr(0, 6) == "File \"" &&
         RE2::PartialMatch(re2::StringPiece(normalized.data(), normalized.size()),
                           compiled().frame);
}

LineKind line_kind(std::string_view normalized, bool after_python_frame, bool error_word) {
  const re2::StringPiece text(normalized.data(), normalized.size());
  if (RE2::PartialMatch(text, compiled().key)) return LineKind::key;
  if (after_python_frame || RE2::PartialMatch(text, compiled().context)) return LineKind::context;
  return error_word ? LineKind::error : LineKind::plain;
}

}  // namespace kbc
