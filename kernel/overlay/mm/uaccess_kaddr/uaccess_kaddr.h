/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the parts of the uaccess_kaddr detector:
 * core.c (site table, counters, per-CPU event queue), report.c and
 * object.c (the report in the kernel log, the error_report tracepoint),
 * debugfs.c (counters and sites) and, with the telemetry layer, netlink.c
 * (the generic netlink family).
 */
#ifndef _MM_UACCESS_KADDR_H
#define _MM_UACCESS_KADDR_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uaccess_kaddr.h>

/* Values as in the netlink interface, like the enums of <linux/uaccess_kaddr.h>. */
enum ukaddr_mode {
	UKADDR_MODE_OFF = 1,
	UKADDR_MODE_COUNT,
	UKADDR_MODE_REPORT,
	UKADDR_MODE_WARN,
};

/* What a pre-access hit does to the access (uaccess_kaddr_access=). */
enum ukaddr_access {
	UKADDR_ACCESS_FAIL = 1,
	UKADDR_ACCESS_ALLOW,
};

enum ukaddr_ctx {
	UKADDR_CTX_TASK = 1,
	UKADDR_CTX_SOFTIRQ,
	UKADDR_CTX_HARDIRQ,
	UKADDR_CTX_NMI,
};

#define UK_STACK_DEPTH		16
#define UK_SITES_SHIFT		CONFIG_DEBUG_UACCESS_KADDR_SITES_SHIFT
#define UK_SITES		BIT(UK_SITES_SHIFT)
#define UK_QUEUE_LEN		64

/*
 * One call site: the first free slot on the probe sequence of its key
 * (ip, kind, helper, direction).  A slot is claimed by a cmpxchg of @ip from
 * 0, filled, then published by setting @ready; slots are never freed, so a
 * reader that sees @ready may read the key fields without a lock.
 */
struct uk_site {
	unsigned long ip;
	u8 kind;
	u8 helper;
	u8 dir;
	atomic_t ready;
	atomic64_t count;
	atomic64_t reported;
	atomic64_t suppressed;
	atomic64_t pending;		/* suppressed since the last event */
	/*
	 * The ratelimit window: its start (the low 32 bits of jiffies, 0
	 * before the first event) in the upper half, its events in the lower.
	 */
	atomic64_t rl;
	/* Written by whichever CPU hit the site last: best effort. */
	u64 first_ts;
	/*
	 * Read from the clock once per site per jiffy: repeated hits keep
	 * the time of the first one of their tick, and skip the clock read.
	 */
	u64 last_ts;
	unsigned long last_jiffies;
	unsigned long last_addr;
	pid_t last_pid;
	u32 stack_hash;
	char last_comm[TASK_COMM_LEN];
};

/* What the address of an event reaches (object.c). */
enum uk_region {
	UK_REGION_NONE,		/* not mapped, or nothing found */
	UK_REGION_SLAB,
	UK_REGION_VMALLOC,
	UK_REGION_TASK_STACK,	/* of the task that made the access */
	UK_REGION_IMAGE,	/* kernel or module text or data */
	UK_REGION_PAGE,		/* page allocator memory, not slab */
	UK_REGION_KFENCE_GUARD,	/* a guard page of KFENCE's pool */
};

#define UK_CACHE_NAME_LEN	32

/*
 * Taken at the hit, but for @caller and a vmalloc area's bounds, which
 * only process context can look up: the report is printed later, and the
 * memory may have been freed or reused by then.
 */
struct uk_object {
	u8 region;		/* enum uk_region */
	bool kfence;		/* a KFENCE object, or a guard page beside one */
	bool store_user;	/* stacks recorded (slab_debug=U, or KFENCE's) */
	unsigned long start;
	unsigned long size;
	const char *kasan_bug;	/* KASAN's bug type if not all accessible */
	unsigned long kasan_bad; /* the first byte KASAN found inaccessible */
	const void *caller;	/* UK_REGION_VMALLOC: who allocated it */
	char cache[UK_CACHE_NAME_LEN];	/* UK_REGION_SLAB: copied, see object.c */
};

