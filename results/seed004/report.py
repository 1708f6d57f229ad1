#!/usr/bin/env python3
"""Seed 004's report: reads the four sweeps' points (exp1, exp2, exp3, mesh
under this folder; each point's jobs.csv and summary.csv), writes Tables
1-5 beside the paper's numbers, the by-size and by-priority comparisons,
the mesh experiment, figures (gnuplot) and report.md. Usage: report.py"""
import csv
import os
import statistics as st
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SCEN = [("Static", "static", "none"), ("FCFS-PR", "fcfs-pr", "fcfs"),
        ("Max-B-PR", "maxb-pr", "maxb"), ("PBA-PR", "pba-pr", "pba")]
CLASS = {32: "small", 35: "small", 64: "medium", 81: "medium", 128: "large", 136: "large"}
SIZES = ["small", "medium", "large"]
PROFILES = ["cg", "mg", "ft", "is", "lu"]

# The paper's numbers.
P_T1 = {"Static": (83.6, 647.6, None, 141.7, None), "FCFS-PR": (87.0, 546.7, 15.6, 138.8, 2.1),
        "Max-B-PR": (93.7, 605.9, 6.4, 128.6, 9.3), "PBA-PR": (92.0, 572.2, 11.2, 131.5, 7.2)}
P_T2 = {"Static": (529.3, 177.7, 675.27, 240.1, 435.2),
        "FCFS-PR": (421.5, 114.0, 548.17, 235.0, 313.2),
        "Max-B-PR": (483.9, 133.0, 600.26, 243.4, 356.9),
        "PBA-PR": (459.8, 133.0, 603.94, 233.2, 370.8)}
P_T3 = {"Static": [783.2, 475.0, 752.2, 604.7, 774.1, 381.8, 762.4],
        "FCFS-PR": [657.8, 423.9, 600.8, 529.8, 631.0, 375.2, 608.6],
        "Max-B-PR": [731.0, 500.1, 710.3, 571.2, 660.4, 370.5, 697.7],
        "PBA-PR": [675.4, 469.2, 632.0, 527.4, 645.4, 356.0, 721.0]}
P_T4 = {0: (521.06, 81.5, 601.93, 410.29, 191.64), 25: (478.43, 103.6, 570.53, 320.33, 250.2),
        50: (451.7, 82.88, 551.39, 325.32, 226.07), 75: (421.71, 74.06, 513.45, 313.04, 200.41),
        100: (412.53, 77.83, 479.83, 300.7, 179.13)}
P_EXP2 = {25: (5.5, 85.4), 50: (10.6, 87.1), 75: (14.6, 89.5), 100: (16.56, 91.4)}  # improv., util
P_T5 = {"static-nopr": (639.5, 645.7, 633.2), "static-pr": (581.4, 968.6, 194.2),
        "pba-nopr": (571.2, 565.1, 577.3), "pba-pr": (535.8, 884.2, 187.5)}
# Figs. 7 and 8 (section 4.2's text): % improvement over static by size.
P_SIZE_WAIT = {"FCFS-PR": {"small": 61.9, "medium": 6.0, "large": 9.5},
               "PBA-PR": {"small": 34.01, "medium": 6.3, "large": 7.9},
               "Max-B-PR": {"small": 11.9, "medium": 7.0, "large": 7.0}}
P_SIZE_EXEC = {"FCFS-PR": {"small": 1.9, "medium": 2.0, "large": 2.5},
               "PBA-PR": {"small": 10.4, "medium": 6.8, "large": 6.7},
               "Max-B-PR": {"small": 16.45, "medium": 9.2, "large": 7.5}}


def point(sweep, **axes):
    name = "_".join("%s-%s" % kv for kv in axes.items()) + "_rep-1"
    d = os.path.join(HERE, sweep, "points", name)
    jobs = list(csv.DictReader(open(os.path.join(d, "jobs.csv"))))
    summ = next(csv.DictReader(open(os.path.join(d, "summary.csv"))))
    return jobs, summ


