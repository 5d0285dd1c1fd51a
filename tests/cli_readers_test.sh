#!/usr/bin/env bash
# End-to-end tests of what the report commands read: only regular files or standard input, within a size
# limit; device nodes, FIFOs and symbolic link loops named in one line at once; a FIFO output with no reader
# refused at once; the schema version, duplicate keys and bounds said in one line naming the file.
# Usage: tests/cli_readers_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" fx="$src/tests/fixtures"
Q="$fx/h100_quick.json"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# Every command under a time limit: a reader that waits or reads without end fails here (124), never hangs.
run() { timeout -k 2 20 "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
lines() { wc -l <"$1" | tr -d ' '; }
one_line() { [ "$(lines "$tmp/err")" = 1 ] && grep -q -- "$1" "$tmp/err"; }

# An empty input (no bytes, or white space only) is called empty by every reader, not the JSON parser's error.
: >"$tmp/empty.json" && printf ' \n\t\n' >"$tmp/blank.json"
check "report of an empty file: empty, in one line" 2 "$(run "$report" report "$tmp/empty.json")" \
  'one_line "empty.json: empty (no results in it)$"' '! grep -q parse_error "$tmp/err"'
check "compare with a file of white space only: empty" 2 "$(run "$report" compare "$Q" "$tmp/blank.json")" \
  'one_line "blank.json: empty (no results in it)$"'
check "report of an empty standard input: empty" 2 "$(run "$report" report - </dev/null)" \
  'one_line "standard input: empty (no results in it)$"'
check "compare --gates of an empty file: empty" 2 "$(run "$report" compare "$Q" "$Q" --gates="$tmp/empty.json")" \
  'one_line "empty.json: empty (no gates in it)$"'
mkdir -p "$tmp/fleet/runs" && cp "$fx/h100_quick.json" "$tmp/fleet/runs/nightly-20260101T020000Z.json" && : >"$tmp/fleet/verdict-20260101T020000Z.json"
check "fleet with an empty verdict file beside its run: empty" 2 "$(run "$report" fleet "$tmp/fleet")" 'grep -q "verdict-20260101T020000Z.json: empty (no verdicts in it)" "$tmp/err"'

# Endless and special inputs: refused at once, in one line naming the file.
check "report /dev/zero: refused at once" 2 "$(run "$report" report /dev/zero)" \
  'one_line "/dev/zero: is a character device, not a regular file"'
check "report /dev/urandom: refused at once" 2 "$(run "$report" report /dev/urandom)" \
  'one_line "/dev/urandom: is a character device"'
mkfifo "$tmp/fifo.json"
check "report FIFO with no writer: refused at once" 2 "$(run "$report" report "$tmp/fifo.json")" \
  'one_line "fifo.json: is a FIFO (named pipe), not a regular file"'
check "compare Q FIFO: refused at once" 2 "$(run "$report" compare "$Q" "$tmp/fifo.json")" 'one_line "is a FIFO"'
ln -s loop.json "$tmp/loop.json"
check "report of a symbolic link loop: said so, not 'no such file'" 2 "$(run "$report" report "$tmp/loop.json")" \
  'one_line "loop.json: a loop of symbolic links"'
ln -s gone.json "$tmp/dangling.json"
check "report of a dangling link: said so" 2 "$(run "$report" report "$tmp/dangling.json")" \
  'one_line "dangling.json: a symbolic link to a file that does not exist"'
check "report of a missing file" 2 "$(run "$report" report "$tmp/missing.json")" 'one_line "missing.json: no such file"'

# Standard input as "-", within the same limit.
check "report - < Q: read from standard input" 0 "$("$report" report - <"$Q" >"$tmp/out" 2>"$tmp/err"; echo $?)" \
  'grep -q "conv2d" "$tmp/out"'
check "cat Q | report -: read from a pipe" 0 "$(cat "$Q" | "$report" report - >"$tmp/out" 2>"$tmp/err"; echo $?)"
check "report - < /dev/zero: refused at its first byte, not read to the limit" 2 \
  "$(timeout -k 2 5 "$report" report - </dev/zero >"$tmp/out" 2>"$tmp/err"; echo $?)" \
  'one_line "standard input: holds a NUL byte at byte 0: not JSON text"'
check "report - of text over a 1M limit: stops at the limit" 2 \
  "$(yes ' ' | CUDABENCH_MAX_INPUT_SIZE=1M timeout -k 2 20 "$report" report - >"$tmp/out" 2>"$tmp/err"; echo $?)" \
  'one_line "standard input: over 1048576 bytes, the limit on a result file (CUDABENCH_MAX_INPUT_SIZE raises it)"'
check "a file over the limit: refused before it is read" 2 "$(CUDABENCH_MAX_INPUT_SIZE=1K run "$report" report "$Q")" \
  'one_line "h100_quick.json: [0-9]* bytes, over the limit of 1024 bytes"'
check "a limit that is not a byte count: named" 2 "$(CUDABENCH_MAX_INPUT_SIZE=much run "$report" report "$Q")" \
  'one_line "CUDABENCH_MAX_INPUT_SIZE=much: expected a byte count"'
check "the default limit reads the real quick file" 0 "$(run "$report" report "$Q")"

# A trend directory's special entries are named and left out; the regular files make the trend.
mkdir "$tmp/trend"
cp "$fx"/trend/nightly-[0-7].json "$tmp/trend/"
ln -s /dev/zero "$tmp/trend/zero.json"
mkfifo "$tmp/trend/fifo.json"
ln -s loop.json "$tmp/trend/loop.json"
check "trend with a link to /dev/zero, a FIFO and a link loop: those left out, named" 0 "$(run "$report" trend "$tmp/trend")" \
  'grep -q "left out (unreadable): .*zero.json: is a character device" "$tmp/out"' \
  'grep -q "left out (unreadable): .*fifo.json: is a FIFO" "$tmp/out"' \
  'grep -q "left out (unreadable): .*loop.json: a loop of symbolic links" "$tmp/out"' 'grep -q "^8 runs" "$tmp/out"'

# A FIFO as an output: with no reader, refused at once; with one, written.
mkfifo "$tmp/out.fifo"
check "--md FIFO with no reader: refused at once" 2 "$(run "$report" report "$Q" --md "$tmp/out.fifo")" \
  'one_line "out.fifo: a FIFO with no reader: nothing written"'
cat "$tmp/out.fifo" >"$tmp/from-fifo" &
reader=$!
sleep 0.5
check "--md FIFO with a reader: written" 0 "$(run "$report" report "$Q" --md "$tmp/out.fifo")"
wait "$reader"
check "... and the reader got the Markdown" 0 0 'grep -q "^|" "$tmp/from-fifo"'
check "--md '': names the option" 2 "$(run "$report" report "$Q" --md '')" 'one_line "\-\-md needs a file name"'
check "--md and --html both to /dev/null: accepted" 0 "$(run "$report" report "$Q" --md /dev/null --html /dev/null)"

# What a file says: the schema version, duplicate keys, bounds as compared.
for v in 3 0 -1 '"1"' null; do
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j["context"]["cudabench"]["schema_version"] = json.loads(sys.argv[2])
json.dump(j, open(sys.argv[3], "w"))' "$Q" "$v" "$tmp/v.json"
  expected="v.json: field 'context.cudabench.schema_version' is $v; this reader reads versions 1 to 2"
  check "schema_version $v: refused" 2 "$(run "$report" report "$tmp/v.json")" \
    '[ "$(lines "$tmp/err")" = 1 ]' 'grep -qF -- "$expected" "$tmp/err"'
done
sed 's/"real_time": /"real_time": 1, "real_time": /' "$fx/gbench17_single.json" >"$tmp/dup.json"
check "a duplicate key: refused naming the row and key" 2 "$(run "$report" report "$tmp/dup.json")" \
  "one_line \"dup.json: row 1: key 'real_time' appears twice\""
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); b = j["benchmarks"][0]; b["real_time"] = 86400.000001; b["time_unit"] = "s"
json.dump(j, open(sys.argv[2], "w"))' "$Q" "$tmp/day.json"
check "a time just over a day: bounds printed as compared" 2 "$(run "$report" report "$tmp/day.json")" \
  "one_line \"day.json: row 1 ('conv2d/naive/1024'): a time of 86400.000001 s, outside 1e-12 s to 86400 s\""
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j["context"]["device"]["sm_clock_mhz"] = 1e300
json.dump(j, open(sys.argv[2], "w"))' "$Q" "$tmp/clock.json"
check "a clock of 1e300 MHz: refused naming the field" 2 "$(run "$report" compare "$Q" "$tmp/clock.json")" \
  "one_line \"clock.json: field 'context.device.sm_clock_mhz' is 1e+300, outside 0 to 1000000\""

