#include "model/recipe.h"

#include "base/digest.h"

namespace kbc {

namespace {

std::vector<std::string> strings_at(const Entry& entry, std::string_view pointer) {
  std::vector<std::string> out;
  for (const auto& item : entry.list(pointer))
    if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

}  // namespace

std::string recipe_file_path(const Entry& entry) {
  const std::string_view file = entry.text("/reproduce/file");
  return file.empty() ? std::string() : folder_of(entry.path) + std::string(file);
}

std::optional<Recipe> read_recipe(const Entry& entry,
                                  const std::map<std::string, std::string>& files,
                                  RecipeProblem* problem) {
  const auto* block = entry.find("/reproduce");
  if (!block || !block->is_object()) return std::nullopt;
  const auto fail = [&](std::string pointer, std::string message) {
    if (problem) *problem = {std::move(pointer), std::move(message)};
    return std::nullopt;
  };
  Recipe recipe;
  std::vector<std::string> given;
  for (const char* key : {"python", "shell", "file"})
    if (block->contains(key)) given.emplace_back(key);
  if (given.empty())
    return fail("/reproduce",
                "the reproduce block has no script: give one of python, shell and file");
  if (given.size() > 1)
    return fail("/reproduce/" + given[1], "the reproduce block has " + given[0] + " and " +
                                              given[1] + ": give exactly one script");
  if (given[0] == "file") {
    recipe.file = recipe_file_path(entry);
    const auto it = files.find(recipe.file);
    if (it == files.end())
      return fail("/reproduce/file",
                  "no file " + recipe.file + " (a regular file beside the entry, not a link)");
    recipe.script = it->second;
    recipe.language = recipe.file.ends_with(".sh") ? "shell" : "python";
  } else {
    recipe.language = given[0];
    recipe.script = std::string(entry.text("/reproduce/" + given[0]));
  }
  recipe.packages = strings_at(entry, "/reproduce/needs/packages");
  recipe.python_modules = strings_at(entry, "/reproduce/needs/python_modules");
  if (const auto* gpu = entry.find("/reproduce/needs/gpu"); gpu && gpu->is_boolean())
    recipe.gpu = gpu->get<bool>();
  if (const auto* timeout = entry.find("/reproduce/timeout");
      timeout && timeout->is_number_integer())
    recipe.timeout_s = timeout->get<int>();
  if (const auto* expect = entry.find("/reproduce/expect"); expect && expect->is_string()) {
    recipe.expect = expect->get<std::string>();
    recipe.expect_is_regex = false;
  } else {
    recipe.expect = std::string(entry.text("/regex"));
  }
  Digest digest;
  digest.add("kbc recipe 1").add(recipe.language).add(recipe.script);
  digest.add(recipe.packages.size());
  for (const auto& package : recipe.packages) digest.add(package);
  digest.add(recipe.python_modules.size());
  for (const auto& module : recipe.python_modules) digest.add(module);
  digest.add(recipe.gpu ? 1 : 0).add(static_cast<std::uint64_t>(recipe.timeout_s));
  // The entry's own regex is not part of the recipe: a changed regex is checked against the
  // recorded line instead (lint's evidence-regex).
  digest.add(recipe.expect_is_regex ? std::string_view() : std::string_view(recipe.expect));
  recipe.digest = digest.hex().substr(0, 32);
  return recipe;
}

}  // namespace kbc
