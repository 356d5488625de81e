// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl status (daemon/uaccessctl/status.c) over fake transports: the
 * summary, the --all list and the JSON output (golden files), colours only
 * when asked, where the kernel part comes from, and every problem with its
 * message (once, on stderr) or summary line, and exit code, alone and
 * together.
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

#include "cli_fake.h"
#include "common/util.h"

#define MSG_NO_KERNEL \
	"uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n"
#define MSG_NO_DAEMON \
	"uaccessctl: uaccessd is not running (systemctl start uaccessd)\n"

#define DAEMON_OBJ(lost, loss_gap, extra)				\
	"{\"state\":\"subscribed\",\"pid\":321,\"uptime_ms\":65000,"	\
	extra								\
	"\"reloads\":0,\"reload_failures\":0,\"datagrams\":14,"	\
	"\"messages\":14,\"events\":14,\"journaled\":12,"		\
	"\"suppressed\":2,\"suppressed_global\":0,\"ignored\":0,"	\
	"\"late\":0,\"recovered\":0,\"other_messages\":0,"		\
	"\"overruns\":0,\"resyncs\":1,\"last_seq\":14,\"sites\":4,"	\
	"\"max_sites\":10000,\"stacks\":4,\"journal_sent\":13,"	\
	"\"journal_failed\":0,\"journal_lost_events\":0,"		\
	"\"loss\":{\"kernel-dropped\":0,\"sequence-gap\":" loss_gap ","	\
	"\"socket-overrun\":0,\"malformed-message\":0,"		\
	"\"journal-send-failed\":0,\"site-evicted\":0,"		\
	"\"kernel-site-table-full\":0},\"lost\":" lost ","		\
	"\"config\":{\"rcvbuf\":8388608,\"site_interval_ms\":60000,"	\
	"\"site_burst\":5,\"global_rate\":100,\"global_burst\":500,"	\
	"\"summary_interval_ms\":60000,\"max_sites\":10000,"		\
	"\"samples\":4,\"resync_interval_ms\":300000,"		\
	"\"ignore\":[\"noisy_*\",\"other\"]}}"

#define KERNEL_AVAILABLE						\
	"{\"available\":true,\"mode\":\"warn\",\"hits_fault\":7,"	\
	"\"hits_gp\":0,\"hits_precheck\":9,\"rejected\":1,"		\
	"\"reported\":16,\"suppressed\":0,\"dropped\":0,"		\
	"\"sites_used\":2,\"sites_max\":4096,\"sites_overflow\":0,"	\
	"\"last_seq\":16,\"ratelimit_interval_ms\":1000,"		\
	"\"ratelimit_burst\":3,\"queue_len\":0}"

#define KERNEL_ABSENT							\
	"{\"available\":false,\"error\":\"waiting for the kernel\"}"

#define REPLY(kernel, daemon)						\
	"{\"ok\":true,\"cmd\":\"status\",\"version\":1,\"kernel\":"	\
	kernel ",\"daemon\":" daemon "}"

static const char reply_ok[] =
	REPLY(KERNEL_ABSENT, DAEMON_OBJ("0", "0", ""));
static const char reply_kernel[] =
	REPLY(KERNEL_AVAILABLE, DAEMON_OBJ("0", "0", ""));
static const char reply_lost[] =
	REPLY(KERNEL_ABSENT, DAEMON_OBJ("5", "5", ""));

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	/* The summary's dot is U+25CF in a UTF-8 locale, '*' otherwise. */
	setenv("LC_ALL", "C.UTF-8", 1);
	return 0;
}

/* A kernel and a daemon that answer. */
static void both_up(void)
{
	fake_reset_all();
	fake_status_fill(&fake.status);
	fake.reply_status = reply_ok;
}

static const struct uk_cli json = { .json = true };
static const struct uk_cli plain = { 0 };
static const struct uk_cli all = { .all = true };

static void ok_text_matches_golden(void **state)
{
	struct run r;

	both_up();
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("status-ok.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	assert_int_equal(fake.opens, fake.closes);
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"status\"}");
	/* Not a terminal: no escape sequence. */
	assert_null(strchr(r.out, '\x1b'));
	run_free(&r);
}

