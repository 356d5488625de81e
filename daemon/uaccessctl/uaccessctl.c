// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl: inspect and control the kernel's uaccess_kaddr detector and
 * uaccessd.  Parses the global options once (anywhere on the command
 * line, as systemctl does), picks the verb from the table, checks that
 * every option given applies to it, and runs it, behind a pager when
 * stdout is a terminal.  The verbs' own options (--sort, --timeout) are
 * parsed here as well, into struct uk_cli, with the verb named in their
 * error messages; main() alone turns a verb's result into an exit code.
 * docs/uaccessctl.md is the manual.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "list.h"
#include "output.h"
#include "common/control.h"
#include "common/time.h"
#include "common/control_client.h"
#include "common/util.h"

/* Options that apply to some verbs only. */
enum {
	OPT_LINES = 1 << 0,
	OPT_KERNEL = 1 << 1,
	OPT_JOURNAL = 1 << 2,	/* --directory --since --until --boot */
	OPT_SORT = 1 << 3,
	OPT_TIMEOUT = 1 << 4,
	OPT_FORMAT = 1 << 5,
	OPT_ALL = 1 << 6,
	OPT_TYPE = 1 << 7,
};

struct verb {
	const char *name;
	uk_cli_verb_fn fn;
	unsigned int opts;
	bool pager;
};

static const struct verb verbs[] = {
	{ "status", uk_cli_status, OPT_KERNEL | OPT_FORMAT | OPT_ALL, true },
	{ "sites", uk_cli_sites, OPT_LINES | OPT_KERNEL | OPT_SORT | OPT_JOURNAL,
	  true },
	{ "top", uk_cli_top, OPT_LINES | OPT_KERNEL | OPT_SORT | OPT_JOURNAL,
	  true },
	{ "list", uk_cli_list, OPT_LINES | OPT_JOURNAL | OPT_TYPE, true },
	{ "show", uk_cli_show, OPT_LINES | OPT_JOURNAL, true },
	{ "monitor", uk_cli_monitor, OPT_LINES | OPT_TIMEOUT, false },
	{ "set", uk_cli_set, 0, false },
	{ "reset", uk_cli_reset, OPT_KERNEL, false },
	{ "reload", uk_cli_reload, 0, false },
};

static void usage(FILE *f)
{
	fputs(
"uaccessctl [OPTIONS...] [COMMAND] [ARGS...]\n"
"\n"
"Inspect and control the kernel's uaccess_kaddr detector and uaccessd.\n"
"\n"
"Commands:\n"
"  status               Detector and uaccessd health, loss at every layer:\n"
"                       a summary (the default command)\n"
"  sites                Every call site seen, most hits first\n"
"  top                  The busiest call sites (10, or -n N)\n"
"                       (with -D/-S/-U/-b: from the journal, by machine)\n"
"  list                 Past events (or other entries: --type), from the\n"
"                       journal\n"
"  show                 Past events in full, from the journal\n"
"  monitor              Events as they happen (CAP_SYS_ADMIN)\n"
"  set KEY VALUE...     mode off|count|report|warn,\n"
"                       ratelimit INTERVAL_MS BURST,\n"
"                       ratelimit-interval INTERVAL_MS,\n"
"                       ratelimit-burst BURST (CAP_SYS_ADMIN)\n"
"  reset                Zero the kernel's counters; prints them as they\n"
"                       were (root)\n"
"  reload               uaccessd re-reads its configuration (root)\n"
"\n"
"Options:\n"
"  -h --help            Show this help\n"
"     --version         Show the version\n"
"     --json[=MODE]     JSON output: short (the default), pretty or off\n"
"                       (monitor: one object per line)\n"
"     --full            Do not cut tables to the terminal's width\n"
"     --no-legend       No table header and footer\n"
"     --no-pager        Do not pipe the output into a pager\n"
"     --socket PATH     uaccessd's control socket\n"
"                       (default " UK_CTL_SOCKET_PATH ")\n"
"     --kernel          status, sites, top, reset: the kernel only,\n"
"                       not uaccessd\n"
"  -n --lines N         sites, top: N sites; monitor, list, show: N events\n"
"     --sort KEY        sites, top: count (default), last or name\n"
"     --timeout SECONDS monitor: stop after this long\n"
"  -a --all             status: every fact, as key value lines, after\n"
"                       the summary\n"
"     --format FORMAT   status: text (default), json or openmetrics\n"
"                       (the Prometheus text of uaccessd's metrics file)\n"
"  -D --directory DIR   list, show, sites, top: the journal files in DIR\n"
"                       (a collector's: the fleet, by machine)\n"
"  -S --since TIME      list, show, sites, top: entries since TIME\n"
"  -U --until TIME      list, show, sites, top: entries until TIME\n"
"  -b --boot[=ID]       list, show, sites, top: entries of a boot\n"
"                       (without ID: this one)\n"
"     --type TYPE       list: event (default), loss, summary, health or\n"
"                       all entries; several separated by commas\n"
"\n"
"Exit status: 0 success, 1 failure or nothing found, 2 bad command line,\n"
"3 kernel lacks uaccess_kaddr, 4 uaccessd not running, 5 permission\n"
"denied, 6 events were lost (status).\n", f);
}

