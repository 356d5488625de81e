#!/bin/bash
# kernel-series.sh: write the series (overlay + patches, without kernel/inject)
# as an upstream-style `git format-patch` series with a cover letter into
# build/series/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
out=$top/build/series

"$top/scripts/kernel-tree.sh" refs
base=$("$top/scripts/kernel-tree.sh" base)
rm -rf "$out"
# Six lines of context: the x86 uaccess.h macros that patch 0002 changes
# end beyond a three-line hunk, and checkpatch, seeing them cut off, would
# call their arguments unused.
git -C "$tree" -c core.abbrev=12 -c user.name="uaccess_kaddr developers" \
	-c user.email=dev@uaccess-kaddr.invalid \
	format-patch -q -U6 --cover-letter --no-signature \
	--from="uaccess_kaddr developers <dev@uaccess-kaddr.invalid>" \
	-o "$out" "$base..refs/heads/series"

cover=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n 1 "$top/kernel/patches/cover-letter")
python3 - "$cover" "$subject" "$top/kernel/patches/cover-letter" <<'PY'
import sys
path, subject, blurb_file = sys.argv[1:]
blurb = open(blurb_file).read().split('\n', 2)[2].strip()
text = open(path).read()
text = text.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', blurb)
open(path, 'w').write(text)
PY
ls "$out"
