# Sourced (not run) by the scripts that run on a GPU machine with the binaries ci/device_pack.sh packed into
# .devlibs/: sets root (the checkout), out ($OUT or ./out, created), bench and report (the packed binaries),
# and the environment they need there (their shared libraries, the source tree, the packed revision).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.devlibs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUDABENCH_SOURCE_DIR="$root"
export CUDABENCH_GIT_REVISION="$(cat "$root/.devlibs/revision" 2>/dev/null)" CUDABENCH_GIT_DIRTY="$(cat "$root/.devlibs/dirty" 2>/dev/null)"
bench="$root/.devlibs/bench/cudabench"
report="$root/.devlibs/reports/cudabench-report"
