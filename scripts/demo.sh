#!/bin/bash
# demo.sh: everything `make demo` does, from a fresh Debian 12 machine:
# install the build dependencies, build the patched debug kernel and the
# userspace, boot the kernel under QEMU, and show what an admin sees when an
# unprivileged process re-opens CVE-2017-5123 (tests/vm/guest/demo.sh).
# Cold: ~12 min on 2 cores; once built: under a minute.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$(date +%s)
mkdir -p build/logs

since() {
	local s=$(($(date +%s) - $1))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# step WHAT LOG CMD...: run CMD with its output in LOG; while it runs, say
# every 20 s how long it has been going and what it is at (LOG's last line).
step() {
	local what=$1 log=$2 start pid rc
	shift 2
	start=$(date +%s)
	echo "==> $what [at $(since "$t0")]"
	"$@" >"$log" 2>&1 &
	pid=$!
	while ! wait_for_pid "$pid" 20; do
		printf '    ... %s so far: %s\n' "$(since "$start")" \
			"$(${progress:-tail -n 1 "$log"} | tail -n 1 | cut -c 1-90)"
	done
	rc=0
	wait "$pid" || rc=$?
	if [ "$rc" != 0 ]; then
		tail -n 30 "$log" | sed 's/^/    | /'
		echo "==> FAILED: $what (log: $log)"
		exit "$rc"
	fi
	echo "    done in $(since "$start")"
}

# wait_for_pid PID SECONDS: 0 once PID has exited, 1 after SECONDS.
wait_for_pid() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	return 1
}

step "installing the build dependencies (scripts/deps.sh; apt-get on a fresh machine)" \
	build/logs/demo-deps.log scripts/deps.sh
# The kernel's progress: objects compiled so far, of about 1,600.
kernel_progress() {
	local n
	n=$(find build/kernel/debug -name '*.o' 2>/dev/null | wc -l)
	echo "$(tail -n 1 build/logs/demo-kernel.log); $n of ~1600 objects"
}
progress=kernel_progress \
	step "building the debug kernel with the series (cold: ~8 min on 2 cores; then only what changed)" \
	build/logs/demo-kernel.log scripts/kernel-build.sh debug
step "building uaccessd, uaccessctl, the guest programs and the initramfs" \
	build/logs/demo-guest.log bash -c \
	'make -s -C tests/vm/guest O="$PWD/build/vm/guest" &&
	 tests/vm/mkinitramfs.sh debug build/vm/debug.cpio.gz build/vm/guest/*'
step "booting the kernel under QEMU TCG (4-level paging: a non-canonical address raises #GP); journald, uaccessd and the PoC run in it" \
	build/logs/demo-boot.log tests/vm/run.sh demo debug 4 "uaccess_test.demo kunit.enable=0"
echo "==> what the admin sees [at $(since "$t0")]"
grep -v '^# uaccess-vm' build/vm/results/demo/results.tap
echo
echo "==> done in $(since "$t0") (console: build/vm/results/demo/console.log)"
