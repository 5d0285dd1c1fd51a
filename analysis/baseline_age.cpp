// The age of a baseline and what it lacks, for a comparison's notes.
#include "analysis/baseline_age.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "io/format.hpp"

namespace cudabench {
namespace {
/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

std::string when(const run_result& r) { return r.settings.started_utc.empty() ? r.date : r.settings.started_utc; }
std::string shown_when(const run_result& r) { return when(r).empty() ? "at no recorded date" : printable(when(r), 40); }

std::string revision(const run_result& r) {
  const std::string& rev = r.settings.git_revision;
  return rev.empty() ? "no recorded revision"
                     : "revision " + printable(rev.substr(0, 12)) + (r.settings.git_dirty ? "+" : "");
}

bool records_code(const run_result& r) {
  return std::any_of(r.cases.begin(), r.cases.end(), [](const case_result& c) { return c.code.has_value(); });
}
bool records_machine(const run_result& r) { return r.device && r.device->machine; }
bool records_energy(const run_result& r) {
  return std::any_of(r.cases.begin(), r.cases.end(), [](const case_result& c) {
    return std::any_of(c.repetitions.begin(), c.repetitions.end(),
                       [](const repetition& x) { return x.record && x.record->energy; });
  });
}
}  // namespace

std::optional<long long> iso_seconds(const std::string& date) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
  if (std::sscanf(date.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &used) != 6 || mo < 1 ||
      mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return std::nullopt;
  auto at = static_cast<std::size_t>(used);
  if (at < date.size() && date[at] == '.')  // a fraction of a second
    do ++at;
    while (at < date.size() && std::isdigit(static_cast<unsigned char>(date[at])));
  const std::string zone = date.substr(at);
  long long offset = 0;
  int oh = 0, om = 0;
  if ((zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') &&
       std::sscanf(zone.c_str() + 1, "%2d:%2d", &oh, &om) == 2))
    offset = (zone[0] == '-' ? -1 : 1) * (oh * 3600LL + om * 60LL);
  else if (!zone.empty() && zone != "Z")
    return std::nullopt;
  return days_from_civil(y, unsigned(mo), unsigned(d)) * 86400 + h * 3600LL + mi * 60LL + s - offset;
}

std::string old_baseline_note(const run_result& base, const run_result& cur) {
  std::vector<std::string> lacks;
  if (records_code(cur) && !records_code(base))
    lacks.push_back("code identity (a change of the machine cannot be told from a change of the code)");
  if (records_machine(cur) && !records_machine(base))
    lacks.push_back("the machine's fingerprint (board and host facts)");
  if (records_energy(cur) && !records_energy(base)) lacks.push_back("energy");
  const auto b = iso_seconds(when(base)), c = iso_seconds(when(cur));
  const double days = b && c ? double(*c - *b) / 86400 : 0;
  if (days < 1 && lacks.empty()) return "";
  std::string note = days >= 1 ? fmt::format("the baseline is {:.1f} days older than the current run", days)
                               : std::string("the baseline");
  note += fmt::format(" (recorded {}, {}; the current run {}, {})", shown_when(base), revision(base), shown_when(cur),
                      revision(cur));
  if (!lacks.empty()) {
    note += days >= 1 ? "; it lacks what the current run records: " : " lacks what the current run records: ";
    for (std::size_t i = 0; i < lacks.size(); ++i) note += (i ? ", " : "") + lacks[i];
  }
  return note;
}

}  // namespace cudabench
