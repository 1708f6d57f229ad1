#!/usr/bin/env python3
"""Estimates the saturation throughput of the two reference curves whose
saturation issue 8 does not give (BookSim 2's 8-ary 2-cube: "below 0.6";
INSEE's 4-phit mesh: not given), from their own latency points.

Each reference curve of validation.csv is fitted with the open-queue form
latency = T0 + c * load / (s - load) (least squares; s on a 0.0001 grid,
T0 and c linear). On the curves whose saturation the issue states, the
fitted s overshoots the stated one by a factor (stated / fitted); the range
of those factors, applied to the fitted s of the other two curves, gives
their estimated saturation and so whether the loads where our presets
differ by more than 5% lie above 90% of it. An estimate, not a measurement.
Usage: fit_saturation.py [validation.csv]   (prints a table)"""
import csv
import os
import sys

# saturations stated in issue 8 (flits/node/cycle): preset, machine, vcs, packet -> saturation
STATED = {
    ("booksim", "mesh:dims=8x8", 4, 1): 0.416,
    ("booksim", "mesh:dims=8x8", 2, 1): 0.295,
    ("booksim", "mesh:dims=8x8", 4, 4): 0.41,
    ("booksim", "kary-ntree:k=4,n=3", 4, 1): 0.66,
    ("insee", "mesh:dims=8x8", 2, 1): 0.467,
}


def fit(points):
    """(s, T0, c) minimising the squared error of T0 + c x / (s - x)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    best = None
    for i in range(1, 10000):
        s = max(xs) + i * 0.0001
        g = [x / (s - x) for x in xs]
        mg, my = sum(g) / len(g), sum(ys) / len(ys)
        var = sum((a - mg) ** 2 for a in g)
        c = sum((a - mg) * (y - my) for a, y in zip(g, ys)) / var
        t0 = my - c * mg
        err = sum((t0 + c * a - y) ** 2 for a, y in zip(g, ys))
        if best is None or err < best[0]:
            best = (err, s, t0, c)
    return best[1:]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "validation.csv")
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as e:
        sys.exit(f"fit_saturation.py: {path}: {e.strerror}")
    curves = {}
    for r in rows:
        if " " in r["preset"]:
            continue  # a preset with other keys: the same reference points again
        key = (r["preset"], r["machine"], int(r["vcs"]), int(r["packet"]))
        curves.setdefault(key, []).append(
            (float(r["load"]), float(r["reference_latency"]), float(r["difference_pct"])))
    factors = []
    print("reference curve | points | fitted s | stated | stated / fitted")
    for key, pts in curves.items():
        s = fit([(x, y) for x, y, _ in pts])[0]
        if key in STATED:
            factors.append(STATED[key] / s)
            print(f"{' '.join(map(str, key))} | {len(pts)} | {s:.3f} | {STATED[key]} | {STATED[key] / s:.3f}")
    lo, hi = min(factors), max(factors)
    print()
    print("reference curve | fitted s | estimated saturation | loads off by > 5% (of the estimate)")
    for key, pts in curves.items():
        if key in STATED:
            continue
        s = fit([(x, y) for x, y, _ in pts])[0]
        off = [x for x, _, d in pts if abs(d) > 5]
        share = ", ".join(f"{x} ({x / (s * hi):.0%}-{x / (s * lo):.0%})" for x in off)
        print(f"{' '.join(map(str, key))} | {s:.3f} | {s * lo:.3f}-{s * hi:.3f} | {share or 'none'}")


if __name__ == "__main__":
    main()
