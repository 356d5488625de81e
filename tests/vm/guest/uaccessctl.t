#!/bin/sh
# uaccessctl against the real kernel family, as root and as nobody: status,
# set, monitor straight from netlink (no daemon), then with journald and
# uaccessd running: reset, sites/top from the daemon and from the kernel,
# list/show from the journal.  JSON output is read back field by field.
. /tests/lib.sh
trig=/sys/kernel/debug/test_uaccess_kaddr/trigger
nobody="uk_daemon_check as-nobody"

if [ "$mode" != report ]; then
	echo "# mode $mode: the uaccessctl suite runs in report mode only"
	exit 0
fi
command -v uaccessctl >/dev/null
check $? "uaccessctl present in the guest"
[ -w "$trig" ] || { echo "not ok - test module trigger present"; exit 0; }

# run WANT-EXITS DESCRIPTION CMD...: $out, $err and $rc of CMD; WANT-EXITS
# is a list like "0" or "0|6".
run() {
	local want=$1 desc=$2
	shift 2
	"$@" >/tmp/ctl.out 2>/tmp/ctl.err
	rc=$?
	out=$(cat /tmp/ctl.out)
	err=$(cat /tmp/ctl.err)
	case "|$want|" in
	*"|$rc|"*) check 0 "$desc (exit $want)" ;;
	*) check 1 "$desc (exit $want)" "exit $rc: $(head -c 300 /tmp/ctl.err)" ;;
	esac
}
# field PATH WANT DESCRIPTION: the JSON in $out has WANT at PATH
field() {
	local got
	got=$(printf '%s\n' "$out" | uk_daemon_check json "$1" 2>&1)
	check $([ "$got" = "$2" ]; echo $?) "$3" "$1: want '$2', got '$got'"
}
# hasline TEXT DESCRIPTION: $out has a line containing TEXT
hasline() {
	printf '%s\n' "$out" | grep -qF -- "$1"
	check $? "$2" "no '$1' in: $(printf '%s\n' "$out" | head -n 8 | tr '\n' '|')"
}

# ---- no daemon: straight from the kernel ----
run "0|6" "status --kernel --json as root" uaccessctl status --kernel --json
field kernel.available true "status --kernel: the kernel family is there"
field kernel.mode report "status --kernel: mode report"
run 4 "status without uaccessd" uaccessctl status --all
check $(printf '%s\n' "$err" | grep -q "uaccessd is not running"; echo $?) \
	"status without uaccessd: says so" "$err"
hasline "kernel.mode report" "status without uaccessd: the kernel part, key value lines"

run "0|6" "status --kernel --json as nobody" $nobody uaccessctl status --kernel --json
field kernel.mode report "status as nobody: mode report"
check $(printf '%s\n' "$out" | grep -q '0xffff'; [ $? = 1 ]; echo $?) \
	"status as nobody: no kernel address" "$out"
run 5 "sites --kernel as nobody" $nobody uaccessctl sites --kernel
check $(printf '%s\n' "$err" | grep -q "permission denied: needs CAP_SYS_ADMIN"; echo $?) \
	"sites --kernel as nobody: the message" "$err"
run 5 "monitor as nobody" $nobody uaccessctl monitor --timeout 2 -n 1
run 5 "set mode count as nobody" $nobody uaccessctl set mode count
run 5 "reset --kernel as nobody" $nobody uaccessctl reset --kernel
# The kernel asks for CAP_SYS_ADMIN itself: the CAP_NET_ADMIN that
# GENL_ADMIN_PERM checks is not enough to see kernel addresses or to
# switch the detector off.
netadmin="uk_daemon_check as-net-admin"
run 0 "CAP_NET_ADMIN alone is what the test holds" $netadmin \
	grep -q '^CapEff:[[:space:]]*0000000000001000$' /proc/self/status
run 5 "sites --kernel with CAP_NET_ADMIN only" $netadmin uaccessctl sites --kernel
check $(printf '%s\n' "$err" | grep -q "permission denied: needs CAP_SYS_ADMIN"; echo $?) \
	"sites --kernel with CAP_NET_ADMIN only: the message" "$err"
run 5 "set mode off with CAP_NET_ADMIN only" $netadmin uaccessctl set mode off
run 5 "reset --kernel with CAP_NET_ADMIN only" $netadmin uaccessctl reset --kernel

# set: mode, and every hit reported while this suite runs.
run "0|6" "status --kernel --json before set" uaccessctl status --kernel --json
interval=$(printf '%s\n' "$out" | uk_daemon_check json kernel.ratelimit_interval_ms)
burst=$(printf '%s\n' "$out" | uk_daemon_check json kernel.ratelimit_burst)
run 0 "set mode count" uaccessctl set mode count
run "0|6" "status --kernel --json after set mode count" uaccessctl status --kernel --json
field kernel.mode count "set mode count: the kernel says count"
run 0 "set mode report, ratelimit-interval 0" uaccessctl set mode report ratelimit-interval 0
run "0|6" "status --kernel --json after set" uaccessctl status --kernel --json
field kernel.mode report "set mode report: the kernel says report"
field kernel.ratelimit_interval_ms 0 "set ratelimit-interval 0: the kernel says 0"
run 2 "set ratelimit-burst 0 (out of range)" uaccessctl set ratelimit-burst 0
check $([ -n "$err" ]; echo $?) "set ratelimit-burst 0: a message" "$err"

