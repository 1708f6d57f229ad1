#!/usr/bin/env bash
# Benchmarks of the scheduling simulator (issue 2): wall time and peak memory
# of whole-log and large synthetic runs, best of N repetitions. Prints a
# Markdown table; record it with the machine in results/bench/README.md.
# Usage: results/bench/run_bench.sh [BUILD_DIR] [REPS]   (a Release build is best)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$ROOT/build}
REPS=${2:-5}
JS=$B/bin/jobsched
SHARED=$ROOT/../shared/workloads
[ -x "$JS" ] || { echo "no $JS: build first (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release)" >&2; exit 1; }

# best wall time (s) and its peak RSS (MB) over REPS runs of a command
measure() {
	python3 - "$REPS" "$@" <<'PY'
import resource, subprocess, sys, time
reps, cmd = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(reps):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode:
        sys.exit("failed: " + " ".join(cmd) + "\n" + r.stderr.decode())
    best = dt if best is None or dt < best else best
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{best:.3f} | {rss:.0f}")
PY
}

echo "| run | jobs | wall (s), best of $REPS | peak RSS (MB) |"
echo "|---|---|---|---|"
SYN=dq:jobs=500000,q=0.95,n1=1,n2=256,mean_run=3600,load=0.85,req_factor=2
for s in easy fcfs; do
	echo "| synthetic $SYN, 256 nodes, $s | 500,000 | $(measure "$JS" --synthetic "$SYN" --machine flat:nodes=256 --sched $s --quiet) |"
done
# A 500,000-job SWF log (written by the generator) read back: the streaming reader.
BIG=$(mktemp --suffix=.swf)
"$JS" --synthetic "$SYN" --machine flat:nodes=256 --sched fcfs --quiet --swf-out "$BIG" > /dev/null
gzip -k -f "$BIG"
echo "| --stats of a 500,000-job SWF ($(du -m "$BIG" | cut -f1) MB plain) | 500,000 | $(measure "$JS" --stats "$BIG") |"
echo "| --stats of the same, gzip'ed ($(du -m "$BIG.gz" | cut -f1) MB) | 500,000 | $(measure "$JS" --stats "$BIG.gz") |"
echo "| that SWF, 256 nodes, easy | 500,000 | $(measure "$JS" --workload "$BIG.gz" --machine flat:nodes=256 --sched easy --quiet) |"
rm -f "$BIG" "$BIG.gz"
if [ -d "$SHARED" ]; then
	for s in easy fcfs fpfs:maxjumps=5; do
		echo "| HPC2N-2002 cleaned, flat 240 nodes, $s | 202,871 | $(measure "$JS" --workload "$SHARED/HPC2N-2002-2.2-cln.swf.gz" --machine flat:nodes=240 --sched $s --quiet) |"
	done
	echo "| HPC2N-2002 cleaned, flat 240, easy, with jobs+summary CSV | 202,871 | $(measure "$JS" --workload "$SHARED/HPC2N-2002-2.2-cln.swf.gz" --machine flat:nodes=240 --sched easy --quiet --jobs-out /tmp/bench-jobs.csv --summary-out /tmp/bench-sum.csv) |"
	echo "| HPC2N-2002 cleaned, flat 240 nodes, conservative | 202,871 | $(measure "$JS" --workload "$SHARED/HPC2N-2002-2.2-cln.swf.gz" --machine flat:nodes=240 --sched conservative --quiet) |"
	echo "| NASA-iPSC cleaned, flat 128, conservative | 18,239 | $(measure "$JS" --workload "$SHARED/NASA-iPSC-1993-3.1-cln.swf.gz" --machine flat:nodes=128 --sched conservative --quiet) |"
	echo "| --stats HPC2N-2002 (parse + statistics) | 202,871 | $(measure "$JS" --stats "$SHARED/HPC2N-2002-2.2-cln.swf.gz") |"
	rm -f /tmp/bench-jobs.csv /tmp/bench-sum.csv
else
	echo "(skipped the real-log runs: $SHARED not found)"
fi

