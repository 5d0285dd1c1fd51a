// The runner behind ./run_bench: options -> suite -> Google Benchmark -> JSON and verdict.
#pragma once

namespace harness {

/// Everything main() does; returns the process exit status (0 ok, 1 failed case or regression, 2 usage/input).
int run_main(int argc, char** argv);

}  // namespace harness
