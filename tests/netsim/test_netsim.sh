#!/usr/bin/env bash
# netsim with the SimGrid engine: recorded NPB traces replay to SMPI's own
# times, SimGrid's examples finish, an isolated message takes the analytic
# time, contention shows where routes share links and only there, repeated
# evaluations in one process agree, and bad input is refused before running.
# Usage: test_netsim.sh BIN_DIR SHARED_DIR
set -u
NS="$1/netsim"
SH=$(cd "$2" 2> /dev/null && pwd || echo "$2")
. "$(dirname "$0")/../check.sh"
time_of() { tail -1 "$1" | cut -d, -f7; }
alone_of() { tail -1 "$1" | cut -d, -f8; }
close() { python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= t * abs(b) else 1)" "$@"; }

if [ -d "$SH/traces/npb" ]; then
	mkdir -p "$T/npb"
	for a in "$SH"/traces/npb/*.tar.gz; do
		b=$(basename "$a" .tar.gz)
		IFS=. read -r k c n <<< "$b"
		(cd "$T/npb" && tar xzf "$a")
		want=$(grep "^$b|" "$SH/traces/npb/README.md" | cut -d'|' -f4)
		# SMPI's own collective selection for alltoall (netsim replaces its
		# Bruck algorithm by the linear one by default)
		if "$NS" --platform "$SH/traces/npb/platform-flat64.xml" --job "$T/npb/$b.txt@0-$((n - 1))" --quiet \
			--cfg smpi/alltoall:ompi --jobs-out "$T/j.csv" 2> "$T/err" && close "$(time_of "$T/j.csv")" "$want" 0.02; then
			ok "$b replays to SMPI's time ($(time_of "$T/j.csv") vs $want s)"
		else
			ko "$b replays to SMPI's time: got $(time_of "$T/j.csv" 2> /dev/null), want $want: $(tail -2 "$T/err")"
		fi
	done
	for f in replay/split_traces replay/actions_bcast.txt replay/actions_alltoallv.txt replay/actions_waitall.txt \
		replay/actions_reducescatter.txt replay_multiple/smpi_replay.txt; do
		n=$("$1/tracegen" --check "$SH/traces/simgrid-examples/$f" | sed -n 's/.*ok, \([0-9]*\) ranks.*/\1/p')
		"$NS" --platform "$SH/traces/npb/platform-flat64.xml" --job "$SH/traces/simgrid-examples/$f@0-$((n - 1))" \
			--quiet --jobs-out "$T/j.csv" 2> "$T/err" && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$(time_of "$T/j.csv")" &&
			ok "SimGrid example $f finishes ($(time_of "$T/j.csv") s)" || ko "SimGrid example $f: $(tail -2 "$T/err")"
	done
else
	echo "SKIP recorded traces: $SH/traces not found"
fi

# one message of 1e8 bytes between two nodes under one switch: latency +
# size / bandwidth (CM02: no correction factors; two links of 1 us)
printf '0 init\n1 init\n0 send 1 0 100000000\n1 recv 0 0 100000000\n0 finalize\n1 finalize\n' > "$T/p2p.txt"
"$NS" --machine flat:nodes=4 --job "$T/p2p.txt@0-1" --cfg network/model:CM02 --quiet --jobs-out "$T/j.csv" &&
	close "$(time_of "$T/j.csv")" "$(python3 -c 'print(2e-6 + 1e8 / 1.25e9)')" 0.01 &&
	ok "analytic time of one message ($(time_of "$T/j.csv") s)" || ko "analytic time of one message"

# contention on a 4-ary 2-tree: 0->4 and 1->8 leave switch 0 by the same up
# port (d-mod-k: destinations 4 and 8 have the same digit 0); 0->1 and 4->5
# stay under their own switches
M=kary-ntree:k=4,n=2
"$NS" --machine $M --job "$T/p2p.txt@0,4" --job "$T/p2p.txt@1,8" --quiet --jobs-out "$T/j.csv" --links-out "$T/l.csv" &&
	python3 - "$T/j.csv" << 'PY' && ok "jobs sharing a link slow each other down" || ko "jobs sharing a link slow each other down"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if all(float(r["slowdown"]) > 1.5 for r in rows) else 1)
PY
python3 -c "import csv, sys; sys.exit(0 if max(float(r['bytes']) for r in csv.DictReader(open(sys.argv[1]))) >= 2e8 else 1)" "$T/l.csv" &&
	ok "the shared link carried both messages (2e8 bytes)" || ko "the shared link carried both messages"
"$NS" --machine $M --job "$T/p2p.txt@0,1" --job "$T/p2p.txt@4,5" --quiet --jobs-out "$T/j.csv" &&
	python3 - "$T/j.csv" << 'PY' && ok "jobs on disjoint subtrees: exactly as alone" || ko "jobs on disjoint subtrees: exactly as alone"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if all(r["time_s"] == r["alone_s"] for r in rows) else 1)
PY
# back-to-back evaluations in one process leak nothing: the alone run inside
# a two-job run equals a run of that job by itself
"$NS" --machine $M --job cg.S.4@contiguous --quiet --jobs-out "$T/one.csv" &&
	"$NS" --machine $M --job cg.S.4@contiguous --job cg.S.4@contiguous --quiet --jobs-out "$T/two.csv" &&
	[ "$(time_of "$T/one.csv")" = "$(sed -n 2p "$T/two.csv" | cut -d, -f8)" ] &&
	ok "repeated evaluations agree ($(time_of "$T/one.csv") s)" || ko "repeated evaluations agree"
# several IS jobs of 16 ranks at once: SMPI's Bruck alltoall crashes there
# (netsim's default replaces it by the linear one)
"$NS" --machine kary-ntree:k=4,n=3 --job is.S.16@spread --job is.S.16@contiguous --job is.S.16@random:seed=2 \
	--job is.A.16@contiguous --quiet 2> "$T/err" && ok "four 16-rank IS jobs at once" || ko "four 16-rank IS jobs at once"
