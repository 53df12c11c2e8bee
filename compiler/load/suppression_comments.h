// The kbc-disable comments of an entry file, found in its raw text.
//
//   # kbc-disable-next-line i18n-missing, text-whitespace -- why (optional)
//   # kbc-disable-file regex-overlap
//
// yaml-cpp drops comments, so this scanner reads the lines itself. A directive counts only as a
// whole-line comment (nothing but white space before the '#') outside any scalar: the scanner
// follows quoted scalars across lines and block scalars (`|`, `>`) by their indentation, so a
// '#' inside a quoted text or a block of text is never taken for a comment. What the rules mean
// is decided later (lint/suppressions.cc); this stage only finds and splits the comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

namespace kbc {

struct SuppressionComment {
  enum class Kind { kNextLine, kFile, kUnknown };
  struct Name {
    std::string text;
    Location at;
  };

  Kind kind = Kind::kUnknown;
  Name directive;           // "kbc-disable-next-line", or the misspelt word for kUnknown
  std::vector<Name> rules;  // the rule ids it lists, as written
  // kNextLine: the first line after the comment that is neither blank nor a comment; 0 when
  // there is none.
  int target_line = 0;
};

// Every kbc-disable comment of `text`, in order. Cheap when there is none.
std::vector<SuppressionComment> scan_suppression_comments(std::string_view text);

}  // namespace kbc
