// The program's name as usage and messages show it.
#include "cli/program_name.hpp"

#include <filesystem>

namespace cudabench::cli {
namespace {
/// Empty until named: a function-local static, since the suite names itself from a static initializer.
std::string& chosen_program_name() {
  static std::string name;
  return name;
}
}  // namespace

void name_program_from(const char* argv0) {
  if (!chosen_program_name().empty() || !argv0 || !*argv0) return;
  const std::string file = std::filesystem::path(argv0).filename().string();
  chosen_program_name() = file == program_name_of(suite_title) ? std::string(suite_title) : file;
}

void name_program_as(std::string_view name) { chosen_program_name() = name; }

std::string program_title() { return chosen_program_name().empty() ? std::string(suite_title) : chosen_program_name(); }

bool program_is_cudabench() {
  const std::string title = program_title();
  return title == suite_title || title == report_title;
}

std::string program_name_of(std::string_view title) {
  return std::string(title.starts_with("./") ? title.substr(2) : title);
}

std::string program_name() { return program_name_of(program_title()); }

}  // namespace cudabench::cli
