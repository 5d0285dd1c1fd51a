#!/usr/bin/env bash
# The steps of the composite action (action.yml at the repository root), one command each; the action passes its
# inputs through the environment (INPUT_*, named as the inputs with - as _ and in capitals).
#   ci/action.sh cache-key the key the package installed into $RUNNER_TEMP/cudabench-prefix is cached under (this
#                          source's version and files, the C++ and CUDA compilers, the system). Step output: key.
#   ci/action.sh setup     the benchmark binary: INPUT_BINARY as given; else INPUT_PROJECT (a CMake project that
#                          finds the package with find_package(cudabench)) built against INPUT_CUDABENCH_PREFIX, or
#                          against this source installed into $RUNNER_TEMP/cudabench-prefix; else this suite
#                          (run_bench). Step outputs: run-bench, bisect-build.
#   ci/action.sh run       ci/nightly.sh with the inputs (preset, filter, baseline directory, gates, bisect), the
#                          history store fetched before and pushed after (INPUT_HISTORY_BRANCH). The run's outcome
#                          never fails the step (an input it cannot use does): its outputs say what happened
#                          (status, results-dir, night-dir, report, verdict, dashboard: the site of the history
#                          store, ci/dashboard.sh, written into the night's files where a history branch is kept;
#                          the job summary links INPUT_DASHBOARD_URL where it is published, else the artifact).
#                          Where no baseline is stored (INPUT_NO_BASELINE=candidate, the default), the run passes
#                          as the baseline candidate, and the command that stores it in the repository is said.
#   ci/action.sh verdict   fails the job by the run's status and INPUT_FAIL_ON (regression, error or never).
# The scripts are those of the action's own checkout; the same ones are installed with the package
# (<prefix>/share/cudabench/ci), for SLURM and other CI.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$here/defaults.sh"
die() { echo "cudabench action: $*" >&2; exit 2; }
# output NAME VALUE: a step output, in the delimiter form with a random delimiter, so that no value (a path with a
# newline, a line looking like NAME=VALUE) can end it early or set another output.
output() {
  [ -n "${GITHUB_OUTPUT:-}" ] || return 0
  local delimiter
  delimiter="cudabench_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  [[ "$2" != *"$delimiter"* ]] || die "the output $1 holds its delimiter"
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
}
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
# The script that builds a revision of a project (setup writes it; the bisect runs it). Bisect's options are one
# list split on spaces, so its --build names the script by this variable, exported by run, never by its path,
# which may hold a space (RUNNER_TEMP).
export CUDABENCH_REVISION_BUILD="$temp/cudabench-build-revision.sh"
# has_package PREFIX: an installed cudabench package is there (lib/, lib64/ or a multiarch lib/<triplet>/).
has_package() { compgen -G "$1/lib*/cmake/cudabench/cudabenchConfig.cmake" >/dev/null || compgen -G "$1/lib/*/cmake/cudabench/cudabenchConfig.cmake" >/dev/null; }

# install_cudabench: this source built and installed into $temp/cudabench-prefix (the build kept in
# CUDABENCH_BUILD_DIR, default $temp/cudabench-build, so that a runner that keeps it builds incrementally).
install_cudabench() {
  local prefix="$temp/cudabench-prefix" build=${CUDABENCH_BUILD_DIR:-$temp/cudabench-build} launcher=()
  if ! has_package "$prefix"; then
    echo "cudabench action: building cudabench from $root and installing it into $prefix" >&2
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
    bash "$here/deps.sh" >&2 || exit 2
    { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUDABENCH_BUILD_SUITE=OFF -DCUDABENCH_BUILD_TESTS=OFF \
        -DCMAKE_CUDA_COMPILER="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" "${launcher[@]}" && cmake --build "$build" -j "$(nproc)"; } >&2 \
      || die "building cudabench from $root failed"
    cmake --install "$build" --prefix "$prefix" >/dev/null || die "cmake --install into $prefix failed"
  fi
  echo "$prefix"
}