# Issue 3: topology-aware allocation (seed 002 Fig. 17's runs, seed 000's and 003's machines).
# Logs cleaned as seed 002 did: size > 0, run time >= 0, requested time raised to the run time.
if [ -d "$SHARED" ]; then
	echo
	echo "| run (EASY) | jobs | wall (s), best of $REPS | peak RSS (MB) |"
	echo "|---|---|---|---|"
	LANL="--workload $SHARED/LANL-CM5-1994-4.1-cln.swf.gz --overrun raise --machine mesh:dims=32x32 --sched easy --quiet"
	for a in mc1x1 curve:order=snake-col,select=bf mbs:variant=granular mbs:variant=2d; do
		echo "| LANL-CM5, 32x32 mesh, $a | 122,057 | $(measure "$JS" $LANL --alloc $a) |"
	done
	HPC="--workload $SHARED/HPC2N-2002-2.2-cln.swf.gz --overrun raise --machine mesh:dims=16x16 --sched easy --quiet"
	for a in mc1x1 curve:order=snake-col,select=bf mbs:variant=granular; do
		echo "| HPC2N, 16x16 mesh, $a | 202,871 | $(measure "$JS" $HPC --alloc $a) |"
	done
	echo "| LLNL-Thunder, 4-ary 6-tree, quasi:qct=20 | 118,791 | $(measure "$JS" --workload "$SHARED/LLNL-Thunder-2007-1.1-cln.swf.gz" --procs-per-node auto --machine kary-ntree:k=4,n=6 --sched easy --alloc quasi:qct=20 --quiet) |"
	SP2="--workload $SHARED/SDSC-SP2-1998-4.2-cln.swf.gz --first 10000 --machine torus:dims=4x4x8 --alloc bgl --quiet"
	for s in fcfs easy fcfs:migrate=1 easy:migrate=1; do
		echo "| SDSC-SP2 first 10,000, 4x4x8 torus, bgl, $s | 10,000 | $(measure "$JS" $SP2 --sched $s) |"
	done
	echo "| SDSC-SP2 whole log, 4x4x8 torus, bgl, easy:migrate=1 (B+M) | 59,715 | $(measure "$JS" --workload "$SHARED/SDSC-SP2-1998-4.2-cln.swf.gz" --machine torus:dims=4x4x8 --alloc bgl --sched easy:migrate=1 --quiet) |"
fi

# Issue 4: generating a platform, then loading it: our reader (plat_load) plus
# SimGrid's parse and seal and 100 route queries (tests/sg_route_check FILE -).
CHK=$B/tests/sg_route_check
if [ -x "$CHK" ]; then
	echo
	echo "| machine | file size | platgen (s) | plat_load + SimGrid load + seal + 100 routes (s) | peak RSS (MB) |"
	echo "|---|---|---|---|---|"
	for spec in kary-ntree:k=4,n=6 kary-ntree:k=4,n=6,taper=0.5 mesh:dims=32x32 torus:dims=16x16x16; do
		X=$(mktemp --suffix=.xml)
		gen=$(measure "$B/bin/platgen" --machine "$spec" -o "$X" | cut -d'|' -f1)
		echo "| $spec | $(stat -c %s "$X") B | $gen | $(measure "$CHK" "$X" - 100) |"
		rm -f "$X"
	done
fi

# Issue 5: generating and validating a 1,024-rank class-C trace of each kernel
# for one iteration (tracegen --dry-run: generation, the matching pass, no
# files), and the in-memory size per action; then writing the same trace.
TG=$B/bin/tracegen
if [ -x "$TG" ]; then
	echo
	echo "| kernel, class C, 1,024 ranks, 1 iteration | actions | generate + validate (s) | peak RSS (MB) | in memory (B/action) | generate + write files (s) |"
	echo "|---|---|---|---|---|---|"
	for k in ep ft is cg mg lu bt sp; do
		info=$("$TG" $k --class C --ranks 1024 --iterations 1 --dry-run 2>&1 | sed -n 's/.*, \([0-9]*\) actions, \([0-9.]*\) MB in memory/\1 \2/p')
		set -- $info
		W=$(mktemp -d)
		wr=$(measure "$TG" $k --class C --ranks 1024 --iterations 1 --out "$W" | cut -d'|' -f1)
		rm -rf "$W"
		echo "| $k | $1 | $(measure "$TG" $k --class C --ranks 1024 --iterations 1 --dry-run) | $(python3 -c "print(round($2e6/$1))") | $wr |"
	done
fi

# Issue 6: netsim with the SimGrid engine. The seed-000 experiment (16 jobs x
# 16 ranks of one kernel, class A, one iteration, on a 4-ary 4-tree: the 16
# alone runs and the run of all together); one small evaluation (one 16-rank
# job, --repeat 20: the mean wall time of one, fork included); crosstraffic
# on (SMPI's default, kept) and off for the same experiment without alone runs.
NS=$B/bin/netsim
if [ -x "$NS" ]; then
	echo
	echo "| kernel | 16 x 16 on the tree: wall (s), best of $REPS | peak RSS (MB) | one small evaluation (ms) | together only, crosstraffic on / off: wall (s) | mean job time on / off (s) |"
	echo "|---|---|---|---|---|---|"
	for k in cg mg ft is lu; do
		J=""
		for j in $(seq 0 15); do J="$J --job $k.A.16@$((j * 16))-$((j * 16 + 15))"; done
		small=$("$NS" --machine kary-ntree:k=4,n=4 --job $k.A.16@contiguous --iterations 1 --repeat 20 --quiet --no-alone 2>&1 |
			sed -n 's/.*evaluations, \([0-9.]*\) ms each.*/\1/p')
		ct=""
		for c in 1 0; do
			C=$(mktemp --suffix=.csv)
			w=$(measure "$NS" --machine kary-ntree:k=4,n=4 $J --iterations 1 --no-alone --quiet --cfg network/crosstraffic:$c --jobs-out "$C" | cut -d'|' -f1)
			m=$(python3 -c "import csv, sys; r = [float(x['time_s']) for x in csv.DictReader(open(sys.argv[1]))]; print('%.6f' % (sum(r) / len(r)))" "$C")
			rm -f "$C"
			ct="$ct $w $m"
		done
		set -- $ct
		echo "| $k | $(measure "$NS" --machine kary-ntree:k=4,n=4 $J --iterations 1 --quiet) | $small | $1 / $3 | $2 / $4 |"
	done
