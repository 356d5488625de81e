/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay files: recorded uaccess_kaddr netlink traffic, played back by
 * `uaccessd --replay FILE`, the tests, the fuzzer and the benchmarks.
 * docs/replay-format.md describes the format; in short:
 *
 *   offset 0   8 bytes  magic "UKREPLAY" (no NUL)
 *          8   u16      version, 1
 *         10   u16      generic netlink family id the messages were
 *                       recorded with (their nlmsg_type)
 *         12   u32      reserved, 0
 *         16            the netlink messages exactly as received, each
 *                       at a 4-byte aligned offset: the next one starts
 *                       NLMSG_ALIGN(nlmsg_len) bytes after the previous.
 *
 * Integers are in host byte order, like the netlink messages themselves:
 * a file is read on the kind of machine that recorded it.  Messages of
 * other types (NLMSG_DONE ending a dump, NLMSG_ERROR) are kept as they
 * came: the reader returns every message and the caller dispatches on
 * nlmsg_type.
 */
#ifndef UK_REPLAY_H
#define UK_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/netlink.h>

#define UK_REPLAY_MAGIC		"UKREPLAY"
#define UK_REPLAY_MAGIC_LEN	8
#define UK_REPLAY_VERSION	1
#define UK_REPLAY_HDRLEN	16
/* Largest file read or written: the reader maps or loads it whole. */
#define UK_REPLAY_MAX_SIZE	(1ULL << 30)

/*
 * A reader.  The fields are private; the struct is public so that a
 * reader can live on the stack.  Reasons in @why name the byte offset of
 * the problem.  After an error uk_replay_next() keeps returning it.
 */
struct uk_replay {
	const uint8_t *data;
	size_t size;
	size_t pos;
	uint16_t family;
	int err;
	void *map;		/* mmap()ed file, or NULL */
	void *alloc;		/* malloc()ed copy, or NULL */
	char errwhy[128];
};

/*
 * Opens a reader over @len bytes at @buf, which must outlive it (unless
 * @buf is not 4-byte aligned: it is then copied, so that every message is
 * returned aligned).  Checks the file header.  Returns 0, -EBADMSG for a
 * short or corrupt header, -EPROTONOSUPPORT for another version, -ENOMEM.
 */
int uk_replay_open_mem(struct uk_replay *r, const void *buf, size_t len,
		       char *why, size_t whylen);

/* Reads @fp to its end (a pipe works), then as uk_replay_open_mem(). */
int uk_replay_open_fp(struct uk_replay *r, FILE *fp, char *why,
		      size_t whylen);

/*
 * Maps the file at @path (or reads it when it is not a regular file).
 * The file must not shrink while it is open.  -EFBIG beyond
 * UK_REPLAY_MAX_SIZE, or the errno of open/read.
 */
int uk_replay_open(struct uk_replay *r, const char *path, char *why,
		   size_t whylen);

/* Family id from the file header. */
uint16_t uk_replay_family(const struct uk_replay *r);

/*
 * The next message: 1 with *@nlh and *@len (== nlmsg_len) set, 0 at the
 * end of the file, -EBADMSG for a truncated or corrupt message (a length
 * below the header's or beyond the end of the file).  The message stays
 * valid until uk_replay_close().
 */
int uk_replay_next(struct uk_replay *r, const struct nlmsghdr **nlh,
		   size_t *len, char *why, size_t whylen);

/* Offset in the file of the next message. */
size_t uk_replay_offset(const struct uk_replay *r);

void uk_replay_close(struct uk_replay *r);

/* A writer.  Fields private; errors are sticky. */
struct uk_replay_writer {
	int fd;
	bool own_fd;
	int err;
	uint64_t size;
};

/*
 * Creates (or truncates) @path, mode 0600 (events carry kernel addresses),
 * and writes the file header; a symlink at @path is refused (-ELOOP).
 * Returns 0 or a negative errno.
 */
int uk_replay_create(struct uk_replay_writer *w, const char *path,
		     uint16_t family);

/* The same on an open @fd, which uk_replay_writer_close() leaves open. */
int uk_replay_writer_fd(struct uk_replay_writer *w, int fd, uint16_t family);

/*
 * Appends the message at @nlh (nlmsg_len bytes of the @len available) and
 * its padding.  -EINVAL if nlmsg_len is below the header's or beyond @len,
 * -EFBIG beyond UK_REPLAY_MAX_SIZE, or the errno of write().
 */
int uk_replay_write(struct uk_replay_writer *w, const struct nlmsghdr *nlh,
		    size_t len);

/*
 * fsync()s when @sync, closes a file it opened; returns the first error of
 * the writer's life, so that a failed write is reported at the latest here.
 */
int uk_replay_writer_close(struct uk_replay_writer *w, bool sync);

#endif /* UK_REPLAY_H */
