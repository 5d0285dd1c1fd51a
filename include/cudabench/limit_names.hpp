// The names of the limits family and of the cases the harness reads from it: the results model, the case driver,
// the comparison and the reports tell its cases apart by them (cudabench/limits.hpp registers the family).
#pragma once

namespace cudabench {

/// The family's name: its cases are "limits/copy_d2d", "limits/read", "limits/fma", ...
inline constexpr const char* limits_family = "limits";

/// The empty kernel timed as a sample is, cold and hot: what a sample holds besides a case's own device work.
inline constexpr const char* sample_overhead_cold = "limits/empty_cold";
inline constexpr const char* sample_overhead_hot = "limits/empty_hot";

}  // namespace cudabench
