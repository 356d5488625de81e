#!/usr/bin/env python3
"""Write the kernel series as complete, upstream-style patches, without a kernel tree.

  series-export.py [--line 6.12] OUTDIR

kernel/patches/series lists each stored patch with the overlay files that the
same change adds (see scripts/kernel-tree.sh).  The overlay files are pure
additions, so each one becomes a "new file" diff (/dev/null -> file) that is
merged, in git's path order, into its patch's diff; the diffstat is redone as
format-patch writes it, from `git apply --numstat --summary` (no tree needed).  OUTDIR gets:

  0000-cover-letter.patch   kernel/patches/cover-letter and the shortlog
  NNNN-*.patch              one mail per series line, subjects [PATCH n/N]
  series                    the patch names in order (quilt reads it)

The result applies with `git am`, `git apply`, `patch -p1` or quilt to the
same Linux 7.3 tree as `make kernel-series` output (which needs build/linux-7.3
and has six lines of context where this keeps the stored patches' three).
With --line 6.12 it writes the LTS backport instead (kernel/backport-6.12/series,
each patch from kernel/backport-6.12/ where the backport has its own version,
else mainline's; a backport's hunks on the overlay files of its own change are
applied to them, as scripts/kernel-tree.sh does), subjects [PATCH 6.12 n/N],
for a Linux 6.12 tree.  kernel/inject (test-only) is never read.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(TOP, 'kernel', 'patches')
BACKPORTS = {'6.12': os.path.join(TOP, 'kernel', 'backport-6.12')}
ZERO_FROM = 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'


def die(msg):
    print(f'series-export.py: {msg}', file=sys.stderr)
    sys.exit(1)


def read_text(path):
    with open(path, encoding='utf-8', errors='surrogateescape', newline='') as fh:
        return fh.read()


def read_series(series_dir):
    entries = []
    for line in read_text(os.path.join(series_dir, 'series')).splitlines():
        line = line.split('#', 1)[0].split()
        if line:
            entries.append((line[0], line[1:]))
    if not entries:
        die(f'{os.path.relpath(series_dir, TOP)}/series lists no patch')
    return entries


def overlay_path(name):
    """Where an overlay entry lives: kernel/overlay/NAME or, for the uapi
    header, NAME from the repository top (as kernel-tree.sh looks it up)."""
    for cand in (os.path.join(TOP, 'kernel', 'overlay', name), os.path.join(TOP, name)):
        if os.path.isfile(cand):
            return cand
    die(f'overlay file {name} not found')


def split_mail(name, text):
    """Headers, message body, diff blocks {path: text} of a stored patch."""
    lines = text.splitlines(keepends=True)
    try:
        blank = lines.index('\n')
    except ValueError:
        die(f'{name}: no blank line after the mail headers')
    headers = []
    for line in lines[:blank]:
        if line[:1] in (' ', '\t') and headers:
            headers[-1] += line
        else:
            headers.append(line)
    rest = lines[blank + 1:]
    try:
        sep = rest.index('---\n')
    except ValueError:
        die(f'{name}: no "---" line after the message')
    body = rest[:sep]
    diff = rest[sep + 1:]
    start = next((i for i, l in enumerate(diff) if l.startswith('diff --git ')), len(diff))
    blocks = {}
    cur = None
    for line in diff[start:]:
        if line.startswith('diff --git '):
            m = re.match(r'diff --git a/(\S+) b/(\S+)$', line.rstrip('\n'))
            if not m:
                die(f'{name}: cannot parse {line.strip()!r}')
            cur = m.group(2)
            if cur in blocks:
                die(f'{name}: {cur} appears twice')
            blocks[cur] = ''
        blocks[cur] += line
    return headers, body, blocks


def new_file_diff(path, data):
    """A git "new file" diff of DATA at PATH, as `git diff` writes it."""
    sha = hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()
    out = [f'diff --git a/{path} b/{path}\n', 'new file mode 100644\n',
           f'index 000000000000..{sha[:12]}\n']
    if not data:
        return ''.join(out)
    text = data.decode('utf-8', errors='surrogateescape')
    noeol = not text.endswith('\n')
    lines = text.split('\n')
    if not noeol:
        lines.pop()
    n = len(lines)
    out += ['--- /dev/null\n', f'+++ b/{path}\n',
            '@@ -0,0 +1 @@\n' if n == 1 else f'@@ -0,0 +1,{n} @@\n']
    out += ['+' + l + '\n' for l in lines]
    if noeol:
        out.append('\\ No newline at end of file\n')
    return ''.join(out)


def git_apply(args, diff, cwd='/'):
    r = subprocess.run(['git', 'apply'] + args + ['-'], input=diff, capture_output=True,
                       text=True, errors='surrogateescape', cwd=cwd)
    if r.returncode != 0:
        die(f'git apply {" ".join(args)}: {r.stderr.strip()}')
    return r.stdout


def scale_linear(it, width, max_change):
    return 1 + it * (width - 1) // max_change if it else 0


def diffstat(diff, width=72):
    """The diffstat that `git format-patch` writes (72 columns, diff.c's
    show_stats()), from `git apply --numstat`, which needs no tree."""
    stats = []
    for line in git_apply(['--numstat'], diff).splitlines():
        add, dele, path = line.split('\t', 2)
        stats.append((int(add), int(dele), path))
    max_len = max(len(p) for _, _, p in stats)
    max_change = max(a + d for a, d, _ in stats)
    number_width = len(str(max_change))
    graph_width, name_width = max_change, max_len
    if name_width + number_width + 6 + graph_width > width:
        if graph_width > width * 3 // 8 - number_width - 6:
            graph_width = max(width * 3 // 8 - number_width - 6, 6)
        if name_width > width - number_width - 6 - graph_width:
            name_width = width - number_width - 6 - graph_width
        else:
            graph_width = width - number_width - 6 - name_width
    out = []
    for add, dele, path in stats:
        prefix, name, room = '', path, name_width
        if len(name) > room:
            prefix, room = '...', max(room - 3, 0)
            name = name[len(name) - room:]
            if '/' in name:
                name = name[name.index('/'):]
        if graph_width <= max_change:
            total = scale_linear(add + dele, graph_width, max_change)
            if total < 2 and add and dele:
                total = 2
            if add < dele:
                g_add = scale_linear(add, graph_width, max_change)
                g_del = total - g_add
            else:
                g_del = scale_linear(dele, graph_width, max_change)
                g_add = total - g_del
        else:
            g_add, g_del = add, dele
        line = f' {prefix}{name}{" " * max(room - len(name), 0)} | {add + dele:{number_width}d}'
        out.append((line + (' ' + '+' * g_add + '-' * g_del if add + dele else '')).rstrip() + '\n')
    files = len(stats)
    adds, dels = sum(a for a, _, _ in stats), sum(d for _, d, _ in stats)
    total = f' {files} file{"s" if files != 1 else ""} changed'
    if adds or not dels:
        total += f', {adds} insertion{"s" if adds != 1 else ""}(+)'
    if dels or not adds:
        total += f', {dels} deletion{"s" if dels != 1 else ""}(-)'
    out.append(total + '\n')
    out += [l + '\n' for l in git_apply(['--summary'], diff).splitlines()]
    return ''.join(out)


def header(headers, key):
    for h in headers:
        if h.lower().startswith(key.lower() + ':'):
            return h.split(':', 1)[1].strip()
    return None


def adapted_overlay(name, path, block):
    """The overlay file PATH with a backport's BLOCK (its hunks on it) applied."""
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(dest))
        shutil.copyfile(overlay_path(path), dest)
        r = subprocess.run(['git', 'apply', '-'], input=block, capture_output=True,
                           text=True, errors='surrogateescape', cwd=tmp)
        if r.returncode != 0:
            die(f'{name}: its hunks on {path} do not apply: {r.stderr.strip()}')
        with open(dest, 'rb') as fh:
            return fh.read()


