#!/usr/bin/env bash
# Verdicts that do not depend on the machine, on a GPU machine with the binaries device_pack.sh packed into
# .devlibs/. Results under $OUT (or ./out); a short table at the end.
# Usage: validation/device_machine.sh record TAG
#            one nightly run with rounds (every GPU case records its code identity), kept as OUT/nightly-TAG.json,
#            its wall time, and how many device cases have a digest; then the short cases traced (--trace)
#        validation/device_machine.sh nightly TAG BASELINE.json
#            ci/nightly.sh in a throwaway repository (commit A, then commit B: a note) whose stored baseline is
#            BASELINE.json (labelled commit A); tonight's run is commit B's, the packed binary. Then `confirm` of
#            the same pair with the baseline's code identity removed (as a baseline of an earlier version), which
#            builds A and B (the packed binary, copied: their device code is the same) and measures the flagged
#            cases alternately here. Then the short cases traced.
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
case $what in
  record)
    start=$SECONDS
    "$bench" --quiet --preset=nightly --json "$out/nightly-$tag.json" >"$out/nightly-$tag.txt" 2>&1; rc=$?
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
    git init -q "$repo" && git -C "$repo" config user.email v@example.com && git -C "$repo" config user.name validation
    mkdir -p "$repo/ci" "$repo/reports" && cp "$root"/ci/*.sh "$root"/ci/*.py "$repo/ci/"
    printf '#!/bin/sh\nmkdir -p build/bench && cp "%s" build/bench/cudabench\n' "$bench" >"$repo/build.sh"; chmod +x "$repo/build.sh"
    echo A >"$repo/notes"; git -C "$repo" add -A && git -C "$repo" commit -qm "A: the baseline's revision"
    a=$(git -C "$repo" rev-parse HEAD)
    echo B >>"$repo/notes"; git -C "$repo" commit -qam "B: a note"
    model=$(python3 -c "import json,sys,re; n=json.load(open(sys.argv[1]))['context']['device']['name']; print(re.sub(r'_+','_',re.sub(r'[^A-Za-z0-9.-]','_',n)).strip('_'))" "$base")
    mkdir -p "$repo/baselines/$model"
    python3 - "$base" "$a" "$repo/baselines/$model/nightly.json" "$out/base-nocode-$tag.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["context"]["cudabench"]["git_revision"] = sys.argv[2]
json.dump(d, open(sys.argv[3], "w"))
for b in d["benchmarks"]:
    (b.get("cudabench") or {}).pop("code", None)
json.dump(d, open(sys.argv[4], "w"))
PY
    cp "$root/reports/baselines/$model/nightly.gates.json" "$repo/baselines/$model/" 2>/dev/null
    export CUDABENCH_GIT_REVISION=$(git -C "$repo" rev-parse HEAD) CUDABENCH_GIT_DIRTY=0
    start=$SECONDS
    (cd "$repo" && RUN_BENCH="$bench" CUDABENCH_BASELINE_DIR="$repo/baselines" CUDABENCH_BISECT_ARGS="--build=$repo/build.sh --binary=build/bench/cudabench" \
        bash ci/nightly.sh "$out/nightly-$tag") >"$out/nightly-job-$tag.txt" 2>&1; rc=$?
    echo "ci/nightly.sh $tag: exit $rc, $((SECONDS - start)) s" | tee "$out/summary-$tag.txt"
    v=$(ls "$out/nightly-$tag"/verdict-*.json | head -n 1)
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('verdicts:', {k: n for k, n in j['counts'].items() if n}, 'machine:', j['machine']['change'])" "$v" | tee -a "$out/summary-$tag.txt"
    run=$(ls "$out/nightly-$tag"/runs/nightly-*.json | head -n 1)
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
