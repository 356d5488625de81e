// SPDX-License-Identifier: GPL-2.0
/*
 * Requests to the uaccess_kaddr family and its events group, with libnl-3.
 *
 * Requests run on a blocking socket of their own with a receive timeout,
 * so a dump never mixes with multicast traffic; events get a non-blocking
 * socket that the caller polls.  Errors carry the kernel's extack message.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "nl.h"
#include "why.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED		0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS		0x200
#endif

#define UK_NL_TIMEOUT_MS	5000

struct uk_nl {
	struct nl_sock *req;	/* requests and replies */
	struct nl_sock *ev;	/* the events group, or NULL */
	int family;
	int grp;
};

/* One request in flight: what the callbacks found. */
struct uk_call {
	int error;		/* kernel errno (negative), or 0 */
	bool done;
	char *why;
	size_t whylen;
	int cmd;		/* the reply command to parse */
	int (*site_cb)(const struct uk_site *site, void *data);
	void *data;
	void *out;		/* struct uk_status for status replies */
	int parse_err;
	unsigned int replies;
	uint32_t seq;		/* of the request: replies to others are old */
};

static int sockopt(struct nl_sock *sk, int level, int name, int val)
{
	if (setsockopt(nl_socket_get_fd(sk), level, name, &val,
		       sizeof(val)) < 0)
		return -errno;
	return 0;
}

/*
 * libnl's NLE_* codes back to the errno a caller can act on.  libnl
 * says why it failed with its code alone: errno may be left over from
 * before the call, so it is never read after one.  -ENOENT is for
 * NLE_OBJ_NOTFOUND only (the family or group is not there), which
 * callers take for "the kernel lacks uaccess_kaddr".
 */
static int nle_to_errno(int nle)
{
	switch (-nle) {
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_MSG_OVERFLOW:
		return -EBADMSG;
	case NLE_NOADDR:
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_BAD_SOCK:
		return -ENOTSOCK;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_NODEV:
		return -ENODEV;
	default:
		/*
		 * Not -EINVAL nor -ERANGE for NLE_INVAL, NLE_RANGE: those
		 * are the kernel refusing a setting (uaccessctl set).
		 */
		return -EIO;
	}
}

/* A connected generic netlink socket in *@ret, or a negative errno. */
static int sock_new(struct nl_sock **ret)
{
	struct nl_sock *sk = nl_socket_alloc();
	int r;

	*ret = NULL;
	if (!sk)
		return -ENOMEM;
	r = genl_connect(sk);
	if (r < 0) {
		nl_socket_free(sk);
		return nle_to_errno(r);
	}
	*ret = sk;
	return 0;
}

int uk_nl_open(struct uk_nl **ret)
{
	struct timeval tv = { UK_NL_TIMEOUT_MS / 1000, 0 };
	struct uk_nl *nl;
	int r;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	r = sock_new(&nl->req);
	if (r < 0)
		goto err;
	nl->family = genl_ctrl_resolve(nl->req, UACCESS_KADDR_FAMILY_NAME);
	if (nl->family < 0) {
		r = nle_to_errno(nl->family);
		goto err;
	}
	nl->grp = genl_ctrl_resolve_grp(nl->req, UACCESS_KADDR_FAMILY_NAME,
					UACCESS_KADDR_MCGRP_EVENTS);
	if (nl->grp < 0) {
		r = nle_to_errno(nl->grp);
		goto err;
	}
	sockopt(nl->req, SOL_NETLINK, NETLINK_EXT_ACK, 1);
	sockopt(nl->req, SOL_NETLINK, NETLINK_CAP_ACK, 1);
	if (setsockopt(nl_socket_get_fd(nl->req), SOL_SOCKET, SO_RCVTIMEO,
		       &tv, sizeof(tv)) < 0) {
		r = -errno;
		goto err;
	}
	/* Dumps of many sites come in large datagrams. */
	nl_socket_set_msg_buf_size(nl->req, UK_NL_BUFSIZE);
	*ret = nl;
	return 0;
err:
	uk_nl_close(nl);
	return r;
}

void uk_nl_close(struct uk_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev)
		nl_socket_free(nl->ev);
	if (nl->req)
		nl_socket_free(nl->req);
	free(nl);
}

uint16_t uk_nl_family(const struct uk_nl *nl)
{
	return (uint16_t)nl->family;
}

/* NLMSGERR_ATTR_MSG of an error or done message, from @off on. */
static void extack_msg(const struct nlmsghdr *nlh, size_t off,
		       struct uk_call *call)
{
	struct nlattr *nla;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	nla_for_each_attr(nla, (struct nlattr *)((char *)nlh + off),
			  (int)(nlh->nlmsg_len - off), rem) {
		if (nla_type(nla) == NLMSGERR_ATTR_MSG && nla_len(nla) > 0 &&
		    call->why && call->whylen)
			snprintf(call->why, call->whylen, "%.*s",
				 (int)strnlen(nla_data(nla), nla_len(nla)),
				 (const char *)nla_data(nla));
	}
}

