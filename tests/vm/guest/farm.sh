#!/bin/sh
# One VM of the fuzz farm in miniature (tests/farm/farm.sh), run by init
# when the kernel command line has uaccess_test.farm=SECONDS:
#
# - uaccessd forwards the detector's events to journald, and
#   systemd-journal-upload sends the journal to the host's
#   systemd-journal-remote (uaccess_test.upload=URL);
# - trinity, as nobody, fuzzes for SECONDS: the first half aimed at the
#   system calls the re-opened bugs live in that an unprivileged fuzzer
#   can reach, the second half over the whole table;
# - the PoCs then make the re-opened bugs that trinity cannot reach
#   (reopened_poc: the bpf links need CAP_BPF and a loaded program, the
#   code dump a process that jumps to a kernel address).
#
# The host reads the console (the reports, titled by the console checker)
# and the uploaded journal.  This prints, on the results port, one line per
# phase as "# farm: ..." and ends with "# uaccess-vm: done".
. /tests/lib.sh

secs=$(sed -n 's/.*uaccess_test\.farm=\([0-9]*\).*/\1/p' /proc/cmdline)
rate=$(sed -n 's/.*uaccess_test\.farm_rate=\([0-9]*\).*/\1/p' /proc/cmdline)
url=$(sed -n 's/.*uaccess_test\.upload=\([^ ]*\).*/\1/p' /proc/cmdline)
addrs=/sys/kernel/debug/test_uaccess_kaddr/addresses
# What trinity is pointed at: waitid (CVE-2017-5123).  The whole table
# follows: trinity's own list, less what stops or wedges the VM rather than
# tests the kernel (an unprivileged reboot is refused anyway).
aimed="waitid"
aimed_args="247:3"	# waitid's infop
mark() {	# a line on the console (KERN_ERR, above loglevel=4), for the host's timeline
	echo "<3>uaccess-farm: $*" >/dev/kmsg
}

# trinity PHASE SECONDS ENV ARGS...: trinity as nobody, in a directory of
# its own, with the environment ENV (VAR=value ...), stopped after
# SECONDS; its last lines say how many calls it made.
# Its sockets are of one domain, INET: as nobody, trinity 2023.01
# segfaults while it builds its socket cache over all of them.
run_trinity() {
	phase=$1 t=$2 env=$3
	shift 3
	rm -rf "/tmp/trinity-$phase"
	mkdir -p "/tmp/trinity-$phase"
	chown 65534:65534 "/tmp/trinity-$phase"
	mark "trinity $phase starts"
	start=$(cut -d' ' -f1 /proc/uptime)
	timeout -s INT "$t" su -s /bin/sh -c "cd /tmp/trinity-$phase &&
		$env exec /usr/bin/trinity -q -l off -P INET $* >trinity.log 2>&1" \
		nobody 2>"/tmp/trinity-$phase.err"
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
	mark "trinity $phase ends"
	calls=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "/tmp/trinity-$phase/trinity.log" | tail -n 1)
	elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	echo "# farm: trinity $phase: ${calls:-?} calls in ${elapsed%.*} s: $*"
	[ -z "$calls" ] && echo "# farm: trinity $phase exited $rc: $(tail -n 5 "/tmp/trinity-$phase.err" "/tmp/trinity-$phase/trinity.log" 2>&1 | tr '\n' ' ')"
	tail -n 3 "/tmp/trinity-$phase/trinity.log" | sed 's/^/# farm:   /'
}

