#!/bin/bash
# metrics.t: uaccessd's metrics file (docs/uaccessd.md, "Metrics file")
# as its readers take it.
#
# uaccessd replays a generated file (tests/tools/uk-genreplay) with
# metrics_file set: the file is there, mode 0644 under UMask=0077, alone in
# its directory, `promtool check metrics` (Debian's prometheus package)
# reports nothing for it nor for the unit tests' golden texts, its numbers
# are those of the replay and of the control socket, and node_exporter's
# textfile collector takes it without a scrape error.  A running daemon
# answers the metrics command with the file's text; a reload moves the
# file and the number of functions; a directory that is not there is a
# counted failure, not an exit.  promtool and prometheus-node-exporter
# are optional: without them their checks are skipped.  Runs in a private
# mount namespace with a tmpfs on /run (no journald reachable).  Prints
# TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
bin=${UK_BIN:-$top/build/daemon}

if [ -z "${UK_METRICS_NS:-}" ]; then
	exec unshare --mount --propagation private \
		env UK_METRICS_NS=1 UK_BIN="$bin" "$0" "$@"
fi
export LC_ALL=C


for f in uaccessd tools/uk-genreplay; do
	if [ ! -x "$bin/$f" ]; then
		echo "Bail out! $bin/$f missing (make -C daemon all tools)"
		exit 1
	fi
done
mount -t tmpfs tmpfs /run || { echo "Bail out! cannot mount /run"; exit 1; }
tmp=$(mktemp -d /tmp/uk-metrics.XXXXXX)
daemon_pid=
exporter_pid=
cleanup() {
	[ -n "$daemon_pid" ] && kill -9 "$daemon_pid" 2>/dev/null
	[ -n "$exporter_pid" ] && kill -9 "$exporter_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
promtool=$(command -v promtool)
exporter=$(command -v prometheus-node-exporter)
ukctl() { python3 "$top/tests/lib/ukctl.py" "$@"; }
# value FILE SAMPLE: the value of the sample line "SAMPLE VALUE"
value() { sed -n "s/^$(printf '%s' "$2" | sed 's/[][\.*^$/]/\\&/g') //p" "$1"; }
# lint FILE DESCRIPTION: promtool says nothing and exits 0
lint() {
	local out rc
	if [ -z "$promtool" ]; then
		skip "$2" "no promtool (apt-get install prometheus)"
		return
	fi
	out=$("$promtool" check metrics <"$1" 2>&1)
	rc=$?
	check $([ "$rc" = 0 ] && [ -z "$out" ]; echo $?) "$2" \
		"rc $rc: $(printf '%s' "$out" | head -c 300)"
}

lint "$top/tests/unit/golden/metrics-kernel.prom" \
	"promtool: the kernel's families of the unit test (golden) lint clean"
lint "$top/tests/unit/golden/metrics-daemon.prom" \
	"promtool: the daemon's families of the unit test (golden) lint clean"

# 1. A replay: 400 events at 20 sites, gaps, a cut message; top 5.
EVENTS=400 SITES=20
"$bin/tools/uk-genreplay" -n $EVENTS -s $SITES -g 90 -m 200 "$tmp/a.rep" \
	>"$tmp/gen.out"
mkdir -m 755 "$tmp/textfile"
prom=$tmp/textfile/uaccessd.prom
cat >"$tmp/a.conf" <<EOF
site_interval = 1h
site_burst = 3
metrics_file = $prom
metrics_top_sites = 5
EOF
(umask 077; "$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/ctl-a" \
	--replay "$tmp/a.rep" --exit-after-replay >"$tmp/a.out" 2>"$tmp/a.err")
rc=$?
check $rc "uaccessd --replay --exit-after-replay with metrics_file exits 0" \
	"rc $rc: $(tail -n 3 "$tmp/a.err")"
check $([ -f "$prom" ]; echo $?) "the metrics file is written"
is "644" "$(stat -c %a "$prom" 2>/dev/null)" \
	"it is mode 0644 under umask 077 (node_exporter reads it)"
is "uaccessd.prom" "$(ls -A "$tmp/textfile" | tr '\n' ' ' | sed 's/ $//')" \
	"no temporary file is left beside it"
lint "$prom" "promtool: the file of a replay lints clean"
parsed=$((EVENTS - $(grep -o 'malformed [0-9]*' "$tmp/gen.out" | cut -d' ' -f2)))
is "$parsed" "$(value "$prom" uaccessd_events_total)" \
	"uaccessd_events_total is the events replayed that parse"
is 1 "$(value "$prom" 'uaccessd_state{state="replayed"}')" \
	"uaccessd_state: replayed"
is 0 "$(value "$prom" uaccess_kaddr_kernel_status_up)" \
	"no kernel: uaccess_kaddr_kernel_status_up 0"
check $(! grep -q '^uaccess_kaddr_mode' "$prom"; echo $?) \
	"no kernel: no other kernel family"
is 5 "$(grep -c '^uaccessd_site_hits_total{' "$prom")" \
	"uaccessd_site_hits_total: the 5 functions of metrics_top_sites"
is "$(grep -o 'gaps [0-9]*' "$tmp/gen.out" | cut -d' ' -f2)" \
	"$(value "$prom" 'uaccessd_lost_events_total{cause="sequence-gap"}')" \
	"uaccessd_lost_events_total: the sequence gaps generated"
is 7 "$(grep -c '^uaccessd_lost_events_total{' "$prom")" \
	"uaccessd_lost_events_total: every cause"
dups=$(grep -v '^#' "$prom" | sed 's/ [^ ]*$//' | sort | uniq -d)
is "" "$dups" "no series twice"

# 2. A running daemon: the metrics command, the file, reloads.
cat >"$tmp/b.conf" <<EOF
metrics_file = $prom
metrics_interval = 1s
EOF
rm -f "$prom"
"$bin/uaccessd" -c "$tmp/b.conf" -s "$tmp/ctl-b" --replay "$tmp/a.rep" \
	2>"$tmp/b.err" &
daemon_pid=$!
for _ in $(seq 100); do
	[ -S "$tmp/ctl-b" ] && [ -f "$prom" ] && break
	sleep 0.05
done
check $([ -f "$prom" ]; echo $?) "a running uaccessd writes the file at start" \
	"$(tail -n 3 "$tmp/b.err")"
ukctl "$tmp/ctl-b" '{"cmd":"metrics"}' >"$tmp/m.json" 2>&1
python3 - "$tmp/m.json" "$prom" "$tmp/ctl-b" "$top" >"$tmp/py.out" 2>&1 <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[4] + '/tests/lib')
import ukctl
reply = json.load(open(sys.argv[1]))
text = reply['text']
lines = {l.rsplit(' ', 1)[0]: int(float(l.rsplit(' ', 1)[1]))
         for l in text.splitlines() if not l.startswith('#')}