do_cache_key() {
  [ -f "$root/CMakeLists.txt" ] || return 0  # installed: the package is there already
  local version sources tools
  version=$(sed -n 's/^project(cudabench VERSION \([0-9.]*\) .*/\1/p' "$root/CMakeLists.txt")
  sources=$(cd "$root" && find . -path ./build -prune -o -path ./.git -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \
              -o -name '*.cuh' -o -name 'CMakeLists.txt' -o -name '*.cmake' -o -name '*.in' -o -path './ci/*' \) -print | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum)
  tools=$( { c++ --version 2>&1 | head -n 1; "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" --version 2>&1 | tail -n 1; cat /etc/os-release 2>/dev/null; } | sha256sum)
  output key "cudabench-prefix-$version-${sources:0:16}-${tools:0:16}"
}

do_setup() {
  local binary=${INPUT_BINARY:-} project=${INPUT_PROJECT:-} target=${INPUT_TARGET:-} prefix=${INPUT_CUDABENCH_PREFIX:-}
  if [ -n "$binary" ]; then
    [ -x "$binary" ] || die "binary: $binary is not an executable file"
    output run-bench "$(realpath "$binary")"
    return 0
  fi
  if [ -z "$project" ]; then  # this suite: run_bench builds it
    [ -x "$root/run_bench" ] || die "give binary or project (the suite is built from a cudabench checkout only)"
    output run-bench "$root/run_bench"
    return 0
  fi
  # Installed (<prefix>/share/cudabench/ci): the package it came with, unless told another.
  if [ -z "$prefix" ] && [ ! -f "$root/CMakeLists.txt" ] && has_package "$root/../.."; then
    prefix="$root/../.."
  fi
  [ -f "$project/CMakeLists.txt" ] || die "project: $project has no CMakeLists.txt"
  [[ "$target" =~ ^[A-Za-z0-9_.+-]+$ ]] || die "project: give the benchmark's CMake target as target (got '$target')"
  if [ -z "$prefix" ]; then prefix=$(install_cudabench) || exit 2; fi
  has_package "$prefix" || die "cudabench-prefix: $prefix holds no installed cudabench package"
  prefix=$(realpath "$prefix")
  # How a revision of the project is built, in the repository's checkout or in a bisect worktree of it: a script,
  # so that bisect takes it as one --build word.
  local build_script=$CUDABENCH_REVISION_BUILD cuda=${CUDA_HOME:-/usr/local/cuda}
  {
    echo '#!/bin/sh'
    echo '# Builds the benchmark of a revision (the current directory: the checkout or a bisect worktree).'
    printf '[ -f build-cudabench/CMakeCache.txt ] || cmake -S %q -B build-cudabench -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=%q' "$project" "$prefix"
    [ -x "$cuda/bin/nvcc" ] && printf ' -DCMAKE_CUDA_COMPILER=%q' "$cuda/bin/nvcc"
    printf ' >&2 || exit 1\n'
    printf 'exec cmake --build build-cudabench -j "$(nproc)" --target %q >&2\n' "$target"
  } >"$build_script" && chmod +x "$build_script" || die "cannot write $build_script"
  echo "cudabench action: building $target of $project against $prefix" >&2
  (cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)" && "$build_script") || die "building $target of $project failed"
  local top built
  top=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
  built=$(find "$top/build-cudabench" -maxdepth 3 -type f -name "$target" -perm -u+x | head -n 1)
  [ -n "$built" ] || die "the build of $project made no executable named $target under build-cudabench/"
  output run-bench "$built"
  [[ "${built#"$top"/}" =~ ^[A-Za-z0-9_./+-]+$ ]] || die "the benchmark's path ${built#"$top"/} holds characters bisect's options cannot carry"
  # shellcheck disable=SC2016  # the variable is expanded by the shell bisect runs --build in
  output bisect-build '--build="$CUDABENCH_REVISION_BUILD" --binary='"${built#"$top"/}"
  [ -x "$prefix/bin/cudabench-report" ] && output report "$prefix/bin/cudabench-report"
  return 0
}

