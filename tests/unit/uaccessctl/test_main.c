// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl's command line (daemon/uaccessctl/uaccessctl.c): global options
 * anywhere, the verb table, options that do not apply to a verb, verb
 * options handed on, --help, --version, and the exit codes reaching the
 * caller.  uaccessctl.c is a program, not part of libuaccessctl.a: it is
 * compiled into this test with its main() renamed, and run with stdout
 * and stderr sent to files, over the fake transports.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_fake.h"

int uaccessctl_main(int argc, char **argv);
#define main uaccessctl_main
#include "uaccessctl/uaccessctl.c"
#include "common/util.h"
#undef main

static char tmpdir[] = "/tmp/uk-cli-main.XXXXXX";

static const char reply_status[] =
	"{\"ok\":true,\"cmd\":\"status\",\"version\":1,"
	"\"kernel\":{\"available\":false,\"error\":\"x\"},"
	"\"daemon\":{\"state\":\"subscribed\",\"lost\":0}}";
static const char reply_sites[] =
	"{\"ok\":true,\"cmd\":\"sites\",\"version\":1,\"total\":0,\"sites\":[]}";

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void both_up(void)
{
	fake_reset_all();
	fake_status_fill(&fake.status);
	fake.reply_status = reply_status;
	fake.reply_sites = reply_sites;
}

static char *slurp_fd(int fd)
{
	char *buf = NULL;
	size_t len = 0;
	char chunk[4096];
	ssize_t n;

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		buf = realloc(buf, len + (size_t)n + 1);
		assert_non_null(buf);
		memcpy(buf + len, chunk, (size_t)n);
		len += (size_t)n;
	}
	if (!buf)
		buf = calloc(1, 1);
	assert_non_null(buf);
	buf[len] = '\0';
	return buf;
}

/* Runs uaccessctl with @args; stdout and stderr captured into @r. */
static void run_main(struct run *r, int nargs, const char *const *args)
{
	char *argv[nargs + 2], path[128];
	int so, se, fo, fe, i;

	argv[0] = "uaccessctl";
	for (i = 0; i < nargs; i++)
		argv[i + 1] = (char *)args[i];
	argv[nargs + 1] = NULL;
	snprintf(path, sizeof(path), "%s/out", tmpdir);
	fo = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	snprintf(path, sizeof(path), "%s/err", tmpdir);
	fe = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	so = dup(STDOUT_FILENO);
	se = dup(STDERR_FILENO);
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	memset(r, 0, sizeof(*r));
	r->code = uaccessctl_main(nargs + 1, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	r->out = slurp_fd(fo);
	r->err = slurp_fd(fe);
	close(fo);
	close(fe);
}

#define MAIN(r, ...)							\
	do {								\
		const char *args_[] = { __VA_ARGS__ };			\
		run_main(r, (int)(ARRAY_SIZE(args_)),	\
			 args_);					\
	} while (0)

static void help_and_version_exit_0(void **state)
{
	static const char *const verbs_[] = {
		"status", "sites", "top", "list", "show", "monitor", "set",
		"reset", "reload",
	};
	struct run r;
	size_t i;

	MAIN(&r, "--help");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(strncmp(r.out, "uaccessctl [OPTIONS...]", 23), 0);
	for (i = 0; i < ARRAY_SIZE(verbs_); i++) {
		char want[32];

		snprintf(want, sizeof(want), "\n  %s ", verbs_[i]);
		if (!strstr(r.out, want))
			fail_msg("--help does not list %s", verbs_[i]);
		assert_non_null(find_verb(verbs_[i]));
	}
	uk_assert_text("stderr", r.err, "");
	run_free(&r);
	MAIN(&r, "status", "-h");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(strncmp(r.out, "uaccessctl [OPTIONS...]", 23), 0);
	run_free(&r);
	MAIN(&r, "--version");
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "uaccessctl " UK_VERSION "\n");
	run_free(&r);
}

