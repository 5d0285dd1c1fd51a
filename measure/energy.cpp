// The energy window of a case: NVML's energy counter read at its updates, seen after each sample where samples are
// short (no wait) or waited for at each end, around the timed samples (and an untimed energy phase that repeats the
// case until the window is long enough), or power sampled on a thread where the board has no counter; the samples'
// memory clocks and throttle reasons, and the violation counters.
#include "measure/energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace cudabench {
namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

/// The counter's resolution: one millijoule at each end of the window.
constexpr double counter_resolution_j = 1e-3;
/// Fewer power samples than this in a window leave its energy to the edges' guess.
constexpr std::size_t min_power_samples = 10;
}  // namespace

/// Power read every period on its own thread while a window is open (boards without the energy counter).
class energy_meter::power_sampler {
 public:
  power_sampler(const nvml_board& board, double period_s)
      : thread_([this, &board, period_s](std::stop_token stop) {
          while (!stop.stop_requested()) {
            if (auto w = board.power_w()) {
              const std::lock_guard lock(mutex_);
              readings_.push_back({now_s(), *w});
            }
            std::this_thread::sleep_for(std::chrono::duration<double>(period_s));
          }
        }) {}
  /// Stops sampling; the energy between the first and last reading (trapezoids), the window and the readings' count.
  void stop(double& joules, double& window_s, std::size_t& n) {
    thread_.request_stop();
    thread_.join();
    joules = window_s = 0;
    n = readings_.size();
    for (std::size_t i = 1; i < readings_.size(); ++i) {
      const double dt = readings_[i].first - readings_[i - 1].first;
      joules += dt * (readings_[i].second + readings_[i - 1].second) / 2;
      window_s += dt;
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<double, double>> readings_;  ///< (time, W)
  std::jthread thread_;
};

/// The energy counter read back to back on its own thread while a back-to-back window is open: each update seen,
/// with the time within which it happened (since the reading before).
class energy_meter::counter_watcher {
 public:
  struct update {
    double t, stale_s;
    std::uint64_t mj;
  };
  explicit counter_watcher(const nvml_board& board)
      : thread_([this, &board](std::stop_token stop) {
          std::optional<std::uint64_t> last = board.energy_mj();
          double before = now_s();
          while (!stop.stop_requested()) {
            const std::optional<std::uint64_t> v = board.energy_mj();
            const double t = now_s();
            if (v && last && *v != *last) {
              const std::lock_guard lock(mutex_);
              updates_.push_back({t, t - before, *v});
            }
            last = v;
            before = t;
            std::this_thread::sleep_for(std::chrono::microseconds(50));  // a reading costs far more on most hosts
          }
        }) {}
  std::vector<update> updates() const {
    const std::lock_guard lock(mutex_);
    return updates_;
  }
  std::vector<update> stop() {
    thread_.request_stop();
    thread_.join();
    return updates_;
  }
  /// Of `seen`, the updates that happened within [from, to] (each no earlier than the reading before it).
  static std::vector<update> within(const std::vector<update>& seen, double from, double to) {
    std::vector<update> out;
    for (const update& u : seen)
      if (u.t - u.stale_s >= from && u.t <= to) out.push_back(u);
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<update> updates_;
  std::jthread thread_;
};

energy_meter::energy_meter(const std::string& uuid, const std::string& pci_bus_id, energy_settings s)
    : board_(uuid, pci_bus_id), settings_(s) {}
energy_meter::~energy_meter() = default;

energy_meter::counter_reading energy_meter::read_at_update() const {
  const std::optional<std::uint64_t> first = board_.energy_mj();
  const double start = now_s();
  double before = start;
  for (;;) {
    const std::optional<std::uint64_t> v = board_.energy_mj();
    const double t = now_s();
    if (!v || !first) return {};
    // The update happened between the last two readings; without one in edge_wait_s, any time since the first.
    if (*v != *first) return {*v, t, t - before};
    if (t - start >= settings_.edge_wait_s) return {*v, t, t - start};
    before = t;
  }
}

std::map<std::string, std::uint64_t> energy_meter::violations() const {
  std::map<std::string, std::uint64_t> out;
  for (const violation_policy& p : violation_policies())
    if (auto ns = board_.violation_ns(p.id)) out[p.name] = *ns;
  return out;
}

void energy_meter::reset() {
  sampler_.reset();
  watcher_.reset();
  batches_.clear();
  reason_s_.clear();
  reasons_read_ = false;
  mem_sum_ = 0;
  mem_n_ = 0;
  runs_ = busy_s_ = 0;
  updates_ = 0;
  start_ = end_ = {};
  violations_start_.clear();
  violations_end_.clear();  // a back-to-back window has no timed samples, so no throttle time of them
}

void energy_meter::begin(double sample_s) {
  reset();
  const std::optional<std::uint64_t> now_mj = board_.energy_mj();
  counter_ = now_mj.has_value();
  polled_ = counter_ && sample_s > 0 && sample_s <= settings_.poll_below_s;
  if (polled_) {
    last_mj_ = *now_mj;
    last_t_ = now_s();
  } else if (counter_) {
    start_ = read_at_update();
  } else if (board_.found()) {
    sampler_ = std::make_unique<power_sampler>(board_, settings_.power_period_s);
  }
  violations_start_ = violations();
  t0_ = polled_ ? last_t_ : counter_ ? start_.t : now_s();
  timed_end_ = t0_;
}

void energy_meter::begin_back_to_back() {
  reset();
  counter_ = board_.energy_mj().has_value();
  polled_ = false;
  if (counter_)
    watcher_ = std::make_unique<counter_watcher>(board_);
  else if (board_.found())
    sampler_ = std::make_unique<power_sampler>(board_, settings_.power_period_s);
  violations_start_ = violations();
  t0_ = timed_end_ = now_s();
}

void energy_meter::batch_done(double runs, double gpu_s) {
  runs_ += runs;
  busy_s_ += gpu_s;
  if (watcher_) batches_.push_back({now_s(), runs_, busy_s_});
}

namespace {
/// The runs (or GPU time, `field`) of back-to-back batches done by time t, the batch around t taken as even.
template <typename Batch>
double done_by(const std::vector<Batch>& b, double t, double Batch::*field) {
  const auto after = std::find_if(b.begin(), b.end(), [t](const Batch& x) { return x.t >= t; });
  if (after == b.begin() || after == b.end()) return after == b.end() ? b.back().*field : 0;
  const Batch& before = *(after - 1);
  return before.*field + ((*after).*field - before.*field) * (t - before.t) / (after->t - before.t);
}
}  // namespace

void energy_meter::back_to_back_energy(energy_record& e, double& joules, double& runs, double& busy_s) {
  const std::vector<counter_watcher::update> seen = watcher_->stop();
  watcher_.reset();
  // The window runs between two updates that happened while the batches kept the GPU busy: after the first batch
  // ended (the next one queued behind it) and before the last one did.
  const std::vector<counter_watcher::update> in =
      batches_.empty() ? std::vector<counter_watcher::update>{}
                       : counter_watcher::within(seen, batches_.front().t, batches_.back().t);
  if (in.size() < 2) {
    e.absent = fmt::format(
        "the energy counter updated {} time(s) while the case ran back to back: too few for a "
        "window (--energy-window)",
        in.size());
    return;
  }
  const counter_watcher::update* first = &in.front();
  const counter_watcher::update* last = &in.back();
  e.window_s = last->t - first->t;
  joules = double(last->mj - first->mj) * 1e-3;
  runs = done_by(batches_, last->t, &batch_end::runs) - done_by(batches_, first->t, &batch_end::runs);
  busy_s = done_by(batches_, last->t, &batch_end::gpu_s) - done_by(batches_, first->t, &batch_end::gpu_s);
  const double watts = e.window_s > 0 ? joules / e.window_s : 0;
  e.uncertainty = joules > 0 ? (watts * (first->stale_s + last->stale_s) + 2 * counter_resolution_j) / joules : 0;
}

void energy_meter::count(double seconds, double runs) {
  runs_ += runs;
  busy_s_ += seconds;
  if (!polled_) return;
  if (now_s() - last_t_ < settings_.poll_every_s) return;
  const std::optional<std::uint64_t> v = board_.energy_mj();
  const double t = now_s();
  if (v && *v != last_mj_) {
    // The update happened between the last reading and this one.
    (updates_ == 0 ? start_ : end_) = {*v, t, t - last_t_, runs_, busy_s_};
    ++updates_;
    last_mj_ = *v;
  }
  last_t_ = t;
}

bool energy_meter::after_sample(double seconds, double runs) {
  count(seconds, runs);
  if (auto mhz = board_.memory_clock_mhz()) {
    mem_sum_ += *mhz;
    ++mem_n_;
  }
  const std::optional<std::uint64_t> mask = board_.reasons();
  if (!mask) return false;
  reasons_read_ = true;
  bool throttled = false;
  for (const clock_reason& r : clock_reasons())
    if (r.throttles && (*mask & r.bit)) {
      reason_s_[r.name] += seconds;
      throttled = true;
    }
  return throttled;
}

void energy_meter::untimed_sample(double seconds, double runs) { count(seconds, runs); }

void energy_meter::timed_done() {
  violations_end_ = violations();
  timed_end_ = now_s();
}

bool energy_meter::window_reached() const {
  if (watcher_) {
    // Two updates seen within the batches, at least window_s apart (or the counter stopped updating).
    if (!batches_.empty()) {
      const std::vector<counter_watcher::update> in =
          counter_watcher::within(watcher_->updates(), batches_.front().t, batches_.back().t);
      if (in.size() >= 2 && in.back().t - in.front().t >= settings_.window_s) return true;
    }
    return now_s() - t0_ >= settings_.window_s + 1.0;
  }
  if (!polled_) return now_s() - t0_ >= settings_.window_s;
  if (settings_.window_s <= 0 || (updates_ >= 2 && end_.t - start_.t >= settings_.window_s)) return true;
  return now_s() - t0_ >= settings_.window_s + 1.0;  // the counter stopped updating: finish() says so
}

/// The window's energy (joules, whole window) and the runs in it, and how it was read, with why it is not given
/// where it is not.
energy_record energy_meter::window_energy(double& joules, double& runs) {
  energy_record e;
  joules = 0;
  runs = runs_;
  double busy_s = busy_s_;
  std::size_t readings = 0;
  if (watcher_) {
    e.method = "counter";
    back_to_back_energy(e, joules, runs, busy_s);
    if (!e.absent.empty()) return e;
  } else if (counter_) {
    // Polled: the window runs between the first and the last update seen; else the ends waited for updates.
    const counter_reading end = polled_ ? end_ : read_at_update();
    e.method = "counter";
    if (polled_ && updates_ < 2) {
      e.absent = fmt::format(
          "the energy counter updated {} time(s) during the case's samples: too few for a window (--energy-window)",
          updates_);
      return e;
    }
    e.window_s = end.t - start_.t;
    joules = double(end.mj - start_.mj) * 1e-3;
    if (polled_) {
      runs = end.runs - start_.runs;
      busy_s = end.busy_s - start_.busy_s;
    }
    const double watts = e.window_s > 0 ? joules / e.window_s : 0;
    // Each end is uncertain by the energy of the time within which its update happened, and by the resolution.
    e.uncertainty = joules > 0 ? (watts * (start_.stale_s + end.stale_s) + 2 * counter_resolution_j) / joules : 0;
  } else if (sampler_) {
    e.method = "sampled power";
    sampler_->stop(joules, e.window_s, readings);
    sampler_.reset();
    // Each end of the window is missed by up to one sampling period.
    e.uncertainty = e.window_s > 0 ? 2 * settings_.power_period_s / e.window_s : 0;
  }
  e.runs = runs;
  e.extra_s = std::max(0.0, now_s() - timed_end_);
  e.busy_fraction = e.window_s > 0 ? std::min(1.0, busy_s / e.window_s) : 0;
  if (e.method.empty())
    e.absent = "the board reports neither its energy nor its power";
  else if (e.method == "sampled power" && readings < min_power_samples)
    e.absent = fmt::format("power was sampled {} time(s) in the window: too coarse", readings);
  else if (!(joules > 0))
    e.absent = "the energy did not advance during the window";
  else if (e.busy_fraction < settings_.min_busy)
    e.absent = fmt::format("the GPU ran the case {:.0f}% of the window: its energy would be mostly the idle board's",
                           100 * e.busy_fraction);
  else if (e.uncertainty > settings_.max_uncertainty)
    e.absent =
        fmt::format("its uncertainty {:.1f}% is over {:.0f}%", 100 * e.uncertainty, 100 * settings_.max_uncertainty);
  return e;
}

energy_result energy_meter::finish(std::size_t throttled, const energy_unit& unit) {
  energy_result out;
  double joules = 0, runs = 0;
  out.record = window_energy(joules, runs);
  energy_record& e = out.record;
  e.throttled_samples = throttled;
  if (!violations_end_.empty()) {
    e.throttle_source = "violation counters";
    for (const auto& [name, ns] : violations_end_)
      if (auto it = violations_start_.find(name); it != violations_start_.end())
        e.throttle_s[name] = ns >= it->second ? double(ns - it->second) * 1e-9 : 0;
  } else if (reasons_read_) {
    e.throttle_source = "sampled reasons";
    for (const clock_reason& r : clock_reasons())
      if (r.throttles) e.throttle_s[r.name] = reason_s_.count(r.name) ? reason_s_.at(r.name) : 0;
  }
  out.counters[energy_counters::throttled] = double(throttled);
  if (mem_n_) out.counters[energy_counters::memory_clock] = mem_sum_ / double(mem_n_);
  if (e.absent.empty() && runs > 0) {
    out.counters[energy_counters::joules] = joules / runs;
    out.counters[energy_counters::watts] = joules / e.window_s;
    out.counters[unit.counter] = joules / runs / unit.per_run;
  }
  return out;
}

}  // namespace cudabench
