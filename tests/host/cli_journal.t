#!/bin/bash
# cli_journal.t: `uaccessctl list` and `show` against a real journal.
#
# As journald.t: a private mount namespace with tmpfs over /run and
# /var/log, a systemd-journald of its own (as root, without systemd as
# PID 1), the host's journal untouched.  uaccessd replays synthetic
# events into it (uk-genreplay), then the real uaccessctl reads them back
# with --directory.  A second journald with another machine ID and host
# name (its own UTS namespace) makes a second "machine" for the fleet
# view.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}

. "$top/tests/lib/journald.sh"
uk_private_ns UK_CLI_JOURNAL_NS "$@"

tmp=$(mktemp -d /tmp/uk-cli-journal.XXXXXX)
uk_journald_setup
export TZ=UTC
unset COLUMNS

cleanup() {
	[ -n "$journald_pid" ] && stop_journald
	rm -rf "$tmp"
}
trap cleanup EXIT

ev_id=$(msgid EVENT)
loss_id=$(msgid LOSS)
# ctl ARGS...: uaccessctl on the test journal; output in $out, $err, $rc
ctl() {
	"$bin/uaccessctl" --no-pager --directory "$jdir" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
lines() {
	[ -z "$1" ] && echo 0 || printf '%s\n' "$1" | wc -l
}

[ -x "$bin/uaccessctl" ] || { echo "Bail out! no $bin/uaccessctl (make -C daemon all tools)"; exit 1; }
start_journald
check $? "systemd-journald starts in a private namespace" \
	"$(tail -n 3 "$tmp/journald.log")"

# Machine A: 40 events at 4 sites (event i: seq i+1, pid 100+i, site i%4,
# cpu i%2), every one journaled; then 10 more with sequence gaps,
# which leave loss entries.
cat >"$tmp/a.conf" <<EOF
site_interval = 1h
site_burst = 10000
global_rate = 1000000
global_burst = 1000000
summary_interval = 1h
EOF
"$bin/tools/uk-genreplay" -n 40 -s 4 -S 1 "$tmp/a.rep" >/dev/null &&
	"$bin/tools/uk-genreplay" -n 10 -s 4 -S 1001 -g 4 "$tmp/g.rep" >/dev/null
check $? "uk-genreplay writes the replay files"
"$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/ctl-a" --replay "$tmp/a.rep" \
	--exit-after-replay >"$tmp/a.out" 2>"$tmp/a.err"
check $? "uaccessd replays 40 events" "$(cat "$tmp/a.err")"
got=$(settle 40 MESSAGE_ID="$ev_id")
is 40 "$got" "journal holds the 40 event entries"

ctl list
is 0 "$rc" "list exits 0" 
is 43 "$(lines "$out")" "list: header, 40 rows, a blank line and the footer"
head=$(printf '%s\n' "$out" | head -n 1)
[[ "$head" =~ ^TIME\ +PID\ COMM\ +HELPER\ +DIR\ +ADDRESS\ +SITE\ +KIND$ ]]
check $? "list header: TIME PID COMM HELPER DIR ADDRESS SITE KIND (no HOSTNAME for one machine)" "$head"
printf '%s\n' "$out" | tail -n 1 | grep -qx "40 entries listed."
check $? "list footer: 40 entries listed." "$(printf '%s\n' "$out" | tail -n 1)"
row=$(printf '%s\n' "$out" | sed -n 2p)
[[ "$row" =~ ^[A-Z][a-z][a-z]\ 20[0-9][0-9]-[01][0-9]-[0-3][0-9]\ [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\ UTC\ +100\ uk-gen\ +__copy_to_user\ +to-user\ +0xffff888000100000\ uk_site_0\+0x1c/0x80\ +precheck$ ]]
check $? "list: the oldest row is event 0, every column filled" "$row"

ctl list --no-legend
is 40 "$(lines "$out")" "list --no-legend: 40 rows, nothing else"
pids=$(printf '%s\n' "$out" | awk '{ print $5 }' | tr '\n' ' ')
is "$(seq -s ' ' 100 139) " "$pids" "list: oldest first, newest last"

ctl list --no-legend -n 5
is "135 136 137 138 139 " "$(printf '%s\n' "$out" | awk '{ print $5 }' | tr '\n' ' ')" \
	"list -n 5: the last 5 events, newest last"
ctl list --no-legend -n 100
is 40 "$(lines "$out")" "list -n 100: all 40 when there are fewer"

ctl list --no-legend 105
is "105" "$(printf '%s\n' "$out" | awk '{ print $5 }')" "list PID: the events of that task"
ctl list --no-legend 105 0107 139
is "105 107 139 " "$(printf '%s\n' "$out" | awk '{ print $5 }' | tr '\n' ' ')" \
	"list PID PID PID: several pids are ORed (leading zeros dropped)"
ctl list --no-legend uk_site_2
is 10 "$(lines "$out")" "list FUNCTION: the 10 events of site 2"
bad=$(printf '%s\n' "$out" | awk '$10 != "uk_site_2+0x1c/0x80"' | head -n 1)
is "" "$bad" "list FUNCTION: only rows of that site"
ctl list --no-legend uk_site_2+0x1c/0x80
is 10 "$(lines "$out")" "list FUNCTION+OFF/SIZE: the function part is matched"
ctl list --no-legend uk_site_1 uk_site_3
is 20 "$(lines "$out")" "list FUNCTION FUNCTION: ORed"
ctl list --no-legend uk_site_1 105
is "105" "$(printf '%s\n' "$out" | awk '{ print $5 }')" \
	"list FUNCTION PID: different fields are ANDed"
ctl list --no-legend UACCESS_CPU=1
is 20 "$(lines "$out")" "list FIELD=VALUE: a raw journal match"
ctl list --no-legend seq=7
is "106" "$(printf '%s\n' "$out" | awk '{ print $5 }')" "list seq=N: UACCESS_SEQ=N"
ctl list --no-legend _COMM=uaccessd UACCESS_COMM=uk-gen
is 40 "$(lines "$out")" "list with trusted and UACCESS fields ANDed"

ctl list uk_site_2 105
is "1|No entries found.|" "$rc|$err|$out" \
	"list with nothing matching: 'No entries found.' on stderr, exit 1, no output"
ctl list --since "+1h"
is "1|No entries found." "$rc|$err" "list --since in the future: no entries, exit 1"
ctl list --no-legend --since "-1h"
is "0 40" "$rc $(lines "$out")" "list --since -1h: all 40"
ctl list --no-legend --since "2000-01-01 00:00:00" --until "+1min"
is "0 40" "$rc $(lines "$out")" "list --since DATE --until +1min: all 40"
ctl list --until "1h ago"
is "1|No entries found." "$rc|$err" "list --until 1h ago: none"
ctl list --no-legend --since yesterday -n 3
is "0 3" "$rc $(lines "$out")" "list --since yesterday -n 3"

ctl list foo=bar
is 2 "$rc" "list with an unknown lower-case field: exit 2"
echo "$err" | grep -q "not a journal field"
check $? "list foo=bar: says why" "$err"
ctl list =x
is 2 "$rc" "list =x: exit 2"
ctl list --since yesterdayish
is 2 "$rc" "list --since garbage: exit 2"
echo "$err" | grep -q -- "--since: "
check $? "list --since garbage: says which option" "$err"
ctl list --since "+1h" --until "-1h"
is 2 "$rc" "list --since after --until: exit 2"
"$bin/uaccessctl" --no-pager --directory "$tmp/nonexistent" list >"$tmp/out" 2>"$tmp/err"
rc=$?
is 1 "$rc" "list --directory of a missing directory: exit 1"
grep -q "cannot open the journal directory $tmp/nonexistent" "$tmp/err"
check $? "... saying it cannot open it" "$(cat "$tmp/err")"
mkdir "$tmp/empty"
"$bin/uaccessctl" --no-pager --directory "$tmp/empty" list >"$tmp/out" 2>"$tmp/err"
rc=$?
is "1|uaccessctl: no journal files in $tmp/empty" "$rc|$(cat "$tmp/err")" \
	"list --directory of a directory without journal files: exit 1, says so"

# The bash completion offers what the journal holds.
comp() {	# comp WORDS...: the completions of the last word
	bash -c 'source "$1"; shift; compopt() { :; }
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _uaccessctl
		echo "${COMPREPLY[*]}"' comp "$top/packaging/bash-completion/uaccessctl" "$@"
}
is "uk-gen" "$(comp uaccessctl -D "$jdir" list comm = "")" \
	"bash completion: list comm=<TAB> offers the task names in the journal"
is "uk_site_0 uk_site_1 uk_site_2 uk_site_3" \
	"$(comp uaccessctl list --directory "$jdir" uk_site | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
	"bash completion: list uk_site<TAB> offers the site functions"
is "UACCESS_SITE_FUNCTION=" "$(comp uaccessctl show UACCESS_SITE_F)" \
	"bash completion: a field name is offered with its '='"
is "--json --json=short --json=pretty --json=off|--full" \
	"$(comp uaccessctl top --j)|$(comp uaccessctl top --fu)" \
	"bash completion: --json and its modes, --full"

# Boots: there is one, this machine's.
boot=$(tr -d - </proc/sys/kernel/random/boot_id)
ctl list --no-legend -b
is "0 40" "$rc $(lines "$out")" "list -b: the newest boot in the directory"
ctl list --no-legend --boot="$boot"
is "0 40" "$rc $(lines "$out")" "list --boot=ID"
ctl list --no-legend -b 1
is "0 40" "$rc $(lines "$out")" "list -b 1: the first boot"
ctl list -b -1
is 1 "$rc" "list -b -1 with a single boot: exit 1"
echo "$err" | grep -q "no boot -1 in the journal (1 boot)"
check $? "list -b -1: says there is 1 boot" "$err"
ctl list --boot=0123456789abcdef0123456789abcdef
is "1|No entries found." "$rc|$err" "list --boot=ID of another boot: nothing"
# A number after a bare -b is the boot, as journalctl reads it (event 0
# has pid 100); a pid beside -b goes before it, after -- or as pid=N.
ctl list -b 100
is "1|uaccessctl: no boot 100 in the journal (1 boot)" "$rc|$err" \
	"list -b 100: boot offset 100, as journalctl -b 100"
ctl list --no-legend -b pid=100
is "0 1" "$rc $(lines "$out")" "list -b pid=100: this boot, pid 100"
ctl list --no-legend 100 -b
is "0 1" "$rc $(lines "$out")" "list 100 -b: this boot, pid 100"
ctl list --no-legend -b -- 100
is "0 1" "$rc $(lines "$out")" "list -b -- 100: this boot, pid 100"

# show
mkdir -p "$tmp/catalog"
cp "$top/packaging/uaccessd.catalog" "$tmp/catalog/"
mount --bind "$tmp/catalog" /usr/lib/systemd/catalog &&
	mount -t tmpfs tmpfs /var/lib/systemd/catalog &&
	journalctl --update-catalog >"$tmp/catalog.log" 2>&1
check $? "journalctl --update-catalog takes packaging/uaccessd.catalog" \
	"$(cat "$tmp/catalog.log")"

ctl show seq=2
is 0 "$rc" "show seq=2 exits 0"
want='             Seq: 2
            Kind: precheck
          Helper: __copy_to_user
       Direction: to-user
         Address: 0xffff888000100008 (kernel-mapped), size 16
            Site: uk_site_1+0x1c/0x80 (0xffffffff81000040, id 1)
             PID: 101 (uk-gen)
            TGID: 101
             UID: 1000
         Syscall: 247
     Syscall ABI: x86_64
    Syscall args: 0x1 0x65 0xffff888000100008 0x4 0x0 0x0
             CPU: 1
         Context: task
           Count: 1 (suppressed by the kernel: 0)
     Site events: 1
     Kernel time: Mon 2025-11-24 16:00:00 UTC (1.000001000s after boot)
      Stack hash: 0x00001001
           Stack: #0 uk_site_1+0x1c/0x80
                  #1 do_syscall_64+0x5d/0x170'
got=$(printf '%s\n' "$out" | sed -n '/^ *Seq: /,/^ *#1 /p')
is "$want" "$got" "show seq=2: the event's fields, the stack one frame per line"
printf '%s\n' "$out" | head -n 1 | grep -Eq '^ +Time: [A-Z][a-z]{2} 20[0-9]{2}-[0-9-]{5} [0-9:]{8} UTC \(.* ago\)$'
check $? "show: Time first, with how long ago" "$(printf '%s\n' "$out" | head -n 1)"
printf '%s\n' "$out" | grep -q "^        Hostname: $(hostname)$"
check $? "show: the hostname" "$out"
printf '%s\n' "$out" | grep -q "^         Boot ID: $boot$"
check $? "show: the boot ID"
printf '%s\n' "$out" | grep -q '^         Message: __copy_to_user() to-user kernel address 0xffff888000100008 (kernel-mapped, precheck) at uk_site_1+0x1c/0x80 by uk-gen\[101\], task context$'
check $? "show: the message"
printf '%s\n' "$out" | grep -q "^-- Subject: Kernel address handed to a user-access helper$" &&
	printf '%s\n' "$out" | grep -q "^-- check its pointer (__copy_to_user, to-user) at$"
check $? "show: the catalog text, fields filled in" "$(printf '%s\n' "$out" | grep '^--' | head -n 5)"

ctl show
printf '%s\n' "$out" | grep -q "^             Seq: 40$"
check $? "show without a match: the newest event" "$(printf '%s\n' "$out" | grep Seq:)"
is 1 "$(printf '%s\n' "$out" | grep -c '^            Time: ')" "show without a match: that one only"
ctl show uk_site_3
is "0 10" "$rc $(printf '%s\n' "$out" | grep -c '^            Time: ')" "show FUNCTION: every event of the site"
ctl show -n 2 uk_site_3
is "36 40" "$(printf '%s\n' "$out" | sed -n 's/^ *Seq: //p' | tr '\n' ' ' | sed 's/ $//')" \
	"show -n 2 FUNCTION: the last two (site 3: seq 4, 8, ... 40)"
ctl show seq=4711
is "1|No entries found." "$rc|$err" "show of a missing seq: exit 1"
ctl show foo
is "1|No entries found." "$rc|$err" "show FUNCTION without events: no entries, exit 1"

# JSON, checked field by field against journalctl's own JSON.
journalctl -D "$jdir" --no-pager -o json MESSAGE_ID="$ev_id" >"$tmp/journal.json"
ctl list --json
is 0 "$rc" "list --json exits 0"
printf '%s\n' "$out" >"$tmp/list.json"
ctl show --json seq=2
printf '%s\n' "$out" >"$tmp/show.json"
ctl list --json uk_site_2 105
is "1|[]|No entries found." "$rc|$out|$err" "list --json with nothing: [] on stdout, exit 1"
ctl list --json=pretty
printf '%s\n' "$out" >"$tmp/list-pretty.json"
python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2])); sys.exit(not (a == b and len(open(sys.argv[2]).read().splitlines()) > len(a) * 10))' \
	"$tmp/list.json" "$tmp/list-pretty.json"