static void bad_command_lines_exit_2(void **state)
{
	static const struct {
		const char *args[4];
		int n;
		const char *err;
	} cases[] = {
		{ { "--frobnicate" }, 1,
		  "uaccessctl: unknown option --frobnicate (see uaccessctl --help)\n" },
		{ { "status", "-z" }, 2,
		  "uaccessctl: unknown option -z (see uaccessctl --help)\n" },
		{ { "status", "--socket" }, 2,
		  "uaccessctl: option --socket needs a value\n" },
		{ { "top", "-n" }, 2, "uaccessctl: option -n needs a value\n" },
		{ { "top", "-n", "0" }, 3,
		  "uaccessctl: -n takes a positive whole number, not '0'\n" },
		{ { "top", "-n", "ten" }, 3,
		  "uaccessctl: -n takes a positive whole number, not 'ten'\n" },
		{ { "top", "--lines=-1" }, 2,
		  "uaccessctl: -n takes a positive whole number, not '-1'\n" },
		{ { "--socket=", "status" }, 2,
		  "uaccessctl: --socket needs a path\n" },
		{ { "frob" }, 1,
		  "uaccessctl: unknown command 'frob' (see uaccessctl --help)\n" },
		{ { "--json", "Status" }, 2,
		  "uaccessctl: unknown command 'Status' (see uaccessctl --help)\n" },
		{ { "status", "--sort", "count" }, 3,
		  "uaccessctl: --sort does not apply to 'status' (see uaccessctl --help)\n" },
		{ { "set", "-n", "5", "mode" }, 4,
		  "uaccessctl: -n does not apply to 'set' (see uaccessctl --help)\n" },
		{ { "monitor", "--kernel" }, 2,
		  "uaccessctl: --kernel does not apply to 'monitor' (see uaccessctl --help)\n" },
		{ { "monitor", "--since", "today" }, 3,
		  "uaccessctl: --since does not apply to 'monitor' (see uaccessctl --help)\n" },
		{ { "top", "--kernel", "-D/nonexistent" }, 3,
		  "uaccessctl: top: --kernel and the journal options (--directory, --since, --until, --boot) exclude each other\n" },
		{ { "sites", "-D", "/nonexistent", "waitid" }, 4,
		  "uaccessctl: sites: unexpected argument 'waitid'\n" },
		{ { "top", "--timeout", "3" }, 3,
		  "uaccessctl: --timeout does not apply to 'top' (see uaccessctl --help)\n" },
		{ { "-b", "status" }, 2,
		  "uaccessctl: --boot does not apply to 'status' (see uaccessctl --help)\n" },
		{ { "list", "--boot=yesterday" }, 2,
		  "uaccessctl: --boot takes a boot ID and/or an offset, not 'yesterday'\n" },
		{ { "sites", "--sort", "size" }, 3,
		  "uaccessctl: sites: --sort takes count, last or name, not 'size'\n" },
		{ { "sites", "extra" }, 2,
		  "uaccessctl: sites: unexpected argument 'extra'\n" },
		{ { "monitor", "--timeout", "soon" }, 3,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not 'soon'\n" },
		{ { "monitor", "--timeout=0" }, 2,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '0'\n" },
		{ { "monitor", "--timeout=.5" }, 2,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '.5'\n" },
		{ { "monitor", "--timeout=86400.001" }, 2,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '86400.001'\n" },
		{ { "monitor", "--timeout=0.0009" }, 2,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '0.0009'\n" },
		{ { "monitor", "--timeout=5s" }, 2,
		  "uaccessctl: monitor: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '5s'\n" },
		{ { "monitor", "--timeout" }, 2,
		  "uaccessctl: option --timeout needs a value\n" },
		{ { "monitor", "--follow" }, 2,
		  "uaccessctl: unknown option --follow (see uaccessctl --help)\n" },
		{ { "sites", "--sort=" }, 2,
		  "uaccessctl: sites: --sort takes count, last or name, not ''\n" },
		{ { "top", "--sort", "size" }, 3,
		  "uaccessctl: top: --sort takes count, last or name, not 'size'\n" },
		{ { "sites", "--format=openmetrics" }, 2,
		  "uaccessctl: --format does not apply to 'sites' (see uaccessctl --help)\n" },
		{ { "status", "--format", "xml" }, 3,
		  "uaccessctl: status: --format takes text, json or openmetrics, not 'xml'\n" },
		{ { "--json", "--format=openmetrics" }, 2,
		  "uaccessctl: status: --format takes text, json or openmetrics (without --json), not 'openmetrics'\n" },
		{ { "--json=long", "status" }, 2,
		  "uaccessctl: --json takes short, pretty or off, not 'long'\n" },
		{ { "sites", "--json=" }, 2,
		  "uaccessctl: --json takes short, pretty or off, not ''\n" },
		{ { "list", "--type", "events" }, 3,
		  "uaccessctl: list: --type takes event, loss, summary, health or all (several separated by commas), not 'events'\n" },
		{ { "top", "--type=loss" }, 2,
		  "uaccessctl: --type does not apply to 'top' (see uaccessctl --help)\n" },
		{ { "set" }, 1, NULL },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		both_up();
		run_main(&r, cases[i].n, cases[i].args);
		if (r.code != UK_EXIT_USAGE)
			fail_msg("case %zu (%s): exit %d, want 2; stderr: %s",
				 i, cases[i].args[0], r.code, r.err);
		if (cases[i].err)
			uk_assert_text("stderr", r.err, cases[i].err);
		uk_assert_text("stdout", r.out, "");
		assert_int_equal(fake.ctl_calls, 0);
		assert_int_equal(fake.opens, 0);
		run_free(&r);
	}
}

static void status_is_the_default_command(void **state)
{
	struct run r;

	both_up();
	MAIN(&r, "--no-pager");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, " uaccess_kaddr: kernel addresses at user-access helpers\n"));
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"status\"}");
	/* stdout is a file: no colours. */
	assert_null(strchr(r.out, '\x1b'));
	run_free(&r);
}

/* --all (-a): the summary, then every fact as "key value" lines. */
static void all_reaches_status_only(void **state)
{
	static const char *const forms[][2] = {
		{ "status", "--all" }, { "-a", "status" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		both_up();
		run_main(&r, 2, forms[i]);
		assert_int_equal(r.code, UK_EXIT_OK);
		assert_non_null(strstr(r.out, "\n\nkernel.available yes\n"));
		run_free(&r);
	}
	both_up();
	MAIN(&r, "sites", "--all");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		       "uaccessctl: --all does not apply to 'sites' (see uaccessctl --help)\n");
	run_free(&r);
}

static void global_options_anywhere(void **state)
{
	struct run r;

	both_up();
	MAIN(&r, "status", "--json", "--socket", "/x/y");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(r.out[0], '{');
	assert_string_equal(fake.ctl_path, "/x/y");
	run_free(&r);
	both_up();
	MAIN(&r, "--socket=/a/b", "--json", "status");
	assert_int_equal(r.out[0], '{');
	assert_string_equal(fake.ctl_path, "/a/b");
	run_free(&r);
}

static void verb_options_reach_the_verb(void **state)
{
	struct run r;

	both_up();
	MAIN(&r, "top", "--sort", "last", "-n", "3");
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"last\",\"limit\":3}");
	run_free(&r);
	both_up();
	MAIN(&r, "--sort=name", "--lines=7", "sites");
	uk_assert_text("request", fake.requests[0],
		    "{\"cmd\":\"sites\",\"sort\":\"name\",\"limit\":7}");
	run_free(&r);
	both_up();
	MAIN(&r, "monitor", "--timeout", "0.05");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.opens, 1);
	run_free(&r);
	both_up();
	fake.reply_metrics =
		"{\"ok\":true,\"cmd\":\"metrics\",\"version\":1,\"text\":\"x 1\\n\"}";
	MAIN(&r, "--format=openmetrics");
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out, "x 1\n");
	uk_assert_text("request", fake.requests[0], "{\"cmd\":\"metrics\"}");
	run_free(&r);
	both_up();
	MAIN(&r, "status", "--format", "json");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(r.out[0], '{');
	run_free(&r);
	/* --json=MODE as systemd's tools take it; off is the text */
	both_up();
	MAIN(&r, "--kernel", "sites", "--json=pretty");
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out,
		    "{\n  \"source\": \"netlink\",\n  \"total\": 0,\n  \"sites\": []\n}\n");
	run_free(&r);
	both_up();
	MAIN(&r, "--kernel", "sites", "--json=short");
	uk_assert_text("stdout", r.out,
		    "{\"source\":\"netlink\",\"total\":0,\"sites\":[]}\n");
	run_free(&r);
	both_up();
	MAIN(&r, "--kernel", "sites", "--json", "--json=off");
	uk_assert_text("stdout", r.out, "No sites recorded.\n");
	run_free(&r);
	both_up();
	MAIN(&r, "--kernel", "sites", "--json");
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out,
		    "{\"source\":\"netlink\",\"total\":0,\"sites\":[]}\n");
	assert_int_equal(fake.ctl_calls, 0);
	run_free(&r);
}

