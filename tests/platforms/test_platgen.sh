#!/usr/bin/env bash
# platgen for every family and a few sizes: SimGrid loads each file and its
# routes agree with ours (sg_route_check); bad options are refused.
# Usage: test_platgen.sh BIN_DIR TEST_DIR
set -u
PG="$1/platgen"
CHECK="$2/sg_route_check"
. "$(dirname "$0")/../check.sh"
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
run "tapered 4-ary 3-tree (1/2 per level)" "kary-ntree:k=4,n=3,taper=0.5"
run "tapered 3-ary 4-tree (per-level list)" "kary-ntree:k=3,n=4,taper=1/0.5/2/0.25"
run "tapered clusters of trees" "multicluster:clusters=3,size=27,cluster=kary-ntree;k=3;n=3;taper=0.5,wan=backbone"
# the machine as our reader maps the file back: the same routes and bandwidths
"$PG" --machine "kary-ntree:k=4,n=3,taper=1/0.25/0.5" -o "$T/p.xml" 2> /dev/null
"$CHECK" "$T/p.xml" - > "$T/out" 2> "$T/err" && ok "tapered tree read back by plat_load ($(cat "$T/out"))" ||
	ko "tapered tree read back by plat_load: $(cat "$T/err")"
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
# every family's own samples (its ops' samples): a new family is checked
# here without a line of its own
"$CHECK" --samples > "$T/samples" 2> "$T/err" || ko "samples: $(cat "$T/err")"
check "the registry's samples listed" test -s "$T/samples"
while read -r spec nodes; do
	run "sample $spec" "$spec"
