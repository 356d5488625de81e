#!/bin/sh
# soak.sh HITS SITES...: for each SITES, HITS hits in report mode (the
# kernel's default ratelimit) over that many sites, then what the kernel
# log shows: soft lockups, RCU stalls, and the reports against their bound,
# one per site per 5 s ratelimit window.
hits=$1
shift
dmesg -c >/dev/null
start=$(uk_bench now)
bound=0
# Sites from 5000 on, apart from those the other benchmarks hit, so that
# their first hits do print.
first=5000
for sites in "$@"; do
	uk_bench soak "$hits" "$sites" $first
	bound=$((bound + sites))
	first=$((first + sites))
done
secs=$(( ($(uk_bench now) - start) / 1000000000 + 1 ))
bound=$((bound * (1 + secs / 5)))
# Reports are printed by a work item after the hits: wait until their
# number stops growing.
lines=-1
while :; do
	sleep 1
	dmesg >/tmp/soak-dmesg.txt
	n=$(grep -c 'BUG: uaccess-kaddr: ' /tmp/soak-dmesg.txt)
	[ "$n" = "$lines" ] && break
	lines=$n
done
lockups=$(grep -c 'soft lockup' /tmp/soak-dmesg.txt)
stalls=$(grep -ci 'rcu.*stall' /tmp/soak-dmesg.txt)
echo "soakcheck lines $lines lockups $lockups stalls $stalls bound $bound secs $secs"
grep -iE 'soft lockup|rcu.*stall|BUG:|WARNING:' /tmp/soak-dmesg.txt | grep -v 'BUG: uaccess-kaddr: ' |
	head -n 20 | sed 's/^/# /'
