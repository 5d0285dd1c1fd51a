#!/usr/bin/env bash
# End-to-end tests of a command's outputs as one: `compare` and `report` stopped by SIGTERM while they write
# leave every output as it was before or every one new, never a mix; a write error on one output (a full
# disk: /dev/full, and a 64 KiB tmpfs where this machine lets it be mounted) replaces none and says so; a
# device node, a FIFO and a symbolic link's target are still written in place.
# Usage: tests/cli_all_or_nothing_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
trap 'umount "$tmp/disk" 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDA_VISIBLE_DEVICES=

make="$src/tools/scale/make_results.py"
python3 "$make" --rows 20000 --out "$tmp/base.json" >/dev/null && python3 "$make" --rows 20000 --slower 10 --out "$tmp/cur.json" >/dev/null \
  || { echo "FAIL: making the inputs"; exit 1; }
outputs() { echo --md "$1/c.md" --html "$1/c.html" --csv "$1/c.csv" --verdict "$1/v.json"; }
files=(c.md c.html c.csv v.json)
mkdir -p "$tmp/old" "$tmp/new" "$tmp/o"
# The old outputs (base against itself) and the new ones (base against the slower side), each a whole set.
# shellcheck disable=SC2046  # the options as words
"$report" compare "$tmp/base.json" "$tmp/base.json" $(outputs "$tmp/old") >/dev/null 2>&1
# shellcheck disable=SC2046
"$report" compare "$tmp/base.json" "$tmp/cur.json" $(outputs "$tmp/new") >/dev/null 2>&1
same_set() {  # same_set DIR FILE...: each FILE in $tmp/o is the one in DIR
  local dir=$1 f
  shift
  for f in "$@"; do cmp -s "$tmp/o/$f" "$dir/$f" || return 1; done
}
fresh() { rm -rf "$tmp/o" && mkdir "$tmp/o" && cp "$tmp/old"/* "$tmp/o/"; }
no_temporaries='[ -z "$(ls "$tmp/o" | grep "\.tmp\.")" ]'

# stop_while_writing AFTER_S CMD...: runs CMD and sends SIGTERM AFTER_S seconds after the first temporary
# appears in $tmp/o (its outputs being written); prints its exit status, its standard error in $tmp/err.
stop_while_writing() {
  python3 - "$@" <<'EOF'
import os, signal, subprocess, sys, time
after, cmd = float(sys.argv[1]), sys.argv[2:]
out = os.environ["TMP_DIR"] + "/o"
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(os.environ["TMP_DIR"] + "/err", "w"))
deadline = time.monotonic() + 60
while p.poll() is None and time.monotonic() < deadline and not any(".tmp." in f for f in os.listdir(out)):
    time.sleep(0.001)
if p.poll() is None:
    time.sleep(after)
    p.send_signal(signal.SIGTERM)
try:
    p.wait(30)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
print(128 - p.returncode if p.returncode < 0 else p.returncode)
EOF
}
export TMP_DIR=$tmp

# stopped_check WHAT AFTER STATUS FILE...: the stopped command left every FILE as it was, with one line saying
# so and exit 143; or, the signal having come once all were renamed (or after its end), every FILE new.
stopped_check() {
  local what=$1 after=$2 s=$3
  shift 3
  if [ "$s" = 143 ] && grep -q "no output was replaced" "$tmp/err"; then
    check "$what stopped by SIGTERM ${after} s into writing: exit 143, one line, every output as it was" 143 "$s" \
      "one_line \"$what: interrupted by SIGTERM; no output was replaced\"" "same_set \"\$tmp/old\" $*" "$no_temporaries"
  else
    check "$what stopped by SIGTERM ${after} s into writing, after its renames: every output new" "$s" "$s" \
      '[ "$s" = 0 ] || [ "$s" = 1 ] || one_line "its outputs were written before it"' "same_set \"\$tmp/new\" $*" "$no_temporaries"
  fi
}

# compare stopped while it writes, at several points of its writing: all old, or all new, never a mix.
for after in 0 0.01 0.03 0.06 0.1 0.3; do
  fresh
  # shellcheck disable=SC2046  # the options as words
  s=$(stop_while_writing "$after" "$report" compare "$tmp/base.json" "$tmp/cur.json" $(outputs "$tmp/o"))
  stopped_check compare "$after" "$s" "${files[@]}"
done

# report stopped while it writes: the same.
report_outputs() { echo --md "$1/r.md" --html "$1/r.html" --csv "$1/r.csv"; }
# shellcheck disable=SC2046
"$report" report "$tmp/base.json" $(report_outputs "$tmp/old") >/dev/null 2>&1
# shellcheck disable=SC2046
"$report" report "$tmp/cur.json" $(report_outputs "$tmp/new") >/dev/null 2>&1
for after in 0 0.1; do
  fresh
  # shellcheck disable=SC2046
  s=$(stop_while_writing "$after" "$report" report "$tmp/cur.json" $(report_outputs "$tmp/o"))
  stopped_check report "$after" "$s" r.md r.html r.csv
done

# A write error on one output (a full disk: /dev/full, written in place, comes third): none replaced, said so.
fresh
s=$(run "$report" compare "$tmp/base.json" "$tmp/cur.json" --md "$tmp/o/c.md" --html "$tmp/o/c.html" --csv /dev/full --verdict "$tmp/o/v.json")
check "compare with --csv on a full disk: exit 2, one line, the other outputs as they were" 2 "$s" \
  'one_line "/dev/full: write failed: No space left on device; no output was replaced"' 'same_set "$tmp/old" "${files[@]}"' "$no_temporaries"
fresh
s=$(run "$report" report "$tmp/cur.json" --md "$tmp/o/r.md" --html "$tmp/o/r.html" --csv /dev/full)
check "report with --csv on a full disk: exit 2, one line, --md and --html as they were" 2 "$s" \
  'one_line "no output was replaced"' 'cmp -s "$tmp/o/r.md" "$tmp/old/r.md" && cmp -s "$tmp/o/r.html" "$tmp/old/r.html"' "$no_temporaries"

# A disk that fills up while the outputs are written: a 64 KiB tmpfs holding the old outputs of a small compare.
mkdir "$tmp/disk"
if mount -t tmpfs -o size=64k tmpfs "$tmp/disk" 2>/dev/null; then
  fx="$src/tests/fixtures"
  "$report" compare "$fx/h100_quick.json" "$fx/h100_quick.json" --md "$tmp/disk/c.md" --verdict "$tmp/disk/v.json" >/dev/null
  cp "$tmp/disk/c.md" "$tmp/c.md.kept" && cp "$tmp/disk/v.json" "$tmp/v.json.kept"
  s=$(run "$report" compare "$tmp/base.json" "$tmp/cur.json" --md "$tmp/disk/c.md" --verdict "$tmp/disk/v.json")
  check "compare onto a full tmpfs: exit 2, one line, every output as it was, no temporary" 2 "$s" \
    'one_line "No space left on device; no output was replaced"' 'cmp -s "$tmp/disk/c.md" "$tmp/c.md.kept"' \
    'cmp -s "$tmp/disk/v.json" "$tmp/v.json.kept"' '[ "$(ls "$tmp/disk" | wc -l)" = 2 ]'
  s=$(run "$report" report "$tmp/cur.json" --md "$tmp/disk/c.md" --csv "$tmp/disk/r.csv")
  check "report onto a full tmpfs: exit 2, one line, nothing replaced or added" 2 "$s" \
    'one_line "no output was replaced"' 'cmp -s "$tmp/disk/c.md" "$tmp/c.md.kept"' '[ "$(ls "$tmp/disk" | wc -l)" = 2 ]'
  umount "$tmp/disk"
else
  echo "skip the full tmpfs: this machine does not let a test mount one"
fi

# A device node, a FIFO and a symbolic link's target are written in place with the rest: never replaced.
fx="$src/tests/fixtures"
fresh
mkfifo "$tmp/o/pipe.csv"
ln -s "$tmp/o/c.md" "$tmp/o/link.md"
cat "$tmp/o/pipe.csv" >"$tmp/piped.csv" &
reader=$!
s=$(run "$report" compare "$fx/h100_quick.json" "$fx/h100_quick.json" --md "$tmp/o/link.md" --csv "$tmp/o/pipe.csv" \
    --html /dev/null --verdict "$tmp/o/v.json")
wait "$reader"
check "compare onto a link, a FIFO and /dev/null: each written where it points, none replaced" 0 "$s" \
  '[ -L "$tmp/o/link.md" ] && [ -p "$tmp/o/pipe.csv" ] && [ -c /dev/null ]' 'grep -q "^## Benchmark comparison" "$tmp/o/c.md"' \
  'grep -q "^name,status" "$tmp/piped.csv"' '! cmp -s "$tmp/o/v.json" "$tmp/old/v.json"' "$no_temporaries"
# A file replaced keeps its mode: a read-only report stays read-only, a private one private.
"$report" report "$fx/h100_quick.json" --md "$tmp/ro.md" --csv "$tmp/private.csv" >/dev/null
chmod 0444 "$tmp/ro.md" && chmod 0600 "$tmp/private.csv" && cp "$tmp/ro.md" "$tmp/ro.before"
s=$(run "$report" report "$tmp/base.json" --md "$tmp/ro.md" --csv "$tmp/private.csv")
check "report --md over a 0444 file and --csv over a 0600 one: replaced, each keeps its mode" 0 "$s" \
  '! cmp -s "$tmp/ro.md" "$tmp/ro.before"' '[ "$(stat -c %a "$tmp/ro.md")" = 444 ] && [ "$(stat -c %a "$tmp/private.csv")" = 600 ]'

finish
