#!/usr/bin/env python3
"""Seed 000 section 5, Fig. 2, as the paper ran it (issue 24 A): 16 jobs of the
same 16-rank NPB-like trace run together on a 4-ary 4-tree (256 nodes),
communication only (infinite-speed CPUs, as INSEE measures), placed

 - contiguous: job j on the 16 nodes of one level-2 subtree (16j .. 16j + 15);
 - quasi-q, q = 1..4: the last q ranks of every job moved into the next job's
   subtree (which sends its own q on);
 - non-contiguous, in three readings of the paper's "tasks distributed along
   all the switches at level 4":
     stride:  rank r of job j on node 16 r + j (every job on every leaf switch,
              a regular stride that d-mod-k spreads over disjoint up links);
     random:  a random scatter, the 256 nodes shuffled and dealt 16 a job,
              one run per seed (the paper: first-free "in the long run
              behaves as a random allocation");
     churn:   what first-free leaves on a fragmented machine: background
              jobs of 1 to 32 nodes come and go first-free (lowest free ids)
              for 2,000 steps (each starts one that fits, or ends a running
              one drawn at random, keeping the machine at least half busy),
              then the 16 jobs arrive: each takes the 16 lowest free ids
              when 16 are free, while background jobs end at random and no
              new one starts, until the 16 fill the machine (three seeds);
on three engines: the flit engine with the `insee` preset (INSEE's router and
its routing on trees, routing=fsin), the same with d-mod-k
(routing=deterministic), and SimGrid's flow level (hosts at 10^18 flop/s:
compute takes no time); and, for the factor a user of seed 000's speed-up
parameter should take, flit-fsin-compute and flow-compute: the same with
every rank's compute at the machine's node speed (10^9 flop/s). The time of
a placement is the mean of its 16 jobs' times (netsim --jobs-out time_s),
normalised to the contiguous placement's.

Usage: fig2.py [--build DIR] [--class A] [--kernels cg,mg,ft,is,lu]
               [--engines flit-fsin,flit-dmodk,flow] [--seeds 10]
               [--placements contiguous,quasi-1,...] [--iterations 1]
               [--jobs N] [--alone] [--no-run] [--out DIR]
With --alone every job also runs alone on its nodes (netsim without
--no-alone): the summary then splits a placement's factor into its own
cost (the jobs alone on their nodes, over contiguous alone) and the other
jobs' (together over alone).
Writes fig2-tables.md (the summary as Markdown tables), fig2.csv (one row
per run, appended as each run ends, so that an interrupted experiment goes
on where it stopped: a run already in fig2.csv with the same class and
iterations is not run again), fig2-summary.csv (per
engine, kernel and placement: the normalised time, and for random and churn
the mean and 95% interval over the seeds) and fig2.png in --out (default:
this folder). --jobs runs that many netsim processes at once; --no-run runs
none and writes the summary, tables and figure of what fig2.csv holds.
"""
import argparse
import concurrent.futures
import csv
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # results/seed000 -> the project
MACHINE = "kary-ntree:k=4,n=4"
J, R, N = 16, 16, 256  # jobs, ranks per job, nodes
ENGINES = {
    "flit-fsin": (MACHINE, ["--engine", "flit:preset=insee,compute=zero"]),
    "flit-dmodk": (MACHINE, ["--engine", "flit:preset=insee,routing=deterministic,compute=zero"]),
    "flow": (MACHINE + ",speed=1e18", []),
    # with compute at the machine's node speed (10^9 flop/s a rank)
    "flit-fsin-compute": (MACHINE, ["--engine", "flit:preset=insee"]),
    "flow-compute": (MACHINE, []),
}
# 95% two-sided t quantiles for n - 1 degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 14: 2.145, 19: 2.093, 29: 2.045}


def block(j):
    return [j * R + r for r in range(R)]


def quasi(q):
    return [block(j)[: R - q] + [((j + 1) % J) * R + R - q + i for i in range(q)] for j in range(J)]


def stride():
    return [[r * J + j for r in range(R)] for j in range(J)]


