// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer and reader (daemon/common/json.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/fields.h"
#include "common/json.h"
#include "common/util.h"

/* Finishes @j and compares with @expected; frees the text. */
static void assert_json(struct uk_json *j, const char *expected)
{
	char *out = NULL;
	size_t len = 0;

	assert_int_equal(uk_json_finish(j, &out, &len), 0);
	assert_string_equal(out, expected);
	assert_int_equal(len, strlen(expected));
	free(out);
}

static void assert_finish_fails(struct uk_json *j, int err)
{
	char *out = NULL;

	assert_int_equal(uk_json_finish(j, &out, NULL), err);
	assert_null(out);
}

/* ---- writer ---- */

static void writer_builds_nested_values(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "a", 1);
	uk_json_key(&j, "b");
	uk_json_array_begin(&j);
	uk_json_bool(&j, true);
	uk_json_bool(&j, false);
	uk_json_null(&j);
	uk_json_array_begin(&j);
	uk_json_array_end(&j);
	uk_json_object_begin(&j);
	uk_json_object_end(&j);
	uk_json_array_end(&j);
	uk_json_key(&j, "c");
	uk_json_object_begin(&j);
	uk_json_kv_s64(&j, "d", -5);
	uk_json_kv_str(&j, "e", "x");
	uk_json_kv_bool(&j, "f", true);
	uk_json_key(&j, "g");
	uk_json_str(&j, NULL);
	uk_json_object_end(&j);
	uk_json_object_end(&j);
	assert_int_equal(uk_json_error(&j), 0);
	assert_json(&j, "{\"a\":1,\"b\":[true,false,null,[],{}],"
		    "\"c\":{\"d\":-5,\"e\":\"x\",\"f\":true,\"g\":null}}");
}

static void writer_writes_64bit_extremes(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_array_begin(&j);
	uk_json_u64(&j, UINT64_MAX);
	uk_json_s64(&j, INT64_MIN);
	uk_json_s64(&j, INT64_MAX);
	uk_json_u64(&j, 0);
	uk_json_array_end(&j);
	assert_json(&j, "[18446744073709551615,-9223372036854775808,"
		    "9223372036854775807,0]");
}

static void writer_escapes_quote_backslash_and_control_chars(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_str(&j, "a\"b\\c\nd\x01\x1f\x7f/");
	assert_json(&j, "\"a\\\"b\\\\c\\u000ad\\u0001\\u001f\x7f/\"");
}

static void writer_escapes_keys_too(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "k\"\t", 1);
	uk_json_object_end(&j);
	assert_json(&j, "{\"k\\\"\\u0009\":1}");
}

static void writer_keeps_embedded_nul_escaped(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_strn(&j, "a\0b", 3);
	assert_json(&j, "\"a\\u0000b\"");
}

static void writer_passes_valid_utf8_unchanged(void **state)
{
	/* é, €, U+1F600, U+10FFFF, U+FFFD itself */
	const char *s = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
			"\xf4\x8f\xbf\xbf\xef\xbf\xbd";
	struct uk_json j;
	char expected[64];

	snprintf(expected, sizeof(expected), "\"%s\"", s);
	uk_json_init(&j, 0);
	uk_json_str(&j, s);
	assert_json(&j, expected);
}

