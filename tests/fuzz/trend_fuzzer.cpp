// Fuzz target: the trend directory reader (./run_bench trend DIR). One input is a directory: its bytes are
// split at each "\n====\n" into up to eight files (run-0.json, run-1.json, ...), the first byte's low bit
// allows mixed GPU models. Any directory must end in a trend (terminal and HTML renderings included) or an
// input_error; any other exception, a crash or a sanitizer report is a finding. Each input's directory is
// removed after it.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/errors.hpp"
#include "reports/trend.hpp"

namespace {
/// A directory of its own for one input, removed with everything in it when the input is done, so a run
/// of any length leaves nothing behind. Under $TMPDIR when set, else /dev/shm (memory) where there is one.
class scratch_directory {
 public:
  scratch_directory() {
    namespace fs = std::filesystem;
    const char* tmpdir = std::getenv("TMPDIR");
    const fs::path base = tmpdir && *tmpdir ? fs::path(tmpdir) : fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string name = (base / "trend-fuzz-XXXXXX").string();
    if (!::mkdtemp(name.data())) std::abort();
    path_ = name;
  }
  ~scratch_directory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const scratch_directory scratch;
  const std::filesystem::path& dir = scratch.path();
  const std::string sep = "\n====\n";
  std::size_t start = 0;
  for (int i = 0; i < 8 && start <= text.size(); ++i) {
    std::size_t end = text.find(sep, start);
    if (end == std::string::npos) end = text.size();
    std::ofstream(dir / ("run-" + std::to_string(i) + ".json"), std::ios::binary) << text.substr(start, end - start);
    start = end + sep.size();
  }
  try {
    const auto t = cudabench::reports::build_trend(dir.string(), 0.05, 3, size > 0 && (data[0] & 1));
    (void)cudabench::reports::trend_terminal(t);
    (void)cudabench::reports::trend_html(t);
  } catch (const cudabench::input_error&) {
  }
  return 0;
}
