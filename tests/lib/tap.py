#!/usr/bin/env python3
"""Count TAP/KTAP results for make check's summary.

  tap.py count SUITE FILE...   count leaf results, print failures, record
                               build/results/SUITE (exit 1 on any failure)
  tap.py summary DIR           add up every record: 'N passed, N failed, N skipped'

KTAP nests subtests by indentation; only leaves count, so a suite line that
merely sums its children is not counted twice.  A result line is a leaf when
the result line before it is not nested deeper.
"""
import os
import re
import sys

RESULT = re.compile(r'^(\s*)(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?(.*)$')
SKIP = re.compile(r'#\s*SKIP', re.IGNORECASE)


def count(lines):
    passed, failed, skipped, failures = 0, 0, 0, []
    prev_depth = None
    for line in lines:
        m = RESULT.match(line.rstrip('\n'))
        if not m:
            continue
        depth = len(m.group(1).expandtabs(8))
        leaf = prev_depth is None or prev_depth <= depth
        prev_depth = depth
        if not leaf:
            continue
        desc = m.group(4)
        if SKIP.search(desc):
            skipped += 1
        elif m.group(2) == 'ok':
            passed += 1
        else:
            failed += 1
            failures.append(desc.strip())
    return passed, failed, skipped, failures


def cmd_count(suite, files):
    lines = []
    for f in files:
        try:
            with open(f, errors='replace') as fh:
                lines += fh.readlines()
        except OSError as e:
            print(f'{suite}: cannot read {f}: {e.strerror}', file=sys.stderr)
    p, f, s, failures = count(lines)
    for d in failures:
        print(f'  FAIL {suite}: {d}')
    record(suite, p, f, s, failures)
    print(f'{suite}: {p} passed, {f} failed, {s} skipped')
    return 1 if f else 0


def results_dir():
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get('RESULTS_DIR', os.path.join(top, 'build', 'results'))


def record(suite, p, f, s, failures=()):
    d = results_dir()
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, suite), 'w') as fh:
        fh.write(f'{p} {f} {s}\n')
        for desc in failures:
            fh.write(desc.replace('\n', ' ') + '\n')


def cmd_summary():
    d = results_dir()
    tp = tf = ts = 0
    failed = []
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name)) as fh:
            first, *descs = fh.read().splitlines()
        p, f, s = (int(x) for x in first.split())
        tp, tf, ts = tp + p, tf + f, ts + s
        if f:
            failed += [f'{name}: {x}' for x in descs] or [name]
    # Every failure again, next to the total: a log read from its end
    # (a CI page) shows them all.
    for x in failed:
        print(f'FAILED {x}')
    if tp + tf == 0:
        tf += 1
        print('no test ran', file=sys.stderr)
    print(f'{tp} passed, {tf} failed, {ts} skipped')
    return 1 if tf else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == 'count':
        return cmd_count(argv[2], argv[3:])
    if len(argv) == 2 and argv[1] == 'summary':
        return cmd_summary()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
