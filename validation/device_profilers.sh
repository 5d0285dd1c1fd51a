#!/usr/bin/env bash
# Profiler and multi-device checks on a GPU machine (binaries from validation/device_pack.sh in .devlibs/),
# in two parts that each fit one device call:
#   validation/device_profilers.sh checks  GPU and CLI tests and the quick suite (device_check.sh quick); the quick suite
#                               with --cache=hot (batched tiny kernels); --devices=all and its errors;
#                               --nsys through app/cudabench-run; the NVTX recorder check over every case of
#                               the full preset (--profile)
#   validation/device_profilers.sh ncu     ./run_bench --ncu's path (app/cudabench-run) over every GPU case of the quick
#                               preset (NCU_FILTER narrows it), and a check that ncu's NVTX filter found
#                               each case's kernels inside the case's own range
# Results go under $OUT (or ./out); each part ends with a short summary.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }

checks() {
  echo "== device_check (gpu tests, cli tests, quick suite)"
  "$root/validation/device_check.sh" quick >"$out/check.txt" 2>&1
  grep -E "PASSED|FAILED|passed|failed|wall time|case\(s\)" "$out/check.txt" | tee -a "$summary"

  echo "== quick suite, --cache=hot"
  "$bench" --cache=hot --json "$out/hot.json" >"$out/hot.txt" 2>&1
  note "hot quick suite exit $?"
  python3 - "$out/hot.json" <<'PY' | tee -a "$summary"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
batched = [(r["name"], int(r["batch"]), r["real_time"], r["time_unit"]) for r in rows if r.get("batch", 1) > 1]
print("%d rows, %d batched:" % (len(rows), len(batched)))
for b in batched: print("  %-40s batch %5d  %.3f %s" % b)
PY

  echo "== --devices"
  "$bench" --devices=all --filter='^(image/pinned_streams/4|conv2d/tiled/4096|reduce/cub/16777216|histogram/cpu/1048576)$' \
      --json "$out/devices.json" >"$out/devices.txt" 2>&1
  note "--devices=all exit $?"
  python3 - "$out/devices.json" <<'PY' | tee -a "$summary"
import json, sys
j = json.load(open(sys.argv[1]))
print("devices:", [(d.get("ordinal"), d.get("name")) for d in j["context"].get("devices", [])])
for r in j["benchmarks"]:
    print("  %-36s %-10s %10.3f %s %s" % (r["name"], r.get("run_type", ""), r.get("real_time", float("nan")), r.get("time_unit", ""), r.get("error_message", "")))
PY
  for bad in "--devices=0,7" "--devices=0,0" "--devices="; do
    "$bench" "$bad" --filter=image/cpu >/dev/null 2>"$out/bad.err"
    note "$bad: exit $? $(head -n 1 "$out/bad.err")"
  done

  echo "== --nsys through app/cudabench-run"
  (cd "$out" && timeout 60 "$root/app/cudabench-run" "$bench" --nsys --filter='^image/pinned_streams/4$' >"$out/nsys.txt" 2>&1)
  note "--nsys exit $? ($(command -v nsys || echo 'no nsys on PATH')); files: $(cd "$out" && ls cudabench-quick-* 2>/dev/null | tr '\n' ' ')"
  tail -n 5 "$out/nsys.txt"
  (cd "$out" && tar czf nsys.tgz nsys.txt cudabench-quick-* 2>/dev/null; rm -f cudabench-quick-*)

  echo "== NVTX recorder, full preset, --profile"
  start=$(date +%s)
  timeout 300 "$root/tests/nvtx/nvtx_test.sh" "$bench" "$root/.devlibs/lib/libnvtx_recorder.so" "$root" --preset=full --profile 2>&1 | tail -n 5 | tee -a "$summary"
  note "nvtx full: status ${PIPESTATUS[0]}, $(( $(date +%s) - start )) s"
  (cd "$out" && tar czf checks.tgz check.txt hot.txt devices.txt gpu.txt quick.txt 2>/dev/null && rm -f check.txt hot.txt devices.txt gpu.txt quick.txt bad.err nsys.txt)
}

ncu_all() {
  local filter='^(image|histogram|matmul|vector|dot|reduce|conv2d)/'
  [ -n "${NCU_FILTER:-}" ] && filter=$NCU_FILTER
  echo "== --ncu over every GPU case matching $filter"
  start=$(date +%s)
  timeout "${NCU_TIMEOUT_S:-560}" "$root/app/cudabench-run" "$bench" --ncu --filter="$filter" --json "$out/ncu_run.json" 2>"$out/ncu.err"
  note "ncu: status $?, $(( $(date +%s) - start )) s"
  csv="$out/ncu_run.ncu.csv"
  [ -f "$csv" ] || csv=$(ls "$out"/ncu_run.ncu.csv.tmp.* 2>/dev/null | head -n 1)
  python3 "$root/validation/ncu_check.py" "$csv" "$bench" "$filter" | tee -a "$summary"
}

case "${1:-}" in
  checks) checks ;;
  ncu) ncu_all ;;
  *) echo "usage: validation/device_profilers.sh checks|ncu" >&2; exit 2 ;;
esac
