#!/bin/sh
# CVE-2017-5123, re-opened in the test kernel by kernel/inject/: waitid()
# writes its siginfo wherever an unprivileged caller points it.  The PoC
# runs as nobody with the kernel addresses of the test module's buffers;
# the detector must name the helper, the caller in waitid and the process.
addrs=/sys/kernel/debug/test_uaccess_kaddr/addresses
poc=/usr/bin/waitid_poc
. /tests/lib.sh

if [ ! -x "$poc" ]; then
	echo "not ok - waitid_poc present in the guest # $poc missing"
	exit 0
fi
if [ ! -r "$addrs" ]; then
	echo "not ok - test module loaded # $addrs missing"
	exit 0
fi
access_knob=$(sed -n 's/.*uaccess_kaddr_access=\([a-z]*\).*/\1/p' /proc/cmdline)
kmalloc=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' "$addrs")
unmapped=$(sed -n 's/^unmapped \(0x[0-9a-f]*\)$/\1/p' "$addrs")
if [ -z "$kmalloc" ] || [ -z "$unmapped" ]; then
	echo "not ok - test module gives its buffer addresses # got: $(cat "$addrs")"
	exit 0
fi

# run_poc ARG REPORTS: run the PoC as nobody on a cleared log, and wait for
# the REPORTS reports it should cause (none in modes off and count).  Sets
# $out (its output), $rc, $pid (its pid), $n (the number of reports) and,
# from the first report, $header, $access and $task.
run_poc() {
	dmesg -c >/dev/null
	out=$("$poc" --as-nobody "$1" 2>&1)
	rc=$?
	pid=$(echo "$out" | sed -n 's/^waitid_poc: pid=\([0-9]*\) .*/\1/p' | head -n 1)
	case "$mode" in off|count) wait_reports 0 ;; *) wait_reports "$2" ;; esac
	n=$(grep -c '^BUG: uaccess-kaddr: ' /tmp/reports.txt)
	header=$(report_line 1 '^BUG: uaccess-kaddr: ')
	access=$(report_line 1 '^(Read|Write|Access)')
	task=$(report_line 1 '^CPU: ')
}

# report WHAT CLASS: the first report after the PoC ran is the pre-access
# check of unsafe_put_user in waitid, for the PoC's process, of a CLASS
# address, refused unless the kernel lets such accesses through.
report() {
	case "$mode" in
	off|count)
		check "$n" "$1: mode $mode prints no report" "expected none, got '$header'"
		return
		;;
	esac
	outcome="access blocked"
	[ "$access_knob" = allow ] && outcome="access allowed by uaccess_kaddr_access=allow"
	re_h='^BUG: uaccess-kaddr: unsafe_put_user to kernel address in (__do_sys_waitid|__se_sys_waitid|__x64_sys_waitid)\+0x[0-9a-f]+/0x[0-9a-f]+$'
	re_a="^Write of 4 bytes to $2 address 0xff[0-9a-f]{14} \\($outcome\\)\$"
	re_t="^CPU: [0-9]+ UID: 65534 PID: $pid Comm: waitid_poc "
	if [ -n "$pid" ] && echo "$header" | grep -qE "$re_h" &&
		echo "$access" | grep -qE "$re_a" && echo "$task" | grep -qE "$re_t"; then
		check 0 "$1: report names unsafe_put_user in waitid, the write, and waitid_poc as nobody"
	else
		check 1 "$1: report names unsafe_put_user in waitid, the write, and waitid_poc as nobody" \
			"expected /$re_h/ /$re_a/ /$re_t/, got '$header' '$access' '$task'"
	fi
}

# returns WHAT RET ERRNO: the PoC ran as nobody and waitid() returned so.
returns() {
	case "$rc $out" in
	"0 waitid_poc: pid=$pid uid=65534 "*" ret=$2 errno=$3 "*)
		check 0 "$1: waitid() as nobody returns $2, errno $3" ;;
	*) check 1 "$1: waitid() as nobody returns $2, errno $3" \
		"expected uid=65534 ret=$2 errno=$3, got rc $rc: $out" ;;
	esac
}

# Each waitid() call stops at the first unsafe_put_user(), refused or
# faulting, so both kernel addresses hit the same site: no ratelimit while
# they run, so that each gets its report line.
uaccessctl set ratelimit-interval 0 >/dev/null 2>&1 ||
	check 1 "uaccessctl set ratelimit-interval 0" "$(uaccessctl set ratelimit-interval 0 2>&1)"
run_poc "$unmapped" 1
returns "unmapped kernel address" -1 14
report "unmapped kernel address" "unmapped kernel"

# The bug proper: a mapped kernel address (the test module's kmalloc'ed
# page).  With the detector off it is written silently; on, the write is
# refused as a failed access_ok() would refuse it and the page is left as
# it was, unless the kernel was booted to let such accesses through.
kbuf=/sys/kernel/debug/test_uaccess_kaddr/kbuf
before=$(cat "$kbuf")
run_poc "$kmalloc" 1
after=$(cat "$kbuf")
if [ "$mode" = off ] || [ "$access_knob" = allow ]; then
	returns "mapped kernel address" 0 0
	check "$([ "$after" != "$before" ] && echo 0 || echo 1)" \
		"mapped kernel address: written (mode $mode, access ${access_knob:-fail})" \
		"the page still reads $after"
else
	returns "mapped kernel address" -1 14
	check "$([ "$after" = "$before" ] && echo 0 || echo 1)" \
		"mapped kernel address: refused, the page is untouched (mode $mode)" \
		"before $before, after $after"
fi
report "mapped kernel address" "mapped kernel"
uaccessctl set ratelimit-interval 5000 >/dev/null 2>&1

# The ordinary call: a valid user buffer, no report.
run_poc self 0
returns "user buffer" 0 0
case "$out" in
*"si_status=42 "*) check 0 "user buffer: siginfo carries the exit status 42" ;;
*) check 1 "user buffer: siginfo carries the exit status 42" "expected 'si_status=42', got: $out" ;;
esac
check "$n" "user buffer: no report" "expected none, got '$header'"
