#!/usr/bin/env bash
# End-to-end checks of the jobsched tool as a user runs it: exit codes, error
# messages with file:line, no partial outputs, determinism, plot, statistics.
# Usage: test_jobsched_cli.sh BUILD_BIN_DIR SHARED_DIR
set -u
JS="$1/jobsched"
SHARED="$2"
. "$(dirname "$0")/../check.sh"

hdr='; Version: 2.2
; MaxProcs: 8'
rec='1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1'

# Each class of bad SWF line: exit 1, file:line and field named, nothing written.
bad_case() {
	local name=$1 line=$2 needle=$3 body=$4
	printf '%s\n%s\n%s\n' "$hdr" "$rec" "$body" > "$T/bad.swf"
	rm -f "$T/o.csv" "$T/s.csv"
	"$JS" --workload "$T/bad.swf" --machine flat:nodes=8 --jobs-out "$T/o.csv" \
		--summary-out "$T/s.csv" > "$T/out" 2> "$T/err"
	local rc=$?
	check "bad swf $name: exit 1" test $rc -eq 1
	check "bad swf $name: names bad.swf:$line" grep -q "bad.swf:$line: error" "$T/err"
	check "bad swf $name: message" grep -q -- "$needle" "$T/err"
	check "bad swf $name: no output" test ! -e "$T/o.csv" -a ! -e "$T/s.csv"
	check "bad swf $name: no temporary left" test -z "$(ls "$T" | grep tmp)"
}
bad_case fields 4 "expected 18 fields" '2 5 -1 10 2 -1'
bad_case number 4 "field 5 (allocated processors): 'two'" '2 5 -1 10 two -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1'
bad_case negative 4 "field 9 (requested time): '-20' is negative" '2 5 -1 10 2 -1 -1 2 -20 -1 1 1 1 1 1 1 -1 -1'

# --skip-bad: counted, not fatal.
printf '%s\n%s\n%s\n' "$hdr" "$rec" 'garbage line' > "$T/bad.swf"
"$JS" --workload "$T/bad.swf" --machine flat:nodes=8 --skip-bad --summary-out "$T/s.csv" > /dev/null 2>&1
check "skip-bad: exit 0" test $? -eq 0
check "skip-bad: counted" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/s.csv')))
sys.exit(0 if r['skipped_malformed']=='1' and r['jobs_simulated']=='1' else 1)"

# Each skip reason lands in its own summary column.
printf '%s\n%s\n%s\n%s\n' "$hdr" "$rec" '2 -1 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1' \
	'3 4 -1 -1 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1' > "$T/skip.swf"
"$JS" --workload "$T/skip.swf" --machine flat:nodes=8 --summary-out "$T/s.csv" > /dev/null 2>&1
check "skip reasons: own columns" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/s.csv')))
sys.exit(0 if r['skipped_submit_unknown']=='1' and r['skipped_runtime_unknown']=='1' and r['skipped_runtime_zero']=='0' and r['jobs_skipped']=='2' else 1)"

# Usage errors exit 2 and say what is wrong.
"$JS" --workload x --machine flat:nodes=8 --sched eazy > /dev/null 2> "$T/err"
check "unknown scheduler: exit 2" test $? -eq 2
check "unknown scheduler: lists known" grep -q "known: fcfs, easy, conservative, fpfs" "$T/err"
"$JS" --synthetic dq --machine flat:nodes=8 --sched fpfs:maxjumps=x > /dev/null 2> "$T/err"
check "bad parameter: exit 2" test $? -eq 2
"$JS" --synthetic dq > /dev/null 2>&1
check "missing machine: exit 2" test $? -eq 2
"$JS" --bogus > /dev/null 2>&1
check "unknown option: exit 2" test $? -eq 2
"$JS" --synthetic reshape --machine flat:nodes=400 --queue-order priority:qfactor_w=2,nodes_w=0.5 \
	--summary-out "$T/prio.csv" > /dev/null 2>&1