/* The arguments of a system call, as syscall_get_arguments() gives them. */
#define UK_SYSCALL_ARGS		6

/* One detailed event, recorded in the hit context and sent from a work. */
struct uk_event {
	u64 seq;
	u64 ts_boot;
	u64 ts_real;
	u64 count;
	u64 suppressed;
	unsigned long addr;
	unsigned long size;
	unsigned long ip;
	u32 site_id;
	u32 stack_hash;
	u8 kind;
	u8 helper;
	u8 dir;
	u8 addr_class;		/* 0 until classified (NMI) */
	u8 context;
	bool warn;		/* mode warn: panic_on_warn applies */
	bool allowed;		/* uaccess_kaddr_access=allow let it through */
	bool on_stack;		/* the address is on the task's own stack */
	bool quiet;		/* KUnit: counted and observed, not printed */
	pid_t pid;
	pid_t tgid;
	uid_t uid;
	int syscall_nr;
	u32 cpu;
	char comm[TASK_COMM_LEN];
	/* As the task entered the kernel: with syscall_nr >= 0 only. */
	u32 syscall_arch;	/* AUDIT_ARCH_* */
	unsigned long syscall_args[UK_SYSCALL_ARGS];
	unsigned int nr_frames;
	unsigned long frames[UK_STACK_DEPTH];
	struct uk_object obj;	/* what @addr reaches: addr_class mapped */
};

struct uk_status {
	u32 mode;
	u64 hits_fault;
	u64 hits_gp;
	u64 hits_precheck;
	u64 rejected;
	u64 reported;
	u64 suppressed;
	u64 dropped;
	u32 sites_used;
	u32 sites_max;
	u64 sites_overflow;
	u64 last_seq;
	u32 ratelimit_interval_ms;
	u32 ratelimit_burst;
	u32 queue_len;
	u32 access;
	size_t buffer_bytes;	/* 0 until the detector is first on */
};

/* core.c */
extern const char * const uk_mode_names[UKADDR_MODE_WARN + 1];
struct uk_site *uk_site_at(unsigned int i);
void uk_get_status(struct uk_status *st);
void uk_reset(struct uk_status *old);
int uk_set_config(const u32 *mode, const u32 *interval_ms, const u32 *burst);
void uk_flush_events(void);
void uk_event_unsent(void);

/*
 * The KUnit suite sees every event in the hit context through this, and
 * keeps its own reports out of the log with uk_test_quiet.
 */
extern void (*uk_test_observer)(const struct uk_event *ev);
extern bool uk_test_quiet;
int uk_nesting_total(void);
void uk_test_hold_reports(bool hold);

void uk_snapshot_object(struct uk_event *ev);
void uk_print_object(const struct uk_event *ev, struct uk_object *obj);

/* report.c: process context, from the drain work. */
void uk_print_report(const struct uk_event *ev);
void uk_warn_taken(void);
int uk_format_title(char *buf, size_t len, const struct uk_event *ev);
int uk_format_access(char *buf, size_t len, const struct uk_event *ev);
extern void (*uk_test_report_observer)(const struct uk_event *ev,
				       const struct uk_object *obj);
const char *uk_kind_name(unsigned int kind);
const char *uk_helper_name(unsigned int helper);
const char *uk_dir_name(unsigned int dir);
const char *uk_class_name(unsigned int addr_class);

/* netlink.c, the telemetry layer: process context. */
#ifdef CONFIG_DEBUG_UACCESS_KADDR_NETLINK
void uk_netlink_send_event(const struct uk_event *ev);
#else
static inline void uk_netlink_send_event(const struct uk_event *ev)
{
}
#endif

#endif /* _MM_UACCESS_KADDR_H */
