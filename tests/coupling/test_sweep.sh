#!/usr/bin/env bash
# The sweep runner: expansion, the collected tables and their confidence
# intervals against a hand computation, failure isolation, resumption after
# a kill, the emitted Slurm script and GNU parallel list (syntax, and run
# locally they give the same table), bad sweep files, and a real jobsched
# sweep. Usage: test_sweep.sh BIN_DIR
set -u
B=$(cd "$1" && pwd)
. "$(dirname "$0")/../check.sh"
cd "$T"
# a point: summary with value = A * B + REP (awk), a text column that
# varies, one that does not; fails for A = bad; SLEEP slows it down; each
# run appends to runs.log
cat > point.sh << 'SH'
#!/bin/sh
dir=$1 a=$2 b=$3 rep=$4
echo "$dir" >> runs.log
[ "$a" = bad ] && { echo "point.sh: bad value a=$a" >&2; exit 3; }
sleep "${SLEEP:-0}"
v=$(awk -v a="$a" -v b="$b" -v r="$rep" 'BEGIN { printf "%g", a * b + r }')
printf 'value,label,rep_text,const\n%s,"x,y",r%s,same\n' "$v" "$rep" > "$dir/summary.tmp" &&
	mv "$dir/summary.tmp" "$dir/summary.csv"
SH
cat > s.sweep << 'SW'
# two axes (one a range), three repetitions
command = sh point.sh {dir} {a} \
          {b} {rep}
axis a = 1 4
range b = 0.5:1.5:0.5
repeat = 3
plot v.png = x=b y=value group=a title="value against b"
SW
"$B/sweep" s.sweep --dry-run > dry.txt
check "expansion: 2 x 3 x 3 points" grep -qx "18 points" dry.txt
check "expansion: placeholders filled" grep -q "sh point.sh s.out/points/a-4_b-1.5_rep-3 4 1.5 3" dry.txt
# linked axes: the values of a row go together (3 rows x 2 x 1 rep)
printf 'command = sh point.sh {dir} {a} {b} {rep} {c}\naxis a b = 1 2 | 3 4 | 5 6\naxis c = x y\n' > l.sweep
"$B/sweep" l.sweep --dry-run > ldry.txt
check "linked axes: 3 rows x 2 values" grep -qx "6 points" ldry.txt
check "linked axes: a row's values together" grep -q "sh point.sh l.out/points/a-3_b-4_c-y_rep-1 3 4 1 y" ldry.txt
check "linked axes: no mixed row" test "$(grep -c 'a-3_b-2\|a-1_b-4' ldry.txt)" -eq 0
"$B/sweep" s.sweep -j 2 --quiet 2> err.txt
check "a sweep runs and collects (exit 0)" test $? -eq 0 -a -s s.out/sweep.csv -a -s s.out/v.png
check "one row per point" test "$(tail -n +2 s.out/sweep.csv | wc -l)" -eq 18
check "parameters as columns" grep -qx 'a,b,rep,row,value,label,rep_text,const' s.out/sweep.csv
check "points in sweep order" grep -qx '4,1.5,3,1,9,"x,y",r3,same' s.out/sweep.csv
# a = 4, b = 1: values 5, 6, 7: mean 6, sd 1, t(0.975, 2) = 4.30265273 -> 2.48413771
check "interval table: mean, sd, 95% half-width by hand" \
	grep -qx '4,1,1,3,6,1,2.484137712,"x,y",,,,,,same,,' s.out/sweep_ci.csv
check "interval table header" \
	grep -qx 'a,b,row,n,value,value_sd,value_ci95,label,label_sd,label_ci95,rep_text,rep_text_sd,rep_text_ci95,const,const_sd,const_ci95' s.out/sweep_ci.csv
