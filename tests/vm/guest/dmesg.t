#!/bin/sh
# The report in the kernel log, for each kind of hit: its shape (as KASAN's
# and KFENCE's), what it names, that it shows the address, how often it
# comes.  The host checks the same reports on the console as syzkaller
# titles them (tests/vm/report_format.py).
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
. /tests/lib.sh

if [ ! -w "$trig" ]; then
	echo "not ok - test module loaded # $trig missing"
	exit 0
fi
ruler='^==================================================================$'
# hit 'HELPER CLASS': one hit on a cleared log.
# gp_warning HELPER: HELPER's access to a non-canonical address, its kernel
# log in /tmp/gp-warning.txt, between the markers that the boot's log
# check skips (the kernel's own warning of a user access's #GP is expected
# there).
gp_warning() {
	echo "dmesg.t: the upstream user-access #GP warning follows" >/dev/kmsg
	dmesg -c >/dev/null
	echo "$1 noncanonical" >"$trig"
	dmesg >/tmp/gp-warning.txt
	echo "dmesg.t: end of the upstream user-access #GP warning" >/dev/kmsg
}

hit() {
	dmesg -c >/dev/null
	echo "$1" >"$trig"
}
# expect N WHAT PATTERN: report N has a line matching PATTERN.
expect() {
	l=$(report_line "$1" "$3")
	check "$([ -n "$l" ] && echo 0 || echo 1)" "$2" "no line /$3/ in: $(head -n 12 /tmp/reports.txt | tr '\n' '|')"
}

# Every hit of a site reported (the ratelimit has its own check below).
uaccessctl set ratelimit-interval 0 >/dev/null 2>&1 ||
	check 1 "uaccessctl set ratelimit-interval 0" "$(uaccessctl set ratelimit-interval 0 2>&1)"

# debugfs: the counters count the hit in every mode but off; the sites file
# lists its site.
stats=/sys/kernel/debug/uaccess_kaddr/stats
hits() { sed -n 's/^hits \[precheck\]: //p' "$stats"; }
before=$(hits)
dmesg -c >/dev/null
echo "copy_from_user kernel-unmapped" >"$trig"
after=$(hits)
want=$((before + 1))
[ "$mode" = off ] && want=$before
check "$([ -n "$before" ] && [ "$after" = "$want" ] && echo 0 || echo 1)" \
	"debugfs stats: hits [precheck] $before -> $after in mode $mode" "want $want; $(tr '\n' '|' <"$stats")"
check "$(grep -qx "mode: $mode" "$stats" && echo 0 || echo 1)" "debugfs stats: the mode" "$(head -n 1 "$stats")"
# sysfs: the read-only parameter that tells user space the detector is
# there (uaccessd's unit has a condition on it), with the same mode.
param=/sys/module/uaccess_kaddr/parameters/mode
check "$([ "$(cat "$param" 2>&1)" = "$mode" ] && echo 0 || echo 1)" \
	"sysfs $param: the mode" "$(cat "$param" 2>&1)"
check "$(echo report 2>/dev/null >"$param" && echo 1 || echo 0)" \
	"sysfs $param: read-only" "a write succeeded"
if [ "$mode" != off ]; then
	check "$(grep -qE '^[0-9]+ [0-9]+ [0-9]+ precheck __get_user from user uk_trigger_get_user\+0x' \
		/sys/kernel/debug/uaccess_kaddr/sites && echo 0 || echo 1)" \
		"debugfs sites: the site of the hit" "$(tail -n 3 /sys/kernel/debug/uaccess_kaddr/sites | tr '\n' '|')"
fi
sed 's/^/# /' "$stats"
# The site table and event buffers are allocated when the detector is
# first on: at boot in every mode but off; booted off, not before the KUnit
# suite switches it on (and never without the suite).
bytes=$(sed -n 's/^buffers: \([0-9]*\) bytes$/\1/p' "$stats")
boot_log=$(sed 's/^[^;]*;//' /tmp/kmsg.txt)
alloc_at=$(echo "$boot_log" | grep -n 'uaccess_kaddr: [0-9]* bytes of site table and event buffers allocated$' | cut -d: -f1)
suite_at=$(echo "$boot_log" | grep -n '# Subtest: uaccess_kaddr$' | head -n 1 | cut -d: -f1)
if [ "$mode" = off ] && [ -z "$suite_at" ]; then
	ok=$([ -z "$alloc_at" ] && [ "$bytes" = 0 ] && echo 0 || echo 1)
