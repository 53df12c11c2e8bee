#include "lint/last_lint.h"

#include <limits>
#include <ostream>

#include "base/digest.h"
#include "lint/regex_pool.h"
#include "lint/rule.h"
#include "model/parse_cache.h"

namespace kbc {

using nlohmann::json;

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

json LastLint::findings_json() const {
  return {{"digest", digest}, {"benign", benign}, {"findings", diagnostics_to_json(findings)}};
}

namespace {

// The head of a CBOR item of major type `major` (4 an array, 5 a map) and `count` items or pairs
// (RFC 8949, section 3): the count in the initial byte below 24, else in the 1, 2, 4 or 8 bytes
// after it, big-endian.
void append_head(std::ostream& out, unsigned major, std::uint64_t count) {
  const unsigned type = major << 5;
  if (count < 24) {
    out.put(static_cast<char>(type | count));
    return;
  }
  const int bytes = count <= 0xff ? 1 : count <= 0xffff ? 2 : count <= 0xffffffff ? 4 : 8;
  out.put(static_cast<char>(type | (bytes == 1 ? 24 : bytes == 2 ? 25 : bytes == 4 ? 26 : 27)));
  for (int k = bytes - 1; k >= 0; --k) out.put(static_cast<char>((count >> (8 * k)) & 0xff));
}

}  // namespace

bool LastLint::write_findings_cbor(std::ostream& out) const {
  // findings_json's document, written a finding at a time: its members in key order.
  append_head(out, 5, 3);
  for (const auto& [key, value] : {std::pair{"benign", &benign}, {"digest", &digest}}) {
    json::to_cbor(key, out);
    json::to_cbor(*value, out);
  }
  json::to_cbor("findings", out);
  append_head(out, 4, findings.size());
  for (const Diagnostic& d : findings) json::to_cbor(diagnostic_to_json(d), out);
  return static_cast<bool>(out);
}

namespace {

json entry_facts_json(const LastLint::EntryFacts& entry) {
  json hits = json::array();
  for (const auto& [owner, pointer] : entry.hits) hits.push_back({owner, pointer});
  return {entry.digest,    entry.compiled,      entry.atoms,        entry.clauses,
          std::move(hits), entry.benign_lines,  entry.some_benign,  entry.winner_candidates,
          entry.winner,    hex_of(entry.regex), hex_of(entry.texts)};
}

}  // namespace

json LastLint::facts_json() const {
  json facts = json::object();
  for (const auto& [path, entry] : entries) facts[path] = entry_facts_json(entry);
  return {{"digest", digest}, {"entries", std::move(facts)}};
}

bool LastLint::write_facts_cbor(std::ostream& out) const {
  // facts_json's document, written an entry at a time (`entries` is in key order, as it).
  append_head(out, 5, 2);
  json::to_cbor("digest", out);
  json::to_cbor(digest, out);
  json::to_cbor("entries", out);
  append_head(out, 5, entries.size());
  for (const auto& [path, entry] : entries) {
    json::to_cbor(path, out);
    json::to_cbor(entry_facts_json(entry), out);
  }
  return static_cast<bool>(out);
}

namespace {

// Reads what findings_json wrote, as CBOR, straight into a LastLint: the document is never built
// (at 25,000 entries it took 133 MB, for 24 MB of CBOR). Anything else fails the read.
class FindingsReader : public json::json_sax_t {
 public:
  explicit FindingsReader(LastLint& out) : out_(out) {}
  bool complete() const { return depth_ == 0 && seen_ == 7; }

