#!/bin/bash
# cli.t: the real uaccessctl against the real uaccessd on the host.
#
# uaccessd replays a generated file (tests/tools/uk-genreplay) and keeps
# serving its control socket; uaccessctl's output is parsed back and
# checked field by field against what was generated.  The host kernel has
# no uaccess_kaddr family, so everything that needs the kernel must say so
# (exit 3).  Also: a daemon that is not there (exit 4), bad command lines
# (exit 2), an unprivileged user (exit 5 where the daemon refuses), uaccessd
# --replay - from a pipe, a terminal, a socket and a file (the caller's end
# left blocking), and the pager on a terminal.  Runs in a private mount
# namespace with a tmpfs on /run, so that the default socket path is ours
# and no journald is reachable.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${UK_BIN:-$top/build/daemon}

if [ -z "${UK_CLI_NS:-}" ]; then
	exec unshare --mount --propagation private \
		env UK_CLI_NS=1 UK_BIN="$bin" "$0" "$@"
fi
export TZ=UTC LC_ALL=C
unset SYSTEMD_PAGER PAGER SYSTEMD_LESS SYSTEMD_PAGERSECURE LESSSECURE COLUMNS

n=0
failed=0
check() {	# check STATUS DESCRIPTION [WHY]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2${3:+ # $3}"
	fi
}
# expect WANT_RC DESCRIPTION CMD...: the exit code, output in $out/$err
expect() {
	local want=$1 desc=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	check $([ "$rc" = "$want" ]; echo $?) "$desc (exit $want)" \
		"exit $rc; stderr: $(head -c 300 "$tmp/err")"
}
# has TEXT DESCRIPTION STRING: TEXT contains STRING (a whole line if -x)
has() {
	check $(printf '%s\n' "$1" | grep -qxF -- "$3"; echo $?) "$2" \
		"no line '$3' in: $(printf '%s' "$1" | head -c 300)"
}

for f in uaccessd uaccessctl tools/uk-genreplay; do
	if [ ! -x "$bin/$f" ]; then
		echo "Bail out! $bin/$f missing (make -C daemon all tools)"
		exit 1
	fi
