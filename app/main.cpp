// cudabench: every registered case behind one Google Benchmark binary; ./run_bench wraps it.
#include "cudabench/main.hpp"
#include "cudabench/limits.hpp"

// Registered here, with main(), so that every binary linked with cudabench::main carries the limits family
// (an object of a static library is linked only when something refers to it).
CB_REGISTER_FAMILY(limits, cudabench::register_limits, cudabench::limits_order);

int main(int argc, char** argv) { return cudabench::app::run_main(argc, argv); }
