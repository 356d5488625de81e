/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One function per user-access helper, each making one access through that
 * helper at an address chosen by the caller.  Shared by the KUnit suite and
 * the debugfs test module (lib/test_uaccess_kaddr.c), which feed them kernel,
 * non-canonical and user addresses and check what the detector reports.
 *
 * Each trigger is noinline so that it is the call site a report names.
 * @p is the address under test; @upage is a valid user page, needed to open
 * a user_access_begin() region for the unsafe_*() accessors (the
 * CVE-2017-5123 pattern: one pointer checked, another one used).  Triggers
 * that write (@writes) only ever get addresses of test-owned buffers.
 */
#ifndef _MM_UACCESS_KADDR_TEST_TRIGGERS_H
#define _MM_UACCESS_KADDR_TEST_TRIGGERS_H

#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uaccess_kaddr.h>
#include <asm/futex.h>
#ifndef MODULE
#include <net/checksum.h>
#endif

#define UK_TRIGGER_LEN	16

struct uk_trigger {
	const char *name;
	int (*fn)(void __user *p, void __user *upage);
	/* The report the detector owes, or 0 for a helper that checks. */
	unsigned int helper;
	unsigned int dir;
	/* What the fault detector alone can tell of the helper. */
	unsigned int fault_helper;
	bool writes;
	/* No pre-access check: only its faults are seen. */
	bool fault_only;
	/* Takes kernel pointers by design (kernel_nofault): no user page. */
	bool kernel_ptr;
	/* @p is a copy's kernel side: for the test module alone (dmesg.t). */
	bool kernel_operand;
};

static noinline int uk_trigger_get_user(void __user *p, void __user *upage)
{
	u64 v;

	return __get_user(v, (u64 __user *)p);
}

static noinline int uk_trigger_put_user(void __user *p, void __user *upage)
{
	return __put_user(0x5a5a5a5a5a5a5a5aULL, (u64 __user *)p);
}

static noinline int uk_trigger_copy_from_user(void __user *p,
					      void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return __copy_from_user(buf, p, sizeof(buf)) ? -EFAULT : 0;
}

static noinline int uk_trigger_copy_to_user(void __user *p, void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	memset(buf, 0x5a, sizeof(buf));
	return __copy_to_user(p, buf, sizeof(buf)) ? -EFAULT : 0;
}

static noinline int uk_trigger_copy_from_user_inatomic(void __user *p,
						       void __user *upage)
{
	char buf[UK_TRIGGER_LEN];
	unsigned long left;

	pagefault_disable();
	left = __copy_from_user_inatomic(buf, p, sizeof(buf));
	pagefault_enable();
	return left ? -EFAULT : 0;
}

static noinline int uk_trigger_copy_to_user_inatomic(void __user *p,
						     void __user *upage)
{
	char buf[UK_TRIGGER_LEN];
	unsigned long left;

	memset(buf, 0x5a, sizeof(buf));
	pagefault_disable();
	left = __copy_to_user_inatomic(p, buf, sizeof(buf));
	pagefault_enable();
	return left ? -EFAULT : 0;
}

static noinline int uk_trigger_clear_user(void __user *p, void __user *upage)
{
	return __clear_user(p, UK_TRIGGER_LEN) ? -EFAULT : 0;
}

