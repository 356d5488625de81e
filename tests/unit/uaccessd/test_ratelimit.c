// SPDX-License-Identifier: GPL-2.0
/*
 * The journal rate limiter (daemon/uaccessd/ratelimit.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "uaccessd/ratelimit.h"

#define MS	1000000ULL

/* Calls allow() @n times at @now; returns how many passed. */
static unsigned int allow_n(struct uk_ratelimit *rl, uint64_t now,
			    unsigned int n)
{
	unsigned int i, passed = 0;

	for (i = 0; i < n; i++)
		passed += uk_ratelimit_allow(rl, now);
	return passed;
}

static void interval_zero_lets_everything_through(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 0, 0);
	assert_int_equal(allow_n(&rl, 1, 100000), 100000);
	assert_int_equal(allow_n(&rl, 0, 10), 10);
	assert_int_equal(rl.suppressed_pending, 0);
	assert_int_equal(rl.suppressed_total, 0);
}

static void burst_passes_then_the_rest_of_the_window_is_refused(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 3);
	assert_true(uk_ratelimit_allow(&rl, 5000 * MS));
	assert_true(uk_ratelimit_allow(&rl, 5000 * MS));
	assert_true(uk_ratelimit_allow(&rl, 5500 * MS));
	assert_false(uk_ratelimit_allow(&rl, 5500 * MS));
	assert_int_equal(allow_n(&rl, 5999 * MS, 5), 0);
	assert_int_equal(rl.suppressed_pending, 6);
	assert_int_equal(rl.suppressed_total, 6);
	assert_int_equal(rl.used, 3);
}

static void window_ends_exactly_at_begin_plus_interval(void **state)
{
	struct uk_ratelimit rl;
	uint64_t begin = 7 * MS;

	uk_ratelimit_init(&rl, 100 * MS, 1);
	assert_true(uk_ratelimit_allow(&rl, begin));
	/* The last nanosecond of the window still belongs to it. */
	assert_false(uk_ratelimit_allow(&rl, begin + 100 * MS - 1));
	/* The first nanosecond after it opens the next one. */
	assert_true(uk_ratelimit_allow(&rl, begin + 100 * MS));
	assert_int_equal(rl.begin_ns, begin + 100 * MS);
	assert_false(uk_ratelimit_allow(&rl, begin + 200 * MS - 1));
	assert_int_equal(rl.suppressed_total, 2);
}

static void new_window_starts_at_the_first_event_after_a_pause(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 2);
	assert_int_equal(allow_n(&rl, 0, 3), 2);
	/* Long idle: the window opens at 10.3 s, not on a 1 s grid. */
	assert_int_equal(allow_n(&rl, 10300 * MS, 3), 2);
	assert_int_equal(rl.begin_ns, 10300 * MS);
	assert_int_equal(allow_n(&rl, 11299 * MS, 1), 0);
	assert_int_equal(allow_n(&rl, 11300 * MS, 1), 1);
	assert_int_equal(rl.suppressed_total, 3);
}

static void first_event_opens_the_window_whatever_the_time(void **state)
{
	struct uk_ratelimit rl;

	/* Time 0 is a valid time: no "unset" sentinel confusion. */
	uk_ratelimit_init(&rl, 10, 1);
	assert_true(uk_ratelimit_allow(&rl, 0));
	assert_false(uk_ratelimit_allow(&rl, 9));
	assert_true(uk_ratelimit_allow(&rl, 10));
}

static void zero_burst_refuses_everything_and_counts_it(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 0);
	assert_int_equal(allow_n(&rl, 1, 4), 0);
	assert_int_equal(allow_n(&rl, 5000 * MS, 4), 0);
	assert_int_equal(rl.suppressed_total, 8);
	assert_int_equal(rl.suppressed_pending, 8);
}

static void clock_going_back_opens_a_new_window(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 1);
	assert_true(uk_ratelimit_allow(&rl, 5000 * MS));
	assert_false(uk_ratelimit_allow(&rl, 5000 * MS));
	/* Not "refuse until the clock is back at 6 s". */
	assert_true(uk_ratelimit_allow(&rl, 4000 * MS));
	assert_int_equal(rl.begin_ns, 4000 * MS);
}

static void huge_interval_does_not_wrap_around(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, UINT64_MAX, 1);
	assert_true(uk_ratelimit_allow(&rl, UINT64_MAX - 5));
	/* begin + interval would overflow; the window must still hold. */
	assert_false(uk_ratelimit_allow(&rl, UINT64_MAX));
	assert_false(uk_ratelimit_allow(&rl, UINT64_MAX - 5));
}

static void take_pending_reads_and_zeroes_but_keeps_the_total(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 1);
	allow_n(&rl, 1, 5);
	assert_int_equal(uk_ratelimit_take_pending(&rl), 4);
	assert_int_equal(rl.suppressed_pending, 0);
	assert_int_equal(uk_ratelimit_take_pending(&rl), 0);
	allow_n(&rl, 2, 2);
	assert_int_equal(uk_ratelimit_take_pending(&rl), 2);
	assert_int_equal(rl.suppressed_total, 6);
}