# two instances of one recorded trace on separate flat-cluster nodes: each
# exactly as alone (SMPI's replay matches waits by actor ids: netsim's
# rank files compensate for every job but the first)
if [ -d "$T/npb" ]; then
	"$NS" --platform "$SH/traces/npb/platform-flat64.xml" --job "$T/npb/cg.S.4.txt@0-3" --job "$T/npb/cg.S.4.txt@4-7" \
		--job cg.S.4@8-11 --quiet --jobs-out "$T/j.csv" &&
		python3 - "$T/j.csv" << 'PY' && ok "three CG jobs apart: each as alone" || ko "three CG jobs apart: each as alone"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if all(abs(float(r["time_s"]) - float(r["alone_s"])) <= 1e-6 * float(r["alone_s"]) for r in rows)
         and abs(float(rows[0]["time_s"]) - 0.0232297) < 1e-6 else 1)
PY
fi
# ten jobs (the engine's caches grow): each as alone on a flat machine
J=""
for j in $(seq 0 9); do J="$J --job cg.S.4@$((j * 4))-$((j * 4 + 3))"; done
"$NS" --machine flat:nodes=40 $J --quiet --jobs-out "$T/j.csv" 2> "$T/err" &&
	python3 -c "import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if len(r) == 10 and all(abs(float(x['time_s']) - float(x['alone_s'])) <= 1e-6 * float(x['alone_s']) for x in r) else 1)" "$T/j.csv" &&
	ok "ten jobs apart: each as alone" || ko "ten jobs apart: $(tail -1 "$T/err")"
# --repeat: evaluations back to back agree
"$NS" --machine kary-ntree:k=4,n=2 --job cg.S.16@contiguous --repeat 5 --quiet 2> "$T/err" && grep -q "identical results" "$T/err" &&
	ok "five evaluations back to back agree" || ko "five evaluations back to back: $(tail -1 "$T/err")"
# an output in a folder that does not exist: said before the replays (a
# million evaluations would take hours), exit 1, nothing written
timeout 60 "$NS" --machine kary-ntree:k=4,n=2 --job cg.S.16@contiguous --repeat 1000000 --quiet \
	--jobs-out "$T/no-such-folder/j.csv" 2> "$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no-such-folder/j.csv: cannot create" "$T/err" && [ ! -e "$T/no-such-folder" ] &&
	ok "a missing output folder, before the replays" || ko "a missing output folder: exit $rc, $(tail -1 "$T/err")"
# --until: a job that cannot finish by then is reported unfinished
"$NS" --machine flat:nodes=8 --job cg.S.4@0-3 --job is.S.4@4-7 --until 0.02 --quiet --jobs-out "$T/u.csv" &&
	grep -q "^job0,cg.S.4,4,0-3,0,,,,,$" "$T/u.csv" && grep -q "^job1,is.S.4,4,4-7,0,0.00222" "$T/u.csv" &&
	ok "--until: unfinished and finished jobs" || ko "--until: $(cat "$T/u.csv")"
# --per-iteration: the run with K + 1 iterations minus the one with K
"$NS" --machine kary-ntree:k=4,n=2 --job cg.A.4@contiguous --iterations 1 --per-iteration --quiet --jobs-out "$T/p1.csv" &&
	"$NS" --machine kary-ntree:k=4,n=2 --job cg.A.4@contiguous --iterations 2 --quiet --jobs-out "$T/p2.csv" &&
	python3 - "$T/p1.csv" "$T/p2.csv" << 'PY' && ok "--per-iteration = T(K+1) - T(K)" || ko "--per-iteration"
