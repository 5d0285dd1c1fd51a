// The limits family that ships in the library: what this device does at best (copies, a read-only stream, host
// copies, FMA throughput, launches, an empty sample), which cases that name a limit (case_def::limit) are shown
// against.
#pragma once

#include "cudabench/limit_names.hpp"
#include "cudabench/registry.hpp"

namespace cudabench {

/// The limits family's order key: before every other family, so a run measures the limits first.
inline constexpr int limits_order = -1000;

/// The registrar of the `limits` family. cudabench::main registers it; a project with its own main() (linking
/// cudabench::app and cudabench::limits) registers it itself:
/// `CB_REGISTER_FAMILY(limits, cudabench::register_limits, cudabench::limits_order);`
void register_limits(family_builder& f);

}  // namespace cudabench
