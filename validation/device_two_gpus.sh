#!/usr/bin/env bash
# --devices on a machine with two GPUs (binaries from validation/device_pack.sh in .devlibs/): all devices, a
# device that does not exist among three asked for (the test-only pretend_devices binary told of three), one device, and
# --compare-to=auto on a GPU model without a stored baseline. Results under $OUT.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
b=$bench OUT=$out; nvidia-smi -L
f='^(image/pinned_streams/4|conv2d/tiled/4096|conv2d/cudnn/4096|reduce/cub/16777216|matmul/cublas/2048|histogram/cpu/1048576)$'
t=$(date +%s); $b --devices=all --filter="$f" --json $OUT/two.json >$OUT/two.txt 2>&1; echo "all: exit $? $(( $(date +%s)-t )) s"; cat $OUT/two.txt | tail -n 25
"$root/.devlibs/tests/pretend_devices" --pretend-devices=3 --devices=all --filter='^(reduce/cub/16777216|histogram/cpu/1048576)$' --json $OUT/three.json >$OUT/three.txt 2>&1; echo "3 of 2: exit $?"; tail -n 8 $OUT/three.txt
$b --devices=1 --filter='^reduce/cub/16777216$' --json $OUT/one.json >/dev/null 2>&1; echo "dev 1: exit $?"
$b --filter='^reduce/cub/16777216$' --compare-to=auto >$OUT/auto.txt 2>&1; echo "compare-to=auto on H200: exit $?"; tail -n 2 $OUT/auto.txt
for j in two three one; do python3 -c "
import json,sys; j=json.load(open('$OUT/$j.json'))
print('$j', [(d.get('ordinal'), d.get('name'), d.get('pci_bus_id')) for d in j['context'].get('devices',[])])
for r in j['benchmarks']: print('  %-34s %10s %s' % (r['name'], '%.2f' % r['real_time'] if 'real_time' in r else '-', r.get('error_message','')[:90]))"; done
