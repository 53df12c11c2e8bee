#include "site/link_check.h"

#include <filesystem>
#include <string>

#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace {

// The file of the tree that `target` (relative, without query or fragment) names from a page in
// `folder` ("site/en/entries/"): its path made normal, index.html for a folder; nullopt when it
// climbs above the tree's root.
std::optional<std::string> resolve(const std::string& folder, const std::string& target) {
  std::string resolved = std::filesystem::path(folder + target).lexically_normal().generic_string();
  if (resolved == ".." || resolved.starts_with("../")) return std::nullopt;
  if (resolved == ".") resolved.clear();
  if (resolved.ends_with('/')) resolved.pop_back();
  if (target.ends_with('/') || resolved.empty()) resolved += "/index.html";
  return resolved;
}

void check_page_links(const OutputTree& tree, std::string_view prefix, const std::string& path,
                      const std::string& content, Diagnostics& out) {
  const std::string folder = path.substr(0, path.rfind('/') + 1);
  for (const std::string_view attribute : {" href=\"", " src=\""}) {
    for (std::size_t at = content.find(attribute); at != std::string::npos;
         at = content.find(attribute, at + 1)) {
      const std::size_t start = at + attribute.size();
      const std::size_t end = content.find('"', start);
      if (end == std::string::npos) break;
      const std::string link = content.substr(start, end - start);
      if (link.empty() || link.starts_with('#') || link.find(':') < link.find('/') ||
          link.starts_with("//"))
        continue;  // a fragment, or an absolute URL (https:, mailto:): not ours to check
      const auto file = resolve(folder, link.substr(0, link.find_first_of("?#")));
      if (file && file->starts_with(prefix) && tree.files().count(*file)) continue;
      const auto [line, column] = line_column_at(content, start);
      out.push_back({path,
                     {line, column},
                     Severity::kError,
                     "broken link to '" + link + "'",
                     "site-link",
                     ""});
    }
  }
}

}  // namespace

Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix) {
  std::vector<const std::pair<const std::string, std::string>*> pages;
  for (const auto& file : tree.files()) {
    if (file.first.starts_with(prefix) && file.first.ends_with(".html")) pages.push_back(&file);
  }
  std::vector<Diagnostics> found(pages.size());
  parallel_slices(pages.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i)
      check_page_links(tree, prefix, pages[i]->first, pages[i]->second, found[i]);
  });
  Diagnostics out;
  for (Diagnostics& page : found) out.insert(out.end(), page.begin(), page.end());
  return out;
}

}  // namespace kbc
