/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control socket's server: a Unix stream socket on an sd-event loop,
 * one request line and one reply line per connection (control.h does the
 * protocol, control_client.h the other end).
 *
 * The socket is world-writable (0666) on purpose: status, sites and
 * metrics are for everyone, as the kernel's get-status is; what a peer
 * may do and see is decided per request from its SO_PEERCRED credentials
 * (struct uk_peer).  No peer but root can make uaccessd work much for it:
 * the connections of others are capped per uid and in all (a few are kept
 * for root), each connection has a deadline from accept that reading
 * slowly does not push back, and the replies of others are built at a
 * bounded rate, shared by those who ask the same thing within a second,
 * and refused for a while when replies already being sent hold too much
 * memory.  The connections are served at a lower priority than any other
 * source of the loop (the kernel's events first).
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

struct uk_ctl_limits {
	uint64_t timeout_usec;		/* to send the request; per reply piece */
	uint64_t deadline_usec;		/* a connection's whole life */
	unsigned int max_clients;	/* connections in all */
	unsigned int root_reserved;	/* ... of which only root may use these */
	unsigned int max_per_uid;	/* connections of one uid but root */
	unsigned int builds_per_sec;	/* replies built for others than root */
	unsigned int builds_burst;
	uint64_t share_usec;		/* others share a reply this long */
	size_t busy_bytes;		/* replies held: others wait above it */
};

#define UK_CTL_LIMITS_DEFAULT {						\
	.timeout_usec = UK_CTL_TIMEOUT_USEC,				\
	.deadline_usec = 60 * UK_USEC_PER_SEC,				\
	.max_clients = UK_CTL_MAX_CLIENTS,				\
	.root_reserved = 8,						\
	.max_per_uid = 4,						\
	.builds_per_sec = 4,						\
	.builds_burst = 4,						\
	.share_usec = UK_USEC_PER_SEC,					\
	.busy_bytes = 32u << 20,					\
}

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
 * The limits (UK_CTL_LIMITS_DEFAULT): the timeouts and the deadline
 * apply to new connections, the rest at once.
 */
void uk_ctl_server_set_limits(struct uk_ctl_server *s,
			      const struct uk_ctl_limits *l);
void uk_ctl_server_get_limits(const struct uk_ctl_server *s,
			      struct uk_ctl_limits *l);

/* What the server did for peers other than root, since it started. */
struct uk_ctl_stats {
	uint64_t built;			/* replies built */
	uint64_t shared;		/* replies served from one built before */
	uint64_t delayed;		/* requests that waited for the rate */
	uint64_t refused;		/* connections or requests refused */
};

void uk_ctl_server_stats(const struct uk_ctl_server *s,
			 struct uk_ctl_stats *st);
/* Connections open now. */
unsigned int uk_ctl_server_clients(const struct uk_ctl_server *s);

#endif /* UK_CONTROL_SERVER_H */
