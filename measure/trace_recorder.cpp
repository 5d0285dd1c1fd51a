// The --trace recorder: host ranges through the range observer, GPU operations through CUPTI's activity API.
#include "measure/trace_recorder.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <unordered_map>

#include "cudabench/cuda_check.hpp"
#include "measure/cubin_sass.hpp"
#include "measure/startup_times.hpp"
#include "results/code_identity.hpp"

namespace cudabench {

// The CUPTI member of the error-check family (see cuda_check.hpp).
inline void check(CUptiResult r, const char* call, const char* file, int line) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
  throw_status("CUPTI", r, text, call, file, line);
}
inline void check_nothrow(CUptiResult r, const char* call, const char* file, int line) noexcept {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
  log_status("CUPTI", r, text, call, file, line);
}

namespace {
constexpr CUpti_ActivityKind recorded_kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                                 CUPTI_ACTIVITY_KIND_MEMSET};
constexpr std::size_t buffer_bytes = 4u << 20;

std::atomic<trace_recorder*> active_recorder{nullptr};

/// Per host thread: its number in the trace (in order of first range, so the driving thread is 0) and the
/// ranges it has open.
std::atomic<std::uint32_t> next_thread{0};
struct thread_ranges {
  std::uint32_t id = next_thread.fetch_add(1);
  std::vector<host_range> open;
};
thread_ranges& this_thread() {
  thread_local thread_ranges t;
  return t;
}

const char* copy_direction(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "other";
  }
}

/// Every kernel of the modules loaded since watch_module_loads(), by mangled name: its SASS, copied as its module
/// loads and hashed the first time a traced sample meets the kernel (most kernels a library loads never run), or
/// hashed at once while the copies kept exceed max_unhashed.
struct kernel_sass {
  std::string bytes;                ///< the SASS, until hashed
  std::optional<std::string> hash;  ///< sass_hash(bytes), once computed
};
constexpr std::size_t max_unhashed = std::size_t(256) << 20;
std::mutex sass_mutex;
std::size_t unhashed_bytes = 0;  // guarded by sass_mutex
std::unordered_map<std::string, kernel_sass>& sass_by_kernel() {
  static std::unordered_map<std::string, kernel_sass> m;
  return m;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string sass_of(const char* mangled) {
  if (!mangled) return "";
  std::lock_guard lock(sass_mutex);
  const auto it = sass_by_kernel().find(mangled);
  if (it == sass_by_kernel().end()) return "";
  kernel_sass& k = it->second;
  if (!k.hash) {
    const auto t0 = std::chrono::steady_clock::now();
    k.hash = sass_hash(k.bytes);
    unhashed_bytes -= k.bytes.size();
    std::string().swap(k.bytes);
    startup_time_add("sass hashing", seconds_since(t0));
  }
  return *k.hash;
}

void module_loaded(const void* data) {
  const auto* module =
      static_cast<const CUpti_ModuleResourceData*>(static_cast<const CUpti_ResourceData*>(data)->resourceDescriptor);
  if (!module || !module->pCubin) return;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const auto kernels = kernel_sections(std::string_view(module->pCubin, module->cubinSize));
    std::lock_guard lock(sass_mutex);
    for (const auto& [name, sass] : kernels) {
      kernel_sass& k = sass_by_kernel()[name];
      unhashed_bytes -= k.bytes.size();  // a kernel loaded again (another module of the same name) is replaced
      k.bytes.clear();
      k.hash.reset();
      if (unhashed_bytes + sass.size() > max_unhashed) {
        k.hash = sass_hash(sass);
        continue;
      }
      k.bytes.assign(sass);  // the driver's image of the module need not outlive this callback
      unhashed_bytes += sass.size();
    }
  } catch (...) {
    // out of memory: these kernels stay unidentified
  }
  startup_time_add("sass hashing", seconds_since(t0));
}