import csv, sys
a = next(csv.DictReader(open(sys.argv[1])))
b = next(csv.DictReader(open(sys.argv[2])))
it = float(b["time_s"]) - float(a["time_s"])
sys.exit(0 if it > 0 and abs(float(a["iteration_s"]) - it) <= 1e-6 * it else 1)
PY
"$NS" --machine flat:nodes=4 --job "$T/p2p.txt@0-1" --iterations 1 --per-iteration 2> "$T/err"
[ $? -eq 2 ] && grep -q "needs generated traces" "$T/err" && ok "--per-iteration refuses a trace file" || ko "--per-iteration refuses a trace file"
# our own replay (engine s4u): recorded traces near SMPI's time, contention,
# several jobs
if [ -d "$T/npb" ]; then
	for b in cg.S.4 lu.S.4 ft.S.4 cg.A.4; do
		n=${b##*.}
		want=$(grep "^$b|" "$SH/traces/npb/README.md" | cut -d'|' -f4)
		"$NS" --engine s4u --platform "$SH/traces/npb/platform-flat64.xml" --job "$T/npb/$b.txt@0-$((n - 1))" --quiet \
			--jobs-out "$T/j.csv" 2> "$T/err" && close "$(time_of "$T/j.csv")" "$want" 0.01 &&
			ok "s4u: $b within 1% of SMPI's time ($(time_of "$T/j.csv") vs $want)" || ko "s4u: $b: $(time_of "$T/j.csv") vs $want $(tail -1 "$T/err")"
	done
fi
"$NS" --engine s4u --machine kary-ntree:k=4,n=2 --job "$T/p2p.txt@0,4" --job "$T/p2p.txt@1,8" --quiet --jobs-out "$T/j.csv" &&
	python3 -c "import csv, sys; sys.exit(0 if all(float(r['slowdown']) > 1.5 for r in csv.DictReader(open(sys.argv[1]))) else 1)" "$T/j.csv" &&
	ok "s4u: jobs sharing a link slow each other down" || ko "s4u: jobs sharing a link"
"$NS" --engine s4u --machine torus:dims=4x4 --job mg.S.8@spread --job is.S.4@contiguous --job cg.S.4@contiguous --quiet \
	--jobs-out "$T/j.csv" 2> "$T/err" && [ "$(wc -l < "$T/j.csv")" = 4 ] && ok "s4u: three jobs with collectives" ||
	ko "s4u: three jobs with collectives: $(tail -2 "$T/err")"
# a torus with dimensions of one node replays as the torus without them
# (SimGrid's parser once aborted on the generated file: two self links)
a=$("$NS" --engine s4u --machine torus:dims=1x1x5 --job mg.S.4@0,1,3,4 --no-alone --quiet --jobs-out /dev/stdout 2> "$T/err" | tail -1 | cut -d, -f6)
b=$("$NS" --engine s4u --machine torus:dims=5 --job mg.S.4@0,1,3,4 --no-alone --quiet --jobs-out /dev/stdout | tail -1 | cut -d, -f6)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "torus:dims=1x1x5 replays as torus:dims=5 ($a s)" || ko "torus 1x1x5: '$a' vs '$b' $(grep -m1 CRITICAL "$T/err")"
# alltoall in rounds (--alltoall ring): SMPI's ring and our own agree; it is
# not the linear exchange; alltoallv runs too; a bad value is refused
ring_of() { "$NS" --engine "$1" --machine kary-ntree:k=4,n=2 --job ft.A.16@0-15 --iterations 2 --alltoall "$2" --no-alone --quiet \
	--jobs-out "$T/r.csv" > /dev/null && time_of "$T/r.csv"; }
a=$(ring_of simgrid ring) && b=$(ring_of s4u ring) && c=$(ring_of simgrid linear) && close "$a" "$b" 0.01 && ! close "$a" "$c" 0.01 &&
	ok "--alltoall ring: SMPI's ring and s4u's within 1% ($a, $b s), not linear ($c s)" || ko "--alltoall ring: $a $b $c"
for eng in simgrid s4u; do
	"$NS" --engine $eng --machine kary-ntree:k=4,n=2 --job is.S.16@0-15 --alltoall ring --quiet --jobs-out "$T/r.csv" 2> "$T/err" &&
		[ "$(wc -l < "$T/r.csv")" = 2 ] && ok "--alltoall ring: IS (alltoallv) on $eng" || ko "--alltoall ring, IS on $eng: $(tail -2 "$T/err")"
done
"$NS" --machine flat:nodes=4 --job cg.S.4@0-3 --alltoall bruck 2> "$T/err"
[ $? -eq 2 ] && grep -q "'bruck' is not linear or ring" "$T/err" && ok "--alltoall: a bad value, exit 2" || ko "--alltoall bruck: $(cat "$T/err")"
# the flit engine replays traces (--engine flit[:KEY=VALUE,..]): bandwidth-bound
# kernels near the s4u engine's times when link latencies are negligible in both
flow_flit() { "$NS" --engine "$1" --machine kary-ntree:k=4,n=2,lat=1e-9 --job "$2"@0-15 --iterations 1 --alltoall ring --quiet \
	--jobs-out "$T/f.csv" > /dev/null && time_of "$T/f.csv"; }
for k in ft.A.16 is.A.16; do
	a=$(flow_flit s4u $k) && b=$(flow_flit flit $k) && close "$a" "$b" 0.15 &&
		ok "flit engine: $k within 15% of s4u ($b, $a s)" || ko "flit engine vs s4u on $k: $a $b"
done
"$NS" --engine flit:preset=insee,compute=zero,packet_flits=4 --machine mesh:dims=4x4 --job mg.S.8@spread --job cg.S.4@contiguous \
	--quiet --jobs-out "$T/j.csv" --links-out "$T/l.csv" 2> "$T/err" && [ "$(wc -l < "$T/j.csv")" = 3 ] &&
	[ "$(wc -l < "$T/l.csv")" -gt 2 ] && ok "flit engine: two jobs, a preset, link loads" ||
	ko "flit engine: two jobs: $(tail -2 "$T/err")"
# links=platform: a job split across two clusters' wide-area link is far slower
wan() { "$NS" --engine flit:links=platform --machine multicluster:clusters=2,size=8 --job cg.S.8@"$1" --iterations 1 --quiet \
	--jobs-out "$T/w.csv" > /dev/null && time_of "$T/w.csv"; }
a=$(wan 0-7) && b=$(wan 0,1,2,3,8,9,10,11) && python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) > 20 * float(sys.argv[1]) else 1)" "$a" "$b" &&
	ok "flit engine, links=platform: a job across the WAN link $b s, inside a cluster $a s" || ko "flit links=platform WAN: $a $b"
"$NS" --engine flit:preset=insee --machine torus:dims=4x4 --job cg.S.4@0-3 --quiet --jobs-out "$T/b.csv" &&
	[ "$(wc -l < "$T/b.csv")" = 2 ] && ok "flit engine: the INSEE preset on a torus (bubbles, 4-flit packets)" || ko "flit insee on a torus"
"$NS" --engine flit:preset=insee,packet_flits=16 --machine torus:dims=4x4 --job cg.S.4@0-3 2> "$T/err"
[ $? -eq 2 ] && grep -q "bubble flow control need buffers of two packets" "$T/err" &&
	ok "flit engine: bubbles with packets over half a buffer, exit 2" || ko "flit bubble packets: $(cat "$T/err")"
"$NS" --engine flit:vcs=0 --machine mesh:dims=4x4 --job cg.S.4@0-3 2> "$T/err"
[ $? -eq 2 ] && grep -q "vcs" "$T/err" && ok "flit engine: a bad parameter, exit 2" || ko "flit engine vcs=0: $(cat "$T/err")"
"$NS" --engine flit:switching=vct,packet_flits=16 --machine mesh:dims=4x4 --job cg.S.4@0-3 2> "$T/err"
[ $? -eq 2 ] && grep -q "cut-through" "$T/err" && ok "flit engine: cut-through packets larger than buffers, exit 2" ||
	ko "flit engine vct: $(cat "$T/err")"
