#!/bin/sh
# The demo inside the VM.  journald and uaccessd run as on a real system;
# an unprivileged process re-opens CVE-2017-5123 (the test kernel carries
# kernel/inject/: waitid() without access_ok()) and makes the kernel write
# to a kernel buffer.  Then what an admin sees: the journal entry with its
# catalog text, uaccessctl status and top, and the kernel's report.  Last,
# one access of each other kind, through the test module.
. /tests/lib.sh
export SYSTEMD_COLORS=0 SYSTEMD_PAGER=
echo 2 >/proc/sys/kernel/kptr_restrict
say() {
	echo
	echo "\$ $*"
	"$@" 2>&1
}
section() {
	echo
	echo "=== $*"
}

echo "kernel $(uname -r), $(grep -qw la57 /proc/cpuinfo && echo 5 || echo 4)-level paging, detector mode $mode"
section "journald and uaccessd start"
start_journald || echo "(journald did not start: $(tail -n 2 /tmp/journald.log))"
mkdir -p /var/lib/systemd/catalog
journalctl --update-catalog 2>/dev/null
: >/tmp/uaccessd.conf
start_uaccessd || echo "(uaccessd did not subscribe: $(tail -n 2 /tmp/uaccessd.log))"
echo "uaccessd pid $daemon_pid, subscribed to the kernel's events"

section "CVE-2017-5123: an unprivileged waitid() asks the kernel to write to kernel memory"
addr=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' /sys/kernel/debug/test_uaccess_kaddr/addresses)
echo "A kernel buffer of the test module is at $addr.  As nobody, the PoC asks"
echo "waitid() to store the child's siginfo there (infop = $addr).  Without the"
echo "detector waitid() returns 0 and nothing tells that kernel memory was written."
echo "With it, the write is refused before it happens (EFAULT) and reported:"
dmesg -c >/dev/null
say waitid_poc --as-nobody "$addr"
echo "\$ cat /sys/kernel/debug/test_uaccess_kaddr/kbuf   # the buffer's first bytes, untouched"
cat /sys/kernel/debug/test_uaccess_kaddr/kbuf
wait_reports 1
pid=$(sed -n 's/^CPU: .* PID: \([0-9]*\) Comm: waitid_poc .*/\1/p' /tmp/reports.txt | head -n 1)
sleep 1

echo
echo "--- the journal entry, with the catalog text (journalctl -x)"
say journalctl --no-pager -x -o short -n 1 MESSAGE_ID=d3e08ea094464dd2b8ef6d7fae8ae370 \
	UACCESS_COMM=waitid_poc ${pid:+UACCESS_PID=$pid}
echo
echo "--- uaccessctl status"
say uaccessctl --no-pager status
echo
echo "--- uaccessctl top"
say uaccessctl --no-pager top
echo
echo "--- the kernel's own counters and sites, in debugfs (as KFENCE's), without netlink"
say cat /sys/kernel/debug/uaccess_kaddr/stats
say cat /sys/kernel/debug/uaccess_kaddr/sites
echo
echo "--- the kernel's report, shaped like KASAN's and KFENCE's"
echo "(the address is printed as KASAN prints it, whatever kptr_restrict says:"
echo " the log of a debug kernel is for root, dmesg_restrict)"
echo "\$ dmesg"
sed -n '/^=\{66\}$/,/^=\{66\}$/p' /tmp/reports.txt

section "the other kinds of report, through the test module"
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
kind() {
	echo
	echo "* $1"
	echo "  (echo '$2 $3' > $trig)"
	dmesg -c >/dev/null
	echo "$2 $3" >"$trig" 2>/dev/null
	[ "$4" = none ] && wait_reports 0 || wait_reports 1
	grep -E '^(BUG: uaccess-kaddr|Read|Write)' /tmp/reports.txt | sed 's/^/  /'
}
kind "copy_user_generic() has no pre-access check: its #PF on an unmapped kernel address is reported" \
	copy_user_generic kernel-unmapped
kind "__get_user() on a non-canonical address: the #GP, its address decoded" \
	get_user noncanonical-low
kind "__copy_to_user() on a valid user address: nothing to report" \
	copy_to_user user-valid none
echo
say uaccessctl --no-pager list
kill -TERM "$daemon_pid"
wait "$daemon_pid"
