/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What uaccessctl's verbs share besides cli.h: the transports (behind one
 * table that the unit tests replace), errors turned into sentences and
 * UK_ERR_* errors, aligned tables, "key value" lines, JSON documents, times,
 * and the pager.
 */
#ifndef UK_CLI_OUTPUT_H
#define UK_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "cli.h"
#include "common/event.h"
#include "common/json.h"
#include "common/nl.h"

/* ---- transports ---- */

/*
 * Every way out of the process a verb takes: the control socket, the
 * netlink family, the clocks.  uk_cli_sys points at uk_cli_sys_real; the
 * unit tests point it at fakes (the only global the verbs read).
 */
struct uk_cli_sys {
	int (*ctl_call)(const char *path, const char *request_line,
			int timeout_ms, struct uk_json_value **reply,
			char *why, size_t whylen);
	int (*nl_open)(struct uk_nl **ret);
	void (*nl_close)(struct uk_nl *nl);
	int (*nl_get_status)(struct uk_nl *nl, struct uk_status *st,
			     char *why, size_t whylen);
	int (*nl_reset)(struct uk_nl *nl, struct uk_status *old, char *why,
			size_t whylen);
	int (*nl_set_config)(struct uk_nl *nl, const uint32_t *mode,
			     const uint32_t *interval_ms,
			     const uint32_t *burst, char *why, size_t whylen);
	int (*nl_dump_sites)(struct uk_nl *nl,
			     int (*cb)(const struct uk_site *site, void *data),
			     void *data, char *why, size_t whylen);
	uint16_t (*nl_family)(const struct uk_nl *nl);
	int (*nl_events_open)(struct uk_nl *nl, int rcvbuf);
	ssize_t (*nl_events_recv)(struct uk_nl *nl, void *buf, size_t len);
	int (*clock_gettime)(clockid_t clk, struct timespec *ts);
};

extern const struct uk_cli_sys uk_cli_sys_real;
extern const struct uk_cli_sys *uk_cli_sys;

/* How long uaccessd may take to answer (a big site table is megabytes). */
#define UK_CLI_CTL_TIMEOUT_MS	10000

/* --socket, or the default control socket. */
const char *uk_cli_socket(const struct uk_cli *cli);

/*
 * One request to uaccessd.  0 and the parsed reply in *reply (free with
 * uk_json_value_free()) when it answered "ok":true.  Otherwise a negative
 * errno and a sentence in @why: the transport's error (-ENOENT and
 * -ECONNREFUSED: uaccessd is not running), or the errno of an "ok":false
 * reply with its "error" text, or -EPROTO for a reply that makes no sense.
 */
int uk_cli_ctl(const struct uk_cli *cli, const char *request,
	       struct uk_json_value **reply, char *why, size_t whylen);

/* uaccessd's "not running" errors. */
bool uk_cli_ctl_absent(int err);

/*
 * Prints the failure of uk_cli_ctl() on cli->err and returns what it
 * stands for: UK_ERR_NO_DAEMON for a daemon that is not running,
 * UK_ERR_PERM for a refused connection or request, UK_ERR_FAILURE
 * otherwise.
 */
int uk_cli_ctl_fail(const struct uk_cli *cli, int err, const char *why);
/* The same without printing: the sentence in @msg, the error returned. */
int uk_cli_ctl_explain(const struct uk_cli *cli, int err, const char *why,
		       char *msg, size_t msglen);

/*
 * Opens the netlink family; on failure prints why and returns
 * UK_ERR_NO_KERNEL when the kernel has no uaccess_kaddr family,
 * UK_ERR_PERM or UK_ERR_FAILURE, else returns 0.
 */
int uk_cli_nl_open(const struct uk_cli *cli, struct uk_nl **nl);
/* The sentence and UK_ERR_* for an error of uk_nl_open(), unprinted. */
int uk_cli_nl_explain(int err, char *msg, size_t msglen);

/*
 * Prints the failure of a netlink request (@what: "get-status", ...) and
 * returns UK_ERR_PERM for -EPERM/-EACCES ("permission denied: needs
 * CAP_SYS_ADMIN"), UK_ERR_NO_KERNEL for -ENOENT, else UK_ERR_FAILURE
 * with the kernel's message.
 */
int uk_cli_nl_fail(const struct uk_cli *cli, const char *what, int err,
		   const char *why);

#define UK_CLI_MSG_NO_KERNEL \
	"kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)"
#define UK_CLI_MSG_NO_DAEMON \
	"uaccessd is not running (systemctl start uaccessd)"
#define UK_CLI_MSG_NEED_ADMIN "permission denied: needs CAP_SYS_ADMIN"

/* ---- verb arguments ---- */

/*
 * Strict numbers: decimal digits only (no sign, no spaces, no 0x), at
 * most @max.  0 or -EINVAL / -ERANGE.
 */
int uk_cli_parse_u64(const char *s, uint64_t max, uint64_t *ret);

/* ---- text ---- */

/*
 * Copies @in to @out (cut to @outlen - 1 bytes at a character boundary)
 * with control characters, C1 controls and invalid UTF-8 bytes replaced
 * by '?', so that a task name cannot move the cursor or fake a line.
 * Returns @out.
 */