done < "$T/samples"
# Slurm topology.conf: parsed line by line as Slurm's format; every node
# named once, every switch but the root under exactly one parent.
slurm() { # name spec nodes
	if ! "$PG" --machine "$2" --slurm-topology -o "$T/topo.conf" 2> "$T/err"; then
		ko "slurm $1: $(cat "$T/err")"
		return
	fi
	if python3 - "$T/topo.conf" "$3" > "$T/out" 2>&1 <<'PY'; then ok "slurm $1"; else ko "slurm $1: $(cat "$T/out")"; fi
import re, sys
def expand(expr):
    out = []
    for m in re.finditer(r"([^,\[]+)(?:\[([^\]]+)\])?", expr):
        prefix, body = m.group(1), m.group(2)
        if body is None:
            out.append(prefix)
            continue
        for part in body.split(","):
            a, _, b = part.partition("-")
            out += [f"{prefix}{i}" for i in range(int(a), int(b or a) + 1)]
    return out
switches, parent, nodes = {}, {}, []
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    kv = dict(tok.split("=", 1) for tok in line.split())
    if set(kv) - {"SwitchName", "Nodes", "Switches", "LinkSpeed"} or "SwitchName" not in kv:
        sys.exit(f"line {n}: not a switch line: {line}")
    name = kv["SwitchName"]
    if name in switches:
        sys.exit(f"line {n}: switch {name} twice")
    switches[name] = n
    nodes += expand(kv.get("Nodes", ""))
    for child in expand(kv.get("Switches", "")):
        if child in parent:
            sys.exit(f"switch {child} has two parents")
        parent[child] = name
want = [f"node-{i}" for i in range(int(sys.argv[2]))]
if sorted(nodes) != sorted(want):
    sys.exit(f"nodes named {len(nodes)} times, {len(set(nodes))} distinct, want {len(want)}")
roots = [s for s in switches if s not in parent]
if len(roots) != 1 or set(parent) - set(switches):
    sys.exit(f"roots {roots}, unknown children {set(parent) - set(switches)}")
PY
}
# the slurm.conf lines that go with it: NodeName and PartitionName lines of
# Slurm's syntax, declaring exactly the nodes topology.conf names
slurm_nodes() { # name spec
	"$PG" --machine "$2" --slurm-topology -o "$T/t.conf" 2> "$T/err" &&
		"$PG" --machine "$2" --slurm-nodes --cpus 8 -o "$T/n.conf" 2>> "$T/err" || { ko "slurm nodes $1: $(cat "$T/err")"; return; }
	if python3 - "$T/t.conf" "$T/n.conf" > "$T/out" 2>&1 <<'PY'; then ok "slurm nodes $1"; else ko "slurm nodes $1: $(cat "$T/out")"; fi
import re, sys
def expand(expr):
    out = []
    for m in re.finditer(r"([^,\[]+)(?:\[([^\]]+)\])?", expr):
        prefix, body = m.group(1), m.group(2)
        if body is None:
            out.append(prefix); continue
        for part in body.split(","):
            a, _, b = part.partition("-")
            out += [f"{prefix}{i}" for i in range(int(a), int(b or a) + 1)]
    return out
named = []
for line in open(sys.argv[1]):
    line = line.split("#")[0].split()
    kv = dict(t.split("=", 1) for t in line)
    named += expand(kv.get("Nodes", ""))
declared, parts = [], []
for n, line in enumerate(open(sys.argv[2]), 1):
    line = line.split("#")[0].strip()
    if not line:
        continue
    kv = dict(t.split("=", 1) for t in line.split())
    if "NodeName" in kv:
        if set(kv) - {"NodeName", "CPUs", "State"} or not kv["CPUs"].isdigit() or kv["State"] != "UNKNOWN":
            sys.exit(f"line {n}: {line}")
        declared += expand(kv["NodeName"])
    elif "PartitionName" in kv:
        if set(kv) - {"PartitionName", "Nodes", "Default", "MaxTime", "State"} or kv["State"] != "UP":
            sys.exit(f"line {n}: {line}")
        parts += expand(kv["Nodes"])
    else:
        sys.exit(f"line {n}: neither a node nor a partition line: {line}")
if sorted(declared) != sorted(named) or sorted(parts) != sorted(named):
    sys.exit(f"declared {len(declared)}, partition {len(parts)}, topology.conf names {len(named)}")
PY
}
slurm_nodes "4-ary 3-tree" "kary-ntree:k=4,n=3"
slurm_nodes "5 clusters of 20" "multicluster:clusters=5,size=20"
"$PG" --machine flat:nodes=4 --cpus 4 -o "$T/x.xml" 2> "$T/err"
check "--cpus without --slurm-nodes: a usage error" status_says $? eq 2 "cpus goes with --slurm-nodes" "$T/err" "$T/x.xml"
slurm "4-ary 3-tree" "kary-ntree:k=4,n=3" 64
slurm "2-ary 6-tree" "kary-ntree:k=2,n=6" 64
slurm "flat 10" "flat:nodes=10" 10
slurm "5 clusters of 20" "multicluster:clusters=5,size=20" 100
"$PG" --machine mesh:dims=4x4 --slurm-topology -o "$T/m.conf" 2> "$T/err"
[ $? -eq 2 ] && [ ! -e "$T/m.conf" ] && ok "slurm: a mesh is refused" || ko "slurm: a mesh is refused"
check "slurm: the refusal names the family" grep -q "the mesh family has no Slurm topology.conf writer" "$T/err"
# every family's samples: a topology.conf Slurm's syntax takes, or a usage
# error (exit 2) and no file
while read -r spec nodes; do
	rm -f "$T/s.conf"
	"$PG" --machine "$spec" --slurm-topology -o "$T/s.conf" 2> "$T/err"
	rc=$?
	if [ $rc -eq 0 ]; then
		slurm "sample $spec" "$spec" "$nodes"
	else
		[ $rc -eq 2 ] && [ ! -e "$T/s.conf" ] && ok "slurm: sample $spec refused (exit 2, no file)" ||
			ko "slurm: sample $spec: exit $rc: $(cat "$T/err")"
	fi
