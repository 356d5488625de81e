// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl's shared plumbing (daemon/uaccessctl/output.c): errors, the control
 * socket call and how its failures read, netlink failures, verb argument
 * parsing, strict numbers, sanitizing, "key value" lines, tables, JSON
 * output and input, times, and the pager.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/fields.h"
#include "cli_fake.h"
#include "common/time.h"
#include "common/util.h"

static char tmpdir[] = "/tmp/uk-cli-output.XXXXXX";
static char *orig_path;	/* $PATH, for the tests that change it */

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	if (getenv("PATH"))
		orig_path = strdup(getenv("PATH"));
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	free(orig_path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Captures what @fn writes to a FILE. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *cap_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static const char *cap_text(struct capture *c)
{
	fflush(c->f);
	return c->buf;
}

static void cap_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
}

/* ---- errors ---- */

static void error_prefixes_the_program_and_returns_the_error(void **state)
{
	struct capture c;
	struct uk_cli cli = { 0 };

	cli.err = cap_open(&c);
	assert_int_equal(uk_cli_error(&cli, -EIO, "x %d y", 7), -EIO);
	uk_assert_text("err", cap_text(&c), "uaccessctl: x 7 y\n");
	cap_close(&c);
}

/* The table of docs/uaccessctl.md, made in one place: main(). */
static void errors_become_exit_codes_at_main(void **state)
{
	static const struct {
		int err, code;
	} cases[] = {
		{ 0, UK_EXIT_OK },
		{ UK_ERR_FAILURE, UK_EXIT_FAILURE },
		{ -ENOMEM, UK_EXIT_FAILURE },
		{ -ENODATA, UK_EXIT_FAILURE },
		{ -EPROTO, UK_EXIT_FAILURE },
		{ -EINVAL, UK_EXIT_USAGE },
		{ -ENOPKG, UK_EXIT_NO_KERNEL },
		{ -ECONNREFUSED, UK_EXIT_NO_DAEMON },
		{ -ENOENT, UK_EXIT_FAILURE },	/* not "no daemon": a file */
		{ -EPERM, UK_EXIT_PERM },
		{ -EACCES, UK_EXIT_PERM },
		{ -ENOBUFS, UK_EXIT_LOSS },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(uk_cli_exit_code(cases[i].err), cases[i].code);
}

static void ctl_transport_errors_read_as_sentences(void **state)
{
	static const struct {
		int err;
		const char *why;
	} cases[] = {
		{ -ENOENT, "no control socket /s/ctl" },
		{ -ECONNREFUSED, "nothing listens on /s/ctl" },
		{ -EACCES, "permission denied: cannot connect to /s/ctl" },
		{ -EPERM, "permission denied: cannot connect to /s/ctl" },
		{ -ETIMEDOUT, "uaccessd did not answer within 10 s" },
		{ -EPROTO, "uaccessd's reply is not one JSON object line" },
		{ -EMSGSIZE, "uaccessd's reply is too large" },
		{ -ENAMETOOLONG, "socket path too long: /s/ctl" },
		{ -ENOTSOCK, "/s/ctl is not a socket" },
		{ -EIO, "cannot talk to uaccessd at /s/ctl: Input/output error" },
	};
	struct uk_cli cli = { .socket = "/s/ctl" };
	struct uk_json_value *v = NULL;
	char why[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fake_reset_all();
		fake.ctl_err = cases[i].err;
		assert_int_equal(uk_cli_ctl(&cli, "{}", &v, why, sizeof(why)),
				 cases[i].err);
		assert_string_equal(why, cases[i].why);
		assert_null(v);
	}
	assert_true(uk_cli_ctl_absent(-ENOENT));
	assert_true(uk_cli_ctl_absent(-ECONNREFUSED));
	assert_false(uk_cli_ctl_absent(-EACCES));
	assert_false(uk_cli_ctl_absent(0));
}

static void ctl_replies_checked(void **state)
{
	static const struct {
		const char *reply;
		int ret;
		const char *why;
	} cases[] = {
		{ "nope", -EPROTO, "uaccessd's reply is not JSON: offset 1: " },
		{ "{}", -EPROTO, "uaccessd's reply has no \"ok\"" },
		{ "{\"ok\":1}", -EPROTO, "uaccessd's reply has no \"ok\"" },
		{ "{\"ok\":false,\"error\":\"busy\",\"errno\":16}", -EBUSY,
		  "busy" },
		{ "{\"ok\":false,\"error\":\"x\"}", -EIO, "x" },
		{ "{\"ok\":false,\"error\":\"x\",\"errno\":0}", -EIO, "x" },
		{ "{\"ok\":false,\"error\":\"x\",\"errno\":99999}", -EIO, "x" },
		{ "{\"ok\":false,\"error\":\"x\",\"errno\":-3}", -EIO, "x" },
		{ "{\"ok\":false,\"errno\":1}", -EPERM,
		  "Operation not permitted" },
		/* a reply's ENOENT is no "uaccessd is not running" */
		{ "{\"ok\":false,\"error\":7,\"errno\":2}", -EREMOTEIO,
		  "No such file or directory" },
	};
	struct uk_cli cli = { 0 };
	struct uk_json_value *v = NULL;
	char why[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fake_reset_all();
		fake.reply_status = cases[i].reply;
		assert_int_equal(uk_cli_ctl(&cli, "{\"cmd\":\"status\"}", &v,
					    why, sizeof(why)), cases[i].ret);
		if (strncmp(why, cases[i].why, strlen(cases[i].why)))
			fail_msg("case %zu: expected \"%s\", got \"%s\"", i,
				 cases[i].why, why);
		assert_null(v);
	}
	fake_reset_all();
	fake.reply_status = "{\"ok\":true,\"n\":5}";
	assert_int_equal(uk_cli_ctl(&cli, "{\"cmd\":\"status\"}", &v, why,
				    sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_string_equal(fake.ctl_path, "/run/uaccessd/control");
	assert_non_null(uk_json_object_get(v, "n"));
	uk_json_value_free(v);
}

static void ctl_failures_map_to_errors(void **state)
{
	struct uk_cli cli = { 0 }, sock = { .socket = "/x" };
	struct capture c;
	char msg[256];

	assert_int_equal(uk_cli_ctl_explain(&cli, -ENOENT, "no control socket /run/uaccessd/control",
					    msg, sizeof(msg)),
			 UK_ERR_NO_DAEMON);
	assert_string_equal(msg, "uaccessd is not running (systemctl start uaccessd)");
	assert_int_equal(uk_cli_ctl_explain(&sock, -ECONNREFUSED,
					    "nothing listens on /x", msg,
					    sizeof(msg)), UK_ERR_NO_DAEMON);
	assert_string_equal(msg, "uaccessd is not running (systemctl start uaccessd): nothing listens on /x");
	assert_int_equal(uk_cli_ctl_explain(&cli, -EACCES, "denied", msg,
					    sizeof(msg)), UK_ERR_PERM);
	assert_string_equal(msg, "denied");
	assert_int_equal(uk_cli_ctl_explain(&cli, -EPERM, "", msg,
					    sizeof(msg)), UK_ERR_PERM);
	assert_string_equal(msg, "Operation not permitted");
	assert_int_equal(uk_cli_ctl_explain(&cli, -EPROTO, "bad", msg,
					    sizeof(msg)), UK_ERR_FAILURE);
	cli.err = cap_open(&c);
	assert_int_equal(uk_cli_ctl_fail(&cli, -EBUSY, "too many clients"),
			 UK_ERR_FAILURE);
	uk_assert_text("err", cap_text(&c), "uaccessctl: too many clients\n");
	cap_close(&c);
}

static void netlink_failures_map_to_errors(void **state)
{
	struct uk_cli cli = { 0 };
	struct uk_nl *nl = (struct uk_nl *)1;
	struct capture c;
	char msg[256];

	assert_int_equal(uk_cli_nl_explain(-ENOENT, msg, sizeof(msg)),
			 UK_ERR_NO_KERNEL);
	assert_string_equal(msg, "kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)");
	assert_int_equal(uk_cli_nl_explain(-EACCES, msg, sizeof(msg)),
			 UK_ERR_PERM);
	assert_int_equal(uk_cli_nl_explain(-EPROTONOSUPPORT, msg, sizeof(msg)),
			 UK_ERR_FAILURE);
	assert_string_equal(msg, "cannot reach the kernel's uaccess_kaddr family: Protocol not supported");

	cli.err = cap_open(&c);
	fake_reset_all();
	fake.open_err = -ENOENT;
	assert_int_equal(uk_cli_nl_open(&cli, &nl), UK_ERR_NO_KERNEL);
	assert_null(nl);
	fake.open_err = 0;
	assert_int_equal(uk_cli_nl_open(&cli, &nl), 0);
	assert_ptr_equal(nl, &fake);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -EPERM, "x"),
			 UK_ERR_PERM);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -EACCES, NULL),
			 UK_ERR_PERM);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -ENOENT, NULL),
			 UK_ERR_NO_KERNEL);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -ETIMEDOUT, NULL),
			 UK_ERR_FAILURE);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -EIO, ""),
			 UK_ERR_FAILURE);
	assert_int_equal(uk_cli_nl_fail(&cli, "reset", -EIO, "said so"),
			 UK_ERR_FAILURE);
	uk_assert_text("err", cap_text(&c),
		    "uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n"
		    "uaccessctl: permission denied: needs CAP_SYS_ADMIN\n"
		    "uaccessctl: permission denied: needs CAP_SYS_ADMIN\n"
		    "uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n"
		    "uaccessctl: reset: the kernel did not answer in time\n"
		    "uaccessctl: reset failed: Input/output error\n"
		    "uaccessctl: reset failed: said so\n");
	cap_close(&c);
}

