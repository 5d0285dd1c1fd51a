// cudabench-report: compare, report and trend over benchmark JSON (host only, no GPU needed).
#include "reports/compare_command.hpp"

int main(int argc, char** argv) { return reports::report_main(argc, argv); }
