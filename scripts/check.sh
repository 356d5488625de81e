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

gate deps scripts/deps.sh
gate daemon-build make -C daemon all tools
suite daemon scripts/daemon-check.sh
if gate kernel-debug scripts/kernel-build.sh debug; then
	suite vm-debug tests/vm/check.sh debug/5 debug/4 \
		debug/5/uaccess_kaddr=warn debug/5/uaccess_kaddr=count \
		debug/5/uaccess_kaddr=off
	suite lint scripts/tap-suite.sh lint scripts/kernel-lint.sh
	suite spec scripts/tap-suite.sh spec python3 tests/kernel/spec_check.py build/linux
fi
gate kernel-nodetect scripts/kernel-build.sh nodetect
if gate kernel-kasan scripts/kernel-build.sh kasan; then
	suite vm-kasan tests/vm/check.sh kasan/5 kasan/4
fi

echo "== done in $(elapsed)"
tests/lib/tap.py summary
