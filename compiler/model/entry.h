// The model: one knowledge-base entry as loaded, with the source position of every node.
//
// Lint and render read entries through these accessors, never YAML. An entry keeps its data as
// written even when the schema rejected it (shape_ok is false), so lint can still report every
// other problem; the accessors therefore check types instead of trusting them.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "load/suppression_comments.h"
#include "load/yaml_loader.h"

namespace kbc {

struct Entry {
  std::string path;          // relative to the root: "entries/cuda/x.yaml"
  std::string id_from_path;  // "cuda/x"
  nlohmann::json data;       // the mapping as written
  SourceMap sources;
  bool shape_ok = false;  // true when the schema accepted it
  // Its kbc-disable comments: read from the text on every run, never from the parse cache.
  // With an initializer, so that `Entry{path, id, data, sources}` still works.
  std::vector<SuppressionComment> suppressions = {};
  // A digest of the file's content, computed on every run: equal digests, equal bytes.
  std::string digest = {};
  // True for an entry loaded with only its slim keys (kSlimKeys) and their source positions:
  // what the cross-entry rules and the build read of an entry whose file the last lint checked
  // as it is (see slimmed). Reading any other key of it throws std::logic_error, so that a rule
  // that comes to read more fails its tests instead of seeing the key missing.
  bool slim = false;

  // The top-level keys that a slim entry keeps: what the cross-entry rules read of an entry
  // they do not report on (its id, texts, regex, links, recipe), and what ranking it in kbc
  // match reads (signature_winners).
  static bool is_slim_key(std::string_view key);
  // A copy with the slim keys only, and the positions of the nodes under them.
  Entry slimmed() const;

  // The declared id when it is text, else the id the path implies.
  const std::string& id() const;
  // Frees the data and source positions, for a build done with them (its record is made); the
  // entry keeps its path, and id() becomes the id the path implies.
  void drop_data() {
    data = nlohmann::json();
    sources = SourceMap();
    suppressions.clear();
    suppressions.shrink_to_fit();
  }

  // The node at a JSON pointer, or nullptr. Throws std::logic_error for a key that a slim entry
  // does not keep.
  const nlohmann::json* find(std::string_view pointer) const;
  // The text at `pointer`; empty when missing or not text.
  std::string_view text(std::string_view pointer) const;
  // The list at `pointer`; an empty list when missing or not a list.
  const nlohmann::json& list(std::string_view pointer) const;

  Location value_at(std::string_view pointer) const { return sources.find(pointer).value; }
  Location key_at(std::string_view pointer) const { return sources.find(pointer).key; }
};

// "cuda/x" for "entries/cuda/x.yaml"; the path must lie under entries/ and end in .yaml.
std::string id_from_entry_path(std::string_view path);

// True when `id` matches the schema's `id` pattern and length (the single source of truth for
// ids).
bool is_valid_entry_id(const std::string& id);

}  // namespace kbc