/* ---- verb arguments and numbers ---- */

static void numbers_are_strict(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "abc",
	};
	uint64_t v = 77;
	size_t i;

	assert_int_equal(uk_cli_parse_u64("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(uk_cli_parse_u64("0010", 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(uk_cli_parse_u64("18446744073709551615", UINT64_MAX,
					  &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(uk_cli_parse_u64("18446744073709551616", UINT64_MAX,
					  &v), -ERANGE);
	assert_int_equal(uk_cli_parse_u64("11", 10, &v), -ERANGE);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 77;
		assert_int_equal(uk_cli_parse_u64(bad[i], UINT64_MAX, &v),
				 -EINVAL);
		assert_int_equal(v, 77);
	}
	assert_int_equal(uk_cli_parse_u64(NULL, 1, &v), -EINVAL);
}

/* ---- text ---- */

static void sanitize_replaces_controls_and_bad_utf8(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} cases[] = {
		{ "plain text", "plain text" },
		{ "a\nb\tc\rd", "a?b?c?d" },
		{ "\x1b[31mred", "?[31mred" },
		{ "del\x7f", "del?" },
		{ "c1\xc2\x85x\xc2\x9b", "c1?x?" },
		{ "nbsp\xc2\xa0ok", "nbsp\xc2\xa0ok" },
		{ "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80" },
		{ "bad\xff\xfe", "bad??" },
		{ "cut\xe2\x82", "cut??" },
		{ "overlong\xc0\xaf", "overlong??" },
		{ "surrogate\xed\xa0\x80", "surrogate???" },
		{ "", "" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_string_equal(uk_cli_sanitize(cases[i].in, buf,
						    sizeof(buf)),
				    cases[i].out);
	assert_string_equal(uk_cli_sanitize(NULL, buf, sizeof(buf)), "");
	/* cut at a character boundary, never inside one */
	assert_string_equal(uk_cli_sanitize("ab\xc3\xa9", buf, 4), "ab");
	assert_string_equal(uk_cli_sanitize("ab\xc3\xa9", buf, 5),
			    "ab\xc3\xa9");
	assert_string_equal(uk_cli_sanitize("abc", buf, 1), "");
	buf[0] = 'z';
	uk_cli_sanitize("abc", buf, 0);
	assert_int_equal(buf[0], 'z');
}

static void width_counts_characters_where_the_locale_cannot_tell(void **state)
{
	setlocale(LC_ALL, "C");
	assert_int_equal(uk_cli_width(""), 0);
	assert_int_equal(uk_cli_width("abc"), 3);
	assert_int_equal(uk_cli_width("caf\xc3\xa9"), 4);
	assert_int_equal(uk_cli_width("\xe6\x97\xa5\xf0\x9f\x98\x80"), 2);
	setlocale(LC_ALL, "C.UTF-8");
}

/* Display columns, not code points: a CJK character or an emoji is 2. */
static void width_is_display_columns_in_a_utf8_locale(void **state)
{
	size_t w;

	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	assert_int_equal(uk_cli_width("caf\xc3\xa9"), 4);
	assert_int_equal(uk_cli_width("\xe6\x97\xa5\xf0\x9f\x98\x80"), 4);
	/* e and a combining acute accent: one column */
	assert_int_equal(uk_cli_width("e\xcc\x81"), 1);
	/* a prefix never splits a character nor exceeds its width */
	assert_int_equal(uk_cli_width_prefix("a\xe6\x97\xa5" "b", 2, &w), 1);
	assert_int_equal(w, 1);
	assert_int_equal(uk_cli_width_prefix("a\xe6\x97\xa5" "b", 3, &w), 4);
	assert_int_equal(w, 3);
}

/* --full, $COLUMNS, a terminal, a pipe. */
static void columns_as_systemd_chooses_them(void **state)
{
	assert_int_equal(uk_cli_columns(true, "100", true, -1), 0);
	assert_int_equal(uk_cli_columns(false, "100", false, -1), 100);
	assert_int_equal(uk_cli_columns(false, "100", true, -1), 100);
	assert_int_equal(uk_cli_columns(false, "wide", false, -1), 0);
	assert_int_equal(uk_cli_columns(false, "0", false, -1), 0);
	assert_int_equal(uk_cli_columns(false, NULL, false, -1), 0);
	/* a terminal whose width is unknown */
	assert_int_equal(uk_cli_columns(false, NULL, true, -1), 80);
}

static void kv_lines(void **state)
{
	struct capture c;
	FILE *f = cap_open(&c);

	uk_cli_kv(f, "a.b", "value");
	uk_cli_kv(f, "empty", "");
	uk_cli_kv(f, "null", NULL);
	uk_cli_kv(f, "evil", "x\ny");
	uk_assert_text("kv", cap_text(&c),
		    "a.b value\nempty -\nnull -\nevil x?y\n");
	cap_close(&c);
}

static void kv_json_flattens_objects_and_arrays(void **state)
{
	static const char in[] =
		"{\"s\":\"x\",\"n\":-5,\"u\":18446744073709551615,\"d\":1.5,"
		"\"t\":true,\"f\":false,\"z\":null,\"e\":\"\","
		"\"o\":{\"a\":{\"b\":1},\"list\":[\"p q\",\"\",7,true]},"
		"\"none\":[],\"objs\":[{\"x\":1}]}";
	struct uk_json_value *v = NULL;
	struct capture c;
	FILE *f = cap_open(&c);

	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	uk_cli_kv_json(f, "p", v);
	uk_assert_text("kv_json", cap_text(&c),
		    "p.s x\n"
		    "p.n -5\n"
		    "p.u 18446744073709551615\n"
		    "p.d 1.5\n"
		    "p.t yes\n"
		    "p.f no\n"
		    "p.z -\n"
		    "p.e -\n"
		    "p.o.a.b 1\n"
		    "p.o.list p?q - 7 yes\n"
		    "p.none -\n"
		    "p.objs -\n");
	uk_json_value_free(v);
	cap_close(&c);
}

static void kv_json_long_list_is_cut_on_one_line(void **state)
{
	struct uk_json_value *v = NULL;
	char in[8192];
	struct capture c;
	size_t o = 0;
	const char *text;
	FILE *f = cap_open(&c);
	int i;

	o += (size_t)snprintf(in + o, sizeof(in) - o, "[");
	for (i = 0; i < 500; i++)
		o += (size_t)snprintf(in + o, sizeof(in) - o, "%s\"item%03d\"",
				      i ? "," : "", i);
	snprintf(in + o, sizeof(in) - o, "]");
	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	uk_cli_kv_json(f, "list", v);
	text = cap_text(&c);
	assert_int_equal(strncmp(text, "list item000 item001 ", 21), 0);
	assert_non_null(strstr(text, " item100 "));
	assert_null(strstr(text, "item499"));
	assert_true(strlen(text) <= 5 + 1023 + 1);
	assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1);
	uk_json_value_free(v);
	cap_close(&c);
}

