#!/bin/bash
# pkg-build.sh deb|rpm: build the Debian or the RPM packages from a clean
# copy of the sources: the files git tracks, as they are in the work tree
# (edits not yet committed are in, untracked files and build/ are not).
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

# copy_source DEST: the tracked files of the work tree, nothing else.
copy_source() {
	local dest=$1
	rm -rf "$dest"
	mkdir -p "$dest"
	# A tracked file deleted in the work tree is left out, not an error.
	(cd "$top" && git ls-files -z | while IFS= read -r -d '' f; do
		if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
	done | tar --null --no-recursion -T - -cf -) | tar -xf - -C "$dest"
}

build_deb() {
	local version src
	version=$(dpkg-parsechangelog -l "$top/packaging/debian/changelog" -S Version)
	mkdir -p "$out"
	rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
	src=$out/uaccessd-$version
	copy_source "$src"
	mv "$src/packaging/debian" "$src/debian"
	(cd "$src" && dpkg-buildpackage -us -uc -b -J"$(nproc)")
	ls -l "$out"/*.deb
}

build_rpm() {
	local spec=$top/packaging/rpm/uaccessd.spec version rpmtop args
	version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
	[ -n "$version" ] || die "no Version in $spec"
	rpmtop=$out/rpm
	rm -rf "$rpmtop"
	mkdir -p "$rpmtop/SOURCES" "$rpmtop/tmp"
	copy_source "$rpmtop/tmp/uaccessd-$version"
	# Reproducible tarball: sorted, fixed owner and times.
	tar --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$(git -C "$top" log -1 --format=%ct)" \
		-C "$rpmtop/tmp" -czf "$rpmtop/SOURCES/uaccessd-$version.tar.gz" \
		"uaccessd-$version"
	rm -rf "$rpmtop/tmp"
	args=(--define "_topdir $rpmtop")
	if [ -z "$(rpm --eval '%{?systemd_post:fedora}')" ]; then
		args+=(--nodeps --load "$top/packaging/rpm/macros.non-fedora")
	fi
	rpmbuild -bb "${args[@]}" "$spec"
	ls -l "$rpmtop"/RPMS/*/*.rpm
}

case "${1:-}" in
deb) build_deb ;;
rpm) build_rpm ;;
*) die "usage: pkg-build.sh deb|rpm" ;;
esac
