// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_kaddr reports in the kernel log, shaped like KASAN's and KFENCE's:
 *
 *   ==================================================================
 *   BUG: uaccess-kaddr: <helper> <to|from|on> <kernel|non-canonical> address in <caller>
 *   <Write|Read|...> of <N> bytes to <class> address 0x<addr> (<outcome>)
 *   CPU: <cpu> UID: <uid> PID: <pid> Comm: <comm> <taint> <release>
 *   Call Trace:
 *    <the stack of the access, from its call site>
 *   <the object that a mapped kernel address reaches>
 *   ==================================================================
 *
 * Fuzzers title a crash by its first line: syzkaller takes a "BUG:" line
 * that no rule of its own matches as the title, offsets and long numbers
 * stripped, so every helper, direction and calling function gets a title
 * of its own.  The address is printed as it is, as KASAN prints it: a
 * hashed or zeroed pointer would make the report of a bogus pointer read as
 * a NULL pointer, and the reader of the log of a debug kernel needs it.
 *
 * Printed from the drain work, in process context, whatever context the
 * hit came from: the event holds what the hit path recorded (object.c).
 */

#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/utsname.h>
#include <trace/events/error_report.h>

#include "uaccess_kaddr.h"

#define UK_RULER "=================================================================="

static const char * const uk_kinds[] = {
	[UKADDR_KIND_FAULT] = "fault",
	[UKADDR_KIND_GP] = "gp",
	[UKADDR_KIND_PRECHECK] = "precheck",
};

static const char * const uk_helpers[] = {
	[UKADDR_HELPER_GET_USER] = "__get_user",
	[UKADDR_HELPER_PUT_USER] = "__put_user",
	[UKADDR_HELPER_COPY_FROM_USER] = "__copy_from_user",
	[UKADDR_HELPER_COPY_TO_USER] = "__copy_to_user",
	[UKADDR_HELPER_CLEAR_USER] = "__clear_user",
	[UKADDR_HELPER_UNSAFE_GET_USER] = "unsafe_get_user",
	[UKADDR_HELPER_UNSAFE_PUT_USER] = "unsafe_put_user",
	[UKADDR_HELPER_UNSAFE_COPY_TO_USER] = "unsafe_copy_to_user",
	[UKADDR_HELPER_COPY_USER_GENERIC] = "copy_user_generic",
	[UKADDR_HELPER_STRNCPY_FROM_USER] = "strncpy_from_user",
	[UKADDR_HELPER_STRNLEN_USER] = "strnlen_user",
	[UKADDR_HELPER_FUTEX] = "futex",
	[UKADDR_HELPER_CMPXCHG_USER] = "cmpxchg_user",
	[UKADDR_HELPER_UNKNOWN] = "user access",
};

static const char * const uk_dirs[] = {
	[0] = "unknown direction",
	[UKADDR_DIR_FROM_USER] = "from user",
	[UKADDR_DIR_TO_USER] = "to user",
	[UKADDR_DIR_BOTH] = "from and to user",
};

static const char * const uk_classes[] = {
	[UKADDR_CLASS_USER] = "user",
	[UKADDR_CLASS_KERNEL_UNMAPPED] = "unmapped kernel",
	[UKADDR_CLASS_KERNEL_MAPPED] = "mapped kernel",
	[UKADDR_CLASS_NONCANONICAL] = "non-canonical",
	[UKADDR_CLASS_GUARD_PAGE] = "guard page",
	[UKADDR_CLASS_ALL_ONES] = "all-ones page",
	[UKADDR_CLASS_VSYSCALL] = "vsyscall page",
};

