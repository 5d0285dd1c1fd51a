// A timeline: the GPU operations (from CUPTI's activity records) and host ranges of a traced sample, the
// metrics read from them, and their JSON forms (a case's timeline in the results; the run's Chrome trace).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cudabench {

/// One GPU operation as CUPTI recorded it. Times are nanoseconds on the host clock CUPTI reports in
/// (CLOCK_REALTIME on Linux); host ranges use the same clock.
struct device_op {
  enum class kind { kernel, memcpy, memset };
  kind what = kind::kernel;
  int device = 0;
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t bytes = 0;  ///< memcpy and memset
  std::string copy;         ///< memcpy direction: "HtoD", "DtoH", "DtoD", "HtoH", "PtoP"
  std::string name;         ///< demangled kernel name
  std::string shape;        ///< a kernel's launch: "grid=XxYxZ block=XxYxZ smem=S" (static + dynamic shared bytes)
  std::string sass;         ///< the hash of a kernel's SASS, "" where its module was not seen loaded
  /// A kernel's scalar arguments, "(A,B,...)": each 4- or 8-byte parameter as an unsigned decimal, "p" for a
  /// CUDA pointer (its address differs from process to process), "-" for a parameter of another size; "" where
  /// the launch's arguments were not read (outside a code-identity sample, or a driver older than 12.4).
  std::string args;
};

/// A range the harness or a fixture opened on a host thread (a case, a stage, a phase such as "copy H2D").
struct host_range {
  std::string name;
  std::string category;      ///< "case", "stage" or "phase"
  std::uint32_t thread = 0;  ///< small per-process thread number, 0 for the thread that drives the cases
  int depth = 0;             ///< nesting depth on its thread
  std::uint64_t start_ns = 0, end_ns = 0;
};

/// What a timeline shows, as numbers a comparison can follow. Absent entries: not measurable here (no copy,
/// no kernel). Keys: gpu_span_us, gpu_busy_fraction, copy_compute_overlap, h2d_bytes_per_second,
/// d2h_bytes_per_second, kernel_launches, device_ops, largest_gap_us.
using timeline_metrics = std::map<std::string, double>;

/// The metrics of a set of GPU operations:
/// - gpu_span_us: first operation's start to last operation's end;
/// - gpu_busy_fraction: time with at least one operation running, over the span;
/// - copy_compute_overlap: time a copy and a kernel run at once, over the shorter of the copy time and the
///   kernel time (1: the shorter one is entirely hidden under the other; present when both exist);
/// - h2d/d2h_bytes_per_second: bytes of that direction over the time copies of that direction ran;
/// - kernel_launches, device_ops: counts; largest_gap_us: longest time with no operation inside the span.
timeline_metrics metrics_of(const std::vector<device_op>& ops);

/// The timeline of one traced sample of a case.
struct case_timeline {
  std::uint64_t begin_ns = 0, end_ns = 0;  ///< the sample on the host: first call to the end of its synchronisation
  std::vector<device_op> ops;
  std::vector<host_range> ranges;  ///< the phases opened inside the sample
  timeline_metrics metrics;
  int of_samples = 1;  ///< traced samples it was chosen from (the one of median GPU span)
  /// CUPTI's GPU timestamps, converted to host time by interpolation, were seen hundreds of microseconds
  /// late on the H100. A held sample has an anchor: the hold kernel ends when the host releases it. The ops
  /// are moved by this much so that they line up (0 and !aligned: no anchor, times as CUPTI gave them).
  std::int64_t gpu_shift_ns = 0;
  bool aligned = false;
  std::string note;  ///< why no device activity was recorded, when none was
};

/// A case's timeline as stored in its result row: metrics, then the operations and phases with times in
/// microseconds from the sample's start.
nlohmann::ordered_json to_json(const case_timeline& t);
/// A stored timeline read back (to_json's inverse, to the nanosecond); malformed entries are skipped, so a
/// hand-edited or foreign file still gives a timeline, never an exception.
case_timeline timeline_from_json(const nlohmann::json& j);

/// Everything --trace recorded over a run.
struct trace_log {
  std::uint64_t origin_ns = 0;              ///< the run's start: trace times count from here
  std::vector<host_range> ranges;           ///< cases and stages for the whole run; phases inside traced samples
  std::vector<device_op> ops;               ///< the operations of every traced sample
  std::map<int, std::string> device_names;  ///< device ordinal -> "NVIDIA H100 80GB HBM3"
  std::string note;                         ///< why no device activity was recorded, when none was
};

/// The run's timeline in the Trace Event Format (Perfetto, chrome://tracing): process "host" with a track
/// per thread (cases, stages, phases as slices), then one process per device with a track per stream
/// (kernels, copies, memsets as slices; bytes, direction and bandwidth in their args).
nlohmann::ordered_json chrome_trace(const trace_log& log);

/// A kernel's symbol demangled ("_Z6invertPhi" -> "invert(unsigned char*, int)"); unchanged if not mangled.
std::string demangle(const char* symbol);

}  // namespace cudabench
