// The limits family that ships in the library: what this device does at best (copies, a read-only stream, host
// copies, FMA throughput, launches, an empty sample), which cases that name a limit (case_def::limit) are shown
// against.
#pragma once

#include "cudabench/registry.hpp"

namespace cudabench {

/// The family's name: its cases are "limits/copy_d2d", "limits/read", "limits/fma", ...
inline constexpr const char* limits_family = "limits";

/// The empty kernel timed as a sample is, cold and hot: what a sample holds besides a case's own device work.
inline constexpr const char* sample_overhead_cold = "limits/empty_cold";
inline constexpr const char* sample_overhead_hot = "limits/empty_hot";

/// The limits family's order key: before every other family, so a run measures the limits first.
inline constexpr int limits_order = -1000;

/// The registrar of the `limits` family. cudabench::main registers it; a project with its own main() (linking
/// cudabench::app and cudabench::limits) registers it itself:
/// `CB_REGISTER_FAMILY(limits, cudabench::register_limits, cudabench::limits_order);`
void register_limits(family_builder& f);

/// When the limits family runs: with --limits always (whatever the filter); without it, where the filter selects
/// it, in the nightly and full presets, and in the quick preset too in a binary that declares so once (the suite,
/// whose every family is shown against the limits): `CB_LIMITS_IN_EVERY_PRESET();`
struct limits_in_every_preset {
  limits_in_every_preset();
};
/// The binary declared CB_LIMITS_IN_EVERY_PRESET().
bool limits_in_every_preset_declared();

}  // namespace cudabench

#define CB_LIMITS_IN_EVERY_PRESET() \
  static const ::cudabench::limits_in_every_preset cb_limits_in_every_preset {}
