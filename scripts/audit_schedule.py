#!/usr/bin/env python3
"""Checks a schedule that jobsched or cosim wrote against the invariants any
schedule must keep, from its outputs alone (an oracle independent of the
simulator's code): no job lost or invented, none started before it
arrived, no node held by two jobs at once, never more nodes busy than the
machine has, and under FCFS with the arrival order no job started before
one that arrived before it.

Usage: scripts/audit_schedule.py JOBS_CSV SUMMARY_CSV [NODES]
  JOBS_CSV, SUMMARY_CSV: the tool's --jobs-out and --summary-out of one run;
  NODES: the machine's node count (default: the summary's `nodes`).
Prints each violation (job ids and times) and exits 1 when there is any,
0 with a one-line count otherwise.

What is checked (docs/testing.md):
- counts: jobs_read = jobs_skipped + jobs_simulated, jobs_skipped is the sum
  of its reasons, the per-job CSV has jobs_simulated rows with distinct
  keys, and jobs_killed of them killed. A row's key is (job_id, part): the
  parts of one job (an SWF log's partial executions, part 1..k) share its
  job_id; a file without the part column is keyed by job_id alone;
- each job: submission <= start <= finish, execution_time, waiting_time and
  turnaround_time agree with the three times, its nodes are distinct ids
  of the machine, as many as it requested (as its last size when it was
  resized; bgl may give more: its partitions are boxes), and killed jobs
  ran no longer than requested;
- nodes: a job that was neither migrated nor resized holds its nodes from
  start to finish, and no two such jobs hold one node at overlapping times
  (jobs of zero length hold nothing);
- capacity: at every instant the nodes the running jobs hold (a resized
  job's sizes over time, from `sizes`) add up to at most the machine's nodes;
- FCFS: with `sched` fcfs (no migration) and queue_order arrival, the start
  times are non-decreasing in arrival order (ties: the CSV's order).
Times are compared with a tolerance of 1e-9 of their magnitude (of the
largest time a difference was taken from: the CSV has 15 digits)."""
import collections
import csv
import re
import sys

EPS = 1e-9
ENLARGING = ('bgl',)  # allocators that may give a job more nodes than it asked (docs/jobsched.md)


def close(a, b, scale=0.0):
    """a = b up to EPS of the larger of them and scale (the magnitude of the
    times a difference was taken from: the CSV prints 15 digits)."""
    return abs(a - b) <= EPS * max(1.0, abs(a), abs(b), scale)


def before(a, b):
    """a <= b up to the tolerance."""
    return a <= b or close(a, b)


def nodes_of(text):
    out = []
    for part in text.split():
        lo, _, hi = part.partition('-')
        out += range(int(lo), int(hi or lo) + 1)
    return out


def sizes_of(job):
    """A resized job's (time, size) steps (simulated times), or None."""
    text = job.get('sizes', '')
    if not text:
        return None
    steps = []
    for part in text.split():
        size, _, at = part.partition('@')
        steps.append((float(at), int(size)))
    return steps


def job_name(job):
    """The row's job in messages: its id, and its part when it is one."""
    part = job.get('part', '0') or '0'
    return job['job_id'] if part == '0' else '%s part %s' % (job['job_id'], part)


