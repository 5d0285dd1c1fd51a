// Fuzz target: the gates file reader (compare --gates, the X.gates.json beside a baseline). Any input must
// end in a gate table or an input_error; a table read must write a gates file that reads back to the same
// cases. Any other exception, a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/errors.hpp"
#include "analysis/gates.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cudabench::gate_table t;
  try {
    t = cudabench::parse_gates(std::string(reinterpret_cast<const char*>(data), size), "fuzz.gates.json");
  } catch (const cudabench::input_error&) {
    return 0;
  }
  const cudabench::gate_table again = cudabench::parse_gates(cudabench::gates_json(t), "again.gates.json");
  if (again.cases.size() != t.cases.size() || again.runs.size() != t.runs.size()) std::abort();
  return 0;
}
