// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl sites and top (daemon/uaccessctl/sites.c) over fake transports:
 * the table and JSON from uaccessd's reply and from the kernel's dump
 * (golden files), the request sent, sorting and limits, --no-legend, and
 * every error with its exit code.
 */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli_fake.h"
#include "common/util.h"

#define SITE(id, ip, sym, kind, helper, dir, count, ksupp, jsupp, first, last) \
	"{\"site_id\":" #id ",\"site_ip\":\"" ip "\",\"site_symbol\":\""	\
	sym "\",\"kind\":\"" kind "\",\"helper\":\"" helper "\","	\
	"\"direction\":\"" dir "\",\"count\":" #count ","		\
	"\"kernel_suppressed\":" #ksupp ",\"kernel_reported\":5,"	\
	"\"events\":5,\"journaled\":2,\"journal_suppressed\":" #jsupp ","	\
	"\"first_ts_boot\":1000000,\"last_ts_boot\":2000000,"		\
	"\"first_ts_real\":" #first ",\"last_ts_real\":" #last ","	\
	"\"last_address\":\"0xffff888000100008\","			\
	"\"stacks\":[{\"stack_hash\":\"0x00001004\",\"events\":5,"	\
	"\"frames\":[\"" sym "\",\"do_syscall_64+0x5d/0x170\"]}],"	\
	"\"stacks_other\":0,\"samples\":[]}"

static const char reply_three[] =
	"{\"ok\":true,\"cmd\":\"sites\",\"version\":1,\"total\":3,\"sites\":["
	SITE(7, "0xffffffff81a2b3c4", "waitid+0x1c/0x80", "precheck",
	     "__put_user", "to-user", 1200, 1100, 90, 1764000000000000000,
	     1764003600500000000) ","
	SITE(9, "0xffffffffc0001234",
	     "demo_ioctl+0x1c/0x80 [uaccess_kaddr_test]", "fault",
	     "copy_user_generic", "from-user", 3, 0, 1, 1764000005000000000,
	     1764000006000000000) ","
	SITE(2, "0xffffffff81000040", "", "gp", "__get_user", "both", 1, 0,
	     0, 0, 0)
	"]}";

static const char reply_two_of_three[] =
	"{\"ok\":true,\"cmd\":\"sites\",\"version\":1,\"total\":3,\"sites\":["
	SITE(7, "0xffffffff81a2b3c4", "waitid+0x1c/0x80", "precheck",
	     "__put_user", "to-user", 1200, 1100, 90, 1764000000000000000,
	     1764003600500000000) ","
	SITE(9, "0xffffffffc0001234", "demo_ioctl+0x1c/0x80", "fault",
	     "copy_user_generic", "from-user", 3, 0, 1, 1764000005000000000,
	     1764000006000000000)
	"]}";

static const char reply_empty[] =
	"{\"ok\":true,\"cmd\":\"sites\",\"version\":1,\"total\":0,\"sites\":[]}";

static const struct uk_cli plain = { 0 };
static const struct uk_cli json = { .json = true };
static const struct uk_cli kernel = { .kernel = true };

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void daemon_up(const char *reply)
{
	fake_reset_all();
	fake.reply_sites = reply;
}

/* A kernel site; boot times are ns since boot (FAKE_BOOT_NS is now). */
static void add_site(uint32_t id, uint64_t ip, const char *sym,
		     uint32_t kind, uint32_t helper, uint32_t dir,
		     uint64_t count, uint64_t suppressed, uint64_t first_boot,
		     uint64_t last_boot)
{
	struct uk_site *s = &fake.sites[fake.nsites++];
	int a;

	memset(s, 0, sizeof(*s));
	s->site_id = id;
	s->site_ip = ip;
	snprintf(s->site_symbol, sizeof(s->site_symbol), "%s", sym);
	s->kind = kind;
	s->helper = helper;
	s->direction = dir;
	s->count = count;
	s->suppressed = suppressed;
	s->reported = count - suppressed;
	s->first_ts_boot = first_boot;
	s->last_ts_boot = last_boot;
	s->last_address = 0xffff888000200000ULL + id;
	s->last_pid = 100 + id;
	snprintf(s->last_comm, sizeof(s->last_comm), "task%u", id);
	s->stack_hash = 0xbeef0000 + id;
	for (a = UACCESS_KADDR_A_SITE_SITE_ID; a <= UACCESS_KADDR_A_SITE_MAX;
	     a++)
		s->present |= 1ULL << a;
	if (!sym[0])
		s->present &= ~(1ULL << UACCESS_KADDR_A_SITE_SITE_SYMBOL);
}

