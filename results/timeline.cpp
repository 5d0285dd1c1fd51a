// Timeline metrics and the JSON forms of a timeline.
#include "results/timeline.hpp"

#include <cxxabi.h>

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <utility>

namespace cudabench {
namespace {
using interval = std::pair<std::uint64_t, std::uint64_t>;
using json = nlohmann::ordered_json;

/// The union of intervals as sorted, disjoint intervals.
std::vector<interval> merged(std::vector<interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<interval> out;
  for (const interval& i : v) {
    if (i.second <= i.first) continue;
    if (!out.empty() && i.first <= out.back().second)
      out.back().second = std::max(out.back().second, i.second);
    else
      out.push_back(i);
  }
  return out;
}

std::uint64_t length(const std::vector<interval>& disjoint) {
  std::uint64_t n = 0;
  for (const interval& i : disjoint) n += i.second - i.first;
  return n;
}

/// Length of the intersection of two sorted, disjoint interval lists.
std::uint64_t overlap(const std::vector<interval>& a, const std::vector<interval>& b) {
  std::uint64_t n = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    const std::uint64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) n += hi - lo;
    (a[i].second < b[j].second) ? ++i : ++j;
  }
  return n;
}

template <typename Pred>
std::vector<interval> intervals_of(const std::vector<device_op>& ops, Pred pred) {
  std::vector<interval> v;
  for (const device_op& o : ops)
    if (pred(o)) v.emplace_back(o.start_ns, o.end_ns);
  return merged(std::move(v));
}

const char* kind_name(device_op::kind k) {
  switch (k) {
    case device_op::kind::kernel: return "kernel";
    case device_op::kind::memcpy: return "memcpy";
    case device_op::kind::memset: return "memset";
  }
  return "?";
}

/// The slice name of an operation: the kernel's name, or "memcpy HtoD" / "memset".
std::string op_label(const device_op& o) {
  if (o.what == device_op::kind::kernel) return o.name;
  if (o.what == device_op::kind::memcpy) return "memcpy " + o.copy;
  return "memset";
}

/// Microseconds from `from` to `to` (negative when `to` is earlier), exact to the nanosecond: the difference
/// is taken in integers, since a double holds an absolute timestamp only to a quarter of a microsecond.
double us_between(std::uint64_t from, std::uint64_t to) { return double(std::int64_t(to - from)) * 1e-3; }
}  // namespace

timeline_metrics metrics_of(const std::vector<device_op>& ops) {
  timeline_metrics m;
  m["device_ops"] = double(ops.size());
  m["kernel_launches"] = double(
      std::count_if(ops.begin(), ops.end(), [](const device_op& o) { return o.what == device_op::kind::kernel; }));
  const std::vector<interval> all = intervals_of(ops, [](const device_op&) { return true; });
  if (all.empty()) return m;
  const std::uint64_t span = all.back().second - all.front().first;
  m["gpu_span_us"] = double(span) * 1e-3;
  m["gpu_busy_fraction"] = span > 0 ? double(length(all)) / double(span) : 1.0;
  std::uint64_t gap = 0;
  for (std::size_t i = 1; i < all.size(); ++i) gap = std::max(gap, all[i].first - all[i - 1].second);
  m["largest_gap_us"] = double(gap) * 1e-3;

  const auto kernels = intervals_of(ops, [](const device_op& o) { return o.what == device_op::kind::kernel; });
  const auto copies = intervals_of(ops, [](const device_op& o) { return o.what == device_op::kind::memcpy; });
  const std::uint64_t shorter = std::min(length(kernels), length(copies));
  if (shorter > 0) m["copy_compute_overlap"] = double(overlap(kernels, copies)) / double(shorter);
  for (const auto& [direction, key] :
       {std::pair{"HtoD", "h2d_bytes_per_second"}, std::pair{"DtoH", "d2h_bytes_per_second"}}) {
    std::uint64_t bytes = 0;
    const auto busy = intervals_of(ops, [&, dir = std::string(direction)](const device_op& o) {
      if (o.what != device_op::kind::memcpy || o.copy != dir) return false;
      bytes += o.bytes;
      return true;
    });
    if (const std::uint64_t t = length(busy); t > 0) m[key] = double(bytes) / (double(t) * 1e-9);
  }
  return m;
}

