#!/bin/bash
# journald.t: uaccessd against a real systemd-journald on the host.
#
# Runs in a private mount namespace with tmpfs over /run and /var/log, so
# the journald it starts (as root, without systemd as PID 1) is its own
# and the host's journal, if any, is untouched.  Prints TAP.
#
#   1. a replay through uaccessd: every field of every event entry, the
#      suppressed summaries adding up, the loss entries naming gaps and
#      malformed messages, the catalog text (journalctl -x);
#   2. a FIFO replay fed in three steps with journald stopped during the
#      second: uaccessd keeps running, counts the refused entries, and once
#      journald is back writes them up as a loss entry and goes on.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}
here=$top/tests/host

. "$top/tests/lib/journald.sh"
uk_private_ns UK_JOURNALD_NS "$@"

tmp=$(mktemp -d /tmp/uk-journald.XXXXXX)
uk_journald_setup
daemon_pid=
cleanup() {
	[ -n "$daemon_pid" ] && kill -9 "$daemon_pid" 2>/dev/null
	[ -n "$journald_pid" ] && stop_journald
	rm -rf "$tmp"
}
trap cleanup EXIT

ev_id=$(msgid EVENT)
loss_id=$(msgid LOSS)
health_id=$(msgid HEALTH)

start_journald
check $? "systemd-journald starts in a private namespace" \
	"no socket after 5 s: $(tail -n 3 "$tmp/journald.log")"

# 1. A replay: 200 events at 5 sites, 2 sequence gaps, 1 cut message.
cat >"$tmp/a.conf" <<EOF
site_interval = 1h
site_burst = 3
summary_interval = 1h
EOF
"$bin/tools/uk-genreplay" -n 200 -s 5 -g 70 -m 150 "$tmp/a.rep" >"$tmp/gen.out"
out=$("$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/ctl-a" --replay "$tmp/a.rep" \
	--exit-after-replay 2>"$tmp/a.err")
rc=$?
check $rc "uaccessd --replay --exit-after-replay exits 0" "rc $rc: $(cat "$tmp/a.err")"
echo "# generated: $(cat "$tmp/gen.out"); uaccessd: $out"
for what in EVENT SUPPRESSED LOSS HEALTH; do
	jctl -o json MESSAGE_ID="$(msgid $what)" >"$tmp/$what.json"
done
python3 "$here/journald_check.py" "$tmp" "$out"

# The catalog explains the entries (journalctl -x).
mkdir -p "$tmp/catalog"
cp "$top/packaging/uaccessd.catalog" "$tmp/catalog/"
mount --bind "$tmp/catalog" /usr/lib/systemd/catalog &&
	mount -t tmpfs tmpfs /var/lib/systemd/catalog &&
	journalctl --update-catalog >"$tmp/catalog.log" 2>&1
check $? "journalctl --update-catalog takes packaging/uaccessd.catalog" \
	"$(cat "$tmp/catalog.log")"
x=$(jctl -x -n 1 MESSAGE_ID="$ev_id")
echo "$x" | grep -q "Subject: Kernel address handed to a user-access helper"
check $? "journalctl -x shows the catalog text of an event" "$(echo "$x" | head -n 3)"
x=$(jctl -x -n 1 MESSAGE_ID="$loss_id")
echo "$x" | grep -q "Subject: uaccessd lost kernel-address events"
check $? "journalctl -x shows the catalog text of a loss entry" "$(echo "$x" | head -n 3)"

# Without the kernel family (the host kernel has none): uaccessd says so
# once and waits for the controller to announce it, neither exiting nor
# spinning.
"$bin/uaccessd" -c /dev/null -s "$tmp/ctl-w" 2>"$tmp/w.err" &
wpid=$!
state=
for _ in $(seq 100); do
	state=$(python3 "$top/tests/lib/ukctl.py" "$tmp/ctl-w" '{"cmd":"status"}' 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["daemon"]["state"], d["kernel"]["available"])' 2>/dev/null)
	[ -n "$state" ] && break
	sleep 0.05
done
sleep 2
cpu=$(awk '{ print $14 + $15 }' "/proc/$wpid/stat" 2>/dev/null)
kill -0 "$wpid" 2>/dev/null
alive=$?
check $([ "$state" = "waiting-for-kernel False" ] && [ "$alive" = 0 ]; echo $?) \
	"no kernel family: uaccessd keeps running, waiting for it" \
	"state, kernel available: '$state', alive: $alive, $(cat "$tmp/w.err")"
check $([ "${cpu:-999}" -lt 50 ]; echo $?) \
	"no kernel family: it waits without spinning (CPU ticks in 2 s: ${cpu:-?})"
kill -TERM "$wpid"
wait "$wpid"
check $? "no kernel family: SIGTERM still exits 0"
n=$(settle 1 MESSAGE_ID="$health_id" UACCESS_DAEMON_STATE=family-absent)
check $([ "$n" = 1 ]; echo $?) "no kernel family: said once in the journal, at WARNING" "got $n entries"

# 2. journald stopped mid-run: three steps of 100 events through a FIFO,
# journald down during the second.
cat >"$tmp/b.conf" <<EOF
site_burst = 10000
global_rate = 1000000
global_burst = 1000000
summary_interval = 1h
EOF
for i in 0 1 2; do
	"$bin/tools/uk-genreplay" -n 100 -s 4 -S $((i * 100 + 1)) \
		"$tmp/b$i.rep" >/dev/null