fi

# Issue 8: the flit engine's speed on the issue's benchmark (8x8 mesh,
# uniform, 0.3 flits/node/cycle, 1-flit packets, up to 100,000 measured
# cycles: it stops when three samples agree), best of REPS runs of the
# cycles/s and flit-hops/s that netsim's speed line reports; the presets,
# BookSim's without its VC allocator, and the defaults.
if [ -x "$NS" ]; then
	echo
	echo "| configuration | cycles/s, best of $REPS | flit-hops/s | peak RSS (MB) | mean latency (cycles) |"
	echo "|---|---|---|---|---|"
	for e in "flit:preset=booksim" "flit:preset=insee" "flit:preset=booksim,vc_alloc=switch" "flit"; do
		python3 - "$REPS" "$NS" --traffic uniform --machine mesh:dims=8x8 --engine "$e" --load 0.3 --cycles 100000 <<'PY'
import re, resource, subprocess, sys
reps, cmd = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(reps):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: " + " ".join(cmd) + "\n" + r.stderr)
    sp = re.search(r"^speed .*: (\d+) cycles/s, (\d+) flit-hops/s", r.stdout, re.M)
    lat = re.search(r"^latency +([0-9.]+)", r.stdout, re.M).group(1)
    if best is None or int(sp.group(1)) > best[0]:
        best = (int(sp.group(1)), int(sp.group(2)), lat)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"| `{cmd[cmd.index('--engine') + 1]}` | {best[0]:,} | {best[1] / 1e6:.2f} M | {rss:.0f} | {best[2]} |")
PY
	done
fi

# Issue 7 (first part): cosim with the linkload model on the whole HPC2N log.
CO=$B/bin/cosim
if [ -x "$CO" ] && [ -d "$SHARED" ]; then
	echo
	echo "| run | jobs | wall (s), best of $REPS | peak RSS (MB) |"
	echo "|---|---|---|---|"
	H="--workload $SHARED/HPC2N-2002-2.2-cln.swf.gz --machine kary-ntree:k=4,n=4 --sched easy --alloc quasi:qct=20 --quiet"
	echo "| HPC2N, 4-ary 4-tree, EASY, quasi:qct=20, jobsched log | 202,871 | $(measure "$B/bin/jobsched" $H) |"
	echo "| the same, cosim linkload | 202,871 | $(measure "$CO" $H --runtime linkload) |"
fi

# Issue 7: the SimGrid-based models. One run each (they take minutes):
# simgrid:mode=isolated on the first 3,000 and 20,000 HPC2N jobs and the
# whole log (s4u engine: replays in cosim's own process; one timed
# iteration per replay), the first 3,000 also with SMPI's replay and with
# iteration=difference, its placement-cache hit rate from the model's
# report line; and the default experiment of the Quick start (three
# allocators in parallel child processes, simgrid:mode=shared).
if [ -x "$CO" ] && [ -d "$SHARED" ]; then
	echo
	echo "| run | jobs | wall (s), one run | peak RSS (MB) | the model's report |"
	echo "|---|---|---|---|---|"
	once() { # wall, peak RSS of a command; its stderr's report line
		python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
dt = time.perf_counter() - t
if r.returncode:
    sys.exit("failed: " + " ".join(sys.argv[1:]) + "\n" + r.stderr)
rep = [l for l in r.stderr.splitlines() if l.startswith(("simgrid (", "full (", "cosim: ["))]
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{dt:.1f} | {rss:.0f} | {rep[-1] if rep else ''}")
PY
	}
	H="--workload $SHARED/HPC2N-2002-2.2-cln.swf.gz --machine kary-ntree:k=4,n=4 --sched easy --alloc quasi:qct=20"
	I="simgrid:mode=isolated,alltoall=ring"
	for v in "engine=s4u" "engine=s4u,shape=counts" "engine=s4u,iteration=difference" "engine=simgrid"; do
		echo "| HPC2N first 3,000, 4-ary 4-tree, EASY, quasi:qct=20, $I,$v | 3,000 | $(once "$CO" $H --first 3000 --runtime $I,$v) |"
	done
	echo "| the same, first 20,000, engine=s4u | 20,000 | $(once "$CO" $H --first 20000 --runtime $I,engine=s4u) |"
	echo "| the same, the whole log, engine=s4u | 202,871 | $(once "$CO" $H --runtime $I,engine=s4u) |"
	D=$(mktemp -d)
	echo "| the Quick start's default experiment (scripts/quickstart.sh's cosim) | 200 x 3 | $(once "$CO" --synthetic dq:jobs=200,q=0.85,n1=1,n2=32,mean_run=600,load=0.9 --seed 1 --machine kary-ntree:k=4,n=3 --sched easy --alloc first-free --alloc contiguous --alloc quasi:qct=20 --runtime simgrid:mode=shared,kernels=cg/mg/ft/is/lu,class=S --out "$D") |"
	rm -rf "$D"
fi