/* Four sites; the kernel's order is not the order shown. */
static void kernel_up(void)
{
	fake_reset_all();
	fake.ctl_err = -ENOENT;		/* no uaccessd: not needed */
	add_site(1, 0xffffffff81000040ULL, "beta_read+0x10/0x40",
		 UACCESS_KADDR_KIND_FAULT, UACCESS_KADDR_HELPER_GET_USER,
		 UACCESS_KADDR_DIRECTION_FROM_USER, 5, 0,
		 FAKE_BOOT_NS - 600000000000ULL, FAKE_BOOT_NS - 60000000000ULL);
	add_site(2, 0xffffffff81000080ULL, "alpha_write+0x22/0x90",
		 UACCESS_KADDR_KIND_PRECHECK, UACCESS_KADDR_HELPER_COPY_TO_USER,
		 UACCESS_KADDR_DIRECTION_TO_USER, 40, 30,
		 FAKE_BOOT_NS - 900000000000ULL, FAKE_BOOT_NS - 1000000000ULL);
	add_site(3, 0xffffffff810000c0ULL, "",
		 UACCESS_KADDR_KIND_GP, UACCESS_KADDR_HELPER_CMPXCHG_USER,
		 UACCESS_KADDR_DIRECTION_BOTH, 5, 1,
		 FAKE_BOOT_NS - 300000000000ULL, FAKE_BOOT_NS - 2000000000ULL);
	add_site(4, 0xffffffff81000100ULL, "gamma\x1b[2J+0x1/0x2",
		 UACCESS_KADDR_KIND_PRECHECK, UACCESS_KADDR_HELPER_PUT_USER,
		 UACCESS_KADDR_DIRECTION_TO_USER, 2, 0,
		 FAKE_BOOT_NS - 5000000000ULL, FAKE_BOOT_NS - 5000000000ULL);
}

/* Positions of @a and @b in @s: @a must come first. */
static void assert_before(const char *s, const char *a, const char *b)
{
	const char *pa = strstr(s, a), *pb = strstr(s, b);

	if (!pa || !pb || pa > pb)
		fail_msg("expected \"%s\" before \"%s\" in\n%s", a, b, s);
}

static void daemon_table_matches_golden(void **state)
{
	struct run r;

	daemon_up(reply_three);
	RUN(&r, uk_cli_sites, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("sites-daemon.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"count\",\"limit\":0}");
	run_free(&r);
}

static void daemon_json_matches_golden_in_microseconds(void **state)
{
	const struct uk_json_value *s;
	struct uk_json_value *v = NULL;
	const char *str;
	uint64_t u;
	struct run r;

	daemon_up(reply_three);
	RUN(&r, uk_cli_sites, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("sites-daemon.json", r.out);
	assert_int_equal(uk_json_parse(r.out, r.outlen, &v, NULL, 0), 0);
	assert_int_equal(uk_json_get_str(uk_json_object_get(v, "source"),
					 &str), 0);
	assert_string_equal(str, "uaccessd");
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, "total"), &u),
			 0);
	assert_int_equal(u, 3);
	s = uk_json_array_at(uk_json_object_get(v, "sites"), 0);
	/* ns in the reply, us in the output: exact in any JSON reader */
	assert_int_equal(uk_json_get_u64(uk_json_object_get(s, "last_usec"),
					 &u), 0);
	assert_int_equal(u, 1764003600500000ULL);
	assert_null(uk_json_object_get(s, "last_ts_real"));
	assert_null(uk_json_object_get(s, "suppressed"));
	/* what uaccessd sent is all there, stacks included */
	assert_int_equal(uk_json_array_len(uk_json_object_get(s, "stacks")), 1);
	uk_json_value_free(v);
	run_free(&r);
}

