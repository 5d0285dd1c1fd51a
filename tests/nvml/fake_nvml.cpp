// A stand-in for the driver's libnvidia-ml.so.1 with the entry points cudabench reads, answering for one board
// (uuid GPU-12345678-...), so the board-facts reader is tested on a machine without a GPU.
#include <cstdio>
#include <cstring>

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
nvml_return nvmlDeviceGetPowerManagementLimit(nvml_device, unsigned* mw) { *mw = 700000; return 0; }
nvml_return nvmlDeviceGetApplicationsClock(nvml_device, int type, unsigned* mhz) { *mhz = type == 1 ? 1755 : 2619; return 0; }
nvml_return nvmlDeviceGetDefaultApplicationsClock(nvml_device, int type, unsigned* mhz) { *mhz = type == 1 ? 1755 : 2619; return 0; }
nvml_return nvmlDeviceGetMaxClockInfo(nvml_device, int type, unsigned* mhz) { *mhz = type == 1 ? 1980 : 2619; return 0; }
nvml_return nvmlDeviceGetEccMode(nvml_device, unsigned* cur, unsigned* pending) { *cur = *pending = 1; return 0; }
nvml_return nvmlDeviceGetMigMode(nvml_device, unsigned* cur, unsigned* pending) { *cur = *pending = 0; return 0; }
nvml_return nvmlDeviceGetPersistenceMode(nvml_device, unsigned* mode) { *mode = 1; return 0; }
nvml_return nvmlDeviceGetCurrPcieLinkGeneration(nvml_device, unsigned* v) { *v = 5; return 0; }
nvml_return nvmlDeviceGetCurrPcieLinkWidth(nvml_device, unsigned* v) { *v = 16; return 0; }
nvml_return nvmlDeviceGetMaxPcieLinkGeneration(nvml_device, unsigned* v) { *v = 5; return 0; }
nvml_return nvmlDeviceGetMaxPcieLinkWidth(nvml_device, unsigned* v) { *v = 16; return 0; }
// No applications-clocks reason: the clocks are the board's own.
nvml_return nvmlDeviceGetCurrentClocksThrottleReasons(nvml_device, unsigned long long* r) { *r = 0x1; return 0; }
}
