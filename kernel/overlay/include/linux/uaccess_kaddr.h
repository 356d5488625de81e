/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Detection of kernel addresses handed to user-access helpers.
 *
 * Two detectors feed one reporter (mm/uaccess_kaddr/):
 *  - the pre-access check, inlined into the unchecked helpers, looks at the
 *    __user pointer before the access, so that a mapped kernel address,
 *    which would be read or written silently, is reported; booted with
 *    uaccess_kaddr_access=fail (the default of
 *    CONFIG_DEBUG_UACCESS_KADDR_REFUSE=y), the access is then refused as a
 *    failed access_ok() would refuse it, and kernel memory left untouched;
 *  - the fault check, called from the architecture's user-access exception
 *    fixup, reports a fault on a kernel-half address.
 *
 * See Documentation/dev-tools/uaccess-kaddr.rst.
 */
#ifndef _LINUX_UACCESS_KADDR_H
#define _LINUX_UACCESS_KADDR_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * What a report says of a hit.  The values are those of the netlink
 * interface (include/uapi/linux/uaccess_kaddr.h), which checks that they
 * agree; the detector itself does not depend on it.
 */
enum ukaddr_kind {
	UKADDR_KIND_FAULT = 1,		/* a #PF on a kernel-half address */
	UKADDR_KIND_GP,			/* a #GP: a non-canonical address */
	UKADDR_KIND_PRECHECK,		/* the check before the access */
};

enum ukaddr_helper {
	UKADDR_HELPER_GET_USER = 1,
	UKADDR_HELPER_PUT_USER,
	UKADDR_HELPER_COPY_FROM_USER,
	UKADDR_HELPER_COPY_TO_USER,
	UKADDR_HELPER_CLEAR_USER,
	UKADDR_HELPER_UNSAFE_GET_USER,
	UKADDR_HELPER_UNSAFE_PUT_USER,
	UKADDR_HELPER_UNSAFE_COPY_TO_USER,
	UKADDR_HELPER_COPY_USER_GENERIC,
	UKADDR_HELPER_STRNCPY_FROM_USER,
	UKADDR_HELPER_STRNLEN_USER,
	UKADDR_HELPER_FUTEX,
	UKADDR_HELPER_CMPXCHG_USER,
	UKADDR_HELPER_UNKNOWN,
};

enum ukaddr_dir {
	UKADDR_DIR_FROM_USER = 1,	/* a read of "user" memory */
	UKADDR_DIR_TO_USER,		/* a write (or clear) */
	UKADDR_DIR_BOTH,		/* read-modify-write: cmpxchg, futex */
};

enum ukaddr_class {
	UKADDR_CLASS_USER = 1,
	UKADDR_CLASS_KERNEL_UNMAPPED,
	UKADDR_CLASS_KERNEL_MAPPED,
	UKADDR_CLASS_NONCANONICAL,
	UKADDR_CLASS_GUARD_PAGE,	/* where checked helpers clamp pointers */
	UKADDR_CLASS_ALL_ONES,		/* where put_user() masks them */
	UKADDR_CLASS_VSYSCALL,
};

/* Which helper and which direction, packed for the out-of-line calls. */
#define UACCESS_KADDR_HOW(helper, dir)	((helper) | (dir) << 8)
#define UACCESS_KADDR_HOW_HELPER(how)	((how) & 0xff)
#define UACCESS_KADDR_HOW_DIR(how)	(((how) >> 8) & 0xff)

#define UACCESS_KADDR_GET_USER						\
	UACCESS_KADDR_HOW(UKADDR_HELPER_GET_USER,		\
			  UKADDR_DIR_FROM_USER)
#define UACCESS_KADDR_PUT_USER						\
	UACCESS_KADDR_HOW(UKADDR_HELPER_PUT_USER,		\
			  UKADDR_DIR_TO_USER)
#define UACCESS_KADDR_COPY_FROM_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_COPY_FROM_USER,		\
			  UKADDR_DIR_FROM_USER)
#define UACCESS_KADDR_COPY_TO_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_COPY_TO_USER,		\
			  UKADDR_DIR_TO_USER)
#define UACCESS_KADDR_CLEAR_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_CLEAR_USER,		\
			  UKADDR_DIR_TO_USER)
#define UACCESS_KADDR_UNSAFE_GET_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_UNSAFE_GET_USER,		\
			  UKADDR_DIR_FROM_USER)
#define UACCESS_KADDR_UNSAFE_PUT_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_UNSAFE_PUT_USER,		\
			  UKADDR_DIR_TO_USER)
