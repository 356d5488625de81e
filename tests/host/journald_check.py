#!/usr/bin/env python3
"""journald_check.py TMP STATS: check the journal entries uaccessd wrote for
journald.t's first replay (200 events at 5 sites by uk-genreplay, burst 3,
2 gaps, 1 cut message); TMP holds journalctl -o json output per MESSAGE_ID
kind, STATS is uaccessd's --exit-after-replay line.  Prints TAP lines."""
import json
import sys

tmp, out = sys.argv[1], sys.argv[2]
words = out.split()
stats = {k: int(v) for k, v in zip(words[0::2], words[1::2])}


def load(name):
    try:
        with open(f'{tmp}/{name}.json') as f:
            return [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []


def check(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc + ('' if ok or not why else f' # {why}'))


events, sup, loss, health = (load(n) for n in ('EVENT', 'SUPPRESSED', 'LOSS', 'HEALTH'))

check(len(events) == 15, 'journal holds burst 3 x 5 sites = 15 event entries', f'got {len(events)}')
check(stats.get('journaled') == len(events), 'uaccessd counted what the journal holds',
      f'{stats} vs {len(events)}')
fields = ['UACCESS_SEQ', 'UACCESS_TS_BOOT', 'UACCESS_TS_REAL', 'UACCESS_KIND', 'UACCESS_HELPER',
          'UACCESS_DIRECTION', 'UACCESS_ADDR_CLASS', 'UACCESS_ADDRESS', 'UACCESS_SIZE',
          'UACCESS_SITE_ID', 'UACCESS_SITE_SYMBOL', 'UACCESS_SITE_IP', 'UACCESS_STACK',
          'UACCESS_STACK_HASH', 'UACCESS_PID', 'UACCESS_TGID', 'UACCESS_COMM', 'UACCESS_UID',
          'UACCESS_SYSCALL_NR', 'UACCESS_CPU', 'UACCESS_COUNT', 'UACCESS_SUPPRESSED',
          'UACCESS_CONTEXT', 'UACCESS_STACK_DEPTH', 'UACCESS_SITE_EVENTS', 'UACCESS_SITE_FUNCTION']
missing = sorted({f for e in events for f in fields if f not in e})
check(events and not missing, 'every event entry has every UACCESS_* field', f'missing {missing}')

e = next((e for e in events if e.get('UACCESS_SEQ') == '2'), None)
check(e is not None, 'the entry of sequence 2 is there')
want = {'PRIORITY': '4', 'SYSLOG_IDENTIFIER': 'uaccessd', 'UACCESS_KIND': 'precheck',
        'UACCESS_HELPER': '__copy_to_user', 'UACCESS_DIRECTION': 'to-user',
        'UACCESS_ADDR_CLASS': 'kernel-mapped', 'UACCESS_ADDRESS': '0xffff888000100008',
        'UACCESS_SIZE': '16', 'UACCESS_SITE_ID': '1',
        'UACCESS_SITE_SYMBOL': 'uk_site_1+0x1c/0x80', 'UACCESS_SITE_IP': '0xffffffff81000040',
        'UACCESS_STACK': 'uk_site_1+0x1c/0x80\ndo_syscall_64+0x5d/0x170',
        'UACCESS_STACK_DEPTH': '2', 'UACCESS_STACK_HASH': '0x00001001', 'UACCESS_PID': '101',
        'UACCESS_TGID': '101', 'UACCESS_COMM': 'uk-gen', 'UACCESS_UID': '1000',
        'UACCESS_SYSCALL_NR': '247', 'UACCESS_CPU': '1', 'UACCESS_COUNT': '1',
        'UACCESS_SUPPRESSED': '0', 'UACCESS_CONTEXT': 'task', 'UACCESS_TS_BOOT': '1000001000',
        'UACCESS_TS_REAL': '1764000000000001000', 'UACCESS_SITE_EVENTS': '1',
        'UACCESS_SITE_FUNCTION': 'uk_site_1'}
bad = {k: (v, e.get(k)) for k, v in want.items() if e and e.get(k) != v}
check(e and not bad, 'entry 2: every field has the value sent', f'want/got {bad}')
msg = e.get('MESSAGE', '') if e else ''
check(all(s in msg for s in ('__copy_to_user', '0xffff888000100008', 'uk_site_1+0x1c/0x80',
                             'uk-gen[101]')),
      'entry 2: MESSAGE names helper, address, site and task', msg)
check(all(x.get('_COMM') == 'uaccessd' for x in events), 'entries come from uaccessd (_COMM)')

total_sup = sum(int(s['UACCESS_SUPPRESSED_COUNT']) for s in sup)
check(len(sup) == 5 and total_sup == stats.get('suppressed'),
      'one suppressed summary per site, adding up to what was suppressed',
      f'{len(sup)} summaries, {total_sup} vs {stats.get("suppressed")}')
check(sup and all(' at uk_site_' in s.get('MESSAGE', '') and
                  " held back by uaccessd's ratelimit (total " in
                  s.get('MESSAGE', '') for s in sup),
      'summaries say "N more events at SITE held back by uaccessd\'s ratelimit (total T)"',
      sup[0].get('MESSAGE') if sup else 'none')

reasons = {}
for entry in loss:
    r = entry['UACCESS_LOSS_REASON']
    reasons[r] = reasons.get(r, 0) + int(entry['UACCESS_LOSS_COUNT'])
check(reasons == {'sequence-gap': 2, 'malformed-message': 1},
      'loss entries: 2 events in sequence gaps, 1 malformed message', f'got {reasons}')
check(loss and all(x.get('PRIORITY') == '3' for x in loss), 'loss entries are at ERR')
check(stats.get('lost') == 3, 'uaccessd counts 3 lost events', f'{stats}')
states = [h.get('UACCESS_DAEMON_STATE') for h in health]
check('started' in states and 'replayed' in states, 'health entries: started, replayed', f'{states}')
