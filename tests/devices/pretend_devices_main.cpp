// Test-only entry point: the suite's runner, where a first argument --pretend-devices=N makes the --devices
// fan-out choose among N devices, so that the fan-out and its merge are tested on a machine without GPUs.
// The per-device processes it starts (this program again, without that argument) are the suite's runner.
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/fanout.hpp"
#include "app/results_output.hpp"
#include "cudabench/limits.hpp"
#include "cudabench/main.hpp"
#include "io/errors.hpp"

// As cudabench::main does, this main() brings the limits family along.
CB_REGISTER_FAMILY(limits, cudabench::register_limits, cudabench::limits_order);

namespace {
constexpr const char* pretend_flag = "--pretend-devices=";

int fan_out(int argc, char** argv) {
  const int visible = std::atoi(argv[1] + std::string(pretend_flag).size());
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    cudabench::cli::run_request request;
    static_cast<cudabench::cli::run_options&>(request) = cudabench::app::parse_run_options(args);
    request.args = args;
    const cudabench::app::run_plan plan(request);
    if (!plan.devices) throw cudabench::usage_error("--pretend-devices is for a run with --devices");
    return cudabench::app::run_on_devices(plan, visible);
  } catch (const cudabench::usage_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  } catch (const cudabench::input_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]).rfind(pretend_flag, 0) != 0) return cudabench::app::run_main(argc, argv);
  return cudabench::app::with_checked_stdout("run_bench", fan_out, argc, argv);
}