is "0 0" "$rc $?" "list --json=pretty: the same array, indented, one key a line"
python3 - "$tmp" <<'EOF'
import json, sys
tmp = sys.argv[1]
journal = [json.loads(l) for l in open(f'{tmp}/journal.json') if l.strip()]
ours = json.load(open(f'{tmp}/list.json'))
show = json.load(open(f'{tmp}/show.json'))
def check(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc + ('' if ok or not why else f' # {why}'))
check(isinstance(ours, list) and len(ours) == 40, 'list --json: an array of 40 objects', f'{type(ours)} {len(ours)}')
# the kernel's nanoseconds come out in microseconds, under keys that say so
usec = {'ts_real': 'time_usec', 'ts_boot': 'boot_usec'}
numeric = {'seq', 'size', 'site_id', 'pid', 'tgid', 'uid', 'syscall_nr',
           'cpu', 'count', 'suppressed', 'stack_depth', 'site_events'}
bad = []
for j, o in zip(journal, ours):
    for k, v in j.items():
        if not k.startswith('UACCESS_'):
            continue
        key = k[len('UACCESS_'):].lower()
        if key in usec:
            if o.get(usec[key]) != int(v) // 1000 or key in o:
                bad.append(f'{usec[key]} {o.get(usec[key])!r} != {v!r} / 1000')
        elif key not in o:
            bad.append(f'{key} missing')
        elif key == 'stack':
            if o[key] != v.split('\n'):
                bad.append(f'stack {o[key]} != {v!r}')
        elif key in numeric:
            if not isinstance(o[key], int) or str(o[key]) != v:
                bad.append(f'{key} {o[key]!r} != {v!r}')
        elif o[key] != v:
            bad.append(f'{key} {o[key]!r} != {v!r}')
    extra = set(o) - {'journal_usec', 'hostname', 'machine_id', 'boot_id', 'message_id', 'message',
                      'priority'} - {usec.get(k[8:].lower(), k[8:].lower())
                                     for k in j if k.startswith('UACCESS_')}
    if extra:
        bad.append(f'extra keys {extra}')
    for key, field in (('hostname', '_HOSTNAME'), ('machine_id', '_MACHINE_ID'),
                       ('boot_id', '_BOOT_ID'), ('message_id', 'MESSAGE_ID'), ('message', 'MESSAGE')):
        if o.get(key) != j.get(field):
            bad.append(f'{key} {o.get(key)!r} != {j.get(field)!r}')
    if o.get('journal_usec') != int(j['__REALTIME_TIMESTAMP']):
        bad.append(f'journal_usec {o.get("journal_usec")} != {j["__REALTIME_TIMESTAMP"]}')
    big = [k for k, v in o.items() if isinstance(v, int) and not -2**53 < v < 2**53]
    if big:
        bad.append(f'numbers beyond 2^53: {big}')
    if o.get('priority') != 4:
        bad.append(f'priority {o.get("priority")!r}')
