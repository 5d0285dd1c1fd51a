// The suite's order, in one place: families run and are listed by these keys, whatever order the sources
// are compiled or linked in.
#pragma once

namespace bench::suite_order {

/// `limits` first: the other families' cases are shown against the limits it measures in the run.
/// Gaps of ten leave room for a family (or a test-only one) between two others.
enum : int { limits = 10, conv2d = 20, dot = 30, histogram = 40, image = 50, matmul = 60, reduce = 70, vector = 80 };

}  // namespace bench::suite_order
