#!/usr/bin/env bash
# The trusted jobs read nothing a pull request's job could leave on their runner. A home folder is planted as a pull
# request's job running as the same user could leave it: the nightly's old build folder (~/cudabench-build: a
# configured cache, its stamp and a Makefile whose every rule runs a marker command), ccache's configuration in each
# place ccache reads it (a prefix_command), git's (core.fsmonitor, core.hooksPath), CMake's user package registry (a
# package configuration for each dependency), the shell's startup files, Python's user site (usercustomize.py),
# results in ~/cudabench-results, CUDA's JIT cache and the GitHub CLI's configuration. Then the nightly's benchmark
# job (nightly.yml) and the baseline job (baseline.yml) run here under ci/run_locally.py and strace, with that
# home, in a copy of this checkout, each with a run_bench that builds one target with ci/build.sh as run_bench does:
# the marker is never written, and no file under the planted home is opened, executed or looked at. Then, as
# controls, the same plants are shown live: ci/build.sh in the old shared build folder, git and ccache with that home
# each run the marker command.
# Usage: tests/trusted_path_test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
source "$src/tests/cli_lib.sh"
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null || { echo "SKIPPED: no strace that can trace here"; exit 77; }
home=$tmp/home ws=$tmp/ws marker=$tmp/marker
printf '#!/bin/sh\necho "$0 $*" >>%q\n' "$marker" >"$tmp/evil" && chmod +x "$tmp/evil"

