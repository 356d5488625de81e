#!/bin/bash
# fleet.t: several machines' journals reach one collector, and uaccessctl
# shows the fleet (docs/fleet.md).
#
# Three "machines", each a systemd-journald of its own machine ID and host
# name (tests/lib/journald.sh: a private mount namespace, one UTS
# namespace per machine), each fed by uaccessd replaying a different
# stream (uk-genreplay); node-b's uaccessd ratelimits, so its journal
# holds suppressed summaries too.  Each machine's journal is shipped by
# systemd-journal-upload (--save-state) over http to ONE
# systemd-journal-remote listening on 127.0.0.1 only (a free port), which
# writes --output=DIR/ with --split-mode=host.  Then uaccessctl list and
# top --directory DIR must show all three machines with exactly the
# totals fed in.  Also: a second batch on one machine, uploaded with its
# state file, adds only the new entries; an upload without the state
# file duplicates entries in the collector, which top counts once; a
# truncated journal file, an empty directory, a window without entries.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}

. "$top/tests/lib/journald.sh"
uk_private_ns UK_FLEET_NS "$@"


remote=/lib/systemd/systemd-journal-remote
upload=/lib/systemd/systemd-journal-upload
[ -x "$bin/uaccessctl" ] || { echo "Bail out! no $bin/uaccessctl (make -C daemon all tools)"; exit 1; }
[ -x "$remote" ] && [ -x "$upload" ] ||
	{ echo "Bail out! no $remote or $upload (apt-get install systemd-journal-remote)"; exit 1; }

tmp=$(mktemp -d /tmp/uk-fleet.XXXXXX)
uk_journald_setup
export TZ=UTC
unset COLUMNS
remote_pid=

