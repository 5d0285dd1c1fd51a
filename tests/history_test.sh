#!/usr/bin/env bash
# The history store (ci/history.sh) against a local bare repository as the remote: fetched into two checkouts of
# the repository (which stay whole, not shallow), runs and verdicts added and pushed with retention, a push that
# races another taken in on top of it, trend, gates and fleet reading the fetched store, ci/nightly.sh filing its
# run into it and following its trend. A store nothing escapes: symbolic links, other non-regular files and names
# outside the layout refused (on the branch and in the folder) with nothing written; retention by the time each
# run was recorded, whatever its name; six runners pushing at once all land, the gates covering every run. Bad
# input one line and exit 2. The branch kept at one commit (push replaces it, against the commit it fetched), so
# what retention removed is in no object the branch reaches and its size stays that of the kept runs. And
# ci/baseline.sh: --preset honoured with a result file (a run of another preset refused, nothing stored), gates
# learned from a history store. And the store command the scripts ask where a result's files go.
# Usage: tests/history_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$(cd "$2" && pwd)
source "$src/tests/cli_lib.sh"
fx="$src/tests/fixtures" h="$src/ci/history.sh"
model=NVIDIA_H100_80GB_HBM3
export RUN_BENCH=$report  # the gates learned with the report binary, not by building run_bench
git init -q --bare "$tmp/origin.git"
for c in a b; do
  git init -q "$tmp/$c" && git -C "$tmp/$c" remote add origin "$tmp/origin.git"
  git -C "$tmp/$c" -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false commit -q --allow-empty -m code
done
git -C "$tmp/a" push -q origin HEAD:main 2>/dev/null
# night K STAMP: the trend fixture K as the run of a night at STAMP
night() { mkdir -p "$tmp/nights" && cp "$fx/trend/nightly-$1.json" "$tmp/nights/nightly-$2.json" && echo "$tmp/nights/nightly-$2.json"; }
"$report" compare "$fx/trend/nightly-0.json" "$fx/trend/nightly-1.json" --verdict "$tmp/verdict.json" >/dev/null

s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-a"); check "fetch: the branch not there yet starts empty" 0 "$s" \
  'grep -q "cudabench-history of origin in .*store-a (0 run(s))" "$tmp/out"' '[ -z "$(ls "$tmp/store-a")" ]'
for k in 0 1 2; do
  s=$(run bash "$h" add "$tmp/store-a" "$(night $k 2026010${k}T020000Z)" "$tmp/verdict.json") || true
done
check "add: the run under <model>/<preset>/runs, its verdict beside" 0 "$s" '[ -f "$tmp/store-a/$model/nightly/runs/nightly-20260102T020000Z.json" ]' \
  '[ -f "$tmp/store-a/$model/nightly/verdict-20260102T020000Z.json" ]'
s=$(run bash "$h" push "$tmp/store-a" --keep=2)
git -C "$tmp/origin.git" ls-tree -r --name-only cudabench-history >"$tmp/tree"
check "push --keep=2: the 2 newest runs and their verdicts on the remote branch, the oldest gone, the gates learned from those 2" 0 "$s" \
  '[ "$(cat "$tmp/tree" | paste -sd" ")" = "$model/nightly/gates.json $model/nightly/runs/nightly-20260101T020000Z.json $model/nightly/runs/nightly-20260102T020000Z.json $model/nightly/verdict-20260101T020000Z.json $model/nightly/verdict-20260102T020000Z.json" ]' \
  'git -C "$tmp/origin.git" show "cudabench-history:$model/nightly/gates.json" >"$tmp/g.json" && py "assert len(j[\"runs\"]) == 2, j[\"runs\"]" "$tmp/g.json"' \
  || cat "$tmp/tree"
s=$(run bash "$h" push "$tmp/store-a"); check "push with nothing new: said, exit 0" 0 "$s" 'grep -q "nothing new" "$tmp/out"'
# reach REF: every path the objects REF reaches name (what a clone or fetch of it downloads).
reach() { git -C "$tmp/origin.git" rev-list --objects "$1" | cut -s -d' ' -f2- | sort -u; }
check "the branch is one commit: the run retention removed is in no object it reaches" 0 0 \
  '[ "$(git -C "$tmp/origin.git" rev-list --count cudabench-history)" = 1 ]' '! reach cudabench-history | grep -q "nightly-20260100T020000Z"' \
  'reach cudabench-history | grep -q "nightly-20260101T020000Z"'
shallow() { git -C "$1" rev-parse --is-shallow-repository; }
[ "$(shallow "$tmp/b")" = false ] || echo "FAIL the checkout is shallow before the fetch"
s=$(cd "$tmp/b" && run bash "$h" fetch "$tmp/store-b"); check "fetch on another runner: the kept runs, the repository not made shallow" 0 "$s" \
  'grep -q "(2 run(s))" "$tmp/out"' '[ "$(shallow "$tmp/b")" = false ]'
