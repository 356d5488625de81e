// SPDX-License-Identifier: GPL-2.0
/*
 * Times as people write them (daemon/common/time.c): --since/--until
 * times with a fixed "now" and fixed time zones, relative times, and
 * times formatted as coredumpctl and systemd do.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "common/time.h"
#include "common/util.h"
#include "fixtures.h"

#define USEC		1000000ULL

/* Thu 2026-12-03 07:12:01 UTC */
#define NOW		(1796281921ULL * USEC)

static void assert_time(const char *s, uint64_t want)
{
	char why[256] = "";
	uint64_t got = 0;
	int r = uk_time_parse(s, NOW, &got, why, sizeof(why));

	if (r < 0)
		fail_msg("\"%s\": want %llu, got %d (%s)", s,
			 (unsigned long long)want, r, why);
	if (got != want)
		fail_msg("\"%s\": want %llu, got %llu (%+lld s)", s,
			 (unsigned long long)want, (unsigned long long)got,
			 ((long long)got - (long long)want) / (long long)USEC);
}

static void assert_bad_time(const char *s, int err)
{
	char why[256] = "";
	uint64_t got = 12345;
	int r = uk_time_parse(s, NOW, &got, why, sizeof(why));

	if (r != err)
		fail_msg("\"%s\": want %d, got %d (%llu)", s ? s : "(null)",
			 err, r, (unsigned long long)got);
	assert_true(why[0] != '\0');
	assert_int_equal(got, 12345);	/* untouched on error */
}

static void full_date_and_time_is_local_time(void **state)
{
	assert_time("2026-12-03 07:12:01", NOW);
	assert_time("2026-12-03T07:12:01", NOW);
	assert_time("2026-12-03 07:12", NOW - 1 * USEC);
	assert_time("2026-12-03", NOW - (7 * 3600 + 12 * 60 + 1) * USEC);
	assert_time("2026-1-3", 1767398400ULL * USEC);
	assert_time("2026-12-03 07:12:01.5", NOW + 500000);
	assert_time("2026-12-03 07:12:01.123456789", NOW + 123456);
	assert_time("1970-01-01 00:00:00", 0);
	/* 2028 is a leap year */
	assert_time("2028-02-29 00:00:00", 1835395200ULL * USEC);
}

static void date_in_another_time_zone_is_taken_as_local(void **state)
{
	uk_test_set_tz("CET-1");
	assert_time("2026-12-03 08:12:01", NOW);
	assert_time("2026-12-03 07:12:01 UTC", NOW);
	assert_time("08:12:01", NOW);
	/* today's local midnight is 23:00 UTC the day before */
	assert_time("today", NOW - (8 * 3600 + 12 * 60 + 1) * USEC);
	uk_test_set_tz("UTC");
}

static void clock_time_alone_is_today(void **state)
{
	assert_time("07:12:01", NOW);
	assert_time("00:00", NOW - (7 * 3600 + 12 * 60 + 1) * USEC);
	assert_time("23:59:59", NOW + (16 * 3600 + 47 * 60 + 58) * USEC);
}

static void named_days_are_local_midnights(void **state)
{
	uint64_t midnight = NOW - (7 * 3600 + 12 * 60 + 1) * USEC;

	assert_time("now", NOW);
	assert_time("today", midnight);
	assert_time("yesterday", midnight - 86400 * USEC);
	assert_time("tomorrow", midnight + 86400 * USEC);
}

static void epoch_seconds_after_at(void **state)
{
	assert_time("@1796281921", NOW);
	assert_time("@0", 0);
}

