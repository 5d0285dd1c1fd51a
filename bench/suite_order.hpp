// The suite's order, in one place: families run and are listed by these keys, whatever order the sources
// are compiled or linked in.
#pragma once

namespace bench::suite_order {

/// The library's `limits` family runs before all of these (cudabench::limits_order): the other families' cases
/// are shown against the limits it measures in the run. Gaps of ten leave room for a family (or a test-only
/// one) between two others.
enum : int { conv2d = 20, dot = 30, histogram = 40, image = 50, matmul = 60, reduce = 70, vector = 80 };

}  // namespace bench::suite_order
