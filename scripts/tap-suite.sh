#!/bin/bash
# tap-suite.sh NAME CMD...: run CMD, keep its TAP output in build/logs/NAME.tap
# and count it as suite NAME.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=$1
shift
mkdir -p "$top/build/logs"
"$@" | tee "$top/build/logs/$name.tap"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || echo "not ok - $name: $* exited $rc" >>"$top/build/logs/$name.tap"
exec "$top/tests/lib/tap.py" count "$name" "$top/build/logs/$name.tap"
