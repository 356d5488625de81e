// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 side of uaccess_kaddr's fault detector.
 *
 * Called from the user-access fixups (only when the detector is on) with
 * the type and immediate of their exception table entry, which say all
 * that is known of the access without looking up a symbol:
 *  - EX_TYPE_UACCESS_CHECKED: a checked get_user()/put_user() leaf, which
 *    clamps or masks what it is given, or a copy whose callers check or
 *    mask the user pointer or copy kernel to kernel (the checksum and
 *    non-temporal copies): a fault there is bad input, or on a kernel
 *    operand, which KFENCE is handed when it guards it;
 *  - EX_TYPE_UACCESS_LEAF: an unchecked out-of-line leaf (the immediate
 *    says which); it has pushed nothing, so its caller is on top of the
 *    stack;
 *  - EX_TYPE_UACCESS_LEAF_RETRY: the same, where the fixup retries the
 *    access byte by byte: the retry faults again and is the one reported;
 *  - EX_TYPE_UACCESS, EX_TYPE_UCOPY_LEN, EX_TYPE_UACCESS_IMM_REG: an
 *    inlined access, at its call site.
 * It works out the helper and the direction of the access, decoding the
 * instruction where the exception table does not say, and hands the hit
 * to the core, which ignores user addresses and the pointers that the
 * checked helpers clamp.
 */

#include <linux/kfence.h>
#include <linux/uaccess.h>
#include <linux/uaccess_kaddr.h>
#include <asm/extable_fixup_types.h>
#include <asm/insn.h>
#include <asm/insn-eval.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>

static const unsigned int uk_leaf_how[] = {
	[EX_UACCESS_LEAF_GET_USER] = UACCESS_KADDR_GET_USER,
	[EX_UACCESS_LEAF_PUT_USER] = UACCESS_KADDR_PUT_USER,
	[EX_UACCESS_LEAF_COPY] =
		UACCESS_KADDR_HOW(UKADDR_HELPER_COPY_USER_GENERIC, 0),
	[EX_UACCESS_LEAF_CLEAR] = UACCESS_KADDR_CLEAR_USER,
};

/*
 * The direction of the access that took a #GP, from its instruction: a
 * string instruction reads through rsi and writes through rdi.  0 when
 * the instruction does not say.
 */
static unsigned int uk_gp_dir(struct pt_regs *regs, struct insn *insn,
			      unsigned long addr)
{
	if (insn_is_string(insn)) {
		switch (insn->opcode.bytes[0]) {
		case 0xaa ... 0xab:	/* stos */
			return UKADDR_DIR_TO_USER;
		case 0xa4 ... 0xa5:	/* movs */
			return addr == regs->si ? UKADDR_DIR_FROM_USER :
						  UKADDR_DIR_TO_USER;
		}
		return 0;
	}
	switch (insn->opcode.bytes[0]) {
	case 0x88 ... 0x89:	/* mov to memory */
	case 0xc6 ... 0xc7:
		return UKADDR_DIR_TO_USER;
	case 0x8a ... 0x8b:	/* mov from memory */
		return UKADDR_DIR_FROM_USER;
	case 0x0f:
		if (insn->opcode.bytes[1] == 0xb0 || insn->opcode.bytes[1] == 0xb1)
			return UKADDR_DIR_BOTH;		/* cmpxchg */
		return UKADDR_DIR_FROM_USER;		/* movzx, movsx */
	}
	return 0;
}

/*
 * Is @addr in the user half?  Bit 63 says, as the pre-access check tests
 * it, not TASK_SIZE_MAX: a LAM-tagged user pointer lies above TASK_SIZE_MAX.
 */
static bool uk_user_half(unsigned long addr)
{
	return (long)addr >= 0;
}

/*
 * A copy between two registers' worth of memory (rep_movs_alternative,
 * inlined rep movsb) has a user and a kernel operand, %rsi and %rdi in
 * either order.  A #PF writes through %rdi and reads through %rsi; when
 * the other operand is a user address, the fault was on the kernel side:
 * a kernel bug of another kind (a vmalloc guard page, a read-only
 * destination, a KFENCE-guarded object), not a kernel address handed to a
 * user-access helper.
 */
static bool uk_copy_kernel_operand(struct pt_regs *regs,
				   unsigned long error_code)
{
	unsigned long other = error_code & X86_PF_WRITE ? regs->si : regs->di;

	return uk_user_half(other);
}

/*
 * The same for a #GP, which says neither direction nor operand: a #GP on a
 * kernel-half address while one operand is in the user half was on the
 * kernel operand (a corrupt kernel pointer, which KASAN checks), since a
 * user-half operand that faults is the lower-half address itself.
 */
