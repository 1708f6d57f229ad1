#!/usr/bin/env bash
# An SWF log's partial executions (status 2-4 sharing one job number, with
# no whole-job record) are simulated as jobs of their own: every per-job row
# is told apart by its part (0 for a whole job, 1..k for the parts by submit
# time, then file order), the audit keys rows by (job_id, part), and
# --swf-out reads back as the same jobs with the same parts.
# Usage: test_job_parts.sh BIN_DIR
set -u
B="$1"
AUDIT="$(dirname "$0")/../../scripts/audit_schedule.py"
. "$(dirname "$0")/../check.sh"
JS="$B/jobsched"

# job 2: two parts, the second in the file submitted first; job 3: a whole
# record (it stands for the job, its part skipped); job 4: three parts;
# job 5: status 2 alone with its number (a whole job as far as numbers go)
cat > "$T/p.swf" << 'EOF'
; MaxProcs: 8
1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1
2 40 -1 50 4 -1 -1 4 100 -1 3 1 1 1 1 1 -1 -1
2 10 -1 30 4 -1 -1 4 100 -1 2 1 1 1 1 1 -1 -1
3 20 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1
3 20 -1 4 1 -1 -1 1 20 -1 2 1 1 1 1 1 -1 -1
4 5 -1 70 8 -1 -1 8 100 -1 2 1 1 1 1 1 -1 -1
4 5 -1 20 8 -1 -1 8 100 -1 2 1 1 1 1 1 -1 -1
4 90 -1 20 8 -1 -1 8 100 -1 3 1 1 1 1 1 -1 -1
5 7 -1 9 1 -1 -1 1 20 -1 2 1 1 1 1 1 -1 -1
EOF
run() { "$JS" --machine flat:nodes=8 --sched fcfs --quiet "$@" > /dev/null 2> "$T/err"; }
run --workload "$T/p.swf" --jobs-out "$T/a.jobs" --summary-out "$T/a.sum" --swf-out "$T/a.swf"
check "parts: runs" test $? -eq 0
check "jobs CSV: the part column last of the core's" grep -q ",max_nodes,sizes,part$" "$T/a.jobs"
check "jobs CSV: (job_id, part) per row, parts by submit time then file order" python3 - "$T/a.jobs" << 'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = sorted((r["job_id"], r["part"], r["submission_time"], r["execution_time"]) for r in rows)
want = sorted([("1", "0", "0", "100"), ("2", "1", "10", "30"), ("2", "2", "40", "50"),
               ("3", "0", "20", "10"), ("4", "1", "5", "70"), ("4", "2", "5", "20"),
               ("4", "3", "90", "20"), ("5", "0", "7", "9")])
assert got == want, got
EOF
check "the audit passes the parts" python3 "$AUDIT" "$T/a.jobs" "$T/a.sum"
"$JS" --workload "$T/p.swf" --machine flat:nodes=8 2>&1 > /dev/null | grep "partial executions" > "$T/note"
check "the note says how the parts are told apart" grep -q "5 parts simulated as jobs of their own, told apart by their part (1..k)" "$T/note"

# --swf-out reads back as the same jobs, parts included
run --workload "$T/a.swf" --jobs-out "$T/b.jobs" --summary-out "$T/b.sum"
check "swf-out: re-read gives the same jobs and parts" python3 - "$T/a.jobs" "$T/b.jobs" << 'EOF'
import csv, sys
def rows(p):
    return [{k: v for k, v in r.items() if k != "workload_name"} for r in csv.DictReader(open(p))]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert a == b, (a, b)
EOF
check "swf-out: the re-read's audit passes" python3 "$AUDIT" "$T/b.jobs" "$T/b.sum"
# and again with scaled times (the order of the parts kept)
run --workload "$T/p.swf" --arrival-mult 0.5 --runtime-coef 3 --jobs-out "$T/c.jobs" --swf-out "$T/c.swf"
run --workload "$T/c.swf" --jobs-out "$T/d.jobs"
check "swf-out of scaled times: the same jobs and parts" python3 - "$T/c.jobs" "$T/d.jobs" << 'EOF'
import csv, sys
def rows(p):
    return [{k: v for k, v in r.items() if k != "workload_name"} for r in csv.DictReader(open(p))]
assert rows(sys.argv[1]) == rows(sys.argv[2])
EOF

# Cleaning that drops a part: the others keep their numbers (the log's)
run --workload "$T/p.swf" --status 1,3 --jobs-out "$T/e.jobs"
check "a part dropped by cleaning: the others keep the log's numbers" python3 - "$T/e.jobs" << 'EOF'
import csv, sys
got = sorted((r["job_id"], r["part"]) for r in csv.DictReader(open(sys.argv[1])))
assert got == [("1", "0"), ("2", "2"), ("3", "0"), ("4", "3")], got
EOF

# Messages naming a job name its part
printf '2 10 -1 50 4 -1 -1 4 100 -1 2 1 1 1 1 1 -1 -1\n2 10 -1 30 7 -1 -1 7 100 -1 3 1 1 1 1 1 -1 -1\n' > "$T/pp.swf"
"$JS" --workload "$T/pp.swf" --machine flat:nodes=8 --resizable 100:3 --resize pba --runtime log --quiet > /dev/null 2> "$T/err"
check "a message names the part" status_says $? eq 2 "cannot run resizable jobs (job 2 part 1)" "$T/err"
"$JS" --workload "$T/pp.swf" --machine multicluster:clusters=2,size=4 --alloc coalloc:thres=10,k=2 --quiet > /dev/null 2> "$T/err"
check "... and its line" status_says $? eq 1 "job 2 (line 2, part 2): 7 nodes can never be placed" "$T/err"

# Batsim and generated jobs are whole
"$JS" --synthetic dq:jobs=20 --machine flat:nodes=32 --quiet --jobs-out "$T/s.jobs" > /dev/null
check "generated jobs: part 0" python3 -c "
import csv, sys
assert {r['part'] for r in csv.DictReader(open('$T/s.jobs'))} == {'0'}"
finish
