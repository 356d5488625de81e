/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clocks, units, and times as people write and read them (journalctl's
 * --since/--until, the "2h ago" of systemd).  Only the uk_time_now*()
 * functions read a clock: the rest takes "now" from the caller; local
 * times use the process's time zone.
 */
#ifndef UK_TIME_H
#define UK_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define UK_NSEC_PER_USEC	UINT64_C(1000)
#define UK_NSEC_PER_MSEC	UINT64_C(1000000)
#define UK_NSEC_PER_SEC		UINT64_C(1000000000)
#define UK_MSEC_PER_SEC		UINT64_C(1000)
#define UK_USEC_PER_MSEC	UINT64_C(1000)
#define UK_USEC_PER_SEC		UINT64_C(1000000)
#define UK_USEC_PER_MINUTE	(UINT64_C(60) * UK_USEC_PER_SEC)
#define UK_USEC_PER_HOUR	(UINT64_C(60) * UK_USEC_PER_MINUTE)
#define UK_USEC_PER_DAY		(UINT64_C(24) * UK_USEC_PER_HOUR)
#define UK_USEC_PER_WEEK	(UINT64_C(7) * UK_USEC_PER_DAY)
#define UK_USEC_PER_MONTH	(UINT64_C(2629800) * UK_USEC_PER_SEC)	/* 30.44 days */
#define UK_USEC_PER_YEAR	(UINT64_C(31557600) * UK_USEC_PER_SEC)	/* 365.25 days */

/* What uk_time_parse_span() takes besides one plain number of seconds. */
enum {
	UK_SPAN_UNITS = 1,	/* a unit after the number: ms, s, m, h, d */
	UK_SPAN_ALL_UNITS = 2,	/* and systemd's others: us, min, hours, w, M, y... */
	UK_SPAN_FRACTION = 4,	/* "1.5": digits on both sides of the dot */
	UK_SPAN_LOOSE = 8,	/* several parts, spaces, ".5": "1h 30min" */
	/* systemd's time spans, as --since/--until take them */
	UK_SPAN_SYSTEMD = UK_SPAN_UNITS | UK_SPAN_ALL_UNITS |
			  UK_SPAN_FRACTION | UK_SPAN_LOOSE,
};

/*
 * A time span in microseconds: "90" (seconds) and whatever @flags add.
 * With @ago, a trailing "ago" is taken and sets *ago.  Returns 0, -EINVAL
 * or -ERANGE (beyond 64 bits), with a reason in @why (may be NULL).
 */
int uk_time_parse_span(const char *s, unsigned int flags, uint64_t *usec,
		       bool *ago, char *why, size_t whylen);

/*
 * A time as journalctl's --since/--until take it, in microseconds since
 * the epoch, local time unless it ends in " UTC":
 *   "2026-12-03 07:12:01", "2026-12-03 07:12", "2026-12-03" (midnight),
 *   "2026-12-03T07:12:01", with ".123456" after the seconds if wanted,
 *   "07:12:01" or "07:12" (today), "now", "today", "yesterday",
 *   "tomorrow", "@1764000000" (seconds since the epoch),
 *   relative to @now_usec: "-1h", "+30min", "1h ago", "2 days ago",
 *   "1h 30min ago", "-1d12h" (us, ms, s, min, h, d, w, M, y and their
 *   long forms; a bare number is seconds).
 * Returns 0, -EINVAL (with a reason in @why) or -ERANGE (before the
 * epoch, beyond 64 bits).
 */
int uk_time_parse(const char *s, uint64_t now_usec, uint64_t *ret,
		  char *why, size_t whylen);

/* A clock in ns (CLOCK_MONOTONIC: what timers and timeouts use). */
uint64_t uk_time_ns(clockid_t clock);
static inline uint64_t uk_time_now_ns(void)
{
	return uk_time_ns(CLOCK_MONOTONIC);
}

static inline uint64_t uk_time_now_ms(void)
{
	return uk_time_now_ns() / UK_NSEC_PER_MSEC;
}

/* CLOCK_REALTIME in microseconds since the epoch (the journal's unit). */
static inline uint64_t uk_time_real_usec(void)
{
	return uk_time_ns(CLOCK_REALTIME) / UK_NSEC_PER_USEC;
}

/*
 * A CLOCK_BOOTTIME stamp made wall-clock time, given both clocks' "now":
 * 0 for 0, for a stamp from the future (another boot's clock) and for
 * one that would fall before the epoch.
 */
uint64_t uk_time_boot_to_real(uint64_t boot_ns, uint64_t real_now_ns,
			      uint64_t boot_now_ns);

/*
 * "2026-12-03 07:12:01" (with ".123456" if @usec), local time, of @ns
 * since the epoch; "-" for 0.  Returns the length written.
 */
size_t uk_time_format_date(uint64_t ns, bool usec, char *buf, size_t len);

/* "Thu 2026-12-03 07:12:01 UTC", local time; returns @buf. */
char *uk_time_format(uint64_t usec, char *buf, size_t len);

/* "2h 3min ago", "5s left", "now", as systemd says it; returns @buf. */
char *uk_time_format_relative(uint64_t usec, uint64_t now_usec, char *buf,
			      size_t len);

#endif /* UK_TIME_H */
