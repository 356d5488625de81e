// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 side of uaccess_kaddr's fault detector.
 *
 * Called from the user-access fixups (EX_TYPE_UACCESS, EX_TYPE_UCOPY_LEN,
 * EX_TYPE_UACCESS_IMM_REG; only when the detector is on):
 * works out which address faulted, decoding the instruction for a #GP,
 * which reports no address; which helper made the access and who called
 * it; and hands the hit to the core, which ignores user addresses and the
 * pointers that the checked helpers clamp.
 */

#include <linux/kallsyms.h>
#include <linux/uaccess.h>
#include <linux/uaccess_kaddr.h>
#include <asm/insn.h>
#include <asm/insn-eval.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>

/*
 * The out-of-line helpers.  None of them has pushed anything when it
 * faults, so its caller is the return address on top of the stack.  The
 * checked get_user()/put_user() leaves clamp or mask what they are given;
 * a fault there is bad input (put_user() does not mask a lower-half
 * non-canonical pointer: it raises #GP), counted as rejected.
 */
static const struct {
	const void *fn;
	unsigned int how;
	bool checked;
} uk_leaves[] = {
	{ __get_user_1, UACCESS_KADDR_GET_USER, true },
	{ __get_user_2, UACCESS_KADDR_GET_USER, true },
	{ __get_user_4, UACCESS_KADDR_GET_USER, true },
	{ __get_user_8, UACCESS_KADDR_GET_USER, true },
	{ __get_user_nocheck_1, UACCESS_KADDR_GET_USER },
	{ __get_user_nocheck_2, UACCESS_KADDR_GET_USER },
	{ __get_user_nocheck_4, UACCESS_KADDR_GET_USER },
	{ __get_user_nocheck_8, UACCESS_KADDR_GET_USER },
	{ __put_user_1, UACCESS_KADDR_PUT_USER, true },
	{ __put_user_2, UACCESS_KADDR_PUT_USER, true },
	{ __put_user_4, UACCESS_KADDR_PUT_USER, true },
	{ __put_user_8, UACCESS_KADDR_PUT_USER, true },
	{ __put_user_nocheck_1, UACCESS_KADDR_PUT_USER },
	{ __put_user_nocheck_2, UACCESS_KADDR_PUT_USER },
	{ __put_user_nocheck_4, UACCESS_KADDR_PUT_USER },
	{ __put_user_nocheck_8, UACCESS_KADDR_PUT_USER },
	{ rep_movs_alternative,
	  UACCESS_KADDR_HOW(UACCESS_KADDR_HELPER_COPY_USER_GENERIC, 0) },
	{ rep_stos_alternative, UACCESS_KADDR_CLEAR_USER },
};

static bool uk_noncanonical(unsigned long addr)
{
	return !__is_canonical_address(addr, __VIRTUAL_MASK_SHIFT + 1);
}

/*
 * Which address a #GP was about.  String instructions have no ModRM
 * operand to decode: their addresses are in rsi and rdi.
 */
static unsigned long uk_gp_address(struct pt_regs *regs, struct insn *insn,
				   unsigned int *dir)
{
	u8 op = insn->opcode.bytes[0];
	unsigned long addr;

	switch (op) {
	case 0x88:	/* mov to memory */
	case 0x89:
	case 0xc6:
	case 0xc7:
		*dir = UACCESS_KADDR_DIRECTION_TO_USER;
		break;
	case 0x8a:	/* mov from memory */
	case 0x8b:
		*dir = UACCESS_KADDR_DIRECTION_FROM_USER;
		break;
	case 0x0f:
		if (insn->opcode.bytes[1] == 0xb0 || insn->opcode.bytes[1] == 0xb1)
			*dir = UACCESS_KADDR_DIRECTION_BOTH;	/* cmpxchg */
		else
			*dir = UACCESS_KADDR_DIRECTION_FROM_USER; /* movzx, movsx */
		break;
	case 0xa4:	/* movs */
	case 0xa5:
		if (uk_noncanonical(regs->si)) {
			*dir = UACCESS_KADDR_DIRECTION_FROM_USER;
			return regs->si;
		}
		*dir = UACCESS_KADDR_DIRECTION_TO_USER;
		return regs->di;
	case 0xaa:	/* stos */
	case 0xab:
		*dir = UACCESS_KADDR_DIRECTION_TO_USER;
		return regs->di;
	}
	addr = (unsigned long)insn_get_addr_ref(insn, regs);
	return addr == -1UL ? 0 : addr;
}

/**
 * uaccess_kaddr_x86_fault - a user-access fixup is about to run
 * @regs: the faulting context
 * @trapnr: X86_TRAP_PF or X86_TRAP_GP (anything else is ignored)
 * @error_code: the page fault error code
 * @fault_addr: the page fault address; 0 for a #GP
 *
 * Runs in the exception context of the faulting access, which may be any
 * context; reads the faulting instruction with copy_from_kernel_nofault().
 * A #PF knows its address: the faults that are not reported (user
 * addresses, clamped pointers, the access the pre-access check just
 * reported) return before the instruction is decoded or looked up.
 */
void uaccess_kaddr_x86_fault(struct pt_regs *regs, int trapnr,
			     unsigned long error_code,
			     unsigned long fault_addr)
{
	unsigned long size, offset, start, caller = regs->ip;
	unsigned int how = 0, dir = 0, kind, class = 0, i;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	bool decoded;

	if (trapnr == X86_TRAP_PF) {
		class = uaccess_kaddr_fault_class(fault_addr, regs->ip);
		if (!class)
			return;
	} else if (trapnr != X86_TRAP_GP) {
		return;
	}

	decoded = !copy_from_kernel_nofault(buf, (void *)regs->ip, sizeof(buf)) &&
		  !insn_decode_kernel(&insn, buf);

	if (trapnr == X86_TRAP_PF) {
		kind = UACCESS_KADDR_KIND_FAULT;
		dir = error_code & X86_PF_WRITE ?
			UACCESS_KADDR_DIRECTION_TO_USER :
			UACCESS_KADDR_DIRECTION_FROM_USER;
	} else {
		kind = UACCESS_KADDR_KIND_GP;
		fault_addr = decoded ? uk_gp_address(regs, &insn, &dir) : 0;
		class = uaccess_kaddr_fault_class(fault_addr, regs->ip);
		if (!class)
			return;
	}

	if (kallsyms_lookup_size_offset(regs->ip, &size, &offset)) {
		start = regs->ip - offset;
		for (i = 0; i < ARRAY_SIZE(uk_leaves); i++) {
			if ((unsigned long)uk_leaves[i].fn == start) {
				if (uk_leaves[i].checked) {
					uaccess_kaddr_rejected();
					return;
				}
				how = uk_leaves[i].how;
				caller = *(unsigned long *)regs->sp;
				break;
			}
		}
	}
	if (!how && decoded) {
		switch (insn.opcode.bytes[0]) {
		case 0xa4:	/* inline rep movsb: copy_user_generic() */
		case 0xa5:
			how = UACCESS_KADDR_HOW(UACCESS_KADDR_HELPER_COPY_USER_GENERIC,
						0);
			break;
		case 0xaa:	/* inline rep stosb: __clear_user() */
		case 0xab:
			how = UACCESS_KADDR_CLEAR_USER;
			break;
		}
	}
	if (!how)
		how = UACCESS_KADDR_HOW(UACCESS_KADDR_HELPER_UNKNOWN, 0);
	if (!UACCESS_KADDR_HOW_DIR(how))
		how |= UACCESS_KADDR_HOW(0, dir);

	uaccess_kaddr_fault(regs, fault_addr, caller, kind, how, class);
}
