#!/usr/bin/env python3
"""Random combinations of the tools' options on small inputs, to find what
the parser harnesses (tests/fuzz) cannot: options that each work alone and
crash, hang or lose an output together, on machines of odd shapes (sides of
one node, one cluster, one node).

Usage: scripts/option_fuzz.py BUILD_DIR TOOL RUNS [FIRST_SEED]
  TOOL: jobsched | cosim | netsim. Run i draws its options from seed i, so
  a failure is replayed with RUNS 1 and its seed. Use a sanitizer build
  (cmake -DPLACESIM_SANITIZE=ON) to see memory errors too.

Each run writes every output the tool has into a fresh folder and is
judged: killed by a signal or a sanitizer report (crash); past TIMEOUT
seconds (hang; `full` is bounded by max_actions=1e6 here, a minute at
most); an error exit that left an output behind, or a success without its
per-job CSV; on the flit engine, a deadlock reported by a configuration
that is not deadlock=none; a schedule that breaks an invariant
(scripts/audit_schedule.py: a job lost or invented, a node held twice, more
nodes busy than the machine has, ...). A clean error (exit 1 or 2, a message) is a
pass. flit_bytes stays at 16 bytes or more: with 1-byte flits, a buffer
of one and long links, ft.S.2 alone runs for minutes (slow, not hung). Prints the failures with their command lines and a count of the
error messages (numbers folded), and exits 1 when any run failed.
Environment: TIMEOUT (seconds a run, default 120), WORKLOADS (a folder of
.swf.gz logs, default ../shared/workloads; skipped when absent)."""
import collections
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from audit_schedule import audit  # noqa: E402

MACHINES = {
    'flat': ['flat:nodes=1', 'flat:nodes=7', 'flat:nodes=64'],
    'tree': ['kary-ntree:k=2,n=1', 'kary-ntree:k=4,n=3', 'kary-ntree:k=3,n=2,taper=0.5', 'kary-ntree:k=8,n=2'],
    'mesh': ['mesh:dims=1', 'mesh:dims=1x9', 'mesh:dims=8x8', 'mesh:dims=5x3', 'mesh:dims=4x4x4', 'mesh:dims=2x1x3'],
    'torus': ['torus:dims=1x1x5', 'torus:dims=8x8', 'torus:dims=4x4x8', 'torus:dims=3', 'torus:dims=2x2x2'],
    'multi': ['multicluster:clusters=3,size=10', 'multicluster:clusters=2,sizes=3/17', 'multicluster:clusters=1,size=5',
              'multicluster:clusters=2,size=4,cluster=torus;dims=1x1x4',
              'multicluster:clusters=4,size=16,cluster=kary-ntree;k=2;n=2'],
}
ALLOCS = {
    'flat': ['first-free'],
    'tree': ['first-free', 'contiguous', 'quasi', 'quasi:qct=0', 'quasi:qct=100'],
    'mesh': ['first-free', 'curve', 'curve:order=hilbert,select=sos', 'curve:order=row,select=freelist', 'mc1x1',
             'genalg', 'mm', 'mbs', 'mbs:variant=2d', 'mbs:variant=layered', 'mbs:variant=octet'],
    'torus': ['first-free', 'curve:order=snake-row,select=ff', 'curve:order=hilbert', 'bgl', 'bgl:I=0',
              'bgl:I=5,fn_tor=0,fn_max=1'],
    'multi': ['first-free', 'coalloc', 'coalloc:thres=0,k=1', 'coalloc:thres=2,k=7'],
}
SCHEDS = ['fcfs', 'easy', 'conservative', 'fpfs', 'fpfs:maxjumps=0', 'easy:migrate=1', 'fcfs:migrate=1']
ORDERS = ['arrival', 'sjf', 'smallest', 'priority', 'priority:qfactor_w=0,qtime_w=0,nodes_w=0']
FLAGS = [('--kill', None), ('--choose-nodes', None), ('--oversize', ['skip', 'clamp']),
         ('--zero-runtime', ['keep', 'skip']), ('--overrun', ['keep', 'clamp', 'raise']),
         ('--size-field', ['allocated', 'requested']), ('--skip-bad', None), ('--arrival-mult', ['0.1', '5']),
         ('--runtime-coef', ['0.5', '2']), ('--installed', ['1', '3', '40']), ('--window', ['0:100000', '500:600']),
         ('--status', ['1', '0,1,5', 'other']), ('--gamma', ['0', '10']),
         ('--resize', ['pba', 'fcfs', 'maxb', 'pba:window=1,redist=5', 'maxb:arb_step=start']),
         ('--resizable', ['50:3', '100:1'])]
