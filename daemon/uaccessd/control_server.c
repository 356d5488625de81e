// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket, see control_server.h.
 *
 * Every connection is non-blocking and driven by the event loop: the
 * request is collected in a fixed 4 KiB buffer, the reply (megabytes for
 * a big site table) is written as the client reads it.  A client gets
 * one timeout for sending its request and the same timeout again for
 * every piece of the reply, so a slow reader of a big reply is fine but
 * one that stops reading is dropped; and whatever it does, it is dropped
 * at its deadline.
 *
 * A reply is reference-counted: peers other than root that ask the same
 * thing (command, limit, sort, what they may see) within share_usec get
 * the one built for the first of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include "common/util.h"

/* After EMFILE and the like, accepting pauses this long. */
#define ACCEPT_RETRY_USEC	(100 * 1000ULL)
#define ACCEPT_BATCH		32
#define SHARED_SLOTS		8
#define PEER_GROUPS_MAX		64
/* Below the loop's other sources: the kernel's events come first. */
#define CLIENT_PRIORITY		(SD_EVENT_PRIORITY_NORMAL + 10)

struct reply {
	unsigned int refs;
	size_t len;
	char *data;
};

/* What makes two requests of peers other than root the same. */
struct share_key {
	enum uk_ctl_cmd cmd;
	uint64_t limit;
	enum uk_sort sort;
	bool journal_reader;
};

struct shared {
	struct share_key key;
	struct reply *reply;		/* NULL: a free slot */
	uint64_t until_usec;
};

struct client {
	struct uk_ctl_server *srv;
	struct client *prev, *next;
	int fd;
	sd_event_source *io;
	sd_event_source *timer;
	struct uk_peer peer;
	uint64_t deadline_usec;
	bool waiting;		/* parsed, waits for the build rate */
	struct uk_ctl_request req;
	struct reply *out;	/* the reply, once there is one */
	size_t out_off;
	size_t in_len;
	char in[UK_CTL_REQUEST_MAX];
};

struct uk_ctl_server {
	sd_event *event;
	int fd;
	sd_event_source *listen_src;
	sd_event_source *retry_src;
	sd_event_source *shared_src;
	char *path;		/* set if we bound it: removed on free */
	dev_t dev;
	ino_t ino;
	const struct uk_ctl_ops *ops;
	void *ctx;
	struct uk_ctl_limits lim;
	unsigned int n_clients;
	struct client *clients;
	gid_t journal_gids[2];
	unsigned int n_journal_gids;
	size_t held_bytes;	/* in every reply still alive */
	uint64_t build_tat_usec;	/* the build rate's theoretical arrival */
	struct shared shared[SHARED_SLOTS];
	struct uk_ctl_stats stats;
};

static uint64_t now_usec(void)
{
	return uk_time_now_ns() / 1000;
}

static struct reply *reply_new(struct uk_ctl_server *s, char *data,
			       size_t len)
{
	struct reply *r = malloc(sizeof(*r));

	if (!r) {
		uk_ctl_reply_free(data);
		return NULL;
	}
	r->refs = 1;
	r->data = data;
	r->len = len;
	s->held_bytes += len;
	return r;
}

static struct reply *reply_ref(struct reply *r)
{
	r->refs++;
	return r;
}

static void reply_unref(struct uk_ctl_server *s, struct reply *r)
{
	if (!r || --r->refs)
		return;
	s->held_bytes -= r->len;
	uk_ctl_reply_free(r->data);
	free(r);
}

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
	reply_unref(s, c->out);
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
 * The client's timer at @usec, or at its deadline if that comes first.
 * From the clock, not from the loop's cached time of this iteration
 * (sd_event_source_set_time_relative()): building a big reply can take
 * longer than the timeout itself.
 */
static int client_arm(struct client *c, uint64_t usec)
{
	int r;

	r = sd_event_source_set_time(c->timer, usec < c->deadline_usec ?
				     usec : c->deadline_usec);
	if (r < 0)
		return r;
	return sd_event_source_set_enabled(c->timer, SD_EVENT_ONESHOT);
}

static int client_restart_timer(struct client *c)
{
	return client_arm(c, now_usec() + c->srv->lim.timeout_usec);
}

