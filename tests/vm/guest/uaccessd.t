#!/bin/sh
# uaccessd end to end in the guest: systemd-journald and uaccessd running,
# events from the test module land in the journal; a flood of 100,000
# triggers ends with uaccessd's per-site totals equal to the kernel's and
# every reported event received or counted lost; a kill -9 of uaccessd in
# the middle of a flood and a restart end the same way.
. /tests/lib.sh
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
sock=/run/uaccessd/control
ev_id=d3e08ea094464dd2b8ef6d7fae8ae370

if [ "$mode" != report ]; then
	echo "# mode $mode: the daemon suite runs in report mode only"
	exit 0
fi
for p in uaccessd systemd-journald journalctl uk_daemon_check; do
	command -v $p >/dev/null
	check $? "$p present in the guest"
done
[ -w "$trig" ] || { echo "not ok - test module trigger present"; exit 0; }

start_journald
check $? "systemd-journald runs in the guest" "$(tail -n 3 /tmp/journald.log | tr '\n' ' ')"

cat >/tmp/uaccessd.conf <<EOF
site_burst = 5
summary_interval = 2s
rcvbuf = 16M
EOF
starts() {	# "started" health entries of uaccessd in the journal so far
	journalctl --no-pager -o export MESSAGE_ID=7967fca40ce440eca704af1b2557114d \
		UACCESS_DAEMON_STATE=started 2>/dev/null | grep -c '^MESSAGE_ID='
}
starts_before=$(starts)
start_uaccessd
check $? "uaccessd subscribes to the kernel's events" "$(tail -n 5 /tmp/uaccessd.log)"

# A fresh start: kernel and daemon counters zeroed through uaccessd.
reset=$(uk_daemon_check call $sock '{"cmd":"reset"}' 2>&1)
case "$reset" in
*'"ok": true'*|*'"ok":true'*) check 0 "reset through uaccessd's control socket" ;;
*) check 1 "reset through uaccessd's control socket" "$reset" ;;
esac

entries() {	# entries MATCH...: journal entries of events matching
	journalctl --no-pager -o export MESSAGE_ID=$ev_id "$@" 2>/dev/null |
		grep -c '^MESSAGE_ID='
}
# until_entry TRIGGER MATCH...: trigger once a second (an earlier test may
# have left the site inside its kernel ratelimit window) until an entry
# matching shows up, at most 10 s; prints the count.
until_entry() {
	local t=$1 n=0 i
	shift
	for i in $(seq 100); do
		[ $((i % 10)) = 1 ] && echo "$t" >$trig
		n=$(entries "$@")
		[ "$n" -ge 1 ] && break
		sleep 0.1
	done
	echo "$n"
}
diag() {	# the daemon's journal counters, for a failure's context
	uk_daemon_check call $sock '{"cmd":"status"}' | tr ',' '\n' |
		grep -E '"(journal|events|journaled|lost|state)' | tr '\n' ' '
}

# One event of each kind lands in the journal with its fields.
n=$(until_entry "copy_to_user kernel-kmalloc" UACCESS_HELPER=__copy_to_user UACCESS_KIND=precheck)
check $([ "$n" -ge 1 ]; echo $?) "a precheck event of __copy_to_user is in the journal" "got $n; $(diag)"
e=$(journalctl --no-pager -o export -n 1 MESSAGE_ID=$ev_id UACCESS_HELPER=__copy_to_user)
for f in UACCESS_SEQ UACCESS_ADDRESS UACCESS_ADDR_CLASS=kernel-mapped \
	UACCESS_DIRECTION=to-user UACCESS_SITE_SYMBOL=uk_trigger_copy_to_user \
	UACCESS_COMM UACCESS_PID UACCESS_STACK UACCESS_CONTEXT=task; do
	echo "$e" | grep -q "^$f"
	check $? "the journal entry has $f" "$(echo "$e" | grep '^UACCESS_' | head -n 30 | tr '\n' ' ')"
done
n=$(until_entry "copy_user_generic kernel-unmapped" UACCESS_HELPER=copy_user_generic UACCESS_KIND=fault)
check $([ "$n" -ge 1 ]; echo $?) "a fault event of copy_user_generic is in the journal" "got $n; $(diag)"

# A flood: 100,000 hits over two sites, with the kernel's ratelimit off:
# every hit is an event, more than the kernel's queues and the socket hold.
uaccessctl set ratelimit-interval 0 >/dev/null
check $? "the kernel's per-site ratelimit off for the flood"
echo "get_user kernel-kmalloc 50000" >$trig
echo "put_user kernel-unmapped 50000" >$trig
uk_daemon_check compare $sock "flood of 100,000 events" exact
uaccessctl set ratelimit-interval 5000 >/dev/null

# kill -9 in the middle of a flood, then a restart.
(echo "copy_from_user kernel-kmalloc 2000000" >$trig) &
flood=$!
sleep 0.1
kill -9 $daemon_pid
wait $daemon_pid 2>/dev/null
start_uaccessd
check $? "uaccessd restarts after kill -9"
wait $flood
uk_daemon_check compare $sock "kill -9 mid-flood and restart"
n=$(($(starts) - starts_before))
check $([ "$n" = 2 ]; echo $?) "the journal shows both starts of uaccessd" "got $n"

kill -TERM $daemon_pid
wait $daemon_pid
check $? "uaccessd exits 0 on SIGTERM" "$(tail -n 3 /tmp/uaccessd.log)"
kill $(pidof systemd-journald) 2>/dev/null