def mean(jobs, col, pred=lambda j: True):
    v = [float(j[col]) for j in jobs if pred(j)]
    return st.mean(v) if v else float("nan")


def of_size(s):
    return lambda j: CLASS[int(j["requested_number_of_resources"])] == s


def improv(base, x):
    return 100.0 * (base - x) / base


def fmt(x, d=1):
    return "—" if x is None else ("%.*f" % (d, x))


def gnuplot(png, script, size="1100,450"):
    g = ["set terminal pngcairo noenhanced size %s" % size, "set output '%s'" % os.path.join(HERE, png)]
    subprocess.run(["gnuplot"], input="\n".join(g + script) + "\n", text=True, check=True)


def bars(title, ylabel, labels, series):
    """A clustered bar chart: series = [(name, [values per label]), ...]."""
    s = ["set title '%s'" % title, "set ylabel '%s'" % ylabel, "set style data histograms",
         "set style histogram clustered gap 1", "set style fill solid 0.7 border -1",
         "set key outside bottom center horizontal", "set grid ytics", "set yrange [0:*]"]
    rows = []
    for i, lab in enumerate(labels):  # labels without blanks: no quotes needed
        rows.append("%s " % lab.replace(" ", "_") + " ".join("%.6g" % v[1][i] for v in series))
    s += ["$d << EOD"] + rows + ["EOD"]
    s.append("plot " + ", ".join("$d using %d:xtic(1) title '%s'" % (k + 2, n)
                                 for k, (n, _) in enumerate(series)))
    return s