/* Writes what the socket takes; false if the client was freed. */
static bool client_write(struct client *c)
{
	bool progress = false;
	ssize_t n;

	while (c->out_off < c->out->len) {
		n = send(c->fd, c->out->data + c->out_off,
			 c->out->len - c->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
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
	if (c->out_off == c->out->len) {
		client_free(c);
		return false;
	}
	if (progress && client_restart_timer(c) < 0) {
		client_free(c);
		return false;
	}
	return true;
}

/* Sends @r (the client's reference to it), or an out-of-memory error. */
static void client_send(struct client *c, struct reply *r)
{
	if (!r) {
		char *data;
		size_t len;

		uk_ctl_error_reply(-ENOMEM, NULL, NULL, &data, &len);
		r = reply_new(c->srv, data, len);
		if (!r) {
			client_free(c);
			return;
		}
	}
	c->out = r;
	c->waiting = false;
	if (sd_event_source_set_io_events(c->io, EPOLLOUT) < 0 ||
	    sd_event_source_set_enabled(c->io, SD_EVENT_ON) < 0 ||
	    client_restart_timer(c) < 0) {
		client_free(c);
		return;
	}
	client_write(c);
}

static void client_reply_error(struct client *c, int error,
			       const char *message)
{
	char *data;
	size_t len;

	uk_ctl_error_reply(error, uk_ctl_cmd_name(c->req.cmd), message, &data,
			   &len);
	client_send(c, reply_new(c->srv, data, len));
}

static struct share_key share_key(const struct client *c)
{
	return (struct share_key){
		.cmd = c->req.cmd,
		.limit = c->req.limit,
		.sort = c->req.sort,
		.journal_reader = c->peer.journal_reader,
	};
}

static bool share_key_equal(const struct share_key *a,
			    const struct share_key *b)
{
	return a->cmd == b->cmd && a->limit == b->limit &&
	       a->sort == b->sort && a->journal_reader == b->journal_reader;
}

static void shared_drop(struct uk_ctl_server *s, struct shared *sh)
{
	reply_unref(s, sh->reply);
	sh->reply = NULL;
}

/* Drops what is too old to share; the timer at the next to go. */
static void shared_expire(struct uk_ctl_server *s, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < SHARED_SLOTS; i++) {
		struct shared *sh = &s->shared[i];

		if (sh->reply && sh->until_usec <= now)
			shared_drop(s, sh);
		if (sh->reply && sh->until_usec < next)
			next = sh->until_usec;
	}
	if (next == UINT64_MAX) {
		sd_event_source_set_enabled(s->shared_src, SD_EVENT_OFF);
		return;
	}
	sd_event_source_set_time(s->shared_src, next);
	sd_event_source_set_enabled(s->shared_src, SD_EVENT_ONESHOT);
}

static int shared_timer(sd_event_source *src, uint64_t usec, void *userdata)
{
	shared_expire(userdata, now_usec());
	return 0;
}

static struct reply *shared_find(struct uk_ctl_server *s,
				 const struct share_key *key, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < SHARED_SLOTS; i++) {
		struct shared *sh = &s->shared[i];

		if (sh->reply && sh->until_usec > now &&
		    share_key_equal(&sh->key, key))
			return sh->reply;
	}
	return NULL;
}

/* Keeps @r to share, in a free slot or the one that goes first. */
static void shared_add(struct uk_ctl_server *s, const struct share_key *key,
		       struct reply *r, uint64_t now)
{
	struct shared *slot = &s->shared[0];
	unsigned int i;

	if (!s->lim.share_usec)
		return;
	for (i = 0; i < SHARED_SLOTS; i++) {
		struct shared *sh = &s->shared[i];

		if (!sh->reply) {
			slot = sh;
			break;
		}
		if (sh->until_usec < slot->until_usec)
			slot = sh;
	}
	shared_drop(s, slot);
	slot->key = *key;
	slot->reply = reply_ref(r);
	slot->until_usec = now + s->lim.share_usec;
	shared_expire(s, now);
}

/*
 * The build rate of peers other than root, as a GCRA: a build may go
 * now if the theoretical arrival time is no more than burst - 1
 * intervals ahead.  0, or when to try again.
 */
