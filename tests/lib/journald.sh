# journald.sh: sourced by the host tests that need a real systemd-journald
# (tests/host/journald.t, cli_journal.t, fleet.t).  The caller sets $top and $tmp
# and re-executes itself in a private mount namespace first:
#
#	uk_private_ns NAME "$@"		(returns only inside the namespace)
#	uk_journald_setup		tmpfs /run and /var/log, $jdir
#
# so that the journald it starts (as root, without systemd as PID 1) is
# its own and the host's journal, if any, is untouched.  It brings
# tests/lib/tap.sh (check, is, skip) along.

. "$top/tests/lib/tap.sh"

# uk_private_ns NAME ARGS...: exec the calling script again under
# unshare --mount unless the environment variable NAME says it is there.
uk_private_ns() {
	local var=$1
	shift
	[ -n "${!var:-}" ] && return 0
	exec unshare --mount --propagation private \
		env "$var=1" UK_BIN="$bin" "$0" "$@"
}

uk_journald_setup() {
	mount -t tmpfs tmpfs /run || { echo "Bail out! cannot mount /run"; exit 1; }
	mount -t tmpfs tmpfs /var/log || { echo "Bail out! cannot mount /var/log"; exit 1; }
	mkdir -p /run/systemd/journal /run/log/journal
	jdir=/run/log/journal
}


journald_pid=
# start_journald [HOSTNAME]: a journald (in its own UTS namespace with that
# host name, if given).  A stopped journald leaves its sockets behind
# (systemd owns them when it is PID 1): they go first, so that the new
# socket means a live journald.
start_journald() {
	rm -f /run/systemd/journal/socket /run/systemd/journal/stdout \
		/run/systemd/journal/dev-log
	if [ -n "${1:-}" ]; then
		unshare --uts sh -c "hostname '$1' && exec /lib/systemd/systemd-journald" \
			>>"$tmp/journald.log" 2>&1 &
	else
		/lib/systemd/systemd-journald >>"$tmp/journald.log" 2>&1 &
	fi
	journald_pid=$!
	for _ in $(seq 100); do
		[ -S /run/systemd/journal/socket ] &&
			kill -0 "$journald_pid" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
stop_journald() {
	kill "$journald_pid" 2>/dev/null
	wait "$journald_pid" 2>/dev/null
	journald_pid=
}
# start_machine MACHINE_ID HOSTNAME: the running journald stopped, one of
# another machine: /etc/machine-id says MACHINE_ID (a bind mount, in this
# mount namespace only) and its UTS namespace HOSTNAME.  Its journal is
# $jdir/MACHINE_ID.  Starting the same machine again appends to it.
start_machine() {
	[ -n "$journald_pid" ] && stop_journald
	echo "$1" >"$tmp/machine-id.$1"
	umount /etc/machine-id 2>/dev/null
	mount --bind "$tmp/machine-id.$1" /etc/machine-id || return 1
	start_journald "$2"
}

# msgid EVENT|SUPPRESSED|LOSS|HEALTH: uaccessd's MESSAGE_ID
msgid() {
	sed -n "s/#define UK_MSGID_$1[[:space:]]*\"\(.*\)\"/\1/p" "$top/daemon/common/msgid.h"
}
jctl() {
	journalctl -D "$jdir" --no-pager "$@"
}
# jcount MATCH...: entries in the test journal
jcount() {
	jctl -o json "$@" 2>/dev/null | grep -c .
}
# settle WANT MATCH...: journald takes datagrams asynchronously; wait up to
# 5 s for WANT entries and print how many there are.
settle() {
	local c
	for _ in $(seq 100); do
		c=$(jcount "${@:2}")
		[ "$c" -ge "$1" ] && break
		sleep 0.05
	done
	echo "$c"
}
