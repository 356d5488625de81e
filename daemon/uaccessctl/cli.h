/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uaccessctl: what every verb shares.  uaccessctl.c parses the global
 * options once into struct uk_cli and dispatches to a verb function; each
 * verb lives in its own cli_*.c file and returns one of the exit codes
 * below (docs/uaccessctl.md documents them; scripts rely on them).
 */
#ifndef UK_CLI_H
#define UK_CLI_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/sort.h"

/* Exit codes, distinct so that scripts can tell the cases apart. */
enum uk_cli_exit {
	UK_EXIT_OK = 0,
	UK_EXIT_FAILURE = 1,	/* anything else, and "no entries found" */
	UK_EXIT_USAGE = 2,	/* bad command line */
	UK_EXIT_NO_KERNEL = 3,	/* kernel lacks uaccess_kaddr (family absent) */
	UK_EXIT_NO_DAEMON = 4,	/* uaccessd is not running (control socket) */
	UK_EXIT_PERM = 5,	/* permission denied (CAP_SYS_ADMIN / root) */
	UK_EXIT_LOSS = 6,	/* status: events were lost at some layer */
};

/*
 * The errnos that stand for those exit codes; any other errno is
 * UK_EXIT_FAILURE.  -EINVAL means a bad command line and nothing else: a
 * reply, file or entry that makes no sense is -EBADMSG or -EPROTO, a
 * failure with its reason already printed is UK_ERR_FAILURE.
 */
enum {
	UK_ERR_FAILURE = -EIO,
	UK_ERR_USAGE = -EINVAL,
	UK_ERR_NO_KERNEL = -ENOPKG,
	UK_ERR_NO_DAEMON = -ECONNREFUSED,
	UK_ERR_PERM = -EPERM,		/* -EACCES too */
	UK_ERR_LOSS = -ENOBUFS,
};

/* The exit code of a verb's result: 0 or a negative errno. */
int uk_cli_exit_code(int err);

/* The global options, parsed once by uaccessctl.c. */
struct uk_cli {
	bool json;		/* --json: machine-readable output */
	bool json_pretty;	/* --json=pretty: indented, a key per line */
	unsigned int columns;	/* tables' width (text.h); 0: no limit */
	bool openmetrics;	/* status --format=openmetrics */
	bool no_legend;		/* --no-legend: no header and footer lines */
	bool no_pager;		/* --no-pager (a pager only on a terminal) */
	bool kernel;		/* --kernel: straight from the kernel's dump-sites */
	bool all;		/* status --all: every fact after the summary */
	bool color;		/* highlight problems (stdout is a terminal) */
	unsigned int types;	/* list --type: 1 << enum uk_list_type; 0: events */
	const char *socket;	/* --socket: uaccessd's control socket */
	const char *directory;	/* --directory: a journal directory */
	const char *since;	/* --since, --until: journal time bounds */
	const char *until;
	const char *boot;	/* --boot[=ID]: "" for the current boot, NULL: all */
	uint64_t lines;		/* -n: at most this many (0: all) */
	enum uk_sort sort;	/* --sort (sites, top) */
	uint64_t timeout_ms;	/* --timeout (monitor), 0: none */
	FILE *out;		/* stdout, or the pager's pipe */
	FILE *err;		/* stderr */
};

/*
 * A verb: @argc/@argv are the arguments that follow the verb name on the
 * command line, the options taken out (uaccessctl.c parses every option
 * once, into struct uk_cli); returns 0 or a negative errno.
 */
typedef int (*uk_cli_verb_fn)(const struct uk_cli *cli, int argc,
			      char **argv);

int uk_cli_status(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_sites(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_top(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_list(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_show(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_monitor(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_set(const struct uk_cli *cli, int argc, char **argv);
int uk_cli_reset(const struct uk_cli *cli, int argc, char **argv);
/* uaccessd re-reads its configuration, as on SIGHUP (root only). */
int uk_cli_reload(const struct uk_cli *cli, int argc, char **argv);

/* One line on cli->err, "uaccessctl: " first; returns @err (< 0). */
int uk_cli_error(const struct uk_cli *cli, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Strict numbers: decimal digits only (no sign, no spaces, no 0x), at
 * most @max.  0 or -EINVAL / -ERANGE.
 */
int uk_cli_parse_u64(const char *s, uint64_t max, uint64_t *ret);

/*
 * systemd's booleans ("1", "yes", "y", "true", "t", "on" and their
 * opposites, any case), as its environment variables take them: 1 true,
 * 0 false, -1 neither.
 */
int uk_cli_parse_boolean(const char *s);

#endif /* UK_CLI_H */
