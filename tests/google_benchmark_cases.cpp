// A binary of one cudabench family and two plain Google Benchmark functions, linked with cudabench::main: the
// runner lists, filters and runs all of them into one results file (tests/google_benchmark_cases_test.sh).
// Built with GOOGLE_BENCHMARK_ALONE: the two functions in a plain Google Benchmark binary, what the test holds the
// runner's handling of them against.
#include <benchmark/benchmark.h>
#ifndef GOOGLE_BENCHMARK_ALONE
#include <cudabench/cudabench.hpp>
#endif

#include <memory>
#include <numeric>
#include <vector>

namespace {
#ifndef GOOGLE_BENCHMARK_ALONE
class sum_cpu final : public cudabench::fixture {
 public:
  void prepare(cudaStream_t) override { v_.assign(4096, 1.0f); }
  void run(cudaStream_t) override { total_ = std::accumulate(v_.begin(), v_.end(), 0.0f); }
  std::string verify() override { return total_ == 4096.0f ? "" : "wrong sum"; }

 private:
  std::vector<float> v_;
  float total_ = 0;
};

void register_mixed(cudabench::family_builder& f) {
  f.describe("a cudabench family beside Google Benchmark functions");
  f.add({.variant = "sum", .on = cudabench::where::cpu, .size = 4096, .make = [] { return std::make_unique<sum_cpu>(); }});
}
#endif

void BM_fill(benchmark::State& state) {
  std::vector<int> v(256);
  for (auto _ : state) {
    std::iota(v.begin(), v.end(), 0);
    benchmark::DoNotOptimize(v.data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(v.size() * sizeof(int)));
}

void BM_count(benchmark::State& state) {
  std::int64_t n = 0;
  for (auto _ : state) {
    for (std::int64_t i = 0; i < state.range(0); ++i) benchmark::DoNotOptimize(n += i);
  }
  state.counters["widgets"] = double(state.range(0));
}
}  // namespace

BENCHMARK(BM_fill);
BENCHMARK(BM_count)->Arg(64);
#ifdef GOOGLE_BENCHMARK_ALONE
BENCHMARK_MAIN();
#else
CB_REGISTER_FAMILY(mixed, register_mixed);
#endif
