# Sourced by the guest tests: the detector's boot mode and a TAP line helper.
mode=$(sed -n 's/.*uaccess_kaddr=\([a-z]*\).*/\1/p' /proc/cmdline)
mode=${mode:-report}

# check STATUS DESCRIPTION WHY: "ok" when STATUS is 0, else "not ok" with WHY.
check() {
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2 # $3"; fi
}

# start_journald: systemd-journald as in a minimal system (volatile storage
# under /run, the cgroup2 hierarchy it looks itself up in); 0 once its
# socket is there and it runs.
start_journald() {
	pidof systemd-journald >/dev/null && return 0
	mkdir -p /run/systemd/journal /run/log/journal /var/log /etc
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
	[ -s /etc/machine-id ] || tr -d '-' </proc/sys/kernel/random/uuid >/etc/machine-id
	# The kernel's log is checked on the console and in dmesg; the journal
	# is for uaccessd's entries, which a flood of reports would rotate out.
	mkdir -p /etc/systemd
	printf '[Journal]\nReadKMsg=no\n' >/etc/systemd/journald.conf
	systemd-journald >>/tmp/journald.log 2>&1 &
	for _ in $(seq 100); do
		[ -S /run/systemd/journal/socket ] && break
		sleep 0.1
	done
	sleep 0.5
	[ -S /run/systemd/journal/socket ] && pidof systemd-journald >/dev/null
}

# start_uaccessd [CONFIG]: uaccessd in the background ($daemon_pid); 0 once
# it has subscribed to the kernel's events.
start_uaccessd() {
	uaccessd -c "${1:-/tmp/uaccessd.conf}" >>/tmp/uaccessd.log 2>&1 &
	daemon_pid=$!
	uk_daemon_check wait /run/uaccessd/control subscribed 20
}

# wait_reports N: wait up to 10 s for N complete uaccess-kaddr reports in the
# kernel log (they are printed by a work item, after the hit), then put the
# log, timestamps stripped, in /tmp/reports.txt.  0 when they are all there.
wait_reports() {
	for _ in $(seq 100); do
		dmesg | sed 's/^\[[^]]*\] //' >/tmp/reports.txt
		h=$(grep -c '^BUG: uaccess-kaddr: ' /tmp/reports.txt)
		r=$(grep -c '^==================================================================$' /tmp/reports.txt)
		[ "$h" -ge "$1" ] && [ "$r" -ge $((2 * h)) ] && return 0
		sleep 0.1
	done
	return 1
}

# report_line N PATTERN: the first line of /tmp/reports.txt matching the
# extended regular expression PATTERN, in report number N (from 1).  (Given
# through the environment: awk -v would take the backslashes as escapes.)
report_line() {
	n="$1" re="$2" awk '
		BEGIN { n = ENVIRON["n"]; re = ENVIRON["re"] }
		/^BUG: uaccess-kaddr: / { k++ }
		k == n && $0 ~ re { print; exit }' /tmp/reports.txt
}