"$NS" --engine s4u:vcs=2 --machine mesh:dims=4x4 --job cg.S.4@0-3 2> "$T/err"
[ $? -eq 2 ] && grep -q "take no parameters" "$T/err" && ok "s4u: parameters refused, exit 2" || ko "s4u:vcs=2: $(cat "$T/err")"
# synthetic traffic on the flit-level network (--traffic)
"$NS" --traffic tornado --machine torus:dims=4x4 --engine flit:vcs=2 --load 0.1 --warmup 500 --sample 2000 --quiet --synth-out "$T/s.csv" &&
	python3 - "$T/s.csv" << 'PY' && ok "--traffic: a CSV row with the effective engine" || ko "--traffic: CSV"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
ok = len(r) == 1 and r[0]["engine"].startswith("flit:vcs=2,buf=8") and r[0]["traffic"] == "tornado" \
    and abs(float(r[0]["accepted"]) / 0.1 - 1) < 0.05 and r[0]["converged"] == "1"
sys.exit(0 if ok else 1)
PY
"$NS" --traffic bitrev --machine mesh:dims=6x6 --synth-out "$T/x.csv" 2> "$T/err"
[ $? -eq 2 ] && [ ! -e "$T/x.csv" ] && grep -q "traffic bitrev on mesh.*36 nodes: needs a power of two" "$T/err" &&
	ok "--traffic: a pattern the machine cannot take, exit 2" || ko "--traffic bitrev on 6x6: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --engine simgrid 2> "$T/err"
[ $? -eq 2 ] && grep -q "flit engine only" "$T/err" && ok "--traffic: only on the flit engine" || ko "--traffic simgrid: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --engine flit:vcs=0 2> "$T/err"
[ $? -eq 2 ] && grep -q "vcs" "$T/err" && ok "--traffic: a bad engine parameter, exit 2" || ko "--traffic vcs=0: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --preset insee --engine flit:vcs=3 --load 0.05 --warmup 500 --sample 2000 > "$T/out" &&
	grep -q "^engine .*vcs=3,.*router_delay=0,.*switching=vct,.*preset=insee" "$T/out" && grep -q "^latency " "$T/out" &&
	ok "--preset: the preset's values, explicit keys win, echoed" || ko "--preset insee: $(cat "$T/out")"
# the insee preset against INSEE's figures quoted in issue 8 (8x8 mesh, 2 VCs):
# 4-phit packets at 0.4 (30.05 cycles; its 16-phit buffers: README) and
# 1-phit at 0.35 (8.14), each within 5%
for pl in "4 0.4 30.05" "1 0.35 8.14"; do
	set -- $pl
	"$NS" --traffic uniform --machine mesh:dims=8x8 --preset insee --packet $1 --load $2 --cycles 100000 --quiet --synth-out "$T/in.csv" &&
		python3 -c "import sys; l = float(open(sys.argv[1]).read().splitlines()[-1].split(',')[-9]); sys.exit(0 if abs(l / float(sys.argv[2]) - 1) < 0.05 else 1)" "$T/in.csv" "$3" &&
		ok "--preset insee: $1-phit packets at $2 within 5% of INSEE's $3 cycles" || ko "--preset insee, $1-phit at $2: $(tail -1 "$T/in.csv")"
done
# on k-ary n-trees (node links, FSIN's routing: routing=fsin) against FSIN
# built from navaridas/insee (fattree_4_3, nchan=2, tql=4, uniform): 1-phit
# packets at 0.3 (6.09 cycles) and 0.65 (9.08, nine tenths of saturation)
# and 4-phit at 0.5 (15.05) and 0.7 (26.17), each within 5%; without
# routing=fsin and the node links it gave 3.85 at 0.3
for pl in "1 0.3 6.09" "1 0.65 9.08" "4 0.5 15.05" "4 0.7 26.17"; do
	set -- $pl
	"$NS" --traffic uniform --machine kary-ntree:k=4,n=3 --preset insee --packet $1 --load $2 --cycles 100000 --quiet --synth-out "$T/in.csv" &&
		python3 -c "import sys; l = float(open(sys.argv[1]).read().splitlines()[-1].split(',')[-9]); sys.exit(0 if abs(l / float(sys.argv[2]) - 1) < 0.05 else 1)" "$T/in.csv" "$3" &&
		ok "--preset insee, 4-ary 3-tree: $1-phit packets at $2 within 5% of FSIN's $3 cycles" || ko "--preset insee tree, $1-phit at $2: $(tail -1 "$T/in.csv")"
done
"$NS" --traffic uniform --machine mesh:dims=4x4 --preset bookism 2> "$T/err"
[ $? -eq 2 ] && grep -q "unknown flit engine preset 'bookism' (known: booksim, insee)" "$T/err" &&
	ok "--preset: an unknown preset, exit 2" || ko "--preset bookism: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --preset insee --engine flit:preset=booksim 2> "$T/err"
[ $? -eq 2 ] && grep -q "presets insee and booksim both given" "$T/err" &&
	ok "--preset: two presets, exit 2" || ko "--preset twice: $(cat "$T/err")"
"$NS" --traffic transpose --machine mesh:dims=4x4 --load 0.2 --warmup 500 --sample 2000 --quiet --heatmap "$T/h.png" &&
	[ "$(head -c 4 "$T/h.png" | tail -c 3)" = PNG ] && ok "--heatmap: a PNG of link utilisation on a mesh" || ko "--heatmap on a mesh"
