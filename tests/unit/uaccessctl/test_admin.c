// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl set, reset and reload (daemon/uaccessctl/admin.c) over fake
 * transports: every form of set and what reaches set-config, values
 * refused locally and by the kernel, reset through uaccessd or straight
 * to the kernel, reload, the output (golden files) and every error with
 * its exit code.
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

static const struct uk_cli plain = { 0 };
static const struct uk_cli json = { .json = true };

#define MSG_NO_KERNEL \
	"uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n"
#define MSG_NEED_ADMIN \
	"uaccessctl: permission denied: needs CAP_SYS_ADMIN\n"

static void kernel_up(void)
{
	fake_reset_all();
	fake_status_fill(&fake.status);
}

/* ---- set ---- */

static void set_mode_sends_only_the_mode(void **state)
{
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_set, plain, "mode", "warn");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.sets, 1);
	assert_true(fake.set_has_mode);
	assert_false(fake.set_has_interval);
	assert_false(fake.set_has_burst);
	assert_int_equal(fake.set_mode, UACCESS_KADDR_MODE_WARN);
	uk_assert_text("stdout", r.out,
		    "kernel.mode warn\n"
		    "kernel.ratelimit_interval_ms 5000\n"
		    "kernel.ratelimit_burst 10\n");
	uk_assert_text("stderr", r.err, "");
	assert_int_equal(fake.opens, 1);
	assert_int_equal(fake.closes, 1);
	run_free(&r);
}

static void set_every_mode_name(void **state)
{
	static const struct {
		const char *name;
		uint32_t mode;
	} modes[] = {
		{ "off", UACCESS_KADDR_MODE_OFF },
		{ "count", UACCESS_KADDR_MODE_COUNT },
		{ "report", UACCESS_KADDR_MODE_REPORT },
		{ "warn", UACCESS_KADDR_MODE_WARN },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		kernel_up();
		RUN(&r, uk_cli_set, plain, "mode", modes[i].name);
		assert_int_equal(r.code, UK_EXIT_OK);
		assert_int_equal(fake.set_mode, modes[i].mode);
		run_free(&r);
	}
}

static void set_ratelimit_takes_interval_and_burst(void **state)
{
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_set, json, "ratelimit", "1000", "5");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_false(fake.set_has_mode);
	assert_true(fake.set_has_interval);
	assert_true(fake.set_has_burst);
	assert_int_equal(fake.set_interval, 1000);
	assert_int_equal(fake.set_burst, 5);
	uk_assert_text("stdout", r.out,
		    "{\"kernel\":{\"mode\":\"report\",\"ratelimit_interval_ms\":1000,\"ratelimit_burst\":5}}\n");
	run_free(&r);
}

static void set_several_keys_in_one_request(void **state)
{
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_set, plain, "ratelimit-interval", "0",
	    "ratelimit-burst", "4294967295", "mode", "count");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.sets, 1);
	assert_int_equal(fake.set_interval, 0);
	assert_int_equal(fake.set_burst, 4294967295U);
	assert_int_equal(fake.set_mode, UACCESS_KADDR_MODE_COUNT);
	run_free(&r);
}

