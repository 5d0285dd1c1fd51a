// The terminal table of a run: one line per case as it finishes, colour only on a terminal.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "harness/device_info.hpp"
#include "harness/format.hpp"
#include "harness/run_info.hpp"

namespace harness {

class table_reporter : public benchmark::BenchmarkReporter {
 public:
  table_reporter(const device_info& device, const run_info& info, std::size_t case_count);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  void print_row(const Run& run);
  const device_info& device_;
  const run_info& info_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::string last_bad_;  ///< a skipped/failed case is reported once per repetition; show it once
  bool color_;
};


}  // namespace harness
