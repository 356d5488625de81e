// SPDX-License-Identifier: GPL-2.0
/*
 * Fixed-window rate limiter; see ratelimit.h for the semantics.
 */
#include <errno.h>
#include <string.h>

#include "ratelimit.h"

void uk_ratelimit_init(struct uk_ratelimit *rl, uint64_t interval_ns,
		       uint32_t burst)
{
	memset(rl, 0, sizeof(*rl));
	uk_ratelimit_set(rl, interval_ns, burst);
}

void uk_ratelimit_set(struct uk_ratelimit *rl, uint64_t interval_ns,
		      uint32_t burst)
{
	rl->interval_ns = interval_ns;
	rl->burst = burst;
}

int uk_ratelimit_set_rate(struct uk_ratelimit *rl, uint32_t per_sec,
			  uint32_t burst)
{
	uint64_t interval;

	if (!per_sec) {
		uk_ratelimit_set(rl, 0, burst);
		return 0;
	}
	if (!burst)
		return -EINVAL;
	/* At most 2^32 * 10^9 < 2^62: no overflow. */
	interval = (uint64_t)burst * UK_NSEC_PER_SEC / per_sec;
	/* Over 10^9 events per second: still limited, never "unlimited". */
	if (!interval)
		interval = 1;
	uk_ratelimit_set(rl, interval, burst);
	return 0;
}

void uk_ratelimit_suppress(struct uk_ratelimit *rl)
{
	rl->suppressed_pending++;
	rl->suppressed_total++;
}

bool uk_ratelimit_allow(struct uk_ratelimit *rl, uint64_t now_ns)
{
	if (!rl->interval_ns)
		return true;
	/*
	 * used == 0: nothing passed yet, so the window may as well start
	 * now (the kernel starts it at the first hit too).  The unsigned
	 * difference also opens a new window when the clock went back.
	 */
	if (!rl->used || now_ns - rl->begin_ns >= rl->interval_ns) {
		rl->begin_ns = now_ns;
		rl->used = 0;
	}
	if (rl->used < rl->burst) {
		rl->used++;
		return true;
	}
	uk_ratelimit_suppress(rl);
	return false;
}

uint64_t uk_ratelimit_take_pending(struct uk_ratelimit *rl)
{
	uint64_t n = rl->suppressed_pending;

	rl->suppressed_pending = 0;
	return n;
}
