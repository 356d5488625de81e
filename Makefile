# uaccess_kaddr: detect kernel addresses handed to user-access helpers.
# `make help` lists the targets.

.PHONY: help deps kernel kernel-kasan kernel-nodetect vm-check check demo clean

help:
	@echo "make demo            build the debug kernel, boot it, show the detector at work"
	@echo "make check           install dependencies, build, run every test (summary line last)"
	@echo "make deps            install the Debian packages the build and tests need"
	@echo "make kernel          build the debug kernel (build/kernel/debug)"
	@echo "make kernel-kasan    build the debug kernel with KASAN"
	@echo "make kernel-nodetect build with CONFIG_DEBUG_UACCESS_KADDR=n"
	@echo "make vm-check        boot the debug kernel and run the VM suite only"
	@echo "make clean           remove build/ (the extracted kernel tree too)"

deps:
	scripts/deps.sh

kernel: deps
	scripts/kernel-build.sh debug

kernel-kasan: deps
	scripts/kernel-build.sh kasan

kernel-nodetect: deps
	scripts/kernel-build.sh nodetect

vm-check: kernel
	tests/vm/check.sh debug

check:
	scripts/check.sh

demo: deps
	scripts/demo.sh

clean:
	rm -rf build