nlohmann::ordered_json to_json(const case_timeline& t) {
  json j;
  j["metrics"] = json(t.metrics);
  j["sample_us"] = us_between(t.begin_ns, t.end_ns);
  j["of_samples"] = t.of_samples;
  j["gpu_clock"] = t.aligned ? "aligned on the release of the held stream" : "as CUPTI converted it";
  if (t.aligned) j["gpu_shift_us"] = double(t.gpu_shift_ns) * 1e-3;
  if (!t.note.empty()) j["note"] = t.note;
  json ops = json::array();
  for (const device_op& o : t.ops) {
    json x = {{"kind", kind_name(o.what)},
              {"stream", o.stream},
              {"start_us", us_between(t.begin_ns, o.start_ns)},
              {"dur_us", us_between(o.start_ns, o.end_ns)},
              {"name", op_label(o)}};
    if (o.what != device_op::kind::kernel) x["bytes"] = o.bytes;
    if (o.what == device_op::kind::memcpy) x["copy"] = o.copy;
    ops.push_back(std::move(x));
  }
  j["ops"] = std::move(ops);
  json ranges = json::array();
  for (const host_range& r : t.ranges)
    ranges.push_back({{"name", r.name},
                      {"thread", r.thread},
                      {"depth", r.depth},
                      {"start_us", us_between(t.begin_ns, r.start_ns)},
                      {"dur_us", us_between(r.start_ns, r.end_ns)}});
  j["phases"] = std::move(ranges);
  return j;
}

namespace {
double number_in(const nlohmann::json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>() : fallback;
}
std::string string_in(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
/// A stored time (microseconds from the sample's start) on a clock whose sample starts at `origin`.
std::uint64_t at(std::uint64_t origin, double us) {
  return origin + std::uint64_t(std::int64_t(std::llround(std::clamp(us, -1e12, 1e12) * 1e3)));
}
device_op op_from_json(const nlohmann::json& o, std::uint64_t origin) {
  device_op op;
  const std::string kind = string_in(o, "kind");
  op.what = kind == "memcpy"   ? device_op::kind::memcpy
            : kind == "memset" ? device_op::kind::memset
                               : device_op::kind::kernel;
  op.stream = std::uint32_t(std::clamp(number_in(o, "stream"), 0.0, 4294967295.0));
  op.start_ns = at(origin, number_in(o, "start_us"));
  op.end_ns = at(op.start_ns, number_in(o, "dur_us"));
  op.bytes = std::uint64_t(std::clamp(number_in(o, "bytes"), 0.0, 1e18));
  op.copy = string_in(o, "copy");
  if (op.what == device_op::kind::kernel) op.name = string_in(o, "name");
  return op;
}
}  // namespace

case_timeline timeline_from_json(const nlohmann::json& j) {
  case_timeline t;
  if (!j.is_object()) return t;
  const std::uint64_t origin = std::uint64_t(1) << 62;  // room for operations that start before the sample
  t.begin_ns = origin;
  t.end_ns = at(origin, number_in(j, "sample_us"));
  t.of_samples = int(std::clamp(number_in(j, "of_samples", 1), 1.0, 1e9));
  t.aligned = j.contains("gpu_shift_us");
  t.gpu_shift_ns = std::int64_t(std::llround(std::clamp(number_in(j, "gpu_shift_us"), -1e12, 1e12) * 1e3));
  t.note = string_in(j, "note");
  if (auto m = j.find("metrics"); m != j.end() && m->is_object())
    for (auto& [key, v] : m->items())
      if (v.is_number() && std::isfinite(v.get<double>())) t.metrics[key] = v.get<double>();
  if (auto ops = j.find("ops"); ops != j.end() && ops->is_array())
    for (const auto& o : *ops)
      if (o.is_object()) t.ops.push_back(op_from_json(o, origin));
  if (auto phases = j.find("phases"); phases != j.end() && phases->is_array())
    for (const auto& p : *phases) {
      if (!p.is_object()) continue;
      host_range r;
      r.name = string_in(p, "name");
      r.category = "phase";
      r.thread = std::uint32_t(std::clamp(number_in(p, "thread"), 0.0, 4294967295.0));
      r.depth = int(std::clamp(number_in(p, "depth"), 0.0, 1e6));
      r.start_ns = at(origin, number_in(p, "start_us"));
      r.end_ns = at(r.start_ns, number_in(p, "dur_us"));
      t.ranges.push_back(std::move(r));
    }
  return t;
}

namespace {
/// The events of a Chrome trace as they are added: a process's or a track's name and order, and slices.
class trace_events {
 public:
  explicit trace_events(std::uint64_t origin_ns) : origin_ns_(origin_ns) {}
  void meta(int pid, std::optional<std::uint32_t> tid, const char* what, json args) {
    json e = {{"name", what}, {"ph", "M"}, {"pid", pid}};
    if (tid) e["tid"] = *tid;
    e["args"] = std::move(args);
    events_.push_back(std::move(e));
  }
  static json named(const std::string& name) { return json{{"name", name}}; }
  json& slice(int pid, std::uint32_t tid, const std::string& name, const char* cat, std::uint64_t start,
              std::uint64_t end) {
    events_.push_back({{"name", name},
                       {"cat", cat},
                       {"ph", "X"},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", us_between(origin_ns_, start)},
                       {"dur", us_between(start, end)}});
    return events_.back();
  }
  json take() { return std::move(events_); }

