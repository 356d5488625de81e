#!/bin/bash
# tests/packaging/check.sh: build the Debian and RPM packages afresh
# (make deb, make rpm: both package HEAD) and check them against HEAD's
# files; TAP on stdout.  Run it as
#   scripts/tap-suite.sh packaging tests/packaging/check.sh
#
# - lintian on the .changes: no error, no warning;
# - exactly the expected files, modes and owners in every package; the
#   conffile; the unit; the catalog where systemd's trigger looks; the
#   maintainer scripts and scriptlets; hardening in the binaries;
# - the extracted programs run and report the package version;
# - rpm --requires/--provides;
# - each shipped kernel series applies, in order, to the pristine tarball of
#   its line (linux-source-7.3 for the mainline series, linux-source-6.12 for
#   the backport; only the files it touches are extracted) with git apply,
#   GNU patch and git am alike, and gives the same tree as the stored patches
#   plus the overlay files (what scripts/kernel-tree.sh does).
# Build logs: build/logs/packaging/.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
pkg=$top/build/pkg
logs=$top/build/logs/packaging
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$logs"

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local f
	for f in "$@"; do
		[ -f "$f" ] && tail -n 25 "$f" | sed 's/^/#   /'
	done
	return 0
}
# check DESC CMD...: one test line from CMD's exit status; CMD's output is
# kept and shown (as comments) only when it fails.
check() {
	local desc=$1
	shift
	if "$@" >"$work/out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "$work/out"
	fi
}
note() {
	echo "# $*"
}

# The reference: the committed tree that make deb/rpm package (git archive
# HEAD), not the work tree with whatever is being edited in it.
mkdir -p "$work/src"
git -C "$top" archive --format=tar HEAD | tar -xf - -C "$work/src"
cd "$work/src"
version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
arch=$(dpkg --print-architecture)
rpm_version=$(sed -n 's/^Version:[[:space:]]*//p' packaging/rpm/uaccessd.spec)
rpm_release=$(rpm --eval "$(sed -n 's/^Release:[[:space:]]*//p' packaging/rpm/uaccessd.spec)")
make_version=$(sed -n 's/^VERSION ?= *//p' daemon/Makefile)
check "one version everywhere: debian/changelog $version, the spec $rpm_version, daemon/Makefile $make_version" \
	test "$version" = "$rpm_version" -a "$version" = "$make_version"

# ---------------------------------------------------------------- Debian
rm -rf "$pkg"
start=$SECONDS
if make -C "$top" deb >"$logs/deb.log" 2>&1; then
	ok "make deb ($((SECONDS - start)) s)"
else
	not_ok "make deb" "$logs/deb.log"
fi
deb_d=$pkg/uaccessd_${version}_$arch.deb
deb_dbg=$pkg/uaccessd-dbgsym_${version}_$arch.deb
deb_p=$pkg/uaccess-kaddr-patches_${version}_all.deb
changes=$pkg/uaccessd_${version}_$arch.changes
check "build/pkg has the three .deb files, the .changes and the .buildinfo" \
	test -f "$deb_d" -a -f "$deb_dbg" -a -f "$deb_p" -a -f "$changes" \
	-a -f "$pkg/uaccessd_${version}_$arch.buildinfo"
# The package source: HEAD's files (its debian/ is packaging/debian), no
# build/, nothing untracked.
check "the package source is HEAD's tree, debian/ aside: no build/, nothing else" \
	bash -c '[ ! -e "$1/build" ] && diff -r -x debian "$1" "$2"' _ "$pkg/uaccessd-$version" "$work/src"

# dh_auto_test ran the unit tests (cmocka TAP in the build log; as non-root
# two of them skip).
units=$(grep -c '^ok ' "$logs/deb.log" || true)
check "the Debian build ran the unit tests: $units passed, none failed" \
	bash -c '[ "$1" -gt 0 ] && ! grep "^not ok" "$2" | grep -qv "# SKIP"' _ "$units" "$logs/deb.log"
check "dpkg-buildflags reach the compiler and the linker (hardening=+all)" \
	bash -c 'grep -q -- "-fstack-protector-strong.*-c -o .*/uaccessd.o" "$1" &&
		grep -q -- "-D_FORTIFY_SOURCE=2.*-c -o .*/uaccessd.o" "$1" &&
		grep -q -- "-Wl,-z,relro -Wl,-z,now -o .*/uaccessd " "$1"' _ "$logs/deb.log"
check "the Debian build does not make all warnings errors (-Werror is for developers and CI; dpkg's -Werror=format-security stays)" \
	bash -c 'grep -q -- "-c -o .*/uaccessd.o" "$1" && ! grep -- "-c -o " "$1" | grep -Eq -- "-Werror( |$)"' _ "$logs/deb.log"

