#!/bin/bash
# check.sh: run every suite of `make check`, keep going past failures, and end
# with one line 'N passed, N failed, N skipped' over all of them.
#
# Each step is either a suite that records its own counts through
# tests/lib/tap.py, or a gate (a build, a lint) that counts as one test.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export RESULTS_DIR=$top/build/results
rm -rf "$RESULTS_DIR"
mkdir -p "$RESULTS_DIR" build/logs
t0=$(date +%s)

elapsed() {
	local s=$(($(date +%s) - t0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# gate NAME CMD...: one test that passes when CMD exits 0; its output goes to
# build/logs/NAME.log and is shown on failure.
gate() {
	local name=$1
	shift
	echo "== $name [$(elapsed)]"
	if "$@" >"build/logs/$name.log" 2>&1; then
		echo "$name: ok"
		echo "1 0 0" >"$RESULTS_DIR/gate-$name"
		return 0
	fi
	tail -n 40 "build/logs/$name.log" | sed 's/^/  | /'
	echo "$name: FAILED (log: build/logs/$name.log)"
	echo "0 1 0" >"$RESULTS_DIR/gate-$name"
	return 1
}

# suite NAME CMD...: CMD records its own counts as NAME; if it records none
# (it crashed before counting) the suite counts as one failure.
suite() {
	local name=$1
	shift
	echo "== $name [$(elapsed)]"
	"$@" 2>&1 | tee "build/logs/$name.log"
	if ! ls "$RESULTS_DIR" | grep -q "^$name"; then
		echo "0 1 0" >"$RESULTS_DIR/$name-did-not-run"
	fi
}

# Seconds of fuzzing in each VM of the farm (make fuzz-farm: SECONDS=).
farm_seconds=${FARM_SECONDS:-120}

gate deps scripts/deps.sh
# The full-system test's Debian root filesystem: debootstrap waits on the
# network most of the time, so it runs beside the builds.
tests/system/rootfs.sh build/system/rootfs >build/logs/debootstrap.log 2>&1 &
rootfs_pid=$!
rootfs_ready() {
	local rc=0
	wait "$rootfs_pid" || rc=$?
	cat build/logs/debootstrap.log
	return $rc
}
gate daemon-build make -C daemon all tools
# The console checker that every boot's console goes through, on saved reports.
suite console-checker scripts/tap-suite.sh console-checker tests/vm/report_format_test.py
# The fuzz farm's parts on the host: its LD_PRELOAD shim for trinity and
# the judge of a farm VM's console and uploaded journal.
suite farm-parts scripts/tap-suite.sh farm-parts tests/farm/parts_test.sh
# The host suites (mostly waiting on journald, sockets and timers, or
# time-bounded like fuzzing) run beside the debug kernel's build, which
# leaves the cores idle while it extracts the tarball and links; their
# output is shown once both are done.
echo "== host suites (daemon, packaging) beside the kernel build [$(elapsed)]"
(
	suite daemon scripts/daemon-check.sh
	suite packaging scripts/tap-suite.sh packaging tests/packaging/check.sh
) >build/logs/host-suites.log 2>&1 &
host_pid=$!
gate kernel-debug scripts/kernel-build.sh debug
debug_built=$?
wait "$host_pid"
cat build/logs/host-suites.log

# The other kernels build one after another in the background, beside the
# suites of those already built (QEMU keeps about one core busy), and the
# lint last, once both lines' debug builds are there for sparse.  built
# VARIANT waits for one and shows its gate.
builds_log=build/logs/kernel-builds.log
rm -f build/logs/*.built
(
	for v in nodetect lean kasan 6.12-debug; do
		gate "kernel-$v" scripts/kernel-build.sh "$v"
		echo $? >"build/logs/kernel-$v.built"
	done
	suite lint scripts/tap-suite.sh lint scripts/kernel-lint.sh >/dev/null
) >"$builds_log" 2>&1 &
builds_pid=$!
built() {
	local v=$1
	while [ ! -f "build/logs/kernel-$v.built" ]; do
		if ! kill -0 "$builds_pid" 2>/dev/null; then
			[ -f "build/logs/kernel-$v.built" ] && break
			echo "kernel-$v: FAILED (the background builds ended before it: $builds_log)"
			echo "0 1 0" >"$RESULTS_DIR/gate-kernel-$v"
			return 1
		fi
		sleep 5
	done
	sed -n "/^== kernel-$v /,/^kernel-$v: /p" "$builds_log"
	return "$(cat "build/logs/kernel-$v.built")"
}

# Mainline (Linux 7.3) first: the debug kernel, then the build gates and the
# syzbot-like kernel; the 6.12 backport last.
if [ "$debug_built" = 0 ]; then
	suite vm-debug tests/vm/check.sh debug/5 debug/4 \
		debug/5/uaccess_kaddr=warn debug/5/uaccess_kaddr=count \
		debug/5/uaccess_kaddr=off debug/5/uaccess_kaddr_access=allow \
		debug/4/uaccess_kaddr=warn,panic_on_warn=1,kunit.enable=0 \
		debug/4/uaccess_kaddr=warn,panic_on_taint=0x200,kunit.enable=0
	suite spec scripts/tap-suite.sh spec python3 tests/kernel/spec_check.py build/linux-7.3
	# The reporters' register-saving ABI under -fzero-call-used-regs, gcc and clang.
	suite reporter-abi scripts/tap-suite.sh reporter-abi tests/kernel/reporter_abi.sh \
		build/linux-7.3 build/kernel/debug/.config
	gate rootfs rootfs_ready
	suite system scripts/tap-suite.sh system tests/system/check.sh
	suite bench-smoke scripts/tap-suite.sh bench-smoke tests/bench/bench.sh --smoke
fi
built nodetect
# No kallsyms, no netlink layer, SEV-ES #VC code built: the KUnit suite,
# 4-level paging.
if built lean; then
	suite vm-lean tests/vm/check.sh lean/4/uaccess_test.kunit_only
fi
# clang, PREEMPT, KASAN, KCOV: the way syzbot builds.
if built kasan; then
	suite uninstrumented scripts/tap-suite.sh uninstrumented tests/kernel/uninstrumented.sh build/kernel/kasan
	# The whole suite with 5-level paging, the KUnit matrix with 4-level
	# (the lower-half non-canonical rows differ): the guest suite's paths
	# do not depend on the paging, and a full boot costs a minute.
	suite vm-kasan tests/vm/check.sh kasan/5 kasan/4/uaccess_test.kunit_only
	# The fuzz farm in miniature (make fuzz-farm runs both lines'
	# syzbot-like kernels, longer): trinity as nobody, the re-opened bugs,
	# journal upload to a journal-remote here.
	suite farm-kasan tests/farm/farm.sh --seconds "$farm_seconds" kasan
fi
# The 6.12 LTS backport, built like Debian 13's kernel: the same suites
# (the KUnit matrix alone with 4-level paging, as for kasan), and the farm
# (a 6.12 syzbot-like kernel would cost make check twenty minutes of
# build: make fuzz-farm's).
if built 6.12-debug; then
	suite vm-6.12-debug tests/vm/check.sh 6.12-debug/5 6.12-debug/4/uaccess_test.kunit_only \
		6.12-debug/5/uaccess_kaddr=warn \
		6.12-debug/4/uaccess_kaddr=warn,panic_on_taint=0x200,kunit.enable=0
	suite reporter-abi-6.12 scripts/tap-suite.sh reporter-abi-6.12 tests/kernel/reporter_abi.sh \
		build/linux-6.12 build/kernel/6.12-debug/.config
	suite farm-6.12-debug tests/farm/farm.sh --seconds "$farm_seconds" 6.12-debug
fi
wait "$builds_pid"
# The primitives left without a pre-access check: each caller checks first.
suite unhooked scripts/tap-suite.sh unhooked python3 tests/kernel/unhooked_callers.py \
	build/linux-7.3 build/linux-6.12
echo "== lint (checkpatch on both series, sparse on both lines' debug builds)"
cat build/logs/lint.log

echo "== done in $(elapsed)"
tests/lib/tap.py summary
