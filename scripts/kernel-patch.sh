#!/bin/bash
# kernel-patch.sh OUT.patch MSGFILE PATH...
# Developer tool: turn edits made in build/linux (against its HEAD) to PATH...
# into a format-patch mail for kernel/patches/.  MSGFILE holds the subject on
# its first line, then a blank line and the body (with Signed-off-by).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 msg=$2
shift 2
{
	echo "From: uaccess_kaddr developers <dev@uaccess-kaddr.invalid>"
	echo "Subject: [PATCH] $(head -n 1 "$msg")"
	echo
	tail -n +3 "$msg"
	echo "---"
	git -C "$top/build/linux" diff --stat -- "$@"
	echo
	git -C "$top/build/linux" diff -- "$@"
} >"$out"
echo "wrote $out"