static void relative_times_count_from_now(void **state)
{
	assert_time("-1h", NOW - 3600 * USEC);
	assert_time("+30min", NOW + 1800 * USEC);
	assert_time("-90", NOW - 90 * USEC);
	assert_time("1h ago", NOW - 3600 * USEC);
	assert_time("2 days ago", NOW - 2 * 86400 * USEC);
	assert_time("1h 30min ago", NOW - 5400 * USEC);
	assert_time("1h30min ago", NOW - 5400 * USEC);
	assert_time("-1d12h", NOW - 36 * 3600 * USEC);
	assert_time("1.5h ago", NOW - 5400 * USEC);
	assert_time("90 ago", NOW - 90 * USEC);
	assert_time("-500ms", NOW - 500000);
	assert_time("-1w", NOW - 7 * 86400 * USEC);
	assert_time("-1M", NOW - 2629800ULL * USEC);
	assert_time("-1y", NOW - 31557600ULL * USEC);
	assert_time("-2 weeks", NOW - 14 * 86400 * USEC);
	assert_time("-3 minutes 2s", NOW - 182 * USEC);
	assert_time("-0s", NOW);
	/* A long fraction of a big unit: no overflow on the way. */
	assert_time("-0.999999999y", NOW - 31557599968442ULL);
	assert_time("-1.000000001y", NOW - 31557600031557ULL);
}

