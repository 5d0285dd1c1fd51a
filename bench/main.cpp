// cudabench: every registered case behind one Google Benchmark binary; ./run_bench wraps it.
#include "harness/runner.hpp"

int main(int argc, char** argv) { return harness::run_main(argc, argv); }
