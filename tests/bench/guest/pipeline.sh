#!/bin/sh
# pipeline.sh TRIGGERS SCENARIOS SITES...: the event pipeline, kernel ->
# netlink -> uaccessd -> journald, in the benchmark VM.  For each scenario
# (comma-separated) and each number of sites: TRIGGERS hits of the test
# module, one per write(), cycling over SITES distinct call sites; the
# guest time (instructions, under icount) until uaccessd has received or
# counted lost every event, the CPU time of each part, then every counter,
# so that the report can check that they add up.
#
# Scenarios:
#   flood     the hits as fast as one process makes them; the kernel's
#             ratelimit off (every hit is an event) and uaccessd's off
#             (every event is journaled): every stage loaded
#   paced     TRIGGERS / 2 hits, 100 us of sleep after each: what each
#             event costs when the pipeline keeps up
#   defaults  as fast as possible, with the kernel's (one event per site
#             per 5 s) and uaccessd's (5 per site per 60 s, 100/s overall)
#             defaults: what a fuzzer hitting a bug in a loop does
#
# Lines: "pipeline SCENARIO SITES TRIGGERS ... key value ..." and the TAP
# lines of uk_daemon_check compare ("ok - ..." / "not ok - ...").
. /tests/lib.sh
triggers=$1 scenarios=$(echo "$2" | tr ',' ' ')
shift 2
sock=/run/uaccessd/control
ev_id=d3e08ea094464dd2b8ef6d7fae8ae370

# journald's own rate limit (10,000 messages per 30 s) would drop entries
# uaccessd counts as journaled: off, as a busy system would configure it.
mkdir -p /etc/systemd
printf '[Journal]\nRateLimitBurst=0\nStorage=volatile\nRuntimeMaxUse=512M\n' \
	>/etc/systemd/journald.conf
if ! start_journald; then
	echo "pipeline-error journald does not start: $(tail -n 3 /tmp/journald.log)"
	exit 0
fi

# status FIELD...: the values from uaccessd's status reply, one line
status() {
	uk_daemon_check call $sock '{"cmd":"status"}' | uk_daemon_check json "$@" | tr '\n' ' '
}

# pending: events the kernel queued or dropped since the reset that
# uaccessd has neither received nor counted lost (in transit: kernel queue
# drops, socket overruns, sequence gaps)
pending() {
	status kernel.reported kernel.dropped daemon.events daemon.lost \
		daemon.journal_lost_events | {
		read -r r d e l j
		echo $((r + d - (e + l - j) - base))
	}
}

# ticks PID...: user + system time of the processes, in clock ticks
ticks() {
	local t=0 p
	for p in "$@"; do
		[ -r /proc/$p/stat ] || continue
		set -- $(sed 's/^.*) //' /proc/$p/stat)
		t=$((t + ${12} + ${13}))
	done
	echo $t
}

# kworker_ticks: the same over every kernel worker thread (the drain work)
kworker_ticks() {
	ticks $(grep -l '^kworker' /proc/[0-9]*/comm 2>/dev/null | cut -d/ -f3)
}

entries() {	# event entries in the journal so far
	journalctl --no-pager -q -o export --output-fields=MESSAGE_ID \
		MESSAGE_ID=$ev_id 2>/dev/null | grep -c '^MESSAGE_ID='
}

fields="kernel.hits_precheck kernel.reported kernel.suppressed kernel.dropped
kernel.sites_overflow daemon.events daemon.journaled daemon.suppressed
daemon.suppressed_global daemon.ignored daemon.lost daemon.journal_lost_events
daemon.overruns daemon.resyncs"