"$NS" --traffic uniform --machine kary-ntree:k=2,n=2 --load 0.2 --warmup 500 --sample 2000 --quiet --links-out "$T/sl.csv" &&
	python3 - "$T/sl.csv" << 'PY' && ok "--links-out (synthetic): every link, node links near the offered load" || ko "--links-out synthetic"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
inj = [float(r["utilisation"]) for r in rows if int(r["src"]) < 4]  # nodes' own links
sys.exit(0 if len(rows) == 16 and inj and all(abs(u - 0.2) < 0.03 for u in inj) else 1)
PY
"$NS" --traffic uniform --machine kary-ntree:k=2,n=2 --quiet --heatmap "$T/t.png" 2> "$T/err"
[ $? -eq 2 ] && [ ! -e "$T/t.png" ] && grep -q "heat maps are drawn for 2-D meshes and tori" "$T/err" &&
	ok "--heatmap: refused off 2-D grids, exit 2, no file" || ko "--heatmap on a tree: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --load 1.5 2> "$T/err"
[ $? -eq 2 ] && grep -q "\-\-load" "$T/err" && ok "--traffic: a load above 1, exit 2" || ko "--traffic load 1.5: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --sweep-load 0.1:0.3:0.1 --warmup 500 --sample 2000 --quiet \
	--synth-out "$T/sw.csv" --plot "$T/sw.png" &&
	python3 - "$T/sw.csv" << 'PY' && [ "$(head -c 4 "$T/sw.png" | tail -c 3)" = PNG ] && ok "--sweep-load: a row per load, rising latency, a PNG" || ko "--sweep-load"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
lat = [float(x["mean_latency"]) for x in r]
sys.exit(0 if [x["load"] for x in r] == ["0.1", "0.2", "0.3"] and lat == sorted(lat) else 1)
PY
"$NS" --traffic uniform --machine mesh:dims=4x4 --sweep-load 0.3:0.1:0.1 2> "$T/err"
[ $? -eq 2 ] && grep -q "give FROM:TO:STEP" "$T/err" && ok "--sweep-load: a bad range, exit 2" || ko "--sweep-load 0.3:0.1: $(cat "$T/err")"
"$NS" --traffic uniform --machine mesh:dims=4x4 --plot "$T/p.png" 2> "$T/err"
[ $? -eq 2 ] && [ ! -e "$T/p.png" ] && ok "--plot without a sweep, exit 2" || ko "--plot alone: $(cat "$T/err")"
# determinism
"$NS" --machine torus:dims=4x4 --job is.S.8@random:seed=3 --job mg.S.8@spread --quiet --jobs-out "$T/a.csv" --links-out "$T/la.csv" &&
	"$NS" --machine torus:dims=4x4 --job is.S.8@random:seed=3 --job mg.S.8@spread --quiet --jobs-out "$T/b.csv" --links-out "$T/lb.csv" &&
	cmp -s "$T/a.csv" "$T/b.csv" && cmp -s "$T/la.csv" "$T/lb.csv" && ok "same inputs, same outputs" || ko "same inputs, same outputs"
# every family runs
for M in flat:nodes=16 kary-ntree:k=2,n=4 "mesh:dims=4x4" "torus:dims=4x4" "multicluster:clusters=2,size=8"; do
	"$NS" --machine "$M" --job lu.S.8@spread --job cg.S.8@contiguous --quiet --jobs-out "$T/j.csv" 2> "$T/err" &&
		[ "$(wc -l < "$T/j.csv")" = 3 ] && ok "two jobs on $M" || ko "two jobs on $M: $(tail -2 "$T/err")"
done
# bad input: refused before running, nothing written
printf '0 init\n1 init\n0 send 1 0 10\n' > "$T/bad.txt"
"$NS" --machine flat:nodes=4 --job "$T/bad.txt@0-1" --jobs-out "$T/x.csv" 2> "$T/err"
[ $? -eq 1 ] && grep -q "bad.txt:3" "$T/err" && [ ! -e "$T/x.csv" ] && ok "an invalid trace is refused with its line" ||
	ko "an invalid trace is refused: $(cat "$T/err")"
# SimGrid aborts on a message a TORUS host sends itself unless the cluster
# has a loopback: platgen writes one; a foreign platform without is refused
printf '0 init\n0 send 0 0 1000\n0 recv 0 0 1000\n0 finalize\n' > "$T/self.txt"
"$NS" --machine torus:dims=2x2 --job "$T/self.txt@1" --quiet && ok "self-message on a generated torus" || ko "self-message on a generated torus"
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n<zone id="w" routing="Full">\n<cluster id="t" prefix="node-" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us" topology="TORUS" topo_parameters="2,2"/>\n</zone></platform>\n' > "$T/tor.xml"
"$NS" --platform "$T/tor.xml" --job "$T/self.txt@1" 2> "$T/err"
[ $? -eq 1 ] && grep -q "tor.xml:5: a TORUS cluster without loopback_bw" "$T/err" && ok "self-message on a torus without loopback: refused" ||
	ko "self-message on a torus without loopback: $(tail -1 "$T/err")"
"$NS" --machine flat:nodes=4 --job cg.S.8@contiguous 2> "$T/err"
[ $? -eq 2 ] && grep -q "8 ranks, only 4 free nodes" "$T/err" && ok "too few nodes: exit 2" || ko "too few nodes: $(cat "$T/err")"
"$NS" --machine flat:nodes=4 --job cg.S.4@0-2 2> "$T/err"
[ $? -eq 2 ] && grep -q "3 nodes for a trace of 4 ranks" "$T/err" && ok "node list too short: exit 2" || ko "node list too short: $(cat "$T/err")"
# SIGINT once SimGrid runs (its own handler replaced): the run and its
# evaluation child stop, nothing written (the child: one whose parent is
# the run; SIGINT is ignored in background jobs until the engine starts)
check "SIGINT during a SimGrid run: it and its evaluation stop, nothing written" signal_stops INT 130 \
	int.csv "$NS" --machine kary-ntree:k=4,n=3 --engine s4u --job cg.B.64@contiguous --jobs-out "$T/int.csv"