static void arguments_after_double_dash_reach_the_verb(void **state)
{
	struct run r;

	both_up();
	MAIN(&r, "set", "--", "mode", "off");
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_int_equal(fake.set_mode, UACCESS_KADDR_MODE_OFF);
	run_free(&r);
	both_up();
	MAIN(&r, "top", "--sort", "count", "--", "-x");
	assert_int_equal(r.code, UK_EXIT_USAGE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: top: unexpected argument '-x'\n");
	run_free(&r);
}

static void exit_codes_reach_the_caller(void **state)
{
	struct run r;

	both_up();
	fake.ctl_err = -ENOENT;
	MAIN(&r, "status");
	assert_int_equal(r.code, UK_EXIT_NO_DAEMON);
	run_free(&r);
	both_up();
	fake.open_err = -ENOENT;
	MAIN(&r, "monitor");
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	run_free(&r);
	both_up();
	fake.set_err = -EPERM;
	MAIN(&r, "set", "mode", "warn");
	assert_int_equal(r.code, UK_EXIT_PERM);
	run_free(&r);
	both_up();
	fake.status.dropped = 1;
	MAIN(&r, "status", "--no-legend");
	assert_int_equal(r.code, UK_EXIT_LOSS);
	run_free(&r);
}

/* "uaccessctl" and @args in @argv (n + 2 entries); @p as main() has it. */
static void prepare(struct parsed *p, char **argv, int n,
		    const char *const *args)
{
	int i;

	argv[0] = "uaccessctl";
	for (i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	argv[n + 1] = NULL;
	memset(p, 0, sizeof(*p));
	p->cli.out = stdout;
	p->cli.err = stderr;
}

/* The parser alone: what struct uk_cli gets. */
static int parse_args(struct parsed *p, int n, const char *const *args)
{
	char *argv[n + 2];
	bool done = false;

	prepare(p, argv, n, args);
	return parse(n + 1, argv, p, &done);
}

#define PARSE(p, ...)							\
	({								\
		const char *args_[] = { __VA_ARGS__ };			\
		parse_args(p, (int)(ARRAY_SIZE(args_)),	\
			   args_);					\
	})

static void journal_options_are_parsed_for_list(void **state)
{
	struct parsed p;

	assert_int_equal(PARSE(&p, "list", "-D", "/j", "-S", "today",
			       "--until=now", "-n", "5", "-b"), 0);
	assert_string_equal(p.cli.directory, "/j");
	assert_string_equal(p.cli.since, "today");
	assert_string_equal(p.cli.until, "now");
	assert_int_equal(p.cli.lines, 5);
	assert_string_equal(p.cli.boot, "");
	assert_int_equal(check_options(&p, find_verb("list")), 0);
	assert_int_equal(check_options(&p, find_verb("show")), 0);

	/* "-b ID" and "-b OFFSET" take the next argument, like journalctl */
	assert_int_equal(PARSE(&p, "-b", "-1", "list"), 0);
	assert_string_equal(p.cli.boot, "-1");
	assert_int_equal(PARSE(&p, "-b", "0123456789abcdef0123456789abcdef",
			       "show"), 0);
	assert_string_equal(p.cli.boot, "0123456789abcdef0123456789abcdef");
	assert_int_equal(PARSE(&p, "--boot=0123456789abcdef0123456789abcdef+2",
			       "list"), 0);
	assert_string_equal(p.cli.boot, "0123456789abcdef0123456789abcdef+2");
	assert_int_equal(PARSE(&p, "-b3", "list"), 0);
	assert_string_equal(p.cli.boot, "3");
	/* a verb after -b is not a boot */
	assert_int_equal(PARSE(&p, "-b", "list"), 0);
	assert_string_equal(p.cli.boot, "");
	assert_string_equal(find_verb("list")->name, "list");
	/* without -b: all boots */
	assert_int_equal(PARSE(&p, "list"), 0);
	assert_null(p.cli.boot);
	assert_false(p.cli.json || p.cli.no_legend || p.cli.no_pager ||
		     p.cli.kernel);
	assert_int_equal(PARSE(&p, "--json", "--no-legend", "--no-pager",
			       "--kernel", "top"), 0);
	assert_true(p.cli.json && p.cli.no_legend && p.cli.no_pager &&
		    p.cli.kernel);
}

/*
 * What the verb gets after the options: the words left, space-separated,
 * in @buf; the parse's result in @p.
 */
static const char *parse_rest(struct parsed *p, char *buf, size_t len, int n,
			      const char *const *args)
{
	char *argv[n + 2];
	bool done = false;
	size_t at = 0;
	int i;

	prepare(p, argv, n, args);
	buf[0] = '\0';
	assert_int_equal(parse(n + 1, argv, p, &done), 0);
	for (i = optind; i < n + 1; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i > optind ? " " : "", argv[i]);
	return buf;
}

#define REST(p, buf, ...)						\
	({								\
		const char *args_[] = { __VA_ARGS__ };			\
		parse_rest(p, buf, sizeof(buf), (int)ARRAY_SIZE(args_),	\
			   args_);					\
	})

/*
 * "-b 4242": journalctl's rule, which uaccessctl follows (docs/uaccessctl.md):
 * a word after a bare -b that reads as a boot ID or offset is the boot, a
 * bare number included (journalctl -b 4242 is boot offset 4242 too).  A pid
 * beside -b is written before it, after "--" or as pid=N.
 */
static void a_number_after_bare_b_is_the_boot_as_in_journalctl(void **state)
{
	struct parsed p;
	char rest[128];

	assert_string_equal(REST(&p, rest, "list", "-D", "/j", "-b", "4242"),
			    "list");
	assert_string_equal(p.cli.boot, "4242");
	assert_string_equal(REST(&p, rest, "list", "-D", "/j", "-b",
				 "pid=4242"), "list pid=4242");
	assert_string_equal(p.cli.boot, "");
	assert_string_equal(REST(&p, rest, "list", "-D", "/j", "-b",
				 "UACCESS_PID=4242"), "list UACCESS_PID=4242");
	assert_string_equal(p.cli.boot, "");
	assert_string_equal(REST(&p, rest, "list", "4242", "-b", "-D", "/j"),
			    "list 4242");
	assert_string_equal(p.cli.boot, "");
	assert_string_equal(REST(&p, rest, "list", "-D", "/j", "-b", "--",
				 "4242"), "list 4242");
	assert_string_equal(p.cli.boot, "");
	assert_string_equal(REST(&p, rest, "list", "-b", "-1", "4242"),
			    "list 4242");
	assert_string_equal(p.cli.boot, "-1");
	assert_string_equal(REST(&p, rest, "-b", "4242", "list", "77"),
			    "list 77");
	assert_string_equal(p.cli.boot, "4242");
}

int main(void)
{
	const struct CMUnitTest cli_main[] = {
		cmocka_unit_test(help_and_version_exit_0),
		cmocka_unit_test(bad_command_lines_exit_2),
		cmocka_unit_test(status_is_the_default_command),
		cmocka_unit_test(all_reaches_status_only),
		cmocka_unit_test(global_options_anywhere),
		cmocka_unit_test(verb_options_reach_the_verb),
		cmocka_unit_test(arguments_after_double_dash_reach_the_verb),
		cmocka_unit_test(exit_codes_reach_the_caller),
		cmocka_unit_test(journal_options_are_parsed_for_list),
		cmocka_unit_test(a_number_after_bare_b_is_the_boot_as_in_journalctl),
	};

	return cmocka_run_group_tests(cli_main, setup, teardown);
}