static void kv_fields_prints_present_fields_only(void **state)
{
	struct uk_status st;
	struct capture c;
	FILE *f = cap_open(&c);

	memset(&st, 0, sizeof(st));
	st.mode = UACCESS_KADDR_MODE_COUNT;
	st.dropped = 3;
	st.hits_gp = 9;		/* not present: not printed */
	st.present = 1ULL << UACCESS_KADDR_A_STATUS_MODE |
		     1ULL << UACCESS_KADDR_A_STATUS_DROPPED;
	uk_cli_kv_fields(f, "k", uk_status_fields, &st);
	st.mode = 77;		/* a newer kernel's mode */
	uk_cli_kv_fields(f, "k", uk_status_fields, &st);
	uk_assert_text("fields", cap_text(&c),
		    "k.mode count\nk.dropped 3\nk.mode 77\nk.dropped 3\n");
	cap_close(&c);
}

/* ---- tables ---- */

static const struct uk_cli_column cols[] = {
	{ "N", UK_CLI_RIGHT, 0, 0 },
	{ "NAME", UK_CLI_LEFT, 0, 0 },
	{ "WHEN", UK_CLI_LEFT, 0, 0 },
};

static void table_aligns_columns(void **state)
{
	const char *r1[] = { "1200", "a", "today" };
	const char *r2[] = { "3", "caf\xc3\xa9 long", NULL };
	const char *r3[] = { "", "x\ty", "" };
	struct uk_cli_table *t = NULL;
	struct capture c;
	FILE *f = cap_open(&c);

	assert_int_equal(uk_cli_table_new(cols, 3, &t), 0);
	assert_int_equal(uk_cli_table_rows(t), 0);
	assert_int_equal(uk_cli_table_add(t, r1), 0);
	assert_int_equal(uk_cli_table_add(t, r2), 0);
	assert_int_equal(uk_cli_table_add(t, r3), 0);
	assert_int_equal(uk_cli_table_rows(t), 3);
	uk_cli_table_print(t, f, true, 0);
	uk_assert_text("table", cap_text(&c),
		    "   N NAME      WHEN\n"
		    "1200 a         today\n"
		    "   3 caf\xc3\xa9 long -\n"
		    "   - x?y       -\n");
	cap_close(&c);
	f = cap_open(&c);
	uk_cli_table_print(t, f, false, 0);
	uk_assert_text("table without header", cap_text(&c),
		    "1200 a         today\n"
		    "   3 caf\xc3\xa9 long -\n"
		    "   - x?y       -\n");
	cap_close(&c);
	uk_cli_table_free(t);
}

