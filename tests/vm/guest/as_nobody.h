/* SPDX-License-Identifier: GPL-2.0 */
/*
 * as_nobody.h: the PoCs' --as-nobody, for a root caller without su (the
 * test VM's busybox): drop to uid/gid 65534 with no supplementary groups,
 * and make sure nothing privileged is left.
 */
#ifndef AS_NOBODY_H
#define AS_NOBODY_H

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NOBODY	65534

/* 0, or -1 with the reason on stderr after PROG's name. */
static inline int drop_to_nobody(const char *prog)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		fprintf(stderr, "%s: dropping to %d: %s\n", prog, NOBODY,
			strerror(errno));
		return -1;
	}
	if (getuid() != NOBODY || geteuid() != NOBODY ||
	    getgid() != NOBODY || getegid() != NOBODY ||
	    getgroups(0, NULL) != 0) {
		fprintf(stderr, "%s: still privileged after the drop\n", prog);
		return -1;
	}
	return 0;
}

#endif
