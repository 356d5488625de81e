/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's site table: every event and every dump-sites reply is
 * folded into one entry per call site, which keeps the kernel's totals,
 * the daemon's own counts, the journal ratelimit of the site, its last
 * few samples and the stack hashes it was reached from.  A global store
 * keeps one symbolized stack per stack hash for the CLI.
 *
 * The key is the kernel's: (site_ip, kind, helper, direction).  The
 * kernel keys its table on the direction too (mm/uaccess_kaddr/core.c),
 * so two kernel sites that differ only by direction have two independent
 * counts; merging them here would make "count = max of what was seen"
 * wrong.
 *
 * Memory is bounded: at most max_sites sites (the least recently seen is
 * evicted and counted), max_stacks stacks (LRU, counted), samples per
 * site, UK_AGG_SITE_STACKS stack hashes per site (then "other").
 *
 * Pointers to sites and stacks handed out stay valid until the next call
 * that modifies the table (add_event, sync_site, set_params, reset, free):
 * any of them may evict or move an entry.  The structs are visible so
 * that the journal and JSON code can read them; they are read-only
 * outside aggregate.c, and the members marked private are not to be used.
 *
 * Single-threaded, like the sd-event loop that calls it.
 */
#ifndef UK_AGGREGATE_H
#define UK_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/event.h"
#include "common/sort.h"
#include "ratelimit.h"

#define UK_AGG_MAX_SITES_MIN	16
#define UK_AGG_MAX_SITES_MAX	1000000
#define UK_AGG_SAMPLES_MIN	1
#define UK_AGG_SAMPLES_MAX	64
#define UK_AGG_MAX_STACKS_MAX	1000000
#define UK_AGG_SITE_STACKS	8	/* distinct stack hashes per site */

struct uk_agg;

struct uk_agg_params {
	uint32_t max_sites;		/* UK_AGG_MAX_SITES_MIN..MAX */
	uint32_t samples;		/* per site, UK_AGG_SAMPLES_MIN..MAX */
	uint32_t max_stacks;		/* symbolized stacks kept, 0: none */
	uint32_t site_burst;		/* journal events per site interval */
	uint64_t site_interval_ns;	/* 0: no per-site journal limit */
	uint32_t global_rate;		/* journal events/s, 0: no limit */
	uint32_t global_burst;
};

/* One event as a site keeps it (uk_agg_site_samples()). */
struct uk_agg_sample {
	uint64_t seq;
	uint64_t ts_boot;
	uint64_t ts_real;
	uint64_t address;
	uint64_t size;
	uint32_t pid;
	uint32_t tgid;
	uint32_t uid;
	uint32_t cpu;
	int32_t syscall_nr;
	uint32_t stack_hash;
	uint32_t context;
	uint32_t addr_class;
	uint32_t direction;
	char comm[UK_COMM_LEN];
};

struct uk_agg_stack_count {
	uint32_t hash;			/* 0: events without a stack */
	uint64_t events;
};

/* Private: list links of the LRU orders. */
struct uk_agg_link {
	struct uk_agg_link *prev, *next;
};

struct uk_agg_site {
	uint64_t site_ip;
	uint32_t site_id;		/* kernel slot, as in dump-sites */
	uint8_t kind;			/* enum uaccess_kaddr_kind */
	uint8_t helper;			/* enum uaccess_kaddr_helper */
	uint8_t direction;		/* enum uaccess_kaddr_direction */
	uint8_t nr_stacks;		/* entries used in stacks[] */

	/*
	 * The kernel's totals for the site: the largest values seen in
	 * events and dump-sites, refreshed exactly by each dump-sites.
	 * Between two of them the event-derived suppressed and reported
	 * are lower bounds (events may be dropped or arrive out of order).
	 */
	uint64_t count;
	uint64_t kernel_suppressed;
	uint64_t kernel_reported;
	uint32_t kernel_resets;		/* times the kernel count went down */

	uint16_t private_slen;		/* bytes of encoded samples */
	uint16_t private_scap;

	/* What this daemon saw. */
	uint64_t events;		/* events received */
	uint64_t first_boot;		/* ns, CLOCK_BOOTTIME; 0: unknown */
	uint64_t last_boot;
	uint64_t first_real;		/* ns, CLOCK_REALTIME; 0: unknown */
	uint64_t last_real;
	uint64_t last_address;
	/*
	 * The journal limiter of the site: its suppressed_total counts the
	 * events not sent to the journal (by this limiter or the global
	 * one), so the journaled events are events - rl.suppressed_total.
	 */
	struct uk_ratelimit rl;
	uint64_t stacks_other;		/* events whose hash found no room */
	struct uk_agg_stack_count *stacks;	/* nr_stacks of them */

	/* Private. */
	uint64_t private_sync_count;	/* count at the last dump-sites */
	struct uk_agg_link private_lru;
	uint8_t nr_samples;
	uint8_t private_stacks_cap;
	/*
	 * "func+0x1c/0x80 [module]" or "".  The same allocation goes on
	 * with the stacks[] array and the encoded samples.
	 */
	char symbol[];
};

struct uk_agg_frame {
	uint64_t ip;
	const char *symbol;		/* "" when the kernel sent none */
};

/* The frames of the most recent event with this stack hash. */
struct uk_agg_stack {
	uint32_t hash;
	uint32_t nr_frames;
	uint64_t events;		/* since it entered the store */
	uint64_t last_boot;		/* ts_boot of the most recent one */
	struct uk_agg_link private_lru;
	struct uk_agg_frame frames[];
};