cleanup() {
	[ -n "$remote_pid" ] && kill "$remote_pid" 2>/dev/null && wait "$remote_pid" 2>/dev/null
	[ -n "$journald_pid" ] && stop_journald
	# UK_KEEP_TMP=1: keep the collector's directory and the outputs
	[ -n "${UK_KEEP_TMP:-}" ] && echo "# kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT

ev_id=$(msgid EVENT)
sum_id=$(msgid SUPPRESSED)
coll=$tmp/remote
mkdir "$coll"

# ctl ARGS...: uaccessctl; output in $out, $err, $rc
ctl() {
	"$bin/uaccessctl" --no-pager "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# The machines: ID, host name, events, sites, first sequence number and
# uaccessd's per-site burst (node-b's 2: the rest goes into summaries).
declare -A mid=(
	[node-a]=a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1
	[node-b]=b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2
	[node-c]=c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3
)
declare -A events=([node-a]=43 [node-b]=30 [node-c]=12)
declare -A sites=([node-a]=4 [node-b]=3 [node-c]=6)
declare -A burst=([node-a]=10000 [node-b]=2 [node-c]=10000)
machines="node-a node-b node-c"

# feed HOST N SITES FIRST_SEQ: uaccessd on HOST replays N events at SITES
# sites; waits for their entries in HOST's journal.
feed() {
	local h=$1 n=$2 s=$3 seq=$4 want_ev want_sum
	cat >"$tmp/$h.conf" <<EOF
site_interval = 1h
site_burst = ${burst[$h]}
global_rate = 1000000
global_burst = 1000000
summary_interval = 1h
EOF
	"$bin/tools/uk-genreplay" -n "$n" -s "$s" -S "$seq" "$tmp/$h-$seq.rep" >/dev/null &&
		"$bin/uaccessd" -c "$tmp/$h.conf" -s "$tmp/ctl-$h" \
			--replay "$tmp/$h-$seq.rep" --exit-after-replay \
			>"$tmp/$h.out" 2>"$tmp/$h.err" || return 1
	# what the journal should now hold (over the batches): site k has
	# n / s events (one more for k < n % s), burst of them journaled,
	# the rest in one summary
	local k c b=${burst[$h]}
	for ((k = 0; k < s; k++)); do
		c=$(( n / s + (k < n % s ? 1 : 0) ))
		fed_ev[$h]=$(( ${fed_ev[$h]:-0} + (c < b ? c : b) ))
		fed_sum[$h]=$(( ${fed_sum[$h]:-0} + (c > b ? 1 : 0) ))
	done
	jdir=/run/log/journal/${mid[$h]} settle "${fed_ev[$h]}" MESSAGE_ID="$ev_id" >/dev/null
	got=$(jdir=/run/log/journal/${mid[$h]} settle "${fed_sum[$h]}" MESSAGE_ID="$sum_id")
	[ "$got" = "${fed_sum[$h]}" ]
}
declare -A fed_ev fed_sum

for h in $machines; do
	start_machine "${mid[$h]}" "$h"
	check $? "$h: a journald of its own (machine ${mid[$h]:0:8}..., host $h)" \
		"$(tail -n 3 "$tmp/journald.log")"
	feed "$h" "${events[$h]}" "${sites[$h]}" 1
	check $? "$h: uaccessd replays ${events[$h]} events at ${sites[$h]} sites into its journal" \
		"$(cat "$tmp/$h.err")"
done
stop_journald
is "3" "$(ls /run/log/journal | wc -l)" "three machine journals under /run/log/journal"

# The collector: loopback only, a free port (retried if taken meanwhile).
for try in 1 2 3; do
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$remote" --listen-http="127.0.0.1:$port" --output="$coll/" \
		--split-mode=host >"$tmp/remote.log" 2>&1 &
	remote_pid=$!
	for _ in $(seq 100); do
		ss -Hltn "sport = :$port" | grep -q . && break
		kill -0 "$remote_pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$remote_pid" 2>/dev/null && break
	wait "$remote_pid"
	remote_pid=
done
listen=$(ss -Hltn "sport = :$port" | awk '{ print $4 }' | sort -u | tr '\n' ' ')
is "127.0.0.1:$port " "$listen" "systemd-journal-remote listens on 127.0.0.1:$port only"
# Nothing on the same port on another address: not on the host's, not 127.0.0.2.
python3 - "$port" <<'EOF'
import socket, sys
port = int(sys.argv[1])
for addr in ("127.0.0.2",):
    s = socket.socket()
    s.settimeout(1)
    try:
        s.connect((addr, port))
    except OSError:
        continue
    sys.exit(f"{addr}:{port} accepted a connection")
EOF
check $? "... and refuses connections to 127.0.0.2:$port"

# ship HOST [STATE]: systemd-journal-upload of HOST's journal; with a
# state file it sends what it has not sent yet.
ship() {
	local h=$1 state=${2-$tmp/state-$1}
	"$upload" --directory="/run/log/journal/${mid[$h]}" \
		--url="http://127.0.0.1:$port" ${state:+--save-state="$state"} \
		--follow=no >>"$tmp/upload-$h.log" 2>&1
}
# the collector's entries: all of them, or uaccessd's of a machine
centries() {
	journalctl -D "$coll" --no-pager -o json "$@" 2>/dev/null | grep -c .
}
for h in $machines; do
	ship "$h"
	check $? "$h: systemd-journal-upload ships its journal" "$(tail -n 3 "$tmp/upload-$h.log")"
	grep -q '^LAST_CURSOR=' "$tmp/state-$h"
	check $? "$h: ... and saves its state"
done
total_ev=$(( fed_ev[node-a] + fed_ev[node-b] + fed_ev[node-c] ))
got=$(jdir=$coll settle "$total_ev" MESSAGE_ID="$ev_id")
is "$total_ev" "$got" "the collector holds the $total_ev event entries of the three machines"
is "remote-127.0.0.1.journal" "$(ls "$coll" | tr '\n' ' ' | sed 's/ $//')" \
	"split-mode=host: one file per sending address (all three came from 127.0.0.1)"
is "${mid[node-a]} ${mid[node-b]} ${mid[node-c]}" \
	"$(journalctl -D "$coll" -F _MACHINE_ID | sort | tr '\n' ' ' | sed 's/ $//')" \
	"... holding the three machine IDs, as the sources wrote them"
for h in $machines; do
	is "$(journalctl -D "/run/log/journal/${mid[$h]}" -o json | grep -c .)" \
		"$(centries _MACHINE_ID="${mid[$h]}")" \
		"$h: every entry of its journal, once, in the collector"
done

# expect: the totals fed in, as JSON (python3 builds them from the table).
expect() {
	python3 - "$@" <<'EOF'
import json, sys
# HOST:MID:EVENTS:SITES:BURST:FIRST_SITE_SHIFT ... one per batch
want = {}
for spec in sys.argv[1:]:
    host, mid, n, s, burst = spec.split(':')
    n, s, burst = int(n), int(s), int(burst)
    m = want.setdefault(mid, {'hostname': host, 'sites': {}})
    for k in range(s):
        c = n // s + (1 if k < n % s else 0)
        site = m['sites'].setdefault(f'uk_site_{k}+0x1c/0x80', {'count': 0, 'events': 0, 'suppressed': 0})
        ev = min(c, burst)
        site['count'] += c
        site['events'] += ev
        site['suppressed'] += c - ev
print(json.dumps(want))
EOF
}
# verify WANT_JSON TOP_JSON: TAP lines comparing uaccessctl's totals
verify() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
want = json.loads(sys.argv[1])
doc = json.load(open(sys.argv[2]))
def check(ok, desc, why=''):
    print(('ok - ' if ok else 'not ok - ') + desc + ('' if ok or not why else f' # {why}'))
# The totals fed (count: received by uaccessd, events: journaled, suppressed:
# held back) under the keys of the rows of every source (docs/json-output.md).
K = {'count': 'events', 'events': 'journaled', 'suppressed': 'journal_suppressed'}
got = {m['machine_id']: m for m in doc['machines']}
check(sorted(got) == sorted(want), f'top --json: the {len(want)} machines by machine ID',
      f'{sorted(got)}')
for mid, w in sorted(want.items()):
    m = got.get(mid, {'sites': [], 'hostname': None})
    sites = {s['site_symbol']: {k: s[K[k]] for k in ('count', 'events', 'suppressed')} for s in m['sites']}
    check(m['hostname'] == w['hostname'] and m['label'] == w['hostname'],
          f"{w['hostname']}: hostname and label", f"{m.get('hostname')} {m.get('label')}")
    check(sites == w['sites'], f"{w['hostname']}: every site's count, events, suppressed exactly as fed",
          f'got {sites} want {w["sites"]}')
    tot = {k: sum(s[k] for s in w['sites'].values()) for k in ('count', 'events', 'suppressed')}
    check(all(m.get(K[k]) == v for k, v in tot.items()) and m.get('total') == len(w['sites']),
          f"{w['hostname']}: its totals {tot}", f"{ {k: m.get(K[k]) for k in tot} }")
    counts = [s['events'] for s in m['sites']]
    check(counts == sorted(counts, reverse=True), f"{w['hostname']}: sites by count, most first", f'{counts}')
fleet = {}
for w in want.values():
    for name, s in w['sites'].items():
        f = fleet.setdefault(name, {'count': 0, 'events': 0, 'suppressed': 0, 'machines': 0})
        for k in ('count', 'events', 'suppressed'):
            f[k] += s[k]
        f['machines'] += 1
gf = {s['site_symbol']: {k: s[K.get(k, k)] for k in ('count', 'events', 'suppressed', 'machines')}
      for s in doc['fleet']['sites']}
check(gf == fleet, 'fleet: every site summed over the machines, and on how many',
      f'got {gf} want {fleet}')
counts = [s['events'] for s in doc['fleet']['sites']]
check(counts == sorted(counts, reverse=True), 'fleet: sites by count, most first', f'{counts}')
tot = {k: sum(s[k] for s in fleet.values()) for k in ('count', 'events', 'suppressed')}
check(all(doc[K[k]] == v for k, v in tot.items()) and doc['fleet']['machines'] == len(want),
      f'fleet totals {tot} over {len(want)} machines', f"{ {k: doc[K[k]] for k in tot} }")
# no key of the kernel's (the journal does not know them), times in us
rows = doc['fleet']['sites'] + [s for m in doc['machines'] for s in m['sites']]
check(all('count' not in s and 'kernel_suppressed' not in s and
          isinstance(s['direction'], str) and s['last_usec'] < 2**53 for s in rows),
      'every row: no kernel count, direction a string, last_usec below 2^53')
check(doc['entries']['skipped'] == 0 and doc['unreadable_files'] == [],
      'nothing skipped, every file read', f"{doc['entries']} {doc['unreadable_files']}")
EOF
}

spec=()
for h in $machines; do
	spec+=("$h:${mid[$h]}:${events[$h]}:${sites[$h]}:${burst[$h]}")
done
want=$(expect "${spec[@]}")

ctl sites --directory "$coll" --json
is 0 "$rc" "sites --directory COLLECTOR --json exits 0" 
printf '%s\n' "$out" >"$tmp/top.json"
verify "$want" "$tmp/top.json"
is "0" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["entries"]["duplicates"])' <"$tmp/top.json")" \
	"no entry in the collector twice"

