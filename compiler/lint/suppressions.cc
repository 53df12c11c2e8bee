#include "lint/suppressions.h"

#include <map>
#include <optional>
#include <unordered_map>

#include "base/glob.h"
#include "base/text.h"
#include "lint/rule.h"

namespace kbc {
namespace {

using Kind = SuppressionComment::Kind;

const Rule* find_rule(std::string_view id) {
  static const std::unordered_map<std::string_view, const Rule*> kById = [] {
    std::unordered_map<std::string_view, const Rule*> by_id;
    for (const Rule& rule : all_rules()) by_id[rule.id] = &rule;
    return by_id;
  }();
  const auto it = kById.find(id);
  return it == kById.end() ? nullptr : it->second;
}

std::string unknown_rule(std::string_view id) {
  std::vector<std::string> ids;
  for (const Rule& rule : all_rules()) ids.emplace_back(rule.id);
  std::string message = "unknown rule '" + std::string(id) + "'";
  if (const auto suggestion = closest_match(id, ids))
    message += "; did you mean '" + *suggestion + "'?";
  return message + " (kbc lint --list-rules lists them)";
}

// The rules about suppressions cannot be suppressed themselves (that would hide a stale
// suppression behind another); kbc.yaml's `rules` can still set their level.
bool is_suppression_rule(const Rule& rule) { return rule.id.starts_with("suppression-"); }
bool suppressible(const Rule& rule) { return !rule.required && !is_suppression_rule(rule); }

// Why a comment or an exclusion cannot name `rule`.
std::string not_suppressible(const Rule& rule, std::string_view verb) {
  const std::string quoted = "'" + std::string(rule.id) + "'";
  if (rule.required)
    return quoted + " cannot be " + std::string(verb) +
           ": the build cannot do without it (a required rule)";
  return quoted + " cannot be " + std::string(verb) + "; set its level under rules in kbc.yaml";
}

class Suppressor {
 public:
  Suppressor(const KnowledgeBase& kb, const LintConfig& config, const std::set<std::string>& only)
      : kb_(kb), config_(config), only_(only) {}

  bool empty() const { return config_.rules.empty() && config_.exclusions.empty() && !comments_; }

  // kbc.yaml's rule ids, checked; the valid settings are kept.
  void read_config(Diagnostics& out) {
    for (const RuleSetting& setting : config_.rules) read_setting(setting, out);
    for (const Exclusion& exclusion : config_.exclusions) read_exclusion(exclusion, out);
  }

  void read_comments() {
    for (const Entry& entry : kb_.entries) {
      if (entry.suppressions.empty()) continue;
      comments_ = true;
      FileComments& file = files_[entry.path];
      file.entry = &entry;
      for (const SuppressionComment& comment : entry.suppressions)
        file.used.emplace_back(comment.rules.size(), false);
    }
  }

  // Drops what is off or suppressed; sets the other findings' severities.
  void filter(Diagnostics& diagnostics) {
    Diagnostics kept;
    kept.reserve(diagnostics.size());
    for (Diagnostic& d : diagnostics) {
      if (const Rule* rule = find_rule(d.rule)) {
        const auto severity = severity_of(*rule);
        if (!severity) continue;
        d.severity = *severity;
        if (suppressible(*rule) && (by_comment(d, *rule) || by_exclusion(d, *rule))) continue;
      }
      kept.push_back(std::move(d));
    }
    diagnostics = std::move(kept);
  }

  void report_comments(Diagnostics& out) const {
    for (const auto& [path, file] : files_) {
      if (!only_.empty() && !only_.count(path)) continue;
      const auto& comments = file.entry->suppressions;
      for (std::size_t i = 0; i < comments.size(); ++i)
        report_comment(path, comments[i], file.used[i], out);
    }
  }

  void report_exclusions(Diagnostics& out) const {
    if (!only_.empty()) return;  // unused means unused in every entry: only a full run knows
    for (const ActiveExclusion& exclusion : exclusions_) {
      for (const ConfigName& pattern : exclusion.source->entries) {
        if (!matches_any_file(pattern.text))
          add_unused(config_warning(pattern, no_entry(pattern.text)), out);
      }
      for (std::size_t j = 0; j < exclusion.rules.size(); ++j) {
        const Rule* rule = exclusion.rules[j];
        if (!rule || exclusion.used[j]) continue;
        const ConfigName& name = exclusion.source->rules[j];
        add_unused(config_warning(name, "'" + name.text +
                                            "' reports nothing in the entries this exclusion "
                                            "names: remove it" +
                                            off_note(*rule)),
                   out);
      }
    }
  }