/* journalctl's boot descriptors: an ID (32 hex digits) and/or offset. */
static bool is_boot_descriptor(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	if (n == 32 && !s[32])
		return true;
	if (n == 32)
		s += 32;
	if (*s == '+' || *s == '-')
		s++;
	return *s && strspn(s, "0123456789") == strlen(s);
}

enum {
	ARG_VERSION = 0x100,
	ARG_JSON,
	ARG_NO_LEGEND,
	ARG_NO_PAGER,
	ARG_KERNEL,
	ARG_SOCKET,
	ARG_SORT,
	ARG_TIMEOUT,
	ARG_FORMAT,
	ARG_FULL,
	ARG_TYPE,
};

struct parsed {
	struct uk_cli cli;
	unsigned int given;		/* OPT_* seen */
	const char *sort;
	const char *timeout;
	const char *format;
	bool full;			/* --full: tables not cut to the terminal */
	const char *type;
	const char *given_name[8];	/* by OPT_* bit, for messages */
};

static void note(struct parsed *p, unsigned int opt, const char *name)
{
	unsigned int bit = (unsigned int)__builtin_ctz(opt);

	p->given |= opt;
	if (!p->given_name[bit])
		p->given_name[bit] = name;
}

/* 0 or a negative errno; *done after --help and --version. */
static int parse(int argc, char **argv, struct parsed *p, bool *done)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, ARG_VERSION },
		{ "json", optional_argument, NULL, ARG_JSON },
		{ "full", no_argument, NULL, ARG_FULL },
		{ "no-legend", no_argument, NULL, ARG_NO_LEGEND },
		{ "no-pager", no_argument, NULL, ARG_NO_PAGER },
		{ "kernel", no_argument, NULL, ARG_KERNEL },
		{ "socket", required_argument, NULL, ARG_SOCKET },
		{ "lines", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, ARG_SORT },
		{ "timeout", required_argument, NULL, ARG_TIMEOUT },
		{ "format", required_argument, NULL, ARG_FORMAT },
		{ "all", no_argument, NULL, 'a' },
		{ "type", required_argument, NULL, ARG_TYPE },
		{ "directory", required_argument, NULL, 'D' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "boot", optional_argument, NULL, 'b' },
		{}
	};
	struct uk_cli *cli = &p->cli;
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ahn:D:S:U:b::", opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(cli->out);
			*done = true;
			return 0;
		case ARG_VERSION:
			fprintf(cli->out, "uaccessctl %s\n", UK_VERSION);
			*done = true;
			return 0;
		case ARG_JSON:
			if (uk_cli_parse_json(optarg, &cli->json,
					      &cli->json_pretty) < 0)
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "--json takes short, pretty or off, not '%s'",
						    optarg);
			break;
		case ARG_FULL:
			p->full = true;
			break;
		case ARG_NO_LEGEND:
			cli->no_legend = true;
			break;
		case ARG_NO_PAGER:
			cli->no_pager = true;
			break;
		case ARG_KERNEL:
			cli->kernel = true;
			note(p, OPT_KERNEL, "--kernel");
			break;
		case ARG_SOCKET:
			if (!optarg[0])
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "--socket needs a path");
			cli->socket = optarg;
			break;
		case 'n':
			if (uk_cli_parse_u64(optarg, UINT64_MAX,
					     &cli->lines) < 0 || !cli->lines)
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "-n takes a positive whole number, not '%s'",
						    optarg);
			note(p, OPT_LINES, "-n");
			break;
		case ARG_SORT:
			p->sort = optarg;
			note(p, OPT_SORT, "--sort");
			break;
		case ARG_TIMEOUT:
			p->timeout = optarg;
			note(p, OPT_TIMEOUT, "--timeout");
			break;
		case ARG_FORMAT:
			p->format = optarg;
			note(p, OPT_FORMAT, "--format");
			break;
		case 'a':
			cli->all = true;
			note(p, OPT_ALL, "--all");
			break;
		case ARG_TYPE:
			p->type = optarg;
			note(p, OPT_TYPE, "--type");
			break;
		case 'D':
			cli->directory = optarg;
			note(p, OPT_JOURNAL, "--directory");
			break;
		case 'S':
			cli->since = optarg;
			note(p, OPT_JOURNAL, "--since");
			break;
		case 'U':
			cli->until = optarg;
			note(p, OPT_JOURNAL, "--until");
			break;
		case 'b':
			if (optarg && !is_boot_descriptor(optarg))
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "--boot takes a boot ID and/or an offset, not '%s'",
						    optarg);
			cli->boot = optarg ? optarg : "";
			/* "-b ID", as journalctl takes it. */
			if (!optarg && optind < argc &&
			    is_boot_descriptor(argv[optind]))
				cli->boot = argv[optind++];
			note(p, OPT_JOURNAL, "--boot");
			break;
		case ':':
			return uk_cli_error(cli, UK_ERR_USAGE,
					    "option %s needs a value",
					    argv[optind - 1]);
		default:
			if (optopt && optopt < 0x100)
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "unknown option -%c (see uaccessctl --help)",
						    optopt);
			return uk_cli_error(cli, UK_ERR_USAGE,
					    "unknown option %s (see uaccessctl --help)",
					    argv[optind - 1]);
		}
	}
	return 0;
}

