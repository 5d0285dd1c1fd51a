// Building, checking and measuring one case; adaptive sampling with CUDA events (GPU) or the host clock (CPU).
#include "harness/measure.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <regex>

#include "harness/gpu_probes.hpp"
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
  clock_probe probe;
  stream_blocker blocker;
};

namespace {
class verification_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// One timed run as the sampling loop sees it.
struct sample {
  double seconds = 0;      ///< the time of one run (a batch's time divided by its size)
  double cost = 0;         ///< measured time it used up (seconds x batch)
  bool discard = false;    ///< throttled: not a sample of the case at its clock
  double clock_mhz = 0;
};

/// Takes samples from `next` until the stopping rule says enough. A discarded sample still uses up time,
/// and is kept after all once the time cap is reached (the case then reports what it got).
template <typename Next>
std::vector<sample> sample_until_stopped(Next next, const sampling_policy& policy, std::string& stop) {
  std::vector<sample> kept;
  std::vector<double> seconds;
  double measured = 0;
  for (;;) {
    const sample s = next();
    measured += s.cost;
    if (s.discard && measured < policy.max_time_s) continue;
    kept.push_back(s);
    seconds.push_back(s.seconds);
    if (stop_reason r = stop_rule(seconds, measured, policy); r != stop_reason::none) {
      stop = to_string(r);
      return kept;
    }
  }
}

std::vector<double> seconds_of(const std::vector<sample>& kept) {
  std::vector<double> out;
  for (const sample& s : kept) out.push_back(s.seconds);
  return out;
}
}  // namespace

case_driver::case_driver(const device_info& device, const preset& p, measure_settings settings)
    : device_(device), preset_(p), settings_(std::move(settings)) {}
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

bool case_driver::injected(const case_def& c) const {
  return settings_.inject_regex && std::regex_search(c.name(), std::regex(*settings_.inject_regex));
}

std::vector<double> case_driver::measure_gpu(fixture& fx, const case_def& c, run_record& rec) {
  gpu_state& g = *gpu_;
  const bool cold = cache_of(c) == cache_state::cold;
  double inject_ns = 0;
  int batch = 1;
  // Hold the stream until the sample's work is queued (see stream_blocker), unless the case waits on the
  // host inside its work, which a held stream would deadlock.
  bool hold = settings_.hold_stream && !c.host_bound && !c.syncs && !unheld_.count(c.name());
  // One sample: `batch` runs between two events, then (untimed) a probe of the SM clock.
  auto timed_run = [&](double& clock_mhz) {
    for (;;) {
      fx.prepare(g.main);
      if (cold) {
        phase_range p(phase::flush);
        g.flusher.flush(g.main);
      }
      {
        scoped_hold held(hold ? &g.blocker : nullptr, g.main);
        g.start.record(g.main);
        for (int k = 0; k < batch; ++k) fx.run(g.main);
        if (inject_ns > 0) spin_for(g.main, inject_ns * batch);
        g.stop.record(g.main);
      }
      g.probe.enqueue(g.main);
      g.main.synchronize();
      CB_CHECK(cudaGetLastError());
      if (hold && g.blocker.timed_out()) {
        // The work waited on the host after all: time it unheld from now on, and say so.
        hold = false;
        unheld_.insert(c.name());
        continue;
      }
      clock_mhz = g.probe.mhz();
      return double(g.stop.elapsed_ms_since(g.start)) * 1e-3 / batch;
    }
  };
  std::vector<double> warm_times;
  const std::size_t min_warm_runs = fresh_run_s_ > 0 ? 3 : 1;  // later repetitions find the case warm
  {
    phase_range p(phase::warmup);
    double warm = fresh_run_s_, clock = 0;
    do {
      warm_times.push_back(timed_run(clock));
      warm += warm_times.back();
    } while ((warm < preset_.sampling.warmup_s || warm_times.size() < min_warm_runs) && warm_times.size() < 10000);
  }
  const double warm_median = median(warm_times);
  // Launch overhead dominates tiny kernels: time a batch of back-to-back launches (hot cases only;
  // a cold case needs its flush before every run).
  constexpr double min_sample_s = 50e-6;
  // At most 256 launches: more could fill the launch queue behind a held stream and block the host.
  if (!cold && warm_median < 20e-6) batch = int(std::min(256.0, std::ceil(min_sample_s / warm_median)));
  if (injected(c)) inject_ns = settings_.inject_pct / 100 * warm_median * 1e9;

  phase_range p(phase::measure);
  const double peak_mhz = device_.sm_clock_khz / 1e3;
  const std::vector<sample> kept = sample_until_stopped([&] {
    sample s;
    s.seconds = timed_run(s.clock_mhz);
    s.cost = s.seconds * batch;
    s.discard = peak_mhz > 0 && s.clock_mhz > 0 && s.clock_mhz < settings_.throttle_fraction * peak_mhz && rec.clock_discards < 1000;
    rec.clock_discards += s.discard;
    return s;
  }, preset_.sampling, rec.stop);
  double clock_sum = 0;
  for (const sample& s : kept) clock_sum += s.clock_mhz;
  rec.batch = batch;
  rec.held = hold;
  rec.sm_clock_mhz = clock_sum / double(kept.size());
  rec.injected = inject_ns > 0;
  return seconds_of(kept);
}

