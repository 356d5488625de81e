// SPDX-License-Identifier: GPL-2.0
/*
 * The pure half of `uaccessctl list` and `show` (daemon/uaccessctl/match.c):
 * typed matches and their bad forms, --since/--until times with a fixed
 * "now" and fixed time zones, relative times, entries held as journal
 * fields, their JSON objects, the detail block and the list table
 * (compared with golden files in tests/unit/golden/).
 *
 * UK_UPDATE_GOLDEN=1 rewrites the golden files from the output instead
 * of comparing; review the diff before committing it.
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

#include "uaccessctl/match.h"
#include "common/msgid.h"
#include "common/json.h"
#include "common/util.h"

#define USEC		1000000ULL

/* Thu 2026-12-03 07:12:01 UTC */
#define NOW		(1796281921ULL * USEC)

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static int utc(void **state)
{
	set_tz("UTC");
	return 0;
}

/* ---- matches ---- */

static void assert_match(const char *arg, enum uk_match_type type,
			 const char *text)
{
	struct uk_match m;
	char why[256] = "";
	int r = uk_match_parse(arg, &m, why, sizeof(why));

	if (r < 0)
		fail_msg("\"%s\": want %s, got %d (%s)", arg, text, r, why);
	assert_int_equal(m.type, type);
	assert_string_equal(m.text, text);
	/* field_len covers FIELD of FIELD=VALUE */
	assert_int_equal(m.text[m.field_len], '=');
}

static void assert_bad_match(const char *arg, int err, const char *why_part)
{
	struct uk_match m;
	char why[256] = "";
	int r = uk_match_parse(arg, &m, why, sizeof(why));

	if (r != err)
		fail_msg("\"%.40s\": want %d, got %d (%s, text \"%s\")", arg ? arg : "(null)",
			 err, r, why, r < 0 ? "" : m.text);
	if (!strstr(why, why_part))
		fail_msg("\"%.40s\": reason \"%s\" lacks \"%s\"", arg ? arg : "(null)", why,
			 why_part);
}

static void number_is_the_pid(void **state)
{
	assert_match("101", UK_MATCH_PID, "UACCESS_PID=101");
	assert_match("1", UK_MATCH_PID, "UACCESS_PID=1");
	assert_match("0", UK_MATCH_PID, "UACCESS_PID=0");
	assert_match("4294967295", UK_MATCH_PID, "UACCESS_PID=4294967295");
}

static void pid_loses_its_leading_zeros(void **state)
{
	/* The journal holds "7": a match on "007" would find nothing. */
	assert_match("007", UK_MATCH_PID, "UACCESS_PID=7");
}

static void pid_beyond_32_bits_is_out_of_range(void **state)
{
	assert_bad_match("4294967296", -ERANGE, "out of range");
	assert_bad_match("99999999999999999999999999", -ERANGE, "out of range");
}

static void field_equals_value_is_a_raw_match(void **state)
{
	assert_match("UACCESS_COMM=poc", UK_MATCH_FIELD, "UACCESS_COMM=poc");
	assert_match("_HOSTNAME=box", UK_MATCH_FIELD, "_HOSTNAME=box");
	assert_match("MESSAGE_ID=" UK_MSGID_LOSS, UK_MATCH_FIELD,
		     "MESSAGE_ID=" UK_MSGID_LOSS);
	assert_match("A1_B=", UK_MATCH_FIELD, "A1_B=");
	/* Upper case is a journal field as it is, never a shorthand. */
	assert_match("SEQ=1", UK_MATCH_FIELD, "SEQ=1");
	/* Only the first '=' separates. */
	assert_match("UACCESS_COMM=a=b", UK_MATCH_FIELD, "UACCESS_COMM=a=b");
	/* A raw value is taken as it is: a number is not normalized. */
	assert_match("UACCESS_PID=007", UK_MATCH_FIELD, "UACCESS_PID=007");
}

