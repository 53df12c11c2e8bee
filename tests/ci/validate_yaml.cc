// Checks YAML files against a JSON Schema with kbc's own loader (YAML -> JSON, with positions)
// and valijson: the test `ci-files-schema`, which holds action.yml and the example workflow to
// SchemaStore's published schemas, and makes sure that broken copies of them are rejected.
//
//   validate_yaml (--schema FILE [--id URL] | --valid FILE.yaml | --invalid POINTERS FILE.yaml)...
//
// The arguments are read in order. --schema names the schema for the files after it: a JSON
// file, or, with --id, any file that embeds the schema as JSON text (a .wasm, a bundle), found
// by its "$id". --valid FILE passes when FILE has no error. --invalid POINTERS FILE is one check
// per JSON pointer in the comma-separated POINTERS, which passes only when the schema finds an
// error at that pointer ("" is the whole document; an unknown key's error is at the key): a file
// rejected for another reason (a YAML error, a schema that did not load) does not pass.
// Every error is printed as `FILE:LINE:COL: POINTER: message`.
// Exit status: 0 when every check passed, 1 when one did not, 2 for a usage or schema failure.
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/json_pointer.h"
#include "load/yaml_loader.h"

namespace {

using nlohmann::json;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError("cannot read " + path +
                     (path.find("node_modules") != std::string::npos
                          ? " (npm ci in tests/browser installs it, as .ci/setup --browser does)"
                          : ""));
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The JSON object in `bytes` whose "$id" is `id`: the first '{' before a mention of the id that
// starts a JSON text with that "$id" (what follows the text is ignored: `>>` is not strict).
std::optional<json> find_embedded_schema(const std::string& bytes, const std::string& id) {
  const std::string quoted = json(id).dump();
  for (std::size_t at = bytes.find(quoted); at != std::string::npos;
       at = bytes.find(quoted, at + 1)) {
    for (std::size_t open = bytes.rfind('{', at); open != std::string::npos && open > 0;
         open = bytes.rfind('{', open - 1)) {
      std::istringstream in(bytes.substr(open));
      json value;
      try {
        in >> value;
      } catch (const json::exception&) {
        continue;
      }
      if (value.is_object() && value.value("$id", json()) == json(id)) return value;
      if (at - open > 1 << 16) break;  // "$id" stands among the first keys of a schema
    }
  }
  return std::nullopt;
}

class Schema {
 public:
  Schema(const std::string& path, const std::optional<std::string>& id) : name_(path) {
    const std::string bytes = read_file(path);
    if (id) {
      auto found = find_embedded_schema(bytes, *id);
      if (!found) throw UsageError(path + " embeds no JSON schema with \"$id\": \"" + *id + "\"");
      document_ = std::move(*found);
      name_ = *id + " (from " + path + ")";
    } else {
      try {
        document_ = json::parse(bytes);
      } catch (const json::exception& e) {
        throw UsageError(path + " is not JSON: " + e.what());
      }
    }
    try {
      valijson::SchemaParser parser;
      valijson::adapters::NlohmannJsonAdapter adapter(document_);
      parser.populateSchema(adapter, schema_);
    } catch (const std::exception& e) {
      throw UsageError("valijson cannot load the schema " + name_ + ": " + e.what());
    }
  }

  const std::string& name() const { return name_; }

