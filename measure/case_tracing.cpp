// The case driver's untimed samples: one traced with CUPTI for --trace's timeline, one for a case's code identity.
#include <algorithm>
#include <string>
#include <vector>

#include "measure/gpu_state.hpp"
#include "measure/nvtx_ranges.hpp"
#include "measure/trace_recorder.hpp"

namespace cudabench {

namespace {
bool is_hold_kernel(const device_op& o) { return o.name.find("stream_blocker_kernel") != std::string::npos; }

/// The hold's kernel ends when the host releases it (at host time `released`), and is delivered with the
/// sample: where CUPTI's converted end differs, all of the sample's operations move by the difference.
void align_on_release(case_timeline& t, std::uint64_t released) {
  const auto hold = std::find_if(t.ops.begin(), t.ops.end(), is_hold_kernel);
  if (hold == t.ops.end()) return;
  t.gpu_shift_ns = std::int64_t(released - hold->end_ns);
  t.aligned = true;
  for (device_op& o : t.ops) {
    o.start_ns += std::uint64_t(t.gpu_shift_ns);
    o.end_ns += std::uint64_t(t.gpu_shift_ns);
  }
}

/// A CPU case's traced run: its host span, with no device activity.
case_timeline trace_cpu_sample(fixture& fx, trace_recorder& tr) {
  fx.prepare(nullptr);
  tr.begin_sample(false);
  const std::uint64_t t0 = trace_recorder::now();
  fx.run(nullptr);
  case_timeline t = tr.end_sample(t0, trace_recorder::now());
  t.note = "a CPU case: no device activity";
  tr.keep(t);
  return t;
}

/// Of a case's traced samples (each with the SM clock it ran at, 0 where unknown), the one of median GPU span,
/// its metrics made without the hold's kernel; why it holds no device activity where it holds none
/// (`device_problem`, the recorder's).
case_timeline median_timeline(std::vector<case_timeline> samples, const std::vector<double>& clock_mhz,
                              const std::string& device_problem) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::erase_if(samples[i].ops, is_hold_kernel);  // the harness's, not the case's
    samples[i].metrics = metrics_of(samples[i].ops);
    if (clock_mhz[i] > 0) samples[i].metrics["sm_clock_mhz"] = clock_mhz[i];
  }
  auto span = [](const case_timeline& t) { return t.metrics.count("gpu_span_us") ? t.metrics.at("gpu_span_us") : 0.0; };
  std::sort(samples.begin(), samples.end(),
            [&](const case_timeline& a, const case_timeline& b) { return span(a) < span(b); });
  case_timeline t = std::move(samples[(samples.size() - 1) / 2]);
  t.of_samples = int(samples.size());
  if (!device_problem.empty())
    t.note = "no device activity recorded: " + device_problem;
  else if (t.ops.empty())
    t.note = "CUPTI recorded no GPU operation";
  return t;
}
}  // namespace

code_identity case_driver::identify_sample(fixture& fx) {
  trace_recorder& tr = *settings_.identifier;
  phase_range p(phase::trace);
  gpu_state& g = *gpu_;
  fx.prepare(g.main);
  CB_CHECK(cudaDeviceSynchronize());
  tr.begin_sample(true);
  const std::uint64_t t0 = trace_recorder::now();
  fx.run(g.main);
  CB_CHECK(cudaGetLastError());
  CB_CHECK(cudaDeviceSynchronize());
  const case_timeline t = tr.end_sample(t0, trace_recorder::now());
  tr.stop();
  if (!tr.device_problem().empty()) {
    code_identity none;
    none.problem = tr.device_problem();
    return none;
  }
  return identify(t.ops);
}

code_identity case_driver::identify_case(const case_def& c) {
  code_identity none;
  if (c.on != where::gpu)
    none.problem = "a CPU case";
  else if (!device_.available)
    none.problem = "no GPU: " + device_.unavailable_reason;
  else if (!settings_.identifier)
    none.problem = "no CUPTI to trace its launches";
  if (!none.problem.empty()) return none;
  case_range range(nvtx_case_name(c.name()));
  try {
    code_identity id = identify_sample(fixture_for(c));
    cached_.reset();  // the next case's memory, not this one's
    cached_name_.clear();
    return id;
  } catch (const std::exception& e) {
    cached_.reset();
    cached_name_.clear();
    none.problem = std::string(dynamic_cast<const skip_case*>(&e) ? "skipped: " : "failed: ") + e.what();
    return none;
  }
}

case_timeline case_driver::trace_sample(fixture& fx, const case_def& c) {
  trace_recorder& tr = *settings_.tracer;
  phase_range p(phase::trace);
  if (c.on == where::cpu) return trace_cpu_sample(fx, tr);
  gpu_state& g = *gpu_;
  // Held like a timed sample, so the timeline shows the GPU running the work as the timed samples do (not
  // the host queueing it). One recording session for all of a case's traced samples: the first is a
  // warm-up (CUPTI's first calls after recording starts cost the host hundreds of microseconds); of up to
  // five more (within half a second) the one of median GPU span is kept, so one slow run does not stand
  // for the case.
  constexpr int most_samples = 5;
  constexpr double budget_s = 0.5;
  const bool hold = settings_.hold_stream && !c.host_bound && !c.syncs && !unheld_.count(c.name());
  std::vector<case_timeline> samples;
  std::vector<double> clock_mhz;
  double spent_s = 0;
  for (int k = 0; k <= most_samples && (k < 2 || spent_s < budget_s); ++k) {
    fx.prepare(g.main);
    if (cache_of(c) == cache_state::cold) {
      phase_range f(phase::flush);
      g.flusher.flush(g.main);
    }
    CB_CHECK(cudaDeviceSynchronize());
    std::uint64_t t0 = 0, released = 0;
    tr.begin_sample(true);  // before the hold: its kernel is recorded with the sample (the clock anchor)
    {
      scoped_hold held(hold ? &g.blocker : nullptr, g.main);
      t0 = trace_recorder::now();
      fx.run(g.main);
      released = trace_recorder::now();  // the hold is released on leaving this scope
    }
    CB_CHECK(cudaGetLastError());
    CB_CHECK(cudaDeviceSynchronize());
    case_timeline t = tr.end_sample(t0, trace_recorder::now());
    align_on_release(t, released);
    g.probe.enqueue(g.main);  // after the window: the SM clock the sample ran at, as timed samples record it
    g.main.synchronize();
    if (k == 0) continue;
    spent_s += double(t.end_ns - t.begin_ns) * 1e-9;
    samples.push_back(std::move(t));
    clock_mhz.push_back(g.probe.mhz());
  }
  tr.stop();
  case_timeline t = median_timeline(std::move(samples), clock_mhz, tr.device_problem());
  tr.keep(t);
  return t;
}

}  // namespace cudabench