# the same signal while the evaluation's fork returns (held back 2 s by
# strace): the child was stopped with the run, not left running unknown to
# the handler (it was, and sometimes above under load, as an orphan)
if command -v strace > /dev/null && strace -q -o /dev/null true 2> /dev/null; then
	strace -q -f -o /dev/null -e trace=clone -e inject=clone:delay_exit=2000000 "$NS" --machine kary-ntree:k=4,n=3 \
		--engine s4u --job cg.B.64@contiguous --jobs-out "$T/fork.csv" > /dev/null 2>&1 &
	sp=$!
	run=$(first_child $sp)
	child=$([ -n "$run" ] && first_child "$run")
	[ -n "$child" ] && kill -INT "$run"
	wait $sp
	st=$?
	sleep 0.2
	gone=yes
	[ -n "$child" ] && [ -e "/proc/$child" ] && gone=no && kill -9 "$child"
	[ -n "$child" ] && [ $st -eq 130 ] && [ $gone = yes ] && [ -z "$(ls "$T" | grep -F fork.csv)" ] &&
		ok "SIGINT as the evaluation's fork returns: the child stops too" ||
		ko "SIGINT as the evaluation's fork returns: child '$child', status $st, child gone: $gone"
else
	echo "SKIP SIGINT as the evaluation's fork returns: strace cannot trace here"
fi
"$NS" --machine flat:nodes=4 --job nosuch.txt@0-1 2> "$T/err"
[ $? -eq 2 ] && ok "unknown trace: exit 2" || ko "unknown trace: $(cat "$T/err")"
"$NS" --machine flat:nodes=4 --job cg.S.4@0-3 --engine flot 2> "$T/err"
[ $? -eq 2 ] && grep -q "known: simgrid, s4u" "$T/err" && ok "unknown engine: exit 2" || ko "unknown engine"
# Every class of bad option value, node list and spec, both modes: exit 2,
# the option, list or spec named with what is wrong, nothing written.
bad_opt() { # needle args..
	local needle=$1
	shift
	rm -f "$T/bo.csv"
	"$NS" --quiet "$@" > /dev/null 2> "$T/err"
	check "bad option $*: exit 2, says '$needle', nothing written" \
		status_says $? eq 2 "$needle" "$T/err" "$T/bo.csv"
}
J="--machine flat:nodes=8 --jobs-out $T/bo.csv"
# delays by design are not stalls: a flit resting its router_delay or
# inject_delay past the watchdog is no deadlock
"$NS" --machine kary-ntree:k=2,n=2 --job cg.S.4@0-3 --iterations 1 --engine flit:inject_delay=20000 --no-alone --quiet > /dev/null 2> "$T/err"
st1=$?
"$NS" --machine kary-ntree:k=2,n=2 --job cg.S.4@0-3 --iterations 1 --engine flit:router_delay=1000,watchdog=999 --no-alone --quiet > /dev/null 2>> "$T/err"
check "flit watchdog: delays longer than it are no deadlock" test $st1 -eq 0 -a $? -eq 0
# beyond saturation packets queue at their sources without bound: the flit
# engine's max_memory stops the run with an error, not the OOM killer
"$NS" --traffic uniform --machine mesh:dims=32x32 --engine flit:max_memory=8 --load 1 --cycles 100000 \
	--synth-out "$T/mm.csv" > /dev/null 2> "$T/err"
check "flit max_memory: a run beyond saturation stopped, exit 1, said, nothing written" \
	status_says $? eq 1 "more than max_memory=8 MB" "$T/err" "$T/mm.csv"
# a signal during SimGrid's platform build or the replay removes netsim's
# temporary platform and trace files (they stayed in /tmp); $TMPDIR is
# where they go
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" timeout -s INT 2 "$NS" --machine kary-ntree:k=4,n=6 --job cg.S.4@spread --no-alone \
	> /dev/null 2>&1
TMPDIR="$T/tmp" timeout -s TERM 1 "$NS" --machine torus:dims=8x8x8 --job ft.S.64@0-63 --no-alone \
	> /dev/null 2>&1
check "killed netsim leaves no temporary file in \$TMPDIR" test -z "$(ls -A "$T/tmp")"
# a replay whose pending messages pass max_memory (an all-to-all posts n^2
# at once: is.S.8192 took 10 GB and more): exit 1, said, nothing written
"$NS" --machine kary-ntree:k=4,n=3 --job is.S.64@0-63 --engine flit:max_memory=1 --iterations 1 \
	--no-alone --jobs-out "$T/am.txt" > /dev/null 2> "$T/err"
check "flit replay: pending messages beyond max_memory: exit 1, said, nothing written" \
	status_says $? eq 1 "flit replay: [0-9]* messages pending at cycle [0-9]*; .*more than max_memory=1 MB: replay all-to-alls as rings" "$T/err" "$T/am.txt"
# the SimGrid engines: a linear all-to-all posts n (n - 1) messages at
# once, about 2.5 kB each in SimGrid (is.S.2048: 10 GB); past --max-memory
# a usage error before anything runs; rings, or --max-memory 0, run
AA=(--machine kary-ntree:k=4,n=3 --job is.S.64@0-63 --engine s4u --iterations 1 --no-alone)
"$NS" "${AA[@]}" --max-memory 1 --jobs-out "$T/aa.txt" > /dev/null 2> "$T/err"
check "SimGrid engines: a linear all-to-all past --max-memory: exit 2, said, nothing written" \
	status_says $? eq 2 "the linear all-to-alls hold up to 4.03e+03 messages at once (job 0, is.S.64: 64 ranks, .*more than --max-memory 1: replay them as rings (--alltoall ring)" "$T/err" "$T/aa.txt"
