// Fuzz target: `report` of one result file: the reader, then every format a run's report has (terminal,
// Markdown, HTML with its charts and speedup tables, CSV, and the github-action-benchmark and Bencher
// exports). Any input must end in those texts or an input_error; any other exception, a crash or a
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/errors.hpp"
#include "reports/speedup.hpp"
#include "reports/writer.hpp"
#include "results/results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudabench::reports;
  const std::string text(reinterpret_cast<const char*>(data), size);
  cudabench::run_result run;
  try {
    run = cudabench::parse_run_text(text, "fuzz.json");
  } catch (const cudabench::input_error&) { return 0; }
  std::vector<std::unique_ptr<writer>> writers;
  writers.push_back(terminal_writer(true));
  writers.push_back(markdown_writer());
  writers.push_back(html_writer());
  writers.push_back(csv_writer());
  writers.push_back(gab_writer());
  writers.push_back(bmf_writer());
  for (const auto& w : writers) {
    try {
      (void)w->end({.run = &run});
    } catch (const cudabench::input_error&) {}
  }
  (void)declared_tables(run);
  return 0;
}
