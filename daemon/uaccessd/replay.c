// SPDX-License-Identifier: GPL-2.0
/*
 * Replay files of recorded netlink messages, see replay.h and
 * docs/replay-format.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/why.h"
#include "common/util.h"
#include "replay.h"

struct uk_replay_header {
	char magic[UK_REPLAY_MAGIC_LEN];
	uint16_t version;
	uint16_t family;
	uint32_t reserved;
};

_Static_assert(sizeof(struct uk_replay_header) == UK_REPLAY_HDRLEN,
	       "replay header layout");

void uk_replay_close(struct uk_replay *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->size);
	free(r->alloc);
	memset(r, 0, sizeof(*r));
}

static int uk_replay_check_header(struct uk_replay *r, char *why,
				  size_t whylen)
{
	struct uk_replay_header h;

	if (r->size > UK_REPLAY_MAX_SIZE) {
		uk_why(why, whylen, "%zu bytes, more than the %llu allowed",
		       r->size, UK_REPLAY_MAX_SIZE);
		return -EFBIG;
	}
	if (r->size < sizeof(h)) {
		uk_why(why, whylen,
		       "offset 0: truncated replay header, %zu of %d bytes",
		       r->size, UK_REPLAY_HDRLEN);
		return -EBADMSG;
	}
	memcpy(&h, r->data, sizeof(h));
	if (memcmp(h.magic, UK_REPLAY_MAGIC, UK_REPLAY_MAGIC_LEN)) {
		uk_why(why, whylen, "offset 0: bad magic, not a replay file");
		return -EBADMSG;
	}
	if (h.version != UK_REPLAY_VERSION) {
		uk_why(why, whylen, "offset 8: unsupported version %u (not %d)",
		       h.version, UK_REPLAY_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (h.family < NLMSG_MIN_TYPE) {
		uk_why(why, whylen,
		       "offset 10: family id %u is not a generic netlink family",
		       h.family);
		return -EBADMSG;
	}
	if (h.reserved) {
		uk_why(why, whylen, "offset 12: reserved field is 0x%x, not 0",
		       h.reserved);
		return -EBADMSG;
	}
	r->family = h.family;
	r->pos = sizeof(h);
	return 0;
}

int uk_replay_open_mem(struct uk_replay *r, const void *buf, size_t len,
		       char *why, size_t whylen)
{
	int err;

	if (!r || (!buf && len))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->data = buf;
	r->size = len;
	/* Messages are returned in place: they must be 4-byte aligned. */
	if ((uintptr_t)buf % NLMSG_ALIGNTO && len <= UK_REPLAY_MAX_SIZE) {
		r->alloc = malloc(len);
		if (!r->alloc) {
			uk_why(why, whylen, "no memory for %zu bytes", len);
			return -ENOMEM;
		}
		memcpy(r->alloc, buf, len);
		r->data = r->alloc;
	}
	err = uk_replay_check_header(r, why, whylen);
	if (err < 0)
		uk_replay_close(r);
	return err;
}

/*
 * Reads a whole stream into a malloc()ed buffer, at most
 * UK_REPLAY_MAX_SIZE bytes; @rd returns the bytes read, 0 at the end or a
 * negative errno.
 */
static int uk_slurp(ssize_t (*rd)(void *src, void *buf, size_t len),
		    void *src, uint8_t **out, size_t *outlen,
		    char *why, size_t whylen)
{
	size_t size = 0, cap = 0;
	uint8_t *buf = NULL, *nbuf;
	ssize_t n;

	for (;;) {
		if (size == cap) {
			/* Full at UK_REPLAY_MAX_SIZE + 1: too big. */
			if (cap > UK_REPLAY_MAX_SIZE) {
				free(buf);
				uk_why(why, whylen,
				       "more than the %llu bytes allowed",
				       UK_REPLAY_MAX_SIZE);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 65536;
			if (cap > UK_REPLAY_MAX_SIZE)
				cap = UK_REPLAY_MAX_SIZE + 1;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				free(buf);
				uk_why(why, whylen, "no memory for %zu bytes",
				       cap);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = rd(src, buf + size, cap - size);
		if (n < 0) {
			free(buf);
			uk_why(why, whylen, "read error at offset %zu: %s",
			       size, strerror((int)-n));
			return (int)n;
		}
		if (!n)
			break;
		size += (size_t)n;
	}
	*out = buf;
	*outlen = size;
	return 0;
}

static ssize_t uk_read_fp(void *src, void *buf, size_t len)
{
	FILE *fp = src;
	size_t n = fread(buf, 1, len, fp);

	if (!n && ferror(fp))
		return -EIO;
	return (ssize_t)n;
}

static ssize_t uk_read_fd(void *src, void *buf, size_t len)
{
	int fd = *(int *)src;
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* Takes ownership of @buf (malloc()ed, so aligned). */
static int uk_replay_open_owned(struct uk_replay *r, uint8_t *buf,
				size_t len, char *why, size_t whylen)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->alloc = buf;
	r->data = buf;
	r->size = len;
	err = uk_replay_check_header(r, why, whylen);
	if (err < 0)
		uk_replay_close(r);
	return err;
}

int uk_replay_open_fp(struct uk_replay *r, FILE *fp, char *why,
		      size_t whylen)
{
	uint8_t *buf;
	size_t len;
	int err;

	if (!r || !fp)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	err = uk_slurp(uk_read_fp, fp, &buf, &len, why, whylen);
	if (err < 0)
		return err;
	return uk_replay_open_owned(r, buf, len, why, whylen);
}

int uk_replay_open(struct uk_replay *r, const char *path, char *why,
		   size_t whylen)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	uint8_t *buf;
	size_t len;
	void *map;
	int err;

	if (!r || !path)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		uk_why(why, whylen, "cannot open: %s", strerror(errno));
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		uk_why(why, whylen, "cannot stat: %s", strerror(errno));
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		err = uk_slurp(uk_read_fd, &fd, &buf, &len, why, whylen);
		if (err < 0)
			return err;
		return uk_replay_open_owned(r, buf, len, why, whylen);
	}
	if ((uint64_t)st.st_size > UK_REPLAY_MAX_SIZE) {
		uk_why(why, whylen, "%lld bytes, more than the %llu allowed",
		       (long long)st.st_size, UK_REPLAY_MAX_SIZE);
		return -EFBIG;
	}
	if ((size_t)st.st_size < UK_REPLAY_HDRLEN) {
		/* Too short to map usefully; let the header check say so. */
		err = uk_slurp(uk_read_fd, &fd, &buf, &len, why, whylen);
		if (err < 0)
			return err;
		return uk_replay_open_owned(r, buf, len, why, whylen);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		err = -errno;
		uk_why(why, whylen, "cannot map: %s", strerror(errno));
		return err;
	}
	r->map = map;
	r->data = map;
	r->size = (size_t)st.st_size;
	err = uk_replay_check_header(r, why, whylen);
	if (err < 0)
		uk_replay_close(r);
	return err;
}

