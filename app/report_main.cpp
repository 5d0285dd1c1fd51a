// cudabench-report: compare, report, trend and gates over benchmark JSON, and bisect (no GPU needed itself).
#include "app/commands.hpp"

int main(int argc, char** argv) { return cudabench::app::report_main(argc, argv); }