/* The summary, an empty line, then every fact as "key value" lines. */
static void all_adds_every_fact_after_the_summary(void **state)
{
	struct run r;
	const char *list;

	both_up();
	RUN(&r, uk_cli_status, all);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("status-ok-all.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	list = strstr(r.out, "\n\n");
	assert_non_null(list);
	assert_true(!strncmp(list + 2, "kernel.available yes\n", 21));
	assert_non_null(strstr(list, "\nkernel.access fail\n"));
	assert_non_null(strstr(list, "\ndaemon.config.ignore noisy_* other\n"));
	run_free(&r);
}

/* Columns (code points) of the longest line of @text at most @max. */
static void assert_longest_line_at_most(const char *text, size_t max)
{
	size_t w = 0;

	for (; *text; text++) {
		if (*text == '\n') {
			w = 0;
			continue;
		}
		if (((unsigned char)*text & 0xc0) != 0x80 && ++w > max)
			fail_msg("a line is longer than %zu columns: %s", max,
				 text - w + 1);
	}
}

/* The first thing said: mode, access, hits at sites, loss, uaccessd. */
static void summary_opens_with_mode_access_hits_loss_and_daemon(void **state)
{
	struct run r;

	both_up();
	RUN(&r, uk_cli_status, plain);
	uk_assert_text("stdout", r.out,
		       "\u25cf uaccess_kaddr: kernel addresses at user-access helpers\n"
		       "  Detector: report: hits are counted, reported and sent as events\n"
		       "    Access: refused with -EFAULT (uaccess_kaddr_access=fail)\n"
		       "      Hits: 16 at 4 sites (fault 3, gp 1, precheck 12)\n"
		       "      Loss: none\n"
		       "  uaccessd: active (subscribed) since Mon 2025-11-24 15:58:55 UTC; 1min 5s ago\n"
		       "    Events: 14 received: 12 written to the journal, 2 held back\n");
	run_free(&r);
	/* Every line fits 80 columns, with an access policy and problems. */
	both_up();
	fake.status.dropped = 12345;
	fake.status.sites_overflow = 67;
	fake.reply_status = reply_lost;
	RUN(&r, uk_cli_status, plain);
	assert_longest_line_at_most(r.out, 80);
	run_free(&r);
}

/* Colours when stdout is a terminal: green dot, problems red or yellow. */
static void colors_mark_the_dot_and_the_problems(void **state)
{
	struct uk_cli cli = { .color = true };
	struct run r;

	both_up();
	RUN(&r, uk_cli_status, cli);
	assert_true(!strncmp(r.out, "\x1b[0;1;32m\u25cf\x1b[0m uaccess_kaddr:", 27));
	assert_null(strstr(r.out, "\x1b[0;1;31m"));
	run_free(&r);
	both_up();
	fake.status.dropped = 2;
	fake.status.mode = UACCESS_KADDR_MODE_OFF;
	RUN(&r, uk_cli_status, cli);
	assert_int_equal(r.code, UK_EXIT_LOSS);
	assert_true(!strncmp(r.out, "\x1b[0;1;31m\u25cf\x1b[0m uaccess_kaddr:", 27));
	assert_non_null(strstr(r.out, "      Loss: \x1b[0;1;31mthe kernel dropped 2 events\x1b[0m\n"));
	assert_non_null(strstr(r.out, "  Detector: \x1b[0;1;33moff: nothing is checked\x1b[0m\n"));
	run_free(&r);
}

static void dot_is_a_star_outside_utf8_locales(void **state)
{
	struct run r;

	both_up();
	setenv("LC_ALL", "C", 1);
	RUN(&r, uk_cli_status, plain);
	setenv("LC_ALL", "C.UTF-8", 1);
	assert_true(!strncmp(r.out, "* uaccess_kaddr:", 16));
	run_free(&r);
}

/* What uaccessd reports going wrong gets a line each, only then. */
static void daemon_problems_get_their_own_lines(void **state)
{
	static const char reply[] = REPLY(KERNEL_ABSENT, DAEMON_OBJ("0", "0",
		"\"last_error\":\"events socket: No buffer space available\","
		"\"metrics_write_failures\":2,\"journal_last_error\":\"No such file or directory\","));
	struct run r;
	char *p;

	both_up();
	RUN(&r, uk_cli_status, plain);
	assert_null(strstr(r.out, "Last error"));
	assert_null(strstr(r.out, "Journal:"));
	assert_null(strstr(r.out, "Metrics:"));
	run_free(&r);
	both_up();
	fake.reply_status = reply;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "\n   Metrics: 2 writes of the metrics file failed\n"));
	assert_non_null(strstr(r.out, "\nLast error: events socket: No buffer space available\n"));
	run_free(&r);
	/* journal_failed and overruns are 0 in DAEMON_OBJ: a patched copy. */
	both_up();
	p = strdup(reply);
	assert_non_null(p);
	memcpy(strstr(p, "\"journal_failed\":0"), "\"journal_failed\":3", 18);
	memcpy(strstr(p, "\"overruns\":0"), "\"overruns\":1", 12);
	fake.reply_status = p;
	RUN(&r, uk_cli_status, plain);
	assert_non_null(strstr(r.out, "\n   Journal: refused 3 entries (No such file or directory)\n"));
	assert_non_null(strstr(r.out, "\n    Socket: overflowed 1 time: raise rcvbuf\n"));
	run_free(&r);
	free(p);
}

