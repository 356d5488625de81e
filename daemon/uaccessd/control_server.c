// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket, see control_server.h.
 *
 * Every connection is non-blocking and driven by the event loop: the
 * request is collected in a fixed 4 KiB buffer, the reply (megabytes for
 * a big site table) is written as the client reads it.  A client gets
 * one timeout for sending its request and the same timeout again for
 * every piece of the reply, so a slow reader of a big reply is fine but
 * one that stops reading is dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/time.h"
#include "common/control_client.h"
#include "control_server.h"
#include "common/json.h"

/* After EMFILE and the like, accepting pauses this long. */
#define ACCEPT_RETRY_USEC	(100 * 1000ULL)
#define ACCEPT_BATCH		32

struct client {
	struct uk_ctl_server *srv;
	struct client *prev, *next;
	int fd;
	sd_event_source *io;
	sd_event_source *timer;
	struct uk_peer peer;
	char *out;		/* the reply, once there is one */
	size_t out_len;
	size_t out_off;
	size_t in_len;
	char in[UK_CTL_REQUEST_MAX];
};

struct uk_ctl_server {
	sd_event *event;
	int fd;
	sd_event_source *listen_src;
	sd_event_source *retry_src;
	char *path;		/* set if we bound it: removed on free */
	dev_t dev;
	ino_t ino;
	const struct uk_ctl_ops *ops;
	void *ctx;
	uint64_t timeout_usec;
	unsigned int max_clients;
	unsigned int n_clients;
	struct client *clients;
};

static void client_free(struct client *c)
{
	struct uk_ctl_server *s = c->srv;

	if (c->prev)
		c->prev->next = c->next;
	else
		s->clients = c->next;
	if (c->next)
		c->next->prev = c->prev;
	s->n_clients--;
	sd_event_source_disable_unref(c->io);
	sd_event_source_disable_unref(c->timer);
	close(c->fd);
	if (c->out)
		uk_ctl_reply_free(c->out);
	free(c);
}

/* One non-blocking attempt, for replies sent just before closing. */
static void send_error_and_forget(int fd, int error, const char *message)
{
	char *reply;
	size_t len;
	ssize_t n;

	uk_ctl_error_reply(error, NULL, message, &reply, &len);
	n = send(fd, reply, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)n;
	uk_ctl_reply_free(reply);
}

/*
 * Restarts the client's timeout from the clock, not from the loop's
 * cached time of this iteration (sd_event_source_set_time_relative()):
 * building a big reply can take longer than the timeout itself.
 */
static int client_restart_timer(struct client *c)
{
	return sd_event_source_set_time(c->timer, uk_time_now_ns() / 1000 +
					c->srv->timeout_usec);
}

/* Writes what the socket takes; false if the client was freed. */
static bool client_write(struct client *c)
{
	bool progress = false;
	ssize_t n;

	while (c->out_off < c->out_len) {
		n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			client_free(c);
			return false;
		}
		c->out_off += n;
		progress = true;
	}
	if (c->out_off == c->out_len) {
		client_free(c);
		return false;
	}
	if (progress && client_restart_timer(c) < 0) {
		client_free(c);
		return false;
	}
	return true;
}

static void client_reply(struct client *c, size_t req_len)
{
	uk_ctl_handle(c->srv->ops, c->srv->ctx, &c->peer, c->in, req_len,
		      &c->out, &c->out_len);
	if (sd_event_source_set_io_events(c->io, EPOLLOUT) < 0 ||
	    client_restart_timer(c) < 0) {
		client_free(c);
		return;
	}
	client_write(c);
}

static void client_reply_error(struct client *c, int error,
			       const char *message)
{
	uk_ctl_error_reply(error, NULL, message, &c->out, &c->out_len);
	if (sd_event_source_set_io_events(c->io, EPOLLOUT) < 0) {
		client_free(c);
		return;
	}
	client_write(c);
}