static void table_header_sets_the_width_when_wider(void **state)
{
	const char *r1[] = { "1", "b", "c" };
	struct uk_cli_table *t = NULL;
	struct capture c;
	FILE *f = cap_open(&c);

	assert_int_equal(uk_cli_table_new(cols, 3, &t), 0);
	assert_int_equal(uk_cli_table_add(t, r1), 0);
	uk_cli_table_print(t, f, true, 0);
	uk_assert_text("table", cap_text(&c), "N NAME WHEN\n1 b    c\n");
	cap_close(&c);
	f = cap_open(&c);
	uk_cli_table_print(t, f, false, 0);
	uk_assert_text("table", cap_text(&c), "1 b c\n");
	cap_close(&c);
	uk_cli_table_free(t);
}

static void table_grows(void **state)
{
	struct uk_cli_table *t = NULL;
	char n[16];
	const char *row[] = { n, "x", "y" };
	struct capture c;
	FILE *f;
	int i;

	assert_int_equal(uk_cli_table_new(cols, 3, &t), 0);
	for (i = 0; i < 1000; i++) {
		snprintf(n, sizeof(n), "%d", i);
		assert_int_equal(uk_cli_table_add(t, row), 0);
	}
	assert_int_equal(uk_cli_table_rows(t), 1000);
	f = cap_open(&c);
	uk_cli_table_print(t, f, false, 0);
	assert_non_null(strstr(cap_text(&c), "  0 x y\n  1 x y\n"));
	assert_non_null(strstr(cap_text(&c), "\n999 x y\n"));
	cap_close(&c);
	uk_cli_table_free(t);
	uk_cli_table_free(NULL);
	assert_int_equal(uk_cli_table_new(cols, 0, &t), -EINVAL);
}

/* Prints @t at @width with a header into a string (free it). */
static char *table_at(const struct uk_cli_table *t, unsigned int width)
{
	struct capture c;
	FILE *f = cap_open(&c);
	char *text;

	assert_int_equal(uk_cli_table_print(t, f, true, width), 0);
	text = strdup(cap_text(&c));
	cap_close(&c);
	return text;
}

/* Every line of @text at most @width display columns, none ending blank. */
static void assert_fits(const char *text, size_t width)
{
	char *copy = strdup(text), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (uk_cli_width(line) > width)
			fail_msg("%zu columns wide, not at most %zu: '%s'",
				 uk_cli_width(line), width, line);
		if (line[strlen(line) - 1] == ' ')
			fail_msg("trailing blank: '%s'", line);
	}
	free(copy);
}

/*
 * At a width: the long column is cut with an ellipsis; when that is not
 * enough, the columns with a drop rank go, rank 1 first; width 0 (a pipe,
 * --full) cuts nothing.
 */
static void table_fits_the_width(void **state)
{
	static const struct uk_cli_column fit_cols[] = {
		{ "COUNT", UK_CLI_RIGHT, 0, 0 },
		{ "SITE", UK_CLI_LEFT, UK_CLI_TRUNC, 0 },
		{ "FIRST", UK_CLI_LEFT, 0, 1 },
		{ "LAST", UK_CLI_LEFT, 0, 2 },
	};
	const char *r1[] = { "1200",
		"demo_ioctl+0x1c/0x80 [uaccess_kaddr_test_module_long]",
		"2025-11-24 16:00:00", "2025-11-24 17:00:00" };
	const char *r2[] = { "3", "waitid+0x1c/0x80", "-", "-" };
	struct uk_cli_table *t = NULL;
	char *text;

	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	assert_int_equal(uk_cli_table_new(fit_cols, 4, &t), 0);
	assert_int_equal(uk_cli_table_add(t, r1), 0);
	assert_int_equal(uk_cli_table_add(t, r2), 0);

	text = table_at(t, 0);
	assert_non_null(strstr(text, "uaccess_kaddr_test_module_long] 2025"));
	free(text);

	/* 5 + 1 + 20 + 1 + 19 + 1 + 19: the site cut to 20, all columns */
	text = table_at(t, 66);
	assert_fits(text, 66);
	uk_assert_text("66 columns", text,
		"COUNT SITE                 FIRST               LAST\n"
		" 1200 demo_ioctl+0x1c/0x8\xe2\x80\xa6 2025-11-24 16:00:00 2025-11-24 17:00:00\n"
		"    3 waitid+0x1c/0x80     -                   -\n");
	free(text);

	/* narrower: FIRST goes, the site gets what is left */
	text = table_at(t, 60);
	assert_fits(text, 60);
	assert_null(strstr(text, "FIRST"));
	assert_non_null(strstr(text, "LAST"));
	assert_non_null(strstr(text, "[uaccess_kad\xe2\x80\xa6 2025-11-24 17:00:00"));
	free(text);

	/* narrower still: LAST goes too */
	text = table_at(t, 30);
	assert_fits(text, 30);
	uk_assert_text("30 columns", text,
		"COUNT SITE\n"
		" 1200 demo_ioctl+0x1c/0x80 [u\xe2\x80\xa6\n"
		"    3 waitid+0x1c/0x80\n");
	free(text);

	/* nothing left to drop: the site at its least, the line too long */
	text = table_at(t, 10);
	assert_non_null(strstr(text, " 1200 demo_ioctl+0x1c/0x8\xe2\x80\xa6\n"));
	free(text);
	uk_cli_table_free(t);
}