# lintian, everything it has: errors and warnings fail, the rest is shown.
lintian -I -E --pedantic --fail-on error,warning "$changes" >"$logs/lintian.log" 2>&1 && lrc=0 || lrc=$?
grep -v 'running with root privileges' "$logs/lintian.log" >"$work/lintian" || true
tags=$(wc -l <"$work/lintian")
ew=$(grep -c '^[EW]: ' "$work/lintian" || true)
if [ "$lrc" = 0 ] && [ "$ew" = 0 ]; then
	ok "lintian --fail-on error,warning -I -E --pedantic: no error or warning ($tags info/pedantic tags)"
else
	not_ok "lintian: $ew errors/warnings (exit $lrc)" "$work/lintian"
fi
sed 's/^/# lintian: /' "$work/lintian"

# deb_list DEB: "mode owner path" per entry.
deb_list() {
	dpkg-deb -c "$1" | awk '{ p = $6; for (i = 7; i <= NF; i++) p = p " " $i; print $1, $2, p }'
}
cat >"$work/want-uaccessd" <<'EOF'
drwxr-xr-x root/root ./
drwxr-xr-x root/root ./etc/
-rw-r--r-- root/root ./etc/uaccessd.conf
drwxr-xr-x root/root ./lib/
drwxr-xr-x root/root ./lib/systemd/
drwxr-xr-x root/root ./lib/systemd/system/
-rw-r--r-- root/root ./lib/systemd/system/uaccessd.service
drwxr-xr-x root/root ./usr/
drwxr-xr-x root/root ./usr/bin/
-rwxr-xr-x root/root ./usr/bin/uaccessctl
drwxr-xr-x root/root ./usr/lib/
drwxr-xr-x root/root ./usr/lib/systemd/
drwxr-xr-x root/root ./usr/lib/systemd/catalog/
-rw-r--r-- root/root ./usr/lib/systemd/catalog/uaccessd.catalog
drwxr-xr-x root/root ./usr/sbin/
-rwxr-xr-x root/root ./usr/sbin/uaccessd
drwxr-xr-x root/root ./usr/share/
drwxr-xr-x root/root ./usr/share/bash-completion/
drwxr-xr-x root/root ./usr/share/bash-completion/completions/
-rw-r--r-- root/root ./usr/share/bash-completion/completions/uaccessctl
drwxr-xr-x root/root ./usr/share/doc/
drwxr-xr-x root/root ./usr/share/doc/uaccessd/
-rw-r--r-- root/root ./usr/share/doc/uaccessd/README.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/architecture.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/control-protocol.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/copyright
-rw-r--r-- root/root ./usr/share/doc/uaccessd/fleet.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/journal-fields.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/netlink-protocol.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/uaccessctl.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/uaccessd.conf.md.gz
-rw-r--r-- root/root ./usr/share/doc/uaccessd/uaccessd.md.gz
drwxr-xr-x root/root ./usr/share/man/
drwxr-xr-x root/root ./usr/share/man/man5/
-rw-r--r-- root/root ./usr/share/man/man5/uaccessd.conf.5.gz
drwxr-xr-x root/root ./usr/share/man/man8/
-rw-r--r-- root/root ./usr/share/man/man8/uaccessctl.8.gz
-rw-r--r-- root/root ./usr/share/man/man8/uaccessd.8.gz
EOF
{
	printf '%s\n' 'drwxr-xr-x root/root ./' 'drwxr-xr-x root/root ./usr/' \
		'drwxr-xr-x root/root ./usr/share/' 'drwxr-xr-x root/root ./usr/share/doc/' \
		'drwxr-xr-x root/root ./usr/share/doc/uaccess-kaddr-patches/'
	# dh_compress compresses documents over 4 KiB.
	for f in README.Debian:packaging/debian/uaccess-kaddr-patches.README.Debian \
		README.patches:packaging/README.patches changelog.gz: copyright: \
		kernel-patches.md:docs/kernel-patches.md; do
		name=${f%%:*} src=${f#*:}
		[ -n "$src" ] && [ "$(wc -c <"$src")" -gt 4096 ] && name=$name.gz
		echo "-rw-r--r-- root/root ./usr/share/doc/uaccess-kaddr-patches/$name"
	done
	printf '%s\n' 'drwxr-xr-x root/root ./usr/share/uaccess-kaddr/' \
		'drwxr-xr-x root/root ./usr/share/uaccess-kaddr/configs/'
	for f in kernel/configs/*.config; do
		echo "-rw-r--r-- root/root ./usr/share/uaccess-kaddr/configs/${f##*/}"
	done
	echo 'drwxr-xr-x root/root ./usr/share/uaccess-kaddr/configs/6.12/'
	for f in kernel/configs/6.12/*.config; do
		echo "-rw-r--r-- root/root ./usr/share/uaccess-kaddr/configs/6.12/${f##*/}"
	done
	echo 'drwxr-xr-x root/root ./usr/share/uaccess-kaddr/patches/'
	for l in $KERNEL_LINES; do
		kernel_line_set "$l"
		d=./usr/share/uaccess-kaddr/patches/linux-$l
		echo "drwxr-xr-x root/root $d/"
		echo "-rw-r--r-- root/root $d/0000-cover-letter.patch"
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${line_series#"$top"/}" | awk '{ print $1 }' |
			sed "s|^|-rw-r--r-- root/root $d/|"
		echo "-rw-r--r-- root/root $d/series"
	done
} | LC_ALL=C sort >"$work/want-patches"