static const char * const uk_contexts[] = {
	[UKADDR_CTX_TASK] = "task",
	[UKADDR_CTX_SOFTIRQ] = "softirq",
	[UKADDR_CTX_HARDIRQ] = "hardirq",
	[UKADDR_CTX_NMI] = "NMI",
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
 * uk_format_title - the first line of a report, without its "BUG: "
 * @buf: where to write it
 * @len: size of @buf
 * @ev: the event
 *
 * "uaccess-kaddr: unsafe_put_user to kernel address in foo+0x1c/0x80":
 * the helper is "to" a kernel address when it writes to what it takes for
 * user memory, "from" it when it reads, "on" it for both or when the fault
 * did not say; a non-canonical address below the kernel half (only a
 * missing access_ok() or a masked pointer accessed past its guard page
 * reach one) is a "non-canonical address".  The call site is a return address or a faulting
 * instruction inside its function: %pB names both right.
 */
int uk_format_title(char *buf, size_t len, const struct uk_event *ev)
{
	const char *prep = ev->dir == UKADDR_DIR_FROM_USER ? "from" :
			   ev->dir == UKADDR_DIR_TO_USER ? "to" : "on";
	/* Below the kernel half, a non-canonical address is no kernel one. */
	const char *what = ev->addr_class == UKADDR_CLASS_NONCANONICAL &&
			   (long)ev->addr >= 0 && ev->addr ?
			   "non-canonical" : "kernel";

	return scnprintf(buf, len, "uaccess-kaddr: %s %s %s address in %pB",
			 uk_helper_name(ev->helper), prep, what,
			 (void *)ev->ip);
}

/**
 * uk_format_access - the second line of a report
 * @buf: where to write it
 * @len: size of @buf
 * @ev: the event
 *
 * "Write of 4 bytes to mapped kernel address 0xffff888000825000 (access
 * blocked)": what the helper was asked to do, where, and what happened.
 */
int uk_format_access(char *buf, size_t len, const struct uk_event *ev)
{
	static const char * const verb[] = {
		[0] = "Access",
		[UKADDR_DIR_FROM_USER] = "Read",
		[UKADDR_DIR_TO_USER] = "Write",
		[UKADDR_DIR_BOTH] = "Read-modify-write",
	};
	static const char * const prep[] = {
		[0] = "at",
		[UKADDR_DIR_FROM_USER] = "from",
		[UKADDR_DIR_TO_USER] = "to",
		[UKADDR_DIR_BOTH] = "at",
	};
	unsigned int dir = ev->dir < ARRAY_SIZE(verb) ? ev->dir : 0;
	const char *outcome;
	int n;

	if (ev->kind == UKADDR_KIND_PRECHECK)
		outcome = ev->allowed ?
			"access allowed by uaccess_kaddr_access=allow" :
			"access blocked";
	else if (ev->kind == UKADDR_KIND_GP)
		outcome = "#GP, access failed";
	else
		outcome = "page fault, access failed";

	n = scnprintf(buf, len, "%s", verb[dir]);
	if (ev->size)
		n += scnprintf(buf + n, len - n, " of %lu byte%s", ev->size,
			       ev->size == 1 ? "" : "s");
	if (ev->kind == UKADDR_KIND_GP && !ev->addr)
		n += scnprintf(buf + n, len - n,
			       " %s an undecoded non-canonical address", prep[dir]);
	else
		n += scnprintf(buf + n, len - n, " %s %s address 0x%lx",
			       prep[dir], uk_class_name(ev->addr_class),
			       ev->addr);
	n += scnprintf(buf + n, len - n, " (%s)", outcome);
	return n;
}

#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
void (*uk_test_report_observer)(const struct uk_event *ev,
				const struct uk_object *obj);
#endif

/**
 * uk_print_report - log one event, as described at the top of this file
 * @ev: the event, recorded by the hit path
 *
 * Process context (the drain work).
 */
void uk_print_report(const struct uk_event *ev)
{
	struct uk_object obj = ev->obj;
	char line[192];

	if (ev->quiet)
		return;
	pr_err(UK_RULER "\n");
	uk_format_title(line, sizeof(line), ev);
	pr_err("BUG: %s\n", line);
	uk_format_access(line, sizeof(line), ev);
	pr_err("%s\n", line);
	pr_err("CPU: %u UID: %u PID: %d Comm: %s %s %s%s%s\n", ev->cpu,
	       ev->uid, ev->pid, ev->comm, print_tainted(),
	       init_utsname()->release,
	       ev->context == UKADDR_CTX_TASK ? "" : ", in ",
	       ev->context == UKADDR_CTX_TASK ? "" :
		uk_name(uk_contexts, ARRAY_SIZE(uk_contexts), ev->context));
	pr_err("Call Trace:\n");
	for (unsigned int i = 0; i < ev->nr_frames; i++)
		pr_err(" %pB\n", (void *)ev->frames[i]);
	pr_err("Site: %llu hit%s, %llu suppressed since the last report\n",
	       ev->count, ev->count == 1 ? "" : "s", ev->suppressed);
	uk_print_object(ev, &obj);
	pr_err(UK_RULER "\n");
#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
	{
		void (*observe)(const struct uk_event *ev,
				const struct uk_object *obj) =
			READ_ONCE(uk_test_report_observer);

		if (observe)
			observe(ev, &obj);
	}
#endif

	trace_error_report_end(ERROR_DETECTOR_UACCESS, ev->addr);
}

/**
 * uk_warn_taken - what a WARN does after its splat, for an event of mode warn
 *
 * Process context (the drain work), after the event was printed and sent,
 * or lost: the kernel is tainted (TAINT_WARN) and panic_on_warn panics, as
 * after a WARN, never from the hit path, which may be an NMI and must not
 * panic (panic_on_taint) before the report is out.
 */
void uk_warn_taken(void)
{
	add_taint(TAINT_WARN, LOCKDEP_STILL_OK);
	check_panic_on_warn("uaccess-kaddr");
}