check(not bad, "list --json: every UACCESS_* field as journalctl has it, typed (times in usec), and journal_usec, hostname, "
      "machine_id, boot_id, message_id, message, priority", '; '.join(bad[:5]))
check([o['seq'] for o in ours] == list(range(1, 41)), 'list --json: oldest first')
check(len(ours[0]) == 7 + 28, 'list --json: 35 keys per event object', f'{len(ours[0])}: {sorted(ours[0])}')
check(isinstance(show, list) and len(show) == 1 and show[0]['seq'] == 2,
      'show --json seq=2: an array of that one object')
s = show[0] if show else {}
check(s.get('cursor', '').startswith('s=') and 'Kernel address handed to a user-access helper' in
      s.get('catalog', ''), 'show --json: with the cursor and the catalog text', f"{s.get('cursor')!r}")
check({k: v for k, v in s.items() if k not in ('cursor', 'catalog')} == ours[1],
      'show --json: the same object as list --json otherwise')
EOF

# Other entries by MESSAGE_ID: the loss entries of a replay with gaps.
"$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/ctl-g" --replay "$tmp/g.rep" \
	--exit-after-replay >/dev/null 2>"$tmp/g.err"
check $? "uaccessd replays 10 events with sequence gaps" "$(cat "$tmp/g.err")"
settle 1 MESSAGE_ID="$loss_id" >/dev/null
got=$(settle 50 MESSAGE_ID="$ev_id")
is 50 "$got" "journal holds 50 event entries"
ctl list --no-legend
is 50 "$(lines "$out")" "list: events only, not the loss entries"
ctl show MESSAGE_ID="$loss_id"
printf '%s\n' "$out" | grep -q "^     Loss reason: sequence-gap$" &&
	printf '%s\n' "$out" | grep -q "^-- Subject: uaccessd lost kernel-address events$"
