#!/bin/bash
# bench.sh [--smoke]: the benchmarks of the detector, as a Markdown report.
#
#   full (make bench): builds the kernels it needs (bench: production-like,
#   -O2, detector on; unpatched: the same configuration on the pristine
#   tree; bench-kasan: bench plus KASAN), then
#     1. static: static_cost.py over bench vs unpatched
#     2. dynamic: syscall microbenchmarks on bench (off/report/off in the
#        same boot), on unpatched; the per-call cost of each helper
#     3. hit path, and 1,000,000 sustained hits
#     4. the event pipeline with 1, 100 and 10,000 sites
#     5. the same microbenchmarks on bench-kasan
#   and writes build/bench/report.md, printing the ratios.
#
#   --smoke (make bench-smoke, run by make check): the debug kernel only,
#   one boot, few rounds, small counts; build/bench/smoke/report.md and TAP
#   lines whose checks hold whatever the noise (tables filled, ratios sane,
#   counts adding up exactly).
#
# Every figure is in guest instructions: QEMU -icount shift=0,sleep=off.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
smoke=0
[ "${1:-}" = --smoke ] && smoke=1
if [ "$smoke" = 1 ]; then
	out=build/bench/smoke
else
	out=build/bench
fi
mkdir -p "$out/plans" "$out/logs"
log() { echo "bench: $*" >&2; }

make -s -C daemon all tools >/dev/null

# vm NAME VARIANT SMP PLAN...: boot and run the plan lines; the results
# file is $out/runs/NAME/results.txt (a failed run leaves what it got).
vm() {
	local name=$1 variant=$2 smp=$3
	shift 3
	printf '%s\n' "$@" >"$out/plans/$name.sh"
	log "booting $variant for $name ($(printf '%s; ' "$@"))"
	BENCH_SMP=$smp BENCH_OUT=$top/$out tests/bench/vm.sh "$variant" "$name" \
		"$out/plans/$name.sh" || log "$name: the plan did not complete"
	mkdir -p "$out/runs/$name"
	log "$name: $(cat "$out/runs/$name/seconds" 2>/dev/null || echo '?') s"
}

cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
# cmd KEY TEXT: a command line shown under a table of the report
cmd() { printf '%s\t%s\n' "$1" "$2" >>"$cmds"; }

# The sections to run: BENCH_PARTS (make bench PARTS=...), of "static
# syscalls hits pipeline kasan"; all but kasan in the smoke run.
all_parts="static syscalls hits pipeline kasan"
if [ "$smoke" = 1 ]; then
	parts=" static syscalls hits pipeline "
else
	parts=" ${BENCH_PARTS:-$all_parts} "
fi
for p in $parts; do
	[[ " $all_parts " == *" $p "* ]] || {
		echo "bench: unknown part '$p' (of: $all_parts)" >&2
		exit 2
	}
done
part() { [[ $parts == *" $1 "* ]]; }
parts_json=$(printf '"%s",' $parts)
parts_json="[${parts_json%,}]"

if [ "$smoke" = 1 ]; then
	[ -f build/kernel/debug/vmlinux ] || scripts/kernel-build.sh debug >&2
	python3 tests/bench/static_cost.py --label debug --json "$out/static-debug.json" \
		build/kernel/debug/vmlinux >&2
	cmd static "tests/bench/static_cost.py --json $out/static-debug.json build/kernel/debug/vmlinux"
	plan=(
		"uk_bench syscalls 3 2000"
		"uk_bench helpers 2 20000"
		"uk_bench hits 2 20000 500"
		"/bench/soak.sh 100000 1 1000"
		"/bench/pipeline.sh 300 flood,paced,defaults 1 100 10000"
	)
	vm smoke debug 1 "${plan[@]}"
	for k in syscalls helpers hits soak pipeline; do
		cmd "$k" "tests/bench/bench.sh --smoke: build/kernel/debug, one boot, 1 vCPU: $(grep -E "$k|soak.sh|pipeline.sh" "$out/plans/smoke.sh" | head -n 1)"
	done
	runs=$out/runs/smoke/results.txt
	syscalls="{\"patched\": \"$runs\"}"
	helpers=$runs hits=$runs soak=$runs pipeline=$runs
	kernels='["debug: guest + system + debug config (-Os, lockdep, KUnit), detector compiled in; 2 vCPUs"]'
	title="Kernel: build/kernel/debug (test configuration: -Os, lockdep). Smoke run: 3 rounds of 2,000 calls."