static uint64_t build_wait(struct uk_ctl_server *s, uint64_t now)
{
	uint64_t interval, slack;

	if (!s->lim.builds_per_sec)
		return 0;
	interval = UK_USEC_PER_SEC / s->lim.builds_per_sec;
	slack = interval * (s->lim.builds_burst ? s->lim.builds_burst - 1 : 0);
	if (s->build_tat_usec > now + slack)
		return s->build_tat_usec - slack;
	s->build_tat_usec = (s->build_tat_usec > now ? s->build_tat_usec :
			     now) + interval;
	return 0;
}

static struct reply *build(struct client *c)
{
	char *data;
	size_t len;

	uk_ctl_run(c->srv->ops, c->srv->ctx, &c->req, &data, &len);
	return reply_new(c->srv, data, len);
}

/*
 * The parsed request of a peer other than root: a reply to share, or one
 * built now if the rate allows, or the client waits for the rate (its
 * reading stopped, its deadline still running).
 */
static void client_serve_other(struct client *c)
{
	struct uk_ctl_server *s = c->srv;
	struct share_key key = share_key(c);
	uint64_t now = now_usec(), when;
	struct reply *r;
	char msg[128];

	r = shared_find(s, &key, now);
	if (r) {
		s->stats.shared++;
		client_send(c, reply_ref(r));
		return;
	}
	if (s->held_bytes >= s->lim.busy_bytes) {
		s->stats.refused++;
		snprintf(msg, sizeof(msg),
			 "uaccessd is busy sending %zu MiB of replies, try again",
			 s->held_bytes >> 20);
		client_reply_error(c, -EBUSY, msg);
		return;
	}
	when = build_wait(s, now);
	if (when) {
		if (!c->waiting)
			s->stats.delayed++;
		c->waiting = true;
		if (sd_event_source_set_enabled(c->io, SD_EVENT_OFF) < 0 ||
		    client_arm(c, when) < 0)
			client_free(c);
		return;
	}
	s->stats.built++;
	r = build(c);
	if (r)
		shared_add(s, &key, r, now_usec());
	client_send(c, r);
}

static void client_reply(struct client *c, size_t req_len)
{
	char err[512];
	int r;

	r = uk_ctl_parse(&c->peer, c->in, req_len, &c->req, err, sizeof(err));
	if (r < 0) {
		client_reply_error(c, r, err);
		return;
	}
	if (c->peer.uid != 0) {
		client_serve_other(c);
		return;
	}
	client_send(c, build(c));
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

	if (c->waiting && now_usec() < c->deadline_usec) {
		client_serve_other(c);
		return 0;
	}
	if (!c->out)
		send_error_and_forget(c->fd, -ETIMEDOUT, c->waiting ?
				      "uaccessd was too busy to answer in time" :
				      "no complete request in time");
	client_free(c);
	return 0;
}

/* Root, or in a group that may read the journal (journal_gids). */
static bool reads_journal(const struct uk_ctl_server *s, int fd,
			  const struct ucred *cred)
{
	gid_t groups[PEER_GROUPS_MAX];
	socklen_t sl = sizeof(groups);
	unsigned int i, k, n;

	if (cred->uid == 0)
		return true;
	for (i = 0; i < s->n_journal_gids; i++)
		if (cred->gid == s->journal_gids[i])
			return true;
	if (!s->n_journal_gids ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &sl) < 0)
		return false;	/* more than PEER_GROUPS_MAX: ERANGE, no */
	n = sl / sizeof(gid_t);
	for (k = 0; k < n; k++)
		for (i = 0; i < s->n_journal_gids; i++)
			if (groups[k] == s->journal_gids[i])
				return true;
	return false;
}

/* NULL if @uid may connect now, else why not. */
static const char *refusal(const struct uk_ctl_server *s, uid_t uid,
			   char *msg, size_t len)
{
	const struct uk_ctl_limits *l = &s->lim;
	unsigned int same = 0, others = 0;
	const struct client *c;

	if (uid != 0) {
		for (c = s->clients; c; c = c->next) {
			others += c->peer.uid != 0;
			same += c->peer.uid == uid;
		}
		if (same >= l->max_per_uid) {
			snprintf(msg, len, "too many connections of uid %u (%u), try again",
				 (unsigned int)uid, l->max_per_uid);
			return msg;
		}
	}
	/* Root's are counted in all; the last root_reserved are root's. */
	if (s->n_clients >= l->max_clients ||
	    (uid != 0 && others + l->root_reserved >= l->max_clients)) {
		snprintf(msg, len, "too many clients (%u), try again",
			 l->max_clients);
		return msg;
	}
	return NULL;
}

