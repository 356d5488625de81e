/* SPDX-License-Identifier: GPL-2.0 */
/* The pager, as systemd's tools run it. */
#ifndef UK_CLI_PAGER_H
#define UK_CLI_PAGER_H

#include <stdbool.h>
#include <sys/types.h>

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

#endif /* UK_CLI_PAGER_H */