static void lower_case_field_of_uaccessd_is_its_uaccess_field(void **state)
{
	assert_match("seq=5", UK_MATCH_FIELD, "UACCESS_SEQ=5");
	assert_match("comm=poc", UK_MATCH_FIELD, "UACCESS_COMM=poc");
	assert_match("site_function=waitid", UK_MATCH_FIELD,
		     "UACCESS_SITE_FUNCTION=waitid");
	assert_match("addr_class=kernel-mapped", UK_MATCH_FIELD,
		     "UACCESS_ADDR_CLASS=kernel-mapped");
	assert_match("loss_reason=sequence-gap", UK_MATCH_FIELD,
		     "UACCESS_LOSS_REASON=sequence-gap");
	assert_match("stack_hash=0x00001001", UK_MATCH_FIELD,
		     "UACCESS_STACK_HASH=0x00001001");
}

static void match_on_field_is_recognized(void **state)
{
	struct uk_match m;

	assert_int_equal(uk_match_parse("MESSAGE_ID=x", &m, NULL, 0), 0);
	assert_true(uk_match_is_field(&m, "MESSAGE_ID"));
	assert_false(uk_match_is_field(&m, "MESSAGE"));
	assert_false(uk_match_is_field(&m, "MESSAGE_ID_X"));
	assert_int_equal(uk_match_parse("101", &m, NULL, 0), 0);
	assert_true(uk_match_is_field(&m, "UACCESS_PID"));
	assert_int_equal(uk_match_parse("waitid", &m, NULL, 0), 0);
	assert_true(uk_match_is_field(&m, "UACCESS_SITE_FUNCTION"));
	assert_int_equal(uk_match_parse("seq=1", &m, NULL, 0), 0);
	assert_true(uk_match_is_field(&m, "UACCESS_SEQ"));
}