/* A hidden column is left out, its cells with it. */
static void table_hides_a_column(void **state)
{
	const char *r1[] = { "1", "b", "c" };
	struct uk_cli_table *t = NULL;
	char *text;

	assert_int_equal(uk_cli_table_new(cols, 3, &t), 0);
	assert_int_equal(uk_cli_table_add(t, r1), 0);
	uk_cli_table_hide(t, 1, true);
	text = table_at(t, 0);
	uk_assert_text("table", text, "N WHEN\n1 c\n");
	free(text);
	uk_cli_table_free(t);
}

/* ---- JSON ---- */

static void json_modes_parse_like_systemd(void **state)
{
	bool json = false, pretty = true;

	assert_int_equal(uk_cli_parse_json(NULL, &json, &pretty), 0);
	assert_true(json);
	assert_false(pretty);
	assert_int_equal(uk_cli_parse_json("pretty", &json, &pretty), 0);
	assert_true(json);
	assert_true(pretty);
	assert_int_equal(uk_cli_parse_json("short", &json, &pretty), 0);
	assert_true(json);
	assert_false(pretty);
	assert_int_equal(uk_cli_parse_json("off", &json, &pretty), 0);
	assert_false(json);
	assert_int_equal(uk_cli_parse_json("long", &json, &pretty), -EINVAL);
	assert_int_equal(uk_cli_parse_json("", &json, &pretty), -EINVAL);
}

/* Pretty: two spaces a level, one key or item a line, strings intact. */
static void json_pretty_is_indented_one_key_a_line(void **state)
{
	struct uk_cli cli = { .json = true, .json_pretty = true };
	struct capture out;
	struct uk_json j;

	cli.out = cap_open(&out);
	cli.err = stderr;
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "a", 1);
	uk_json_kv_str(&j, "s", "x,{\"y\"}: [z]");
	uk_json_key(&j, "l");
	uk_json_array_begin(&j);
	uk_json_u64(&j, 2);
	uk_json_object_begin(&j);
	uk_json_object_end(&j);
	uk_json_array_end(&j);
	uk_json_key(&j, "e");
	uk_json_array_begin(&j);
	uk_json_array_end(&j);
	uk_json_object_end(&j);
	assert_int_equal(uk_cli_json_print(&cli, &j), 0);
	uk_assert_text("pretty", cap_text(&out),
		"{\n"
		"  \"a\": 1,\n"
		"  \"s\": \"x,{\\\"y\\\"}: [z]\",\n"
		"  \"l\": [\n"
		"    2,\n"
		"    {}\n"
		"  ],\n"
		"  \"e\": []\n"
		"}\n");
	cap_close(&out);
}

static void json_print_writes_one_document(void **state)
{
	struct uk_cli cli = { 0 };
	struct capture out, err;
	struct uk_json j;

	cli.out = cap_open(&out);
	cli.err = cap_open(&err);
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "a", 1);
	uk_json_object_end(&j);
	assert_int_equal(uk_cli_json_print(&cli, &j), 0);
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);	/* never closed */
	assert_int_equal(uk_cli_json_print(&cli, &j), UK_ERR_FAILURE);
	uk_assert_text("out", cap_text(&out), "{\"a\":1}\n");
	uk_assert_text("err", cap_text(&err),
		    "uaccessctl: cannot write the JSON output: Invalid argument\n");
	cap_close(&out);
	cap_close(&err);
}

