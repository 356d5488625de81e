// SPDX-License-Identifier: GPL-2.0
/*
 * The client side of the control socket, see control_client.h: one
 * blocking call with a deadline over a non-blocking socket.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "time.h"
#include "control.h"
#include "control_client.h"
#include "json.h"
#include "why.h"

int uk_ctl_socket_addr(const char *path, struct sockaddr_un *sa,
		       socklen_t *salen)
{
	size_t n = strlen(path);

	if (n == 0)
		return -EINVAL;
	if (n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	*salen = offsetof(struct sockaddr_un, sun_path) + n + 1;
	return 0;
}

/* Poll timeout left until @deadline (-1: none); -ETIMEDOUT when past. */
static int left_ms(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - (int64_t)uk_time_now_ms();
	if (left <= 0)
		return -ETIMEDOUT;
	return left > 60 * 60 * 1000 ? 60 * 60 * 1000 : (int)left;
}

static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int t, n;

	for (;;) {
		t = left_ms(deadline);
		if (t == -ETIMEDOUT)
			return t;
		n = poll(&pfd, 1, t);
		if (n > 0)
			return 0;
		if (n == 0)
			continue;	/* left_ms() decides */
		if (errno != EINTR)
			return -errno;
	}
}

static int call_connect(int fd, const struct sockaddr_un *sa,
			socklen_t salen, int64_t deadline)
{
	socklen_t sl = sizeof(int);
	int err, r;

	for (;;) {
		if (connect(fd, (const struct sockaddr *)sa, salen) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			/* Backlog full: AF_UNIX cannot be polled for this. */
			if (left_ms(deadline) == -ETIMEDOUT)
				return -ETIMEDOUT;
			poll(NULL, 0, 10);
			continue;
		}
		if (errno != EINPROGRESS)
			return -errno;
		r = wait_fd(fd, POLLOUT, deadline);
		if (r < 0)
			return r;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl) < 0)
			return -errno;
		return -err;
	}
}

/*
 * Sends all of @buf.  *closed when the server closed early (it has
 * replied already, e.g. to a request that is too large): go on reading.
 */
static int call_send(int fd, const char *buf, size_t len, int64_t deadline,
		     bool *closed)
{
	ssize_t n;
	int r;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE || errno == ECONNRESET) {
				*closed = true;
				return 0;
			}
			if (errno != EAGAIN)
				return -errno;
			r = wait_fd(fd, POLLOUT, deadline);
			if (r < 0)
				return r;
			continue;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

static int call_recv(int fd, int64_t deadline, char **ret, size_t *retlen)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *p;
	ssize_t n;
	int r;

	for (;;) {
		if (cap - len < 2) {
			cap = cap ? cap * 2 : 16384;
			if (cap > UK_CTL_REPLY_MAX + 2)
				cap = UK_CTL_REPLY_MAX + 2;
			if (cap - len < 2) {
				r = -EMSGSIZE;
				goto fail;
			}
			p = realloc(buf, cap);
			if (!p) {
				r = -ENOMEM;
				goto fail;
			}
			buf = p;
		}
		n = recv(fd, buf + len, cap - len - 1, MSG_DONTWAIT);
		if (n > 0) {
			len += n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		/* Reset after the whole reply: we sent more than was read. */
		if (errno == ECONNRESET && len && buf[len - 1] == '\n')
			break;
		if (errno != EAGAIN) {
			r = -errno;
			goto fail;
		}
		r = wait_fd(fd, POLLIN, deadline);
		if (r < 0)
			goto fail;
	}
	if (len > UK_CTL_REPLY_MAX) {
		r = -EMSGSIZE;
		goto fail;
	}
	buf = buf ? buf : malloc(1);
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	*ret = buf;
	*retlen = len;
	return 0;
fail:
	free(buf);
	return r;
}

int uk_ctl_reply_parse(const char *line, size_t len,
		       struct uk_json_value **reply, char *why, size_t whylen)
{
	struct uk_json_value *v;
	char perr[128];

	if (uk_json_parse(line, len, &v, perr, sizeof(perr)) < 0) {
		uk_why(why, whylen, "not JSON: %s", perr);
		return -EPROTO;
	}
	if (uk_json_type(v) != UK_JSON_OBJECT) {
		uk_json_value_free(v);
		uk_why(why, whylen, "not a JSON object");
		return -EPROTO;
	}
	*reply = v;
	return 0;
}

int uk_ctl_call(const char *path, const char *request_line, int timeout_ms,
		struct uk_json_value **reply, char *why, size_t whylen)
{
	bool closed = false;
	int64_t deadline = timeout_ms < 0 ? -1 : (int64_t)uk_time_now_ms() + timeout_ms;
	size_t n = strlen(request_line);
	struct sockaddr_un sa;
	socklen_t salen;
	char *buf = NULL;
	size_t len = 0;
	int fd, r;

	r = uk_ctl_socket_addr(path, &sa, &salen);
	if (r < 0)
		return r;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	r = call_connect(fd, &sa, salen, deadline);
	if (r < 0)
		goto out;
	r = call_send(fd, request_line, n, deadline, &closed);
	if (r == 0 && !closed && (n == 0 || request_line[n - 1] != '\n'))
		r = call_send(fd, "\n", 1, deadline, &closed);
	if (r < 0)
		goto out;
	shutdown(fd, SHUT_WR);
	r = call_recv(fd, deadline, &buf, &len);
	if (r < 0)
		goto out;
	/* One JSON object on one line: '\n' only at the end. */
	if (len == 0 || buf[len - 1] != '\n' || memchr(buf, '\n', len - 1)) {
		uk_why(why, whylen, "not one JSON object line");
		r = -EPROTO;
	} else {
		r = uk_ctl_reply_parse(buf, len - 1, reply, why, whylen);
	}
	free(buf);
out:
	close(fd);
	return r;
}
