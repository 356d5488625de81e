/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uaccess_kaddr generic netlink family from userspace (libnl-3):
 * requests (get-status, set-config, dump-sites, reset), the "events"
 * multicast group, and the controller notifications that tell when the
 * family appears.  Shared by uaccessd and uaccessctl.
 */
#ifndef UK_NL_H
#define UK_NL_H

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <linux/netlink.h>

#include "event.h"
#include "why.h"

struct uk_nl;

/*
 * Open a request socket and resolve the family by name.  -ENOENT: the
 * kernel has no uaccess_kaddr family (not built with
 * CONFIG_DEBUG_UACCESS_KADDR, or not in this network namespace).
 */
int uk_nl_open(struct uk_nl **ret);
void uk_nl_close(struct uk_nl *nl);
uint16_t uk_nl_family(const struct uk_nl *nl);

/*
 * Requests.  A kernel error comes back as its negative errno, with the
 * extack message (or strerror) in @why.
 */
int uk_nl_get_status(struct uk_nl *nl, struct uk_status *st,
		     char *why, size_t whylen);
int uk_nl_reset(struct uk_nl *nl, struct uk_status *old,
		char *why, size_t whylen);
/* NULL leaves a setting alone. */
int uk_nl_set_config(struct uk_nl *nl, const uint32_t *mode,
		     const uint32_t *interval_ms, const uint32_t *burst,
		     char *why, size_t whylen);
/* @cb is called once per site; a negative return stops the dump. */
int uk_nl_dump_sites(struct uk_nl *nl,
		     int (*cb)(const struct uk_site *site, void *data),
		     void *data, char *why, size_t whylen);

/*
 * The events group on a socket of its own, non-blocking, with a receive
 * buffer of @rcvbuf bytes (forced past rmem_max when privileged).
 * -EPERM: joining needs CAP_SYS_ADMIN.  Returns the socket's fd.
 */
int uk_nl_events_open(struct uk_nl *nl, int rcvbuf);
/* A new receive buffer size for the events socket (configuration reload). */
int uk_nl_events_rcvbuf(struct uk_nl *nl, int rcvbuf);

/*
 * Read one datagram into @buf.  Returns its length, -EAGAIN when there is
 * none, -ENOBUFS when the kernel dropped messages because the receive
 * buffer was full (an overrun: the caller re-syncs), -EMSGSIZE for a
 * datagram larger than @len (dropped), other -errno.
 */
ssize_t uk_nl_events_recv(struct uk_nl *nl, void *buf, size_t len);

/*
 * A socket on the controller's "notify" group, to learn when the family
 * appears or goes.  Non-blocking; returns its fd.
 */
int uk_nl_ctrl_open(void);

/* What a controller datagram said of the uaccess_kaddr family. */
enum uk_nl_family_change {
	UK_NL_FAMILY_NONE,	/* nothing about it */
	UK_NL_FAMILY_NEW,	/* new family or new multicast group */
	UK_NL_FAMILY_GONE,	/* removed */
};

/* One datagram of @fd into *change: 0, -EAGAIN when none is queued. */
int uk_nl_ctrl_recv(int fd, enum uk_nl_family_change *change);

/* The largest datagram the family sends, for receive buffers. */
#define UK_NL_BUFSIZE	65536

/*
 * Calls @fn for each netlink message of the datagram @buf (@len bytes)
 * with the message's length, and stops at @fn's non-zero return, which
 * it returns.  A last message without its padding is fine.  After the
 * messages before it: -EBADMSG for a length below the header or past
 * the end ("message length L at offset O" in @why), -EMSGSIZE for bytes
 * after the last message too few for a header ("N stray bytes at offset
 * O").
 */
/* Inline: on uaccessd's hot path, @fn is called directly. */
static inline int uk_nl_walk(const void *buf, size_t len,
			     int (*fn)(const struct nlmsghdr *nlh, size_t len,
				       void *data),
			     void *data, char *why, size_t whylen)
{
	const char *p = buf;
	size_t off = 0;
	int r;

	while (len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr h;

		memcpy(&h, p + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off) {
			uk_why(why, whylen, "message length %" PRIu32
			       " at offset %zu", h.nlmsg_len, off);
			return -EBADMSG;
		}
		r = fn((const struct nlmsghdr *)(p + off), h.nlmsg_len, data);
		if (r)
			return r;
		if (NLMSG_ALIGN(h.nlmsg_len) >= len - off)
			return 0;
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	if (off < len) {
		uk_why(why, whylen, "%zu stray bytes at offset %zu", len - off,
		       off);
		return -EMSGSIZE;
	}
	return 0;
}

#endif /* UK_NL_H */