ctl top -D "$coll"
is 0 "$rc" "top -D COLLECTOR exits 0"
printf '%s\n' "$out" >"$tmp/top.txt"
head=$(head -n 1 "$tmp/top.txt")
[[ "$head" =~ ^HOSTNAME\ +EVENTS\ JOURNALED\ SUPPRESSED\ KIND\ +HELPER\ +DIR\ +SITE\ +LAST$ ]]
check $? "top: HOSTNAME EVENTS JOURNALED SUPPRESSED KIND HELPER DIR SITE LAST" "$head"
fleet_rows=$(grep -c '^(fleet) ' "$tmp/top.txt")
is 6 "$fleet_rows" "top: the fleet's 6 sites first"
for h in $machines; do
	is "${sites[$h]}" "$(grep -c "^$h " "$tmp/top.txt")" "top: $h's ${sites[$h]} sites under its name"
done
is "uk_site_0+0x1c/0x80 23" "$(awk '$1 == "(fleet)" && $8 == "uk_site_0+0x1c/0x80" { print $8, $2 }' "$tmp/top.txt")" \
	"top: uk_site_0 over the fleet: 11 + 10 + 2 occurrences"
is "3 machines, 6 sites, 85 occurrences: 61 events, 24 held back." "$(tail -n 1 "$tmp/top.txt")" \
	"top: the footer adds up the fleet"
