#!/usr/bin/env python3
"""site_hash.py MODULE.ko [SHIFT [PROBES]]: how the site table's slot hashes
spread a module's call sites.

Every return address of a call to __uaccess_kaddr_precheck*() in the
module's .text is a site key (the test module's "sites" trigger has
10,000).  For a few module load addresses, the keys are inserted into a
table of 2^SHIFT slots with linear probing, as mm/uaccess_kaddr/core.c
does, once with hash_long() (the first version) and once with the
MurmurHash3 finalizer (uk_site_slot()); printed: sites left without a slot
within PROBES probes, the longest probe sequence needed, the mean.
"""
import subprocess
import sys

MASK = (1 << 64) - 1
GOLDEN_RATIO_64 = 0x61C8864680B583EB
# kind precheck, helper get_user, direction from user: the key's low bits
KEY = 3 | 1 << 8 | 1 << 16
BASES = (0xffffffffc0000000, 0xffffffffc01a7000, 0xffffffffc0225000,
         0xffffffffa0003000)


def hash_long(x):
    return (x * GOLDEN_RATIO_64) & MASK


def finalizer(x):
    x ^= x >> 33
    x = (x * 0xff51afd7ed558ccd) & MASK
    x ^= x >> 33
    x = (x * 0xc4ceb9fe1a85ec53) & MASK
    x ^= x >> 33
    return x


def call_sites(ko):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-r', '-j', '.text', ko],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    rets = []
    for i, line in enumerate(out):
        if 'R_X86_64_PLT32' in line and '__uaccess_kaddr_precheck' in line:
            nxt = out[i + 1].split(':', 1)[0].strip()
            rets.append(int(nxt, 16))
    return rets


def fill(rets, base, fn, shift, probes):
    slots = 1 << shift
    table = bytearray(slots)
    over = longest = total = 0
    for r in rets:
        h = fn(((base + r) & MASK) ^ KEY) >> (64 - shift)
        for i in range(probes):
            n = (h + i) & (slots - 1)
            if not table[n]:
                table[n] = 1
                longest = max(longest, i + 1)
                total += i + 1
                break
        else:
            over += 1
    return over, longest, total / max(1, len(rets) - over)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    shift = int(sys.argv[2]) if len(sys.argv) > 2 else 14
    probes = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    rets = call_sites(sys.argv[1])
    if not rets:
        sys.exit(f'{sys.argv[1]}: no call to __uaccess_kaddr_precheck*()')
    print(f'{len(rets)} call sites, 2^{shift} slots, {probes} probes')
    print('| module base | hash | no slot | longest probe | mean probes |')
    print('|---|---|---:|---:|---:|')
    for base in BASES:
        for name, fn in (('hash_long', hash_long), ('finalizer', finalizer)):
            over, longest, mean = fill(rets, base, fn, shift, probes)
            print(f'| {base:#x} | {name} | {over} | {longest} | {mean:.2f} |')


if __name__ == '__main__':
    main()