static int cb_valid(struct nl_msg *msg, void *arg)
{
	struct uk_call *call = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	size_t len = nlh->nlmsg_len;
	struct uk_site site;
	char why[160] = "";
	int r;

	call->replies++;
	/* set-config echoes its command: nothing to parse. */
	if (call->parse_err || (!call->site_cb && !call->out))
		return NL_SKIP;
	if (call->site_cb) {
		r = uk_site_parse(nlh, len, &site, why, sizeof(why));
		if (r == 0)
			r = call->site_cb(&site, call->data);
	} else {
		r = uk_status_parse(nlh, len, call->out, why, sizeof(why));
	}
	if (r < 0) {
		call->parse_err = r;
		if (call->why && call->whylen && why[0])
			snprintf(call->why, call->whylen, "%s", why);
	}
	return NL_OK;
}

static int cb_finish(struct nl_msg *msg, void *arg)
{
	struct uk_call *call = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0) {
			call->error = err;
			extack_msg(nlh, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(err)),
				   call);
		}
	}
	call->done = true;
	return NL_STOP;
}

/* A reply to an earlier request that timed out is skipped, not taken. */
static int cb_seq(struct nl_msg *msg, void *arg)
{
	struct uk_call *call = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == call->seq ? NL_OK : NL_SKIP;
}

static int cb_ack(struct nl_msg *msg, void *arg)
{
	struct uk_call *call = arg;

	call->done = true;
	return NL_STOP;
}

static int cb_err(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	struct uk_call *call = arg;
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	if (nlh->nlmsg_seq != call->seq)
		return NL_SKIP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	call->error = e->error;
	extack_msg(nlh, off, call);
	call->done = true;
	return NL_STOP;
}

/*
 * Send @msg (consumed) with NLM_F_ACK and read until the ACK, the error or
 * the end of the dump.  Replies go through cb_valid().
 */
static int request(struct uk_nl *nl, struct nl_msg *msg, struct uk_call *call)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int r;

	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, cb_valid, call);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, cb_finish, call);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, cb_ack, call);
	nl_cb_err(cb, NL_CB_CUSTOM, cb_err, call);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, cb_seq, call);

	r = nl_send_auto(nl->req, msg);
	call->seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (r < 0) {
		r = nle_to_errno(r);
		goto out;
	}
	while (!call->done) {
		r = nl_recvmsgs(nl->req, cb);
		if (r < 0 && !call->done) {
			r = r == -NLE_AGAIN ? -ETIMEDOUT : nle_to_errno(r);
			goto out;
		}
	}
	r = 0;
	if (call->error < 0) {
		r = call->error;
		if (call->why && call->whylen && !call->why[0])
			uk_why(call->why, call->whylen, "%s", strerror(-r));
	} else if (call->parse_err < 0) {
		r = call->parse_err;
	}
out:
	nl_cb_put(cb);
	return r;
}

static struct nl_msg *msg_new(const struct uk_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags | NLM_F_ACK, (uint8_t)cmd,
				UACCESS_KADDR_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int status_request(struct uk_nl *nl, int cmd, struct uk_status *st,
			  char *why, size_t whylen)
{
	struct uk_call call = { .why = why, .whylen = whylen, .out = st };
	struct nl_msg *msg = msg_new(nl, cmd, 0);
	int r;

	if (why && whylen)
		why[0] = '\0';
	if (!msg)
		return -ENOMEM;
	r = request(nl, msg, &call);
	if (r == 0 && call.replies != 1) {
		uk_why(why, whylen, "expected one status reply");
		r = -EPROTO;
	}
	return r;
}

int uk_nl_get_status(struct uk_nl *nl, struct uk_status *st,
		     char *why, size_t whylen)
{
	return status_request(nl, UACCESS_KADDR_CMD_GET_STATUS, st, why,
			      whylen);
}

int uk_nl_reset(struct uk_nl *nl, struct uk_status *old,
		char *why, size_t whylen)
{
	return status_request(nl, UACCESS_KADDR_CMD_RESET, old, why, whylen);
}

int uk_nl_set_config(struct uk_nl *nl, const uint32_t *mode,
		     const uint32_t *interval_ms, const uint32_t *burst,
		     char *why, size_t whylen)
{
	struct uk_call call = { .why = why, .whylen = whylen };
	struct nl_msg *msg = msg_new(nl, UACCESS_KADDR_CMD_SET_CONFIG, 0);

	if (why && whylen)
		why[0] = '\0';
	if (!msg)
		return -ENOMEM;
	if ((mode && nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_MODE, *mode)) ||
	    (interval_ms &&
	     nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS,
			 *interval_ms)) ||
	    (burst &&
	     nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST, *burst))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return request(nl, msg, &call);
}

