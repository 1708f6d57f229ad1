#!/usr/bin/env python3
"""Seed 003's report: reads the three sweeps' per-point tables (torus,
fullmig, flat under this folder) and the logs' statistics (stats_*.txt,
written by run), draws Figs. 3-8 and writes saturation.csv and report.md
(the paper's numbers beside ours). Usage: report.py"""
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from reportlib import read_stats  # noqa: E402
LOGS = [("NASA", "NASA-iPSC-1993-3.1-cln"), ("SDSC", "SDSC-SP2-1998-4.2-cln")]
SCHEDS = [("FCFS", "fcfs", "0"), ("Backfill", "easy", "0"), ("Migration", "fcfs", "1"),
          ("B+M", "easy", "1")]
# the paper's saturation utilizations (section 3.4)
PAPER_SAT = {("NASA", "FCFS"): 0.77, ("NASA", "Migration"): 0.80, ("NASA", "Backfill"): 0.90,
             ("NASA", "B+M"): 0.90, ("SDSC", "FCFS"): 0.63, ("SDSC", "Migration"): 0.73,
             ("SDSC", "Flat FCFS"): 0.80}


def rows(name):
    """Both logs' points of one kind (NAME_nasa and NAME_sdsc)."""
    return [r for lg in ("nasa", "sdsc")
            for r in csv.DictReader(open(os.path.join(HERE, "%s_%s" % (name, lg), "sweep.csv")))]


def series(rs, log, **fixed):
    sel = [r for r in rs if r["log"] == log and all(r[k] == v for k, v in fixed.items())]
    return sorted(sel, key=lambda r: float(r["c"]))


def gnuplot(png, title, xlabel, ylabel, curves, extra=()):
    """curves: (title, [(x, y), ...]) drawn as lines with points."""
    g = ["set terminal pngcairo noenhanced size 1000,420", "set output '%s'" % os.path.join(HERE, png),
         "set grid", "set key top left", "set multiplot layout 1,2 title '%s'" % title]
    for log, cs in curves:
        g += ["set title '%s'" % log, "set xlabel '%s'" % xlabel, "set ylabel '%s'" % ylabel]
        g += list(extra)
        plots = []
        for i, (name, pts) in enumerate(cs):
            g.append("$d%d << EOD" % i)
            g += ["%.6g %.6g" % p for p in pts]
            g.append("EOD")
            plots.append("$d%d using 1:2 with linespoints title '%s'" % (i, name))
        g.append("plot " + ", ".join(plots))
        g += ["unset label"]
    g.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(g) + "\n", text=True, check=True)


def saturation(pts):
    """The highest utilization reached over c (past it, a heavier load only
    makes the queue grow) and the c where it is reached."""
    u, c = max((float(r["utilization"]), float(r["c"])) for r in pts)
    return u, c


def stats(log):
    return read_stats(os.path.join(HERE, "stats_%s.txt" % log))


