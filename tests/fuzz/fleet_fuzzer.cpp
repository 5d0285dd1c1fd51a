// Fuzz target: fleet's reading of a nightly directory, the verdict file compare wrote above all. One input is
// a directory holding runs/nightly-<stamp>.json and verdict-<stamp>.json: the input's bytes up to "\n====\n"
// are the verdict file, what follows (else a small fixed run) the run. Any input must end in the fleet's
// renderings (terminal, Markdown, HTML, CSV, JSON) or an input_error; any other exception, a crash or a
// sanitizer report is a finding. Each input's directory is removed after it.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/errors.hpp"
#include "reports/fleet.hpp"

namespace {
/// A directory of its own for one input (under $TMPDIR when set, else /dev/shm where there is one), removed
/// with everything in it when the input is done.
class scratch_directory {
 public:
  scratch_directory() {
    namespace fs = std::filesystem;
    const char* tmpdir = std::getenv("TMPDIR");
    const fs::path base = tmpdir && *tmpdir ? fs::path(tmpdir) : fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string name = (base / "fleet-fuzz-XXXXXX").string();
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

constexpr const char* fixed_run =
    R"({"context": {"date": "2026-01-01T00:00:00Z"}, "benchmarks": [)"
    R"({"name": "copy/naive/1024", "run_type": "iteration", "real_time": 1.5, "time_unit": "ms"},)"
    R"({"name": "copy/tiled/1024", "run_type": "iteration", "real_time": 1.0, "time_unit": "ms"}]})";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t sep = text.find("\n====\n");
  const scratch_directory scratch;
  const std::filesystem::path& dir = scratch.path();
  std::filesystem::create_directory(dir / "runs");
  const std::string stamp = "20260101T000000Z";
  std::ofstream(dir / ("verdict-" + stamp + ".json"), std::ios::binary) << text.substr(0, sep);
  std::ofstream(dir / "runs" / ("nightly-" + stamp + ".json"), std::ios::binary)
      << (sep == std::string::npos ? std::string(fixed_run) : text.substr(sep + 6));
  try {
    using namespace cudabench::reports;
    const fleet f = build_fleet(fleet_members({dir.string(), dir.string()}));
    (void)fleet_terminal(f);
    (void)fleet_markdown(f);
    (void)fleet_html(f);
    (void)fleet_csv(f);
    (void)fleet_json(f);
  } catch (const cudabench::input_error&) {
  } catch (const cudabench::usage_error&) {
  }
  return 0;
}
