#!/bin/sh
# The demo inside the VM: one access of each kind through the test module,
# then the kernel log line and the decoded netlink event it caused.
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