static void ok_json_matches_golden_and_parses(void **state)
{
	struct uk_json_value *v = NULL;
	const char *s;
	uint64_t u;
	bool b;
	struct run r;

	both_up();
	RUN(&r, uk_cli_status, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("status-ok.json", r.out);
	assert_int_equal(uk_json_parse(r.out, r.outlen, &v, NULL, 0), 0);
	/* The access policy the kernel sent. */
	assert_int_equal(uk_json_get_str(uk_json_object_get(
		uk_json_object_get(v, "kernel"), "access"), &s), 0);
	assert_string_equal(s, "fail");
	assert_int_equal(uk_json_get_str(uk_json_object_get(
		uk_json_object_get(v, "kernel"), "source"), &s), 0);
	assert_string_equal(s, "netlink");
	assert_int_equal(uk_json_get_u64(uk_json_object_get(
		uk_json_object_get(v, "kernel"), "hits_precheck"), &u), 0);
	assert_int_equal(u, 12);
	assert_int_equal(uk_json_get_bool(uk_json_object_get(
		uk_json_object_get(v, "daemon"), "running"), &b), 0);
	assert_true(b);
	assert_int_equal(uk_json_get_bool(uk_json_object_get(v, "loss"), &b),
			 0);
	assert_false(b);
	uk_json_value_free(v);
	run_free(&r);
}

static void no_kernel_exits_3_and_prints_daemon_part(void **state)
{
	struct run r;

	both_up();
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_golden("status-no-kernel.txt", r.out);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL);
	run_free(&r);
}

static void no_kernel_json_says_unavailable(void **state)
{
	struct run r;

	both_up();
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_status, json);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_golden("status-no-kernel.json", r.out);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL);
	run_free(&r);
}

/* How many times @needle is in @text. */
static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (; (text = strstr(text, needle)); text += strlen(needle))
		n++;
	return n;
}

/*
 * The kernel's access policy, said once wherever status says it: the
 * summary's Access line, kernel.access in --all, "access" in the JSON;
 * "unknown" from a kernel that does not send the attribute, straight or
 * through uaccessd.
 */
