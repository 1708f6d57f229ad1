#!/usr/bin/env bash
# The two replays of the SimGrid engine on the same traces: SMPI's own
# (engine simgrid) and ours with s4u actors (engine s4u), every recorded NPB
# trace of ../shared/traces/npb on its platform-flat64.xml, alone.
# Usage: compare.sh BUILD_DIR [OUT.csv]   (prints the CSV when no OUT)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NS=${1:-$ROOT/build}/bin/netsim
OUT=${2:-/dev/stdout}
SH=$ROOT/../shared/traces/npb
[ -d "$SH" ] || { echo "compare.sh: $SH not found" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
{
	echo "trace,recorded_s,smpi_s,s4u_s,s4u_vs_smpi,smpi_wall_s,s4u_wall_s"
	for a in "$SH"/*.tar.gz; do
		b=$(basename "$a" .tar.gz)
		IFS=. read -r k c n <<< "$b"
		(cd "$T" && tar xzf "$a")
		rec=$(grep "^$b|" "$SH/README.md" | cut -d'|' -f4)
		row="$b,$rec"
		walls=""
		for e in simgrid s4u; do
			s=$(date +%s.%N)
			# SMPI with its own alltoall choice, as smpirun recorded them
			cfg=""
			[ $e = simgrid ] && cfg="--cfg smpi/alltoall:ompi"
			"$NS" --engine $e --platform "$SH/platform-flat64.xml" --job "$T/$b.txt@0-$((n - 1))" --quiet \
				$cfg --jobs-out "$T/j.csv" > /dev/null
			w=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$s" "$(date +%s.%N)")
			row="$row,$(tail -1 "$T/j.csv" | cut -d, -f7)"
			walls="$walls,$w"
		done
		echo "$row$walls" | python3 -c "
import sys
f = sys.stdin.read().strip().split(',')
print(','.join(f[:4] + ['%+.2f%%' % (100 * (float(f[3]) - float(f[2])) / float(f[2]))] + f[4:]))"
	done
} > "$OUT"
