#include "verify/environment.h"

#include <sys/utsname.h>

#include "base/file_system.h"
#include "base/text.h"
#include "verify/sandbox.h"

namespace kbc {

namespace {

std::string os_release_name() {
  const auto text = read_whole_file("/etc/os-release");
  if (!text) return "unknown";
  std::string_view rest = *text;
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.starts_with("PRETTY_NAME=")) continue;
    line.remove_prefix(12);
    if (line.size() >= 2 && (line.front() == '"' || line.front() == '\''))
      line = line.substr(1, line.size() - 2);
    return std::string(line);
  }
  return "unknown";
}

}  // namespace

nlohmann::ordered_json machine_environment() {
  nlohmann::ordered_json environment = nlohmann::ordered_json::object();
  environment["os"] = os_release_name();
  utsname names{};
  if (::uname(&names) == 0) {
    environment["kernel"] = names.release;
    environment["arch"] = names.machine;
  }
  return environment;
}

std::optional<std::string> debian_package_version(const std::string& package) {
  const auto out =
      probe_output({"dpkg-query", "-W", "-f=${db:Status-Abbrev}\t${Version}", package});
  if (!out || !out->starts_with("ii")) return std::nullopt;
  const auto tab = out->find('\t');
  if (tab == std::string::npos) return std::nullopt;
  return std::string(trim(std::string_view(*out).substr(tab + 1)));
}

std::optional<GpuInfo> nvidia_gpu() {
  const auto out =
      probe_output({"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"});
  if (!out) return std::nullopt;
  const std::string_view first = trim(std::string_view(*out).substr(0, out->find('\n')));
  const auto comma = first.rfind(',');
  if (first.empty() || comma == std::string_view::npos) return std::nullopt;
  return GpuInfo{std::string(trim(first.substr(0, comma))),
                 std::string(trim(first.substr(comma + 1)))};
}

}  // namespace kbc
