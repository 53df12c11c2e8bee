#include "serve/live_reload.h"

#include <nlohmann/json.hpp>

#include "base/text.h"
#include "resources.h"

namespace kbc {

bool BuildStatus::ok() const {
  return failure.empty() && count_severity(diagnostics, Severity::kError) == 0;
}

std::string status_json(const BuildStatus& status) {
  nlohmann::ordered_json out = {
      {"server", status.server},
      {"generation", status.generation},
      {"site_generation", status.site_generation},
      {"site_ok", status.site_ok},
      {"ok", status.ok()},
      {"entries", status.entries},
      {"errors", count_severity(status.diagnostics, Severity::kError)},
      {"warnings", count_severity(status.diagnostics, Severity::kWarning)},
      {"failure", nullptr},
      {"diagnostics", nlohmann::ordered_json::array()}};
  if (!status.failure.empty()) out["failure"] = status.failure;
  for (const Diagnostic& d : status.diagnostics) {
    out["diagnostics"].push_back({{"path", d.path},
                                  {"line", d.at.line},
                                  {"column", d.at.column},
                                  {"severity", severity_name(d.severity)},
                                  {"rule", d.rule},
                                  {"message", d.message},
                                  {"pointer", d.pointer},
                                  {"text", format_diagnostic(d)}});
  }
  // Entry text may hold any bytes the loader let through; never fail the response over them.
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string with_live_reload(std::string_view html, const BuildStatus& status) {
  // The server id is hex digits: nothing to escape in the attributes.
  const std::string tag =
      "<script src=\"" + std::string(kServePrefix) + "live-reload.js\" data-server=\"" +
      status.server + "\" data-generation=\"" + std::to_string(status.generation) +
      "\" data-site-generation=\"" + std::to_string(status.site_generation) + "\"></script>\n";
  const std::size_t body_end = ascii_lower(html).rfind("</body>");
  std::string out(html);
  out.insert(body_end == std::string::npos ? out.size() : body_end, tag);
  return out;
}

std::string_view live_reload_script() {
  return embedded_resource("site/serve/live-reload.js").value_or("");
}

}  // namespace kbc