ctl top -D "$coll" -n 2 --no-legend
is 8 "$(printf '%s\n' "$out" | wc -l)" "top -n 2: two sites of the fleet and of each machine"
ctl top -D "$coll" --sort name --no-legend
is "node-a node-b node-c" "$(printf '%s\n' "$out" | awk '$1 != "(fleet)" { print $1 }' | uniq | tr '\n' ' ' | sed 's/ $//')" \
	"top --sort name: machines by name"

ctl list -D "$coll"
is 0 "$rc" "list -D COLLECTOR exits 0"
printf '%s\n' "$out" >"$tmp/list.txt"
head=$(printf '%s\n' "$out" | head -n 1)
[[ "$head" =~ ^TIME\ +HOSTNAME\ +PID ]]
check $? "list: a HOSTNAME column for the fleet" "$head"
for h in $machines; do
	is "${fed_ev[$h]}" "$(printf '%s\n' "$out" | grep -c " $h ")" "list: $h's ${fed_ev[$h]} events under its name"
done
is "$total_ev entries listed." "$(printf '%s\n' "$out" | tail -n 1)" "list: $total_ev entries"
ctl list -D "$coll" --no-legend _HOSTNAME=node-c
is "0 12" "$rc $(printf '%s\n' "$out" | wc -l)" "list _HOSTNAME=node-c: that machine's events only"

# The plain verbs still ask uaccessd, not the journal.
ctl top --socket "$tmp/nonexistent"
is 4 "$rc" "top without journal options asks uaccessd (not running: exit 4)"
ctl top --kernel -D "$coll"
is 2 "$rc" "top --kernel --directory: exit 2"

# A second batch on node-a, shipped with its state file: only the new
# entries reach the collector.
before=$(centries _MACHINE_ID="${mid[node-a]}")
start_machine "${mid[node-a]}" node-a
feed node-a 8 2 1001
check $? "node-a: a second batch of 8 events at 2 sites" "$(cat "$tmp/node-a.err")"
stop_journald
cursor1=$(grep '^LAST_CURSOR=' "$tmp/state-node-a")
ship node-a
check $? "node-a: the second upload with its state file"
[ "$(grep '^LAST_CURSOR=' "$tmp/state-node-a")" != "$cursor1" ]
check $? "... which moves the saved cursor"
src=$(journalctl -D "/run/log/journal/${mid[node-a]}" -o json | grep -c .)
for _ in $(seq 100); do
	c=$(centries _MACHINE_ID="${mid[node-a]}")
	[ "$c" -ge "$src" ] && break
	sleep 0.05
done
# systemd-journal-upload 252 sends the entry at the saved cursor again
# (the last one of the previous upload): that one at most is there twice.
journalctl -D "$coll" -o json _MACHINE_ID="${mid[node-a]}" >"$tmp/coll-a.json"
journalctl -D "/run/log/journal/${mid[node-a]}" -o json \
	--cursor="${cursor1#LAST_CURSOR=}" | head -n 1 >"$tmp/at-cursor.json"
twice=$(python3 - "$tmp" "$src" <<'EOF'
import collections, json, sys
tmp, src = sys.argv[1], int(sys.argv[2])
key = lambda d: (d['_BOOT_ID'], d['__MONOTONIC_TIMESTAMP'], d['__REALTIME_TIMESTAMP'], d.get('MESSAGE'))
got = collections.Counter(key(json.loads(l)) for l in open(f'{tmp}/coll-a.json'))
at = key(json.loads(open(f'{tmp}/at-cursor.json').read()))
twice = [k for k, n in got.items() if n > 1]
if len(got) != src:
    print(f'{len(got)} distinct entries in the collector, {src} in the source')
elif twice not in ([], [at]):
    print(f'twice: {twice}, at the cursor: {at}')
else:
    print(len(twice))
EOF
)
[ "$twice" = 0 ] || [ "$twice" = 1 ]
check $? "node-a: the collector has each of its $src entries ($before before), none twice but the one at the saved cursor ($twice)" "$twice"
ctl top -D "$coll" --json
printf '%s\n' "$out" >"$tmp/top2.json"
want2=$(expect "${spec[@]}" "node-a:${mid[node-a]}:8:2:${burst[node-a]}")
verify "$want2" "$tmp/top2.json"