static void no_legend_drops_header_and_footer(void **state)
{
	struct uk_cli cli = { .no_legend = true };
	struct run r;

	daemon_up(reply_three);
	RUN(&r, uk_cli_sites, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("sites-daemon-no-legend.txt", r.out);
	assert_null(strstr(r.out, "COUNT"));
	assert_null(strstr(r.out, "listed"));
	run_free(&r);
}

/*
 * A terminal of 80 columns: every line fits, the long site cut with an
 * ellipsis, FIRST and LAST left out; --full (columns 0) cuts nothing.
 */
static void table_fits_80_columns_and_full_does_not_cut(void **state)
{
	struct uk_cli cli = { .columns = 80 };
	char *copy, *line, *save = NULL;
	struct run r;

	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	daemon_up(reply_three);
	RUN(&r, uk_cli_top, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	copy = strdup(r.out);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (uk_cli_width(line) > 80)
			fail_msg("%zu columns: '%s'", uk_cli_width(line), line);
	free(copy);
	assert_non_null(strstr(r.out,
		"COUNT KIND     HELPER            DIR       SITE                       SUPPRESSED\n"));
	assert_non_null(strstr(r.out, " demo_ioctl+0x1c/0x80 [uac\xe2\x80\xa6          1\n"));
	assert_null(strstr(r.out, "FIRST"));
	assert_null(strstr(r.out, "2025-11-24"));
	run_free(&r);
	cli.columns = 0;
	daemon_up(reply_three);
	RUN(&r, uk_cli_top, cli);
	assert_non_null(strstr(r.out, "[uaccess_kaddr_test] 2025-11-24"));
	run_free(&r);
	setlocale(LC_ALL, "C");
}

static void top_asks_for_ten_by_default(void **state)
{
	struct run r;

	daemon_up(reply_two_of_three);
	RUN(&r, uk_cli_top, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"count\",\"limit\":10}");
	assert_non_null(strstr(r.out, "\n2 of 3 sites listed.\n"));
	run_free(&r);
}

static void lines_and_sort_reach_the_request(void **state)
{
	struct uk_cli cli = { .lines = 2 };
	struct run r;

	daemon_up(reply_two_of_three);
	cli.sort = UK_SORT_LAST;
	RUN(&r, uk_cli_top, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"last\",\"limit\":2}");
	run_free(&r);
	daemon_up(reply_two_of_three);
	cli.sort = UK_SORT_NAME;
	RUN(&r, uk_cli_sites, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"name\",\"limit\":2}");
	run_free(&r);
}

static void bad_arguments_exit_2_before_any_request(void **state)
{
	static const struct {
		const char *argv[3];
		int argc;
		const char *err;
	} cases[] = {
		{ { "waitid" }, 1,
		  "uaccessctl: sites: unexpected argument 'waitid'\n" },
		{ { "count", "extra" }, 2,
		  "uaccessctl: sites: unexpected argument 'count'\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		daemon_up(reply_three);
		run_verb(uk_cli_sites, plain, &r, cases[i].argc,
			 cases[i].argv);
		assert_int_equal(r.code, UK_EXIT_USAGE);
		uk_assert_text("stderr", r.err, cases[i].err);
		uk_assert_text("stdout", r.out, "");
		assert_int_equal(fake.ctl_calls, 0);
		run_free(&r);
	}
}

static void empty_table_says_so(void **state)
{
	struct uk_cli cli = { .no_legend = true };
	struct run r;

	daemon_up(reply_empty);
	RUN(&r, uk_cli_sites, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "No sites recorded.\n");
	run_free(&r);
	RUN(&r, uk_cli_sites, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "");
	run_free(&r);
	RUN(&r, uk_cli_sites, json);
	uk_assert_text("stdout", r.out,
		    "{\"source\":\"uaccessd\",\"total\":0,\"sites\":[]}\n");
	run_free(&r);
}

static void daemon_absent_exits_4(void **state)
{
	struct run r;

	daemon_up(reply_three);
	fake.ctl_err = -ECONNREFUSED;
	RUN(&r, uk_cli_top, plain);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd is not running (systemctl start uaccessd)\n");
	uk_assert_text("stdout", r.out, "");
	assert_int_equal(fake.opens, 0);	/* no fallback to the kernel */
	run_free(&r);
}

static void daemon_bad_replies_exit_1(void **state)
{
	static const char *const bad[] = {
		"{\"ok\":true,\"total\":3}",
		"{\"ok\":true,\"sites\":[]}",
		"{\"ok\":true,\"total\":\"3\",\"sites\":[]}",
		"{\"ok\":true,\"total\":3,\"sites\":{}}",
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		daemon_up(bad[i]);
		RUN(&r, uk_cli_sites, plain);
		assert_int_equal(r.code, UK_EXIT_FAILURE);
		uk_assert_text("stderr", r.err,
			    "uaccessctl: uaccessd's sites reply has no \"sites\" array or \"total\"\n");
		run_free(&r);
	}
	daemon_up("{\"ok\":false,\"cmd\":\"sites\",\"error\":\"\\\"sort\\\" must be one of \\\"count\\\", \\\"last\\\", \\\"name\\\"\",\"errno\":22}");
	RUN(&r, uk_cli_sites, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: \"sort\" must be one of \"count\", \"last\", \"name\"\n");
	run_free(&r);
}

static void kernel_table_matches_golden(void **state)
{
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_sites, kernel);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("sites-kernel.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	assert_int_equal(fake.ctl_calls, 0);
	assert_int_equal(fake.opens, 1);
	assert_int_equal(fake.closes, 1);
	run_free(&r);
}

static void kernel_json_matches_golden(void **state)
{
	struct uk_cli cli = { .kernel = true, .json = true };
	struct uk_json_value *v = NULL;
	const struct uk_json_value *s;
	uint64_t u;
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_sites, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("sites-kernel.json", r.out);
	assert_int_equal(uk_json_parse(r.out, r.outlen, &v, NULL, 0), 0);
	s = uk_json_array_at(uk_json_object_get(v, "sites"), 0);
	/* the busiest: alpha_write, last hit 1 s ago */
	assert_int_equal(uk_json_get_u64(uk_json_object_get(s, "last_usec"),
					 &u), 0);
	assert_int_equal(u, (FAKE_REAL_NS - 1000000000ULL) / 1000);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(s,
				"kernel_suppressed"), &u), 0);
	assert_int_equal(u, 30);
	assert_null(uk_json_object_get(s, "reported"));
	uk_json_value_free(v);
	run_free(&r);
}

static void kernel_sorts_like_the_daemon(void **state)
{
	const struct uk_cli by_last = { .kernel = true, .sort = UK_SORT_LAST };
	const struct uk_cli by_name = { .kernel = true, .sort = UK_SORT_NAME };
	struct run r;

	/* count: 40, then the two 5s by most recent, then 2 */
	kernel_up();
	RUN(&r, uk_cli_sites, kernel);
	assert_before(r.out, "alpha_write", "0xffffffff810000c0");
	assert_before(r.out, "0xffffffff810000c0", "beta_read");
	assert_before(r.out, "beta_read", "gamma");
	run_free(&r);
	kernel_up();
	RUN(&r, uk_cli_sites, by_last);
	assert_before(r.out, "alpha_write", "0xffffffff810000c0");
	assert_before(r.out, "0xffffffff810000c0", "gamma");
	assert_before(r.out, "gamma", "beta_read");
	run_free(&r);
	/* name: "" (no symbol) first, then alphabetical */
	kernel_up();
	RUN(&r, uk_cli_sites, by_name);
	assert_before(r.out, "0xffffffff810000c0", "alpha_write");
	assert_before(r.out, "alpha_write", "beta_read");
	assert_before(r.out, "beta_read", "gamma");
	run_free(&r);
}

static void kernel_top_cuts_after_sorting(void **state)
{
	struct uk_cli cli = { .kernel = true, .lines = 2 };
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_top, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "alpha_write"));
	assert_non_null(strstr(r.out, "0xffffffff810000c0"));
	assert_null(strstr(r.out, "beta_read"));
	assert_non_null(strstr(r.out, "\n2 of 4 sites listed.\n"));
	run_free(&r);
}

