#!/bin/bash
# The full-system test inside a Debian 12 guest booted with systemd as PID 1
# and the uaccessd package installed: the unit starts and is READY, survives
# restart, kill -9 and a watchdog timeout, is sandboxed as the unit says,
# and an unprivileged CVE-2017-5123 PoC lands in the journal with the
# catalog text and in the same sites row from the kernel, uaccessd and the
# journal.  TAP on stdout; the last line tells the host we finished.
set -uo pipefail
export SYSTEMD_COLORS=0 SYSTEMD_PAGER= LC_ALL=C.UTF-8
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
# check DESCRIPTION CMD...: ok when CMD succeeds; its output shown otherwise.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		nok "$desc"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
	fi
}
prop() { systemctl show -p "$1" --value uaccessd.service; }
# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.2
	done
}
subscribed() { uaccessctl --json status | grep -q '"state":"subscribed"'; }
# has_entry ARGS...: journalctl with ARGS finds at least one entry.
has_entry() { [ -n "$(journalctl -q -o cat "$@")" ]; }
# running_again OLD_PID: the unit is active with a main PID other than OLD_PID
# and uaccessd has subscribed to the kernel's events again.
running_again() {
	local pid
	pid=$(prop MainPID)
	[ "$(prop ActiveState)" = active ] && [ "$pid" != 0 ] && [ "$pid" != "$1" ] &&
		subscribed
}
event_id=d3e08ea094464dd2b8ef6d7fae8ae370

echo "# uaccess-system: $(uname -r), $(systemctl --version | head -n 1)"
echo "# $(systemd-analyze time 2>&1 | head -n 1)"

check "systemd is PID 1 and the system is running" \
	bash -c '[ "$(cat /proc/1/comm)" = systemd ] && timeout 120 systemctl is-system-running --wait | grep -Eq "running|degraded"'
for u in $(systemctl --failed --no-legend --plain | awk '{ print $1 }'); do
	echo "# failed unit: $u"
	journalctl -q -b -u "$u" -n 5 | sed 's/^/#   /'
done
check "uaccessd.service is enabled by the package" systemctl is-enabled uaccessd.service
check "uaccessd.service's condition holds on the patched kernel (/sys/module/uaccess_kaddr)" \
	bash -c '[ "$(systemctl show -p ConditionResult --value uaccessd)" = yes ]'
check "uaccessd.service is active (Type=notify: READY=1 was sent)" \
	bash -c '[ "$(systemctl show -p Type --value uaccessd)" = notify ] && systemctl is-active uaccessd'
check "uaccessd's status text reached systemd (STATUS=)" \
	bash -c '[ -n "$(systemctl show -p StatusText --value uaccessd)" ]'
echo "# StatusText: $(prop StatusText)"
check "uaccessd subscribed to the kernel's events" \
	wait_for 20 subscribed

pid=$(prop MainPID)
echo "# $(grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/"$pid"/status | tr '\t\n' '  ')"
check "sandbox: capabilities bounded to CAP_SYS_ADMIN and CAP_NET_ADMIN" \
	bash -c "grep -q '^CapBnd:[[:space:]]*0000000000201000$' /proc/$pid/status"
check "sandbox: no new privileges and a seccomp filter" \
	bash -c "grep -q '^NoNewPrivs:[[:space:]]*1$' /proc/$pid/status && grep -q '^Seccomp:[[:space:]]*2$' /proc/$pid/status"
check "sandbox: / is read-only for uaccessd (ProtectSystem=strict)" \
	bash -c "grep -E '^[^ ]+ / ' /proc/$pid/mounts | grep -q '[ ,]ro[ ,]'"
exposure=$(systemd-analyze security uaccessd.service 2>/dev/null |
	sed -n 's/.*Overall exposure level for uaccessd.service: \([0-9.]*\).*/\1/p')