static void set_bad_input_exits_2_before_the_kernel(void **state)
{
	static const struct {
		const char *argv[5];
		int argc;
		const char *err;
	} cases[] = {
		{ { 0 }, 0, "set: nothing to set; set mode off|count|report|warn" },
		{ { "verbose", "1" }, 2, "set: unknown setting 'verbose'" },
		{ { "mode" }, 1, "set: mode needs a value" },
		{ { "mode", "loud" }, 2,
		  "set: mode is off, count, report or warn, not 'loud'" },
		{ { "mode", "3" }, 2,
		  "set: mode is off, count, report or warn, not '3'" },
		{ { "mode", "" }, 2,
		  "set: mode is off, count, report or warn, not ''" },
		{ { "ratelimit", "100" }, 2,
		  "set: ratelimit takes INTERVAL_MS and BURST" },
		{ { "ratelimit", "1s", "5" }, 3,
		  "set: ratelimit INTERVAL_MS takes a whole number from 0 to 4294967295, not '1s'" },
		{ { "ratelimit", "100", "-5" }, 3,
		  "set: ratelimit BURST takes a whole number from 0 to 4294967295, not '-5'" },
		{ { "ratelimit-burst", "4294967296" }, 2,
		  "set: ratelimit-burst takes a whole number from 0 to 4294967295, not '4294967296'" },
		{ { "ratelimit-burst", "99999999999999999999999" }, 2,
		  "not '99999999999999999999999'" },
		{ { "ratelimit-interval", "0x10" }, 2, "not '0x10'" },
		{ { "ratelimit-interval", " 10" }, 2, "not ' 10'" },
		{ { "ratelimit-interval", "1e3" }, 2, "not '1e3'" },
		{ { "ratelimit-interval" }, 1,
		  "set: ratelimit-interval needs a value" },
		{ { "ratelimit-burst" }, 1, "set: ratelimit-burst needs a value" },
		{ { "mode", "off", "mode", "warn" }, 4, "set: mode given twice" },
		{ { "ratelimit", "10", "2", "ratelimit-burst", "3" }, 5,
		  "set: ratelimit-burst given twice" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		kernel_up();
		run_verb(uk_cli_set, plain, &r, cases[i].argc, cases[i].argv);
		assert_int_equal(r.code, UK_EXIT_USAGE);
		if (strncmp(r.err, "uaccessctl: ", 12) ||
		    !strstr(r.err, cases[i].err))
			fail_msg("case %zu: expected \"%s\" in \"%s\"", i,
				 cases[i].err, r.err);
		assert_int_equal(fake.opens, 0);
		assert_int_equal(fake.sets, 0);
		uk_assert_text("stdout", r.out, "");
		run_free(&r);
	}
}

static void set_refused_by_the_kernel_shows_its_message(void **state)
{
	struct run r;

	kernel_up();
	fake.set_err = -ERANGE;
	fake.set_why = "integer out of range";
	RUN(&r, uk_cli_set, plain, "ratelimit-burst", "5000");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: the kernel refused the setting: integer out of range\n");
	uk_assert_text("stdout", r.out, "");
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
	kernel_up();
	fake.set_err = -EINVAL;
	RUN(&r, uk_cli_set, plain, "ratelimit-interval", "9999999");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: the kernel refused the setting: Invalid argument\n");
	run_free(&r);
}

static void set_without_privilege_exits_5(void **state)
{
	struct run r;

	kernel_up();
	fake.set_err = -EPERM;
	fake.set_why = "CAP_SYS_ADMIN is required";
	RUN(&r, uk_cli_set, plain, "mode", "off");
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err, MSG_NEED_ADMIN);
	run_free(&r);
}

static void set_without_family_exits_3(void **state)
{
	struct run r;

	kernel_up();
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_set, plain, "mode", "off");
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL);
	run_free(&r);
}

static void set_then_status_failure_exits_1(void **state)
{
	struct run r;

	kernel_up();
	fake.status_err = -ETIMEDOUT;
	RUN(&r, uk_cli_set, plain, "mode", "off");
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	assert_int_equal(fake.sets, 1);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: the setting was made, but get-status failed: Connection timed out\n");
	run_free(&r);
	kernel_up();
	fake.set_err = -EIO;
	fake.set_why = "failed to apply the configuration";
	RUN(&r, uk_cli_set, plain, "mode", "off");
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: set-config failed: failed to apply the configuration\n");
	run_free(&r);
}

/* ---- reset ---- */

static const char reply_reset[] =
	"{\"ok\":true,\"cmd\":\"reset\",\"version\":1,\"kernel_before\":"
	"{\"mode\":\"report\",\"hits_fault\":3,\"hits_gp\":1,"
	"\"hits_precheck\":12,\"rejected\":2,\"reported\":14,"
	"\"suppressed\":2,\"dropped\":1,\"sites_used\":4,"
	"\"sites_max\":4096,\"sites_overflow\":0,\"last_seq\":14,"
	"\"ratelimit_interval_ms\":5000,\"ratelimit_burst\":10,"
	"\"queue_len\":0}}";

static void reset_goes_through_the_daemon(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reset = reply_reset;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("reset-daemon.txt", r.out);
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"reset\"}");
	assert_int_equal(fake.opens, 0);
	assert_int_equal(fake.resets, 0);
	run_free(&r);
	RUN(&r, uk_cli_reset, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("reset-daemon.json", r.out);
	run_free(&r);
}

static void reset_without_daemon_asks_the_kernel(void **state)
{
	struct run r;

	kernel_up();
	fake.ctl_err = -ENOENT;
	fake_status_fill(&fake.reset_old);
	fake.reset_old.hits_precheck = 99;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.resets, 1);
	uk_assert_golden("reset-netlink.txt", r.out);
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
}

static void reset_kernel_option_skips_the_daemon(void **state)
{
	struct uk_cli cli = { .kernel = true, .json = true };
	struct run r;

	kernel_up();
	fake.reply_reset = reply_reset;
	fake_status_fill(&fake.reset_old);
	RUN(&r, uk_cli_reset, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.ctl_calls, 0);
	assert_int_equal(fake.resets, 1);
	assert_non_null(strstr(r.out, "{\"source\":\"netlink\",\"kernel_before\":{\"mode\":\"report\","));
	run_free(&r);
}