OUTPUTS = {'--jobs-out': 'jobs.csv', '--summary-out': 'summary.csv', '--groups-out': 'groups.csv',
           '--series-out': 'series.csv'}


def some(r, choices, p):
    """Each of choices (name, values or None) with probability p."""
    out = []
    for name, vals in choices:
        if r.random() < p:
            out += [name] if vals is None else [name, str(r.choice(vals))]
    return out


def keys(r, table):
    """A random subset of KEY=VALUE pairs, one value drawn per key."""
    pairs = ['%s=%s' % (k, r.choice(v)) for k, v in table.items()]
    return r.sample(pairs, r.randrange(len(pairs) + 1))


def workload(r, logs, small):
    if logs and r.random() < (0.3 if small else 0.5):
        return ['--workload', r.choice(logs), '--first', str(r.choice([1, 3, 10] if small else [1, 50, 300])),
                '--offset', str(r.choice([0, 100]))]
    if not small and r.random() < 0.3:
        return ['--synthetic', 'reshape:jobs=%d,resizable=%d,high=%d' % (r.choice([3, 30]), r.choice([0, 50]),
                                                                         r.choice([0, 30]))]
    return ['--synthetic', 'dq:jobs=%d,n1=1,n2=%d,q=%s,mean_run=%s' % (
        r.choice([1, 3, 12] if small else [1, 5, 80, 300]), r.choice([1, 4, 16, 64]),
        r.choice(['0.1', '0.85', '0.999']), r.choice(['0.01', '1', '100']))]


COMMON = {'kernels': ['cg/mg/ft/is/lu', 'cg', 'ft/is', 'lu'], 'class': ['S', 'W'],
          'flops': ['1', '0.001', '1000'], 'seed': [0, 1, 4], 'weights': ['equal', '3/1/1/1/1', '1']}
MODELS = {
    'linkload': {'threads': [1, 2, 3]},
    'simgrid': {'mode': ['isolated', 'shared'], 'engine': ['simgrid', 's4u'], 'alltoall': ['linear', 'ring'],
                'crosstraffic': ['yes', 'no'], 'shape': ['exact', 'counts'], 'group_cache': ['yes', 'no'],
                'iteration': ['timed', 'difference'], 'rate_interval': ['0', '5']},
    'flit': {'mode': ['isolated', 'shared'], 'preset': ['none', 'booksim', 'insee'], 'compute': ['flops', 'zero'],
             'links': ['cycles', 'platform'], 'threads': [1, 2], 'alltoall': ['linear', 'ring'],
             'shape': ['exact', 'counts'], 'group_cache': ['yes', 'no'], 'rate_interval': ['0', '5']},
    'full': {'engine': ['s4u', 'flit'], 'preset': ['none', 'insee'], 'compute': ['flops', 'zero'],
             'alltoall': ['linear', 'ring'], 'crosstraffic': ['yes', 'no']},
}


def scheduler_args(r, tool, logs):
    fam = r.choice(list(MACHINES))
    args = workload(r, logs, tool == 'cosim') + ['--machine', r.choice(MACHINES[fam]),
                                                  '--alloc', r.choice(ALLOCS[fam]), '--sched', r.choice(SCHEDS)]
    if tool == 'cosim':
        model = r.choice(list(MODELS))
        kv = keys(r, MODELS[model]) + keys(r, COMMON) + (['max_actions=1e6'] if model == 'full' else [])
        args += ['--runtime', model + (':' + ','.join(kv) if kv else '')]
    elif r.random() < 0.5:
        args += ['--runtime', r.choice(['log', 'speedup:s=0.99', 'penalty:psi_min=0,psi_max=2', 'reshape'])]
    if r.random() < 0.3:
        args += ['--queue-order', r.choice(ORDERS)]
    return args + some(r, FLAGS, 0.15), dict(OUTPUTS)


FLIT = {'vcs': [1, 2, 4, 8], 'buf': [1, 2, 16], 'router_delay': [0, 1, 3], 'link_delay': [1, 5],
        'node_link_delay': [0, 1, 3], 'inject_delay': [0, 4], 'eject_delay': [0, 4], 'switching': ['wormhole', 'vct'],
        'crossbar': ['port', 'vc'], 'alloc': ['rr', 'output', 'islip'], 'hold': ['flit', 'packet'],
        'links': ['cycles', 'platform'], 'routing': ['deterministic', 'adaptive', 'random', 'fsin'],
        'deadlock': ['dateline', 'partition', 'bubble', 'none'], 'bubble_at': ['next', 'local'],
        'preset': ['none', 'booksim', 'insee'], 'pipeline': ['flit', 'packet'], 'vc_alloc': ['switch', 'islip'],
        'vc_pick': ['first', 'dimension'], 'source_queue': [0, 1, 8], 'threads': [1, 2], 'packet_flits': [1, 3, 8],
        'flit_bytes': [16, 64, 4096]}