static void client_read(struct client *c)
{
	char *nl;
	ssize_t n;

	for (;;) {
		n = read(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				client_free(c);
			return;
		}
		if (n == 0) {
			/* A request may end at EOF instead of '\n'. */
			if (c->in_len)
				client_reply(c, c->in_len);
			else
				client_free(c);
			return;
		}
		nl = memchr(c->in + c->in_len, '\n', n);
		c->in_len += n;
		if (nl) {
			client_reply(c, nl - c->in + 1);
			return;
		}
		if (c->in_len == sizeof(c->in)) {
			char msg[64];

			snprintf(msg, sizeof(msg),
				 "request larger than %d bytes",
				 UK_CTL_REQUEST_MAX);
			client_reply_error(c, -EMSGSIZE, msg);
			return;
		}
	}
}

static int client_io(sd_event_source *src, int fd, uint32_t revents,
		     void *userdata)
{
	struct client *c = userdata;

	if (!c->out) {
		client_read(c);
		return 0;
	}
	if (revents & (EPOLLERR | EPOLLHUP)) {
		client_free(c);
		return 0;
	}
	client_write(c);
	return 0;
}

static int client_timeout(sd_event_source *src, uint64_t usec,
			  void *userdata)
{
	struct client *c = userdata;

	if (!c->out)
		send_error_and_forget(c->fd, -ETIMEDOUT,
				      "no complete request in time");
	client_free(c);
	return 0;
}

static int client_new(struct uk_ctl_server *s, int fd)
{
	struct ucred cred;
	socklen_t sl = sizeof(cred);
	struct client *c;
	int r;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &sl) < 0)
		return -errno;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->srv = s;
	c->fd = fd;
	c->peer = (struct uk_peer){ cred.pid, cred.uid, cred.gid };
	r = sd_event_add_io(s->event, &c->io, fd, EPOLLIN, client_io, c);
	if (r < 0)
		goto fail;
	r = sd_event_add_time_relative(s->event, &c->timer, CLOCK_MONOTONIC,
				       s->timeout_usec, 10 * 1000ULL,
				       client_timeout, c);
	if (r < 0)
		goto fail;
	c->next = s->clients;
	if (c->next)
		c->next->prev = c;
	s->clients = c;
	s->n_clients++;
	return 0;
fail:
	sd_event_source_disable_unref(c->io);
	free(c);
	return r;
}

static int listen_retry(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct uk_ctl_server *s = userdata;

	s->retry_src = sd_event_source_disable_unref(s->retry_src);
	sd_event_source_set_enabled(s->listen_src, SD_EVENT_ON);
	return 0;
}

/* Out of descriptors or memory: stop accepting for a moment. */
static void listen_pause(struct uk_ctl_server *s)
{
	if (s->retry_src)
		return;
	if (sd_event_add_time_relative(s->event, &s->retry_src,
				       CLOCK_MONOTONIC, ACCEPT_RETRY_USEC, 0,
				       listen_retry, s) < 0)
		return;		/* keep accepting: better busy than deaf */
	sd_event_source_set_enabled(s->listen_src, SD_EVENT_OFF);
}

static int listen_io(sd_event_source *src, int lfd, uint32_t revents,
		     void *userdata)
{
	struct uk_ctl_server *s = userdata;
	char msg[64];
	int i, fd;

	for (i = 0; i < ACCEPT_BATCH; i++) {
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EAGAIN)
				break;
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				listen_pause(s);
				break;
			}
			continue;	/* ECONNABORTED, EINTR, EPERM... */
		}
		if (s->n_clients >= s->max_clients) {
			snprintf(msg, sizeof(msg),
				 "too many clients (%u), try again",
				 s->max_clients);
			send_error_and_forget(fd, -EBUSY, msg);
			close(fd);
			continue;
		}
		if (client_new(s, fd) < 0)
			close(fd);
	}
	return 0;
}

