/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_UACCESS_KADDR_H
#define _ASM_X86_UACCESS_KADDR_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Does an access to [ptr, ptr + size) reach kernel memory?
 *
 * Only bit 63 of the start is tested: "test; js", the same with 4- and
 * 5-level paging.  Every user-access helper goes through its range in
 * ascending order, and between the user half and the kernel half lie the
 * guard page above TASK_SIZE_MAX and the non-canonical hole: a range that
 * starts in user space faults there (#PF, or #GP which the fault detector
 * reports) before it can touch kernel memory, so its size need not be
 * looked at.  The checked helpers clamp bad pointers to USER_PTR_MAX, in
 * the guard page below bit 63, so they never trip the test.
 */
static __always_inline bool arch_uaccess_kaddr_bad(const void __user *ptr,
						   unsigned long size)
{
	return (long)(__force unsigned long)ptr < 0;
}

struct pt_regs;

/* The fault detector, called from the EX_TYPE_UACCESS fixup. */
void uaccess_kaddr_x86_fault(struct pt_regs *regs, int trapnr,
			     unsigned long error_code,
			     unsigned long fault_addr);

#endif /* _ASM_X86_UACCESS_KADDR_H */
