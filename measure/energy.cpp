// The energy window of a case: NVML's energy counter read on a thread of its own, the window between two of its
// updates seen while the case's timed samples (and an untimed energy phase that repeats the case until the window is
// long enough) or its batches back to back ran, or power sampled on that thread where the board has no counter; the
// samples' memory clocks and throttle reasons, and the violation counters.
#include "measure/energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
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

/// The energy counter read back to back on its own thread while a window is open: each update seen, with the time
/// within which it happened (since the reading before).
class energy_meter::counter_watcher {
 public:
  struct update {
    double t, stale_s;  ///< the reading that saw it, and the time since the reading before
    std::uint64_t mj;
    /// The best guess of when it happened: the middle of the time within which it did.
    double at() const { return t - stale_s / 2; }
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
  /// How far off the times of a window's ends can be, together: half the time within which each update happened.
  static double ends_off_s(const update& a, const update& b) { return (a.stale_s + b.stale_s) / 2; }
  /// The relative uncertainty of the times of a window's `ends` for its length.
  static double time_uncertainty(const std::pair<update, update>& ends) {
    return ends_off_s(ends.first, ends.second) / (ends.second.at() - ends.first.at());
  }
  /// The relative uncertainty of a window's energy: each end is off by the energy of half the time within which its
  /// update happened (taken at the middle of it), and by the counter's resolution.
  static double uncertainty(const std::pair<update, update>& ends) {
    const double joules = double(ends.second.mj - ends.first.mj) * 1e-3;
    return joules > 0 ? time_uncertainty(ends) + 2 * counter_resolution_j / joules : 0;
  }
  /// The ends of a window: of the pairs of `in` at least `least_s` apart (within their times' uncertainty, so that
  /// two updates one period of the counter apart make a window of that period), the one whose ends' times are the
  /// least uncertain for its length (a reading that took long, as one now and then does, leaves its update's time
  /// uncertain: a window avoids it where it can); none where no pair is that far apart.
  static std::optional<std::pair<update, update>> best_pair(const std::vector<update>& in, double least_s) {
    std::optional<std::pair<update, update>> best;
    double best_u = 0;
    for (std::size_t i = 0; i < in.size(); ++i)
      for (std::size_t j = i + 1; j < in.size(); ++j) {
        const double length = in[j].at() - in[i].at();
        if (length <= 0 || length + ends_off_s(in[i], in[j]) < least_s) continue;
        const double u = time_uncertainty({in[i], in[j]});
        if (!best || u < best_u) {
          best = std::pair(in[i], in[j]);
          best_u = u;
        }
      }
    return best;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<update> updates_;
  std::jthread thread_;
};

energy_meter::energy_meter(const std::string& uuid, const std::string& pci_bus_id, energy_settings s)
    : board_(uuid, pci_bus_id), settings_(s) {}
energy_meter::~energy_meter() = default;

std::map<std::string, std::uint64_t> energy_meter::violations() const {
  std::map<std::string, std::uint64_t> out;
  for (const violation_policy& p : violation_policies())
    if (auto ns = board_.violation_ns(p.id)) out[p.name] = *ns;
  return out;
}

void energy_meter::reset() {
  sampler_.reset();
  watcher_.reset();
  ends_.clear();
  reason_s_.clear();
  reasons_read_ = false;
  mem_sum_ = 0;
  mem_n_ = 0;
  runs_ = busy_s_ = 0;
  violations_start_.clear();
  violations_end_.clear();  // a window of runs back to back has no timed samples, so no throttle time of them
}

void energy_meter::begin() {
  reset();
  if (board_.energy_mj())
    watcher_ = std::make_unique<counter_watcher>(board_);
  else if (board_.found())
    sampler_ = std::make_unique<power_sampler>(board_, settings_.power_period_s);
  violations_start_ = violations();
  t0_ = timed_end_ = now_s();
}

void energy_meter::count(double seconds, double runs) {
  runs_ += runs;
  busy_s_ += seconds;
  if (watcher_) ends_.push_back({now_s(), runs_, busy_s_});
}

namespace {
/// The runs and the GPU time of the samples done by time t: each sample's GPU time taken as the span just before its
/// end, its runs spread evenly over that span (the host's time between samples holds none).
template <typename End>
std::pair<double, double> done_by(const std::vector<End>& ends, double t) {
  double runs = 0, gpu_s = 0, runs_before = 0, gpu_before = 0;
  for (const End& e : ends) {
    const double r = e.runs - runs_before, g = e.gpu_s - gpu_before;
    runs_before = e.runs;
    gpu_before = e.gpu_s;
    const double share = t >= e.t ? 1 : g > 0 && t > e.t - g ? (t - (e.t - g)) / g : 0;
    runs += r * share;
    gpu_s += g * share;
  }
  return {runs, gpu_s};
}
}  // namespace

void energy_meter::counter_energy(energy_record& e, double& joules, double& runs, double& busy_s) {
  const std::vector<counter_watcher::update> seen = watcher_->stop();
  watcher_.reset();
  // The window runs between two updates that happened while the samples ran: after the first one ended and before
  // the last one did.
  const std::vector<counter_watcher::update> in = ends_.empty()
                                                      ? std::vector<counter_watcher::update>{}
                                                      : counter_watcher::within(seen, ends_.front().t, ends_.back().t);
  if (in.size() < 2) {
    e.absent = fmt::format(
        "the energy counter updated {} time(s) while the case ran: too few for a window (--energy-window)", in.size());
    return;
  }
  // The least uncertain pair of the window's length, else (the case ran out of time for one) the widest.
  const auto ends = counter_watcher::best_pair(in, settings_.window_s).value_or(std::pair(in.front(), in.back()));
  const counter_watcher::update& first = ends.first;
  const counter_watcher::update& last = ends.second;
  e.window_s = last.at() - first.at();
  joules = double(last.mj - first.mj) * 1e-3;
  const auto [runs_to_first, gpu_to_first] = done_by(ends_, first.at());
  const auto [runs_to_last, gpu_to_last] = done_by(ends_, last.at());
  runs = runs_to_last - runs_to_first;
  busy_s = gpu_to_last - gpu_to_first;
  e.uncertainty = counter_watcher::uncertainty(ends);
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
  if (!watcher_) return now_s() - t0_ >= settings_.window_s;
  if (settings_.window_s <= 0) return true;
  if (!ends_.empty()) {
    const std::vector<counter_watcher::update> in =
        counter_watcher::within(watcher_->updates(), ends_.front().t, ends_.back().t);
    // A pair of the window's length whose energy is certain enough to be given (else a later update, making the
    // window longer and its ends' times less uncertain for its length).
    const auto ends = counter_watcher::best_pair(in, settings_.window_s);
    if (ends && counter_watcher::uncertainty(*ends) <= settings_.max_uncertainty) return true;
  }
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
    counter_energy(e, joules, runs, busy_s);
    if (!e.absent.empty()) return e;
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
