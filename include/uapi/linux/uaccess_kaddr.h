/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uaccess_kaddr.yaml */
/* YNL-GEN uapi header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _UAPI_LINUX_UACCESS_KADDR_H
#define _UAPI_LINUX_UACCESS_KADDR_H

#define UACCESS_KADDR_FAMILY_NAME	"uaccess_kaddr"
#define UACCESS_KADDR_FAMILY_VERSION	1

/**
 * enum uaccess_kaddr_mode - Operating mode, set at boot with
 *   uaccess_kaddr=off|count|report|warn (default report) or at run time with
 *   set-config.
 * @UACCESS_KADDR_MODE_OFF: Detection disabled, accesses are not checked.
 * @UACCESS_KADDR_MODE_COUNT: Count hits per site, do not emit events.
 * @UACCESS_KADDR_MODE_REPORT: Count hits, report them in the kernel log and
 *   emit events, rate-limited (the default).
 * @UACCESS_KADDR_MODE_WARN: As report, and each report taints the kernel
 *   (TAINT_WARN) and honours panic_on_warn.
 */
enum uaccess_kaddr_mode {
	UACCESS_KADDR_MODE_OFF = 1,
	UACCESS_KADDR_MODE_COUNT,
	UACCESS_KADDR_MODE_REPORT,
	UACCESS_KADDR_MODE_WARN,
};

/**
 * enum uaccess_kaddr_access - What a hit of the pre-access check does to the
 *   access, set at boot with uaccess_kaddr_access=fail|allow.
 * @UACCESS_KADDR_ACCESS_FAIL: The helper fails as a failed access_ok() would
 *   (-EFAULT, or its error label), in every mode but off.
 * @UACCESS_KADDR_ACCESS_ALLOW: The hit is reported and the access goes ahead,
 *   for reproducing what a bug did.
 */
enum uaccess_kaddr_access {
	UACCESS_KADDR_ACCESS_FAIL = 1,
	UACCESS_KADDR_ACCESS_ALLOW,
};

/**
 * enum uaccess_kaddr_kind - How a kernel address was detected.
 * @UACCESS_KADDR_KIND_FAULT: A page fault on a kernel-half address was fixed
 *   up.
 * @UACCESS_KADDR_KIND_GP: A general protection fault (non-canonical address)
 *   was fixed up.
 * @UACCESS_KADDR_KIND_PRECHECK: The pre-access check found a kernel pointer
 *   before the access.
 */
enum uaccess_kaddr_kind {
	UACCESS_KADDR_KIND_FAULT = 1,
	UACCESS_KADDR_KIND_GP,
	UACCESS_KADDR_KIND_PRECHECK,
};

/**
 * enum uaccess_kaddr_helper - User-access helper that was given the kernel
 *   address.
 * @UACCESS_KADDR_HELPER_GET_USER: The __get_user() family.
 * @UACCESS_KADDR_HELPER_PUT_USER: The __put_user() family.
 * @UACCESS_KADDR_HELPER_COPY_FROM_USER: __copy_from_user(),
 *   __copy_from_user_inatomic(), raw_copy_from_user().
 * @UACCESS_KADDR_HELPER_COPY_TO_USER: __copy_to_user(),
 *   __copy_to_user_inatomic(), raw_copy_to_user().
 * @UACCESS_KADDR_HELPER_CLEAR_USER: __clear_user().
 * @UACCESS_KADDR_HELPER_UNSAFE_GET_USER: unsafe_get_user() in a
 *   user_access_begin() region.
 * @UACCESS_KADDR_HELPER_UNSAFE_PUT_USER: unsafe_put_user() in a
 *   user_access_begin() region.
 * @UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER: unsafe_copy_to_user() in a
 *   user_access_begin() region.
 * @UACCESS_KADDR_HELPER_COPY_USER_GENERIC: A fault in the copy routine (inline
 *   rep movs or rep_movs_alternative), seen by the fault detector alone:
 *   copy_user_generic() called directly, or any copy without a pre-access
 *   report.
 * @UACCESS_KADDR_HELPER_STRNCPY_FROM_USER: strncpy_from_user() (reserved, not
 *   reported yet).
 * @UACCESS_KADDR_HELPER_STRNLEN_USER: strnlen_user() (reserved, not reported
 *   yet).
 * @UACCESS_KADDR_HELPER_FUTEX: Futex user-access operations (reserved, not
 *   reported yet).
 * @UACCESS_KADDR_HELPER_CMPXCHG_USER: unsafe_try_cmpxchg_user() and
 *   __try_cmpxchg_user().
 * @UACCESS_KADDR_HELPER_UNKNOWN: The helper could not be derived from the
 *   faulting site.
 */
