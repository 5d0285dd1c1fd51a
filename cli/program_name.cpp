// The program's name as usage and messages show it.
#include "cli/program_name.hpp"

#include <filesystem>

#include "cudabench/main.hpp"

namespace cudabench::app {
namespace {
/// Empty until named: a function-local static, since the suite names itself from a static initializer.
std::string& chosen() {
  static std::string name;
  return name;
}
}  // namespace

void name_program(std::string_view name) { chosen() = name; }

void name_program_from(const char* argv0) {
  if (!chosen().empty() || !argv0 || !*argv0) return;
  chosen() = std::filesystem::path(argv0).filename().string();
}

std::string program_title() { return chosen().empty() ? std::string(suite_title) : chosen(); }

std::string program_name() {
  const std::string title = program_title();
  return title.starts_with("./") ? title.substr(2) : title;
}

}  // namespace cudabench::app
