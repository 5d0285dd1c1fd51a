#!/usr/bin/env bash
# End-to-end tests of --devices (one process per device, their results merged) on any machine: the suite
# behind tests/devices/pretend_devices_main.cpp, whose --pretend-devices=N gives the fan-out N devices, and
# the production binary, which takes its device count from CUDA alone.
# Usage: tests/cli_devices_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
bench="$build/bench/cudabench" pretend="$build/tests/pretend_devices"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

s=$(run "$pretend" --pretend-devices=2 --devices=all --filter=image/cpu --json "$tmp/merged.json" --json-lines "$tmp/live.txt")
check "--devices=all: one process per device, merged; each device's own --json-lines file" 0 "$s" \
  'grep -q "device 0: started" "$tmp/out"' 'grep -q "device 1: exit 0" "$tmp/out"' \
  '[ -s "$tmp/live.dev0.txt" ] && [ -s "$tmp/live.dev1.txt" ] && [ ! -e "$tmp/live.txt" ]' \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); n={r[\"name\"] for r in j[\"benchmarks\"]}; assert {\"dev0/image/cpu\",\"dev1/image/cpu\"} <= n, n; assert len(j[\"context\"][\"devices\"]) == 2" "$tmp/merged.json"'
s=$(run "$pretend" --pretend-devices=3 --devices=0,2 --filter='^image/cpu$' --json -); check "--devices=0,2 --json -: the merged document alone on standard output" 0 "$s" \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); n=sorted(r[\"name\"] for r in j[\"benchmarks\"]); assert n == [\"dev0/image/cpu\", \"dev2/image/cpu\"], n" "$tmp/out"' \
  'grep -q "device 2: exit 0" "$tmp/err"'
s=$(run "$pretend" --pretend-devices=0 --devices=all --filter=image/cpu); check "--devices without a device: exit 2" 2 "$s" 'grep -q "no CUDA device" "$tmp/err"'
s=$(run "$pretend" --pretend-devices=2 --devices=2 --filter=image/cpu); check "--devices naming a device that does not exist: exit 2" 2 "$s" \
  'grep -q "device 2 does not exist (2 visible)" "$tmp/err"' '! grep -q "started" "$tmp/out"'

# The production binary: its device count is CUDA's, whatever the environment says.
s=$(run "$bench" --devices=63 --filter=image/cpu); check "cudabench --devices=63: exit 2 before starting anything" 2 "$s" \
  'grep -q "device 63 does not exist" "$tmp/err"' '! grep -q "started" "$tmp/out"'
s=$(CUDABENCH_TEST_DEVICE_COUNT=64 run "$bench" --devices=63 --filter=image/cpu); check "cudabench has no test hook for the device count" 2 "$s" \
  'grep -q "device 63 does not exist" "$tmp/err"' '! grep -q "started" "$tmp/out"'
s=$(run grep -rlE "getenv\(\"CUDABENCH_TEST_|CUDABENCH_TEST_[A-Z_]+" "$src/app" "$src/cli" "$src/io" "$src/results" "$src/measure" "$src/analysis" "$src/api" "$src/reports" "$src/limits" "$src/support" "$src/kernels" "$src/include" "$src/bench"); check "no test hook in production sources" 1 "$s"

# ^C reaches each device's process once, through the parent; the finished cases of every device are merged
# and marked incomplete, and the per-device directory is removed.
mkdir -p "$tmp/intdev/tmp"
abs_pretend=$(abs "$pretend")
s=$(cd "$tmp/intdev" && TMPDIR="$tmp/intdev/tmp" timeout --preserve-status -s INT 8 "$abs_pretend" --pretend-devices=2 --devices=all --preset=nightly --rounds=1 --filter=cpu --quiet --json "$tmp/intdev/merged.json" >"$tmp/out" 2>"$tmp/err"; echo $?)
check "SIGINT with --devices: exit 130, each device's finished cases merged and marked incomplete" 130 "$s" \
  'grep -q "^run_bench: interrupted by SIGINT; the finished cases of each device are in" "$tmp/err"' \
  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d[\"context\"][\"cudabench\"]; n={r[\"name\"].split(\"/\")[0] for r in d[\"benchmarks\"]}; assert m[\"incomplete\"] and n == {\"dev0\", \"dev1\"}, (m, n)" "$tmp/intdev/merged.json"' \
  '[ -z "$(ls "$tmp/intdev/tmp")" ]'

# What a fan-out cannot do is refused before any device starts.
s=$(run "$pretend" --pretend-devices=2 --devices=all '--filter=^image/cpu$' --md -); check "--devices with --md -: refused" 2 "$s" \
  'grep -q "each device writes its own --md file" "$tmp/err"'
s=$(run "$pretend" --pretend-devices=2 --devices=all '--filter=^image/cpu$' --json-lines -); check "--devices with --json-lines -: refused" 2 "$s" \
  'grep -q "each device writes its own --json-lines file" "$tmp/err"'
cp "$src/tests/fixtures/h100_quick.json" "$tmp/base.json"
s=$(run "$pretend" --pretend-devices=2 --devices=all '--filter=^image/cpu$' --json "$tmp/base.json" --compare-to "$tmp/base.json" --allow-device-mismatch)
check "--devices: --json onto the baseline it compares with: refused, the baseline kept" 2 "$s" \
  'cmp -s "$tmp/base.json" "$src/tests/fixtures/h100_quick.json"'
s=$(run "$pretend" --pretend-devices=2 --devices=all '--filter=^image/cpu$' --save-baseline --baseline-dir "$tmp/bl"); check "--devices with --save-baseline: refused" 2 "$s" \
  '[ ! -e "$tmp/bl" ]'

finish