static noinline int uk_trigger_unsafe_get_user(void __user *p,
					       void __user *upage)
{
	u64 v;

	if (!user_access_begin(upage, sizeof(v)))
		return -EFAULT;
	unsafe_get_user(v, (u64 __user *)p, efault);
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

static noinline int uk_trigger_unsafe_put_user(void __user *p,
					       void __user *upage)
{
	if (!user_access_begin(upage, sizeof(u64)))
		return -EFAULT;
	unsafe_put_user(0x5a5a5a5a5a5a5a5aULL, (u64 __user *)p, efault);
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

static noinline int uk_trigger_unsafe_copy_to_user(void __user *p,
						   void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	memset(buf, 0x5a, sizeof(buf));
	if (!user_access_begin(upage, sizeof(buf)))
		return -EFAULT;
	unsafe_copy_to_user(p, buf, sizeof(buf), efault);
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

static noinline int uk_trigger_unsafe_cmpxchg_user(void __user *p,
						   void __user *upage)
{
	u64 old = 0, new = 0x5a;	/* fits every size the macro expands */

	if (!user_access_begin(upage, sizeof(old)))
		return -EFAULT;
	unsafe_try_cmpxchg_user((u64 __user *)p, &old, new, efault);
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

/*
 * copy_user_generic() takes two kernel-typed pointers and cannot know which
 * one is the user's: it has no pre-access check, only the fault detector.
 */
static noinline int uk_trigger_copy_user_generic(void __user *p,
						 void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return copy_user_generic(buf, (__force void *)p, sizeof(buf)) ?
		-EFAULT : 0;
}

/*
 * A copy from the user page whose kernel destination is @p: a fault there
 * is a kernel bug of another kind (KASAN's, or the fixup's own warning of
 * a #GP, once per boot), never a report.
 */
static noinline int uk_trigger_copy_to_kernel_operand(void __user *p,
						      void __user *upage)
{
	return raw_copy_from_user((__force void *)p, upage, UK_TRIGGER_LEN) ?
		-EFAULT : 0;
}

#ifndef MODULE
/* masked_user_access_begin() inside: checked. */
static noinline int uk_trigger_checked_flushcache(void __user *p,
						  void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return copy_from_user_flushcache(buf, p, sizeof(buf)) ? -EFAULT : 0;
}

/* user_access_begin() inside: checked. */
static noinline int uk_trigger_checked_csum_copy_from_user(void __user *p,
							   void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return csum_and_copy_from_user(p, buf, sizeof(buf)) ? 0 : -EFAULT;
}
#endif

/* The checked helpers: a kernel pointer here is bad input, not a bug. */
static noinline int uk_trigger_checked_get_user(void __user *p,
						void __user *upage)
{
	u64 v;

	return get_user(v, (u64 __user *)p);
}

static noinline int uk_trigger_checked_put_user(void __user *p,
						void __user *upage)
{
	return put_user(0x5a5a5a5a5a5a5a5aULL, (u64 __user *)p);
}

static noinline int uk_trigger_checked_copy_from_user(void __user *p,
						      void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return copy_from_user(buf, p, sizeof(buf)) ? -EFAULT : 0;
}

static noinline int uk_trigger_checked_copy_to_user(void __user *p,
						    void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	memset(buf, 0x5a, sizeof(buf));
	return copy_to_user(p, buf, sizeof(buf)) ? -EFAULT : 0;
}

static noinline int uk_trigger_checked_clear_user(void __user *p,
						  void __user *upage)
{
	return clear_user(p, UK_TRIGGER_LEN) ? -EFAULT : 0;
}

static noinline int uk_trigger_checked_strncpy_from_user(void __user *p,
							 void __user *upage)
{
	char buf[UK_TRIGGER_LEN];
	long n = strncpy_from_user(buf, p, sizeof(buf));

	return n < 0 ? n : 0;
}

static noinline int uk_trigger_checked_strnlen_user(void __user *p,
						    void __user *upage)
{
	return strnlen_user(p, UK_TRIGGER_LEN) ? 0 : -EFAULT;
}

/* mask_user_address() inside: a kernel pointer becomes all ones. */
static noinline int uk_trigger_checked_nontemporal(void __user *p,
						   void __user *upage)
{
	char buf[UK_TRIGGER_LEN];
	int left;

	pagefault_disable();
	left = copy_from_user_inatomic_nontemporal(buf, p, sizeof(buf));
	pagefault_enable();
	return left ? -EFAULT : 0;
}

/* The futex operations run user_access_begin() themselves. */
static noinline int uk_trigger_checked_futex_cmpxchg(void __user *p,
						     void __user *upage)
{
	u32 val;
	int ret;

	pagefault_disable();
	ret = futex_atomic_cmpxchg_inatomic(&val, p, 0, 0);
	pagefault_enable();
	return ret;
}

static noinline int uk_trigger_checked_futex_op(void __user *p,
						void __user *upage)
{
	int old, ret;

	pagefault_disable();
	ret = arch_futex_atomic_op_inuser(FUTEX_OP_ADD, 0, &old, p);
	pagefault_enable();
	return ret;
}

/*
 * Scoped user access and the helpers built on it: a kernel pointer is
 * masked to the guard page below the kernel half (or refused by
 * user_access_begin() where masking is not available), so the access
 * inside the scope faults there: checked.  The error label must lie
 * outside the scope, which ends the access on the way out.
 */
static noinline int uk_trigger_checked_get_user_inline(void __user *p,
						       void __user *upage)
{
	u64 v;

	return get_user_inline(v, (u64 __user *)p);
}

static noinline int uk_trigger_checked_put_user_inline(void __user *p,
						       void __user *upage)
{
	return put_user_inline(0x5a5a5a5a5a5a5a5aULL, (u64 __user *)p);
}

static noinline int uk_trigger_checked_scoped_read(void __user *p,
						   void __user *upage)
{
	u64 __user *up = p;
	u64 v;

	scoped_user_read_access(up, efault)
		unsafe_get_user(v, up, efault);
	return 0;
efault:
	return -EFAULT;
}

static noinline int uk_trigger_checked_scoped_write(void __user *p,
						    void __user *upage)
{
	u64 __user *up = p;

	scoped_user_write_access(up, efault)
		unsafe_put_user(0x5a5a5a5a5a5a5a5aULL, up, efault);
	return 0;
efault:
	return -EFAULT;
}

/* As filldir() and put_cmsg(): a copy inside a write scope. */
static noinline int uk_trigger_checked_scoped_copy_to_user(void __user *p,
							   void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	memset(buf, 0x5a, sizeof(buf));
	scoped_user_write_access_size(p, sizeof(buf), efault)
		unsafe_copy_to_user(p, buf, sizeof(buf), efault);
	return 0;
efault:
	return -EFAULT;
}

/* As the futex and rseq paths: read and write in one scope. */
static noinline int uk_trigger_checked_scoped_rw(void __user *p,
						 void __user *upage)
{
	u64 __user *up = p;
	u64 v;

	scoped_user_rw_access(up, efault) {
		unsafe_get_user(v, up, efault);
		unsafe_put_user(v, up, efault);
	}
	return 0;
efault:
	return -EFAULT;
}

/* As strncpy_from_user() and strnlen_user(): masking, then unsafe_*(). */
static noinline int uk_trigger_checked_masked_access(void __user *p,
						     void __user *upage)
{
	u64 __user *up = p;
	u64 v;

	if (can_do_masked_user_access())
		up = masked_user_access_begin(up);
	else if (!user_read_access_begin(up, sizeof(v)))
		return -EFAULT;
	unsafe_get_user(v, up, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/* The kernel_nofault helpers share the user-access asm on purpose. */
static noinline int uk_trigger_nofault_read(void __user *p, void __user *upage)
{
	char buf[UK_TRIGGER_LEN];

	return copy_from_kernel_nofault(buf, (__force void *)p, sizeof(buf));
}

static noinline int uk_trigger_nofault_write(void __user *p,
					     void __user *upage)
{
	u64 v = 0x5a5a5a5a5a5a5a5aULL;

	/* As copy_to_kernel_nofault(): never at a user address (SMAP). */
	if ((__force long)p >= 0)
		return -ERANGE;
	pagefault_disable();
	__put_kernel_nofault((__force void *)p, &v, u64, efault);
	pagefault_enable();
	return 0;
efault:
	pagefault_enable();
	return -EFAULT;
}

#define UK_UNCHECKED(_name, _helper, _dir, _fault_helper, _writes) {	\
	.name = #_name,							\
	.fn = uk_trigger_##_name,					\
	.helper = UKADDR_HELPER_##_helper,			\
	.dir = UKADDR_DIR_##_dir,				\
	.fault_helper = UKADDR_HELPER_##_fault_helper,		\
	.writes = _writes,						\
}

#define UK_CHECKED(_name, _writes) {					\
	.name = #_name,							\
	.fn = uk_trigger_##_name,					\
	.writes = _writes,						\
}

#define UK_KERNEL_PTR(_name, _writes) {					\
	.name = #_name,							\
	.fn = uk_trigger_##_name,					\
	.writes = _writes,						\
	.kernel_ptr = true,						\
}

static const struct uk_trigger uk_triggers[] = {
	UK_UNCHECKED(get_user, GET_USER, FROM_USER, GET_USER, false),
	UK_UNCHECKED(put_user, PUT_USER, TO_USER, PUT_USER, true),
	UK_UNCHECKED(copy_from_user, COPY_FROM_USER, FROM_USER,
		     COPY_USER_GENERIC, false),
	UK_UNCHECKED(copy_to_user, COPY_TO_USER, TO_USER,
		     COPY_USER_GENERIC, true),
	UK_UNCHECKED(copy_from_user_inatomic, COPY_FROM_USER, FROM_USER,
		     COPY_USER_GENERIC, false),
	UK_UNCHECKED(copy_to_user_inatomic, COPY_TO_USER, TO_USER,
		     COPY_USER_GENERIC, true),
	UK_UNCHECKED(clear_user, CLEAR_USER, TO_USER, CLEAR_USER, true),
	UK_UNCHECKED(unsafe_get_user, UNSAFE_GET_USER, FROM_USER, UNKNOWN,
		     false),
	UK_UNCHECKED(unsafe_put_user, UNSAFE_PUT_USER, TO_USER, UNKNOWN, true),
	UK_UNCHECKED(unsafe_copy_to_user, UNSAFE_COPY_TO_USER, TO_USER,
		     UNKNOWN, true),
	UK_UNCHECKED(unsafe_cmpxchg_user, CMPXCHG_USER, BOTH, UNKNOWN, true),
	{
		.name = "copy_user_generic",
		.fn = uk_trigger_copy_user_generic,
		.helper = UKADDR_HELPER_COPY_USER_GENERIC,
		.dir = UKADDR_DIR_FROM_USER,
		.fault_helper = UKADDR_HELPER_COPY_USER_GENERIC,
		.fault_only = true,
	},
	{
		.name = "copy_to_kernel_operand",
		.fn = uk_trigger_copy_to_kernel_operand,
		.writes = true,
		.kernel_operand = true,
	},
#ifndef MODULE
	UK_CHECKED(checked_csum_copy_from_user, false),
	UK_CHECKED(checked_flushcache, false),
#endif
	UK_CHECKED(checked_nontemporal, false),
	UK_CHECKED(checked_futex_cmpxchg, true),
	UK_CHECKED(checked_futex_op, true),
	UK_CHECKED(checked_get_user_inline, false),
	UK_CHECKED(checked_put_user_inline, true),
	UK_CHECKED(checked_scoped_read, false),
	UK_CHECKED(checked_scoped_write, true),
	UK_CHECKED(checked_scoped_copy_to_user, true),
	UK_CHECKED(checked_scoped_rw, true),
	UK_CHECKED(checked_masked_access, false),
	UK_CHECKED(checked_get_user, false),
	UK_CHECKED(checked_put_user, true),
	UK_CHECKED(checked_copy_from_user, false),
	UK_CHECKED(checked_copy_to_user, true),
	UK_CHECKED(checked_clear_user, true),
	UK_CHECKED(checked_strncpy_from_user, false),
	UK_CHECKED(checked_strnlen_user, false),
	UK_KERNEL_PTR(nofault_read, false),
	UK_KERNEL_PTR(nofault_write, true),
};

enum uk_class {
	UK_KERNEL_UNMAPPED,
	UK_KERNEL_KMALLOC,
	UK_KERNEL_STACK,
	UK_KERNEL_TEXT,
	UK_NONCANONICAL,
	UK_NONCANONICAL_LOW,
	UK_GUARD_PAGE,
	UK_ALL_ONES,
	UK_USER_VALID,
	UK_USER_FAULTING,
	UK_NR_CLASSES,
};

static const char * const uk_class_names[] = {
	[UK_KERNEL_UNMAPPED] = "kernel-unmapped",
	[UK_KERNEL_KMALLOC] = "kernel-kmalloc",
	[UK_KERNEL_STACK] = "kernel-stack",
	[UK_KERNEL_TEXT] = "kernel-text",
	[UK_NONCANONICAL] = "noncanonical",
	[UK_NONCANONICAL_LOW] = "noncanonical-low",
	[UK_GUARD_PAGE] = "guard-page",
	[UK_ALL_ONES] = "all-ones",
	[UK_USER_VALID] = "user-valid",
	[UK_USER_FAULTING] = "user-faulting",
};

/* Buffers that the address classes point into. */
struct uk_buffers {
	void *vbuf;		/* vmalloc'ed page: the page after it is a guard */
	void *kbuf;		/* kmalloc'ed, at least UK_TRIGGER_LEN bytes */
	void __user *upage;	/* a valid user page */
};

/* The address of @class; @stack is a buffer on the caller's stack. */
static inline void __user *uk_class_addr(const struct uk_buffers *b,
					 enum uk_class class, void *stack)
{
	switch (class) {
	case UK_KERNEL_UNMAPPED:
		return (void __user *)(b->vbuf + PAGE_SIZE);
	case UK_KERNEL_KMALLOC:
		return (void __user *)b->kbuf;
	case UK_KERNEL_STACK:
		return (void __user *)stack;
	case UK_KERNEL_TEXT:
		return (void __user *)uk_trigger_get_user;
	case UK_NONCANONICAL:
		/*
		 * LIST_POISON1: kernel half, non-canonical with either paging,
		 * and not in the page just above the lower half, which
		 * ex_handler_uaccess() lets pass as a user pointer plus an
		 * offset.
		 */
		return (void __user *)0xdead000000000100UL;
	case UK_NONCANONICAL_LOW:	/* user space with 5-level paging */
		return (void __user *)0x0080000000000000UL;
	case UK_GUARD_PAGE:
		return (void __user *)TASK_SIZE_MAX;
	case UK_ALL_ONES:
		return (void __user *)-(long)UK_TRIGGER_LEN;
	case UK_USER_VALID:
		return b->upage;
	case UK_USER_FAULTING:
		return (void __user *)(16 * PAGE_SIZE);	/* below mmap_min_addr */
	default:
		return NULL;
	}
}

#endif /* _MM_UACCESS_KADDR_TEST_TRIGGERS_H */
