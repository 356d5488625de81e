#!/bin/bash
# demo.sh: build the debug kernel, boot it under QEMU, and show what the
# detector reports for one trigger of each kind.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$(date +%s)
step() { echo "==> $* [$(($(date +%s) - t0)) s]"; }

step "building the debug kernel (first time: ~8 min on 2 cores)"
scripts/kernel-build.sh debug
step "booting it under QEMU TCG"
mkdir -p build/vm
tests/vm/mkinitramfs.sh debug build/vm/debug.cpio.gz
tests/vm/run.sh demo debug 5
step "guest results"
cat build/vm/results/demo/results.tap