static void suppress_counts_a_refusal_decided_elsewhere(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 0, 0);
	uk_ratelimit_suppress(&rl);
	uk_ratelimit_suppress(&rl);
	assert_int_equal(rl.suppressed_pending, 2);
	assert_int_equal(rl.suppressed_total, 2);
	assert_int_equal(uk_ratelimit_take_pending(&rl), 2);
	assert_int_equal(rl.suppressed_total, 2);
}

static void set_keeps_counters_and_the_current_window(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 2);
	assert_int_equal(allow_n(&rl, 100 * MS, 5), 2);
	uk_ratelimit_set(&rl, 2000 * MS, 4);
	assert_int_equal(rl.suppressed_pending, 3);
	assert_int_equal(rl.suppressed_total, 3);
	assert_int_equal(rl.begin_ns, 100 * MS);
	/* Same window, now 4 allowed in it: 2 more. */
	assert_int_equal(allow_n(&rl, 1500 * MS, 5), 2);
	/* And it now lasts 2 s from 0.1 s. */
	assert_int_equal(allow_n(&rl, 2099 * MS, 1), 0);
	assert_int_equal(allow_n(&rl, 2100 * MS, 1), 1);
	assert_int_equal(rl.suppressed_total, 7);
}

static void set_to_smaller_burst_applies_to_the_rest_of_the_window(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 10);
	assert_int_equal(allow_n(&rl, 0, 3), 3);
	uk_ratelimit_set(&rl, 1000 * MS, 2);
	assert_int_equal(allow_n(&rl, 10, 1), 0);
	uk_ratelimit_set(&rl, 0, 2);
	assert_int_equal(allow_n(&rl, 20, 50), 50);
	assert_int_equal(rl.suppressed_total, 1);
}

static void set_rate_gives_burst_per_burst_over_rate_seconds(void **state)
{
	struct uk_ratelimit rl;
	unsigned int passed = 0;
	uint64_t t;

	uk_ratelimit_init(&rl, 0, 0);
	assert_int_equal(uk_ratelimit_set_rate(&rl, 100, 500), 0);
	assert_int_equal(rl.interval_ns, 5000 * MS);
	assert_int_equal(rl.burst, 500);
	/* A flood of 10 events per ms for 60 s: 100 per second pass. */
	for (t = 0; t < 60000 * MS; t += MS / 10)
		passed += uk_ratelimit_allow(&rl, t);
	assert_int_equal(passed, 6000);
	assert_int_equal(rl.suppressed_total, 600000 - 6000);
}

static void set_rate_zero_is_unlimited_and_zero_burst_is_refused(void **state)
{
	struct uk_ratelimit rl;

	uk_ratelimit_init(&rl, 1000 * MS, 3);
	assert_int_equal(uk_ratelimit_set_rate(&rl, 10, 0), -EINVAL);
	assert_int_equal(rl.interval_ns, 1000 * MS);
	assert_int_equal(rl.burst, 3);
	assert_int_equal(uk_ratelimit_set_rate(&rl, 0, 0), 0);
	assert_int_equal(rl.interval_ns, 0);
	assert_int_equal(allow_n(&rl, 1, 1000), 1000);
	/* Faster than one per ns still limits, it is not "unlimited". */
	assert_int_equal(uk_ratelimit_set_rate(&rl, 4000000000U, 1), 0);
	assert_int_equal(rl.interval_ns, 1);
	assert_int_equal(allow_n(&rl, 5, 3), 1);
	/* The largest values do not overflow. */
	assert_int_equal(uk_ratelimit_set_rate(&rl, 1, UINT32_MAX), 0);
	assert_int_equal(rl.interval_ns, UINT32_MAX * UK_NSEC_PER_SEC);
}

int main(void)
{
	const struct CMUnitTest ratelimit[] = {
		cmocka_unit_test(interval_zero_lets_everything_through),
		cmocka_unit_test(burst_passes_then_the_rest_of_the_window_is_refused),
		cmocka_unit_test(window_ends_exactly_at_begin_plus_interval),
		cmocka_unit_test(new_window_starts_at_the_first_event_after_a_pause),
		cmocka_unit_test(first_event_opens_the_window_whatever_the_time),
		cmocka_unit_test(zero_burst_refuses_everything_and_counts_it),
		cmocka_unit_test(clock_going_back_opens_a_new_window),
		cmocka_unit_test(huge_interval_does_not_wrap_around),
		cmocka_unit_test(take_pending_reads_and_zeroes_but_keeps_the_total),
		cmocka_unit_test(suppress_counts_a_refusal_decided_elsewhere),
		cmocka_unit_test(set_keeps_counters_and_the_current_window),
		cmocka_unit_test(set_to_smaller_burst_applies_to_the_rest_of_the_window),
		cmocka_unit_test(set_rate_gives_burst_per_burst_over_rate_seconds),
		cmocka_unit_test(set_rate_zero_is_unlimited_and_zero_burst_is_refused),
	};

	return cmocka_run_group_tests(ratelimit, NULL, NULL);
}
