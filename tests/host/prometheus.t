#!/bin/bash
# prometheus.t: uaccessd's metrics file, through node_exporter's textfile
# collector, in Prometheus (docs/fleet.md, "Metrics: node_exporter and
# Prometheus").
#
# Three "machines" on 127.0.0.1: each a uaccessd (its own configuration,
# control socket and metrics_file in a directory of its own,
# metrics_interval = 1s, replaying a stream of its own through a FIFO, so
# that the test says when the events come) and a prometheus-node-exporter
# whose textfile collector reads that directory; one Prometheus scrapes
# the three every second as instance node-a, node-b and node-c.  Every
# port is picked free at run time; all of them listen on 127.0.0.1 only.
# Asked through Prometheus' HTTP API (tests/host/prometheus_query.py):
#
#   (a) the three targets are up;
#   (b) the fleet's sum of uaccessd_events_total is the events fed;
#   (c) node-b's stream skips sequence numbers: uaccessd_lost_events_total
#       {cause="sequence-gap"} is their number on node-b, 0 elsewhere;
#   (d) node-c's uaccessd restarted with fewer events: increase() over a
#       window across the restart is exactly the new count, resets() 1;
#   (e) the top-site series carry a function label, no address anywhere;
#   (f) node_textfile_scrape_error is 0 on the three.
#
# In a private mount namespace with a journald of its own
# (tests/lib/journald.sh), so uaccessd's journal writes succeed and the
# host's journal is untouched.  Every wait polls against a deadline of
# UK_PROM_DEADLINE seconds (default 60) and says what it saw last when
# it runs out; a trap stops every process started and removes the
# temporary directory (UK_KEEP_TMP=1 keeps it).  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}
here=$top/tests/host

. "$top/tests/lib/journald.sh"
uk_private_ns UK_PROMETHEUS_NS "$@"

need() {	# need STATUS DESCRIPTION [WHY]: check, and stop here if not ok
	check "$@"
	[ "$1" = 0 ] || { echo "Bail out! $2"; exit 1; }
}

node_exporter=prometheus-node-exporter
for p in prometheus promtool "$node_exporter"; do
	command -v "$p" >/dev/null ||
		{ echo "Bail out! no $p (apt-get install prometheus prometheus-node-exporter)"; exit 1; }
done
[ -x "$bin/uaccessd" ] && [ -x "$bin/tools/uk-genreplay" ] ||
	{ echo "Bail out! no $bin/uaccessd or uk-genreplay (make -C daemon all tools)"; exit 1; }

deadline=${UK_PROM_DEADLINE:-60}
tmp=$(mktemp -d /tmp/uk-prometheus.XXXXXX)
uk_journald_setup
pids=()		# every process started here, stopped by cleanup