check "priority order: runs, echoed with its weights" python3 -c "
import csv; r=next(csv.DictReader(open('$T/prio.csv')))
assert r['queue_order'] == 'priority:qfactor_w=2,qtime_w=0,nodes_w=0.5,qfactor_limit=1', r['queue_order']"
# Resizing (seed 004): runs with the reshape model by default, reports the
# sizes, is deterministic; a model that cannot resize and a bad policy are
# refused with nothing written.
RS="--synthetic reshape:resizable=100,high=50 --machine flat:nodes=400 --queue-order priority"
"$JS" $RS --resize pba:window=3 --jobs-out "$T/rs1.csv" --summary-out "$T/rss.csv" --quiet > /dev/null
check "resize: runs" test $? -eq 0
"$JS" $RS --resize pba:window=3 --jobs-out "$T/rs2.csv" --groups-out "$T/rsg.csv" --quiet > /dev/null
check "groups table: the jobs CSV's means by size and by priority" python3 -c "
import csv, statistics as st
jobs = list(csv.DictReader(open('$T/rs2.csv')))
g = list(csv.DictReader(open('$T/rsg.csv')))
for kind, col in (('size', 'requested_number_of_resources'), ('user_priority', 'user_priority')):
    rows = [r for r in g if r['group'] == kind]
    assert sum(int(r['jobs']) for r in rows) == len(jobs)
    for r in rows:
        mine = [j for j in jobs if float(j[col]) == float(r['value'])]
        assert len(mine) == int(r['jobs'])
        for a, b in (('mean_wait_s', 'waiting_time'), ('mean_execution_s', 'execution_time'), ('mean_response_s', 'turnaround_time')):
            assert abs(float(r[a]) - st.mean(float(j[b]) for j in mine)) < 1e-5, (r, a)
        assert abs(float(r['mean_expansions']) - st.mean(int(j['expansions']) for j in mine)) < 1e-4"
check "resize: deterministic" cmp -s "$T/rs1.csv" "$T/rs2.csv"
check "resize: summary names the policy and the model, counts resizes" python3 -c "
import csv; r=next(csv.DictReader(open('$T/rss.csv')))
assert r['resize'] == 'pba:window=3,min_ep=0,alpha=0.8,redist=0,arb_step=row', r['resize']
assert r['runtime'] == 'reshape:alpha=0.8,from=current', r['runtime']
assert int(r['expansions']) > 0 and int(r['contractions']) > 0 and int(r['resize_points']) == 120 * 6
jobs = list(csv.DictReader(open('$T/rs1.csv')))
assert sum(float(j['user_priority']) > 0 for j in jobs) == 60
for j in jobs:
    sz = [int(x.split('@')[0]) for x in j['sizes'].split()]
    assert j['resizable'] == '1' and sz[0] == int(j['requested_number_of_resources'])
    assert max(sz) == int(j['max_nodes']) and len(sz) == 1 + int(j['expansions']) + int(j['contractions'])"
"$JS" $RS --resize pba --runtime log --jobs-out "$T/rsx.csv" > /dev/null 2> "$T/err"
check "resize with a model that cannot: exit 2, job named, nothing written" \
	status_says $? eq 2 "run-time model log cannot run resizable jobs (job" "$T/err" "$T/rsx.csv"
"$JS" $RS --resize grow --jobs-out "$T/rsx.csv" > /dev/null 2> "$T/err"
check "unknown resizing policy: exit 2, named" status_says $? eq 2 "grow" "$T/err" "$T/rsx.csv"
"$JS" $RS --resize maxb:window=0 > /dev/null 2> "$T/err"
check "bad policy parameter: exit 2" status_says $? eq 2 "window" "$T/err"
# --resizable P:K on a log: the same jobs under every scheduler, about P %,
# echoed in the summary; bad specifications and generated workloads refused.
"$JS" --synthetic dq:jobs=400 --machine flat:nodes=32 --swf-out "$T/rsl.swf" --quiet > /dev/null
"$JS" --workload "$T/rsl.swf" --machine flat:nodes=32 --resizable 50:4 --resize pba \
	--queue-order priority --jobs-out "$T/rl1.csv" --summary-out "$T/rls.csv" --quiet > /dev/null &&
	"$JS" --workload "$T/rsl.swf" --machine flat:nodes=32 --resizable 50:4 --resize maxb \
		--sched fcfs --jobs-out "$T/rl2.csv" --quiet > /dev/null
