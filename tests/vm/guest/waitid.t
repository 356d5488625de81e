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
kmalloc=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' "$addrs")
unmapped=$(sed -n 's/^unmapped \(0x[0-9a-f]*\)$/\1/p' "$addrs")
if [ -z "$kmalloc" ] || [ -z "$unmapped" ]; then
	echo "not ok - test module gives its buffer addresses # got: $(cat "$addrs")"
	exit 0
fi

# run_poc ARG: run the PoC as nobody on a cleared log.  Sets $out (its output),
# $rc, $pid (its pid), $line (the first report line) and $n (the number of
# uaccess_kaddr lines, cut-here markers of mode warn included).
run_poc() {
	dmesg -c >/dev/null
	out=$("$poc" --as-nobody "$1" 2>&1)
	rc=$?
	pid=$(echo "$out" | sed -n 's/^waitid_poc: pid=\([0-9]*\) .*/\1/p' | head -n 1)
	line=$(dmesg | grep -E 'uaccess_kaddr: (precheck|fault|gp): ' | head -n 1)
	n=$(dmesg | grep -c 'uaccess_kaddr: ')
}

# report WHAT CLASS: the first report line after the PoC ran is a precheck
# of unsafe_put_user in waitid, for the PoC's process, of CLASS address.
report() {
	case "$mode" in
	off|count)
		check "$n" "$1: mode $mode prints no report" "expected no line, got '$line'"
		return
		;;
	esac
	re="uaccess_kaddr: precheck: $2 address [0-9a-f]+, 4 bytes, passed to unsafe_put_user \(to user\) at (__do_sys_waitid|__se_sys_waitid|__x64_sys_waitid)\+0x[0-9a-f]+/0x[0-9a-f]+; comm waitid_poc pid $pid, "
	if [ -n "$pid" ] && echo "$line" | grep -qE "$re"; then
		check 0 "$1: precheck report names unsafe_put_user, waitid and waitid_poc"
	else
		check 1 "$1: precheck report names unsafe_put_user, waitid and waitid_poc" \
			"expected /$re/, got '$line'"
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
run_poc "$unmapped"
returns "unmapped kernel address" -1 14
report "unmapped kernel address" "unmapped kernel"

# The bug proper: a mapped kernel address (the test module's kmalloc'ed
# page).  With the detector off it is written silently; on, the write is
# refused as a failed access_ok() would refuse it and the page is left as
# it was, unless the kernel was booted to let such accesses through.
kbuf=/sys/kernel/debug/test_uaccess_kaddr/kbuf
access=$(sed -n 's/.*uaccess_kaddr_access=\([a-z]*\).*/\1/p' /proc/cmdline)
before=$(cat "$kbuf")
run_poc "$kmalloc"
after=$(cat "$kbuf")
if [ "$mode" = off ] || [ "$access" = allow ]; then
	returns "mapped kernel address" 0 0
	check "$([ "$after" != "$before" ] && echo 0 || echo 1)" \
		"mapped kernel address: written (mode $mode, access ${access:-fail})" \
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
run_poc self
returns "user buffer" 0 0
case "$out" in
*"si_status=42 "*) check 0 "user buffer: siginfo carries the exit status 42" ;;
*) check 1 "user buffer: siginfo carries the exit status 42" "expected 'si_status=42', got: $out" ;;
esac
check "$n" "user buffer: no report" "expected no line, got '$line'"
