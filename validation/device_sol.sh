#!/usr/bin/env bash
# Each family against its measured speed of light, on a GPU machine, from the repository root, with the
# binaries device_pack.sh packed into .devlibs/. Results under $OUT (or ./out).
#   device_sol.sh run       GPU tests; the limits and every GPU variant of conv2d, reduce, histogram, matmul
#                           and the image pipelines at the nightly preset's sizes (3 repetitions); the host
#                           copies again pinned to the GPU's own CPUs and to the others; Nsight Compute's
#                           speed-of-light view of the kernels at the largest sizes
#   device_sol.sh baseline  the nightly preset (6 repetitions) saved as this GPU's stored baseline
#   device_sol.sh compare   the nightly preset (6 repetitions) compared with the stored baseline
#   device_sol.sh image     the 4K image's pinned pipelines (full preset) against the both-ways copy limit,
#                           three runs of 3 repetitions; Nsight Compute's bus and L2 counts of three launches
#                           of the zero-copy kernel, the L2 not flushed between them
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
export CUDABENCH_NVTX_SEPARATOR=:
stage="${1:-run}"
nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader

if [ "$stage" = run ]; then
  for t in gpu_tests suite_gpu_tests; do
    "$root/.devlibs/tests/$t" >>"$out/gpu_tests.txt" 2>&1
    echo "$t: exit $?, $(grep -E '^\[  PASSED  \]|FAILED' "$out/gpu_tests.txt" | tail -n 2 | tr '\n' ' ')"
  done
  start=$(date +%s)
  "$bench" --quiet --preset=nightly --repetitions=3 \
    --filter='^(limits/|conv2d/(naive|tiled|cudnn|fast)/|reduce/(warp_shuffle|cub|fast)/|histogram/(shared_gpu_merge|cub|fast)/|matmul/(tiled|fast|cublas)/|image/(pinned_streams|fast_|kernel_only))' \
    --json "$out/sol.json" --md "$out/sol.md" >"$out/sol.txt" 2>&1
  echo "run: exit $?, $(( $(date +%s) - start )) s, $(grep 'case(s):' "$out/sol.txt")"
  python3 "$root/validation/medians.py" "$out/sol.json"
  # Host copies with the process on the GPU's own NUMA node, then on the others.
  bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i 0 | tr 'A-Z' 'a-z' | sed 's/^0000//')
  local_cpus=$(cat "/sys/bus/pci/devices/$bus/local_cpulist" 2>/dev/null)
  echo "GPU $bus local CPUs: ${local_cpus:-unknown}; NUMA nodes: $(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l); cpus $(nproc)"
  if [ -n "$local_cpus" ]; then
    others=$(python3 -c '
import sys
def parse(s): return {c for part in s.split(",") for c in (range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1))}
all_cpus = parse(open("/sys/devices/system/cpu/online").read().strip()); local = parse(sys.argv[1])
print(",".join(map(str, sorted(all_cpus - local))))' "$local_cpus")
    for where in local others; do
      cpus=$local_cpus; [ "$where" = others ] && cpus=$others
      [ -z "$cpus" ] && { echo "host copies on $where CPUs: none"; continue; }
      taskset -c "$cpus" "$bench" --quiet --repetitions=3 --filter='^(limits/(h2d|d2h|bidir)_pinned|image/(pinned_streams/4|fast_))' \
        --json "$out/host_$where.json" >"$out/host_$where.txt" 2>&1
      echo "host copies on $where CPUs ($cpus): exit $?"
      python3 "$root/validation/medians.py" "$out/host_$where.json" | sed 's/^/  /'
    done
  fi
  ncu_dir="$out/ncu" && mkdir -p "$ncu_dir"
  for spec in conv2d/fast/16384:1 conv2d/naive/16384:1 reduce/fast/268435456:1 reduce/cub/268435456:2 histogram/fast/268435456:2 \
              histogram/cub/268435456:3 matmul/fast/4096:1 matmul/cublas/4096:1 matmul/tiled/4096:1 limits/read:1 image/fast_mapped:1; do
    name=${spec%:*}; count=${spec##*:}; file="$ncu_dir/${name//\//_}"
    timeout 240 ncu --clock-control none --nvtx --nvtx-include "cudabench@${name//\//:}/measure/kernel/" -c "$count" \
        --section SpeedOfLight --section ComputeWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum \
        --csv --page raw --print-units base "$bench" --profile --sizes=conv2d=16384 --sizes=reduce=268435456 \
        --sizes=histogram=268435456 --sizes=matmul=4096 --filter="^${name}\$" >"$file.csv" 2>"$file.err"
    echo "ncu $name (exit $?):"; python3 "$root/validation/ncu_sol.py" "$file.csv" 2>&1 | sed 's/^/  /' | tail -n 4
  done
  tar -czf "$out/ncu.tar.gz" -C "$out" ncu && rm -rf "$ncu_dir"
  tar -czf "$out/runs.tar.gz" -C "$out" sol.txt sol.md host_local.json host_others.json host_local.txt host_others.txt gpu_tests.txt 2>/dev/null
  rm -f "$out"/host_* "$out/sol.txt" "$out/gpu_tests.txt"
fi

if [ "$stage" = baseline ]; then
  start=$(date +%s)
  "$bench" --quiet --preset=nightly --repetitions=6 --save-baseline --json "$out/nightly_baseline.json" >"$out/nightly_baseline.txt" 2>&1
  echo "nightly baseline: exit $?, $(( $(date +%s) - start )) s, $(grep 'case(s):' "$out/nightly_baseline.txt")"
  grep -E "baseline|stored" "$out/nightly_baseline.txt" | tail -n 2
  mkdir -p "$out/baselines" && cp -r reports/baselines/. "$out/baselines/"
  tar -czf "$out/baseline.tar.gz" -C "$out" baselines nightly_baseline.txt && rm -rf "$out/baselines" "$out/nightly_baseline.txt"
fi

if [ "$stage" = compare ]; then
  start=$(date +%s)
  "$bench" --quiet --preset=nightly --repetitions=6 --compare-to=auto --json "$out/nightly_compare.json" \
    --md "$out/nightly_compare.md" >"$out/nightly_compare.txt" 2>&1
  echo "nightly compared with the stored baseline: exit $?, $(( $(date +%s) - start )) s, $(grep 'case(s):' "$out/nightly_compare.txt")"
  grep -iE "regress|improv|unchanged|inconclusive|verdict" "$out/nightly_compare.txt" | head -n 12
fi

if [ "$stage" = image ]; then
  filter='^(limits/(h2d|d2h|bidir)_pinned|image/(pinned_streams/|fast_))'
  for round in 1 2 3; do
    "$bench" --quiet --preset=full --repetitions=3 --filter="$filter" --json "$out/image_$round.json" >"$out/image_$round.txt" 2>&1
    echo "image round $round: exit $?, $(grep 'case(s):' "$out/image_$round.txt")"
  done
  python3 "$root/validation/medians.py" --floor=limits/bidir_pinned:16588800 "$out"/image_[123].json
  # Does each launch fetch the image over the bus, or serve some of it from an L2 that kept host lines?
  wanted=$(ncu --query-metrics 2>/dev/null | awk '{print $1}' | grep -xE 'pcie__(read|write)_bytes|lts__t_sectors_aperture_sysmem_op_(read|write)|lts__t_sectors_aperture_sysmem_op_read_lookup_(hit|miss)' | sed 's/$/.sum/' | paste -sd, -)
  echo "ncu metrics: ${wanted:-none found}"
  timeout 240 ncu --clock-control none --cache-control none --nvtx --nvtx-include "cudabench@image:fast_mapped/measure/kernel/" -c 3 \
      --metrics "gpu__time_duration.sum${wanted:+,$wanted}" --csv --page raw --print-units base \
      "$bench" --profile --filter='^image/fast_mapped$' >"$out/ncu_mapped.csv" 2>"$out/ncu_mapped.err"
  echo "ncu image/fast_mapped: exit $?"
  python3 - "$out/ncu_mapped.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next(i for i, r in enumerate(rows) if "Kernel Name" in r or "ID" in r[:1])
names = rows[head]; data = [r for r in rows[head + 1:] if r and r[0].isdigit()]
cols = [c for c in names if c.startswith(("gpu__time_duration", "pcie__", "lts__")) and c.endswith(".sum")]
for r in data:
    d = dict(zip(names, r)); print("  launch " + d.get("ID", "?") + ": " + ", ".join("%s=%s" % (c, d[c]) for c in cols))
PY
fi
