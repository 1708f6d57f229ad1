#!/bin/sh
# The flit engine's presets against the reference simulators (issue 8 §4):
# each line of the reference table below is run with netsim --traffic and
# compared. The reference latencies are those measured with BookSim 2
# (commit 28f4329) and INSEE and quoted in issue 8; they are inputs here,
# not our results. Writes validation.csv and validation.png beside this
# script. Usage: results/flit-validation/run.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
ns=$build/bin/netsim
[ -x "$ns" ] || { echo "run.sh: no $ns (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# preset machine vcs packet load reference_latency [more engine keys]
# (insee with buf=8: the issue's "tql 2" for its 4-phit runs, README)
refs='booksim mesh:dims=8x8 4 1 0.1 33.9
booksim mesh:dims=8x8 4 1 0.2 35.1
booksim mesh:dims=8x8 4 1 0.3 38.0
booksim mesh:dims=8x8 4 1 0.35 41.6
booksim mesh:dims=8x8 4 1 0.4 54.4
booksim mesh:dims=8x8 2 1 0.1 34.2
booksim mesh:dims=8x8 2 1 0.2 37.0
booksim mesh:dims=8x8 2 1 0.27 45.6
booksim mesh:dims=8x8 2 1 0.29 62.2
booksim mesh:dims=8x8 4 4 0.1 37.5
booksim mesh:dims=8x8 4 4 0.3 45.8
booksim mesh:dims=8x8 4 4 0.35 53.7
booksim mesh:dims=8x8 4 4 0.4 112.2
booksim kary-ntree:k=4,n=3 4 1 0.1 24.3
booksim kary-ntree:k=4,n=3 4 1 0.3 25.8
booksim kary-ntree:k=4,n=3 4 1 0.5 31.0
booksim kary-ntree:k=4,n=3 4 1 0.6 44.0
booksim torus:dims=8x8 4 1 0.1 31.4
booksim torus:dims=8x8 4 1 0.3 33.2
booksim torus:dims=8x8 4 1 0.45 38.3
booksim torus:dims=8x8 4 1 0.5 45.7
insee mesh:dims=8x8 2 1 0.1 5.59
insee mesh:dims=8x8 2 1 0.2 6.05
insee mesh:dims=8x8 2 1 0.3 7.08
insee mesh:dims=8x8 2 1 0.35 8.14
insee mesh:dims=8x8 2 1 0.4 10.47
insee mesh:dims=8x8 2 4 0.1 9.58
insee mesh:dims=8x8 2 4 0.2 11.65
insee mesh:dims=8x8 2 4 0.3 16.16
insee mesh:dims=8x8 2 4 0.4 30.05
insee mesh:dims=8x8 2 4 0.1 9.58 buf=8
insee mesh:dims=8x8 2 4 0.2 11.65 buf=8
insee mesh:dims=8x8 2 4 0.3 16.16 buf=8
insee mesh:dims=8x8 2 4 0.4 30.05 buf=8'
out=$tmp/validation.csv
echo "preset,machine,vcs,packet,load,reference_latency,latency,difference_pct,accepted,converged" >"$out"
echo "$refs" | while read -r preset machine vcs packet load ref more; do
	"$ns" --traffic uniform --machine "$machine" --engine "flit:preset=$preset,vcs=$vcs${more:+,$more}" \
		--packet "$packet" --load "$load" --cycles 300000 --quiet --synth-out "$tmp/one.csv"
	tail -1 "$tmp/one.csv" | awk -F, -v p="$preset${more:+ $more}" -v m="$machine" -v v="$vcs" -v k="$packet" \
		-v l="$load" -v r="$ref" '{
		# fields after the three quoted specs: load,packet,accepted,mean,p99,...,converged
		n = NF; conv = $(n - 4); acc = $(n - 9); lat = $(n - 8);
		printf "%s,\"%s\",%s,%s,%s,%s,%.2f,%.1f,%.4f,%s\n", p, m, v, k, l, r, lat, 100 * (lat / r - 1), acc, conv }' >>"$out"
done
gnuplot <<GP
set terminal pngcairo size 900,560 font ',10'
set output '$tmp/validation.png'
set datafile separator ','
set title '8x8 mesh, uniform traffic, 1-flit packets: flit engine presets vs BookSim 2 and INSEE'
set xlabel 'offered load (flits/node/cycle)'; set ylabel 'mean packet latency (cycles)'
set logscale y; set grid; set key top left
sel(p, v, k) = (strcol(1) eq p && strcol(2) eq 'mesh:dims=8x8' && \$3 == v && \$4 == k)
plot '$out' using (sel('booksim',4,1) ? \$5 : 1/0):7 with linespoints pt 7 title 'preset=booksim, 4 VCs', \
     '' using (sel('booksim',4,1) ? \$5 : 1/0):6 with linespoints dt 2 pt 6 title 'BookSim 2, 4 VCs', \
     '' using (sel('booksim',2,1) ? \$5 : 1/0):7 with linespoints pt 5 title 'preset=booksim, 2 VCs', \
     '' using (sel('booksim',2,1) ? \$5 : 1/0):6 with linespoints dt 2 pt 4 title 'BookSim 2, 2 VCs', \
     '' using (sel('insee',2,1) ? \$5 : 1/0):7 with linespoints pt 9 title 'preset=insee, 2 VCs', \
     '' using (sel('insee',2,1) ? \$5 : 1/0):6 with linespoints dt 2 pt 8 title 'INSEE, 2 VCs'
GP
mv "$out" "$here/validation.csv"
mv "$tmp/validation.png" "$here/validation.png"
column -s, -t "$here/validation.csv"
