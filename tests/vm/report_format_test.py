#!/usr/bin/env python3
"""The console checker (report_format.py) on saved reports: it must pass
today's reports and fail the ones that read as two crashes.

    report_format_test.py        prints TAP lines

The fixtures are reports as the consoles of the test kernels printed them;
gp-report-970ad57.log is the #GP report of main at 970ad57, whose access
line syzkaller took for a second crash titled "general protection fault,
access failed)".
"""

import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, 'fixtures')

# The KASAN verdict line of a report of main at 970ad57, and today's.
OLD_KASAN = '[    9.100000] KASAN: every byte of the range is accessible'
NEW_KASAN = '[    9.100000] Shadow memory: every byte of the range is accessible'


def check(console_text):
    """report_format.py's TAP output for a console."""
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as fh:
        fh.write(console_text)
        path = fh.name
    try:
        return subprocess.run([sys.executable, os.path.join(here, 'report_format.py'), path],
                              capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)


def fixture(name):
    with open(os.path.join(fixtures, name), encoding='utf-8') as fh:
        return fh.read()


def with_kasan_line(report, line):
    """REPORT with LINE added to its object description, before the ruler."""
    lines = report.rstrip('\n').split('\n')
    return '\n'.join(lines[:-1] + [line, lines[-1]]) + '\n'


def crash_verdict(out):
    for line in out.splitlines():
        if 'reads as a crash to syzkaller' in line:
            return line
    return ''


CASES = [
    ('the #GP report of 970ad57 reads as two crashes', fixture('gp-report-970ad57.log'), False),
    ("today's #GP report is one crash", fixture('gp-report.log'), True),
    ('a page-fault report is one crash', fixture('fault-report.log'), True),
    ('a pre-access report with the object it reaches is one crash',
     fixture('precheck-report.log'), True),
    ("the KASAN verdict of 970ad57 reads as a crash to the log scanners",
     with_kasan_line(fixture('precheck-report.log'), OLD_KASAN), False),
    ("today's KASAN verdict does not", with_kasan_line(fixture('precheck-report.log'), NEW_KASAN),
     True),
    ('several reports in one console: one bad one fails it',
     fixture('fault-report.log') + fixture('gp-report-970ad57.log'), False),
]


def main():
    failed = 0
    for n, (name, text, want_ok) in enumerate(CASES, 1):
        verdict = crash_verdict(check(text))
        ok = bool(verdict) and verdict.startswith('ok') == want_ok
        failed += not ok
        print(f'{"ok" if ok else "not ok"} {n} - {name}' + ('' if ok else f' # {verdict!r}'))
    print(f'1..{len(CASES)}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
