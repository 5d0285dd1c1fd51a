#!/usr/bin/env bash
# The quick suite, then Nsight Compute over its kernel-only cases (docs/validation.md, docs/profiling.md).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
"$bench" --json "$out/h100_quick.json" >"$out/quick.txt" 2>&1; tail -n 1 "$out/quick.txt"
timeout "${NCU_TIMEOUT_S:-200}" "$root/validation/ncu_accuracy.sh" "$out/h100_quick.json" 20 >/dev/null
python3 "$root/validation/ncu_parse.py" "$out/ncu_stdout.log" "$out/ncu_accuracy.csv" "$out/h100_quick.json" | tee "$out/ncu_table.txt"
