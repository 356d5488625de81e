#!/usr/bin/env python3
"""Static hot-path cost of the uaccess_kaddr pre-access check, from vmlinux.

    static_cost.py [--json OUT] [--label NAME] VMLINUX [COMPILED_OUT_VMLINUX]

Every inlined check is a static branch on `uaccess_kaddr_enabled`: one
`__jump_table` entry whose code address is the patched instruction (a NOP
while the key is off, a jmp to the entry's target while it is on).  For each
entry of that key this walks the disassembly (objdump -d) along both paths
until they meet again, at the instruction the helper runs next either way
(the join: the access, or the code leading to it):

  off  the instructions from the patched NOP to the join, NOP included
       (with -Os, GCC puts the check inline and jumps over it: NOP + jmp);
  on   the instructions from the patched jmp to the join when the check
       passes (no report): the jmp, the range test, the jumps back.

The report path (the branch that reaches `call __uaccess_kaddr_precheck*`)
gives the helper: the `how` argument in %edx, UACCESS_KADDR_HOW(helper,
direction).  With a second vmlinux built without the detector the script
also compares whole functions (instructions, bytes) and counts the key's
entries there (none).
"""
import argparse
import bisect
import collections
import json
import os
import re
import statistics
import struct
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
UAPI = os.path.join(TOP, 'include', 'uapi', 'linux', 'uaccess_kaddr.h')
KEY = 'uaccess_kaddr_enabled'
PRECHECK = ('__uaccess_kaddr_precheck', '__uaccess_kaddr_precheck_ac')
# Representative functions shown one by one, when the kernel has them.
REPRESENTATIVE = [
    '_copy_to_user', '_copy_from_user', 'iov_iter_zero', 'zero_to_user_iter',
    'copy_to_user_iter', 'copy_from_user_iter', 'futex_wait_setup',
    'futex_get_value_locked', 'get_futex_value_locked', 'put_cmsg',
    'filldir64', 'filldir', '__do_sys_waitid', 'do_sys_poll', 'cp_new_stat',
    'restore_sigcontext', '__setup_rt_frame', 'x64_setup_rt_frame',
    'strncpy_from_user', 'copy_from_user_nmi', 'rseq_ip_fixup',
]

JCC = re.compile(r'^j(?!mp)[a-z]+$')


def helper_names():
    names = {}
    text = open(UAPI).read()
    body = re.search(r'UACCESS_KADDR_HELPER_GET_USER = 1,(.*?)\}', text, re.S)
    n = 1
    names[1] = 'GET_USER'
    for m in re.finditer(r'UACCESS_KADDR_HELPER_([A-Z_]+),', body.group(1)):
        n += 1
        names[n] = m.group(1)
    return names


def dir_name(d):
    return {1: 'from-user', 2: 'to-user', 3: 'both'}.get(d, str(d))