 private:
  struct ActiveExclusion {
    const Exclusion* source = nullptr;
    std::vector<const Rule*> rules;  // parallel to source->rules; nullptr when not valid
    std::vector<bool> used;
  };
  struct FileComments {
    const Entry* entry = nullptr;
    std::vector<std::vector<bool>> used;  // [comment][rule]
  };

  void read_setting(const RuleSetting& setting, Diagnostics& out) {
    const Rule* rule = find_rule(setting.rule.text);
    if (!rule) {
      out.push_back(
          config_error(setting.rule, unknown_rule(setting.rule.text), "config-unknown-rule"));
    } else if (rule->required && setting.level != RuleLevel::kError) {
      ConfigName at_level = setting.rule;
      at_level.at = setting.level_at;
      out.push_back(config_error(at_level,
                                 "'" + setting.rule.text +
                                     "' is required and stays an error: the build cannot do "
                                     "without it",
                                 "config-required-rule"));
    } else {
      levels_[rule->id] = setting.level;
    }
  }

  void read_exclusion(const Exclusion& exclusion, Diagnostics& out) {
    ActiveExclusion& active = exclusions_.emplace_back();
    active.source = &exclusion;
    for (const ConfigName& name : exclusion.rules) {
      const Rule* rule = find_rule(name.text);
      if (!rule) {
        out.push_back(config_error(name, unknown_rule(name.text), "config-unknown-rule"));
      } else if (!suppressible(*rule)) {
        out.push_back(
            config_error(name, not_suppressible(*rule, "excluded"), "config-required-rule"));
        rule = nullptr;
      }
      active.rules.push_back(rule);
      active.used.push_back(false);
    }
  }

  // The severity kbc.yaml gives the rule's findings; nullopt when it turns the rule off.
  std::optional<Severity> severity_of(const Rule& rule) const {
    const auto it = levels_.find(rule.id);
    if (it == levels_.end()) return rule.severity;
    if (it->second == RuleLevel::kOff) return std::nullopt;
    return it->second == RuleLevel::kWarning ? Severity::kWarning : Severity::kError;
  }

  // The most specific comment first: a next-line one, then a file-wide one.
  bool by_comment(const Diagnostic& d, const Rule& rule) {
    if (!comments_) return false;
    const auto it = files_.find(d.path);
    if (it == files_.end()) return false;
    FileComments& file = it->second;
    for (const Kind kind : {Kind::kNextLine, Kind::kFile}) {
      for (std::size_t i = 0; i < file.entry->suppressions.size(); ++i) {
        const SuppressionComment& comment = file.entry->suppressions[i];
        if (comment.kind != kind) continue;
        if (kind == Kind::kNextLine &&
            (comment.target_line == 0 || comment.target_line != d.at.line))
          continue;
        for (std::size_t j = 0; j < comment.rules.size(); ++j) {
          if (comment.rules[j].text == rule.id) return file.used[i][j] = true;
        }
      }
    }
    return false;
  }

  bool by_exclusion(const Diagnostic& d, const Rule& rule) {
    if (exclusions_.empty()) return false;
    for (const std::size_t x : exclusions_of(d.path)) {
      ActiveExclusion& exclusion = exclusions_[x];
      for (std::size_t j = 0; j < exclusion.rules.size(); ++j) {
        if (exclusion.rules[j] == &rule) return exclusion.used[j] = true;
      }
    }
    return false;
  }

  // The exclusions whose patterns match the entry at `path`, computed once per path.
  const std::vector<std::size_t>& exclusions_of(const std::string& path) {
    const auto [it, added] = matched_.try_emplace(path);
    if (!added || !path.starts_with("entries/") || !path.ends_with(".yaml")) return it->second;
    const std::string id = id_from_entry_path(path);
    for (std::size_t x = 0; x < exclusions_.size(); ++x) {
      for (const ConfigName& pattern : exclusions_[x].source->entries) {
        if (glob_match(pattern.text, id)) {
          it->second.push_back(x);
          break;
        }
      }
    }
    return it->second;
  }

  bool matches_any_file(const std::string& pattern) const {
    for (const std::string& id : kb_.file_ids) {
      if (glob_match(pattern, id)) return true;
    }
    return false;
  }

