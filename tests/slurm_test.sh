#!/usr/bin/env bash
# ci/slurm/fleet.sh against real SLURM daemons on this machine: munged, slurmctld and slurmd started with a
# generated configuration (two partitions on this one node standing for two GPU models, two fake GPUs as GRES),
# the fleet of both submitted with --wait over the CPU cases, each model's run and the fleet job checked, every
# daemon stopped on exit. Skipped (77), saying so, where slurm-wlm and munge are not installed: the install step
# (ci/deps.sh --tests) installs them, never the test. The two models are this same CPU machine: the stand-in runner
# names each run's device after CUDABENCH_FLEET_MODEL (which fleet.sh gives every job), so each model has its own
# baseline and column.
# Usage: tests/slurm_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report_bin="$build/app/cudabench-report" bench_bin="$build/bench/cudabench"
source "$src/tests/cli_lib.sh"
pids=()
stop_daemons() {
  local p
  for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
  for p in ${pids[@]+"${pids[@]}"}; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop_daemons EXIT
trap 'exit 1' INT TERM   # ctest's timeout: still stop the daemons
show_logs() {  # the daemons' logs and the jobs' output
  local f
  for f in "$tmp"/log/* "$tmp"/results/*/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }; done
}
die() { echo "FAIL $*"; show_logs; exit 1; }

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 \
   || ! command -v sbatch >/dev/null 2>&1; then
  echo "SKIPPED: SLURM (slurm-wlm) and munge are not installed (ci/deps.sh --tests installs them as root)"; exit 77
fi
[ "$(id -u)" = 0 ] || { echo "SKIPPED: the test daemons run as root (SlurmUser=root), and this is user $(id -un)"; exit 77; }
# slurmd initializes its cgroup plugin at start and stops where /sys/fs/cgroup holds no cgroup filesystem (a chroot
# given a bare sysfs); machines and containers have one.
grep -qs ' /sys/fs/cgroup[/ ]' /proc/self/mounts ||
  { echo "SKIPPED: no cgroup filesystem under /sys/fs/cgroup, without which slurmd does not start"; exit 77; }
[ -x "$bench_bin" ] && [ -x "$report_bin" ] || die "build cudabench and cudabench-report first ($bench_bin, $report_bin)"

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
host=$(hostname -s)
mkdir -p "$tmp"/{log,state,spool,munge,results,bl} && chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$tmp/munge/munge.key"
sock="$tmp/munge/munge.sock"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=cudabench-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 Gres=gpu:2 State=UNKNOWN
PartitionName=model-a Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=model-b Nodes=$host MaxTime=INFINITE State=UP
EOF
# Two stand-in GPU device files: SLURM counts a node's GPUs from the files gres.conf names.
mkdir -p "$tmp/dev" && touch "$tmp/dev/gpu0" "$tmp/dev/gpu1"
echo "NodeName=$host Name=gpu File=$tmp/dev/gpu[0-1]" >"$tmp/gres.conf"
export SLURM_CONF="$tmp/slurm.conf"

munged --foreground --force --socket="$sock" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
  --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/log/munged.log" >>"$tmp/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || die "munged did not open its socket in 10 s"
slurmctld -D -i >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 120); do
  state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | sort -u | tr '\n' ' ')
  [ "$state" = "idle " ] && break
  sleep 0.5
done
[ "$state" = "idle " ] || die "the node is not idle 60 s after starting the daemons (sinfo: '${state:-no answer}')"
check "the SLURM daemons are up, the node idle, both partitions there" 0 0 \
  '[ "$(sinfo -h -o %P | sort | tr "\n" " ")" = "model-a* model-b " ]'