# Both runners add a night; b pushes first, a's push is refused, takes b's in and goes on top of it.
run bash "$h" add "$tmp/store-b" "$(night 3 20260103T020000Z)" >/dev/null
run bash "$h" add "$tmp/store-a" "$(night 4 20260104T020000Z)" "$tmp/verdict.json" >/dev/null
run bash "$h" push "$tmp/store-b" --keep=3 >/dev/null
s=$(run bash "$h" push "$tmp/store-a" --keep=3)
git -C "$tmp/origin.git" ls-tree -r --name-only cudabench-history >"$tmp/tree"
check "two runners push at once: the second takes the first's push in, both nights kept, retention over both" 0 "$s" \
  'grep -q "moved on (another push)" "$tmp/err"' '[ "$(grep -c "/runs/" "$tmp/tree")" = 3 ]' 'grep -q "nightly-20260104T020000Z.json" "$tmp/tree"' \
  'grep -q "nightly-20260103T020000Z.json" "$tmp/tree"' '! grep -q "nightly-20260101T" "$tmp/tree"' || { cat "$tmp/err" "$tmp/tree"; }
check "a push that takes another in leaves the repository whole (not shallow)" 0 0 '[ "$(shallow "$tmp/a")" = false ]'
check "and the branch is still one commit" 0 0 '[ "$(git -C "$tmp/origin.git" rev-list --count cudabench-history)" = 1 ]'
s=$(cd "$tmp/b" && run bash "$h" fetch "$tmp/store-b"); check "fetch again into the same directory: brought up to date" 0 "$s" 'grep -q "(3 run(s))" "$tmp/out"' \
  '[ -f "$tmp/store-b/$model/nightly/runs/nightly-20260104T020000Z.json" ]'
runs="$tmp/store-b/$model/nightly/runs"
s=$(run "$report" trend "$runs"); check "trend reads the store's runs of a model and preset" 0 "$s" 'grep -q "^3 runs: nightly-20260102T020000Z.json .. nightly-20260104T020000Z.json" "$tmp/out"'
s=$(run "$report" gates "$runs" --min-runs=3 --out "$tmp/g.json"); check "gates learns from them" 0 "$s" 'py "assert j[\"runs\"] == 3 or len(j[\"cases\"]) > 0, j.keys()" "$tmp/g.json"'
s=$(run "$report" fleet "$tmp/store-b/$model/nightly"); check "fleet reads its newest run and that run's verdict" 0 "$s" \
  'grep -q "nightly-20260104T020000Z.json" "$tmp/out"'
# ci/nightly.sh with a stand-in runner, its run filed into the store and its trend over the store's runs.
printf '#!/bin/sh\ncase "$1" in compare|report|trend|gates|store) exec "%s" "$@";; esac\nwhile [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$NIGHT" "$2"; shift; done\n' "$report" >"$tmp/fake-run"
chmod +x "$tmp/fake-run"
mkdir -p "$tmp/bl/$model" && cp "$fx/trend/nightly-0.json" "$tmp/bl/$model/nightly.json"
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" NIGHT="$fx/trend/nightly-5.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" \
    CUDABENCH_HISTORY_DIR="$tmp/store-b" run bash "$src/ci/nightly.sh" "$tmp/results")
check "ci/nightly.sh with CUDABENCH_HISTORY_DIR: the run and verdict filed there, the trend over its 4 runs, the gates learned again" 0 "$s" \
  '[ "$(ls "$runs" | wc -l)" = 4 ]' '[ "$(ls "$tmp/store-b/$model/nightly"/verdict-*.json | wc -l)" = 3 ]' 'grep -q "^## Trend over 4 nights" "$tmp/summary.md"' \
  '[ -f "$tmp/store-b/$model/nightly/gates.json" ]' || { cat "$tmp/err"; ls -R "$tmp/store-b"; }
s=$(run bash "$h" push "$tmp/store-b" --keep=3); git -C "$tmp/origin.git" ls-tree -r --name-only cudabench-history >"$tmp/tree"
check "and pushed: 3 kept, with the verdicts of those kept and the gates" 0 "$s" '[ "$(grep -c "/runs/" "$tmp/tree")" = 3 ]' '[ "$(grep -c "/verdict-" "$tmp/tree")" = 2 ]' \
  'grep -q "^$model/nightly/gates.json$" "$tmp/tree"'

# A push the remote refuses (a hook standing for a token that may not write): what failed, at which URL, git's whole
# message and what to check; exit 1, not taken for another runner's push. Then a remote whose URL holds a token and
# refuses the connection: the token hidden.
printf '#!/bin/sh\necho "error: permission to cudabench-history denied to this token (403)" >&2\necho "error: second line of the reason" >&2\nexit 1\n' \
  >"$tmp/origin.git/hooks/pre-receive" && chmod +x "$tmp/origin.git/hooks/pre-receive"