static void other_words_are_the_site_function(void **state)
{
	assert_match("waitid", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=waitid");
	assert_match("waitid+0x1c/0x80", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=waitid");
	assert_match("waitid+0x1c", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=waitid");
	assert_match("demo_ioctl+0x1c/0x80 [uaccess_kaddr_test]",
		     UK_MATCH_FUNCTION, "UACCESS_SITE_FUNCTION=demo_ioctl");
	assert_match("foo [mod-x]", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=foo");
	assert_match("do_sys.constprop.0", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=do_sys.constprop.0");
	assert_match("_x86_sys_waitid2", UK_MATCH_FUNCTION,
		     "UACCESS_SITE_FUNCTION=_x86_sys_waitid2");
}

static void empty_match_is_refused(void **state)
{
	assert_bad_match("", -EINVAL, "empty");
	assert_bad_match(NULL, -EINVAL, "empty");
}

static void match_without_field_name_is_refused(void **state)
{
	assert_bad_match("=x", -EINVAL, "no field name");
	assert_bad_match("=", -EINVAL, "no field name");
}

static void unknown_lower_case_field_is_refused(void **state)
{
	assert_bad_match("foo=bar", -EINVAL, "not a journal field");
	assert_bad_match("Comm=x", -EINVAL, "not a journal field");
	assert_bad_match("uaccess_pid=1", -EINVAL, "not a journal field");
}

static void bad_field_names_are_refused(void **state)
{
	assert_bad_match("1ABC=x", -EINVAL, "not a journal field");
	assert_bad_match("A-B=x", -EINVAL, "not a journal field");
	assert_bad_match("A B=x", -EINVAL, "not a journal field");
	assert_bad_match("UACCESS_PÏD=1", -EINVAL, "not a journal field");
}

static void field_name_over_64_bytes_is_refused(void **state)
{
	char arg[80];

	memset(arg, 'A', 64);
	strcpy(arg + 64, "=1");
	assert_match(arg, UK_MATCH_FIELD, arg);
	memset(arg, 'A', 65);
	strcpy(arg + 65, "=1");
	assert_bad_match(arg, -EINVAL, "longer than 64");
}

static void overlong_match_is_refused(void **state)
{
	char arg[UK_MATCH_MAX + 8];

	strcpy(arg, "MESSAGE=");
	memset(arg + 8, 'x', UK_MATCH_MAX - 1 - 8);
	arg[UK_MATCH_MAX - 1] = '\0';
	assert_match(arg, UK_MATCH_FIELD, arg);
	arg[UK_MATCH_MAX - 1] = 'x';
	arg[UK_MATCH_MAX] = '\0';
	assert_bad_match(arg, -ENAMETOOLONG, "longer than");
	/* A long shorthand grows by "UACCESS_" and must still fit. */
	strcpy(arg, "comm=");
	memset(arg + 5, 'x', UK_MATCH_MAX - 1 - 5);
	arg[UK_MATCH_MAX - 1] = '\0';
	assert_bad_match(arg, -ENAMETOOLONG, "longer than");
}

static void overlong_function_is_refused(void **state)
{
	char arg[200];

	memset(arg, 'f', 127);
	arg[127] = '\0';
	assert_match("f", UK_MATCH_FUNCTION, "UACCESS_SITE_FUNCTION=f");
	{
		struct uk_match m;

		assert_int_equal(uk_match_parse(arg, &m, NULL, 0), 0);
		assert_int_equal(strlen(m.text),
				 strlen("UACCESS_SITE_FUNCTION=") + 127);
	}
	memset(arg, 'f', 128);
	strcpy(arg + 128, "+0x1/0x2");
	assert_bad_match(arg, -ENAMETOOLONG, "function name longer than");
}

static void garbage_is_not_a_function(void **state)
{
	static const char *const bad[] = {
		"+0x1c/0x80", "foo bar", "foo+bar", "foo+0x", "foo+0x1c/",
		"foo+0x1c/0xzz", "foo [", "foo []", "foo [mod", "foo [mo d]",
		"foo [mod] x", "-1", "-n", "foo/bar", "1abc", "0xffffffff81000000",
		"fo\x1bo", "föo", "foo\n", " foo", "foo ",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_bad_match(bad[i], -EINVAL, "is not a pid, FIELD=VALUE or function name");
}

/* ---- times ---- */

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
	set_tz("CET-1");
	assert_time("2026-12-03 08:12:01", NOW);
	assert_time("2026-12-03 07:12:01 UTC", NOW);
	assert_time("08:12:01", NOW);
	/* today's local midnight is 23:00 UTC the day before */
	assert_time("today", NOW - (8 * 3600 + 12 * 60 + 1) * USEC);
	set_tz("UTC");
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
	set_tz("CET-1");
	assert_string_equal(uk_time_format(NOW + 999999, buf, sizeof(buf)),
			    "Thu 2026-12-03 08:12:01 CET");
	set_tz("UTC");
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

/* ---- entries ---- */

#define MACHINE_A	"0f1e2d3c4b5a69788796a5b4c3d2e1f0"
#define MACHINE_B	"1234567890abcdef1234567890abcdef"
#define BOOT_A		"aa11bb22cc33dd44ee55ff6677889900"

static const char *const event_fields[] = {
	"_HOSTNAME=box",
	"_MACHINE_ID=" MACHINE_A,
	"_BOOT_ID=" BOOT_A,
	"_COMM=uaccessd",
	"MESSAGE_ID=" UK_MSGID_EVENT,
	"PRIORITY=4",
	"SYSLOG_IDENTIFIER=uaccessd",
	"MESSAGE=__copy_to_user() to-user kernel address 0xffff888000100008 (kernel-mapped, precheck) at uk_site_1+0x1c/0x80 by uk-gen[101], task context",
	"UACCESS_SEQ=2",
	"UACCESS_TS_BOOT=1000001000",
	"UACCESS_TS_REAL=1796274541000001000",
	"UACCESS_KIND=precheck",
	"UACCESS_HELPER=__copy_to_user",
	"UACCESS_DIRECTION=to-user",
	"UACCESS_ADDR_CLASS=kernel-mapped",
	"UACCESS_ADDRESS=0xffff888000100008",
	"UACCESS_SIZE=16",
	"UACCESS_SITE_ID=1",
	"UACCESS_SITE_SYMBOL=uk_site_1+0x1c/0x80",
	"UACCESS_SITE_IP=0xffffffff81000040",
	"UACCESS_STACK_HASH=0x00001001",
	"UACCESS_PID=101",
	"UACCESS_TGID=101",
	"UACCESS_COMM=uk-gen",
	"UACCESS_UID=1000",
	"UACCESS_SYSCALL_NR=247",
	"UACCESS_CPU=1",
	"UACCESS_COUNT=1",
	"UACCESS_SUPPRESSED=0",
	"UACCESS_CONTEXT=task",
	"UACCESS_STACK=uk_site_1+0x1c/0x80\ndo_syscall_64+0x5d/0x170",
	"UACCESS_STACK_DEPTH=2",
	"UACCESS_SITE_FUNCTION=uk_site_1",
	"UACCESS_SITE_EVENTS=1",
};

static const char *const loss_fields[] = {
	"_HOSTNAME=box",
	"MESSAGE_ID=" UK_MSGID_LOSS,
	"PRIORITY=3",
	"MESSAGE=lost 2 events: sequence-gap (total 2)",
	"UACCESS_LOSS_REASON=sequence-gap",
	"UACCESS_LOSS_COUNT=2",
	"UACCESS_LOSS_TOTAL=2",
	"UACCESS_LOSS_DETAIL=seq 70..71",
};

static void entry_from(struct uk_entry *e, const char *const *fields,
		       size_t n, uint64_t realtime)
{
	size_t i;

	uk_entry_init(e);
	e->realtime_usec = realtime;
	for (i = 0; i < n; i++)
		assert_int_equal(uk_entry_add(e, fields[i], strlen(fields[i])),
				 0);
}

static void add(struct uk_entry *e, const char *datum)
{
	assert_int_equal(uk_entry_add(e, datum, strlen(datum)), 0);
}

static void entry_keeps_fields_and_binary_values(void **state)
{
	static const char bin[] = "UACCESS_COMM=a\0b";
	struct uk_entry e;
	size_t len;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW);
	assert_int_equal(e.n, ARRAY_SIZE(event_fields));
	assert_string_equal(uk_entry_get(&e, "UACCESS_SEQ", &len), "2");
	assert_int_equal(len, 1);
	assert_null(uk_entry_get(&e, "UACCESS_NOPE", &len));
	assert_int_equal(len, 0);
	/* The datum is not NUL-terminated: only @len bytes are read. */
	assert_int_equal(uk_entry_add(&e, "UACCESS_X=abcdef", 12), 0);
	assert_string_equal(uk_entry_get(&e, "UACCESS_X", &len), "ab");
	assert_int_equal(uk_entry_add(&e, bin, sizeof(bin) - 1), 0);
	/* The first of a repeated field is the one found. */
	assert_string_equal(uk_entry_get(&e, "UACCESS_COMM", &len), "uk-gen");
	assert_memory_equal(e.fields[e.n - 1].value, "a\0b", 4);
	assert_int_equal(e.fields[e.n - 1].value_len, 3);
	uk_entry_release(&e);
	assert_int_equal(e.n, 0);
	assert_null(e.fields);
}

static void entry_refuses_data_without_field(void **state)
{
	struct uk_entry e;

	uk_entry_init(&e);
	assert_int_equal(uk_entry_add(&e, "NOEQUALS", 8), -EINVAL);
	assert_int_equal(uk_entry_add(&e, "=x", 2), -EINVAL);
	assert_int_equal(uk_entry_add(&e, "A=x", 1), -EINVAL);	/* cut */
	assert_int_equal(uk_entry_add(&e, "", 0), -EINVAL);
	assert_int_equal(e.n, 0);
	assert_int_equal(uk_entry_add(&e, "A=", 2), 0);
	assert_string_equal(uk_entry_get(&e, "A", NULL), "");
	uk_entry_release(&e);
}

static struct uk_json_value *to_json(const struct uk_entry *e, bool full,
				     const char *catalog)
{
	struct uk_json_value *v = NULL;
	struct uk_json j;
	char *text, err[128];
	size_t len;

	uk_json_init(&j, 0);
	uk_entry_json(&j, e, full, catalog);
	assert_int_equal(uk_json_finish(&j, &text, &len), 0);
	if (uk_json_parse(text, len, &v, err, sizeof(err)) < 0)
		fail_msg("not JSON: %s: %s", err, text);
	free(text);
	return v;
}

static void assert_json_u64(const struct uk_json_value *o, const char *key,
			    uint64_t want)
{
	uint64_t got;

	if (uk_json_get_u64(uk_json_object_get(o, key), &got) < 0)
		fail_msg("\"%s\" is not an unsigned number", key);
	assert_int_equal(got, want);
}

static void assert_json_str(const struct uk_json_value *o, const char *key,
			    const char *want)
{
	const char *got;

	if (uk_json_get_str(uk_json_object_get(o, key), &got) < 0)
		fail_msg("\"%s\" is not a string", key);
	assert_string_equal(got, want);
}

static void json_has_every_field_lower_case_and_typed(void **state)
{
	struct uk_json_value *v;
	const struct uk_json_value *stack;
	struct uk_entry e;
	const char *s;
	size_t i, n_uaccess = 0;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW + 17);
	v = to_json(&e, false, NULL);
	assert_json_u64(v, "time", NOW + 17);
	assert_json_str(v, "hostname", "box");
	assert_json_str(v, "machine_id", MACHINE_A);
	assert_json_str(v, "boot_id", BOOT_A);
	assert_json_str(v, "message_id", UK_MSGID_EVENT);
	assert_json_u64(v, "priority", 4);
	assert_json_u64(v, "seq", 2);
	assert_json_u64(v, "ts_real", 1796274541000001000ULL);
	assert_json_u64(v, "ts_boot", 1000001000ULL);
	assert_json_str(v, "kind", "precheck");
	assert_json_str(v, "helper", "__copy_to_user");
	assert_json_str(v, "direction", "to-user");
	assert_json_str(v, "addr_class", "kernel-mapped");
	assert_json_str(v, "address", "0xffff888000100008");
	assert_json_u64(v, "size", 16);
	assert_json_u64(v, "site_id", 1);
	assert_json_str(v, "site_symbol", "uk_site_1+0x1c/0x80");
	assert_json_str(v, "site_ip", "0xffffffff81000040");
	assert_json_str(v, "stack_hash", "0x00001001");
	assert_json_u64(v, "pid", 101);
	assert_json_u64(v, "tgid", 101);
	assert_json_str(v, "comm", "uk-gen");
	assert_json_u64(v, "uid", 1000);
	assert_json_u64(v, "syscall_nr", 247);
	assert_json_u64(v, "cpu", 1);
	assert_json_u64(v, "count", 1);
	assert_json_u64(v, "suppressed", 0);
	assert_json_str(v, "context", "task");
	assert_json_u64(v, "stack_depth", 2);
	assert_json_str(v, "site_function", "uk_site_1");
	assert_json_u64(v, "site_events", 1);
	stack = uk_json_object_get(v, "stack");
	assert_int_equal(uk_json_type(stack), UK_JSON_ARRAY);
	assert_int_equal(uk_json_array_len(stack), 2);
	assert_int_equal(uk_json_get_str(uk_json_array_at(stack, 0), &s), 0);
	assert_string_equal(s, "uk_site_1+0x1c/0x80");
	assert_int_equal(uk_json_get_str(uk_json_array_at(stack, 1), &s), 0);
	assert_string_equal(s, "do_syscall_64+0x5d/0x170");
	/* One key per UACCESS_* field, no fields of other programs. */
	for (i = 0; i < ARRAY_SIZE(event_fields); i++)
		n_uaccess += !strncmp(event_fields[i], "UACCESS_", 8);
	assert_int_equal(uk_json_object_len(v), n_uaccess + 7);
	assert_null(uk_json_object_get(v, "_comm"));
	assert_null(uk_json_object_get(v, "syslog_identifier"));
	assert_null(uk_json_object_get(v, "cursor"));
	assert_null(uk_json_object_get(v, "catalog"));
	uk_json_value_free(v);
	uk_entry_release(&e);
}

static void json_full_adds_cursor_and_catalog(void **state)
{
	struct uk_json_value *v;
	struct uk_entry e;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW);
	e.cursor = strdup("s=abc;i=1");
	v = to_json(&e, true, "Subject: x\n\ntext\n");
	assert_json_str(v, "cursor", "s=abc;i=1");
	assert_json_str(v, "catalog", "Subject: x\n\ntext\n");
	uk_json_value_free(v);
	free(e.cursor);
	e.cursor = NULL;
	v = to_json(&e, true, NULL);
	assert_int_equal(uk_json_type(uk_json_object_get(v, "cursor")),
			 UK_JSON_NULL);
	assert_null(uk_json_object_get(v, "catalog"));
	uk_json_value_free(v);
	uk_entry_release(&e);
}

static void json_of_odd_values_stays_valid(void **state)
{
	static const char *const odd[] = {
		"UACCESS_PID=abc",		/* not a number: a string */
		"UACCESS_CPU=-1",		/* unsigned field, signed value */
		"UACCESS_SYSCALL_NR=-1",	/* signed field */
		"UACCESS_COUNT=99999999999999999999",	/* beyond 64 bits */
		"UACCESS_SEQ=",
		"UACCESS_SIZE= 5",
		"UACCESS_TIME=shadow",		/* would be "time": dropped */
		"UACCESS_HOSTNAME=shadow",
		"UACCESS_=nothing",
		"UACCESS_COMM=bad\xff\x01",
		"UACCESS_STACK=",
		"UACCESS_NEW_FIELD=from a newer uaccessd",
	};
	static const char dup[] = "UACCESS_COMM=second";
	struct uk_json_value *v;
	struct uk_entry e;
	const char *s;
	int64_t sv;

	entry_from(&e, odd, ARRAY_SIZE(odd), NOW);
	assert_int_equal(uk_entry_add(&e, dup, strlen(dup)), 0);
	assert_int_equal(uk_entry_add(&e, "UACCESS_UID=1\0002", 15), 0);
	v = to_json(&e, false, NULL);
	assert_json_str(v, "pid", "abc");
	assert_json_str(v, "cpu", "-1");
	assert_int_equal(uk_json_get_s64(uk_json_object_get(v, "syscall_nr"),
					 &sv), 0);
	assert_int_equal(sv, -1);
	assert_json_str(v, "count", "99999999999999999999");
	assert_json_str(v, "seq", "");
	assert_json_str(v, "size", " 5");
	assert_json_u64(v, "time", NOW);
	assert_int_equal(uk_json_type(uk_json_object_get(v, "hostname")),
			 UK_JSON_NULL);
	assert_int_equal(uk_json_type(uk_json_object_get(v, "priority")),
			 UK_JSON_NULL);
	assert_null(uk_json_object_get(v, ""));
	/* Invalid UTF-8 becomes U+FFFD; the first of a repeated field. */
	assert_int_equal(uk_json_get_str(uk_json_object_get(v, "comm"), &s), 0);
	assert_string_equal(s, "bad\xef\xbf\xbd\x01");
	assert_int_equal(uk_json_array_len(uk_json_object_get(v, "stack")), 0);
	assert_json_str(v, "new_field", "from a newer uaccessd");
	/* A NUL byte in a number: kept as a string, in full. */
	{
		const char *u;
		size_t len;

		assert_int_equal(uk_json_get_strn(uk_json_object_get(v, "uid"),
						  &u, &len), 0);
		assert_int_equal(len, 3);
		assert_memory_equal(u, "1\0002", 3);
	}
	uk_json_value_free(v);
	uk_entry_release(&e);
}

/* ---- text output and golden files ---- */

static char *golden_path(const char *name)
{
	const char *dir = getenv("UK_TEST_DATA");
	char *p;

	if (dir)
		assert_true(asprintf(&p, "%s/golden/%s", dir, name) > 0);
	else
		assert_true(asprintf(&p, "%.*s/golden/%s",
				     (int)(strrchr(__FILE__, '/') - __FILE__),
				     __FILE__, name) > 0);
	return p;
}

static void assert_golden(const char *name, const char *got)
{
	char *path = golden_path(name), *want = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if (getenv("UK_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
		free(path);
		return;
	}
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	n = getdelim(&want, &cap, '\0', f);
	fclose(f);
	assert_true(n > 0);
	if (strcmp(want, got))
		fail_msg("output differs from %s:\n--- want\n%s--- got\n%s",
			 path, want, got);
	free(want);
	free(path);
}

/* Runs @fn into a memory stream and gives the text. */
static char *capture_show(const struct uk_entry *e, const char *catalog)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(uk_entry_show(f, e, NOW, catalog), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void show_block_of_an_event(void **state)
{
	static const char catalog[] =
		"Subject: Kernel address handed to a user-access helper\n"
		"Defined-By: uaccessd\n"
		"\n"
		"The kernel passed a kernel address to a user-access helper.";
	struct uk_entry e;
	char *text;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields),
		   NOW - 7380 * USEC);
	text = capture_show(&e, catalog);
	assert_golden("journal-show-event.txt", text);
	free(text);
	uk_entry_release(&e);
}

static void show_block_of_a_loss_entry_names_its_own_fields(void **state)
{
	struct uk_entry e;
	char *text;

	entry_from(&e, loss_fields, ARRAY_SIZE(loss_fields), NOW - 12 * USEC);
	text = capture_show(&e, NULL);
	assert_golden("journal-show-loss.txt", text);
	free(text);
	uk_entry_release(&e);
}

static void show_block_of_a_sparse_event(void **state)
{
	/* Interrupt context: no task; a symbol-less site; an empty stack. */
	static const char *const sparse[] = {
		"MESSAGE_ID=" UK_MSGID_EVENT,
		"UACCESS_SEQ=9",
		"UACCESS_KIND=gp",
		"UACCESS_ADDR_CLASS=noncanonical",
		"UACCESS_SITE_IP=0xffffffff81000040",
		"UACCESS_COMM=evil\x1b[2Jname",
		"UACCESS_SUPPRESSED=4",
		"UACCESS_TS_BOOT=5",
		"UACCESS_STACK_DEPTH=0",
		"UACCESS_CONTEXT=hardirq",
	};
	struct uk_entry e;
	char *text;

	entry_from(&e, sparse, ARRAY_SIZE(sparse), NOW);
	text = capture_show(&e, NULL);
	assert_golden("journal-show-sparse.txt", text);
	/* No escape sequence reaches the terminal. */
	assert_null(strchr(text, '\x1b'));
	free(text);
	uk_entry_release(&e);
}

static char *capture_table(const struct uk_list_table *t, bool legend)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(uk_list_table_print(t, f, legend), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Two events of machine A, one whose task name would move the cursor. */
static void fill_table(struct uk_list_table *t, bool fleet)
{
	struct uk_entry e;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields),
		   NOW - 3600 * USEC);
	assert_int_equal(uk_list_table_add(t, &e), 0);
	uk_entry_release(&e);

	{
		static const char *const second[] = {
			"UACCESS_PID=4194304",
			"UACCESS_COMM=x\x1b[31mred",
			"UACCESS_HELPER=copy_user_generic",
			"UACCESS_DIRECTION=from-user",
			"UACCESS_ADDRESS=0x8000000000000000",
			"UACCESS_SITE_SYMBOL=demo_ioctl+0x1c/0x80 [uaccess_kaddr_test]",
			"UACCESS_KIND=fault",
		};

		entry_from(&e, second, ARRAY_SIZE(second), NOW);
		add(&e, fleet ? "_MACHINE_ID=" MACHINE_B :
				"_MACHINE_ID=" MACHINE_A);
		add(&e, fleet ? "_HOSTNAME=node-b2" : "_HOSTNAME=box");
		assert_int_equal(uk_list_table_add(t, &e), 0);
		uk_entry_release(&e);
	}
	/* A loss entry listed with a MESSAGE_ID= match: empty cells. */
	entry_from(&e, loss_fields, ARRAY_SIZE(loss_fields), NOW + USEC);
	add(&e, "_MACHINE_ID=" MACHINE_A);
	assert_int_equal(uk_list_table_add(t, &e), 0);
	uk_entry_release(&e);
}

static void list_table_of_one_machine(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, false);
	assert_false(uk_list_table_fleet(&t));
	text = capture_table(&t, true);
	assert_golden("journal-list.txt", text);
	assert_null(strchr(text, '\x1b'));
	free(text);
	uk_list_table_release(&t);
}

static void list_table_without_legend_has_rows_only(void **state)
{
	struct uk_list_table t;
	char *text, *p;
	int lines = 0;

	uk_list_table_init(&t);
	fill_table(&t, false);
	text = capture_table(&t, false);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	assert_null(strstr(text, "TIME"));
	assert_null(strstr(text, "listed"));
	assert_true(!strncmp(text, "Thu 2026-12-03 06:12:01 UTC     101 uk-gen",
			     42));
	free(text);
	uk_list_table_release(&t);
}

static void list_table_of_a_fleet_shows_hostnames(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, true);
	assert_true(uk_list_table_fleet(&t));
	text = capture_table(&t, true);
	assert_golden("journal-list-fleet.txt", text);
	free(text);
	uk_list_table_release(&t);
}

