// An NVTX injection library for tests: loaded through NVTX_INJECTION64_PATH, it records every domain
// creation, push and pop (thread, domain, colour, message) to the file named by CUDABENCH_NVTX_LOG.
#include <nvtx3/nvToolsExt.h>  // also brings the injection types (nvtxDetail/nvtxTypes.h)

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace {
std::mutex m;
std::FILE* out = nullptr;
std::map<nvtxDomainHandle_t, std::string> domains;
int next_domain = 1;

std::string domain_name(nvtxDomainHandle_t d) {
  auto it = domains.find(d);
  return it == domains.end() ? "(default)" : it->second;
}

void write_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  std::lock_guard<std::mutex> l(m);
  if (!out) return;
  const char* msg = a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : "";
  const bool argb = a && a->colorType == NVTX_COLOR_ARGB;
  std::fprintf(out, "push\t%zu\t%s\t%s%08x\t%s\n", std::hash<std::thread::id>{}(std::this_thread::get_id()),
               domain_name(d).c_str(), argb ? "" : "none:", argb ? a->color : 0u, msg);
}

void write_pop(nvtxDomainHandle_t d) {
  std::lock_guard<std::mutex> l(m);
  if (out) std::fprintf(out, "pop\t%zu\t%s\n", std::hash<std::thread::id>{}(std::this_thread::get_id()), domain_name(d).c_str());
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  std::lock_guard<std::mutex> l(m);
  auto h = reinterpret_cast<nvtxDomainHandle_t>(static_cast<std::intptr_t>(next_domain++));
  domains[h] = name ? name : "";
  if (out) std::fprintf(out, "domain\t%s\n", name ? name : "");
  return h;
}
int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { write_push(d, a); return 0; }
int NVTX_API domain_pop(nvtxDomainHandle_t d) { write_pop(d); return 0; }
int NVTX_API push_ex(const nvtxEventAttributes_t* a) { write_push(nullptr, a); return 0; }
int NVTX_API push_a(const char* msg) {
  nvtxEventAttributes_t a{};
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = msg;
  write_push(nullptr, &a);
  return 0;
}
int NVTX_API pop() { write_pop(nullptr); return 0; }

void close_log() {
  std::lock_guard<std::mutex> l(m);
  if (out) std::fclose(out);
  out = nullptr;
}
}  // namespace

extern "C" NVTX_DYNAMIC_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const char* path = std::getenv("CUDABENCH_NVTX_LOG");
  out = std::fopen(path && *path ? path : "nvtx.log", "w");
  if (!out) return 0;
  std::atexit(close_log);
  auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (!callbacks) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) || !table) return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = reinterpret_cast<NvtxFunctionPointer>(&domain_create);
  *table[NVTX_CBID_CORE2_DomainRangePushEx] = reinterpret_cast<NvtxFunctionPointer>(&domain_push);
  *table[NVTX_CBID_CORE2_DomainRangePop] = reinterpret_cast<NvtxFunctionPointer>(&domain_pop);
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) && table) {
    *table[NVTX_CBID_CORE_RangePushEx] = reinterpret_cast<NvtxFunctionPointer>(&push_ex);
    *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(&push_a);
    *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(&pop);
  }
  return 1;
}
