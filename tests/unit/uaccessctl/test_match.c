// SPDX-License-Identifier: GPL-2.0
/*
 * The matches of `uaccessctl list` and `show` (daemon/uaccessctl/match.c):
 * typed matches and their bad forms.
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

#include "common/msgid.h"
#include "common/util.h"
#include "uaccessctl/match.h"

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

int main(void)
{
	const struct CMUnitTest match[] = {
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
	};

	return cmocka_run_group_tests(match, NULL, NULL);
}
