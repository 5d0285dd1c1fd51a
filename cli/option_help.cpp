// --help of each command and the options reference in the docs, made from the option table.
#include "cli/option_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "cli/program_name.hpp"

namespace cudabench::cli {
namespace {

constexpr std::size_t help_width = 112, label_width = 25;

constexpr std::string_view value_forms =
    "A value follows its option as --name=VALUE or --name VALUE (Google Benchmark's --benchmark_* flags: "
    "--benchmark_name=VALUE only); an output FILE of - is standard output (for one output of a command at most).";

/// `text` wrapped at help_width, every line after the first indented by `indent` spaces.
std::string wrap(std::string_view text, std::size_t column, std::size_t indent) {
  std::string out;
  for (bool first = true; !text.empty(); first = false) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    if (!first && column + 1 + word.size() > help_width) {
      out += '\n' + std::string(indent, ' ');
      column = indent;
    } else if (!first) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out;
}

/// "--filter=REGEX", "-h, --help": how usage names an option.
std::string label(const option_spec& o) {
  std::string l = o.alias.empty() ? std::string(o.name) : fmt::format("{}, {}", o.alias, o.name);
  if (o.kind != arity::flag) l += fmt::format("={}", o.placeholder);
  return l;
}

std::string synopsis(const command_spec& c) {
  if (c.passes_rest) return fmt::format("{} {} [options] [-- BINARY_ARGS]", command_title(c), c.inputs);
  return c.inputs.empty() ? fmt::format("{} [options]", command_title(c))
                          : fmt::format("{} {} [options]", command_title(c), c.inputs);
}

/// The options users see: every option but the program's own (hidden).
bool listed(const option_spec& o, const command_spec& c) { return !o.hidden && takes(o, c.name); }

/// Markdown text of a table cell: `|` escaped, and `<` so that <placeholders> are not read as HTML.
std::string md_cell(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '<')
      out += "&lt;";
    else
      out += ch;
  }
  return out;
}

/// A code span of a table cell (`|` escaped, as GitHub's tables need inside code spans too).
std::string md_code(std::string_view text) {
  std::string out = "`";
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out + "`";
}

/// An option's help with the table's {filter}, {sizes} and {axis} replaced by `ex`'s examples.
std::string with_examples(std::string_view help, const help_examples& ex) {
  std::string out(help);
  for (const auto& [key, example] : {std::pair{"{filter}", &ex.filter}, {"{sizes}", &ex.sizes}, {"{axis}", &ex.axis}})
    for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + example->size()))
      out.replace(at, std::string_view(key).size(), *example);
  return out;
}

}  // namespace

std::string command_help(command_list all, const command_spec& cmd, const help_examples& ex) {
  std::string out = fmt::format("usage: {}\n", synopsis(cmd));
  if (!cmd.named)
    for (const command_spec* c : all)
      if (c->named) out += fmt::format("       {}   ({} {} --help)\n", synopsis(*c), program_title(), c->name);
  out += fmt::format("\n{}\n{}\n\noptions:\n", wrap(cmd.about, 0, 0), wrap(value_forms, 0, 0));
  for (const option_spec& o : option_table()) {
    if (!listed(o, cmd)) continue;
    const std::string l = label(o);
    out += "  " + l;
    if (l.size() + 2 > label_width)
      out += "\n" + std::string(label_width + 2, ' ');
    else
      out += std::string(label_width - l.size(), ' ');
    out += wrap(with_examples(o.help, ex), label_width + 2, label_width + 2) + "\n";
  }
  if (!cmd.named && !ex.families_title.empty()) {
    out += "\n" + ex.families_title + "\n";
    for (const auto& [label, about] : ex.families) {
      const std::size_t column = std::max(label_width, 2 + label.size() + 2);
      out += fmt::format("  {:<{}}{}\n", label, column - 2, wrap(about, column, column));
    }
  }
  return out + wrap(fmt::format("exit status: {}", cmd.exit_status), 0, 13) + "\n";
}

std::string commands_overview(command_list all) {
  std::string out = "usage:";
  for (const command_spec* c : all)
    if (c->named) out += fmt::format("{}{}\n", out == "usage:" ? " " : "       ", synopsis(*c));
  return out + fmt::format("\nEach command's --help lists its options ({} compare --help).\n", program_title());
}

std::string options_reference_markdown(command_list all) {
  std::string out = fmt::format("## Options\n\n{}\n", md_cell(value_forms));
  for (const command_spec* row : all) {
    const command_spec& info = *row;
    out += fmt::format("\n### `{}`\n\n{}\n\n| option | meaning |\n|---|---|\n", synopsis(info), md_cell(info.about));
    for (const option_spec& o : option_table())
      if (listed(o, info)) out += fmt::format("| {} | {} |\n", md_code(label(o)), md_cell(with_examples(o.help, {})));
    out += fmt::format("\nExit status: {}.\n", md_cell(info.exit_status));
  }
  return out;
}

std::string options_summary_markdown(command_list all) {
  std::string out = "| command | options |\n|---|---|\n";
  for (const command_spec* row : all) {
    const command_spec& info = *row;
    std::string names;
    for (const option_spec& o : option_table())
      if (listed(o, info)) names += (names.empty() ? "" : " ") + md_code(label(o));
    out += fmt::format("| {} | {} |\n", md_code(synopsis(info)), names);
  }
  return out +
         "\nWhat each option does: [docs/reference.md](docs/reference.md#options), or `--help` of each command.\n";
}

}  // namespace cudabench::cli