 private:
  std::uint64_t origin_ns_;
  json events_ = json::array();
};

/// The host's process: a track a thread, its ranges nested.
void add_host(const trace_log& log, trace_events& ev) {
  ev.meta(0, std::nullopt, "process_name", trace_events::named("host"));
  ev.meta(0, std::nullopt, "process_sort_index", {{"sort_index", 0}});
  std::set<std::uint32_t> threads;
  for (const host_range& r : log.ranges) threads.insert(r.thread);
  for (std::uint32_t t : threads)
    ev.meta(0, t, "thread_name",
            trace_events::named(t == 0 ? "cases (driving thread)" : "thread " + std::to_string(t)));
  // Slices of one track must nest: a range that ends after its parent (clock granularity) is cut to fit.
  std::vector<host_range> ranges = log.ranges;
  std::stable_sort(ranges.begin(), ranges.end(), [](const host_range& a, const host_range& b) {
    return a.thread != b.thread       ? a.thread < b.thread
           : a.start_ns != b.start_ns ? a.start_ns < b.start_ns
                                      : a.depth < b.depth;
  });
  for (const host_range& r : ranges)
    ev.slice(0, r.thread, r.name, r.category.c_str(), r.start_ns, std::max(r.start_ns, r.end_ns));
}

/// A process a GPU, a track a stream, its operations in the order they started.
void add_devices(const trace_log& log, trace_events& ev) {
  std::map<int, std::set<std::uint32_t>> streams;
  for (const device_op& o : log.ops) streams[o.device].insert(o.stream);
  for (const auto& [dev, ids] : streams) {
    const int pid = 1 + dev;
    const auto name = log.device_names.find(dev);
    ev.meta(pid, std::nullopt, "process_name",
            trace_events::named("GPU " + std::to_string(dev) +
                                (name != log.device_names.end() ? ": " + name->second : "")));
    ev.meta(pid, std::nullopt, "process_sort_index", {{"sort_index", pid}});
    for (std::uint32_t s : ids) ev.meta(pid, s, "thread_name", trace_events::named("stream " + std::to_string(s)));
  }
  std::vector<const device_op*> ops;
  for (const device_op& o : log.ops) ops.push_back(&o);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const device_op* a, const device_op* b) { return a->start_ns < b->start_ns; });
  for (const device_op* o : ops) {
    json& e = ev.slice(1 + o->device, o->stream, op_label(*o), kind_name(o->what), o->start_ns,
                       std::max(o->start_ns, o->end_ns));
    if (o->what != device_op::kind::kernel) {
      e["args"]["bytes"] = o->bytes;
      if (o->what == device_op::kind::memcpy) {
        e["args"]["direction"] = o->copy;
        if (o->end_ns > o->start_ns) e["args"]["GB/s"] = double(o->bytes) / double(o->end_ns - o->start_ns);
      }
    }
  }
}
}  // namespace

nlohmann::ordered_json chrome_trace(const trace_log& log) {
  trace_events events(log.origin_ns);
  add_host(log, events);
  add_devices(log, events);
  json doc;
  doc["traceEvents"] = events.take();
  doc["displayTimeUnit"] = "ns";
  doc["otherData"] = {{"producer", "cudabench --trace"},
                      {"device_activity", log.note.empty() ? "recorded with CUPTI" : "none: " + log.note}};
  return doc;
}

std::string demangle(const char* symbol) {
  if (!symbol) return "?";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(symbol);
}

}  // namespace cudabench