done < "$T/samples"
"$PG" --machine ring:n=4 -o "$T/x.xml" 2> "$T/err"
[ $? -eq 2 ] && ok "unknown family: exit 2" || ko "unknown family: exit 2"
[ ! -e "$T/x.xml" ] && ok "nothing written on error" || ko "nothing written on error"
"$PG" --machine flat:nodes=4 --sharing HALF -o "$T/x.xml" 2> /dev/null
[ $? -eq 2 ] && ok "bad sharing: exit 2" || ko "bad sharing: exit 2"
# SimGrid 3.32 builds a <cluster>'s FATPIPE links as SHARED ones: a family
# written as clusters refuses FATPIPE (exit 2, nothing written); the mesh,
# whose links are <link> elements, keeps it.
for spec in flat:nodes=4 kary-ntree:k=2,n=2 torus:dims=2x2 multicluster:clusters=2,size=2; do
	rm -f "$T/fp.xml"
	"$PG" --machine "$spec" --sharing FATPIPE -o "$T/fp.xml" 2> "$T/err"
	check "FATPIPE refused for clusters ($spec)" \
		status_says $? eq 2 "builds a cluster's FATPIPE links as SHARED" "$T/err" "$T/fp.xml"
done
"$PG" --machine mesh:dims=2x2 --sharing FATPIPE -o "$T/fp.xml" 2> "$T/err" &&
	grep -q 'sharing_policy="FATPIPE"' "$T/fp.xml" && ok "FATPIPE mesh written" ||
	ko "FATPIPE mesh written: $(cat "$T/err")"
# Every class of bad specification: exit 2, the message quotes the spec and
# says what is wrong, and no file is written (a file of 0 nodes was once).
bad_spec() { # spec needle
	rm -f "$T/bad.xml"
	"$PG" --machine "$1" -o "$T/bad.xml" > /dev/null 2> "$T/err"
	check "bad spec $1: exit 2, says '$2', nothing written" \
		status_says $? eq 2 "machine '$1': .*$2" "$T/err" "$T/bad.xml"
}
bad_spec "kary-ntree:k=64,n=11" "k^n = 64^11 nodes: more than the limit of 1048576 nodes"
bad_spec "kary-ntree:k=32,n=5" "32^5 = 33554432 nodes: more than the limit"
bad_spec "mesh:dims=65536x65536" "4294967296 nodes: more than the limit"
bad_spec "torus:dims=99999999999x2" "dimension 1's size '99999999999' is not an integer in \\[1, 1048576\\]"
bad_spec "mesh:dims=4x0x5" "dimension 2's size '0' is not an integer"
bad_spec "mesh:dims=2x2x2x2x2x2x2x2x2" "more than 8 dimensions"
bad_spec "mesh:dims=4x" "dimension 2's size '' is not an integer"
bad_spec "multicluster:clusters=1024,size=1048576" "1073741824 nodes: more than the limit"
bad_spec "multicluster:clusters=3,sizes=4/4/" "size 3 is not an integer"
bad_spec "multicluster:clusters=5,cluster=kary-ntree;k=64;n=12" "64^12 nodes: more than the limit"
bad_spec "kary-ntree:k=4,taper=1/" "factor 2: give one factor"
bad_spec "kary-ntree:taper=1e-300" "level 2's links get"
bad_spec "kary-ntree:k=4,n=3," "parameter 3 is empty (a trailing ',')"
bad_spec "kary-ntree:k=4,,n=3" "parameter 2 is empty (a doubled ',')"
bad_spec "kary-ntree:,k=4" "parameter 1 is empty (a leading ',')"
bad_spec "kary-ntree:=4" "parameter 1 '=4' has no key"
bad_spec "kary-ntree:k=" "parameter k: empty value"
bad_spec "kary-ntree:" "no parameters after ':'"
bad_spec "kary-ntree:k=4.5" "'4.5' is not an integer"
bad_spec "kary-ntree:k=1e1" "'1e1' is not an integer"
bad_spec "kary-ntree:k= 4" "' 4' is not an integer"
bad_spec "kary-ntree:k=4abc" "'4abc' is not an integer"
bad_spec "kary-ntree:k=0x10" "'0x10' is not an integer"
bad_spec "kary-ntree:k=65" "65 is outside \\[2, 64\\]"
bad_spec "flat:nodes=99999999999999999999" "is outside \\[1, 1048576\\]"
bad_spec "flat:nodes=8,bw=nan" "'nan' is not a finite number"
bad_spec "flat:nodes=8,bw=1e999" "1e999 is outside"
bad_spec "flat:nodes=8,lat=inf" "'inf' is not a finite number"
finish
