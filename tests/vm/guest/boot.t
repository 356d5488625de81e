#!/bin/sh
# The booted kernel is the one under test and its paging mode is the one asked for.
want=$(sed -n 's/.*uaccess_test.paging=\([0-9]\).*/\1/p' /proc/cmdline)
want_release=$(cat /etc/uaccess-kernel-release)
if [ "$(uname -r)" = "$want_release" ]; then
	echo "ok - kernel is the variant built ($want_release)"
else
	echo "not ok - kernel is the variant built ($want_release) # got $(uname -r)"
fi
# The kernel clears the la57 flag when it runs with 4-level paging (no5lvl).
if grep -qw la57 /proc/cpuinfo; then got=5; else got=4; fi
if [ "$got" = "$want" ]; then
	echo "ok - $want-level paging"
else
	echo "not ok - $want-level paging # running with $got-level"
fi
