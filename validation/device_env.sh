# Sourced (not run) by the scripts that run on a GPU machine with the binaries device_pack.sh packed into
# .devlibs/: sets root (the checkout), out ($OUT or ./out, created), bench, report and saxpy (the packed
# binaries), nsys_lib (Debian's libdw/libelf for Nsight Systems' importer), and the environment they need
# there (their shared libraries, the packed revision; the packed git where that machine has none). The scripts run from the checkout's root, so stored
# baselines are its reports/baselines.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
mkdir -p "$out"
cd "$root" || exit 2
export LD_LIBRARY_PATH="$root/.devlibs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDABENCH_GIT_REVISION="$(cat "$root/.devlibs/revision" 2>/dev/null)" CUDABENCH_GIT_DIRTY="$(cat "$root/.devlibs/dirty" 2>/dev/null)"
bench="$root/.devlibs/bench/cudabench"
report="$root/.devlibs/app/cudabench-report"
saxpy="$root/.devlibs/external/saxpy_bench"
nsys_lib="$root/.devlibs/nsys-lib"
command -v git >/dev/null || [ ! -x "$root/.devlibs/git/bin/git" ] || export PATH="$root/.devlibs/git/bin:$PATH" GIT_EXEC_PATH="$root/.devlibs/git/bin"
