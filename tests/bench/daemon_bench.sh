#!/bin/bash
# daemon_bench.sh [EVENTS]: uaccessd's replay throughput, CPU per 1,000
# events and peak RSS, with a real systemd-journald taking the (ratelimited)
# entries.  Prints a Markdown table and the ratios to the goals of the
# daemon issue: >= 200,000 events/s on one core, < 8 MiB RSS with 10,000
# sites.  Not a pass/fail test: the figures depend on the machine.
#
# Runs in a private mount namespace (tmpfs /run and /var/log) like
# tests/host/journald.t.  EVENTS defaults to 1,000,000 per row.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}
events=${1:-1000000}

if [ -z "${UK_BENCH_NS:-}" ]; then
	make -s -C "$top/daemon" all tools >/dev/null || exit 1
	exec unshare --mount --propagation private \
		env UK_BENCH_NS=1 UK_BIN="$bin" "$0" "$@"
fi

tmp=$(mktemp -d /tmp/uk-bench.XXXXXX)
mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /var/log || exit 1
mkdir -p /run/systemd/journal /run/log/journal
/lib/systemd/systemd-journald >"$tmp/journald.log" 2>&1 &
jpid=$!
trap 'kill $jpid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
	[ -S /run/systemd/journal/socket ] && break
	sleep 0.05
done

cat >"$tmp/bench.conf" <<EOF
max_sites = 10000
EOF

echo "| sites | events | wall s | events/s | CPU us / 1,000 events | peak RSS KiB | journaled | ratio to 200k/s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for sites in 1 100 10000; do
	"$bin/tools/uk-genreplay" -n "$events" -s "$sites" "$tmp/r.rep" >/dev/null
	# read the file once so the first row does not pay for the page cache
	cat "$tmp/r.rep" >/dev/null
	# Through a pipe, as from a socket: the RSS is the daemon's own, not
	# that of a mapped replay file.
	cat "$tmp/r.rep" | /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		"$bin/uaccessd" -c "$tmp/bench.conf" -s "$tmp/ctl" \
		--replay - --exit-after-replay >"$tmp/out" 2>"$tmp/err" || {
		echo "uaccessd failed: $(cat "$tmp/err")" >&2
		exit 1
	}
	read -r wall user sys rss <"$tmp/time"
	journaled=$(sed -n 's/.*journaled \([0-9]*\).*/\1/p' "$tmp/out")
	python3 - "$sites" "$events" "$wall" "$user" "$sys" "$rss" "$journaled" <<'PY'
import sys
sites, events, wall, user, sys_, rss, journaled = sys.argv[1:]
events, wall, cpu = int(events), float(wall), float(user) + float(sys_)
rate = events / wall if wall > 0 else float('inf')
print(f'| {sites} | {events:,} | {wall:.2f} | {rate:,.0f} | {cpu * 1e6 / events * 1000:.1f} '
      f'| {rss} | {journaled} | {rate / 200000:.1f}x |')
PY
	rm -f "$tmp/r.rep"
done
echo
echo "Command: tests/bench/daemon_bench.sh $events (cat FILE | uaccessd --replay - --exit-after-replay,"
echo "timed with /usr/bin/time; synthetic events from tests/tools/uk-genreplay)."
echo "RSS goal: under 8 MiB = 8192 KiB with 10,000 sites."