# alive PID: running (not a zombie waiting to be reaped)
alive() {
	local s
	s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s:0:1}" != Z ]
}
# stop PID: SIGTERM, SIGKILL after 10 s; returns its exit status
stop() {
	alive "$1" && kill -TERM "$1" 2>/dev/null
	for _ in $(seq 100); do
		alive "$1" || break
		sleep 0.1
	done
	alive "$1" && kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
cleanup() {
	local p
	for p in "${pids[@]}"; do
		stop "$p"
	done
	[ -n "$journald_pid" ] && stop_journald
	[ -n "${UK_KEEP_TMP:-}" ] && echo "# kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# poll CMD...: CMD every 0.2 s until it succeeds, at most $deadline s
poll() {
	local end=$((SECONDS + deadline))
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.2
	done
}
q() {		# q [OPTIONS] EXPR: query Prometheus, the result as text
	python3 "$here/prometheus_query.py" "${@:1:$#-1}" "$prom_url" "${!#}"
}
# wait_q WANT EXPR: until the query's text is WANT; prints the last text
wait_q() {
	python3 "$here/prometheus_query.py" --wait "$deadline" --want "$1" \
		"$prom_url" "$2"
}
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# listening PORT PID: PID has a listening TCP socket on PORT
listening() {
	ss -Hltnp "sport = :$1" | grep -q "pid=$2,"
}
# serving PORT PID PATH: ... and answers http://127.0.0.1:PORT/PATH
serving() {
	listening "$1" "$2" &&
		python3 "$here/prometheus_query.py" --fetch \
			"http://127.0.0.1:$1/$3" >/dev/null 2>&1
}
# serve NAME PATH ARGS...: start ARGS, each @PORT@ in them a free port,
# until it serves PATH there; if it exits first (someone took the port
# meanwhile), another port, up to three times.  Sets $port and $pid; the
# output goes to $tmp/NAME.log.
serve() {
	local name=$1 path=$2 a args
	shift 2
	for _ in 1 2 3; do
		port=$(free_port)
		args=()
		for a in "$@"; do
			args+=("${a//@PORT@/$port}")
		done
		"${args[@]}" >>"$tmp/$name.log" 2>&1 &
		pid=$!
		pids+=("$pid")
		serving_or_dead() { serving "$port" "$pid" "$path" || ! alive "$pid"; }
		poll serving_or_dead
		alive "$pid" && serving "$port" "$pid" "$path" && return 0
		alive "$pid" && break
		stop "$pid"
	done
	stop "$pid"
	return 1
}

start_journald
need $? "systemd-journald starts in a private namespace" \
	"no socket after 5 s: $(tail -n 3 "$tmp/journald.log")"

# The machines: events, sites, every how many sequence numbers one is
# skipped (uk-genreplay -g; 0: none).
machines="node-a node-b node-c"
declare -A events=([node-a]=300 [node-b]=200 [node-c]=120)
declare -A sites=([node-a]=5 [node-b]=4 [node-c]=7)
declare -A gap_every=([node-a]=0 [node-b]=50 [node-c]=0)
declare -A gaps uaccessd_pid ne_port
top_sites=3

# start_uaccessd HOST REPLAY: HOST's uaccessd, replaying REPLAY
start_uaccessd() {
	"$bin/uaccessd" -c "$tmp/$1/uaccessd.conf" -s "$tmp/$1/control" \
		--replay "$2" 2>>"$tmp/$1/uaccessd.err" &
	uaccessd_pid[$1]=$!
	pids+=("$!")
}
for h in $machines; do
	mkdir -p "$tmp/$h/textfile"
	cat >"$tmp/$h/uaccessd.conf" <<EOF
metrics_file = $tmp/$h/textfile/uaccessd.prom
metrics_interval = 1s
metrics_top_sites = $top_sites
summary_interval = 1h
EOF
	out=$("$bin/tools/uk-genreplay" -n "${events[$h]}" -s "${sites[$h]}" \
		-g "${gap_every[$h]}" "$tmp/$h/replay")
	read -r _ e _ g _ m <<<"$out"
	gaps[$h]=$g
	[ "$e $m" = "${events[$h]} 0" ] &&
		[ $((g > 0)) = $((gap_every[$h] > 0)) ]
	check $? "$h: uk-genreplay writes ${events[$h]} events at ${sites[$h]} sites ($out)"
	mkfifo "$tmp/$h/fifo"
	start_uaccessd "$h" "$tmp/$h/fifo"
done
for h in $machines; do
	has_metrics() { [ -s "$tmp/$h/textfile/uaccessd.prom" ]; }
	poll has_metrics
	need $? "$h: uaccessd writes its metrics file at start, before any event" \
		"no $tmp/$h/textfile/uaccessd.prom after $deadline s: $(tail -n 3 "$tmp/$h/uaccessd.err")"
done

for h in $machines; do
	serve "$h-node-exporter" metrics "$node_exporter" \
		--web.listen-address=127.0.0.1:@PORT@ \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tmp/$h/textfile" \
		--web.disable-exporter-metrics
	need $? "$h: prometheus-node-exporter serves on 127.0.0.1:$port" \
		"$(tail -n 3 "$tmp/$h-node-exporter.log")"
	ne_port[$h]=$port
done

# Prometheus: the three node_exporters as instances node-a, node-b,
# node-c (a target's "instance" label, when set, is kept instead of its
# address); scraped and evaluated every second; the alerting rules of
# docs/fleet.md, as the document has them.
mkdir "$tmp/prometheus"
rules=$tmp/prometheus/uaccessd.rules.yml
awk '$0 == "# /etc/prometheus/uaccessd.rules.yml" { on = 1 } on && /^```/ { exit } on' \
	"$top/docs/fleet.md" >"$rules"
promtool check rules "$rules" >"$tmp/promtool-rules.log" 2>&1
need $? "promtool check rules takes the rules of docs/fleet.md ($(grep -c -- '- alert:' "$rules") alerts)" \
	"$(tail -n 3 "$tmp/promtool-rules.log")"
{
	cat <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: ['$rules']
scrape_configs:
  - job_name: uaccessd
    static_configs:
EOF
	for h in $machines; do
		cat <<EOF
      - targets: ['127.0.0.1:${ne_port[$h]}']
        labels: {instance: '$h'}
EOF
	done
} >"$tmp/prometheus/prometheus.yml"
promtool check config "$tmp/prometheus/prometheus.yml" >"$tmp/promtool-config.log" 2>&1
need $? "promtool check config takes the scrape configuration" \
	"$(tail -n 3 "$tmp/promtool-config.log")"
serve prometheus -/ready prometheus \
	--config.file="$tmp/prometheus/prometheus.yml" \
	--storage.tsdb.path="$tmp/prometheus/data" \
	--web.listen-address=127.0.0.1:@PORT@
need $? "prometheus serves on 127.0.0.1:$port" "$(tail -n 3 "$tmp/prometheus.log")"
prom_url=http://127.0.0.1:$port

# Every listening socket of the servers started here is on 127.0.0.1.
ss -Hltnp >"$tmp/ss"
others=$(for p in "${pids[@]}"; do grep "pid=$p," "$tmp/ss"; done |
	awk '$4 !~ /^127\.0\.0\.1:/ { print $4 }' | tr '\n' ' ')
n=$(for p in "${pids[@]}"; do grep "pid=$p," "$tmp/ss"; done | wc -l)
is "4 " "$n $others" "4 listening sockets (3 node_exporters, prometheus), all on 127.0.0.1"

# (a) up.
got=$(wait_q "instance=node-a 1; instance=node-b 1; instance=node-c 1" up)
need $? "(a) up == 1 for node-a, node-b, node-c" "got '$got' after $deadline s"
# Before any event: every machine's uaccessd_events_total is there, 0.
got=$(wait_q "instance=node-a 0; instance=node-b 0; instance=node-c 0" uaccessd_events_total)
check $? "uaccessd_events_total is 0 on the three before any event" "got '$got'"

# The events: each machine's stream through its FIFO.
for h in $machines; do
	timeout "$deadline" sh -c 'cat "$1" >"$2"' sh "$tmp/$h/replay" "$tmp/$h/fifo"
	check $? "$h: its ${events[$h]} events written into uaccessd's FIFO"
done

# (b) the fleet's events.
want=$((events[node-a] + events[node-b] + events[node-c]))
got=$(wait_q "$want" 'sum(uaccessd_events_total)')
check $? "(b) sum(uaccessd_events_total) over the fleet == $want, the events fed" \
	"got '$got' after $deadline s"
echo "# sum(uaccessd_events_total) = $got"
got=$(q uaccessd_events_total | tr '\n' ';' | sed 's/;$//; s/;/; /g')
is "instance=node-a ${events[node-a]}; instance=node-b ${events[node-b]}; instance=node-c ${events[node-c]}" \
	"$got" "(b) ... each instance its own stream's"

# (c) the sequence gaps: node-b's, on node-b only.
got=$(wait_q "cause=sequence-gap,instance=node-a 0; cause=sequence-gap,instance=node-b ${gaps[node-b]}; cause=sequence-gap,instance=node-c 0" \
	'uaccessd_lost_events_total{cause="sequence-gap"}')
check $? "(c) lost_events_total{cause=\"sequence-gap\"}: ${gaps[node-b]} on node-b, 0 on node-a and node-c" \
	"got '$got'"
echo "# uaccessd_lost_events_total{cause=\"sequence-gap\"}: $got"
got=$(q 'sum by (instance) (uaccessd_lost_events_total{cause!="sequence-gap"})' |
	tr '\n' ';' | sed 's/;$//; s/;/; /g')
is "instance=node-a 0; instance=node-b 0; instance=node-c 0" "$got" \
	"(c) ... and no loss of another cause anywhere"
got=$(q 'count by (instance) (uaccessd_lost_events_total)' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
causes=$(grep -c '^	\[UK_LOSS_' "$top/daemon/uaccessd/journal.c")
is "instance=node-a $causes; instance=node-b $causes; instance=node-c $causes" "$got" \
	"(c) every one of the $causes causes is a series on every instance, 0 too"
got=$(q 'increase(uaccessd_lost_events_total[10m]) > 0' | sed 's/ .*//' | tr '\n' ' ')
is "cause=sequence-gap,instance=node-b " "$got" \
	"(c) 'increase(uaccessd_lost_events_total[10m]) > 0' names node-b's sequence-gap alone"

# docs/fleet.md's alerts: the loss on node-b fires, nothing else does
# (the kernel families are not there: a replay has no kernel status).
got=$(wait_q "alertname=UaccessdLosingEvents,alertstate=firing,cause=sequence-gap,instance=node-b,severity=warning 1" \
	'ALERTS')
check $? "docs/fleet.md's UaccessdLosingEvents fires for node-b's sequence-gap, no other alert" \
	"got '$got'"
python3 "$here/prometheus_query.py" --fetch "$prom_url/api/v1/rules" >"$tmp/rules.json"
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["data"]["groups"]
print(" ".join(sorted(r["name"] + ":" + r["health"] for g in d for r in g["rules"])))' "$tmp/rules.json")
want=$(grep -- '- alert:' "$rules" | awk '{ print $3 ":ok" }' | sort | tr '\n' ' ' | sed 's/ $//')
is "$want" "$got" "every rule of docs/fleet.md evaluates without error"

# (e) the top sites: a function label, never an address.
got=$(q 'count by (instance) (uaccessd_site_hits_total)' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
is "instance=node-a $top_sites; instance=node-b $top_sites; instance=node-c $top_sites" "$got" \
	"(e) metrics_top_sites = $top_sites: $top_sites uaccessd_site_hits_total series per instance"
got=$(q 'uaccessd_site_hits_total{instance="node-a"}' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
per=$((events[node-a] / sites[node-a]))
is "function=uk_site_0,instance=node-a $per; function=uk_site_1,instance=node-a $per; function=uk_site_2,instance=node-a $per" \
	"$got" "(e) node-a: its 5 sites tie at $per, the first 3 by name (ties broken by name)"
got=$(q 'sum by (instance) (uaccessd_site_hits_total) + on (instance) uaccessd_site_hits_other_total - on (instance) uaccessd_events_total' |
	tr '\n' ';' | sed 's/;$//; s/;/; /g')
is "instance=node-a 0; instance=node-b 0; instance=node-c 0" "$got" \
	"(e) the top sites plus uaccessd_site_hits_other_total are all the events"
q --json '{job="uaccessd"}' >"$tmp/all.json"
python3 - "$tmp/all.json" <<'EOF'
import json, re, sys
# an address: 0x and hex digits, or 8+ hex digits alone (a kernel text
# or data address printed without 0x)
addr = re.compile(r'0x[0-9a-f]+|^[0-9a-f]{8,}$|\b[0-9a-f]{12,16}\b', re.I)
doc = json.load(open(sys.argv[1]))
names = set()
bad = []
for s in doc['result']:
    m = s['metric']
    names.add(m['__name__'])
    if m['__name__'] == 'uaccessd_site_hits_total' and \
            set(m) != {'__name__', 'instance', 'job', 'function'}:
        bad.append(f'labels {sorted(m)}')
    for k, v in m.items():
        if addr.search(v):
            bad.append(f'{k}="{v}"')
ok = not bad and 'uaccessd_site_hits_total' in names
print(('ok' if ok else 'not ok') + f' - (e) no label value of the {len(doc["result"])} series '
      f'of job uaccessd looks like an address; the top-site series label function alone'
      + ('' if ok else f' # {bad[:5]}'))
EOF
[ "${PIPESTATUS[0]}" = 0 ] || failed=$((failed + 1))

# (f) the textfile collector read every file.
got=$(wait_q "instance=node-a 0; instance=node-b 0; instance=node-c 0" node_textfile_scrape_error)
check $? "(f) node_textfile_scrape_error == 0 on the three" "got '$got'"
# and the files are what promtool accepts
for h in $machines; do
	promtool check metrics <"$tmp/$h/textfile/uaccessd.prom" >"$tmp/$h/promtool.log" 2>&1
	rc=$?
	is "0 0" "$rc $(wc -l <"$tmp/$h/promtool.log")" \
		"$h: promtool check metrics: nothing to say about uaccessd's file"
done

# (d) node-c's uaccessd restarted, the new one replaying fewer events
# (the kernel's numbering goes on after the first stream).
before=$(q 'uaccessd_start_time_seconds{instance="node-c"}')
stop "${uaccessd_pid[node-c]}"
check $? "node-c: uaccessd stops on SIGTERM (exit 0)" "$(tail -n 3 "$tmp/node-c/uaccessd.err")"
after_events=40
"$bin/tools/uk-genreplay" -n "$after_events" -s 3 -S $((events[node-c] + 1)) \
	"$tmp/node-c/replay2" >/dev/null
start_uaccessd node-c "$tmp/node-c/replay2"
got=$(wait_q "instance=node-c $after_events" 'uaccessd_events_total{instance="node-c"}')
check $? "(d) node-c restarted: its uaccessd_events_total is $after_events, the new stream's" \
	"got '$got'"
now=$(q 'uaccessd_start_time_seconds{instance="node-c"}')
python3 -c 'import sys; a, b = (float(x.split()[-1]) for x in sys.argv[1:]); sys.exit(not b > a)' \
	"$before" "$now"
check $? "(d) ... and a later uaccessd_start_time_seconds" "before '$before', now '$now'"
got=$(wait_q "$((events[node-a] + events[node-b] + after_events))" 'sum(uaccessd_events_total)')
check $? "(d) the fleet's sum follows: $((events[node-a] + events[node-b])) + $after_events" \
	"got '$got'"
# Made exact (tests/host/prometheus_query.py, exact_increase()): the
# window reaches from the last sample before the reset to the newest
# one, at their millisecond timestamps, so Prometheus has nothing to
# extrapolate and increase() is the counter's true increase.
python3 "$here/prometheus_query.py" --exact-increase \
	'uaccessd_events_total{instance="node-c"}' "$prom_url" >"$tmp/increase.json"
check $? "(d) the raw samples of node-c's uaccessd_events_total across the restart" \
	"$(cat "$tmp/increase.json")"
echo "# $(cat "$tmp/increase.json")"
field() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, d))' \
		"$tmp/increase.json" "$1" 2>/dev/null
}
is "${events[node-c]}" "$(field "int(before['value'])")" \
	"(d) the window starts at a sample of the old uaccessd, ${events[node-c]}"
is "$after_events" "$(field "increase[0].split()[-1]")" \
	"(d) increase() over the window across the restart == $after_events, exactly"
is "1" "$(field "resets[0].split()[-1]")" "(d) resets() over the window == 1"

# The uaccessds stop cleanly (under ASan: without a leak or an error),
# leaving their file and no temporary one.
for h in $machines; do
	stop "${uaccessd_pid[$h]}"
	check $? "$h: uaccessd exits 0 on SIGTERM" "$(tail -n 5 "$tmp/$h/uaccessd.err")"
	is "uaccessd.prom" "$(ls -A "$tmp/$h/textfile" | tr '\n' ' ' | sed 's/ $//')" \
		"$h: the metrics directory holds uaccessd.prom alone (no temporary file left)"
done

[ "$failed" = 0 ]
