#!/usr/bin/env python3
"""layout.py [TREE]: the daemon's folders keep their promises (TAP).

  daemon/common/      includes only its own headers; no sd-event, no
                      sd-daemon, no journal writing (both programs link it)
  daemon/uaccessd/    includes only common/ and its own headers
  daemon/uaccessctl/  the same
  tests/unit/PART/    includes the headers of PART and common/ only (it is
                      linked with PART's library alone); tests/support/ is
                      shared and includes common/ only
  and no source file there is one git ignores (it would build here and be
  missing from a clone); a function named uk_time_* is defined in the time
  file, uk_query_* in the query file, and so on (NAME_HOMES)

A rule's violations are listed under its "not ok" line.  The checker first
runs on small trees made to break each rule, so that a checker that cannot
fail does not pass.
"""
import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Whatever is only for the daemon's event loop or writes the journal.
COMMON_BANNED_HEADERS = ('systemd/sd-event.h', 'systemd/sd-daemon.h',
                         'systemd/sd-journal.h')
COMMON_BANNED_CALLS = re.compile(r'\b(sd_journal_send\w*|sd_journal_print\w*|'
                                 r'sd_event_\w+|sd_notify\w*)\s*\(')
PARTS = ('common', 'uaccessd', 'uaccessctl')


def sources(folder):
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith(('.c', '.h')))


