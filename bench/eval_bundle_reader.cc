// Evaluation, not part of kbc: kbc's bundle reader (nlohmann's SAX parser, two threads) against
// simdjson's On-Demand API (Debian's libsimdjson-dev, not a dependency of kbc) reading the same
// fields of every record of a bundle, with a check that both read the same records. Build it
// against a configured build/ and run it on a kb.json (bench/README.md, "Libraries evaluated"):
//   g++ -std=c++20 -O2 -DNDEBUG -Icompiler bench/eval_bundle_reader.cc \
//     $(find build/CMakeFiles/kbc_core.dir -name '*.o') -lsimdjson -lre2 -lyaml-cpp \
//     -lcmark-gfm -lcmark-gfm-extensions -lcpp-httplib -lssl -lcrypto -lpthread -o eval_bundle
//   ./eval_bundle dist/kb.json
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "match/bundle_reader.h"

using namespace kbc;

std::string text_of(simdjson::ondemand::value v) {
  std::string_view s;
  if (v.get_string().get(s)) return "";
  return std::string(s);
}
double number_of(simdjson::ondemand::value v) {
  double d;
  if (v.get_double().get(d)) return 0;
  return d;
}

std::vector<MatchRecord> read_simdjson(const simdjson::padded_string& json) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc = parser.iterate(json);
  std::vector<MatchRecord> out;
  for (auto item : doc.get_array()) {
    simdjson::ondemand::object object = item.get_object();
    MatchRecord r;
    for (auto field : object) {
      std::string_view key = field.unescaped_key();
      simdjson::ondemand::value value = field.value();
      if (key == "id")
        r.id = text_of(value);
      else if (key == "signature")
        r.signature = text_of(value);
      else if (key == "regex")
        r.regex = text_of(value);
      else if (key == "error_code")
        r.error_code = text_of(value);
      else if (key == "fix_success_rate")
        r.fix_success_rate = number_of(value);
      else if (key == "aliases" || key == "tags") {
        auto& list = key == "aliases" ? r.aliases : r.tags;
        simdjson::ondemand::array a;
        if (!value.get_array().get(a))
          for (auto s : a) {
            std::string_view t;
            if (!s.get_string().get(t)) list.emplace_back(t);
          }
      } else if (key == "workarounds" || key == "dead_ends") {
        const bool w = key == "workarounds";
        simdjson::ondemand::array a;
        if (value.get_array().get(a)) continue;
        for (auto element : a) {
          simdjson::ondemand::object o;
          if (element.get_object().get(o)) continue;
          MatchAction action;
          for (auto f : o) {
            std::string_view k = f.unescaped_key();
            if (k == "action")
              action.action = text_of(simdjson::ondemand::value(f.value()));
            else if (w && k == "how")
              action.how = text_of(simdjson::ondemand::value(f.value()));
            else if (w && k == "condition")
              action.condition = text_of(simdjson::ondemand::value(f.value()));
            else if (k == (w ? "success_rate" : "fail_rate"))
              action.rate = number_of(simdjson::ondemand::value(f.value()));
          }
          if (w)
            offer_workaround(r, std::move(action));
          else
            r.dead_ends.push_back({std::move(action.action), "", "", action.rate});
        }
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

int main(int, char** argv) {
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const simdjson::padded_string padded(text);
  std::vector<double> a, b;
  std::size_t n1 = 0, n2 = 0;
  for (int round = 0; round < 15; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    auto r1 = match_records_from_bundle_text(text);
    auto t1 = std::chrono::steady_clock::now();
    auto r2 = read_simdjson(padded);
    auto t2 = std::chrono::steady_clock::now();
    a.push_back(std::chrono::duration<double>(t1 - t0).count());
    b.push_back(std::chrono::duration<double>(t2 - t1).count());
    n1 = r1.size();
    n2 = r2.size();
    if (round == 0) {
      bool same = r1.size() == r2.size();
      for (std::size_t i = 0; same && i < r1.size(); ++i)
        same = r1[i].id == r2[i].id && r1[i].signature == r2[i].signature &&
               r1[i].regex == r2[i].regex && r1[i].aliases == r2[i].aliases &&
               r1[i].dead_ends.size() == r2[i].dead_ends.size() &&
               (r1[i].best_workaround.has_value() == r2[i].best_workaround.has_value());
      std::printf("same records: %s\n", same ? "yes" : "NO");
    }
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::printf(
      "%zu / %zu records, %.1f MB: nlohmann SAX (two threads) median %.3f s, simdjson on-demand "
      "(one thread) median %.3f s\n",
      n1, n2, text.size() / 1e6, a[7], b[7]);
}