# monitor, straight from the events group.
uaccessctl monitor -n 1 --timeout 20 --json >/tmp/mon.json 2>/tmp/mon.err &
mon=$!
sleep 1
echo "clear_user kernel-kmalloc" >$trig
wait $mon
check $? "monitor --json -n 1: one event arrives" "$(cat /tmp/mon.err)"
out=$(cat /tmp/mon.json)
field helper __clear_user "monitor --json: helper"
field kind precheck "monitor --json: kind"
field direction to-user "monitor --json: direction"
field addr_class kernel-mapped "monitor --json: address class"
field context task "monitor --json: context"
site=$(printf '%s\n' "$out" | uk_daemon_check json site_symbol)
check $(case "$site" in uk_trigger_clear_user+0x*) echo 0 ;; *) echo 1 ;; esac) \
	"monitor --json: the call site" "$site"
uaccessctl monitor -n 1 --timeout 20 >/tmp/mon.txt 2>&1 &
mon=$!
sleep 1
echo "clear_user kernel-unmapped" >$trig
wait $mon
out=$(cat /tmp/mon.txt)
hasline "uk_trigger_clear_user+0x" "monitor: one line naming the call site"

# ---- with journald and uaccessd ----
start_journald
check $? "systemd-journald runs"
printf 'site_burst = 100\nsummary_interval = 2s\n' >/tmp/uaccessctl.conf
start_uaccessd /tmp/uaccessctl.conf
check $? "uaccessd runs and subscribes"
run "0|6" "status as root, with uaccessd" uaccessctl status --json
field daemon.running true "status: uaccessd is running"
field daemon.state subscribed "status: uaccessd has subscribed"
run 0 "reset through uaccessd" uaccessctl reset
echo "copy_to_user kernel-kmalloc 3" >$trig
run 0 "top --json" uaccessctl top -n 5 --json
field "#sites" 1 "top after reset and 3 hits: one site"
field sites.0.helper __copy_to_user "top: the helper"
field sites.0.count 3 "top: the count"
run 0 "sites --kernel --json as root" uaccessctl sites --kernel --json
field sites.0.count 3 "sites --kernel: the kernel's count"
run 0 "sites as nobody, through uaccessd" $nobody uaccessctl sites --json
field sites.0.count 3 "sites as nobody: the count"
check $(printf '%s\n' "$out" | grep -q '0xffff'; [ $? = 1 ]; echo $?) \
	"sites as nobody: no kernel address" "$(printf '%s\n' "$out" | head -c 300)"
# The samples' task (pid, uid, comm) for root and the journal's readers only.
sock=/run/uaccessd/control
run 0 "the sites reply to root" uk_daemon_check call $sock '{"cmd":"sites"}'
got=$(printf '%s\n' "$out" | uk_daemon_check json sites.0.samples.0.comm 2>&1)
check $([ -n "$got" ] && [ "$got" != "(missing)" ]; echo $?) \
	"sites to root: the sample names its task (comm)" "comm: $got"
run 0 "the sites reply to nobody" $nobody uk_daemon_check call $sock '{"cmd":"sites"}'
field sites.0.samples.0.comm "(missing)" "sites to nobody: no task in the sample"
field sites.0.samples.0.pid "(missing)" "sites to nobody: no pid in the sample"
field sites.0.samples.0.context task "sites to nobody: what the sample says of the bug stays"
run 0 "top as root (text)" uaccessctl top
hasline "uk_trigger_copy_to_user+0x" "top: the call site in the table"
run 5 "reset as nobody" $nobody uaccessctl reset
run 5 "reload as nobody" $nobody uaccessctl reload
run 0 "reload as root" uaccessctl reload

# history, from the journal
n=0
for _ in $(seq 50); do
	n=$(uaccessctl list --json 2>/dev/null | uk_daemon_check json '#' 2>/dev/null)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.1
done
check $([ "${n:-0}" -ge 3 ]; echo $?) "list --json: the 3 events are in the journal" "got ${n:-none}"
run 0 "list uk_trigger_copy_to_user" uaccessctl list --no-pager uk_trigger_copy_to_user
hasline "__copy_to_user" "list by function: the helper"
run 0 "list --json uk_trigger_copy_to_user" uaccessctl list --json uk_trigger_copy_to_user
seq=$(printf '%s\n' "$out" | uk_daemon_check json 0.seq)
field 0.site_function uk_trigger_copy_to_user "list --json: site_function"
field 0.addr_class kernel-mapped "list --json: addr_class"
run 0 "show seq=$seq" uaccessctl show --no-pager seq=$seq
hasline "uk_trigger_copy_to_user+0x" "show: the call site"
run 1 "list with no match" uaccessctl list 999999
check $(printf '%s\n' "$err" | grep -q "No entries found."; echo $?) \
	"list with no match: says so" "$err"

kill -TERM $daemon_pid
wait $daemon_pid
check $? "uaccessd exits 0 on SIGTERM"
run 0 "restore the kernel ratelimit" uaccessctl set ratelimit-interval "${interval:-5000}" ratelimit-burst "${burst:-1}"
