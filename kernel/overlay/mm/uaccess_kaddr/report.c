// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_kaddr reports in the kernel log: one line per event, a WARNING
 * splat in warn mode, and the error_report tracepoint.
 *
 * Called from the hit path, in any context including NMI (printk defers
 * there by itself); nothing here sleeps or allocates.
 */

#define pr_fmt(fmt) "uaccess_kaddr: " fmt

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <trace/events/error_report.h>

#include "uaccess_kaddr.h"

static const char * const uk_kinds[] = {
	[UACCESS_KADDR_KIND_FAULT] = "fault",
	[UACCESS_KADDR_KIND_GP] = "gp",
	[UACCESS_KADDR_KIND_PRECHECK] = "precheck",
};

static const char * const uk_helpers[] = {
	[UACCESS_KADDR_HELPER_GET_USER] = "__get_user",
	[UACCESS_KADDR_HELPER_PUT_USER] = "__put_user",
	[UACCESS_KADDR_HELPER_COPY_FROM_USER] = "__copy_from_user",
	[UACCESS_KADDR_HELPER_COPY_TO_USER] = "__copy_to_user",
	[UACCESS_KADDR_HELPER_CLEAR_USER] = "__clear_user",
	[UACCESS_KADDR_HELPER_UNSAFE_GET_USER] = "unsafe_get_user",
	[UACCESS_KADDR_HELPER_UNSAFE_PUT_USER] = "unsafe_put_user",
	[UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER] = "unsafe_copy_to_user",
	[UACCESS_KADDR_HELPER_COPY_USER_GENERIC] = "copy_user_generic",
	[UACCESS_KADDR_HELPER_STRNCPY_FROM_USER] = "strncpy_from_user",
	[UACCESS_KADDR_HELPER_STRNLEN_USER] = "strnlen_user",
	[UACCESS_KADDR_HELPER_FUTEX] = "futex",
	[UACCESS_KADDR_HELPER_CMPXCHG_USER] = "cmpxchg_user",
	[UACCESS_KADDR_HELPER_UNKNOWN] = "user access",
};

static const char * const uk_dirs[] = {
	[0] = "unknown direction",
	[UACCESS_KADDR_DIRECTION_FROM_USER] = "from user",
	[UACCESS_KADDR_DIRECTION_TO_USER] = "to user",
	[UACCESS_KADDR_DIRECTION_BOTH] = "from and to user",
};

static const char * const uk_classes[] = {
	[UACCESS_KADDR_ADDR_CLASS_USER] = "user",
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED] = "unmapped kernel",
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED] = "mapped kernel",
	[UACCESS_KADDR_ADDR_CLASS_NONCANONICAL] = "non-canonical",
	[UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE] = "guard page",
	[UACCESS_KADDR_ADDR_CLASS_ALL_ONES] = "all-ones page",
	[UACCESS_KADDR_ADDR_CLASS_VSYSCALL] = "vsyscall page",
};

static const char *uk_name(const char * const *names, size_t n, unsigned int i)
{
	return i < n && names[i] ? names[i] : "?";
}

const char *uk_kind_name(unsigned int kind)
{
	return uk_name(uk_kinds, ARRAY_SIZE(uk_kinds), kind);
}

const char *uk_helper_name(unsigned int helper)
{
	return uk_name(uk_helpers, ARRAY_SIZE(uk_helpers), helper);
}

const char *uk_dir_name(unsigned int dir)
{
	return uk_name(uk_dirs, ARRAY_SIZE(uk_dirs), dir);
}

const char *uk_class_name(unsigned int addr_class)
{
	return uk_name(uk_classes, ARRAY_SIZE(uk_classes), addr_class);
}

/**
 * uk_print_report - log one event
 * @ev: the event, filled in by the hit path
 * @warn: also emit a WARNING splat (mode warn), titled by the call site
 *
 * The bogus address is printed with %pK: hashed unless kptr_restrict lets
 * the reader see kernel addresses.  The call site is named by symbol.
 */
void uk_print_report(const struct uk_event *ev, bool warn)
{
	if (warn)
		pr_warn(CUT_HERE);
	pr_warn("%s: %s address %pK, %lu bytes, passed to %s (%s) at %pB; comm %s pid %d, site hit %llu times, %llu suppressed\n",
		uk_kind_name(ev->kind), uk_class_name(ev->addr_class),
		(void *)ev->addr, ev->size, uk_helper_name(ev->helper),
		uk_dir_name(ev->dir), (void *)ev->ip, ev->comm, ev->pid,
		ev->count, ev->suppressed);
	if (warn)
		__warn(NULL, 0, (void *)ev->ip, TAINT_WARN, NULL, NULL);
	trace_error_report_end(ERROR_DETECTOR_UACCESS, ev->addr);
}
