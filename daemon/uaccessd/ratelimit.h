/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-window rate limiter for the journal, per site and global.
 *
 * The semantics are those of the kernel's per-site limiter and of
 * systemd's RateLimitIntervalSec=/RateLimitBurst=: a window opens at the
 * first event, up to @burst events pass within @interval_ns of its start,
 * the rest are refused and counted; the first event at or after the end
 * of the window opens a new one.  An operator thus reads "burst per
 * interval" the same way at both layers.
 *
 * Time is passed in (CLOCK_MONOTONIC ns), which keeps the limiter pure
 * and the tests deterministic.  A clock that goes backwards opens a new
 * window rather than blocking until it catches up.
 */
#ifndef UK_RATELIMIT_H
#define UK_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/time.h"


struct uk_ratelimit {
	uint64_t interval_ns;		/* window length, 0: unlimited */
	uint32_t burst;			/* events allowed per window */
	uint32_t used;			/* events allowed in this window */
	uint64_t begin_ns;		/* start of this window */
	uint64_t suppressed_pending;	/* refused since the last take */
	uint64_t suppressed_total;	/* refused since init */
};

/* Zeroes the counters and sets the parameters.  burst 0 refuses all. */
void uk_ratelimit_init(struct uk_ratelimit *rl, uint64_t interval_ns,
		       uint32_t burst);

/*
 * Changes the parameters (configuration reload) and keeps the counters
 * and the current window: a smaller burst applies to what is left of it.
 */
void uk_ratelimit_set(struct uk_ratelimit *rl, uint64_t interval_ns,
		      uint32_t burst);

/*
 * The same from "events per second, burst": a window of burst/per_sec
 * seconds that lets @burst events through, so the long-run rate is
 * @per_sec.  per_sec 0 means unlimited.  Returns -EINVAL for a zero
 * burst with a non-zero rate.
 */
int uk_ratelimit_set_rate(struct uk_ratelimit *rl, uint32_t per_sec,
			  uint32_t burst);

/* Whether one event at @now_ns may pass; a refusal is counted. */
bool uk_ratelimit_allow(struct uk_ratelimit *rl, uint64_t now_ns);

/*
 * Counts one event refused by a decision taken elsewhere (an event that
 * passed its site's limiter but not the global one still belongs to that
 * site's "N more suppressed" summary).
 */
void uk_ratelimit_suppress(struct uk_ratelimit *rl);

/* Returns suppressed_pending and zeroes it, for the periodic summary. */
uint64_t uk_ratelimit_take_pending(struct uk_ratelimit *rl);

#endif /* UK_RATELIMIT_H */
