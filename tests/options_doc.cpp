// options_doc: checks (or, with --write, rewrites) the options blocks of README.md and docs/reference.md, the
// text between <!-- options:begin --> and <!-- options:end -->, against what the option table generates.
// Usage: options_doc [--write] SOURCE_DIR; exit 0 when they match (or were rewritten), 1 when one differs.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "app/commands.hpp"

namespace {

constexpr const char* begin_marker = "<!-- options:begin -->\n";
constexpr const char* end_marker = "<!-- options:end -->";

/// Checks or rewrites the block of one file; false when it differs (or cannot be read or written).
bool sync_block(const std::string& path, const std::string& generated, bool write) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  const auto begin = doc.find(begin_marker);
  const auto end = begin == std::string::npos ? begin : doc.find(end_marker, begin);
  if (!in || end == std::string::npos) {
    std::cerr << path << ": no " << begin_marker << "... " << end_marker << " block\n";
    return false;
  }
  const auto from = begin + std::string(begin_marker).size();
  if (doc.compare(from, end - from, generated) == 0) return true;
  if (!write) {
    std::cerr << path << ": the options block differs from what the option table generates (cli/option_table.cpp); "
              << "regenerate it: cmake --build build --target options_doc && build/tests/options_doc --write .\n";
    return false;
  }
  doc.replace(from, end - from, generated);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << doc;
  std::cout << "rewrote the options block of " << path << "\n";
  return bool(out);
}

}  // namespace

int main(int argc, char** argv) {
  const bool write = argc == 3 && std::string(argv[1]) == "--write";
  if (argc != 2 && !write) {
    std::cerr << "usage: options_doc [--write] SOURCE_DIR\n";
    return 2;
  }
  const std::string root = argv[argc - 1];
  bool same = sync_block(root + "/README.md", cudabench::app::options_summary_markdown(), write);
  same = sync_block(root + "/docs/reference.md", cudabench::app::options_reference_markdown(), write) && same;
  return same ? 0 : 1;
}