char *uk_cli_sanitize(const char *in, char *out, size_t outlen);
/*
 * @len bytes (a journal value: may hold NULs, shown up to the first)
 * sanitized the same way into @out.
 */
void uk_cli_sanitize_n(const char *s, size_t len, char *out, size_t outlen);
/* A sanitized copy of @len bytes of @s; NULL on ENOMEM. */
char *uk_cli_sanitize_dup(const char *s, size_t len);

/* Columns a UTF-8 string takes (one per character). */
size_t uk_cli_width(const char *s);

/* A "key value" line; NULL or "" values print as "-", text sanitized. */
void uk_cli_kv(FILE *out, const char *key, const char *value);

/*
 * A parsed JSON value as "key value" lines: an object gives one line per
 * member, keyed PREFIX.MEMBER (recursively); an array of scalars one line
 * with the items separated by spaces ("-" when empty); booleans are
 * "yes"/"no", null and "" are "-".
 */
void uk_cli_kv_json(FILE *out, const char *prefix,
		    const struct uk_json_value *v);

/* Every present field of a decoded message as PREFIX.NAME lines. */
void uk_cli_kv_fields(FILE *out, const char *prefix,
		      const struct uk_field *fields, const void *obj);

/* ---- tables ---- */

enum uk_cli_align {
	UK_CLI_LEFT,
	UK_CLI_RIGHT,
};

struct uk_cli_column {
	const char *header;
	enum uk_cli_align align;
};

struct uk_cli_table;

/* @cols must outlive the table.  -ENOMEM. */
int uk_cli_table_new(const struct uk_cli_column *cols, size_t ncols,
		     struct uk_cli_table **ret);
void uk_cli_table_free(struct uk_cli_table *t);
/*
 * Adds a row of ncols cells (NULL: "-"), copied and sanitized.  -ENOMEM.
 */
int uk_cli_table_add(struct uk_cli_table *t, const char *const *cells);
size_t uk_cli_table_rows(const struct uk_cli_table *t);
/*
 * Prints the rows, each column as wide as its widest cell (and its header
 * when @header), separated by one space, numbers right-aligned, no
 * trailing blanks.
 */
void uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
			bool header);

/* ---- JSON ---- */

/*
 * Finishes @j and writes the document and a newline to cli->out.  Returns
 * 0, or prints why and returns UK_ERR_FAILURE.  @j is released
 * either way.
 */
int uk_cli_json_print(const struct uk_cli *cli, struct uk_json *j);


/* ---- time ---- */

/*
 * uk_time_boot_to_real() with the clocks of uk_cli_sys (the tests' fake
 * ones): the offset now, so a clock change since is not accounted for.
 */
uint64_t uk_cli_boot_to_real(uint64_t boot_ns);

/* ---- pager ---- */

struct uk_cli_pager {
	pid_t pid;		/* 0: no pager running */
	int saved_stdout;
};

/*
 * Whether the pager runs in secure mode, as systemd decides it:
 * @pagersecure is $SYSTEMD_PAGERSECURE (NULL when unset), a boolean ("1",
 * "yes", "true", "on", "0", "no", ...; secure when it is none).  Unset,
 * secure unless the owner of the login session, @owner (@owner_known
 * false when there is none or it is not known), is the effective uid
 * @euid: under sudo, pkexec or su the pager must not be a way to a
 * privileged shell.
 */
bool uk_cli_pager_secure_mode(const char *pagersecure, bool owner_known,
			      uid_t owner, uid_t euid);

/*
 * uk_cli_pager_secure_mode() for this process: secure_getenv(), the
 * session's owner from sd_pid_get_owner_uid() and geteuid().
 */
bool uk_cli_pager_secure(void);

/*
 * The pager command to run, as systemd chooses it: none (NULL) when
 * stdout is not a terminal (@tty false) or @disabled (--no-pager, --json);
 * else $SYSTEMD_PAGER, else $PAGER (none when it is "" or "cat"), else
 * "less" or, without less, "more".  @secure (uk_cli_pager_secure()): only
 * less, which has a secure mode, is run, whatever $SYSTEMD_PAGER or $PAGER
 * name (a command of the environment could be anything, "less; sh"
 * included), and none without less.  @systemd_pager and @pager are the
 * environment's values (NULL when unset).
 */
const char *uk_cli_pager_command(bool tty, bool disabled, bool secure,
				 const char *systemd_pager, const char *pager);

/*
 * Runs @cmd (through /bin/sh -c) with stdout of this process going to its
 * standard input, LESS set to $SYSTEMD_LESS or "FRSXMK"; @secure, also
 * LESSSECURE=1 and no LESSSECURE_ALLOW (less's exceptions to it): no
 * shell, editor or file from less.  Returns 0 or a negative errno (and no
 * pager).
 */
int uk_cli_pager_open(struct uk_cli_pager *pg, const char *cmd, bool secure);

/* Flushes stdout, gives the pager end-of-file and waits for it. */
void uk_cli_pager_close(struct uk_cli_pager *pg);

#endif /* UK_CLI_OUTPUT_H */