static void writer_replaces_invalid_utf8_bytes(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} cases[] = {
		{ "\xff", "\"\xef\xbf\xbd\"" },
		{ "a\x80z", "\"a\xef\xbf\xbdz\"" },
		/* overlong '/' */
		{ "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* overlong 3-byte form of U+0000..U+07FF */
		{ "\xe0\x80\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* encoded surrogate U+D800 */
		{ "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* above U+10FFFF */
		{ "\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd"
				      "\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* truncated sequence at the end */
		{ "x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* a lead byte followed by ASCII */
		{ "\xc3(", "\"\xef\xbf\xbd(\"" },
	};
	struct uk_json_value *v;
	struct uk_json j;
	size_t i, len;
	char *out;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uk_json_init(&j, 0);
		uk_json_str(&j, cases[i].in);
		assert_int_equal(uk_json_finish(&j, &out, &len), 0);
		assert_string_equal(out, cases[i].out);
		/* and the strict reader accepts it */
		assert_int_equal(uk_json_parse(out, len, &v, NULL, 0), 0);
		uk_json_value_free(v);
		free(out);
	}
}

static void writer_rejects_value_without_key_in_object(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_u64(&j, 1);
	assert_int_equal(uk_json_error(&j), -EINVAL);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_rejects_key_outside_object(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_array_begin(&j);
	uk_json_key(&j, "a");
	assert_finish_fails(&j, -EINVAL);

	uk_json_init(&j, 0);
	uk_json_key(&j, "a");
	assert_finish_fails(&j, -EINVAL);
}

static void writer_rejects_two_keys_in_a_row(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "a");
	uk_json_key(&j, "b");
	assert_finish_fails(&j, -EINVAL);
}

static void writer_rejects_mismatched_end(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_array_end(&j);
	assert_finish_fails(&j, -EINVAL);

	uk_json_init(&j, 0);
	uk_json_array_end(&j);
	assert_finish_fails(&j, -EINVAL);

	/* a key whose value never came */
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "a");
	uk_json_object_end(&j);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_rejects_unfinished_or_empty_output(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "a", 1);
	assert_int_equal(uk_json_error(&j), 0);
	assert_finish_fails(&j, -EINVAL);

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "a");
	assert_finish_fails(&j, -EINVAL);

	uk_json_init(&j, 0);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_rejects_second_top_level_value(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_u64(&j, 1);
	uk_json_u64(&j, 2);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_newline_separates_json_lines(void **state)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_object_end(&j);
	uk_json_newline(&j);
	uk_json_u64(&j, 7);
	uk_json_newline(&j);
	assert_json(&j, "{}\n7\n");

	/* not in the middle of a value */
	uk_json_init(&j, 0);
	uk_json_array_begin(&j);
	uk_json_newline(&j);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_error_is_latched_and_later_calls_do_nothing(void **state)
{
	struct uk_json j;
	size_t len;

	uk_json_init(&j, 0);
	uk_json_array_begin(&j);
	uk_json_key(&j, "bad");
	len = uk_json_len(&j);
	uk_json_u64(&j, 1);
	uk_json_str(&j, "more");
	uk_json_array_end(&j);
	assert_int_equal(uk_json_len(&j), len);
	assert_int_equal(uk_json_error(&j), -EINVAL);
	assert_finish_fails(&j, -EINVAL);
}

static void writer_cap_latches_e2big(void **state)
{
	struct uk_json j;

	/* "[1234567]" is 9 bytes: fits a cap of 9, not of 8 */
	uk_json_init(&j, 9);
	uk_json_array_begin(&j);
	uk_json_u64(&j, 1234567);
	uk_json_array_end(&j);
	assert_json(&j, "[1234567]");

	uk_json_init(&j, 8);
	uk_json_array_begin(&j);
	uk_json_u64(&j, 1234567);
	uk_json_array_end(&j);
	assert_int_equal(uk_json_error(&j), -E2BIG);
	assert_true(uk_json_len(&j) <= 8);
	assert_finish_fails(&j, -E2BIG);

	/* a long escaped string crossing the cap */
	uk_json_init(&j, 100);
	uk_json_str(&j, "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
		    "\x01\x01\x01\x01\x01\x01\x01\x01");
	assert_finish_fails(&j, -E2BIG);
}

static void writer_supports_depth_64_not_65(void **state)
{
	struct uk_json j;
	int i;

	uk_json_init(&j, 0);
	for (i = 0; i < UK_JSON_WRITE_DEPTH; i++)
		uk_json_array_begin(&j);
	for (i = 0; i < UK_JSON_WRITE_DEPTH; i++)
		uk_json_array_end(&j);
	assert_int_equal(uk_json_error(&j), 0);
	uk_json_release(&j);

	uk_json_init(&j, 0);
	for (i = 0; i < UK_JSON_WRITE_DEPTH + 1; i++)
		uk_json_array_begin(&j);
	assert_int_equal(uk_json_error(&j), -EINVAL);
	uk_json_release(&j);
}

static void writer_grows_to_large_output(void **state)
{
	const struct uk_json_value *item;
	struct uk_json_value *v;
	struct uk_json j;
	uint64_t x;
	size_t len, i;
	char *out;

	uk_json_init(&j, 0);
	uk_json_array_begin(&j);
	for (i = 0; i < 200000; i++)
		uk_json_u64(&j, i * 7);
	uk_json_array_end(&j);
	assert_int_equal(uk_json_finish(&j, &out, &len), 0);
	assert_int_equal(uk_json_parse(out, len, &v, NULL, 0), 0);
	assert_int_equal(uk_json_array_len(v), 200000);
	for (i = 0; i < 200000; i += 997) {
		item = uk_json_array_at(v, i);
		assert_int_equal(uk_json_get_u64(item, &x), 0);
		assert_int_equal(x, i * 7);
	}
	uk_json_value_free(v);
	free(out);
}

/* A struct shaped like those of event.h, with a table of its own. */
struct sample {
	uint64_t present;
	uint32_t u32;
	int32_t s32;
	uint64_t u64;
	uint64_t addr;
	uint32_t hash;
	char name[8];
	uint32_t kind;
	uint32_t high_attr;
};

enum {
	A_U32 = 1, A_S32, A_U64, A_ADDR, A_HASH, A_NAME, A_KIND, A_HIGH = 64,
};

static const struct uk_field sample_fields[] = {
	{ A_U32, "u32", "S_U32", UK_FT_U32, UK_ENUM_NONE,
	  offsetof(struct sample, u32), 0, false },
	{ A_S32, "s32", "S_S32", UK_FT_S32, UK_ENUM_NONE,
	  offsetof(struct sample, s32), 0, false },
	{ A_U64, "u64", "S_U64", UK_FT_U64, UK_ENUM_NONE,
	  offsetof(struct sample, u64), 0, false },
	{ A_ADDR, "addr", "S_ADDR", UK_FT_HEX64, UK_ENUM_NONE,
	  offsetof(struct sample, addr), 0, false },
	{ A_HASH, "hash", "S_HASH", UK_FT_HEX32, UK_ENUM_NONE,
	  offsetof(struct sample, hash), 0, false },
	{ A_NAME, "name", "S_NAME", UK_FT_STR, UK_ENUM_NONE,
	  offsetof(struct sample, name), sizeof(((struct sample *)0)->name),
	  false },
	{ A_KIND, "kind", "S_KIND", UK_FT_ENUM, UK_ENUM_KIND,
	  offsetof(struct sample, kind), 0, false },
	{ A_HIGH, "high", "S_HIGH", UK_FT_U32, UK_ENUM_NONE,
	  offsetof(struct sample, high_attr), 0, false },
	{ 0 },
};

#define BIT(a) (1ULL << (a))

static void fields_writes_present_fields_by_type(void **state)
{
	struct sample s = {
		.present = BIT(A_U32) | BIT(A_S32) | BIT(A_U64) |
			   BIT(A_ADDR) | BIT(A_HASH) | BIT(A_NAME),
		.u32 = 4000000000u,
		.s32 = -42,
		.u64 = 18446744073709551615ULL,
		.addr = 0xffffffff81234567ULL,
		.hash = 0xbeef,
		.name = "a\"b",
	};
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, "{\"u32\":4000000000,\"s32\":-42,"
		    "\"u64\":18446744073709551615,"
		    "\"addr\":\"0xffffffff81234567\",\"hash\":\"0x0000beef\","
		    "\"name\":\"a\\\"b\"}");
}

static void fields_skips_absent_fields(void **state)
{
	struct sample s = {
		.present = BIT(A_S32) | BIT(A_HASH),
		.u32 = 1, .s32 = 2, .u64 = 3, .hash = 4,
	};
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, "{\"s32\":2,\"hash\":\"0x00000004\"}");

	s.present = 0;
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, "{}");
}