static void access_policy_is_the_kernels_once(void **state)
{
	static const char reply_kernel_allow[] = REPLY(
		"{\"available\":true,\"mode\":\"report\",\"access\":\"allow\"}",
		DAEMON_OBJ("0", "0", ""));
	static const struct {
		uint32_t access;	/* 0: not sent (an older kernel) */
		const char *via;	/* uaccessd's reply, netlink absent */
		const char *name, *line;
	} cases[] = {
		{ UACCESS_KADDR_ACCESS_FAIL, NULL, "fail",
		  "\n    Access: refused with -EFAULT (uaccess_kaddr_access=fail)\n" },
		{ UACCESS_KADDR_ACCESS_ALLOW, NULL, "allow",
		  "\n    Access: allowed: the access goes ahead (uaccess_kaddr_access=allow)\n" },
		{ 0, NULL, "unknown",
		  "\n    Access: unknown: the kernel does not say\n" },
		{ 0, reply_kernel_allow, "allow",
		  "\n    Access: allowed: the access goes ahead (uaccess_kaddr_access=allow)\n" },
		{ 0, reply_kernel, "unknown",
		  "\n    Access: unknown: the kernel does not say\n" },
	};
	const struct uk_cli *clis[] = { &plain, &all, &json };
	char want[64];
	struct run r;
	size_t i, c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (c = 0; c < ARRAY_SIZE(clis); c++) {
			both_up();
			fake.status.access = cases[i].access;
			if (!cases[i].access)
				fake.status.present &=
					~UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS);
			if (cases[i].via) {
				fake.open_err = -ENOENT;
				fake.reply_status = cases[i].via;
			}
			RUN(&r, uk_cli_status, *clis[c]);
			assert_int_equal(r.code, UK_EXIT_OK);
			if (clis[c] == &json) {
				snprintf(want, sizeof(want),
					 "\"access\":\"%s\"", cases[i].name);
				assert_int_equal(count_of(r.out, "\"access\":"), 1);
			} else {
				assert_non_null(strstr(r.out, cases[i].line));
				assert_int_equal(count_of(r.out, "Access: "), 1);
				snprintf(want, sizeof(want),
					 "\nkernel.access %s\n", cases[i].name);
				if (clis[c] == &plain)
					want[0] = '\0';
				assert_int_equal(count_of(r.out,
							  "\nkernel.access "),
						 clis[c] == &all ? 1 : 0);
			}
			if (want[0] && !strstr(r.out, want))
				fail_msg("case %zu: '%s' not in:\n%s", i, want,
					 r.out);
			run_free(&r);
		}
	}
}

static void kernel_from_daemon_when_netlink_has_none(void **state)
{
	struct run r;

	both_up();
	fake.open_err = -ENOENT;	/* e.g. in another network namespace */
	fake.reply_status = reply_kernel;
	RUN(&r, uk_cli_status, all);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("status-kernel-from-daemon.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void netlink_preferred_over_daemon_kernel(void **state)
{
	struct run r;

	both_up();
	fake.reply_status = reply_kernel;	/* says mode warn */
	RUN(&r, uk_cli_status, all);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "kernel.source netlink\n"));
	assert_non_null(strstr(r.out, "kernel.mode report\n"));
	assert_null(strstr(r.out, "kernel.mode warn\n"));
	run_free(&r);
}

static void no_daemon_exits_4_and_prints_kernel_part(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	uk_assert_golden("status-no-daemon.txt", r.out);
	uk_assert_text("stderr", r.err, MSG_NO_DAEMON);
	run_free(&r);
}

static void no_daemon_json_says_not_running(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -ECONNREFUSED;
	RUN(&r, uk_cli_status, json);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	uk_assert_golden("status-no-daemon.json", r.out);
	run_free(&r);
}

static void socket_option_names_the_path(void **state)
{
	struct uk_cli cli = { .socket = "/tmp/nowhere/ctl" };
	struct run r;

	both_up();
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_status, cli);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	assert_string_equal(fake.ctl_path, "/tmp/nowhere/ctl");
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd is not running (systemctl start uaccessd): no control socket /tmp/nowhere/ctl\n");
	run_free(&r);
	fake.ctl_err = -ECONNREFUSED;
	RUN(&r, uk_cli_status, cli);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd is not running (systemctl start uaccessd): nothing listens on /tmp/nowhere/ctl\n");
	run_free(&r);
}