check "resizable log: runs under two schedulers" test $? -eq 0
check "resizable log: the same jobs, about half, echoed" python3 -c "
import csv
a = [j['resizable'] for j in csv.DictReader(open('$T/rl1.csv'))]
b = [j['resizable'] for j in csv.DictReader(open('$T/rl2.csv'))]
assert a == b and 150 < a.count('1') < 250, (a.count('1'))
r = next(csv.DictReader(open('$T/rls.csv')))
assert r['resizable'] == '50:4' and int(r['resize_points']) == 3 * a.count('1'), r"
for bad in 50 120:4 50:1 50:4x; do
	"$JS" --workload "$T/rsl.swf" --machine flat:nodes=32 --resizable "$bad" > /dev/null 2> "$T/err"
	check "--resizable $bad: exit 2, named" status_says $? eq 2 "resizable: '$bad' is not P:K" "$T/err"
done
"$JS" --synthetic dq --machine flat:nodes=32 --resizable 50:4 > /dev/null 2> "$T/err"
check "--resizable with a generator: exit 2" status_says $? eq 2 "is for logs" "$T/err"
"$JS" --synthetic reshape:resizable=100 --machine flat:nodes=400 --resize none --jobs-out "$T/rs3.csv" --quiet > /dev/null
check "resizable jobs without --resize keep their size" python3 -c "
import csv
for j in csv.DictReader(open('$T/rs3.csv')):
    assert j['sizes'] == '' and j['expansions'] == '0', j"

"$JS" --synthetic dq --machine flat:nodes=8 --queue-order priority:age=1 > /dev/null 2> "$T/err"
check "priority order, unknown key: exit 2, named" status_says $? eq 2 "queue-order priority" "$T/err"
"$JS" --synthetic dq --machine flat:nodes=8 --queue-order priorityx > /dev/null 2> "$T/err"
check "unknown queue order: exit 2" status_says $? eq 2 "is not arrival, sjf, smallest or priority" "$T/err"
"$JS" --workload /nonexistent.swf --machine flat:nodes=8 > /dev/null 2> "$T/err"
check "missing file: exit 1" test $? -eq 1
check "missing file: named" grep -q "/nonexistent.swf" "$T/err"
"$JS" --help > "$T/help"
check "help: exit 0 and lists registries" grep -q "conservative" "$T/help"
"$JS" --version | grep -q "^jobsched " ; check "version" test $? -eq 0

# Determinism: same inputs and seed, byte-identical outputs; another seed differs.
run_synth() { "$JS" --synthetic dq:jobs=3000,n2=64,mean_run=600,load=0.9 --machine flat:nodes=64 \
	--sched "$1" --seed "$2" --jobs-out "$T/$3.jobs" --summary-out "$T/$3.sum" \
	--series-out "$T/$3.series" --swf-out "$T/$3.swf" > /dev/null; }
for s in fcfs easy conservative fpfs:maxjumps=4; do
	run_synth $s 7 a && run_synth $s 7 b
	check "determinism $s" cmp -s "$T/a.jobs" "$T/b.jobs"
	check "determinism $s summary" cmp -s "$T/a.sum" "$T/b.sum"
	check "determinism $s series" cmp -s "$T/a.series" "$T/b.series"
done
run_synth easy 8 c
check "another seed differs" test -n "$(cmp "$T/a.swf" "$T/c.swf" 2>&1)"
# The generated workload written as SWF replays to the same schedule.
"$JS" --workload "$T/a.swf" --machine flat:nodes=64 --sched fpfs:maxjumps=4 --jobs-out "$T/r.jobs" > /dev/null
same_but_name() { # the two per-job CSVs equal but for workload_name (the source)
	python3 - "$1" "$2" <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
for r in a + b:
    r.pop("workload_name")
sys.exit(0 if a == b and a else 1)
PY
}
check "synthetic -> SWF -> same schedule" same_but_name "$T/a.jobs" "$T/r.jobs"

# --swf-out keeps the source's header lines, quoted so they are not read as its own.
printf '; MaxProcs: 8\n; Note: from the site\n%s\n' "$rec" > "$T/h.swf"
"$JS" --workload "$T/h.swf" --machine flat:nodes=8 --swf-out "$T/h.out.swf" > /dev/null
check "swf-out keeps the header" grep -q "^; > ; Note: from the site$" "$T/h.out.swf"
check "swf-out reads back" "$JS" --stats "$T/h.out.swf" > /dev/null

