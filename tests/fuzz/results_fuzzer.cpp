// Fuzz target: the result reader (what compare, report, trend and --compare-to read). Any input must end
// in a result or an input_error; any other exception, a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/errors.hpp"
#include "results/results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const cudabench::run_result r = cudabench::parse_run_text(text, "fuzz.json");
    for (const auto& c : r.cases) (void)r.find(c.name);
  } catch (const cudabench::input_error&) {
  }
  return 0;
}