  // (pointer, message) for each error; valijson's summaries ("Failed to validate against
  // schema associated with property name 'runs'") come with the errors that caused them.
  std::vector<std::pair<std::string, std::string>> validate(const json& value) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(value);
    validator.validate(schema_, target, &results);
    std::vector<std::pair<std::string, std::string>> errors;
    for (const auto& error : results) {
      std::string pointer;
      for (std::size_t i = 1; i < error.context.size(); ++i) {  // context[0] is "<root>"
        const std::string& part = error.context[i];             // "[runs]", "[0]"
        pointer =
            kbc::pointer_append(pointer, part.size() >= 2 ? part.substr(1, part.size() - 2) : part);
      }
      // An unknown key is reported on its mapping ("...constraints: 'runs-on'."); point at the
      // key itself.
      const std::string& description = error.description;
      if (description.starts_with("Object contains a property that could not be validated") &&
          description.ends_with("'.")) {
        const std::size_t quote = description.rfind('\'', description.size() - 3);
        if (quote != std::string::npos)
          pointer = kbc::pointer_append(
              pointer, description.substr(quote + 1, description.size() - quote - 3));
      }
      errors.emplace_back(pointer, description);
    }
    return errors;
  }

 private:
  std::string name_;
  json document_;
  valijson::Schema schema_;
};

// Prints what is wrong with `path`; returns the pointers of the schema errors, or nullopt when
// the file could not be read as YAML at all.
std::optional<std::vector<std::string>> check(const Schema& schema, const std::string& path) {
  const std::string text = read_file(path);
  kbc::Diagnostics problems;
  const auto document = kbc::load_yaml(path, text, problems);
  for (const auto& problem : problems) std::cout << kbc::format_diagnostic(problem) << "\n";
  if (!document || !problems.empty()) return std::nullopt;
  std::vector<std::string> pointers;
  for (const auto& [pointer, message] : schema.validate(document->value)) {
    const kbc::Location at = document->sources.find(pointer).value;
    std::cout << path << ":" << at.line << ":" << at.column << ": "
              << (pointer.empty() ? "(root)" : pointer) << ": " << message << "\n";
    pointers.push_back(pointer);
  }
  return pointers;
}

int run(const std::vector<std::string>& args) {
  std::unique_ptr<Schema> schema;
  std::string schema_path;
  std::optional<std::string> schema_id;
  int passed = 0, failed = 0;
  const auto current_schema = [&]() -> const Schema& {
    if (schema_path.empty()) throw UsageError("--schema must come before the files");
    if (!schema) schema = std::make_unique<Schema>(schema_path, schema_id);
    return *schema;
  };
  const auto next = [&](std::size_t& i) -> const std::string& {
    if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
    return args[++i];
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& option = args[i];
    if (option == "--schema") {
      schema_path = next(i);
      schema_id.reset();
      schema.reset();
    } else if (option == "--id") {
      schema_id = next(i);
      schema.reset();
    } else if (option == "--valid") {
      const std::string& path = next(i);
      const Schema& against = current_schema();
      const auto errors = check(against, path);
      const bool ok = errors && errors->empty();
      std::cout << (ok ? "PASS " : "FAIL ") << path << " is valid against " << against.name()
                << "\n";
      ++(ok ? passed : failed);
    } else if (option == "--invalid") {
      const std::string& pointers = next(i);
      const std::string& path = next(i);
      const Schema& against = current_schema();
      const auto errors = check(against, path);
      std::size_t start = 0;
      do {
        const std::size_t comma = std::min(pointers.find(',', start), pointers.size());
        const std::string pointer = pointers.substr(start, comma - start);
        start = comma + 1;
        const bool ok =
            errors && std::find(errors->begin(), errors->end(), pointer) != errors->end();
        std::cout << (ok ? "PASS " : "FAIL ") << path << " is rejected by " << against.name()
                  << " with an error at '" << pointer << "'\n";
        ++(ok ? passed : failed);
      } while (start <= pointers.size());
    } else {
      throw UsageError("unknown argument '" + option + "'");
    }
  }
  if (passed + failed == 0) throw UsageError("no --valid or --invalid file to check");
  std::cout << passed << " of " << passed + failed << " checks passed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::cerr << "validate_yaml: " << e.what() << "\n"
              << "usage: validate_yaml (--schema FILE [--id URL] | --valid FILE.yaml | "
                 "--invalid POINTERS FILE.yaml)...\n";
    return 2;
  }
}
