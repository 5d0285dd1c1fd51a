// Fuzz target: `compare` of two result files, with or without a gates file. The input is split at each
// "\n====\n" into the baseline, the current run and (when there is a third part) a gates file; with one part,
// the run is compared with itself. The first byte's low bit allows a device mismatch. Any input must end in
// every format of a comparison (terminal, Markdown, HTML, CSV, the verdict JSON) or an input_error; any other
// exception, a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/gates.hpp"
#include "io/errors.hpp"
#include "reports/writer.hpp"
#include "results/results.hpp"

namespace {
std::vector<std::string> parts_of(const std::string& text) {
  const std::string sep = "\n====\n";
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (parts.size() < 3) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + sep.size();
  }
  return parts;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudabench::reports;
  const std::vector<std::string> parts = parts_of(std::string(reinterpret_cast<const char*>(data), size));
  cudabench::compare_settings settings;
  settings.allow_device_mismatch = size > 0 && (data[0] & 1);
  cudabench::comparison c;
  cudabench::run_result cur;
  try {
    const cudabench::run_result base = cudabench::parse_run_text(parts[0], "base.json");
    cur = parts.size() > 1 ? cudabench::parse_run_text(parts[1], "cur.json") : base;
    if (parts.size() > 2)
      settings.gates = std::make_shared<const cudabench::gate_table>(cudabench::parse_gates(parts[2], "g.gates.json"));
    c = cudabench::compare_runs(base, cur, settings);
  } catch (const cudabench::input_error&) { return 0; }
  std::vector<std::unique_ptr<writer>> writers;
  writers.push_back(terminal_writer(true));
  writers.push_back(markdown_writer());
  writers.push_back(html_writer());
  writers.push_back(csv_writer());
  writers.push_back(verdict_json_writer());
  for (const auto& w : writers) (void)w->end({.run = &cur, .compared = &c});
  return 0;
}