# Summary: one header row, one value row, equal column counts.
check "summary shape" python3 -c "
import csv,sys; rows=list(csv.reader(open('$T/a.sum')))
sys.exit(0 if len(rows)==2 and len(rows[0])==len(rows[1]) else 1)"
# Jobs CSV: Batsim column names and interval sets.
check "jobs csv columns" grep -q "^job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata,bounded_slowdown,killed,size_group,status,pairwise_sum,pairwise_mean,max_level,alloc_class,clusters,moves,psi,work_s,effective_speedup,iter_ref_s,iter_mean_s,user_priority,resizable,expansions,contractions,max_nodes,sizes,part$" "$T/a.jobs"

# Topology-aware allocation: classes on a tree, timed decisions.
"$JS" --synthetic dq:jobs=400,n2=40,mean_run=600,load=0.9 --machine kary-ntree:k=4,n=3 \
	--alloc quasi:qct=20 --jobs-out "$T/q.jobs" --summary-out "$T/q.sum" --time-alloc > /dev/null
check "tree run: classes and levels" python3 -c "
import csv,sys; rows=list(csv.DictReader(open('$T/q.jobs')))
ok=all(r['alloc_class'] in ('contiguous','quasi','non-contiguous') and r['max_level'] for r in rows)
ok=ok and any(r['alloc_class']=='quasi' for r in rows)
s=next(csv.DictReader(open('$T/q.sum')))
sys.exit(0 if ok and float(s['alloc_time_mean_us'])>0 and int(s['alloc_decisions'])>=400 else 1)"
"$JS" --synthetic dq --machine mesh:dims=4x4 --alloc contiguous > /dev/null 2> "$T/err"
check "tree allocator on a mesh: exit 2" test $? -eq 2
check "tree allocator on a mesh: says so, naming it" grep -q "allocator .contiguous.: needs a kary-ntree machine" "$T/err"

# --platform: a SimGrid platform (platgen's, or a plain cluster) as the machine.
"$1/platgen" --machine kary-ntree:k=4,n=3 -o "$T/p.xml" 2> /dev/null
"$JS" --synthetic dq:jobs=200,n2=16 --platform "$T/p.xml" --alloc contiguous --summary-out "$T/p.sum" > /dev/null
check "platform from platgen" grep -q "kary-ntree:k=4,n=3" "$T/p.sum"
printf '<?xml version="1.0"?>\n<platform version="4.1">\n<cluster id="c" prefix="n" suffix="" radical="0-7" speed="1Gf" bw="1GBps" lat="1us" bogus="1"/>\n</platform>\n' > "$T/bad.xml"
"$JS" --synthetic dq --platform "$T/bad.xml" > /dev/null 2> "$T/err"
check "bad platform: exit 1" test $? -eq 1
check "bad platform: names bad.xml:3" grep -q "bad.xml:3: error: <cluster> has no attribute 'bogus'" "$T/err"
"$JS" --synthetic dq --machine flat:nodes=4 --platform "$T/p.xml" > /dev/null 2>&1
check "machine and platform: exit 2" test $? -eq 2

# Plot: a PNG.
"$JS" --synthetic dq:jobs=300 --machine flat:nodes=32 --plot "$T/p.png" > /dev/null
check "plot is a PNG" python3 -c "import sys; sys.exit(0 if open('$T/p.png','rb').read(8)==b'\x89PNG\r\n\x1a\n' else 1)"
check "plot: no temporary left" test -z "$(ls "$T" | grep tmp)"

# Nothing left after cleaning: a run that says so, and a plot that says so.
printf '; MaxProcs: 8\n1 0 -1 -1 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n' > "$T/allskip.swf"
"$JS" --workload "$T/allskip.swf" --machine flat:nodes=8 --summary-out "$T/as.csv" --plot "$T/as.png" > "$T/out" 2>&1
check "no job simulated: exit 0" test $? -eq 0
check "no job simulated: summary" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/as.csv')))
sys.exit(0 if r['jobs_simulated']=='0' and r['skipped_runtime_unknown']=='1' and r['mean_wait_s']=='' else 1)"
check "no job simulated: plot" test -s "$T/as.png"
check "no job simulated: no nan, the reason" status_says 0 eq 0 "none: every record skipped (runtime_unknown 1)" "$T/out"
check "no job simulated: no nan" bash -c "! grep -qi nan '$T/out'"