#define UACCESS_KADDR_UNSAFE_COPY_TO_USER				\
	UACCESS_KADDR_HOW(UKADDR_HELPER_UNSAFE_COPY_TO_USER,	\
			  UKADDR_DIR_TO_USER)
#define UACCESS_KADDR_CMPXCHG_USER					\
	UACCESS_KADDR_HOW(UKADDR_HELPER_CMPXCHG_USER,		\
			  UKADDR_DIR_BOTH)

#include <asm/uaccess_kaddr.h>

/* How a check calls the reporter: an ordinary call unless the arch knows better. */
#ifndef UACCESS_KADDR_REPORTER
#define UACCESS_KADDR_REPORTER
#define arch_uaccess_kaddr_report(fn, ptr, size, how)	fn(ptr, size, how)
#endif

#ifdef CONFIG_DEBUG_UACCESS_KADDR

#include <linux/jump_label.h>

struct pt_regs;

DECLARE_STATIC_KEY_FALSE(uaccess_kaddr_enabled);
extern bool uaccess_kaddr_allow_access;

UACCESS_KADDR_REPORTER
void __uaccess_kaddr_precheck(const void __user *ptr, unsigned long size,
			      unsigned int how);
UACCESS_KADDR_REPORTER
void __uaccess_kaddr_precheck_ac(const void __user *ptr, unsigned long size,
				 unsigned int how);
unsigned int uaccess_kaddr_fault_class(unsigned long addr, bool known);
bool uaccess_kaddr_fault(struct pt_regs *regs, unsigned long addr,
			 unsigned long caller, unsigned int kind,
			 unsigned int how, unsigned int addr_class);
void uaccess_kaddr_rejected(void);
bool uaccess_kaddr_reports(void);
void uaccess_kaddr_any_begin(void);
void uaccess_kaddr_any_end(void);

/* Is the detector on?  For the architecture's exception fixup. */
static __always_inline bool uaccess_kaddr_on(void)
{
	return static_branch_unlikely(&uaccess_kaddr_enabled);
}

/*
 * The pre-access check of an unchecked user-access helper: with the
 * detector off it is one patched NOP; on, a few instructions inline and a
 * call only when [@ptr, @ptr + @size) reaches kernel space.  @ptr must be
 * an expression without side effects (the helpers pass their own copy).
 *
 * Returns true when the helper must fail as a failed access_ok() would
 * (-EFAULT, or its error label): only when booted with
 * uaccess_kaddr_access=fail (CONFIG_DEBUG_UACCESS_KADDR_REFUSE=y makes it
 * the default); otherwise the access goes ahead, reported.
 */
static __always_inline bool
uaccess_kaddr_refused(const void __user *ptr, unsigned long size,
		      unsigned int how)
{
	if (static_branch_unlikely(&uaccess_kaddr_enabled) &&
	    unlikely(arch_uaccess_kaddr_bad(ptr, size))) {
		arch_uaccess_kaddr_report(__uaccess_kaddr_precheck, ptr, size,
					  how);
		return !READ_ONCE(uaccess_kaddr_allow_access);
	}
	return false;
}

/* The same inside a user_access_begin() region, where AC is set. */
static __always_inline bool
uaccess_kaddr_refused_ac(const void __user *ptr, unsigned long size,
			 unsigned int how)
{
	if (static_branch_unlikely(&uaccess_kaddr_enabled) &&
	    unlikely(arch_uaccess_kaddr_bad(ptr, size))) {
		arch_uaccess_kaddr_report(__uaccess_kaddr_precheck_ac, ptr,
					  size, how);
		return !READ_ONCE(uaccess_kaddr_allow_access);
	}
	return false;
}

#else

static __always_inline bool uaccess_kaddr_on(void)
{
	return false;
}

static inline bool uaccess_kaddr_reports(void)
{
	return false;
}

static __always_inline void uaccess_kaddr_any_begin(void)
{
}

static __always_inline void uaccess_kaddr_any_end(void)
{
}

static __always_inline bool
uaccess_kaddr_refused(const void __user *ptr, unsigned long size,
		      unsigned int how)
{
	return false;
}

static __always_inline bool
uaccess_kaddr_refused_ac(const void __user *ptr, unsigned long size,
			 unsigned int how)
{
	return false;
}

#endif /* CONFIG_DEBUG_UACCESS_KADDR */

#endif /* _LINUX_UACCESS_KADDR_H */
