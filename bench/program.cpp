// The suite names itself after the script that runs it, in --help and messages (a user's binary keeps its own name).
#include "cudabench/main.hpp"

namespace {
const bool named = (cudabench::app::name_program("./run_bench"), true);
}  // namespace