def exp1(md):
    mixes = range(1, 8)
    res = {}
    for name, sc, pol in SCEN:
        per = []
        for m in mixes:
            jobs, summ = point("exp1", scenario=sc, policy=pol, mix=m)
            per.append({"compl": mean(jobs, "turnaround_time"), "exec": mean(jobs, "execution_time"),
                        "wait": mean(jobs, "waiting_time"), "util": 100 * float(summ["utilization"]),
                        "exp": int(summ["expansions"]), "con": int(summ["contractions"]),
                        "size": {s: (mean(jobs, "waiting_time", of_size(s)),
                                     mean(jobs, "execution_time", of_size(s))) for s in SIZES}})
        res[name] = per
    avg = {n: {k: st.mean(p[k] for p in res[n]) for k in ("compl", "exec", "wait", "util", "exp", "con")}
           for n in res}
    b = avg["Static"]
    md += ["## Section 4.2: 100% resizable workloads (seven job mixes)", "",
           "### Table 1: completion and execution time", "",
           "| scenario | utilization % (paper) | completion s (paper) | improv. % (paper) "
           "| execution s (paper) | improv. % (paper) | expansions | contractions |",
           "|---|---|---|---|---|---|---|---|"]
    for n, _, _ in SCEN:
        a, p = avg[n], P_T1[n]
        ic = None if n == "Static" else improv(b["compl"], a["compl"])
        ie = None if n == "Static" else improv(b["exec"], a["exec"])
        md.append("| %s | %.1f (%.1f) | %.1f (%.1f) | %s (%s) | %.1f (%.1f) | %s (%s) | %.0f | %.0f |" % (
            n, a["util"], p[0], a["compl"], p[1], fmt(ic), fmt(p[2]), a["exec"], p[3], fmt(ie),
            fmt(p[4]), a["exp"], a["con"]))
    md += ["", "### Table 2: mean queue wait over the mixes", "",
           "| scenario | average (paper) | std. dev. (paper) | max (paper) | min (paper) | range (paper) |",
           "|---|---|---|---|---|---|"]
    for n, _, _ in SCEN:
        w = [p["wait"] for p in res[n]]
        ours = (st.mean(w), st.stdev(w), max(w), min(w), max(w) - min(w))
        md.append("| %s | " % n + " | ".join("%.1f (%.1f)" % (o, q) for o, q in zip(ours, P_T2[n])) + " |")
    md += ["", "### Table 3: mean completion time per job mix", "",
           "| mix | " + " | ".join("%s (paper)" % n for n, _, _ in SCEN) + " |",
           "|---|" + "---|" * len(SCEN)]
    for i, m in enumerate(mixes):
        md.append("| %d | " % m + " | ".join("%.1f (%.1f)" % (res[n][i]["compl"], P_T3[n][i])
                                              for n, _, _ in SCEN) + " |")
    for lab, f in (("mean", st.mean), ("st. dev.", st.stdev)):
        md.append("| %s | " % lab + " | ".join("%.1f (%.1f)" % (f([p["compl"] for p in res[n]]), f(P_T3[n]))
                                                for n, _, _ in SCEN) + " |")
    md += ["", "### Figs. 7 and 8: queue wait and execution time by job size "
           "(% improvement over static; paper in brackets)", "",
           "| scenario | " + " | ".join("wait %s" % s for s in SIZES) + " | "
           + " | ".join("exec %s" % s for s in SIZES) + " |", "|---|" + "---|" * 6]
    size_avg = {n: {s: (st.mean(p["size"][s][0] for p in res[n]), st.mean(p["size"][s][1] for p in res[n]))
                    for s in SIZES} for n in res}
    for n, _, _ in SCEN[1:]:
        cells = ["%.1f (%.1f)" % (improv(size_avg["Static"][s][0], size_avg[n][s][0]), P_SIZE_WAIT[n][s])
                 for s in SIZES]
        cells += ["%.1f (%.1f)" % (improv(size_avg["Static"][s][1], size_avg[n][s][1]), P_SIZE_EXEC[n][s])
                  for s in SIZES]
        md.append("| %s | " % n + " | ".join(cells) + " |")
    md.append("")
    names = [n for n, _, _ in SCEN]
    s = ["set multiplot layout 2,2"]
    for key, title, yl, pk in (("compl", "completion (Fig. 3)", "s", 1), ("exec", "execution (Fig. 4)", "s", 3),
                               ("wait", "queue wait (Fig. 5)", "s", None), ("util", "utilization (Fig. 6)", "%", 0)):
        paper = [P_T1[n][pk] for n in names] if pk is not None else [P_T2[n][0] for n in names]
        s += bars(title, yl, names, [("ours", [avg[n][key] for n in names]), ("paper", paper)])
    s.append("unset multiplot")
    gnuplot("exp1_scenarios.png", s, "1000,800")
    s = ["set multiplot layout 1,2"]
    s += bars("queue wait by size (Fig. 7)", "s", SIZES, [(n, [size_avg[n][x][0] for x in SIZES]) for n in names])
    s += bars("execution by size (Fig. 8)", "s", SIZES, [(n, [size_avg[n][x][1] for x in SIZES]) for n in names])
    s.append("unset multiplot")
    gnuplot("exp1_bysize.png", s)
    md += ["![scenarios](exp1_scenarios.png)", "", "![by size](exp1_bysize.png)", ""]
    return avg