check $? "show MESSAGE_ID=<loss>: the loss entry, its fields and catalog" "$out"
ctl list --json MESSAGE_ID="$loss_id"
python3 -c '
import json, sys
o = json.load(sys.stdin)
assert o and all(x["message_id"] == sys.argv[1] and x["loss_reason"] == "sequence-gap"
                 and isinstance(x["loss_count"], int) for x in o), o
' "$loss_id" <<<"$out"
check $? "list --json MESSAGE_ID=<loss>: loss_reason, loss_count as a number" "$out"

# --type: loss, summary and health entries listed without their MESSAGE_ID,
# each type in its own columns; several types by their messages.
health_id=$(msgid HEALTH)
ctl list --type=loss
head=$(printf '%s\n' "$out" | head -n 1)
check $(echo "$head" | grep -qE '^TIME +REASON +LOST UNIT +TOTAL DETAIL$'; echo $?) \
	"list --type=loss: TIME REASON LOST UNIT TOTAL DETAIL" "$head"
nloss=$(journalctl -D "$jdir" -q -o export --output-fields=MESSAGE_ID MESSAGE_ID="$loss_id" | grep -c '^MESSAGE_ID=')
ctl list --no-legend --type=loss
is "$nloss" "$(lines "$out")" "list --type=loss: every loss entry"
bad=$(printf '%s\n' "$out" | grep -vE ' sequence-gap +[0-9]+ events +[0-9]+ sequence [0-9]+ followed [0-9]+$')
is "" "$bad" "list --type=loss: what was lost, how many, the total and the gap; no dashes"
ctl list --no-legend --type=health
nhealth=$(journalctl -D "$jdir" -q -o export --output-fields=MESSAGE_ID MESSAGE_ID="$health_id" | grep -c '^MESSAGE_ID=')
is "$nhealth" "$(lines "$out")" "list --type=health: every health entry"
check $(printf '%s\n' "$out" | grep -qE ' started +uaccessd [0-9.]+ started'; echo $?) \
	"list --type=health: the state and the message" "$(printf '%s\n' "$out" | head -n 3)"
