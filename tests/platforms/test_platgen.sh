#!/usr/bin/env bash
# platgen for every family and a few sizes: SimGrid loads each file and its
# routes agree with ours (sg_route_check); bad options are refused.
# Usage: test_platgen.sh BIN_DIR TEST_DIR
set -u
PG="$1/platgen"
CHECK="$2/sg_route_check"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }
run() { # name spec [pairs]
	if ! "$PG" --machine "$2" -o "$T/p.xml" 2> "$T/err"; then
		ko "$1: platgen: $(cat "$T/err")"
		return
	fi
	if timeout 300 "$CHECK" "$T/p.xml" "$2" ${3:-} > "$T/out" 2> "$T/err"; then
		ok "$1 ($(cat "$T/out"))"
	else
		ko "$1: $(tail -3 "$T/err" | tr '\n' ' ') $(cat "$T/out")"
	fi
}
run "flat 16" "flat:nodes=16"
run "4-ary 3-tree" "kary-ntree:k=4,n=3"
run "4-ary 4-tree" "kary-ntree:k=4,n=4" 10000
run "2-ary 5-tree" "kary-ntree:k=2,n=5"
run "8x8 mesh" "mesh:dims=8x8"
run "16x16 mesh" "mesh:dims=16x16" 10000
run "4x3x2 mesh" "mesh:dims=4x3x2"
run "4x4x8 torus" "torus:dims=4x4x8"
run "5x3 torus" "torus:dims=5x3"
run "5 clusters of 20" "multicluster:clusters=5,size=20"
run "3 clusters, backbone" "multicluster:clusters=3,sizes=4/8/2,wan=backbone"
run "clusters of trees" "multicluster:clusters=3,size=16,cluster=kary-ntree;k=4;n=2"
run "clusters of meshes" "multicluster:clusters=2,size=6,cluster=mesh;dims=3x2,wan=backbone"
run "clusters of tori" "multicluster:clusters=2,size=8,cluster=torus;dims=4x2"
"$PG" --machine ring:n=4 -o "$T/x.xml" 2> "$T/err"
[ $? -eq 2 ] && ok "unknown family: exit 2" || ko "unknown family: exit 2"
[ ! -e "$T/x.xml" ] && ok "nothing written on error" || ko "nothing written on error"
"$PG" --machine flat:nodes=4 --sharing HALF -o "$T/x.xml" 2> /dev/null
[ $? -eq 2 ] && ok "bad sharing: exit 2" || ko "bad sharing: exit 2"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