std::vector<double> case_driver::measure_cpu(fixture& fx, const case_def& c, run_record& rec) {
  double inject_s = 0;
  auto timed_run = [&] {
    fx.prepare(nullptr);
    const double t0 = wall_seconds();
    fx.run(nullptr);
    const double work = wall_seconds() - t0;
    while (inject_s > 0 && wall_seconds() - t0 < work + inject_s) {
    }  // the injected slowdown is busy CPU time, like the case's own work
    return wall_seconds() - t0;
  };
  std::vector<double> warm_times;
  {
    phase_range p(phase::warmup);
    double warm = fresh_run_s_;
    while (warm < preset_.sampling.warmup_s) { warm_times.push_back(timed_run()); warm += warm_times.back(); }
  }
  if (injected(c)) inject_s = settings_.inject_pct / 100 * (warm_times.empty() ? fresh_run_s_ : median(warm_times));
  phase_range p(phase::measure);
  const std::vector<sample> kept = sample_until_stopped([&] {
    sample s;
    s.seconds = s.cost = timed_run();
    return s;
  }, preset_.sampling, rec.stop);
  rec.injected = inject_s > 0;
  return seconds_of(kept);
}

void case_driver::run(benchmark::State& st, const case_def& c) {
  const std::string name = c.name();
  case_range range(nvtx_case_name(name));
  try {
    if (c.on == where::gpu && !device_.available) return skip(st, name, device_.unavailable_reason);
    if (auto it = known_skips_.find(name); it != known_skips_.end()) return skip(st, name, it->second);
    if (auto it = known_failures_.find(name); it != known_failures_.end()) return fail(st, name, it->second);
    fixture& fx = fixture_for(c);
    summary s;
    run_record rec;
    rec.cache = c.on == where::gpu && cache_of(c) == cache_state::cold ? "cold" : "hot";
    for (auto _ : st) {
      std::vector<double> samples = c.on == where::gpu ? measure_gpu(fx, c, rec) : measure_cpu(fx, c, rec);
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
    if (c.on == where::gpu) {
      st.counters["sm_clock_mhz"] = rec.sm_clock_mhz;
      st.counters["throttle_discards"] = double(rec.clock_discards);
      if (rec.batch > 1) st.counters["batch"] = rec.batch;
    }
    rec.samples = s.n;
    rec.noise = s.rel_stderr();
    rec.note = fx.note();
    if (unheld_.count(name)) rec.note += (rec.note.empty() ? "" : "; ") + std::string("its work waited on the host: timed without holding the stream");
    rec.correct = fx.correct();
    std::string label = rec.cache;
    if (rec.batch > 1) label += fmt::format(", batch of {}", rec.batch);
    if (rec.injected) label += fmt::format(", injected +{:g}%", settings_.inject_pct);
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
