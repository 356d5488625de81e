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
	# Let the 5 s ratelimit windows of the earlier tests expire, so that
	# the flood's first hit of each site is reported and the rest counted.
	sleep 6
	dmesg -c >/dev/null
	start=$(cut -d. -f1 /proc/uptime)
	"$nltest" flood "${UK_FLOOD:-1000000}"
	secs=$(( $(cut -d. -f1 /proc/uptime) - start + 1 ))
	# Two sites, at most one line each per 5 s ratelimit window.
	max=$(( 2 * (1 + secs / 5) ))
	n=$(dmesg | grep -c 'uaccess_kaddr:')
	if [ "$n" -le "$max" ]; then
		echo "ok - flood: $n report lines in the log for 2,000,000 hits in ${secs} s (at most $max)"
	else
		echo "not ok - flood: printk bounded by the ratelimit # $n lines, at most $max allowed"
	fi
	;;
*)
	echo "# mode $mode: netlink suite runs in report mode only"
	;;
esac