static void kernel_permission_denied_exits_5(void **state)
{
	struct run r;

	kernel_up();
	fake.dump_err = -EPERM;
	fake.dump_why = "CAP_SYS_ADMIN is required";
	RUN(&r, uk_cli_sites, kernel);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: permission denied: needs CAP_SYS_ADMIN\n");
	uk_assert_text("stdout", r.out, "");
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
}

static void kernel_without_family_exits_3(void **state)
{
	struct run r;

	kernel_up();
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_top, kernel);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n");
	run_free(&r);
}

static void kernel_dump_failure_exits_1_with_its_message(void **state)
{
	struct run r;

	kernel_up();
	fake.dump_err = -EBADMSG;
	fake.dump_why = "attribute count: length 4, expected 8";
	RUN(&r, uk_cli_sites, kernel);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: dump-sites failed: attribute count: length 4, expected 8\n");
	run_free(&r);
	kernel_up();
	fake.dump_err = -ETIMEDOUT;
	RUN(&r, uk_cli_sites, kernel);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: dump-sites: the kernel did not answer in time\n");
	run_free(&r);
}

static void kernel_unknown_enum_values_shown_as_numbers(void **state)
{
	struct run r;

	fake_reset_all();
	add_site(1, 0xffffffff81000040ULL, "new+0x1/0x2", 99, 77, 55, 1, 0,
		 FAKE_BOOT_NS - 1000000000ULL, FAKE_BOOT_NS - 1000000000ULL);
	RUN(&r, uk_cli_sites, kernel);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, " 99   77     55  new+0x1/0x2 "));
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest cli_sites[] = {
		cmocka_unit_test(daemon_table_matches_golden),
		cmocka_unit_test(daemon_json_matches_golden_in_microseconds),
		cmocka_unit_test(no_legend_drops_header_and_footer),
		cmocka_unit_test(table_fits_80_columns_and_full_does_not_cut),
		cmocka_unit_test(top_asks_for_ten_by_default),
		cmocka_unit_test(lines_and_sort_reach_the_request),
		cmocka_unit_test(bad_arguments_exit_2_before_any_request),
		cmocka_unit_test(empty_table_says_so),
		cmocka_unit_test(daemon_absent_exits_4),
		cmocka_unit_test(daemon_bad_replies_exit_1),
		cmocka_unit_test(kernel_table_matches_golden),
		cmocka_unit_test(kernel_json_matches_golden),
		cmocka_unit_test(kernel_sorts_like_the_daemon),
		cmocka_unit_test(kernel_top_cuts_after_sorting),
		cmocka_unit_test(kernel_permission_denied_exits_5),
		cmocka_unit_test(kernel_without_family_exits_3),
		cmocka_unit_test(kernel_dump_failure_exits_1_with_its_message),
		cmocka_unit_test(kernel_unknown_enum_values_shown_as_numbers),
	};

	return cmocka_run_group_tests(cli_sites, setup, NULL);
}
