// Building, checking and measuring one case; adaptive sampling with CUDA events (GPU) or the host clock (CPU).
#include "measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <string>
#include <string_view>

#include "cudabench/limit_names.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "measure/gpu_state.hpp"
#include "measure/nvtx_ranges.hpp"
#include "measure/pattern.hpp"
#include "measure/stop_rule.hpp"
#include "measure/trace_recorder.hpp"
#include "results/results_schema.hpp"
#include "results/stats.hpp"

namespace cudabench {

namespace {
class verification_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Host CPU time of the whole process (worker threads included), in seconds.
double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// Runs whose time is under this are timed in batches, so a sample's overhead stays small against it.
constexpr double batch_below_s = 20e-6;
constexpr double min_sample_s = 50e-6;
constexpr std::size_t max_warmup_runs = 10000;

/// One timed run as the sampling loop sees it.
struct sample {
  double seconds = 0;    ///< the time of one run (a batch's time divided by its size)
  double cost = 0;       ///< measured time it used up (seconds x batch)
  bool discard = false;  ///< throttled: not a sample of the case at its clock
  double clock_mhz = 0;
  bool throttled = false;  ///< NVML reported a throttle reason right after it (kept, and counted)
};

/// Takes samples from `next` until the stopping rule says enough: O(1) per sample (running statistics).
/// A discarded sample still uses up time, and is kept after all once the time cap is reached (the case
/// then reports what it got).
template <typename Next>
std::vector<sample> sample_until_stopped(Next next, const sampling_policy& policy, std::string& stop) {
  std::vector<sample> kept;
  running_stats stats;
  double measured = 0;
  for (;;) {
    const sample s = next();
    if (interrupt_signal().load()) throw case_interrupted();  // stop after the current sample
    measured += s.cost;
    if (s.discard && measured < policy.max_time_s) continue;
    kept.push_back(s);
    stats.add(s.seconds);
    if (stop_reason r = stop_rule(stats, measured, policy); r != stop_reason::none) {
      stop = to_string(r);
      return kept;
    }
  }
}

std::vector<double> seconds_of(const std::vector<sample>& kept) {
  std::vector<double> out;
  out.reserve(kept.size());
  for (const sample& s : kept) out.push_back(s.seconds);
  return out;
}

/// Runs per sample for a case whose single run takes `run_s`: enough runs to fill min_sample_s (one when
/// the run's time is not known, as after no warm-up).
int batch_for(double run_s, int most) {
  if (!(run_s > 0) || run_s >= batch_below_s) return 1;
  return int(std::min(double(most), std::ceil(min_sample_s / std::max(run_s, 1e-9))));
}
}  // namespace

cpu_samples sample_cpu(fixture& fx, const sampling_policy& policy, double already_warm_s, double inject_pct) {
  cpu_samples out;
  double inject_s = 0;
  auto timed_batch = [&](int batch) {
    fx.prepare(nullptr);
    const double t0 = wall_seconds();
    for (int k = 0; k < batch; ++k) fx.run(nullptr);
    const double work = wall_seconds() - t0;
    while (inject_s > 0 && wall_seconds() - t0 < work + inject_s * batch) {
    }  // the injected slowdown is busy CPU time, like the case's own work
    return (wall_seconds() - t0) / batch;
  };
  std::vector<double> warm_times;
  {
    phase_range p(phase::warmup);
    double warm = already_warm_s;
    while (warm < policy.warmup_s && warm_times.size() < max_warmup_runs) {
      warm_times.push_back(timed_batch(1));
      warm += warm_times.back();
      if (interrupt_signal().load()) throw case_interrupted();
    }
  }
  const double run_s = warm_times.empty() ? already_warm_s : median(warm_times);
  out.batch = batch_for(run_s, 1 << 20);
  if (inject_pct > 0) inject_s = inject_pct / 100 * run_s;
  out.injected = inject_s > 0;
  phase_range p(phase::measure);
  const double cpu0 = process_cpu_seconds();
  const std::vector<sample> kept = sample_until_stopped(
      [&] {
        sample s;
        s.seconds = timed_batch(out.batch);
        s.cost = s.seconds * out.batch;
        return s;
      },
      policy, out.stop);
  out.cpu_per_run_s = (process_cpu_seconds() - cpu0) / double(kept.size() * std::size_t(out.batch));
  out.seconds = seconds_of(kept);
  return out;
}

namespace {
/// A fixture's counter named like a field of the results rows would overwrite that field in the JSON.
void refuse_row_field_counters(const std::map<std::string, double>& counters) {
  for (const auto& [counter, value] : counters)
    if (schema::is_row_field(counter))
      throw std::runtime_error("the fixture's counter '" + counter +
                               "' has the name of a field of the results rows; rename it");
}

case_result ended_case(case_status status, const std::string& why) {
  case_result c;
  c.status = status;
  c.message = why;
  return c;
}
}  // namespace

case_driver::case_driver(const device_info& device, const preset& p, measure_settings settings)
    : device_(device), preset_(p), settings_(std::move(settings)) {
  if (settings_.inject_regex) inject_pattern_.emplace(*settings_.inject_regex, "--inject-slowdown");
}
case_driver::~case_driver() = default;

namespace {
/// Google Benchmark 1.7 has no skip with a message: a skip is an error whose message starts with this.
constexpr std::string_view skip_prefix = "SKIPPED: ";
}  // namespace

void case_driver::skip(benchmark::State& st, const std::string& name, const std::string& why) {
  results_[name] = ended_case(case_status::skipped, why);
#if CUDABENCH_GBENCH_HAS_SKIP_MESSAGE
  st.SkipWithMessage(why);
#else
  st.SkipWithError((std::string(skip_prefix) + why).c_str());
#endif
}

reported_outcome outcome_of(const benchmark::BenchmarkReporter::Run& run) {
#if CUDABENCH_GBENCH_HAS_SKIP_MESSAGE
  if (run.skipped == benchmark::internal::SkippedWithMessage) return {case_status::skipped, run.skip_message};
  if (run.skipped == benchmark::internal::SkippedWithError) return {case_status::failed, run.skip_message};
#else
  if (run.error_occurred) {
    const std::string& m = run.error_message;
    if (m.compare(0, skip_prefix.size(), skip_prefix) == 0) return {case_status::skipped, m.substr(skip_prefix.size())};
    return {case_status::failed, m};
  }
#endif
  return {};
}

void case_driver::fail(benchmark::State& st, const std::string& name, const std::string& why) {
  results_[name] = ended_case(case_status::failed, why);
  st.SkipWithError(why.c_str());
}

fixture& case_driver::fixture_for(const case_def& c) {
  const std::string name = c.name();
  if (cached_ && cached_name_ == name) {
    fresh_run_s_ = setup_s_ = check_s_ = 0;
    return *cached_;
  }
  cached_.reset();  // free the previous case's memory before allocating this one's
  cached_name_.clear();
  if (c.on == where::gpu && !gpu_) gpu_ = std::make_unique<gpu_state>(std::size_t(device_.l2_bytes));
  cudaStream_t s = c.on == where::gpu ? gpu_->main.get() : nullptr;
  std::unique_ptr<fixture> fx;
  const double setup_start = wall_seconds();
  {
    phase_range p(phase::setup);
    fx = c.make();
    // Set-up may queue work on the legacy default stream (cudaMemset, symbol copies), which the case's
    // non-blocking stream does not wait for: all of it is done before the first run.
    if (s) CB_CHECK(cudaDeviceSynchronize());
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
    setup_s_ = t0 - setup_start;
    if (settings_.check) {
      std::string problem = fx->verify();
      if (!problem.empty()) throw verification_failed("wrong result: " + problem);
    }
    check_s_ = wall_seconds() - t0;
  }
  cached_ = std::move(fx);
  cached_name_ = name;
  return *cached_;
}

energy_meter* case_driver::meter() {
  if (!settings_.energy.on || !device_.available) return nullptr;
  if (!meter_) meter_ = std::make_unique<energy_meter>(device_.uuid, device_.pci_bus_id, settings_.energy);
  return meter_.get();
}

namespace {
/// A case's energy window around its timed samples (energy.hpp), where there is a meter: begun on construction, told
/// of each timed sample, and finished with the energy phase.
class energy_tap {
 public:
  explicit energy_tap(energy_meter* m) : m_(m) {
    if (m_) m_->begin();
  }
  /// After a timed sample of `cost` seconds of `batch` runs: whether it was taken throttled.
  bool after_sample(double cost, int batch) { return m_ && m_->after_sample(cost, batch); }
  /// After the timed samples: more samples, untimed for the case's time, until the energy window is long enough
  /// (`run_sample` runs one and gives its GPU time per run); then the window's figures into `rec` and `counters`.
  template <typename Run>
  void finish(Run run_sample, int batch, const std::vector<sample>& kept, const case_def& c, run_record& rec,
              std::map<std::string, double>& counters) {
    counters.clear();
    if (!m_) return;
    if (!m_->problem().empty()) {
      rec.energy.emplace().absent = m_->problem();
      return;
    }
    m_->timed_done();
    while (!m_->window_reached()) {
      m_->untimed_sample(run_sample() * batch, batch);
      if (interrupt_signal().load()) throw case_interrupted();
    }
    std::size_t throttled = 0;
    for (const sample& s : kept) throttled += s.throttled;
    energy_result e = m_->finish(throttled, energy_unit_of(c.work.bytes(), c.work.items, c.work.flops));
    rec.energy = std::move(e.record);
    counters = std::move(e.counters);
  }

