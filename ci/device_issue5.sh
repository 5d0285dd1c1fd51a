#!/usr/bin/env bash
# What issue 5 still needs from a GPU machine (binaries from ci/device_pack.sh in .devlibs/):
#  1. --devices=all on the machine's GPUs, and the merged result checked;
#  2. ./run_bench --ncu's path (ci/profile.sh) over every GPU case of the quick preset except cuDNN (its
#     algorithm search runs thousands of kernels under ncu), and a check that ncu's NVTX filter found each
#     case's kernels inside the case's own range.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.devlibs/lib" CUDABENCH_SOURCE_DIR="$root"
bench="$root/.devlibs/bench/cudabench"
echo "== --devices=all"
"$bench" --devices=all --filter='^(image/pinned_streams/4|conv2d/tiled/4096|reduce/cub/16777216)$' --json "$out/devices.json"
echo "exit $?"
python3 - "$out/devices.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("devices:", [(d.get("ordinal"), d.get("name")) for d in j["context"]["devices"]])
print("rows:", sorted({r["name"] for r in j["benchmarks"]}))
PY
echo "== --ncu over every GPU case"
timeout "${NCU_TIMEOUT_S:-400}" "$root/ci/profile.sh" "$bench" --ncu --filter='^(image|histogram|matmul|vector|dot|reduce|conv2d/(naive|tiled))/' --json "$out/ncu_run.json" 2>"$out/ncu.err"
python3 - "$out/ncu_run.ncu.csv" <<'PY'
import collections, csv, subprocess, sys, os
rows = collections.Counter()
inside = collections.Counter()
for r in csv.reader(open(sys.argv[1])):
    case = r[0]
    rows[case] += 1
    if "ASCII:" + case.replace("/", ":") in ",".join(r):
        inside[case] += 1
bench = os.path.join(os.environ.get("CUDABENCH_SOURCE_DIR", "."), ".devlibs/bench/cudabench")
listed = subprocess.run([bench, "--list", "--filter=^(image|histogram|matmul|vector|dot|reduce|conv2d/(naive|tiled))/"],
                        capture_output=True, text=True).stdout.split("\n")
gpu = [l.split()[0] for l in listed if len(l.split()) > 1 and l.split()[1] == "gpu"]
missing = [c for c in gpu if inside[c] == 0]
print("%d GPU cases, %d with kernels inside their own NVTX range; missing: %s" % (len(gpu), len(gpu) - len(missing), missing or "none"))
PY
