#!/usr/bin/env bash
# scripts/audit_schedule.py, the schedule invariants as an oracle outside the
# simulator: it finds each class of violation in a doctored schedule, and
# jobsched's schedules keep every invariant over the schedulers, allocator
# families, migration, resizing, kills and a real log (when ../shared is
# there).
# Usage: test_audit_schedule.sh BUILD_BIN_DIR SHARED_DIR
set -u
BIN="$1"
SHARED="$2"
AUDIT="$(dirname "$0")/../../scripts/audit_schedule.py"
. "$(dirname "$0")/../check.sh"

# run NAME ARGS..: jobsched with ARGS, then the audit of its outputs passes.
run() {
	local name=$1
	shift
	"$BIN/jobsched" --quiet "$@" --jobs-out "$T/$name.jobs" --summary-out "$T/$name.sum" > /dev/null 2> "$T/err"
	check "$name: runs" test $? -eq 0
	check "$name: audit passes" python3 "$AUDIT" "$T/$name.jobs" "$T/$name.sum"
}

DQ='dq:jobs=300,n1=1,n2=64,q=0.85,mean_run=50'
for s in fcfs easy conservative fpfs easy:migrate=1 fcfs:migrate=1; do
	run "tree-$s" --synthetic "$DQ" --machine kary-ntree:k=4,n=3 --alloc quasi --sched "$s"
done
for a in first-free curve mc1x1 genalg mm mbs; do
	run "mesh-$a" --synthetic "$DQ" --machine mesh:dims=8x8 --alloc "$a" --sched easy
done
run torus-bgl --synthetic "$DQ" --machine torus:dims=4x4x4 --alloc bgl --sched conservative
run multi-coalloc --synthetic "$DQ" --machine multicluster:clusters=4,size=16 --alloc coalloc --sched easy
run order --synthetic "$DQ" --machine flat:nodes=64 --sched fcfs --queue-order sjf
run reshape --synthetic reshape:jobs=60,resizable=50 --machine flat:nodes=256 --sched easy --resize pba
# An SWF log's partial executions (status 2-4) sharing a job number with no
# whole-job record: each part is a job, the rows told apart by `part`
cat > "$T/parts.swf" << 'EOF2'
1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1
2 10 -1 50 4 -1 -1 4 100 -1 2 1 1 1 1 1 -1 -1
2 10 -1 30 4 -1 -1 4 100 -1 3 1 1 1 1 1 -1 -1
3 20 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1
3 20 -1 4 1 -1 -1 1 20 -1 2 1 1 1 1 1 -1 -1
4 5 -1 70 8 -1 -1 8 100 -1 2 1 1 1 1 1 -1 -1
EOF2
run parts --workload "$T/parts.swf" --machine flat:nodes=8 --sched fcfs
LOG="$SHARED/workloads/HPC2N-2002-2.2-cln.swf.gz"
if [ -f "$LOG" ]; then
	run hpc2n-fcfs --workload "$LOG" --first 2000 --machine kary-ntree:k=4,n=4 --alloc contiguous --sched fcfs
	run hpc2n-kill --workload "$LOG" --first 3000 --machine flat:nodes=240 --sched easy --kill --overrun keep
	run hpc2n-resize --workload "$LOG" --first 500 --machine flat:nodes=256 --sched easy \
		--resizable 50:3 --resize maxb
else
	echo "SKIP the real-log cases: $LOG is absent"
fi

# Each class of violation, doctored into a good schedule (mesh-first-free):
# the audit exits 1 and names it.
doctor() {
	local name=$1 needle=$2 code=$3 src=${SRC:-mesh-first-free}
	python3 - "$T/$src.jobs" "$T/$src.sum" "$T/d.jobs" "$T/d.sum" <<EOF
import csv, sys
def nodes(j):
    out = []
    for part in j["allocated_resources"].split():
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out
jobs = list(csv.DictReader(open(sys.argv[1], newline='')))
summ = list(csv.DictReader(open(sys.argv[2], newline='')))
s = summ[0]
def f(x): return float(x)
$code
for path, rows in ((sys.argv[3], jobs), (sys.argv[4], summ)):
    with open(path, 'w', newline='') as out:
        w = csv.DictWriter(out, fieldnames=list(rows[0].keys()) if rows else [])
        w.writeheader()
        w.writerows(rows)
EOF
	python3 "$AUDIT" "$T/d.jobs" "$T/d.sum" > "$T/out"
	check "audit finds $name" status_says $? eq 1 "$needle" "$T/out"
}
doctor "a lost job" "jobs in" 'del jobs[5]'
doctor "an invented job" "jobs in" 'jobs.append(dict(jobs[5], job_id="9999"))'
doctor "a repeated id" "jobs repeated" 'jobs[6]["job_id"] = jobs[5]["job_id"]'
SRC=parts doctor "a repeated part" "jobs repeated (job_id, part): .('2', '1')" '
for j in jobs:
    if j["part"] == "2": j["part"] = "1"'
SRC=parts doctor "a part named in messages" "job 2 part 2 starts" '
j = next(j for j in jobs if j["part"] == "2"); d = f(j["submission_time"]) - 1 - f(j["starting_time"])
for c in ("starting_time", "finish_time"): j[c] = repr(f(j[c]) + d)
j["waiting_time"] = "-1"; j["turnaround_time"] = repr(f(j["finish_time"]) - f(j["submission_time"]))'
# a jobs CSV of before the part column: keyed by job_id alone
SRC=parts doctor "repeated ids without the part column" "jobs repeated (job_id, part): .('2', '0')" '
for j in jobs: del j["part"]'
doctor "uneven counts" "jobs_read" 's["jobs_read"] = str(int(s["jobs_read"]) + 1)'
doctor "skips without a reason" "sum of skipped" 's["jobs_skipped"] = "1"; s["jobs_read"] = str(int(s["jobs_read"]) + 1)'
doctor "an early start" "before it arrives" '
j = jobs[7]; d = f(j["submission_time"]) - 1 - f(j["starting_time"])
for c in ("starting_time", "finish_time"): j[c] = repr(f(j[c]) + d)
j["waiting_time"] = "-1"; j["turnaround_time"] = repr(f(j["finish_time"]) - f(j["submission_time"]))'
doctor "a wrong execution time" "execution_time" 'jobs[3]["execution_time"] = repr(f(jobs[3]["execution_time"]) + 1)'
doctor "a node held twice" "held by job" '
run = [j for j in jobs if f(j["execution_time"]) > 0]
a, b = next((a, b) for a in run for b in run if a is not b
            and f(b["starting_time"]) < f(a["finish_time"]) and f(b["finish_time"]) > f(a["starting_time"]))
na, nb = nodes(a), nodes(b)
nb[0] = na[0]
b["allocated_resources"] = " ".join(map(str, nb))'
doctor "a node outside the machine" "outside" 'jobs[2]["allocated_resources"] = "64"; jobs[2]["requested_number_of_resources"] = "1"'
doctor "a wrong node count" "holds" 'jobs[2]["requested_number_of_resources"] = str(int(jobs[2]["requested_number_of_resources"]) + 1)'
doctor "too many busy nodes" "nodes busy" 's["nodes"] = "4"'
doctor "a late kill" "killed after" 'jobs[4]["killed"] = "1"; jobs[4]["requested_time"] = "0.0001"; s["jobs_killed"] = "1"'
# FCFS: an EASY schedule that backfilled, called fcfs
SRC=tree-easy doctor "an FCFS overtaking" "fcfs:" 's["sched"] = "fcfs"'
finish
