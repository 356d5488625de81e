#!/bin/bash
# uninstrumented.sh KERNEL_BUILD_DIR: the detector's hit path (core.o, and
# the x86 fault check) carries no KCOV, KASAN, KCSAN or UBSAN
# instrumentation (it runs on every user-access fixup: its PCs would be
# noise in a fuzzer's coverage), as TAP lines.  The report, printed later
# from a work item, is instrumented like the rest of the kernel.
set -uo pipefail
out=${1:?usage: uninstrumented.sh KERNEL_BUILD_DIR}
for obj in mm/uaccess_kaddr/core.o arch/x86/mm/uaccess_kaddr.o; do
	if [ ! -f "$out/$obj" ]; then
		echo "not ok - $obj is not instrumented # $out/$obj missing"
		continue
	fi
	calls=$(nm -u "$out/$obj" | awk '{ print $2 }' |
		grep -E '^(__sanitizer_cov_|__asan_|__kasan_|__tsan_|__kcsan_|__ubsan_)' | sort -u)
	if [ -z "$calls" ]; then
		echo "ok - $obj is not instrumented"
	else
		echo "not ok - $obj is not instrumented # calls $(echo $calls)"
	fi
done
# The same check must see instrumentation where the build has it: the
# report, beside them, is instrumented like the rest of the kernel.
probe=mm/uaccess_kaddr/report.o
if nm -u "$out/$probe" 2>/dev/null | grep -q '__sanitizer_cov_trace_pc' && nm -u "$out/$probe" | grep -q '__asan_'; then
	echo "ok - $probe, built with the same flags, is instrumented (the check can fail)"
else
	echo "not ok - $probe, built with the same flags, is instrumented (the check can fail)"
fi
