/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_UACCESS_KADDR_H
#define _ASM_X86_UACCESS_KADDR_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/asm.h>

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

/*
 * The reporter saves every register it uses, and the checks call it from
 * an asm statement that clobbers none and takes its operands in any
 * register: it saves the argument registers on the stack and loads them
 * through it, so that no value has to move out of their way.  The check
 * then costs the code around it nothing (no spill, no saved register in
 * the prologue, no copy into or out of %rdi, %rsi, %rdx) but the patched
 * NOP; the moves are on the reporting path only.  The operands are never
 * memory (an %rsp-relative one would be read after the pushes); each is
 * read before any register it may sit in is overwritten: @ptr and @size
 * are pushed first, @how goes into %edx before %rsi and %rdi are popped.  The
 * reporter is notrace too: an ftrace entry call would run before the
 * registers are saved.  Compilers without the attribute get an ordinary
 * call.
 */
#if __has_attribute(__no_caller_saved_registers__)
#define UACCESS_KADDR_REPORTER	__no_caller_saved_registers

#define arch_uaccess_kaddr_report(fn, ptr, size, how)			\
({									\
	asm volatile("push %%rdi\n\t"					\
		     "push %%rsi\n\t"					\
		     "push %%rdx\n\t"					\
		     "push %[p]\n\t"					\
		     "push %[s]\n\t"					\
		     "mov %[h], %%edx\n\t"				\
		     "pop %%rsi\n\t"					\
		     "pop %%rdi\n\t"					\
		     "call " #fn "\n\t"					\
		     "pop %%rdx\n\t"					\
		     "pop %%rsi\n\t"					\
		     "pop %%rdi"						\
		     : ASM_CALL_CONSTRAINT				\
		     : [p] "r" ((__force unsigned long)(ptr)),		\
		       [s] "re" ((unsigned long)(size)),		\
		       [h] "ri" ((unsigned int)(how))			\
		     : "memory");					\
})
#endif

struct pt_regs;

/* What the fault detector leaves the user-access exception fixup to do. */
enum uaccess_kaddr_fixup {
	UACCESS_KADDR_FIXUP,		/* fix up, warning as without the detector */
	UACCESS_KADDR_FIXUP_QUIET,	/* fix up: the detector reported the fault */
	UACCESS_KADDR_NO_FIXUP,		/* none: the fault is KFENCE's to see */
};

/*
 * The fault detector, called from the user-access fixups with the type and
 * immediate of their exception table entry.  UACCESS_KADDR_NO_FIXUP when a
 * copy faulted on its kernel operand at an address that KFENCE guards.
 */
enum uaccess_kaddr_fixup
uaccess_kaddr_x86_fault(struct pt_regs *regs, int trapnr,
			unsigned long error_code, unsigned long fault_addr,
			int type, int imm);

#endif /* _ASM_X86_UACCESS_KADDR_H */