elif [ "$mode" = off ]; then
	ok=$([ -n "$alloc_at" ] && [ "$alloc_at" -gt "$suite_at" ] && [ "${bytes:-0}" -gt 0 ] && echo 0 || echo 1)
else
	ok=$([ -n "$alloc_at" ] && { [ -z "$suite_at" ] || [ "$alloc_at" -lt "$suite_at" ]; } &&
		[ "${bytes:-0}" -gt 0 ] && echo 0 || echo 1)
fi
check "$ok" "buffers allocated when first on (mode $mode: ${bytes:-?} bytes)" \
	"allocation at log line ${alloc_at:-none}, KUnit suite at ${suite_at:-none}"
# Its report, printed later by a work item, must not run into the next test.
case "$mode" in report|warn) wait_reports 1 ;; esac

# The address shows whatever kptr_restrict says, as in KASAN's reports.
echo 2 >/proc/sys/kernel/kptr_restrict
hit "get_user kernel-kmalloc"
case "$mode" in
off|count)
	# No event is even recorded: nothing can be printed later.
	wait_reports 0
	check "$(grep -c 'uaccess-kaddr' /tmp/reports.txt)" "mode $mode prints no report" "$(head -n 3 /tmp/reports.txt)"
	if [ "$mode" = off ]; then
		check "$(grep -c 'WARNING' /tmp/reports.txt)" "mode off warns nothing" "$(grep WARNING /tmp/reports.txt)"
	fi
	# A detector that reports nothing leaves the kernel's own warning of
	# a user access's #GP (ex_handler_uaccess()) as it is without it.
	# The boot's log check skips what lies between the markers.
	gp_warning copy_user_generic
	check "$(grep -q 'General protection fault in user access' /tmp/gp-warning.txt && echo 0 || echo 1)" \
		"mode $mode: ex_handler_uaccess() still warns of a user access's #GP" \
		"$(head -n 3 /tmp/gp-warning.txt | tr '\n' '|')"
	exit 0
	;;
esac
wait_reports 1 || check 1 "precheck: a report within 10 s" "$(tail -n 5 /tmp/reports.txt)"
expect 1 "precheck: header names helper, direction and caller (module)" \
	'^BUG: uaccess-kaddr: __get_user from kernel address in uk_trigger_get_user\+0x[0-9a-f]+/0x[0-9a-f]+ \[test_uaccess_kaddr\]$'
expect 1 "precheck: the access, the raw address (kptr_restrict=2), blocked" \
	'^Read of 8 bytes from mapped kernel address 0xff[0-9a-f]{14} \(access blocked\)$'
expect 1 "precheck: the task that made the access" \
	'^CPU: [0-9]+ UID: 0 PID: [0-9]+ Comm: [^ ]+ (Not tainted|Tainted: [A-Z ]+) [^ ]+$'
expect 1 "precheck: a call trace from the call site" '^ uk_trigger_get_user\+0x'
expect 1 "precheck: the site's counts" '^Site: 1 hit, 0 suppressed since the last report$'
if grep -q 'KernelAddressSanitizer initialized' /tmp/kmsg.txt; then
	# For the record: the KUnit suite's report of a freed object, with the
	# stacks that KASAN prints below the console's log level.
	sed 's/^[^;]*;//' /tmp/kmsg.txt | awk '
		/^==========/ { if (keep) { print; exit } n = 0; delete b }
		keep { print; next }
		{ b[n++] = $0 }
		/slab-use-after-free\): the bug is/ { keep = 1; for (i = 0; i < n; i++) print b[i]; n = 0 }' |
		sed 's/^/# /'

	expect 1 "precheck: KASAN's description of the object the address reaches" \
		'^The buggy address belongs to the object at [0-9a-f]+$'
	expect 1 "precheck: KASAN's shadow finds every byte accessible" '^Shadow memory: every byte of the range is accessible$'
else
	expect 1 "precheck: the slab object the address reaches" \
		'^The address belongs to the object at 0xff[0-9a-f]{14} which belongs to the cache kmalloc-[0-9a-z]+ of size [0-9]+'
