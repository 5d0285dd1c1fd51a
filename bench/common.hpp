// Small helpers the bench/ files share: memory checks and stream fork/join around the timed stream.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "harness/cuda_handles.hpp"
#include "harness/device_query.hpp"
#include "harness/fixture.hpp"

namespace bench {

/// Skips the case (harness::skip_case) unless `bytes` of device memory are free, with headroom.
inline void require_device_memory(double bytes) {
  const double free_b = double(harness::free_device_memory());
  if (bytes > 0.9 * free_b)
    throw harness::skip_case(fmt::format("needs {:.2f} GiB of device memory, {:.2f} GiB free", bytes / (1 << 30), free_b / (1 << 30)));
}

/// Skips the case unless `bytes` of host memory are available.
void require_host_memory(double bytes);

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
    for (std::size_t i = 0; i < streams_.size(); ++i) harness::stream_wait(main, streams_[i], done_[i]);
  }

 private:
  std::vector<harness::stream> streams_;
  std::vector<harness::event> done_;
  harness::event forked_{cudaEventDisableTiming};
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