def audit(jobs_path, summary_path, nodes=None):
    bad = []
    with open(summary_path, newline='') as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 1:
        return ['%s: %d value rows, not 1' % (summary_path, len(rows))]
    s = rows[0]
    n_nodes = int(nodes if nodes is not None else s['nodes'])
    with open(jobs_path, newline='') as f:
        jobs = list(csv.DictReader(f))
    read, skipped, simulated = int(s['jobs_read']), int(s['jobs_skipped']), int(s['jobs_simulated'])
    if read != skipped + simulated:
        bad.append('jobs_read %d != jobs_skipped %d + jobs_simulated %d' % (read, skipped, simulated))
    reasons = sum(int(v) for k, v in s.items() if k.startswith('skipped_') and v)
    if reasons != skipped:
        bad.append('jobs_skipped %d != sum of skipped_* %d' % (skipped, reasons))
    if len(jobs) != simulated:
        bad.append('%d jobs in %s, the summary says %d simulated' % (len(jobs), jobs_path, simulated))
    keys = collections.Counter((j['job_id'], j.get('part', '0') or '0') for j in jobs)
    repeated = sorted(k for k, n in keys.items() if n > 1)
    if repeated:
        bad.append('jobs repeated (job_id, part): %s' % repeated[:10])
    killed = sum(j['killed'] == '1' for j in jobs)
    if killed != int(s['jobs_killed']):
        bad.append('%d jobs killed in the CSV, the summary says %s' % (killed, s['jobs_killed']))

    enlarges = s['alloc'].split(':')[0] in ENLARGING
    holds, events = [], []
    for j in jobs:
        jid = job_name(j)
        sub, st, fin = float(j['submission_time']), float(j['starting_time']), float(j['finish_time'])
        if not before(sub, st):
            bad.append('job %s starts at %.17g before it arrives at %.17g' % (jid, st, sub))
        if not before(st, fin):
            bad.append('job %s finishes at %.17g before it starts at %.17g' % (jid, fin, st))
        for col, want in (('execution_time', fin - st), ('waiting_time', st - sub), ('turnaround_time', fin - sub)):
            if not close(float(j[col]), want, max(abs(sub), abs(fin))):
                bad.append('job %s: %s %s, its times give %.17g' % (jid, col, j[col], want))
        if j['killed'] == '1' and not (fin - st <= float(j['requested_time']) or
                                       close(fin - st, float(j['requested_time']), fin)):
            bad.append('job %s killed after %.17g s, it asked for %s' % (jid, fin - st, j['requested_time']))
        ns = nodes_of(j['allocated_resources'])
        if len(set(ns)) != len(ns):
            bad.append('job %s holds a node twice: %s' % (jid, j['allocated_resources']))
        if any(x < 0 or x >= n_nodes for x in ns):
            bad.append('job %s holds a node outside 0..%d: %s' % (jid, n_nodes - 1, j['allocated_resources']))
        steps = sizes_of(j)
        want = steps[-1][1] if steps else int(j['requested_number_of_resources'])
        if len(ns) != want and not (enlarges and len(ns) > want):
            bad.append('job %s holds %d nodes, its size is %d' % (jid, len(ns), want))
        want = len(ns)
        if fin - st <= 0:
            continue
        for at, size in steps or [(st, want)]:
            events.append((at, size, jid))
        events.append((fin, -(steps[-1][1] if steps else want), jid))
        if steps:  # each step replaces the previous size
            for (_, a), (at, _) in zip(steps, steps[1:]):
                events.append((at, -a, jid))
        if not steps and j.get('moves', '0') in ('0', ''):
            holds.append((st, fin, jid, ns))

    owner = {}
    for st, fin, jid, ns in sorted(holds):
        for x in ns:
            prev = owner.get(x)
            if prev and not before(prev[0], st):
                bad.append('node %d held by job %s until %.17g and by job %s from %.17g' % (x, prev[1], prev[0], jid,
                                                                                            st))
            owner[x] = (fin, jid)

    busy, worst = 0, None
    for at, delta, jid in sorted(events, key=lambda e: (e[0], e[1])):  # releases first
        busy += delta
        if busy > n_nodes and worst is None:
            worst = (at, busy, jid)
    if worst:
        bad.append('%d nodes busy at %.17g (job %s started), the machine has %d' % (worst[1], worst[0], worst[2],
                                                                                    n_nodes))

    if s['sched'].split(':')[0] == 'fcfs' and 'migrate=1' not in s['sched'] and s['queue_order'] == 'arrival':
        order = sorted(range(len(jobs)), key=lambda i: (float(jobs[i]['submission_time']), i))
        last = None
        for i in order:
            st = float(jobs[i]['starting_time'])
            if last and not before(last[0], st):
                bad.append('fcfs: job %s starts at %.17g, before job %s that arrived earlier (%.17g)' % (
                    job_name(jobs[i]), st, last[1], last[0]))
                break
            last = (st, job_name(jobs[i]))
    return bad


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    bad = audit(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
    shown = collections.Counter()
    for b in bad:  # at most 10 of a kind (numbers aside)
        kind = re.sub(r'[0-9.e+-]+', 'N', b)
        shown[kind] += 1
        if shown[kind] <= 10:
            print(b)
    if bad:
        print('%d violations' % len(bad))
        sys.exit(1)
    print('schedule consistent')


if __name__ == '__main__':
    main()
