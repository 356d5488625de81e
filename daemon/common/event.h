/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The messages of the uaccess_kaddr generic netlink family, decoded.
 *
 * include/uapi/linux/uaccess_kaddr.h is the contract with the kernel; this
 * is its userspace mirror.  One field table per message kind (event, site,
 * status) drives the parser, the text and the JSON (fields.h); the event's
 * (UK_EVENT_FIELDS below) also the journal entry and the CLI's journal
 * reader (journal_fields.h), so a new attribute is a struct member and
 * one table line.
 */
#ifndef UK_EVENT_H
#define UK_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/uaccess_kaddr.h>

#define UK_SYMBOL_LEN	128	/* KSYM_SYMBOL_LEN; longer names are cut */
#define UK_COMM_LEN	16	/* TASK_COMM_LEN */
#define UK_STACK_MAX	16	/* frames kept; the kernel sends at most 16 */
#define UK_SYSCALL_ARGS	6	/* the kernel sends six (x86-64 registers) */

/* The system call's arguments, as the task entered the kernel. */
struct uk_syscall_args {
	uint32_t nr;
	uint64_t v[UK_SYSCALL_ARGS];
};

struct uk_frame {
	uint64_t ip;
	char symbol[UK_SYMBOL_LEN];
};

/* A CMD_EVENT multicast message. */
struct uk_event {
	uint64_t present;	/* bit (1 << attr) for each attribute seen */
	uint64_t seq;
	uint64_t ts_boot;	/* ns, CLOCK_BOOTTIME */
	uint64_t ts_real;	/* ns, CLOCK_REALTIME */
	uint32_t kind;		/* enum uaccess_kaddr_kind */
	uint32_t helper;	/* enum uaccess_kaddr_helper */
	uint32_t direction;	/* enum uaccess_kaddr_direction */
	uint32_t addr_class;	/* enum uaccess_kaddr_addr_class */
	uint64_t address;
	uint64_t size;
	uint32_t site_id;
	char site_symbol[UK_SYMBOL_LEN];
	uint64_t site_ip;
	uint32_t stack_hash;
	uint32_t pid;
	uint32_t tgid;
	char comm[UK_COMM_LEN];
	uint32_t uid;
	int32_t syscall_nr;
	uint32_t cpu;
	uint64_t count;
	uint64_t suppressed;
	uint32_t context;	/* enum uaccess_kaddr_context */
	uint32_t syscall_arch;	/* AUDIT_ARCH_*: with syscall_nr >= 0 */
	struct uk_syscall_args syscall_args;	/* with syscall_nr >= 0 */
	unsigned int nr_frames;
	struct uk_frame frames[UK_STACK_MAX];
};

/* One CMD_DUMP_SITES reply message. */
struct uk_site {
	uint64_t present;
	uint32_t site_id;
	uint64_t site_ip;
	char site_symbol[UK_SYMBOL_LEN];
	uint32_t kind;
	uint32_t helper;
	uint32_t direction;
	uint64_t count;
	uint64_t suppressed;
	uint64_t reported;
	uint64_t first_ts_boot;
	uint64_t last_ts_boot;
	uint64_t last_address;
	uint32_t last_pid;
	char last_comm[UK_COMM_LEN];
	uint32_t stack_hash;
};

/* A CMD_GET_STATUS reply (also what CMD_RESET returns). */
struct uk_status {
	uint64_t present;
	uint32_t mode;		/* enum uaccess_kaddr_mode */
	uint64_t hits_fault;
	uint64_t hits_gp;
	uint64_t hits_precheck;
	uint64_t rejected;
	uint64_t reported;
	uint64_t suppressed;
	uint64_t dropped;
	uint32_t sites_used;
	uint32_t sites_max;
	uint64_t sites_overflow;
	uint64_t last_seq;
	uint32_t ratelimit_interval_ms;
	uint32_t ratelimit_burst;
	uint32_t queue_len;
	uint32_t access;	/* enum uaccess_kaddr_access; absent: older kernel */
};

