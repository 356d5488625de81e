#!/bin/bash
# shim_test.sh: the fuzz farm's kptr_shim.so on the host, as TAP.  Its
# settings, bad ones refused with a reason and exit status 2, and what it
# does to the system calls it is told of: one in UK_KPTR_ONE_IN gets a
# kernel address, which the kernel refuses with EFAULT; other calls and
# other arguments pass through.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shim=$tmp/kptr_shim.so
n=0

ok() {	# ok STATUS DESCRIPTION [WHY]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2 # ${3:-}"; fi
}

cc -std=gnu11 -Wall -Wextra -Werror -O2 -fPIC -shared -o "$shim" "$top/tests/farm/kptr_shim.c"
ok $? "kptr_shim.so builds with -Wall -Wextra -Werror"
# A caller of syscall(3): uname(2) N times, counting the EFAULTs.
cat >"$tmp/caller.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = atoi(argv[1]), i, efault = 0, other = 0;
	struct utsname u;

	for (i = 0; i < n; i++) {
		if (syscall(SYS_uname, &u) == 0)
			continue;
		if (errno == EFAULT)
			efault++;
		else
			other++;
	}
	printf("efault=%d other=%d\n", efault, other);
	return 0;
}
EOF
cc -O2 -o "$tmp/caller" "$tmp/caller.c"

# refused SETTINGS... WHAT: the shim stops the program before main().
refused() {
	local what=${*: -1} out rc
	out=$(env "${@:1:$#-1}" LD_PRELOAD="$shim" "$tmp/caller" 1 2>&1)
	rc=$?
	case "$rc $out" in
	"2 kptr_shim: "*) ok 0 "refused: $what ($out)" ;;
	*) ok 1 "refused: $what" "exit $rc: $out" ;;
	esac
}
addr=0xffffffff81000000
refused UK_KPTR_ADDRS=$addr "UK_KPTR_ARGS unset"
refused UK_KPTR_ARGS=63:1 "UK_KPTR_ADDRS unset"
refused UK_KPTR_ARGS= UK_KPTR_ADDRS=$addr "UK_KPTR_ARGS empty"
refused UK_KPTR_ARGS=uname UK_KPTR_ADDRS=$addr "a name for NR"
refused UK_KPTR_ARGS=63 UK_KPTR_ADDRS=$addr "NR without ARG"
refused UK_KPTR_ARGS=63:0 UK_KPTR_ADDRS=$addr "ARG 0"
refused UK_KPTR_ARGS=63:7 UK_KPTR_ADDRS=$addr "ARG 7"
refused UK_KPTR_ARGS=63:1x UK_KPTR_ADDRS=$addr "trailing garbage after ARG"
refused UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=0x1000 "a user address"
refused UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=$addr,zz "a bad second address"
refused UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=$addr UK_KPTR_ONE_IN=0 "UK_KPTR_ONE_IN 0"
refused UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=$addr UK_KPTR_ONE_IN=ten "UK_KPTR_ONE_IN not a number"
refused UK_KPTR_ARGS="$(seq -s, -f '%g:1' 1 17)" UK_KPTR_ADDRS=$addr "17 arguments"

# works SETTINGS... EXPECT WHAT: 64 uname() calls under the shim.
works() {
	local expect=${*: -2:1} what=${*: -1} out
	out=$(env "${@:1:$#-2}" LD_PRELOAD="$shim" "$tmp/caller" 64 2>&1)
	if [ "$out" = "$expect" ]; then ok 0 "$what: $out"; else ok 1 "$what" "expected $expect, got $out"; fi
}
works UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=$addr "efault=4 other=0" "one uname() in 16 gets a kernel address (the default)"
works UK_KPTR_ARGS=63:1 UK_KPTR_ADDRS=$addr,0xff11000000000000 UK_KPTR_ONE_IN=1 "efault=64 other=0" \
	"every uname() with UK_KPTR_ONE_IN=1, two addresses in turn"
works UK_KPTR_ARGS=0:1,1:2 UK_KPTR_ADDRS=$addr UK_KPTR_ONE_IN=1 "efault=0 other=0" "calls not listed pass through"
works UK_KPTR_ARGS=63:2 UK_KPTR_ADDRS=$addr UK_KPTR_ONE_IN=1 "efault=0 other=0" "another argument of the call is left alone"
echo "1..$n"
