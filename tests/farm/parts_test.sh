#!/bin/bash
# parts_test.sh: the fuzz farm's host parts, as one TAP stream: the
# LD_PRELOAD shim (shim_test.sh) and the judge of a VM (evaluate_test.py).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rc=0
"$here/shim_test.sh" | grep -v "^1\.\."
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
python3 "$here/evaluate_test.py" || rc=1
exit $rc