# Skips by reason in the text summary: an oversize job is not lumped with
# --first's cut.
printf '; MaxProcs: 16\n1 0 -1 10 16 -1 -1 16 20 -1 1 1 1 1 1 1 -1 -1\n2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n3 9 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n' > "$T/over.swf"
"$JS" --workload "$T/over.swf" --machine flat:nodes=8 --first 1 > "$T/out" 2>&1
check "skips by reason in the summary" grep -q '^jobs  *3 read, 2 skipped (oversize 1, selection 1), 1 simulated, 0 killed$' "$T/out"
"$JS" --workload "$T/over.swf" --machine flat:nodes=16 > "$T/out" 2>&1
check "no skip: no reasons" grep -q '^jobs  *3 read, 0 skipped, 3 simulated, 0 killed$' "$T/out"

# One job: eq. 2's load undefined (said, not 'nan'), no '-0.0000' lost
# from the rounding of the other two fractions.
printf '; MaxProcs: 10000\n1 0 -1 100 8192 -1 -1 8192 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > "$T/one.swf"
"$JS" --workload "$T/one.swf" --machine flat:nodes=10000 > "$T/out" 2>&1
check "one job: load said undefined, no nan" bash -c "grep -q '^load (seed 000 eq. 2) *- (no job ends' '$T/out' && ! grep -qi nan '$T/out'"
check "one job: none lost, not -0" bash -c "grep -q '^utilized / unused / lost 0.8192 / 0.1808 / 0.0000$' '$T/out'"

# Inputs as published: a header value with a comment and a status outside
# the definition are read, said on stderr (not with --quiet) and counted.
printf ';MaxNodes: 8  (dual)\n; MaxProcs: 16\n%s\n2 1 -1 10 2 -1 -1 2 20 -1 -4 1 1 1 1 1 -1 -1\n' "$rec" > "$T/odd.swf"
"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --summary-out "$T/odd.csv" > /dev/null 2> "$T/err"
check "as published: exit 0" test $? -eq 0
check "as published: header comment noted" grep -q "jobsched: note: .*odd.swf:1: header MaxNodes: 8 taken, '(dual)' kept as a comment" "$T/err"
check "as published: status noted" grep -q "jobsched: note: .*odd.swf: 1 records have a status outside" "$T/err"
check "as published: counted in the summary" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/odd.csv')))
sys.exit(0 if r['status_undefined']=='1' and r['jobs_simulated']=='2' and r['statuses']=='-1 0 1 2 3 4 5 other' else 1)"
"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --quiet > /dev/null 2> "$T/err"
check "as published: --quiet says nothing" test ! -s "$T/err"
"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --status 1 --summary-out "$T/odd.csv" > /dev/null 2>&1
check "--status 1 leaves the undefined out" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/odd.csv')))
sys.exit(0 if r['skipped_status']=='1' and r['statuses']=='1' else 1)"
"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --status other --summary-out "$T/odd.csv" > /dev/null 2>&1
check "--status other keeps only the undefined" python3 -c "
import csv,sys; r=next(csv.DictReader(open('$T/odd.csv')))
sys.exit(0 if r['skipped_status']=='1' and r['jobs_simulated']=='1' and r['statuses']=='other' else 1)"
for bad in "1," ",1" "1,,5" "6" "x" "" "1,1" "other,5,other"; do
	"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --status "$bad" > /dev/null 2> "$T/err"
	check "--status '$bad': exit 2" status_says $? eq 2 "--status" "$T/err"
done
"$JS" --workload "$T/odd.swf" --machine flat:nodes=8 --procs-per-node auto --jobs-out "$T/ppn.csv" > /dev/null 2>&1
check "ppn auto from 16 / 8" test $? -eq 0
printf '; MaxProcs: 16\n%s\n' "$rec" > "$T/noppn.swf"
"$JS" --workload "$T/noppn.swf" --machine flat:nodes=8 --procs-per-node auto --jobs-out "$T/ppn2.csv" > /dev/null 2> "$T/err"
check "ppn auto without MaxNodes: exit 2, no output" status_says $? eq 2 "procs-per-node auto: .*no MaxNodes header value" "$T/err" "$T/ppn2.csv"

