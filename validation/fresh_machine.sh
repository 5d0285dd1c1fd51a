#!/usr/bin/env bash
# The test command on a fresh machine: a clean Debian 12 root made with debootstrap (minbase: no compiler, no CMake,
# no git, no Python), the CUDA toolkit alone bind-mounted into it read-only (/usr/local/cuda*, with its loader entry), and in it, as root, the
# README's two commands from a fresh clone of this checkout's HEAD, as CI runs them (CI=true bash .ci/run, after
# ./run_bench). Needs root (debootstrap, chroot, mounts) and the Debian mirror; installs debootstrap with apt-get.
# Usage: validation/fresh_machine.sh [--until=STAGE] [ROOT]
#   STAGE: deps (ci/deps.sh --tests), configure (ci/build.sh's configure), run (./run_bench), test (the default: all)
#   ROOT:  where the Debian root is made (default /var/tmp/cudabench-fresh; an existing one is made again)
# Writes ROOT.log (every command's output); prints each stage's exit status and wall time. Exit status: the first
# failing stage's, 0 when every stage up to STAGE passed, 2 when the root could not be made.
set -uo pipefail
until=test
case ${1:-} in --until=*) until=${1#--until=}; shift ;; esac
case $until in deps|configure|run|test) ;; *) echo "fresh_machine.sh: --until=$until: one of deps, configure, run, test" >&2; exit 2 ;; esac
root=${1:-/var/tmp/cudabench-fresh}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log=$root.log
[ "$(id -u)" = 0 ] || { echo "fresh_machine.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
cuda=$(readlink -f /usr/local/cuda) && [ -x "$cuda/bin/nvcc" ] || { echo "fresh_machine.sh: no CUDA toolkit in /usr/local/cuda" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
  { echo "fresh_machine.sh: could not install debootstrap" >&2; exit 2; }

# the mounts of a stage live in its own namespace: nothing of an earlier run is mounted here
: >"$log"
rm -rf "$root" && mkdir -p "$root"
echo "debootstrap: Debian 12 (bookworm, minbase) into $root" >&2
started=$SECONDS
if ! debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >>"$log" 2>&1; then
  tail -n 20 "$log" >&2; echo "fresh_machine.sh: debootstrap failed (log: $log)" >&2; exit 2
fi
echo "debootstrap: $((SECONDS - started)) s" >&2
cat >"$root/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The machine's own name resolves on any machine (slurmd and munged look it up): this one's hosts file.
cp /etc/hosts "$root/etc/hosts"
# The toolkit's loader entry (its installer's /etc/ld.so.conf.d file naming its lib folder: CUPTI, cuBLAS, ...), which
# each stage's ldconfig reads once the toolkit is mounted.
cp /etc/ld.so.conf.d/*cuda*.conf "$root/etc/ld.so.conf.d/" 2>/dev/null ||
  echo "$cuda/lib64" >"$root/etc/ld.so.conf.d/cuda.conf"
# A fresh clone of HEAD, made here (the root has no git: ci/deps.sh --tests installs it for the tests' repositories).
git clone -q --no-local "$src" "$root/root/cudabench" || { echo "fresh_machine.sh: git clone failed" >&2; exit 2; }
echo "clone: $(git -C "$root/root/cudabench" rev-parse --short=12 HEAD)" >&2

# Each stage in a mount namespace of its own: /proc, /sys, /dev and the CUDA toolkit mounted for it, gone after it.
stage() {  # stage NAME COMMAND: runs COMMAND in the root's checkout as root; prints its status and wall time
  local name=$1 cmd=$2 t=$SECONDS status
  echo "=== $name: $cmd" >>"$log"
  unshare --mount --pid --fork --mount-proc="$root/proc" bash -c '
    set -e
    r=$1 cuda=$2
    mount --bind /dev "$r/dev" && mount --bind /dev/pts "$r/dev/pts" && mount -t sysfs sysfs "$r/sys"
    mount --rbind /sys/fs/cgroup "$r/sys/fs/cgroup"  # as a container has it (slurmd needs a cgroup filesystem)
    mkdir -p "$r$cuda" && mount --bind -o ro "$cuda" "$r$cuda" && ln -sfn "$cuda" "$r/usr/local/cuda"
    mount -t tmpfs tmpfs "$r/tmp"
    exec chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      LANG=C.UTF-8 TERM=dumb bash -c "ldconfig && cd /root/cudabench && $3"' stage "$root" "$cuda" "$cmd" >>"$log" 2>&1
  status=$?
  echo "$name: exit $status, $((SECONDS - t)) s" | tee -a "$log" >&2
  [ "$status" = 0 ] || { tail -n 30 "$log" >&2; exit "$status"; }
}
stage deps "bash ci/deps.sh --tests"
[ "$until" = deps ] && exit 0
stage configure "bash ci/build.sh help"  # configures, then builds only CMake's target list (no compiling)
[ "$until" = configure ] && exit 0
stage run "./run_bench"
[ "$until" = run ] && exit 0
stage test "CI=true bash .ci/run"
exit 0