# The window: the second batch only, by time.
ctl top -D "$coll" --since "+1h"
is "0|No sites recorded." "$rc|$out" "top --since in the future: no sites, exit 0"
ctl top -D "$coll" -b --json
is 0 "$rc" "top -b: the newest boot (the sources share this host's)"

# Uploaded again without the state file: everything twice in the
# collector, counted once.
ship node-c ""
check $? "node-c: uploaded again, without a state file"
src=$(journalctl -D "/run/log/journal/${mid[node-c]}" -o json | grep -c .)
for _ in $(seq 100); do
	c=$(centries _MACHINE_ID="${mid[node-c]}")
	[ "$c" -ge $((2 * src)) ] && break
	sleep 0.05
done
is "$((2 * src))" "$c" "node-c: the collector now has its entries twice"
ctl top -D "$coll" --json
printf '%s\n' "$out" >"$tmp/top3.json"
verify "$want2" "$tmp/top3.json"
is "12" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["entries"]["duplicates"])' <"$tmp/top3.json")" \
	"top --json: node-c's 12 event entries counted once, reported as duplicates"
echo "$err" | grep -q "12 entries were in the journal more than once (uploaded twice?): counted once"
check $? "top: says so on stderr" "$err"

# Damaged and empty collector directories.
kill "$remote_pid" && wait "$remote_pid"
remote_pid=
grep -q "Finishing after writing" "$tmp/remote.log"
check $? "systemd-journal-remote stops cleanly" "$(tail -n 2 "$tmp/remote.log")"
mkdir "$tmp/cut" "$tmp/mixed" "$tmp/empty"
head -c 200000 "$coll/remote-127.0.0.1.journal" >"$tmp/cut/remote-127.0.0.9.journal"
ctl top -D "$tmp/cut"
is 1 "$rc" "top on a directory with only a truncated journal file: exit 1"
echo "$err" | grep -q "cannot read the journal file $tmp/cut/remote-127.0.0.9.journal (truncated)" &&
	echo "$err" | grep -q "no readable journal files in $tmp/cut"
check $? "... naming the file and saying nothing could be read" "$err"
cp "$coll/remote-127.0.0.1.journal" "$tmp/cut/remote-127.0.0.9.journal" "$tmp/mixed/"
ctl top -D "$tmp/mixed" --json
is 1 "$rc" "top with a good and a truncated file: exit 1 (the totals are incomplete)"
printf '%s\n' "$out" >"$tmp/top4.json"
python3 - "$tmp" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1] + '/top4.json'))
assert d['unreadable_files'] == [sys.argv[1] + '/mixed/remote-127.0.0.9.journal'], d['unreadable_files']
assert d['events'] == 85 + 8 and len(d['machines']) == 3, d['events']
EOF
check $? "... still printing the good file's totals, the bad file in unreadable_files"
echo "$err" | grep -q "1 journal file could not be read: the totals leave out its entries"
check $? "... and saying the totals leave it out" "$err"
ctl list -D "$tmp/mixed" --no-legend
is "1 $((total_ev + 8 + 12))" "$rc $(printf '%s\n' "$out" | wc -l)" \
	"list with a truncated file: the rest listed (node-c's twice, as the journal has them), exit 1"
mkdir "$tmp/private"
cp "$coll/remote-127.0.0.1.journal" "$tmp/private/"
chmod 600 "$tmp/private/remote-127.0.0.1.journal"
chmod 755 "$tmp" "$tmp/private"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$bin/uaccessctl" --no-pager -D "$tmp/private" top >"$tmp/out" 2>"$tmp/err"
rc=$?
is 5 "$rc" "top as a user who may not read the collector's files: exit 5 (permission)"
grep -q "permission denied: no journal file in $tmp/private is readable by this user" "$tmp/err"
check $? "... saying so" "$(cat "$tmp/err")"
ctl top -D "$tmp/empty"
is "1|uaccessctl: no journal files in $tmp/empty" "$rc|$err" "top on an empty directory: exit 1, says so"
ctl top -D "$tmp/empty" --json
is "1|" "$rc|$out" "top --json on an empty directory: exit 1, no document"

[ "$failed" = 0 ]