struct uk_agg_stats {
	uint64_t sites;
	uint64_t max_sites;
	uint64_t evicted;		/* sites dropped to make room */
	uint64_t evicted_pending;	/* their unsummarized suppressed */
	uint64_t stacks;
	uint64_t max_stacks;
	uint64_t stacks_evicted;
	uint64_t symbols;		/* distinct frame symbols stored */
	uint64_t events;		/* received */
	uint64_t forwarded;		/* to go to the journal */
	uint64_t suppressed;		/* not to: site or global limit */
	uint64_t suppressed_global;	/* of which by the global limit */
	uint64_t syncs;			/* dump-sites replies merged */
	uint64_t kernel_resets;		/* of which showed a lower count */
};

/* The defaults, those of /etc/uaccessd.conf without the keys. */
void uk_agg_params_init(struct uk_agg_params *p);

/* 0, or -ERANGE with a one-line reason in @why. */
int uk_agg_params_check(const struct uk_agg_params *p, char *why,
			size_t whylen);

/* -ERANGE for bad parameters, -ENOMEM. */
int uk_agg_new(const struct uk_agg_params *p, struct uk_agg **ret);
void uk_agg_free(struct uk_agg *agg);

/*
 * Configuration reload: keeps the data.  A smaller max_sites or
 * max_stacks evicts the least recently seen entries (counted), a smaller
 * samples drops the oldest samples, the limiters keep their counters.
 * -ERANGE for bad parameters, and then nothing changes.
 */
int uk_agg_set_params(struct uk_agg *agg, const struct uk_agg_params *p);

/*
 * Forgets every site, stack and count, as after "uaccessctl reset"; the
 * parameters stay.  Pending suppressed counts go too: call
 * uk_agg_take_summaries() first where they matter.
 */
void uk_agg_reset(struct uk_agg *agg);

/*
 * Folds one event into its site (created if new, evicting the least
 * recently seen site when full) and decides with the site's limiter, then
 * the global one, whether it goes to the journal (*forward); a refused
 * event is counted on the site for its next summary.  @now_ns is
 * CLOCK_MONOTONIC.  Returns 0; -EINVAL when a key attribute (site_ip,
 * kind, helper, direction) is missing or 0, or nr_frames is over
 * UK_STACK_MAX; -ERANGE for a key enum over 255 (the kernel keeps them in
 * a byte); -ENOMEM.  On error nothing was recorded, *site_out is NULL and
 * *forward false: the caller accounts the event as lost.
 * @site_out may be NULL, @forward may not.
 */
int uk_agg_add_event(struct uk_agg *agg, const struct uk_event *ev,
		     uint64_t now_ns, const struct uk_agg_site **site_out,
		     bool *forward);

#define UK_AGG_SYNC_NEW		(1 << 0)	/* the site was created */
#define UK_AGG_SYNC_RESET	(1 << 1)	/* kernel count went down */

/*
 * Merges one dump-sites reply: creates the site if new, raises the
 * kernel totals to the kernel's values and never lowers them, unless the
 * kernel's count is below ours: the kernel was reset, its values are
 * taken and the reset is counted.  Returns the UK_AGG_SYNC_* bits that
 * apply (0 for a plain merge), or the errors of uk_agg_add_event().
 *
 * The count of the last sync is the site's watermark: a later event at
 * or below it is already in the totals, and of the suppressed hits an
 * event carries only those above it are added, so a resync never counts
 * a hit twice.  The caller reads a dump without folding events in
 * between: an event newer than the dump folded first would make the
 * dump's count look lower, i.e. like a reset.
 */
int uk_agg_sync_site(struct uk_agg *agg, const struct uk_site *ks,
		     const struct uk_agg_site **site_out);

const struct uk_agg_site *uk_agg_find(const struct uk_agg *agg,
				      uint64_t site_ip, uint32_t kind,
				      uint32_t helper, uint32_t direction);

/* The most recently seen site with this kernel slot; O(sites). */
const struct uk_agg_site *uk_agg_find_id(const struct uk_agg *agg,
					 uint32_t site_id);

/*
 * All sites in @sort order (uk_sort_site_cmp(): a total order).  *out is
 * malloc()ed (NULL when there are no sites), for free().
 */
int uk_agg_sorted(const struct uk_agg *agg, enum uk_sort sort,
		  const struct uk_agg_site ***out, size_t *n);

/*
 * Calls @fn for every site, most recently seen first, without sorting
 * or allocating; @fn may not change the table.
 */
void uk_agg_for_each(const struct uk_agg *agg,
		     void (*fn)(const struct uk_agg_site *site, void *data),
		     void *data);

/*
 * Up to @max of the site's newest samples into @out, oldest first (in
 * the order the events arrived).  Returns how many.
 */
size_t uk_agg_site_samples(const struct uk_agg_site *site,
			   struct uk_agg_sample *out, size_t max);

/* The stored stack with this hash, or NULL; does not refresh its age. */
const struct uk_agg_stack *uk_agg_stack_find(const struct uk_agg *agg,
					     uint32_t hash);

void uk_agg_get_stats(const struct uk_agg *agg, struct uk_agg_stats *st);

/*
 * For the periodic "N more occurrences of SITE suppressed (total T)"
 * message: called for each site with a pending suppressed count, most
 * recently seen first, with that count (total: site->rl.suppressed_total).
 * The count is zeroed when @fn returns >= 0; a negative return (the
 * journal refused it) stops the walk, leaves that site and the rest
 * pending, and is returned.  Otherwise returns the number of calls.
 */
typedef int (*uk_agg_summary_fn)(const struct uk_agg_site *site,
				 uint64_t suppressed, void *userdata);
int uk_agg_take_summaries(struct uk_agg *agg, uk_agg_summary_fn fn,
			  void *userdata);

#endif /* UK_AGGREGATE_H */
