#!/usr/bin/env bash
# End-to-end tests of SIGTERM and SIGINT in every phase: compare of large inputs stopped while reading,
# comparing and writing; the runner stopped while it reads a large baseline and while it measures. Each stop
# ends the process within a second with 128 + the signal and one line, and every requested output is whole
# (as an uninterrupted run writes it) or absent, with no temporary left beside it; the runner's stop writes
# the finished cases to every requested output.
# Usage: tests/cli_signals_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
export CUDA_VISIBLE_DEVICES=

# stop [--caught] SIGNAL DELAY_S CMD...: runs CMD, sends SIGNAL after DELAY_S (with --caught, DELAY_S after CMD
# first catches SIGNAL, as /proc says: a loaded machine may take longer than DELAY_S to start it); its exit status
# (128 + N for a death by signal N), its output in $tmp/out and $tmp/err, and in $tmp/late the seconds from the
# signal to its end (-1.00: it ended before the signal was sent).
stop() {
  python3 - "$@" <<'EOF'
import signal, subprocess, sys, time
caught = sys.argv[1] == "--caught"
args = sys.argv[2:] if caught else sys.argv[1:]
sig, delay, cmd = getattr(signal, args[0]), float(args[1]), args[2:]
tmp = __import__("os").environ["TMP_DIR"]
p = subprocess.Popen(cmd, stdout=open(tmp + "/out", "w"), stderr=open(tmp + "/err", "w"))

def catches():
    try:
        for line in open(f"/proc/{p.pid}/status"):
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) >> (sig - 1) & 1
    except OSError:
        pass
    return False

if caught:
    give_up = time.monotonic() + 60
    while p.poll() is None and not catches() and time.monotonic() < give_up:
        time.sleep(0.005)
try:
    p.wait(delay)
    late = -1.0  # finished before the signal
except subprocess.TimeoutExpired:
    p.send_signal(sig)
    sent = time.monotonic()
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    late = time.monotonic() - sent
open(tmp + "/late", "w").write("%.2f\n" % late)
print(128 - p.returncode if p.returncode < 0 else p.returncode)
EOF
}
export TMP_DIR=$tmp
prompt='python3 -c "import sys; sys.exit(float(open(sys.argv[1]).read()) > 1.0)" "$tmp/late"'
no_temporaries='[ -z "$(ls "$tmp"/o | grep "\.tmp\.")" ]'
# whole_or_absent: each output of the stopped compare is absent or the same as the uninterrupted one's
whole_or_absent='for f in c.md c.csv c.html v.json; do [ ! -e "$tmp/o/$f" ] || cmp -s "$tmp/o/$f" "$tmp/ref/$f" || exit 1; done'

make="$src/tools/scale/make_results.py"
python3 "$make" --rows 150000 --out "$tmp/base.json" >/dev/null && python3 "$make" --rows 150000 --slower 10 --out "$tmp/cur.json" >/dev/null \
  || { echo "FAIL: making the inputs"; exit 1; }
outputs() { echo --md "$1/c.md" --csv "$1/c.csv" --html "$1/c.html" --verdict "$1/v.json"; }
mkdir -p "$tmp/ref" "$tmp/o"
start=$(date +%s.%N)
# shellcheck disable=SC2046  # the options as words
"$report" compare "$tmp/base.json" "$tmp/cur.json" $(outputs "$tmp/ref") >/dev/null 2>&1
took=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
echo "an uninterrupted compare took ${took} s"

# compare stopped at several points of its run: reading first, then later (comparing, rendering, writing).
for at in 0.5 0.3 0.6 0.8; do
  delay=$(python3 -c "print(round(float('$at') * $took, 2) if '$at' != '0.5' else 0.5)")
  rm -rf "$tmp/o" && mkdir "$tmp/o"
  # shellcheck disable=SC2046
  s=$(stop SIGTERM "$delay" "$report" compare "$tmp/base.json" "$tmp/cur.json" $(outputs "$tmp/o"))
  # It finished before the signal (or as it came, past the last write): everything written.
  if [ "$(cat "$tmp/late")" = -1.00 ] || [ "$s" = 0 ] || [ "$s" = 1 ]; then
    check "compare finished before a SIGTERM at ${delay} s: every output whole" "$s" "$s" "$whole_or_absent" '[ -e "$tmp/o/v.json" ]'
    continue
  fi
  check "compare stopped by SIGTERM at ${delay} s: exit 143 within 1 s, one line, outputs whole or absent" 143 "$s" \
    "$prompt" 'one_line "compare: interrupted by SIGTERM"' "$whole_or_absent" "$no_temporaries"
