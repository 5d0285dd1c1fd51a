#!/usr/bin/env bash
# Our variants beyond the source material on a GPU machine, from the repository root, with the binaries
# device_pack.sh packed into .devlibs/: the GPU tests (each kernel against its CPU reference), the nightly
# sizes of conv2d, reduce and histogram (3 repetitions) with the limits they are measured against, and Nsight Compute's
# kernel time and DRAM throughput for the largest size of each. Results under $OUT (or ./out).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
export CUDABENCH_NVTX_SEPARATOR=:
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
"$root/.devlibs/tests/gpu_tests" >"$out/gpu_tests.txt" 2>&1; echo "gpu tests: exit $?, $(grep -E '^\[  PASSED  \]|FAILED' "$out/gpu_tests.txt" | tr '\n' ' ')"
"$bench" --quiet --preset=nightly --repetitions=3 --filter='^(limits/(copy_d2d|read)|conv2d/(naive|tiled|cudnn|fast)/|reduce/(warp_shuffle|cub|fast)/|histogram/(shared_gpu_merge|cub|fast)/)' \
  --json "$out/fast.json" --md "$out/fast.md" >"$out/fast.txt" 2>&1
echo "run: exit $?, $(grep 'case(s):' "$out/fast.txt")"
python3 - "$out/fast.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); meta = d["context"]["cudabench"]["cases"]
scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
rows = {}
for r in d["benchmarks"]:
    if r.get("aggregate_name") == "median" or (r.get("run_type") == "iteration" and r["run_name"] not in rows):
        rows[r["run_name"]] = (r["real_time"] * scale[r["time_unit"]], r.get("limit_fraction"), r.get("error_message"))
print({k: v["rate"] for k, v in d["context"]["cudabench"].get("limits", {}).items()})
for fam, variants, sizes in (("conv2d", ["naive", "tiled", "cudnn", "fast"], [1024, 2048, 4096, 8192, 16384]),
                             ("reduce", ["warp_shuffle", "cub", "fast"], [1 << 20, 1 << 24, 1 << 28]),
                             ("histogram", ["shared_gpu_merge", "cub", "fast"], [1 << 20, 1 << 24, 1 << 28])):
    for n in sizes:
        cells = []
        for v in variants:
            t = rows.get(f"{fam}/{v}/{n}")
            cells.append(f"{v} {t[0]*1e3:.4f} ms ({100*(t[1] or 0):.1f}%)" if t and t[0] > 0 else f"{v} {t and t[2]}")
        ratio = ""
        if fam in ("reduce", "histogram") and f"{fam}/fast/{n}" in rows and f"{fam}/cub/{n}" in rows:
            ratio = f" fast/cub speed {rows[f'{fam}/cub/{n}'][0] / rows[f'{fam}/fast/{n}'][0]:.3f}"
        if fam == "conv2d" and f"conv2d/fast/{n}" in rows and f"conv2d/naive/{n}" in rows:
            ratio = f" fast over naive {rows[f'conv2d/naive/{n}'][0] / rows[f'conv2d/fast/{n}'][0]:.2f}x"
        print(f"{fam} {n}: " + "; ".join(cells) + ratio)
PY
ncu_dir="$out/ncu" && mkdir -p "$ncu_dir"
for spec in conv2d/fast/16384:1 conv2d/naive/16384:1 reduce/fast/268435456:1 reduce/cub/268435456:2 histogram/fast/268435456:2 histogram/cub/268435456:3; do
  name=${spec%:*}; count=${spec##*:}
  ncu --clock-control none --nvtx --nvtx-include "cudabench@${name//\//:}/measure/kernel/" -c "$count" \
      --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum \
      --csv --page raw --print-units base "$bench" --profile --sizes=conv2d=16384 --sizes=reduce=268435456 --sizes=histogram=268435456 --filter="^${name}\$" >"$ncu_dir/${name//\//_}.csv" 2>"$ncu_dir/${name//\//_}.err"
  echo "ncu $name: $(python3 -c '
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0].isdigit()]
hdr = next((r for r in csv.reader(open(sys.argv[1])) if r and r[0] == "ID"), None)
if hdr is None: sys.exit("no kernel profiled: " + open(sys.argv[1].replace(".csv", ".err")).read()[-300:])
for r in rows:
    d = {k: v.replace(",", "") for k, v in zip(hdr, r)}  # --print-units base writes 1,012,928
    print(d["Kernel Name"][:40], "time %.1f us" % (float(d["gpu__time_duration.sum"]) / 1e3),
          "dram %.1f%%" % float(d["dram__throughput.avg.pct_of_peak_sustained_elapsed"]),
          "read %.3f GB write %.3f GB" % (float(d["dram__bytes_read.sum"]) / 1e9, float(d["dram__bytes_write.sum"]) / 1e9), end="; ")
' "$ncu_dir/${name//\//_}.csv" 2>&1 | tail -c 600)"
done
tar -czf "$out/ncu.tar.gz" -C "$out" ncu && rm -rf "$ncu_dir"
