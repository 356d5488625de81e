#!/usr/bin/env python3
"""Check the uaccess-kaddr reports on a guest's console, as a fuzzer reads them.

    report_format.py CONSOLE_LOG [--expect-panic]

Every report must have the documented shape (Documentation/dev-tools/
uaccess-kaddr.rst): rulers, the "BUG: uaccess-kaddr:" header, the access,
the task, a call trace, the site's counts.  Each header is then titled the
way syzkaller titles a "BUG:" line that none of its rules knows
(pkg/report/report.go: the header line up to its end, through
dynamicTitleReplacement and sanitizeTitle), and reports from different call
sites must get different titles: one bug, one title.

With --expect-panic, the console must end in the panic that panic_on_warn
causes after a report in mode warn.  Prints TAP lines.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash_headers import crash_header  # noqa: E402

# syzkaller pkg/report/report.go dynamicTitleReplacement, in order; each
# rule is applied until the title stops changing.  Go's \w, \d, \W are ASCII.
SYZ_REPLACEMENTS = [
    (r'syz-executor\.?[0-9]+((/|:)[0-9]+)?', 'syz-executor'),
    (r'syzkaller[0-9]+((/|:)[0-9]+)?', 'syzkaller'),
    (r'([^a-zA-Z0-9])(?:0x)?[0-9a-f]{6,}', r'\g<1>ADDR'),
    (r'([0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3})', 'IP'),
    (r'(\.\w+)(:[0-9]+)+', r'\g<1>:LINE'),
    (r'([a-zA-Z][a-zA-Z0-9_.]+)\+0x[0-9a-z]+/0x[0-9a-z]+', r'\g<1>'),
    (r'CPU#[0-9]+', 'CPU'),
    (r'(\W)(\d+)(\W|$)', r'\g<1>NUM\g<3>'),
    (r'(\d+){7,}', 'NUM'),
]

RULER = '=' * 66
# Up to the printk timestamp: the first line also carries the firmware's
# terminal escapes.
TIMESTAMP = re.compile(r'^.*?\[\s*\d+\.\d+\] ')
HEADER = re.compile(r'^BUG: uaccess-kaddr: (\S+|user access) (to|from|on) (kernel|non-canonical) address in '
                    r'(\S+)( \[\w+\])?$')
ACCESS = re.compile(r'^(Read|Write|Read-modify-write|Access)( of \d+ bytes?)? (from|to|at) '
                    r'(?:(mapped kernel|unmapped kernel|non-canonical|guard page|all-ones page|vsyscall page|user) '
                    r'address 0x[0-9a-f]+|an undecoded non-canonical address) '
                    r'\((access blocked|access allowed by uaccess_kaddr_access=allow|'
                    r'page fault, access failed|#GP, access failed)\)$')
TASK = re.compile(r'^CPU: \d+ UID: \d+ PID: \d+ Comm: \S.* (Not tainted|Tainted: [A-Z ]+) \S+'
                  r'(, in (softirq|hardirq|NMI))?$')
# A symbol, or only an address in a kernel without kallsyms.
FRAME = re.compile(r'^ (?:\? )?(?:[a-zA-Z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[\w+\])?|0x[0-9a-f]+)$')
SITE = re.compile(r'^Site: \d+ hits?, \d+ suppressed since the last report$')
# panic_on_warn's panic, or add_taint()'s with panic_on_taint.
PANIC = re.compile(r'^Kernel panic - not syncing: (uaccess-kaddr: panic_on_warn set|'
                   r'panic_on_taint set)')


def syz_title(line):
    title = line
    for pattern, repl in SYZ_REPLACEMENTS:
        while True:
            new = re.sub(pattern, repl, title, flags=re.ASCII)
            if new == title:
                break
            title = new
    title = ''.join(c for c in title.replace('\t', ' ') if 0x20 <= ord(c) < 0x7f)
    return re.sub(' +', ' ', title[:120]).strip()


def reports(lines):
    """Each report as its lines, from the header to the closing ruler."""
    out = []
    for i, line in enumerate(lines):
        if line.startswith('BUG: uaccess-kaddr:'):
            block = [line]
            for nxt in lines[i + 1:]:
                block.append(nxt)
                if nxt == RULER or nxt.startswith('BUG: uaccess-kaddr:'):
                    break
            out.append((i, block))
    return out


def shape_errors(lines, i, block):
    errs = []
    if i == 0 or lines[i - 1] != RULER:
        errs.append('no ruler before the header')
    if not HEADER.match(block[0]):
        errs.append(f'header {block[0]!r}')
    if len(block) < 7:
        return errs + [f'only {len(block)} lines']
    if not ACCESS.match(block[1]):
        errs.append(f'access line {block[1]!r}')
    if not TASK.match(block[2]):
        errs.append(f'task line {block[2]!r}')
    if block[3] != 'Call Trace:':
        errs.append(f'no "Call Trace:" but {block[3]!r}')
    n = 4
    while n < len(block) and FRAME.match(block[n]):
        n += 1
    if n == 4:
        errs.append('no frame in the call trace')
    if n >= len(block) or not SITE.match(block[n]):
        errs.append(f'no site counts after the trace: {block[n:n + 1]!r}')
    if block[-1] != RULER:
        errs.append('no closing ruler')
    return errs


def kind(block):
    """precheck, fault or gp, from the outcome on the access line."""
    if 'access blocked' in block[1] or 'access allowed' in block[1]:
        return 'precheck'
    return 'fault' if 'page fault' in block[1] else 'gp'


def second_crashes(block):
    """Lines of a report, its header apart, that a parser takes for a crash."""
    return [(line, why) for line in block[1:] if (why := crash_header(line))]


def main():
    args = sys.argv[1:]
    expect_panic = '--expect-panic' in args
    args = [a for a in args if a != '--expect-panic']
    with open(args[0], encoding='utf-8', errors='replace') as fh:
        lines = [TIMESTAMP.sub('', l.rstrip('\r\n')) for l in fh]
    found = reports(lines)
    bad = 0
    titles = {}
    kinds = {}
    kasan_views = 0
    split = []
    for i, block in found:
        split += [(i, line, why) for line, why in second_crashes(block)]
        errs = shape_errors(lines, i, block)
        if errs:
            bad += 1
            print(f'# report at console line {i + 1}: ' + '; '.join(errs))
            continue
        kinds[kind(block)] = kinds.get(kind(block), 0) + 1
        kasan_views += any(l.startswith('The buggy address') for l in block)
        m = HEADER.match(block[0])
        caller = re.sub(r'\+0x.*', '', m.group(3))
        if caller.startswith('0x'):
            continue    # no kallsyms: no title can name the caller
        titles.setdefault(syz_title(block[0]), set()).add((m.group(1), m.group(2), caller))
    if found:
        print(f'{"not ok" if bad else "ok"} - console: {len(found) - bad} of {len(found)} '
              'uaccess-kaddr reports in the documented shape')
    if found:
        seen = ', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))
        print(f'{"not ok" if split else "ok"} - console: no line of the {len(found)} reports but '
              f'their header reads as a crash to syzkaller or the log scanners ({seen}; '
              f'{kasan_views} with the KASAN view)')
        for i, line, why in split[:10]:
            print(f'#   report at console line {i + 1}: {why} in {line!r}')
    clash = {t: s for t, s in titles.items() if len(s) > 1}
    if titles:
        print(f'{"not ok" if clash else "ok"} - console: {len(titles)} syzkaller titles for '
              f'{sum(len(s) for s in titles.values())} (helper, direction, caller) sites'
              + (f' # shared: {clash}' if clash else ''))
        for t in sorted(titles):
            print(f'#   {t}')
    elif found:
        print('# no call site named by symbol (no kallsyms): titles not checked')
    if expect_panic:
        at = [i for i, l in enumerate(lines) if PANIC.match(l)]
        ok = bool(at) and any(i < at[0] for i, _ in found)
        print(f'{"ok" if ok else "not ok"} - mode warn with a panic on WARN panics '
              f'after the first report' + ('' if ok else f' # panic line: {bool(at)}, '
                                          f'reports: {len(found)}'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
