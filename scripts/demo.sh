#!/bin/bash
# demo.sh: build the debug kernel, boot it under QEMU, and show what the
# detector reports for one access of each kind: the kernel log line and the
# decoded netlink event.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$(date +%s)
step() { echo "==> $* [$(($(date +%s) - t0)) s]"; }

step "installing build dependencies (scripts/deps.sh)"
scripts/deps.sh
step "building the debug kernel (cold: ~8 min on 2 cores; then incremental)"
scripts/kernel-build.sh debug
step "building the guest programs and the initramfs"
make -s -C tests/vm/guest O="$top/build/vm/guest"
tests/vm/mkinitramfs.sh debug build/vm/debug.cpio.gz build/vm/guest/*
step "booting under QEMU TCG (4-level paging, so that a non-canonical address raises #GP)"
tests/vm/run.sh demo debug 4 uaccess_test.demo
step "what the detector reported"
grep -v '^# uaccess-vm' build/vm/results/demo/results.tap
step "done"