echo "# systemd-analyze security uaccessd.service: exposure ${exposure:-?}"
check "systemd-analyze security: exposure at most 2.0 (${exposure:-none})" \
	awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 2.0) }'
cg=/sys/fs/cgroup$(prop ControlGroup)
check "uaccessd's memory bounded by its cgroup (MemoryMax=768M: $(cat "$cg/memory.max" 2>&1))" \
	bash -c "[ \"\$(cat '$cg/memory.max')\" = 805306368 ]"

# CVE-2017-5123, re-opened in the test kernel: an unprivileged process makes
# waitid() write its siginfo to a kernel address.
addr=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' /sys/kernel/debug/test_uaccess_kaddr/addresses)
check "the test module gives a kernel buffer address" test -n "$addr"
since=$(date '+%Y-%m-%d %H:%M:%S')
poc_out=$(/usr/local/bin/waitid_poc --as-nobody "$addr" 2>&1)
echo "$poc_out" | sed 's/^/# poc: /'
poc_pid=$(echo "$poc_out" | sed -n 's/^waitid_poc: pid=\([0-9]*\) .*/\1/p' | head -n 1)
check "the PoC ran as nobody" bash -c "echo '$poc_out' | grep -q 'uid=65534'"
check "the event reached the journal, naming the PoC's pid" \
	wait_for 20 has_entry --since "$since" MESSAGE_ID=$event_id UACCESS_PID="$poc_pid"
journalctl --no-pager -x -o short --since "$since" MESSAGE_ID=$event_id UACCESS_PID="$poc_pid" -n 1 >/tmp/entry.txt 2>&1
sed 's/^/# /' /tmp/entry.txt
check "journalctl -x shows the catalog text with the entry's fields" \
	bash -c 'grep -q "Subject: Kernel address handed to a user-access helper" /tmp/entry.txt &&
		grep -q "CVE-2017-5123" /tmp/entry.txt && grep -q "unsafe_put_user" /tmp/entry.txt &&
		grep -q "waitid" /tmp/entry.txt'
journalctl -o export --since "$since" MESSAGE_ID=$event_id UACCESS_PID="$poc_pid" -n 1 >/tmp/entry.export
for want in UACCESS_HELPER=unsafe_put_user UACCESS_DIRECTION=to-user \
	UACCESS_KIND=precheck UACCESS_ADDR_CLASS=kernel-mapped \
	UACCESS_SITE_FUNCTION=__do_sys_waitid UACCESS_COMM=waitid_poc \
	UACCESS_UID=65534 _SYSTEMD_UNIT=uaccessd.service PRIORITY=4; do
	check "the entry has $want" grep -qx "$want" /tmp/entry.export
done
check "the kernel log has the matching report" \
	bash -c "dmesg | grep -A2 -E 'BUG: uaccess-kaddr: unsafe_put_user to kernel address in [^ ]*waitid' |
		grep -qE 'UID: 65534 PID: $poc_pid Comm: waitid_poc '"
dmesg | grep -A3 'BUG: uaccess-kaddr: ' | tail -n 4 | sed 's/^/# dmesg: /'

# The PoC's site from the three sources of sites --json (docs/json-output.md):
# the kernel's dump-sites, uaccessd's table and this boot's journal.  The
# keys two sources share must agree, exactly but for the times: the kernel
# stamps a site apart from the event it sends (a site's last hit once a
# jiffy), uaccessd takes the kernel's earlier first hit when it merges the
# kernel's table, and wall-clock times made from boot-time stamps add an
# offset of two clock reads: a jiffy and two clock reads apart at most, so
# 50 ms (json-output.md).
uaccessctl --no-pager sites --kernel --json >/tmp/sites.netlink.json 2>&1
uaccessctl --no-pager sites --json >/tmp/sites.uaccessd.json 2>&1
uaccessctl --no-pager sites --json -b >/tmp/sites.journal.json 2>&1
# json SOURCE PATH: the value at PATH of the source's document, or (missing)
json() { uk_daemon_check json "$2" <"/tmp/sites.$1.json" 2>&1; }
# waitid_row SOURCE ROWS: the path of the PoC's row in the array ROWS
waitid_row() {
	local i n
	n=$(json "$1" "#$2") || return 1
	for ((i = 0; i < n; i++)); do
		[[ $(json "$1" "$2.$i.site_symbol") == __do_sys_waitid+* ]] &&
			[ "$(json "$1" "$2.$i.helper")" = unsafe_put_user ] &&
			{ echo "$2.$i"; return 0; }
	done
	return 1
}
declare -A row=(
	[netlink]=$(waitid_row netlink sites)
	[uaccessd]=$(waitid_row uaccessd sites)
	[journal]=$(waitid_row journal machines.0.sites)
)
for src in netlink uaccessd journal; do
	echo "# sites --json, $src: $(json "$src" "${row[$src]:-no-row}")"
