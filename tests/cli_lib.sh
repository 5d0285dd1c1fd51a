# Sourced by the CLI test scripts (tests/cli_*_test.sh): a scratch directory removed on exit, check and run,
# and the closing count. Not a test itself.
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
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; }