# same_list WANT GOT: the same lines, in any order.
same_list() {
	diff -u <(LC_ALL=C sort "$1") <(LC_ALL=C sort "$2")
}
deb_list "$deb_d" >"$work/got-uaccessd" 2>&1 || true
check "uaccessd.deb: exactly the expected files, modes and owners (programs 0755 root)" \
	same_list "$work/want-uaccessd" "$work/got-uaccessd"
deb_list "$deb_p" >"$work/got-patches" 2>&1 || true
check "uaccess-kaddr-patches.deb: exactly the two series (7.3, 6.12), cover letters, series files, config fragments and docs" \
	same_list "$work/want-patches" "$work/got-patches"

# Control data.
field() {
	dpkg-deb -f "$1" "$2"
}
check "uaccessd: Architecture $arch (linux-any), Depends from shlibs on libnl-genl-3-200, libsystemd0, libjson-c5 and libsmartcols1" \
	bash -c '[ "$(dpkg-deb -f "$1" Architecture)" = "$2" ] &&
		dpkg-deb -f "$1" Depends | grep -q "libnl-genl-3-200" &&
		dpkg-deb -f "$1" Depends | grep -q "libsystemd0" &&
		dpkg-deb -f "$1" Depends | grep -q "libjson-c5" &&
		dpkg-deb -f "$1" Depends | grep -q "libsmartcols1"' _ "$deb_d" "$arch"
check "uaccess-kaddr-patches: Architecture all, Multi-Arch foreign, depends on nothing but misc" \
	bash -c '[ "$(dpkg-deb -f "$1" Architecture)" = all ] &&
		[ "$(dpkg-deb -f "$1" Multi-Arch)" = foreign ] &&
		[ -z "$(dpkg-deb -f "$1" Depends)" ] && [ -z "$(dpkg-deb -f "$1" Pre-Depends)" ]' _ "$deb_p"

# (A missing package fails the checks below, one by one.)
mkdir -p "$work/deb/root" "$work/deb/ctl"
dpkg-deb -x "$deb_d" "$work/deb/root" 2>/dev/null || true
dpkg-deb -e "$deb_d" "$work/deb/ctl" 2>/dev/null || true
check "DEBIAN/conffiles lists /etc/uaccessd.conf and nothing else" \
	bash -c '[ "$(cat "$1")" = /etc/uaccessd.conf ]' _ "$work/deb/ctl/conffiles"
check "the installed configuration and catalog are packaging/uaccessd.conf and uaccessd.catalog" \
	bash -c 'cmp "$1/etc/uaccessd.conf" packaging/uaccessd.conf &&
		cmp "$1/usr/lib/systemd/catalog/uaccessd.catalog" packaging/uaccessd.catalog' _ "$work/deb/root"
check "the unit is packaging/systemd/uaccessd.service, Type=notify, in /lib/systemd/system (Debian 12's dh_installsystemd)" \
	bash -c 'cmp "$1/lib/systemd/system/uaccessd.service" packaging/systemd/uaccessd.service &&
		grep -qx "Type=notify" "$1/lib/systemd/system/uaccessd.service"' _ "$work/deb/root"
# The host runs Debian's own kernel, without the detector: systemd, reading
# the unit's own condition, skips it there (tests/system checks the patched
# kernel, where it holds).
check "the unit's condition fails on this kernel without the detector (systemd-analyze condition)" \
	bash -c 'cond=$(grep "^ConditionPathExists=" "$1") && [ -n "$cond" ] &&
		[ ! -e /sys/module/uaccess_kaddr ] && ! systemd-analyze condition "$cond"' _ \
	packaging/systemd/uaccessd.service
