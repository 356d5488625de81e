#!/usr/bin/env python3
"""Turn the benchmark runs into build/bench/report.md and print the ratios.

    report.py MANIFEST [--tap]

MANIFEST (JSON, written by tests/bench/bench.sh) names the kernels, the
static analyses (tests/bench/static_cost.py --json), the VM runs
(results.txt of tests/bench/vm.sh) and the commands that produced them.
With --tap the checks of `make bench-smoke` are printed as TAP lines: the
tables are filled, the ratios are numbers in a sane range, the pipeline's
counts add up exactly.  They never fail on noise.
"""
import json
import os
import re
import statistics
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))

GOAL_RATIO = 1.005      # report/off per microbenchmark
GOAL_ON = 4             # instructions on the no-report path, key on
GOAL_HIT = 2.0          # repeated hits of a known site vs the unreported path

SYSCALL_DESC = {
    'getppid': 'getppid() (no user access: control)',
    'read': 'read() 64 B from /dev/zero',
    'pread': 'pread() 64 B from /dev/zero',
    'uname': 'uname()',
    'getrusage': 'getrusage()',
    'fstat': 'fstat() of /dev/zero',
    'poll': 'poll(), 1 fd',
    'futex_wait': 'futex(FUTEX_WAIT), value differs (EAGAIN)',
    'futex_wake': 'futex(FUTEX_WAKE), no waiter',
    'recvmsg_cmsg': 'send() + recvmsg() with SCM_CREDENTIALS',
}
HIT_DESC = {
    'loop-1-mapped': '1 site, mapped kernel address, in-kernel loop',
    'loop-1-unmapped': '1 site, unmapped kernel address, in-kernel loop',
    'loop-1000-mapped': '1,000 sites, mapped, in-kernel loop',
    'call-1-mapped': '1 site, mapped, one write() per hit',
    'call-1-unmapped': '1 site, unmapped, one write() per hit',
    'call-1000-mapped': '1,000 sites, mapped, one write() per 100 hits',
}


def med(v):
    return statistics.median(v) if v else float('nan')


def fmt(x, d=0):
    if x is None or x != x:
        return 'n/a'
    return f'{x:,.{d}f}'


def ratio(x, d=4):
    if x is None or x != x:
        return 'n/a'
    return f'{x:.{d}f}'


def read_lines(path):
    p = os.path.join(TOP, path)
    if not os.path.exists(p):
        return []
    with open(p, errors='replace') as fh:
        return fh.read().splitlines()


# ------------------------------------------------------------ parsing

def parse_syscalls(lines):
    """{bench: {slot: [value per round]}}"""
    out = {}
    for line in lines:
        f = line.split()
        if len(f) == 5 and f[0] == 'syscall':
            out.setdefault(f[1], {}).setdefault(f[3], []).append(float(f[4]))
    return out


def parse_kv(lines, tag):
    out = {}
    for line in lines:
        f = line.split()
        if len(f) == 5 and f[0] == tag:
            out.setdefault(f[1], {}).setdefault(f[3], []).append(float(f[4]))
    return out


FIELDS = ['hits_precheck', 'reported', 'suppressed', 'dropped', 'overflow',
          'events', 'journaled', 'dsuppressed', 'dsuppressed_global',
          'ignored', 'lost', 'journal_lost', 'overruns', 'resyncs']