# uaccess_test.farm_rate=CALLS (tests/farm/exec_rate.sh, under -icount, so
# that guest time counts instructions): the same trinity run, one child
# and one seed, CALLS calls over the whole table, with the detector off,
# count, report and off again, in this one boot.  Its cost is the CPU
# time trinity and its children used (user and system): the guest's
# clock also runs through every sleep and time-out trinity asks for, which
# differ from run to run.
if [ -n "$rate" ]; then
	for m in off count report off; do
		uaccessctl set mode "$m" >/dev/null 2>&1 ||
			echo "# farm-rate: uaccessctl set mode $m: $(uaccessctl set mode "$m" 2>&1)"
		rm -rf /tmp/trinity-rate
		mkdir -p /tmp/trinity-rate
		chown 65534:65534 /tmp/trinity-rate
		cpu=$(busybox time -f '%U %S' su -s /bin/sh -c "cd /tmp/trinity-rate &&
			exec /usr/bin/trinity -q -l off -P INET -s 1 -C 1 -N $rate \
			--disable-fds=pseudo,sockets -x reboot -x kexec_load -x kexec_file_load \
			>trinity.log 2>&1" nobody 2>&1 | tail -n 1)
		calls=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' /tmp/trinity-rate/trinity.log | tail -n 1)
		echo "# farm-rate: mode $m: ${calls:-?} calls in $(echo "$cpu" | awk '{ printf "%.2f", $1 + $2 }') s of CPU"
		tail -n 2 /tmp/trinity-rate/trinity.log | sed 's/^/# farm-rate:   /'
	done
	exit 0
fi

ip link set lo up
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 &&
	ip route add default via 10.0.2.2
echo "# farm: network $(ip -4 -o addr show dev eth0 2>&1 | awk '{ print $4 }')"
hostname "farm-$(uname -r | cut -d- -f1)"
echo "# farm: hostname $(hostname)"
start_journald || echo "# farm: systemd-journald did not start: $(tail -n 3 /tmp/journald.log)"
printf 'summary_interval = 5s\nrcvbuf = 16M\n' >/tmp/uaccessd.conf
start_uaccessd || echo "# farm: uaccessd did not subscribe: $(tail -n 3 /tmp/uaccessd.log)"
mkdir -p /var/lib/systemd/journal-upload
/usr/bin/systemd-journal-upload --url="$url" \
	--save-state=/var/lib/systemd/journal-upload/state >/tmp/upload.log 2>&1 &
upload_pid=$!

half=$((secs / 2))
# Trinity 2023.01 hands waitid's infop no kernel address (none in 22,930
# calls, tests/farm): aimed, it runs with kptr_shim.so, which gives the
# pointer arguments of the aimed calls (NR:ARG) a kernel address one call
# in 16: the test module's kmalloc'ed page, or its unmapped address.
# Neither phase walks /proc and /sys for file names first (pseudo), which
# takes trinity most of a minute under TCG; the aimed calls take no file
# descriptor at all.
kmalloc=$(sed -n 's/^kmalloc \(0x[0-9a-f]*\)$/\1/p' "$addrs")
unmapped=$(sed -n 's/^unmapped \(0x[0-9a-f]*\)$/\1/p' "$addrs")
shim="LD_PRELOAD=/usr/lib/kptr_shim.so UK_KPTR_ARGS=$aimed_args UK_KPTR_ADDRS=$kmalloc,$unmapped"
# shellcheck disable=SC2046
run_trinity aimed "$half" "$shim" -C 2 --disable-fds=pseudo,sockets $(for c in $aimed; do echo "-c $c"; done)
run_trinity table "$((secs - half))" "" -C 2 --disable-fds=pseudo -x reboot -x kexec_load -x kexec_file_load

mark "PoCs start"
for b in uprobe-multi kprobe-multi "--as-nobody code-dump"; do
	# shellcheck disable=SC2086
	echo "# farm: $(reopened_poc $b "$kmalloc" 2>&1)"
done
mark "PoCs end"

# Everything the detector saw reaches the host before the VM stops: the
# last PoC's entry is in the journal (uaccessd writes it within a summary
# interval or so; a busy host makes that longer), then the upload's saved
# cursor catches up with the journal's last entry.
for _ in $(seq 120); do
	journalctl -q -o export MESSAGE_ID=d3e08ea094464dd2b8ef6d7fae8ae370 2>/dev/null |
		grep -qE '^UACCESS_SITE_FUNCTION=(copy_code|show_opcodes)$' && break
	sleep 0.5
done
last=$(journalctl -q -n 1 -o export 2>/dev/null | sed -n 's/^__CURSOR=//p')
for _ in $(seq 240); do
	grep -qF "LAST_CURSOR=$last" /var/lib/systemd/journal-upload/state 2>/dev/null && break
	sleep 0.5
done
if grep -qF "LAST_CURSOR=$last" /var/lib/systemd/journal-upload/state 2>/dev/null; then
	echo "# farm: journal uploaded to $url up to its last entry"
else
	echo "# farm: journal upload behind: $(tail -n 3 /tmp/upload.log)"
fi
echo "# farm: uaccessctl status"
uaccessctl --no-pager status 2>&1 | sed 's/^/# farm:   /'
echo "# farm: kernel sites"
sed 's/^/# farm:   /' /sys/kernel/debug/uaccess_kaddr/sites 2>&1
kill "$upload_pid" 2>/dev/null
exit 0
