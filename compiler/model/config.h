// The settings of a knowledge base: kbc.yaml at its root, optional, validated against
// schema/kbc.schema.json like an entry (unknown keys are errors), and the templates/ it may
// hold of its own.
//
// The lint settings (`rules`, `exclude`) are kept here as written, with their positions; lint
// checks the rule ids and applies them (lint/suppressions.cc), since only lint knows its rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "model/benign_file.h"
#include "model/languages.h"
#include "model/site_config.h"

namespace kbc {

inline constexpr const char* kConfigFile = "kbc.yaml";

// A name in kbc.yaml (a rule id, an entry pattern) and where it is written.
struct ConfigName {
  std::string text;
  Location at;
  std::string pointer;  // "/rules/i18n-missing", "/exclude/0/entries/1"
};

enum class RuleLevel { kOff, kWarning, kError };

// `rules:`: one rule id -> off | warning | error.
struct RuleSetting {
  ConfigName rule;  // at the key
  RuleLevel level = RuleLevel::kError;
  Location level_at;
};

// One item of `exclude:`: these rules are off for the entries whose id matches a pattern.
struct Exclusion {
  std::vector<ConfigName> entries;  // glob patterns over entry ids
  std::vector<ConfigName> rules;
};

struct LintConfig {
  std::vector<RuleSetting> rules;
  std::vector<Exclusion> exclusions;
};

struct KbConfig {
  SiteConfig site;
  LintConfig lint;
  std::vector<Language> languages;  // named by the knowledge base's UI strings
  std::vector<BenignFile> benign;   // read; a file that cannot be is a config-benign error
};

// Reads kbc.yaml under `root` when there is one; problems go to `out` with path "kbc.yaml".
// A file that fails the schema leaves the site's defaults in place, but its well-formed lint
// settings still apply, so that one typo does not bring back every finding they turn off.
// Languages that cannot be used (a code listed twice, one without UI strings) are
// config-language errors and leave the default languages in place too.
KbConfig load_kb_config(const FileSystem& fs, const std::string& root, Diagnostics& out);

// templates/<name> of the knowledge base at `root` when it has one, else kbc's built-in copy;
// nullopt when neither exists. A knowledge base overrides templates file by file.
std::optional<std::string> template_file(const FileSystem& fs, const std::string& root,
                                         const std::string& name);

// `url` with exactly one trailing '/'; "" stays "".
std::string normalized_base_url(std::string url);
// Whether `url` is a base URL that kbc.yaml's schema accepts (its `base_url` pattern): the one
// check for kbc.yaml and --base-url.
bool is_valid_base_url(const std::string& url);

}  // namespace kbc
