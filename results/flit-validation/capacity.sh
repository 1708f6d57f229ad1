#!/bin/sh
# Uniform-random saturation throughput of the flit network against the ideal
# capacities (issue 8 section 4): 4b/k = 0.5 flits/node/cycle for the 8x8
# mesh, 8b/k = 1.0 for the 8-ary 2-cube, full bisection (1.0) for the 4-ary
# 3-tree. Saturation throughput = the most accepted over a load sweep
# (0.05 steps, stopping after the first load that does not converge).
# Writes capacity.csv beside this script. Usage: capacity.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ns=${1:-$here/../../build}/bin/netsim
[ -x "$ns" ] || { echo "capacity.sh: no $ns (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine,engine,ideal,saturation,fraction" > "$tmp/capacity.csv"
while read -r machine ideal engine; do
	"$ns" --traffic uniform --machine "$machine" --engine "$engine" --sweep-load 0.05:1:0.05 \
		--cycles 200000 --quiet --synth-out "$tmp/s.csv"
	sat=$(python3 -c "import csv, sys; print(max(float(r['accepted']) for r in csv.DictReader(open(sys.argv[1]))))" "$tmp/s.csv")
	python3 -c "import sys; print('\"%s\",\"%s\",%s,%.4f,%.3f' % (sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[4]) / float(sys.argv[3])))" \
		"$machine" "$engine" "$ideal" "$sat" >> "$tmp/capacity.csv"
done << 'LIST'
mesh:dims=8x8 0.5 flit
mesh:dims=8x8 0.5 flit:preset=booksim
mesh:dims=8x8 0.5 flit:preset=insee
torus:dims=8x8 1.0 flit
torus:dims=8x8 1.0 flit:switching=vct,deadlock=bubble
torus:dims=8x8 1.0 flit:preset=booksim
torus:dims=8x8 1.0 flit:preset=insee
kary-ntree:k=4,n=3 1.0 flit
kary-ntree:k=4,n=3 1.0 flit:routing=adaptive
kary-ntree:k=4,n=3 1.0 flit:preset=booksim
kary-ntree:k=4,n=3 1.0 flit:preset=insee
LIST
mv "$tmp/capacity.csv" "$here/capacity.csv"
column -s, -t "$here/capacity.csv"
