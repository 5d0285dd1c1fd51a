// Small helpers the bench/ files share: stream fork/join around the timed stream, sampled checks.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cudabench/axes.hpp"
#include "cudabench/cuda_handles.hpp"
#include "cudabench/fixture.hpp"

namespace bench {

/// The largest element count of the one-dimensional families (vector, dot, reduce, histogram): 4 TiB of floats,
/// beyond any one machine, so a larger size could never run (a smaller one that does not fit is skipped by
/// the fixture's memory check, with the figure); their kernels index with size_t.
constexpr std::int64_t max_elements = std::int64_t(1) << 40;
/// The largest side of the square families (matmul, conv2d): their kernels index row * n + col in int.
constexpr std::int64_t max_side = 46340;
/// The most streams or chunks a case splits its work into: beyond it a case measures launch overhead only.
constexpr std::int64_t max_split = 64;

/// The worker streams of a case's fork/join (the public cudabench::stream_fan).
using stream_fan = cudabench::stream_fan;

/// `count` positions of an n x n output to check against a reference: the four corners (where boundary
/// handling goes wrong), then uniformly random ones from a fresh seed.
std::vector<std::pair<int, int>> sampled_positions(int n, int count);

/// "" when no element is NaN (outputs are poisoned with NaN before the run), else the first unwritten one.
std::string check_all_written(const float* out, std::size_t n);

/// Validation only: the environment variable CUDABENCH_EXTRA_WORK=PCT makes the cases that honour it (reduce's
/// device variants read PCT% more of their input; matmul's device variants multiply a second pair of matrices
/// with PCT% of the main product's FLOPs) do that much more real work than they declare, so that a run can be
/// compared with a clean one to check that verdicts catch a real slowdown (docs/validation.md). 0 when unset;
/// a value that is not a plain decimal number from 0 to 100 ("2", "0.5") stops the process with one line.
double extra_work_fraction();
/// extra_work_fraction() for the case `family/variant` (such as "reduce/fast"): 0 where CUDABENCH_EXTRA_WORK_VARIANT
/// names another (set, it limits the extra work to the one case variant it names, a change to one kernel).
double extra_work_fraction(std::string_view case_variant);
/// The note a case that honours CUDABENCH_EXTRA_WORK records with its result while it is set ("" when not), so
/// a run with extra work is never read as a clean one.
std::string extra_work_note(double fraction = extra_work_fraction());

/// Checks an n x n output at `count` sampled positions against reference_at(row, col, &mag), a double-precision
/// value and the sum of the magnitudes of its terms: |got - want| <= rel_tolerance * mag + 1e-6. Every element
/// must have been written. "" when all agree, else a line naming the first wrong `name(row, col)`.
template <typename Reference>
std::string check_sampled(const float* out, int n, int count, double rel_tolerance, const char* name,
                          Reference&& reference_at) {
  if (std::string unwritten = check_all_written(out, std::size_t(n) * n); !unwritten.empty()) return unwritten;
  for (auto [r, c] : sampled_positions(n, count)) {
    double mag = 0;
    const double want = reference_at(r, c, &mag);
    const double got = out[std::size_t(r) * n + c];
    if (std::fabs(got - want) > rel_tolerance * mag + 1e-6)
      return fmt::format("{}({}, {}) is {:f}, want {:f}", name, r, c, got, want);
  }
  return {};
}

/// The element counts of the one-dimensional families that sweep the full range (histogram, reduce).
inline cudabench::axis element_count_axis() {
  return cudabench::size_axis("n",
                              {{"quick", {1 << 20, 1 << 24}},
                               {"nightly", {1 << 20, 1 << 24, 1 << 28}},
                               {"full", {1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28}}},
                              max_elements);
}

/// [begin, end) of chunk i when n items are split into `parts` nearly equal chunks.
inline std::pair<std::size_t, std::size_t> chunk(std::size_t n, int parts, int i) {
  return {n * std::size_t(i) / std::size_t(parts), n * std::size_t(i + 1) / std::size_t(parts)};
}

}  // namespace bench
