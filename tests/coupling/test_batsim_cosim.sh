#!/usr/bin/env bash
# Batsim workloads in cosim: an smpi profile's trace (an index of per-rank TI
# files, relative to the workload's folder) is its job's communication
# profile, and a parallel_homogeneous profile a generated trace of its
# shape; such a job's run time is its profile's replay on its nodes (on the
# reference nodes, exactly what netsim gives for the trace alone). jobsched
# and models that replay no profile refuse such jobs (--stats counts them
# apart, without run time); a trace whose rank
# count is not the job's size is an error naming both; nothing is written
# then. With ../shared present, SimGrid's own 32-rank example trace runs too.
# Usage: test_batsim_cosim.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
SHARED="$(cd "$(dirname "$0")/../../.." && pwd)/shared"
M=kary-ntree:k=4,n=2
RT=simgrid:mode=isolated,engine=s4u,class=S

mkdir -p "$T/tr"
printf '0 init\n0 compute 1e8\n0 send 1 0 1e7\n0 recv 1 1 1e7\n0 finalize\n' > "$T/tr/r0.txt"
printf '1 init\n1 recv 0 0 1e7\n1 compute 1e8\n1 send 0 1 1e7\n1 finalize\n' > "$T/tr/r1.txt"
printf 'r0.txt\nr1.txt\n' > "$T/tr/traces.txt"
cat > "$T/w.json" << 'EOF'
{"nb_res": 16,
 "jobs": [
  {"id": "ti", "subtime": 0, "walltime": 100, "res": 2, "profile": "pp"},
  {"id": "ph", "subtime": 0, "walltime": 100, "res": 4, "profile": "ph"},
  {"id": "d", "subtime": 1, "walltime": 100, "res": 4, "profile": "d10"}],
 "profiles": {
  "pp": {"type": "smpi", "trace": "tr/traces.txt"},
  "ph": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 1e7},
  "d10": {"type": "delay", "delay": 10}}}
EOF
col() { # col FILE JOB_ID COLUMN: a job's value by column name
	python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["job_id"] == sys.argv[2]:
        print(r[sys.argv[3]])' "$@"
}

"$B/cosim" --workload "$T/w.json" --machine $M --runtime $RT --jobs-out "$T/c.csv" --quiet > "$T/out" 2> "$T/err"
check "smpi, parallel_homogeneous and delay jobs run in cosim" test $? -eq 0
check "the smpi job runs its profile" test "$(col "$T/c.csv" ti profile)" = pp
check "the parallel_homogeneous job runs its profile" test "$(col "$T/c.csv" ph profile)" = ph
alone=$("$B/netsim" --machine $M --engine s4u --job "$T/tr/traces.txt@0-1" --no-alone --jobs-out /dev/stdout 2> /dev/null |
	tail -1 | cut -d, -f7)
check "its run time is its trace's replay there (netsim: $alone s)" python3 -c '
import sys; a, b, c = map(float, sys.argv[1:4]); sys.exit(not (abs(a - b) < 1e-8 * b and a == c))' \
	"$(col "$T/c.csv" ti execution_time)" "$alone" "$(col "$T/c.csv" ti work_s)"
check "the parallel_homogeneous job's run time is its replay's" python3 -c '
import sys; a, b = map(float, sys.argv[1:3]); sys.exit(not (a > 1 and a == b))' \
	"$(col "$T/c.csv" ph execution_time)" "$(col "$T/c.csv" ph iter_ref_s)"
check "the delay job keeps its delay as work" test "$(col "$T/c.csv" d work_s)" = 10

"$B/cosim" --workload "$T/w.json" --machine $M --runtime flit:class=S --jobs-out "$T/f.csv" --quiet > /dev/null 2> "$T/err"
check "the flit model replays them too" test $? -eq 0

"$B/jobsched" --workload "$T/w.json" --machine $M --jobs-out "$T/j.csv" > /dev/null 2> "$T/err"
check "jobsched refuses them, naming file, job and profile" \
	status_says $? eq 2 'w.json: job ti: profile "pp" (smpi) has no run time without a network model' "$T/err" "$T/j.csv"
"$B/cosim" --workload "$T/w.json" --machine $M --runtime linkload:class=S --jobs-out "$T/l.csv" > /dev/null 2> "$T/err"
check "a model that replays no profile refuses them" \
	status_says $? eq 2 "the run-time model linkload.* replays none" "$T/err" "$T/l.csv"