class Image:
    def __init__(self, path):
        self.path = path
        self.syms = {}
        out = subprocess.run(['nm', '-n', path], capture_output=True,
                             text=True, check=True).stdout
        funcs = []
        for line in out.splitlines():
            f = line.split()
            if len(f) < 3:
                continue
            addr, typ, name = int(f[0], 16), f[1], f[2]
            self.syms.setdefault(name, addr)
            if typ in 'tT':
                funcs.append((addr, name))
        funcs.sort()
        self.func_addrs = [a for a, _ in funcs]
        self.func_names = [n for _, n in funcs]
        self.insns = {}
        self.order = []
        self.func_of = {}
        self._disassemble()

    def _disassemble(self):
        proc = subprocess.Popen(['objdump', '-d', '--no-show-raw-insn', '-j',
                                 '.text', '-M', 'att', self.path],
                                stdout=subprocess.PIPE, text=True)
        func = None
        line_re = re.compile(r'^\s*([0-9a-f]+):\t(\S+)\s*(.*)$')
        head_re = re.compile(r'^([0-9a-f]+) <(.+)>:$')
        for line in proc.stdout:
            m = line_re.match(line)
            if m:
                addr = int(m.group(1), 16)
                mnem, ops = m.group(2), m.group(3).split('#')[0].strip()
                if mnem in ('cs', 'ds', 'notrack', 'bnd', 'rex', 'lock',
                            'rep', 'repz', 'repnz') and ops:
                    parts = ops.split(None, 1)
                    mnem = mnem + ' ' + parts[0]
                    ops = parts[1] if len(parts) > 1 else ''
                self.insns[addr] = (mnem, ops)
                self.order.append(addr)
                self.func_of[addr] = func
                continue
            m = head_re.match(line.strip())
            if m:
                func = m.group(2)
        proc.wait()
        self.index = {a: i for i, a in enumerate(self.order)}

    def next_addr(self, addr):
        i = self.index[addr] + 1
        return self.order[i] if i < len(self.order) else None

    def function(self, addr):
        i = bisect.bisect_right(self.func_addrs, addr) - 1
        return self.func_names[i] if i >= 0 else '?'

    def function_insns(self, name):
        """The instructions of function @name, as (mnemonic, operands)."""
        if name not in self.syms:
            return None
        start = self.syms[name]
        if start not in self.index:
            return None
        i = self.func_addrs.index(start) if start in self.func_addrs else None
        end = self.func_addrs[i + 1] if i is not None and i + 1 < len(self.func_addrs) else None
        out = []
        j = self.index[start]
        while j < len(self.order) and (end is None or self.order[j] < end):
            out.append(self.insns[self.order[j]])
            j += 1
        return out, (end - start if end else 0)

    def jump_entries(self, key_name):
        """(code, target) of every __jump_table entry of @key_name."""
        if key_name not in self.syms:
            return []
        start = self.syms['__start___jump_table']
        stop = self.syms['__stop___jump_table']
        key = self.syms[key_name]
        out = subprocess.run(['readelf', '-SW', self.path], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            if ']' not in line:
                continue
            f = line.split(']', 1)[1].split()
            if len(f) < 5 or f[1] != 'PROGBITS':
                continue
            addr, off, size = int(f[2], 16), int(f[3], 16), int(f[4], 16)
            if addr <= start < addr + size:
                break
        else:
            raise SystemExit('static_cost.py: __jump_table not found')
        with open(self.path, 'rb') as fh:
            fh.seek(off + start - addr)
            data = fh.read(stop - start)
        entries = []
        for i in range(0, len(data), 16):
            code, target, k = struct.unpack_from('<iiq', data, i)
            ea = start + i
            kk = (ea + 8 + k) & 0xffffffffffffffff
            if kk & ~3 == key:
                entries.append((ea + code, ea + 4 + target, kk & 1))
        return entries


def branch_target(ops):
    m = re.match(r'^([0-9a-f]+)\b', ops)
    return int(m.group(1), 16) if m else None


def call_name(ops):
    m = re.search(r'<([^>+]+)', ops)
    return m.group(1) if m else None


def reaches_report(img, addr, limit=10):
    """Does straight-line code from @addr call the reporter?  Returns the
    `how` immediate when it does, True if it does without one, else None."""
    how = None
    for _ in range(limit):
        if addr is None or addr not in img.insns:
            return None
        mnem, ops = img.insns[addr]
        m = re.match(r'^\$0x([0-9a-f]+),%edx$', ops)
        if mnem == 'mov' and m:
            how = int(m.group(1), 16)
        if mnem == 'call':
            return (how if how is not None else True) if call_name(ops) in PRECHECK else None
        if mnem == 'jmp':
            addr = branch_target(ops)
            continue
        if JCC.match(mnem) or mnem.startswith('ret'):
            return None
        addr = img.next_addr(addr)
    return None


def off_path(img, code, limit=64):
    """Addresses from the patched NOP on, following unconditional jumps."""
    path, addr = [], code
    while addr is not None and len(path) < limit and addr in img.insns:
        path.append(addr)
        mnem, ops = img.insns[addr]
        if addr != code and mnem == 'jmp':
            t = branch_target(ops)
            if t is None:
                break
            addr = t
            continue
        if mnem.startswith('ret') or (mnem == 'jmp' and addr != code):
            break
        addr = img.next_addr(addr)
    return path


def analyse_site(img, code, target):
    off = off_path(img, code)
    where = {}
    for i, a in enumerate(off):		# the first time round a loop
        where.setdefault(a, i)
    on = [code]		# the patched instruction, a jmp when the key is on
    how = None
    addr = target
    seen = set()
    while addr is not None and addr not in where:
        if addr in seen or len(on) > 64 or addr not in img.insns:
            return None
        seen.add(addr)
        mnem, ops = img.insns[addr]
        on.append(addr)
        if mnem == 'jmp':
            addr = branch_target(ops)
            continue
        if JCC.match(mnem):
            taken, fall = branch_target(ops), img.next_addr(addr)
            rt, rf = reaches_report(img, taken), reaches_report(img, fall)
            if rt is not None and rf is None:
                how, addr = rt, fall
            elif rf is not None and rt is None:
                how, addr = rf, taken
            else:
                return None
            continue
        if mnem == 'call' or mnem.startswith('ret'):
            return None
        addr = img.next_addr(addr)
    if addr is None:
        return None
    join = where[addr]
    # A jump from the NOP into a rotated loop's test, which jumps back right
    # behind it: the loop's own entry, there without the check too.
    loop_entry = False
    if join == 2 and img.insns[off[1]][0] == 'jmp':
        after = img.next_addr(off[1])
        a = off[2]
        for _ in range(6):
            if a is None or a not in img.insns:
                break
            mnem, ops = img.insns[a]
            if JCC.match(mnem) and branch_target(ops) == after:
                loop_entry = True
                break
            if mnem in ('jmp', 'call') or mnem.startswith('ret'):
                break
            a = img.next_addr(a)
    return {
        'code': code,
        'function': img.function(code),
        'how': how if isinstance(how, int) else None,
        'off_path': join,		# off[0] .. off[join - 1]
        'loop_entry': loop_entry,
        'off': join - (1 if loop_entry else 0),
        'on': len(on),
        'off_insns': [' '.join(img.insns[a]).strip() for a in off[:join]],
        'on_insns': ['jmp (patched)'] + [' '.join(img.insns[a]).strip() for a in on[1:]],
    }


def norm(insn):
    mnem, ops = insn
    ops = re.sub(r'\b[0-9a-f]{16}\b <[^>]*>', 'ADDR', ops)
    ops = re.sub(r'\b[0-9a-f]{6,}\b', 'ADDR', ops)
    return mnem + ' ' + ops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--json')
    ap.add_argument('--label', default='')
    ap.add_argument('vmlinux')
    ap.add_argument('compiled_out', nargs='?')
    args = ap.parse_args()
    names = helper_names()

    img = Image(args.vmlinux)
    entries = img.jump_entries(KEY)
    sites, failed = [], []
    for code, target, branch in entries:
        s = analyse_site(img, code, target)
        if s is None:
            failed.append({'code': code, 'function': img.function(code)})
            continue
        how = s['how']
        s['helper'] = names.get(how & 0xff, '?') if how is not None else '?'
        s['direction'] = dir_name(how >> 8) if how is not None else '?'
        sites.append(s)

    per = collections.OrderedDict()
    for s in sorted(sites, key=lambda s: (s['how'] or 0)):
        per.setdefault(s['helper'], []).append(s)
    helpers = []
    for h, ss in per.items():
        offs = [s['off'] for s in ss]
        ons = [s['on'] for s in ss]
        funcs = collections.Counter(s['function'] for s in ss)
        helpers.append({
            'helper': h, 'sites': len(ss),
            'loop_entries': sum(1 for s in ss if s['loop_entry']),
            'off_min': min(offs), 'off_median': statistics.median(offs),
            'off_max': max(offs),
            'on_min': min(ons), 'on_median': statistics.median(ons),
            'on_max': max(ons),
            'on_max_site': max(ss, key=lambda s: s['on']),
            'on_min_site': min(ss, key=lambda s: s['on']),
            'functions': funcs.most_common(4),
        })

    result = {
        'label': args.label,
        'vmlinux': os.path.relpath(args.vmlinux, TOP),
        'entries': len(entries),
        'analysed': len(sites),
        'failed': failed,
        'helpers': helpers,
        'sites': sites,
    }

    if args.compiled_out:
        out = Image(args.compiled_out)
        result['compiled_out'] = os.path.relpath(args.compiled_out, TOP)
        result['compiled_out_entries'] = len(out.jump_entries(KEY))
        result['compiled_out_has_key'] = KEY in out.syms
        rows = []
        seen = set()
        wanted = [f for f in REPRESENTATIVE]
        wanted += [f for h in helpers for f, _ in h['functions']]
        for f in wanted:
            if f in seen:
                continue
            seen.add(f)
            a, b = out.function_insns(f), img.function_insns(f)
            if not a or not b:
                continue
            fs = [s for s in sites if s['function'] == f]
            if not fs:
                continue
            rows.append({
                'function': f,
                'helpers': sorted({s['helper'] for s in fs}),
                'checks': len(fs),
                'insns_out': len(a[0]), 'bytes_out': a[1],
                'insns_in': len(b[0]), 'bytes_in': b[1],
                'off': [s['off'] for s in fs], 'on': [s['on'] for s in fs],
            })
        result['functions'] = rows

    if args.json:
        with open(args.json, 'w') as fh:
            json.dump(result, fh, indent=1, default=str)
    print(f'{args.vmlinux}: {len(entries)} checks, {len(sites)} analysed, '
          f'{len(failed)} not understood')
    for h in helpers:
        print(f"  {h['helper']:<20} {h['sites']:4} sites  off {h['off_min']}..{h['off_max']}"
              f"  on {h['on_min']}..{h['on_max']} (median {h['on_median']})")
    for f in failed[:10]:
        print(f"  not understood: {f['function']} at {f['code']:#x}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