static void fields_reads_unterminated_string_within_its_array(void **state)
{
	struct sample s = { .present = BIT(A_NAME) };
	struct uk_json j;

	memcpy(s.name, "12345678", sizeof(s.name));	/* no NUL */
	s.kind = 0x41414141;
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, "{\"name\":\"12345678\"}");
}

static void fields_writes_enum_names_and_numbers_for_unknown(void **state)
{
	const char *name = uk_enum_name(UK_ENUM_KIND, UACCESS_KADDR_KIND_GP);
	struct sample s = { .present = BIT(A_KIND) };
	char expected[128];
	struct uk_json j;

	assert_non_null(name);
	s.kind = UACCESS_KADDR_KIND_GP;
	snprintf(expected, sizeof(expected), "{\"kind\":\"%s\"}", name);
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, expected);

	s.kind = 0xdead;
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_fields_json(&j, sample_fields, &s);
	uk_json_object_end(&j);
	assert_json(&j, "{\"kind\":57005}");
}

/* ---- reader ---- */

static struct uk_json_value *parse_ok(const char *text)
{
	struct uk_json_value *v = NULL;
	char err[128] = "";
	int r;

	r = uk_json_parse(text, strlen(text), &v, err, sizeof(err));
	if (r != 0)
		fail_msg("parsing %s: %d %s", text, r, err);
	return v;
}

static void assert_parse_fails(const char *text, size_t len,
			       const char *reason)
{
	struct uk_json_value *v = NULL;
	char err[128] = "";
	int r;

	r = uk_json_parse(text, len, &v, err, sizeof(err));
	if (r != -EINVAL)
		fail_msg("parsing \"%s\": expected -EINVAL, got %d", text, r);
	assert_null(v);
	if (!strstr(err, reason))
		fail_msg("parsing \"%s\": expected \"%s\" in \"%s\"", text,
			 reason, err);
}

static void reader_parses_scalars(void **state)
{
	struct uk_json_value *v;
	const char *s;
	bool b;

	v = parse_ok("true");
	assert_int_equal(uk_json_type(v), UK_JSON_BOOL);
	assert_int_equal(uk_json_get_bool(v, &b), 0);
	assert_true(b);
	uk_json_value_free(v);

	v = parse_ok(" false ");
	assert_int_equal(uk_json_get_bool(v, &b), 0);
	assert_false(b);
	uk_json_value_free(v);

	v = parse_ok("null");
	assert_non_null(v);
	assert_int_equal(uk_json_type(v), UK_JSON_NULL);
	uk_json_value_free(v);

	v = parse_ok("\t\r\n\"hi\" \n");
	assert_int_equal(uk_json_get_str(v, &s), 0);
	assert_string_equal(s, "hi");
	uk_json_value_free(v);
}

