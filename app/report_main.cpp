// cudabench-report: compare, report and trend over benchmark JSON, and bisect (no GPU needed itself).
#include "app/commands.hpp"

int main(int argc, char** argv) { return cudabench::app::report_main(argc, argv); }