# busy: guest time all CPUs spent outside idle, in clock ticks (10 ms)
busy() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# The cost of one event at each stage: TRIGGERS / 4 hits of one site, the
# ratelimit off, sched_yield() after each so that the consumers (one vCPU)
# run in between and the guest clock counts their instructions with no idle
# time; the guest time of the run with the detector off (the writes alone),
# with nobody listening (the hit, the event record, the log line), with a
# listener that only reads (plus the kernel's drain: netlink message,
# multicast) and with uaccessd and journald.  Then what the kernel counted
# and what the consumers got.
stage_n=$((triggers / 4))
# kcount NAME: the kernel's counter NAME
kcount() {
	uk_bench status | sed -n "s/^$1 //p"
}
stage() {
	local name=$1 t0 t1 r0 d0
	r0=$(kcount reported)
	d0=$(kcount dropped)
	t0=$(uk_bench now)
	UK_BENCH_YIELD=1 uk_bench trigger 0 1 $stage_n 1 >/dev/null
	t1=$(uk_bench now)
	sleep 1
	echo "stage $name $stage_n ns $((t1 - t0)) reported $(($(kcount reported) - r0)) dropped $(($(kcount dropped) - d0)) $(eval "$2")"
}
uk_bench ratelimit 0 1
uk_bench mode off
stage off
uk_bench mode report
stage kernel
uk_bench listen 2 >/tmp/listen.txt &
listener=$!
sleep 0.5
stage netlink "wait $listener; sed -n 's/^listened \\([0-9]*\\) .*/listened \\1/p' /tmp/listen.txt"
printf 'rcvbuf = 64M\nsite_interval = 0\nglobal_rate = 1000000\nglobal_burst = 1000000\nsummary_interval = 1d\n' \
	>/tmp/uaccessd.conf
start_uaccessd /tmp/uaccessd.conf
stage uaccessd 'echo "received $(status daemon.events)"'
kill -TERM $daemon_pid
wait $daemon_pid

for scenario in $scenarios; do
	unset UK_BENCH_SLEEP_US
	n=$triggers
	case $scenario in
	flood|paced)
		uk_bench ratelimit 0 1
		printf 'rcvbuf = 64M\nsite_interval = 0\nglobal_rate = 1000000\nglobal_burst = 1000000\nsummary_interval = 1d\n' \
			>/tmp/uaccessd.conf
		if [ $scenario = paced ]; then
			export UK_BENCH_SLEEP_US=100
			n=$((triggers / 2))
		fi
		;;
	defaults)
		uk_bench ratelimit 5000 1
		printf 'rcvbuf = 64M\n' >/tmp/uaccessd.conf
		;;
	esac
	for sites in "$@"; do
		# A fresh uaccessd: its counters start with the kernel's reset.
		start_uaccessd /tmp/uaccessd.conf || {
			echo "pipeline-error uaccessd does not subscribe: $(tail -n 3 /tmp/uaccessd.log)"
			exit 0
		}
		uk_daemon_check call $sock '{"cmd":"reset"}' >/dev/null
		sleep 1
		base=0
		base=$(pending)
		before=$(status $fields)
		jbefore=$(entries)
		jpid=$(pidof systemd-journald)
		cpu0="$(ticks $daemon_pid) $(ticks $jpid) $(kworker_ticks) $(busy)"
		t0=$(uk_bench now)
		trig=$(uk_bench trigger 0 "$sites" "$n" 1)
		t1=$(uk_bench now)
		# Until every event the kernel sent is received or counted lost,
		# and stays so: a sequence gap counts its events lost at once,
		# and takes back those that arrive late (the kernel drains its
		# per-CPU queues in batches), so the first time the sum is
		# complete some of it may still be in transit.  The end is the
		# first of two identical readings 0.5 s apart.
		i=0 prev= t2=
		while [ $i -lt 600 ]; do
			i=$((i + 1))
			if [ "$(pending)" -gt 0 ]; then
				prev=
				sleep 0.02
				continue
			fi
			now=$(uk_bench now)
			cur=$(status daemon.events daemon.lost daemon.late daemon.recovered)
			[ "$cur" = "$prev" ] && break
			prev=$cur t2=$now
			sleep 0.5
		done
		[ -n "$t2" ] || t2=$(uk_bench now)
		cpu1="$(ticks $daemon_pid) $(ticks $jpid) $(kworker_ticks) $(busy)"
		after=$(status $fields)
		# what uaccessd sent is in the journal
		sleep 1
		jafter=$(entries)
		echo "pipeline $scenario $sites $n chunk 1 trigger_ns $((t1 - t0)) ns $((t2 - t0)) before $before after $after journal $jbefore $jafter cpu $cpu0 $cpu1 $trig hz 100"
		uk_daemon_check compare $sock "pipeline $scenario, $sites sites" exact
		kill -TERM $daemon_pid
		wait $daemon_pid
	done
done
uk_bench ratelimit 5000 1
kill $(pidof systemd-journald) 2>/dev/null
