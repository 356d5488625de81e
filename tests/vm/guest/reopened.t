#!/bin/sh
# The real bugs kernel/inject/ re-opens besides CVE-2017-5123 (waitid.t),
# each through its PoC (reopened_poc) with the kernel address of the test
# module's buffer: the detector must name the helper and the function the
# fix went into, refuse the access, and stay silent on the ordinary call.
# The syzbot-like kernels (kasan, 6.12-kasan) build the bpf paths; a
# kernel without one says so as a skip.
addrs=/sys/kernel/debug/test_uaccess_kaddr/addresses
kbuf=/sys/kernel/debug/test_uaccess_kaddr/kbuf
poc=/usr/bin/reopened_poc
. /tests/lib.sh

case "$mode" in
report | warn) ;;
*)
	echo "ok - reopened bugs # skip mode $mode prints no report"
	exit 0
	;;
esac
if [ ! -x "$poc" ] || [ ! -r "$addrs" ]; then
	echo "not ok - reopened_poc and the test module in the guest # $poc or $addrs missing"
	exit 0
fi
kmalloc=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' "$addrs")
uaccessctl set ratelimit-interval 0 >/dev/null 2>&1 ||
	check 1 "uaccessctl set ratelimit-interval 0" "$(uaccessctl set ratelimit-interval 0 2>&1)"

# bug BUG SYMBOL HELPER DIR SITES RET [--as-nobody]: BUG's PoC at the
# kernel address must return RET ("ret=R errno=E"), with one report of
# HELPER (DIR: to or from) in one of the functions SITES (an extended
# regular expression: the compiler may inline the function the fix went
# into) and the access refused; then the PoC at memory of its own makes
# no report.  SYMBOL is a function of the path, which a kernel without it
# lacks.
bug() {
	name=$1 sym=$2 helper=$3 dir=$4 sites=$5 ret=$6 who=${7:-}
	if ! grep -q " $sym\$" /proc/kallsyms; then
		echo "ok - $name # skip the kernel has no $sym"
		return
	fi
	before=$(cat "$kbuf")
	dmesg -c >/dev/null
	out=$("$poc" $who "$name" "$kmalloc" 2>&1)
	rc=$?
	wait_reports 1
	after=$(cat "$kbuf")
	pid=$(echo "$out" | sed -n 's/^reopened_poc: [a-z-]* pid=\([0-9]*\) .*/\1/p')
	uid=0
	[ -n "$who" ] && uid=65534
	case "$rc $out" in
	"0 reopened_poc: $name pid=$pid uid=$uid "*" $ret "*)
		check 0 "$name: at a kernel address, $ret" ;;
	*) check 1 "$name: at a kernel address, $ret" "rc $rc: $out" ;;
	esac
	check "$([ "$after" = "$before" ] && echo 0 || echo 1)" \
		"$name: the kernel buffer is untouched" "before $before, after $after"
	n=$(grep -c '^BUG: uaccess-kaddr: ' /tmp/reports.txt)
	header=$(report_line 1 '^BUG: uaccess-kaddr: ')
	task=$(report_line 1 '^CPU: ')
	re_h="^BUG: uaccess-kaddr: $helper $dir kernel address in ($sites)(\\.[a-z]+\\.[0-9]+)*\\+0x[0-9a-f]+/0x[0-9a-f]+\$"
	re_t="^CPU: [0-9]+ UID: $uid PID: $pid Comm: reopened_poc "
	if [ "$n" = 1 ] && echo "$header" | grep -qE "$re_h" && echo "$task" | grep -qE "$re_t"; then
		check 0 "$name: one report, of $helper in $sites, by reopened_poc"
	else
		check 1 "$name: one report, of $helper in $sites, by reopened_poc" \
			"expected 1 of /$re_h/ /$re_t/, got $n: '$header' '$task'"
	fi

	dmesg -c >/dev/null
	out=$("$poc" $who "$name" self 2>&1)
	sleep 1
	n=$(dmesg | grep -c '^\[[^]]*\] BUG: uaccess-kaddr: ')
	check "$n" "$name: the ordinary call makes no report" "$n reports after: $out"
}

# bpf(BPF_LINK_CREATE), as root: the PoC loads a program, which needs
# CAP_BPF and CAP_PERFMON.  The call fails with EFAULT.
bug uprobe-multi bpf_uprobe_multi_link_attach __get_user from bpf_uprobe_multi_link_attach \
	'ret=-1 errno=14'
bug kprobe-multi bpf_kprobe_multi_link_attach __get_user from 'copy_user_syms|bpf_kprobe_multi_link_attach' \
	'ret=-1 errno=14'
# CVE-2018-14656 as any user: the child dies of its SIGSEGV, and the report
# of its fault dumps no kernel byte.
bug code-dump show_opcodes __copy_from_user from 'copy_code|show_opcodes' \
	'ret=11 errno=0' --as-nobody
uaccessctl set ratelimit-interval 5000 >/dev/null 2>&1
exit 0
