// Human-readable times and rates for tables.
#pragma once

#include <string>

namespace cudabench {

/// "1.23 ms", "456.00 us", ... for a time in seconds.
std::string format_time(double seconds);
/// "2.89 TB/s", "512.00 GB/s", ... for a rate per second with the given unit ("B/s", "FLOP/s").
std::string format_rate(double per_second, const char* unit);

}  // namespace cudabench