"$B/jobsched" --stats "$T/w.json" > "$T/st" 2> "$T/err"
check "--stats counts them apart: sizes of all, run time of the delay job alone" \
	python3 -c '
import sys
v = dict(l.split(None, 1) for l in open(sys.argv[1]) if " " in l)
want = {"jobs": "3", "replayed_jobs": "2", "size_mean": "3.3333", "run_mean_s": "10.0000",
        "work_mean_node_s": "40.0000"}
sys.exit(any(v.get(k, "").strip() != w for k, w in want.items()))' "$T/st"

sed 's/"res": 2, "profile": "pp"/"res": 4, "profile": "pp"/' "$T/w.json" > "$T/ranks.json"
"$B/cosim" --workload "$T/ranks.json" --machine $M --runtime $RT --jobs-out "$T/r.csv" > /dev/null 2> "$T/err"
check "a trace of 2 ranks for a job of 4: an error naming both" \
	status_says $? eq 1 "job 1.*profile pp: trace .*tr/traces.txt has 2 ranks, but the job asks for 4 resources" "$T/err" "$T/r.csv"

"$B/cosim" --workload "$T/w.json" --machine $M --runtime $RT --swf-out "$T/o.swf" --quiet > /dev/null 2> "$T/err"
check "--swf-out: a replayed job's run time is unknown (-1), a delay job's its delay" python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith(";")]
sys.exit(not (len(rows) == 3 and rows[0][3] == "-1" and rows[1][3] == "-1" and rows[2][3] == "10"))' "$T/o.swf"
if [ -d "$SHARED/traces/simgrid-examples/replay_multiple" ]; then
	cat > "$T/s.json" << EOF
{"nb_res": 64, "jobs": [{"id": 1, "subtime": 0, "walltime": 1000, "res": 32, "profile": "m"},
  {"id": 2, "subtime": 0, "walltime": 1000, "res": 2, "profile": "s"}],
 "profiles": {"m": {"type": "smpi", "trace": "$SHARED/traces/simgrid-examples/replay_multiple/smpi_replay.txt"},
  "s": {"type": "smpi", "trace": "$SHARED/traces/simgrid-examples/replay/split_traces"}}}
EOF
	"$B/cosim" --workload "$T/s.json" --machine kary-ntree:k=4,n=3 --runtime $RT --jobs-out "$T/s.csv" > /dev/null 2> "$T/err"
	check "SimGrid's example traces (32 and 2 ranks) as smpi profiles" test $? -eq 0
	check "their run times are their replays'" python3 -c '
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
sys.exit(not (len(r) == 2 and all(float(x["execution_time"]) > 0 and x["profile"] in "ms" for x in r)))' "$T/s.csv"
else
	echo "SKIP SimGrid's example traces: $SHARED/traces absent"
fi
# a parallel_homogeneous profile's all-to-all counts in the simgrid model's
# check before the run: 64 ranks post 4,032 messages at once, about 10 MB
# (an all-to-all of 2,048 was killed by the kernel after taking the machine)
cat > "$T/ph64.json" << 'EOF'
{"nb_res": 64,
 "jobs": [{"id": 1, "subtime": 0, "walltime": 100, "res": 64, "profile": "ph"}],
 "profiles": {"ph": {"type": "parallel_homogeneous", "cpu": 1e6, "com": COM}}}
EOF
sed 's/COM/1e4/' "$T/ph64.json" > "$T/ph.json"
"$B/cosim" --workload "$T/ph.json" --machine flat:nodes=64 --runtime simgrid:engine=s4u,ahead=no,max_memory=1 \
	--jobs-out "$T/ph.csv" > /dev/null 2> "$T/err"
check "a parallel_homogeneous all-to-all past simgrid:max_memory: exit 1, said, nothing written" \
	status_says $? eq 1 "4.03e+03 messages at once in one job's replay (the largest job, 1: 64 ranks, profile ph, .*about 10 MB" "$T/err" "$T/ph.csv"
sed 's/COM/0/' "$T/ph64.json" > "$T/ph0.json"
"$B/cosim" --workload "$T/ph0.json" --machine flat:nodes=64 --runtime simgrid:engine=s4u,ahead=no,max_memory=1 \
	--jobs-out "$T/ph.csv" > /dev/null 2> "$T/err"
check "... without bytes, no all-to-all: runs" test $? -eq 0
finish >&2
