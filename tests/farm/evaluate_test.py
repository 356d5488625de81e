#!/usr/bin/env python3
"""The farm's judge (evaluate.py) on made-up VMs: it must pass a VM that
found every re-opened bug once, and fail, on the right line, one that
missed a bug, gave a bug two titles, reported something else, printed
another kind of crash, uploaded too little, or left garbage behind.

    evaluate_test.py        prints TAP lines

A console is the saved precheck report (tests/vm/fixtures) with the
header of each bug as the 7.3 kasan kernel printed it; the uploaded journal
is written by systemd-journal-remote from an export stream, as the VMs'
journal-upload feeds it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from evaluate import BUGS, EVENT_ID  # noqa: E402

REPORT = open(os.path.join(here, '..', 'vm', 'fixtures', 'precheck-report.log'),
              encoding='utf-8').read().splitlines()
HOST = 'farm-7.3.4+'
RESULTS = f'''# farm: hostname {HOST}
# farm: trinity aimed: 33706 calls in 64 s: -C 2 -c waitid
# farm: trinity table: 409 calls in 63 s: -C 2 -x reboot
# farm: journal uploaded to http://10.0.2.100:19532 up to its last entry
'''
n = 0


def report(header, at):
    """The saved report with HEADER, stamped from AT seconds."""
    out = []
    for i, line in enumerate(REPORT):
        body = re.sub(r'^\[[^]]*\] ', '', line)
        if body.startswith('BUG: uaccess-kaddr:'):
            body = header
        out.append(f'[{at + i * 0.001:12.6f}] {body}')
    return out


def console(headers, extra=()):
    lines = ['[    1.000000] Linux version 7.3.4+',
             '[   10.000000] uaccess-farm: trinity aimed starts']
    for k, h in enumerate(headers):
        lines += report(h, 23 + k)
    return '\n'.join(lines + list(extra)) + '\n'


def journal(tmp, entries):
    """A journal file as journal-remote writes it from export ENTRIES
    (each a dict of fields), in directory tmp/remote."""
    remote = os.path.join(tmp, 'remote')
    os.makedirs(remote, exist_ok=True)
    if not entries:
        return remote
    stream = ''
    for k, e in enumerate(entries):
        fields = {'__CURSOR': f's=0;i={k + 1}', '__REALTIME_TIMESTAMP': str(1_700_000_000_000_000 + k),
                  '__MONOTONIC_TIMESTAMP': str(1000 + k), '_BOOT_ID': '0123456789abcdef0123456789abcdef'}
        fields.update(e)
        stream += ''.join(f'{key}={val}\n' for key, val in fields.items()) + '\n'
    subprocess.run(['/lib/systemd/systemd-journal-remote', f'--output={remote}/remote-test.journal', '-'],
                   input=stream.encode(), capture_output=True, check=True)
    return remote


def event(function, host=HOST):
    return {'MESSAGE': f'uaccess-kaddr hit in {function}', 'MESSAGE_ID': EVENT_ID,
            '_HOSTNAME': host, 'UACCESS_SITE_FUNCTION': function}


def run(console_text, results_text, entries):
    tmp = tempfile.mkdtemp()
    try:
        with open(os.path.join(tmp, 'console.log'), 'w', encoding='utf-8', errors='surrogateescape') as fh:
            fh.write(console_text)
        with open(os.path.join(tmp, 'results.tap'), 'w', encoding='utf-8') as fh:
            fh.write(results_text)
        remote = journal(tmp, entries)
        res = subprocess.run([sys.executable, os.path.join(here, 'evaluate.py'), 'kasan',
                              os.path.join(tmp, 'console.log'), os.path.join(tmp, 'results.tap'), remote],
                             capture_output=True, text=True, check=False)
        return res.returncode, res.stdout
    finally:
        shutil.rmtree(tmp)


def failing(out):
    """The descriptions of the not-ok lines, without the reason."""
    return [re.sub(r' # .*', '', l[len('not ok - '):]) for l in out.splitlines() if l.startswith('not ok')]


def expect(what, rc_out, fails):
    """The judge ran to its end, and exactly the lines matching the
    regular expressions FAILS failed."""
    global n
    rc, out = rc_out
    got = failing(out)
    unmatched = [f for f in fails if not any(re.search(f, g) for g in got)]
    extra = [g for g in got if not any(re.search(f, g) for f in fails)]
    n += 1
    if rc == 0 and not unmatched and not extra and out.count('\n') >= 10:
        print(f'ok {n} - {what}')
    else:
        print(f'not ok {n} - {what} # exit {rc}, missing failures {unmatched}, '
              f'unexpected failures {extra}')


def main():
    headers = [b.sample for b in BUGS]
    all_events = [event(re.sub(r'.* in (\S+)\+.*', r'\1', b.sample)) for b in BUGS]

    expect('a VM that found every re-opened bug once passes',
           run(console(headers), RESULTS, all_events), [])
    expect('a report printed again at the same site is still one title',
           run(console(headers + headers[:1]), RESULTS, all_events), [])
    expect('a bug not found fails on that bug and its journal entry',
           run(console(headers[1:]), RESULTS, all_events[1:]),
           [rf'{BUGS[0].name} .* found by', rf"entry of {BUGS[0].name} "])
    inlined = BUGS[0].sample.replace('__x64_sys_waitid', '__do_sys_waitid')
    expect('a bug under two titles (two callers) fails as not titled once',
           run(console(headers + [inlined]), RESULTS, all_events),
           [rf'{BUGS[0].name} .* found by'])
    other = 'BUG: uaccess-kaddr: __put_user to kernel address in do_sys_something+0x10/0x20'
    expect('a report of another site fails: no other title',
           run(console(headers + [other]), RESULTS, all_events), ['no other title'])
    noncanonical = BUGS[0].sample.replace('to kernel address', 'to non-canonical address')
    expect('the same site at a non-canonical address is another title, and fails',
           run(console(headers + [noncanonical]), RESULTS, all_events), ['no other title'])
    kasan = ['[   30.000000] BUG: KASAN: slab-out-of-bounds in foo+0x1/0x2',
             '[   30.100000] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 bar+0x1/0x2']
    expect('another kind of crash on the console fails',
           run(console(headers, kasan), RESULTS, all_events), ['reads as a crash'])
    expect('binary garbage on the console is read past, not a crash of the judge',
           run(console(headers, ['\udcff\udcfe binary \x01\x02', '[   31.0] \x1b[0m']),
               RESULTS, all_events), [])
    expect('a cut header outside any report reads as a crash',
           run(console(headers, ['[ x ] BUG: uaccess-kaddr:']), RESULTS, all_events),
           ['reads as a crash'])
    no_trinity = '\n'.join(l for l in RESULTS.splitlines() if 'trinity' not in l) + '\n'
    expect('a VM where trinity made no call fails on both phases',
           run(console(headers), no_trinity, all_events), ['aimed', 'table'])
    behind = RESULTS.replace('journal uploaded to http://10.0.2.100:19532 up to its last entry',
                             'journal upload behind: Connection refused')
    expect('an upload left behind fails', run(console(headers), behind, all_events),
           ['uploaded its journal'])
    expect('no journal at all fails on every bug\'s entry, not the judge',
           run(console(headers), RESULTS, []), [f'entry of {b.name} ' for b in BUGS])
    expect("another VM's entries do not count for this one",
           run(console(headers), RESULTS, [event(e['UACCESS_SITE_FUNCTION'], 'farm-6.12.57+')
                                          for e in all_events]),
           [f'entry of {b.name} ' for b in BUGS])
    print(f'1..{n}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