static void fields_from_json_takes_what_fits(void **state)
{
	static const char in[] =
		"{\"seq\":5,\"kind\":\"gp\",\"helper\":4,\"direction\":\"sideways\","
		"\"address\":\"0xffff888000000001\",\"site_ip\":\"0x\","
		"\"stack_hash\":\"0x0000beef\",\"pid\":4294967296,"
		"\"tgid\":\"7\",\"comm\":\"a-very-long-task-name\","
		"\"syscall_nr\":-1,\"cpu\":-1,\"count\":1.5,"
		"\"site_symbol\":\"f\",\"uid\":4294967295,\"size\":null,"
		"\"context\":\"nmi\",\"site_id\":\"0x12\"}";
	struct uk_json_value *v = NULL;
	struct uk_event ev;
	uint64_t want = 0;
	unsigned int n;

	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	memset(&ev, 0xa5, sizeof(ev));
	n = uk_fields_from_json(uk_event_fields, v, &ev, sizeof(ev));
	want = 1ULL << UACCESS_KADDR_A_EVENT_SEQ |
	       1ULL << UACCESS_KADDR_A_EVENT_KIND |
	       1ULL << UACCESS_KADDR_A_EVENT_HELPER |
	       1ULL << UACCESS_KADDR_A_EVENT_ADDRESS |
	       1ULL << UACCESS_KADDR_A_EVENT_STACK_HASH |
	       1ULL << UACCESS_KADDR_A_EVENT_COMM |
	       1ULL << UACCESS_KADDR_A_EVENT_SYSCALL_NR |
	       1ULL << UACCESS_KADDR_A_EVENT_SITE_SYMBOL |
	       1ULL << UACCESS_KADDR_A_EVENT_UID |
	       1ULL << UACCESS_KADDR_A_EVENT_CONTEXT;
	assert_true(ev.present == want);
	assert_int_equal(n, 10);
	assert_int_equal(ev.seq, 5);
	assert_int_equal(ev.kind, UACCESS_KADDR_KIND_GP);
	assert_int_equal(ev.helper, 4);
	assert_int_equal(ev.direction, 0);	/* zeroed, absent */
	assert_true(ev.address == 0xffff888000000001ULL);
	assert_int_equal(ev.stack_hash, 0xbeef);
	assert_string_equal(ev.comm, "a-very-long-tas");	/* 15 + NUL */
	assert_int_equal(ev.syscall_nr, -1);
	assert_int_equal(ev.uid, 4294967295U);
	assert_int_equal(ev.context, UACCESS_KADDR_CONTEXT_NMI);
	assert_int_equal(ev.pid, 0);
	uk_json_value_free(v);
	/* not an object: nothing, everything zeroed */
	memset(&ev, 0xa5, sizeof(ev));
	assert_int_equal(uk_fields_from_json(uk_event_fields, NULL, &ev,
						 sizeof(ev)), 0);
	assert_true(ev.present == 0);
	assert_int_equal(ev.seq, 0);
}

/* The journal's and the JSON's text of the arguments reads back as sent. */
static void fields_from_json_reads_syscall_args(void **state)
{
	static const char *const bad[] = {
		"\"0x1 \"", "\" 0x1\"", "\"0x1  0x2\"", "\"0x1,0x2\"",
		"\"0x1 0x2 0x3 0x4 0x5 0x6 0x7\"", "\"1 2\"", "[1, 2]",
		"\"0x11112222333344445\"",
	};
	const int attr = UACCESS_KADDR_A_EVENT_SYSCALL_ARGS;
	char in[160];
	struct uk_json_value *v = NULL;
	struct uk_event ev;
	size_t i;

	snprintf(in, sizeof(in), "{\"syscall_args\":\"%s\"}",
		 "0x1 0x4d3 0xffff888012345678 0x4 0x0 0xffffffffffffffff");
	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	assert_int_equal(uk_fields_from_json(uk_event_fields, v, &ev,
					     sizeof(ev)), 1);
	assert_true(ev.present == 1ULL << attr);
	assert_int_equal(ev.syscall_args.nr, 6);
	assert_true(ev.syscall_args.v[2] == 0xffff888012345678ULL);
	assert_true(ev.syscall_args.v[5] == UINT64_MAX);
	uk_json_value_free(v);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(in, sizeof(in), "{\"syscall_args\":%s}", bad[i]);
		v = NULL;
		assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
		memset(&ev, 0xa5, sizeof(ev));
		if (uk_fields_from_json(uk_event_fields, v, &ev, sizeof(ev)))
			fail_msg("%s was taken", bad[i]);
		assert_int_equal(ev.syscall_args.nr, 0);
		uk_json_value_free(v);
	}
}

static void fields_from_json_refuses_bad_hex(void **state)
{
	static const char *const bad[] = {
		"\"0x\"", "\"0xzz\"", "\"123\"", "\"0x11112222333344445\"",
		"\"0X10\"", "16", "\"\"",
	};
	struct uk_json_value *v = NULL;
	struct uk_site s;
	char in[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(in, sizeof(in), "{\"site_ip\":%s}", bad[i]);
		assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
		if (uk_fields_from_json(uk_site_fields, v, &s, sizeof(s)))
			fail_msg("%s taken as a hex address", bad[i]);
		uk_json_value_free(v);
	}
	snprintf(in, sizeof(in), "{\"stack_hash\":\"0x100000000\"}");
	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	assert_int_equal(uk_fields_from_json(uk_site_fields, v, &s,
						 sizeof(s)), 0);
	uk_json_value_free(v);
	snprintf(in, sizeof(in), "{\"site_ip\":\"0xFFFFffff81000000\"}");
	assert_int_equal(uk_json_parse(in, strlen(in), &v, NULL, 0), 0);
	assert_int_equal(uk_fields_from_json(uk_site_fields, v, &s,
						 sizeof(s)), 1);
	assert_true(s.site_ip == 0xffffffff81000000ULL);
	uk_json_value_free(v);
}

/* ---- time ---- */

static void boot_time_converts_with_the_clock_offset(void **state)
{
	fake_reset_all();
	assert_true(uk_cli_boot_to_real(FAKE_BOOT_NS) == FAKE_REAL_NS);
	assert_true(uk_cli_boot_to_real(FAKE_BOOT_NS - 5000000000ULL) ==
		    FAKE_REAL_NS - 5000000000ULL);
	assert_true(uk_cli_boot_to_real(1) ==
		    FAKE_REAL_NS - FAKE_BOOT_NS + 1);
	assert_true(uk_cli_boot_to_real(0) == 0);
	/* from the future: unknown */
	assert_true(uk_cli_boot_to_real(FAKE_BOOT_NS + 1) == 0);
	/* before the epoch: unknown */
	fake.real_ns = 1000;
	assert_true(uk_cli_boot_to_real(FAKE_BOOT_NS - 5000) == 0);
}

/* ---- pager ---- */

