#include "mcp/mcp_tools.h"
#include "base/utf8.h"
#include "match/hit_json.h"
#include "match/log_scan.h"

#include <algorithm>
#include <functional>

#include "base/text.h"
#include "render/record.h"
#include "search/search_index.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::size_t kShownBytes = 120;  // how much of a client's text a message quotes
constexpr std::size_t kSnippetBytes = 200;

// An argument object's keys must be the tool's.
void check_keys(const json& arguments, std::string_view tool,
                const std::vector<std::string>& known) {
  for (const auto& [key, value] : arguments.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    throw InvalidArguments(std::string(tool) + ": unknown argument " + quote_text(key) +
                           did_you_mean(key, known));
  }
}

std::string string_argument(const json& arguments, std::string_view tool, const char* key,
                            const char* fallback = nullptr) {
  const auto it = arguments.find(key);
  if (it == arguments.end() && fallback) return fallback;
  if (it == arguments.end())
    throw InvalidArguments(std::string(tool) + ": the argument '" + key + "' is required");
  if (!it->is_string()) {
    throw InvalidArguments(std::string(tool) + ": '" + key + "' must be a string, not " +
                           it->type_name());
  }
  return it->get<std::string>();
}

int top_argument(const json& arguments, std::string_view tool, int fallback) {
  const auto it = arguments.find("top");
  if (it == arguments.end()) return fallback;
  const std::string range = "a whole number from 1 to " + std::to_string(kMaxTop);
  if (!it->is_number_integer())
    throw InvalidArguments(std::string(tool) + ": 'top' must be " + range);
  // A huge unsigned value stays out of range rather than wrapping.
  const std::int64_t value = it->is_number_unsigned()
                                 ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                                       it->get<std::uint64_t>(), kMaxTop + 1))
                                 : it->get<std::int64_t>();
  if (value < 1 || value > kMaxTop) {
    throw InvalidArguments(std::string(tool) + ": 'top' must be " + range + ", not " + it->dump());
  }
  return static_cast<int>(value);
}

ToolResult failure(std::string message) { return {ordered_json(), std::move(message)}; }

const ordered_json& graph_list(const ordered_json& record, const char* key) {
  static const ordered_json kEmpty = ordered_json::array();
  const auto graph = record.find("transition_graph");
  if (graph == record.end() || !graph->is_object()) return kEmpty;
  const auto it = graph->find(key);
  return it != graph->end() && it->is_array() ? *it : kEmpty;
}

// The ids a record's transition_graph lists under `key`, in its order.
std::vector<std::string> graph_ids(const ordered_json& record, const char* key) {
  std::vector<std::string> out;
  for (const ordered_json& item : graph_list(record, key)) {
    if (item.is_object()) out.push_back(string_field(item, "error_id"));
  }
  return out;
}

ordered_json string_schema(const std::string& description) {
  return {{"type", "string"}, {"description", description}};
}

ordered_json top_schema(int fallback, const char* description) {
  return {{"type", "integer"},
          {"minimum", 1},
          {"maximum", kMaxTop},
          {"default", fallback},
          {"description", description}};
}

ordered_json tool(const char* name, const char* title, const std::string& description,
                  ordered_json properties, std::vector<std::string> required) {
  ordered_json out;
  out["name"] = name;
  out["title"] = title;
  out["description"] = description;
  out["inputSchema"] = {{"type", "object"},
                        {"properties", std::move(properties)},
                        {"required", std::move(required)},
                        {"additionalProperties", false}};
  out["annotations"] = {
      {"title", title}, {"readOnlyHint", true}, {"idempotentHint", true}, {"openWorldHint", false}};
  return out;
}

using LanguageText = std::function<std::string(const Language&)>;

// `of` each language ("Chinese", "_zh"), or each but the base.
std::vector<std::string> all_of(const std::vector<Language>& languages, const LanguageText& of) {
  std::vector<std::string> out;
  for (const Language& language : languages) out.push_back(of(language));
  return out;
}
std::vector<std::string> translations_of(const std::vector<Language>& languages,
                                         const LanguageText& of) {
  std::vector<std::string> out = all_of(languages, of);
  out.erase(out.begin());
  return out;
}

std::string english_name(const Language& language) { return language.english_name; }

// "in English and where translated in Chinese: the _zh fields"
std::string record_languages(const std::vector<Language>& languages) {
  const std::vector<std::string> names = translations_of(languages, english_name);
  std::string out = "in " + languages.front().english_name;
  if (names.empty()) return out;
  const auto suffix = [](const Language& language) { return "_" + language.code; };
  return out + " and where translated in " + joined_list(names, "and") + ": the " +
         joined_list(translations_of(languages, suffix), "and") + " fields";
}