ctl list --no-legend --type=loss,event
is $((nloss + 50)) "$(lines "$out")" "list --type=loss,event: both"
check $(printf '%s\n' "$out" | grep -qE '^[A-Z][a-z]{2} [0-9-]{10} [0-9:]{8} UTC (event|loss) +[^ ]'; echo $?) \
	"list of several types: TIME TYPE MESSAGE" "$(printf '%s\n' "$out" | head -n 2)"
ctl list --no-legend --type=all
is $((nloss + nhealth + 50)) "$(lines "$out")" "list --type=all: every entry of uaccessd (no summaries here)"
ctl list --type=bogus
is "2|uaccessctl: list: --type takes event, loss, summary, health or all (several separated by commas), not 'bogus'" \
	"$rc|$err" "list --type=bogus: exit 2, the valid types named"

# The system journal itself (no --directory): this machine's files.
"$bin/uaccessctl" --no-pager list --no-legend >"$tmp/out" 2>"$tmp/err"
is "0 50" "$? $(wc -l <"$tmp/out")" "list without --directory: the system journal's 50 events"
# A user who may not read the system journal is told why, exit 5.
chmod 755 "$tmp"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$bin/uaccessctl" --no-pager list >"$tmp/out" 2>"$tmp/err"
rc=$?
is 5 "$rc" "list as a user without access to the journal: exit 5 (permission)"
grep -q "no journal files readable" "$tmp/err"
check $? "... saying no journal file is readable" "$(cat "$tmp/err")"

