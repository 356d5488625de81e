/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_UACCESS_KADDR_H
#define _ASM_X86_UACCESS_KADDR_H

#include <linux/compiler.h>
#include <linux/sizes.h>
#include <linux/types.h>

/*
 * Does [ptr, ptr + size) reach the kernel half of the address space?
 *
 * Only bit 63 is tested, for the start, the end and the size, so the test
 * is overflow-safe and the same with 4- and 5-level paging.  The checked
 * helpers clamp bad pointers to USER_PTR_MAX, in the guard page below bit
 * 63, so they never trip it.  A non-canonical address in the lower half
 * cannot be reached either: it raises #GP, which the fault detector sees.
 *
 * A size known at compile time is small (the accessors, fixed-size
 * copies): a range that starts below bit 63 and ends above it starts in
 * the non-canonical hole, and its first byte raises #GP.  The start alone
 * is tested then, one instruction less on every access: "test; js".
 */
static __always_inline bool arch_uaccess_kaddr_bad(const void __user *ptr,
						   unsigned long size)
{
	unsigned long addr = (__force unsigned long)ptr;

	if (__builtin_constant_p(size) && size <= SZ_1G)
		return (long)addr < 0;
	return (long)(addr | size | (addr + size)) < 0;
}

struct pt_regs;

/* The fault detector, called from the EX_TYPE_UACCESS fixup. */
void uaccess_kaddr_x86_fault(struct pt_regs *regs, int trapnr,
			     unsigned long error_code,
			     unsigned long fault_addr);

#endif /* _ASM_X86_UACCESS_KADDR_H */
