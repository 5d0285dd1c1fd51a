#!/usr/bin/env bash
# Verdicts that do not depend on the machine, on a GPU machine with the binaries device_pack.sh packed into
# .devlibs/. Results under $OUT (or ./out); a short table at the end.
# Usage: validation/device_machine.sh record TAG
#            one nightly run with rounds (every GPU case records its code identity), kept as OUT/nightly-TAG.json,
#            its wall time, and how many device cases have a digest; then the short cases traced (--trace);
#            CUDABENCH_RECORD_ARGS passes on to the run
#        validation/device_machine.sh nightly TAG BASELINE.json
#            ci/nightly.sh in a throwaway repository (commit A, then commit B: a note) whose stored baseline is
#            BASELINE.json (labelled commit A); tonight's run is commit B's, the packed binary. Then `confirm` of
#            the same pair with the baseline's code identity removed (as a baseline of an earlier version), which
#            builds A and B (the packed binary, copied: their device code is the same) and measures the flagged
#            cases alternately here. Then the short cases traced. NIGHTLY_ONLY=1: ci/nightly.sh only;
#            CUDABENCH_NIGHTLY_ARGS passes on to it.
#        validation/device_machine.sh change TAG BASELINE.json [FILTER] [BUSY]
#            ci/nightly.sh over FILTER (default: the limits, reduce and matmul) in a throwaway repository of four
#            commits: A (the baseline's revision), B (a note), C (reduce and matmul do 2% more work: its build
#            makes the binary a wrapper that sets CUDABENCH_EXTRA_WORK=2 for runs), D (a note). BASELINE.json is
#            the stored baseline, labelled A; tonight's run is D's. Expected: the flags of reduce and matmul are
#            unconfirmed against another machine's baseline, confirmed as regressions, and the bisect names C.
#        validation/device_machine.sh pr TAG [FILTER]
#            the pull-request flow with its defaults (ci/pr_bench.sh measure: the quick preset, 5 alternating
#            processes a side, the gates stored in this checkout's reports/baselines) over FILTER (default: reduce's and matmul's device cases;
#            `all`: no filter, every case of the preset, only those whose code identity changed measured), in the
#            same throwaway repository: head D against merge base A (C's 2% more work), then head B against A (A/A).
#            PR_BISECT_ARGS adds options of bisect (e.g. --gates=none --extra-time=60), CUDABENCH_COMPARE_ARGS compare's;
#            PR_SIDES=change runs the change alone.
#        Any mode with BUSY=1 in the environment: a host-memory load (8 threads copying 256 MiB buffers) runs beside it.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
what=${1:?record or nightly}; tag=${2:?tag}
nvidia-smi --query-gpu=name,uuid,pci.bus_id,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader | tee "$out/gpu-$tag.txt"
nproc | tee -a "$out/gpu-$tag.txt"
trace_short() {  # the short cases, traced: each sample's kernel time against its timed median
  "$bench" --quiet --filter='^(histogram/fast/1048576|reduce/fast/1048576|conv2d/fast/1024|matmul/fast/1024)$' --preset=nightly \
      --rounds=1 --trace "$out/trace-$tag.json" --json "$out/traced-$tag.json" >"$out/traced-$tag.txt" 2>&1
  python3 - "$out/traced-$tag.json" <<'PY' | tee -a "$out/summary-$tag.txt"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {}
for b in d["benchmarks"]:
    if b.get("run_type") != "iteration": continue
    r = rows.setdefault(b["run_name"], {"times": []})
    r["times"].append(b["real_time"] * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[b["time_unit"]])
    t = (b.get("cudabench") or {}).get("timeline")
    if t: r["t"] = t
for name, r in sorted(rows.items()):
    ts = sorted(r["times"]); med = ts[len(ts) // 2]
    t = r.get("t") or {}
    kern = sum(o.get("dur_us", 0) for o in t.get("ops", []) if o.get("kind") == "kernel")
    m = t.get("metrics", {})
    print(f"{name:32s} median {med:9.2f} us  gpu_span {m.get('gpu_span_us', float('nan')):8.2f} us  kernels {kern:8.2f} us  "
          f"launches {m.get('kernel_launches', '-')}  largest gap {m.get('largest_gap_us', float('nan')):6.2f} us")
PY
}
busy_pid=
if [ "${BUSY:-0}" = 1 ]; then
  python3 - <<'PY' &
import threading, time
def load():
    a = bytearray(256 << 20); b = bytearray(256 << 20)
    while True: b[:] = a
for _ in range(8): threading.Thread(target=load, daemon=True).start()
time.sleep(3600)
PY
  busy_pid=$!
  trap '[ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null' EXIT
  echo "busy: 8 threads copying 256 MiB buffers (pid $busy_pid)" | tee -a "$out/gpu-$tag.txt"
fi
# throwaway_repo DIR: commits A (the baseline's revision) and B (a note); build.sh copies the packed binary.
throwaway_repo() {
  local repo=$1
  git init -q "$repo" && git -C "$repo" config user.email v@example.com && git -C "$repo" config user.name validation
  mkdir -p "$repo/ci" "$repo/reports" && cp "$root"/ci/*.sh "$root"/ci/*.py "$repo/ci/"
  cat >"$repo/build.sh" <<'SH'
#!/bin/sh
# The packed binary; where extra_work is present, a wrapper that runs it with CUDABENCH_EXTRA_WORK set to that
# file's value, and CUDABENCH_EXTRA_WORK_VARIANT to extra_work_variant's where that is present (subcommands as
# they are).
mkdir -p build/bench && rm -f build/bench/cudabench
if [ -f extra_work ]; then
  { echo '#!/bin/sh'
    echo 'case "$1" in compare|confirm|bisect|report|trend|gates|fleet) exec "@BENCH@" "$@" ;; esac'
    echo "CUDABENCH_EXTRA_WORK=$(cat extra_work) CUDABENCH_EXTRA_WORK_VARIANT=$(cat extra_work_variant 2>/dev/null) exec \"@BENCH@\" \"\$@\""
  } >build/bench/cudabench
  chmod +x build/bench/cudabench
else
  cp "@BENCH@" build/bench/cudabench
fi
SH
  sed -i "s|@BENCH@|$bench|g" "$repo/build.sh"
  chmod +x "$repo/build.sh"
  echo A >"$repo/notes"; git -C "$repo" add -A && git -C "$repo" commit -qm "A: the baseline's revision"
  echo B >>"$repo/notes"; git -C "$repo" commit -qam "B: a note"
}
# store_baseline REPO BASELINE REV: BASELINE labelled REV as the stored baseline of its model (with our gates).
store_baseline() {
  local model
  model=$("$bench" store slot "$2") && model=${model%/*}  # <model>/<preset>
  mkdir -p "$1/baselines/$model"
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['context']['cudabench']['git_revision'] = sys.argv[2]
json.dump(d, open(sys.argv[3], 'w'))" "$2" "$3" "$1/baselines/$model/nightly.json"
  cp "$root/reports/baselines/$model/nightly.gates.json" "$1/baselines/$model/" 2>/dev/null
  return 0
}
case $what in
  pr)
    filter=${3:-'^(reduce/(shared_tree|warp_shuffle|recursive_tail|cub|fast)|matmul/(naive|tiled|cublas|fast))/'}
    [ "$filter" = all ] && filter=  # every case of the preset, as a pull request's flow runs by default
    unset CUDABENCH_GIT_REVISION CUDABENCH_GIT_DIRTY
    repo=$(mktemp -d)/repo
    throwaway_repo "$repo"
    b=$(git -C "$repo" rev-parse HEAD)
    echo 2 >"$repo/extra_work"
    # EXTRA_VARIANT=reduce/fast: the change is to that one kernel only
    [ -n "${EXTRA_VARIANT:-}" ] && echo "$EXTRA_VARIANT" >"$repo/extra_work_variant"
    git -C "$repo" add extra_work ${EXTRA_VARIANT:+extra_work_variant} &&
      git -C "$repo" commit -qm "C: ${EXTRA_VARIANT:-reduce and matmul} do 2% more work"
    echo D >>"$repo/notes"; git -C "$repo" commit -qam "D: a note"
    a=$(git -C "$repo" rev-list --max-parents=0 HEAD)
    : >"$out/summary-$tag.txt"
    sides=("$(git -C "$repo" rev-parse HEAD) change" "$b aa")
    [ "${PR_SIDES:-both}" = change ] && sides=("${sides[0]}")  # PR_SIDES=change: the change alone, no A/A
    for side in "${sides[@]}"; do
      set -- $side
      git -C "$repo" checkout -q "$1"
      start=$SECONDS
      (cd "$repo" && env ${filter:+CUDABENCH_FILTER="$filter"} RUN_BENCH="$bench" CUDABENCH_BISECT_ARGS="--build=$repo/build.sh --binary=build/bench/cudabench ${PR_BISECT_ARGS:-}" \
          CUDABENCH_BASELINE_DIR="$root/reports/baselines" bash ci/pr_bench.sh measure "$a" "$out/pr-$2-$tag") >"$out/pr-$2-$tag.txt" 2>&1; rc=$?
      echo "pr flow, $2 (head ${1:0:8} against A): exit $rc, $((SECONDS - start)) s" | tee -a "$out/summary-$tag.txt"
      python3 - "$out/pr-$2-$tag/verdict.json" <<'PY' | tee -a "$out/summary-$tag.txt"
import json, sys
import os
j = json.load(open(sys.argv[1]))
print("  verdicts:", {k: n for k, n in j["counts"].items() if n})
same = os.path.join(os.path.dirname(sys.argv[1]), "same_code.json")
if os.path.exists(same):
    s = json.load(open(same))
    print("  same code:", {k: (len(v) if isinstance(v, list) else v) for k, v in s.items() if k in ("changed", "unknown", "controls", "measured", "same_code", "note")})
for c in j["cases"]:
    ch = c.get("change"); g = c.get("gate")
    print(f"  {c['name']:40s} {c['verdict']:12s} change {'' if ch is None else f'{ch*100:+.2f}%':>8s} gate {'' if g is None else f'{g*100:.2f}%'}")
PY
    done ;;
  change)
    base=${3:?baseline file}; filter=${4:-'^(limits/|reduce/|matmul/)'}
    unset CUDABENCH_GIT_REVISION CUDABENCH_GIT_DIRTY
    repo=$(mktemp -d)/repo
    throwaway_repo "$repo"
    a=$(git -C "$repo" rev-list --max-parents=0 HEAD)
    echo 2 >"$repo/extra_work"; git -C "$repo" add extra_work && git -C "$repo" commit -qm "C: reduce and matmul do 2% more work"
    echo D >>"$repo/notes"; git -C "$repo" commit -qam "D: a note"
    store_baseline "$repo" "$base" "$a"
    (cd "$repo" && ./build.sh)
    export CUDABENCH_GIT_REVISION=$(git -C "$repo" rev-parse HEAD) CUDABENCH_GIT_DIRTY=0
    start=$SECONDS
    (cd "$repo" && RUN_BENCH="$repo/build/bench/cudabench" CUDABENCH_FILTER="$filter" CUDABENCH_BASELINE_DIR="$repo/baselines" \
        CUDABENCH_BISECT_ARGS="--build=$repo/build.sh --binary=build/bench/cudabench" bash ci/nightly.sh "$out/change-$tag") \
        >"$out/change-job-$tag.txt" 2>&1; rc=$?
    echo "ci/nightly.sh with commit C's 2% more work, $filter: exit $rc, $((SECONDS - start)) s" | tee "$out/summary-$tag.txt"
    grep -E "^(compare|confirm|nightly|bisect)" "$out/change-job-$tag.txt" | tail -n 12 | tee -a "$out/summary-$tag.txt"
    v=$(ls "$out/change-$tag"/verdict-*.json | head -n 1)
    python3 - "$v" <<'PY' | tee -a "$out/summary-$tag.txt"
import json, sys
j = json.load(open(sys.argv[1]))
print("verdicts:", {k: n for k, n in j["counts"].items() if n}, "machine:", j["machine"]["change"])
for c in j["cases"]:
    if c["verdict"] not in ("unchanged", "not gated") or "confirm" in c.get("note", ""):
        print(f"  {c['name']:40s} {c['verdict']:16s} {c.get('note', '')[:100]}")
PY
    b=$(ls "$out/change-$tag"/bisect-*.json 2>/dev/null | head -n 1)
    [ -n "$b" ] && python3 -c "
import json, sys
j = json.load(open(sys.argv[1])); f = j.get('first_bad') or {}
print('bisect:', j['outcome'], 'first bad:', f.get('subject', f), 'in', round(j.get('elapsed_s', 0)), 's')" "$b" | tee -a "$out/summary-$tag.txt"
    for f in "$out/change-$tag"/confirm-*.log; do [ -f "$f" ] && tail -n 3 "$f" | tee -a "$out/summary-$tag.txt"; done
    tar -C "$out" -czf "$out/change-dir-$tag.tgz" "change-$tag" && rm -rf "$out/change-$tag" ;;
  record)
    start=$SECONDS
    # shellcheck disable=SC2086  # CUDABENCH_RECORD_ARGS: options for the run, split at spaces (e.g. --no-energy)
    "$bench" --quiet --preset=nightly ${CUDABENCH_RECORD_ARGS:-} --json "$out/nightly-$tag.json" >"$out/nightly-$tag.txt" 2>&1; rc=$?
    echo "nightly $tag: exit $rc, $(grep 'case(s):' "$out/nightly-$tag.txt"), $((SECONDS - start)) s" | tee "$out/summary-$tag.txt"
    python3 - "$out/nightly-$tag.json" <<'PY' | tee -a "$out/summary-$tag.txt"
import json, sys
d = json.load(open(sys.argv[1]))
codes = {}
for b in d["benchmarks"]:
    c = (b.get("cudabench") or {}).get("code")
    if c is not None: codes[b["run_name"]] = c
meta = d["context"]["cudabench"]["cases"]
gpu = [n for n, m in meta.items() if m.get("on") == "gpu"]
with_digest = [n for n in gpu if codes.get(n, {}).get("digest")]
print(f"code identity: {len(with_digest)} of {len(gpu)} GPU cases have a digest")
for n in gpu:
    if not codes.get(n, {}).get("digest"): print("  no digest:", n, codes.get(n, {}).get("problem", "no code object"))
PY
    trace_short ;;
  nightly)
    base=${3:?baseline file}
    unset CUDABENCH_GIT_REVISION CUDABENCH_GIT_DIRTY
    repo=$(mktemp -d)/repo
    throwaway_repo "$repo"
    a=$(git -C "$repo" rev-list --max-parents=0 HEAD)
    store_baseline "$repo" "$base" "$a"
    python3 - "$base" "$a" "$out/base-nocode-$tag.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["context"]["cudabench"]["git_revision"] = sys.argv[2]
for b in d["benchmarks"]:
    (b.get("cudabench") or {}).pop("code", None)
json.dump(d, open(sys.argv[3], "w"))
PY
    export CUDABENCH_GIT_REVISION=$(git -C "$repo" rev-parse HEAD) CUDABENCH_GIT_DIRTY=0
    start=$SECONDS
    (cd "$repo" && RUN_BENCH="$bench" CUDABENCH_BASELINE_DIR="$repo/baselines" CUDABENCH_BISECT_ARGS="--build=$repo/build.sh --binary=build/bench/cudabench" \
        bash ci/nightly.sh "$out/nightly-$tag") >"$out/nightly-job-$tag.txt" 2>&1; rc=$?
    echo "ci/nightly.sh $tag: exit $rc, $((SECONDS - start)) s" | tee "$out/summary-$tag.txt"
    v=$(ls "$out/nightly-$tag"/verdict-*.json | head -n 1)
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('verdicts:', {k: n for k, n in j['counts'].items() if n}, 'machine:', j['machine']['change'])" "$v" | tee -a "$out/summary-$tag.txt"
    run=$(ls "$out/nightly-$tag"/runs/nightly-*.json | head -n 1)
    python3 - "$v" <<'PY' | tee -a "$out/summary-$tag.txt"
import json, sys
j = json.load(open(sys.argv[1]))
for c in j["cases"]:
    if "confirm" in c.get("note", ""): print(f"  {c['name']:40s} {c['verdict']:16s} {c['note'][:110]}")
PY
    grep -E "^nightly: (confirmation|bisect)" "$out/nightly-job-$tag.txt" | tee -a "$out/summary-$tag.txt"
    if [ "${NIGHTLY_ONLY:-0}" = 1 ]; then cat "$out/summary-$tag.txt"; exit 0; fi
    start=$SECONDS
    (cd "$repo" && "$bench" confirm "$out/base-nocode-$tag.json" "$run" --build="$repo/build.sh" --binary=build/bench/cudabench \
        --verdict "$out/confirm-$tag.json" --md "$out/confirm-$tag.md") >"$out/confirm-$tag.txt" 2>&1; rc=$?
    echo "confirm without the baseline's code identity: exit $rc, $((SECONDS - start)) s" | tee -a "$out/summary-$tag.txt"
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('verdicts:', {k: n for k, n in j['counts'].items() if n}); print('\n'.join(j['notes'][-2:]))" "$out/confirm-$tag.json" | tee -a "$out/summary-$tag.txt"
    cp "$out/nightly-$tag"/report-*.md "$out/nightly-report-$tag.md" 2>/dev/null
    tar -C "$out" -czf "$out/nightly-dir-$tag.tgz" "nightly-$tag" && rm -rf "$out/nightly-$tag"
    trace_short ;;
esac
cat "$out/summary-$tag.txt"
