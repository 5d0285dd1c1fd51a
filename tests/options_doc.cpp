// options_doc: checks (or, with --write, rewrites) the options blocks of README.md and docs/reference.md, the
// text between <!-- options:begin --> and <!-- options:end -->, against what the option table generates; and the
// lists of the commands in README.md, docs/*.md and each folder's README.md, each the text between
// <!-- commands --> and <!-- /commands -->, against the command table. A list of four commands or more outside
// such a block is one kept by hand, which the table does not keep up to date: it fails too.
// Usage: options_doc [--write] SOURCE_DIR; exit 0 when they match (or were rewritten), 1 when one differs.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

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

constexpr const char* list_begin = "<!-- commands -->";
constexpr const char* list_end = "<!-- /commands -->";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The named commands of the table, in its order.
std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const cudabench::cli::command_spec* c : cudabench::app::command_table())
    if (c->named) names.emplace_back(c->name);
  return names;
}

/// How the docs list the commands: "`compare`, `confirm`, ... and `store`".
std::string command_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("`" + names[i] + "`");
  return out;
}

/// Four command names or more in a row, as a list: "compare, report, trend and gates", "`compare`|`report`|...".
std::regex hand_list(const std::vector<std::string>& names) {
  std::string any;
  for (const std::string& n : names) any += (any.empty() ? "" : "|") + n;
  const std::string item = "`?(?:" + any + ")`?(?![\\w-])";
  return std::regex("(?:^|[^\\w-])(" + item + "(?:\\s*(?:,|\\||/|,?\\s+and|,?\\s+or)\\s*" + item + "){3,})");
}

/// Checks or rewrites the command lists of one file; false when one differs, when a block is not closed, or when
/// a list outside the blocks names four commands or more.
bool sync_command_lists(const std::string& path, const std::vector<std::string>& names, bool write) {
  std::string doc = read_text(path), outside;
  const std::string generated = command_list(names);
  bool same = true, changed = false;
  std::size_t at = 0;
  for (std::size_t begin; (begin = doc.find(list_begin, at)) != std::string::npos;) {
    const std::size_t from = begin + std::string(list_begin).size(), end = doc.find(list_end, from);
    if (end == std::string::npos) {
      std::cerr << path << ": a " << list_begin << " block without its " << list_end << "\n";
      return false;
    }
    outside += doc.substr(at, begin - at) + "\n";
    if (doc.compare(from, end - from, generated) != 0 && write) {
      doc.replace(from, end - from, generated);
      changed = true;
    } else if (doc.compare(from, end - from, generated) != 0) {
      std::cerr << path << ": a command list differs from the command table's (" << generated << "); regenerate it: "
                << "cmake --build build --target options_doc && build/tests/options_doc --write .\n";
      same = false;
    }
    at = doc.find(list_end, from) + std::string(list_end).size();
  }
  outside += doc.substr(at);
  const std::regex list = hand_list(names);
  for (std::sregex_iterator m(outside.begin(), outside.end(), list), none; m != none; ++m) {
    std::string text = m->str(1);
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::cerr << path << ": a list of the commands kept by hand ('" << text << "'): make it a " << list_begin
              << "..." << list_end << " block (options_doc --write fills it in)\n";
    same = false;
  }
  if (changed) std::ofstream(path, std::ios::binary | std::ios::trunc) << doc;
  return same;
}

/// README.md, docs/*.md and each folder's README.md: the docs that list the commands.
std::vector<std::string> docs_of(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> out{root + "/README.md"};
  for (const auto& e : fs::directory_iterator(root + "/docs"))
    if (e.path().extension() == ".md") out.push_back(e.path().string());
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory() && fs::exists(e.path() / "README.md")) out.push_back((e.path() / "README.md").string());
  std::sort(out.begin() + 1, out.end());
  return out;
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
  const std::vector<std::string> names = command_names();
  for (const std::string& path : docs_of(root)) same = sync_command_lists(path, names, write) && same;
  return same ? 0 : 1;
}