# A gzip cut at a line boundary, an input without a job: errors, nothing written.
python3 -c "
import zlib
c = zlib.compressobj(6, zlib.DEFLATED, 31)
lines = [b'; MaxProcs: 8\n'] + [b'%d %d -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n' % (i, i) for i in range(1, 200)]
open('$T/cut.swf.gz', 'wb').write(b''.join(c.compress(l) + c.flush(zlib.Z_FULL_FLUSH) for l in lines[:100]))"
"$JS" --workload "$T/cut.swf.gz" --machine flat:nodes=8 --jobs-out "$T/cut.csv" > /dev/null 2> "$T/err"
check "gzip cut at a line: exit 1, names the file, no output" status_says $? eq 1 "cut.swf.gz: error: the gzip stream is cut short" "$T/err" "$T/cut.csv"
"$JS" --stats "$T/cut.swf.gz" > /dev/null 2>&1
check "gzip cut at a line: --stats exit 1" test $? -eq 1
printf '; Version: 2.2\n; MaxProcs: 8\n' > "$T/nojob.swf"
"$JS" --workload "$T/nojob.swf" --machine flat:nodes=8 --jobs-out "$T/nojob.csv" > "$T/out" 2> "$T/err"
check "no job record: exit 1, no output" status_says $? eq 1 "nojob.swf: error: no job record" "$T/err" "$T/nojob.csv"
"$JS" --stats "$T/nojob.swf" > "$T/out" 2> "$T/err"
check "no job record: --stats exit 1, no nan" status_says $? eq 1 "no job record" "$T/err"
check "no job record: --stats prints nothing" test ! -s "$T/out"
# a machine size beyond 32 bits (a header's, or the largest job's) was
# cut to 32 bits, its jobs counted as oversize: refused, naming it
printf '; MaxProcs: 4294967300\n1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n' > "$T/huge.swf"
"$JS" --stats "$T/huge.swf" > "$T/out" 2> "$T/err"
check "--stats: MaxProcs beyond 2^31 - 1 refused" status_says $? eq 1 "4294967300 nodes (from the header's MaxProcs), is beyond 2^31 - 1" "$T/err"
printf '1 0 0 100 4294967300 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n' > "$T/hugejob.swf"
"$JS" --stats "$T/hugejob.swf" > "$T/out" 2> "$T/err"
check "--stats: a job beyond 2^31 - 1 nodes refused" status_says $? eq 1 "(from the largest job)" "$T/err"
# A path with a quote reaches gnuplot intact.
"$JS" --synthetic dq:jobs=50 --machine flat:nodes=32 --plot "$T/it's.png" > /dev/null 2>&1
check "plot path with a quote" test -s "$T/it's.png"

# --stats: P from the header (MaxProcs / procs-per-node, else MaxNodes), else the largest job.
printf '; MaxNodes: 16\n1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n' > "$T/st.swf"
check "stats P from MaxNodes" test "$("$JS" --stats "$T/st.swf" --procs-per-node 2 | awk '$1=="load_procs"{print $2}')" = 16
printf '; MaxProcs: 16\n1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n' > "$T/st.swf"
check "stats P from MaxProcs" test "$("$JS" --stats "$T/st.swf" --procs-per-node 2 | awk '$1=="load_procs"{print $2}')" = 8
printf '1 0 -1 10 6 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 10 9 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n3 1 -1 10 2 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n' > "$T/st.swf"
check "stats P from the largest job" test "$("$JS" --stats "$T/st.swf" | awk '$1=="load_procs"{print $2}')" = 9

# Real logs (skipped with a message when ../shared is absent).
if [ -d "$SHARED/workloads" ]; then
	"$JS" --stats "$SHARED/workloads/HPC2N-2002-2.2-cln.swf.gz" > "$T/stats"
	check "stats: HPC2N job count" grep -q "^jobs  *202871$" "$T/stats"
	check "stats: load near seed 000's 0.62" python3 -c "
