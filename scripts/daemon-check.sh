#!/bin/bash
# daemon-check.sh: the host-side daemon suites, each counted by tests/lib/tap.py:
# the folder layout (tests/host/layout.py), the build (-Werror), the unit
# tests and the host tests (journald, the CLI, the fleet, the metrics file
# with promtool and node_exporter, the man pages) under ASan+UBSan, the
# metrics files of three uaccessd through node_exporter into Prometheus
# (tests/host/prometheus.t, uaccessd under ASan+UBSan), and
# each fuzz target for FUZZ_TIME seconds (default 30: make check keeps
# under 40 minutes on 2 cores; `make fuzz` runs 600) on its corpus.
#
#   daemon-check.sh [layout|unit|journald|prometheus|fuzz]...     default: all of them
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
san=$top/build/daemon-san
status=0
suites=${*:-layout unit journald prometheus fuzz}
# the checks build from the checkout: warnings are errors there
export WERROR=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

for s in $suites; do
	case $s in
	layout)
		"$top/scripts/tap-suite.sh" daemon-layout \
			python3 "$top/tests/host/layout.py" || status=1
		;;
	unit)
		"$top/scripts/tap-suite.sh" daemon-unit-san \
			make -s -C "$top/daemon" SAN=1 O="$san" all tools unit || status=1
		# without sanitizers too: the memory-budget test needs mallinfo2()
		"$top/scripts/tap-suite.sh" daemon-unit \
			make -s -C "$top/daemon" all tools unit || status=1
		;;
	journald)
		make -s -C "$top/daemon" SAN=1 O="$san" all tools >/dev/null || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" daemon-journald \
			"$top/tests/host/journald.t" || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" cli \
			"$top/tests/host/cli.t" || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" cli-journal \
			"$top/tests/host/cli_journal.t" || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" fleet "$top/tests/host/fleet.t" || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" metrics \
			"$top/tests/host/metrics.t" || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" manpages \
			"$top/tests/host/manpages.t" || status=1
		;;
	prometheus)
		make -s -C "$top/daemon" SAN=1 O="$san" all tools >/dev/null || status=1
		UK_BIN=$san "$top/scripts/tap-suite.sh" prometheus \
			"$top/tests/host/prometheus.t" || status=1
		;;
	fuzz)
		"$top/scripts/tap-suite.sh" daemon-fuzz \
			make -s -C "$top/daemon" fuzz-run FUZZ_TIME="${FUZZ_TIME:-30}" || status=1
		;;
	*)
		echo "daemon-check.sh: unknown suite '$s'" >&2
		exit 2
		;;
	esac
done
exit $status
