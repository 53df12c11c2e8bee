// How `kbc serve` answers a URL from a site built in memory: which file of the OutputTree it
// names, and the content type to send it with.
//
// A URL is only ever a key looked up in the tree's map, so no path, however it climbs with "..",
// can reach a file outside site/.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

struct SiteLookup {
  enum class Kind { kFile, kRedirect, kMissing };
  Kind kind = Kind::kMissing;
  // kFile: the key of the file in the tree ("site/en/index.html"); kMissing: the key of the
  // not-found page to show, which may itself be missing from the tree.
  std::string key;
  std::string location;  // kRedirect: where to (a folder asked for without its final '/')
};

// `url_path` is the decoded path of the request ("/en/entries/cuda/x.html"). A path ending in
// '/' names the folder's index.html; a folder named without the '/' is redirected to it, so
// that the page's relative links resolve. What is missing gets the 404 page of its language,
// the one of `languages` (the site's language codes, the base language first) whose folder it
// is in, else the base language's.
SiteLookup find_site_file(const std::map<std::string, std::string>& files,
                          std::string_view url_path, const std::vector<std::string>& languages);

// By extension: text/html, text/css, text/javascript, application/json, application/xml
// (application/atom+xml for the feeds), text/plain, text/markdown (text with "; charset=utf-8");
// application/octet-stream otherwise.
std::string content_type(std::string_view path);

}  // namespace kbc