  bool null() override { return false; }
  bool boolean(bool value) override {
    if (!in_finding() || field_ != 2) return false;
    finding_.severity = value ? Severity::kError : Severity::kWarning;
    return ++field_, true;
  }
  bool number_integer(number_integer_t value) override { return number(value); }
  bool number_unsigned(number_unsigned_t value) override {
    return value <= static_cast<number_unsigned_t>(std::numeric_limits<int>::max()) &&
           number(static_cast<number_integer_t>(value));
  }
  bool number_float(number_float_t, const string_t&) override { return false; }
  bool binary(binary_t&) override { return false; }
  bool string(string_t& value) override {
    if (depth_ == 1 && (key_ == "digest" || key_ == "benign")) {
      seen_ |= key_ == "digest" ? 1 : 2;
      (key_ == "digest" ? out_.digest : out_.benign) = std::move(value);
      return true;
    }
    if (!in_finding() || field_ < 3 || field_ > 7) return false;
    std::string* const fields[] = {&finding_.message, &finding_.rule, &finding_.excerpt,
                                   &finding_.pointer, &finding_.path};
    *fields[field_ - 3] = std::move(value);
    return ++field_, true;
  }
  bool start_object(std::size_t) override { return depth_ == 0 && ++depth_; }
  bool key(string_t& value) override {
    key_ = std::move(value);
    return depth_ == 1;
  }
  bool end_object() override { return depth_ == 1 && !--depth_; }
  bool start_array(std::size_t) override {
    if (depth_ == 1 && key_ == "findings") return ++depth_;
    if (depth_ != 2) return false;
    finding_ = Diagnostic{};
    field_ = 0;
    return ++depth_;
  }
  bool end_array() override {
    if (depth_ == 2) return seen_ |= 4, --depth_;
    if (!in_finding() || field_ != 8) return false;
    out_.findings.push_back(std::move(finding_));
    return --depth_;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool in_finding() const { return depth_ == 3; }
  bool number(number_integer_t value) {
    if (!in_finding() || field_ > 1 || value < 0 || value > std::numeric_limits<int>::max())
      return false;
    (field_ == 0 ? finding_.at.line : finding_.at.column) = static_cast<int>(value);
    return ++field_, true;
  }

  LastLint& out_;
  int depth_ = 0;  // 1 in the object, 2 in its findings, 3 in one finding
  int seen_ = 0;   // its three members, one bit each
  std::string key_;
  Diagnostic finding_;
  int field_ = 0;  // of the finding's eight
};

}  // namespace

std::optional<LastLint> LastLint::from_cbor(std::string_view bytes) {
  LastLint last;
  FindingsReader reader(last);
  try {
    if (!json::sax_parse(bytes, &reader, json::input_format_t::cbor) || !reader.complete())
      return std::nullopt;  // damaged or foreign: lint everything
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return last;
}

namespace {

// Reads what facts_json wrote, as CBOR, straight into EntryFacts (the document was 2.5 times the
// facts it held: 126 MB of CBOR at 100,000 entries). Anything else fails the read.
class FactsReader : public json::json_sax_t {
 public:
  std::string digest;
  std::map<std::string, LastLint::EntryFacts> entries;
  bool complete() const { return depth_ == 0 && seen_ == 3; }

  bool null() override { return false; }
  bool boolean(bool value) override {
    if (depth_ != 3 || field_ != 1) return false;
    entry_.compiled = value;
    return ++field_, true;
  }
  bool number_integer(number_integer_t value) override {
    return value >= 0 && number(static_cast<number_unsigned_t>(value));
  }
  bool number_unsigned(number_unsigned_t value) override { return number(value); }
  bool number_float(number_float_t, const string_t&) override { return false; }
  bool binary(binary_t&) override { return false; }
  bool string(string_t& value) override {
    if (depth_ == 1 && key_ == "digest") return seen_ |= 1, digest = std::move(value), true;
    if (depth_ == 3 && (field_ == 0 || field_ == 8)) {
      (field_ == 0 ? entry_.digest : entry_.winner) = std::move(value);
      return ++field_, true;
    }
    if (depth_ == 3 && (field_ == 9 || field_ == 10)) {  // the two halves of digests
      LastLint::Half& half = field_ == 9 ? entry_.regex : entry_.texts;
      if (value.size() != 2 * half.size() || !is_hex(value)) return false;
      bytes_of_hex(value, half);
      return ++field_, true;
    }
    if (depth_ == 4 && (field_ == 2 || field_ == 7)) {
      (field_ == 2 ? entry_.atoms : entry_.winner_candidates).push_back(std::move(value));
      return true;
    }
    if (depth_ != 5 || field_ != 4 || hit_.size() >= 2) return false;
    hit_.push_back(std::move(value));
    return true;
  }
  bool start_object(std::size_t) override {
    if (depth_ == 0 || (depth_ == 1 && key_ == "entries")) return ++depth_;
    return false;
  }
  bool key(string_t& value) override {
    key_ = std::move(value);
    return depth_ == 1 || depth_ == 2;
  }
  bool end_object() override {
    if (depth_ == 2) seen_ |= 2;
    return (depth_ == 1 || depth_ == 2) && --depth_ >= 0;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 2) return entry_ = {}, field_ = 0, ++depth_;
    const bool list = (field_ >= 2 && field_ <= 4) || field_ == 6 || field_ == 7;
    if (depth_ == 3) return list && ++depth_;
    if (depth_ == 4 && field_ == 4) return hit_.clear(), ++depth_;
    if (depth_ == 4 && field_ == 3) return entry_.clauses.emplace_back(), ++depth_;
    return false;
  }
  bool end_array() override {
    if (depth_ == 5) {  // a hit, or a clause (field 3, read into place)
      if (field_ == 4 && hit_.size() != 2) return false;
      if (field_ == 4) entry_.hits.emplace_back(std::move(hit_[0]), std::move(hit_[1]));
    } else if (depth_ == 4) {
      ++field_;
    } else if (depth_ == 3) {
      if (field_ != 11) return false;
      entries[key_] = std::move(entry_);
    } else {
      return false;
    }
    return --depth_;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool number(number_unsigned_t value) {
    if (depth_ == 3 && field_ == 5 && value <= std::numeric_limits<int>::max()) {
      entry_.benign_lines = static_cast<int>(value);
      return ++field_, true;
    }
    if (depth_ == 5 && field_ == 3 && value < entry_.atoms.size()) {  // the atoms came before
      entry_.clauses.back().push_back(static_cast<int>(value));
      return true;
    }
    if (depth_ != 4 || field_ != 6 || value > std::numeric_limits<std::uint32_t>::max())
      return false;
    entry_.some_benign.push_back(static_cast<std::uint32_t>(value));
    return true;
  }

  int depth_ = 0;    // 1 in the object, 2 in its entries, 3 in an entry's facts, 4 in a list, 5 a
                     // hit or a clause
  int seen_ = 0;     // its two members, one bit each
  std::string key_;  // the member's name at depth 1, the entry's path below
  LastLint::EntryFacts entry_;
  int field_ = 0;  // of the entry's eleven
  std::vector<std::string> hit_;
};

}  // namespace

bool LastLint::add_facts(std::string_view cbor) {
  FactsReader reader;
  try {
    if (!json::sax_parse(cbor, &reader, json::input_format_t::cbor) || !reader.complete())
      return false;  // damaged or foreign: lint everything
  } catch (const std::exception&) {
    return false;
  }
  if (reader.digest != digest) return false;  // another lint's
  entries = std::move(reader.entries);
  return true;
}

}  // namespace kbc