static int server_new(sd_event *e, int fd, const struct uk_ctl_ops *ops,
		      void *ctx, struct uk_ctl_server **ret)
{
	struct uk_ctl_server *s;
	int r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->event = sd_event_ref(e);
	s->fd = fd;
	s->ops = ops;
	s->ctx = ctx;
	s->timeout_usec = UK_CTL_TIMEOUT_USEC;
	s->max_clients = UK_CTL_MAX_CLIENTS;
	r = sd_event_add_io(e, &s->listen_src, fd, EPOLLIN, listen_io, s);
	if (r < 0) {
		sd_event_unref(s->event);
		free(s);
		return r;
	}
	*ret = s;
	return 0;
}

/* Removes a socket file nobody listens on; refuses anything else. */
static int remove_stale(const char *path, const struct sockaddr_un *sa,
			socklen_t salen)
{
	struct stat st;
	int fd, r;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	r = connect(fd, (const struct sockaddr *)sa, salen) < 0 ? -errno : 0;
	close(fd);
	/* EAGAIN: a full backlog, so someone is listening. */
	if (r == 0 || r == -EAGAIN)
		return -EADDRINUSE;
	if (r != -ECONNREFUSED)
		return r;
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int uk_ctl_server_new(sd_event *e, const char *path,
		      const struct uk_ctl_ops *ops, void *ctx,
		      struct uk_ctl_server **ret)
{
	struct uk_ctl_server *s;
	struct sockaddr_un sa;
	socklen_t salen;
	struct stat st;
	char *p;
	int fd, r;

	r = uk_ctl_socket_addr(path, &sa, &salen);
	if (r < 0)
		return r;
	p = strdup(path);
	if (!p)
		return -ENOMEM;
	r = remove_stale(path, &sa, salen);
	if (r < 0)
		goto fail_free;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		r = -errno;
		goto fail_free;
	}
	if (bind(fd, (struct sockaddr *)&sa, salen) < 0) {
		r = -errno;
		goto fail_close;
	}
	if (chmod(path, 0666) < 0 || lstat(path, &st) < 0 ||
	    listen(fd, SOMAXCONN) < 0) {
		r = -errno;
		goto fail_unlink;
	}
	r = server_new(e, fd, ops, ctx, &s);
	if (r < 0)
		goto fail_unlink;
	s->path = p;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	*ret = s;
	return 0;
fail_unlink:
	unlink(path);
fail_close:
	close(fd);
fail_free:
	free(p);
	return r;
}

int uk_ctl_server_new_fd(sd_event *e, int fd, const struct uk_ctl_ops *ops,
			 void *ctx, struct uk_ctl_server **ret)
{
	int domain, type, listening, flags;
	socklen_t sl = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &sl) < 0)
		return -errno;
	sl = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &sl) < 0)
		return -errno;
	sl = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &sl) < 0)
		return -errno;
	if (domain != AF_UNIX || type != SOCK_STREAM || !listening)
		return -EINVAL;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return -errno;
	return server_new(e, fd, ops, ctx, ret);
}

void uk_ctl_server_free(struct uk_ctl_server *s)
{
	struct stat st;

	if (!s)
		return;
	while (s->clients)
		client_free(s->clients);
	sd_event_source_disable_unref(s->listen_src);
	sd_event_source_disable_unref(s->retry_src);
	close(s->fd);
	/* Only our own socket: a new instance may have replaced it. */
	if (s->path && lstat(s->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    st.st_dev == s->dev && st.st_ino == s->ino)
		unlink(s->path);
	free(s->path);
	sd_event_unref(s->event);
	free(s);
}

void uk_ctl_server_set_timeout(struct uk_ctl_server *s, uint64_t usec)
{
	s->timeout_usec = usec;
}

void uk_ctl_server_set_max_clients(struct uk_ctl_server *s, unsigned int n)
{
	s->max_clients = n;
}

unsigned int uk_ctl_server_clients(const struct uk_ctl_server *s)
{
	return s->n_clients;
}
