#!/bin/bash
# pkg-build.sh deb|rpm: build the Debian or the RPM packages from a clean
# copy of a commit (`git archive`, HEAD unless PKG_REF names another): what
# is committed, nothing of the work tree (no build/, and no half-done edit
# of another change).
#
#   deb  dpkg-buildpackage -b in build/pkg/uaccessd-VERSION (packaging/debian
#        becomes its debian/); the .deb, .buildinfo and .changes files land
#        in build/pkg/
#   rpm  rpmbuild -bb with _topdir build/pkg/rpm from the tarball
#        uaccessd-VERSION.tar.gz; RPMs in build/pkg/rpm/RPMS/{x86_64,noarch}
#
# On a host without Fedora's rpm macros (Debian's rpm), rpmbuild runs with
# --nodeps (the BuildRequires name Fedora packages) and loads
# packaging/rpm/macros.non-fedora for the macros Fedora would provide.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/pkg
# The package build is its own: no flags or jobserver of a calling make.
unset MAKEFLAGS MFLAGS MAKELEVEL

die() {
	echo "pkg-build.sh: $*" >&2
	exit 1
}

ref=${PKG_REF:-HEAD}

# copy_source DEST: the files of commit $ref, nothing else.
copy_source() {
	local dest=$1
	rm -rf "$dest"
	mkdir -p "$dest"
	git -C "$top" archive --format=tar "$ref" | tar -xf - -C "$dest"
}

build_deb() {
	local version src
	mkdir -p "$out"
	rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
	src=$out/uaccessd-src
	copy_source "$src"
	version=$(dpkg-parsechangelog -l "$src/packaging/debian/changelog" -S Version)
	rm -rf "$out/uaccessd-$version"
	mv "$src" "$out/uaccessd-$version"
	src=$out/uaccessd-$version
	mv "$src/packaging/debian" "$src/debian"
	(cd "$src" && dpkg-buildpackage -us -uc -b -J"$(nproc)")
	ls -l "$out"/*.deb
}

build_rpm() {
	local rpmtop=$out/rpm spec version args
	rm -rf "$rpmtop"
	mkdir -p "$rpmtop/SOURCES" "$rpmtop/SPECS"
	copy_source "$rpmtop/src"
	spec=$rpmtop/SPECS/uaccessd.spec
	cp "$rpmtop/src/packaging/rpm/uaccessd.spec" "$spec"
	version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
	[ -n "$version" ] || die "no Version in $spec"
	mv "$rpmtop/src" "$rpmtop/uaccessd-$version"
	# Reproducible tarball: sorted, fixed owner and times.
	tar --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$(git -C "$top" log -1 --format=%ct "$ref")" \
		-C "$rpmtop" -czf "$rpmtop/SOURCES/uaccessd-$version.tar.gz" \
		"uaccessd-$version"
	args=(--define "_topdir $rpmtop")
	if [ -z "$(rpm --eval '%{?systemd_post:fedora}')" ]; then
		args+=(--nodeps --load "$rpmtop/uaccessd-$version/packaging/rpm/macros.non-fedora")
	fi
	rpmbuild -bb "${args[@]}" "$spec"
	rm -rf "${rpmtop:?}/uaccessd-$version"
	ls -l "$rpmtop"/RPMS/*/*.rpm
}

case "${1:-}" in
deb) build_deb ;;
rpm) build_rpm ;;
*) die "usage: pkg-build.sh deb|rpm" ;;
esac