static void kernel_dropped_exits_6(void **state)
{
	struct run r;

	both_up();
	fake.status.dropped = 9;
	RUN(&r, uk_cli_status, all);
	assert_int_equal(r.code, UK_EXIT_LOSS);
	assert_non_null(strstr(r.out, "kernel.dropped 9\n"));
	/* The verdict is data: on stdout, once, not on stderr. */
	assert_non_null(strstr(r.out, "\n      Loss: the kernel dropped 9 events\n"));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void kernel_site_overflow_exits_6(void **state)
{
	struct run r;

	both_up();
	fake.status.sites_overflow = 2;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_LOSS);
	assert_non_null(strstr(r.out, "\n      Loss: 2 hits found the kernel's site table full\n"));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void daemon_lost_exits_6_json_says_loss(void **state)
{
	struct run r;

	both_up();
	fake.reply_status = reply_lost;
	RUN(&r, uk_cli_status, json);
	assert_int_equal(r.code, UK_EXIT_LOSS);
	assert_non_null(strstr(r.out, "\"lost\":5,"));
	assert_non_null(strstr(r.out, ",\"loss\":true}\n"));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void every_loss_named_in_one_sentence(void **state)
{
	struct run r;

	both_up();
	fake.status.dropped = 1;
	fake.status.sites_overflow = 1;
	fake.reply_status = reply_lost;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_LOSS);
	assert_non_null(strstr(r.out, "\n      Loss: the kernel dropped 1 event,\n"
				      "            1 hit found the kernel's site table full,\n"
				      "            uaccessd lost 5 events\n"));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void no_kernel_beats_no_daemon(void **state)
{
	struct run r;

	both_up();
	fake.open_err = -ENOENT;
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL MSG_NO_DAEMON);
	uk_assert_text("stdout", r.out,
		    "\u25cf uaccess_kaddr: kernel addresses at user-access helpers\n"
		    "  Detector: unknown\n"
		    "      Loss: unknown\n"
		    "  uaccessd: not running\n");
	run_free(&r);
	/* The errors are said once: on stderr, not in the list as well. */
	RUN(&r, uk_cli_status, all);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL MSG_NO_DAEMON);
	assert_non_null(strstr(r.out, "\n\nkernel.available no\ndaemon.running no\n"));
	assert_null(strstr(r.out, "CONFIG_DEBUG_UACCESS_KADDR"));
	assert_null(strstr(r.out, "systemctl start"));
	run_free(&r);
}

static void no_daemon_beats_loss(void **state)
{
	struct run r;

	both_up();
	fake.status.dropped = 4;
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	uk_assert_text("stderr", r.err, MSG_NO_DAEMON);
	assert_non_null(strstr(r.out, "\n      Loss: the kernel dropped 4 events\n"));
	run_free(&r);
}

static void no_kernel_beats_loss(void **state)
{
	struct run r;

	both_up();
	fake.open_err = -ENOENT;
	fake.reply_status = reply_lost;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL);
	assert_non_null(strstr(r.out, "\n      Loss: uaccessd lost 5 events\n"));
	run_free(&r);
}

static void socket_permission_denied_exits_5(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -EACCES;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: permission denied: cannot connect to /run/uaccessd/control\n");
	assert_non_null(strstr(r.out, "\n  uaccessd: not reachable\n"));
	run_free(&r);
}

static void daemon_error_reply_exits_1_with_its_message(void **state)
{
	struct run r;

	both_up();
	fake.reply_status =
		"{\"ok\":false,\"cmd\":\"status\",\"version\":1,\"error\":\"out of memory\",\"errno\":12}";
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err, "uaccessctl: out of memory\n");
	run_free(&r);
}

static void daemon_reply_without_daemon_object_exits_1(void **state)
{
	static const char *const bad[] = {
		"{\"ok\":true,\"cmd\":\"status\",\"version\":1}",
		"{\"ok\":true,\"daemon\":[1,2]}",
		"{\"ok\":true,\"daemon\":\"up\"}",
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		both_up();
		fake.reply_status = bad[i];
		RUN(&r, uk_cli_status, plain);
		assert_int_equal(r.code, UK_EXIT_FAILURE);
		uk_assert_text("stderr", r.err,
			    "uaccessctl: uaccessd's status reply has no \"daemon\" object\n");
		run_free(&r);
	}
}

static void daemon_garbage_reply_exits_1(void **state)
{
	struct run r;

	both_up();
	fake.reply_status = "{\"ok\":tru";
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	assert_non_null(strstr(r.err, "uaccessd's reply is not JSON: offset"));
	run_free(&r);
	both_up();
	fake.reply_status = "{\"cmd\":\"status\"}";
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd's reply has no \"ok\"\n");
	run_free(&r);
	both_up();
	fake.ctl_err = -ETIMEDOUT;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd did not answer within 10 s\n");
	run_free(&r);
}