// "zh searches the Chinese translations (and the English root causes)"
std::string search_languages(const std::vector<Language>& languages) {
  const std::vector<std::string> searches = translations_of(languages, [](const Language& l) {
    return l.code + " searches the " + l.english_name + " translations";
  });
  if (searches.empty()) return "the language of the texts to search";
  return joined_list(searches, "and") + " (and the " + languages.front().english_name +
         " root causes)";
}

std::string code(const Language& language) { return language.code; }

ordered_json language_schema(const std::vector<Language>& languages) {
  return {{"type", "string"},
          {"enum", all_of(languages, code)},
          {"default", languages.front().code},
          {"description", search_languages(languages)}};
}

// search's `language`: the index of one of `languages` (the base language's when not given).
std::size_t language_argument(const json& arguments, const std::vector<Language>& languages) {
  const std::string code =
      string_argument(arguments, "search", "language", languages.front().code.c_str());
  for (std::size_t l = 0; l < languages.size(); ++l) {
    if (languages[l].code == code) return l;
  }
  const auto quoted = [](const Language& l) { return "\"" + l.code + "\""; };
  throw InvalidArguments("search: 'language' must be " +
                         joined_list(all_of(languages, quoted), "or") + ", not " +
                         quote_text(code));
}

}  // namespace

std::string quote_text(std::string_view text) {
  if (text.size() <= kShownBytes) return "'" + std::string(text) + "'";
  const std::size_t end = code_point_start(text, kShownBytes);
  return "'" + std::string(text.substr(0, end)) + "…'";
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.size() > kShownBytes) return "";  // not a typo of a short name; edit distance is slow
  const auto suggestion = closest_match(word, candidates);
  return suggestion ? "; did you mean '" + *suggestion + "'?" : "";
}

McpTools::McpTools(std::vector<ordered_json> records, std::vector<Language> languages,
                   std::vector<BenignFile> benign)
    : records_(std::move(records)),
      benign_files_(std::move(benign)),
      benign_(benign_lines_with(benign_files_)),
      languages_(std::move(languages)) {
  std::stable_sort(records_.begin(), records_.end(), [](const auto& a, const auto& b) {
    return string_field(a, "id") < string_field(b, "id");
  });
  std::vector<MatchRecord> match;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    by_id_.emplace(string_field(records_[i], "id"), i);
    match.push_back(match_record(json(records_[i])));
  }
  matcher_ = std::make_unique<Matcher>(std::move(match), MatchOptions{.benign = &benign_});
  search_ = std::make_unique<EntrySearch>(records_, languages_);
}

McpTools::~McpTools() = default;

ordered_json McpTools::list() const {
  ordered_json tools = ordered_json::array();
  tools.push_back(tool(
      "lookup_error", "Look up an error",
      "Finds the knowledge-base entries that explain an error message, or the errors in a whole "
      "log (one error per line), best first. Each hit gives the entry id, its signature, the "
      "line that matched and where, the best workaround (with how to apply it and its success "
      "rate) and the dead ends: fixes that are known not to work, with how often they fail. "
      "Call get_entry with a hit's id for the full entry.",
      {{"error", string_schema("the error message, or a log that holds it")},
       {"top", top_schema(5, "how many entries to return at most")}},
      {"error"}));
  tools.push_back(tool(
      "get_entry", "Get an entry",
      "Returns one knowledge-base entry by id: its full record (signature, root cause, versions, "
      "workarounds with success rates, dead ends, sources, " +
          record_languages(languages_) +
          ") and its related entries: the errors it leads to, the errors that precede it and the "
          "errors it is often confused with, in both directions (an entry that says it leads to "
          "this one shows here as preceding it).",
      {{"id", string_schema("the entry id, such as 'cuda/illegal-memory-access'")}}, {"id"}));
  tools.push_back(tool(
      "search", "Search entries",
      "Text search over the entries' error codes, signatures, ids, tags, aliases and root "
      "causes, as the knowledge base's site searches them. Every word of the query must occur "
      "(a word also matches longer words it begins); Chinese text is matched by any two "
      "consecutive characters. Use lookup_error instead when you have the error message itself.",
      {{"query", string_schema("words to look for, in " +
                               joined_list(all_of(languages_, english_name), "or"))},
       {"language", language_schema(languages_)},
       {"top", top_schema(10, "how many entries to return at most")}},
      {"query"}));
  return tools;
}

ToolResult McpTools::call(std::string_view name, const json& arguments) const {
  if (name == "lookup_error") return lookup_error(arguments);
  if (name == "get_entry") return get_entry(arguments);
  if (name == "search") return search(arguments);
  throw InvalidArguments("unknown tool " + quote_text(name) +
                         did_you_mean(name, {"get_entry", "lookup_error", "search"}));
}