static void reset_refused_by_the_daemon_exits_5(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reset = "{\"ok\":false,\"cmd\":\"reset\",\"version\":1,\"error\":\"permission denied: reset needs root\",\"errno\":1}";
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: permission denied: reset needs root\n");
	assert_int_equal(fake.resets, 0);	/* no way around it */
	run_free(&r);
}

static void reset_daemon_without_kernel_falls_back_to_netlink(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reset = "{\"ok\":false,\"cmd\":\"reset\",\"version\":1,\"error\":\"replaying x: not connected to the kernel\",\"errno\":107}";
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err, MSG_NO_KERNEL);
	run_free(&r);
}

static void reset_netlink_errors(void **state)
{
	struct run r;

	kernel_up();
	fake.ctl_err = -ECONNREFUSED;
	fake.reset_err = -EPERM;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err, MSG_NEED_ADMIN);
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
	kernel_up();
	fake.ctl_err = -ENOENT;
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	run_free(&r);
	kernel_up();
	fake.ctl_err = -ENOENT;
	fake.reset_err = -ENOMEM;
	fake.reset_why = "no memory for the reply";
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: reset failed: no memory for the reply\n");
	run_free(&r);
}

static void reset_daemon_bad_replies_exit_1(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reset = "{\"ok\":true,\"cmd\":\"reset\"}";
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd reset the counters, but its reply has no \"kernel_before\"\n");
	run_free(&r);
	kernel_up();
	fake.ctl_err = -ETIMEDOUT;
	RUN(&r, uk_cli_reset, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	assert_int_equal(fake.resets, 0);	/* it may have reset: ask */
	run_free(&r);
}

static void reset_arguments_are_refused(void **state)
{
	struct run r;

	kernel_up();
	RUN(&r, uk_cli_reset, plain, "all");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: reset: unexpected argument 'all'\n");
	assert_int_equal(fake.ctl_calls, 0);
	assert_int_equal(fake.resets, 0);
	run_free(&r);
}

/* ---- reload ---- */

static void reload_prints_nothing_or_one_document(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reload = "{\"ok\":true,\"cmd\":\"reload\",\"version\":1}";
	RUN(&r, uk_cli_reload, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "");
	uk_assert_text("stderr", r.err, "");
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"reload\"}");
	run_free(&r);
	RUN(&r, uk_cli_reload, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "{\"reloaded\":true}\n");
	run_free(&r);
	assert_int_equal(fake.opens, 0);
}

static void reload_errors(void **state)
{
	struct run r;

	kernel_up();
	fake.reply_reload = "{\"ok\":false,\"cmd\":\"reload\",\"version\":1,\"error\":\"/etc/uaccessd.conf:3: unknown key \\\"x\\\"\",\"errno\":22}";
	RUN(&r, uk_cli_reload, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: uaccessd kept its configuration: /etc/uaccessd.conf:3: unknown key \"x\"\n");
	run_free(&r);
	kernel_up();
	fake.reply_reload = "{\"ok\":false,\"cmd\":\"reload\",\"version\":1,\"error\":\"permission denied: reload needs root\",\"errno\":1}";
	RUN(&r, uk_cli_reload, plain);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: permission denied: reload needs root\n");
	run_free(&r);
	kernel_up();
	fake.ctl_err = -ENOENT;
	RUN(&r, uk_cli_reload, plain);
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	run_free(&r);
	kernel_up();
	RUN(&r, uk_cli_reload, plain, "now");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: reload: unexpected argument 'now'\n");
	assert_int_equal(fake.ctl_calls, 0);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest cli_admin[] = {
		cmocka_unit_test(set_mode_sends_only_the_mode),
		cmocka_unit_test(set_every_mode_name),
		cmocka_unit_test(set_ratelimit_takes_interval_and_burst),
		cmocka_unit_test(set_several_keys_in_one_request),
		cmocka_unit_test(set_bad_input_exits_2_before_the_kernel),
		cmocka_unit_test(set_refused_by_the_kernel_shows_its_message),
		cmocka_unit_test(set_without_privilege_exits_5),
		cmocka_unit_test(set_without_family_exits_3),
		cmocka_unit_test(set_then_status_failure_exits_1),
		cmocka_unit_test(reset_goes_through_the_daemon),
		cmocka_unit_test(reset_without_daemon_asks_the_kernel),
		cmocka_unit_test(reset_kernel_option_skips_the_daemon),
		cmocka_unit_test(reset_refused_by_the_daemon_exits_5),
		cmocka_unit_test(reset_daemon_without_kernel_falls_back_to_netlink),
		cmocka_unit_test(reset_netlink_errors),
		cmocka_unit_test(reset_daemon_bad_replies_exit_1),
		cmocka_unit_test(reset_arguments_are_refused),
		cmocka_unit_test(reload_prints_nothing_or_one_document),
		cmocka_unit_test(reload_errors),
	};

	return cmocka_run_group_tests(cli_admin, NULL, NULL);
}
