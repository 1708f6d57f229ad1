#!/usr/bin/env python3
"""Tables for README.md from run.py's placement.csv and jobs.csv: time
normalised to contiguous per engine, and per-job differences flit vs flow
for the same placements. Usage: summarize.py [DIR]"""
import csv, os, sys
from collections import defaultdict

D = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(os.path.join(D, "placement.csv"))))
kernels = list(dict.fromkeys(r["kernel"] for r in rows))
places = list(dict.fromkeys(r["placement"] for r in rows))
engines = list(dict.fromkeys(r["engine"] for r in rows))
norm = {(r["kernel"], r["placement"], r["engine"]): float(r["normalised"]) for r in rows}
for e in engines:
    print("\n%s (time / contiguous):\n" % e)
    print("| kernel | " + " | ".join(places[1:]) + " |")
    print("|---" * len(places) + "|")
    for k in kernels:
        print("| %s | " % k.upper() + " | ".join("%.3f" % norm[(k, p, e)] for p in places[1:]) + " |")
jobs = defaultdict(dict)
for r in csv.DictReader(open(os.path.join(D, "jobs.csv"))):
    jobs[(r["kernel"], r["placement"], int(r["job"]))][r["engine"]] = float(r["time_s"])
print("\nflit / flow per job, same placement (mean, min, max over the 16 jobs):\n")
print("| kernel | " + " | ".join(places) + " |")
print("|---" * (len(places) + 1) + "|")
for k in kernels:
    cells = []
    for p in places:
        q = [jobs[(k, p, j)]["flit"] / jobs[(k, p, j)]["flow"] for j in range(16)]
        cells.append("%.3f (%.3f-%.3f)" % (sum(q) / len(q), min(q), max(q)))
    print("| %s | " % k.upper() + " | ".join(cells) + " |")
wall = defaultdict(float)
for r in rows:
    wall[(r["kernel"], r["engine"])] += float(r["wall_s"])
print("\nwall time per kernel, all six placements (s):\n")
print("| kernel | " + " | ".join(engines) + " |")
print("|---" * (len(engines) + 1) + "|")
for k in kernels:
    print("| %s | " % k.upper() + " | ".join("%.1f" % wall[(k, e)] for e in engines) + " |")