static const struct verb *find_verb(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(verbs[i].name, name))
			return &verbs[i];
	return NULL;
}

static int check_options(const struct parsed *p, const struct verb *v)
{
	unsigned int extra = p->given & ~v->opts;
	unsigned int bit;

	if (!extra)
		return 0;
	bit = (unsigned int)__builtin_ctz(extra);
	return uk_cli_error(&p->cli, UK_ERR_USAGE,
			    "%s does not apply to '%s' (see uaccessctl --help)",
			    p->given_name[bit], v->name);
}

/* The values of the verb's own options, with the verb in the message. */
static int option_values(struct parsed *p, const struct verb *v)
{
	uint64_t usec;

	if (p->format) {
		if (!strcmp(p->format, "openmetrics") && !p->cli.json)
			p->cli.openmetrics = true;
		else if (!strcmp(p->format, "json"))
			p->cli.json = true;
		else if (strcmp(p->format, "text") || p->cli.json)
			return uk_cli_error(&p->cli, UK_ERR_USAGE,
					    "%s: --format takes text, json or openmetrics%s, not '%s'",
					    v->name,
					    p->cli.json ? " (without --json)" : "",
					    p->format);
	}
	if (p->type && uk_list_type_parse(p->type, &p->cli.types) < 0)
		return uk_cli_error(&p->cli, UK_ERR_USAGE,
				    "%s: --type takes " UK_LIST_TYPE_NAMES
				    " (several separated by commas), not '%s'",
				    v->name, p->type);
	if (p->sort && uk_sort_parse(p->sort, &p->cli.sort) < 0)
		return uk_cli_error(&p->cli, UK_ERR_USAGE,
				    "%s: --sort takes " UK_SORT_NAMES ", not '%s'",
				    v->name, p->sort);
	if (p->timeout) {
		if (uk_time_parse_span(p->timeout, UK_SPAN_FRACTION, &usec,
				       NULL, NULL, 0) < 0 ||
		    usec < UK_USEC_PER_MSEC || usec > UK_USEC_PER_DAY)
			return uk_cli_error(&p->cli, UK_ERR_USAGE,
					    "%s: --timeout takes seconds (up to 86400, e.g. 5 or 0.5), not '%s'",
					    v->name, p->timeout);
		p->cli.timeout_ms = usec / UK_USEC_PER_MSEC;
	}
	return 0;
}

static int dispatch(struct parsed *p, const struct verb *v, int nargs,
		    char **args)
{
	struct uk_cli_pager pg = { 0 };
	const char *pager;
	bool secure;
	int r;

	/* Decided on stdout itself: the pager's pipe passes colours on. */
	p->cli.color = uk_cli_color_mode(isatty(STDOUT_FILENO),
					 getenv("SYSTEMD_COLORS"),
					 getenv("NO_COLOR"), getenv("TERM"));
	if (v->pager) {
		secure = uk_cli_pager_secure();
		pager = uk_cli_pager_command(isatty(STDOUT_FILENO),
					     p->cli.no_pager || p->cli.json,
					     secure, getenv("SYSTEMD_PAGER"),
					     getenv("PAGER"));
		if (pager)	/* none if it fails */
			uk_cli_pager_open(&pg, pager, secure);
	}
	r = v->fn(&p->cli, nargs, args);
	if (fflush(stdout) != 0 && !r)
		r = uk_cli_error(&p->cli, UK_ERR_FAILURE,
				 "cannot write the output: %s",
				 strerror(errno));
	uk_cli_pager_close(&pg);
	return r;
}

int main(int argc, char **argv)
{
	struct parsed p = {
		.cli = { .out = stdout, .err = stderr },
	};
	const struct verb *v;
	const char *name = "status";
	bool done = false;
	int r;

	/*
	 * Display widths (wcwidth()) and the ellipsis need the locale's
	 * characters; nothing else of it: numbers, dates and JSON stay C.
	 */
	setlocale(LC_CTYPE, "");
	r = parse(argc, argv, &p, &done);
	if (r || done)
		return uk_cli_exit_code(r);
	if (optind < argc)
		name = argv[optind++];
	v = find_verb(name);
	if (!v)
		return uk_cli_exit_code(uk_cli_error(&p.cli, UK_ERR_USAGE,
				"unknown command '%s' (see uaccessctl --help)",
				name));
	r = check_options(&p, v);
	if (!r)
		r = option_values(&p, v);
	/* Before the pager takes stdout: the terminal's width. */
	p.cli.columns = uk_cli_columns(p.full, getenv("COLUMNS"),
				       isatty(STDOUT_FILENO), STDOUT_FILENO);
	if (!r)
		r = dispatch(&p, v, argc - optind, argv + optind);
	return uk_cli_exit_code(r);
}