static void get_status_failure_exits_1_with_the_kernel_message(void **state)
{
	struct run r;

	both_up();
	fake.status_err = -EMSGSIZE;
	fake.status_why = "status reply too large";
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: get-status failed: status reply too large\n");
	assert_non_null(strstr(r.out, "\n  uaccessd: active (subscribed)"));
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
	both_up();
	fake.open_err = -EIO;
	RUN(&r, uk_cli_status, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: cannot reach the kernel's uaccess_kaddr family: Input/output error\n");
	run_free(&r);
}

static void kernel_option_skips_the_daemon(void **state)
{
	struct uk_cli cli = { .kernel = true };
	struct run r;

	both_up();
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_status, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.ctl_calls, 0);
	assert_null(strstr(r.out, "uaccessd"));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
	cli.all = true;
	RUN(&r, uk_cli_status, cli);
	assert_null(strstr(r.out, "daemon."));
	run_free(&r);
	cli.json = true;
	RUN(&r, uk_cli_status, cli);
	assert_null(strstr(r.out, "\"daemon\""));
	run_free(&r);
}

static void control_characters_are_not_printed(void **state)
{
	static const char reply[] = REPLY(KERNEL_ABSENT, DAEMON_OBJ("0", "0",
		"\"last_error\":\"bad\\n\\u001b[31mred\\u0007\","));
	struct run r;

	both_up();
	fake.reply_status = reply;
	RUN(&r, uk_cli_status, all);
	assert_non_null(strstr(r.out, "\nLast error: bad??[31mred?\n"));
	assert_non_null(strstr(r.out, "daemon.last_error bad??[31mred?\n"));
	run_free(&r);
}

static void arguments_are_refused(void **state)
{
	struct run r;

	both_up();
	RUN(&r, uk_cli_status, plain, "now");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: status: unexpected argument 'now'\n");
	uk_assert_text("stdout", r.out, "");
	assert_int_equal(fake.ctl_calls, 0);
	assert_int_equal(fake.opens, 0);
	run_free(&r);
}


/* ---- --format=openmetrics ---- */

static const struct uk_cli metrics = { .openmetrics = true };

#define DAEMON_TEXT							\
	"# HELP uaccessd_events_total Events received and parsed.\n"	\
	"# TYPE uaccessd_events_total counter\n"			\
	"uaccessd_events_total 14\n"

/* The kernel's families of fake_status_fill(), as common/metrics.c writes them. */
#define KERNEL_TEXT_START						\
	"# HELP uaccess_kaddr_kernel_status_up Whether the kernel's status could be read (1) or not (0).\n" \
	"# TYPE uaccess_kaddr_kernel_status_up gauge\n"		\
	"uaccess_kaddr_kernel_status_up 1\n"

static void openmetrics_prints_the_daemons_text_as_it_is(void **state)
{
	struct run r;

	both_up();
	fake.reply_metrics = "{\"ok\":true,\"cmd\":\"metrics\",\"version\":1,"
			     "\"text\":\"" "# HELP uaccessd_events_total Events received and parsed.\\n"
			     "# TYPE uaccessd_events_total counter\\n"
			     "uaccessd_events_total 14\\n\"}";
	fake.status.dropped = 3;	/* a loss is in the text, not the exit */
	RUN(&r, uk_cli_status, metrics);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, DAEMON_TEXT);
	uk_assert_text("stderr", r.err, "");
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"metrics\"}");
	assert_int_equal(fake.ctl_calls, 1);
	assert_int_equal(fake.opens, 0);
	run_free(&r);
}

static void openmetrics_without_daemon_gives_the_kernel_part_and_exits_4(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -ECONNREFUSED;
	RUN(&r, uk_cli_status, metrics);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	assert_true(!strncmp(r.out, KERNEL_TEXT_START,
			     strlen(KERNEL_TEXT_START)));
	assert_non_null(strstr(r.out, "\nuaccess_kaddr_mode{mode=\"report\"} 1\n"));
	assert_non_null(strstr(r.out, "\nuaccess_kaddr_hits_total{kind=\"precheck\"} 12\n"));
	assert_null(strstr(r.out, "uaccessd_"));
	uk_assert_text("stderr", r.err, MSG_NO_DAEMON);
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
}

static void openmetrics_without_anything_says_status_up_0_and_exits_3(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -ENOENT;
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_status, metrics);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stdout", r.out,
		       "# HELP uaccess_kaddr_kernel_status_up Whether the kernel's status could be read (1) or not (0).\n"
		       "# TYPE uaccess_kaddr_kernel_status_up gauge\n"
		       "uaccess_kaddr_kernel_status_up 0\n");
	uk_assert_text("stderr", r.err, MSG_NO_DAEMON MSG_NO_KERNEL);
	run_free(&r);
}

