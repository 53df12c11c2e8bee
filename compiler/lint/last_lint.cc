#include "lint/last_lint.h"

#include <algorithm>
#include <cstring>
#include <ostream>

#include "base/byte_io.h"
#include "base/digest.h"
#include "lint/regex_pool.h"
#include "lint/rule.h"
#include "model/parse_cache.h"

namespace kbc {

namespace {

// The first half of a digest's hex digits, as bytes.
LastLint::Half half_of(const std::string& hex) {
  LastLint::Half half{};
  bytes_of_hex(std::string_view(hex).substr(0, 2 * half.size()), half);
  return half;
}

}  // namespace

LastLint::Half LastLint::regex_digest(const Entry& entry) {
  const std::optional<std::string_view> pattern = regex_of(entry);
  return half_of(pattern ? Digest().add("regex 1").add(*pattern).hex() : digest_of("no regex"));
}

LastLint::Half LastLint::texts_digest(const Entry& entry) {
  Digest digest;
  digest.add("own texts 1");
  for (const std::string& pointer : own_text_pointers(entry))
    digest.add(pointer).add(entry.text(pointer));
  return half_of(digest.hex());
}

SinceLast::SinceLast(const KnowledgeBase& kb, const LastLint& last,
                     const std::vector<const LastLint::EntryFacts*>& facts)
    : before(facts),
      regex(facts.size()),
      texts(facts.size()),
      same_regex(facts.size()),
      same_texts(facts.size()) {
  for (std::size_t i = 0; i < facts.size(); ++i) {
    const Entry& entry = kb.entries[i];
    if (!facts[i]) {
      const auto it = last.entries.find(entry.path);
      before[i] = it == last.entries.end() ? nullptr : &it->second;
    }
    regex[i] = facts[i] ? facts[i]->regex : LastLint::regex_digest(entry);
    texts[i] = facts[i] ? facts[i]->texts : LastLint::texts_digest(entry);
    same_regex[i] = before[i] && before[i]->regex == regex[i];
    same_texts[i] = before[i] && before[i]->texts == texts[i];
  }
}

namespace {

constexpr std::string_view kFindingsMagic = "kbc last lint findings 2\n";
constexpr std::string_view kFactsMagic = "kbc last lint facts 2\n";

// Writes `buffer` to `out` once it holds a megabyte, or whatever it holds with `all`.
void flush(std::string& buffer, std::ostream& out, bool all = false) {
  if (buffer.size() < (1 << 20) && !all) return;
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  buffer.clear();
}

// The put_* functions are false when a text did not fit (put_text): the part is then not kept.
bool put_texts(std::string& out, const std::vector<std::string>& texts) {
  put_number(out, static_cast<std::uint32_t>(texts.size()));
  return std::ranges::all_of(texts, [&](const std::string& text) { return put_text(out, text); });
}

bool put_facts(std::string& out, const std::string& path, const LastLint::EntryFacts& facts) {
  bool whole = put_text(out, path) && put_text(out, facts.digest);
  put_number(out, std::uint8_t{facts.compiled});
  whole = put_texts(out, facts.atoms) && whole;
  put_number(out, static_cast<std::uint32_t>(facts.clauses.size()));
  for (const std::vector<int>& clause : facts.clauses) {
    put_number(out, static_cast<std::uint32_t>(clause.size()));
    for (const int atom : clause) put_number(out, static_cast<std::uint32_t>(atom));
  }
  put_number(out, static_cast<std::uint32_t>(facts.hits.size()));
  for (const auto& [owner, pointer] : facts.hits)
    whole = put_text(out, owner) && put_text(out, pointer) && whole;
  put_number(out, std::int32_t{facts.benign_lines});
  put_number(out, static_cast<std::uint32_t>(facts.some_benign.size()));
  for (const std::uint32_t line : facts.some_benign) put_number(out, line);
  whole = put_texts(out, facts.winner_candidates) && put_text(out, facts.winner) && whole;
  out.append(reinterpret_cast<const char*>(facts.regex.data()), facts.regex.size());
  out.append(reinterpret_cast<const char*>(facts.texts.data()), facts.texts.size());
  return whole;
}

}  // namespace

// Written as bytes (base/byte_io.h), not as JSON or CBOR: nlohmann's readers take a string a byte
// at a time (reading the findings of 100,000 entries, 97 MB of CBOR, was a second of CPU), and
// its JSON writer escapes one (writing them as JSON lines took 40% longer than as CBOR).
bool LastLint::write_findings(std::ostream& out) const {
  std::string buffer(kFindingsMagic);
  bool whole = put_text(buffer, digest) && put_text(buffer, benign);
  put_number(buffer, std::uint64_t{findings.size()});
  for (const Diagnostic& d : findings) {
    put_number(buffer, std::int32_t{d.at.line});
    put_number(buffer, std::int32_t{d.at.column});
    put_number(buffer, std::uint8_t{d.severity == Severity::kError});
    for (const std::string* text : {&d.message, &d.rule, &d.excerpt, &d.pointer, &d.path})
      whole = put_text(buffer, *text) && whole;
    flush(buffer, out);
  }
  flush(buffer, out, true);
  return whole && static_cast<bool>(out);
}

bool LastLint::write_facts(std::ostream& out) const {
  std::string buffer(kFactsMagic);
  bool whole = put_text(buffer, digest);
  put_number(buffer, std::uint64_t{entries.size()});
  for (const auto& [path, facts] : entries) {
    whole = put_facts(buffer, path, facts) && whole;
    flush(buffer, out);
  }
  flush(buffer, out, true);
  return whole && static_cast<bool>(out);
}

namespace {

// A line, a column or a count: a number from 0 to INT_MAX.
bool take_int(ByteReader& in, int& out) {
  std::int32_t number = 0;
  if (!in.take(number) || number < 0) return false;
  out = number;
  return true;
}

bool take_flag(ByteReader& in, bool& out) {
  std::uint8_t flag = 0;
  if (!in.take(flag) || flag > 1) return false;
  out = flag == 1;
  return true;
}

// A finding as write_findings writes it.
bool take_finding(ByteReader& in, Diagnostic& d) {
  bool error = false;
  if (!take_int(in, d.at.line) || !take_int(in, d.at.column) || !take_flag(in, error)) return false;
  d.severity = error ? Severity::kError : Severity::kWarning;
  for (std::string* text : {&d.message, &d.rule, &d.excerpt, &d.pointer, &d.path})
    if (!in.take_text(*text)) return false;
  return true;
}

// `count` items of at least `least` bytes each, through `one`.
template <typename One>
bool take_list(ByteReader& in, std::size_t least, One one) {
  std::uint32_t count = 0;
  if (!in.take_count(count, least)) return false;
  for (std::uint32_t k = 0; k < count; ++k)
    if (!one()) return false;
  return true;
}

bool take_texts(ByteReader& in, std::vector<std::string>& out) {
  return take_list(in, 4, [&] { return in.take_text(out.emplace_back()); });
}

bool take_half(ByteReader& in, LastLint::Half& half) {
  std::string_view bytes;
  if (!in.take_bytes(half.size(), bytes)) return false;
  std::memcpy(half.data(), bytes.data(), half.size());
  return true;
}

// An entry's facts as put_facts writes them, after its path.
bool take_facts(ByteReader& in, LastLint::EntryFacts& facts) {
  const auto atom = [&](std::vector<int>& clause) {  // named by its index, the atoms read before
    std::uint32_t index = 0;
    if (!in.take(index) || index >= facts.atoms.size()) return false;
    clause.push_back(static_cast<int>(index));
    return true;
  };
  const auto clause = [&] {
    std::vector<int>& clause = facts.clauses.emplace_back();
    return take_list(in, 4, [&] { return atom(clause); });
  };
  const auto hit = [&] {
    auto& [owner, pointer] = facts.hits.emplace_back();
    return in.take_text(owner) && in.take_text(pointer);
  };
  const auto benign = [&] { return in.take(facts.some_benign.emplace_back()); };
  return in.take_text(facts.digest) && take_flag(in, facts.compiled) &&
         take_texts(in, facts.atoms) && take_list(in, 4, clause) && take_list(in, 8, hit) &&
         take_int(in, facts.benign_lines) && take_list(in, 4, benign) &&
         take_texts(in, facts.winner_candidates) && in.take_text(facts.winner) &&
         take_half(in, facts.regex) && take_half(in, facts.texts);
}

}  // namespace

std::optional<LastLint> LastLint::from_bytes(std::string_view bytes) {
  if (!bytes.starts_with(kFindingsMagic)) return std::nullopt;  // foreign
  ByteReader in(bytes.substr(kFindingsMagic.size()));
  LastLint last;
  std::uint64_t count = 0;
  // A finding takes at least 29 bytes: two positions, a flag and five sizes.
  if (!in.take_text(last.digest) || !in.take_text(last.benign) || !in.take_count(count, 29))
    return std::nullopt;
  last.findings.resize(count);  // 527,000 at 100,000 entries: not grown by doubling
  for (Diagnostic& d : last.findings)
    if (!take_finding(in, d)) return std::nullopt;  // damaged
  if (in.left() != 0) return std::nullopt;
  return last;
}

bool LastLint::add_facts(std::string_view bytes) {
  if (!bytes.starts_with(kFactsMagic)) return false;  // foreign
  ByteReader in(bytes.substr(kFactsMagic.size()));
  std::string lint;
  std::uint64_t count = 0;
  // An entry's facts take at least 69 bytes: 9 sizes, a number, a flag and two halves of digests.
  if (!in.take_text(lint) || lint != digest || !in.take_count(count, 69))
    return false;  // another lint's facts are not these findings'
  std::map<std::string, EntryFacts> read;
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string_view path;
    // In order, as write_facts writes them.
    if (!in.take_text(path) || (!read.empty() && read.rbegin()->first >= path)) return false;
    if (!take_facts(in, read.emplace_hint(read.end(), path, EntryFacts())->second)) return false;
  }
  if (in.left() != 0) return false;
  entries = std::move(read);
  has_facts = true;
  return true;
}

}  // namespace kbc
