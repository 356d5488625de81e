#!/bin/sh
# The booted kernel is the one under test and its paging mode is the one asked for.
want=$(sed -n 's/.*uaccess_test.paging=\([0-9]\).*/\1/p' /proc/cmdline)
case "$(uname -r)" in
6.12.*) echo "ok - kernel is 6.12 ($(uname -r))" ;;
*) echo "not ok - kernel is 6.12 # got $(uname -r)" ;;
esac
# The kernel clears the la57 flag when it runs with 4-level paging (no5lvl).
if grep -qw la57 /proc/cpuinfo; then got=5; else got=4; fi
if [ "$got" = "$want" ]; then
	echo "ok - $want-level paging"
else
	echo "not ok - $want-level paging # running with $got-level"
fi
