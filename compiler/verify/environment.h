// What kbc verify records of the machine a recipe ran on, and how it finds out whether a
// recipe's needs are met.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kbc {

// The operating system (/etc/os-release's PRETTY_NAME), the kernel's release and the machine.
nlohmann::ordered_json machine_environment();

// The installed version of a Debian package (dpkg-query), or nullopt when it is not installed.
std::optional<std::string> debian_package_version(const std::string& package);

struct GpuInfo {
  std::string model;
  std::string driver;
};
// The first NVIDIA GPU that nvidia-smi lists, or nullopt when there is none (or no nvidia-smi).
std::optional<GpuInfo> nvidia_gpu();

}  // namespace kbc
