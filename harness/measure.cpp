// Building, checking and measuring one case; adaptive sampling with CUDA events (GPU) or the host clock (CPU).
#include "harness/measure.hpp"

#include <fmt/format.h>

#include <chrono>

#include "harness/nvtx.hpp"
#include "harness/stats.hpp"

namespace harness {

/// The stream every GPU case is timed on, its events and the L2 flusher. The stream is a blocking one,
/// so cases that use the legacy default stream (cudaMemcpy) are ordered with its events.
struct case_driver::gpu_state {
  explicit gpu_state(std::size_t l2_bytes) : main(cudaStreamDefault), flusher(l2_bytes) {}
  stream main;
  event start, stop;
  l2_flusher flusher;
};

namespace {
class verification_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

case_driver::case_driver(const device_info& device, const preset& p) : device_(device), preset_(p) {}
case_driver::~case_driver() = default;

void case_driver::skip(benchmark::State& st, const std::string& name, const std::string& why) {
  outcomes_[name] = case_outcome::skipped;
#if CUDABENCH_GBENCH_HAS_SKIP_MESSAGE
  st.SkipWithMessage(why);
#else
  st.SkipWithError((skip_prefix + why).c_str());
#endif
}

void case_driver::fail(benchmark::State& st, const std::string& name, const std::string& why) {
  outcomes_[name] = case_outcome::failed;
  st.SkipWithError(why.c_str());
}

fixture& case_driver::fixture_for(const case_def& c) {
  const std::string name = c.name();
  if (cached_ && cached_name_ == name) {
    fresh_run_s_ = 0;
    return *cached_;
  }
  cached_.reset();  // free the previous case's memory before allocating this one's
  cached_name_.clear();
  if (c.on == where::gpu && !gpu_) gpu_ = std::make_unique<gpu_state>(std::size_t(device_.l2_bytes));
  cudaStream_t s = c.on == where::gpu ? gpu_->main.get() : nullptr;
  std::unique_ptr<fixture> fx;
  {
    phase_range p(phase::setup);
    fx = c.make();
    if (s) CB_CHECK(cudaStreamSynchronize(s));
  }
  {
    phase_range p(phase::verify);
    fx->prepare(s);
    const double t0 = wall_seconds();
    fx->run(s);
    if (s) {
      CB_CHECK(cudaGetLastError());
      CB_CHECK(cudaStreamSynchronize(s));
    }
    fresh_run_s_ = wall_seconds() - t0;
    std::string problem = fx->verify();
    if (!problem.empty()) throw verification_failed("wrong result: " + problem);
  }
  cached_ = std::move(fx);
  cached_name_ = name;
  return *cached_;
}

std::vector<double> case_driver::measure_gpu(fixture& fx, const case_def& c, std::string& stop) {
  gpu_state& g = *gpu_;
  const bool cold = c.cache == cache_state::cold;
  auto timed_run = [&] {
    fx.prepare(g.main);
    if (cold) {
      phase_range p(phase::flush);
      g.flusher.flush(g.main);
    }
    g.start.record(g.main);
    fx.run(g.main);
    g.stop.record(g.main);
    g.stop.synchronize();
    CB_CHECK(cudaGetLastError());
    return double(g.stop.elapsed_ms_since(g.start)) * 1e-3;
  };
  {
    phase_range p(phase::warmup);
    double warm = fresh_run_s_;
    int runs = 0;
    do { warm += timed_run(); } while (warm < preset_.sampling.warmup_s && ++runs < 10000);
  }
  phase_range p(phase::measure);
  std::vector<double> samples;
  double measured = 0;
  for (;;) {
    samples.push_back(timed_run());
    measured += samples.back();
    stop_reason r = stop_rule(samples, measured, preset_.sampling);
    if (r != stop_reason::none) { stop = to_string(r); break; }
  }
  return samples;
}

std::vector<double> case_driver::measure_cpu(fixture& fx, std::string& stop) {
  auto timed_run = [&] {
    fx.prepare(nullptr);
    const double t0 = wall_seconds();
    fx.run(nullptr);
    return wall_seconds() - t0;
  };
  {
    phase_range p(phase::warmup);
    double warm = fresh_run_s_;
    while (warm < preset_.sampling.warmup_s) warm += timed_run();
  }
  phase_range p(phase::measure);
  std::vector<double> samples;
  double measured = 0;
  for (;;) {
    samples.push_back(timed_run());
    measured += samples.back();
    stop_reason r = stop_rule(samples, measured, preset_.sampling);
    if (r != stop_reason::none) { stop = to_string(r); break; }
  }
  return samples;
}

void case_driver::run(benchmark::State& st, const case_def& c) {
  const std::string name = c.name();
  case_range range(name);
  try {
    if (c.on == where::gpu && !device_.available) return skip(st, name, device_.unavailable_reason);
    if (auto it = known_skips_.find(name); it != known_skips_.end()) return skip(st, name, it->second);
    if (auto it = known_failures_.find(name); it != known_failures_.end()) return fail(st, name, it->second);
    fixture& fx = fixture_for(c);
    summary s;
    std::string stop;
    for (auto _ : st) {
      std::vector<double> samples = c.on == where::gpu ? measure_gpu(fx, c, stop) : measure_cpu(fx, stop);
      s = summarize(samples);
      st.SetIterationTime(s.median);
    }
    const double t = s.median;
    st.counters["bytes_per_second"] = c.work.bytes() / t;
    if (c.work.items > 0) st.counters["items_per_second"] = c.work.items / t;
    if (c.work.flops > 0) st.counters["flops_per_second"] = c.work.flops / t;
    if (c.on == where::gpu && device_.theoretical_bandwidth() > 0 && c.work.bytes() > 0)
      st.counters["bw_peak_fraction"] = c.work.bytes() / t / device_.theoretical_bandwidth();
    st.counters["samples"] = double(s.n);
    if (s.n > 1) {  // one sample has no spread to report
      st.counters["noise_pct"] = 100 * s.rel_stderr();
      st.counters["cv_pct"] = 100 * s.cv();
    }
    std::map<std::string, double> extra;
    fx.add_counters(extra);
    for (auto& [k, v] : extra) st.counters[k] = v;
    run_record rec{stop, c.cache == cache_state::cold ? "cold" : "hot", s.n, s.rel_stderr(), true, fx.note()};
    rec.correct = rec.note.find("incorrect") == std::string::npos;
    std::string label = rec.cache;
    if (!rec.note.empty()) label += ", " + rec.note;
    st.SetLabel(label);
    records_[name].push_back(rec);
    if (!outcomes_.count(name)) outcomes_[name] = case_outcome::passed;
  } catch (const skip_case& e) {
    known_skips_[name] = e.what();
    cached_.reset();
    cached_name_.clear();
    skip(st, name, e.what());
  } catch (const std::exception& e) {
    std::string why = dynamic_cast<const verification_failed*>(&e) ? e.what() : std::string("error: ") + e.what();
    known_failures_[name] = why;
    cached_.reset();
    cached_name_.clear();
    fail(st, name, why);
  }
}

}  // namespace harness