static void touch_exe(const char *dir, const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\ncat\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/* After a test that changed $PATH, failed or not. */
static int restore_path(void **state)
{
	if (orig_path)
		setenv("PATH", orig_path, 1);
	else
		unsetenv("PATH");
	return 0;
}

/* The pager command chosen on a terminal, in secure mode or not. */
static const char *chosen(bool secure, const char *systemd_pager,
			  const char *pager)
{
	return uk_cli_pager_command(true, false, secure, systemd_pager, pager);
}

static void pager_chosen_as_systemd_does(void **state)
{
	char dir[256];

	assert_null(uk_cli_pager_command(false, false, false, NULL, NULL));
	assert_null(uk_cli_pager_command(true, true, false, "less", "less"));
	assert_string_equal(chosen(false, "most -s", "less"), "most -s");
	assert_string_equal(chosen(false, NULL, "pg"), "pg");
	assert_null(chosen(false, "", "less"));
	assert_null(chosen(false, "cat", "less"));
	assert_null(chosen(false, NULL, " cat"));
	assert_null(chosen(false, NULL, ""));

	/* neither set: less, else more, else none, found in $PATH */
	snprintf(dir, sizeof(dir), "%s/bin", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	setenv("PATH", dir, 1);
	assert_null(chosen(false, NULL, NULL));
	touch_exe(dir, "more");
	assert_string_equal(chosen(false, NULL, NULL), "more");
	touch_exe(dir, "less");
	assert_string_equal(chosen(false, NULL, NULL), "less");
}

/* Colours as systemd decides them: SYSTEMD_COLORS, NO_COLOR, TERM, tty. */
static void colors_as_systemd_decides(void **state)
{
	assert_true(uk_cli_color_mode(true, NULL, NULL, "xterm-256color"));
	assert_false(uk_cli_color_mode(false, NULL, NULL, "xterm"));
	assert_false(uk_cli_color_mode(true, NULL, "", "xterm"));
	assert_false(uk_cli_color_mode(true, NULL, "1", "xterm"));
	assert_false(uk_cli_color_mode(true, NULL, NULL, "dumb"));
	assert_false(uk_cli_color_mode(true, NULL, NULL, NULL));
	/* SYSTEMD_COLORS wins, piped or not. */
	assert_true(uk_cli_color_mode(false, "1", "1", "dumb"));
	assert_true(uk_cli_color_mode(false, "256", NULL, NULL));
	assert_false(uk_cli_color_mode(true, "no", NULL, "xterm"));
	assert_false(uk_cli_color_mode(true, "maybe", NULL, "xterm"));
}

static void pager_secure_mode_as_systemd_decides(void **state)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on",
					   "YES", "True", "ON" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off",
					  "NO", "False", "Off" };
	static const char *const bad[] = { "", "2", "maybe", " 1", "yes ",
					   "offf" };
	size_t i;

	/* unset: secure unless the session's owner is the effective uid */
	assert_false(uk_cli_pager_secure_mode(NULL, true, 1000, 1000));
	assert_false(uk_cli_pager_secure_mode(NULL, true, 0, 0));
	/* sudo, pkexec, su: root, or another user, in someone's session */
	assert_true(uk_cli_pager_secure_mode(NULL, true, 1000, 0));
	assert_true(uk_cli_pager_secure_mode(NULL, true, 1000, 1001));
	assert_true(uk_cli_pager_secure_mode(NULL, true, 0, 1000));
	/* no session, or not known: secure */
	assert_true(uk_cli_pager_secure_mode(NULL, false, 0, 0));
	assert_true(uk_cli_pager_secure_mode(NULL, false, 1000, 1000));

	/* set: what it says, whoever we are */
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		assert_true(uk_cli_pager_secure_mode(yes[i], true, 1000, 1000));
		assert_true(uk_cli_pager_secure_mode(yes[i], true, 1000, 0));
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		assert_false(uk_cli_pager_secure_mode(no[i], true, 1000, 0));
		assert_false(uk_cli_pager_secure_mode(no[i], false, 0, 0));
	}
	/* not a boolean: secure */
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_true(uk_cli_pager_secure_mode(bad[i], true, 1000, 1000));

	/* this process: $SYSTEMD_PAGERSECURE first */
	setenv("SYSTEMD_PAGERSECURE", "1", 1);
	assert_true(uk_cli_pager_secure());
	setenv("SYSTEMD_PAGERSECURE", "0", 1);
	assert_false(uk_cli_pager_secure());
	setenv("SYSTEMD_PAGERSECURE", "perhaps", 1);
	assert_true(uk_cli_pager_secure());
	unsetenv("SYSTEMD_PAGERSECURE");
}

