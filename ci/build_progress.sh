#!/usr/bin/env bash
# Reads a build's output on standard input, appends it to the log LOG, and keeps one line on standard error
# saying how far the build is (Ninja's [N/M] steps, or make's [ P%]) and how long it has run.
# Usage: cmake --build ... 2>&1 | [CUDABENCH_PROGRESS_EVERY=N] ci/build_progress.sh LOG
set -u
log=$1
start=$SECONDS
shown="starting"
partial=""
# CUDABENCH_PROGRESS_EVERY=N (standard error not a terminal): a plain line every N seconds instead of one redrawn line.
every=${CUDABENCH_PROGRESS_EVERY:-}
said=$SECONDS
draw() {
  if [ -z "$every" ]; then printf '\r\033[Kbuilding: %s, %d s elapsed' "$shown" $((SECONDS - start)) >&2
  elif [ $((SECONDS - said)) -ge "$every" ]; then
    said=$SECONDS
    printf 'building: %s, %d s elapsed\n' "$shown" $((SECONDS - start)) >&2
  fi
}
take() {
  printf '%s\n' "$1" >>"$log"
  if [[ $1 =~ ^\[([0-9]+)/([0-9]+)\] ]]; then shown="${BASH_REMATCH[1]} of ${BASH_REMATCH[2]} steps done"
  elif [[ $1 =~ ^\[\ *([0-9]+)%\] ]]; then shown="${BASH_REMATCH[1]}% of the targets done"
  fi
}
draw
while :; do
  # A one-second timeout redraws the elapsed time while one long compile prints nothing; what a timed-out
  # read got of a line is kept for the rest of it.
  if IFS= read -r -t 1 chunk; then
    take "$partial$chunk"
    partial=""
  else
    status=$?
    if [ "$status" -le 128 ]; then  # end of input
      [ -n "$partial$chunk" ] && take "$partial$chunk"
      break
    fi
    partial+=$chunk
  fi
  draw
done
# The last progress seen, not "built": this end of the pipe cannot tell success from failure (ci/build.sh says which).
if [ -z "$every" ]; then printf '\r\033[K' >&2; fi
printf 'build output ended: %s, after %d s (log: %s)\n' "$shown" $((SECONDS - start)) "$log" >&2
