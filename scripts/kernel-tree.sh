#!/bin/bash
# Maintain the patched kernel source tree under build/linux.
#
# The tree is a git repository whose first commit ("base") is the pristine
# Debian linux-source-6.12 tarball (or KERNEL_SRC).  Each line of
# kernel/patches/series becomes one commit on top of it, built in a private
# index so that the working tree is only touched where the result differs:
# unchanged files keep their mtimes and kbuild rebuilds only what changed.
#
#   kernel-tree.sh sync [--inject]  bring build/linux to series (+ inject) state
#   kernel-tree.sh refs             update the series/test branches only
#   kernel-tree.sh commits          print the series commits, oldest first
#   kernel-tree.sh base             print the base commit
#
# Series format: one patch per line, optionally followed by the overlay files
# (paths relative to kernel/overlay, or include/uapi/... from the repository
# top) that the same logical change adds.  A patch file is a mail in
# `git format-patch` form; its diff may be empty when the change only adds
# overlay files.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${KERNEL_TREE:-$top/build/linux}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
series_dir=$top/kernel/patches
inject_dir=$top/kernel/inject

# Deterministic commits: the same inputs give the same hashes, so callers can
# compare hashes to know whether anything changed.
export GIT_AUTHOR_DATE="2024-11-17 00:00:00 +0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
export GIT_COMMITTER_NAME="uaccess_kaddr build"
export GIT_COMMITTER_EMAIL="build@uaccess-kaddr.invalid"

die() {
	echo "kernel-tree.sh: $*" >&2
	exit 1
}

g() {
	git -C "$tree" -c core.autocrlf=false -c gc.auto=0 "$@"
}

ensure_base() {
	if [ -f "$tree/.git/uaccess-base" ]; then
		return
	fi
	rm -rf "$tree"
	mkdir -p "$tree"
	local src_desc
	if [ -n "${KERNEL_SRC:-}" ]; then
		[ -f "$KERNEL_SRC/Makefile" ] || die "KERNEL_SRC=$KERNEL_SRC is not a kernel tree"
		echo "kernel-tree: importing $KERNEL_SRC"
		(cd "$KERNEL_SRC" && tar --exclude=.git -cf - .) | tar -xf - -C "$tree"
		src_desc="$KERNEL_SRC"
	else
		[ -f "$tarball" ] || die "$tarball missing (run scripts/deps.sh)"
		echo "kernel-tree: extracting $tarball"
		tar -xJf "$tarball" -C "$tree" --strip-components=1
		src_desc="$(basename "$tarball")"
	fi
	local ver
	ver=$(make -s -C "$tree" kernelversion 2>/dev/null)
	case "$ver" in
	6.12.*) ;;
	*) die "expected a 6.12 tree, found '$ver'" ;;
	esac
	echo "kernel-tree: recording base $ver"
	g init -q
	g add -f -A .
	GIT_AUTHOR_NAME="Linux $ver" GIT_AUTHOR_EMAIL="base@uaccess-kaddr.invalid" \
		g commit -q -m "Linux $ver ($src_desc)"
	g rev-parse HEAD >"$tree/.git/uaccess-base"
}

base_commit() {
	cat "$tree/.git/uaccess-base"
}

# overlay_path FILE: where an overlay entry lives in this repository.
overlay_path() {
	if [ -f "$top/kernel/overlay/$1" ]; then
		echo "$top/kernel/overlay/$1"
	elif [ -f "$top/$1" ]; then
		echo "$top/$1"
	else
		die "overlay file $1 not found"
	fi
}

# apply_series DIR PARENT: commit every line of DIR/series on PARENT, in a
# private index; print the last commit.
apply_series() {
	local dir=$1 parent=$2 tmp
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	export GIT_INDEX_FILE=$tmp/index
	g read-tree "$parent"
	local line patch files f blob
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		read -r patch files <<<"$line" || true
		[ -n "$patch" ] || continue
		[ -f "$dir/$patch" ] || die "$dir/$patch: listed in series but missing"
		g mailinfo "$tmp/msg" "$tmp/diff" <"$dir/$patch" >"$tmp/info" ||
			die "$patch: not a format-patch mail"
		if [ -s "$tmp/diff" ]; then
			g apply --cached --whitespace=error-all "$tmp/diff" ||
				die "$patch does not apply"
		fi
		for f in $files; do
			blob=$(g hash-object -w "$(overlay_path "$f")")
			g update-index --add --cacheinfo "100644,$blob,$f"
		done
		local subject author email
		subject=$(sed -n 's/^Subject: //p' "$tmp/info")
		author=$(sed -n 's/^Author: //p' "$tmp/info")
		email=$(sed -n 's/^Email: //p' "$tmp/info")
		[ -n "$subject" ] || die "$patch: no Subject"
		{
			echo "$subject"
			echo
			cat "$tmp/msg"
		} >"$tmp/commitmsg"
		parent=$(GIT_AUTHOR_NAME="${author:-uaccess_kaddr}" \
			GIT_AUTHOR_EMAIL="${email:-dev@uaccess-kaddr.invalid}" \
			g commit-tree "$(g write-tree)" -p "$parent" -F "$tmp/commitmsg")
	done <"$dir/series"
	unset GIT_INDEX_FILE
	echo "$parent"
}

cmd_sync() {
	local inject=0 checkout=1
	[ "${1:-}" = "--inject" ] && inject=1
	[ "${1:-}" = "--no-checkout" ] && checkout=0
	ensure_base
	local head
	head=$(apply_series "$series_dir" "$(base_commit)")
	g update-ref refs/heads/series "$head"
	if [ "$inject" = 1 ] && [ -f "$inject_dir/series" ]; then
		head=$(apply_series "$inject_dir" "$head")
		g update-ref refs/heads/test "$head"
	fi
	[ "$checkout" = 1 ] || return 0
	if [ "$(g rev-parse -q --verify HEAD)" != "$head" ]; then
		g -c advice.detachedHead=false checkout -q -f --detach "$head"
	fi
	echo "kernel-tree: build/linux at $(g log -1 --format='%h %s' "$head")"
}

cmd_commits() {
	ensure_base
	g rev-list --reverse "$(base_commit)..refs/heads/series"
}

case "${1:-}" in
sync) shift; cmd_sync "$@" ;;
refs) cmd_sync --no-checkout ;;
commits) cmd_commits ;;
base) ensure_base; base_commit ;;
*) die "usage: kernel-tree.sh sync [--inject] | refs | commits | base" ;;
esac
