#!/usr/bin/env bash
# Runs a fuzz target's replay and checks that it left no scratch directory (PREFIX-*, such as trend-fuzz-*)
# behind, in $TMPDIR (a fresh one) or in /dev/shm.
# Usage: tests/fuzz/replay_leaves_nothing.sh PREFIX REPLAY_BINARY INPUT...
set -uo pipefail
prefix=$1 replay=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
listing() { ls -d /dev/shm/"$prefix"-* "$tmp"/"$prefix"-* 2>/dev/null | sort; }
before=$(listing)
TMPDIR="$tmp" "$replay" "$@" || exit 1
left=$(comm -13 <(echo "$before") <(listing))
[ -z "$left" ] || { echo "FAIL: left behind: $left"; exit 1; }
echo "ok: no scratch directory left behind"
