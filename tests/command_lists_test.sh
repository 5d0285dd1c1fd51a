#!/usr/bin/env bash
# The docs' lists of the commands are the command table's: options_doc fails on a <!-- commands --> block that
# lacks a command of the table (as one would once a command is added), and on a list of the commands kept by
# hand outside such a block; --write makes a block the table's again. Each on a scratch copy of the docs.
# Usage: tests/command_lists_test.sh OPTIONS_DOC SOURCE_DIR
set -uo pipefail
options_doc=$1
src=$(cd "$2" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
copy() { rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/app" && cp -r "$src/README.md" "$src/docs" "$tmp/tree/" \
  && cp "$src/app/README.md" "$tmp/tree/app/"; }

copy
check "the docs as they are" 0 "$(run "$options_doc" "$tmp/tree")"
sed -i 's/, `fleet` and `store`<!-- \/commands -->/ and `fleet`<!-- \/commands -->/' "$tmp/tree/docs/ci.md"
check "a block without store: fails, naming the file" 1 "$(run "$options_doc" "$tmp/tree")" \
  "grep -q 'docs/ci.md: a command list differs' '$tmp/err'"
check "--write makes it the table's" 0 "$(run "$options_doc" --write "$tmp/tree")" \
  "grep -q '<!-- commands -->\`compare\`, \`confirm\`, .* and \`store\`<!-- /commands -->' '$tmp/tree/docs/ci.md'"
check "and then it passes" 0 "$(run "$options_doc" "$tmp/tree")"

copy
printf '\nThe commands `compare`, `report`,\n`trend` and `gates` read results.\n' >>"$tmp/tree/app/README.md"
check "a list kept by hand: fails" 1 "$(run "$options_doc" "$tmp/tree")" \
  "grep -q 'app/README.md: a list of the commands kept by hand' '$tmp/err'"
copy
printf '\nRun `./run_bench compare|report|trend|fleet ...`.\n' >>"$tmp/tree/docs/extending.md"
check "a list as alternatives: fails" 1 "$(run "$options_doc" "$tmp/tree")" \
  "grep -q 'extending.md: a list of the commands kept by hand' '$tmp/err'"
copy
printf '\nIts gates, every report, the trend and a bisect.\n' >>"$tmp/tree/docs/ci.md"
check "command words in prose: no list" 0 "$(run "$options_doc" "$tmp/tree")"
finish
