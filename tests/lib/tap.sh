# tap.sh: the TAP lines of the host test scripts (tests/host/*.t), sourced
# by each of them (tests/lib/journald.sh sources it too).  $failed counts
# the failures, for the script's exit status: [ "$failed" = 0 ].

failed=0

# check STATUS DESCRIPTION [WHY]: "ok" when STATUS is 0
check() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2${3:+ # $3}"
	fi
}

# is WANT GOT DESCRIPTION
is() {
	[ "$1" = "$2" ]
	check $? "$3" "want '$1', got '$2'"
}

# skip DESCRIPTION WHY
skip() {
	echo "ok - $1 # SKIP $2"
}
