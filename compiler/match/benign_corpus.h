// The benign corpus: ordinary output of the tools a knowledge base covers (package managers,
// compilers and build systems, test runners, container and cluster CLIs, GPU tools, ML
// frameworks' start-up and training logs, servers' start-up lines, git, CI runners), none of it
// a failure. A regex that matches one of its lines fires on logs where nothing went wrong:
// `kbc match` weighs that against the regex (rank.h: breadth_penalty) and `kbc lint` reports it
// (regex-too-broad).
//
// kbc carries it built in (compiler/match/benign/*.log, one line of output per line, written
// or generated for kbc: bench/benign_corpus.py); a knowledge base adds its own files with
// kbc.yaml's `benign` list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/benign_file.h"

namespace kbc {

struct BenignLine {
  std::string_view text;  // trimmed, not blank
  std::string_view file;  // "compiler/match/benign/docker.log", or the knowledge base's file
  std::size_t line = 0;   // 1-based
};

// The built-in lines, in file and line order.
const std::vector<BenignLine>& builtin_benign_lines();

// The built-in lines, then those of a knowledge base's `files` (kbc.yaml's benign), which they
// view: `files` must outlive them.
std::vector<BenignLine> benign_lines_with(const std::vector<BenignFile>& files);

// The lines of `text`, trimmed, without the blank ones, named after `file`; they view `text`.
void append_benign_lines(std::string_view text, std::string_view file,
                         std::vector<BenignLine>& out);

}  // namespace kbc
