#!/usr/bin/env python3
"""The YAML spec, the uapi header and the hand-written family must agree.

  spec_check.py KERNEL_TREE

KERNEL_TREE is the patched mainline tree (build/linux-7.3): its YNL C
generator (tools/net/ynl/pyynl/ynl_gen_c.py; ynl-gen-c.py in 6.12) regenerates
the uapi header and the kernel policies from the spec.  Prints TAP lines.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = 'Documentation/netlink/specs/uaccess_kaddr.yaml'
HEADER = os.path.join(TOP, 'include/uapi/linux/uaccess_kaddr.h')
NETLINK_C = os.path.join(TOP, 'kernel/overlay/mm/uaccess_kaddr/netlink.c')
SPEC_SRC = os.path.join(TOP, 'kernel/overlay', SPEC)

failed = 0


def tap(ok, desc, why=''):
    global failed
    if ok:
        print(f'ok - {desc}')
    else:
        failed += 1
        print(f'not ok - {desc}' + (f': {why}' if why else ''))


def generate(tree, mode, out):
    gen = next((g for g in ('tools/net/ynl/pyynl/ynl_gen_c.py', 'tools/net/ynl/ynl-gen-c.py')
                if os.path.isfile(os.path.join(tree, g))), None)
    if gen is None:
        return False, f'{tree} has no YNL C generator'
    cmd = [sys.executable, gen, '--mode', mode, '--spec', SPEC, '-o', out]
    cmd.append('--header' if out.endswith('.h') else '--source')
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, timeout=120)
    return r.returncode == 0, r.stderr.strip()


def header_enums(text):
    """Map every enumerator of the header to its value."""
    values = {}
    for body in re.findall(r'enum\s*\w*\s*\{(.*?)\};', text, re.S):
        nxt = 0
        for item in body.split(','):
            item = re.sub(r'/\*.*?\*/', '', item, flags=re.S).strip()
            if not item:
                continue
            m = re.match(r'(\w+)\s*(?:=\s*(.+))?$', item)
            if not m:
                continue
            name, expr = m.groups()
            if expr is not None:
                expr = re.sub(r'\b([A-Z_][A-Z0-9_]*)\b',
                              lambda x: str(values.get(x.group(1), x.group(1))), expr)
                nxt = int(eval(expr, {}))  # only numbers and operators remain
            values[name] = nxt
            nxt += 1
    return values


def policy_ranges(text, array_name_re, enums):
    """{attribute: (min, max)} of the NLA_POLICY_*RANGE entries of a policy."""
    m = re.search(array_name_re + r'\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};', text, re.S)
    if not m:
        return None
    body = m.group(1)
    ranges = {}

    def num(tok):
        tok = tok.strip().rstrip('ULL').rstrip('ull')
        return enums[tok] if tok in enums else int(tok, 0)

    for attr, expr in re.findall(r'\[(\w+)\]\s*=\s*(NLA_POLICY_\w+\([^;]*?\)),', body, re.S):
        expr = ' '.join(expr.split())
        r = re.match(r'NLA_POLICY_RANGE\(\w+, ([^,]+), ([^)]+)\)', expr)
        if r:
            ranges[attr] = (num(r.group(1)), num(r.group(2)))
            continue
        r = re.match(r'NLA_POLICY_FULL_RANGE\(\w+, &(\w+)\)', expr)
        if r:
            s = re.search(r'\b' + r.group(1) + r'\s*=\s*\{(.*?)\};', text, re.S).group(1)
            lo = re.search(r'\.min\s*=\s*([\w]+)', s).group(1)
            hi = re.search(r'\.max\s*=\s*([\w]+)', s).group(1)
            ranges[attr] = (num(lo), num(hi))
    return ranges


def ops_of_c(text):
    ops = {}
    for block in re.findall(r'\{([^{}]*\.cmd\s*=[^{}]*)\}', text, re.S):
        cmd = re.search(r'\.cmd\s*=\s*(\w+)', block).group(1)
        flags = re.search(r'\.flags\s*=\s*([^,]+),', block)
        ops[cmd] = set(f.strip() for f in flags.group(1).split('|')) if flags else set()
    return ops


def main(tree):
    with tempfile.TemporaryDirectory() as tmp:
        gen_h = os.path.join(tmp, 'uapi.h')
        gen_c = os.path.join(tmp, 'kernel.c')
        ok, err = generate(tree, 'uapi', gen_h)
        tap(ok, 'ynl-gen-c generates the uapi header from the spec', err)
        if ok:
            same = open(gen_h).read() == open(HEADER).read()
            tap(same, 'include/uapi/linux/uaccess_kaddr.h is what the spec generates',
                'run ynl-gen-c.py --mode uapi --header and commit its output')
        ok, err = generate(tree, 'kernel', gen_c)
        tap(ok, 'ynl-gen-c generates the kernel policies from the spec', err)
        generated = open(gen_c).read() if ok else ''

    tree_spec = os.path.join(tree, SPEC)
    tap(os.path.exists(tree_spec) and open(tree_spec).read() == open(SPEC_SRC).read(),
        'the tree carries the committed spec')

    header = open(HEADER).read()
    enums = header_enums(header)
    c = open(NETLINK_C).read()
    want = policy_ranges(generated, r'uaccess_kaddr_set_config_nl_policy', enums) or {}
    got = policy_ranges(c, r'uk_nl_set_config_policy', enums)
    tap(bool(want), 'the spec gives set-config attribute checks', 'none found')
    tap(got == want, 'set-config policy in netlink.c matches the spec',
        f'spec {want}, netlink.c {got}')

    spec = yaml.safe_load(open(SPEC_SRC))
    cops = ops_of_c(c)
    for op in spec['operations']['list']:
        name = op['name']
        cmd = 'UACCESS_KADDR_CMD_' + name.upper().replace('-', '_')
        if 'notify' in op or 'event' in op:
            tap(cmd not in cops, f'{name}: a notification, not a request op')
            continue
        flags = cops.get(cmd)
        tap(flags is not None, f'{name}: netlink.c has the op')
        if flags is None:
            continue
        admin = 'admin-perm' in op.get('flags', [])
        tap(('GENL_ADMIN_PERM' in flags) == admin,
            f'{name}: GENL_ADMIN_PERM {"set" if admin else "not set"} as in the spec',
            f'flags {sorted(flags)}')
        for kind, cap in (('do', 'GENL_CMD_CAP_DO'), ('dump', 'GENL_CMD_CAP_DUMP')):
            tap((kind in op) == (cap in flags), f'{name}: {kind} as in the spec',
                f'flags {sorted(flags)}')

    groups = [g['name'] for g in spec.get('mcast-groups', {}).get('list', [])]
    tap(groups == ['events'], 'the spec has the one multicast group "events"', str(groups))
    tap(re.search(r'\.name\s*=\s*UACCESS_KADDR_MCGRP_EVENTS,\s*\.flags\s*=\s*GENL_MCAST_CAP_SYS_ADMIN',
                  c) is not None, 'the events group requires CAP_SYS_ADMIN')
    tap(re.search(r'\.netnsok\s*=\s*false', c) is not None,
        'the family lives in the initial network namespace only')
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
    sys.exit(0)
