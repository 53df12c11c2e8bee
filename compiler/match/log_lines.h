// How `kbc match` reads a line of a real log before matching it: what to strip from it, and what
// part it plays in the log.
//
// Logs that users paste come with noise that no entry's pattern expects: ANSI colour codes, CI
// timestamps and step prefixes ("2024-05-01T10:00:00.123Z ", BuildKit's "#12 0.345 ",
// "[INFO] "), Markdown quoting ("> ", "**") and CRLF line ends. `normalized_line` strips them,
// so that an anchored regex still matches and the coverage of a match counts the message only.
//
// A log also has structure. In a traceback the frames ("File "x.py", line 3, in f", Java's
// "at com.x.Y(Y.java:12)", Go's "main.go:12 +0x1d") and the source lines quoted under them are
// context: they name code, often with error words in its paths, and are not the error. The
// decisive lines are the final exception line of a Python or Java traceback, "Caused by:", Go's
// "panic:", rustc's "error[E0382]:", a compiler's "file:1:2: error:" and npm's "npm ERR! code":
// `line_kind` weighs them most (rank.h).
//
// The patterns are RE2 syntax that JavaScript reads the same way (ASCII classes, no flags, no
// lookaround), so that the site's paste box uses these very texts (match.json carries them).
#pragma once

#include <string>
#include <string_view>

namespace kbc {

enum class LineKind {
  context,  // a stack frame, a source line quoted in a traceback, a traceback's header
  plain,    // no error word
  error,    // an error word (looks_like_error)
  key,      // the line that states the error (kKeyLinePattern)
};

// The lowercase name of a kind, as --json writes it.
std::string_view line_kind_name(LineKind kind);

// ANSI escape sequences, removed wherever they are.
extern const char* const kAnsiPattern;
// One prefix that is noise, at the start of a trimmed line; removed again and again (at most
// kMaxPrefixes times), with the blanks after it.
extern const char* const kPrefixPattern;
constexpr int kMaxPrefixes = 8;
// Markdown's bold at the end of a line.
constexpr std::string_view kBoldMarker = "**";
// A line that is context (a frame, a traceback's header, a quoted source line's marks).
extern const char* const kContextPattern;
// A line that states the error.
extern const char* const kKeyLinePattern;
// A Python frame ("File "...", line N"): the line after it, unless it is a key line, is the
// source line it quotes, and context.
extern const char* const kPythonFramePattern;

// `line` (trimmed) without its noise: the escape sequences, then the prefixes, then a final
// "**", trimmed again. Returns a view of `line` when only prefixes went, else of `buffer`.
std::string_view normalized_line(std::string_view line, std::string& buffer);

// What a normalized line is, given whether the line before it was a Python frame; `error_word`
// is whether it holds an error word (the matcher knows it from its index).
LineKind line_kind(std::string_view normalized, bool after_python_frame, bool error_word);

// Whether a normalized line is a Python frame (kPythonFramePattern).
bool is_python_frame(std::string_view normalized);

}  // namespace kbc