fi
n=$(grep -cE "$ruler" /tmp/reports.txt)
check "$([ "$n" = 2 ] && echo 0 || echo 1)" "precheck: one report between two rulers" "$n rulers"
if [ "$mode" = warn ]; then
	expect 1 "mode warn: the report shows the kernel tainted W" '^CPU: .* Tainted: [A-Z ]*W'
	check "$(grep -c 'WARNING:\|cut here' /tmp/reports.txt)" "mode warn: the same report, no WARNING splat" \
		"$(grep 'WARNING:\|cut here' /tmp/reports.txt)"
fi

# Without a pre-access check, the fault detector reports the #PF.
hit "copy_user_generic kernel-unmapped"
wait_reports 1
expect 1 "fault: header names copy_user_generic and its caller" \
	'^BUG: uaccess-kaddr: copy_user_generic from kernel address in uk_trigger_copy_user_generic\+0x'
expect 1 "fault: a read from an unmapped kernel address, failed" \
	'^Read from unmapped kernel address 0xff[0-9a-f]{14} \(page fault, access failed\)$'

# marker: a hit at another site after hits that must not be reported;
# prints how many other reports there are.  Reports come out in the order
# of the hits: once the marker's is printed, any report of the hits before
# it would be too.
marker() {
	echo "clear_user kernel-kmalloc" >"$trig"
	wait_reports 1
	grep '^BUG: uaccess-kaddr: ' /tmp/reports.txt | grep -vc ' in uk_trigger_clear_user+'
}

# A lower-half non-canonical address raises #GP with 4-level paging only.
hit "get_user noncanonical-low"
if grep -qw la57 /proc/cpuinfo; then
	check "$(marker)" "5-level paging: 0x0080000000000000 is a user address, no report" \
		"$(grep '^BUG: ' /tmp/reports.txt)"
else
	wait_reports 1
	expect 1 "gp: header names __get_user, a non-canonical (not kernel) address and its caller" \
		'^BUG: uaccess-kaddr: __get_user from non-canonical address in uk_trigger_get_user\+0x'
	expect 1 "gp: the #GP's address decoded, the access failed" \
		'^Read from non-canonical address 0x80000000000000 \(#GP, access failed\)$'
fi

# Two call sites, two reports: the host checks that their titles differ.
dmesg -c >/dev/null
echo "put_user kernel-stack" >"$trig"
echo "unsafe_put_user kernel-stack" >"$trig"
wait_reports 2
expect 1 "two sites: the first report names __put_user" '^BUG: uaccess-kaddr: __put_user to kernel address in uk_trigger_put_user\+'
expect 2 "two sites: the second names unsafe_put_user" '^BUG: uaccess-kaddr: unsafe_put_user to kernel address in uk_trigger_unsafe_put_user\+'
expect 1 "stack: the address is on the task's own stack" '^The address is on the stack of the task that made the access'

# A copy's #GP on its kernel operand (a corrupt kernel destination, the
# user page as the source) is no kernel address in a user pointer: the
# detector reports nothing, and the kernel's own warning of a user
# access's #GP stays (once per boot), as it does for the #GPs of checked
# helpers.  The faults it does report keep that warning quiet.
gp_warning copy_to_kernel_operand
check "$(grep -q 'General protection fault in user access' /tmp/gp-warning.txt && echo 0 || echo 1)" \
	"mode $mode: a copy's #GP on its kernel operand keeps ex_handler_uaccess()'s warning" \
	"$(head -n 3 /tmp/gp-warning.txt | tr '\n' '|')"
check "$(grep -c 'uaccess-kaddr' /tmp/gp-warning.txt)" \
	"mode $mode: and no report of it" "$(grep 'uaccess-kaddr' /tmp/gp-warning.txt | head -n 3)"

# The checked helpers reject kernel pointers: bad input, not a bug.
dmesg -c >/dev/null
for h in checked_get_user checked_put_user checked_copy_from_user checked_copy_to_user; do
	echo "$h kernel-kmalloc" >"$trig"
done
check "$(marker)" "checked helpers given kernel pointers print nothing" \
	"$(grep '^BUG: ' /tmp/reports.txt)"

# Per-site ratelimit: a report for the first hit, then silence.
uaccessctl set ratelimit-interval 5000 >/dev/null 2>&1
hit "copy_to_user kernel-kmalloc 1000"
uaccessctl set ratelimit-interval 0 >/dev/null 2>&1
n=$(marker)
check "$([ "$n" -le 1 ] && echo 0 || echo 1)" "1000 hits of one site print at most one report ($n)" \
	"$(grep '^BUG: ' /tmp/reports.txt)"
uaccessctl set ratelimit-interval 5000 >/dev/null 2>&1