check "postinst enables and starts (restarts on upgrade) uaccessd.service (dh_installsystemd)" \
	bash -c 'grep -q "deb-systemd-helper enable '"'"'uaccessd.service'"'"'" "$1" &&
		grep -q "deb-systemd-invoke \$_dh_action '"'"'uaccessd.service'"'"'" "$1" &&
		grep -q "_dh_action=restart" "$1"' _ "$work/deb/ctl/postinst"
check "prerm stops uaccessd.service on removal; postrm purges its state" \
	bash -c 'grep -q "deb-systemd-invoke stop '"'"'uaccessd.service'"'"'" "$1/prerm" &&
		grep -q "deb-systemd-helper purge '"'"'uaccessd.service'"'"'" "$1/postrm"' _ "$work/deb/ctl"
# Debian updates the catalog database from systemd's dpkg file trigger, not
# from each package's maintainer scripts: the catalog must be where that
# trigger looks, and the scripts must not run journalctl themselves.
catdir=$(sed -n 's/^interest\(-noawait\)\? \(.*catalog\)$/\2/p' /var/lib/dpkg/info/systemd.triggers 2>/dev/null || true)
check "the catalog is in ${catdir:-?}, which systemd's dpkg trigger watches (journalctl --update-catalog); no maintainer script runs journalctl" \
	bash -c '[ -n "$1" ] && [ -f "$2$1/uaccessd.catalog" ] && ! grep -q journalctl "$3"/p*' \
	_ "$catdir" "$work/deb/root" "$work/deb/ctl"
check "the extracted uaccessd and uaccessctl report version $version" \
	bash -c '[ "$("$1/usr/sbin/uaccessd" --version)" = "uaccessd $2" ] &&
		[ "$("$1/usr/bin/uaccessctl" --version)" = "uaccessctl $2" ]' _ "$work/deb/root" "$version"
check "the autopkgtest command (debian/tests/control) passes on the extracted programs" \
	env PATH="$work/deb/root/usr/sbin:$work/deb/root/usr/bin:$PATH" \
	sh -c "$(sed -n 's/^Test-Command: //p' packaging/debian/tests/control)"

# hardened BINARY: PIE, full RELRO, stack protector, fortified calls.  (The
# output is read whole: `readelf | grep -q` fails under pipefail when grep
# stops reading early.)
hardened() {
	local h l d s
	h=$(readelf -hW "$1") && l=$(readelf -lW "$1") && d=$(readelf -dW "$1") &&
		s=$(readelf -sW --dyn-syms "$1") || return 1
	grep -q 'Type:.*DYN' <<<"$h" && grep -q GNU_RELRO <<<"$l" &&
		grep -q 'BIND_NOW\|FLAGS.*NOW' <<<"$d" &&
		grep -q '__stack_chk_fail' <<<"$s" && grep -q '__[a-z]*_chk@' <<<"$s"
}
for b in usr/sbin/uaccessd usr/bin/uaccessctl; do
	check "deb /$b: PIE, RELRO, BIND_NOW, stack protector, _FORTIFY_SOURCE" hardened "$work/deb/root/$b"
done
# The dbgsym package has the debug info of both programs, by build-id.
build_id() {
	readelf -nW "$1" | sed -n 's/.*Build ID: //p'
}
check "uaccessd-dbgsym has the debug info of both programs (by build-id)" \
	bash -c 'for b in "$2/usr/sbin/uaccessd" "$2/usr/bin/uaccessctl"; do
		id=$(readelf -nW "$b" | sed -n "s/.*Build ID: //p")
		dpkg-deb -c "$1" | grep -q "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug\$" || exit 1
	done' _ "$deb_dbg" "$work/deb/root"

mkdir -p "$work/debp"
dpkg-deb -x "$deb_p" "$work/debp" 2>/dev/null || true
shipped=$work/debp/usr/share/uaccess-kaddr/patches
check "the shipped 7.3 series is what scripts/series-export.py writes from HEAD" \
	bash -c 'scripts/series-export.py "$1" && diff -r "$1" "$2"' _ "$work/export-7.3" "$shipped/linux-7.3"
check "the shipped 6.12 series is what scripts/series-export.py --line 6.12 writes from HEAD" \
	bash -c 'scripts/series-export.py --line 6.12 "$1" && diff -r "$1" "$2"' _ "$work/export-6.12" "$shipped/linux-6.12"
check "the 6.12 series is marked as such: subjects [PATCH 6.12 n/N], the mainline ones [PATCH n/N]" \
	bash -c 'grep -q "^Subject: \[PATCH 6.12 1/[0-9]*\]" "$2"/0001-*.patch &&
		grep -q "^Subject: \[PATCH 1/[0-9]*\]" "$1"/0001-*.patch' _ "$shipped/linux-7.3" "$shipped/linux-6.12"