def scatter(seed):
    nodes = list(range(N))
    random.Random(seed).shuffle(nodes)
    return [sorted(nodes[j * R:(j + 1) * R]) for j in range(J)]


def churn(seed, steps=2000):
    """First-free under churn (see the top): the 16 jobs' node sets."""
    rng = random.Random(seed)
    free = [True] * N
    background, jobs = [], []

    def first_free(size):
        nodes = [v for v in range(N) if free[v]][:size]
        for v in nodes:
            free[v] = False
        return nodes

    def end_background():
        for v in background.pop(rng.randrange(len(background))):
            free[v] = True

    for _ in range(steps):
        size, nfree = rng.randint(1, 32), free.count(True)
        if background and (size > nfree or (N - nfree > N // 2 and rng.random() < 0.5)):
            end_background()
        elif size <= nfree:
            background.append(first_free(size))
    while len(jobs) < J:
        if free.count(True) >= R:
            jobs.append(first_free(R))
        else:
            end_background()
    assert not background
    return jobs


def placements(seeds):
    out = [("contiguous", None, [block(j) for j in range(J)])]
    out += [("quasi-%d" % q, None, quasi(q)) for q in (1, 2, 3, 4)]
    out += [("stride", None, stride())]
    out += [("random", s, scatter(s)) for s in range(1, seeds + 1)]
    out += [("churn", s, churn(s)) for s in range(1, min(seeds, 3) + 1)]
    return out


def run(netsim, machine, engine_args, trace, placement, iterations, alone):
    """The mean time of the 16 jobs together, and alone on the same nodes
    (each job's own run; None unless alone)."""
    jobs = []
    for nodes in placement:
        assert len(nodes) == R and len(set(nodes)) == R
        jobs += ["--job", "%s@%s" % (trace, ",".join(map(str, nodes)))]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "jobs.csv")
        subprocess.run([netsim, "--machine", machine, "--iterations", str(iterations), "--quiet",
                        "--jobs-out", out] + ([] if alone else ["--no-alone"]) + engine_args +
                       jobs, check=True, stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(out)))
    mean = lambda xs: sum(xs) / len(xs)
    return (mean([float(r["time_s"]) for r in rows]),
            mean([float(r["alone_s"]) for r in rows]) if alone else None)


def interval(xs):
    """Mean and the half-width of its 95% interval (Student's t)."""
    m = statistics.mean(xs)
    if len(xs) < 2:
        return m, 0.0
    df = len(xs) - 1
    t = T95.get(df) or T95[max(k for k in T95 if k <= df)]
    return m, t * statistics.stdev(xs) / math.sqrt(len(xs))