def main(argv):
    args = argv[1:]
    line = None
    if args[:1] == ['--line'] and len(args) >= 2:
        line = args[1]
        args = args[2:]
        if line not in BACKPORTS:
            die(f'--line {line}: no such backport (have: {", ".join(BACKPORTS)})')
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    series_dir = BACKPORTS[line] if line else PATCHES
    patch_dirs = [series_dir, PATCHES] if line else [PATCHES]
    prefix = f'PATCH {line}' if line else 'PATCH'
    entries = read_series(series_dir)
    total = len(entries)
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith('.patch') or f == 'series':
            os.unlink(os.path.join(out, f))

    shortlog, authors = [], []
    for n, (name, files) in enumerate(entries, 1):
        path = next((os.path.join(d, name) for d in patch_dirs
                     if os.path.isfile(os.path.join(d, name))), None)
        if not path:
            die(f'{name}: listed in series but missing')
        headers, body, blocks = split_mail(name, read_text(path))
        for f in files:
            if f in blocks and not line:
                die(f'{name}: {f} is both in the diff and an overlay file')
            if f in blocks:
                data = adapted_overlay(name, f, blocks[f])
            else:
                with open(overlay_path(f), 'rb') as fh:
                    data = fh.read()
            blocks[f] = new_file_diff(f, data)
        if not blocks:
            die(f'{name}: changes nothing')
        diff = ''.join(blocks[p] for p in sorted(blocks))

        subject = header(headers, 'Subject')
        author = header(headers, 'From')
        if not subject or not author:
            die(f'{name}: no Subject or From header')
        title = re.sub(r'^\[PATCH[^\]]*\]\s*', '', subject)
        shortlog.append(title)
        authors.append(author)
        mail = [ZERO_FROM]
        for h in headers:
            if h.lower().startswith('subject:'):
                h = f'Subject: [{prefix} {n}/{total}] {title}\n'
            mail.append(h)
        mail += ['\n'] + body + ['---\n', diffstat(diff), '\n', diff]
        with open(os.path.join(out, name), 'w', encoding='utf-8',
                  errors='surrogateescape', newline='') as fh:
            fh.write(''.join(mail))

    cover_path = os.path.join(series_dir, 'cover-letter')
    cover = read_text(cover_path).split('\n', 2)
    if len(cover) < 3 or not cover[0].strip() or cover[1].strip():
        die(f'{os.path.relpath(cover_path, TOP)}: want a subject line, a blank line, the text')
    who = authors[0].split('<')[0].strip() if len(set(authors)) == 1 else 'Various authors'
    letter = [ZERO_FROM, f'From: {authors[0]}\n',
              f'Subject: [{prefix} 0/{total}] {cover[0].strip()}\n', '\n',
              cover[2].strip() + '\n', '\n', f'{who} ({total}):\n']
    letter += [f'  {t}\n' for t in shortlog]
    with open(os.path.join(out, '0000-cover-letter.patch'), 'w', encoding='utf-8') as fh:
        fh.write(''.join(letter))
    with open(os.path.join(out, 'series'), 'w', encoding='utf-8') as fh:
        fh.write(''.join(name + '\n' for name, _ in entries))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
