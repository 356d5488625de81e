#!/bin/sh
# kconfig-verify.sh .config FRAGMENT...: fail when a symbol that a fragment
# sets did not end up with that value (a missing dependency drops it silently).
set -eu
config=$1
shift
bad=0
for frag in "$@"; do
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$frag" |
	while read -r sym want; do
		got=$(sed -n "s/^$sym=//p" "$config")
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			echo "kconfig-verify: $sym: $(basename "$frag") wants $want, .config has $got" >&2
			echo bad
		fi
	done
done | grep -q bad && bad=1
[ "$bad" = 0 ] || { echo "kconfig-verify: $config does not match its fragments" >&2; exit 1; }
exit 0
