#!/bin/sh
# The kernel log line of a report: what it names, what it hides, how often.
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
. /tests/lib.sh

if [ ! -w "$trig" ]; then
	echo "not ok - test module loaded # $trig missing"
	exit 0
fi

# kptr_restrict=2: %pK prints zeros, whoever reads the log.
echo 2 >/proc/sys/kernel/kptr_restrict
dmesg -c >/dev/null
echo "get_user kernel-kmalloc" >"$trig"
line=$(dmesg | grep 'uaccess_kaddr: precheck:' | head -n 1)
case "$mode" in
off|count)
	check "$([ -z "$line" ] && echo 0 || echo 1)" "mode $mode prints no report" "got: $line"
	if [ "$mode" = off ]; then
		check "$(dmesg | grep -c WARNING)" "mode off warns nothing" "$(dmesg | grep WARNING)"
	fi
	exit 0
	;;
esac

want='uaccess_kaddr: precheck: mapped kernel address 0000000000000000, 8 bytes, passed to __get_user (from user) at uk_trigger_get_user+0x'
case "$line" in
*"$want"*) check 0 "report line names helper, direction and caller by symbol" ;;
*) check 1 "report line names helper, direction and caller by symbol" "want '$want...', got '$line'" ;;
esac
case "$line" in
*"[test_uaccess_kaddr]"*) check 0 "report line names the module of the caller" ;;
*) check 1 "report line names the module of the caller" "got '$line'" ;;
esac
case "$line" in
*"comm "*" pid "*", site hit 1 times, 0 suppressed"*) check 0 "report line has comm, pid and counts" ;;
*) check 1 "report line has comm, pid and counts" "got '$line'" ;;
esac

# kptr_restrict=0: %pK hashes; the line must not carry a raw kernel pointer.
echo 0 >/proc/sys/kernel/kptr_restrict
dmesg -c >/dev/null
echo "put_user kernel-stack" >"$trig"
addr=$(dmesg | sed -n 's/.*kernel address \([0-9a-f]*\),.*/\1/p' | head -n 1)
case "$addr" in
ffff8*|ffff9*|ffffa*|ffffb*|ffffc*) check 1 "address hashed under kptr_restrict=0" "raw-looking $addr" ;;
"") check 1 "address hashed under kptr_restrict=0" "no report line" ;;
*) check 0 "address hashed under kptr_restrict=0 ($addr)" ;;
esac
echo 2 >/proc/sys/kernel/kptr_restrict

# Without a pre-access check, the fault detector reports the fault.
dmesg -c >/dev/null
echo "copy_user_generic kernel-unmapped" >"$trig"
line=$(dmesg | grep 'uaccess_kaddr: fault:' | head -n 1)
want='uaccess_kaddr: fault: unmapped kernel address 0000000000000000, 0 bytes, passed to copy_user_generic (from user) at uk_trigger_copy_user_generic+0x'
case "$line" in
*"$want"*) check 0 "a fault on a kernel address is reported with its caller" ;;
*) check 1 "a fault on a kernel address is reported with its caller" "want '$want...', got '$line'" ;;
esac

# A lower-half non-canonical address raises #GP with 4-level paging only.
dmesg -c >/dev/null
echo "get_user noncanonical-low" >"$trig"
line=$(dmesg | grep 'uaccess_kaddr:' | head -n 1)
if grep -qw la57 /proc/cpuinfo; then
	check "$([ -z "$line" ] && echo 0 || echo 1)" "5-level paging: 0x0080000000000000 is a user address, no report" "got '$line'"
else
	want='uaccess_kaddr: gp: non-canonical address 0000000000000000, 0 bytes, passed to __get_user (from user) at uk_trigger_get_user+0x'
	case "$line" in
	*"$want"*) check 0 "4-level paging: #GP address decoded and reported" ;;
	*) check 1 "4-level paging: #GP address decoded and reported" "want '$want...', got '$line'" ;;
	esac
fi

# The checked helpers reject kernel pointers: bad input, not a bug.
dmesg -c >/dev/null
for h in checked_get_user checked_put_user checked_copy_from_user checked_copy_to_user; do
	echo "$h kernel-kmalloc" >"$trig"
done
n=$(dmesg | grep -c 'uaccess_kaddr:')
check "$n" "checked helpers given kernel pointers print nothing" "$n lines"

# Per-site ratelimit: one line for the first hit, then silence.
dmesg -c >/dev/null
echo "copy_to_user kernel-kmalloc 1000" >"$trig"
n=$(dmesg | grep -c 'uaccess_kaddr: precheck:')
check "$([ "$n" -le 1 ] && echo 0 || echo 1)" "1000 hits of one site print at most one line ($n)" "$n lines"

if [ "$mode" = warn ]; then
	dmesg -c >/dev/null
	echo "clear_user kernel-kmalloc" >"$trig"
	w=$(dmesg | grep 'WARNING: CPU: .* at uk_trigger_clear_user+0x' | head -n 1)
	check "$([ -n "$w" ] && echo 0 || echo 1)" "mode warn: WARNING titled by the call site" "$(dmesg | head -n 5)"
	check "$(dmesg | grep -c 'cut here' | grep -qx 1 && echo 0 || echo 1)" "mode warn: one cut-here marker" "$(dmesg | grep -c 'cut here')"
fi