  static std::string no_entry(const std::string& pattern) {
    std::string message = "'" + pattern + "' matches no entry";
    if (pattern.starts_with("entries/") || pattern.ends_with(".yaml"))
      return message + ": patterns match entry ids such as 'cuda/x', not paths";
    return message + ": remove it or correct it";
  }

  std::string off_note(const Rule& rule) const {
    return severity_of(rule) ? "" : " (kbc.yaml turns it off)";
  }

  void report_comment(const std::string& path, const SuppressionComment& comment,
                      const std::vector<bool>& used, Diagnostics& out) const {
    const std::string& directive = comment.directive.text;
    if (comment.kind == Kind::kUnknown) {
      add_invalid(at(path, comment.directive.at,
                     "unknown directive '" + directive +
                         "': write kbc-disable-next-line or "
                         "kbc-disable-file"),
                  out);
      return;
    }
    if (comment.rules.empty()) {
      add_invalid(at(path, comment.directive.at,
                     directive + " names no rule: list the rule ids it disables"),
                  out);
      return;
    }
    if (comment.kind == Kind::kNextLine && comment.target_line == 0) {
      add_unused(at(path, comment.directive.at, directive + " has no line after it to apply to"),
                 out);
      return;
    }
    for (std::size_t j = 0; j < comment.rules.size(); ++j)
      report_comment_rule(path, comment, comment.rules[j], used[j], out);
  }

  void report_comment_rule(const std::string& path, const SuppressionComment& comment,
                           const SuppressionComment::Name& name, bool used,
                           Diagnostics& out) const {
    const Rule* rule = find_rule(name.text);
    if (!rule) {
      add_invalid(at(path, name.at, unknown_rule(name.text)), out);
    } else if (!suppressible(*rule)) {
      add_invalid(at(path, name.at, not_suppressible(*rule, "disabled")), out);
    } else if (!used) {
      const std::string where = comment.kind == Kind::kFile
                                    ? "in this file"
                                    : "on line " + std::to_string(comment.target_line);
      add_unused(at(path, name.at,
                    "'" + name.text + "' reports nothing " + where +
                        ": remove it from the comment" + off_note(*rule)),
                 out);
    }
  }

  static Diagnostic at(const std::string& path, Location location, std::string message) {
    return {path, location, Severity::kWarning, std::move(message), "", ""};
  }
  static Diagnostic config_error(const ConfigName& name, std::string message, const char* rule) {
    return {kConfigFile, name.at, Severity::kError, std::move(message), rule, "", name.pointer};
  }
  static Diagnostic config_warning(const ConfigName& name, std::string message) {
    return {kConfigFile, name.at, Severity::kWarning, std::move(message), "", "", name.pointer};
  }

  void add_invalid(Diagnostic d, Diagnostics& out) const {
    add(std::move(d), "suppression-invalid", out);
  }
  void add_unused(Diagnostic d, Diagnostics& out) const {
    add(std::move(d), "suppression-unused", out);
  }

  // With the severity kbc.yaml gives the rule, unless it turns the rule off.
  void add(Diagnostic d, const char* id, Diagnostics& out) const {
    const auto severity = severity_of(*find_rule(id));
    if (!severity) return;
    d.rule = id;
    d.severity = *severity;
    out.push_back(std::move(d));
  }

  const KnowledgeBase& kb_;
  const LintConfig& config_;
  const std::set<std::string>& only_;
  std::map<std::string_view, RuleLevel> levels_;            // by rule id, as kbc.yaml sets them
  std::vector<ActiveExclusion> exclusions_;                 // parallel to config_.exclusions
  std::map<std::string, FileComments, std::less<>> files_;  // entries with kbc-disable comments
  bool comments_ = false;
  std::unordered_map<std::string, std::vector<std::size_t>> matched_;  // path -> exclusions
};

}  // namespace

void apply_rule_settings(Diagnostics& diagnostics, const KnowledgeBase& kb,
                         const LintConfig& config, const std::set<std::string>& only) {
  Suppressor suppressor(kb, config, only);
  suppressor.read_comments();
  if (suppressor.empty()) return;
  Diagnostics own;
  suppressor.read_config(own);
  suppressor.filter(diagnostics);
  suppressor.report_comments(own);
  suppressor.report_exclusions(own);
  diagnostics.insert(diagnostics.end(), std::make_move_iterator(own.begin()),
                     std::make_move_iterator(own.end()));
}

}  // namespace kbc