# A second machine: its own machine ID and host name, same directory.
stop_journald
echo 1234567890abcdef1234567890abcdef >"$tmp/machine-id"
mount --bind "$tmp/machine-id" /etc/machine-id
start_journald node-b
check $? "a second journald as machine 1234...cdef, host node-b"
"$bin/tools/uk-genreplay" -n 6 -s 2 -S 1 "$tmp/b.rep" >/dev/null
"$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/ctl-b" --replay "$tmp/b.rep" \
	--exit-after-replay >/dev/null 2>"$tmp/b.err"
check $? "uaccessd on node-b replays 6 events" "$(cat "$tmp/b.err")"
got=$(settle 56 MESSAGE_ID="$ev_id")
is 56 "$got" "the directory holds both machines' events"
ls "$jdir" | sort >"$tmp/dirs"
is 2 "$(wc -l <"$tmp/dirs")" "two machine directories under $jdir"

ctl list
head=$(printf '%s\n' "$out" | head -n 1)
[[ "$head" =~ ^TIME\ +HOSTNAME\ +PID\ COMM ]]
check $? "list over two machines: a HOSTNAME column" "$head"
is 6 "$(printf '%s\n' "$out" | grep -c ' node-b ')" "list: node-b's 6 rows carry its name"
is 50 "$(printf '%s\n' "$out" | grep -c " $(hostname) ")" "list: the first machine's 50 rows carry its name"
ctl list --no-legend _HOSTNAME=node-b
head=$(printf '%s\n' "$out" | head -n 1)
is "0 6" "$rc $(lines "$out")" "list _HOSTNAME=node-b: that machine's events"
if [[ "$head" =~ node-b ]]; then false; else true; fi
check $? "list of one machine of the fleet: no HOSTNAME column" "$head"
ctl list --json _MACHINE_ID=1234567890abcdef1234567890abcdef
python3 -c '
import json, sys
o = json.load(sys.stdin)
assert len(o) == 6 and all(x["hostname"] == "node-b" and x["machine_id"] == "1234567890abcdef1234567890abcdef" for x in o), o
' <<<"$out"
check $? "list --json _MACHINE_ID=...: machine_id and hostname of node-b" "${out:0:200}"
# The fleet copied elsewhere, as journal-remote or an rsync would leave it.
mkdir "$tmp/fleet" && cp -r "$jdir"/* "$tmp/fleet/"
"$bin/uaccessctl" --no-pager --directory "$tmp/fleet" list --no-legend >"$tmp/out" 2>"$tmp/err"
is "0 56" "$? $(wc -l <"$tmp/out")" "list --directory of a copied fleet directory: all 56 events"

[ "$failed" = 0 ]
