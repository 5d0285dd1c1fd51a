#!/usr/bin/env bash
# Makes a throwaway history for a bisect on a GPU machine: a clone of HEAD, then COUNT commits on the branch
# bisect-demo, the one at POSITION a real kernel change (reduce_fast launches one block per SM instead of
# eight, so reduce/fast loses most of its memory parallelism), the others touching only a scratch note; the
# branch starts from one commit holding HEAD's tree.
# The history goes into .devlibs/bisect.bundle (git bundle) and the expected answer into .devlibs/bisect.expect,
# for validation/device_bisect.sh.  Usage: validation/bisect_branch.sh [COUNT [POSITION]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count=${1:-8} position=${2:-5}
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/repo"
cd "$work/repo"
# One commit holding HEAD's tree starts the branch, so the bundle carries one snapshot, not the history.
git checkout -q --orphan bisect-demo
git -c user.email=demo@example.com -c user.name=demo commit -qm "bisect demo: the tree of $(git -C "$root" rev-parse --short HEAD)"
git config user.email demo@example.com
git config user.name demo
good=$(git rev-parse HEAD)
for i in $(seq 1 "$count"); do
  if [ "$i" = "$position" ]; then
    grep -q 'std::size_t(8) \* sm_count()' kernels/reduce.cu || { echo "bisect_branch.sh: kernels/reduce.cu has changed; update the demo change" >&2; exit 2; }
    sed -i 's/std::size_t(8) \* sm_count()/std::size_t(1) * sm_count()/' kernels/reduce.cu
    git commit -qam "reduce_fast: one block per SM"
    culprit=$(git rev-parse HEAD)
  else
    echo "step $i" >>bisect-demo.txt
    git add bisect-demo.txt
    git commit -qm "bisect demo: step $i (no code)"
  fi
done
mkdir -p "$root/.devlibs"
git bundle create -q "$root/.devlibs/bisect.bundle" bisect-demo
printf 'good=%s\nculprit=%s\n' "$good" "$culprit" >"$root/.devlibs/bisect.expect"
echo "bisect demo: $count commits on $good, the kernel change $culprit at $position; .devlibs/bisect.bundle"