run bash "$h" add "$tmp/store-b" "$(night 6 20260106T020000Z)" >/dev/null
s=$(run bash "$h" push "$tmp/store-b" --keep=3)
check "a push the remote refuses: what failed and where, git's whole message, what to check" 1 "$s" \
  'grep -q "^ci/history.sh: cannot push to cudabench-history (origin: .*origin.git); git said:$" "$tmp/err"' \
  'grep -q "^  remote: error: permission to cudabench-history denied to this token (403)" "$tmp/err"' \
  'grep -q "^  remote: error: second line of the reason" "$tmp/err"' 'grep -q "pre-receive hook declined" "$tmp/err"' \
  'grep -q "^  check: the remote.s URL (git remote get-url origin); that the job.s token may write" "$tmp/err"' \
  '! grep -q "moved on" "$tmp/err"'
rm "$tmp/origin.git/hooks/pre-receive"
git -C "$tmp/b" remote set-url origin "https://x-access-token:s3cr3t@127.0.0.1:9/o.git"
s=$(run timeout 60 bash "$h" push "$tmp/store-b" --keep=3)
check "a push to a URL holding a token that cannot be reached: the token never shown" 1 "$s" \
  'grep -q "^ci/history.sh: cannot push to cudabench-history (origin: https://\*\*\*@127.0.0.1:9/o.git); git said:$" "$tmp/err"' \
  'grep -q "127.0.0.1" "$tmp/err"' '! grep -q s3cr3t "$tmp/err"'
git -C "$tmp/b" remote set-url origin "$tmp/origin.git"
s=$(run bash "$h" push "$tmp/store-b" --keep=3); check "the same push once the remote takes it" 0 "$s" 'grep -q "^history: pushed" "$tmp/out"'

# A store nothing escapes. plant BRANCH: the files in $tmp/plant (links and all) committed as origin's BRANCH.
plant() {
  rm -rf "$tmp/planter" && git init -q "$tmp/planter" && cp -a "$tmp/plant/." "$tmp/planter/" && git -C "$tmp/planter" add -A \
    && git -C "$tmp/planter" -c user.name=t -c user.email=t@example.com -c commit.gpgsign=false commit -q -m plant \
    && git -C "$tmp/planter" push -q -f "$tmp/origin.git" "HEAD:refs/heads/$1"
}
tip() { git -C "$tmp/origin.git" rev-parse -q --verify "refs/heads/$1"; }
mkdir -p "$tmp/outside" "$tmp/plant" && ln -s "$tmp/outside" "$tmp/plant/$model" && plant linked
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-l" --branch=linked)
check "fetch of a branch holding a symbolic link: one line, exit 2, no store made" 2 "$s" 'one_line "holds NVIDIA_H100_80GB_HBM3, a symbolic link on its branch"' \
  '[ ! -e "$tmp/store-l" ]'
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-l" --branch=linkfree) && ln -s "$tmp/outside" "$tmp/store-l/$model"
s=$(run bash "$h" add "$tmp/store-l" "$(night 1 20260101T020000Z)" "$tmp/verdict.json")
check "add into a store whose folder holds a link to a directory outside it: one line, exit 2, nothing written there" 2 "$s" \
  'one_line "holds NVIDIA_H100_80GB_HBM3, a symbolic link"' '[ -z "$(ls -A "$tmp/outside")" ]'
s=$(run bash "$h" push "$tmp/store-l"); check "push of that store: one line, exit 2, nothing pushed" 2 "$s" 'one_line "a symbolic link"' '[ -z "$(tip linkfree)" ]'
rm "$tmp/store-l/$model" && mkdir -p "$tmp/store-l/$model/nightly/runs" && mkfifo "$tmp/store-l/$model/nightly/runs/nightly-20260101T020000Z.json"
s=$(run timeout 60 bash "$h" push "$tmp/store-l")
check "push of a store holding a pipe: one line, exit 2, nothing pushed" 2 "$s" 'one_line "neither a regular file nor a directory"' '[ -z "$(tip linkfree)" ]'
rm -rf "$tmp/store-l/$model"
run bash "$h" add "$tmp/store-l" "$(night 1 20260101T020000Z)" >/dev/null
rm -rf "$tmp/plant" && mkdir -p "$tmp/plant" && ln -s "$tmp/outside" "$tmp/plant/$model" && plant linkfree
s=$(run bash "$h" push "$tmp/store-l")
check "push when the branch moved on to a commit holding a link: one line, exit 2, nothing written outside, the branch as it was" 2 "$s" \
  'one_line "a symbolic link on its branch"' '[ -z "$(ls -A "$tmp/outside")" ]' '[ "$(tip linkfree)" = "$(git -C "$tmp/planter" rev-parse HEAD)" ]'