def exp2(md):
    pcts = [0, 25, 50, 75, 100]
    res = {}
    for pc in pcts:
        per = []
        for m in range(1, 6):
            jobs, summ = point("exp2", pct=pc, mix=m)
            per.append({"compl": mean(jobs, "turnaround_time"), "wait": mean(jobs, "waiting_time"),
                        "util": 100 * float(summ["utilization"]),
                        "size": {s: mean(jobs, "turnaround_time", of_size(s)) for s in SIZES}})
        res[pc] = per
    base = st.mean(p["compl"] for p in res[0])
    md += ["## Section 4.3: PBA-PR with part of the jobs resizable (five mixes)", "",
           "### Table 4: mean queue wait over the mixes (and Figs. 9, 10)", "",
           "| resizable | average (paper) | std. dev. (paper) | max (paper) | min (paper) | range (paper) "
           "| completion improv. % (paper) | utilization % (paper) |", "|---|---|---|---|---|---|---|---|"]
    for pc in pcts:
        w = [p["wait"] for p in res[pc]]
        ours = (st.mean(w), st.stdev(w), max(w), min(w), max(w) - min(w))
        c = st.mean(p["compl"] for p in res[pc])
        u = st.mean(p["util"] for p in res[pc])
        pi, pu = P_EXP2.get(pc, (None, 83.0))
        md.append("| %s | " % ("static" if pc == 0 else "%d%%" % pc)
                  + " | ".join("%.1f (%.1f)" % (o, q) for o, q in zip(ours, P_T4[pc]))
                  + " | %s (%s) | %.1f (%.1f) |" % (fmt(None if pc == 0 else improv(base, c)), fmt(pi), u, pu))
    md += ["", "Fig. 11, mean completion by size (s):", "",
           "| resizable | " + " | ".join(SIZES) + " |", "|---|---|---|---|"]
    for pc in pcts:
        md.append("| %d%% | " % pc + " | ".join("%.1f" % st.mean(p["size"][s] for p in res[pc]) for s in SIZES) + " |")
    md.append("")
    s = ["set multiplot layout 1,2"]
    labels = ["%d%%" % pc for pc in pcts]
    s += bars("completion (Fig. 9)", "s", labels, [("ours", [st.mean(p["compl"] for p in res[pc]) for pc in pcts])])
    s += bars("utilization (Fig. 10)", "%", labels,
              [("ours", [st.mean(p["util"] for p in res[pc]) for pc in pcts]),
               ("paper", [83.0] + [P_EXP2[pc][1] for pc in pcts[1:]])])
    s.append("unset multiplot")
    gnuplot("exp2_resizable.png", s)
    md += ["![resizable share](exp2_resizable.png)", ""]


def exp3(md):
    scen = [("Static w/o priority", "static-nopr", "none", 0), ("Static w/ priority", "static-pr", "none", 100),
            ("PBA-PR w/o priority", "pba-nopr", "pba", 0), ("PBA-PR w/ priority", "pba-pr", "pba", 100)]
    res = {}
    for name, sc, pol, pr in scen:
        per = []
        for m in range(1, 6):
            jobs, _ = point("exp3", scenario=sc, policy=pol, prio=pr, mix=m)
            # the platinum jobs: those with a user priority in the w/ run of the same mix
            jp, _ = point("exp3", scenario="static-pr", policy="none", prio=100, mix=m)
            plat = {j["job_id"] for j in jp if float(j["user_priority"]) > 0}
            per.append({"all": mean(jobs, "turnaround_time"),
                        "gold": mean(jobs, "turnaround_time", lambda j: j["job_id"] not in plat),
                        "plat": mean(jobs, "turnaround_time", lambda j: j["job_id"] in plat),
                        "gold_size": {s: (mean(jobs, "waiting_time", lambda j, s=s: j["job_id"] not in plat and of_size(s)(j)),
                                          mean(jobs, "execution_time", lambda j, s=s: j["job_id"] not in plat and of_size(s)(j)))
                                      for s in SIZES}})
        res[sc] = per
    md += ["## Section 4.4: user priorities (50% resizable, 50% platinum; five mixes)", "",
           "### Table 5: mean completion time (s)", "",
           "| scenario | overall (paper) | gold (paper) | platinum (paper) |", "|---|---|---|---|"]
    for name, sc, _, _ in scen:
        a = [st.mean(p[k] for p in res[sc]) for k in ("all", "gold", "plat")]
        md.append("| %s | " % name + " | ".join("%.1f (%.1f)" % (x, q) for x, q in zip(a, P_T5[sc])) + " |")
    md += ["", "Figs. 13 and 14, gold jobs by size under priorities, PBA-PR against static "
           "(% improvement; paper: wait 43.1 / 5.6 / 6.5, execution 5.5 / 5 / 6 for small / medium / large):", "",
           "| | " + " | ".join(SIZES) + " |", "|---|---|---|---|"]
    for k, lab in ((0, "queue wait"), (1, "execution")):
        md.append("| %s | " % lab + " | ".join(
            "%.1f" % improv(st.mean(p["gold_size"][s][k] for p in res["static-pr"]),
                            st.mean(p["gold_size"][s][k] for p in res["pba-pr"])) for s in SIZES) + " |")
    md.append("")
    s = bars("completion by priority (Fig. 12)", "s", ["gold", "platinum", "all"],
             [(name, [st.mean(p[k] for p in res[sc]) for k in ("gold", "plat", "all")])
              for name, sc, _, _ in scen])
    gnuplot("exp3_priority.png", s)
    md += ["![priorities](exp3_priority.png)", ""]