def main():
    tor, full, flat = rows("torus"), rows("fullmig"), rows("flat")
    util = lambda r: float(r["utilization"])
    # Figs. 3 and 4: wait and bounded slowdown against utilization
    for png, col, yl, ttl in (("fig3_wait.png", "mean_wait_s", "mean wait (s)", "Fig. 3"),
                              ("fig4_bsld.png", "mean_bounded_slowdown", "mean bounded slowdown", "Fig. 4")):
        curves = []
        for log, name in LOGS:
            curves.append((log, [(s, [(util(r), float(r[col])) for r in series(tor, name, sched=k, migrate=m)])
                                 for s, k, m in SCHEDS]))
        gnuplot(png, "%s: %s against utilization (4x4x8 torus, c = 0.7..2.4 NASA, 0.7..1.6 SDSC)" % (ttl, yl), "utilization",
                yl, curves, ["set logscale y"])
    # Fig. 5: torus against flat
    curves = []
    for log, name in LOGS:
        cs = [("torus " + s, [(util(r), float(r["mean_bounded_slowdown"]))
                               for r in series(tor, name, sched=k, migrate="0")]) for s, k, m in SCHEDS[:2]]
        cs += [("flat " + s, [(util(r), float(r["mean_bounded_slowdown"])) for r in series(flat, name, sched=k)])
               for s, k, m in SCHEDS[:2]]
        curves.append((log, cs))
    gnuplot("fig5_flat.png", "Fig. 5: bounded slowdown, torus against a flat machine", "utilization",
            "mean bounded slowdown", curves, ["set logscale y"])
    # Fig. 6: migrations
    curves, curves_t = [], []
    for log, name in LOGS:
        cs, ct = [], []
        for s, k in (("Migration", "fcfs"), ("B+M", "easy")):
            std = series(tor, name, sched=k, migrate="1")
            mx = series(full, name, sched=k)
            cs.append((s + " total", [(util(r), float(r["migrations_tried"])) for r in std]))
            cs.append((s + " successful", [(util(r), float(r["migrations_done"])) for r in std]))
            cs.append((s + " max successful", [(util(r), float(r["migrations_done"])) for r in mx]))
            ct.append((s, [(util(r), float(r["makespan_s"]) / 60 / float(r["migrations_done"]))
                           for r in std if float(r["migrations_done"]) > 0]))
        curves.append((log, cs))
        curves_t.append((log, ct))
    gnuplot("fig6_migrations.png", "Fig. 6 (a, b): migrations against utilization", "utilization",
            "migrations", curves)
    gnuplot("fig6_between.png", "Fig. 6 (c, d): mean time between successful migrations", "utilization",
            "minutes", curves_t)
    # Fig. 7: standard against full migration policy
    curves = []
    for log, name in LOGS:
        cs = []
        for s, k in (("Migration", "fcfs"), ("B+M", "easy")):
            cs.append((s + " standard", [(util(r), float(r["mean_wait_s"]))
                                         for r in series(tor, name, sched=k, migrate="1")]))
            cs.append((s + " full", [(util(r), float(r["mean_wait_s"])) for r in series(full, name, sched=k)]))
        curves.append((log, cs))
    gnuplot("fig7_policy.png", "Fig. 7: standard (FN_tor >= 0.1, FN_max <= 0.7) against full migration policy",
            "utilization", "mean wait (s)", curves, ["set logscale y"])
    # Fig. 8: capacity at c = 1
    cap = []
    for log, name in LOGS:
        for s, k, m in SCHEDS:
            r = next(r for r in tor if r["log"] == name and r["sched"] == k and r["migrate"] == m and r["c"] == "1")
            cap.append((log, s, float(r["utilization"]), float(r["unused_capacity"]), float(r["lost_capacity"])))
    g = ["set terminal pngcairo noenhanced size 900,450", "set output '%s'" % os.path.join(HERE, "fig8_capacity.png"),
         "set style data histograms", "set style histogram rowstacked", "set style fill solid 0.8 border -1",
         "set boxwidth 0.7", "set yrange [0:1]", "set key outside right", "set xtics rotate by -30",
         "set title 'Fig. 8: capacity utilized, unused and lost (c = 1)'", "$d << EOD"]
    g += ['"%s %s" %.4f %.4f %.4f' % c for c in cap]
    g += ["EOD", "plot $d using 2:xtic(1) title 'utilized', '' using 3 title 'unused', '' using 4 title 'lost'"]
    subprocess.run(["gnuplot"], input="\n".join(g) + "\n", text=True, check=True)
    # saturation
    sat = []
    for log, name in LOGS:
        for s, k, m in SCHEDS:
            u, c = saturation(series(tor, name, sched=k, migrate=m))
            sat.append((log, s, u, c))
        for s, k in (("Flat FCFS", "fcfs"), ("Flat Backfill", "easy")):
            u, c = saturation(series(flat, name, sched=k))
            sat.append((log, s, u, c))
    with open(os.path.join(HERE, "saturation.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["log", "scheduler", "max_utilization", "at_c"])
        w.writerows([(a, b, "%.4f" % u, "%g" % c) for a, b, u, c in sat])
    # report
    o = []
    o.append("# Seed 003 reproduced: report\n")
    o.append("Generated by `results/seed003/run` (report.py). Saturation is measured as the highest "
             "utilization any c reaches (NASA 0.7..2.4, SDSC 0.7..1.6) (past it a heavier load only lengthens the queue).\n")
    o.append("## Table 1: the 10,000-job spans\n")
    o.append("| statistic | NASA paper | NASA ours | SDSC paper | SDSC ours |")
    o.append("|---|---|---|---|---|")
    st = {log: stats(name) for log, name in LOGS}
    o.append("| job size mean | 6.3 | %.1f | 9.7 | %.1f |" % (float(st["NASA"]["size_mean"]), float(st["SDSC"]["size_mean"])))
    o.append("| job size sd | 14.4 | %.1f | 14.8 | %.1f |" % (float(st["NASA"]["size_sd"]), float(st["SDSC"]["size_sd"])))
    o.append("| workload mean (node-s) | 0.881e6 | %.3g | 7.1e6 | %.3g |"
             % (float(st["NASA"]["work_mean_node_s"]), float(st["SDSC"]["work_mean_node_s"])))
    o.append("| workload sd (node-s) | 5.41e6 | %.3g | 25.5e6 | %.3g |"
             % (float(st["NASA"]["work_sd_node_s"]), float(st["SDSC"]["work_sd_node_s"])))
    o.append("| powers of two | all | %.0f%% | none required | %.0f%% |"
             % (100 * float(st["NASA"]["frac_pow2"]), 100 * float(st["SDSC"]["frac_pow2"])))
    o.append("")
    o.append("## Saturation utilization (Figs. 3-5)\n")
    o.append("| log | scheduler | paper | ours (at c) | difference |")
    o.append("|---|---|---|---|---|")
    for log, s, u, c in sat:
        p = PAPER_SAT.get((log, s))
        if (log, s) in (("NASA", "Backfill"), ("NASA", "B+M")):
            ptxt = "close to 0.90"
        elif p is None:
            ptxt = "not given"
        else:
            ptxt = "%.2f" % p
        o.append("| %s | %s | %s | %.3f (c = %g) | %s |" % (log, s, ptxt, u, c, "%+.3f" % (u - p) if p else ""))
    o.append("")
    o.append("## Fig. 8: capacity at c = 1\n")
    o.append("| log | scheduler | utilized | unused | lost |")
    o.append("|---|---|---|---|---|")
    for c in cap:
        o.append("| %s | %s | %.3f | %.3f | %.3f |" % c)
    sd = {s: (u, un, lo) for log, s, u, un, lo in cap if log == "SDSC"}
    f = sd["FCFS"]
    o.append("")
    o.append("SDSC, against FCFS (paper: Backfill +15% utilized and -44% lost, Migration +13% and -32%, "
             "B+M +15% and -54%):\n")
    o.append("| scheduler | utilized (relative change) | lost (relative change) |")
    o.append("|---|---|---|")
    for s in ("Backfill", "Migration", "B+M"):
        u, un, lo = sd[s]
        o.append("| %s | %+.0f%% | %+.0f%% |" % (s, 100 * (u / f[0] - 1), 100 * (lo / f[2] - 1)))
    o.append("")
    o.append("## Fig. 6: migrations at c = 1 (standard policy; max successful = full policy)\n")
    o.append("| log | scheduler | attempted | successful | max successful (of attempts, full policy) | mean time between successful (min) |")
    o.append("|---|---|---|---|---|---|")
    for log, name in LOGS:
        for s, k in (("Migration", "fcfs"), ("B+M", "easy")):
            r = next(r for r in tor if r["log"] == name and r["sched"] == k and r["migrate"] == "1" and r["c"] == "1")
            x = next(r for r in full if r["log"] == name and r["sched"] == k and r["c"] == "1")
            done = float(r["migrations_done"])
            o.append("| %s | %s | %s | %s | %s (of %s) | %s |" % (log, s, r["migrations_tried"], r["migrations_done"],
                                                        x["migrations_done"], x["migrations_tried"],
                                                        "%.0f" % (float(r["makespan_s"]) / 60 / done) if done else "-"))
    o.append("")
    with open(os.path.join(HERE, "report.md"), "w") as fo:
        fo.write("\n".join(o) + "\n")


main()