/// The driver calls that read a kernel's parameter layout and tell a pointer, resolved through the runtime
/// outside any callback (the harness does not link the driver library); null where the driver lacks them.
struct driver_calls {
  PFN_cuFuncGetParamInfo_v12040 param_info = nullptr;
  PFN_cuKernelGetParamInfo_v12040 kernel_param_info = nullptr;  // the runtime launches a CUkernel as a CUfunction
  PFN_cuPointerGetAttribute_v4000 pointer_attribute = nullptr;
};
const driver_calls& driver() {
  static const driver_calls d = [] {
    driver_calls d;
    auto resolve = [](const char* symbol, int version) -> void* {
      void* f = nullptr;
      cudaDriverEntryPointQueryResult found{};
      if (cudaGetDriverEntryPointByVersion(symbol, &f, version, cudaEnableDefault, &found) != cudaSuccess) {
        (void)cudaGetLastError();  // not sticky: leave no error for the case's own checks
        return nullptr;
      }
      return found == cudaDriverEntryPointSuccess ? f : nullptr;
    };
    d.param_info = reinterpret_cast<PFN_cuFuncGetParamInfo_v12040>(resolve("cuFuncGetParamInfo", 12040));
    d.kernel_param_info = reinterpret_cast<PFN_cuKernelGetParamInfo_v12040>(resolve("cuKernelGetParamInfo", 12040));
    d.pointer_attribute = reinterpret_cast<PFN_cuPointerGetAttribute_v4000>(resolve("cuPointerGetAttribute", 4000));
    return d;
  }();
  return d;
}

/// The scalar arguments of each launch of a traced sample, by the launch call's correlation id (a kernel's
/// activity record carries the id of the call that launched it).
std::mutex args_mutex;
std::unordered_map<std::uint32_t, std::string>& args_by_call() {
  static std::unordered_map<std::uint32_t, std::string> m;
  return m;
}

std::string arguments_of(std::uint32_t correlation) {
  std::lock_guard lock(args_mutex);
  const auto it = args_by_call().find(correlation);
  return it == args_by_call().end() ? "" : it->second;
}

/// Reads the arguments of a launch of `f`: from `params` (one pointer a parameter), or from the packed buffer
/// that `extra` names.
std::string read_arguments(CUfunction f, void** params, void** extra) {
  const driver_calls& d = driver();
  if (!f || !d.param_info || !d.pointer_attribute) return "";
  // A function's parameters, or (where the handle is a CUkernel, as the runtime's launches pass) a kernel's.
  std::size_t offset = 0, size = 0;
  const bool as_kernel = d.param_info(f, 0, &offset, &size) != CUDA_SUCCESS && d.kernel_param_info;
  std::vector<kernel_parameter> layout;
  for (std::size_t i = 0;; ++i) {
    kernel_parameter p;
    const CUresult r = as_kernel ? d.kernel_param_info(reinterpret_cast<CUkernel>(f), i, &p.offset, &p.size)
                                 : d.param_info(f, i, &p.offset, &p.size);
    if (r != CUDA_SUCCESS) break;
    layout.push_back(p);
  }
  const char* buffer = nullptr;
  for (void** e = extra; e && *e != CU_LAUNCH_PARAM_END; e += 2)
    if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = static_cast<const char*>(e[1]);
  if (!params && !buffer) return "";
  const auto value_of = [&](std::size_t i) -> const void* { return params ? params[i] : buffer + layout[i].offset; };
  const auto is_pointer = [&](std::uint64_t v) {
    unsigned type = 0;  // any memory CUDA knows (device, managed, pinned host): the answer is CUDA_SUCCESS
    return v != 0 && d.pointer_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CUdeviceptr(v)) == CUDA_SUCCESS;
  };
  return scalar_arguments(layout, value_of, is_pointer);
}