ToolResult McpTools::lookup_error(const json& arguments) const {
  check_keys(arguments, "lookup_error", {"error", "top"});
  const std::string text = string_argument(arguments, "lookup_error", "error");
  const int top = top_argument(arguments, "lookup_error", 5);
  LogScan scan(*matcher_);
  scan.feed(text);
  const std::vector<Hit> hits = scan.finish(static_cast<std::size_t>(top));
  // The object `kbc match --json` prints.
  return {hits_json(*matcher_, hits, scan.lines(), kDefaultMinScore), ""};
}

ToolResult McpTools::get_entry(const json& arguments) const {
  check_keys(arguments, "get_entry", {"id"});
  const std::string id = string_argument(arguments, "get_entry", "id");
  const auto it = by_id_.find(id);
  if (it == by_id_.end()) {
    std::vector<std::string> ids;
    for (const auto& [known, index] : by_id_) ids.push_back(known);
    return failure("no entry has the id " + quote_text(id) + did_you_mean(id, ids));
  }
  ordered_json out;
  out["entry"] = records_[it->second];
  out["related"] = related(it->second);
  return {std::move(out), ""};
}

ordered_json McpTools::link_item(const std::string& id, const char* direction) const {
  const auto it = by_id_.find(id);
  ordered_json item;
  item["id"] = id;
  item["signature"] = it == by_id_.end()
                          ? ordered_json()
                          : ordered_json(string_field(records_[it->second], "signature"));
  item["direction"] = direction;
  return item;
}

ordered_json McpTools::related(std::size_t index) const {
  const std::string self = string_field(records_[index], "id");
  // Each group: this entry's own links first, in its order, then those stated by other entries
  // (in id order) from their side: whatever another entry leads to is preceded by it.
  struct Group {
    const char* key;
    const char* reverse_key;  // the key of another entry's graph that names this one here
  };
  const Group groups[] = {{"leads_to", "preceded_by"},
                          {"preceded_by", "leads_to"},
                          {"frequently_confused_with", "frequently_confused_with"}};
  ordered_json out = ordered_json::object();
  for (const Group& group : groups) {
    std::vector<std::pair<std::string, std::string>> links;  // id, direction
    const auto add = [&](const std::string& id, const char* direction) {
      if (id.empty() || id == self) return;
      for (auto& [known, known_direction] : links) {
        if (known != id) continue;
        if (known_direction != direction) known_direction = "both";
        return;
      }
      links.emplace_back(id, direction);
    };
    for (const std::string& id : graph_ids(records_[index], group.key)) add(id, "outgoing");
    for (const ordered_json& other : records_) {
      const std::vector<std::string> ids = graph_ids(other, group.reverse_key);
      if (std::find(ids.begin(), ids.end(), self) != ids.end())
        add(string_field(other, "id"), "incoming");
    }
    out[group.key] = ordered_json::array();
    for (const auto& [id, direction] : links)
      out[group.key].push_back(link_item(id, direction.c_str()));
  }
  return out;
}

ToolResult McpTools::search(const json& arguments) const {
  check_keys(arguments, "search", {"query", "language", "top"});
  const std::string query = string_argument(arguments, "search", "query");
  const std::size_t language = language_argument(arguments, languages_);
  const int top = top_argument(arguments, "search", 10);
  if (query.size() > kMaxQueryBytes) {
    return failure("the query is " + std::to_string(query.size()) +
                   " bytes; search takes at most " + std::to_string(kMaxQueryBytes) +
                   " (use lookup_error for a message or a log)");
  }
  const std::size_t tokens = search_tokens(query).size();
  if (tokens == 0)
    return failure("the query holds no word to search for (letters, digits or CJK characters)");
  if (tokens > kMaxQueryTokens) {
    return failure("the query holds " + std::to_string(tokens) + " words; search takes at most " +
                   std::to_string(kMaxQueryTokens) + " (use lookup_error for a message or a log)");
  }
  const auto results = search_->search(query, language);
  ordered_json out;
  out["language"] = languages_[language].code;
  out["total"] = results.size();
  out["results"] = ordered_json::array();
  for (std::size_t i = 0; i < results.size() && i < static_cast<std::size_t>(top); ++i) {
    const ordered_json& record = records_[results[i].record];
    out["results"].push_back(
        {{"rank", i + 1},
         {"id", string_field(record, "id")},
         {"signature", localized_field(record, "signature", languages_[language])},
         {"score", results[i].score},
         {"snippet", first_sentence(localized_field(record, "root_cause", languages_[language]),
                                    kSnippetBytes)}});
  }
  return {std::move(out), ""};
}

}  // namespace kbc