static void empty_list_table_prints_the_legend_only(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	text = capture_table(&t, true);
	assert_string_equal(text,
			    "TIME PID COMM HELPER DIR ADDRESS SITE KIND\n"
			    "\n0 entries listed.\n");
	free(text);
	text = capture_table(&t, false);
	assert_string_equal(text, "");
	free(text);
}

static void fleet_is_told_by_machine_id_then_hostname(void **state)
{
	static const char *const a[] = { "_HOSTNAME=same" };
	static const char *const b[] = { "_HOSTNAME=other" };
	static const char *const none[] = { "UACCESS_PID=1" };
	struct uk_list_table t;
	struct uk_entry e;

	uk_list_table_init(&t);
	entry_from(&e, a, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_false(uk_list_table_fleet(&t));
	entry_from(&e, b, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_true(uk_list_table_fleet(&t));
	uk_list_table_release(&t);

	/* An entry with no machine at all next to one with a machine. */
	entry_from(&e, none, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	assert_false(uk_list_table_fleet(&t));
	uk_entry_release(&e);
	entry_from(&e, a, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_true(uk_list_table_fleet(&t));
	uk_list_table_release(&t);
}

static void list_table_grows_past_its_first_allocation(void **state)
{
	struct uk_list_table t;
	struct uk_entry e;
	char *text, *p;
	size_t i, lines = 0;

	uk_list_table_init(&t);
	for (i = 0; i < 200; i++) {
		char pid[32];

		snprintf(pid, sizeof(pid), "UACCESS_PID=%zu", i);
		entry_from(&e, NULL, 0, NOW + i * USEC);
		add(&e, pid);
		assert_int_equal(uk_list_table_add(&t, &e), 0);
		uk_entry_release(&e);
	}
	assert_int_equal(t.n, 200);
	assert_string_equal(t.rows[199].cell[UK_LIST_PID], "199");
	assert_string_equal(t.rows[0].cell[UK_LIST_COMM], "-");
	text = capture_table(&t, false);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 200);
	free(text);
	uk_list_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest cli_match[] = {
		cmocka_unit_test(number_is_the_pid),
		cmocka_unit_test(pid_loses_its_leading_zeros),
		cmocka_unit_test(pid_beyond_32_bits_is_out_of_range),
		cmocka_unit_test(field_equals_value_is_a_raw_match),
		cmocka_unit_test(lower_case_field_of_uaccessd_is_its_uaccess_field),
		cmocka_unit_test(match_on_field_is_recognized),
		cmocka_unit_test(other_words_are_the_site_function),
		cmocka_unit_test(empty_match_is_refused),
		cmocka_unit_test(match_without_field_name_is_refused),
		cmocka_unit_test(unknown_lower_case_field_is_refused),
		cmocka_unit_test(bad_field_names_are_refused),
		cmocka_unit_test(field_name_over_64_bytes_is_refused),
		cmocka_unit_test(overlong_match_is_refused),
		cmocka_unit_test(overlong_function_is_refused),
		cmocka_unit_test(garbage_is_not_a_function),
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
		cmocka_unit_test(entry_keeps_fields_and_binary_values),
		cmocka_unit_test(entry_refuses_data_without_field),
		cmocka_unit_test(json_has_every_field_lower_case_and_typed),
		cmocka_unit_test(json_full_adds_cursor_and_catalog),
		cmocka_unit_test(json_of_odd_values_stays_valid),
		cmocka_unit_test(show_block_of_an_event),
		cmocka_unit_test(show_block_of_a_loss_entry_names_its_own_fields),
		cmocka_unit_test(show_block_of_a_sparse_event),
		cmocka_unit_test(list_table_of_one_machine),
		cmocka_unit_test(list_table_without_legend_has_rows_only),
		cmocka_unit_test(list_table_of_a_fleet_shows_hostnames),
		cmocka_unit_test(empty_list_table_prints_the_legend_only),
		cmocka_unit_test(fleet_is_told_by_machine_id_then_hostname),
		cmocka_unit_test(list_table_grows_past_its_first_allocation),
	};

	return cmocka_run_group_tests(cli_match, utc, NULL);
}