NAMES = ["contiguous", "quasi-1", "quasi-2", "quasi-3", "quasi-4", "stride", "random", "churn"]
FIELDS = ["engine", "kernel", "class", "iterations", "placement", "seed", "mean_time_s",
          "normalised", "mean_alone_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--class", dest="cls", default="A")
    ap.add_argument("--kernels", default="cg,mg,ft,is,lu")
    ap.add_argument("--engines", default="flit-fsin,flit-dmodk,flow")
    ap.add_argument("--placements", default=",".join(NAMES))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--alone", action="store_true",
                    help="also run each job alone on its nodes (netsim without --no-alone)")
    ap.add_argument("--no-run", action="store_true",
                    help="run nothing: the summary, tables and figure of what fig2.csv holds")
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args()
    netsim = os.path.join(a.build, "bin", "netsim")
    engines, kernels = a.engines.split(","), a.kernels.split(",")
    names = a.placements.split(",")
    for e in engines:
        if e not in ENGINES:
            sys.exit("fig2.py: unknown engine %s (known: %s)" % (e, ", ".join(ENGINES)))
    for n in names:
        if n not in NAMES:
            sys.exit("fig2.py: unknown placement %s (known: %s)" % (n, ", ".join(NAMES)))
    if "contiguous" not in names:
        sys.exit("fig2.py: the placements must include contiguous (the times are normalised to it)")
    if not a.no_run and not os.access(netsim, os.X_OK):
        sys.exit("fig2.py: no netsim at %s (build first, or give --build)" % netsim)
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "fig2.csv")
    done, alone = {}, {}  # key -> mean time together, and alone (when measured)

    def load(r):
        key = (r["engine"], r["kernel"], r["class"], r["iterations"], r["placement"], r["seed"])
        done.setdefault(key, float(r["mean_time_s"]))
        if r.get("mean_alone_s"):
            alone.setdefault(key, float(r["mean_alone_s"]))

    if os.path.exists(path):
        for r in csv.DictReader(open(path)):
            load(r)
    cls, its = a.cls, str(a.iterations)
    tasks = []
    for engine in engines:
        for kernel in kernels:
            for name, seed, placement in placements(a.seeds):
                key = (engine, kernel, cls, its, name, "" if seed is None else str(seed))
                if name in names and not a.no_run and (key not in done or
                                                       (a.alone and key not in alone)):
                    tasks.append((key, placement))
    lock = threading.Lock()
    out = open(path, "a", newline="")
    w = csv.DictWriter(out, fieldnames=FIELDS)
    if out.tell() == 0:
        w.writeheader()

    def one(task):
        key, placement = task
        machine, args = ENGINES[key[0]]
        trace = "%s.%s.%d" % (key[1], cls, R)
        t0 = time.time()
        t, t1 = run(netsim, machine, args, trace, placement, a.iterations, a.alone)
        with lock:
            done[key] = t
            if t1 is not None:
                alone[key] = t1
            w.writerow(dict(zip(FIELDS, key + ("%.9g" % t, "", "" if t1 is None else "%.9g" % t1))))
            out.flush()
            print("%-10s %-3s %-10s %3s %.6g s  (%.0f s)" % (key[0], key[1], key[4], key[5], t,
                                                            time.time() - t0), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for f in [pool.submit(one, t) for t in tasks]:
            f.result()
    out.close()
    # fig2.csv again, whole and in a fixed order, each run normalised to its contiguous run;
    # with the rows another fig2.py (other engines or kernels, same --out) appended meanwhile
    for r in csv.DictReader(open(path)):
        load(r)
    rows = []
    for key, t in done.items():
        engine, kernel, c, i, name, seed = key
        base = done.get((engine, kernel, c, i, "contiguous", ""))
        rows.append({"engine": engine, "kernel": kernel, "class": c, "iterations": i,
                     "placement": name, "seed": seed, "mean_time_s": "%.9g" % t,
                     "normalised": "%.4f" % (t / base) if base else "",
                     "mean_alone_s": "%.9g" % alone[key] if key in alone else ""})
    order = {n: k for k, n in enumerate(NAMES)}
    rows.sort(key=lambda r: (r["engine"], r["kernel"], r["class"], int(r["iterations"]),
                             order[r["placement"]], int(r["seed"] or 0)))
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    summary = []
    for engine in engines:
        for kernel in kernels:
            for name in names:
                xs = [float(r["normalised"]) for r in rows if r["normalised"] and
                      (r["engine"], r["kernel"], r["class"], r["iterations"], r["placement"])
                      == (engine, kernel, cls, its, name)]
                if not xs:
                    continue
                m, h = interval(xs)
                # with runs alone: the placement's own cost (alone on its nodes / contiguous
                # alone) and the other jobs' (together / alone), means over the runs
                base = alone.get((engine, kernel, cls, its, "contiguous", ""))
                pairs = [(alone[k] / base, done[k] / alone[k]) for k in done
                         if base and k in alone and k[:5] == (engine, kernel, cls, its, name)]
                summary.append({"engine": engine, "kernel": kernel, "placement": name,
                                "runs": len(xs), "normalised": "%.4f" % m, "ci95": "%.4f" % h,
                                "alone_runs": len(pairs),
                                "alone_normalised": "%.4f" % statistics.mean(p[0] for p in pairs)
                                if pairs else "",
                                "together_over_alone": "%.4f" % statistics.mean(p[1] for p in pairs)
                                if pairs else ""})
    with open(os.path.join(a.out, "fig2-summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["engine", "kernel", "placement", "runs", "normalised",
                                          "ci95", "alone_runs", "alone_normalised",
                                          "together_over_alone"])
        w.writeheader()
        w.writerows(summary)
    tables(a.out, engines, kernels, [n for n in names if n != "contiguous"], summary)
    plot(a.out, engines, kernels, [n for n in names if n != "contiguous"], summary, cls)


def tables(out, engines, kernels, names, summary):
    """fig2-tables.md: per engine, the normalised times (random and churn
    with their 95% interval), and where jobs also ran alone, the split."""
    get = {(x["engine"], x["kernel"], x["placement"]): x for x in summary}
    lines = []
    for e in engines:
        lines += ["%s (time / contiguous):" % e, "",
                  "| kernel | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
        for k in kernels:
            cells = []
            for n in names:
                x = get.get((e, k, n))
                cell = "" if x is None else x["normalised"][:-1]
                if x is not None and x["runs"] > 1:
                    cell += " ± %s" % x["ci95"][:-1]
                cells.append(cell)
            lines.append("| %s | %s |" % (k.upper(), " | ".join(cells)))
        lines.append("")
        split = [(k, n, get[(e, k, n)]) for k in kernels for n in names
                 if (e, k, n) in get and get[(e, k, n)]["alone_runs"]]
        if split:
            lines += ["%s, each job also alone on its nodes (runs: alone / contiguous alone, "
                      "together / alone):" % e, "", "| kernel | placement | runs | alone | "
                      "together / alone | product |", "|---|---|---|---|---|---|"]
            for k, n, x in split:
                lines.append("| %s | %s | %d | %s | %s | %.3f |" % (
                    k.upper(), n, x["alone_runs"], x["alone_normalised"][:-1],
                    x["together_over_alone"][:-1],
                    float(x["alone_normalised"]) * float(x["together_over_alone"])))
            lines.append("")
    with open(os.path.join(out, "fig2-tables.md"), "w") as f:
        f.write("\n".join(lines))


def plot(out, engines, kernels, names, summary, cls):
    """fig2.png: a panel per engine, per kernel a box per placement (the
    mean over its runs) with its 95% interval."""
    get = {(x["engine"], x["kernel"], x["placement"]): x for x in summary}
    width = len(names) + 1
    with tempfile.TemporaryDirectory() as tmp:
        script = ["set terminal pngcairo size %d,460 font ',9'" % (380 * len(engines) + 60),
                  "set output '%s'" % os.path.join(out, "fig2.png"),
                  "set multiplot layout 1,%d title '16 jobs x 16 ranks, class %s, 4-ary 4-tree: "
                  "time / contiguous (-compute: compute at 10^9 flop/s; the others: "
                  "communication only)' noenhanced" % (len(engines), cls),
                  "set style fill solid 0.85 border -1", "set boxwidth 0.9",
                  "set yrange [0:*]", "set grid ytics", "set key below horizontal noenhanced",
                  "set xtics (%s) scale 0" % ", ".join(
                      "'%s' %g" % (k.upper(), i * width + (len(names) - 1) / 2.0)
                      for i, k in enumerate(kernels)),
                  "set xrange [-1:%d]" % (len(kernels) * width - 1)]
        for e in engines:
            dat = os.path.join(tmp, e + ".dat")
            with open(dat, "w") as f:
                for i, k in enumerate(kernels):
                    for j, n in enumerate(names):
                        x = get.get((e, k, n))
                        if x is not None:
                            f.write("%d %s %s %d\n" % (i * width + j, x["normalised"],
                                                       x["ci95"], j + 1))
            legend = ", ".join("NaN with boxes lc %d title '%s'" % (j + 1, n)
                               for j, n in enumerate(names))
            script += ["set title '%s' noenhanced" % e,
                       "plot '%s' using 1:2:4 with boxes lc variable notitle, "
                       "'' using 1:2:3 with yerrorbars lc rgb 'black' pt 0 notitle, "
                       "1 with lines lc rgb 'gray40' dt 2 notitle, %s" % (dat, legend)]
        script.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True)


if __name__ == "__main__":
    main()