# The workspace: this checkout's files (tracked, and new ones not ignored) as a repository whose origin is a bare one.
mkdir -p "$ws" && (cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$ws" 2>/dev/null)
git init -q --bare "$tmp/origin.git" && git -C "$ws" init -q && git -C "$ws" remote add origin "$tmp/origin.git" && git -C "$ws" add -A \
  && git -C "$ws" -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false commit -q -m code \
  && git -C "$ws" push -q origin HEAD:refs/heads/main || { echo "FAIL: could not make the workspace"; exit 1; }

# The plants.
b=$home/cudabench-build
mkdir -p "$b" && touch "$b/.cudabench-configured"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\nCMAKE_PROJECT_NAME:STATIC=cudabench\nCMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_MAKE_PROGRAM:FILEPATH=%s\n' \
  "$ws" "$tmp/evil" >"$b/CMakeCache.txt"
printf 'all fake_nvml cudabench cudabench-report help:\n\t@%s make $@\n.DEFAULT:\n\t@%s make default\n' "$tmp/evil" "$tmp/evil" >"$b/Makefile"
for d in .ccache .cache/ccache .config/ccache .cache/cudabench-pr-ccache; do
  mkdir -p "$home/$d" && printf 'prefix_command = %s\n' "$tmp/evil" >"$home/$d/ccache.conf"
done
mkdir -p "$tmp/hooks" "$home/.config/git" && for hook in post-checkout pre-commit reference-transaction; do cp "$tmp/evil" "$tmp/hooks/$hook"; done
printf '[core]\n\tfsmonitor = %s\n\thooksPath = %s\n' "$tmp/evil" "$tmp/hooks" | tee "$home/.gitconfig" >"$home/.config/git/config"
for pkg in benchmark GTest fmt nlohmann_json re2 CUDAToolkit; do
  mkdir -p "$tmp/pkg/$pkg" "$home/.cmake/packages/$pkg" && echo "$tmp/pkg/$pkg" >"$home/.cmake/packages/$pkg/planted"
  printf 'execute_process(COMMAND %s cmake %s)\n' "$tmp/evil" "$pkg" >"$tmp/pkg/$pkg/${pkg}Config.cmake"
done
for rc in .bashrc .profile .bash_profile .bash_login; do printf '%s shell\n' "$tmp/evil" >"$home/$rc"; done
user_site=$(HOME=$home python3 -c 'import site; print(site.getusersitepackages())')
mkdir -p "$user_site" && printf 'import subprocess\nsubprocess.run([%s, "python"])\n' "'$tmp/evil'" >"$user_site/usercustomize.py"
mkdir -p "$home/cudabench-results/runs" "$home/.nv/ComputeCache" "$home/.config/gh"
cp "$src/tests/fixtures/trend/nightly-1.json" "$home/cudabench-results/runs/nightly-20260101T020000Z.json"
ln -s runs/nightly-20260101T020000Z.json "$home/cudabench-results/latest.json"
echo planted >"$home/.nv/ComputeCache/index" && echo "git_protocol: https" >"$home/.config/gh/config.yml"

# run_bench as the jobs call it: this checkout's ci/build.sh, one small target (a compile through ccache), then no run.
mkdir -p "$tmp/bin" && printf '#!/bin/bash\nbash "$GITHUB_WORKSPACE/ci/build.sh" fake_nvml >&2 && echo "$CUDABENCH_BUILD_DIR" >>%q\nexit 2\n' "$tmp/built" >"$tmp/bin/run_bench"
chmod +x "$tmp/bin/run_bench"
# job WORKFLOW OUT ARGS...: the workflow's job run here, as a runner with the planted home would run it, under strace
# (one trace a process, in OUT.trace/).
job() {
  local workflow=$1 out=$2; shift 2
  mkdir -p "$out.trace"
  (cd "$ws" && env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 ${CUDA_HOME:+CUDA_HOME="$CUDA_HOME"} RUN_BENCH="$tmp/bin/run_bench" \
     strace -ff -qq -e trace=%file,%process -o "$out.trace/t" python3 -s ci/run_locally.py "$workflow" --out="$out" "$@") >"$out.log" 2>&1
}
job .github/workflows/nightly.yml "$tmp/nightly" --job=benchmark --matrix=model=h100
job .github/workflows/baseline.yml "$tmp/baseline" --input=model=h100 --input=preset=nightly
# The system calls of the job's steps (each a bash --noprofile the runner starts, and everything they start) that
# name a path under the planted home; the runner's own (ci/run_locally.py asking git for the commit) are not steps.
python3 - "$home" "$tmp/nightly.trace" "$tmp/baseline.trace" >"$tmp/read-planted" <<'PY'
import os, re, sys
home = sys.argv[1]
for folder in sys.argv[2:]:
    parent, steps, lines = {}, set(), {}
    for name in os.listdir(folder):
        pid = int(name.rsplit(".", 1)[1])
        lines[pid] = open(os.path.join(folder, name), errors="replace").read().splitlines()
        for line in lines[pid]:
            m = re.match(r"(?:clone3?|v?fork)\(.*=\s*(\d+)$", line)
            if m:
                parent[int(m.group(1))] = pid
            if line.startswith("execve(") and '"--noprofile", "--norc"' in line:
                steps.add(pid)
    def in_step(pid):
        while pid is not None and pid not in steps:
            pid = parent.get(pid)
        return pid is not None
    assert steps, "no step ran in " + folder
    for pid in sorted(lines):
        if in_step(pid):
            print("\n".join("%s %d: %s" % (os.path.basename(folder), pid, l) for l in lines[pid] if '"' + home in l))
PY
[ $? = 0 ] || echo "the traces could not be read" >>"$tmp/read-planted"
sed -i '/^$/d' "$tmp/read-planted"
check "the nightly's and the baseline's jobs: each built in a folder of its own under its RUNNER_TEMP" 0 0 \
  '[ "$(sort -u "$tmp/built" | wc -l)" = 2 ]' 'grep -q "^$tmp/nightly/runner-temp/private\.[^/]*/build$" "$tmp/built"' \
  'grep -q "^$tmp/baseline/runner-temp/private\.[^/]*/build$" "$tmp/built"'
[ "$(sort -u "$tmp/built" | wc -l)" = 2 ] || tail -n 20 "$tmp/nightly.log" "$tmp/baseline.log"
check "nothing planted in the home folder ran (build folder, ccache, git, CMake's registry, shell, Python)" 0 0 '[ ! -e "$marker" ]'
[ ! -e "$marker" ] || cat "$marker"
check "no file under the planted home folder was opened, executed or looked at" 0 0 '[ ! -s "$tmp/read-planted" ]'
head -n 20 "$tmp/read-planted"

# Controls: the plants are live where the home folder and the build folder are shared.
rm -f "$marker"
(cd "$ws" && env -i PATH="$PATH" HOME="$home" CUDABENCH_BUILD_DIR="$b" bash ci/build.sh fake_nvml) >/dev/null 2>&1
check "control: ci/build.sh in the shared build folder (the nightly's old ~/cudabench-build) runs the planted make program" 0 0 '[ -s "$marker" ]'
rm -f "$marker" && env -i PATH="$PATH" HOME="$home" git -C "$ws" status >/dev/null 2>&1
check "control: git with the shared home runs the planted fsmonitor" 0 0 '[ -s "$marker" ]'
if command -v ccache >/dev/null; then
  check "control: ccache with the shared home reads the planted prefix_command" 0 0 \
    'env -i PATH="$PATH" HOME="$home" ccache -p 2>/dev/null | grep -q "prefix_command = $tmp/evil"'
fi
finish
