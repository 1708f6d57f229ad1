#!/usr/bin/env python3
"""Flow versus flit (issue 8 section 4): seed 000's placement experiment on
the 4-ary 4-tree -- 16 instances of a 16-rank NPB-like trace (class A, one
iteration), contiguous / quasi-contiguous 1-4 / non-contiguous, all jobs
together -- run with the SimGrid engine (flow level, SMPI's replay) and with
the flit-level engine, twice: with compute (the same traces) and with
compute=zero and the INSEE preset (communication only, as INSEE's
infinitely fast CPUs). Writes jobs.csv (every job's time per engine),
placement.csv (means normalised to contiguous) and flow_vs_flit.png.
Usage: run.py BUILD_DIR [OUT_DIR] [KERNELS]"""
import csv, os, subprocess, sys, time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
KERNELS = (sys.argv[3] if len(sys.argv) > 3 else "cg,mg,ft,is,lu").split(",")
NETSIM = os.path.join(BUILD, "bin", "netsim")
J, R = 16, 16
MACHINE = "kary-ntree:k=4,n=4"
# flit-comm in 8-flit packets (512 bytes), as the recorded results were made
ENGINES = [("flow", "simgrid"), ("flit", "flit"), ("flit-comm", "flit:preset=insee,compute=zero,packet_flits=8,buf=8")]


def block(j):
    return [j * R + r for r in range(R)]


PLACEMENTS = [("contiguous", [block(j) for j in range(J)])] + \
    [("quasi-%d" % q, [block(j)[: R - q] + [((j + 1) % J) * R + R - q + i for i in range(q)] for j in range(J)])
     for q in (1, 2, 3, 4)] + \
    [("non-contiguous", [[r * J + j for r in range(R)] for j in range(J)])]

jobs_rows, rows = [], []
for kernel in KERNELS:
    for pname, placement in PLACEMENTS:
        args = []
        for nodes in placement:
            assert len(nodes) == R and len(set(nodes)) == R
            args += ["--job", "%s.A.%d@%s" % (kernel, R, ",".join(map(str, nodes)))]
        for ename, engine in ENGINES:
            out = os.path.join(OUT, "jobs.tmp.csv")
            t = time.time()
            subprocess.run([NETSIM, "--engine", engine, "--machine", MACHINE, "--iterations", "1",
                            "--alltoall", "ring", "--no-alone", "--quiet", "--jobs-out", out] + args, check=True,
                           stdout=subprocess.DEVNULL)
            wall = time.time() - t
            times = [float(r["time_s"]) for r in csv.DictReader(open(out))]
            os.remove(out)
            for j, x in enumerate(times):
                jobs_rows.append([kernel, pname, ename, j, "%.9g" % x])
            rows.append({"kernel": kernel, "placement": pname, "engine": ename,
                         "mean_time_s": sum(times) / len(times), "max_time_s": max(times), "wall_s": wall})
            print("%-3s %-15s %-9s mean %.6f s max %.6f s (%.1f s wall)" %
                  (kernel, pname, ename, rows[-1]["mean_time_s"], rows[-1]["max_time_s"], wall), flush=True)

with open(os.path.join(OUT, "jobs.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kernel", "placement", "engine", "job", "time_s"])
    w.writerows(jobs_rows)
base = {(r["kernel"], r["engine"]): r["mean_time_s"] for r in rows if r["placement"] == "contiguous"}
with open(os.path.join(OUT, "placement.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kernel", "placement", "engine", "mean_time_s", "max_time_s", "normalised", "wall_s"])
    for r in rows:
        w.writerow([r["kernel"], r["placement"], r["engine"], "%.9g" % r["mean_time_s"], "%.9g" % r["max_time_s"],
                    "%.4f" % (r["mean_time_s"] / base[(r["kernel"], r["engine"])]), "%.2f" % r["wall_s"]])

dat = os.path.join(OUT, "plot.dat")
names = [p for p, _ in PLACEMENTS]
with open(dat, "w") as f:
    for ename, _ in ENGINES:
        f.write("# %s\nkernel %s\n" % (ename, " ".join(names)))
        for k in KERNELS:
            f.write(k.upper() + " " + " ".join(
                "%.4f" % (next(r["mean_time_s"] for r in rows if r["kernel"] == k and r["placement"] == n and
                               r["engine"] == ename) / base[(k, ename)]) for n in names) + "\n")
        f.write("\n\n")
plot = ("set terminal pngcairo size 1200,420 font ',9'\nset output '%s'\nset multiplot layout 1,3\n"
        "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
        "set yrange [0:*]\nset key top left font ',7'\nset ylabel 'time / contiguous'\n" % os.path.join(OUT, "flow_vs_flit.png"))
titles = ["SimGrid (flow), with compute", "flit engine, with compute", "flit engine (INSEE preset), communication only"]
for i, t in enumerate(titles):
    plot += "set title '%s'\nplot for [c=2:%d] '%s' index %d using c:xtic(1) title columnheader(c)\n" % (t, len(names) + 1, dat, i)
plot += "unset multiplot\n"
subprocess.run(["gnuplot"], input=plot, text=True, check=True)
os.remove(dat)
