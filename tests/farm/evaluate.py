#!/usr/bin/env python3
"""Judge one VM of the fuzz farm in miniature (tests/farm/farm.sh).

    evaluate.py VARIANT CONSOLE_LOG RESULTS_TAP REMOTE_DIR

Reads the VM's console the way the farm's console reader does, through the
project's syzkaller-compatible checker (tests/vm/report_format.py): every
report's header titled as syzkaller titles it.  It passes when each
re-opened bug of kernel/inject/ has exactly one title, nothing else has a
title, and no other line of the console reads as a crash; and when the
journal that the VM uploaded to the host's systemd-journal-remote
(REMOTE_DIR) holds uaccessd's entry for each bug.  It says which bug
trinity found and how long after it started, which the PoCs made, and how
many calls trinity made.  Prints TAP.
"""

import collections
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'vm'))
from crash_headers import crash_header  # noqa: E402
from report_format import RULER, TIMESTAMP, reports, syz_title  # noqa: E402

EVENT_ID = 'd3e08ea094464dd2b8ef6d7fae8ae370'   # uaccessd's event entries
# The re-opened bugs: name, the fix's subject, the title the detector's
# report must get (a regular expression: the compilers name the caller of
# an inlined function), the function uaccessd names, who finds it, and a
# header as the 7.3 kasan kernel printed it (for evaluate_test.py).
Bug = collections.namedtuple('Bug', 'name fix title function finder sample')
BUGS = [
    Bug('waitid', 'waitid(): Add missing access_ok() checks (CVE-2017-5123)',
        r'BUG: uaccess-kaddr: unsafe_put_user to kernel address in (__do_sys|__se_sys|__x64_sys)_waitid',
        r'(__do_sys|__se_sys|__x64_sys)_waitid', 'trinity',
        'BUG: uaccess-kaddr: unsafe_put_user to kernel address in __x64_sys_waitid+0x3d7/0x6a0'),
    Bug('uprobe-multi', 'bpf: Guard __get_user acesss with access_ok for uprobe_multi data',
        r'BUG: uaccess-kaddr: __get_user from kernel address in bpf_uprobe_multi_link_attach',
        r'bpf_uprobe_multi_link_attach', 'PoC',
        'BUG: uaccess-kaddr: __get_user from kernel address in bpf_uprobe_multi_link_attach+0xb53/0x1300'),
    Bug('kprobe-multi', 'bpf: Add missing access_ok call to copy_user_syms',
        r'BUG: uaccess-kaddr: __get_user from kernel address in (copy_user_syms|bpf_kprobe_multi_link_attach)',
        r'(copy_user_syms|bpf_kprobe_multi_link_attach)', 'PoC',
        'BUG: uaccess-kaddr: __get_user from kernel address in copy_user_syms+0x18d/0x2a0'),
    Bug('code-dump', 'x86/dumpstack: Don\'t dump kernel memory based on usermode RIP (CVE-2018-14656)',
        r'BUG: uaccess-kaddr: __copy_from_user from kernel address in (copy_code|show_opcodes)',
        r'(copy_code|show_opcodes)', 'PoC',
        'BUG: uaccess-kaddr: __copy_from_user from kernel address in show_opcodes+0x116/0x140'),
]
STAMP = re.compile(r'^.*?\[\s*(\d+\.\d+)\] ')


def tap(ok, what, why=''):
    print(f'{"ok" if ok else "not ok"} - {what}' + (f' # {why}' if why and not ok else ''))


