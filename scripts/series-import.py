#!/usr/bin/env python3
"""Developer tool: rewrite kernel/patches from a git branch of the kernel tree.

    scripts/series-import.py TREE BASE..BRANCH

TREE is a kernel git tree (e.g. a worktree of build/linux) where the
series was reshaped with ordinary git (rebase, commit --fixup ...); BASE
is the pristine kernel commit (scripts/kernel-tree.sh base).  Each commit
becomes one patch of kernel/patches/series, in order.  The new series file
must already list, for each patch, its file name and the overlay files that
the patch adds: those are copied whole into kernel/overlay/ (or
include/uapi/ at the top), and the patch keeps the diff of everything else.

An overlay file is laid into the tree whole at its patch: a later commit
that changes it is refused, since the series could not express it.
"""

import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(tree, *args):
    return subprocess.run(['git', '-C', tree, '-c', 'diff.suppressBlankEmpty=true',
                           *args], check=True, capture_output=True,
                          text=True).stdout


def read_series():
    entries = []
    with open(os.path.join(TOP, 'kernel/patches/series'), encoding='utf-8') as fh:
        for line in fh:
            line = line.split('#', 1)[0].split()
            if line:
                entries.append((line[0], line[1:]))
    return entries


def overlay_dest(path):
    if path.startswith('include/uapi/'):
        return os.path.join(TOP, path)
    return os.path.join(TOP, 'kernel/overlay', path)


def main():
    if len(sys.argv) != 3 or '..' not in sys.argv[2]:
        sys.exit(__doc__)
    tree, rng = sys.argv[1], sys.argv[2]
    commits = git(tree, 'rev-list', '--reverse', rng).split()
    series = read_series()
    if len(commits) != len(series):
        sys.exit(f'{len(commits)} commits but {len(series)} patches in the series')
    overlay_owner = {}
    for n, (commit, (name, overlay)) in enumerate(zip(commits, series), 1):
        for path in overlay:
            overlay_owner[path] = n
        changed = git(tree, 'diff', '--name-only', f'{commit}~1', commit).split()
        for path in changed:
            owner = overlay_owner.get(path)
            if owner is not None and owner != n:
                sys.exit(f'patch {n} ({name}) changes {path}, an overlay file of patch {owner}')
        for path in overlay:
            if path not in changed:
                sys.exit(f'patch {n} ({name}) lists {path} but does not add it')
        excludes = [f':(exclude){p}' for p in overlay]
        diff = git(tree, 'diff', f'{commit}~1', commit, '--', '.', *excludes)
        stat = subprocess.run(['git', 'apply', '--stat'], input=diff, check=True,
                              capture_output=True, text=True).stdout if diff else ''
        stat = '\n'.join(line.rstrip() for line in stat.split('\n'))
        author = git(tree, 'log', '-1', '--format=%an <%ae>', commit).strip()
        subject = git(tree, 'log', '-1', '--format=%s', commit).strip()
        body = git(tree, 'log', '-1', '--format=%b', commit).strip('\n')
        with open(os.path.join(TOP, 'kernel/patches', name), 'w', encoding='utf-8') as fh:
            fh.write(f'From: {author}\nSubject: [PATCH] {subject}\n\n{body}\n---\n')
            fh.write(stat + ('\n' if stat and not stat.endswith('\n') else ''))
            fh.write(diff)
        for path in overlay:
            content = git(tree, 'show', f'{commit}:{path}')
            dest = overlay_dest(path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, 'w', encoding='utf-8') as fh:
                fh.write(content)
        print(f'{n:2} {name}: {len(overlay)} overlay files, {diff.count(chr(10))} diff lines')


if __name__ == '__main__':
    main()