static void pager_secure_runs_less_only(void **state)
{
	static const char *const asked[] = { "most", "more", "pg", "sh",
					     "less; sh", "less -R; sh -i",
					     "/tmp/less", "vi -", " most" };
	char dir[256];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/bin-secure", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	setenv("PATH", dir, 1);

	/* no less: no pager, more is no fallback */
	touch_exe(dir, "more");
	assert_null(chosen(true, NULL, NULL));
	assert_null(chosen(true, "more", NULL));
	assert_null(chosen(true, NULL, "more"));

	touch_exe(dir, "less");
	assert_string_equal(chosen(true, NULL, NULL), "less");
	/* whatever the environment asks for, less runs, as it is */
	for (i = 0; i < ARRAY_SIZE(asked); i++) {
		assert_string_equal(chosen(true, asked[i], NULL), "less");
		assert_string_equal(chosen(true, NULL, asked[i]), "less");
		assert_string_equal(chosen(true, asked[i], "less"), "less");
	}
	assert_string_equal(chosen(true, "less -R", NULL), "less");
	/* but no pager is still no pager */
	assert_null(chosen(true, "", "less"));
	assert_null(chosen(true, "cat", NULL));
	assert_null(chosen(true, NULL, " cat"));
	assert_null(uk_cli_pager_command(false, false, true, NULL, NULL));
	assert_null(uk_cli_pager_command(true, true, true, NULL, NULL));
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

static void pager_gets_the_output_and_stdout_comes_back(void **state)
{
	struct uk_cli_pager pg;
	struct stat before, after;
	char cmd[1024], out[128], env[128], *text;

	snprintf(out, sizeof(out), "%s/paged", tmpdir);
	snprintf(env, sizeof(env), "%s/env", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "printf '%%s' \"$LESS\" >'%s'; cat >'%s'", env, out);
	fflush(stdout);
	assert_int_equal(fstat(STDOUT_FILENO, &before), 0);
	unsetenv("SYSTEMD_LESS");
	assert_int_equal(uk_cli_pager_open(&pg, cmd, false), 0);
	assert_true(pg.pid > 0);
	printf("line one\nline two\n");
	uk_cli_pager_close(&pg);
	assert_int_equal(pg.pid, 0);
	assert_int_equal(fstat(STDOUT_FILENO, &after), 0);
	assert_true(before.st_ino == after.st_ino &&
		    before.st_dev == after.st_dev);
	text = slurp(out);
	assert_string_equal(text, "line one\nline two\n");
	free(text);
	text = slurp(env);
	assert_string_equal(text, "FRSXMK");
	free(text);

	setenv("SYSTEMD_LESS", "R", 1);
	assert_int_equal(uk_cli_pager_open(&pg, cmd, false), 0);
	uk_cli_pager_close(&pg);
	unsetenv("SYSTEMD_LESS");
	text = slurp(env);
	assert_string_equal(text, "R");
	free(text);
	/* closing without a pager does nothing */
	pg.pid = 0;
	uk_cli_pager_close(&pg);
}

/* Does a line of @text start with @s ("NAME=": is NAME set)? */
static bool has_line(const char *text, const char *s)
{
	const char *p = text;

	for (;;) {
		if (!strncmp(p, s, strlen(s)))
			return true;
		p = strchr(p, '\n');
		if (!p++)
			return false;
	}
}

/* The pager's environment, written by the pager to $tmpdir/pager-env. */
static char *pager_env(bool secure)
{
	struct uk_cli_pager pg;
	char cmd[512], env[128];

	snprintf(env, sizeof(env), "%s/pager-env", tmpdir);
	snprintf(cmd, sizeof(cmd), "env >'%s'; cat >/dev/null", env);
	assert_int_equal(uk_cli_pager_open(&pg, cmd, secure), 0);
	printf("paged\n");
	uk_cli_pager_close(&pg);
	return slurp(env);
}

static void pager_secure_gets_lesssecure(void **state)
{
	char *text;

	unsetenv("LESSSECURE");
	unsetenv("SYSTEMD_LESS");
	setenv("LESSSECURE_ALLOW", "shell,edit", 1);
	text = pager_env(true);
	assert_true(has_line(text, "LESSSECURE=1\n"));
	assert_false(has_line(text, "LESSSECURE_ALLOW="));
	assert_true(has_line(text, "LESS=FRSXMK\n"));
	free(text);
	/* in the pager only */
	assert_null(getenv("LESSSECURE"));
	assert_string_equal(getenv("LESSSECURE_ALLOW"), "shell,edit");

	/* not secure: the environment's, as it is */
	text = pager_env(false);
	assert_false(has_line(text, "LESSSECURE="));
	assert_true(has_line(text, "LESSSECURE_ALLOW=shell,edit\n"));
	free(text);
	unsetenv("LESSSECURE_ALLOW");

	/* secure whatever the environment says */
	setenv("LESSSECURE", "0", 1);
	text = pager_env(true);
	assert_true(has_line(text, "LESSSECURE=1\n"));
	free(text);
	unsetenv("LESSSECURE");
}

int main(void)
{
	const struct CMUnitTest cli_output[] = {
		cmocka_unit_test(error_prefixes_the_program_and_returns_the_error),
		cmocka_unit_test(errors_become_exit_codes_at_main),
		cmocka_unit_test(ctl_transport_errors_read_as_sentences),
		cmocka_unit_test(ctl_replies_checked),
		cmocka_unit_test(ctl_failures_map_to_errors),
		cmocka_unit_test(netlink_failures_map_to_errors),
		cmocka_unit_test(numbers_are_strict),
		cmocka_unit_test(sanitize_replaces_controls_and_bad_utf8),
		cmocka_unit_test(width_counts_characters_where_the_locale_cannot_tell),
		cmocka_unit_test(width_is_display_columns_in_a_utf8_locale),
		cmocka_unit_test(columns_as_systemd_chooses_them),
		cmocka_unit_test(kv_lines),
		cmocka_unit_test(kv_json_flattens_objects_and_arrays),
		cmocka_unit_test(kv_json_long_list_is_cut_on_one_line),
		cmocka_unit_test(kv_fields_prints_present_fields_only),
		cmocka_unit_test(table_aligns_columns),
		cmocka_unit_test(table_header_sets_the_width_when_wider),
		cmocka_unit_test(table_grows),
		cmocka_unit_test(table_fits_the_width),
		cmocka_unit_test(table_hides_a_column),
		cmocka_unit_test(json_modes_parse_like_systemd),
		cmocka_unit_test(json_pretty_is_indented_one_key_a_line),
		cmocka_unit_test(json_print_writes_one_document),
		cmocka_unit_test(fields_from_json_takes_what_fits),
		cmocka_unit_test(fields_from_json_reads_syscall_args),
		cmocka_unit_test(fields_from_json_refuses_bad_hex),
		cmocka_unit_test(boot_time_converts_with_the_clock_offset),
		cmocka_unit_test_teardown(pager_chosen_as_systemd_does,
					  restore_path),
		cmocka_unit_test(colors_as_systemd_decides),
		cmocka_unit_test(pager_secure_mode_as_systemd_decides),
		cmocka_unit_test_teardown(pager_secure_runs_less_only,
					  restore_path),
		cmocka_unit_test(pager_gets_the_output_and_stdout_comes_back),
		cmocka_unit_test(pager_secure_gets_lesssecure),
	};

	return cmocka_run_group_tests(cli_output, setup, teardown);
}
