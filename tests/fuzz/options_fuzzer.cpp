// Fuzz target: the option table's parsers. The input is split at NUL bytes into arguments; any input must
// end in options or a usage_error (or input_error) for every command, and a command line the runner accepts
// must give a --devices child's argv and the profiling wrapper's plan without another error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/commands.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudabench::app;
  using namespace cudabench::cli;
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0)
      args.emplace_back();
    else
      args.back() += char(data[i]);
  }
  for (const char* c : {"run", "compare", "report", "trend"}) {
    try {
      const command_line cl = parse_command_line(c, args);
      if (std::string(c) != "run" || cl.options.help) continue;
      parse_run_options(child_arguments(args, 1, "/tmp/dev1.json"));
      if (!cl.options.profiler) {
        std::vector<std::string> plan = args;
        plan.push_back("--profile-plan");
        profile_plan(parse_run_options(plan), plan);
      }
    } catch (const cudabench::usage_error&) {
    } catch (const cudabench::input_error&) {}
  }
  return 0;
}