def includes(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    return text, [(m.group(1), m.group(2)) for m in INCLUDE.finditer(text)]


def own_header(folder, name):
    return '/' not in name and os.path.exists(os.path.join(folder, name))


def check_program_part(tree, part):
    """Quoted includes: common/X or a header of the part's own folder."""
    folder = os.path.join(tree, 'daemon', part)
    bad = []
    for path in sources(folder):
        _, incs = includes(path)
        for kind, name in incs:
            if kind != '"':
                continue
            if part != 'common' and name.startswith('common/') and \
                    os.path.exists(os.path.join(tree, 'daemon', name)):
                continue
            if own_header(folder, name):
                continue
            bad.append(f'{os.path.relpath(path, tree)}: #include "{name}"')
    return bad


def check_common_pure(tree):
    bad = []
    for path in sources(os.path.join(tree, 'daemon', 'common')):
        text, incs = includes(path)
        rel = os.path.relpath(path, tree)
        for kind, name in incs:
            if name in COMMON_BANNED_HEADERS:
                bad.append(f'{rel}: #include <{name}>')
        for m in COMMON_BANNED_CALLS.finditer(text):
            bad.append(f'{rel}: calls {m.group(1)}()')
    return bad


def check_tests(tree, part):
    """A test of PART includes common/, PART/ and tests/support only."""
    folder = os.path.join(tree, 'tests', 'unit', part)
    support = os.path.join(tree, 'tests', 'support')
    allowed = ('common/',) if part == 'common' else ('common/', part + '/')
    bad = []
    for path in sources(folder):
        _, incs = includes(path)
        for kind, name in incs:
            if kind != '"' or name.startswith(allowed) or \
                    own_header(support, name) or own_header(folder, name):
                continue
            bad.append(f'{os.path.relpath(path, tree)}: #include "{name}"')
    return bad


def check_support(tree):
    folder = os.path.join(tree, 'tests', 'support')
    bad = []
    for path in sources(folder):
        _, incs = includes(path)
        for kind, name in incs:
            if kind == '"' and not name.startswith('common/') and \
                    not own_header(folder, name):
                bad.append(f'{os.path.relpath(path, tree)}: #include "{name}"')
    return bad


# The other C programs of tests/ (guest programs, fuzzers, benchmarks) and
# the folders a quoted include of theirs may name a file of.
OTHER_TEST_DIRS = ['tests/fuzz', 'tests/bench', 'tests/bench/guest',
                   'tests/vm/guest']


def check_other_tests(tree):
    """Their includes name files that exist: common/X, PART/X, support."""
    support = os.path.join(tree, 'tests', 'support')
    bad = []
    for d in OTHER_TEST_DIRS:
        folder = os.path.join(tree, d)
        for path in sources(folder):
            _, incs = includes(path)
            for kind, name in incs:
                if kind != '"' or own_header(folder, name) or \
                        own_header(support, name):
                    continue
                if name.split('/')[0] in PARTS and \
                        os.path.exists(os.path.join(tree, 'daemon', name)):
                    continue
                bad.append(f'{os.path.relpath(path, tree)}: #include "{name}"')
    return bad


# Where the functions of a name prefix are defined (longest prefix first):
# a name tells the file it lives in.
NAME_HOMES = [
    ('uk_journal_field', ['daemon/common/journal_fields.c']),
    ('uk_journal_', ['daemon/uaccessd/journal.c']),
    ('uk_time_', ['daemon/common/time.c', 'daemon/common/time.h']),
    ('uk_query_', ['daemon/uaccessctl/query.c']),
    ('uk_utf8_', ['daemon/common/utf8.c']),
    ('uk_htab_', ['daemon/common/hashtab.c', 'daemon/common/hashtab.h']),
    ('uk_hash_', ['daemon/common/hashtab.h']),
    ('uk_sort_', ['daemon/common/sort.c']),
    ('uk_fields_', ['daemon/common/fields.c']),
    ('uk_field_', ['daemon/common/fields.c']),
    ('uk_enum_', ['daemon/common/event.c']),
    ('uk_nl_', ['daemon/common/nl.c', 'daemon/common/nl.h']),
    ('uk_json_', ['daemon/common/json.c', 'daemon/common/json_read.c']),
    ('uk_om_', ['daemon/common/openmetrics.c']),
    ('uk_metrics_', ['daemon/common/metrics.c', 'daemon/uaccessd/metrics.c']),
    ('uk_ctl_server_', ['daemon/uaccessd/control_server.c']),
    ('uk_label_', ['daemon/uaccessctl/label.c']),
    ('uk_list_', ['daemon/uaccessctl/list.c']),
    ('uk_match_', ['daemon/uaccessctl/match.c']),
    ('uk_entry_', ['daemon/uaccessctl/entry.c']),
    ('uk_show_', ['daemon/uaccessctl/show.c']),
    ('uk_fleet_', ['daemon/uaccessctl/fleet.c',
                   'daemon/uaccessctl/fleet_out.c']),
    ('uk_site_row', ['daemon/uaccessctl/site_row.c']),
    ('uk_pipeline_', ['daemon/uaccessd/pipeline.c']),
    ('uk_ratelimit_', ['daemon/uaccessd/ratelimit.c']),
    ('uk_config_', ['daemon/uaccessd/config.c']),
    ('uk_source_', ['daemon/uaccessd/source.c']),
    ('uk_daemon_', ['daemon/uaccessd/daemon.c']),
    ('uk_replay_stream_', ['daemon/uaccessd/replay_stream.c']),
    ('uk_replay_', ['daemon/uaccessd/replay.c']),
    ('uk_agg_', ['daemon/uaccessd/aggregate.c', 'daemon/uaccessd/agg_site.c',
                 'daemon/uaccessd/agg_samples.c',
                 'daemon/uaccessd/agg_stacks.c']),
]
# A definition: the name and its parameters at the start of a line, then
# the body's brace on the next.
DEFINITION = re.compile(r'^[a-z][^;{}=()]*?\b(uk_[a-z0-9_]+)\([^;{}]*?\)\n\{',
                        re.M)


def check_name_homes(tree):
    bad = []
    for part in PARTS:
        for path in sources(os.path.join(tree, 'daemon', part)):
            rel = os.path.relpath(path, tree)
            with open(path, encoding='utf-8') as f:
                text = f.read()
            for m in DEFINITION.finditer(text):
                name = m.group(1)
                for prefix, homes in NAME_HOMES:
                    if name.startswith(prefix):
                        if rel not in homes:
                            bad.append(f'{rel}: {name}() belongs in '
                                       f'{" or ".join(homes)}')
                        break
    return bad


def check_ignored_sources(tree):
    """A source file that git ignores builds here and is missing in a clone."""
    try:
        out = subprocess.run(['git', '-C', tree, 'ls-files', '--others',
                              '--ignored', '--exclude-standard', '--',
                              'daemon', 'tests'],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return [f'{f}: ignored by git' for f in out.splitlines()
            if f.endswith(('.c', '.h', '.py', '.sh', '.t'))]


def rules(tree):
    out = []
    for part in PARTS:
        what = 'its own headers' if part == 'common' else \
            'common/ and its own headers'
        out.append((f'daemon/{part}/ includes only {what}',
                    check_program_part(tree, part)))
    out.append(('daemon/common/ has no sd-event, sd-daemon or journal writing',
                check_common_pure(tree)))
    for part in PARTS:
        out.append((f'tests/unit/{part}/ includes only what its library has',
                    check_tests(tree, part)))
    out.append(('tests/support/ includes only common/ and its own headers',
                check_support(tree)))
    out.append(('the guest programs, fuzzers and benchmarks include daemon '
                'headers by their folder',
                check_other_tests(tree)))
    out.append(('no source file under daemon/ or tests/ is ignored by git',
                check_ignored_sources(tree)))
    out.append(('each uk_PREFIX_ function is defined in its prefix\'s file',
                check_name_homes(tree)))
    return out


def write(tree, path, text):
    path = os.path.join(tree, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def self_test():
    """Each rule fails on a tree that breaks it, and passes on a clean one."""
    cases = [
        ('uaccessctl including a daemon header',
         {'daemon/uaccessctl/a.c': '#include "uaccessd/pipeline.h"\n',
          'daemon/uaccessd/pipeline.h': ''}, 'daemon/uaccessctl/'),
        ('uaccessd including a header of nowhere',
         {'daemon/uaccessd/a.c': '#include "nothere.h"\n'}, 'daemon/uaccessd/'),
        ('common including a program header',
         {'daemon/common/a.c': '#include "uaccessd/x.h"\n',
          'daemon/uaccessd/x.h': ''}, 'daemon/common/ includes'),
        ('common writing the journal',
         {'daemon/common/a.c': 'void f(void) { sd_journal_send("A=b", NULL); }\n'},
         'daemon/common/ has no'),
        ('common on the event loop',
         {'daemon/common/a.h': '#include <systemd/sd-event.h>\n'},
         'daemon/common/ has no'),
        ('a common test reaching into uaccessd',
         {'tests/unit/common/test_a.c': '#include "uaccessd/x.h"\n'},
         'tests/unit/common/'),
        ('a uaccessctl test reaching into uaccessd',
         {'tests/unit/uaccessctl/test_a.c': '#include "uaccessd/x.h"\n'},
         'tests/unit/uaccessctl/'),
        ('support reaching into a program',
         {'tests/support/a.c': '#include "uaccessctl/cli.h"\n'},
         'tests/support/'),
        ('a guest program naming a header by its old place',
         {'tests/vm/guest/p.c': '#include "control_server.h"\n'},
         'the guest programs'),
        ('a time function outside the time file',
         {'daemon/common/json.c': 'int uk_time_parse_x(void)\n{\n}\n'},
         'each uk_PREFIX_'),
    ]
    results = []
    for name, files, rule in cases:
        with tempfile.TemporaryDirectory() as tree:
            for path, text in files.items():
                write(tree, path, text)
            failed = [r for r, bad in rules(tree) if bad]
            results.append((f'the check catches {name}',
                            any(r.startswith(rule) for r in failed), failed))
    with tempfile.TemporaryDirectory() as tree:
        write(tree, 'daemon/common/x.h', '#include <stdint.h>\n')
        write(tree, 'daemon/common/x.c', '#include "x.h"\n')
        write(tree, 'daemon/uaccessd/y.c', '#include "common/x.h"\n#include "y.h"\n')
        write(tree, 'daemon/uaccessd/y.h', '')
        write(tree, 'tests/support/s.h', '#include "common/x.h"\n')
        write(tree, 'tests/unit/uaccessd/test_y.c',
              '#include "uaccessd/y.h"\n#include "s.h"\n')
        failed = [r for r, bad in rules(tree) if bad]
        results.append(('the check passes a tree that keeps the rules',
                        not failed, failed))
    return results


def main():
    tree = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    status = 0
    for name, ok, detail in self_test():
        print(f'{"ok" if ok else "not ok"} - {name}')
        if not ok:
            print(f'# rules failed: {detail}')
            status = 1
    for name, bad in rules(tree):
        print(f'{"not ok" if bad else "ok"} - {name}')
        for line in bad:
            print(f'#   {line}')
        status |= bool(bad)
    return status


if __name__ == '__main__':
    sys.exit(main())
