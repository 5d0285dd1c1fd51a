// cudabench-report: compare, report, trend and gates over benchmark JSON (no GPU needed).
#include "app/commands.hpp"

int main(int argc, char** argv) { return cudabench::app::report_main(argc, argv); }