static void openmetrics_with_kernel_option_asks_no_daemon(void **state)
{
	struct uk_cli cli = metrics;
	struct run r;

	both_up();
	cli.kernel = true;
	RUN(&r, uk_cli_status, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.ctl_calls, 0);
	assert_true(!strncmp(r.out, KERNEL_TEXT_START,
			     strlen(KERNEL_TEXT_START)));
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
}

static void openmetrics_bad_replies_fall_back_and_exit_1(void **state)
{
	static const char *const bad[] = {
		"{\"ok\":true,\"cmd\":\"metrics\",\"version\":1}",
		"{\"ok\":true,\"cmd\":\"metrics\",\"version\":1,\"text\":7}",
		"{\"ok\":true,\"cmd\":\"metrics\",\"version\":1,\"text\":null}",
		"{\"ok\":false,\"cmd\":\"metrics\",\"version\":1,\"error\":\"unknown command\",\"errno\":95}",
		"not json at all",
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		both_up();
		fake.reply_metrics = bad[i];
		RUN(&r, uk_cli_status, metrics);
		assert_int_equal(r.code, UK_EXIT_FAILURE);
		assert_true(!strncmp(r.out, KERNEL_TEXT_START,
				     strlen(KERNEL_TEXT_START)));
		assert_true(r.errlen > 0);
		run_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest cli_status[] = {
		cmocka_unit_test(ok_text_matches_golden),
		cmocka_unit_test(all_adds_every_fact_after_the_summary),
		cmocka_unit_test(summary_opens_with_mode_access_hits_loss_and_daemon),
		cmocka_unit_test(colors_mark_the_dot_and_the_problems),
		cmocka_unit_test(dot_is_a_star_outside_utf8_locales),
		cmocka_unit_test(daemon_problems_get_their_own_lines),
		cmocka_unit_test(ok_json_matches_golden_and_parses),
		cmocka_unit_test(no_kernel_exits_3_and_prints_daemon_part),
		cmocka_unit_test(no_kernel_json_says_unavailable),
		cmocka_unit_test(access_policy_is_the_kernels_once),
		cmocka_unit_test(kernel_from_daemon_when_netlink_has_none),
		cmocka_unit_test(netlink_preferred_over_daemon_kernel),
		cmocka_unit_test(no_daemon_exits_4_and_prints_kernel_part),
		cmocka_unit_test(no_daemon_json_says_not_running),
		cmocka_unit_test(socket_option_names_the_path),
		cmocka_unit_test(kernel_dropped_exits_6),
		cmocka_unit_test(kernel_site_overflow_exits_6),
		cmocka_unit_test(daemon_lost_exits_6_json_says_loss),
		cmocka_unit_test(every_loss_named_in_one_sentence),
		cmocka_unit_test(no_kernel_beats_no_daemon),
		cmocka_unit_test(no_daemon_beats_loss),
		cmocka_unit_test(no_kernel_beats_loss),
		cmocka_unit_test(socket_permission_denied_exits_5),
		cmocka_unit_test(daemon_error_reply_exits_1_with_its_message),
		cmocka_unit_test(daemon_reply_without_daemon_object_exits_1),
		cmocka_unit_test(daemon_garbage_reply_exits_1),
		cmocka_unit_test(get_status_failure_exits_1_with_the_kernel_message),
		cmocka_unit_test(kernel_option_skips_the_daemon),
		cmocka_unit_test(control_characters_are_not_printed),
		cmocka_unit_test(openmetrics_prints_the_daemons_text_as_it_is),
		cmocka_unit_test(openmetrics_without_daemon_gives_the_kernel_part_and_exits_4),
		cmocka_unit_test(openmetrics_without_anything_says_status_up_0_and_exits_3),
		cmocka_unit_test(openmetrics_with_kernel_option_asks_no_daemon),
		cmocka_unit_test(openmetrics_bad_replies_fall_back_and_exit_1),
		cmocka_unit_test(arguments_are_refused),
	};

	return cmocka_run_group_tests(cli_status, setup, NULL);
}
