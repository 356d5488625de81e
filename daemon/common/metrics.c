// SPDX-License-Identifier: GPL-2.0
/* The kernel's metric families, see metrics.h. */
#include <stddef.h>

#include <string.h>

#include "fields.h"
#include "metrics.h"
#include "util.h"

#define ST_BIT(a)	UK_BIT(UACCESS_KADDR_A_STATUS_##a)

/* The label-less families, in the order of the file. */
static const struct {
	const char *name;
	enum uk_om_type type;
	const char *help;
	int attr;
	size_t offset;
	bool u32;
} plain[] = {
#define F(name, type, help, attr, member)				\
	{ name, type, help, UACCESS_KADDR_A_STATUS_##attr,		\
	  offsetof(struct uk_status, member),				\
	  sizeof(((struct uk_status *)0)->member) == 4 }
	F("uaccess_kaddr_rejected_total", UK_OM_COUNTER,
	  "Faults on bad user input the kernel counted and did not report.",
	  REJECTED, rejected),
	F("uaccess_kaddr_reported_total", UK_OM_COUNTER,
	  "Events the kernel recorded (logged and queued for listeners).",
	  REPORTED, reported),
	F("uaccess_kaddr_suppressed_total", UK_OM_COUNTER,
	  "Hits the kernel's per-site ratelimit kept back.",
	  SUPPRESSED, suppressed),
	F("uaccess_kaddr_dropped_total", UK_OM_COUNTER,
	  "Events the kernel lost to a full per-CPU buffer or NMI slots.",
	  DROPPED, dropped),
	F("uaccess_kaddr_sites_used", UK_OM_GAUGE,
	  "Slots of the kernel's site table in use.", SITES_USED, sites_used),
	F("uaccess_kaddr_sites_max", UK_OM_GAUGE,
	  "Slots of the kernel's site table.", SITES_MAX, sites_max),
	F("uaccess_kaddr_sites_overflow_total", UK_OM_COUNTER,
	  "Hits that found no free slot in the kernel's site table.",
	  SITES_OVERFLOW, sites_overflow),
	F("uaccess_kaddr_queue_capacity", UK_OM_GAUGE,
	  "Capacity of each of the kernel's per-CPU event buffers, in events.",
	  QUEUE_LEN, queue_len),
#undef F
};

static uint64_t member(const struct uk_status *st, size_t offset, bool u32)
{
	const char *p = (const char *)st + offset;

	return u32 ? *(const uint32_t *)p : *(const uint64_t *)p;
}

static void mode(struct uk_om *om, const struct uk_status *st)
{
	char buf[16];
	const char *name;
	uint32_t v;
	bool known = false;

	uk_om_family(om, "uaccess_kaddr_mode", UK_OM_GAUGE,
		     "The detector's mode (1: the current one).");
	/* Every mode this program knows, then a newer kernel's by number. */
	for (v = 0; v <= UINT8_MAX; v++) {
		name = uk_enum_name(UK_ENUM_MODE, v);
		if (!name)
			continue;
		known |= v == st->mode;
		uk_om_sample_u64(om, &(struct uk_om_label){ "mode", name }, 1,
				 v == st->mode);
	}
	if (!known)
		uk_om_sample_u64(om, &(struct uk_om_label){ "mode",
				 uk_enum_text(UK_ENUM_MODE, st->mode, buf,
					      sizeof(buf)) }, 1, 1);
}

/*
 * The access policy as an info-style gauge: 1 for the current one.  A
 * kernel that does not say has "unknown" at 1, so that a rule on
 * {access="fail"} != 1 fires for it too.
 */
static void access_policy(struct uk_om *om, const struct uk_status *st)
{
	static const char *const names[] = { "fail", "allow" };
	char buf[16];
	const char *cur = uk_status_access(st, buf, sizeof(buf));
	bool known = false;
	size_t i;

	uk_om_family(om, "uaccess_kaddr_access", UK_OM_GAUGE,
		     "Whether a pre-access hit is refused (fail) or let through (allow), as uaccess_kaddr_access= says (1: the current policy).");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		known |= !strcmp(cur, names[i]);
		uk_om_sample_u64(om, &(struct uk_om_label){ "access", names[i] },
				 1, !strcmp(cur, names[i]));
	}
	if (!known)
		uk_om_sample_u64(om, &(struct uk_om_label){ "access", cur }, 1,
				 1);
}

static void hits(struct uk_om *om, const struct uk_status *st)
{
	const struct {
		const char *kind;
		uint64_t bit;
		uint64_t v;
	} kinds[] = {
		{ "fault", ST_BIT(HITS_FAULT), st->hits_fault },
		{ "gp", ST_BIT(HITS_GP), st->hits_gp },
		{ "precheck", ST_BIT(HITS_PRECHECK), st->hits_precheck },
	};
	size_t i;

	if (!(st->present & (ST_BIT(HITS_FAULT) | ST_BIT(HITS_GP) |
			     ST_BIT(HITS_PRECHECK))))
		return;
	uk_om_family(om, "uaccess_kaddr_hits_total", UK_OM_COUNTER,
		     "Kernel addresses seen at user-access helpers, by how they were detected.");
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (st->present & kinds[i].bit)
			uk_om_sample_u64(om, &(struct uk_om_label){
					 "kind", kinds[i].kind }, 1,
					 kinds[i].v);
}

int uk_metrics_kernel(struct uk_om *om, const struct uk_status *st)
{
	size_t i;

	uk_om_u64(om, "uaccess_kaddr_kernel_status_up", UK_OM_GAUGE,
		  "Whether the kernel's status could be read (1) or not (0).",
		  st != NULL);
	if (!st)
		return uk_om_error(om);
	if (st->present & ST_BIT(MODE))
		mode(om, st);
	access_policy(om, st);
	hits(om, st);
	for (i = 0; i < ARRAY_SIZE(plain); i++)
		if (st->present & UK_BIT(plain[i].attr))
			uk_om_u64(om, plain[i].name, plain[i].type,
				  plain[i].help,
				  member(st, plain[i].offset, plain[i].u32));
	return uk_om_error(om);
}
