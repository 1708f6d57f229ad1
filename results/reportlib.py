"""What the seed reports (results/seedNNN/report.py) share."""


def read_stats(path):
    """A `jobsched --stats` output as {key: text}."""
    d = {}
    for line in open(path):
        k, _, v = line.strip().partition(" ")
        d[k] = v.strip()
    return d