cp s.out/sweep.csv whole.csv
cp s.out/sweep_ci.csv whole_ci.csv
# resumable: a rerun runs nothing and gives the same tables
: > runs.log
"$B/sweep" s.sweep --quiet 2> /dev/null
check "rerun: done points are skipped" test ! -s runs.log
check "rerun: same table" cmp -s whole.csv s.out/sweep.csv
# killed mid-sweep, then run again: the same table, no point run twice
rm -rf s.out runs.log
SLEEP=0.3 "$B/sweep" s.sweep -j 2 --quiet 2> kill.txt &
pid=$!
for i in $(seq 1 100); do [ "$(ls s.out/points/*/done 2> /dev/null | wc -l)" -ge 4 ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
st=$?
check "killed: non-zero exit, says so" status_says $st ne 0 "interrupted" kill.txt
ndone=$(ls s.out/points/*/done | wc -l)
check "killed: some points done, not all" test "$ndone" -ge 4 -a "$ndone" -lt 18
"$B/sweep" s.sweep -j 2 --quiet 2> /dev/null
check "resumed: same table as the whole run" cmp -s whole.csv s.out/sweep.csv
check "resumed: same interval table" cmp -s whole_ci.csv s.out/sweep_ci.csv
runs=$(wc -l < runs.log)
check "resumed: each point ran once, those interrupted twice at most" \
	test "$runs" -ge 18 -a "$runs" -le 20
# one runner per output directory
rm -rf s.out
: > runs.log
SLEEP=0.5 "$B/sweep" s.sweep -j 1 --quiet 2> /dev/null &
pid=$!
# a point running: the lock is held (the file alone exists a moment before)
for i in $(seq 1 100); do [ -s runs.log ] && break; sleep 0.1; done
"$B/sweep" s.sweep --quiet 2> lock.txt
st=$?
kill -TERM $pid
wait $pid
check "a second runner on the same directory: exit 1, says so" \
	status_says $st eq 1 "another sweep is running on s.out" lock.txt
"$B/sweep" s.sweep -j 2 --quiet 2> /dev/null
check "the lock goes with its runner: the next run completes" cmp -s whole.csv s.out/sweep.csv
# failure isolation
sed 's/^axis a = 1 4$/axis a = 1 bad 4/' s.sweep > f.sweep
"$B/sweep" f.sweep --quiet 2> ferr.txt
st=$?
check "a failing point: exit 1" test $st -eq 1
check "a failing point: its command reported" \
	grep -q "failed (exit status 3): sh point.sh f.out/points/a-bad_b-0.5_rep-1 bad 0.5 1" ferr.txt
check "a failing point: its stderr reported" grep -q "point.sh: bad value a=bad" ferr.txt
check "a failing point: the others collected" test "$(tail -n +2 f.out/sweep.csv | wc -l)" -eq 18
check "a failing point: no done marker" test ! -e f.out/points/a-bad_b-0.5_rep-1/done
# a summary path that several points share: each would read another's results
printf 'command = echo {a}\nsummary = s.csv\naxis a = 1 2\n' > same.sweep
"$B/sweep" same.sweep --dry-run > /dev/null 2> sserr.txt
check "a summary path shared by points: refused at its line" status_says $? eq 1 "same.sweep:2: summary = s.csv: several points would write s.csv" sserr.txt
# --emit slurm with an output folder that #SBATCH --output cannot take
"$B/sweep" s.sweep --emit slurm -o sp.slurm --out 'o u%x' --quiet 2> sperr.txt
check "slurm: an --out with a space or '%' refused, nothing written" status_says $? eq 2 "which #SBATCH --output cannot take" sperr.txt sp.slurm
# a NUL byte in a line would cut the command short: refused at its line
printf 'command = /bin/echo a\000b\n' > nul.sweep
"$B/sweep" nul.sweep --dry-run > /dev/null 2> nerr.txt
check "a NUL byte: exit 1, file:line" status_says $? eq 1 "nul.sweep:1: NUL byte in line" nerr.txt
# Slurm and GNU parallel: valid bash, run locally they make the same table
"$B/sweep" s.sweep --emit slurm -o run.slurm --out sl.out --quiet
check "slurm: bash -n" bash -n run.slurm
check "slurm: an array of 18 tasks" grep -q "^#SBATCH --array=1-18$" run.slurm
for i in $(seq 1 18); do SLURM_ARRAY_TASK_ID=$i bash run.slurm || break; done
"$B/sweep" s.sweep --out sl.out --collect --quiet
check "slurm tasks run in a loop: same table" cmp -s whole.csv sl.out/sweep.csv
: > runs.log
SLURM_ARRAY_TASK_ID=3 bash run.slurm
check "slurm: a done task exits at once" test ! -s runs.log
# a site's resources: each as an #SBATCH line, the throttle on the array
"$B/sweep" s.sweep --emit slurm -o res.slurm --out sl.out --quiet --time 1-02:30:00 --mem 4G \
	--partition batch --account proj42 --throttle 5 --sbatch=--qos=long --sbatch --exclusive
check "slurm resources: bash -n" bash -n res.slurm
for l in "--array=1-18%5" "--time=1-02:30:00" "--mem=4G" "--partition=batch" "--account=proj42" \
	"--qos=long" "--exclusive"; do
	grep -qx -- "#SBATCH $l" res.slurm || ko "slurm resources: #SBATCH $l"
done
check "slurm resources: the commands the same" cmp -s <(grep -v "^#SBATCH" run.slurm) <(grep -v "^#SBATCH" res.slurm)
# bad resources: usage errors naming the option, nothing written
for bad in "--time 1h" "--time 1:2:3:4" "--mem 4GB" "--partition a#b" "--throttle 0" \
	"--sbatch=--array=1-3" "--sbatch=qos" "--sbatch=--output=x"; do
	rm -f bad.slurm
	"$B/sweep" s.sweep --emit slurm -o bad.slurm --out sl.out --quiet $bad 2> berr.txt
	st=$?
	opt=${bad%% *}
	[ $st -eq 2 ] && [ ! -e bad.slurm ] && grep -q -- "${opt%%=*}" berr.txt || ko "slurm resource $bad refused (exit $st: $(head -c 200 berr.txt))"
done
"$B/sweep" s.sweep --emit parallel --out par.out --quiet --time 10 2> berr.txt
check "--time without --emit slurm: a usage error" status_says $? eq 2 "go with --emit slurm" berr.txt
"$B/sweep" s.sweep --emit parallel --out par.out --quiet
check "parallel: one line per point" test "$(wc -l < par.out/sweep.jobs)" -eq 18
check "parallel: bash -n" bash -n par.out/sweep.jobs
bash par.out/sweep.jobs
"$B/sweep" s.sweep --out par.out --collect --quiet
check "parallel lines run one by one: same table" cmp -s whole.csv par.out/sweep.csv
# collecting an incomplete sweep: the complete points, exit 1, the first missing named
rm par.out/points/a-1_b-1_rep-2/done
"$B/sweep" s.sweep --out par.out --collect --quiet 2> miss.txt
check "collect with a missing point: exit 1, named" status_says $? eq 1 "a-1_b-1_rep-2 is not complete" miss.txt
check "collect with a missing point: 17 rows" test "$(tail -n +2 par.out/sweep.csv | wc -l)" -eq 17
# bad sweep files: file:line, exit 1, no output
bad() { # name, expected message, sweep text
	printf '%s\n' "$3" > bad.sweep
	rm -rf bad.out
	"$B/sweep" bad.sweep --quiet > /dev/null 2> bad.txt
	local st=$?
	check "bad file: $1" status_says $st eq 1 "$2" bad.txt bad.out
}
bad "unknown key" "bad.sweep:2: unknown key \"comand\"" $'# x\ncomand = true'
bad "no command" "bad.sweep: no command" 'axis a = 1 2'
bad "unknown placeholder" "bad.sweep:1: unknown placeholder {c}" $'command = echo {a} {c}\naxis a = 1'
bad "bad range" "bad.sweep:2: range \"1:0:1\"" $'command = true\nrange a = 1:0:1'
bad "range not numbers" "bad.sweep:2: range \"1:x:1\"" $'command = true\nrange a = 1:x:1'
bad "axis twice" "bad.sweep:3: axis a given twice" $'command = true\naxis a = 1\naxis a = 2'
bad "repeated value" "bad.sweep:2: axis a: value \"1\" twice" $'command = true\naxis a = 1 1'
bad "unterminated quote" "bad.sweep:1: unterminated \" quote" 'command = echo "x'
bad "repeat not a number" "bad.sweep:2: repeat = N" $'command = true\nrepeat = 0'
bad "repeat with a blank" "bad.sweep:2: repeat = N" $'command = true\nrepeat = 2x'
# keys given once (the last one won, silently), plots named as files of
# the output folder, each once (../x.png was written outside it)
bad "repeat twice" "bad.sweep:3: repeat given twice" $'command = true\nrepeat = 2\nrepeat = 3'
bad "out twice" "bad.sweep:3: out given twice" $'command = true\nout = a\nout = b'
bad "metrics twice" "bad.sweep:3: metrics given twice" $'command = true\nmetrics = x\nmetrics = y'
bad "plot outside the output folder" "bad.sweep:3: plot ../evil.png: a file name in the output folder" $'command = true\naxis a = 1 2\nplot ../evil.png = x=a y=v'
bad "plot not a .png" "bad.sweep:3: plot sweep.csv: a file name in the output folder" $'command = true\naxis a = 1 2\nplot sweep.csv = x=a y=v'
bad "plot twice" "bad.sweep:4: plot p.png given twice (line 3)" $'command = true\naxis a = 1 2\nplot p.png = x=a y=v\nplot p.png = x=a y=w'
bad "range with a hex number" "bad.sweep:2: range \"0x1:2:1\"" $'command = true\nrange a = 0x1:2:1'
bad "range with an empty step" "bad.sweep:2: range \"1:2:\"" $'command = true\nrange a = 1:2:'
bad "range of inf" "bad.sweep:2: range \"1:inf:1\"" $'command = true\nrange a = 1:inf:1'
bad "plot on a non-axis" "bad.sweep:3: plot p.png: \"c\" is neither" $'command = true\naxis a = 1\nplot p.png = x=a y=v c=1'
bad "linked row too short" "bad.sweep:2: linked axes: row 2 has 1 values for 2 axes" $'command = true\naxis a b = 1 2 | 3'
bad "linked row repeated" "bad.sweep:2: axis a: value \"1\" twice (a row repeated)" $'command = true\naxis a b = 1 2 | 1 2'
bad "reserved axis name" "bad.sweep:2: axis name \"rep\"" $'command = true\naxis rep = 1'
# an axis no placeholder uses would run the same command for each value
# (a plot would show identical lines as different conditions)
bad "unused axis" "bad.sweep:3: axis b is in no placeholder of the command: its 2 values" $'command = echo {a}\naxis a = 1 2\naxis b = x y'
bad "unused linked axes" "bad.sweep:2: axis a is in no placeholder" $'command = echo {rep}\naxis a b = 1 2 | 3 4'
bad "plot fixing its x axis" "bad.sweep:4: plot p.png: axis a is the x axis: it cannot be fixed (a=1)" $'command = echo {a} {b}\naxis a = 1 2\naxis b = x y\nplot p.png = x=a y=v a=1'
bad "plot fixing its group" "bad.sweep:4: plot p.png: axis b is the group" $'command = echo {a} {b}\naxis a = 1 2\naxis b = x y\nplot p.png = x=a y=v group=b b=x'
bad "plot fixing an axis twice" "bad.sweep:4: plot p.png: axis b is fixed twice" $'command = echo {a} {b}\naxis a = 1 2\naxis b = x y\nplot p.png = x=a y=v b=x b=y'
bad "plot fixing a value not on the axis" "bad.sweep:4: plot p.png: b=z: not a value of axis b (line 3)" $'command = echo {a} {b}\naxis a = 1 2\naxis b = x y\nplot p.png = x=a y=v b=z'
# Found by fuzzing: repeated values were looked for among every pair, so a
# range of 100,000 values took minutes (the 20 s guard against a hang fails
# without the fix; with it the check takes 0.1 s).
printf 'command = true\nrange a = 0:99999:1\naxis b = x y x\n' > big.sweep
rm -rf bad.out
timeout 20 "$B/sweep" --dry-run big.sweep > /dev/null 2> big.txt
check "range of 100,000 values with a repeat elsewhere: refused" status_says $? eq 1 'big.sweep:3: axis b: value "x" twice' big.txt
printf 'command = true\nrange a = 0:99999:1\nrange c = 1:3:1\naxis c2 = 5\naxis d = 1 2 3 4 5 6 7 8 2\n' > big.sweep
timeout 20 "$B/sweep" --dry-run big.sweep > /dev/null 2> big.txt
check "the earliest repeated value named" status_says $? eq 1 'big.sweep:5: axis d: value "2" twice' big.txt
"$B/sweep" missing.sweep 2> nf.txt
check "missing sweep file: exit 1, named" status_says $? eq 1 "missing.sweep: No such file" nf.txt
"$B/sweep" s.sweep -j 0 2> /dev/null
check "bad -j: exit 2" test $? -eq 2
for j in 4294967297 1.5 " 2" 2x ""; do
	rm -rf bad.out
	"$B/sweep" bad.sweep -j "$j" --out bad.out 2> err.txt
	check "bad -j '$j': exit 2, named, nothing written" status_says $? eq 2 "--parallel: '$j' is not an integer in \\[1, 4096\\]" err.txt bad.out
done
# a real sweep: jobsched, two schedulers x two seeds
cat > js.sweep << SW
command = $B/jobsched --synthetic dq:jobs=300,load=0.8 --machine flat:nodes=20 \\
          --sched {sched} --seed {rep} --summary-out {dir}/summary.csv --quiet
axis sched = fcfs easy
repeat = 2
metrics = mean_wait_s mean_response_s
plot wait.png = x=sched y=mean_wait_s
SW
"$B/sweep" js.sweep -j 2 --quiet 2> js.txt
check "jobsched sweep: runs, 4 rows" test $? -eq 0 -a "$(tail -n +2 js.out/sweep.csv | wc -l)" -eq 4
check "jobsched sweep: chosen metrics only" \
	grep -qx 'sched,row,n,mean_wait_s,mean_wait_s_sd,mean_wait_s_ci95,mean_response_s,mean_response_s_sd,mean_response_s_ci95' js.out/sweep_ci.csv
check "jobsched sweep: axis and summary column sched both kept" \
	head -1 js.out/sweep.csv | grep -q '^sched,rep,row,workload,machine,nodes,summary.sched,'
check "jobsched sweep: the categorical plot" test -s js.out/wait.png
python3 - js.out/sweep.csv js.out/sweep_ci.csv << 'PY'
import csv, sys, statistics
pts = list(csv.DictReader(open(sys.argv[1])))
ci = {r["sched"]: r for r in csv.DictReader(open(sys.argv[2]))}
for s in ("fcfs", "easy"):
    v = [float(r["mean_wait_s"]) for r in pts if r["sched"] == s]
    assert abs(statistics.mean(v) - float(ci[s]["mean_wait_s"])) < 1e-6 * max(1, abs(statistics.mean(v)))
    assert abs(statistics.stdev(v) - float(ci[s]["mean_wait_s_sd"])) < 1e-6 * max(1, statistics.stdev(v))
    # t(0.975, 1) = 12.7062047
    assert abs(12.7062047 * statistics.stdev(v) / 2 ** 0.5 - float(ci[s]["mean_wait_s_ci95"])) < 1e-5 * max(1, statistics.stdev(v))
PY
check "jobsched sweep: intervals match a hand computation" test $? -eq 0
finish
