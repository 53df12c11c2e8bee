// libFuzzer target: a bundle (kb.json) as kbc match reads it. The simdjson reader must read the
// same records as nlohmann's SAX reader, or leave the text to it (and then fail as it does).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/diagnostic.h"
#include "match/bundle_reader.h"

namespace {

// The records read, or the message of the failure.
std::tuple<std::vector<kbc::MatchRecord>, std::string> outcome(
    std::vector<kbc::MatchRecord> (*read)(std::string_view), std::string_view text) {
  try {
    return {read(text), ""};
  } catch (const nlohmann::json::exception& e) {  // not JSON: refused with nlohmann's message
    return {std::vector<kbc::MatchRecord>(), e.what()};
  } catch (const kbc::ToolError& e) {  // not a bundle: refused with kbc's
    return {std::vector<kbc::MatchRecord>(), e.what()};
  }
}

bool same_action(const std::optional<kbc::MatchAction>& a,
                 const std::optional<kbc::MatchAction>& b) {
  if (!a || !b) return a.has_value() == b.has_value();
  return a->action == b->action && a->how == b->how && a->condition == b->condition &&
         (a->rate == b->rate || (a->rate != a->rate && b->rate != b->rate));
}

bool same_record(const kbc::MatchRecord& a, const kbc::MatchRecord& b) {
  if (a.dead_ends.size() != b.dead_ends.size()) return false;
  for (std::size_t i = 0; i < a.dead_ends.size(); ++i) {
    if (!same_action(a.dead_ends[i], b.dead_ends[i])) return false;
  }
  return a.id == b.id && a.signature == b.signature && a.regex == b.regex &&
         a.fix_success_rate == b.fix_success_rate && a.aliases == b.aliases && a.tags == b.tags &&
         a.error_code == b.error_code && same_action(a.best_workaround, b.best_workaround) &&
         same_action(a.next_workaround, b.next_workaround);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto [fast, fast_error] = outcome(kbc::match_records_from_bundle_text, text);
  const auto [sax, sax_error] = outcome(kbc::match_records_from_bundle_sax, text);
  if (fast_error != sax_error || fast.size() != sax.size()) std::abort();
  for (std::size_t i = 0; i < fast.size(); ++i) {
    if (!same_record(fast[i], sax[i])) std::abort();
  }
  return 0;
}
