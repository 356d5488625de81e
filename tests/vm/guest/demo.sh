#!/bin/sh
# The demo inside the VM: one access of each kind through the test module,
# then the kernel log line and the decoded netlink event it caused; then
# journald, uaccessd and uaccessctl: what an admin sees.
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
echo 2 >/proc/sys/kernel/kptr_restrict

show() {
	kind=$1 helper=$2 class=$3 what=$4
	echo
	echo "=== $kind: $what"
	echo "    (echo '$helper $class' > $trig)"
	dmesg -c >/dev/null
	uk_nltest show "$helper" "$class"
	echo "kernel log:"
	dmesg | grep 'uaccess_kaddr:' | sed 's/^/  /'
}

echo "kernel $(uname -r), $(grep -qw la57 /proc/cpuinfo && echo 5 || echo 4)-level paging"
show precheck get_user kernel-kmalloc \
	"__get_user() given a mapped kernel address: caught before it silently reads"
show precheck unsafe_put_user kernel-stack \
	"unsafe_put_user() in a user_access_begin() region, writing to the kernel stack"
show fault copy_user_generic kernel-unmapped \
	"copy_user_generic() (no pre-access check) faulting on an unmapped kernel address"
show gp get_user noncanonical-low \
	"__get_user() on a non-canonical address: the #GP, its address decoded"

. /tests/lib.sh
echo
echo "=== uaccessd and uaccessctl"
start_journald || echo "(journald did not start: $(tail -n 2 /tmp/journald.log))"
mkdir -p /var/lib/systemd/catalog
journalctl --update-catalog 2>/dev/null
printf 'site_burst = 5\n' >/tmp/uaccessd.conf
start_uaccessd || echo "(uaccessd did not subscribe: $(tail -n 2 /tmp/uaccessd.log))"
uaccessctl monitor -n 2 --timeout 20 >/tmp/monitor.txt 2>&1 &
mon=$!
sleep 1
echo "copy_to_user kernel-kmalloc" >$trig
echo "put_user kernel-unmapped" >$trig
wait $mon
# what the admin types, and what comes back
say() {
	echo
	echo "\$ $*"
	"$@" 2>&1
}
echo
echo "\$ uaccessctl monitor    (running while the two accesses happened)"
cat /tmp/monitor.txt
sleep 1
say uaccessctl --no-pager status
say uaccessctl --no-pager top
say uaccessctl --no-pager list
export SYSTEMD_COLORS=0
say journalctl --no-pager -x -n 1 -o short MESSAGE_ID=d3e08ea094464dd2b8ef6d7fae8ae370 UACCESS_HELPER=__put_user
kill -TERM $daemon_pid
wait $daemon_pid