def parse_pipeline(lines):
    rows, taps = [], []
    for line in lines:
        if line.startswith('ok - pipeline') or line.startswith('not ok - pipeline'):
            taps.append(line)
        f = line.split()
        if not f or f[0] != 'pipeline':
            continue
        try:
            scen, sites, trig = f[1], int(f[2]), int(f[3])
            kv = {}
            i = 4
            while i < len(f):
                if f[i] in ('before', 'after'):
                    kv[f[i]] = [int(x) for x in f[i + 1:i + 1 + len(FIELDS)]]
                    i += 1 + len(FIELDS)
                elif f[i] == 'journal':
                    kv['journal'] = [int(f[i + 1]), int(f[i + 2])]
                    i += 3
                elif f[i] == 'cpu':
                    kv['cpu'] = [int(x) for x in f[i + 1:i + 12]]
                    i += 12
                else:
                    kv[f[i]] = int(f[i + 1])
                    i += 2
            d = {k: a - b for k, a, b in zip(FIELDS, kv['after'], kv['before'])}
            # The reset zeroes the kernel's counters: theirs are absolute.
            for k in ('hits_precheck', 'reported', 'suppressed', 'dropped', 'overflow'):
                d[k] = kv['after'][FIELDS.index(k)]
            if 'cpu' in kv:
                c, hz = kv['cpu'], kv.get('hz', 100)
                # ticks -> ns of guest time, i.e. instructions under icount
                d['cpu'] = {'uaccessd': (c[4] - c[0]) * 1e9 / hz,
                            'journald': (c[5] - c[1]) * 1e9 / hz,
                            'kworkers': (c[6] - c[2]) * 1e9 / hz,
                            'busy': (c[7] - c[3]) * 1e9 / hz,
                            'trigger_user': c[8] * 1e3, 'trigger_sys': c[9] * 1e3}
            d.update(scenario=scen, sites=sites, triggers=trig, ns=kv['ns'],
                     trigger_ns=kv['trigger_ns'], chunk=kv['chunk'],
                     journal=kv['journal'][1] - kv['journal'][0])
            rows.append(d)
        except (KeyError, ValueError, IndexError):
            rows.append({'scenario': f[1] if len(f) > 1 else '?', 'broken': line})
    return rows, taps


def parse_stages(lines):
    out = []
    for line in lines:
        f = line.split()
        if len(f) >= 9 and f[0] == 'stage' and f[3] == 'ns':
            out.append({'name': f[1], 'hits': int(f[2]), 'ns': int(f[4]),
                        'reported': int(f[6]), 'dropped': int(f[8]),
                        'extra': ' '.join(f[9:])})
    return out


def parse_soak(lines):
    rows, checks = [], {}
    for line in lines:
        f = line.split()
        if f and f[0] == 'soak' and len(f) >= 15:
            rows.append({'hits': int(f[1]), 'sites': int(f[2]), 'ns': int(f[4]),
                         'counted': int(f[6]), 'reported': int(f[8]),
                         'suppressed': int(f[10]), 'dropped': int(f[12]),
                         'overflow': int(f[14])})
        if f and f[0] == 'soakcheck':
            checks = {f[i]: int(f[i + 1]) for i in range(1, len(f) - 1, 2)}
    return rows, checks


# ------------------------------------------------------------ tables

