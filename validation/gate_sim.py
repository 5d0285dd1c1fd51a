#!/usr/bin/env python3
"""What k and the history length mean for learned gates, by simulation: histories of n runs whose log medians
are normal, the drift estimated as analysis/gates.cpp does (pairs of runs at most 3 apart, lower median of their
|log ratio|, x 1.4826, the small-sample correction), then a fresh A/A pair of runs; prints how often that pair's
change crosses k x the estimated drift (a false alarm of one case in one comparison, floor and rank test aside),
and how much a real step or one bad night in the history moves the estimate.
Usage: validation/gate_sim.py [HISTORIES]   (default 30000; the figures in docs/validation.md)"""
import math
import random
import statistics
import sys

REACH = 3
SMALL = [1, 1, 0.846, 0.769, 1.091, 0.907, 1.005, 0.928, 1.001, 0.945, 0.996,
         0.955, 0.997, 0.963, 0.999, 0.967, 0.997, 0.971, 0.997, 0.976, 0.997]


def unbiasing(n):
    if n < len(SMALL):
        return SMALL[n]
    return 0.997 if n % 2 == 0 else 1 - 0.5 / n


def drift(logs):
    pairs = sorted(abs(logs[i] - logs[j]) for i in range(len(logs)) for j in range(max(0, i - REACH), i))
    return 1.4826 * pairs[(len(pairs) - 1) // 2] * unbiasing(len(logs))


def main():
    histories = int(sys.argv[1]) if len(sys.argv) > 1 else 30000
    rng = random.Random(8)
    print("false alarms per case per A/A comparison (log medians normal, spread 1 per run):")
    for n in (5, 6, 8, 12, 30):
        crossed = {3: 0, 4: 0, 5: 0, 6: 0}
        for _ in range(histories):
            d = drift([rng.gauss(0, 1) for _ in range(n)])
            change = abs(rng.gauss(0, 1) - rng.gauss(0, 1))
            for k in crossed:
                crossed[k] += change > k * d
        print("  %2d runs: " % n + ", ".join("k=%d %.2f%%" % (k, 100 * c / histories) for k, c in crossed.items()))
    print("  known drift: " + ", ".join("k=%d %.4f%%" % (k, 100 * math.erfc(k / math.sqrt(2))) for k in (3, 4, 5, 6)))
    print("drift with / without, median and 90th percentile over %d histories:" % (histories // 10))
    for what, n, spoil in (("a step of 6 spreads halfway", 30, lambda x: [v + 6 * (i >= 15) for i, v in enumerate(x)]),
                           ("one bad night (40 spreads)", 30, lambda x: x[:15] + [x[15] + 40] + x[16:]),
                           ("one bad night (40 spreads)", 15, lambda x: x[:7] + [x[7] + 40] + x[8:]),
                           ("one bad night (40 spreads)", 5, lambda x: x[:2] + [x[2] + 40] + x[3:])):
        ratios = sorted(drift(spoil(x)) / drift(x) for x in ([rng.gauss(0, 1) for _ in range(n)] for _ in range(histories // 10)))
        print("  %-28s %2d runs: %.2f, %.2f" % (what, n, statistics.median(ratios), ratios[int(0.9 * len(ratios))]))


if __name__ == "__main__":
    main()