 private:
  energy_meter* m_;
};
}  // namespace

/// How this repetition gets its energy: one window a case and run, on its first repetition in the run's first
/// round; around its timed samples for cases long enough, else of its runs back to back after them where a window
/// has a length (with none, the limits' timed samples alone: their energy per byte read and per FMA are the
/// device's energy limits).
case_driver::energy_way case_driver::energy_way_for(const case_def& c, double warm_median, run_record& rec) {
  if (!settings_.energy.on || !device_.available) return energy_way::none;
  if (settings_.energy.later_round) {
    rec.energy.emplace().absent = "energy is measured in the run's first round only";
    return energy_way::none;
  }
  if (!meter()) return energy_way::none;
  if (results_.count(c.name()) && !results_.at(c.name()).repetitions.empty()) {
    rec.energy.emplace().absent = "energy is measured on the case's first repetition in the run";
    return energy_way::none;
  }
  if (warm_median >= settings_.energy.min_run_s || (c.family == limits_family && settings_.energy.window_s <= 0))
    return energy_way::timed;
  if (settings_.energy.window_s > 0) return energy_way::back_to_back;
  rec.energy.emplace().absent = fmt::format(
      "a run of {} takes under {:g} ms: too short for an energy window of its timed samples alone "
      "(--energy-window 0)",
      format_time(warm_median), 1e3 * settings_.energy.min_run_s);
  return energy_way::none;
}

void case_driver::measure_energy_back_to_back(fixture& fx, double warm_median, run_record& rec, const case_def& c) {
  energy_meter& m = *meter();
  if (!m.problem().empty()) {
    rec.energy.emplace().absent = m.problem();
    return;
  }
  gpu_state& g = *gpu_;
  const int runs =
      int(std::clamp(std::ceil(settings_.energy.back_to_back_s / std::max(warm_median, 1e-9)), 1.0, 4096.0));
  // Two batches in flight: the next is queued before the last one is waited for, so the GPU runs the case without
  // a gap while the host reads the time (and the meter's thread the counter).
  struct batch_events {
    event start, stop;
  };
  std::array<batch_events, 2> ev;
  auto queue = [&](batch_events& b) {
    fx.prepare(g.main);
    b.start.record(g.main);
    for (int k = 0; k < runs; ++k) fx.run(g.main);
    b.stop.record(g.main);
  };
  m.begin();
  queue(ev[0]);
  for (std::size_t k = 1;; ++k) {
    batch_events& done = ev[(k - 1) % 2];
    const bool more = !m.window_reached();
    if (more) queue(ev[k % 2]);
    done.stop.synchronize();
    CB_CHECK(cudaGetLastError());
    m.untimed_sample(double(done.stop.elapsed_ms_since(done.start)) * 1e-3, runs);
    if (interrupt_signal().load()) {
      g.main.synchronize();
      throw case_interrupted();
    }
    if (!more) break;
  }
  energy_result e = m.finish(0, energy_unit_of(c.work.bytes(), c.work.items, c.work.flops));
  e.record.back_to_back = runs;
  rec.energy = std::move(e.record);
  energy_counters_ = std::move(e.counters);
}

bool case_driver::injected(const case_def& c) const { return inject_pattern_ && inject_pattern_->found_in(c.name()); }

namespace {
/// How a GPU repetition's kept samples were taken: runs a sample, the stream held or not, their mean SM clock.
/// The warm-up runs of a case (`timed_run` times one): until the preset's warm-up time (`warmup_s`) has passed,
/// counting `fresh_run_s` (the check run of a fresh fixture), and `min_runs` ran; at most 10,000.
template <class TimedRun>
std::vector<double> warm_up(const TimedRun& timed_run, double fresh_run_s, double warmup_s, std::size_t min_runs) {
  phase_range p(phase::warmup);
  std::vector<double> times;
  double warm = fresh_run_s, clock = 0;
  do {
    times.push_back(timed_run(clock));
    warm += times.back();
    if (interrupt_signal().load()) throw case_interrupted();
  } while ((warm < warmup_s || times.size() < min_runs) && times.size() < 10000);
  return times;
}

void record_sampling(run_record& rec, const std::vector<sample>& kept, int batch, bool hold, bool injected) {
  double clock_sum = 0;
  for (const sample& s : kept) clock_sum += s.clock_mhz;
  rec.batch = batch;
  rec.held = hold;
  rec.sm_clock_mhz = clock_sum / double(kept.size());
  rec.injected = injected;
}
}  // namespace

double case_driver::timed_gpu_run(fixture& fx, const case_def& c, gpu_timing& how, double& clock_mhz) {
  gpu_state& g = *gpu_;
  for (;;) {
    fx.prepare(g.main);
    if (how.cold) {
      phase_range p(phase::flush);
      g.flusher.flush(g.main);
    }
    {
      scoped_hold held(how.hold ? &g.blocker : nullptr, g.main);
      g.start.record(g.main);
      for (int k = 0; k < how.batch; ++k) fx.run(g.main);
      if (how.inject_ns > 0) spin_for(g.main, how.inject_ns * how.batch);
      g.stop.record(g.main);
    }
    g.probe.enqueue(g.main);
    g.main.synchronize();
    CB_CHECK(cudaGetLastError());
    if (how.hold && g.blocker.timed_out()) {
      // The work waited on the host after all: time it unheld from now on, and say so.
      how.hold = false;
      unheld_.insert(c.name());
      continue;
    }
    clock_mhz = g.probe.mhz();
    return double(g.stop.elapsed_ms_since(g.start)) * 1e-3 / how.batch;
  }
}

std::vector<double> case_driver::measure_gpu(fixture& fx, const case_def& c, repetition& rep) {
  run_record& rec = *rep.record;
  // Hold the stream until the sample's work is queued (see stream_blocker), unless the case waits on the
  // host inside its work, which a held stream would deadlock.
  gpu_timing how{.cold = cache_of(c) == cache_state::cold,
                 .hold = settings_.hold_stream && !c.host_bound && !c.syncs && !unheld_.count(c.name())};
  const auto timed_run = [&](double& clock_mhz) { return timed_gpu_run(fx, c, how, clock_mhz); };
  const std::size_t min_warm_runs = fresh_run_s_ > 0 ? 3 : 1;  // later repetitions find the case warm
  const double warm_median = median(warm_up(timed_run, fresh_run_s_, preset_.sampling.warmup_s, min_warm_runs));
  // Launch overhead dominates tiny kernels: time a batch of back-to-back launches (hot cases only;
  // a cold case needs its flush before every run). At most 256 launches: more could fill the launch
  // queue behind a held stream and block the host.
  if (!how.cold) how.batch = batch_for(warm_median, 256);
  if (injected(c)) how.inject_ns = settings_.inject_pct / 100 * warm_median * 1e9;
  const int batch = how.batch;

  phase_range p(phase::measure);
  const double peak_mhz = device_.sm_clock_khz / 1e3;
  const energy_way energy_how = energy_way_for(c, warm_median, rec);
  energy_tap energy(energy_how == energy_way::timed ? meter() : nullptr);
  const double cpu0 = process_cpu_seconds();
  const std::vector<sample> kept = sample_until_stopped(
      [&] {
        sample s;
        s.seconds = timed_run(s.clock_mhz);
        s.cost = s.seconds * batch;
        s.discard = discard_throttled(s.clock_mhz, peak_mhz, settings_.throttle_fraction, rec.clock_discards);
        s.throttled = energy.after_sample(s.cost, batch);
        rec.clock_discards += s.discard;
        return s;
      },
      preset_.sampling, rec.stop);
  rep.cpu_time_s = (process_cpu_seconds() - cpu0) / double(kept.size() * std::size_t(batch));
  double clock = 0;
  energy.finish([&] { return timed_run(clock); }, batch, kept, c, rec, energy_counters_);
  if (energy_how == energy_way::back_to_back) measure_energy_back_to_back(fx, warm_median, rec, c);
  record_sampling(rec, kept, batch, how.hold, how.inject_ns > 0);
  return seconds_of(kept);
}

std::vector<double> case_driver::measure_cpu(fixture& fx, const case_def& c, repetition& rep) {
  cpu_samples got = sample_cpu(fx, preset_.sampling, fresh_run_s_, injected(c) ? settings_.inject_pct : 0);
  rep.record->stop = got.stop;
  rep.record->batch = got.batch;
  rep.record->injected = got.injected;
  rep.cpu_time_s = got.cpu_per_run_s;
  return std::move(got.seconds);
}

namespace {
/// A repetition's rates from the case's declared work over its median time, and its sample statistics.
void rate_counters(std::map<std::string, double>& k, const case_def& c, const summary& s, const device_info& dev) {
  const double t = s.median;
  k["bytes_per_second"] = c.work.bytes() / t;
  if (c.work.items > 0) k["items_per_second"] = c.work.items / t;
  if (c.work.flops > 0) k["flops_per_second"] = c.work.flops / t;
  if (c.on == where::gpu && dev.theoretical_bandwidth() > 0 && c.work.bytes() > 0)
    k["bw_peak_fraction"] = c.work.bytes() / t / dev.theoretical_bandwidth();
  k["samples"] = double(s.n);
  if (s.n > 1) {  // one sample has no spread to report
    k["noise_pct"] = 100 * s.rel_stderr();
    k["cv_pct"] = 100 * s.cv();
  }
}
}  // namespace

void case_driver::record_repetition(benchmark::State& st, const case_def& c, fixture& fx, const summary& s,
                                    repetition& rep) {
  run_record& rec = *rep.record;
  rep.real_time_s = s.median;
  std::map<std::string, double> k;  // as the fixture adds to it; the model keeps it compact
  rate_counters(k, c, s, device_);
  fx.add_counters(k);
  refuse_row_field_counters(k);
  if (c.on == where::gpu) {
    k["sm_clock_mhz"] = rec.sm_clock_mhz;
    k["throttle_discards"] = double(rec.clock_discards);
    k.insert(energy_counters_.begin(), energy_counters_.end());
  }
  if (rec.batch > 1) k["batch"] = rec.batch;
  rec.samples = s.n;
  rec.noise = s.rel_stderr();
  rec.note = fx.note();
  if (unheld_.count(c.name()))
    rec.note +=
        (rec.note.empty() ? "" : "; ") + std::string("its work waited on the host: timed without holding the stream");
  rec.correct = fx.correct();
  rep.label = rec.cache;
  if (rec.batch > 1) rep.label += fmt::format(", batch of {}", rec.batch);
  if (rec.injected) rep.label += fmt::format(", injected +{:g}%", settings_.inject_pct);
  if (!rec.note.empty()) rep.label += ", " + rec.note;
  st.SetLabel(rep.label);
  for (const auto& [counter, value] : k) st.counters[counter] = value;  // Google Benchmark's run data carries them
  rep.counters = counter_map(k);
}

void case_driver::run(benchmark::State& st, const case_def& c) {
  const std::string name = c.name();
  if (interrupt_signal().load()) {  // the run is stopping: the remaining cases are not run (and not recorded)
    for (auto _ : st) st.SetIterationTime(1e-9);
    results_.erase(name);
    return;
  }
  case_range range(nvtx_case_name(name));
  if (auto it = results_.find(name); it != results_.end() && it->second.status != case_status::ok) {
    // Skipped or failed in an earlier repetition: say so again without building the fixture again.
    const std::string why = it->second.message;
    return it->second.status == case_status::skipped ? skip(st, name, why) : fail(st, name, why);
  }
  try {
    if (c.on == where::gpu && !device_.available) return skip(st, name, device_.unavailable_reason);
    fixture& fx = fixture_for(c);
    repetition rep;
    run_record& rec = rep.record.emplace();
    rec.cache = c.on == where::gpu && cache_of(c) == cache_state::cold ? "cold" : "hot";
    rec.setup_s = setup_s_;
    rec.check_s = check_s_;
    rec.checked = settings_.check;
    summary s;
    bool stopped = false;
    for (auto _ : st) {
      try {
        std::vector<double> samples = c.on == where::gpu ? measure_gpu(fx, c, rep) : measure_cpu(fx, c, rep);
        s = summarize(std::move(samples));
        st.SetIterationTime(s.median);
      } catch (const case_interrupted&) {
        stopped = true;
        st.SetIterationTime(1e-9);  // not an error to Google Benchmark, whose statistics are not ours anyway
      }
    }
    if (stopped) {  // abandoned after its current sample; its finished repetitions go with it
      results_.erase(name);
      return;
    }
    record_repetition(st, c, fx, s, rep);
    case_result& m = results_[name];
    m.repetitions.push_back(std::move(rep));
    if (settings_.identifier && c.on == where::gpu && !m.code) m.code = identify_sample(fx);
    if (settings_.tracer && m.repetitions.size() >= std::size_t(preset_.repetitions)) m.timeline = trace_sample(fx, c);
  } catch (const skip_case& e) {
    cached_.reset();
    cached_name_.clear();
    skip(st, name, e.what());
  } catch (const std::exception& e) {
    std::string why = dynamic_cast<const verification_failed*>(&e) ? e.what() : std::string("error: ") + e.what();
    cached_.reset();
    cached_name_.clear();
    fail(st, name, why);
  }
}

}  // namespace cudabench