# The stand-in runner: the suite binary for a run (its device named after the model), the report binary for the
# subcommands.
cat >"$tmp/runner" <<EOF
#!/usr/bin/env bash
case "\${1:-}" in compare|report|trend|gates|bisect|fleet|store) exec "$report_bin" "\$@" ;; esac
json=""
prev=""
for a in "\$@"; do
  case "\$a" in --json=*) json=\${a#--json=} ;; esac
  [ "\$prev" = --json ] && json=\$a
  prev=\$a
done
"$bench_bin" "\$@"
s=\$?
[ -n "\$json" ] && [ -f "\$json" ] && python3 - "\$json" "\$CUDABENCH_FLEET_MODEL" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["context"].setdefault("device", {})["name"] = sys.argv[2]
json.dump(doc, open(sys.argv[1], "w"), indent=1)
PY
exit \$s
EOF
chmod +x "$tmp/runner"
export RUN_BENCH="$tmp/runner" CUDABENCH_BASELINE_DIR="$tmp/bl" CUDABENCH_BISECT_BUDGET=0
export CUDABENCH_NIGHTLY_ARGS="--filter=cpu --preset=quick --repetitions=1"
unset GITHUB_STEP_SUMMARY

# Each model's baseline: one run of the same cases, named after the model.
s=$(CUDABENCH_FLEET_MODEL=model-a run timeout 300 "$tmp/runner" $CUDABENCH_NIGHTLY_ARGS --json "$tmp/base.json")
check "a baseline run of the CPU cases" 0 "$s" '[ -f "$tmp/base.json" ]'
[ "$s" = 0 ] || { cat "$tmp/err"; exit 1; }
for m in model-a model-b; do
  mkdir -p "$tmp/bl/$m"
  python3 - "$tmp/base.json" "$m" "$tmp/bl/$m/quick.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["context"]["device"]["name"] = sys.argv[2]
json.dump(doc, open(sys.argv[3], "w"), indent=1)
PY
done

cat >"$tmp/fleet.conf" <<'EOF'
# model   partition  resource    sbatch options
model-a   model-a    gres=gpu:1  --cpus-per-task=1 --time=00:10:00
model-b   model-b    -           --cpus-per-task=1   # nightly.sbatch's own --gres=gpu:1
EOF
start=$(date +%s)
s=$(CUDABENCH_RESULTS_DIR="$tmp/results" run timeout 500 bash "$src/ci/slurm/fleet.sh" --wait "$tmp/fleet.conf")
echo "fleet.sh --wait: exit status $s after $(( $(date +%s) - start )) s"
cat "$tmp/out"
[ "$s" = 124 ] && die "fleet.sh --wait did not end within 500 s"
for m in model-a model-b; do
  check "$m: its job ran the nightly into its own directory, compared with its baseline" 0 0 \
    "[ -f '$tmp/results/$m/latest.json' ]" \
    "python3 -c 'import json,sys; sys.exit(json.load(open(\"$tmp/results/$m/latest.json\"))[\"context\"][\"device\"][\"name\"] != \"$m\")'" \
    "ls '$tmp/results/$m'/verdict-*.json >/dev/null 2>&1"
done
log=$(ls "$tmp/results/fleet"/slurm-*.out 2>/dev/null | head -n1)
check "the fleet job ran after both, with fleet over both models' directories" 0 0 '[ -n "$log" ]' \
  "grep -q 'model-a (job [0-9]*): status 0' '$log'" "grep -q 'model-b (job [0-9]*): status 0' '$log'" \
  "grep -qF ' fleet $tmp/results/model-a $tmp/results/model-b --md $tmp/results/fleet/fleet-' '$log'"
check "the fleet report written (md, html, csv) and fleet.sh --wait exits 0" 0 "$s" \
  "ls '$tmp/results/fleet'/fleet-*.md '$tmp/results/fleet'/fleet-*.html '$tmp/results/fleet'/fleet-*.csv >/dev/null" \
  "grep -q model-a '$tmp/results/fleet'/fleet-*.md && grep -q model-a '$tmp/results/fleet'/fleet-*.csv" \
  "grep -q model-b '$tmp/results/fleet'/fleet-*.md && grep -q model-b '$tmp/results/fleet'/fleet-*.csv"
# A bad configuration: one line naming the line, exit 2, nothing submitted.
printf 'model-a model-a gres=gpu:1\nmodel-c model-b cores=2\n' >"$tmp/bad.conf"
before=$(squeue -h | wc -l)
s=$(CUDABENCH_RESULTS_DIR="$tmp/results2" run bash "$src/ci/slurm/fleet.sh" "$tmp/bad.conf")
check "a bad config line: exit 2, the line named, nothing submitted" 2 "$s" \
  "[ \$(wc -l <'$tmp/err') = 1 ]" "grep -q 'bad.conf:2: resource .cores=2.' '$tmp/err'" "[ \$(squeue -h | wc -l) = $before ]"
[ "$fail" = 0 ] || show_logs
finish