# Nested objects of many keys read in linear time: 10 rows, each with 10,000 throttle reasons in its energy record
# and 10,000 launches in its code identity, 100,000 of each a file (a search a key made this minutes of CPU).
python3 - "$fx/synthetic_base.json" "$tmp/wide.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["context"]["cudabench"]["schema_version"] = 2
rows = [r for r in j["benchmarks"] if r.get("run_type") == "iteration"][:10]
reasons = {"reason_%d" % i: 0.001 for i in range(10000)}
launches = ["kernel k%d sass=0000000000000000 <<<1,1>>>" % i for i in range(10000)]
for r in rows:
    r["energy_j"] = 0.5
    r.setdefault("cudabench", {})["energy"] = {"method": "counter", "window_s": 1.0, "runs": 100, "busy_fraction": 0.9,
                                                "throttle_source": "sampled reasons", "throttle_s": reasons}
    r["cudabench"]["code"] = {"digest": "0123456789abcdef", "streams": 1, "launches": launches}
json.dump(j, open(sys.argv[2], "w"))
EOF
cpu_of() {  # cpu_of CMD...: runs CMD; prints its exit status and the CPU seconds it took (user + system)
  python3 -c 'import resource, subprocess, sys
s = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(s, "%.2f" % (u.ru_utime + u.ru_stime))' "$@"
}
read -r s cpu < <(cpu_of "$report" compare "$tmp/wide.json" "$tmp/wide.json")
echo "compare of 100,000 throttle reasons and launches a side: ${cpu} s of CPU"
check "compare of 100,000 throttle reasons and launches a side: under 1 s of CPU" 0 "$s" \
  "python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= 1)' $cpu"

finish
