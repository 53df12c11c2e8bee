// A file of kbc.yaml's `benign` list: ordinary output that a knowledge base adds to kbc's benign
// corpus (match/benign_corpus.h). Read with kbc.yaml (model/config.h), carried by the
// KnowledgeBase.
#pragma once

#include <string>

namespace kbc {

struct BenignFile {
  std::string path;  // as kbc.yaml gives it, relative to the root
  std::string text;
};

}  // namespace kbc
