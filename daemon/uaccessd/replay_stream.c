// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>

#include "common/time.h"
#include "common/nl.h"
#include "replay.h"
#include "replay_stream.h"

struct uk_replay_stream {
	sd_event_source *src;
	struct uk_pipeline *p;
	void (*done)(int err, const char *why, void *data);
	void *data;
	bool sock;		/* recv(MSG_DONTWAIT), not read() */
	bool have_header;
	size_t len;
	/* a header or one message of at most UK_NL_BUFSIZE, with room to read */
	uint8_t buf[2 * UK_NL_BUFSIZE] __attribute__((aligned(8)));
};

static void finish(struct uk_replay_stream *s, int err, const char *why)
{
	sd_event_source_set_enabled(s->src, SD_EVENT_OFF);
	s->done(err, why, s->data);
}

/* Take every complete message; -EBADMSG with @why on a corrupt one. */
static int consume(struct uk_replay_stream *s, char *why, size_t whylen)
{
	size_t off = 0, step;
	struct uk_replay r;
	uint32_t mlen;

	if (!s->have_header) {
		if (s->len < UK_REPLAY_HDRLEN)
			return 0;
		if (uk_replay_open_mem(&r, s->buf, UK_REPLAY_HDRLEN, why,
				       whylen) < 0)
			return -EBADMSG;
		s->p->family = uk_replay_family(&r);
		uk_replay_close(&r);
		s->have_header = true;
		off = UK_REPLAY_HDRLEN;
	}
	while (s->len - off >= NLMSG_HDRLEN) {
		memcpy(&mlen, s->buf + off, sizeof(mlen));
		if (mlen < NLMSG_HDRLEN || mlen > UK_NL_BUFSIZE) {
			snprintf(why, whylen, "message length %u out of range",
				 mlen);
			return -EBADMSG;
		}
		step = NLMSG_ALIGN(mlen);
		if (s->len - off < step)
			break;
		uk_pipeline_datagram(s->p, s->buf + off, mlen, uk_time_now_ns());
		off += step;
	}
	memmove(s->buf, s->buf + off, s->len - off);
	s->len -= off;
	return 0;
}

static int on_read(sd_event_source *src, int fd, uint32_t revents,
		   void *userdata)
{
	struct uk_replay_stream *s = userdata;
	char why[160] = "";
	ssize_t n;

	/*
	 * One read per wakeup: a pipe, FIFO or terminal that epoll says is
	 * readable (or at its end) returns what it holds without blocking,
	 * whatever O_NONBLOCK says; a socket is told not to wait.
	 */
	if (s->sock)
		n = recv(fd, s->buf + s->len, sizeof(s->buf) - s->len,
			 MSG_DONTWAIT);
	else
		n = read(fd, s->buf + s->len, sizeof(s->buf) - s->len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		snprintf(why, sizeof(why), "read: %s", strerror(errno));
		finish(s, -errno, why);
		return 0;
	}
	if (n == 0) {
		uint32_t mlen;

		/* As the file reader: the last message may lack its padding. */
		if (s->have_header && s->len >= NLMSG_HDRLEN) {
			memcpy(&mlen, s->buf, sizeof(mlen));
			if (mlen >= NLMSG_HDRLEN && mlen <= s->len &&
			    s->len < NLMSG_ALIGN(mlen)) {
				uk_pipeline_datagram(s->p, s->buf, mlen, uk_time_now_ns());
				s->len = 0;
			}
		}
		if (s->len || !s->have_header)
			finish(s, -EBADMSG, s->have_header ?
			       "stream ends inside a message" :
			       "stream ends before its header");
		else
			finish(s, 0, "");
		return 0;
	}
	s->len += (size_t)n;
	if (consume(s, why, sizeof(why)) < 0)
		finish(s, -EBADMSG, why);
	return 0;
}

int uk_replay_stream_new(sd_event *e, int fd, struct uk_pipeline *p,
			 void (*done)(int err, const char *why, void *data),
			 void *data, struct uk_replay_stream **ret)
{
	struct uk_replay_stream *s = calloc(1, sizeof(*s));
	struct stat st;
	int r;

	if (!s)
		return -ENOMEM;
	s->sock = fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
	s->p = p;
	s->done = done;
	s->data = data;
	r = sd_event_add_io(e, &s->src, fd, EPOLLIN, on_read, s);
	if (r < 0) {
		free(s);
		return r;
	}
	sd_event_source_set_io_fd_own(s->src, 1);
	*ret = s;
	return 0;
}

void uk_replay_stream_free(struct uk_replay_stream *s)
{
	if (!s)
		return;
	sd_event_source_disable_unref(s->src);
	free(s);
}
