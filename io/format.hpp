// Human-readable times and rates for tables, and outside text made safe to print.
#pragma once

#include <string>
#include <string_view>

namespace cudabench {

/// "1.23 ms", "456.00 us", ... for a time in seconds.
std::string format_time(double seconds);
/// How many of Google Benchmark's time unit `unit` ("s", "ms", "us", "ns") a second holds; 0 for any other name.
double units_per_second(std::string_view unit);
/// "2.89 TB/s", "512.00 GB/s", ... for a rate per second with the given unit ("B/s", "FLOP/s").
std::string format_rate(double per_second, const char* unit);

/// Text from outside (a file, the command line, a case name) safe to print on a terminal, in a message or in
/// a report: control characters (C0, DEL, C1, the bidirectional controls such as U+202E) and bytes of no
/// well-formed UTF-8 character shown as \xNN, so a name cannot move the cursor, retitle the window, forge a line
/// or reorder what is shown around it; other UTF-8 is kept. The one escaper every
/// format starts from (reports/escape.hpp adds each format's own markup).
std::string printable(std::string_view text);
/// The same, at most `limit` bytes of it (then "...").
std::string printable(std::string_view text, std::size_t limit);

}  // namespace cudabench
