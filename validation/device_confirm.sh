#!/usr/bin/env bash
# `confirm` on a GPU machine, with the binaries device_pack.sh packed into .devlibs/: a baseline and a current run
# of two machines (BASELINE.json, CURRENT.json: e.g. a one-GPU host's nightly with its code identity removed, as a
# baseline of an earlier version records none, and a 4-GPU host's), labelled commits A and B of a throwaway
# repository whose build copies the packed binary (A and B have the same device code). confirm builds both and
# measures the unconfirmed cases alternately on this machine. Results under $OUT; its wall time and verdicts last.
# Usage: validation/device_confirm.sh BASELINE.json CURRENT.json [PROCESSES]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
base=${1:?baseline}; cur=${2:?current}; processes=${3:-2}
unset CUDABENCH_GIT_REVISION CUDABENCH_GIT_DIRTY
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$out/confirm-gpu.txt"
repo=$(mktemp -d)/repo
git init -q "$repo" && git -C "$repo" config user.email v@example.com && git -C "$repo" config user.name validation
printf '#!/bin/sh\nmkdir -p build/bench && cp "%s" build/bench/cudabench\n' "$bench" >"$repo/build.sh"; chmod +x "$repo/build.sh"
echo A >"$repo/notes"; git -C "$repo" add -A && git -C "$repo" commit -qm "A"; a=$(git -C "$repo" rev-parse HEAD)
echo B >>"$repo/notes"; git -C "$repo" commit -qam "B"; b=$(git -C "$repo" rev-parse HEAD)
python3 - "$base" "$a" "$out/confirm-base.json" "$cur" "$b" "$out/confirm-cur.json" <<'PY'
import json, sys
for src, rev, dst in ((sys.argv[1], sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5], sys.argv[6])):
    d = json.load(open(src)); d["context"]["cudabench"]["git_revision"] = rev
    if dst.endswith("base.json"):
        for row in d["benchmarks"]: (row.get("cudabench") or {}).pop("code", None)
    json.dump(d, open(dst, "w"))
PY
"$bench" compare "$out/confirm-base.json" "$out/confirm-cur.json" --verdict "$out/confirm-before.json" >/dev/null 2>&1
echo "compare: exit $?, $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print({k: n for k, n in j['counts'].items() if n})" "$out/confirm-before.json")" | tee "$out/confirm-summary.txt"
start=$SECONDS
(cd "$repo" && "$bench" confirm "$out/confirm-base.json" "$out/confirm-cur.json" --build="$repo/build.sh" --binary=build/bench/cudabench \
    --processes="$processes" --verdict "$out/confirm-after.json" --md "$out/confirm-after.md") >"$out/confirm-log.txt" 2>&1; rc=$?
echo "confirm: exit $rc, $((SECONDS - start)) s, $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print({k: n for k, n in j['counts'].items() if n}); print(j['notes'][-1])" "$out/confirm-after.json")" | tee -a "$out/confirm-summary.txt"
python3 -c "
import json,sys
j=json.load(open(sys.argv[1]))
for c in j['cases']:
    if 'confirmed' in c.get('note',''): print(f\"{c['name']:40s} {c['verdict']:16s} {c['note'][:110]}\")" "$out/confirm-after.json" | tee -a "$out/confirm-summary.txt"
