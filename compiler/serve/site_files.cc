#include "serve/site_files.h"

#include <array>
#include <utility>

namespace kbc {
namespace {

constexpr std::string_view kSite = "site/";

std::string not_found_page(std::string_view relative, const std::vector<std::string>& languages) {
  std::string language = languages.empty() ? std::string() : languages.front();
  for (const std::string& code : languages) {
    if (relative == code || relative.starts_with(code + "/")) language = code;
  }
  return std::string(kSite) + language + "/404.html";
}

}  // namespace

SiteLookup find_site_file(const std::map<std::string, std::string>& files,
                          std::string_view url_path, const std::vector<std::string>& languages) {
  using Kind = SiteLookup::Kind;
  if (!url_path.starts_with('/')) return {Kind::kMissing, not_found_page("", languages), ""};
  const std::string_view relative = url_path.substr(1);
  std::string key = std::string(kSite) + std::string(relative);
  if (relative.empty() || relative.ends_with('/')) key += "index.html";
  if (files.count(key)) return {Kind::kFile, key, ""};
  if (!relative.empty() && !relative.ends_with('/') && files.count(key + "/index.html")) {
    // Relative to the folder's own address, so it holds behind any prefix a proxy adds.
    const std::string_view name = relative.substr(relative.rfind('/') + 1);
    return {Kind::kRedirect, "", std::string(name) + "/"};
  }
  return {Kind::kMissing, not_found_page(relative, languages), ""};
}

std::string content_type(std::string_view path) {
  if (path.ends_with("/feed.xml")) return "application/atom+xml";
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".json", "application/json"},
      {".xml", "application/xml"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/markdown; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
  }};
  for (const auto& [extension, type] : kTypes) {
    if (path.ends_with(extension)) return std::string(type);
  }
  return "application/octet-stream";
}

}  // namespace kbc
