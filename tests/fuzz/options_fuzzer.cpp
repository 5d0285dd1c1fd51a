// Fuzz target: the runner's option parser. The input is split at NUL bytes into arguments; any input must
// end in options or a usage_error (or input_error).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) args.emplace_back();
    else args.back() += char(data[i]);
  }
  try {
    cudabench::app::parse_run_options(args);
  } catch (const cudabench::usage_error&) {
  } catch (const cudabench::input_error&) {
  }
  return 0;
}
