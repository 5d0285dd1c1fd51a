# Sourced by the CLI test scripts (tests/cli_*_test.sh): a scratch directory removed on exit, check and run,
# one_line and py for the checks' conditions, and the closing count. Not a test itself.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # check NAME EXPECTED_STATUS ACTUAL_STATUS [CONDITION...]
  local name=$1 want=$2 got=$3
  shift 3
  if [ "$want" != "$got" ]; then echo "FAIL $name: exit status $got, want $want"; fail=$((fail + 1)); return; fi
  for cond in "$@"; do
    if ! eval "$cond"; then echo "FAIL $name: $cond"; fail=$((fail + 1)); return; fi
  done
  echo "ok   $name"; pass=$((pass + 1))
}
run() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }  # its exit status; its output in $tmp/out and $tmp/err
# one_line [PATTERN]: the command said exactly one line on standard error (holding PATTERN).
one_line() { [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] && grep -q -- "${1:-}" "$tmp/err"; }
# py EXPR FILE: a Python statement over the JSON in FILE, bound to j (its exit status is the check).
py() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); $1" "$2"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; }
