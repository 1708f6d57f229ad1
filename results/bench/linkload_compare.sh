#!/usr/bin/env bash
# linkload results of two cosim builds side by side (issue 23: the scalable
# linkload must give main's results): runs each case with both, compares
# the per-job CSV and the summary CSV field by field, and prints per case
# "identical", or the number of differing fields and the largest relative
# difference among them.
#   results/bench/linkload_compare.sh MAIN_BIN_DIR NEW_BIN_DIR [SHARED_DIR]
# e.g. results/bench/linkload_compare.sh /work/build-main/bin build/bin ../shared
# HPC2N cases need SHARED_DIR/workloads (skipped, said so, when absent).
set -u
main=${1:?usage: linkload_compare.sh MAIN_BIN_DIR NEW_BIN_DIR [SHARED_DIR]}
new=${2:?usage: linkload_compare.sh MAIN_BIN_DIR NEW_BIN_DIR [SHARED_DIR]}
shared=${3:-../shared}
hpc2n=$shared/workloads/HPC2N-2002-2.2-cln.swf.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name | workload options | machine | other options
cases=(
	"dq-4ary3|--synthetic dq:jobs=300,n1=1,n2=64,mean_run=600,load=0.9|kary-ntree:k=4,n=3|"
	"dq-4ary3-quasi|--synthetic dq:jobs=300,n1=1,n2=64,mean_run=600,load=0.9|kary-ntree:k=4,n=3|--alloc quasi:qct=20"
	"dq-8ary3|--synthetic dq:jobs=300,n1=1,n2=512,mean_run=600,load=0.9|kary-ntree:k=8,n=3|"
	"dq-8ary3-taper|--synthetic dq:jobs=200,n1=1,n2=512,mean_run=600,load=0.9|kary-ntree:k=8,n=3,taper=0.5|"
	"dq-mesh|--synthetic dq:jobs=200,n1=1,n2=64,mean_run=600,load=0.9|mesh:dims=8x8|"
	"dq-torus|--synthetic dq:jobs=200,n1=1,n2=64,mean_run=600,load=0.9|torus:dims=4x4x4|"
	"dq-flat|--synthetic dq:jobs=200,n1=1,n2=64,mean_run=600,load=0.9|flat:nodes=64|"
	"hpc2n-4ary3|--workload $hpc2n --first 1000|kary-ntree:k=4,n=3|"
	"hpc2n-8ary3|--workload $hpc2n --first 1000|kary-ntree:k=8,n=3|--oversize clamp"
	"hpc2n-4ary4|--workload $hpc2n --first 500|kary-ntree:k=4,n=4|--sched easy --alloc contiguous"
)
kernels=(cg mg ft is lu)
for k in "${kernels[@]}"; do
	cases+=("only-$k|--synthetic dq:jobs=100,n1=1,n2=64,mean_run=600,load=0.9|kary-ntree:k=4,n=3|@kernels=$k")
done

# Field-by-field comparison of two CSV files: "identical", or the count of
# differing fields and the largest relative difference of numeric ones.
# The linkload spec's threads=N (echoed in summaries, no effect on results)
# is left out.
compare() {
	awk -F, '{ gsub(/,threads=[0-9]+/, "") }
	NR == FNR { a[FNR] = $0; n = FNR; next }
	{
		if (!(FNR in a)) { extra++; next }
		if (a[FNR] == $0) next
		split(a[FNR], x, ","); m = split($0, y, ",")
		for (i = 1; i <= m; i++) {
			if (x[i] == y[i]) continue
			diff++
			if (x[i] ~ /^-?[0-9.eE+-]+$/ && y[i] ~ /^-?[0-9.eE+-]+$/) {
				d = x[i] - y[i]; if (d < 0) d = -d
				s = x[i] < 0 ? -x[i] : x[i]
				r = s > 0 ? d / s : d
				if (r > worst) worst = r
			} else text++
		}
	}
	END {
		if (FNR != n) extra++
		if (!diff && !extra) print "identical"
		else printf "%d fields differ (largest relative difference %.3g, %d non-numeric), %d rows unmatched\n", diff, worst, text, extra
	}' "$1" "$2"
}

for c in "${cases[@]}"; do
	IFS='|' read -r name wl machine opts <<<"$c"
	runtime=linkload
	if [[ $opts == @* ]]; then
		runtime="linkload:${opts#@}"
		opts=""
	fi
	if [[ $wl == *"$hpc2n"* && ! -f $hpc2n ]]; then
		echo "$name: skipped ($hpc2n absent)"
		continue
	fi
	for side in main new; do
		bin=$main
		[[ $side == new ]] && bin=$new
		# shellcheck disable=SC2086
		"$bin/cosim" $wl --machine "$machine" --runtime "$runtime" $opts --quiet \
			--jobs-out "$tmp/$side.jobs.csv" --summary-out "$tmp/$side.sum.csv" \
			>"$tmp/$side.out" 2>"$tmp/$side.err" || {
			echo "$name: $side failed: $(head -c 300 "$tmp/$side.err")"
			continue 2
		}
	done
	printf '%-18s jobs: %s   summary: %s\n' "$name" \
		"$(compare "$tmp/main.jobs.csv" "$tmp/new.jobs.csv")" \
		"$(compare "$tmp/main.sum.csv" "$tmp/new.sum.csv")"
done