/* How a field is stored and shown. */
enum uk_ftype {
	UK_FT_U32,
	UK_FT_S32,
	UK_FT_U64,
	UK_FT_HEX64,		/* u64 shown as 0x%016llx (addresses) */
	UK_FT_HEX32,		/* u32 shown as 0x%08x (hashes) */
	UK_FT_STR,		/* char[len] in the struct, NUL-terminated */
	UK_FT_ENUM,		/* u32 with names from uk_enum_name() */
	UK_FT_ARGS,		/* struct uk_syscall_args, a multi-attr of u64:
				 * shown as "0x3 0x7ffc1c2e0a10 0x40" */
};

/* Which name table an UK_FT_ENUM field uses. */
enum uk_enum {
	UK_ENUM_NONE,
	UK_ENUM_MODE,
	UK_ENUM_KIND,
	UK_ENUM_HELPER,
	UK_ENUM_DIRECTION,
	UK_ENUM_ADDR_CLASS,
	UK_ENUM_CONTEXT,
	UK_ENUM_ACCESS,
	UK_ENUM_ARCH,		/* AUDIT_ARCH_* values, not an index */
};

struct uk_field {
	int attr;		/* UACCESS_KADDR_A_* */
	const char *name;	/* JSON key and config name: "site_symbol" */
	const char *journal;	/* event fields: "UACCESS_SITE_SYMBOL" */
	enum uk_ftype type;
	enum uk_enum names;	/* for UK_FT_ENUM */
	size_t offset;		/* in the struct */
	size_t len;		/* for UK_FT_STR: sizeof the array */
	bool required;		/* a message without it is malformed */
};

/*
 * The event's fields: X(ATTR, member, JOURNAL, type, names, required),
 * in attribute order (the builders emit in table order, as the kernel
 * does).  ATTR names UACCESS_KADDR_A_EVENT_ATTR, JOURNAL the journal field
 * UACCESS_JOURNAL and the JSON key is the member's name.  Required: what
 * the daemon cannot account or aggregate without.  pid, tgid, comm and
 * uid are sent in task context only; the stack is absent when none was
 * captured; syscall_arch and syscall_args come with a system call only.
 * A new attribute is a member of struct uk_event and a line here: the
 * parser, the journal entry, the JSON, the CLI's matches and
 * its journal reader follow.
 */