import sys; v=[float(l.split()[1]) for l in open('$T/stats') if l.startswith('load ')][0]
sys.exit(0 if abs(v-0.62)<0.03 else 1)"
	for k in 1 2; do
		"$JS" --workload "$SHARED/workloads/NASA-iPSC-1993-3.1-cln.swf.gz" --machine flat:nodes=128 \
			--sched easy --jobs-out "$T/n$k.jobs" --summary-out "$T/n$k.sum" > /dev/null
	done
	check "determinism on a real log" cmp -s "$T/n1.jobs" "$T/n2.jobs"
else
	echo "SKIP real-log checks: $SHARED/workloads not found"
fi


# A run stopped by a signal while its outputs are open leaves no temporary
# (nor output) behind: killed once its jobs CSV's temporary exists. Every
# signal whose default ends the process: SIGXCPU (a CPU time limit) and the
# batch systems' SIGUSR1 left the temporary before. (SIGINT and SIGQUIT:
# ignored in a shell's background job, as here; test_cleanup takes them.)
for sig in TERM HUP XCPU USR1 USR2 ALRM; do
	mkdir -p "$T/killed"
	"$JS" --synthetic dq:jobs=1000000,q=0.95,n1=1,n2=256,mean_run=3600,load=0.85 \
		--machine flat:nodes=256 --sched easy --jobs-out "$T/killed/jobs.csv" --quiet > /dev/null 2>&1 &
	pid=$!
	seen=0
	for _ in $(seq 1 100); do
		if ls "$T/killed" | grep -q 'jobs.csv.tmp'; then
			seen=1
			break
		fi
		sleep 0.05
	done
	kill -$sig "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	check "SIG$sig: its temporary existed before the signal" test $seen -eq 1
	check "SIG$sig: ended by the signal" test $rc -eq $((128 + $(kill -l $sig)))
	check "SIG$sig: nothing left behind" test -z "$(ls "$T/killed")"
done

