#!/usr/bin/env bash
# Sourced by the CI scripts: their defaults where the environment names none, in a cudabench checkout or installed
# with the package (<prefix>/share/cudabench/ci, where there is no run_bench and no reports/baselines of the
# repository to write into).
#   cb_runner [report]  the benchmark binary: RUN_BENCH; else this checkout's run_bench; installed, with `report`
#                       (the script needs compare, report, trend, gates or fleet only), the package's cudabench-report;
#                       else one line saying RUN_BENCH is needed (exit 2).
#   cb_baselines        where baselines are stored: CUDABENCH_BASELINE_DIR; else this checkout's reports/baselines;
#                       installed, one line saying CUDABENCH_BASELINE_DIR is needed (exit 2).
#   cb_https_address V  whether V is a plain https address (at most 2000 characters, none that Markdown or HTML
#                       would read as markup), as the job summary and the pull request's comment link one.
cb_ci_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cb_checkout="$(cd "$cb_ci_dir/.." && pwd)"
cb_installed() { [ ! -f "$cb_checkout/CMakeLists.txt" ] && [ -f "$cb_checkout/action.yml" ]; }
cb_runner() {
  if [ -n "${RUN_BENCH:-}" ]; then echo "$RUN_BENCH"; return 0; fi
  if ! cb_installed; then echo "$cb_checkout/run_bench"; return 0; fi
  local report="$cb_checkout/../../bin/cudabench-report"
  if [ "${1:-}" = report ] && [ -x "$report" ]; then (cd "$(dirname "$report")" && echo "$PWD/cudabench-report"); return 0; fi
  echo "$(basename "$0"): set RUN_BENCH to your benchmark binary (one linked with cudabench::main; the installed scripts have no run_bench)" >&2
  exit 2
}
cb_baselines() {
  if [ -n "${CUDABENCH_BASELINE_DIR:-}" ]; then echo "$CUDABENCH_BASELINE_DIR"; return 0; fi
  if ! cb_installed; then echo "$cb_checkout/reports/baselines"; return 0; fi
  echo "$(basename "$0"): set CUDABENCH_BASELINE_DIR to the folder of your repository that keeps the baselines (e.g. benchmarks/baselines)" >&2
  exit 2
}
cb_https_address() { [[ "$1" =~ ^https://[A-Za-z0-9._~:/?#@!\$\&\'*+,\;=%-]{1,2000}$ ]]; }