static int client_new(struct uk_ctl_server *s, int fd)
{
	struct ucred cred;
	socklen_t sl = sizeof(cred);
	struct client *c;
	char msg[96];
	int r;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &sl) < 0)
		return -errno;
	if (refusal(s, cred.uid, msg, sizeof(msg))) {
		if (cred.uid != 0)
			s->stats.refused++;
		send_error_and_forget(fd, -EBUSY, msg);
		return -EBUSY;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->srv = s;
	c->fd = fd;
	c->peer = (struct uk_peer){
		.pid = cred.pid,
		.uid = cred.uid,
		.gid = cred.gid,
		.journal_reader = reads_journal(s, fd, &cred),
	};
	c->req.cmd = _UK_CTL_CMD_MAX;
	c->deadline_usec = now_usec() + s->lim.deadline_usec;
	r = sd_event_add_io(s->event, &c->io, fd, EPOLLIN, client_io, c);
	if (r < 0)
		goto fail;
	r = sd_event_add_time(s->event, &c->timer, CLOCK_MONOTONIC, 0,
			      10 * 1000ULL, client_timeout, c);
	if (r < 0)
		goto fail;
	if (sd_event_source_set_priority(c->io, CLIENT_PRIORITY) < 0 ||
	    sd_event_source_set_priority(c->timer, CLIENT_PRIORITY) < 0 ||
	    client_restart_timer(c) < 0) {
		r = -ENOMEM;
		goto fail;
	}
	c->next = s->clients;
	if (c->next)
		c->next->prev = c;
	s->clients = c;
	s->n_clients++;
	return 0;
fail:
	sd_event_source_disable_unref(c->io);
	sd_event_source_disable_unref(c->timer);
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
		if (client_new(s, fd) < 0)
			close(fd);
	}
	return 0;
}

/*
 * The groups whose members may read the system journal: their members
 * see the tasks in samples, as they see them in the journal.  Looked up
 * once: a group created later counts from the next start.
 */
static void journal_groups(struct uk_ctl_server *s)
{
	static const char *const names[] = { "systemd-journal", "adm" };
	struct group gr, *res;
	char buf[4096];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (getgrnam_r(names[i], &gr, buf, sizeof(buf), &res) == 0 &&
		    res)
			s->journal_gids[s->n_journal_gids++] = gr.gr_gid;
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
	s->lim = (struct uk_ctl_limits)UK_CTL_LIMITS_DEFAULT;
	journal_groups(s);
	r = sd_event_add_io(e, &s->listen_src, fd, EPOLLIN, listen_io, s);
	if (r < 0)
		goto fail;
	r = sd_event_add_time(e, &s->shared_src, CLOCK_MONOTONIC, 0, 0,
			      shared_timer, s);
	if (r < 0)
		goto fail;
	if (sd_event_source_set_enabled(s->shared_src, SD_EVENT_OFF) < 0 ||
	    sd_event_source_set_priority(s->listen_src, CLIENT_PRIORITY) < 0) {
		r = -ENOMEM;
		goto fail;
	}
	*ret = s;
	return 0;
fail:
	sd_event_source_disable_unref(s->listen_src);
	sd_event_source_disable_unref(s->shared_src);
	sd_event_unref(s->event);
	free(s);
	return r;
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
	unsigned int i;
	struct stat st;

	if (!s)
		return;
	while (s->clients)
		client_free(s->clients);
	for (i = 0; i < SHARED_SLOTS; i++)
		shared_drop(s, &s->shared[i]);
	sd_event_source_disable_unref(s->shared_src);
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

void uk_ctl_server_set_limits(struct uk_ctl_server *s,
			      const struct uk_ctl_limits *l)
{
	s->lim = *l;
}

void uk_ctl_server_get_limits(const struct uk_ctl_server *s,
			      struct uk_ctl_limits *l)
{
	*l = s->lim;
}

void uk_ctl_server_stats(const struct uk_ctl_server *s,
			 struct uk_ctl_stats *st)
{
	*st = s->stats;
}

unsigned int uk_ctl_server_clients(const struct uk_ctl_server *s)
{
	return s->n_clients;
}