done
rm -rf "$tmp/o" && mkdir "$tmp/o"
s=$(stop SIGINT 0.5 "$report" report "$tmp/base.json" --md "$tmp/o/c.md")
check "report stopped by SIGINT while reading: exit 130 within 1 s, one line, nothing written" 130 "$s" "$prompt" \
  'one_line "report: interrupted by SIGINT"' '[ ! -e "$tmp/o/c.md" ]' "$no_temporaries"

# The runner while it reads a large baseline: stopped there, before any case runs.
s=$(stop --caught SIGTERM 0 "$bench" --filter='^image/cpu$' --preset=quick --watchdog=off --compare-to="$tmp/base.json" \
    --allow-device-mismatch --json "$tmp/o/r.json" --md "$tmp/o/r.md")
check "the runner stopped while reading its --compare-to baseline: exit 143 within 1 s, one line, nothing written" 143 "$s" \
  "$prompt" 'one_line "interrupted by SIGTERM"' '[ ! -e "$tmp/o/r.json" ] && [ ! -e "$tmp/o/r.md" ]'

# Waits (up to 10 minutes: a loaded machine may take long over the first round) until the runner in the background
# says its second round has started, so that a signal finds finished cases to write.
wait_for_round_2() { for _ in $(seq 12000); do grep -q '(round 2/3' "$tmp/err" && return; sleep 0.05; done; }

# The runner while it measures: the finished cases go to every requested output.
cases='^(dot/cpu|reduce/cpu|histogram/cpu|vector/cpu)/1048576$|^image/cpu$'
sizes=(--sizes=dot=1048576 --sizes=vector=1048576 --sizes=reduce=1048576 --sizes=histogram=1048576)
"$bench" --filter="$cases" "${sizes[@]}" --benchmark_min_time=0.002s --rounds=3 --rounds-for=all --repetitions=3 \
  --json "$tmp/o/int.json" --md "$tmp/o/int.md" --csv "$tmp/o/int.csv" --html "$tmp/o/int.html" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for_round_2
kill -INT "$pid"; wait "$pid"; s=$?
check "SIGINT while measuring: exit 130, the finished cases in --json, --md, --csv and --html" 130 "$s" \
  '[ -s "$tmp/o/int.json" ] && [ -s "$tmp/o/int.md" ] && [ -s "$tmp/o/int.csv" ] && [ -s "$tmp/o/int.html" ]' \
  'grep -q "the report files hold them too" "$tmp/err"' 'grep -q "image/cpu" "$tmp/o/int.csv"'

# The runner with --compare-to while it measures: every output new together (the verdict compares the finished
# cases, noted incomplete), none left from the run before.
compared=(--filter="$cases" "${sizes[@]}" --benchmark_min_time=0.002s --rounds=3 --rounds-for=all --repetitions=3
  --compare-to="$tmp/o/int.json" --allow-device-mismatch)
outputs_in() { echo --json "$1/r.json" --md "$1/r.md" --csv "$1/r.csv" --html "$1/r.html" --verdict "$1/v.json"; }
mkdir -p "$tmp/c" "$tmp/old"
# shellcheck disable=SC2046  # the options as words
"$bench" "${compared[@]}" $(outputs_in "$tmp/c") >/dev/null 2>&1
cp "$tmp/c"/* "$tmp/old/"
# shellcheck disable=SC2046
"$bench" "${compared[@]}" $(outputs_in "$tmp/c") >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for_round_2
kill -TERM "$pid"; wait "$pid"; s=$?
all_new='(for f in r.json r.md r.csv r.html v.json; do [ -s "$tmp/c/$f" ] && ! cmp -s "$tmp/c/$f" "$tmp/old/$f" || exit 1; done)'
check "SIGTERM while measuring with --compare-to: exit 143, every output new, the verdict too" 143 "$s" \
  "$all_new" 'py "assert any(\"incomplete\" in n for n in j[\"notes\"]), j[\"notes\"]" "$tmp/c/v.json"' \
  'grep -q "the verdict compare them with the baseline" "$tmp/err"' '[ -z "$(ls "$tmp/c" | grep "\.tmp\.")" ]'
finish