do_run() {
  local results=${INPUT_RESULTS_DIR:-$temp/cudabench-results} status history=""
  mkdir -p "$results" || die "results-dir: cannot make $results"
  results=$(realpath "$results")
  local night="$results/night-$(date -u +%Y%m%dT%H%M%SZ)"
  export RUN_BENCH=${RUN_BENCH:-$root/run_bench}
  export CUDABENCH_PRESET=${INPUT_PRESET:-nightly} CUDABENCH_FILTER=${INPUT_FILTER:-} CUDABENCH_NIGHTLY_ARGS=${INPUT_ARGS:-}
  export CUDABENCH_NIGHT_FILES=$night CUDABENCH_BISECT_BUDGET=${INPUT_BISECT_BUDGET:-3600}
  export CUDABENCH_BISECT_ARGS="${BISECT_BUILD:-} ${INPUT_BISECT_ARGS:-}"
  [ -n "${INPUT_BASELINE_DIR:-}" ] && export CUDABENCH_BASELINE_DIR=$(realpath -m "$INPUT_BASELINE_DIR")
  export CUDABENCH_COMPARE_ARGS=${INPUT_COMPARE_ARGS:-}
  case "${INPUT_NO_BASELINE:-candidate}" in
    candidate|fail) export CUDABENCH_NO_BASELINE=${INPUT_NO_BASELINE:-candidate} ;;
    *) die "no-baseline: '$INPUT_NO_BASELINE' is not candidate or fail" ;;
  esac
  case "${INPUT_GATES:-beside}" in
    beside) ;;
    none) export CUDABENCH_GATES=none ;;
    *) [ -f "$INPUT_GATES" ] || die "gates: $INPUT_GATES: no such file (beside, none or a gates file)"
       CUDABENCH_GATES=$(realpath "$INPUT_GATES") && export CUDABENCH_GATES ;;
  esac
  if [ -n "${INPUT_HISTORY_BRANCH:-}" ]; then
    history="$temp/cudabench-history"
    if bash "$here/history.sh" fetch "$history" --branch="$INPUT_HISTORY_BRANCH" --remote="${INPUT_HISTORY_REMOTE:-origin}" >&2; then
      export CUDABENCH_HISTORY_DIR=$history
    else
      echo "cudabench action: the history store could not be fetched; the run goes on without it" >&2
      history=""
    fi
  fi
  bash "$here/nightly.sh" "$results"
  status=$?
  output status "$status"
  output results-dir "$results"
  output night-dir "$night"
  local stamp
  stamp=$(find "$night" -maxdepth 1 -name 'report-*.md' 2>/dev/null | sed 's/.*report-//; s/\.md$//' | sort | tail -n 1)
  [ -n "$stamp" ] && output report "$night/report-$stamp.md"
  [ -n "$stamp" ] && [ -f "$night/verdict-$stamp.json" ] && output verdict "$night/verdict-$stamp.json"
  local pushed=""
  if [ -n "$history" ] && [ "${INPUT_HISTORY_PUSH:-true}" = true ]; then
    if bash "$here/history.sh" push "$history" --keep="${INPUT_HISTORY_KEEP:-60}" --keep-gates >&2; then
      pushed=$INPUT_HISTORY_BRANCH
    else
      echo "cudabench action: the history store could not be pushed (the run's files are in the artifact)" >&2
    fi
  fi
  # The dashboard of the history store (this run filed in it), in the night's files: the artifact carries it.
  if [ -n "$history" ]; then
    if CUDABENCH_DASHBOARD_ARTIFACT="${INPUT_ARTIFACT_NAME:-}" CUDABENCH_DASHBOARD_INDEX=dashboard/index.html \
       CUDABENCH_DASHBOARD_URL="${INPUT_DASHBOARD_URL:-}" \
       bash "$here/dashboard.sh" "$history" "$night/dashboard" >&2; then
      output dashboard "$night/dashboard"
    else
      echo "cudabench action: the dashboard of the history store could not be written" >&2
    fi
  fi
  local candidate
  candidate=$(find "$night" -maxdepth 1 -name 'baseline-candidate-*.json' 2>/dev/null | head -n 1)
  [ -n "$candidate" ] && store_candidate "$candidate" "$pushed"
  return 0
}

