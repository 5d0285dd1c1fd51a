#!/usr/bin/env bash
# cudabench-pack with the arguments a user gets wrong: OUTDIR a file, a link to a folder or to nothing, paths
# with spaces (the binary's, OUTDIR's and a bundled library's folder). Needs patchelf and a C compiler.
# Usage: tests/cli_pack_test.sh SOURCE_DIR
set -uo pipefail
pack="$(cd "$1" && pwd)/app/cudabench-pack"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
command -v patchelf >/dev/null 2>&1 || { echo "SKIPPED: no patchelf"; exit 77; }
cc=$(command -v cc || command -v gcc) || { echo "SKIPPED: no C compiler"; exit 77; }

# A binary that needs a library of its own, both in a folder whose name holds a space.
mkdir -p "$tmp/my lib"
echo 'int f(void) { return 3; }' >"$tmp/my lib/f.c"
echo 'int f(void); int main(void) { return f() - 3; }' >"$tmp/m.c"
"$cc" -shared -fPIC -o "$tmp/my lib/libmine.so" "$tmp/my lib/f.c" \
  && "$cc" "$tmp/m.c" -L"$tmp/my lib" -lmine -Wl,-rpath,"$tmp/my lib" -o "$tmp/my lib/my prog" || { echo "FAIL: building the test binary"; exit 1; }
prog="$tmp/my lib/my prog"

s=$(run "$pack" "$prog" "$tmp/out dir/b 1")
check "spaces in the binary's, OUTDIR's and a library's path: bundled" 0 "$s" \
  '[ -x "$tmp/out dir/b 1/my prog" ] && [ -f "$tmp/out dir/b 1/lib/libmine.so" ]' \
  'mv "$tmp/my lib" "$tmp/gone" && "$tmp/out dir/b 1/my prog"'
[ ! -d "$tmp/gone" ] || mv "$tmp/gone" "$tmp/my lib"

: >"$tmp/empty_file"
s=$(run "$pack" "$prog" "$tmp/empty_file")
check "OUTDIR an empty file: refused in one line naming it a file" 2 "$s" one_line 'grep -q "is not a folder" "$tmp/err"' \
  '[ -f "$tmp/empty_file" ] && [ ! -s "$tmp/empty_file" ]'

mkdir "$tmp/target" && ln -s target "$tmp/link"
s=$(run "$pack" "$prog" "$tmp/link")
check "OUTDIR a link to an empty folder: the bundle in that folder" 0 "$s" '[ ! -s "$tmp/err" ]' \
  '[ -x "$tmp/target/my prog" ] && [ -f "$tmp/target/lib/libmine.so" ]' '[ -L "$tmp/link" ]' \
  '[ "$(ls -A "$tmp/target" | sort | paste -sd" ")" = "lib my prog" ]'

ln -s nowhere "$tmp/dangling"
s=$(run "$pack" "$prog" "$tmp/dangling")
check "OUTDIR a link to nothing: refused in one line" 2 "$s" one_line '[ -L "$tmp/dangling" ]' '! ls "$tmp" | grep -q partial'

s=$(run "$pack" "$tmp/m.c" "$tmp/b2")
check "a binary that is not executable: refused in one line" 2 "$s" one_line '[ ! -e "$tmp/b2" ]'
s=$(run "$pack" "$tmp/nosuch" "$tmp/b3")
check "a missing binary: refused in one line" 2 "$s" one_line '[ ! -e "$tmp/b3" ]'
printf '#!/bin/sh\necho hi\n' >"$tmp/script" && chmod +x "$tmp/script"
s=$(run "$pack" "$tmp/script" "$tmp/b4")
check "an executable that is no ELF binary: refused in one line, without ldd's tab" 2 "$s" one_line \
  'grep -qx "cudabench-pack: .*script: ldd cannot read it: not a dynamic executable" "$tmp/err"' '[ ! -e "$tmp/b4" ]'
finish