done
mount -t tmpfs tmpfs /run || { echo "Bail out! cannot mount /run"; exit 1; }
tmp=$(mktemp -d /tmp/uk-cli.XXXXXX)
chmod 755 "$tmp"
mkdir -m 755 "$tmp/pub"
mkdir -m 700 "$tmp/priv"
daemon_pid=
priv_pid=
cleanup() {
	[ -n "$daemon_pid" ] && kill -9 "$daemon_pid" 2>/dev/null
	[ -n "$priv_pid" ] && kill -9 "$priv_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
ctl() { "$bin/uaccessctl" "$@"; }

no_kernel="uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)"
no_daemon="uaccessctl: uaccessd is not running (systemctl start uaccessd)"

# The replay: 300 events at 6 sites (50 each), a sequence gap every 50.
EVENTS=300 SITES=6 GAP=50
"$bin/tools/uk-genreplay" -n $EVENTS -s $SITES -g $GAP "$tmp/a.rep" >"$tmp/gen.out"
gaps=$(sed -n 's/.* gaps \([0-9]*\) .*/\1/p' "$tmp/gen.out")
cat >"$tmp/a.conf" <<EOF
site_interval = 1h
site_burst = 3
summary_interval = 1h
EOF
sock=$tmp/pub/ctl
"$bin/uaccessd" -c "$tmp/a.conf" -s "$sock" --replay "$tmp/a.rep" \
	2>"$tmp/daemon.err" &
daemon_pid=$!
state=
for _ in $(seq 200); do
	state=$(python3 "$top/tests/lib/ukctl.py" "$sock" '{"cmd":"status"}' 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin)["daemon"]; print(d["state"], d["events"])' 2>/dev/null)
	[ "$state" = "replayed $EVENTS" ] && break
	sleep 0.05
done
check $([ "$state" = "replayed $EVENTS" ]; echo $?) \
	"uaccessd replays $EVENTS events and keeps serving" \
	"state: '$state'; $(tail -n 3 "$tmp/daemon.err")"

# ---- status ----
lost=$(python3 "$top/tests/lib/ukctl.py" "$sock" '{"cmd":"status"}' |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["daemon"]["lost"])')
expect 3 "status on a kernel without the family" ctl --socket "$sock" status
check $([ "$err" = "$no_kernel" ]; echo $?) \
	"status: says the kernel lacks the feature once, on stderr (the loss is no message)" "$err"
has "$out" "status: the summary opens" \
	"* uaccess_kaddr: kernel addresses at user-access helpers"
has "$out" "status: the detector unknown" "  Detector: unknown"
has "$out" "status: the loss at a glance" "      Loss: uaccessd lost $lost events"
check $(printf '%s\n' "$out" | grep -qE '^  uaccessd: active \(replayed\) since [A-Z][a-z]{2} [0-9-]{10} [0-9:]{8} UTC; [0-9]+(ms|s) ago$'; echo $?) \
	"status: uaccessd's state since when" "$out"
has "$out" "status: events received and journal entries written" \
	"    Events: $EVENTS received: $(python3 "$top/tests/lib/ukctl.py" "$sock" '{"cmd":"status"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["daemon"]["journaled"])') written to the journal, $(python3 "$top/tests/lib/ukctl.py" "$sock" '{"cmd":"status"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["daemon"]["suppressed"])') held back"
check $(printf '%s\n' "$out" | awk 'length > 80 { bad = 1 } END { exit bad }'; echo $?) \
	"status: every summary line fits 80 columns" "$out"
check $(printf '%s\n' "$out" | grep -q 'CONFIG_DEBUG_UACCESS_KADDR\|^kernel\.'; [ $? = 1 ]; echo $?) \
	"status: no error text and no key list on stdout" "$out"
check $([ "$(printf '%s\n' "$out" | wc -l)" -le 8 ]; echo $?) "status: a few lines" "$out"

expect 3 "status --all on a kernel without the family" ctl --socket "$sock" status --all
check $([ "$err" = "$no_kernel" ]; echo $?) "status --all: the error once, on stderr" "$err"
list=$(printf '%s\n' "$out" | sed '1,/^$/d')
has "$list" "status --all: kernel.available no" "kernel.available no"
check $(printf '%s\n' "$out" | grep -q '^kernel.error'; [ $? = 1 ]; echo $?) \
	"status --all: the kernel's message is not on stdout too"
has "$list" "status --all: the daemon part is printed" "daemon.running yes"
has "$list" "status --all: daemon.state" "daemon.state replayed"
has "$list" "status --all: daemon.events" "daemon.events $EVENTS"
has "$list" "status --all: the sequence gaps are a named loss" \
	"daemon.loss.sequence-gap $gaps"
has "$list" "status --all: the configuration in force" "daemon.config.site_burst 3"
bad=$(printf '%s\n' "$list" | grep -cvE '^[a-z_.-]+ [^ ].*$')
check $([ "$bad" = 0 ]; echo $?) "status --all: after the summary, every line is 'key value'" \
	"$bad other lines"

expect 3 "status --json on a kernel without the family" \
	ctl --socket "$sock" status --json
python3 - "$tmp/out" "$EVENTS" "$gaps" >"$tmp/py.out" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
events, gaps = int(sys.argv[2]), int(sys.argv[3])
k, d = doc["kernel"], doc["daemon"]
assert set(doc) == {"kernel", "daemon", "loss"}, sorted(doc)
assert k == {"available": False, "error": "kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)"}, k
assert d["running"] is True and d["state"] == "replayed", d
assert d["events"] == events, d["events"]
assert d["loss"]["sequence-gap"] == gaps, d["loss"]
assert d["lost"] > 0 and doc["loss"] is True
for key in ("pid", "uptime_ms", "journaled", "suppressed", "overruns",
            "resyncs", "config"):
    assert key in d, key
EOF
check $? "status --json: one document, fields as replayed" "$(tail -n 2 "$tmp/py.out")"

expect 3 "status --kernel: the kernel part only" \
	ctl --socket "$sock" --kernel status --all
check $(printf '%s\n' "$out" | grep -q '^daemon\.\|uaccessd'; [ $? = 1 ]; echo $?) \
	"status --kernel: no daemon lines"

# ---- sites, top ----
expect 0 "sites from uaccessd" ctl --socket "$sock" sites
header=$(printf '%s\n' "$out" | head -n 1)
check $([ "$(echo $header)" = "COUNT KIND HELPER DIR SITE FIRST LAST SUPPRESSED" ]; echo $?) \
	"sites: the header names the columns" "$header"
has "$out" "sites: the footer counts the sites" "$SITES sites listed."
python3 - "$tmp/out" "$SITES" "$EVENTS" >"$tmp/py.out" 2>&1 <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
sites, events = int(sys.argv[2]), int(sys.argv[3])
rows = [l for l in lines[1:] if l and not l.endswith("listed.")]
assert len(rows) == sites, rows
seen = set()
for r in rows:
    f = r.split()
    # COUNT KIND HELPER DIR SITE FIRST(2 words) LAST(2 words) SUPPRESSED
    assert len(f) == 10, f
    assert f[0] == str(events // sites), f
    assert f[1:4] == ["precheck", "__copy_to_user", "to-user"], f
    m = re.fullmatch(r"uk_site_(\d+)\+0x1c/0x80", f[4])
    assert m, f[4]
    seen.add(int(m.group(1)))
    assert f[5:9] == ["2025-11-24", "16:00:00", "2025-11-24", "16:00:00"], f
    # site_burst 3 in 1 h: 3 journal entries, the rest suppressed
    assert f[9] == str(events // sites - 3), f
assert seen == set(range(sites)), seen
EOF
check $? "sites: every row as replayed (count, kind, helper, dir, site, times, suppressed)" \
	"$(tail -n 2 "$tmp/py.out")"

expect 0 "sites --json" ctl --socket "$sock" --json sites
python3 - "$tmp/out" "$SITES" "$EVENTS" >"$tmp/py.out" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
nsites, events = int(sys.argv[2]), int(sys.argv[3])
assert doc["source"] == "uaccessd" and doc["total"] == nsites, doc.keys()
assert len(doc["sites"]) == nsites
base = 1764000000000000000
for s in doc["sites"]:
    k = s["site_id"]
    last_i = max(i for i in range(events) if i % nsites == k)
    want = {
        "site_ip": "0x%016x" % (0xffffffff81000000 + 0x40 * k),
        "site_symbol": "uk_site_%d+0x1c/0x80" % k,
        "kind": "precheck", "helper": "__copy_to_user",
        "direction": "to-user", "count": events // nsites,
        "events": events // nsites,
        # microseconds, exact in any JSON reader (the replay's ns / 1000)
        "first_usec": (base + k * 1000) // 1000,
        "last_usec": (base + last_i * 1000) // 1000,
        "first_boot_usec": (1000000000 + k * 1000) // 1000,
        "last_boot_usec": (1000000000 + last_i * 1000) // 1000,
        "journaled": 3,
        "journal_suppressed": events // nsites - 3,
    }
    for key, v in want.items():
        assert s[key] == v, (k, key, s[key], v)
    # no nanoseconds, no derived sum: one schema for every source
    for gone in ("first_ts_real", "last_ts_real", "first_ts_boot",
                 "last_ts_boot", "suppressed"):
        assert gone not in s, (k, gone)
    for sample in s["samples"]:
        assert "ts_real" not in sample and sample["time_usec"] < 2**53, sample
    assert s["stacks"][0]["frames"] == ["uk_site_%d+0x1c/0x80" % k,
                                        "do_syscall_64+0x5d/0x170"], s["stacks"]
EOF
check $? "sites --json: every field as replayed" "$(tail -n 2 "$tmp/py.out")"

expect 0 "sites --no-legend" ctl --socket "$sock" --no-legend sites
check $([ "$(printf '%s\n' "$out" | wc -l)" = "$SITES" ] &&
	! printf '%s\n' "$out" | grep -qE 'COUNT|listed'; echo $?) \
	"sites --no-legend: the rows and nothing else" "$out"

expect 0 "top" ctl --socket "$sock" top
has "$out" "top: 10 by default, all $SITES here" "$SITES sites listed."
expect 0 "top -n 2" ctl --socket "$sock" top -n 2
has "$out" "top -n 2: two of them" "2 of $SITES sites listed."
# The width: $COLUMNS as systemd's tools take it (a terminal's otherwise,
# none through a pipe); the columns of least use go first; --full, none.
COLUMNS=60 expect 0 "top at 60 columns" ctl --socket "$sock" top
check $(printf '%s\n' "$out" | awk 'length > 60 { bad = 1 } END { exit bad }' &&
	[ "$(printf '%s\n' "$out" | head -n 1 | tr -s ' ')" = "COUNT KIND HELPER DIR SITE" ]; echo $?) \
	"top at 60 columns: every line fits, FIRST, LAST and SUPPRESSED left out" "$out"
COLUMNS=60 expect 0 "top --full at 60 columns" ctl --socket "$sock" --full top
check $([ "$(printf '%s\n' "$out" | head -n 1 | tr -s ' ')" = "COUNT KIND HELPER DIR SITE FIRST LAST SUPPRESSED" ]; echo $?) \
	"top --full: every column, however wide" "$out"
expect 0 "top through a pipe" ctl --socket "$sock" top
check $([ "$(printf '%s\n' "$out" | head -n 1 | tr -s ' ')" = "COUNT KIND HELPER DIR SITE FIRST LAST SUPPRESSED" ]; echo $?) \
	"top through a pipe: no width, every column" "$out"
expect 0 "top -n 2 --json" ctl --socket "$sock" top -n 2 --json
check $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (len(d["sites"]) == 2 and d["total"] == int(sys.argv[2])))' "$tmp/out" "$SITES"; echo $?) \
	"top -n 2 --json: two sites, total $SITES"
expect 0 "sites --sort name" ctl --socket "$sock" --no-legend sites --sort name
check $([ "$(printf '%s\n' "$out" | awk '{print $5}' | tr '\n' ' ')" = \
	"$(for i in $(seq 0 $((SITES - 1))); do printf 'uk_site_%d+0x1c/0x80 ' $i; done)" ]; echo $?) \
	"sites --sort name: by symbol" "$out"
expect 0 "top --sort=last -n 1" ctl --socket "$sock" --no-legend top --sort=last -n 1
check $(printf '%s\n' "$out" | grep -q "uk_site_$(((EVENTS - 1) % SITES))+"; echo $?) \
	"top --sort=last: the site of the last event first" "$out"

# ---- the daemon not there ----
expect 4 "sites without uaccessd (default socket)" ctl sites
check $([ "$err" = "$no_daemon" ]; echo $?) "sites without uaccessd: the message" "$err"
expect 3 "status without uaccessd nor the kernel: the kernel comes first" ctl status
check $([ "$err" = "$no_kernel
$no_daemon" ]; echo $?) "status without uaccessd: both problems named, kernel first" "$err"
has "$out" "status without uaccessd: says so in the summary" "  uaccessd: not running"
expect 4 "sites with --socket to a missing socket" ctl --socket "$tmp/none" sites
check $([ "$err" = "$no_daemon: no control socket $tmp/none" ]; echo $?) \
	"sites, missing socket: the message names it" "$err"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' "$tmp/stale"
expect 4 "top with a stale socket (nobody listens)" ctl --socket "$tmp/stale" top
check $([ "$err" = "$no_daemon: nothing listens on $tmp/stale" ]; echo $?) \
	"top, stale socket: the message says nobody listens" "$err"

# ---- the kernel not there ----
expect 3 "sites --kernel" ctl --kernel sites
check $([ "$err" = "$no_kernel" ]; echo $?) "sites --kernel: the message" "$err"
expect 3 "top --kernel --json" ctl top --kernel --json
expect 3 "monitor" ctl monitor --timeout 1
check $([ "$err" = "$no_kernel" ]; echo $?) "monitor: the message" "$err"
expect 3 "set mode off" ctl set mode off
expect 3 "set ratelimit 1000 5" ctl set ratelimit 1000 5
expect 3 "reset --kernel" ctl reset --kernel
expect 3 "reset through a daemon without the kernel" ctl --socket "$sock" reset
check $([ "$err" = "$no_kernel" ]; echo $?) "reset: the message" "$err"

# ---- reload ----
expect 0 "reload as root" ctl --socket "$sock" reload
check $([ -z "$out$err" ]; echo $?) "reload: says nothing when it worked" "$out$err"
echo "site_burst = many" >>"$tmp/a.conf"
expect 1 "reload of a broken file" ctl --socket "$sock" reload
check $(case $err in "uaccessctl: uaccessd kept its configuration: $tmp/a.conf:4: site_burst: "*) echo 0;; *) echo 1;; esac) \
	"reload of a broken file: the file, line and reason" "$err"
sed -i '$d' "$tmp/a.conf"
expect 5 "reload as nobody" runuser -u nobody -- "$bin/uaccessctl" --socket "$sock" reload
check $([ "$err" = "uaccessctl: permission denied: reload needs root" ]; echo $?) \
	"reload as nobody: the message" "$err"

# ---- bad command lines ----
expect 2 "unknown command" ctl frobnicate
expect 2 "unknown option" ctl status --frobnicate
expect 2 "--sort with a bad key" ctl --socket "$sock" sites --sort size
expect 2 "an option that does not apply" ctl status --sort count
expect 2 "-n 0" ctl top -n 0
expect 2 "set with a bad mode (before asking the kernel)" ctl set mode loud
check $([ "$err" = "uaccessctl: set: mode is off, count, report or warn, not 'loud'" ]; echo $?) \
	"set mode loud: the message" "$err"
expect 2 "set with a number that is not one" ctl set ratelimit-burst 1e3
expect 2 "monitor --timeout 0" ctl monitor --timeout 0
expect 0 "--version" ctl --version
has "$out" "--version: the version" "uaccessctl 0.1"
expect 0 "--help" ctl --help
check $(printf '%s\n' "$out" | grep -q '^Exit status:'; echo $?) "--help: lists the exit codes"

# ---- an unprivileged user ----
as_nobody() { runuser -u nobody -- "$bin/uaccessctl" "$@"; }
expect 0 "sites as nobody" as_nobody --socket "$sock" --no-legend sites
check $([ "$(printf '%s\n' "$out" | wc -l)" = "$SITES" ]; echo $?) \
	"sites as nobody: the same table" "$out"
expect 0 "sites --json as nobody" as_nobody --socket "$sock" --json sites
check $(printf '%s\n' "$out" | grep -q '0xffff'; [ $? = 1 ]; echo $?) \
	"sites --json as nobody: no kernel address (KASLR)" "$(printf '%s\n' "$out" | grep -o '"[a-z_]*":"0xffff[0-9a-f]*"' | head -n 3)"
check $(printf '%s\n' "$out" | grep -q '"site_symbol":"uk_site_'; echo $?) \
	"sites --json as nobody: the symbols are there" "$(printf '%s\n' "$out" | head -c 300)"
expect 3 "status as nobody" as_nobody --socket "$sock" status --all
has "$out" "status as nobody: the daemon part" "daemon.running yes"
expect 5 "reset as nobody: uaccessd refuses" as_nobody --socket "$sock" reset
check $([ "$err" = "uaccessctl: permission denied: reset needs root" ]; echo $?) \
	"reset as nobody: the message" "$err"
"$bin/uaccessd" -c "$tmp/a.conf" -s "$tmp/priv/ctl" --replay "$tmp/a.rep" \
	2>"$tmp/priv.err" &
priv_pid=$!
for _ in $(seq 100); do [ -S "$tmp/priv/ctl" ] && break; sleep 0.05; done
expect 5 "sites as nobody, socket in a directory nobody may enter" \
	as_nobody --socket "$tmp/priv/ctl" sites
check $([ "$err" = "uaccessctl: permission denied: cannot connect to $tmp/priv/ctl" ]; echo $?) \
	"sites as nobody, no access: the message" "$err"
expect 3 "monitor as nobody (no family comes first)" as_nobody monitor
expect 3 "set as nobody (no family comes first)" as_nobody set mode off

# ---- uaccessd --replay - : standard input, as its caller shares it ----
# A pipe, a terminal and a socket are read as they come, a file whole;
# O_NONBLOCK is never set on the open file description uaccessd shares
# with its caller (who would find its own end non-blocking): the test
# keeps its copy of uaccessd's stdin and looks at its flags.
"$bin/tools/uk-genreplay" -n 20 -s 2 "$tmp/s.rep" >/dev/null
python3 - "$bin" "$tmp" "$top" >"$tmp/stdin.out" 2>&1 <<'EOF'
import fcntl, os, pty, select, signal, socket, subprocess, sys, time, tty
binp, tmp, top = sys.argv[1:4]
sys.path.insert(0, top + '/tests/lib')
import ukctl

data = open(tmp + '/s.rep', 'rb').read()
half = len(data) // 2


def report(ok, desc, why=''):
    print('%d|%s|%s' % (0 if ok else 1, desc, ' '.join(why.split())[:300]))
    sys.stdout.flush()


def nonblock(fd):
    return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK)


def write_all(fd, buf):
    """On the test's own description (O_NONBLOCK there is ours)."""
    deadline = time.monotonic() + 10
    while buf and time.monotonic() < deadline:
        select.select([], [fd], [], 0.1)
        try:
            buf = buf[os.write(fd, buf):]
        except BlockingIOError:
            pass
    return not buf


def events(ctl, want):
    """uaccessd's event count once it reaches @want (10 s at most)."""
    got = None
    for _ in range(200):
        try:
            got = ukctl.call(ctl, {'cmd': 'status'})['daemon']['events']
        except (OSError, ValueError, KeyError):
            pass
        if got is not None and got >= want:
            break
        time.sleep(0.05)
    return got


def start(kind, stdin, exit_after=True):
    ctl = '%s/ctl-stdin-%s' % (tmp, kind.split()[-1].replace('/', '-'))
    argv = [binp + '/uaccessd', '-c', tmp + '/a.conf', '-s', ctl, '-r', '-']
    p = subprocess.Popen(argv + (['-x'] if exit_after else []), stdin=stdin,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p, ctl


def finish(kind, p, fd, got=None):
    """@got: the events uaccessd counted, if it does not print them (no -x)."""
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    out, err = out.decode(), err.decode()
    report(p.returncode == 0 and
           (got == 20 if got is not None else out.startswith('events 20 ')),
           '--replay - from %s: 20 events, exit 0' % kind,
           'exit %s, events %s: %s %s' % (p.returncode, got, out, err))
    report(not nonblock(fd),
           '--replay - from %s: the caller\'s description stays blocking' % kind)


def streamed(kind, rd, wr, end):
    """@rd: uaccessd's stdin (the test keeps it), @wr: the test's end."""
    p, ctl = start(kind, rd, kind != 'a terminal')
    ok = write_all(wr, data[:half])
    got = events(ctl, 1)
    report(ok and got and not nonblock(rd),
           '--replay - from %s: blocking while uaccessd reads' % kind,
           'wrote: %s, events: %s' % (ok, got))
    ok = write_all(wr, data[half:])
    got = events(ctl, 20)
    end(p)
    finish(kind, p, rd, None if kind != 'a terminal' else got)


r, w = os.pipe()
streamed('a pipe', r, w, lambda p: os.close(w))
os.close(r)

# A terminal in raw mode; it ends when uaccessd has had it all (a hangup
# reads as EIO or EOF, as it comes).
master, slave = pty.openpty()
tty.setraw(slave)
os.set_blocking(master, False)
streamed('a terminal', slave, master, lambda p: p.send_signal(signal.SIGTERM))
os.close(master)
os.close(slave)

a, b = socket.socketpair()
streamed('a socket', b.fileno(), a.fileno(), lambda p: a.shutdown(socket.SHUT_WR))
a.close()
b.close()

fd = os.open(tmp + '/s.rep', os.O_RDONLY)
p, _ = start('a file', fd)
finish('a file', p, fd)
os.close(fd)

fd = os.open('/dev/null', os.O_RDONLY)
p, _ = start('/dev/null', fd)
out, err = p.communicate(timeout=20)
report(p.returncode == 1 and 'header' in err.decode(),
       '--replay - from /dev/null: exit 1, the header is missing',
       'exit %s: %s' % (p.returncode, err.decode()))
os.close(fd)
EOF
check $? "--replay - from a pipe, a terminal, a socket, a file" "$(tail -n 3 "$tmp/stdin.out")"
while IFS='|' read -r st desc why; do
	case $st in 0|1) check "$st" "$desc" "$why" ;; esac
done <"$tmp/stdin.out"

# ---- the pager, on a terminal ----
# (not secure: as root without a login session the pager would be less)
pager_run() {	# pager_run ARGS...: uaccessctl on a pty, pager writes $tmp/paged
	rm -f "$tmp/paged"
	SYSTEMD_PAGERSECURE=${secure:-0} SYSTEMD_PAGER="cat >$tmp/paged" \
		script -qec "$bin/uaccessctl --socket $sock $*" /dev/null \
		>"$tmp/tty.out" 2>&1
}
pager_run sites
check $(grep -q "$SITES sites listed." "$tmp/paged" 2>/dev/null; echo $?) \
	"on a terminal, the output goes through \$SYSTEMD_PAGER" "$(cat "$tmp/tty.out")"
pager_run --no-pager sites
check $([ ! -e "$tmp/paged" ] && grep -q "$SITES sites listed." "$tmp/tty.out"; echo $?) \
	"--no-pager: straight to the terminal"
pager_run --json sites
check $([ ! -e "$tmp/paged" ]; echo $?) "--json: no pager"
# secure mode: less (ours, in $PATH), with LESSSECURE=1, not $SYSTEMD_PAGER
mkdir -p "$tmp/lessbin"
printf '#!/bin/sh\nenv >"%s/less.env"\ncat >"%s/less.out"\n' "$tmp" "$tmp" \
	>"$tmp/lessbin/less"
chmod +x "$tmp/lessbin/less"
PATH="$tmp/lessbin:$PATH" secure=1 pager_run sites
check $([ ! -e "$tmp/paged" ] &&
	grep -q "$SITES sites listed." "$tmp/less.out" 2>/dev/null &&
	grep -qx LESSSECURE=1 "$tmp/less.env"; echo $?) \
	"SYSTEMD_PAGERSECURE=1: less with LESSSECURE=1, not \$SYSTEMD_PAGER" \
	"$(cat "$tmp/tty.out")"
rm -f "$tmp/paged"
SYSTEMD_PAGER="cat >$tmp/paged" "$bin/uaccessctl" --socket "$sock" sites >/dev/null
check $([ ! -e "$tmp/paged" ]; echo $?) "not a terminal: no pager"

# ---- colours: on a terminal (through the pager too), never piped ----
red=$(printf '\033[0;1;31m')
TERM=xterm pager_run status
check $(grep -qF "${red}uaccessd lost $lost events" "$tmp/paged" 2>/dev/null; echo $?) \
	"status on a terminal: the loss in red, through the pager" "$(cat -v "$tmp/paged" 2>/dev/null | head -n 5)"
TERM=xterm NO_COLOR=1 pager_run status
check $(grep -q $'\033' "$tmp/paged" 2>/dev/null; [ $? = 1 ]; echo $?) \
	"status on a terminal with NO_COLOR: no colour" "$(cat -v "$tmp/paged" 2>/dev/null | head -n 3)"
TERM=dumb pager_run status
check $(grep -q $'\033' "$tmp/paged" 2>/dev/null; [ $? = 1 ]; echo $?) \
	"status on a terminal with TERM=dumb: no colour" "$(cat -v "$tmp/paged" 2>/dev/null | head -n 3)"
TERM=xterm ctl --socket "$sock" status >"$tmp/piped" 2>&1
check $(grep -q $'\033' "$tmp/piped"; [ $? = 1 ]; echo $?) "status piped: no colour"

kill -TERM "$daemon_pid" "$priv_pid"
wait "$daemon_pid" "$priv_pid" 2>/dev/null
daemon_pid= priv_pid=
echo "1..$n"
[ "$failed" = 0 ]
