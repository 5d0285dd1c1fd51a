// The escaping of each output format, in one place.
#include "reports/escape.hpp"

#include "io/format.hpp"

#include <algorithm>

namespace cudabench::reports {

std::string markdown_text(std::string_view text) {
  std::string marked;
  marked.reserve(text.size());
  for (const char c : text) {
    if (std::string_view("\\`*_[]<>&|~$@").find(c) != std::string_view::npos) marked += '\\';
    marked += c;
    if (c == '@') marked += "\u200b";  // GitHub links an escaped @name still: a zero-width space breaks the name off
  }
  return printable(marked);  // the markup is printable: escaped before, left as it is by printable
}

std::string markdown_code(std::string_view text) {
  std::size_t run = 0, longest = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string body = printable(text);
  // A span that starts or ends with a backtick (or a space, which Markdown would strip) is padded by one space.
  const bool pad =
      !body.empty() && (body.front() == '`' || body.back() == '`' || body.front() == ' ' || body.back() == ' ');
  const std::string fence(longest + 1, '`');
  std::string out = fence;
  if (pad) out += ' ';
  out += body;
  if (pad) out += ' ';
  return out + fence;
}

std::string markdown_code_cell(std::string_view text) {
  // Printable ASCII without a backtick or a bar, not starting or ending with a space: in one fence, as it is.
  const bool plain =
      std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '`' && c != '|'; });
  if (plain && !text.empty() && text.front() != ' ' && text.back() != ' ') return "`" + std::string(text) + "`";
  std::string out;
  for (const char c : markdown_code(text)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string pipe_table(const std::vector<std::string>& header, const std::string& rule,
                       const std::vector<std::vector<std::string>>& rows, std::string (*escape)(std::string_view)) {
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const std::string& c : cells) out += " " + escape(c) + " |";
    return out + "\n";
  };
  std::string out = line(header) + rule + "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string html_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : printable(text)) {  // control characters first, as \xNN: a page shows them, never holds them raw
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string csv_text(std::string_view text) {
  std::string out = printable(text);
  if (!out.empty() && std::string_view("=+-@").find(out.front()) != std::string_view::npos) out.insert(0, 1, '\'');
  return out;
}

std::string csv_field(std::string_view text) {
  std::string safe = csv_text(text);
  if (safe.find_first_of(",\"") == std::string::npos) return safe;
  std::string out = "\"";
  for (const char c : safe) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace cudabench::reports