def mesh(md, flat):
    md += ["## The same on a 20x20 mesh, topology-aware placement, emergent run time", "",
           "`cosim`, `linkload` (NPB-like profiles cg/mg/ft/is/lu, class A), seven mixes; "
           "flat = Table 1's runs (the `reshape` model, no network).", "",
           "| allocator | scenario | completion s | improv. % | execution s | improv. % | wait s "
           "| utilization % | effective speed-up | mean pairwise hops | expansions | contractions |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    out = {}
    for alloc in ("curve", "first-free"):
        for name, sc, pol in SCEN:
            per = []
            for m in range(1, 8):
                jobs, summ = point("mesh", alloc=alloc, scenario=sc, policy=pol, mix=m)
                per.append({"compl": mean(jobs, "turnaround_time"), "exec": mean(jobs, "execution_time"),
                            "wait": mean(jobs, "waiting_time"), "util": 100 * float(summ["utilization"]),
                            "sp": float(summ["mean_effective_speedup"]),
                            "pw": float(summ["mean_pairwise_mean"]),
                            "exp": int(summ["expansions"]), "con": int(summ["contractions"])})
            out[(alloc, name)] = {k: st.mean(p[k] for p in per) for k in per[0]}
    for alloc in ("curve", "first-free"):
        b = out[(alloc, "Static")]
        for name, _, _ in SCEN:
            a = out[(alloc, name)]
            md.append("| %s | %s | %.1f | %s | %.1f | %s | %.1f | %.1f | %.3f | %.2f | %.0f | %.0f |" % (
                alloc, name, a["compl"], fmt(None if name == "Static" else improv(b["compl"], a["compl"])),
                a["exec"], fmt(None if name == "Static" else improv(b["exec"], a["exec"])), a["wait"],
                a["util"], a["sp"], a["pw"], a["exp"], a["con"]))
    for name, _, _ in SCEN:
        a = flat[name]
        md.append("| flat (reshape model) | %s | %.1f | %s | %.1f | %s | %.1f | %.1f | | | %.0f | %.0f |" % (
            name, a["compl"], fmt(None if name == "Static" else improv(flat["Static"]["compl"], a["compl"])),
            a["exec"], fmt(None if name == "Static" else improv(flat["Static"]["exec"], a["exec"])),
            a["wait"], a["util"], a["exp"], a["con"]))
    md += ["", "Execution time under resizing over the same job's under static scheduling "
           "(curve allocator, seven mixes), by profile, for the jobs that resized and those that did not:", "",
           "| scenario | jobs | all | " + " | ".join(PROFILES) + " |", "|---|---|---|" + "---|" * len(PROFILES)]
    for name, sc, pol in SCEN[1:]:
        ratios = {True: [], False: []}
        for m in range(1, 8):
            a = {j["job_id"]: j for j in point("mesh", alloc="curve", scenario="static", policy="none", mix=m)[0]}
            for j in point("mesh", alloc="curve", scenario=sc, policy=pol, mix=m)[0]:
                x = a[j["job_id"]]
                ratios[int(j["expansions"]) > 0].append(
                    (float(j["execution_time"]) / float(x["execution_time"]), x["profile"]))
        for resized in (True, False):
            v = ratios[resized]
            cells = ["%.2f (%d)" % (st.mean(r for r, q in v if q == p), sum(1 for _, q in v if q == p))
                     if any(q == p for _, q in v) else "" for p in PROFILES]
            md.append("| %s | %s | %.2f | " % (name, "resized" if resized else "never resized",
                                               st.mean(r for r, _ in v)) + " | ".join(cells) + " |")
    md.append("")
    names = [n for n, _, _ in SCEN]
    s = ["set multiplot layout 1,2"]
    s += bars("completion", "s", names, [("mesh curve", [out[("curve", n)]["compl"] for n in names]),
                                          ("mesh first-free", [out[("first-free", n)]["compl"] for n in names]),
                                          ("flat", [flat[n]["compl"] for n in names])])
    s += bars("execution", "s", names, [("mesh curve", [out[("curve", n)]["exec"] for n in names]),
                                         ("mesh first-free", [out[("first-free", n)]["exec"] for n in names]),
                                         ("flat", [flat[n]["exec"] for n in names])])
    s.append("unset multiplot")
    gnuplot("mesh.png", s)
    md += ["![mesh](mesh.png)", ""]
    return out


def sens(md):
    md += ["## Sensitivity: what the paper leaves open (seven mixes each)", "",
           "Static baseline by scheduler (paper: completion 647.6 s, execution 141.7 s, "
           "utilization 83.6 %):", "",
           "| static scheduler | completion s | wait s | utilization % |", "|---|---|---|---|"]
    base = {}
    for sched in ("easy", "fcfs"):
        per = [point("sens_static", sched=sched, mix=m) for m in range(1, 8)]
        base[sched] = (st.mean(mean(j, "turnaround_time") for j, _ in per),
                       st.mean(mean(j, "execution_time") for j, _ in per))
        md.append("| %s | %.1f | %.1f | %.1f |" % (
            sched, base[sched][0], st.mean(mean(j, "waiting_time") for j, _ in per),
            st.mean(100 * float(x["utilization"]) for _, x in per)))
    md += ["", "Completion / execution time improvement over that static baseline, % "
           "(paper: FCFS-PR 15.6 / 2.1, Max-B-PR 6.4 / 9.3, PBA-PR 11.2 / 7.2):", "",
           "| scheduler | arbitrary jobs grow by | speed-up factor from | FCFS-PR | Max-B-PR | PBA-PR |",
           "|---|---|---|---|---|---|"]
    for sched in ("easy", "fcfs"):
        for step in ("row", "start"):
            for frm in ("current", "start"):
                cells = []
                for name, sc, pol in SCEN[1:]:
                    per = [point("sens", sched=sched, step=step, **{"from": frm}, scenario=sc, policy=pol, mix=m)[0]
                           for m in range(1, 8)]
                    c = st.mean(mean(j, "turnaround_time") for j in per)
                    x = st.mean(mean(j, "execution_time") for j in per)
                    cells.append("%.1f / %.1f" % (improv(base[sched][0], c), improv(base[sched][1], x)))
                md.append("| %s | %s | %s | " % (sched, "a row" if step == "row" else "its starting size",
                                                 "size left" if frm == "current" else "starting size")
                          + " | ".join(cells) + " |")
    md.append("")


def main():
    md = []
    flat = exp1(md)
    sens(md)
    exp2(md)
    exp3(md)
    mesh(md, flat)
    text = open(os.path.join(HERE, "report_head.md")).read()
    with open(os.path.join(HERE, "report.md"), "w") as f:
        f.write(text + "\n" + "\n".join(md) + "\n")


if __name__ == "__main__":
    main()
