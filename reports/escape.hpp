// Outside text (case names, paths, notes) made safe for each format: what it prints stays what it says.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudabench::reports {

/// Markdown text (headings, notes, table cells, titles): the characters Markdown or GitHub would read as
/// markup (\ ` * _ [ ] < > & | ~ $) backslash-escaped, an @ followed by a zero-width space (no live mention),
/// control characters (bidirectional ones included) as \xNN.
std::string markdown_text(std::string_view text);

/// A Markdown code span holding `text` literally: a backtick fence longer than any run of backticks in it,
/// control characters as \xNN.
std::string markdown_code(std::string_view text);
/// The same inside a table cell, where a `|` would end the cell even within the span: escaped as \|.
std::string markdown_code_cell(std::string_view text);

/// A pipe table (Markdown's, also read as is on a terminal): a header row, `rule` (such as "|---|---:|"), the
/// rows; every cell passed through `escape` (markdown_text, printable).
std::string pipe_table(const std::vector<std::string>& header, const std::string& rule,
                       const std::vector<std::vector<std::string>>& rows, std::string (*escape)(std::string_view));

/// HTML text and attribute values: control characters as \xNN (as printable), & < > " ' as entities.
std::string html_text(std::string_view text);

/// Text for a CSV cell, unquoted: control characters as \xNN (as printable), and a leading = + - @ (which
/// a spreadsheet would run as a formula; a tab or line break is \xNN already) behind a single quote.
std::string csv_text(std::string_view text);
/// A CSV field as RFC 4180 writes it, of csv_text: quoted when it holds a comma or a quote.
std::string csv_field(std::string_view text);

}  // namespace cudabench::reports