/// The kernel, arguments and packed buffer of a launch call's parameters; f null for another call.
struct launch_call {
  CUfunction f = nullptr;
  void** params = nullptr;
  void** extra = nullptr;
};
launch_call driver_launch(CUpti_CallbackId id, const void* p) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* c = static_cast<const cuLaunchKernel_params*>(p);
      return {c->f, c->kernelParams, c->extra};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* c = static_cast<const cuLaunchKernelEx_params*>(p);
      return {c->f, c->kernelParams, c->extra};
    }
    default: return {};
  }
}

/// The driver's launch calls: the runtime's launches reach them too (a CUkernel passed as the CUfunction).
constexpr CUpti_CallbackId driver_launches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz};

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (!data) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED) module_loaded(data);
    return;
  }
  // Only driver calls are made here: a runtime call from inside a launch's callback (cudaGetFuncBySymbol) makes
  // that launch and the later ones fail with "invalid device function".
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || call->callbackSite != CUPTI_API_EXIT || !call->functionParams) return;
  const launch_call l = driver_launch(id, call->functionParams);
  if (!l.f) return;
  try {
    std::string args = read_arguments(l.f, l.params, l.extra);
    std::lock_guard lock(args_mutex);
    args_by_call()[call->correlationId] = std::move(args);
  } catch (...) {
    // out of memory: this launch's arguments go unrecorded
  }
}

/// The subscriber of watch_module_loads(), null until it subscribed.
CUpti_SubscriberHandle& subscriber() {
  static CUpti_SubscriberHandle s{};
  return s;
}

/// Turns the launch callbacks on (inside a traced sample) or off, and forgets the arguments read so far.
void read_launch_arguments(bool on) {
  if (!subscriber()) return;
  if (on) driver();  // resolved before the first launch, never inside a callback
  for (CUpti_CallbackId id : driver_launches)
    CB_CHECK(cuptiEnableCallback(on, subscriber(), CUPTI_CB_DOMAIN_DRIVER_API, id));
  std::lock_guard lock(args_mutex);
  args_by_call().clear();
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<device_op> ops;
  CUpti_Activity* record = nullptr;
  while (buffer && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    device_op o;
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        o = {device_op::kind::kernel, int(k->deviceId), k->streamId, k->start, k->end, 0, "", demangle(k->name)};
        o.shape = fmt::format("grid={}x{}x{} block={}x{}x{} smem={}", k->gridX, k->gridY, k->gridZ, k->blockX,
                              k->blockY, k->blockZ, k->staticSharedMemory + k->dynamicSharedMemory);
        o.sass = sass_of(k->name);
        o.args = arguments_of(k->correlationId);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        o = {device_op::kind::memcpy,
             int(m->deviceId),
             m->streamId,
             m->start,
             m->end,
             m->bytes,
             copy_direction(m->copyKind),
             ""};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        o = {device_op::kind::memset, int(m->deviceId), m->streamId, m->start, m->end, m->bytes, "", ""};
        break;
      }
      default: continue;
    }
    ops.push_back(std::move(o));
  }
  std::free(buffer);
  if (trace_recorder* r = active_recorder.load()) r->add_ops(std::move(ops));
}
}  // namespace

