#include "cli/entry_source.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/json_depth.h"
#include "match/bundle_reader.h"
#include "pipeline.h"

namespace kbc {

std::string json_error(const std::exception& error) {
  const std::string message = error.what();
  const std::size_t prefix = message.find("] ");
  return message.starts_with("[json.exception") && prefix != std::string::npos
             ? message.substr(prefix + 2)
             : message;
}

namespace {

// The text of the bundle at `path`. Throws ToolError "kbc <command>: ..." when it cannot be
// read or is over kMaxBundleBytes.
std::string bundle_text(std::string_view command, const std::string& path) {
  // The user names the bundle: a link to it is followed (unlike files inside a knowledge base).
  const std::string prefix = "kbc " + std::string(command) + ": ";
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::is_regular_file(path, error)
                                   ? std::filesystem::file_size(path, error)
                                   : std::uintmax_t{0};
  if (error || !std::filesystem::is_regular_file(path, error))
    throw ToolError(prefix + "cannot read " + path);
  if (bytes > kMaxBundleBytes) {
    throw ToolError(prefix + path + " is " + std::to_string(bytes) +
                    " bytes; bundles are limited to " + std::to_string(kMaxBundleBytes));
  }
  std::optional<std::string> text = read_whole_file(path);
  if (!text) throw ToolError(prefix + "cannot read " + path);
  return std::move(*text);
}

// "kbc <command>: <path>: <message>", for what is wrong inside the bundle.
ToolError bundle_error(std::string_view command, const std::string& path,
                       const std::string& message) {
  return ToolError("kbc " + std::string(command) + ": " + path + ": " + message);
}

}  // namespace

template <typename Json>
Json read_bundle(std::string_view command, const std::string& path) {
  const std::string text = bundle_text(command, path);
  try {
    return parse_json_within<Json>(text, kMaxBundleDepth);
  } catch (const nlohmann::json::exception& error) {
    throw bundle_error(command, path, json_error(error));
  } catch (const JsonTooDeep& error) {
    throw bundle_error(command, path, error.what());
  }
}

template nlohmann::json read_bundle<nlohmann::json>(std::string_view, const std::string&);
template nlohmann::ordered_json read_bundle<nlohmann::ordered_json>(std::string_view,
                                                                    const std::string&);

std::vector<MatchRecord> bundle_match_records(std::string_view command, const std::string& path,
                                              const nlohmann::json& bundle) {
  try {
    return match_records_from_bundle(bundle);
  } catch (const ToolError& error) {
    throw bundle_error(command, path, error.what());
  }
}

std::vector<MatchRecord> read_bundle_match_records(std::string_view command,
                                                   const std::string& path) {
  const std::string text = bundle_text(command, path);
  try {
    return match_records_from_bundle_text(text);
  } catch (const nlohmann::json::exception& error) {
    throw bundle_error(command, path, json_error(error));
  } catch (const ToolError& error) {
    throw bundle_error(command, path, error.what());
  }
}

KnowledgeBase load_lookup_entries(std::string_view command, const std::string& root, bool cache) {
  const RealFileSystem fs;
  Diagnostics problems;
  KnowledgeBase kb = load_entries(fs, root, cache, problems);
  const auto valid = static_cast<std::size_t>(std::count_if(
      kb.entries.begin(), kb.entries.end(), [](const Entry& entry) { return entry.shape_ok; }));
  if (const std::size_t left_out = kb.file_ids.size() - valid) {
    std::cerr << "kbc " << command << ": " << left_out << " of " << kb.file_ids.size()
              << " entries left out: they are not valid (kbc lint says why)\n";
  }
  return kb;
}

}  // namespace kbc