# store_candidate CANDIDATE PUSHED_BRANCH: the command that stores the run that passed as the baseline candidate in
# this repository, from the history branch it was pushed to, else from the artifact (GitHub CLI), said in the job
# summary and the log. Its words are quoted for the shell; the GPU model and preset are those RUN_BENCH store
# names (letters, digits, ., _ and -).
store_candidate() {
  local candidate=$1 branch=$2 top dest slot kept cmd stamp from
  top=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
  dest=$("$RUN_BENCH" store baseline "$candidate" --baseline-dir="$(cb_baselines)") || return 0
  slot=$("$RUN_BENCH" store slot "$candidate") || return 0  # <model>/<preset>
  dest=${dest#"$top"/}
  stamp=${candidate##*/baseline-candidate-}
  output baseline-candidate "$candidate"
  if [ -n "$branch" ]; then
    kept=$("$RUN_BENCH" store runs "$candidate" --history-dir=.) || return 0  # ./<model>/<preset>/<runs>
    from="git show FETCH_HEAD:${kept#./}/nightly-$stamp"
    cmd="git fetch ${INPUT_HISTORY_REMOTE:-origin} $(printf %q "$branch") && mkdir -p $(printf %q "$(dirname "$dest")") && $from >$(printf %q "$dest")"
  elif [ -n "${INPUT_ARTIFACT_NAME:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
    cmd="gh run download $(printf %q "$GITHUB_RUN_ID") -R $(printf %q "${GITHUB_REPOSITORY:-}") -n $(printf %q "$INPUT_ARTIFACT_NAME") -D cudabench-candidate"
    cmd+=" && mkdir -p $(printf %q "$(dirname "$dest")") && mv cudabench-candidate/baseline-candidate-$stamp $(printf %q "$dest") && rm -rf cudabench-candidate"
  else
    cmd="mkdir -p $(printf %q "$(dirname "$dest")") && cp $(printf %q "$candidate") $(printf %q "$dest")"
  fi
  cmd+=" && git add $(printf %q "$dest") && git commit -m $(printf %q "Store the benchmark baseline of $slot")"
  echo "cudabench action: no baseline for $slot: this run passed as its candidate; store it in the repository with: $cmd" >&2
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf 'To store it as the baseline of %s, run this in a clone of the repository, then push the commit (or open a pull request):\n\n```sh\n%s\n```\n\n' \
      "$slot" "$cmd" >>"$GITHUB_STEP_SUMMARY"
  fi
}

do_verdict() {
  local status=${STATUS:-} fail_on=${INPUT_FAIL_ON:-regression}
  [[ "$status" =~ ^[0-9]+$ ]] || { echo "cudabench action: the run step left no status (it did not run to its end)" >&2; exit 2; }
  case "$fail_on" in
    regression) [ "$status" = 0 ] || { echo "cudabench action: failing the job: $(what "$status")" >&2; exit "$status"; } ;;
    error) [ "$status" = 0 ] || [ "$status" = 1 ] || { echo "cudabench action: failing the job: $(what "$status")" >&2; exit "$status"; } ;;
    never) ;;
    *) die "fail-on: '$fail_on' is not regression, error or never" ;;
  esac
  echo "cudabench action: $(what "$status")"
}
what() {
  case $1 in
    0) echo "no regression" ;;
    1) echo "a regression (or a case failed its check)" ;;
    2) echo "a usage or input error, or no baseline stored for this GPU model and preset (no-baseline: fail)" ;;
    *) echo "the run ended with status $1" ;;
  esac
}

case "${1:-}" in
  cache-key) do_cache_key ;;
  setup) do_setup ;;
  run) do_run ;;
  verdict) do_verdict ;;
  *) die "usage: ci/action.sh cache-key|setup|run|verdict (the steps of action.yml)" ;;
esac
