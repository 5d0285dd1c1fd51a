// "Did you mean": the option or command a mistyped name was probably meant to be, by edit distance.
#include "cli/option_table.hpp"

#include <algorithm>
#include <vector>

namespace cudabench::cli {
namespace {
/// The edits (a character added, dropped or changed, or two neighbours swapped) that make `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}
}  // namespace

std::string closest_name(std::string_view typed, const std::vector<std::string_view>& names) {
  constexpr std::size_t longest = 64;  // a longer argument is no slip of a name (and would cost a large table)
  const std::size_t letters = typed.size() - std::min(typed.find_first_not_of('-'), typed.size());
  if (letters == 0 || typed.size() > longest) return "";
  const std::size_t slips = letters >= 8 ? 2 : 1;
  std::string_view best;
  std::size_t best_distance = slips + 1;
  for (std::string_view n : names)
    if (const std::size_t d = edit_distance(typed, n); d < best_distance) {
      best = n;
      best_distance = d;
    }
  return std::string(best);
}

std::string closest_command(command_list all, std::string_view typed) {
  std::vector<std::string_view> names;
  for (const command_spec* c : all)
    if (c->named) names.push_back(c->name);
  return closest_name(typed, names);
}

}  // namespace cudabench::cli
