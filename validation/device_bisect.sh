#!/usr/bin/env bash
# On a GPU machine: bisects the throwaway history validation/bisect_branch.sh packed into
# .devlibs/bisect.bundle over reduce/fast/16777216, building each tested revision there (the suite's default
# build, RE2 from .devlibs/re2), and checks that the first bad commit is the kernel change. Results under $OUT.
# Usage (from the repository root, .devlibs carried): bash validation/device_bisect.sh [BINARY_ARGS...]
#   default BINARY_ARGS: --preset=quick --rounds=3 --repetitions=6
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
command -v git >/dev/null || { echo "device_bisect.sh: no git on this machine" >&2; exit 2; }
[ -f "$root/.devlibs/bisect.bundle" ] || { echo "device_bisect.sh: run validation/bisect_branch.sh first" >&2; exit 2; }
. "$root/.devlibs/bisect.expect"
# Each revision's binary records the revision it was built from, not the packed one device_env.sh names.
unset CUDABENCH_GIT_REVISION CUDABENCH_GIT_DIRTY
repo=$(mktemp -d)/repo
git clone -q -b bisect-demo "$root/.devlibs/bisect.bundle" "$repo" || exit 2
export PKG_CONFIG_PATH="$root/.devlibs/re2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
args=("$@"); [ ${#args[@]} -gt 0 ] || args=(--preset=quick --rounds=3 --repetitions=6)
start=$SECONDS
(cd "$repo" \
  && "$report" bisect --good="$good" --bad=bisect-demo --filter='^reduce/fast/16777216$' --json "$out/bisect.json" \
       -- "${args[@]}") 2>&1 | tee "$out/bisect.txt"
rc=${PIPESTATUS[0]}
found=$(python3 -c 'import json,sys; print((json.load(open(sys.argv[1])).get("first_bad") or {}).get("commit", ""))' "$out/bisect.json" 2>/dev/null)
echo "bisect: exit $rc, $((SECONDS - start)) s; first bad ${found:0:12}, the kernel change ${culprit:0:12}: $([ "$found" = "$culprit" ] && echo found || echo NOT found)"