#define UK_EVENT_FIELDS(X)						\
	X(SEQ, seq, SEQ, UK_FT_U64, UK_ENUM_NONE, true)			\
	X(TIMESTAMP_BOOT, ts_boot, TS_BOOT, UK_FT_U64, UK_ENUM_NONE, false) \
	X(TIMESTAMP_REAL, ts_real, TS_REAL, UK_FT_U64, UK_ENUM_NONE, false) \
	X(KIND, kind, KIND, UK_FT_ENUM, UK_ENUM_KIND, true)		\
	X(HELPER, helper, HELPER, UK_FT_ENUM, UK_ENUM_HELPER, true)	\
	X(DIRECTION, direction, DIRECTION, UK_FT_ENUM, UK_ENUM_DIRECTION, true) \
	X(ADDR_CLASS, addr_class, ADDR_CLASS, UK_FT_ENUM, UK_ENUM_ADDR_CLASS, false) \
	X(ADDRESS, address, ADDRESS, UK_FT_HEX64, UK_ENUM_NONE, true)	\
	X(SIZE, size, SIZE, UK_FT_U64, UK_ENUM_NONE, false)		\
	X(SITE_ID, site_id, SITE_ID, UK_FT_U32, UK_ENUM_NONE, true)	\
	X(SITE_SYMBOL, site_symbol, SITE_SYMBOL, UK_FT_STR, UK_ENUM_NONE, false) \
	X(SITE_IP, site_ip, SITE_IP, UK_FT_HEX64, UK_ENUM_NONE, true)	\
	X(STACK_HASH, stack_hash, STACK_HASH, UK_FT_HEX32, UK_ENUM_NONE, false) \
	X(PID, pid, PID, UK_FT_U32, UK_ENUM_NONE, false)		\
	X(TGID, tgid, TGID, UK_FT_U32, UK_ENUM_NONE, false)		\
	X(COMM, comm, COMM, UK_FT_STR, UK_ENUM_NONE, false)		\
	X(UID, uid, UID, UK_FT_U32, UK_ENUM_NONE, false)		\
	X(SYSCALL_NR, syscall_nr, SYSCALL_NR, UK_FT_S32, UK_ENUM_NONE, false) \
	X(CPU, cpu, CPU, UK_FT_U32, UK_ENUM_NONE, false)		\
	X(COUNT, count, COUNT, UK_FT_U64, UK_ENUM_NONE, true)		\
	X(SUPPRESSED, suppressed, SUPPRESSED, UK_FT_U64, UK_ENUM_NONE, false) \
	X(CONTEXT, context, CONTEXT, UK_FT_ENUM, UK_ENUM_CONTEXT, false)	\
	X(SYSCALL_ARCH, syscall_arch, SYSCALL_ARCH, UK_FT_ENUM, UK_ENUM_ARCH, false) \
	X(SYSCALL_ARGS, syscall_args, SYSCALL_ARGS, UK_FT_ARGS, UK_ENUM_NONE, false)

/* Field tables, ending with a zeroed entry (name == NULL). */
extern const struct uk_field uk_event_fields[];
extern const struct uk_field uk_site_fields[];
extern const struct uk_field uk_status_fields[];

/*
 * Names of enum values as the CLI, JSON and journal show them: "fault",
 * "__get_user", "to-user", "kernel-mapped", "task", "report"...; an unknown
 * value (newer kernel) gives NULL.  uk_enum_value() is the inverse and
 * returns 0 for an unknown name.
 */
const char *uk_enum_name(enum uk_enum e, uint32_t value);
/* The name of @v, or @v in decimal in @buf (at least 12 bytes). */
const char *uk_enum_text(enum uk_enum e, uint32_t v, char *buf, size_t len);
uint32_t uk_enum_value(enum uk_enum e, const char *name);

/*
 * Parse one netlink message of the family (nlmsghdr + genlmsghdr +
 * attributes) of the given command.  Every attribute is checked against a
 * policy (type and length); attributes the table does not know are ignored
 * (a newer kernel), a missing required one or a bad length makes the
 * message malformed.  Returns 0, or a negative errno with a one-line
 * reason in @why (-EBADMSG malformed, -EPROTO wrong command or family
 * header, -EMSGSIZE truncated).  Never reads beyond @len.
 */
int uk_event_parse(const struct nlmsghdr *nlh, size_t len,
		   struct uk_event *ev, char *why, size_t whylen);
int uk_site_parse(const struct nlmsghdr *nlh, size_t len,
		  struct uk_site *site, char *why, size_t whylen);
int uk_status_parse(const struct nlmsghdr *nlh, size_t len,
		    struct uk_status *st, char *why, size_t whylen);

/*
 * The function name of a kernel symbol as printed by %pB:
 * "func+0x1c/0x80 [module]" and "func [module]" give "func", "func" gives
 * "func".  Writes it NUL-terminated to @out and returns @out; returns NULL
 * (and @out empty when @outlen allows) when there is no function name
 * (NULL, "", a bare address such as "0xffffffff81000000") or it does not
 * fit in @outlen.
 */
const char *uk_symbol_function(const char *symbol, char *out, size_t outlen);

/* "0x" and hex digits only: %pB found no symbol for the address. */
bool uk_symbol_is_address(const char *symbol);

#endif /* UK_EVENT_H */