sites = ukctl.call(sys.argv[3], {'cmd': 'sites'})['sites']
total = sum(s['count'] for s in sites)
top = sum(v for k, v in lines.items()
          if k.startswith('uaccessd_site_hits_total{'))
assert reply['ok'], reply
assert text.endswith('\n')
assert top + lines['uaccessd_site_hits_other_total'] == total, \
    (top, lines['uaccessd_site_hits_other_total'], total)
assert len([k for k in lines if k.startswith('uaccessd_site_hits_total{')]) == 10
EOF
check $? "the metrics command: the top 10 and the rest add up to every hit of the sites reply" \
	"$(tail -n 3 "$tmp/py.out")"
# Once the replay's counters settle, the file is the command's text.
same=1
for _ in $(seq 10); do
	ukctl "$tmp/ctl-b" '{"cmd":"metrics"}' |
		python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["text"])' >"$tmp/m.txt"
	sleep 1.2
	cmp -s "$tmp/m.txt" "$prom" && { same=0; break; }
done
check $same "the file holds the metrics command's text" \
	"$(diff "$tmp/m.txt" "$prom" | head -n 5 | tr '\n' ' ')"

# uaccessctl prints the same text, for a cron job without the file.
same=1
for _ in $(seq 10); do
	"$bin/uaccessctl" --socket "$tmp/ctl-b" status --format=openmetrics \
		>"$tmp/ctl.txt" 2>"$tmp/ctl.err"
	rc=$?
	[ $rc = 0 ] && cmp -s "$tmp/ctl.txt" "$prom" && { same=0; break; }
	sleep 1.2
done
check $same "uaccessctl status --format=openmetrics prints the file's text, exit 0" \
	"rc $rc: $(head -c 300 "$tmp/ctl.err") $(diff "$tmp/ctl.txt" "$prom" | head -n 5 | tr '\n' ' ')"