done
mkfifo "$tmp/fifo"
"$bin/uaccessd" -c "$tmp/b.conf" -s "$tmp/ctl-b" --replay "$tmp/fifo" \
	2>"$tmp/b.err" &
daemon_pid=$!
exec 3>"$tmp/fifo"
status() {
	python3 "$top/tests/lib/ukctl.py" "$tmp/ctl-b" '{"cmd":"status"}'
}
# field NAME: a number of the daemon's status
field() {
	status | python3 -c "import json,sys; print(json.load(sys.stdin)['daemon']['$1'])"
}
# wait_events N: until the daemon has taken N events
wait_events() {
	local s=
	for _ in $(seq 200); do
		s=$(field events 2>/dev/null)
		[ "$s" = "$1" ] && return 0
		sleep 0.05
	done
	echo "# daemon has ${s:-no} events, want $1"
	return 1
}
before=$(jcount MESSAGE_ID="$ev_id")
cat "$tmp/b0.rep" >&3
wait_events 100
check $? "step 1: uaccessd takes 100 events from the FIFO"
step1=$(($(settle $((before + 100)) MESSAGE_ID="$ev_id") - before))
check $((step1 != 100)) "step 1: 100 event entries in the journal" "got $step1"

stop_journald
tail -c +17 "$tmp/b1.rep" >&3
wait_events 200
check $? "step 2, journald stopped: uaccessd takes the next 100 events"
kill -0 "$daemon_pid" 2>/dev/null
check $? "step 2: uaccessd keeps running without journald"
got="$(field journal_lost_events) $(field lost)"
check $([ "$got" = "100 100" ]; echo $?) \
	"step 2: the 100 refused event entries are counted as lost" \
	"journal_lost_events, lost: $got"

start_journald
check $? "step 3: journald starts again"
tail -c +17 "$tmp/b2.rep" >&3
wait_events 300
check $? "step 3: uaccessd takes the last 100 events"
step3=$(($(settle $((before + step1 + 100)) MESSAGE_ID="$ev_id") - before - step1))
check $((step3 != 100)) "step 3: the last 100 event entries are in the journal" \
	"got $step3"
lost=$(jctl -o json MESSAGE_ID="$loss_id" UACCESS_LOSS_REASON=journal-send-failed |
	python3 -c 'import json,sys; print(max([int(json.loads(l)["UACCESS_LOSS_TOTAL"]) for l in sys.stdin if l.strip()] or [0]))')
check $([ "$lost" -ge 100 ]; echo $?) \
	"step 3: a loss entry reports the entries the journal refused" \
	"total reported: $lost"

# SIGHUP: a bad file is refused and the old configuration stays; a good
# one is taken.
cfgval() {
	status | python3 -c "import json,sys; print(json.load(sys.stdin)['daemon']['config']['$1'])"
}
reloads() {
	echo "$(field reloads) $(field reload_failures)"
}
cp "$tmp/b.conf" "$tmp/b.good"
echo "site_burst = many" >>"$tmp/b.conf"
kill -HUP "$daemon_pid"
for _ in $(seq 50); do [ "$(reloads)" = "0 1" ] && break; sleep 0.05; done
got="$(reloads) $(cfgval site_burst)"
check $([ "$got" = "0 1 10000" ]; echo $?) \
	"SIGHUP with a bad line: refused, the old configuration stays" \
	"reloads, failures, site_burst: $got"
n=$(settle 1 MESSAGE_ID="$health_id" UACCESS_DAEMON_STATE=reload-failed)
msg=$(jctl -o cat MESSAGE_ID="$health_id" UACCESS_DAEMON_STATE=reload-failed | tail -n 1)
check $([ "$n" = 1 ] && echo "$msg" | grep -q "b.conf:5: "; echo $?) \
	"SIGHUP with a bad line: an ERR entry names the file and line" "$n entries: $msg"
# Under systemd stderr goes to the journal too: the entry is the one record.
check $(grep -q "b.conf:5: " "$tmp/b.err"; [ $? = 1 ]; echo $?) \
	"SIGHUP with a bad line: said once (the entry), not again on stderr" \
	"$(grep "b.conf:5: " "$tmp/b.err")"
sed 's/site_burst = 10000/site_burst = 7/' "$tmp/b.good" >"$tmp/b.conf"
kill -HUP "$daemon_pid"
for _ in $(seq 50); do [ "$(reloads)" = "1 1" ] && break; sleep 0.05; done
got="$(reloads) $(cfgval site_burst)"
check $([ "$got" = "1 1 7" ]; echo $?) "SIGHUP with a good file: taken" \
	"reloads, failures, site_burst: $got"

exec 3>&-
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
bpid=$daemon_pid
daemon_pid=
check $rc "SIGTERM: uaccessd exits 0" "rc $rc: $(tail -n 3 "$tmp/b.err")"
n=$(jcount MESSAGE_ID="$health_id" UACCESS_DAEMON_STATE=stopping _PID="$bpid")
check $((n != 1)) "SIGTERM: one 'stopping' health entry" "got $n"