check "no test-only patch shipped (kernel/inject stays out)" \
	bash -c '[ -s "$1/patches/linux-7.3/series" ] && [ -s "$1/patches/linux-6.12/series" ] &&
		! grep -rl "TEST-ONLY" "$1" &&
		for p in kernel/inject/*.patch kernel/backport-6.12/inject/*.patch; do
			[ -e "$p" ] || continue
			[ ! -e "$1/patches/linux-7.3/${p##*/}" ] && [ ! -e "$1/patches/linux-6.12/${p##*/}" ] || exit 1
		done' _ "$work/debp/usr/share/uaccess-kaddr"
check "README.Debian tells which series fits which kernel: linux-7.3 for linux-source-7.3, linux-6.12 for linux-source-6.12" \
	bash -c 'grep -q "patches/linux-7.3 .*Linux 7.3" "$1" && grep -q "linux-source-7.3" "$1" &&
		grep -q "patches/linux-6.12 .*Linux 6.12" "$1" && grep -q "linux-source-6.12.tar.xz" "$1"' \
	_ "$work/debp/usr/share/doc/uaccess-kaddr-patches/README.Debian"

# ---------------------------------------------------------------- RPM
start=$SECONDS
if make -C "$top" rpm >"$logs/rpm.log" 2>&1; then
	ok "make rpm ($((SECONDS - start)) s)"
else
	not_ok "make rpm" "$logs/rpm.log"
fi
rpm_arch=$(rpm --eval '%{_arch}')
rpm_d=$pkg/rpm/RPMS/$rpm_arch/uaccessd-$version-$rpm_release.$rpm_arch.rpm
rpm_p=$pkg/rpm/RPMS/noarch/uaccess-kaddr-patches-$version-$rpm_release.noarch.rpm
check "build/pkg/rpm/RPMS has uaccessd ($rpm_arch) and uaccess-kaddr-patches (noarch)" \
	test -f "$rpm_d" -a -f "$rpm_p"
units=$(sed -n '/^Executing(%check)/,/^Executing(/p' "$logs/rpm.log" | grep -c '^ok ' || true)
check "%check ran the unit tests: $units passed, none failed" \
	bash -c '[ "$1" -gt 0 ] && ! grep "^not ok" "$2" | grep -qv "# SKIP"' _ "$units" "$logs/rpm.log"

# rpm_list RPM: "mode owner:group path", build-id links left out (their
# names change with every build; checked below).
rpm_list() {
	rpm -qp --qf '[%{FILEMODES:perms} %{FILEUSERNAME}:%{FILEGROUPNAME} %{FILENAMES}\n]' "$1" |
		grep -v ' /usr/lib/\.build-id'
}
mandir=$(rpm --eval '%{_mandir}')
cat >"$work/want-rpm-uaccessd" <<EOF
-rw-r--r-- root:root /etc/uaccessd.conf
-rwxr-xr-x root:root /usr/bin/uaccessctl
-rw-r--r-- root:root /usr/lib/systemd/catalog/uaccessd.catalog
-rw-r--r-- root:root /usr/lib/systemd/system/uaccessd.service
-rwxr-xr-x root:root /usr/sbin/uaccessd
-rw-r--r-- root:root /usr/share/bash-completion/completions/uaccessctl
drwxr-xr-x root:root /usr/share/doc/uaccessd-$version
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/README.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/architecture.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/control-protocol.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/fleet.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/journal-fields.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/netlink-protocol.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/uaccessctl.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/uaccessd.conf.md
-rw-r--r-- root:root /usr/share/doc/uaccessd-$version/uaccessd.md
drwxr-xr-x root:root /usr/share/licenses/uaccessd-$version
-rw-r--r-- root:root /usr/share/licenses/uaccessd-$version/BSD-3-Clause
-rw-r--r-- root:root /usr/share/licenses/uaccessd-$version/GPL-2.0
-rw-r--r-- root:root /usr/share/licenses/uaccessd-$version/Linux-syscall-note
-rw-r--r-- root:root $mandir/man5/uaccessd.conf.5
-rw-r--r-- root:root $mandir/man8/uaccessctl.8
-rw-r--r-- root:root $mandir/man8/uaccessd.8
EOF
# The same payload as the .deb: patches, fragments; docs and licences.
{
	sed -n 's|^-rw-r--r-- root/root \./\(usr/share/uaccess-kaddr/.*\)|-rw-r--r-- root:root /\1|p' "$work/want-patches"
	sed -n 's|^drwxr-xr-x root/root \./\(usr/share/uaccess-kaddr.*\)/$|drwxr-xr-x root:root /\1|p' "$work/want-patches"
	d=/usr/share/doc/uaccess-kaddr-patches-$version
	l=/usr/share/licenses/uaccess-kaddr-patches-$version
	printf '%s\n' "drwxr-xr-x root:root $d" "-rw-r--r-- root:root $d/README.patches" \
		"-rw-r--r-- root:root $d/kernel-patches.md" "drwxr-xr-x root:root $l" \
		"-rw-r--r-- root:root $l/BSD-3-Clause" "-rw-r--r-- root:root $l/GPL-2.0" \
		"-rw-r--r-- root:root $l/Linux-syscall-note"
} | LC_ALL=C sort >"$work/want-rpm-patches"
rpm_list "$rpm_d" >"$work/got-rpm-uaccessd" 2>&1 || true
check "uaccessd.rpm: exactly the expected files, modes and owners" \
	same_list "$work/want-rpm-uaccessd" "$work/got-rpm-uaccessd"
rpm_list "$rpm_p" >"$work/got-rpm-patches" 2>&1 || true
check "uaccess-kaddr-patches.rpm: exactly the expected files (noarch)" \
	bash -c 'diff -u <(sort "$1") <(sort "$2") && [ "$(rpm -qp --qf "%{ARCH}" "$3")" = noarch ]' \
	_ "$work/want-rpm-patches" "$work/got-rpm-patches" "$rpm_p"
check "uaccessd.rpm: build-id links for both programs and nothing else under /usr/lib/.build-id" \
	bash -c '[ "$(rpm -qlp "$1" | grep -c "^/usr/lib/\.build-id/../.")" = 2 ] &&
		rpm -qp --qf "[%{FILELINKTOS}\n]" "$1" | grep -qx "../../../../usr/sbin/uaccessd" &&
		rpm -qp --qf "[%{FILELINKTOS}\n]" "$1" | grep -qx "../../../../usr/bin/uaccessctl"' _ "$rpm_d"
# File flags: c config, n noreplace, d doc, l license.
check "rpm: /etc/uaccessd.conf is %config(noreplace), docs are %doc, licences %license" \
	bash -c 'f=$(rpm -qp --qf "[%{FILEFLAGS:fflags} %{FILENAMES}\n]" "$1");
		echo "$f" | grep -qx "cn /etc/uaccessd.conf" &&
		! echo "$f" | grep "/usr/share/doc/uaccessd-[^/]*/" | grep -qv "^d " &&
		! echo "$f" | grep "/usr/share/licenses/uaccessd-[^/]*/" | grep -qv "^l "' _ "$rpm_d"
check "rpm scriptlets: %systemd_post, %systemd_preun, %systemd_postun_with_restart on uaccessd.service" \
	bash -c 's=$(rpm -qp --scripts "$1");
		echo "$s" | grep -q "systemd-update-helper install-system-units uaccessd.service" &&
		echo "$s" | grep -q "systemd-update-helper remove-system-units uaccessd.service" &&
		echo "$s" | grep -q "systemd-update-helper mark-restart-system-units uaccessd.service"' _ "$rpm_d"
check "rpm: no catalog scriptlet (systemd's file trigger on /usr/lib/systemd/catalog runs journalctl --update-catalog)" \
	bash -c 's=$(rpm -qp --scripts --triggers "$1") && ! grep -q journalctl <<<"$s"' _ "$rpm_d"
check "uaccess-kaddr-patches.rpm has no scriptlet" \
	bash -c 's=$(rpm -qp --scripts "$1") && [ -z "$s" ]' _ "$rpm_p"

rpm -qp --requires "$rpm_d" >"$work/requires" 2>&1 || true
rpm -qp --provides "$rpm_d" >"$work/provides" 2>&1 || true
sed 's/^/# rpm --requires: /' "$work/requires"
check "rpm --requires: libnl-3, libnl-genl-3, libsystemd, libjson-c, libsmartcols, libc, /bin/sh for the scriptlets, its own config(), nothing else" \
	bash -c 'grep -qx "libnl-genl-3.so.200()(64bit)" "$1" && grep -qx "libnl-3.so.200()(64bit)" "$1" &&
		grep -qx "libsystemd.so.0()(64bit)" "$1" && grep -qx "libjson-c.so.5()(64bit)" "$1" &&
		grep -qx "libsmartcols.so.1()(64bit)" "$1" &&
		grep -qx "/bin/sh" "$1" &&
		! grep -v "^libc\.so\.6\|^libnl-3\.so\|^libnl-genl-3\.so\|^libsystemd\.so\.0\|^libjson-c\.so\.5\|^libsmartcols\.so\.1\|^rpmlib(\|^rtld(\|^/bin/sh$\|^config(uaccessd) = " "$1"' \
	_ "$work/requires"
check "rpm --provides: uaccessd = $version-$rpm_release, uaccessd($rpm_arch-ish), config(uaccessd)" \
	bash -c 'grep -qx "uaccessd = $2" "$1" && grep -q "^uaccessd(.*) = $2\$" "$1" &&
		grep -qx "config(uaccessd) = $2" "$1" && [ "$(wc -l <"$1")" = 3 ]' \
	_ "$work/provides" "$version-$rpm_release"
check "uaccess-kaddr-patches.rpm provides itself and requires only rpmlib features" \
	bash -c 'rpm -qp --provides "$1" | grep -qx "uaccess-kaddr-patches = $2" &&
		! rpm -qp --requires "$1" | grep -v "^rpmlib("' _ "$rpm_p" "$version-$rpm_release"

mkdir -p "$work/rpm/root" "$work/rpmp"
(cd "$work/rpm/root" && rpm2cpio "$rpm_d" | cpio -idm --quiet) 2>/dev/null || true
(cd "$work/rpmp" && rpm2cpio "$rpm_p" | cpio -idm --quiet) 2>/dev/null || true
check "the extracted RPM programs report version $version" \
	bash -c '[ "$("$1/usr/sbin/uaccessd" --version)" = "uaccessd $2" ] &&
		[ "$("$1/usr/bin/uaccessctl" --version)" = "uaccessctl $2" ]' _ "$work/rpm/root" "$version"
for b in usr/sbin/uaccessd usr/bin/uaccessctl; do
	check "rpm /$b: PIE, RELRO, BIND_NOW, stack protector, _FORTIFY_SOURCE" hardened "$work/rpm/root/$b"
done
check "the RPM and the .deb ship the same series and config fragments" \
	diff -r "$work/rpmp/usr/share/uaccess-kaddr" "$work/debp/usr/share/uaccess-kaddr"

# ---------------------------------------------------- the series applies
# series_applies LINE TARBALL SERIESFILE STOREDDIR...: the shipped series of
# LINE against the pristine TARBALL.  SERIESFILE is the line's stored series;
# a patch is read from the first STOREDDIR that has it (the backport's own
# version, else mainline's), as scripts/kernel-line.sh does.  Only the files
# that exist before the series (those the diffs change but do not create)
# come out of the tarball: reading it still takes ~10 s.
series_applies() {
	local line=$1 tarball=$2 stored=$3 shipped=$work/debp/usr/share/uaccess-kaddr/patches/linux-$1
	local w=$work/apply-$line prefix start p
	shift 3
	local dirs=("$@")
	local series=()
	mkdir -p "$w"
	if [ -f "$shipped/series" ]; then
		while read -r p; do series+=("$p"); done <"$shipped/series"
	fi
	check "$line: the shipped series file lists the $(grep -c . "$shipped/series" 2>/dev/null || echo 0) patches of ${stored%/series}/series, in order" \
		bash -c 'diff <(sed -e "s/#.*//" -e "/^[[:space:]]*\$/d" "$1" | awk "{ print \$1 }") "$2"' \
		_ "$stored" "$shipped/series"
	cat "${series[@]/#/$shipped/}" </dev/null >"$w/all.patch" 2>/dev/null || true
	grep -h '^--- a/' "$w/all.patch" | sed 's|^--- a/||' | LC_ALL=C sort -u >"$w/changed" || true
	grep -h -B3 '^--- /dev/null' "$w/all.patch" |
		sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | LC_ALL=C sort -u >"$w/created" || true
	LC_ALL=C comm -23 "$w/changed" "$w/created" >"$w/pristine-files"
	note "$line: the series creates $(wc -l <"$w/created") files and changes $(wc -l <"$w/pristine-files") existing ones"
	mkdir -p "$w/pristine"
	prefix=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1 || true)
	start=$SECONDS
	# (An empty list would extract the whole tarball.)
	# shellcheck disable=SC2046
	if [ -n "$prefix" ] && [ -s "$w/pristine-files" ] && tar -xJf "$tarball" -C "$w/pristine" --strip-components=1 --occurrence=1 \
		$(sed "s|^|$prefix/|" "$w/pristine-files") 2>"$w/tar.err"; then
		ok "$line: extracted the $(wc -l <"$w/pristine-files") files the series changes from $(basename "$tarball") ($((SECONDS - start)) s)"
	else
		not_ok "$line: extract the files the series changes from $tarball" "$w/tar.err"
	fi

	# git apply, in order (each --check first, then applied for the next).
	cp -a "$w/pristine" "$w/t-apply"
	for p in "${series[@]}"; do
		check "$line: git apply --check, then apply: $p" \
			bash -c 'cd "$1" && git apply --check "$2" && git apply "$2"' _ "$w/t-apply" "$shipped/$p"
	done
	# GNU patch, as README.Debian tells: dry run, then for real; no fuzz, no offset rejects.
	cp -a "$w/pristine" "$w/t-patch"
	for p in "${series[@]}"; do
		check "$line: patch -p1 --dry-run, then apply: $p" \
			bash -c 'cd "$1" && patch -p1 -F0 --batch --forward --no-backup-if-mismatch --dry-run <"$2" >/dev/null &&
				patch -p1 -F0 --batch --forward --no-backup-if-mismatch <"$2"' _ "$w/t-patch" "$shipped/$p"
	done
	check "$line: GNU patch leaves no .rej/.orig and gives the same tree as git apply" \
		bash -c '[ "$3" -gt 0 ] && [ -z "$(find "$1" -name "*.rej" -o -name "*.orig")" ] && diff -r "$1" "$2"' \
		_ "$w/t-patch" "$w/t-apply" "${#series[@]}"
	# git am: the mails are well formed; one commit per patch, subjects kept.
	cp -a "$w/pristine" "$w/t-am"
	check "$line: git am of the shipped series: $(( ${#series[@]} )) commits with the mails' subjects, the same tree" \
		bash -c 'cd "$1" && shift && g() { git -c user.name=t -c user.email=t@invalid -c commit.gpgsign=false "$@"; } &&
			g init -q && g add -A && g commit -qm base && g am -q "$@" &&
			[ "$(git rev-list --count HEAD)" = $(( $# + 1 )) ] &&
			for p in "$@"; do s=$(sed -n "s/^Subject: \[PATCH [0-9. ]*[0-9]*\/[0-9]*\] //p" "$p");
				[ -n "$s" ] && git log --format=%s | grep -qxF "$s" || exit 1; done &&
			git log -1 --format=%an | grep -qx "uaccess_kaddr developers" &&
			diff -r -x .git . "$0"' "$w/t-apply" "$w/t-am" "${series[@]/#/$shipped/}"
	# What scripts/kernel-tree.sh builds: per series line, the overlay files
	# laid in as they are, then the stored diff applied (a backport's version
	# of a patch may adapt the overlay files of its own change).
	cp -a "$w/pristine" "$w/t-ref"
	check "$line: the same tree as the stored patches plus kernel/overlay (kernel-tree.sh's way)" \
		bash -c 'ref=$1 w=$2 src=$3 stored=$4 want=$5; shift 5; cd "$ref" && while read -r p files; do
				for f in $files; do o=$src/kernel/overlay/$f; [ -f "$o" ] || o=$src/$f
					mkdir -p "$(dirname "$f")" && cp "$o" "$f" || exit 1; done
				for d in "$@"; do [ -f "$src/$d/$p" ] && break; done
				git mailinfo /dev/null "$w/diff" <"$src/$d/$p" >/dev/null || exit 1
				[ ! -s "$w/diff" ] || git apply "$w/diff" || exit 1
			done < <(sed -e "s/#.*//" -e "/^[[:space:]]*\$/d" "$src/$stored") &&
			diff -r . "$want"' _ "$w/t-ref" "$w" "$work/src" "$stored" "$w/t-apply" "${dirs[@]}"
}
# Each line's tarball, series file and patch folders are kernel-line.sh's.
for l in $KERNEL_LINES; do
	kernel_line_set "$l"
	# shellcheck disable=SC2086
	series_applies "$l" "$line_tarball" "${line_series#"$top"/}" ${line_series_dirs//"$top"\//}
done

# ---------------------------------------------------------------- sizes
for f in "$deb_d" "$deb_dbg" "$deb_p"; do
	note "size: $(basename "$f"): $(stat -c %s "$f") bytes, Installed-Size $(dpkg-deb -f "$f" Installed-Size) KiB"
done
for f in "$rpm_d" "$rpm_p"; do
	note "size: $(basename "$f"): $(stat -c %s "$f") bytes, installed $(rpm -qp --qf '%{SIZE}' "$f") bytes"
done
note "ls -l build/pkg:"
(cd "$pkg" && ls -l ./*.deb rpm/RPMS/*/*.rpm 2>&1 | sed 's/^/#   /') || true

echo "1..$n"
[ "$failed" = 0 ]
