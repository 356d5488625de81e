/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control protocol between uaccessctl and uaccessd, without any IO:
 * one request line in, one reply line out.  docs/control-protocol.md is
 * the reference; control_server.c and control_client.c carry the lines
 * over the socket.
 *
 * Request:  {"cmd":"sites","limit":20,"sort":"count","version":1}\n
 * Reply:    {"ok":true,"cmd":"sites","version":1,...payload...}\n
 *           {"ok":false,"cmd":"reset","version":1,"error":"...","errno":1}\n
 */
#ifndef UK_CONTROL_H
#define UK_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sort.h"

struct uk_json;

#define UK_CTL_SOCKET_PATH	"/run/uaccessd/control"
#define UK_CTL_VERSION		1
#define UK_CTL_REQUEST_MAX	4096		/* bytes including the '\n' */
#define UK_CTL_REPLY_MAX	(64u << 20)	/* bytes including the '\n' */

/*
 * Who sent the request, from SO_PEERCRED; @journal_reader if it may read
 * the system journal (root, or a member of systemd-journal or adm), and
 * so may see the tasks the journal's entries name: the one flag the
 * handlers look at for that, root's included.
 */
struct uk_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool journal_reader;
};

enum uk_ctl_cmd {
	UK_CTL_STATUS,
	UK_CTL_SITES,
	UK_CTL_RESET,
	UK_CTL_RELOAD,
	UK_CTL_METRICS,
	_UK_CTL_CMD_MAX,
};

struct uk_ctl_request {
	enum uk_ctl_cmd cmd;
	const struct uk_peer *peer;
	uint64_t limit;			/* sites: at most this many, 0 = all */
	enum uk_sort sort;		/* sites */
};

/*
 * A command handler: writes its payload as keys into the reply object
 * (which already holds "ok", "cmd" and "version"; do not write those, nor
 * "error" or "errno") and returns 0, or returns a negative errno with a
 * one-line message in @err (strerror() of it if left empty); what it
 * wrote is then thrown away.  A NULL handler makes the command fail with
 * EOPNOTSUPP.
 */
typedef int (*uk_ctl_handler_t)(void *ctx, const struct uk_ctl_request *req,
				struct uk_json *reply, char *err,
				size_t errlen);

struct uk_ctl_ops {
	uk_ctl_handler_t status;
	uk_ctl_handler_t sites;
	uk_ctl_handler_t reset;
	uk_ctl_handler_t reload;
	uk_ctl_handler_t metrics;
};

/* "status", ... or NULL; and back (-EINVAL for an unknown name). */
const char *uk_ctl_cmd_name(enum uk_ctl_cmd cmd);
int uk_ctl_cmd_from_name(const char *name, enum uk_ctl_cmd *ret);

/*
 * Whether @peer may run @cmd: status, sites and metrics are for
 * everyone, reset and reload for root only.  0 or -EPERM.
 */
int uk_ctl_check_permission(enum uk_ctl_cmd cmd, const struct uk_peer *peer);

/*
 * uk_ctl_handle() in two steps, for a server that looks at the request
 * before it builds the reply: uk_ctl_parse() reads and checks a request
 * line (0, or a negative errno with a message in @err, for an error
 * reply: @r->cmd is _UK_CTL_CMD_MAX until the command is known), and
 * uk_ctl_run() runs its handler with a reply as uk_ctl_handle()'s.
 */
int uk_ctl_parse(const struct uk_peer *peer, const char *req, size_t len,
		 struct uk_ctl_request *r, char *err, size_t errlen);
int uk_ctl_run(const struct uk_ctl_ops *ops, void *ctx,
	       const struct uk_ctl_request *r, char **reply,
	       size_t *reply_len);

/*
 * Handles one request (@len bytes, with or without its final '\n'; need
 * not be NUL-terminated) and always gives a well-formed reply line ending
 * in '\n' in *reply and *reply_len, to be released with
 * uk_ctl_reply_free() (when even the error reply cannot be allocated it
 * is a static out-of-memory reply).  Returns 0 for an "ok":true reply,
 * else the negative errno the reply carries.
 */
int uk_ctl_handle(const struct uk_ctl_ops *ops, void *ctx,
		  const struct uk_peer *peer, const char *req, size_t len,
		  char **reply, size_t *reply_len);
void uk_ctl_reply_free(char *reply);

/*
 * An error reply line for the transport itself (request too large,
 * timeout, too many clients), allocated like uk_ctl_handle()'s.
 */
void uk_ctl_error_reply(int error, const char *cmd, const char *message,
			char **reply, size_t *reply_len);

#endif /* UK_CONTROL_H */