enum uaccess_kaddr_helper {
	UACCESS_KADDR_HELPER_GET_USER = 1,
	UACCESS_KADDR_HELPER_PUT_USER,
	UACCESS_KADDR_HELPER_COPY_FROM_USER,
	UACCESS_KADDR_HELPER_COPY_TO_USER,
	UACCESS_KADDR_HELPER_CLEAR_USER,
	UACCESS_KADDR_HELPER_UNSAFE_GET_USER,
	UACCESS_KADDR_HELPER_UNSAFE_PUT_USER,
	UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER,
	UACCESS_KADDR_HELPER_COPY_USER_GENERIC,
	UACCESS_KADDR_HELPER_STRNCPY_FROM_USER,
	UACCESS_KADDR_HELPER_STRNLEN_USER,
	UACCESS_KADDR_HELPER_FUTEX,
	UACCESS_KADDR_HELPER_CMPXCHG_USER,
	UACCESS_KADDR_HELPER_UNKNOWN,
};

/**
 * enum uaccess_kaddr_direction - Direction of the user access.
 * @UACCESS_KADDR_DIRECTION_UNKNOWN: Not known (a gp whose instruction could
 *   not be decoded).
 * @UACCESS_KADDR_DIRECTION_FROM_USER: Read from user memory.
 * @UACCESS_KADDR_DIRECTION_TO_USER: Write to user memory (includes clearing).
 * @UACCESS_KADDR_DIRECTION_BOTH: Read-modify-write (futex, cmpxchg).
 */
enum uaccess_kaddr_direction {
	UACCESS_KADDR_DIRECTION_UNKNOWN,
	UACCESS_KADDR_DIRECTION_FROM_USER,
	UACCESS_KADDR_DIRECTION_TO_USER,
	UACCESS_KADDR_DIRECTION_BOTH,
};

/**
 * enum uaccess_kaddr_addr_class - Classification of the offending address.
 * @UACCESS_KADDR_ADDR_CLASS_USER: A user-space address (below TASK_SIZE_MAX).
 * @UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED: A canonical kernel-half address
 *   with no mapping.
 * @UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED: A canonical kernel-half address
 *   that is mapped.
 * @UACCESS_KADDR_ADDR_CLASS_NONCANONICAL: A non-canonical address.
 * @UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE: The guard page above user space, where
 *   the checked helpers clamp bad pointers (counted as rejected, never
 *   reported).
 * @UACCESS_KADDR_ADDR_CLASS_ALL_ONES: An address in the topmost page (~0UL and
 *   ERR_PTR() values).
 * @UACCESS_KADDR_ADDR_CLASS_VSYSCALL: An address in the legacy vsyscall page.
 */
enum uaccess_kaddr_addr_class {
	UACCESS_KADDR_ADDR_CLASS_USER = 1,
	UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED,
	UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED,
	UACCESS_KADDR_ADDR_CLASS_NONCANONICAL,
	UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE,
	UACCESS_KADDR_ADDR_CLASS_ALL_ONES,
	UACCESS_KADDR_ADDR_CLASS_VSYSCALL,
};

/**
 * enum uaccess_kaddr_context - Execution context in which the access happened.
 * @UACCESS_KADDR_CONTEXT_TASK: Process context.
 * @UACCESS_KADDR_CONTEXT_SOFTIRQ: Softirq context.
 * @UACCESS_KADDR_CONTEXT_HARDIRQ: Hardirq context.
 * @UACCESS_KADDR_CONTEXT_NMI: NMI context.
 */
enum uaccess_kaddr_context {
	UACCESS_KADDR_CONTEXT_TASK = 1,
	UACCESS_KADDR_CONTEXT_SOFTIRQ,
	UACCESS_KADDR_CONTEXT_HARDIRQ,
	UACCESS_KADDR_CONTEXT_NMI,
};

enum {
	UACCESS_KADDR_A_EVENT_PAD = 1,
	UACCESS_KADDR_A_EVENT_SEQ,
	UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT,
	UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL,
	UACCESS_KADDR_A_EVENT_KIND,
	UACCESS_KADDR_A_EVENT_HELPER,
	UACCESS_KADDR_A_EVENT_DIRECTION,
	UACCESS_KADDR_A_EVENT_ADDR_CLASS,
	UACCESS_KADDR_A_EVENT_ADDRESS,
	UACCESS_KADDR_A_EVENT_SIZE,
	UACCESS_KADDR_A_EVENT_SITE_ID,
	UACCESS_KADDR_A_EVENT_SITE_SYMBOL,
	UACCESS_KADDR_A_EVENT_SITE_IP,
	UACCESS_KADDR_A_EVENT_STACK,
	UACCESS_KADDR_A_EVENT_STACK_HASH,
	UACCESS_KADDR_A_EVENT_PID,
	UACCESS_KADDR_A_EVENT_TGID,
	UACCESS_KADDR_A_EVENT_COMM,
	UACCESS_KADDR_A_EVENT_UID,
	UACCESS_KADDR_A_EVENT_SYSCALL_NR,
	UACCESS_KADDR_A_EVENT_CPU,
	UACCESS_KADDR_A_EVENT_COUNT,
	UACCESS_KADDR_A_EVENT_SUPPRESSED,
	UACCESS_KADDR_A_EVENT_CONTEXT,
	UACCESS_KADDR_A_EVENT_SYSCALL_ARCH,
	UACCESS_KADDR_A_EVENT_SYSCALL_ARGS,

