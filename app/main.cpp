// cudabench: every registered case behind one Google Benchmark binary; ./run_bench wraps it.
#include "cudabench/main.hpp"

int main(int argc, char** argv) { return cudabench::app::run_main(argc, argv); }
