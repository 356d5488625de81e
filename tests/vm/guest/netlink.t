#!/bin/sh
# The netlink family end to end: events, status/dump/reset, permissions,
# malformed requests, and a flood.  uk_nltest prints the TAP lines.
nltest=/usr/bin/uk_nltest
if [ ! -x "$nltest" ]; then
	echo "not ok - uk_nltest present in the guest"
	exit 0
fi
mode=$(sed -n 's/.*uaccess_kaddr=\([a-z]*\).*/\1/p' /proc/cmdline)
case "${mode:-report}" in
report)
	for sub in events status perm malformed; do
		echo "# uk_nltest $sub"
		"$nltest" $sub
	done
	echo "# uk_nltest flood"
	"$nltest" flood "${UK_FLOOD:-1000000}"
	;;
*)
	echo "# mode $mode: netlink suite runs in report mode only"
	;;
esac