lint "$tmp/ctl.txt" "promtool check metrics: uaccessctl's text"
"$bin/uaccessctl" --socket "$tmp/nowhere" status --format=openmetrics \
	>"$tmp/ctl.txt" 2>"$tmp/ctl.err"
rc=$?
# This host's kernel has no uaccess_kaddr family: exit 3, "up 0" alone.
check $([ $rc = 3 ] && [ "$(grep -v '^#' "$tmp/ctl.txt")" = "uaccess_kaddr_kernel_status_up 0" ]; echo $?) \
	"without uaccessd and the kernel's family: status_up 0 alone, exit 3" \
	"rc $rc: $(cat "$tmp/ctl.txt" "$tmp/ctl.err" | head -n 5 | tr '\n' ' ')"

# A reload: another file, 2 functions; the old file stays as it was.
prom2=$tmp/textfile/other.prom
cp "$prom" "$tmp/before.prom"
sed -i "s|^metrics_file = .*|metrics_file = $prom2|" "$tmp/b.conf"
echo "metrics_top_sites = 2" >>"$tmp/b.conf"
kill -HUP "$daemon_pid"
for _ in $(seq 60); do
	[ -f "$prom2" ] && break
	sleep 0.05
done
is 2 "$(value "$prom2" uaccessd_metrics_top_sites)" \
	"after a reload: the new file, with uaccessd_metrics_top_sites 2"
is 1 "$(value "$prom2" uaccessd_reloads_total)" "uaccessd_reloads_total 1"
is 2 "$(grep -c '^uaccessd_site_hits_total{' "$prom2")" "2 functions named"
lint "$prom2" "promtool: the file after a reload lints clean"
check $(cmp -s "$tmp/before.prom" "$prom"; echo $?) \
	"the file named before stays as it was"

# A directory that is not there: counted, logged, uaccessd goes on.
sed -i "s|^metrics_file = .*|metrics_file = $tmp/nothere/u.prom|" "$tmp/b.conf"
kill -HUP "$daemon_pid"
fails=0
for _ in $(seq 100); do
	fails=$(ukctl "$tmp/ctl-b" '{"cmd":"status"}' 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["daemon"]["metrics_write_failures"])' 2>/dev/null)
	[ "${fails:-0}" -ge 2 ] 2>/dev/null && break
	sleep 0.05
done
check $([ "${fails:-0}" -ge 2 ] 2>/dev/null; echo $?) \
	"a file in a missing directory: failures counted, the daemon runs" \
	"metrics_write_failures '$fails'"
mkdir "$tmp/nothere"
for _ in $(seq 60); do
	[ -f "$tmp/nothere/u.prom" ] && break
	sleep 0.05
done
check $([ -f "$tmp/nothere/u.prom" ]; echo $?) \
	"once the directory is there, the next periodic write makes it"
check $([ "$(value "$tmp/nothere/u.prom" uaccessd_metrics_write_failures_total)" -ge 2 ] 2>/dev/null; echo $?) \
	"and counts the failures before it"
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
daemon_pid=
is 0 "$rc" "SIGTERM: uaccessd exits 0"

# 3. node_exporter's textfile collector takes the file.
if [ -z "$exporter" ]; then
	skip "node_exporter reads the file without a scrape error" \
		"no prometheus-node-exporter"
else
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	rm -f "$prom2" "$tmp/textfile/".*.tmp.* 2>/dev/null
	"$exporter" --web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tmp/textfile" \
		>"$tmp/exporter.log" 2>&1 &
	exporter_pid=$!
	scrape=
	for _ in $(seq 100); do
		scrape=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=2).read().decode())" 2>/dev/null) && break
		sleep 0.1
	done
	printf '%s\n' "$scrape" >"$tmp/scrape.txt"
	is 0 "$(value "$tmp/scrape.txt" node_textfile_scrape_error)" \
		"node_exporter: node_textfile_scrape_error 0"
	is "$parsed" "$(value "$tmp/scrape.txt" uaccessd_events_total)" \
		"node_exporter: serves uaccessd_events_total"
	kill -TERM "$exporter_pid"
	wait "$exporter_pid" 2>/dev/null
	exporter_pid=
fi

[ "$failed" = 0 ]
