#!/usr/bin/env bash
# Robustness on a GPU machine, from the repository root, with the binaries device_pack.sh packed into .devlibs/:
#  - device faults: fault_suite (the suite with test-only cases that write to an illegal address, spin
#    forever, crash and hang, linked in among its families) over the quick preset (tests/faults/faults_test.py);
#  - an interrupted nightly run: SIGINT after INTERRUPT_S seconds (default 45) must leave a valid JSON of the
#    finished cases marked incomplete, exit 130, and no temporary file;
#  - compute-sanitizer's memcheck, racecheck, initcheck and synccheck over the quick preset's cases (--profile:
#    one repetition, three samples a case), in parallel, each stopped after SANITIZER_LIMIT_S (default 420):
#    memcheck at the preset's sizes; racecheck, initcheck and synccheck, which run kernels 10-1000x slower, at
#    the smaller sizes of SANITIZER_SIZES (the same kernels and code paths; see the notes below).
# Results under $OUT (or ./out): a short table at the end, every log in sanitizer_logs.tar.gz.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
san=${COMPUTE_SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
limit=${SANITIZER_LIMIT_S:-420}
small=(${SANITIZER_SIZES:---sizes=conv2d=1024 --sizes=matmul=512 --sizes=histogram=1048576 --sizes=reduce=1048576 --sizes=dot=1048576 --sizes=vector=1048576})
summary=()
note() { summary+=("$1"); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee "$out/gpu.txt"
"$san" --version | tail -n 1

echo "== interrupted nightly"
scratch=$(mktemp -d) && mkdir -p "$scratch/tmp" "$scratch/run"
start=$(date +%s)
(cd "$scratch/run" && TMPDIR="$scratch/tmp" timeout --preserve-status -s INT "${INTERRUPT_S:-60}" "$bench" --preset=nightly --quiet \
   --json "$scratch/run/nightly.json" >"$out/interrupted.txt" 2>&1); rc=$?
cp "$scratch/run/nightly.json" "$out/interrupted_nightly.json" 2>/dev/null
left=$(ls -A "$scratch/tmp" "$scratch/run" | grep -vE '^(nightly.json|.*:|)$' | tr '\n' ' ')
note "interrupted nightly: exit $rc after $(( $(date +%s) - start )) s; $(tail -n 1 "$out/interrupted.txt"); left behind: ${left:-nothing}; $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); m = d["context"]["cudabench"]
names = {r["run_name"] for r in d["benchmarks"]}
print("valid JSON, %d cases, incomplete=%s, interrupted_by=%s" % (len(names), m.get("incomplete"), m.get("interrupted_by")))' "$scratch/run/nightly.json" 2>&1 | tail -n 1)"
rm -rf "$scratch"

# racecheck, synccheck and initcheck do not support dynamic parallelism: reduce/recursive_tail (the one
# kernel that launches from the device, in its own module, loaded lazily) is checked by memcheck only.
# conv2d/cudnn runs on its own under racecheck and initcheck (cuDNN's algorithm search is slow there and
# needs much shadow memory), so that one vendor case cannot hold up the verdict on the others.
declare -A args
runs=(memcheck racecheck racecheck_cudnn synccheck initcheck initcheck_cudnn)
args[memcheck]=""
args[racecheck]="${small[*]} --filter=-(conv2d/cudnn|recursive_tail)"
args[racecheck_cudnn]="${small[*]} --filter=conv2d/cudnn"
args[synccheck]="${small[*]} --filter=-recursive_tail"
args[initcheck]="${small[*]} --filter=-(conv2d/cudnn|recursive_tail)"
args[initcheck_cudnn]="${small[*]} --filter=conv2d/cudnn"
export CUDA_MODULE_LOADING=LAZY
sanitize() {  # sanitize RUN: one compute-sanitizer run, its output in sanitizer_RUN.txt
  timeout -s INT "$limit" "$san" --tool "${1%_cudnn}" --target-processes all --error-exitcode 99 --print-limit 20 \
    "$bench" --preset=quick --profile --quiet ${args[$1]} --json "$out/sanitizer_$1.json" >"$out/sanitizer_$1.txt" 2>&1
}
# The cuDNN runs go one after the other once the others are done (its algorithm search under racecheck
# was killed while four other sanitized processes ran beside it).
(
  for run in "${runs[@]}"; do
    [ "${run%_cudnn}" = "$run" ] && { sanitize "$run"; echo $? >"$out/sanitizer_$run.rc"; } &
  done
  wait
  for run in "${runs[@]}"; do
    [ "${run%_cudnn}" != "$run" ] && { sanitize "$run"; echo $? >"$out/sanitizer_$run.rc"; }
  done
) &
sanitizers=$!

echo "== device faults"
python3 "$root/tests/faults/faults_test.py" "$root/.devlibs/tests/fault_suite" --watchdog=30 >"$out/faults.txt" 2>&1
note "device faults (quick + fault cases, --watchdog=30): exit $?; $(grep -cE '^ok ' "$out/faults.txt") checks ok, $(grep -cE '^FAIL' "$out/faults.txt") failed"
grep -E "^(ok|FAIL) |go on in a fresh process" "$out/faults.txt"

echo "== compute-sanitizer"
wait "$sanitizers"
for run in "${runs[@]}"; do
  rc=$(cat "$out/sanitizer_$run.rc" 2>/dev/null || echo "?")
  f="$out/sanitizer_$run.txt"
  errors=$(grep -hoE "ERROR SUMMARY: [0-9]+ error" "$f" | awk '{s += $3} END {print s + 0}')
  hazards=$(grep -hoE "RACECHECK SUMMARY: .*" "$f" | tr '\n' ' ')
  note "compute-sanitizer $run (${args[$run]:-at the preset sizes}): exit $rc, $errors error(s) ${hazards:+($hazards)}in $(grep -cE "(ERROR|RACECHECK) SUMMARY" "$f") summary line(s); $(grep 'case(s):' "$f")"
  grep -m 1 -A 12 -E "^========= [A-Z][a-z]" "$f"
done
tar -czf "$out/sanitizer_logs.tar.gz" -C "$out" $(cd "$out" && ls sanitizer_*.txt sanitizer_*.json 2>/dev/null) && rm -f "$out"/sanitizer_*.txt "$out"/sanitizer_*.json "$out"/sanitizer_*.rc

echo
echo "== summary"
for line in "${summary[@]}"; do echo "$line"; done
