// SPDX-License-Identifier: GPL-2.0
/* The pager, as systemd's tools run it (pager.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemd/sd-login.h>

#include "cli.h"
#include "common/util.h"
#include "pager.h"

/* Is @name an executable in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p,
			     name) >= (int)sizeof(file))
			continue;
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

bool uk_cli_pager_secure_mode(const char *pagersecure, bool owner_known,
			      uid_t owner, uid_t euid)
{
	if (pagersecure)
		return uk_cli_parse_boolean(pagersecure) != 0;
	return !owner_known || owner != euid;
}

bool uk_cli_pager_secure(void)
{
	uid_t owner = 0;
	int r = sd_pid_get_owner_uid(0, &owner);

	return uk_cli_pager_secure_mode(secure_getenv("SYSTEMD_PAGERSECURE"),
					r >= 0, owner, geteuid());
}

const char *uk_cli_pager_command(bool tty, bool disabled, bool secure,
				 const char *systemd_pager, const char *pager)
{
	const char *env = systemd_pager ? systemd_pager : pager;

	if (!tty || disabled)
		return NULL;
	if (env) {
		env += strspn(env, " \t");
		if (!*env || !strcmp(env, "cat"))
			return NULL;
		/*
		 * Secure: the command is not looked at, less or nothing
		 * runs (the environment sudo kept could name any program).
		 */
		if (!secure)
			return env;
	}
	if (in_path("less"))
		return "less";
	if (!secure && in_path("more"))
		return "more";
	return NULL;
}

int uk_cli_pager_open(struct uk_cli_pager *pg, const char *cmd, bool secure)
{
	const char *less = getenv("SYSTEMD_LESS");
	int fd[2], saved, r;
	pid_t pid;

	pg->pid = 0;
	pg->saved_stdout = -1;
	fflush(stdout);
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -errno;
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0) {
		r = -errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(saved);
		goto fail;
	}
	if (pid == 0) {
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(EXIT_FAILURE);
		setenv("LESS", less ? less : "FRSXMK", 1);
		if (secure) {
			setenv("LESSSECURE", "1", 1);
			unsetenv("LESSSECURE_ALLOW");
		}
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (dup2(fd[1], STDOUT_FILENO) < 0) {
		r = -errno;
		close(fd[0]);
		close(fd[1]);
		close(saved);
		waitpid(pid, NULL, 0);
		return r;
	}
	close(fd[0]);
	close(fd[1]);
	pg->pid = pid;
	pg->saved_stdout = saved;
	return 0;
fail:
	close(fd[0]);
	close(fd[1]);
	return r;
}

void uk_cli_pager_close(struct uk_cli_pager *pg)
{
	if (!pg->pid)
		return;
	fflush(stdout);
	/* Our end of the pipe goes: the pager sees end-of-file. */
	dup2(pg->saved_stdout, STDOUT_FILENO);
	close(pg->saved_stdout);
	while (waitpid(pg->pid, NULL, 0) < 0 && errno == EINTR)
		;
	pg->pid = 0;
	pg->saved_stdout = -1;
}