rm -rf "$tmp/plant" && mkdir -p "$tmp/plant/$model/nightly/runs" && cp "$fx/trend/nightly-1.json" "$tmp/plant/$model/nightly/runs/nightly-20260101T020000Z.json"
echo junk >"$tmp/plant/zzz.json" && plant junk
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-j" --branch=junk)
check "fetch of a branch holding a name outside the layout: one line, exit 2, no store made" 2 "$s" 'one_line "holds zzz.json, a name outside its layout"' '[ ! -e "$tmp/store-j" ]'
rm "$tmp/plant/zzz.json" && plant junk && (cd "$tmp/a" && bash "$h" fetch "$tmp/store-j" --branch=junk >/dev/null)
for f in zzz.json "$model/nightly/runs/nightly-latest.json" "$model/nightly/notes.txt"; do
  cp "$fx/trend/nightly-0.json" "$tmp/store-j/$f"
  s=$(run bash "$h" push "$tmp/store-j" --keep=1)
  check "push of a store holding $f: one line, exit 2, nothing removed or pushed" 2 "$s" 'one_line "a name outside its layout"' \
    '[ "$(tip junk)" = "$(git -C "$tmp/planter" rev-parse HEAD)" ]' '[ -f "$tmp/store-j/$model/nightly/runs/nightly-20260101T020000Z.json" ]'
  rm "$tmp/store-j/$f"
done
echo '{}' >"$tmp/store-j/$model/nightly/runs/nightly-20260102T020000Z.json"
s=$(run bash "$h" push "$tmp/store-j" --keep=1)
check "push of a store holding a run that says no time it was recorded: one line, exit 2" 2 "$s" 'one_line "nightly-20260102T020000Z.json, a run that says no time"' \
  '[ "$(tip junk)" = "$(git -C "$tmp/planter" rev-parse HEAD)" ]'
rm "$tmp/store-j/$model/nightly/runs/nightly-20260102T020000Z.json"

# A run that does not parse, or recorded in the future (which retention by time would keep forever): refused by
# fetch on the branch, by add, and by push in the folder.
dated() {  # dated K WHEN NAME: the trend fixture K recorded at WHEN, as $tmp/nights/NAME
  python3 -c "import json, sys; j = json.load(open(sys.argv[1])); j['context']['cudabench']['started_utc'] = j['context']['date'] = sys.argv[2]; json.dump(j, open(sys.argv[3], 'w'))" \
    "$fx/trend/nightly-$1.json" "$2" "$tmp/nights/$3" && echo "$tmp/nights/$3"
}
rm -rf "$tmp/plant" && mkdir -p "$tmp/plant/$model/nightly/runs" && echo '{"context": ' >"$tmp/plant/$model/nightly/runs/nightly-20260101T020000Z.json" && plant garbage
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-g" --branch=garbage)
check "fetch of a branch holding a run that does not parse: one line, exit 2, no store made" 2 "$s" 'one_line "nightly-20260101T020000Z.json, a run that does not parse"' '[ ! -e "$tmp/store-g" ]'
rm -rf "$tmp/plant" && mkdir -p "$tmp/plant/$model/nightly/runs" && echo 'x' >"$tmp/plant/$model/nightly/gates.json" && plant garbage
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-g" --branch=garbage)
check "fetch of a branch holding gates that do not parse: one line, exit 2, no store made" 2 "$s" 'one_line "gates.json, a file that is not a JSON object"' '[ ! -e "$tmp/store-g" ]'
rm -rf "$tmp/plant" && mkdir -p "$tmp/plant/$model/nightly/runs" && cp "$(dated 1 9999-12-31T00:00:00Z nightly-99991231T000000Z.json)" "$tmp/plant/$model/nightly/runs/" && plant future
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-f" --branch=future)
check "fetch of a branch holding a run recorded in 9999: one line, exit 2, no store made" 2 "$s" 'one_line "recorded in the future (9999-12-31T00:00:00Z)"' '[ ! -e "$tmp/store-f" ]'
(cd "$tmp/a" && bash "$h" fetch "$tmp/store-f" --branch=future2 >/dev/null)
s=$(run bash "$h" add "$tmp/store-f" "$(dated 1 9999-12-31T00:00:00Z nightly-99991231T000000Z.json)")
check "add of a run recorded in 9999 and named for it: one line, exit 2, nothing filed" 2 "$s" 'one_line "recorded in the future"' '[ -z "$(ls "$tmp/store-f")" ]'
s=$(run bash "$h" add "$tmp/store-f" "$(dated 1 2027-06-01T00:00:00+00:00 nightly-x.json)")
check "add of a run recorded months ahead, named otherwise: one line, exit 2" 2 "$s" 'one_line "recorded in the future (2027-06-01"'
s=$(run bash "$h" add "$tmp/store-f" "$(dated 1 "$(date -u -d '+2 hours' +%Y-%m-%dT%H:%M:%SZ)" nightly-soon.json)")
check "add of a run two hours ahead (another runner's clock): filed" 0 "$s" || cat "$tmp/err"
mkdir -p "$tmp/store-f/$model/nightly/runs" && cp "$(dated 2 9999-12-31T00:00:00Z nightly-99991231T000000Z.json)" "$tmp/store-f/$model/nightly/runs/"
s=$(run bash "$h" push "$tmp/store-f" --keep=1)
check "push of a store holding a run recorded in 9999: one line, exit 2, nothing removed or pushed" 2 "$s" 'one_line "recorded in the future"' \
  '[ -z "$(tip future2)" ]' '[ "$(ls "$tmp/store-f/$model/nightly/runs" | wc -l)" = 2 ]'

