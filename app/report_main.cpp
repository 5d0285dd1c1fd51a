// cudabench-report: every command of the command table but the runner (no GPU needed itself).
#include "app/commands.hpp"

int main(int argc, char** argv) { return cudabench::app::report_main(argc, argv); }
