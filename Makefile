# uaccess_kaddr: detect kernel addresses handed to user-access helpers.
# `make help` lists the targets.

.PHONY: help deps kernel kernel-kasan kernel-nodetect kernel-series kernel-bisect \
	kernel-lint vm-check system-check daemon install daemon-check fuzz fuzz-farm check demo clean \
	deb rpm packages packaging-check bench bench-smoke

help:
	@echo "make demo            build the debug kernel, boot it, show the detector at work"
	@echo "make check           install dependencies, build, run every test (summary line last)"
	@echo "make deps            install the Debian packages the build and tests need"
	@echo "make kernel          build the debug kernel, Linux 7.3 (build/kernel/debug)"
	@echo "make kernel-kasan    build the debug kernel with KASAN"
	@echo "make kernel-nodetect build with CONFIG_DEBUG_UACCESS_KADDR=n"
	@echo "make kernel-series   write both series: 7.3 into build/series, 6.12 into build/series-6.12"
	@echo "make kernel-bisect   build every patch of both series on its own (slow)"
	@echo "make kernel-lint     checkpatch --strict on the series, sparse on the new files"
	@echo "make vm-check        boot the debug kernel (5- and 4-level paging), run the VM suite"
	@echo "make system-check    boot a Debian 12 system with the .deb and the debug kernel, test the unit"
	@echo "make daemon          build uaccessd (build/daemon)"
	@echo "make install         install uaccessd, uaccessctl, man pages, completion, catalog (DESTDIR, PREFIX)"
	@echo "make daemon-check    host tests of the daemon: unit (ASan+UBSan), journald, CLI, Prometheus, 30 s fuzz"
	@echo "make fuzz            each fuzz target for FUZZ_TIME seconds (default 600)"
	@echo "make fuzz-farm       the fuzz farm in miniature on both lines' KASAN kernels: trinity for\n                     SECONDS each (default 600), then its exec rate, detector off/count/report (CALLS)"
	@echo "make deb             Debian packages uaccessd, uaccess-kaddr-patches (build/pkg/*.deb)"
	@echo "make rpm             the same as RPMs (build/pkg/rpm/RPMS)"
	@echo "make packages        both"
	@echo "make packaging-check build both, lintian, contents, each series on its pristine tree"
	@echo "make bench           benchmarks: hot path, hit path, event pipeline, KASAN (build/bench/report.md, ~40 min;\n                     PARTS='static syscalls' for some sections only)"
	@echo "make bench-smoke     a 2-minute version of make bench on the debug kernel, as TAP (run by make check)"
	@echo "make clean           remove build/ (the extracted kernel trees too)"

deps:
	scripts/deps.sh

kernel: deps
	scripts/kernel-build.sh debug

kernel-kasan: deps
	scripts/kernel-build.sh kasan

kernel-nodetect: deps
	scripts/kernel-build.sh nodetect

kernel-series: deps
	scripts/kernel-series.sh

kernel-bisect: deps
	scripts/kernel-bisect.sh

kernel-lint: kernel
	scripts/kernel-lint.sh

vm-check: kernel
	tests/vm/check.sh debug/5 debug/4

system-check: kernel deb
	tests/system/check.sh

daemon: deps
	$(MAKE) -C daemon all tools

install:
	$(MAKE) -C daemon install

daemon-check: deps
	scripts/daemon-check.sh

FUZZ_TIME ?= 600
fuzz: deps
	FUZZ_TIME=$(FUZZ_TIME) scripts/daemon-check.sh fuzz

SECONDS ?= 600
CALLS ?= 2000
fuzz-farm: deps
	scripts/kernel-build.sh kasan
	scripts/kernel-build.sh 6.12-kasan
	tests/farm/farm.sh --seconds $(SECONDS) kasan 6.12-kasan
	tests/farm/exec_rate.sh --calls $(CALLS) kasan 6.12-kasan

deb: deps
	scripts/pkg-build.sh deb

rpm: deps
	scripts/pkg-build.sh rpm

packages: deb rpm

packaging-check: deps
	scripts/tap-suite.sh packaging tests/packaging/check.sh

bench: deps
	BENCH_PARTS="$(PARTS)" tests/bench/bench.sh

bench-smoke:
	tests/bench/bench.sh --smoke

check:
	scripts/check.sh

demo: deps
	scripts/demo.sh

clean:
	rm -rf build
