#!/usr/bin/env python3
"""Runs every example of the README (and docs/*.md) as written, and compares
the output each shows where it shows one.

An example is a fenced ```sh block; it runs as one bash script (set -e) in a
fresh folder where `build/bin` holds the tools under test, `../shared` is
the shared data, and `scripts` and `results` are the project's. The output
it shows is the plain ``` block right after it: every line shown must come,
in order, among the lines it printed (stdout and stderr; spaces collapsed),
except lines holding "..." (elisions). A shown block whose lines start with
"$ " is a transcript: each such command runs in the same folder after the
example, and the lines after it are its output.

An HTML comment on the line before a block says what to do instead:
  <!-- example: skip REASON -->   not run (it installs, builds or fuzzes)
  <!-- example: slow -->          run only with EXAMPLES_SLOW=1

Usage: examples.py BIN_DIR SHARED_DIR SOURCE_DIR FILE.md...
Exit 1 when an example fails or prints something else than it shows."""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^<!--\s*example:\s*(skip|slow)\b\s*(.*?)\s*-->\s*$")


def blocks(path):
    """The fenced blocks of a Markdown file: (line, lang, lines, mark)."""
    out, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, lang, body = i + 1, m.group(1), []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        prev = lines[start - 2] if start >= 2 else ""
        mark = MARK.match(prev)
        out.append((start, lang, body, (mark.group(1), mark.group(2)) if mark else None))
        i += 1
    return out, lines


def shown_after(all_lines, blocks_list, k):
    """The plain block right after block k (only blank lines between), or None."""
    start, _, body, _ = blocks_list[k]
    end = start + len(body) + 1  # the closing fence's line (1-based)
    if k + 1 >= len(blocks_list):
        return None
    nstart, nlang, nbody, _ = blocks_list[k + 1]
    between = all_lines[end:nstart - 1]
    if nlang or any(l.strip() for l in between):
        return None
    return nbody


def norm(line):
    return " ".join(line.split())


def compare(shown, printed):
    """The first shown line not printed (in order), or None."""
    got = [norm(l) for l in printed.split("\n")]
    at = 0
    for line in shown:
        want = norm(line)
        if not want or "..." in want:
            continue
        while at < len(got) and got[at] != want:
            at += 1
        if at == len(got):
            return line
        at += 1
    return None


def run(script, cwd, timeout=1800):
    r = subprocess.run(["bash", "-c", "set -e\n" + script], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return r.returncode, r.stdout


def main():
    bin_dir, shared, source = (os.path.abspath(a) for a in sys.argv[1:4])
    files = sys.argv[4:]
    if not os.path.isdir(shared):
        print(f"skip: {shared} absent (the examples read ../shared)")
        return 0
    slow = os.environ.get("EXAMPLES_SLOW") == "1"
    failed = ran = skipped = 0
    for md in files:
        bl, all_lines = blocks(md)
        for k, (line, lang, body, mark) in enumerate(bl):
            if lang != "sh":
                continue
            where = f"{os.path.relpath(md, source)}:{line}"
            if mark and (mark[0] == "skip" or not slow):
                print(f"skip {where}: {mark[0]} {mark[1]}".rstrip())
                skipped += 1
                continue
            with tempfile.TemporaryDirectory() as root:
                proj = os.path.join(root, "proj")
                os.makedirs(os.path.join(proj, "build"))
                os.symlink(bin_dir, os.path.join(proj, "build", "bin"))
                os.symlink(shared, os.path.join(root, "shared"))
                for d in ("scripts", "results"):
                    os.symlink(os.path.join(source, d), os.path.join(proj, d))
                rc, out = run("\n".join(body), proj)
                ran += 1
                shown = shown_after(all_lines, bl, k)
                problem = None
                if rc != 0:
                    problem = f"exit {rc}"
                elif shown and any(l.startswith("$ ") for l in shown):
                    cmd, expect = None, []
                    for l in shown + ["$ "]:
                        if l.startswith("$ "):
                            if cmd is not None:
                                rc2, out2 = run(cmd, proj)
                                miss = compare(expect, out2)
                                if rc2 != 0 or miss is not None:
                                    problem = f"`{cmd}`: " + (f"exit {rc2}" if rc2 else
                                                              f"does not print '{miss}'")
                                    out = out2
                                    break
                            cmd, expect = l[2:], []
                        else:
                            expect.append(l)
                elif shown:
                    miss = compare(shown, out)
                    if miss is not None:
                        problem = f"does not print '{miss}'"
                if problem:
                    failed += 1
                    print(f"FAIL {where}: {problem}\n  it printed:\n    " +
                          "\n    ".join(out.rstrip().split("\n")[-15:]))
                else:
                    print(f"PASS {where}")
    print(f"{ran} examples run, {skipped} skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
