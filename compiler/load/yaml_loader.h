// Stage 2 of the pipeline: YAML text -> a JSON value that remembers where each node came from.
//
// The loader drives yaml-cpp's event parser itself instead of using YAML::Load, because only the
// events carry what authors need in a diagnostic: the position of every key and value, whether
// a scalar was quoted (`'true'` is a string, `true` a boolean), and each duplicate key. Scalars
// are resolved with the YAML 1.2 core schema, so `2024-06-01` stays a string.
//
// Untrusted input stays bounded: files over kMaxFileBytes, nesting over kMaxDepth and documents
// that expand (through aliases) to more than kMaxNodes nodes are refused with a diagnostic.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/diagnostic.h"

namespace kbc {

inline constexpr std::size_t kMaxFileBytes = 1 << 20;
inline constexpr int kMaxDepth = 64;
inline constexpr std::size_t kMaxNodes = 100'000;

// Where a node sits in the source, keyed by its JSON pointer ("" is the root,
// "/dead_ends/0/action").
struct NodeSource {
  Location key;    // the key of a mapping entry; for sequence items and the root, same as value
  Location value;  // the value itself
};

// The positions of an entry's nodes, kept as one packed byte string (length-prefixed pointer,
// then four 32-bit numbers per node): a map of strings cost about 10 KB per entry, which a
// knowledge base of 100,000 entries could not afford. A lookup scans the string (an entry has
// about a hundred nodes, and lookups are made for findings only).
class SourceMap {
 public:
  // Records where the node at `pointer` is; a later record of the same pointer wins.
  void set(std::string_view pointer, NodeSource source);
  // The position of the node at `pointer`, falling back to its nearest ancestor.
  NodeSource find(std::string_view pointer) const;

  // The map as one compact byte string, and back, for the parse cache.
  const std::string& pack() const { return packed_; }
  static SourceMap unpack(std::string bytes);
  // The positions of the nodes whose pointer `keep` accepts.
  SourceMap only(const std::function<bool(std::string_view pointer)>& keep) const;
  // Gives back the room its growth left unused (half of it, on average).
  void shrink() { packed_.shrink_to_fit(); }

 private:
  std::optional<NodeSource> find_exact(std::string_view pointer) const;

  std::string packed_;
};

struct YamlDocument {
  nlohmann::json value;
  SourceMap sources;
};

// Parses one file. Problems (syntax, encoding, duplicate keys, structure) are appended to `out`
// with `path` as their file; returns nullopt when the file cannot be turned into a value.
std::optional<YamlDocument> load_yaml(const std::string& path, std::string_view text,
                                      Diagnostics& out);

// True when `text`, written as a plain (unquoted) scalar, would load back as the same text.
bool plain_scalar_is_text(const std::string& text);

}  // namespace kbc
