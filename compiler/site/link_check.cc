#include "site/link_check.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace {

// The file of the tree that `target` (relative, without query or fragment) names from a page in
// `folder` ("site/en/entries/"): its path made normal as a browser does (empty and "." segments
// dropped, ".." taking the one before it), index.html for a folder; nullopt when it climbs above
// the tree's root. (std::filesystem's lexically_normal gives the same, at several times the
// cost: the list pages of 100,000 entries have a million links.)
std::optional<std::string> resolve(std::string_view folder, std::string_view target) {
  std::string resolved;
  for (const std::string_view path : {folder, target}) {
    for (std::size_t at = 0; at <= path.size();) {
      const std::size_t end = std::min(path.find('/', at), path.size());
      const std::string_view segment = path.substr(at, end - at);
      at = end + 1;
      if (segment.empty() || segment == ".") continue;
      if (segment != "..") {
        if (!resolved.empty()) resolved += '/';
        resolved += segment;
      } else if (resolved.empty()) {
        return std::nullopt;
      } else {
        const std::size_t slash = resolved.rfind('/');
        resolved.resize(slash == std::string::npos ? 0 : slash);
      }
    }
  }
  if (target.ends_with('/') || resolved.empty()) resolved += "/index.html";
  return resolved;
}

}  // namespace

void LinkCheck::read(const std::string& path, std::string_view content) {
  if (!path.starts_with(prefix_) || !path.ends_with(".html")) return;
  const std::string folder = path.substr(0, path.rfind('/') + 1);
  std::vector<std::pair<std::string, Use>> found;
  for (const std::string_view attribute : {" href=\"", " src=\""}) {
    for (std::size_t at = content.find(attribute); at != std::string::npos;
         at = content.find(attribute, at + 1)) {
      const std::size_t start = at + attribute.size();
      const std::size_t end = content.find('"', start);
      if (end == std::string::npos) break;
      std::string link(content.substr(start, end - start));
      if (link.empty() || link.starts_with('#') || link.find(':') < link.find('/') ||
          link.starts_with("//"))
        continue;  // a fragment, or an absolute URL (https:, mailto:): not ours to check
      std::optional<std::string> file = resolve(folder, link.substr(0, link.find_first_of("?#")));
      if (file && !file->starts_with(prefix_)) file.reset();
      // A file the tree has stays: the link is good, and neither kept nor counted (the count
      // is only said of a broken link's file, which the tree never has).
      if (file && tree_.contains(*file)) continue;
      found.push_back({file.value_or(""), {"", std::move(link), start, 0, 0, 1}});
    }
  }
  // One lock per page; a use's place is counted only when it is kept (the first use of its
  // target so far), moving forward through the page once.
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.second.offset < b.second.offset; });
  LineColumn at{1, 1};
  std::size_t done = 0;
  const auto place = [&](Use& use) {
    const LineColumn step = line_column_at(content.substr(done), use.offset - done);
    at = step.line > 1 ? LineColumn{at.line + step.line - 1, step.column}
                       : LineColumn{at.line, at.column + step.column - 1};
    done = use.offset;
    use.line = at.line;
    use.column = at.column;
    use.page = path;  // only for the uses kept: a page has dozens of links
  };
  const std::lock_guard lock(mutex_);
  for (auto& [target, use] : found) note(std::move(target), std::move(use), path, place);
}

template <typename Place>
void LinkCheck::note(std::string target, Use use, const std::string& page, const Place& place) {
  const auto it = targets_.find(target);
  if (it == targets_.end()) {
    place(use);
    targets_.emplace(std::move(target), std::move(use));
    return;
  }
  Use& first = it->second;
  const std::size_t count = first.count + 1;
  if (std::tie(page, use.offset) < std::tie(first.page, first.offset)) {
    place(use);
    first = std::move(use);
  }
  first.count = count;
}

Diagnostics LinkCheck::problems() const {
  const std::lock_guard lock(mutex_);
  std::vector<const Use*> broken;
  for (const auto& [target, use] : targets_) {
    if (target.empty() || !tree_.contains(target)) broken.push_back(&use);
  }
  std::sort(broken.begin(), broken.end(), [](const Use* a, const Use* b) {
    return std::tie(a->page, a->offset, a->link) < std::tie(b->page, b->offset, b->link);
  });
  Diagnostics out;
  for (const Use* use : broken) {
    std::string message = "broken link to '" + use->link + "'";
    if (use->count > 1)
      message += " (and " + std::to_string(use->count - 1) + " more link(s) to the same file)";
    out.push_back({use->page,
                   {use->line, use->column},
                   Severity::kError,
                   std::move(message),
                   "site-link",
                   ""});
  }
  return out;
}

std::size_t LinkCheck::kept() const {
  const std::lock_guard lock(mutex_);
  return targets_.size();
}

Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix) {
  LinkCheck check{tree, std::string(prefix)};
  for (const auto& [path, content] : tree.files()) check.read(path, content);
  return check.problems();
}

}  // namespace kbc
