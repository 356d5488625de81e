/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control socket's server: a Unix stream socket on an sd-event loop,
 * one request line and one reply line per connection (control.h does the
 * protocol, control_client.h the other end).
 *
 * The socket is world-writable (0666): who may do what is decided per
 * request from the peer's SO_PEERCRED credentials.
 */
#ifndef UK_CONTROL_SERVER_H
#define UK_CONTROL_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "common/control.h"
#include "common/time.h"

#define UK_CTL_TIMEOUT_USEC	(5 * UK_USEC_PER_SEC)
#define UK_CTL_MAX_CLIENTS	64

struct uk_ctl_server;

/*
 * Listens on @path: a stale socket there is removed first, but not a live
 * one (-EADDRINUSE: another uaccessd answers) nor anything that is not a
 * socket (-EEXIST).  The parent directory must exist.  @ops and @ctx must
 * outlive the server.  The socket file is removed again by
 * uk_ctl_server_free() if it is still ours.
 */
int uk_ctl_server_new(sd_event *e, const char *path,
		      const struct uk_ctl_ops *ops, void *ctx,
		      struct uk_ctl_server **ret);

/*
 * The same on an already listening AF_UNIX stream socket (socket
 * activation); the server owns @fd on success only.  -ENOTSOCK or
 * -EINVAL if @fd is not one.
 */
int uk_ctl_server_new_fd(sd_event *e, int fd, const struct uk_ctl_ops *ops,
			 void *ctx, struct uk_ctl_server **ret);

/* Closes every connection and the listening socket.  NULL is fine. */
void uk_ctl_server_free(struct uk_ctl_server *s);

/*
 * How long a client may take to send its request, and to read the next
 * piece of its reply (default UK_CTL_TIMEOUT_USEC); applies to new
 * connections.
 */
void uk_ctl_server_set_timeout(struct uk_ctl_server *s, uint64_t usec);
/* Connections beyond this are refused with an error reply (default 64). */
void uk_ctl_server_set_max_clients(struct uk_ctl_server *s, unsigned int n);
/* Connections open now. */
unsigned int uk_ctl_server_clients(const struct uk_ctl_server *s);

#endif /* UK_CONTROL_SERVER_H */