int uk_nl_dump_sites(struct uk_nl *nl,
		     int (*cb)(const struct uk_site *site, void *data),
		     void *data, char *why, size_t whylen)
{
	struct uk_call call = {
		.why = why, .whylen = whylen, .site_cb = cb, .data = data,
	};
	struct nl_msg *msg = msg_new(nl, UACCESS_KADDR_CMD_DUMP_SITES,
				     NLM_F_DUMP);

	if (why && whylen)
		why[0] = '\0';
	if (!msg)
		return -ENOMEM;
	return request(nl, msg, &call);
}

int uk_nl_events_rcvbuf(struct uk_nl *nl, int rcvbuf)
{
	int fd;

	if (!nl->ev)
		return 0;
	fd = nl_socket_get_fd(nl->ev);
	/* Past net.core.rmem_max when we may; the plain size otherwise. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) < 0)
		return -errno;
	return 0;
}

int uk_nl_events_open(struct uk_nl *nl, int rcvbuf)
{
	int fd, r;

	if (nl->ev)
		return nl_socket_get_fd(nl->ev);
	r = sock_new(&nl->ev);
	if (r < 0)
		return r;
	fd = nl_socket_get_fd(nl->ev);
	/* Past net.core.rmem_max when we may; the plain size otherwise. */
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		       sizeof(rcvbuf)) < 0) {
		r = -errno;
		goto err;
	}
	r = nl_socket_add_membership(nl->ev, nl->grp);
	if (r < 0) {
		r = r == -NLE_PERM || r == -NLE_NOACCESS ? -EPERM :
		    nle_to_errno(r);
		goto err;
	}
	nl_socket_disable_seq_check(nl->ev);
	r = nl_socket_set_nonblocking(nl->ev);
	if (r < 0) {
		r = nle_to_errno(r);
		goto err;
	}
	return fd;
err:
	nl_socket_free(nl->ev);
	nl->ev = NULL;
	return r;
}

ssize_t uk_nl_events_recv(struct uk_nl *nl, void *buf, size_t len)
{
	ssize_t n;

	if (!nl->ev)
		return -EBADF;
	/* MSG_TRUNC: the real length, so a cut datagram is not taken whole. */
	n = recv(nl_socket_get_fd(nl->ev), buf, len, MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return (size_t)n > len ? -EMSGSIZE : n;
}

static int fcntl_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int uk_nl_ctrl_open(void)
{
	struct nl_sock *sk;
	int grp, fd, r;

	r = sock_new(&sk);
	if (r < 0)
		return r;
	grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	if (grp < 0) {
		r = nle_to_errno(grp);
		goto err;
	}
	r = nl_socket_add_membership(sk, grp);
	if (r < 0) {
		r = nle_to_errno(r);
		goto err;
	}
	/* Keep the fd, drop libnl's socket object around it. */
	fd = dup(nl_socket_get_fd(sk));
	r = fd < 0 ? -errno : fd;
	if (fd >= 0 && fcntl_nonblock(fd) < 0) {
		r = -errno;
		close(fd);
	}
err:
	nl_socket_free(sk);
	return r;
}

/* Is @nlh a controller message about our family, and which way? */
static enum uk_nl_family_change ctrl_about_us(const struct nlmsghdr *nlh,
					      size_t len)
{
	const struct genlmsghdr *g;
	const struct nlattr *nla;
	int rem;

	if (nlh->nlmsg_type != GENL_ID_CTRL || len < NLMSG_HDRLEN + GENL_HDRLEN)
		return UK_NL_FAMILY_NONE;
	g = NLMSG_DATA(nlh);
	if (g->cmd != CTRL_CMD_NEWFAMILY && g->cmd != CTRL_CMD_DELFAMILY &&
	    g->cmd != CTRL_CMD_NEWMCAST_GRP)
		return UK_NL_FAMILY_NONE;
	nla_for_each_attr(nla, (const struct nlattr *)((const char *)g + GENL_HDRLEN),
			  (int)(nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN), rem) {
		if (nla_type(nla) == CTRL_ATTR_FAMILY_NAME &&
		    nla_len(nla) == sizeof(UACCESS_KADDR_FAMILY_NAME) &&
		    !memcmp(nla_data(nla), UACCESS_KADDR_FAMILY_NAME,
			    sizeof(UACCESS_KADDR_FAMILY_NAME)))
			return g->cmd == CTRL_CMD_DELFAMILY ?
			       UK_NL_FAMILY_GONE : UK_NL_FAMILY_NEW;
	}
	return UK_NL_FAMILY_NONE;
}

static int ctrl_message(const struct nlmsghdr *nlh, size_t len, void *data)
{
	enum uk_nl_family_change *change = data;
	enum uk_nl_family_change about = ctrl_about_us(nlh, len);

	if (about != UK_NL_FAMILY_NONE)
		*change = about;
	return 0;
}

int uk_nl_ctrl_recv(int fd, enum uk_nl_family_change *change)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n;

	*change = UK_NL_FAMILY_NONE;
	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	/* A malformed tail ends the walk: what came before it counts. */
	uk_nl_walk(buf, (size_t)n, ctrl_message, change, NULL, 0);
	return 0;
}