std::string watch_module_loads() {
  static const std::string problem = [] {
    CUpti_SubscriberHandle s{};
    try {
      CB_CHECK(cuptiSubscribe(&s, on_callback, nullptr));
      CB_CHECK(cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
    } catch (const cuda_error& e) { return std::string(e.what()); }
    subscriber() = s;
    return std::string();
  }();
  return problem;
}

std::uint64_t trace_recorder::now() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

trace_recorder::trace_recorder() {
  log_.origin_ns = now();
  active_recorder.store(this);
  current_range_observer().store(this, std::memory_order_release);
}

trace_recorder::~trace_recorder() {
  current_range_observer().store(nullptr, std::memory_order_release);
  if (recording_)
    for (CUpti_ActivityKind k : recorded_kinds) CB_CHECK_NOTHROW(cuptiActivityDisable(k));
  if (cupti_started_) CB_CHECK_NOTHROW(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  active_recorder.store(nullptr);
}

bool trace_recorder::start_cupti() {
  if (cupti_started_) return true;
  if (!problem_.empty()) return false;
  try {
    // CUPTI keeps its own clock: CLOCK_REALTIME on Linux, which now() reads too.
    CB_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    // Enable once here, so a CUPTI that cannot record fails now, with its reason, rather than mid-sample.
    for (CUpti_ActivityKind k : recorded_kinds) CB_CHECK(cuptiActivityEnable(k));
    for (CUpti_ActivityKind k : recorded_kinds) CB_CHECK(cuptiActivityDisable(k));
    cupti_started_ = true;
  } catch (const cuda_error& e) { problem_ = e.what(); }
  return cupti_started_;
}

void trace_recorder::begin_sample(bool device) {
  if (recording_) CB_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));  // what ran since the last sample
  {
    std::lock_guard lock(mutex_);
    pending_.clear();
    sample_first_range_ = log_.ranges.size();
  }
  if (device && !recording_ && start_cupti()) {
    for (CUpti_ActivityKind k : recorded_kinds) CB_CHECK(cuptiActivityEnable(k));
    recording_ = true;
  }
  if (recording_) read_launch_arguments(true);
  sampling_ = true;
}

case_timeline trace_recorder::end_sample(std::uint64_t begin, std::uint64_t end) {
  sampling_ = false;
  if (recording_) {
    CB_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));  // the kernels take their arguments here
    read_launch_arguments(false);
  }
  case_timeline t;
  t.begin_ns = begin;
  t.end_ns = end;
  std::lock_guard lock(mutex_);
  t.ops = std::move(pending_);
  pending_.clear();
  std::stable_sort(t.ops.begin(), t.ops.end(),
                   [](const device_op& a, const device_op& b) { return a.start_ns < b.start_ns; });
  for (std::size_t i = sample_first_range_; i < log_.ranges.size(); ++i)
    if (log_.ranges[i].category == "phase") t.ranges.push_back(log_.ranges[i]);
  log_.ranges.resize(sample_first_range_);  // only phases close inside a sample; keep() puts them back
  t.metrics = metrics_of(t.ops);
  return t;
}

void trace_recorder::stop() {
  if (!recording_) return;
  for (CUpti_ActivityKind k : recorded_kinds) CB_CHECK(cuptiActivityDisable(k));
  recording_ = false;
  CB_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::lock_guard lock(mutex_);
  pending_.clear();
}

void trace_recorder::keep(const case_timeline& t) {
  std::lock_guard lock(mutex_);
  log_.ops.insert(log_.ops.end(), t.ops.begin(), t.ops.end());
  log_.ranges.insert(log_.ranges.end(), t.ranges.begin(), t.ranges.end());
}

void trace_recorder::add_ops(std::vector<device_op> ops) {
  std::lock_guard lock(mutex_);
  pending_.insert(pending_.end(), std::make_move_iterator(ops.begin()), std::make_move_iterator(ops.end()));
}

bool trace_recorder::opened(const char* name, const char* category) noexcept {
  // Cases and stages are kept for the whole run; a fixture's phases only inside a traced sample (they open
  // around every timed run, thousands of times per case).
  if (!sampling_ && std::string_view(category) == "phase") return false;
  try {
    thread_ranges& t = this_thread();
    t.open.push_back({name, category, t.id, int(t.open.size()), now(), 0});
    return true;
  } catch (...) {
    return false;  // out of memory: the range goes unrecorded
  }
}

void trace_recorder::closed() noexcept {
  thread_ranges& t = this_thread();
  if (t.open.empty()) return;
  host_range r = std::move(t.open.back());
  t.open.pop_back();
  r.end_ns = now();
  try {
    std::lock_guard lock(mutex_);
    log_.ranges.push_back(std::move(r));
  } catch (...) {}
}

}  // namespace cudabench