	__UACCESS_KADDR_A_EVENT_MAX,
	UACCESS_KADDR_A_EVENT_MAX = (__UACCESS_KADDR_A_EVENT_MAX - 1)
};

enum {
	UACCESS_KADDR_A_STACK_FRAME_PAD = 1,
	UACCESS_KADDR_A_STACK_FRAME_IP,
	UACCESS_KADDR_A_STACK_FRAME_SYMBOL,

	__UACCESS_KADDR_A_STACK_FRAME_MAX,
	UACCESS_KADDR_A_STACK_FRAME_MAX = (__UACCESS_KADDR_A_STACK_FRAME_MAX - 1)
};

enum {
	UACCESS_KADDR_A_STATUS_PAD = 1,
	UACCESS_KADDR_A_STATUS_MODE,
	UACCESS_KADDR_A_STATUS_HITS_FAULT,
	UACCESS_KADDR_A_STATUS_HITS_GP,
	UACCESS_KADDR_A_STATUS_HITS_PRECHECK,
	UACCESS_KADDR_A_STATUS_REJECTED,
	UACCESS_KADDR_A_STATUS_REPORTED,
	UACCESS_KADDR_A_STATUS_SUPPRESSED,
	UACCESS_KADDR_A_STATUS_DROPPED,
	UACCESS_KADDR_A_STATUS_SITES_USED,
	UACCESS_KADDR_A_STATUS_SITES_MAX,
	UACCESS_KADDR_A_STATUS_SITES_OVERFLOW,
	UACCESS_KADDR_A_STATUS_LAST_SEQ,
	UACCESS_KADDR_A_STATUS_RATELIMIT_INTERVAL_MS,
	UACCESS_KADDR_A_STATUS_RATELIMIT_BURST,
	UACCESS_KADDR_A_STATUS_QUEUE_LEN,
	UACCESS_KADDR_A_STATUS_ACCESS,

	__UACCESS_KADDR_A_STATUS_MAX,
	UACCESS_KADDR_A_STATUS_MAX = (__UACCESS_KADDR_A_STATUS_MAX - 1)
};

enum {
	UACCESS_KADDR_A_CONFIG_MODE = 1,
	UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS,
	UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST,

	__UACCESS_KADDR_A_CONFIG_MAX,
	UACCESS_KADDR_A_CONFIG_MAX = (__UACCESS_KADDR_A_CONFIG_MAX - 1)
};

enum {
	UACCESS_KADDR_A_SITE_PAD = 1,
	UACCESS_KADDR_A_SITE_SITE_ID,
	UACCESS_KADDR_A_SITE_SITE_IP,
	UACCESS_KADDR_A_SITE_SITE_SYMBOL,
	UACCESS_KADDR_A_SITE_KIND,
	UACCESS_KADDR_A_SITE_HELPER,
	UACCESS_KADDR_A_SITE_DIRECTION,
	UACCESS_KADDR_A_SITE_COUNT,
	UACCESS_KADDR_A_SITE_SUPPRESSED,
	UACCESS_KADDR_A_SITE_REPORTED,
	UACCESS_KADDR_A_SITE_FIRST_TIMESTAMP_BOOT,
	UACCESS_KADDR_A_SITE_LAST_TIMESTAMP_BOOT,
	UACCESS_KADDR_A_SITE_LAST_ADDRESS,
	UACCESS_KADDR_A_SITE_LAST_PID,
	UACCESS_KADDR_A_SITE_LAST_COMM,
	UACCESS_KADDR_A_SITE_STACK_HASH,

	__UACCESS_KADDR_A_SITE_MAX,
	UACCESS_KADDR_A_SITE_MAX = (__UACCESS_KADDR_A_SITE_MAX - 1)
};

enum {
	UACCESS_KADDR_CMD_GET_STATUS = 1,
	UACCESS_KADDR_CMD_SET_CONFIG,
	UACCESS_KADDR_CMD_DUMP_SITES,
	UACCESS_KADDR_CMD_RESET,
	UACCESS_KADDR_CMD_EVENT,

	__UACCESS_KADDR_CMD_MAX,
	UACCESS_KADDR_CMD_MAX = (__UACCESS_KADDR_CMD_MAX - 1)
};

#define UACCESS_KADDR_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_UACCESS_KADDR_H */
