/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client side of the control socket (uaccessctl's, and the tests'):
 * one request line, one reply line.
 */
#ifndef UK_CONTROL_CLIENT_H
#define UK_CONTROL_CLIENT_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

struct uk_json_value;

/*
 * The address of the socket at @path: -EINVAL for an empty path,
 * -ENAMETOOLONG for one that does not fit sun_path.
 */
int uk_ctl_socket_addr(const char *path, struct sockaddr_un *sa,
		       socklen_t *salen);

/*
 * Connects to @path, sends @request_line ('\n' appended if missing) and
 * returns the reply, one JSON object on one line, parsed, in *reply
 * (uk_json_value_free() it).  @timeout_ms bounds the whole call
 * (negative: no limit).
 *
 * -ENOENT (no socket) and -ECONNREFUSED (nobody listening) mean uaccessd
 * is not running; -EACCES, -ETIMEDOUT, -EPROTO (no reply, or not one JSON
 * object line: why in @why), -EMSGSIZE (reply over UK_CTL_REPLY_MAX),
 * -ENAMETOOLONG.
 */
int uk_ctl_call(const char *path, const char *request_line, int timeout_ms,
		struct uk_json_value **reply, char *why, size_t whylen);

/*
 * A reply line (without its '\n') parsed: 0 and the object in *reply, or
 * -EPROTO with "not JSON: ..." or "not a JSON object" in @why.
 */
int uk_ctl_reply_parse(const char *line, size_t len,
		       struct uk_json_value **reply, char *why, size_t whylen);

#endif /* UK_CONTROL_CLIENT_H */
