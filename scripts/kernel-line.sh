# shellcheck shell=bash
# kernel-line.sh: sourced by the kernel scripts; sets, for one kernel line,
# where its source, patched tree, series and test-only patches are.
#
#   . scripts/kernel-line.sh
#   kernel_line_set LINE     LINE: 7.3 (mainline) or 6.12 (the LTS backport)
#
# The series is written against mainline: kernel/patches/series and
# kernel/inject/series.  The 6.12 backport has its own series files in
# kernel/backport-6.12/ (and .../inject/); a patch named there is taken from
# that folder when the backport carries its own version of it (the change
# adapted to 6.12, as a stable backport is), else from mainline's.  The
# overlay files (kernel/overlay, include/uapi) are shared by both lines.
#
# A kernel variant name carries its line: debug, kasan, ... are mainline's;
# 6.12-debug, 6.12-kasan, ... the backport's (kernel_line_of VARIANT).

: "${top:?kernel-line.sh needs \$top}"

KERNEL_LINES="7.3 6.12"
KERNEL_MAINLINE=7.3

# kernel_line_of VARIANT: the line of a variant name.
kernel_line_of() {
	case "$1" in
	6.12-*) echo 6.12 ;;
	*) echo "$KERNEL_MAINLINE" ;;
	esac
}

# kernel_config_of VARIANT: the variant name without its line.
kernel_config_of() {
	echo "${1#6.12-}"
}

# kernel_line_set LINE: set line, line_tarball, line_tree, line_series and
# line_inject_series (the line's series files) and line_series_dirs and
# line_inject_dirs (where their patches are looked up, in order).
kernel_line_set() {
	line=$1
	case "$line" in
	7.3)
		line_tarball=${KERNEL_TARBALL:-$top/build/src/linux-source-7.3.tar.xz}
		line_series_dirs="$top/kernel/patches"
		line_inject_dirs="$top/kernel/inject"
		;;
	6.12)
		line_tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
		line_series_dirs="$top/kernel/backport-6.12 $top/kernel/patches"
		line_inject_dirs="$top/kernel/backport-6.12/inject $top/kernel/inject"
		;;
	*)
		echo "kernel-line.sh: unknown kernel line '$line' (one of: $KERNEL_LINES)" >&2
		return 2
		;;
	esac
	line_tree=${KERNEL_TREE:-$top/build/linux-$line}
	# The series file of the line: the first folder's.
	line_series=${line_series_dirs%% *}/series
	line_inject_series=${line_inject_dirs%% *}/series
}