"$NS" "${AA[@]}" --max-memory 1 --alltoall ring --quiet > /dev/null 2> "$T/err"
check "... as rings: runs" test $? -eq 0
"$NS" "${AA[@]}" --max-memory 0 --quiet > /dev/null 2> "$T/err"
check "... --max-memory 0: runs" test $? -eq 0
# VCs' buffers beyond max_memory: a usage error with their size, before
# anything is allocated (was a bare "out of memory")
"$NS" --machine kary-ntree:k=4,n=3 --job cg.S.4@0-3 --engine flit:vcs=64,buf=1048576 --no-alone \
	--jobs-out "$T/vb.txt" > /dev/null 2> "$T/err"
check "flit VC buffers beyond max_memory: exit 2, their size said, nothing written" \
	status_says $? eq 2 "the VCs' buffers 393216 MB: 384 links x vcs=64" "$T/err" "$T/vb.txt"
bad_opt "--sample 100 is more than --cycles 10" --traffic uniform --machine mesh:dims=4x4 --engine flit --cycles 10 --sample 100 --warmup 0 --synth-out "$T/bo.csv"
bad_opt "--iterations: '1.5' is not an integer" $J --job is.S.4@0-3 --iterations 1.5
bad_opt "--iterations: '-1' is not an integer" $J --job is.S.4@0-3 --iterations -1
bad_opt "--iterations: '99999999999' is not an integer" $J --job is.S.4@0-3 --iterations 99999999999
bad_opt "--repeat: '1e3' is not an integer" $J --job is.S.4@0-3 --repeat 1e3
bad_opt "--until: 'inf' is not a number" $J --job is.S.4@0-3 --until inf
bad_opt "--until: 'nan' is not a number" $J --job is.S.4@0-3 --until nan
bad_opt "START 'inf' is not a number" $J --job is.S.4@0-3@inf
bad_opt "nodes '0-3,': '' is not a node id" $J --job is.S.4@0-3,
bad_opt "nodes '0- 3': '0- 3' is not a node id" $J --job "is.S.4@0- 3"
bad_opt "nodes '3-0': '3-0' is not a node id" $J --job is.S.4@3-0
bad_opt "placement 'random:seed=-5': random or random:seed=N" $J --job is.S.4@random:seed=-5
bad_opt "placement 'random:seed=99999999999999999999'" $J --job is.S.4@random:seed=99999999999999999999
bad_opt "engine 'flit:': no parameters after ':'" $J --job is.S.4@0-3 --engine flit:
bad_opt "engine 'flit:vcs=2,': parameter 2 is empty" $J --job is.S.4@0-3 --engine flit:vcs=2,
bad_opt "machine 'kary-ntree:k=64,n=11': k^n = 64^11 nodes: more than the limit" \
	--machine kary-ntree:k=64,n=11 --job is.S.4@0-3 --jobs-out "$T/bo.csv"
S="--traffic uniform --machine mesh:dims=4x4 --synth-out $T/bo.csv"
bad_opt "--load: 'nan' is not a number" $S --load nan
bad_opt "--packet: '1.5' is not an integer" $S --packet 1.5
bad_opt "--cycles: '1e99' is not an integer" $S --cycles 1e99
bad_opt "--warmup: '-5' is not an integer" $S --warmup -5
bad_opt "--sample: '' is not an integer" $S --sample=
bad_opt "--seed: '99999999999999999999' is not an integer" $S --seed 99999999999999999999
bad_opt "--tolerance: '0x1' is not a number" $S --tolerance 0x1
bad_opt "--sweep-load '0.1:0.2:': give FROM:TO:STEP" $S --sweep-load 0.1:0.2:
bad_opt "--sweep-load ' 0.1:0.2:0.1': give FROM:TO:STEP" $S --sweep-load " 0.1:0.2:0.1"
bad_opt "--engine 'flit:': no parameters after ':'" $S --engine flit:
bad_opt "traffic pattern 'hotspot:node=1,': parameter 2 is empty" --traffic hotspot:node=1, \
	--machine mesh:dims=4x4 --synth-out "$T/bo.csv"
bad_opt "has routes of up to 40001 links; the engine counts hops to 32767" --traffic tornado \
	--machine mesh:dims=40000 --synth-out "$T/bo.csv"

# a deadlocked trace (sends both ways of more than the eager limit before
# the receives): an error on every engine, nothing written (the SimGrid
# engines reported the job "unfinished" and exited 0); with --until an
# unfinished job is the cut, not an error
printf '0 init\n1 init\n0 send 1 0 65536\n1 send 0 0 65536\n0 recv 1 0 65536\n1 recv 0 0 65536\n0 finalize\n1 finalize\n' > "$T/dead.txt"
for eng in simgrid s4u flit; do
	"$NS" --machine flat:nodes=4 --job "$T/dead.txt@0-1" --engine $eng --jobs-out "$T/dead.csv" > /dev/null 2> "$T/err"
	check "deadlocked trace, engine $eng: exit 1, said, nothing written" status_says $? eq 1 "did not finish\|never sent" "$T/err" "$T/dead.csv"
