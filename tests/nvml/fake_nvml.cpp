// A stand-in for the driver's libnvidia-ml.so.1 with the entry points cudabench reads, answering for one board
// (uuid GPU-12345678-...), so the board-facts reader and the energy meter are tested on a machine without a GPU.
// Its power, energy counter, clocks, clock event reasons and violation counters are set by environment
// variables read at each call (CUDABENCH_FAKE_*, below).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

extern "C" {

typedef int nvml_return;
typedef void* nvml_device;
static int board;
static const char* uuid = "GPU-12345678-aaaa-bbbb-cccc-0123456789ab";

static nvml_return text(char* out, unsigned length, const char* value) {
  std::snprintf(out, length, "%s", value);
  return 0;
}
nvml_return nvmlInit_v2(void) { return 0; }
nvml_return nvmlShutdown(void) { return 0; }
nvml_return nvmlDeviceGetHandleByUUID(const char* u, nvml_device* d) {
  if (std::strcmp(u, uuid) != 0) return 6;  // NVML_ERROR_NOT_FOUND
  *d = &board;
  return 0;
}
nvml_return nvmlDeviceGetHandleByPciBusId_v2(const char* bus, nvml_device* d) {
  if (std::strcmp(bus, "00000000:1B:00.0") != 0) return 6;
  *d = &board;
  return 0;
}
nvml_return nvmlDeviceGetUUID(nvml_device, char* out, unsigned n) { return text(out, n, uuid); }
nvml_return nvmlDeviceGetSerial(nvml_device, char* out, unsigned n) { return text(out, n, "1650123456789"); }
nvml_return nvmlDeviceGetVbiosVersion(nvml_device, char* out, unsigned n) { return text(out, n, "96.00.99.00.01"); }
nvml_return nvmlSystemGetDriverVersion(char* out, unsigned n) { return text(out, n, "580.95.05"); }
nvml_return nvmlDeviceGetPowerManagementLimit(nvml_device, unsigned* mw) {
  *mw = 700000;
  return 0;
}
nvml_return nvmlDeviceGetApplicationsClock(nvml_device, int type, unsigned* mhz) {
  *mhz = type == 1 ? 1755 : 2619;
  return 0;
}
nvml_return nvmlDeviceGetDefaultApplicationsClock(nvml_device, int type, unsigned* mhz) {
  *mhz = type == 1 ? 1755 : 2619;
  return 0;
}
nvml_return nvmlDeviceGetMaxClockInfo(nvml_device, int type, unsigned* mhz) {
  *mhz = type == 1 ? 1980 : 2619;
  return 0;
}
nvml_return nvmlDeviceGetEccMode(nvml_device, unsigned* cur, unsigned* pending) {
  *cur = *pending = 1;
  return 0;
}
nvml_return nvmlDeviceGetMigMode(nvml_device, unsigned* cur, unsigned* pending) {
  *cur = *pending = 0;
  return 0;
}
nvml_return nvmlDeviceGetPersistenceMode(nvml_device, unsigned* mode) {
  *mode = 1;
  return 0;
}
nvml_return nvmlDeviceGetCurrPcieLinkGeneration(nvml_device, unsigned* v) {
  *v = 5;
  return 0;
}
nvml_return nvmlDeviceGetCurrPcieLinkWidth(nvml_device, unsigned* v) {
  *v = 16;
  return 0;
}
nvml_return nvmlDeviceGetMaxPcieLinkGeneration(nvml_device, unsigned* v) {
  *v = 5;
  return 0;
}
nvml_return nvmlDeviceGetMaxPcieLinkWidth(nvml_device, unsigned* v) {
  *v = 16;
  return 0;
}
static double env(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtod(v, nullptr) : fallback;
}
static bool env_set(const char* name) { return env(name, 0) != 0; }
/// Seconds since the library was first asked for a reading.
static double elapsed_s() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CUDABENCH_FAKE_CLOCK_REASONS: the clock event reasons (a number; default 0x1, idle: no applications-clocks
// reason, the clocks are the board's own).
nvml_return nvmlDeviceGetCurrentClocksThrottleReasons(nvml_device, unsigned long long* r) {
  *r = (unsigned long long)env("CUDABENCH_FAKE_CLOCK_REASONS", 0x1);
  return 0;
}
nvml_return nvmlDeviceGetCurrentClocksEventReasons(nvml_device d, unsigned long long* r) {
  return nvmlDeviceGetCurrentClocksThrottleReasons(d, r);
}
// CUDABENCH_FAKE_POWER_W (default 100): the power drawn; the energy counter advances at it, updated every
// CUDABENCH_FAKE_ENERGY_PERIOD_MS (default 10). CUDABENCH_FAKE_NO_ENERGY=1: the board has no energy counter.
// CUDABENCH_FAKE_ENERGY_READ_MS (default 0): how long a reading of the counter takes (about 3 ms on some hosts);
// CUDABENCH_FAKE_ENERGY_SLOW_EVERY=N: every Nth reading takes 30 ms more (now and then one does on those hosts).
nvml_return nvmlDeviceGetPowerUsage(nvml_device, unsigned* mw) {
  *mw = unsigned(env("CUDABENCH_FAKE_POWER_W", 100) * 1000);
  return 0;
}
nvml_return nvmlDeviceGetTotalEnergyConsumption(nvml_device, unsigned long long* mj) {
  if (env_set("CUDABENCH_FAKE_NO_ENERGY")) return 3;  // NVML_ERROR_NOT_SUPPORTED
  static std::atomic<long> readings{0};
  const long every = long(env("CUDABENCH_FAKE_ENERGY_SLOW_EVERY", 0));
  const double slow_ms = every > 0 && ++readings % every == 0 ? 30 : 0;
  std::this_thread::sleep_for(
      std::chrono::duration<double>((env("CUDABENCH_FAKE_ENERGY_READ_MS", 0) + slow_ms) * 1e-3));
  const double period = env("CUDABENCH_FAKE_ENERGY_PERIOD_MS", 10) * 1e-3;
  const double t = period > 0 ? double((long long)(elapsed_s() / period)) * period : elapsed_s();
  *mj = 5000000ULL + (unsigned long long)(t * env("CUDABENCH_FAKE_POWER_W", 100) * 1000);
  return 0;
}
// CUDABENCH_FAKE_SM_CLOCK / CUDABENCH_FAKE_MEM_CLOCK: the clocks now (default 1980 / 2619 MHz).
nvml_return nvmlDeviceGetClockInfo(nvml_device, int type, unsigned* mhz) {
  *mhz = unsigned(type == 1 ? env("CUDABENCH_FAKE_SM_CLOCK", 1980) : env("CUDABENCH_FAKE_MEM_CLOCK", 2619));
  return 0;
}
// CUDABENCH_FAKE_VIOLATION_POWER / CUDABENCH_FAKE_VIOLATION_THERMAL: the share of the time the clocks are held
// down by the power cap / temperature (default 0); the other policies' counters stay at 0.
struct violation_time {
  unsigned long long reference_time, violation_time;
};
nvml_return nvmlDeviceGetViolationStatus(nvml_device, int policy, violation_time* v) {
  if (env_set("CUDABENCH_FAKE_NO_VIOLATIONS")) return 3;
  const double share = policy == 0   ? env("CUDABENCH_FAKE_VIOLATION_POWER", 0)
                       : policy == 1 ? env("CUDABENCH_FAKE_VIOLATION_THERMAL", 0)
                                     : 0;
  v->reference_time = (unsigned long long)(elapsed_s() * 1e6);
  v->violation_time = (unsigned long long)(elapsed_s() * share * 1e9);
  return 0;
}
}