uint16_t uk_replay_family(const struct uk_replay *r)
{
	return r->family;
}

size_t uk_replay_offset(const struct uk_replay *r)
{
	return r->pos;
}

int uk_replay_next(struct uk_replay *r, const struct nlmsghdr **nlh,
		   size_t *len, char *why, size_t whylen)
{
	struct nlmsghdr h;
	size_t rem, step;

	if (!r || !nlh || !len || !r->data)
		return -EINVAL;
	if (r->err) {
		uk_why(why, whylen, "%s", r->errwhy);
		return r->err;
	}
	rem = r->size - r->pos;
	if (!rem)
		return 0;
	if (rem < NLMSG_HDRLEN) {
		snprintf(r->errwhy, sizeof(r->errwhy),
			 "offset %zu: truncated message header, %zu bytes left",
			 r->pos, rem);
		goto bad;
	}
	memcpy(&h, r->data + r->pos, sizeof(h));
	/* A length below the header's would never advance. */
	if (h.nlmsg_len < NLMSG_HDRLEN) {
		snprintf(r->errwhy, sizeof(r->errwhy),
			 "offset %zu: nlmsg_len %u < %d", r->pos, h.nlmsg_len,
			 NLMSG_HDRLEN);
		goto bad;
	}
	if (h.nlmsg_len > rem) {
		snprintf(r->errwhy, sizeof(r->errwhy),
			 "offset %zu: truncated message, nlmsg_len %u > %zu bytes left",
			 r->pos, h.nlmsg_len, rem);
		goto bad;
	}
	*nlh = (const struct nlmsghdr *)(r->data + r->pos);
	*len = h.nlmsg_len;
	/* The padding of the last message may be missing. */
	step = NLMSG_ALIGN(h.nlmsg_len);
	r->pos += step < rem ? step : rem;
	return 1;
bad:
	r->err = -EBADMSG;
	uk_why(why, whylen, "%s", r->errwhy);
	return r->err;
}

/* Writer */

static int uk_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int uk_replay_writer_fd(struct uk_replay_writer *w, int fd, uint16_t family)
{
	struct uk_replay_header h = {
		.version = UK_REPLAY_VERSION,
		.family = family,
	};

	if (!w)
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	if (fd < 0 || family < NLMSG_MIN_TYPE)
		return -EINVAL;
	memcpy(h.magic, UK_REPLAY_MAGIC, UK_REPLAY_MAGIC_LEN);
	w->fd = fd;
	w->err = uk_write_all(fd, &h, sizeof(h));
	w->size = sizeof(h);
	return w->err;
}

int uk_replay_create(struct uk_replay_writer *w, const char *path,
		     uint16_t family)
{
	int fd, err;

	if (!w || !path || family < NLMSG_MIN_TYPE)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	err = uk_replay_writer_fd(w, fd, family);
	w->own_fd = true;
	if (err < 0) {
		uk_replay_writer_close(w, false);
		return err;
	}
	return 0;
}

int uk_replay_write(struct uk_replay_writer *w, const struct nlmsghdr *nlh,
		    size_t len)
{
	static const uint8_t pad[NLMSG_ALIGNTO];
	struct nlmsghdr h;
	size_t padlen;

	if (!w || !nlh || w->fd < 0)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(&h, nlh, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
		return -EINVAL;
	padlen = NLMSG_ALIGN(h.nlmsg_len) - h.nlmsg_len;
	if (w->size + h.nlmsg_len + padlen > UK_REPLAY_MAX_SIZE)
		return -EFBIG;
	w->err = uk_write_all(w->fd, nlh, h.nlmsg_len);
	if (!w->err)
		w->err = uk_write_all(w->fd, pad, padlen);
	if (w->err)
		return w->err;
	w->size += h.nlmsg_len + padlen;
	return 0;
}

int uk_replay_writer_close(struct uk_replay_writer *w, bool sync)
{
	int err;

	if (!w)
		return -EINVAL;
	err = w->err;
	if (w->fd >= 0) {
		if (sync && fsync(w->fd) < 0 && !err)
			err = -errno;
		if (w->own_fd && close(w->fd) < 0 && !err)
			err = -errno;
	}
	w->fd = -1;
	w->own_fd = false;
	w->err = 0;
	return err;
}
