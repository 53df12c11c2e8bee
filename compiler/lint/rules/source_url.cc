// source-url: sources are links readers follow, so they must be web addresses anyone can open:
// http(s), and not a local or private host that only the author's machine could reach.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

// The host of an http(s) URL, lower-cased, without port or brackets; nullopt for another scheme.
std::optional<std::string> http_host(std::string_view url) {
  const std::string scheme = ascii_lower(url.substr(0, url.find(':')));
  if ((scheme != "http" && scheme != "https") || url.substr(scheme.size(), 3) != "://")
    return std::nullopt;
  std::string_view rest = url.substr(scheme.size() + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  if (rest.starts_with('[')) return ascii_lower(rest.substr(1, rest.find(']') - 1));
  return ascii_lower(rest.substr(0, rest.find(':')));
}

bool is_private_ipv4(const in_addr& address) {
  const std::uint32_t ip = ntohl(address.s_addr);
  auto in = [&](std::uint32_t network, int bits) {
    return (ip >> (32 - bits)) == (network >> (32 - bits));
  };
  return in(0x00000000, 8) || in(0x0A000000, 8) || in(0x7F000000, 8) || in(0xA9FE0000, 16) ||
         in(0xAC100000, 12) || in(0xC0A80000, 16) || in(0x64400000, 10);
}

bool is_private_ipv6(const in6_addr& address) {
  static const in6_addr kAny{}, kLoopback = IN6ADDR_LOOPBACK_INIT;
  const unsigned char* bytes = address.s6_addr;
  if (IN6_IS_ADDR_V4MAPPED(&address)) {  // ::ffff:a.b.c.d is the IPv4 address a.b.c.d
    in_addr v4{};
    std::memcpy(&v4.s_addr, bytes + 12, 4);
    return is_private_ipv4(v4);
  }
  return std::equal(bytes, bytes + 16, kAny.s6_addr) ||
         std::equal(bytes, bytes + 16, kLoopback.s6_addr) || (bytes[0] & 0xFE) == 0xFC ||
         (bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80);
}

// Why the URL cannot be a public source, or nullopt when it can.
std::optional<std::string> problem(std::string_view url) {
  auto host = http_host(url);
  if (!host) return "is not an http(s) URL";
  if (host->ends_with('.')) host->pop_back();  // "localhost." is localhost
  if (host->empty()) return "has no host";
  in_addr v4{};
  in6_addr v6{};
  // inet_aton also reads the short and numeric forms (127.1, 2130706433) that browsers accept.
  if (inet_aton(host->c_str(), &v4) == 1) {
    return is_private_ipv4(v4)
               ? std::optional<std::string>("points at a private or loopback address")
               : std::nullopt;
  }
  if (inet_pton(AF_INET6, host->c_str(), &v6) == 1) {
    return is_private_ipv6(v6)
               ? std::optional<std::string>("points at a private or loopback address")
               : std::nullopt;
  }
  if (*host == "localhost" || host->ends_with(".localhost") || host->ends_with(".local") ||
      host->ends_with(".internal") || host->find('.') == std::string::npos) {
    return "points at a local host";
  }
  return std::nullopt;
}

void check_url(const Entry& entry, const std::string& pointer, Reporter& report) {
  const auto* node = entry.find(pointer);
  if (!node || !node->is_string()) return;
  if (const auto why = problem(node->get_ref<const std::string&>())) {
    report.at_value(entry, pointer, "URL '" + node->get<std::string>() + "' " + *why);
  }
}

void source_url(const Entry& entry, const EntryContext&, Reporter& report) {
  check_url(entry, "/official_doc_url", report);
  for (const char* list : {"/dead_ends", "/workarounds"}) {
    for_each_item(entry, list, [&](const std::string& item, const auto&) {
      for_each_item(entry, item + "/sources", [&](const std::string& source, const auto&) {
        check_url(entry, source, report);
      });
    });
  }
}

}  // namespace

constinit const Rule kSourceUrl = {
    .id = "source-url",
    .severity = Severity::kError,
    .summary = "a source URL that is not http(s) or points at a local or private address",
    .local = source_url,
};

}  // namespace kbc::rules
