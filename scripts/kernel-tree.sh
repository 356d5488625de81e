#!/bin/bash
# Maintain the patched kernel source tree of one kernel line (see
# scripts/kernel-line.sh): build/linux-7.3 (mainline) or build/linux-6.12
# (the LTS backport).
#
# The tree is a git repository whose first commit ("base") is the pristine
# Debian linux-source-X tarball (or KERNEL_SRC).  Each line of the line's
# series becomes one commit on top of it, built in a private index so that
# the working tree is only touched where the result differs: unchanged files
# keep their mtimes and kbuild rebuilds only what changed.
#
#   kernel-tree.sh [--line L] sync [--inject]  bring the tree to series (+ inject) state
#   kernel-tree.sh [--line L] refs             update the series/test branches only
#   kernel-tree.sh [--line L] commits          print the series commits, oldest first
#   kernel-tree.sh [--line L] base             print the base commit
#   kernel-tree.sh [--line L] tree             print the tree's path
#
# L is 7.3 (the default, or $KERNEL_LINE) or 6.12.
#
# Series format: one patch per line, optionally followed by the overlay files
# (paths relative to kernel/overlay, or include/uapi/... from the repository
# top) that the same logical change adds.  A patch file is a mail in
# `git format-patch` form; its diff may be empty when the change only adds
# overlay files.  The overlay files are laid first, then the diff applied:
# a backport's version of a patch may adapt the shared overlay files too.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
line=${KERNEL_LINE:-$KERNEL_MAINLINE}
if [ "${1:-}" = --line ]; then
	line=${2:?--line needs one of: $KERNEL_LINES}
	shift 2
fi
kernel_line_set "$line" || exit 2
tree=$line_tree
tarball=$line_tarball

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
	"$line".*) ;;
	*) die "expected a $line tree, found '$ver'" ;;
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

# patch_path NAME DIRS...: the first DIRS/NAME that exists.
patch_path() {
	local name=$1 d
	shift
	for d in "$@"; do
		if [ -f "$d/$name" ]; then
			echo "$d/$name"
			return
		fi
	done
	die "$name: listed in a series but in none of: $*"
}

# apply_series SERIES PARENT DIRS...: commit every line of SERIES on PARENT,
# each patch taken from the first of DIRS that has it, in a private index;
# print the last commit.
apply_series() {
	local series=$1 parent=$2 tmp
	shift 2
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	export GIT_INDEX_FILE=$tmp/index
	g read-tree "$parent"
	local entry patch files f blob path
	while IFS= read -r entry || [ -n "$entry" ]; do
		entry=${entry%%#*}
		read -r patch files <<<"$entry" || true
		[ -n "$patch" ] || continue
		path=$(patch_path "$patch" "$@")
		g mailinfo "$tmp/msg" "$tmp/diff" <"$path" >"$tmp/info" ||
			die "$patch: not a format-patch mail"
		for f in $files; do
			blob=$(g hash-object -w "$(overlay_path "$f")")
			g update-index --add --cacheinfo "100644,$blob,$f"
		done
		if [ -s "$tmp/diff" ]; then
			g apply --cached --whitespace=error-all "$tmp/diff" ||
				die "${path#"$top"/} does not apply to Linux $line"
		fi
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
	done <"$series"
	unset GIT_INDEX_FILE
	echo "$parent"
}

cmd_sync() {
	local inject=0 checkout=1
	[ "${1:-}" = "--inject" ] && inject=1
	[ "${1:-}" = "--no-checkout" ] && checkout=0
	ensure_base
	local head
	# shellcheck disable=SC2086
	head=$(apply_series "$line_series" "$(base_commit)" $line_series_dirs)
	g update-ref refs/heads/series "$head"
	if [ "$inject" = 1 ] && [ -f "$line_inject_series" ]; then
		# shellcheck disable=SC2086
		head=$(apply_series "$line_inject_series" "$head" $line_inject_dirs)
		g update-ref refs/heads/test "$head"
	fi
	[ "$checkout" = 1 ] || return 0
	if [ "$(g rev-parse -q --verify HEAD)" != "$head" ]; then
		g -c advice.detachedHead=false checkout -q -f --detach "$head"
	fi
	echo "kernel-tree: ${tree#"$top"/} at $(g log -1 --format='%h %s' "$head")"
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
tree) echo "$tree" ;;
*) die "usage: kernel-tree.sh [--line 7.3|6.12] sync [--inject] | refs | commits | base | tree" ;;
esac