def netsim_args(r, tool, logs):
    fam = r.choice(list(MACHINES))
    m = r.choice(MACHINES[fam])
    kv = keys(r, FLIT) if r.random() < 0.8 else []
    engine = 'flit' + (':' + ','.join(kv) if kv else '')
    if r.random() < 0.5:
        args = ['--machine', m, '--engine', engine, '--traffic',
                r.choice(['uniform', 'transpose', 'bitrev', 'tornado', 'neighbor', 'bitcomp', 'hotspot']),
                '--load', r.choice(['0.05', '0.3', '0.9']), '--packet', str(r.choice([1, 4, 16])),
                '--cycles', '3000', '--warmup', '500', '--sample', '500', '--seed', str(r.randrange(9))]
        return args, {'--synth-out': 'synth.csv', '--links-out': 'links.csv'}
    if r.random() < 0.3:
        engine = r.choice(['simgrid', 's4u'])
    args = ['--machine', m, '--engine', engine, '--iterations', '1']
    for _ in range(r.choice([1, 2])):
        args += ['--job', '%s.S.%d@%s' % (r.choice(['cg', 'mg', 'ft', 'is', 'lu', 'ep']), r.choice([1, 2, 4]),
                                          r.choice(['contiguous', 'spread', 'random:seed=%d' % r.randrange(5)]))]
    return args, {'--jobs-out': 'jobs.csv', '--links-out': 'links.csv'}


def judge(rc, err, d, outs, args):
    files = os.listdir(d)
    if rc is None:
        return 'hang'
    if rc < 0 or rc > 2 or re.search(r'ERROR: (Address|Leak)Sanitizer|runtime error:', err):
        return 'crash (exit %d)' % rc
    if rc and files:
        return 'error exit left outputs behind: %s' % ' '.join(sorted(files))
    first = next(iter(outs.values()))
    if not rc and first not in files:
        return 'success without %s' % first
    if rc and 'no flit moved' in err and 'deadlock=none' not in ' '.join(args):
        return 'deadlock in a configuration that avoids it'
    if not rc and 'summary.csv' in files:
        bad = audit(os.path.join(d, 'jobs.csv'), os.path.join(d, 'summary.csv'))
        if bad:
            return 'schedule audit: ' + '; '.join(bad[:3])
    return None


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ('jobsched', 'cosim', 'netsim'):
        sys.exit(__doc__)
    build, tool, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    w = os.environ.get('WORKLOADS', os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'workloads'))
    logs = sorted(os.path.join(w, f) for f in os.listdir(w) if f.endswith('.swf.gz')) if os.path.isdir(w) else []
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1')
    timeout = float(os.environ.get('TIMEOUT', '120'))
    counts, errors, failed = collections.Counter(), collections.Counter(), 0
    for seed in range(first, first + runs):
        r = random.Random(seed)
        args, outs = (netsim_args if tool == 'netsim' else scheduler_args)(r, tool, logs)
        d = tempfile.mkdtemp(prefix='option-fuzz-')
        cmd = [os.path.join(build, 'bin', tool), '--quiet'] + args
        for opt, name in outs.items():
            cmd += [opt, os.path.join(d, name)]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                             start_new_session=True)  # a hang's children are killed with it
        try:
            err = p.communicate(timeout=timeout)[1]
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            err, rc = p.communicate()[1], None
        bad = judge(rc, err, d, outs, args)
        shutil.rmtree(d, ignore_errors=True)
        if bad:
            failed += 1
            print('seed %d: %s\n  %s\n  %s' % (seed, bad, ' '.join(cmd), '\n  '.join(err.strip().splitlines()[-6:])),
                  flush=True)
        counts[bad and 'failed' or rc and 'clean error' or 'success'] += 1
        if rc and not bad:
            lines = [x for x in err.strip().splitlines() if not x.startswith('(try')]
            errors[re.sub(r'[0-9]+', 'N', lines[-1] if lines else '(no message)')[:150]] += 1
    print('%s: %d runs from seed %d: %s' % (tool, runs, first, ', '.join('%s %d' % kv for kv in sorted(counts.items()))))
    for msg, n in errors.most_common(15):
        print('  %4d %s' % (n, msg))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
