#!/usr/bin/env python3
"""The unchecked primitives left without a pre-access check are safe only
while every caller checks the pointer first: list their callers.

  unhooked_callers.py TREE...

For each patched kernel tree (build/linux-7.3, build/linux-6.12), every
call of such a primitive outside its own file must sit in a function that
calls access_ok() before it.  A new caller without one would be a path the
detector cannot see before the access: the hook decision has to be made
again.  Prints TAP lines.
"""

import os
import re
import subprocess
import sys

# primitive: (the file that defines it, why it has no check of its own)
UNHOOKED = {
    'copy_mc_to_user': ('arch/x86/lib/copy_mc.c',
                        'out of line: a check inside would name it as every call site'),
}


def callers(tree, name, home):
    """(path, line number) of each call of NAME in C files, outside HOME and headers."""
    out = subprocess.run(['grep', '-rn', '--include=*.c', rf'\b{name}(', 'arch/x86', 'lib', 'mm',
                          'fs', 'kernel', 'drivers', 'net'],
                         cwd=tree, capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, num, _ = line.split(':', 2)
        if path != home and not path.startswith('mm/uaccess_kaddr/'):
            yield path, int(num)


def function_before(tree, path, num):
    """The lines of the function around line NUM, up to NUM."""
    with open(os.path.join(tree, path), encoding='utf-8', errors='replace') as fh:
        lines = fh.read().split('\n')[:num]
    start = max(i for i, l in enumerate(lines) if re.match(r'^[a-zA-Z].*\(', l) or l == '{')
    return lines[start:]


def main():
    failed = 0
    n = 0
    for tree in sys.argv[1:]:
        if not os.path.isdir(tree):
            continue
        for name, (home, why) in UNHOOKED.items():
            found = list(callers(tree, name, home))
            n += 1
            ok = bool(found)
            print(f'{"ok" if ok else "not ok"} {n} - {tree}: {name} ({why}) has callers: '
                  + ', '.join(f'{p}:{l}' for p, l in found))
            failed += not ok
            for path, num in found:
                n += 1
                body = function_before(tree, path, num)
                ok = any('access_ok(' in l for l in body)
                print(f'{"ok" if ok else "not ok"} {n} - {tree}: {path}:{num} checks '
                      f'access_ok() before {name}()')
                failed += not ok
    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
