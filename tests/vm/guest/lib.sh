# Sourced by the guest tests: the detector's boot mode and a TAP line helper.
mode=$(sed -n 's/.*uaccess_kaddr=\([a-z]*\).*/\1/p' /proc/cmdline)
mode=${mode:-report}

# check STATUS DESCRIPTION WHY: "ok" when STATUS is 0, else "not ok" with WHY.
check() {
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2 # $3"; fi
}
