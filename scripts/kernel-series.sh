#!/bin/bash
# kernel-series.sh [LINE...]: write each kernel line's series (overlay +
# patches, without kernel/inject) as an upstream-style `git format-patch`
# series with its cover letter: mainline (7.3) into build/series/, the 6.12
# backport into build/series-6.12/ (subjects [PATCH 6.12 n/N]).  Without
# LINE, both.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"

write_series() {
	kernel_line_set "$1"
	local out=$top/build/series prefix=PATCH base cover
	if [ "$line" != "$KERNEL_MAINLINE" ]; then
		out=$top/build/series-$line
		prefix="PATCH $line"
	fi
	"$top/scripts/kernel-tree.sh" --line "$line" refs
	base=$("$top/scripts/kernel-tree.sh" --line "$line" base)
	rm -rf "$out"
	# Six lines of context: the x86 uaccess.h macros that patch 0002 changes
	# end beyond a three-line hunk, and checkpatch, seeing them cut off, would
	# call their arguments unused.
	git -C "$line_tree" -c core.abbrev=12 -c user.name="uaccess_kaddr developers" \
		-c user.email=dev@uaccess-kaddr.invalid \
		format-patch -q -U6 --cover-letter --no-signature --subject-prefix="$prefix" \
		--from="uaccess_kaddr developers <dev@uaccess-kaddr.invalid>" \
		-o "$out" "$base..refs/heads/series"
	cover=${line_series%/series}/cover-letter
	python3 - "$out/0000-cover-letter.patch" "$cover" <<'PY'
import sys
path, blurb_file = sys.argv[1:]
subject, _, blurb = open(blurb_file).read().split('\n', 2)
text = open(path).read()
text = text.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', blurb.strip())
open(path, 'w').write(text)
PY
	echo "${out#"$top"/}: a cover letter and $(($(ls "$out" | wc -l) - 1)) patches for Linux $line"
}

# shellcheck disable=SC2086
for l in ${*:-$KERNEL_LINES}; do
	write_series "$l"
done
