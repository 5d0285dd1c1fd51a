#!/usr/bin/env python3
"""Copies standard input to standard output with each line prefixed by the seconds since the start."""
import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write(f"{time.monotonic() - t0:9.3f} {line}")
    sys.stdout.flush()
