# apt-private.sh: sourced by scripts that fetch from a Debian suite the
# machine's own apt sources do not list (trixie-backports, sid), through a
# private sources list, lists and cache under DIR: the machine's apt
# configuration stays as it is.
#
#   apt_private_setup DIR 'deb[-src] [signed-by=...] URL SUITE main'
#   apt_private DIR apt-get-arguments...

apt_private_setup() {
	rm -rf "$1"
	mkdir -p "$1/lists/partial" "$1/cache/archives/partial"
	echo "$2" >"$1/sources.list"
}

apt_private() {
	apt_dir_=$1
	shift
	apt-get -o Dir::Etc::SourceList="$apt_dir_/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt_dir_/lists" -o Dir::Cache="$apt_dir_/cache" \
		-o Debug::NoLocking=1 -q "$@"
}
