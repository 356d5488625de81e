/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What uaccessd does with what the kernel sends, without any IO of its
 * own: datagrams in (from the events socket or a replay file), parsed,
 * sequence-checked, aggregated, ratelimited and written to the journal,
 * with every lost event counted by its reason.
 */
#ifndef UK_PIPELINE_H
#define UK_PIPELINE_H

#include <stdint.h>
#include <sys/types.h>
#include "aggregate.h"
#include "config.h"
#include "journal.h"

struct uk_json;

#define UK_GAP_GRACE_NS		UK_NSEC_PER_SEC
#define UK_SEEN_WINDOW		(1u << 20)	/* 128 KiB of bits */

struct uk_pipeline {
	struct uk_agg *agg;
	struct uk_journal journal;
	const struct uk_config *cfg;
	uint16_t family;		/* nlmsg_type of the family's messages */

	uint64_t datagrams;
	uint64_t messages;		/* netlink messages of the family */
	uint64_t events;		/* parsed events */
	uint64_t ignored;		/* at sites of the ignore list */
	uint64_t journaled;		/* event entries written */
	uint64_t journal_lost;		/* event entries the journal refused */
	uint64_t other;			/* messages of other types, skipped */
	uint64_t overruns;		/* ENOBUFS on the socket */
	uint64_t resyncs;
	uint64_t late;			/* duplicates, or older than the window */
	uint64_t recovered;		/* arrived after their gap was counted */
	uint64_t evicted_summarized;	/* of the agg's evicted_pending */
	uint64_t evicted_acc;		/* the agg's counts before a reset */
	uint64_t evicted_pending_acc;
	uint64_t reset_fence;		/* last seq before the last reset */
	uint64_t before_reset;		/* events at or below it, not folded */
	/*
	 * dump-sites replies the table could not take: no event and no
	 * sequence number, so no loss; the site's hits stay in the kernel.
	 */
	uint64_t sync_refused;
	char last_sync_refused[160];	/* logged once per cause */

	/*
	 * What the sequence numbers show missing: after an overrun, or not.
	 * A malformed message and a kernel drop leave a gap too; the loss
	 * below names each missing event once (see update_loss()).
	 */
	uint64_t gap_events;
	uint64_t overrun_events;
	uint64_t malformed;
	uint64_t malformed_noseq;	/* of which left their number missing */
	uint64_t gap_seen_ns;		/* last gap, for the grace period */
	char last_gap[64];		/* "sequence 5 followed 2" */
	uint64_t seq_first;		/* numbers below it are before our time */
	uint8_t *seen;			/* received numbers, UK_SEEN_WINDOW bits */

	/* loss by reason, events (overruns counts occasions, above) */
	uint64_t loss[UK_LOSS_NR];
	/* reported so far in loss journal entries */
	uint64_t loss_reported[UK_LOSS_NR];

	bool have_seq;
	uint64_t last_seq;
	bool overrun_pending;		/* the next gap is the overrun's */

	/*
	 * The kernel's counters as last read (get-status), and what they
	 * held before this daemon's time (base) or before a reset (acc).
	 */
	bool have_kernel;
	uint64_t kernel_dropped;
	uint64_t kernel_overflow;
	uint64_t kernel_dropped_base;
	uint64_t kernel_overflow_base;
	uint64_t kernel_dropped_acc;
	uint64_t kernel_overflow_acc;

	uint64_t loss_logged_ns[UK_LOSS_NR];	/* last loss entry, by reason */
	char last_malformed[160];
};

int uk_pipeline_init(struct uk_pipeline *p, const struct uk_config *cfg);
void uk_pipeline_free(struct uk_pipeline *p);
/* A new configuration (reload): -ERANGE and nothing changes if bad. */
int uk_pipeline_set_config(struct uk_pipeline *p, const struct uk_config *cfg);

/* One datagram of the events socket; @now_ns is CLOCK_MONOTONIC. */
void uk_pipeline_datagram(struct uk_pipeline *p, const void *buf, size_t len,
			  uint64_t now_ns);
/* A datagram too large for the receive buffer: one malformed message. */
void uk_pipeline_oversized(struct uk_pipeline *p, uint64_t now_ns);
/* The socket overflowed (ENOBUFS): counted, logged; the caller re-syncs. */
void uk_pipeline_overrun(struct uk_pipeline *p);
/*
 * The kernel's status as just read: its dropped and site-overflow
 * counters grow the loss, and last-seq lets a gap at the end of the stream
 * be seen.  The first call sets the baseline.
 */
void uk_pipeline_kernel_status(struct uk_pipeline *p,
			       const struct uk_status *st);
/*
 * One dump-sites reply of a re-sync; one the table cannot take (no site
 * key, no memory) is counted in sync_refused and logged once per cause:
 * it is no event, so it is no loss.
 */
void uk_pipeline_sync_site(struct uk_pipeline *p, const struct uk_site *s);
/*
 * The kernel counters were reset through this daemon; @old holds them as
 * the reset returned them, so that no loss counted so far goes.
 */
void uk_pipeline_kernel_reset(struct uk_pipeline *p,
			      const struct uk_status *old);
/*
 * Writes the loss entries that are due: called at every datagram and
 * every couple of seconds.  A gap waits UK_GAP_GRACE_NS for its events to
 * arrive late (the kernel drains its per-CPU queues in batches).
 */
void uk_pipeline_tick(struct uk_pipeline *p, uint64_t now_ns);
/*
 * Writes the pending "N more occurrences suppressed" summaries and the
 * loss entries not yet written.
 */
void uk_pipeline_flush(struct uk_pipeline *p);

uint64_t uk_pipeline_lost(const struct uk_pipeline *p);
/* The events lost for @reason (site-evicted: sites), as the loss entries. */
uint64_t uk_pipeline_loss(const struct uk_pipeline *p, enum uk_loss reason);
/* Daemon counters and loss as JSON keys of the current object. */
void uk_pipeline_json(const struct uk_pipeline *p, struct uk_json *j);

#endif /* UK_PIPELINE_H */