# Retention by the time each run was recorded (the fixtures' nights are 2026-11-1K): a far-future name holding an
# old run goes first; names that disagree with their runs' times decide nothing.
(cd "$tmp/a" && bash "$h" fetch "$tmp/store-t" --branch=timed >/dev/null)
for k in 1 2 3; do run bash "$h" add "$tmp/store-t" "$(night $k 2026111${k}T020000Z)" >/dev/null; done
run bash "$h" add "$tmp/store-t" "$(night 0 99999999T999999Z)" "$tmp/verdict.json" >/dev/null
s=$(run bash "$h" push "$tmp/store-t" --keep=3); git -C "$tmp/origin.git" ls-tree -r --name-only timed >"$tmp/tree"
check "push --keep=3: a run named nightly-99999999T999999Z.json but recorded before the others is not kept over them, nor its verdict" 0 "$s" \
  '[ "$(grep -c /runs/ "$tmp/tree")" = 3 ]' '! grep -q 99999999T "$tmp/tree"' || cat "$tmp/tree" "$tmp/err"
(cd "$tmp/a" && bash "$h" fetch "$tmp/store-t" --branch=misnamed >/dev/null)
for kn in 7:20200101T000000Z 0:20301231T000000Z 4:20250601T000000Z 2:20250101T000000Z; do
  run bash "$h" add "$tmp/store-t" "$(night "${kn%%:*}" "${kn#*:}")" >/dev/null
done
run bash "$h" add "$tmp/store-t" "$fx/trend/nightly-5.json" >/dev/null  # a name that is no time: named by its recorded time
s=$(run bash "$h" push "$tmp/store-t" --keep=3); git -C "$tmp/origin.git" ls-tree -r --name-only misnamed | sed -n 's|.*/runs/||p' | paste -sd' ' >"$tmp/tree"
check "push --keep=3 of runs whose names disagree with their times: the 3 recorded last kept (2026-11-17, -15, -14)" 0 "$s" \
  '[ "$(cat "$tmp/tree")" = "nightly-20200101T000000Z.json nightly-20250601T000000Z.json nightly-20261115T020000Z.json" ]' || cat "$tmp/tree" "$tmp/err"

# Six runners push at once onto a branch holding two runs: every one lands, and gates.json covers every run.
for i in 1 2 3 4 5 6; do
  git init -q "$tmp/r$i" && git -C "$tmp/r$i" remote add origin "$tmp/origin.git"
done
(cd "$tmp/r1" && bash "$h" fetch "$tmp/race-1" --branch=race >/dev/null && for k in 0 1; do bash "$h" add "$tmp/race-1" "$(night $k 2026111${k}T020000Z)"; done \
  && bash "$h" push "$tmp/race-1") >/dev/null 2>&1
for i in 1 2 3 4 5 6; do
  (cd "$tmp/r$i" && bash "$h" fetch "$tmp/race-$i" --branch=race && bash "$h" add "$tmp/race-$i" "$(night $((i + 1)) 202611$((i + 11))T020000Z)") >/dev/null 2>&1
done
for i in 1 2 3 4 5 6; do
  (timeout 240 bash "$h" push "$tmp/race-$i" >"$tmp/race-$i.out" 2>&1; echo $? >"$tmp/race-$i.rc") &
done
wait
git -C "$tmp/origin.git" ls-tree -r --name-only race | sed -n 's|.*/runs/||p' | sort >"$tmp/tree"
git -C "$tmp/origin.git" show "race:$model/nightly/gates.json" >"$tmp/gates.json" 2>/dev/null
check "six runners push at once: all land (exit 0), the branch holds all 8 runs, its gates.json learned from all 8" 0 0 \
  '[ "$(cat "$tmp"/race-?.rc | paste -sd" ")" = "0 0 0 0 0 0" ]' '[ "$(wc -l <"$tmp/tree")" = 8 ]' \
  'py "print(\"\n\".join(sorted(r[\"file\"] for r in j[\"runs\"])))" "$tmp/gates.json" | cmp -s - "$tmp/tree"' \
  || { cat "$tmp"/race-?.rc "$tmp"/race-?.out "$tmp/tree"; }
check "after the six, the branch is one commit" 0 0 '[ "$(git -C "$tmp/origin.git" rev-list --count race)" = 1 ]'
# A year of nights kept 3 at a time: the branch reaches as many objects after twelve pushes as after three.
(cd "$tmp/a" && bash "$h" fetch "$tmp/store-y" --branch=year >/dev/null)
for m in 01 02 03 04 05 06 07 08 09 10 11 12; do
  run bash "$h" add "$tmp/store-y" "$(night $((10#$m % 8)) 2026${m}01T020000Z)" >/dev/null && run bash "$h" push "$tmp/store-y" --keep=3 >/dev/null
  [ "$m" = 03 ] && reach year | wc -l >"$tmp/objects-3"
done
check "twelve pushes keeping 3 runs: one commit reaching as many objects as after three, none of the runs removed" 0 0 \
  '[ "$(git -C "$tmp/origin.git" rev-list --count year)" = 1 ]' '[ "$(reach year | wc -l)" = "$(cat "$tmp/objects-3")" ]' \
  '! reach year | grep -q "nightly-202601\|nightly-202609"' '[ "$(reach year | grep -c /runs/)" = 3 ]'

s=$(run bash "$h" push "$tmp/store-b" --keep=0); check "push --keep=0: one line, exit 2" 2 "$s" 'one_line "is not a count of runs"'
s=$(run bash "$h" add "$tmp/nights" "$tmp/verdict.json"); check "add to a directory that was not fetched: one line, exit 2" 2 "$s" 'one_line "not a history store"'
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/nights"); check "fetch into a directory with files in it: one line, exit 2, its files kept" 2 "$s" 'one_line "exists and is not empty"' \
  '[ "$(ls "$tmp/nights" | wc -l)" -ge 5 ]'
s=$(cd "$tmp" && run bash "$h" fetch "$tmp/x"); check "fetch outside a repository: one line, exit 2" 2 "$s" 'one_line "not in a git repository"'
s=$(cd "$tmp/a" && run bash "$h" fetch "$tmp/x" --remote=nope); check "fetch from a remote the repository lacks: one line, exit 2" 2 "$s" 'one_line "no remote .nope."'
s=$(run bash "$h" add "$tmp/store-b" "$fx/bad_invalid.json"); check "add of a file that is not results: one line, exit 2" 2 "$s" 'one_line "not a results file"'
s=$(run bash "$h" frobnicate "$tmp/store-b"); check "an unknown command: one line, exit 2" 2 "$s" 'one_line "unknown command"'

# ci/baseline.sh: the preset given is the preset stored; a run of another preset is refused.
quick="$fx/h100_quick.json"
s=$(RUN_BENCH="$report" CUDABENCH_BASELINE_DIR="$tmp/bls" run bash "$src/ci/baseline.sh" --preset=nightly "$quick")
check "baseline.sh --preset=nightly with a quick run: refused in one line, nothing stored" 2 "$s" "one_line \"is a run of preset 'quick', not 'nightly'\"" '[ ! -e "$tmp/bls" ]'
s=$(RUN_BENCH="$report" CUDABENCH_BASELINE_DIR="$tmp/bls" run bash "$src/ci/baseline.sh" --preset=quick "$quick")
check "baseline.sh --preset=quick with a quick run: stored as <model>/quick.json" 0 "$s" '[ -f "$tmp/bls/$model/quick.json" ] && [ ! -e "$tmp/bls/$model/nightly.json" ]'
s=$(RUN_BENCH="$report" CUDABENCH_BASELINE_DIR="$tmp/bls" run bash "$src/ci/baseline.sh" "$fx/trend/nightly-7.json")
check "baseline.sh without --preset: the result's own preset" 0 "$s" '[ -f "$tmp/bls/$model/nightly.json" ]'
s=$(RUN_BENCH="$report" CUDABENCH_BASELINE_DIR="$tmp/bls" run bash "$src/ci/baseline.sh" --preset=nightly --history-store="$tmp/store-b" "$fx/trend/nightly-7.json")
check "baseline.sh --history-store: the gates learned from the store's runs of its model and preset, beside the baseline" 0 "$s" \
  'py "assert j[\"device\"] == \"NVIDIA H100 80GB HBM3\" and j[\"preset\"] == \"nightly\"" "$tmp/bls/$model/nightly.gates.json"' 'grep -q "gates saved" "$tmp/out"'
rm -f "$tmp/bls/$model/quick.gates.json"
s=$(RUN_BENCH="$report" CUDABENCH_BASELINE_DIR="$tmp/bls" run bash "$src/ci/baseline.sh" --preset=quick --history-store="$tmp/store-b" "$quick")
check "baseline.sh --history-store with no runs of its preset there: stored, gates not learned, said" 0 "$s" \
  'grep -q "keeps no runs of this GPU model and preset" "$tmp/err"' '[ ! -e "$tmp/bls/$model/quick.gates.json" ]'
s=$(RUN_BENCH="$report" run bash "$src/ci/baseline.sh" --preset='../x' "$quick"); check "baseline.sh --preset that is no name: one line, exit 2" 2 "$s" 'one_line "not a preset name"'

# store: where the scripts above find a result's baseline, its gates and its folders of a history store.
s=$(run "$report" store baseline "$quick" --baseline-dir="$tmp/bls"); check "store baseline: <dir>/<model>/<preset>.json" 0 "$s" \
  '[ "$(cat "$tmp/out")" = "$tmp/bls/$model/quick.json" ]'
s=$(run "$report" store gates "$tmp/bls/$model/quick.json"); check "store gates: the file beside the baseline" 0 "$s" \
  '[ "$(cat "$tmp/out")" = "$tmp/bls/$model/quick.gates.json" ]'
s=$(run "$report" store slot "$quick"); check "store slot: <model>/<preset>" 0 "$s" '[ "$(cat "$tmp/out")" = "$model/quick" ]'
s=$(run "$report" store history "$quick" --history-dir="$tmp/s"); check "store history: the store's folder of the run" 0 "$s" \
  '[ "$(cat "$tmp/out")" = "$tmp/s/$model/quick" ]'
s=$(run "$report" store runs "$quick" --history-dir="$tmp/s"); check "store runs: that folder's runs" 0 "$s" '[ "$(cat "$tmp/out")" = "$tmp/s/$model/quick/runs" ]'
s=$(run "$report" store baseline "$quick" --of-preset=nightly); check "store baseline --of-preset of another preset: one line, exit 2" 2 "$s" \
  "one_line \"is a run of preset 'quick', not 'nightly'\"" '[ ! -s "$tmp/out" ]'
s=$(run "$report" store runs "$quick"); check "store runs without --history-dir: one line, exit 2" 2 "$s" 'one_line "needs --history-dir"'
s=$(run "$report" store gates "$tmp/base.txt"); check "store gates of a name not ending in .json: one line, exit 2" 2 "$s" 'one_line "ends in .json"'
s=$(run "$report" store where "$quick"); check "store of an unknown kind: one line, exit 2" 2 "$s" 'one_line "baseline, gates, slot, history, runs, latest, learned or place"'
# store of a results folder (a nightly's, or a history store's <model>/<preset>): its runs, newest run, learned gates.
mkdir -p "$tmp/night"
s=$(run "$report" store runs "$tmp/night"); check "store runs DIR: the results folder's runs" 0 "$s" '[ "$(cat "$tmp/out")" = "$tmp/night/runs" ]'
s=$(run "$report" store latest "$tmp/night"); check "store latest DIR: its newest run" 0 "$s" '[ "$(cat "$tmp/out")" = "$tmp/night/latest.json" ]'
s=$(run "$report" store learned "$tmp/night"); check "store learned DIR: the gates learned from its runs" 0 "$s" '[ "$(cat "$tmp/out")" = "$tmp/night/gates.json" ]'
s=$(run "$report" store latest "$tmp/none"); check "store latest of no directory: one line, exit 2" 2 "$s" 'one_line "not a directory"'
# store place: each NUL-separated path under a history store's top, as KIND FOLDER STAMP (outside: the layout).
printf '%s\0' m m/p m/p/runs m/p/runs/nightly-20261123T020000Z.json m/p/verdict-20261123T020000Z.json m/p/gates.json \
  "$(printf 'm/p/a\nb.json')" -x m/p/runs/latest.json >"$tmp/paths"
s=$(run "$report" store place - <"$tmp/paths"); check "store place -: a line for each path, in its order" 0 "$s" \
  '[ "$(head -n 6 "$tmp/out" | paste -sd,)" = "model - -,folder m/p -,runs m/p -,run m/p 20261123T020000Z,verdict m/p 20261123T020000Z,learned m/p -" ]' \
  '[ "$(grep -c "^outside <model>/<preset>/runs/nightly-" "$tmp/out")" = 2 ] && [ "$(sed -n 8p "$tmp/out")" = "model - -" ]' \
  '[ "$(wc -l <"$tmp/out")" = 9 ]'
s=$(run "$report" store place "$tmp/paths"); check "store place of a file: one line, exit 2" 2 "$s" 'one_line "give -"'
head -c 100000 /dev/zero | tr '\0' a >"$tmp/long"
s=$(run "$report" store place - <"$tmp/long"); check "store place of a path of 100,000 bytes: refused in one line, exit 2" 2 "$s" \
  'one_line "more than 4096 bytes"'
python3 -c "import json, sys; j = json.load(open(sys.argv[1])); j['context']['device']['name'] = '/?/'; j['context']['cudabench']['preset'] = '..'; json.dump(j, open(sys.argv[2], 'w'))" "$quick" "$tmp/odd.json"
s=$(run "$report" store baseline "$tmp/odd.json"); check "store of a GPU model that names no directory: one line, exit 2" 2 "$s" 'one_line "names no directory"'
python3 -c "import json, sys; j = json.load(open(sys.argv[1])); j['context']['cudabench']['preset'] = '..'; json.dump(j, open(sys.argv[2], 'w'))" "$quick" "$tmp/odd.json"
s=$(run "$report" store history "$tmp/odd.json" --history-dir="$tmp/s"); check "store of a preset that is no name: one line, exit 2" 2 "$s" 'one_line "not a preset name"'
# The names store accepts are those the history store's layout accepts, and distinct GPU models never share a slot.
named() {  # named MODEL PRESET: the quick fixture as a run of that GPU model and preset, as $tmp/named.json
  python3 -c "import json, sys; j = json.load(open(sys.argv[1])); j['context']['device']['name'] = sys.argv[2]; j['context']['cudabench']['preset'] = sys.argv[3]; json.dump(j, open(sys.argv[4], 'w'))" \
    "$quick" "$1" "$2" "$tmp/named.json"
}
for m in .hidden ... NVIDIA/H100 "$(printf 'NVIDIA\tH100')" NVIDIA_H100 "NVIDIA  H100" " NVIDIA H100" "NVIDIA H100 " "NVIDIA H100 (PCIe)"; do
  named "$m" quick
  s=$(run "$report" store slot "$tmp/named.json"); check "store of the GPU model '$m': one line naming it, exit 2" 2 "$s" 'one_line "names no directory"'
done
for p in .hidden ... ../x; do
  named "NVIDIA H100" "$p"
  s=$(run "$report" store history "$tmp/named.json" --history-dir="$tmp/s"); check "store of the preset '$p': one line, exit 2" 2 "$s" 'one_line "not a preset name"'
done
for mp in "NVIDIA H100:quick" "NVIDIA A100-SXM4-80GB MIG 1g.10gb:nightly.v2" "Tesla V100-SXM2-16GB:my_preset"; do
  named "${mp%%:*}" "${mp#*:}"
  s=$(run "$report" store history "$tmp/named.json" --history-dir="$tmp/s")
  check "store of '${mp%%:*}' / '${mp#*:}': a folder the history store's layout accepts" 0 "$s" \
    'rel=$(sed "s|^$tmp/s/||" "$tmp/out") && python3 -c "import re, sys; P = r\"[A-Za-z0-9_-][A-Za-z0-9_.-]*\"; assert re.fullmatch(P + \"/\" + P, sys.argv[1]), sys.argv[1]" "$rel"'
done
s=$(run "$report" store slot "$fx/bad_invalid.json"); check "store of a file that is not results: one line, exit 2" 2 "$s" 'one_line "not a results file"'
# Once the store keeps enough runs of the model and preset, the nightly compares with the gates it learned from them.
rm -rf "$tmp/store-g" && cp -a "$tmp/store-b" "$tmp/store-g"
for k in 3 5 6 7; do run bash "$h" add "$tmp/store-g" "$(night $k 2026010${k}T020000Z)" >/dev/null; done
sleep 1
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" NIGHT="$fx/trend/nightly-5.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" \
    CUDABENCH_HISTORY_DIR="$tmp/store-g" run bash "$src/ci/nightly.sh" "$tmp/results-g")
# (their gates, tighter than the 5% default, flag the trend fixtures' step between nights 0 and 5)
check "ci/nightly.sh with a store of 6 runs or more: compared with the gates the store learned from them" 1 "$s" \
  'grep -q "comparing with the gates the history store learned" "$tmp/err"' \
  'py "assert j[\"regression\"] and j[\"gates\"] and j[\"gates\"][\"runs\"] >= 5 and \"/gates-\" in j[\"gates\"][\"file\"], j[\"gates\"]" "$(ls -t "$tmp/results-g"/verdict-*.json | head -n 1)"' \
  || { cat "$tmp/err"; }
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" NIGHT="$fx/trend/nightly-5.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" \
    CUDABENCH_HISTORY_DIR="$tmp/store-g" CUDABENCH_GATES_MIN_RUNS=100 run bash "$src/ci/nightly.sh" "$tmp/results-g2")
check "... and not before it keeps CUDABENCH_GATES_MIN_RUNS runs" 0 "$s" '! grep -q "comparing with the gates the history store" "$tmp/err"'

# push --keep-gates: retention as ever, the gates left as the adds learned them (not learned again from fewer runs).
(cd "$tmp/a" && run bash "$h" fetch "$tmp/store-k" --branch=keep-gates) >/dev/null
for k in 0 1 2; do run bash "$h" add "$tmp/store-k" "$(night $k 2026020${k}T020000Z)" >/dev/null; done
s=$(run bash "$h" push "$tmp/store-k" --keep=2 --keep-gates)
check "push --keep=2 --keep-gates: 2 runs on the branch, the gates those of the 3 runs added" 0 "$s" \
  '[ "$(git -C "$tmp/origin.git" ls-tree -r --name-only keep-gates | grep -c /runs/)" = 2 ]' \
  'git -C "$tmp/origin.git" show "keep-gates:$model/nightly/gates.json" >"$tmp/g.json" && py "assert len(j[\"runs\"]) == 3, j[\"runs\"]" "$tmp/g.json"'
finish