static bool uk_copy_gp_kernel_operand(struct pt_regs *regs,
				      unsigned long addr)
{
	return !uk_user_half(addr) &&
	       (uk_user_half(regs->si) || uk_user_half(regs->di));
}

enum uaccess_kaddr_fixup
uaccess_kaddr_x86_fault(struct pt_regs *regs, int trapnr,
			unsigned long error_code, unsigned long fault_addr,
			int type, int imm)
{
	unsigned long caller = regs->ip;
	unsigned int how = 0, dir = 0, kind, class = 0;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	bool decoded;

	if (trapnr != X86_TRAP_PF && trapnr != X86_TRAP_GP)
		return UACCESS_KADDR_FIXUP;
	/* A #GP with an error code is about a segment, not an address. */
	if (trapnr == X86_TRAP_GP && error_code)
		return UACCESS_KADDR_FIXUP;
	/* The retry faults again, at the same address, and decides. */
	if (type == EX_TYPE_UACCESS_LEAF_RETRY)
		return UACCESS_KADDR_FIXUP_QUIET;
	if (type == EX_TYPE_UACCESS_CHECKED) {
		if (trapnr == X86_TRAP_PF && is_kfence_address((void *)fault_addr))
			return UACCESS_KADDR_NO_FIXUP;
		/* A #GP in a user access is a non-canonical address. */
		if (trapnr == X86_TRAP_GP || fault_addr >= TASK_SIZE_MAX)
			uaccess_kaddr_rejected();
		return UACCESS_KADDR_FIXUP;
	}

	if (type == EX_TYPE_UACCESS_LEAF) {
		if (imm > 0 && imm < ARRAY_SIZE(uk_leaf_how))
			how = uk_leaf_how[imm];
		caller = *(unsigned long *)regs->sp;
	}

	/*
	 * A #PF knows its address: the faults that are not reported (user
	 * addresses, clamped pointers) return before the instruction is
	 * decoded.
	 */
	if (trapnr == X86_TRAP_PF) {
		class = uaccess_kaddr_fault_class(fault_addr, true);
		if (!class)
			return UACCESS_KADDR_FIXUP;
	}

	decoded = !copy_from_kernel_nofault(buf, (void *)regs->ip, sizeof(buf)) &&
		  !insn_decode_kernel(&insn, buf);
	if (!how && decoded && insn_is_string(&insn)) {
		switch (insn.opcode.bytes[0]) {
		case 0xa4:	/* inline rep movsb: copy_user_generic() */
		case 0xa5:
			how = uk_leaf_how[EX_UACCESS_LEAF_COPY];
			break;
		case 0xaa:	/* inline rep stosb: __clear_user() */
		case 0xab:
			how = UACCESS_KADDR_CLEAR_USER;
			break;
		}
	}

	if (trapnr == X86_TRAP_PF) {
		kind = UKADDR_KIND_FAULT;
		if (UACCESS_KADDR_HOW_HELPER(how) ==
			    UKADDR_HELPER_COPY_USER_GENERIC &&
		    uk_copy_kernel_operand(regs, error_code))
			return is_kfence_address((void *)fault_addr) ?
			       UACCESS_KADDR_NO_FIXUP : UACCESS_KADDR_FIXUP;
		dir = error_code & X86_PF_WRITE ?
			UKADDR_DIR_TO_USER :
			UKADDR_DIR_FROM_USER;
	} else {
		kind = UKADDR_KIND_GP;
		/*
		 * exc_general_protection() decoded the non-canonical address.
		 * When it could not, the user access still went to one: it is
		 * reported at address 0 rather than lost.
		 */
		if (fault_addr && UACCESS_KADDR_HOW_HELPER(how) ==
				  UKADDR_HELPER_COPY_USER_GENERIC &&
		    uk_copy_gp_kernel_operand(regs, fault_addr))
			return UACCESS_KADDR_FIXUP;
		if (decoded && fault_addr)
			dir = uk_gp_dir(regs, &insn, fault_addr);
		class = uaccess_kaddr_fault_class(fault_addr, fault_addr != 0);
		if (!class)
			return UACCESS_KADDR_FIXUP;
	}

	if (!how)
		how = UACCESS_KADDR_HOW(UKADDR_HELPER_UNKNOWN, 0);
	if (!UACCESS_KADDR_HOW_DIR(how))
		how |= UACCESS_KADDR_HOW(0, dir);

	if (uaccess_kaddr_fault(regs, fault_addr, caller, kind, how, class))
		return UACCESS_KADDR_FIXUP_QUIET;
	return UACCESS_KADDR_FIXUP;
}