done
# same_keys A B SLACK_USEC KEY...: the rows of sources A and B have each KEY,
# with the same value; times (*_usec) at most SLACK_USEC apart.
same_keys() {
	local a=$1 b=$2 slack=$3 k va vb d bad=
	shift 3
	for k; do
		va=$(json "$a" "${row[$a]}.$k")
		vb=$(json "$b" "${row[$b]}.$k")
		if [[ $k == *_usec && $va =~ ^[0-9]+$ && $vb =~ ^[0-9]+$ ]]; then
			d=$((va > vb ? va - vb : vb - va))
			[ "$d" -le "$slack" ] || bad+="$k: $a $va, $b $vb ($d us apart); "
		elif [ "$va" != "$vb" ] || [ "$va" = "(missing)" ]; then
			bad+="$k: $a $va, $b $vb; "
		fi
	done
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check "sites --json: the kernel, uaccessd and the journal each have the PoC's site" \
	test -n "${row[netlink]}" -a -n "${row[uaccessd]}" -a -n "${row[journal]}"
check "sites --json: the kernel's row and uaccessd's agree on every key they share (times within 50 ms)" \
	same_keys netlink uaccessd 50000 site_id site_symbol site_ip kind helper \
	direction count kernel_suppressed kernel_reported first_usec last_usec \
	first_boot_usec last_boot_usec last_address
check "sites --json: uaccessd's row and the journal's agree on every key they share (times within 50 ms)" \
	same_keys uaccessd journal 50000 site_symbol site_ip kind helper direction \
	events journaled journal_suppressed first_usec last_usec last_address
check "sites --json: the kernel's row and the journal's agree on every key they share (times within 50 ms)" \
	same_keys netlink journal 50000 site_symbol site_ip kind helper direction \
	first_usec last_usec last_address
check "uaccessctl top names the waitid site" \
	bash -c 'uaccessctl --no-pager top | grep -q waitid'
uaccessctl --no-pager top | sed 's/^/# /'

# On a terminal (script(1) gives uaccessctl a pty of the size asked for):
# the tables fit it, cutting the SITE column and dropping the times at 80.
on_tty() {
	cols=$1
	shift
	LC_ALL=C.UTF-8 script -qec "stty cols $cols rows 60; $*" /dev/null |
		tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g'
}
widest() { LC_ALL=C.UTF-8 wc -L; }
for cols in 80 200; do
	on_tty "$cols" uaccessctl --no-pager top >/tmp/top.$cols
	sed "s/^/# top at $cols columns: /" /tmp/top.$cols
	check "uaccessctl top on a $cols-column terminal: no line wider ($(widest </tmp/top.$cols))" \
		bash -c "[ \$(LC_ALL=C.UTF-8 wc -L </tmp/top.$cols) -le $cols ] && grep -q waitid /tmp/top.$cols"
done
check "uaccessctl top on 200 columns shows FIRST and LAST, on 80 it leaves them out" \
	bash -c 'head -n 1 /tmp/top.200 | grep -q "FIRST.*LAST" && ! head -n 1 /tmp/top.80 | grep -q FIRST'

# systemctl restart: a new process, subscribed again, the counts kept.
# COUNT and SITE of every site: uaccessd's first/last times are its own.
site_counts() { uaccessctl --no-pager --no-legend sites | awk '{ print $1, $5 }' | sort; }
before=$(site_counts)
old=$(prop MainPID)
check "systemctl restart uaccessd" systemctl restart uaccessd
check "after restart: active again with a new main PID and subscribed" wait_for 20 running_again "$old"
check "after restart: the sites re-synced from the kernel are the same" \
	test "$(site_counts)" = "$before"

# kill -9: Restart=on-failure brings it back.
old=$(prop MainPID)
restarts=$(prop NRestarts)
kill -9 "$old"
check "after kill -9: restarted by systemd (Restart=on-failure)" wait_for 30 running_again "$old"
check "after kill -9: NRestarts went up by one" \
	bash -c "[ \"\$(systemctl show -p NRestarts --value uaccessd)\" = $((restarts + 1)) ]"

# The watchdog: a stopped uaccessd stops sending WATCHDOG=1 and systemd kills
# and restarts it.  The unit's 30 s is shortened for the test by a drop-in.
mkdir -p /run/systemd/system/uaccessd.service.d
printf '[Service]\nWatchdogSec=3s\n' >/run/systemd/system/uaccessd.service.d/watchdog.conf
systemctl daemon-reload
systemctl restart uaccessd
wait_for 20 running_again 0
old=$(prop MainPID)
sleep 4
check "a running uaccessd keeps the 3 s watchdog fed" \
	bash -c "[ \"\$(systemctl show -p MainPID --value uaccessd)\" = $old ]"
wd_since=$(date '+%Y-%m-%d %H:%M:%S')
kill -STOP "$old"
check "a stopped uaccessd: the watchdog fires and systemd restarts it" wait_for 30 running_again "$old"
check "the journal says the watchdog fired" \
	bash -c "journalctl -q --since '$wd_since' -u uaccessd | grep -qi 'watchdog timeout'"
rm -r /run/systemd/system/uaccessd.service.d
systemctl daemon-reload
systemctl restart uaccessd
wait_for 20 running_again 0

check "uaccessctl status: no loss at any layer (exit 0)" uaccessctl --no-pager status
uaccessctl --no-pager status | sed 's/^/# /'
on_tty 80 uaccessctl --no-pager status >/tmp/status.80
sed 's/^/# status at 80 columns: /' /tmp/status.80
check "uaccessctl status on an 80-column terminal: no line wider ($(widest </tmp/status.80))" \
	bash -c '[ $(LC_ALL=C.UTF-8 wc -L </tmp/status.80) -le 80 ] && grep -q "Access:" /tmp/status.80'
old=$(prop MainPID)
check "systemctl reload: uaccessd re-reads its configuration" \
	bash -c 'systemctl reload uaccessd && uaccessctl --json status | grep -q "\"reloads\":1,"'
cp /etc/uaccessd.conf /tmp/uaccessd.conf.good
echo "site_burst = many" >>/etc/uaccessd.conf
check "systemctl reload with a bad line fails, naming it" \
	bash -c '! systemctl reload uaccessd 2>/dev/null &&
		journalctl -q -u uaccessd -n 20 | grep -q "uaccessd.conf:[0-9]*"'
check "... and uaccessd keeps running with its old configuration" \
	bash -c "[ \"\$(systemctl show -p MainPID --value uaccessd)\" = $old ] && systemctl is-active uaccessd"
cp /tmp/uaccessd.conf.good /etc/uaccessd.conf
check "systemctl stop: uaccessd exits cleanly" \
	bash -c 'systemctl stop uaccessd && [ "$(systemctl show -p Result --value uaccessd)" = success ]'
systemctl start uaccessd

echo "1..$n"
echo "# uaccess-vm: done"