else
	kernels_needed="bench unpatched"
	part kasan && kernels_needed="$kernels_needed bench-kasan"
	for v in $kernels_needed; do
		log "kernel $v"
		scripts/kernel-build.sh "$v" >"$out/logs/build-$v.log" 2>&1 || {
			tail -n 20 "$out/logs/build-$v.log" >&2
			exit 1
		}
	done
	part static && python3 tests/bench/static_cost.py --label bench --json "$out/static-bench.json" \
		build/kernel/bench/vmlinux build/kernel/unpatched/vmlinux >&2
	cmd static "tests/bench/static_cost.py --json $out/static-bench.json build/kernel/bench/vmlinux build/kernel/unpatched/vmlinux"

	rounds=${BENCH_ROUNDS:-21} iters=${BENCH_ITERS:-10000}
	if part syscalls || part kasan; then
		vm bench-syscalls bench 1 "uk_bench syscalls $rounds $iters" "uk_bench helpers 11 100000"
		vm unpatched-syscalls unpatched 1 "uk_bench syscalls $rounds $iters"
	fi
	part kasan && vm kasan-syscalls bench-kasan 1 "uk_bench syscalls 11 $iters"
	part hits && vm bench-hits bench 1 "uk_bench hits 7 100000 10000" "/bench/soak.sh 1000000 1 1000"
	part pipeline && vm bench-pipeline bench 1 "/bench/pipeline.sh 20000 flood,paced,defaults 1 100 10000"
	cmd syscalls "tests/bench/vm.sh bench|unpatched (1 vCPU): uk_bench syscalls $rounds $iters"
	cmd helpers "tests/bench/vm.sh bench (1 vCPU): uk_bench helpers 11 100000"
	cmd hits "tests/bench/vm.sh bench (1 vCPU): uk_bench hits 7 100000 10000"
	cmd soak "tests/bench/vm.sh bench (1 vCPU): /bench/soak.sh 1000000 1 1000"
	cmd pipeline "tests/bench/vm.sh bench (1 vCPU): /bench/pipeline.sh 20000 flood,paced,defaults 1 100 10000"
	cmd kasan "tests/bench/vm.sh bench-kasan (1 vCPU): uk_bench syscalls 11 $iters"
	syscalls="{\"patched\": \"$out/runs/bench-syscalls/results.txt\", \"unpatched\": \"$out/runs/unpatched-syscalls/results.txt\", \"kasan\": \"$out/runs/kasan-syscalls/results.txt\"}"
	helpers=$out/runs/bench-syscalls/results.txt
	hits=$out/runs/bench-hits/results.txt soak=$hits
	pipeline=$out/runs/bench-pipeline/results.txt
	kernels='["bench: guest + system + bench config: -O2 (CC_OPTIMIZE_FOR_PERFORMANCE), no lockdep or KUnit suites, detector compiled in, 2^14 sites, test module",
"unpatched: the same configuration without the detector, built from the pristine 7.3.4 tree (build/linux-7.3-base)",
"bench-kasan: bench + generic inline KASAN"]'
	title="Kernels: build/kernel/bench (off, report) and build/kernel/unpatched; $rounds rounds of $iters calls."
fi

python3 - "$out" "$smoke" "$cmds" "$syscalls" "$helpers" "$hits" "$soak" "$pipeline" \
	"$kernels" "$title" "$parts_json" <<'PY'
import datetime, json, os, platform, subprocess, sys
out, smoke, cmds, syscalls, helpers, hits, soak, pipeline, kernels, title, parts = sys.argv[1:]
commands = {}
for line in open(cmds):
    k, v = line.rstrip('\n').split('\t', 1)
    commands.setdefault(k, []).append(v)
qemu = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                      text=True).stdout.splitlines()[0]
static = []
if os.path.exists(f'{out}/static-bench.json'):
    static.append({'json': f'{out}/static-bench.json', 'short': 'bench -O2', 'goals': True,
                   'title': 'bench kernel (-O2, production-like) vs unpatched'})
# The debug kernel's table belongs to the smoke run alone (its own out dir).
if smoke == '1' and os.path.exists(f'{out}/static-debug.json'):
    static.append({'json': f'{out}/static-debug.json', 'short': 'debug -Os',
                   'goals': True,
                   'title': 'debug kernel (test configuration, -Os)'})
m = {
    'report': f'{out}/report.md', 'smoke': smoke == '1',
    'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
    'host': f'{platform.node()}, {os.cpu_count()} CPUs', 'qemu': qemu + ', TCG, -icount shift=0,sleep=off',
    'kernels': json.loads(kernels), 'static': static, 'syscalls': json.loads(syscalls),
    'syscalls_title': title, 'helpers': helpers, 'hits': hits, 'soak': soak,
    'pipeline': pipeline, 'commands': commands,
    'notes': 'tests/bench/notes.md' if smoke != '1' else None,
    'parts': json.loads(parts),
}
json.dump(m, open(f'{out}/manifest.json', 'w'), indent=1)
PY
if [ "$smoke" = 1 ]; then
	python3 tests/bench/report.py "$out/manifest.json" --tap
else
	python3 tests/bench/report.py "$out/manifest.json"
fi