done
"$NS" --machine flat:nodes=4 --job "$T/dead.txt@0-1" --until 1 > "$T/out" 2> "$T/err"
check "deadlocked trace with --until: unfinished, exit 0" bash -c "[ $? -eq 0 ] && grep -q unfinished '$T/out'"
# a platform from a pipe or FIFO: read more than once, so refused by name
# (SimGrid aborted on the pipe; the second read of a FIFO hung)
"$1/platgen" --machine flat:nodes=4 -o "$T/p4.xml" 2> /dev/null
cat "$T/p4.xml" | timeout 60 "$NS" --platform /dev/stdin --job "$T/dead.txt@0-1" --until 1 > /dev/null 2> "$T/err"
check "--platform from a pipe: exit 1, named" status_says $? eq 1 "/dev/stdin: error: not a regular file" "$T/err"
mkfifo "$T/pf"
(cat "$T/p4.xml" > "$T/pf" &)
timeout 60 "$NS" --platform "$T/pf" --job "$T/dead.txt@0-1" --until 1 > /dev/null 2> "$T/err"
check "--platform from a FIFO: exit 1, named, no hang" status_says $? eq 1 "pf: error: not a regular file" "$T/err"
cat "$T/pf" > /dev/null 2>&1 & # the writer's open returns
# a --cfg SimGrid refuses (a value it cannot parse, a model it does not
# have): a usage error with its reason, tried in a child (netsim itself
# died on SIGABRT)
for cfg in network/model:Bogus surf/precision:abc; do
	"$NS" --machine flat:nodes=4 --job "$T/dead.txt@0-1" --until 1 --cfg $cfg --jobs-out "$T/cfg.csv" > /dev/null 2> "$T/err"
	check "--cfg $cfg: exit 2, SimGrid's reason, nothing written" status_says $? eq 2 "cfg: SimGrid refuses the configuration: [A-Z]" "$T/err" "$T/cfg.csv"
done

# a replay's packets past the flit engine's max_memory: the refusal names
# what bounds a replay's packets (all-to-alls as rings, flits, packets),
# not a synthetic load's remedies
for r in 0 1 2 3; do
	printf '%s init\n%s alltoall 5e7 5e7\n%s finalize\n' $r $r $r > "$T/big$r.txt"
done
printf 'big0.txt\nbig1.txt\nbig2.txt\nbig3.txt\n' > "$T/big.txt"
"$NS" --machine flat:nodes=4 --job "$T/big.txt@0-3" --engine flit:max_memory=30 --no-alone \
	--jobs-out "$T/big.csv" > /dev/null 2> "$T/err"
check "a replay's packets past max_memory: exit 1, its remedies, nothing written" \
	status_says $? eq 1 "more than max_memory=30 MB (the messages posted at once.*replay all-to-alls as rings (netsim --alltoall ring" "$T/err" "$T/big.csv"
check "... not a synthetic load's" bash -c '! grep -q "lower the load" "$1"' _ "$T/err"

# under an address-space limit (ulimit -v, as HPC login nodes set), the
# actors' stacks (8 MiB each by default) are counted before SimGrid makes
# them: past the limit a clean error (SimGrid aborted, and netsim with it,
# "Failed to allocate stack"); smaller stacks (--cfg) run
if (ulimit -v 3000000 && "$NS" --version > /dev/null 2>&1); then
	(ulimit -v 3000000 && exec "$NS" --machine flat:nodes=512 --job cg.S.512@0-511 --engine s4u --no-alone \
		--jobs-out "$T/st.csv" > /dev/null 2> "$T/err")
	check "ulimit -v 3 GB, 512 ranks of 8 MiB stacks: exit 1, said, nothing written" \
		status_says $? eq 1 "SimGrid's actors: 512 ranks with stacks of 8192 KiB reserve 4106 MiB .*(ulimit -v: 2930 MiB)" "$T/err" "$T/st.csv"
	(ulimit -v 3000000 && exec "$NS" --machine flat:nodes=512 --job cg.S.512@0-511 --engine simgrid --no-alone \
		--jobs-out "$T/st.csv" > /dev/null 2> "$T/err")
	check "... the same on SMPI's engine (in its child)" status_says $? eq 1 "512 ranks with stacks of 8192 KiB" "$T/err" "$T/st.csv"
	(ulimit -v 3000000 && exec "$NS" --machine flat:nodes=512 --job cg.S.512@0-511 --engine s4u --no-alone \
		--cfg contexts/stack-size:256 --jobs-out "$T/st.csv" > /dev/null 2> "$T/err")
	check "... with stacks of 256 KiB: runs" test $? -eq 0
else
	echo "SKIP address-space limits: netsim does not start under ulimit -v (a sanitizer build)"
fi

# a TMPDIR that cannot hold the machine's platform file: the folder named
TMPDIR=/nonexistent "$NS" --machine flat:nodes=4 --job cg.S.4@0-3 --jobs-out "$T/tmpd.csv" > /dev/null 2> "$T/err"
check "TMPDIR=/nonexistent: exit 1, the folder and why, nothing written" \
	status_says $? eq 1 "cannot create a temporary platform file in /nonexistent: No such file or directory" "$T/err" "$T/tmpd.csv"

# SMPI's replay keeps a file open per rank: under the common soft limit of
# 1,024 open files a job of 1,100 ranks stopped inside SimGrid ("Cannot
# read replay file"); the soft limit is raised towards the hard one, and
# past the hard one a clean error names the s4u engine
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 4096 ]; then
	(ulimit -Sn 1024 && ulimit -Hn 4096 && exec "$NS" --machine flat:nodes=1100 --job ep.S.1100@0-1099 \
		--engine simgrid --no-alone --jobs-out "$T/nf.csv" > /dev/null 2> "$T/err")
	check "ulimit -n 1024 (hard 4096), 1,100 ranks on SMPI's replay: runs" test $? -eq 0 -a -s "$T/nf.csv"
else
	echo "SKIP raising the open-file limit: the hard limit here is $hard"
fi
(ulimit -n 1024 && exec "$NS" --machine flat:nodes=1100 --job ep.S.1100@0-1099 \
	--engine simgrid --no-alone --jobs-out "$T/nf2.csv" > /dev/null 2> "$T/err")
check "... hard limit 1024: exit 1, the limit and --engine s4u, nothing written" \
	status_says $? eq 1 "1100 ranks need about 1164 open files, .*(ulimit -n: 1024, at most 1024).*--engine s4u" "$T/err" "$T/nf2.csv"

finish
