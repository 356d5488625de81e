#!/bin/sh
# kconfig-verify.sh .config FRAGMENT...: fail when a symbol that the
# fragments set (the last one to mention it wins, as in merge_config.sh) did
# not end up with that value: a missing dependency drops it silently.
set -eu
config=$1
shift
for frag in "$@"; do
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$frag" |
		sed "s|\$| $(basename "$frag")|"
done | awk '{ want[$1] = $2; from[$1] = $3; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END { for (i = 0; i < n; i++) print order[i], want[order[i]], from[order[i]] }' |
while read -r sym want frag; do
	got=$(sed -n "s/^$sym=//p" "$config")
	[ -n "$got" ] || got=n
	if [ "$got" != "$want" ]; then
		echo "kconfig-verify: $sym: $frag wants $want, .config has $got" >&2
		echo bad
	fi
done | grep -q bad && { echo "kconfig-verify: $config does not match its fragments" >&2; exit 1; }
exit 0
