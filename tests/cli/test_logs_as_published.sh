#!/usr/bin/env bash
# Every archive log in ../shared/workloads read as downloaded, default
# options: exit 0, and each count --stats prints equal to an independent
# count of the same file (Python: the SWF definition and the README's
# cleaning rules, written apart from the C reader).
# Usage: test_logs_as_published.sh BUILD_BIN_DIR SHARED_DIR
set -u
JS="$1/jobsched"
SHARED="$2"
. "$(dirname "$0")/../check.sh"

logs=$(ls "$SHARED"/workloads/*.swf.gz 2> /dev/null)
if [ -z "$logs" ]; then
	echo "SKIP: no logs in $SHARED/workloads (the shared data folder is absent)"
	exit 0
fi
for f in $logs; do
	name=$(basename "$f" .swf.gz)
	"$JS" --stats "$f" > "$T/stats" 2> "$T/err"
	check "$name: exit 0" test $? -eq 0
	check "$name: counts equal an independent count" python3 - "$f" "$T/stats" << 'PY'
import gzip, math, re, sys
path, stats = sys.argv[1], sys.argv[2]
hdr, recs = {}, []
with gzip.open(path, "rt", encoding="latin-1") as fh:
    for line in fh:
        s = line.strip()
        if not s:
            continue
        if s.startswith(";"):
            m = re.match(r";\s*(\w+)\s*:\s*([0-9]+)(?![0-9.A-Za-z])", s)
            if m and m.group(1).lower() in ("maxprocs", "maxnodes", "maxjobs", "maxrecords"):
                hdr.setdefault(m.group(1).lower(), int(m.group(2)))
            continue
        recs.append([float(x) for x in s.split()])
want = {"records_read": len(recs)}
for k, key in (("maxjobs", "max_jobs"), ("maxrecords", "max_records"), ("maxnodes", "max_nodes"), ("maxprocs", "max_procs")):
    if k in hdr:
        want[key] = hdr[k]
ids = {}
for r in recs:
    ids[r[0]] = ids.get(r[0], 0) + 1
assert all(n == 1 for n in ids.values()), "the shared logs have unique job numbers"
undefined = sum(1 for r in recs if not -1 <= r[10] <= 5)
if undefined:
    want["status_undefined"] = undefined
P = hdr.get("maxprocs") or hdr.get("maxnodes") or 0
if not P:
    P = max(r[4] for r in recs)
skips = {}
jobs = 0
for r in recs:
    procs = r[4] if r[4] != -1 else r[7]
    if r[1] == -1: why = "submit_unknown"
    elif procs == -1: why = "size_unknown"
    elif procs <= 0: why = "size_nonpositive"
    elif math.ceil(procs) > P: why = "oversize"
    elif r[3] == -1: why = "runtime_unknown"
    else:
        jobs += 1
        continue
    skips["skipped_" + why] = skips.get("skipped_" + why, 0) + 1
want.update(skips)
want["jobs"] = jobs
got = {}
for line in open(stats):
    k, _, v = line.rstrip("\n").partition(" ")
    v = v.strip().split()
    if k != "note" and v and re.fullmatch(r"-?[0-9]+", v[0]):
        got[k] = int(v[0])
bad = [(k, want[k], got.get(k)) for k in want if got.get(k) != want[k]]
extra = [k for k in got if k.startswith("skipped_") and k not in want]
if bad or extra:
    print("mismatch (key, independent, jobsched):", bad, "unexpected:", extra)
    sys.exit(1)
PY
done
finish
