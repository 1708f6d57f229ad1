#!/usr/bin/env python3
"""Seed 000 section 5 (Fig. 2) with the SimGrid engine: 16 instances of a
16-rank NPB-like trace (one iteration, class A) run together on 256 nodes,
placed contiguous, quasi-contiguous (1-4 tasks of every job moved out of its
subtree) and non-contiguous; execution time normalised to contiguous.
Usage: run.py BUILD_DIR [OUT_DIR] [KERNELS]   (writes placement.csv, fig2.png)"""
import csv, os, subprocess, sys, time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
KERNELS = (sys.argv[3] if len(sys.argv) > 3 else "cg,mg,ft,is,lu").split(",")
NETSIM = os.path.join(BUILD, "bin", "netsim")
J, R = 16, 16  # jobs, ranks per job


def block(j):  # the nodes of job j's own subtree / block in id order
    return [j * R + r for r in range(R)]


def quasi(q):  # the last q ranks of every job go to the next job's subtree
    return [block(j)[: R - q] + [((j + 1) % J) * R + R - q + i for i in range(q)] for j in range(J)]


def spread():  # rank r of job j on node r*16 + j: every job on every switch
    return [[r * J + j for r in range(R)] for j in range(J)]


def mesh_blocks():  # 16x16 mesh: job j on the 4x4 square (j/4, j%4)
    return [[(4 * (j // 4) + a) * 16 + 4 * (j % 4) + b for a in range(4) for b in range(4)] for j in range(J)]


def mesh_quasi(q):
    b = mesh_blocks()
    return [b[j][: R - q] + b[(j + 1) % J][R - q:] for j in range(J)]


TREE, TORUS, MESH = "kary-ntree:k=4,n=4", "torus:dims=8x8x4", "mesh:dims=16x16"
# torus 8x8x4 in C order: 16 consecutive ids are a 1x4x4 block
STUDIES = [(TREE, "contiguous", [block(j) for j in range(J)])] + \
          [(TREE, "quasi-%d" % q, quasi(q)) for q in (1, 2, 3, 4)] + \
          [(TREE, "non-contiguous", spread()),
           (TORUS, "contiguous", [block(j) for j in range(J)]), (TORUS, "quasi-2", quasi(2)),
           (TORUS, "non-contiguous", spread()),
           (MESH, "contiguous", mesh_blocks()), (MESH, "quasi-2", mesh_quasi(2)),
           (MESH, "non-contiguous", spread())]
# two flat clusters of 128 joined by a WAN link: jobs inside one cluster, or
# every job split in halves across the WAN
WAN = "multicluster:clusters=2,size=128"
STUDIES += [(WAN, "contiguous", [block(j) for j in range(J)]),
            (WAN, "split", [[j * 8 + r for r in range(8)] + [128 + j * 8 + r for r in range(8)] for j in range(J)])]

rows = []
for kernel in KERNELS:
    for machine, name, placement in STUDIES:
        if machine == WAN and kernel not in ("cg", "is"):
            continue  # the WAN study: one point-to-point and one all-to-all kernel
        jobs = []
        for nodes in placement:
            assert len(nodes) == R and len(set(nodes)) == R
            jobs += ["--job", "%s.A.%d@%s" % (kernel, R, ",".join(map(str, nodes)))]
        out = os.path.join(OUT, "jobs.tmp.csv")
        t = time.time()
        subprocess.run([NETSIM, "--machine", machine, "--iterations", "1", "--no-alone", "--quiet",
                        "--jobs-out", out] + jobs, check=True, stdout=subprocess.DEVNULL)
        wall = time.time() - t
        times = [float(r["time_s"]) for r in csv.DictReader(open(out))]
        os.remove(out)
        rows.append({"machine": machine, "kernel": kernel, "placement": name,
                     "mean_time_s": sum(times) / len(times), "max_time_s": max(times), "wall_s": wall})
        print("%-32s %-3s %-15s mean %.6f s max %.6f s (%.1f s wall)" %
              (machine, kernel, name, rows[-1]["mean_time_s"], rows[-1]["max_time_s"], wall), flush=True)

base = {(r["machine"], r["kernel"]): r["mean_time_s"] for r in rows if r["placement"] == "contiguous"}
with open(os.path.join(OUT, "placement.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["machine", "kernel", "placement", "mean_time_s", "max_time_s", "normalised", "wall_s"])
    for r in rows:
        w.writerow([r["machine"], r["kernel"], r["placement"], "%.9g" % r["mean_time_s"],
                    "%.9g" % r["max_time_s"], "%.4f" % (r["mean_time_s"] / base[(r["machine"], r["kernel"])]),
                    "%.2f" % r["wall_s"]])

# Fig. 2 style: normalised time per kernel, one bar per placement (the tree)
tree = [r for r in rows if r["machine"] == TREE]
names = ["contiguous", "quasi-1", "quasi-2", "quasi-3", "quasi-4", "non-contiguous"]
dat = os.path.join(OUT, "fig2.dat")
with open(dat, "w") as f:
    f.write("kernel " + " ".join(names) + "\n")
    for k in KERNELS:
        f.write(k.upper() + " " + " ".join("%.4f" % (next(r["mean_time_s"] for r in tree if r["kernel"] == k
                                                          and r["placement"] == n) / base[(TREE, k)])
                                             for n in names) + "\n")
subprocess.run(["gnuplot"], input=("set terminal png size 900,450\nset output '%s'\n"
                                    "set title 'SimGrid (flow level), 16 jobs x 16 ranks, 4-ary 4-tree: time / contiguous'\n"
                                    "set style data histograms\nset style histogram clustered gap 1\n"
                                    "set style fill solid 0.8 border -1\nset yrange [0:*]\nset key outside right\n"
                                    "set ylabel 'execution time normalised to contiguous'\n"
                                    "plot for [i=2:7] '%s' using i:xtic(1) title columnheader(i)\n")
               % (os.path.join(OUT, "fig2.png"), dat), text=True, check=True)
os.remove(dat)