class Report:
    def __init__(self, manifest):
        self.m = manifest
        self.md = []
        self.ratios = []        # (label, value) printed at the end
        self.goals = []         # (goal, met, measured, cause)
        self.taps = []          # (ok, description)
        self.tables = {}

    def p(self, s=''):
        self.md.append(s)

    def tap(self, ok, desc):
        self.taps.append((bool(ok), desc))

    def cmd(self, key):
        c = self.m.get('commands', {}).get(key)
        if c:
            self.p('Produced by:')
            self.p()
            for line in c if isinstance(c, list) else [c]:
                self.p(f'    {line}')
            self.p()

    # 1 ----------------------------------------------------------------
    def static(self):
        self.p('## 1. Hot-path cost, static (disassembly)')
        self.p()
        self.p('Every inlined pre-access check is a static branch on '
               '`uaccess_kaddr_enabled`: one `__jump_table` entry. '
               '`tests/bench/static_cost.py` finds every entry of that key in '
               '`vmlinux`, then follows both paths in `objdump -d` until they '
               'meet again at the access (or at the code leading to it): '
               '**off** counts the instructions from the patched NOP to there '
               '(NOP included), **on** those from the patched jmp to there when '
               'the check passes (the no-report path: jmp, range test, branch, '
               'jmp back). The helper is the `how` argument of the reporter '
               'call on the other path. Counts are exact, over every site in '
               'the kernel; min / median / max over the sites of a helper.')
        self.p()
        filled = 0
        for st in self.m.get('static', []):
            path = os.path.join(TOP, st['json'])
            if not os.path.exists(path):
                continue
            r = json.load(open(path))
            filled += 1
            self.p(f"### {st['title']}")
            self.p()
            self.p(f"`{r['vmlinux']}`: {r['entries']} jump-table entries of the key, "
                   f"{r['analysed']} pre-access checks analysed"
                   + (f", {len(r['failed'])} others (the fault detector's "
                      f"`uaccess_kaddr_on()` tests in the fixup path, not on any "
                      f"access path: " + ', '.join(sorted({x['function'] for x in r['failed']})) + ')'
                      if r['failed'] else '') + '.')
            if 'compiled_out' in r:
                self.p(f"Compiled out (`{r['compiled_out']}`): "
                       f"{'no' if not r['compiled_out_has_key'] else 'a'} key symbol, "
                       f"{r['compiled_out_entries']} jump-table entries: 0 instructions added.")
            self.p()
            self.p('| helper | sites | off: instructions | on, no report: instructions '
                   '| goal off = 1 NOP, on ≤ 4 | shortest on path | longest on path |')
            self.p('|---|---:|---|---|---|---|---|')
            loops = sum(h.get('loop_entries', 0) for h in r['helpers'])
            for h in r['helpers']:
                off = f"{h['off_min']} / {h['off_median']:g} / {h['off_max']}"
                on = f"{h['on_min']} / {h['on_median']:g} / {h['on_max']}"
                ok_off = h['off_max'] == 1
                ok_on = h['on_max'] <= GOAL_ON
                goal = ('met' if ok_off and ok_on else
                        'off met, on ' + ('met' if ok_on else f"{h['on_max']} > {GOAL_ON}")
                        if ok_off else f"off {h['off_max']} > 1" + ('' if ok_on else f", on {h['on_max']} > {GOAL_ON}"))
                short = '; '.join(h['on_min_site']['on_insns'])
                long_ = '; '.join(h['on_max_site']['on_insns'])
                self.p(f"| {h['helper']} | {h['sites']} | {off} | {on} | {goal} "
                       f"| `{short}` ({h['on_min_site']['function']}) "
                       f"| `{long_}` ({h['on_max_site']['function']}) |")
                if st.get('goals'):
                    self.goals.append((f"static, {st['short']}: {h['helper']} off = 1 NOP",
                                       ok_off, f"off {h['off_min']}..{h['off_max']}", ''))
                    self.goals.append((f"static, {st['short']}: {h['helper']} on ≤ {GOAL_ON}",
                                       ok_on, f"on {h['on_min']}..{h['on_max']}", ''))
                self.ratios.append((f"static {st['short']} {h['helper']}: off {h['off_max']}, on {h['on_max']}", None))
            self.p()
            if loops:
                ex = [x for x in r['sites'] if x.get('loop_entry')]
                self.p(f'{loops} site(s) ({", ".join(sorted({x["function"] for x in ex}))}) have a '
                       '`jmp` right after the NOP into the test of a rotated copy loop that '
                       'jumps back behind it: the loop\'s own entry, which the function has '
                       'without the detector too; it is not counted in **off**.')
                self.p()
            if r.get('functions'):
                self.p('Representative functions, whole: instructions and bytes without '
                       'and with the detector (the difference includes the out-of-line '
                       'report calls and any register allocation change):')
                self.p()
                self.p('| function | helpers | checks | insns out | insns in | bytes out | bytes in | off per check | on per check |')
                self.p('|---|---|---:|---:|---:|---:|---:|---|---|')
                for f in r['functions'][:14]:
                    self.p(f"| `{f['function']}` | {', '.join(f['helpers'])} | {f['checks']} "
                           f"| {f['insns_out']} | {f['insns_in']} | {f['bytes_out']} | {f['bytes_in']} "
                           f"| {', '.join(map(str, f['off']))} | {', '.join(map(str, f['on']))} |")
                self.p()
            self.tap(r['analysed'] > 0 and r['helpers'],
                     f"static ({st['short']}): {r['analysed']} checks analysed over "
                     f"{len(r['helpers'])} helpers")
            self.tap(all(h['off_max'] <= 2 and h['on_max'] <= 8 for h in r['helpers']),
                     f"static ({st['short']}): off ≤ 2 and on ≤ 8 instructions at every check")
        self.tables['static'] = filled
        self.cmd('static')

    # 2 ----------------------------------------------------------------
    def dynamic(self):
        self.p('## 2. Hot-path cost, dynamic (guest instructions)')
        self.p()
        self.p('Guest instructions per call under QEMU `-icount shift=0,sleep=off` '
               '(the guest clock advances 1 ns per instruction), one vCPU. Each '
               'round runs every microbenchmark with the detector off, in report '
               'mode, then off again, switching the mode over netlink in the same '
               'boot; the table gives the median over the rounds and, for the '
               'ratios, median [min, max] of the per-round ratios. report/off '
               'divides by the mean of the two off runs around it; A/A is the '
               'second off run over the first, the noise floor. The unpatched '
               'kernel runs the same program three times per round ("none").')
        self.p()
        runs = self.m.get('syscalls', {})
        det = parse_syscalls(read_lines(runs['patched'])) if 'patched' in runs else {}
        base = parse_syscalls(read_lines(runs['unpatched'])) if 'unpatched' in runs else {}
        title = self.m.get('syscalls_title', '')
        if title:
            self.p(title)
            self.p()
        self.p('| microbenchmark | unpatched | off | report | report − off | report/off | A/A (off/off) | unpatched A/A | off/unpatched | goal report/off ≤ 1.005 |')
        self.p('|---|---:|---:|---:|---:|---|---|---|---|---|')
        rows = 0
        sane = True
        for b in SYSCALL_DESC:
            d = det.get(b, {})
            if not d.get('off') or not d.get('report'):
                continue
            rows += 1
            off, rep, off2 = d['off'], d['report'], d.get('off2', d['off'])
            n = min(len(off), len(rep), len(off2))
            rr = [rep[i] / ((off[i] + off2[i]) / 2) for i in range(n)]
            aa = [off2[i] / off[i] for i in range(n)]
            u = base.get(b, {})
            un = u.get('none', [])
            ua = [u['none2'][i] / un[i] for i in range(min(len(un), len(u.get('none2', []))))]
            ou = med(off) / med(un) if un else None
            met = med(rr) <= GOAL_RATIO
            self.p(f"| {SYSCALL_DESC[b]} | {fmt(med(un), 1) if un else 'n/a'} | {fmt(med(off), 1)} "
                   f"| {fmt(med(rep), 1)} | {fmt(med(rep) - med(off), 1)} "
                   f"| {ratio(med(rr))} [{ratio(min(rr))}, {ratio(max(rr))}] "
                   f"| {ratio(med(aa))} [{ratio(min(aa))}, {ratio(max(aa))}] "
                   f"| {ratio(med(ua)) + f' [{ratio(min(ua))}, {ratio(max(ua))}]' if ua else 'n/a'} "
                   f"| {ratio(ou) if ou else 'n/a'} | {'met' if met else 'NOT met'} |")
            self.ratios.append((f'report/off {b}', med(rr)))
            if ou:
                self.ratios.append((f'off/unpatched {b}', ou))
            self.goals.append((f'dynamic: report/off ≤ {GOAL_RATIO} for {b}', met,
                               f'{med(rr):.4f}', ''))
            if ou and ua:
                inside = min(ua + aa) <= ou <= max(ua + aa)
                self.goals.append((f'dynamic: off/unpatched within the A/A spread for {b}',
                                   inside, f'{ou:.4f} vs A/A [{min(ua + aa):.4f}, {max(ua + aa):.4f}]',
                                   ''))
            sane = sane and 0.9 < med(rr) < 1.2 and 0.9 < med(aa) < 1.1
        self.p()
        self.tables['syscalls'] = rows
        self.tap(rows == len(SYSCALL_DESC), f'syscall microbenchmarks: {rows} of {len(SYSCALL_DESC)} rows')
        self.tap(rows and sane, 'syscall microbenchmarks: report/off and A/A ratios are numbers in (0.9, 1.2)')
        self.cmd('syscalls')

        self.p('### Per uaccess call')
        self.p()
        self.p('The test module calls each helper COUNT times on a valid user '
               'address inside one `write()` (`HELPER user-valid COUNT`): '
               'instructions per call with the detector off and in report mode, '
               'median over the rounds; the difference is what the check adds to '
               'each call of that helper (the static **on** minus **off** path '
               'above, measured).')
        self.p()
        hel = parse_kv(read_lines(self.m.get('helpers', '')), 'helper')
        self.p('| helper (test module trigger) | off | report | added per call | A/A |')
        self.p('|---|---:|---:|---:|---|')
        hrows = 0
        for h, d in hel.items():
            if not d.get('off') or not d.get('report'):
                continue
            hrows += 1
            off, rep, off2 = d['off'], d['report'], d.get('off2', d['off'])
            n = min(len(off), len(off2))
            aa = [off2[i] / off[i] for i in range(n)]
            added = med(rep) - (med(off) + med(off2)) / 2
            self.p(f'| `{h}` | {fmt(med(off), 2)} | {fmt(med(rep), 2)} | {fmt(added, 2)} '
                   f'| {ratio(med(aa))} [{ratio(min(aa))}, {ratio(max(aa))}] |')
            self.ratios.append((f'added instructions per call {h}', added))
        self.p()
        self.tables['helpers'] = hrows
        self.tap(hrows >= 10, f'per-call cost: {hrows} helpers measured')
        self.cmd('helpers')

    # 3 ----------------------------------------------------------------
    def hits(self):
        self.p('## 3. Hit-path cost')
        self.p()
        self.p('Instructions per hit of `__get_user()` on a kernel address, modes '
               'off (the access succeeds silently on a mapped address, or faults '
               'and returns -EFAULT on an unmapped one), count and report (the '
               'kernel\'s default ratelimit, so repeated hits of a known site are '
               'counted as suppressed). "in-kernel loop": COUNT hits in one '
               '`write()`; "one write() per hit": the realistic case of a bug '
               'hit once per system call. Median over the rounds. hits/s '
               'relative = off / mode.')
        self.p()
        hit = parse_kv(read_lines(self.m.get('hits', '')), 'hit')
        self.p('| case | off | count | report | count/off | report/off | hits/s vs off (count, report) | goal ≤ 2x |')
        self.p('|---|---:|---:|---:|---|---|---|---|')
        rows = 0
        for c in HIT_DESC:
            d = hit.get(c)
            if not d or not all(d.get(m) for m in ('off', 'count', 'report')):
                continue
            rows += 1
            o, cn, rp = med(d['off']), med(d['count']), med(d['report'])
            worst = max(cn / o, rp / o)
            met = worst <= GOAL_HIT
            self.p(f'| {HIT_DESC[c]} | {fmt(o, 1)} | {fmt(cn, 1)} | {fmt(rp, 1)} '
                   f'| {ratio(cn / o, 2)} | {ratio(rp / o, 2)} | {ratio(o / cn, 2)}, {ratio(o / rp, 2)} '
                   f"| {'met' if met else 'not met'} |")
            self.ratios.append((f'hit {c} report/off', rp / o))
            self.goals.append((f'hit path: {HIT_DESC[c]}: ≤ {GOAL_HIT}x the unreported path',
                               met, f'count {cn / o:.2f}x, report {rp / o:.2f}x', ''))
        self.p()
        self.tables['hits'] = rows
        self.tap(rows == len(HIT_DESC), f'hit path: {rows} of {len(HIT_DESC)} cases measured in three modes')
        self.cmd('hits')

        soak, chk = parse_soak(read_lines(self.m.get('soak', '')))
        if soak:
            self.p('### Sustained hits')
            self.p()
            self.p('Report mode, the default ratelimit, one `write()` of all the hits '
                   'to sites not hit before (the "sites" file; selecting one site of a '
                   'run of 100 costs up to 500 instructions a hit, so the guest time is '
                   'not a hit-path figure).')
            self.p()
            self.p('| hits | sites | guest instructions | counted | reported | suppressed | dropped | overflow | adds up |')
            self.p('|---:|---:|---:|---:|---:|---:|---:|---:|---|')
            for s in soak:
                adds = s['counted'] == s['hits'] == s['reported'] + s['suppressed'] + s['dropped'] + s['overflow']
                self.p(f"| {s['hits']:,} | {s['sites']:,} | {s['ns']:,} "
                       f"| {s['counted']:,} | {s['reported']:,} | {s['suppressed']:,} | {s['dropped']:,} "
                       f"| {s['overflow']:,} | {'yes' if adds else 'NO'} |")
                self.tap(adds, f"soak: {s['hits']:,} hits over {s['sites']} sites all counted: "
                               f"reported + suppressed + dropped + overflow == hits")
            self.p()
            if chk:
                bound = chk.get('bound', 0)
                ok = (chk.get('lockups', 1) == 0 and chk.get('stalls', 1) == 0 and
                      chk.get('lines', 1 << 30) <= bound)
                self.p(f"Kernel log over the sustained hits: {chk.get('lockups')} soft lockups, "
                       f"{chk.get('stalls')} RCU stalls, {chk.get('lines')} `BUG: uaccess-kaddr:` reports "
                       f"(bound: one per site per ratelimit window, {bound} for this run, "
                       f"{chk.get('secs')} s of guest time).")
                self.p()
                self.goals.append(('1,000,000 hits: no soft lockup, no RCU stall, bounded printk',
                                   ok, f"{chk.get('lockups')} lockups, {chk.get('stalls')} stalls, "
                                   f"{chk.get('lines')} lines ≤ {bound}", ''))
                self.tap(ok, f"soak: no soft lockup, no RCU stall, {chk.get('lines')} report lines "
                             f"≤ {bound}")
                printed = sum(s['reported'] for s in soak)
                self.tap(chk.get('lines') == printed,
                         f"soak: one report in the log per reported hit ({chk.get('lines')} "
                         f"of {printed})")
            self.cmd('soak')

    # 4 ----------------------------------------------------------------
    def pipeline(self):
        self.p('## 4. Event pipeline: kernel → netlink → uaccessd → journald')
        self.p()
        self.p('In the guest (one vCPU: under icount the guest time is then the '
               'instructions executed, by all parts together), systemd-journald (its own rate limit '
               'off) and uaccessd running; the test module makes TRIGGERS hits '
               'cycling over SITES distinct call sites, one per `write()`. '
               'Scenario **flood**: the hits as fast as one process makes them, '
               'the kernel\'s ratelimit off (every hit is an event) and '
               'uaccessd\'s off (every event is journaled). **paced**: the same '
               'with 100 µs of sleep after each hit. **defaults**: as fast as '
               'possible with the kernel\'s (one event per site per 5 s) and '
               'uaccessd\'s (5 per site per minute, 100/s overall) defaults, what '
               'a fuzzer stuck on a bug does. Guest instructions from the first '
               'trigger until uaccessd has received or counted lost every event '
               '(idle time is skipped but counted: the paced rows include their '
               'sleeps, 100,000 instructions each). Accounting, exact: triggers = delivered to '
               'uaccessd + kernel suppressed + dropped (kernel queue full, counted '
               'by the kernel; socket overruns and sequence gaps, counted by '
               'uaccessd) + site-table overflow; delivered = journaled + held back '
               'by uaccessd\'s ratelimit (in its summaries) + ignored.')
        self.p()
        lines = read_lines(self.m.get('pipeline', ''))
        stages = parse_stages(lines)
        if stages:
            self.p('### The cost of one event, stage by stage')
            self.p()
            self.p('One site, the kernel\'s ratelimit off, one hit per `write()` '
                   'followed by `sched_yield()`: on one vCPU the consumers run in '
                   'between, with no idle time, so the guest time of the run is the '
                   'instructions of every part. Each stage adds one consumer to the '
                   'one before: **off** is the detector off (the writes alone); '
                   '**kernel** the hit, the event record (stack trace) and its log '
                   'line, with nobody listening (a `cat /dev/kmsg` runs in the guest, '
                   'as a log reader would); **netlink** adds a listener that only '
                   'reads the events group (the kernel\'s drain builds and multicasts '
                   'each message, with the symbolized stack); **uaccessd** adds '
                   'uaccessd and systemd-journald (which also reads the log lines '
                   'from `/dev/kmsg`).')
            self.p()
            self.p('| stage | hits | guest instructions | per hit | added per event by this stage | events reported | dropped | consumer got |')
            self.p('|---|---:|---:|---:|---:|---:|---:|---|')
            prev = None
            for st in stages:
                per = st['ns'] / st['hits']
                added = per - prev if prev is not None else None
                self.p(f"| {st['name']} | {st['hits']:,} | {st['ns']:,} | {per:,.0f} "
                       f"| {fmt(added) if added is not None else ''} | {st['reported']:,} "
                       f"| {st['dropped']:,} | {st['extra']} |")
                prev = per
                if added is not None:
                    self.ratios.append((f"pipeline stage {st['name']}: instructions added per event", added))
            self.p()
            self.tap(len(stages) == 4, f'pipeline: {len(stages)} stages measured')
        rows, taps = parse_pipeline(lines)
        self.p('| scenario | sites | triggers | delivered | kernel suppressed | dropped: kernel queue | dropped: socket, gaps | overflow | sum = triggers | journaled | uaccessd suppressed | journal entries | guest instr. per trigger | per delivered event |')
        self.p('|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|')
        n = 0
        for r in rows:
            if 'broken' in r:
                self.p(f"| {r['scenario']} | unparsable: `{r['broken'][:80]}` |")
                self.tap(False, 'pipeline: a result line parses')
                continue
            n += 1
            transit = r['lost'] - r['journal_lost'] - r['dropped']
            delivered = r['events']
            total = delivered + r['suppressed'] + r['dropped'] + transit + r['overflow']
            adds = total == r['triggers'] == r['hits_precheck']
            dsup = r['dsuppressed']  # suppressed_global is the part of it the global limit held
            jadds = delivered == r['journaled'] + dsup + r['ignored'] + r['journal_lost']
            self.p(f"| {r['scenario']} | {r['sites']:,} | {r['triggers']:,} | {delivered:,} "
                   f"| {r['suppressed']:,} | {r['dropped']:,} | {transit:,} | {r['overflow']:,} "
                   f"| {'yes' if adds else 'NO: %d' % total} | {r['journaled']:,} | {dsup:,} "
                   f"| {r['journal']:,} | {r['ns'] / r['triggers']:,.0f} "
                   f"| {r['ns'] / delivered if delivered else float('nan'):,.0f} |")
            self.tap(adds, f"pipeline {r['scenario']}, {r['sites']} sites: delivered {delivered} + "
                           f"suppressed {r['suppressed']} + dropped {r['dropped'] + transit} + overflow "
                           f"{r['overflow']} == {r['triggers']} triggers")
            self.tap(jadds, f"pipeline {r['scenario']}, {r['sites']} sites: delivered == journaled + "
                            f"held back by uaccessd ({r['journaled']} + {dsup} + {r['ignored']} + "
                            f"{r['journal_lost']})")
            self.tap(r['journal'] == r['journaled'],
                     f"pipeline {r['scenario']}, {r['sites']} sites: {r['journal']} event entries "
                     f"in the journal, {r['journaled']} journaled by uaccessd")
            self.goals.append((f"pipeline {r['scenario']}, {r['sites']:,} sites: counts add up exactly",
                               adds and jadds and r['journal'] == r['journaled'],
                               f'{total} of {r["triggers"]}; journal {r["journal"]} of {r["journaled"]}', ''))
            if delivered:
                self.ratios.append((f"pipeline {r['scenario']} {r['sites']} sites: instructions per delivered event",
                                    r['ns'] / delivered))
        self.p()
        cpu_rows = [r for r in rows if 'cpu' in r and r.get('events')]
        if cpu_rows:
            self.p('Where the guest instructions go, per event delivered to uaccessd '
                   '(CPU time of each part, sampled by the guest kernel at its tick: '
                   'a few per cent): the process that makes the hits (its system time: '
                   'the hit path, the event record with its stack trace, the printk line), '
                   'the kernel\'s drain work (kworkers: netlink message with the '
                   'symbolized stack, multicast), uaccessd, systemd-journald.')
            self.p()
            self.p('| scenario | sites | hits: user | hits: kernel | drain (kworkers) | uaccessd | journald | all CPUs busy |')
            self.p('|---|---:|---:|---:|---:|---:|---:|---:|')
            for r in cpu_rows:
                c, e = r['cpu'], r['events']
                parts = [c['trigger_user'], c['trigger_sys'], c['kworkers'], c['uaccessd'], c['journald'],
                         c['busy']]
                self.p(f"| {r['scenario']} | {r['sites']:,} | " +
                       ' | '.join(f'{x / e:,.0f}' for x in parts) + ' |')
            self.p()
        for t in taps:
            self.p(f'    {t}')
            self.tap(t.startswith('ok'), t.split(' - ', 1)[1] if ' - ' in t else t)
        if taps:
            self.p()
        self.tables['pipeline'] = n
        self.tap(n >= 3, f'pipeline: {n} rows')
        self.cmd('pipeline')

    # 5 ----------------------------------------------------------------
    def kasan(self):
        self.p('## 5. Against KASAN')
        self.p()
        self.p('The same microbenchmarks on the same configuration plus '
               'kasan.config (generic inline KASAN, KCOV with comparisons, '
               'PREEMPT: the instrumentation syzbot runs, built with gcc like '
               'the others), against the kernel without the patch: median '
               'guest instructions per call.')
        self.p()
        runs = self.m.get('syscalls', {})
        det = parse_syscalls(read_lines(runs['patched'])) if 'patched' in runs else {}
        base = parse_syscalls(read_lines(runs['unpatched'])) if 'unpatched' in runs else {}
        kas = parse_syscalls(read_lines(runs['kasan'])) if 'kasan' in runs else {}
        self.p('| microbenchmark | unpatched | detector, report | KASAN (detector off) | KASAN + detector report | detector / unpatched | KASAN / unpatched |')
        self.p('|---|---:|---:|---:|---:|---|---|')
        rows = 0
        for b in SYSCALL_DESC:
            k = kas.get(b, {})
            d = det.get(b, {})
            u = base.get(b, {})
            ref = med(u['none']) if u.get('none') else med(d.get('off', []))
            if not k.get('off') or not d.get('report'):
                continue
            rows += 1
            self.p(f"| {SYSCALL_DESC[b]} | {fmt(med(u['none']), 1) if u.get('none') else 'n/a'} "
                   f"| {fmt(med(d['report']), 1)} | {fmt(med(k['off']), 1)} | {fmt(med(k.get('report', [])), 1)} "
                   f"| {ratio(med(d['report']) / ref, 3)} | {ratio(med(k['off']) / ref, 3)} |")
            self.ratios.append((f'KASAN/unpatched {b}', med(k['off']) / ref))
        self.p()
        self.tables['kasan'] = rows
        self.tap(rows == len(SYSCALL_DESC), f'KASAN comparison: {rows} rows')
        self.cmd('kasan')

    def goals_table(self):
        self.p('## Goals')
        self.p()
        self.p('| goal | met | measured |')
        self.p('|---|---|---|')
        for g, ok, meas, _ in self.goals:
            self.p(f"| {g} | {'yes' if ok else '**no**'} | {meas} |")
        self.p()
        notes = self.m.get('notes')
        if notes and os.path.exists(os.path.join(TOP, notes)):
            self.p(open(os.path.join(TOP, notes)).read())

    def build(self):
        m = self.m
        self.p(f"# uaccess_kaddr benchmarks{' (smoke)' if m.get('smoke') else ''}")
        self.p()
        self.p(f"{m.get('date', '')}; host: {m.get('host', '')}; {m.get('qemu', '')}.")
        self.p()
        self.p('Kernels:')
        self.p()
        for k in m.get('kernels', []):
            self.p(f'- {k}')
        self.p()
        if m.get('intro'):
            self.p(m['intro'])
            self.p()
        # A run of some sections only (the smoke run, BENCH_PARTS) says so for the others.
        parts = m['parts']
        sections = [('static', self.static, ('static',)),
                    ('syscalls', self.dynamic, ('syscalls', 'helpers')),
                    ('hits', self.hits, ('hits',)),
                    ('pipeline', self.pipeline, ('pipeline',)),
                    ('kasan', self.kasan, ('kasan',))]
        wanted = []
        for name, section, tables in sections:
            if name in parts:
                section()
                wanted += tables
            else:
                self.p(f'## {name}: not run (this run: {" ".join(parts)})')
                self.p()
        self.goals_table()
        self.tap(all(self.tables.get(t) for t in wanted),
                 'the report has all tables filled: ' +
                 ', '.join(f'{k} {v}' for k, v in self.tables.items()))


def main():
    args = sys.argv[1:]
    tap = '--tap' in args
    args = [a for a in args if a != '--tap']
    manifest = json.load(open(args[0]))
    r = Report(manifest)
    r.build()
    out = os.path.join(TOP, manifest['report'])
    with open(out, 'w') as fh:
        fh.write('\n'.join(r.md).rstrip() + '\n')
    if tap:
        for i, (ok, desc) in enumerate(r.taps, 1):
            print(f"{'ok' if ok else 'not ok'} {i} - {desc}")
        print(f'1..{len(r.taps)}')
    else:
        print(f'report: {manifest["report"]}')
        for label, v in r.ratios:
            print(f'  {label}' + (f': {v:.4f}' if isinstance(v, float) else ''))
        met = sum(1 for g in r.goals if g[1])
        print(f'goals: {met} of {len(r.goals)} met')
        for g, ok, meas, _ in r.goals:
            if not ok:
                print(f'  not met: {g}: {meas}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
