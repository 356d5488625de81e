#!/bin/bash
# manpages.t: the man pages render without groff warnings and say what the
# programs do: every command of `uaccessctl --help` is in uaccessctl(8),
# every key of the shipped /etc/uaccessd.conf in uaccessd.conf(5), every
# option of `uaccessd --help` in uaccessd(8).  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
bin=${UK_BIN:-$top/build/daemon}
man=$top/packaging/man

render() {
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$1"
}

for page in "$man"/*.[58]; do
	w=$(render "$page" 2>&1 >/dev/null)
	check $([ -z "$w" ]; echo $?) "$(basename "$page") renders without warnings" \
		"$(echo "$w" | head -n 3 | tr '\n' ' ')"
done

# text PAGE: the rendered page, hyphenation and formatting undone
text() {
	render "$1" 2>/dev/null | col -b | tr -s ' \n' '  '
}

ctl=$(text "$man/uaccessctl.8")
for verb in $("$bin/uaccessctl" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\).*/\1/p'); do
	echo "$ctl" | grep -qw -- "$verb"
	check $? "uaccessctl(8) describes the command $verb"
done
for opt in $("$bin/uaccessctl" --help | grep -o -- '--[a-z-]*' | sort -u); do
	echo "$ctl" | grep -q -- "$opt"
	check $? "uaccessctl(8) describes the option $opt"
done

conf=$(text "$man/uaccessd.conf.5")
for key in $(sed -n 's/^#*\([a-z_]*\) *= .*/\1/p' "$top/packaging/uaccessd.conf" | sort -u); do
	echo "$conf" | grep -qw -- "$key"
	check $? "uaccessd.conf(5) describes the key $key"
done

d=$(text "$man/uaccessd.8")
for opt in $("$bin/uaccessd" --help | grep -o -- '--[a-z-]*' | sort -u); do
	echo "$d" | grep -q -- "$opt"
	check $? "uaccessd(8) describes the option $opt"
done

# What points at the docs points at something shipped: each entry of the
# journal catalog has a Documentation: line, every man: reference of the
# catalog, the unit and the shipped configuration names a page of
# packaging/man, and no link leads to a page that does not exist (there is
# no public home yet: no http link at all).
cat=$top/packaging/uaccessd.catalog
entries=$(grep -c '^-- ' "$cat")
docs=$(awk '/^-- /{e++} /^Documentation: /{d[e]=1} END {n=0; for (i in d) n++; print n}' "$cat")
check $([ "$entries" = "$docs" ]; echo $?) \
	"every catalog entry has a Documentation: line" "$docs of $entries entries"
for ref in $(grep -ho 'man:[a-z.]*([0-9])' "$cat" "$top/packaging/systemd/uaccessd.service" \
	"$top/packaging/uaccessd.conf" | sort -u); do
	page=${ref#man:}
	page=${page%(*}.$(echo "$ref" | sed 's/.*(\([0-9]\))/\1/')
	check $([ -f "$man/$page" ]; echo $?) "$ref is a shipped man page"
done
links=$(grep -hn 'https\?://' "$cat" "$top/packaging/uaccessd.conf" || true)
check $([ -z "$links" ]; echo $?) "no web link in the catalog or the shipped configuration" "$links"
grep -q 'uaccessd\.conf(5)' "$top/packaging/uaccessd.conf"
check $? "the shipped configuration points at uaccessd.conf(5), not at the sources"