# Every class of bad option value and specification: exit 2, the option or
# the spec named with what is wrong, nothing written.
bad_opt() { # needle args..
	local needle=$1
	shift
	rm -f "$T/bo.csv"
	local base=(--synthetic dq:jobs=20 --machine flat:nodes=32) # unless given (once only)
	case " $* " in *" --machine "*) base=(--synthetic dq:jobs=20) ;; *" --synthetic "*) base=(--machine flat:nodes=32) ;; esac
	"$JS" "${base[@]}" --quiet --summary-out "$T/bo.csv" "$@" \
		> /dev/null 2> "$T/err"
	check "bad option $*: exit 2, says '$needle', nothing written" \
		status_says $? eq 2 "$needle" "$T/err" "$T/bo.csv"
}
bad_opt "parameter lat: 1e-320 is too small to be a normal double" --machine flat:nodes=4,lat=1e-320
bad_opt "--sched conservative with --resize pba: its reservations assume every job keeps its size" --sched conservative --resize pba
bad_opt "penalty: psi_min 5 is above psi_max 1" --runtime penalty:psi_min=5,psi_max=1
bad_opt "penalty: psi_min = psi_max = 1: for a fixed psi give psi=1" --runtime penalty:psi_min=1,psi_max=1
bad_opt "--runtime-coef 1e+09 takes its run time" --runtime-coef 1e9 --synthetic dq:jobs=20,mean_run=5000
bad_opt "--machine given twice (it takes one value)" --machine flat:nodes=8 --machine flat:nodes=4
bad_opt "--window 10:5: FROM must be less than TO" --window 10:5
bad_opt "--window 5:5: FROM must be less than TO" --window 5:5
bad_opt "--window FROM: '' is not a number" --window :
bad_opt "--window TO: '' is not a number" --window 5:
bad_opt "--window FROM: 'a' is not a number" --window a:b
bad_opt "--window TO: 'inf' is not a number" --window 0:inf
bad_opt "--window TO: 'nan' is not a number" --window 0:nan
bad_opt "--window FROM: '-1' is not a number" --window -1:5
bad_opt "--window: '5' is not FROM:TO" --window 5
bad_opt "--first: '-5' is not an integer" --first -5
bad_opt "--first: '1.5' is not an integer" --first 1.5
bad_opt "--first: '1e3' is not an integer" --first 1e3
bad_opt "--first: '' is not an integer" --first=
bad_opt "--offset: '1.5' is not an integer" --offset 1.5
bad_opt "--offset: ' 3' is not an integer" --offset " 3"
bad_opt "--seed: '99999999999999999999' is not an integer" --seed 99999999999999999999
bad_opt "--seed: '4294967296' is not an integer" --seed 4294967296
bad_opt "--seed: '0x10' is not an integer" --seed 0x10
bad_opt "--seed: '7abc' is not an integer" --seed 7abc
printf '1 0 -1 0 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 0 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n3 0 -1 5 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n' > "$T/zero.swf"
"$JS" --workload "$T/zero.swf" --machine flat:nodes=8 --resizable 100:5 > /dev/null 2> "$T/err"
check "--resizable without --resize: a note" grep -q "without --resize: the jobs made resizable keep their sizes" "$T/err"
# jobs of run time 0 chosen by --resizable stay rigid, said (a resize with
# iterations of no time once stopped the whole run: NASA-iPSC with --resize)
"$JS" --workload "$T/zero.swf" --machine flat:nodes=8 --resizable 100:5 --resize pba --jobs-out "$T/zr.csv" > /dev/null 2> "$T/err"
check "--resizable: jobs of run time 0 stay rigid, said" python3 -c "
import csv
r = [j['resizable'] for j in csv.DictReader(open('$T/zr.csv'))]
assert sorted(r) == ['0', '0', '1'], r
assert '2 of the jobs chosen have a run time of 0' in open('$T/err').read()"
# --gamma 0: a job of run time 0 has no slowdown (0/0): left out of the
# mean, said, its per-job value empty (the mean was nan)
"$JS" --workload "$T/zero.swf" --machine flat:nodes=8 --gamma 0 --summary-out "$T/zs.csv" --jobs-out "$T/zj.csv" > "$T/zt.txt" 2>&1
check "--gamma 0 with runs of 0: the mean over the others, said" python3 -c "
import csv, sys
s = next(csv.DictReader(open('$T/zs.csv')))
j = list(csv.DictReader(open('$T/zj.csv')))
t = open('$T/zt.txt').read()
sys.exit(0 if s['mean_bounded_slowdown'] == '1' and [r['bounded_slowdown'] for r in j] == ['', '', '1'] and '2 jobs of run time 0 left out' in t else 1)"
bad_opt "--gamma: 'nan' is not a number" --gamma nan
bad_opt "--gamma: '1e999' is not a number" --gamma 1e999
bad_opt "--arrival-mult: 'inf' is not a number" --arrival-mult inf
bad_opt "--runtime-coef: '0' is not a number" --runtime-coef 0
bad_opt "--status: '' is not a status -1..5 or 'other'" --status 1,,0
bad_opt "--status: '1.0' is not a status" --status 1.0,0
bad_opt "--status: ' 1' is not a status" --status " 1"
bad_opt "--resizable: '50:1e3' is not P:K" --resizable 50:1e3
bad_opt "--queue-order: 'priority:' is not" --queue-order priority:
bad_opt "--queue-order priority:qfactor_w=1,: parameter 2 is empty" --queue-order priority:qfactor_w=1,
bad_opt "machine 'kary-ntree:k=64,n=11': k^n = 64^11 nodes: more than the limit" --machine kary-ntree:k=64,n=11
bad_opt "machine 'kary-ntree:k=4,n=3,': parameter 3 is empty" --machine kary-ntree:k=4,n=3,
bad_opt "scheduler 'fpfs:maxjumps=1e3': parameter maxjumps: '1e3' is not an integer" --sched fpfs:maxjumps=1e3
bad_opt "allocator 'quasi:qct=': parameter qct: empty value" --alloc quasi:qct=
bad_opt "run-time model 'speedup:s=nan': parameter s: 'nan' is not a finite number" --runtime speedup:s=nan
bad_opt "synthetic model 'dq:jobs=10,,q=0.5': parameter 2 is empty" --synthetic dq:jobs=10,,q=0.5
bad_opt "synthetic model 'dq:': no parameters after ':'" --synthetic dq:
bad_opt "load=1e-300 on 32 nodes makes mean_iat" --synthetic dq:load=1e-300

finish
