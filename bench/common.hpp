// Small helpers the bench/ files share: stream fork/join around the timed stream, sampled checks.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

/// N worker streams that fork from and join back into the stream a case is timed on.
class stream_fan {
 public:
  explicit stream_fan(int n) {
    for (int i = 0; i < n; ++i) { streams_.emplace_back(); done_.emplace_back(cudaEventDisableTiming); }
  }
  int size() const { return int(streams_.size()); }
  cudaStream_t operator[](int i) const { return streams_[i]; }
  /// Every worker waits for what `main` has queued so far.
  void fork(cudaStream_t main) {
    forked_.record(main);
    for (auto& s : streams_) CB_CHECK(cudaStreamWaitEvent(s, forked_, 0));
  }
  /// `main` waits for everything the workers queued.
  void join(cudaStream_t main) {
    for (std::size_t i = 0; i < streams_.size(); ++i) cudabench::stream_wait(main, streams_[i], done_[i]);
  }

 private:
  std::vector<cudabench::stream> streams_;
  std::vector<cudabench::event> done_;
  cudabench::event forked_{cudaEventDisableTiming};
};

/// `count` positions of an n x n output to check against a reference: the four corners (where boundary
/// handling goes wrong), then uniformly random ones from a fresh seed.
std::vector<std::pair<int, int>> sampled_positions(int n, int count);

/// "" when no element is NaN (outputs are poisoned with NaN before the run), else the first unwritten one.
std::string check_all_written(const float* out, std::size_t n);

/// [begin, end) of chunk i when n items are split into `parts` nearly equal chunks.
inline std::pair<std::size_t, std::size_t> chunk(std::size_t n, int parts, int i) {
  return {n * std::size_t(i) / std::size_t(parts), n * std::size_t(i + 1) / std::size_t(parts)};
}

}  // namespace bench