static void reader_keeps_64bit_integers_exact(void **state)
{
	struct uk_json_value *v;
	uint64_t u;
	int64_t i;
	double d;

	v = parse_ok("18446744073709551615");
	assert_int_equal(uk_json_get_u64(v, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(uk_json_get_s64(v, &i), -ERANGE);
	uk_json_value_free(v);

	v = parse_ok("9007199254740993");	/* 2^53 + 1 */
	assert_int_equal(uk_json_get_u64(v, &u), 0);
	assert_true(u == 9007199254740993ULL);
	uk_json_value_free(v);

	v = parse_ok("-9223372036854775808");
	assert_int_equal(uk_json_get_s64(v, &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(uk_json_get_u64(v, &u), -ERANGE);
	uk_json_value_free(v);

	v = parse_ok("9223372036854775808");	/* json-c's uint64 */
	assert_int_equal(uk_json_get_s64(v, &i), -ERANGE);
	assert_int_equal(uk_json_get_u64(v, &u), 0);
	assert_true(u == (uint64_t)INT64_MAX + 1);
	assert_int_equal(uk_json_get_double(v, &d), 0);
	assert_true(d > 9.2e18);
	uk_json_value_free(v);

	v = parse_ok("-0");
	assert_int_equal(uk_json_get_u64(v, &u), 0);
	assert_int_equal(u, 0);
	uk_json_value_free(v);

	v = parse_ok("-1");
	assert_int_equal(uk_json_get_u64(v, &u), -ERANGE);
	assert_int_equal(uk_json_get_s64(v, &i), 0);
	assert_int_equal(i, -1);
	uk_json_value_free(v);
}

/*
 * json-c would clamp these to UINT64_MAX and INT64_MIN; the old reader
 * took them as numbers that only the double getter could read.
 */
static void reader_refuses_integers_beyond_64_bits(void **state)
{
	struct uk_json_value *v;
	double d;

	assert_parse_fails("18446744073709551616", 20,
			   "offset 0: integer out of the 64-bit range");
	assert_parse_fails("-9223372036854775809", 20, "64-bit range");
	assert_parse_fails("[1,99999999999999999999999]", 27,
			   "offset 3: integer out of the 64-bit range");
	assert_parse_fails("{\"a\":{\"b\":-99999999999999999999}}", 33,
			   "offset 10: integer out of the 64-bit range");

	/* as a fraction it is a double; in a string it is no number */
	v = parse_ok("[18446744073709551616.0, \"18446744073709551616\"]");
	assert_int_equal(uk_json_get_double(uk_json_array_at(v, 0), &d), 0);
	assert_true(d > 1.8e19);
	assert_int_equal(uk_json_type(uk_json_array_at(v, 1)),
			 UK_JSON_STRING);
	uk_json_value_free(v);
}

static void reader_parses_fractions_as_double_not_integer(void **state)
{
	struct uk_json_value *v;
	uint64_t u;
	int64_t i;
	double d;

	v = parse_ok("1.5");
	assert_int_equal(uk_json_get_u64(v, &u), -EINVAL);
	assert_int_equal(uk_json_get_s64(v, &i), -EINVAL);
	assert_int_equal(uk_json_get_double(v, &d), 0);
	assert_true(d == 1.5);
	uk_json_value_free(v);

	v = parse_ok("-2.5E+2");
	assert_int_equal(uk_json_get_double(v, &d), 0);
	assert_true(d == -250.0);
	uk_json_value_free(v);

	v = parse_ok("1e3");
	assert_int_equal(uk_json_get_u64(v, &u), -EINVAL);
	assert_int_equal(uk_json_get_double(v, &d), 0);
	assert_true(d == 1000.0);
	uk_json_value_free(v);

	v = parse_ok("1e-400");	/* underflows to 0: still a number */
	assert_int_equal(uk_json_get_double(v, &d), 0);
	assert_true(d >= 0.0 && d < 1e-300);
	uk_json_value_free(v);
}

static void reader_rejects_malformed_numbers(void **state)
{
	static const struct {
		const char *text;
		const char *reason;
	} cases[] = {
		{ "01", "unexpected end of data" },
		{ "[00]", "offset 1: leading zero" },
		{ "-01", "offset 1: leading zero" },
		{ "-", "unexpected end of data" },
		{ "-a", "number expected" },
		{ "+1", "unexpected character '+'" },
		{ ".5", "unexpected character '.'" },
		{ "1.", "digit expected after '.'" },
		{ "1.e5", "digit expected after '.'" },
		{ "1e", "unexpected end of data" },
		{ "1e+", "unexpected end of data" },
		{ "[1e]", "number expected" },
		{ "0x10", "trailing" },
		{ "1e400", "offset 0: number out of range" },
		{ "-1e400", "out of range" },
		{ "[1,1.8e308]", "offset 3: number out of range" },
		/* refused though json-c drops it for the later "a" */
		{ "{\"a\":1e400,\"a\":1}", "offset 5: number out of range" },
		{ "NaN", "unexpected character 'N'" },
		{ "Infinity", "unexpected character 'I'" },
		{ "-Infinity", "offset 1: invalid number" },
		{ "[1,NaN]", "offset 3: unexpected character 'N'" },
		{ "[1,-]", "number expected" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_parse_fails(cases[i].text, strlen(cases[i].text),
				   cases[i].reason);
}

static void reader_decodes_all_string_escapes(void **state)
{
	struct uk_json_value *v;
	const char *s;
	size_t len;

	v = parse_ok("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\ud83d\\ude00"
		     "\\u0041\"");
	assert_int_equal(uk_json_get_strn(v, &s, &len), 0);
	assert_int_equal(len, 8 + 2 + 3 + 4 + 1);
	assert_memory_equal(s, "\"\\/\b\f\n\r\t\xc3\xa9\xe2\x82\xac"
			    "\xf0\x9f\x98\x80" "A", len);
	uk_json_value_free(v);

	/* raw UTF-8 passes */
	v = parse_ok("\"\xc3\xa9\xf4\x8f\xbf\xbf\"");
	assert_int_equal(uk_json_get_str(v, &s), 0);
	assert_string_equal(s, "\xc3\xa9\xf4\x8f\xbf\xbf");
	uk_json_value_free(v);
}

static void reader_rejects_lone_surrogates(void **state)
{
	assert_parse_fails("\"\\ud800\"", 8, "lone high surrogate");
	assert_parse_fails("\"\\ud800x\"", 9, "lone high surrogate");
	assert_parse_fails("\"\\ud800\\u0041\"", 14, "lone high surrogate");
	assert_parse_fails("\"\\udbff\\ud800\"", 14, "lone high surrogate");
	assert_parse_fails("\"\\udc00\"", 8, "lone low surrogate");
	assert_parse_fails("\"a\\udfff\\ud800\"", 15, "lone low surrogate");
}

/*
 * json-c 0.16 turns a pair that decodes to U+xD800..U+xDFFF above the BMP
 * into U+FFFD: refused rather than changed.  As UTF-8 they pass.
 */
static void reader_refuses_pairs_json_c_garbles(void **state)
{
	struct uk_json_value *v;
	const char *s;

	assert_parse_fails("\"\\ud836\\udc00\"", 14,
			   "offset 1: U+1D800 as \\ud836\\udc00, which json-c");
	assert_parse_fails("[\"a\\udbf7\\udfff\"]", 17, "U+10DFFF as");

	v = parse_ok("\"\xf0\x9d\xa0\x80\\udbff\\udfff\"");
	assert_int_equal(uk_json_get_str(v, &s), 0);
	assert_string_equal(s, "\xf0\x9d\xa0\x80\xf4\x8f\xbf\xbf");
	uk_json_value_free(v);
}

static void reader_rejects_malformed_strings(void **state)
{
	static const struct {
		const char *text;
		const char *reason;
	} cases[] = {
		{ "\"abc", "offset 4: unexpected end of data" },
		{ "\"abc\\\"", "unexpected end of data" },
		{ "\"a\\", "unexpected end of data" },
		{ "\"\\x\"", "offset 2: invalid string sequence" },
		{ "\"\\U0041\"", "invalid string sequence" },
		{ "\"\\u12\"", "invalid string sequence" },
		{ "\"\\u12G4\"", "invalid string sequence" },
		{ "\"a\tb\"", "control character 0x09" },
		{ "\"a\nb\"", "control character 0x0a" },
		{ "\"\xff\"", "invalid UTF-8" },
		{ "\"\xc0\x80\"", "invalid UTF-8" },
		{ "\"\xed\xa0\x80\"", "invalid UTF-8" },
		{ "\"\xf4\x90\x80\x80\"", "invalid UTF-8" },
		{ "\"\xe2\x82\"", "invalid UTF-8" },
		{ "{\"a\xff\":1}", "invalid UTF-8" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_parse_fails(cases[i].text, strlen(cases[i].text),
				   cases[i].reason);
}

static void reader_keeps_escaped_nul_but_str_getter_refuses(void **state)
{
	struct uk_json_value *v;
	const char *s;
	size_t len;

	v = parse_ok("\"a\\u0000b\"");
	assert_int_equal(uk_json_get_str(v, &s), -EINVAL);
	assert_int_equal(uk_json_get_strn(v, &s, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(s, "a\0b", 3);
	uk_json_value_free(v);
}

static void reader_rejects_nul_byte_with_offset(void **state)
{
	assert_parse_fails("[1,\0]", 5, "offset 3: NUL byte");
	assert_parse_fails("\"a\0\"", 4, "offset 2: NUL byte");
	assert_parse_fails("{}\0", 3, "offset 2: NUL byte");
}

static void reader_rejects_trailing_garbage(void **state)
{
	assert_parse_fails("{} x", 4, "offset 3: trailing");
	assert_parse_fails("1 2", 3, "offset 2: trailing");
	assert_parse_fails("[]]", 3, "offset 2: trailing");
	assert_parse_fails("nullx", 5, "offset 4: trailing");
	assert_parse_fails("{}\n{}", 5, "offset 3: trailing");
}

static void reader_rejects_structural_errors(void **state)
{
	static const struct {
		const char *text;
		const char *reason;
	} cases[] = {
		{ "", "offset 0: unexpected end" },
		{ " \n ", "offset 3: unexpected end" },
		{ "[", "unexpected end" },
		{ "[1", "offset 2: unexpected end of data" },
		{ "[1,]", "offset 3: unexpected character ']'" },
		{ "[1 2]", "offset 3: array value separator ',' expected" },
		{ "{", "unexpected end" },
		{ "{\"a\"}", "separator ':' expected" },
		{ "{\"a\":}", "unexpected character '}'" },
		{ "{a:1}", "offset 1: quoted object property name expected" },
		{ "{\"a\":1,}", "offset 7: unexpected character '}'" },
		{ "{\"a\":1 \"b\":2}", "value separator ',' expected" },
		{ "{,}", "quoted object property name expected" },
		{ "tru", "offset 3: unexpected end of data" },
		{ "nul", "unexpected end of data" },
		{ "nope", "offset 1: null expected" },
		{ "True", "offset 0: boolean expected" },
		{ "/* c */ 1", "unexpected character '/'" },
		{ "'a'", "unexpected character" },
		{ "\xef\xbb\xbf{}", "unexpected byte 0xef" },
		{ "\x01", "unexpected byte 0x01" },
		{ "\f1", "unexpected byte 0x0c" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_parse_fails(cases[i].text, strlen(cases[i].text),
				   cases[i].reason);
}

static char *nested(int depth, const char *open, const char *close)
{
	char *s = malloc(depth * 2 + 1);
	int i;

	assert_non_null(s);
	for (i = 0; i < depth; i++) {
		s[i] = *open;
		s[depth * 2 - 1 - i] = *close;
	}
	s[depth * 2] = '\0';
	return s;
}

static void reader_limits_nesting_to_32(void **state)
{
	struct uk_json_value *v;
	char *s;

	s = nested(UK_JSON_PARSE_DEPTH, "[", "]");
	v = parse_ok(s);
	uk_json_value_free(v);
	free(s);

	s = nested(UK_JSON_PARSE_DEPTH + 1, "[", "]");
	assert_parse_fails(s, strlen(s), "offset 32: nesting too deep");
	free(s);

	/* a scalar in the deepest is no level (json-c counts it as one) */
	s = strdup("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]"
		   "]]]]]");
	assert_non_null(s);
	assert_int_equal(strspn(s, "["), UK_JSON_PARSE_DEPTH);
	v = parse_ok(s);
	uk_json_value_free(v);
	free(s);

	/* a deep input is refused without deep recursion */
	s = nested(100000, "[", "]");
	assert_parse_fails(s, strlen(s), "nesting too deep");
	free(s);

	/* objects count the same */
	s = strdup("{\"a\":{\"a\":{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]"
		   "]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}}");
	assert_non_null(s);
	assert_parse_fails(s, strlen(s), "nesting too deep");
	free(s);
}

static void reader_refuses_input_over_the_size_limit(void **state)
{
	size_t len = (size_t)UK_JSON_PARSE_MAX + 1;
	struct uk_json_value *v = NULL;
	char err[128] = "";
	char *big;

	/* never touched: the size is checked first */
	big = malloc(len);
	assert_non_null(big);
	assert_int_equal(uk_json_parse(big, len, &v, err, sizeof(err)),
			 -E2BIG);
	assert_null(v);
	assert_non_null(strstr(err, "larger than"));
	free(big);
}

/* json-c keeps one member per key: the first place, the last value */
static void reader_duplicate_keys_last_wins(void **state)
{
	struct uk_json_iter it = { 0 };
	struct uk_json_value *v;
	uint64_t u;

	v = parse_ok("{\"a\":1,\"b\":2,\"a\":3}");
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, "a"), &u), 0);
	assert_int_equal(u, 3);
	assert_int_equal(uk_json_object_len(v), 2);
	assert_true(uk_json_object_next(v, &it));
	assert_string_equal(it.key, "a");
	assert_int_equal(uk_json_get_u64(it.value, &u), 0);
	assert_int_equal(u, 3);
	assert_true(uk_json_object_next(v, &it));
	assert_string_equal(it.key, "b");
	assert_false(uk_json_object_next(v, &it));
	uk_json_value_free(v);
}

/* Members in input order, each once; the end stays the end. */
static void reader_iterates_members_in_order(void **state)
{
	struct uk_json_iter it = { 0 };
	struct uk_json_value *v;
	char *text, *p, key[16];
	size_t i, n = 10000;
	uint64_t u;

	text = malloc(n * 24 + 3);
	assert_non_null(text);
	p = text;
	*p++ = '{';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s\"k%zu\":%zu", i ? "," : "", n - i, i);
	strcpy(p, "}");
	v = parse_ok(text);
	i = 0;
	uk_json_for_each_member(m, v) {
		snprintf(key, sizeof(key), "k%zu", n - i);
		assert_string_equal(m.key, key);
		assert_int_equal(uk_json_get_u64(m.value, &u), 0);
		assert_int_equal(u, i);
		i++;
	}
	assert_int_equal(i, n);
	while (uk_json_object_next(v, &it))
		;
	assert_false(uk_json_object_next(v, &it));
	uk_json_value_free(v);
	free(text);

	v = parse_ok("{}");
	memset(&it, 0, sizeof(it));
	assert_false(uk_json_object_next(v, &it));
	assert_false(uk_json_object_next(v, &it));
	uk_json_value_free(v);
}

static void reader_object_lookup_compares_whole_keys(void **state)
{
	struct uk_json_value *v;

	v = parse_ok("{\"ab\":1,\"a\\\\u0000b\":2}");
	assert_null(uk_json_object_get(v, "a"));
	assert_null(uk_json_object_get(v, "abc"));
	assert_non_null(uk_json_object_get(v, "ab"));
	assert_non_null(uk_json_object_get(v, "a\\u0000b"));
	uk_json_value_free(v);
}

/* json-c cuts a key at its NUL: "a\u0000b" would be the key "a" */
static void reader_refuses_nul_in_keys(void **state)
{
	struct uk_json_value *v;

	assert_parse_fails("{\"ab\":1,\"a\\u0000b\":2}", 21,
			   "offset 8: NUL (\\u0000) in an object key");
	assert_parse_fails("[{\"\\u0000\" : 1}]", 16, "in an object key");

	/* in a value it stays */
	v = parse_ok("{\"a\":\"\\u0000\"}");
	assert_non_null(uk_json_object_get(v, "a"));
	uk_json_value_free(v);
}

static void reader_accessors_handle_wrong_containers(void **state)
{
	struct uk_json_value *v;
	uint64_t u;

	v = parse_ok("[10, 20, {\"x\": [] }]");
	assert_int_equal(uk_json_type(v), UK_JSON_ARRAY);
	assert_int_equal(uk_json_array_len(v), 3);
	assert_int_equal(uk_json_get_u64(uk_json_array_at(v, 1), &u), 0);
	assert_int_equal(u, 20);
	assert_null(uk_json_array_at(v, 3));
	assert_null(uk_json_object_get(v, "x"));
	assert_int_equal(uk_json_object_len(v), 0);
	{
		struct uk_json_iter it = { 0 };

		assert_false(uk_json_object_next(v, &it));
		assert_false(uk_json_object_next(NULL, &it));
	}
	assert_null(uk_json_array_at(uk_json_array_at(v, 2), 0));
	assert_int_equal(uk_json_array_len(uk_json_array_at(v, 0)), 0);
	assert_int_equal(uk_json_type(uk_json_object_get(
				uk_json_array_at(v, 2), "x")), UK_JSON_ARRAY);
	assert_int_equal(uk_json_array_len(NULL), 0);
	assert_int_equal(uk_json_type(NULL), UK_JSON_NULL);
	uk_json_value_free(v);
	uk_json_value_free(NULL);
}

static void reader_typed_getters_reject_other_types(void **state)
{
	struct uk_json_value *v;
	const struct uk_json_value *n, *s, *b, *z, *a, *o;
	const char *str;
	uint64_t u;
	int64_t i;
	double d;
	bool bo;

	v = parse_ok("{\"n\":1,\"s\":\"1\",\"b\":true,\"z\":null,\"a\":[],"
		     "\"o\":{}}");
	n = uk_json_object_get(v, "n");
	s = uk_json_object_get(v, "s");
	b = uk_json_object_get(v, "b");
	z = uk_json_object_get(v, "z");
	a = uk_json_object_get(v, "a");
	o = uk_json_object_get(v, "o");
	assert_non_null(z);
	assert_int_equal(uk_json_type(z), UK_JSON_NULL);

	assert_int_equal(uk_json_get_u64(s, &u), -EINVAL);
	assert_int_equal(uk_json_get_s64(b, &i), -EINVAL);
	assert_int_equal(uk_json_get_double(z, &d), -EINVAL);
	assert_int_equal(uk_json_get_str(n, &str), -EINVAL);
	assert_int_equal(uk_json_get_strn(a, &str, NULL), -EINVAL);
	assert_int_equal(uk_json_get_bool(o, &bo), -EINVAL);
	assert_int_equal(uk_json_get_bool(n, &bo), -EINVAL);
	/* missing key: -ENOENT */
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, "q"), &u),
			 -ENOENT);
	assert_int_equal(uk_json_get_str(NULL, &str), -ENOENT);
	uk_json_value_free(v);
}

static void reader_error_names_the_offset(void **state)
{
	struct uk_json_value *v = NULL;
	char err[64];

	assert_int_equal(uk_json_parse("[1,x]", 5, &v, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "offset 3: unexpected character 'x'");
	/* a tiny buffer is truncated, not overrun */
	assert_int_equal(uk_json_parse("[1,x]", 5, &v, err, 5), -EINVAL);
	assert_string_equal(err, "offs");
	/* no buffer at all */
	assert_int_equal(uk_json_parse("[1,x]", 5, &v, NULL, 0), -EINVAL);
}

static void reader_parses_without_terminating_nul(void **state)
{
	struct uk_json_value *v;
	char buf[4] = { '1', '2', '3', '4' };
	uint64_t u;

	/* only the first 3 bytes are the text */
	assert_int_equal(uk_json_parse(buf, 3, &v, NULL, 0), 0);
	assert_int_equal(uk_json_get_u64(v, &u), 0);
	assert_int_equal(u, 123);
	uk_json_value_free(v);
}

static void value_write_reproduces_the_parsed_text(void **state)
{
	const char *in = " { \"a\" : [ 1.50e3 , -0 , 18446744073709551615 ,"
			 " -9223372036854775808, \"x\\u0000\\n\" ] ,"
			 " \"b\" : { } , \"c\" : null ,"
			 " \"d\":true, \"e\\\"\" : \"\\u00e9\" } ";
	const char *want = "{\"a\":[1.50e3,0,18446744073709551615,"
			   "-9223372036854775808,\"x\\u0000\\u000a\"],"
			   "\"b\":{},\"c\":null,"
			   "\"d\":true,\"e\\\"\":\"\xc3\xa9\"}";
	struct uk_json_value *v;
	struct uk_json j;

	v = parse_ok(in);
	uk_json_init(&j, 0);
	uk_json_value_write(&j, v);
	assert_json(&j, want);
	uk_json_value_free(v);
}

int main(void)
{
	const struct CMUnitTest json[] = {
		cmocka_unit_test(writer_builds_nested_values),
		cmocka_unit_test(writer_writes_64bit_extremes),
		cmocka_unit_test(writer_escapes_quote_backslash_and_control_chars),
		cmocka_unit_test(writer_escapes_keys_too),
		cmocka_unit_test(writer_keeps_embedded_nul_escaped),
		cmocka_unit_test(writer_passes_valid_utf8_unchanged),
		cmocka_unit_test(writer_replaces_invalid_utf8_bytes),
		cmocka_unit_test(writer_rejects_value_without_key_in_object),
		cmocka_unit_test(writer_rejects_key_outside_object),
		cmocka_unit_test(writer_rejects_two_keys_in_a_row),
		cmocka_unit_test(writer_rejects_mismatched_end),
		cmocka_unit_test(writer_rejects_unfinished_or_empty_output),
		cmocka_unit_test(writer_rejects_second_top_level_value),
		cmocka_unit_test(writer_newline_separates_json_lines),
		cmocka_unit_test(writer_error_is_latched_and_later_calls_do_nothing),
		cmocka_unit_test(writer_cap_latches_e2big),
		cmocka_unit_test(writer_supports_depth_64_not_65),
		cmocka_unit_test(writer_grows_to_large_output),
		cmocka_unit_test(fields_writes_present_fields_by_type),
		cmocka_unit_test(fields_skips_absent_fields),
		cmocka_unit_test(fields_reads_unterminated_string_within_its_array),
		cmocka_unit_test(fields_writes_enum_names_and_numbers_for_unknown),
		cmocka_unit_test(reader_parses_scalars),
		cmocka_unit_test(reader_keeps_64bit_integers_exact),
		cmocka_unit_test(reader_refuses_integers_beyond_64_bits),
		cmocka_unit_test(reader_parses_fractions_as_double_not_integer),
		cmocka_unit_test(reader_rejects_malformed_numbers),
		cmocka_unit_test(reader_decodes_all_string_escapes),
		cmocka_unit_test(reader_rejects_lone_surrogates),
		cmocka_unit_test(reader_refuses_pairs_json_c_garbles),
		cmocka_unit_test(reader_rejects_malformed_strings),
		cmocka_unit_test(reader_keeps_escaped_nul_but_str_getter_refuses),
		cmocka_unit_test(reader_rejects_nul_byte_with_offset),
		cmocka_unit_test(reader_rejects_trailing_garbage),
		cmocka_unit_test(reader_rejects_structural_errors),
		cmocka_unit_test(reader_limits_nesting_to_32),
		cmocka_unit_test(reader_refuses_input_over_the_size_limit),
		cmocka_unit_test(reader_duplicate_keys_last_wins),
		cmocka_unit_test(reader_iterates_members_in_order),
		cmocka_unit_test(reader_object_lookup_compares_whole_keys),
		cmocka_unit_test(reader_refuses_nul_in_keys),
		cmocka_unit_test(reader_accessors_handle_wrong_containers),
		cmocka_unit_test(reader_typed_getters_reject_other_types),
		cmocka_unit_test(reader_error_names_the_offset),
		cmocka_unit_test(reader_parses_without_terminating_nul),
		cmocka_unit_test(value_write_reproduces_the_parsed_text),
	};

	return cmocka_run_group_tests(json, NULL, NULL);
}
