#!/bin/bash
# reporter_abi.sh KERNEL_TREE CONFIG: the reporters keep every register under
# CONFIG_ZERO_CALL_USED_REGS, with gcc and with clang (LLVM=-19).
#
# The pre-access checks call __uaccess_kaddr_precheck{,_ac}() from an asm
# statement that clobbers no register (asm/uaccess_kaddr.h), so the reporters
# are __no_caller_saved_registers: they must hand back every register as they
# found it.  -fzero-call-used-regs=used-gpr zeroes the call-used registers a
# function used before it returns; were they call-used here, the caller
# would find a register zeroed.  CONFIG (a .config of KERNEL_TREE with the
# detector) is built again with ZERO_CALL_USED_REGS=y by each compiler, in
# a scratch directory, as far as mm/uaccess_kaddr/core.o; each return of
# the reporters must hand back no register zeroed after its last restore,
# and an ordinary function of the same object must show the zeroing (the
# option took effect).  Prints TAP lines.
set -uo pipefail
tree=$(cd "$1" && pwd)
config=$2
n=0
fail=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2${3:+ # $3}"; fail=1; fi
}

# zeroed_after_restore: the registers a function's epilogue zeroes after
# (closer to its ret than) the pop that restores them, one line per ret.
zeroed_after_restore() {
	awk '
	/^ +[0-9a-f]+:/ { sub(/^ +[0-9a-f]+:[ \t]+/, ""); insn[++k] = $0 }
	END {
		rets = 0
		for (i = 1; i <= k; i++) {
			if (insn[i] !~ /^ret/)
				continue
			rets++
			delete popped
			for (j = i - 1; j >= 1; j--) {
				if (insn[j] ~ /^pop +%/) {
					r = insn[j]; sub(/^pop +%/, "", r); popped[r] = 1
					continue
				}
				if (insn[j] ~ /^xor +%[a-z0-9]+,%[a-z0-9]+$/) {
					split(substr(insn[j], index(insn[j], "%")), ops, ",")
					if (ops[1] == ops[2]) {
						r = substr(ops[1], 2)
						sub(/^e/, "r", r); sub(/d$/, "", r)
						if (!(r in popped))
							print "ret " rets ": " insn[j]
						continue
					}
				}
				if (insn[j] ~ /^(lea|add|mov) .*%rsp$/ || insn[j] ~ /^(leave|nop|cs nop)/)
					continue
				break
			}
		}
		if (!rets)
			print "no ret found"
	}'
}

for cc in gcc clang; do
	scratch=$(mktemp -d)
	toolchain=()
	[ "$cc" = clang ] && toolchain=(LLVM=-19)
	cp "$config" "$scratch/.config"
	"$tree/scripts/config" --file "$scratch/.config" -e ZERO_CALL_USED_REGS
	if ! make -s -C "$tree" O="$scratch" "${toolchain[@]}" olddefconfig >"$scratch/build.log" 2>&1 ||
		! grep -q '^CONFIG_ZERO_CALL_USED_REGS=y' "$scratch/.config" ||
		! grep -q '^CONFIG_DEBUG_UACCESS_KADDR=y' "$scratch/.config"; then
		tap 1 "$cc: a config with the detector and ZERO_CALL_USED_REGS" "$(tail -n 2 "$scratch/build.log" | tr '\n' '|')"
		rm -rf "$scratch"
		continue
	fi
	if ! make -s -C "$tree" O="$scratch" "${toolchain[@]}" -j"$(nproc)" \
		mm/uaccess_kaddr/core.o >"$scratch/build.log" 2>&1; then
		tap 1 "$cc: core.o builds with ZERO_CALL_USED_REGS" "$(tail -n 3 "$scratch/build.log" | tr '\n' '|')"
		rm -rf "$scratch"
		continue
	fi
	obj=$scratch/mm/uaccess_kaddr/core.o
	zeroing=$(objdump -d --no-show-raw-insn --disassemble=uk_get_status "$obj" |
		grep -cE 'xor +%[a-z0-9]+,%[a-z0-9]+$')
	tap "$([ "$zeroing" -gt 0 ] && echo 0 || echo 1)" \
		"$cc: -fzero-call-used-regs took effect (uk_get_status zeroes $zeroing registers before it returns)"
	for fn in __uaccess_kaddr_precheck __uaccess_kaddr_precheck_ac; do
		dis=$(objdump -d --no-show-raw-insn --disassemble="$fn" "$obj")
		bad=$(zeroed_after_restore <<<"$dis")
		tap "$([ -z "$bad" ] && echo 0 || echo 1)" \
			"$cc: $fn hands back every register under ZERO_CALL_USED_REGS" "$bad"
		echo "# $cc $fn, up to its first ret: $(grep -B7 -m1 -E '\sret' <<<"$dis" |
			sed 's/^ *[0-9a-f]*:[[:space:]]*//' | tr -s ' ' | tr '\n' ';')"
	done
	rm -rf "$scratch"
done
echo "1..$n"
exit $fail
