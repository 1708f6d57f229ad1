#!/usr/bin/env python3
"""Seed 001 Fig. 6: the mean response time of the co-allocated jobs by psi
group C1..C4 (psi in [0, .05), [.05, .10), [.10, .15), [.15, .20)) against
thres, psi drawn per job from U[0.001, 0.199]; means over the repetitions
with their 95 % intervals, all four groups on one figure as the paper
draws them. Reads fig56/sweep_ci.csv (sweep's table of fig56.sweep),
writes fig56/fig6.png.
Usage: python3 results/seed001/fig6.py"""
import csv
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DRAWN = "psi_min=0.001,psi_max=0.199,seed=7"
GROUPS = [("C1", "art_c1_s", "[0, 0.05)"), ("C2", "art_c2_s", "[0.05, 0.10)"),
          ("C3", "art_c3_s", "[0.10, 0.15)"), ("C4", "art_c4_s", "[0.15, 0.20)")]


def main():
    rows = [r for r in csv.DictReader(open(os.path.join(HERE, "fig56", "sweep_ci.csv")))
            if r["psi"] == DRAWN]
    rows.sort(key=lambda r: int(r["thres"]))
    gp = ["set terminal pngcairo noenhanced size 900,560 font ',10'",
          "set output '%s'" % os.path.join(HERE, "fig56", "fig6.png"),
          "set grid", "set key outside right", "set xlabel 'thres'",
          "set ylabel 'ART of the co-allocated jobs (s)'",
          "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05",
          "set title 'Fig. 6: co-allocated jobs by psi group (psi ~ U[0.001, 0.199]; mean and 95% CI)'"]
    plots = []
    for name, col, rng in GROUPS:
        pts = [(r["thres"], r[col], r[col + "_ci95"] or "0") for r in rows if r[col]]
        if not pts:
            continue
        gp.append("$%s << EOD" % name)
        gp += ["%s %s %s" % p for p in pts]
        gp.append("EOD")
        plots.append("$%s using 1:2:3 with yerrorlines title '%s: psi in %s'" % (name, name, rng))
    gp.append("plot " + ", ".join(plots))
    subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, check=True)


if __name__ == "__main__":
    main()
