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
# The system call that made it: the shell's write(1, line, 28) to the
# trigger file, as the task entered the kernel.
for f in UACCESS_SYSCALL_NR=1 UACCESS_SYSCALL_ARCH=x86_64 \
	'UACCESS_SYSCALL_ARGS=0x1 0x[0-9a-f]+ 0x1[bc]( 0x[0-9a-f]+){3}'; do
	echo "$e" | grep -Eq "^$f\$"
	check $? "the journal entry has ${f%%=*} ${f#*=}" "$(echo "$e" | grep '^UACCESS_SYSCALL')"
done
n=$(until_entry "copy_user_generic kernel-unmapped" UACCESS_HELPER=copy_user_generic UACCESS_KIND=fault)
check $([ "$n" -ge 1 ]; echo $?) "a fault event of copy_user_generic is in the journal" "got $n; $(diag)"

# Requests of an unprivileged user flood the control socket while the
# kernel sends events: uaccessd still reads every event the kernel sends
# (the clients are served below the events, the others' replies built at
# a bounded rate and shared).  8 loops of "uaccessctl sites --json" and
# "status --json" as nobody, during 9,600 events.
# Once a boot line, in its plain 5-level boot (not KASAN's, not the
# access=allow one): the flood costs about 35 s of TCG.
flood_requests=yes
grep -q 'uaccess_test.paging=5' /proc/cmdline || flood_requests=
grep -q 'uaccess_kaddr_access=' /proc/cmdline && flood_requests=
grep -q 'KernelAddressSanitizer initialized' /tmp/kmsg.txt && flood_requests=
counters() {	# lost, kernel dropped, overruns, control built/shared/delayed/refused, events
	uk_daemon_check call $sock '{"cmd":"status"}' | uk_daemon_check json \
		daemon.lost kernel.dropped daemon.overruns daemon.control.built \
		daemon.control.shared daemon.control.delayed \
		daemon.control.refused daemon.events | tr '\n' ' '
}
if [ -n "$flood_requests" ]; then
	uaccessctl set ratelimit-interval 0 >/dev/null
	# Paced, the kernel reports every one of the 9,600 hits: not on the
	# serial console (a TCG guest would take minutes to write it), only in the
	# log buffer (journald does not read it: start_journald).
	console_level=$(cut -f1 /proc/sys/kernel/printk)
	echo 1 >/proc/sys/kernel/printk
	before=$(counters)
	rm -f /tmp/stop-requests
	loops=
	for i in 1 2 3 4 5 6 7 8; do
		(
			n=0
			while [ ! -e /tmp/stop-requests ]; do
				verb=sites; [ $((i % 2)) = 0 ] && verb=status
				uk_daemon_check as-nobody uaccessctl $verb --json >/dev/null 2>&1
				n=$((n + 1))
			done
			echo $n >/tmp/requests.$i
		) &
		loops="$loops $!"
	done
	sleep 1
	# 48 hits a write and a pause, so that the kernel's per-CPU queue (64
	# events) can be drained in between; what the kernel still drops when its
	# drain work comes late (the guest's CPUs are busy with the requests) it
	# counts, and uaccessd counts it lost for that reason.
	for k in $(seq 200); do
		echo "get_user kernel-kmalloc 24" >$trig
		echo "put_user kernel-unmapped 24" >$trig
		sleep 0.01
	done
	touch /tmp/stop-requests
	wait $loops	# not uaccessd, also a child of this shell
	after=$(counters)
	reqs=$(cat /tmp/requests.* | awk '{ n += $1 } END { print n }')
	echo "# before: lost dropped overruns built shared delayed refused events = $before"
	echo "# after:  lost dropped overruns built shared delayed refused events = $after"
	echo "# $reqs requests by nobody during 9,600 events"
	set -- $before
	lost0=$1 drop0=$2 over0=$3
	set -- $after
	check $([ $(($1 - lost0)) = $(($2 - drop0)) ] && [ "$3" = "$over0" ]; echo $?) \
		"an unprivileged flood of requests during 9,600 events: uaccessd lost none (all it counts lost the kernel dropped)" \
		"lost $lost0 -> $1, kernel dropped $drop0 -> $2, socket overruns $over0 -> $3"
	check $([ "${reqs:-0}" -gt 8 ] && [ $(($5 + $6)) -gt 0 ]; echo $?) \
		"the unprivileged requests were answered (shared or delayed, not only built)" \
		"$reqs requests; built/shared/delayed/refused: $4 $5 $6 $7"
	uk_daemon_check compare $sock "requests and events flood" exact
	uaccessctl set ratelimit-interval 5000 >/dev/null
	echo "$console_level" >/proc/sys/kernel/printk
else
	echo "# the request flood runs in the plain 5-level boot of each line"
fi

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