static void bad_times_are_refused(void **state)
{
	static const char *const bad[] = {
		"", "garbage", "2026-13-01", "2026-00-10", "2026-12-32",
		"2026-02-30", "2026-12-03 25:00", "2026-12-03 07:60",
		"2026-12-03 07:12:61", "2026-12-03 07:12:01 PST",
		"2026-12-03  07:12:01", "2026-12-03 7", "26-12-03",
		"2026-12-03 07:12:01.", "-", "+", "-1x", "-1h ago", "1h",
		"ago", " ago", "1h ago ago", "-h", "-1.h", "@", "@12a", "@-1",
		"now ", "Today", "1 hour from now", "2026-12-03 07:12:01 utc",
		"12345678901234567890123456789012345678901234567890123456789012345",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_bad_time(bad[i], -EINVAL);
	assert_bad_time(NULL, -EINVAL);
}

static void times_out_of_range_are_refused(void **state)
{
	assert_bad_time("-100y", -ERANGE);	/* before the epoch */
	assert_bad_time("1969-12-31 23:59:59", -ERANGE);
	assert_bad_time("+99999999999999999999s", -ERANGE);
	assert_bad_time("+600000y", -ERANGE);
	assert_bad_time("@99999999999999999999", -ERANGE);
	assert_bad_time("@18446744073710", -ERANGE);
}

static void time_is_formatted_as_coredumpctl_does(void **state)
{
	char buf[64];

	assert_string_equal(uk_time_format(NOW, buf, sizeof(buf)),
			    "Thu 2026-12-03 07:12:01 UTC");
	uk_test_set_tz("CET-1");
	assert_string_equal(uk_time_format(NOW + 999999, buf, sizeof(buf)),
			    "Thu 2026-12-03 08:12:01 CET");
	uk_test_set_tz("UTC");
	assert_string_equal(uk_time_format(NOW, buf, 8), "n/a");
}

static void relative_time_is_formatted_as_systemd_does(void **state)
{
	static const struct {
		uint64_t ago;
		const char *want;
	} cases[] = {
		{ 0, "now" },
		{ 7, "7us ago" },
		{ 1500, "1ms ago" },
		{ 12 * USEC, "12s ago" },
		{ 150 * USEC, "2min 30s ago" },
		{ 600 * USEC, "10min ago" },
		{ 7380 * USEC, "2h 3min ago" },
		{ 8 * 3600 * USEC, "8h ago" },
		{ 26 * 3600 * USEC, "1 day 2h ago" },
		{ 3 * 86400 * USEC, "3 days ago" },
		{ 9 * 86400 * USEC, "1 weeks 2 days ago" },
		{ 40 * 86400 * USEC, "1 months 9 days ago" },
		{ 400 * 86400 * USEC, "1 years 1 months ago" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_string_equal(uk_time_format_relative(NOW - cases[i].ago,
							    NOW, buf,
							    sizeof(buf)),
				    cases[i].want);
	assert_string_equal(uk_time_format_relative(NOW + 90 * USEC, NOW, buf,
						    sizeof(buf)),
			    "1min 30s left");
}

/* ---- spans ---- */

/* One span per flag set: what each of the three users accepts. */
static void spans_take_what_their_flags_allow(void **state)
{
	static const struct {
		const char *s;
		unsigned int flags;
		int ret;
		uint64_t usec;
	} cases[] = {
		/* --timeout: seconds with a fraction, no unit */
		{ "5", UK_SPAN_FRACTION, 0, 5000000 },
		{ "0.5", UK_SPAN_FRACTION, 0, 500000 },
		{ "0.05", UK_SPAN_FRACTION, 0, 50000 },
		{ "1.2345", UK_SPAN_FRACTION, 0, 1234500 },
		{ "0", UK_SPAN_FRACTION, 0, 0 },
		{ "86400.001", UK_SPAN_FRACTION, 0, 86400001000 },
		{ "99999999999999999999999", UK_SPAN_FRACTION, -ERANGE, 0 },
		{ "", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ ".5", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "5.", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "5s", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "1.x", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "-1", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "1..2", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ "1e3", UK_SPAN_FRACTION, -EINVAL, 0 },
		{ " 5", UK_SPAN_FRACTION, -EINVAL, 0 },
		/* uaccessd.conf: an integer and ms, s, m, h or d */
		{ "500ms", UK_SPAN_UNITS, 0, 500000 },
		{ "90", UK_SPAN_UNITS, 0, 90000000 },
		{ "5m", UK_SPAN_UNITS, 0, 300000000 },
		{ "1d", UK_SPAN_UNITS, 0, 86400000000 },
		{ "0ms", UK_SPAN_UNITS, 0, 0 },
		{ "1.5s", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "5 m", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "5min", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "10us", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "1h30m", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "s", UK_SPAN_UNITS, -EINVAL, 0 },
		{ "99999999999999999d", UK_SPAN_UNITS, -ERANGE, 0 },
		/* --since -1h30min: systemd's spans */
		{ "1h 30min", UK_SPAN_SYSTEMD, 0, 5400000000 },
		{ "1h30m", UK_SPAN_SYSTEMD, 0, 5400000000 },
		{ ".5s", UK_SPAN_SYSTEMD, 0, 500000 },
		{ "2.5d", UK_SPAN_SYSTEMD, 0, 216000000000 },
		{ "10us", UK_SPAN_SYSTEMD, 0, 10 },
		{ "1 M", UK_SPAN_SYSTEMD, 0, 2629800000000 },
		{ "5 fortnights", UK_SPAN_SYSTEMD, -EINVAL, 0 },
	};
	uint64_t usec;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		usec = 12345;
		r = uk_time_parse_span(cases[i].s, cases[i].flags, &usec, NULL,
				       NULL, 0);
		if (r != cases[i].ret)
			fail_msg("\"%s\" (flags %u): expected %d, got %d",
				 cases[i].s, cases[i].flags, cases[i].ret, r);
		if (!r && usec != cases[i].usec)
			fail_msg("\"%s\": expected %llu us, got %llu",
				 cases[i].s, (unsigned long long)cases[i].usec,
				 (unsigned long long)usec);
		if (r)
			assert_int_equal(usec, 12345);
	}
	assert_int_equal(uk_time_parse_span(NULL, UK_SPAN_SYSTEMD, &usec, NULL,
					    NULL, 0), -EINVAL);
}

/* ---- clocks ---- */

/* Mon 2025-11-24 16:00:00 UTC */
#define REAL_NS		1764000000000000000ULL
#define BOOT_NS		1000000000000ULL

static void time_formats_local_time(void **state)
{
	char buf[64];

	assert_int_equal(uk_time_format_date(REAL_NS, false, buf,
					    sizeof(buf)), 19);
	assert_string_equal(buf, "2025-11-24 16:00:00");
	assert_int_equal(uk_time_format_date(REAL_NS + 1234567, true, buf,
					    sizeof(buf)), 26);
	assert_string_equal(buf, "2025-11-24 16:00:00.001234");
	assert_int_equal(uk_time_format_date(REAL_NS + 999999999, true,
					    buf, sizeof(buf)), 26);
	assert_string_equal(buf, "2025-11-24 16:00:00.999999");
	assert_int_equal(uk_time_format_date(0, true, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "-");
	/* a buffer too small for the date */
	assert_int_equal(uk_time_format_date(REAL_NS, false, buf, 10), 1);
	assert_string_equal(buf, "-");
	/* too small for the microseconds: cut, NUL-terminated */
	assert_int_equal(uk_time_format_date(REAL_NS, true, buf, 23), 22);
	assert_string_equal(buf, "2025-11-24 16:00:00.00");
	uk_test_set_tz("UTC-2");
	uk_time_format_date(REAL_NS, false, buf, sizeof(buf));
	uk_test_set_tz("UTC");
	assert_string_equal(buf, "2025-11-24 18:00:00");
}

static void boot_time_is_made_wall_time(void **state)
{
	assert_true(uk_time_boot_to_real(BOOT_NS, REAL_NS, BOOT_NS) == REAL_NS);
	assert_true(uk_time_boot_to_real(BOOT_NS - 5000000000ULL, REAL_NS,
					 BOOT_NS) == REAL_NS - 5000000000ULL);
	assert_true(uk_time_boot_to_real(1, REAL_NS, BOOT_NS) ==
		    REAL_NS - BOOT_NS + 1);
	assert_true(uk_time_boot_to_real(0, REAL_NS, BOOT_NS) == 0);
	/* from the future (another boot's clock): unknown */
	assert_true(uk_time_boot_to_real(BOOT_NS + 1, REAL_NS, BOOT_NS) == 0);
	/* before the epoch: unknown */
	assert_true(uk_time_boot_to_real(BOOT_NS - 5000, 1000, BOOT_NS) == 0);
	assert_true(uk_time_boot_to_real(BOOT_NS - 5000, 5000, BOOT_NS) == 0);
	assert_true(uk_time_boot_to_real(BOOT_NS - 5000, 5001, BOOT_NS) == 1);
}

static void clocks_read_in_their_units(void **state)
{
	uint64_t ns = uk_time_now_ns(), ms = uk_time_now_ms();
	uint64_t real = uk_time_real_usec();

	/* read after @ns: not earlier, and not a unit off */
	assert_true(ms >= ns / 1000000 && ms - ns / 1000000 < 60000);
	/* after 2025 and before 2100 */
	assert_true(real > 1735689600ULL * 1000000 &&
		    real < 4102444800ULL * 1000000);
}

int main(void)
{
	const struct CMUnitTest times[] = {
		cmocka_unit_test(full_date_and_time_is_local_time),
		cmocka_unit_test(date_in_another_time_zone_is_taken_as_local),
		cmocka_unit_test(clock_time_alone_is_today),
		cmocka_unit_test(named_days_are_local_midnights),
		cmocka_unit_test(epoch_seconds_after_at),
		cmocka_unit_test(relative_times_count_from_now),
		cmocka_unit_test(bad_times_are_refused),
		cmocka_unit_test(times_out_of_range_are_refused),
		cmocka_unit_test(time_is_formatted_as_coredumpctl_does),
		cmocka_unit_test(relative_time_is_formatted_as_systemd_does),
		cmocka_unit_test(spans_take_what_their_flags_allow),
		cmocka_unit_test(time_formats_local_time),
		cmocka_unit_test(boot_time_is_made_wall_time),
		cmocka_unit_test(clocks_read_in_their_units),
	};

	return cmocka_run_group_tests(times, uk_test_utc, NULL);
}
