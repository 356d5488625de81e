// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessd's netlink source (daemon/uaccessd/source.c) when sd-event
 * cannot watch the controller's socket: uk_source_start() fails and
 * leaves no descriptor open behind it.  sd_event_add_io() is this
 * program's own, failing as told; the controller socket is the host's
 * (nlctrl is there without uaccess_kaddr).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <systemd/sd-event.h>
#include <cmocka.h>

#include "uaccessd/daemon.h"

static int io_err;
static unsigned int io_calls;

int sd_event_add_io(sd_event *e, sd_event_source **s, int fd,
		    uint32_t events, sd_event_io_handler_t callback,
		    void *userdata)
{
	io_calls++;
	return io_err;
}

/* Sockets open in this process (the event loop's timerfd is not one). */
static int open_sockets(void)
{
	DIR *dir = opendir("/proc/self/fd");
	char target[64];
	struct dirent *de;
	ssize_t len;
	int n = 0;

	assert_non_null(dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		len = readlinkat(dirfd(dir), de->d_name, target,
				 sizeof(target) - 1);
		if (len > 0 && !strncmp(target, "socket:", 7))
			n++;
	}
	closedir(dir);
	return n;
}

static void ctrl_socket_is_closed_when_it_cannot_be_watched(void **state)
{
	struct uk_daemon d;
	int before, r;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sd_event_new(&d.event), 0);
	before = open_sockets();
	io_err = -ENOMEM;
	io_calls = 0;
	r = uk_source_start(&d);
	if (r < 0 && !io_calls) {
		sd_event_unref(d.event);
		skip();		/* no generic netlink here: nothing to watch */
	}
	assert_int_equal(r, -ENOMEM);
	assert_int_equal(io_calls, 1);
	uk_source_stop(&d);
	assert_int_equal(open_sockets(), before);
	sd_event_unref(d.event);
}

int main(void)
{
	const struct CMUnitTest source[] = {
		cmocka_unit_test(ctrl_socket_is_closed_when_it_cannot_be_watched),
	};

	return cmocka_run_group_tests(source, NULL, NULL);
}