def read_console(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        raw = [line.rstrip('\r\n') for line in fh]
    stamps = [float(m.group(1)) if (m := STAMP.match(l)) else None for l in raw]
    return [TIMESTAMP.sub('', l) for l in raw], stamps


def marks(lines, stamps):
    """The guest's "uaccess-farm:" lines, by text, with their times."""
    out = {}
    for line, t in zip(lines, stamps):
        if line.startswith('uaccess-farm: ') and t is not None:
            out.setdefault(line[len('uaccess-farm: '):], t)
    return out


def journal_functions(remote, hostname):
    """UACCESS_SITE_FUNCTION of every uaccessd event entry from hostname."""
    files = [os.path.join(remote, f) for f in os.listdir(remote) if f.endswith('.journal')]
    if not files:
        return None
    args = ['journalctl', '--no-pager', '-o', 'export', '--output-fields=UACCESS_SITE_FUNCTION']
    args += [f'--file={f}' for f in files]
    args += [f'MESSAGE_ID={EVENT_ID}', f'_HOSTNAME={hostname}']
    res = subprocess.run(args, capture_output=True, check=False)
    out = res.stdout.decode('utf-8', errors='replace')
    return re.findall(r'^UACCESS_SITE_FUNCTION=(.*)$', out, flags=re.M)


def main():
    variant, console, results, remote = sys.argv[1:5]
    lines, stamps = read_console(console)
    with open(results, encoding='utf-8', errors='replace') as fh:
        farm = [l.rstrip('\n') for l in fh if l.startswith('# farm: ')]
    name = f'farm {variant}'

    calls = {}
    for l in farm:
        m = re.match(r'# farm: trinity (\w+): (\d+) calls in (\d+) s', l)
        if m:
            calls[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    for phase in ('aimed', 'table'):
        n, s = calls.get(phase, (0, 0))
        tap(n > 0, f'{name}: trinity as nobody, {phase}: {n} calls in {s} s',
            'trinity made no call: ' + '; '.join(l for l in farm if 'trinity' in l)[:300])

    # Each report, its title and when it was printed.
    titled = {}
    inside = set()
    for i, block in reports(lines):
        inside.update(range(max(i - 1, 0), i + len(block)))
        title = syz_title(block[0])
        titled.setdefault(title, stamps[i])
    t = marks(lines, stamps)
    for bug, fix, title_re, _, finder, _ in BUGS:
        hits = [ti for ti in titled if re.fullmatch(title_re, ti)]
        found = len(hits) == 1
        when = ''
        if found and finder == 'trinity' and titled[hits[0]] is not None:
            start = t.get('trinity aimed starts')
            if start is not None:
                when = f' after {titled[hits[0]] - start:.0f} s of fuzzing'
        tap(found, f'{name}: {bug} ("{fix}") found by {"its " if finder == "PoC" else ""}{finder}{when}, titled once: '
            f'{hits[0] if found else "-"}',
            f'titles matching /{title_re}/: {hits}')
    expected = [re.compile(b.title) for b in BUGS]
    others = sorted(ti for ti in titled if not any(r.fullmatch(ti) for r in expected))
    tap(not others, f'{name}: no other title on the console ({len(titled)} titles in all)',
        f'unexpected: {others[:5]}')
    # A crash of any other kind (KASAN, lockdep, a WARNING ...) outside the
    # detector's reports.
    crashes = [(n, l, why) for n, l in enumerate(lines)
               if n not in inside and l != RULER and (why := crash_header(l))
               and not l.startswith('uaccess-farm: ')]
    tap(not crashes, f'{name}: nothing else on the console reads as a crash',
        '; '.join(f'line {n + 1}: {why} in {l!r}' for n, l, why in crashes[:3]))

    uploaded = [l for l in farm if 'journal uploaded' in l]
    tap(bool(uploaded), f'{name}: the VM uploaded its journal up to its last entry',
        '; '.join(l for l in farm if 'journal' in l))
    host_line = [l for l in farm if l.startswith('# farm: hostname ')]
    hostname = host_line[0].split()[-1] if host_line else '(none given)'
    funcs = journal_functions(remote, hostname)
    for bug, _, _, func_re, _, _ in BUGS:
        got = [f for f in funcs or [] if re.fullmatch(func_re, f)]
        tap(bool(got), f'{name}: journal-remote holds uaccessd\'s entry of {bug} from {hostname}',
            f'{len(funcs or [])} event entries from {hostname}; functions: {sorted(set(funcs or []))[:8]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
