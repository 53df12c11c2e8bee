// The last step of lint: what kbc.yaml and the entries' kbc-disable comments say about the
// findings.
//
//   kbc.yaml  rules:    rule id -> off | warning | error
//   kbc.yaml  exclude:  rules turned off for the entries whose id matches a pattern
//   entry     # kbc-disable-next-line <rule-id>...   for the next line that is not a comment
//   entry     # kbc-disable-file <rule-id>...        for the whole file
//
// It runs after loading on every run, cached or not, so the parse cache never holds a result
// that depends on kbc.yaml. Required rules (Rule::required) can be neither turned down nor
// suppressed. It reports its own problems: an unknown or required rule in kbc.yaml is an error
// there, like any mistake in kbc.yaml; a kbc-disable comment that is malformed, names an unknown
// or required rule, or suppresses nothing gets a warning, and so does an exclusion that does.
#pragma once

#include <set>
#include <string>

#include "base/diagnostic.h"
#include "model/config.h"
#include "model/knowledge_base.h"

namespace kbc {

// Drops the suppressed findings, sets the severities kbc.yaml asks for, and appends the
// problems of the settings themselves. With `only` (lint FILE...), comments and exclusions are
// checked for use only in those files, the only ones whose rules ran.
void apply_rule_settings(Diagnostics& diagnostics, const KnowledgeBase& kb,
                         const LintConfig& config, const std::set<std::string>& only = {});

}  // namespace kbc
