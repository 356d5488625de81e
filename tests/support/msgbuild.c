// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding of decoded messages back into netlink, see msgbuild.h.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <linux/genetlink.h>

#include "msgbuild.h"

/* A bounded output buffer; @err is set by the first write that fails. */
struct uk_out {
	uint8_t *buf;
	size_t len;
	size_t pos;
	int err;
};

static void *uk_out_reserve(struct uk_out *o, size_t n)
{
	void *p;

	if (o->err || n > o->len - o->pos) {
		o->err = -EMSGSIZE;
		return NULL;
	}
	p = o->buf + o->pos;
	o->pos += n;
	return p;
}

/* Writes an attribute header; returns its offset, to close it later. */
static size_t uk_out_attr_start(struct uk_out *o, uint16_t type)
{
	size_t start = o->pos;
	struct nlattr h = { .nla_len = NLA_HDRLEN, .nla_type = type };
	void *p = uk_out_reserve(o, NLA_HDRLEN);

	if (p)
		memcpy(p, &h, sizeof(h));
	return start;
}

/* Pads to 4 bytes and sets nla_len from the bytes written since @start. */
static void uk_out_attr_end(struct uk_out *o, size_t start)
{
	size_t len = o->pos - start;
	uint16_t nla_len;
	void *p;

	if (o->err)
		return;
	if (len > UINT16_MAX) {
		o->err = -EMSGSIZE;
		return;
	}
	nla_len = (uint16_t)len;
	memcpy(o->buf + start, &nla_len, sizeof(nla_len));
	p = uk_out_reserve(o, NLA_ALIGN(len) - len);
	if (p)
		memset(p, 0, NLA_ALIGN(len) - len);
}

static void uk_out_attr(struct uk_out *o, uint16_t type, const void *data,
			size_t len)
{
	size_t start = uk_out_attr_start(o, type);
	void *p = uk_out_reserve(o, len);

	if (p)
		memcpy(p, data, len);
	uk_out_attr_end(o, start);
}

static void uk_out_string(struct uk_out *o, uint16_t type, const char *s,
			  size_t size)
{
	size_t n = strnlen(s, size);
	size_t start = uk_out_attr_start(o, type);
	uint8_t *p = uk_out_reserve(o, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	uk_out_attr_end(o, start);
}

/* A multi-attr: one attribute per argument, as the kernel sends them. */
static void uk_out_args(struct uk_out *o, int type, const char *p)
{
	struct uk_syscall_args args;
	uint32_t i;

	memcpy(&args, p, sizeof(args));
	for (i = 0; i < args.nr && i < UK_SYSCALL_ARGS; i++)
		uk_out_attr(o, type, &args.v[i], sizeof(args.v[i]));
}

static void uk_out_field(struct uk_out *o, const struct uk_field *f,
			 const void *src)
{
	const char *p = (const char *)src + f->offset;

	switch (f->type) {
	case UK_FT_U32:
	case UK_FT_S32:
	case UK_FT_HEX32:
	case UK_FT_ENUM:
		uk_out_attr(o, f->attr, p, sizeof(uint32_t));
		return;
	case UK_FT_U64:
	case UK_FT_HEX64:
		uk_out_attr(o, f->attr, p, sizeof(uint64_t));
		return;
	case UK_FT_STR:
		uk_out_string(o, f->attr, p, f->len);
		return;
	case UK_FT_ARGS:
		uk_out_args(o, f->attr, p);
		return;
	}
	o->err = -EINVAL;
}

static void uk_out_stack(struct uk_out *o, const struct uk_event *ev)
{
	unsigned int i, n = ev->nr_frames;
	size_t nest;

	if (n > UK_STACK_MAX)
		n = UK_STACK_MAX;
	for (i = 0; i < n; i++) {
		nest = uk_out_attr_start(o, UACCESS_KADDR_A_EVENT_STACK |
					    NLA_F_NESTED);
		uk_out_attr(o, UACCESS_KADDR_A_STACK_FRAME_IP,
			    &ev->frames[i].ip, sizeof(ev->frames[i].ip));
		uk_out_string(o, UACCESS_KADDR_A_STACK_FRAME_SYMBOL,
			      ev->frames[i].symbol,
			      sizeof(ev->frames[i].symbol));
		uk_out_attr_end(o, nest);
	}
}

/* @ev: the same object as @src when the stack is to be written. */
static int uk_msg_build(const struct uk_field *fields, const void *src,
			uint64_t present, const struct uk_event *ev,
			uint8_t cmd, uint16_t flags, uint16_t family,
			uint32_t seq_nl, void *buf, size_t buflen)
{
	struct uk_out o = { .buf = buf, .len = buflen };
	struct nlmsghdr h = {
		.nlmsg_type = family,
		.nlmsg_flags = flags,
		.nlmsg_seq = seq_nl,
	};
	struct genlmsghdr g = {
		.cmd = cmd,
		.version = UACCESS_KADDR_FAMILY_VERSION,
	};
	bool stack_done = !ev || !ev->nr_frames;
	const struct uk_field *f;
	void *p;

	if (!src || !buf)
		return -EINVAL;
	uk_out_reserve(&o, NLMSG_HDRLEN);
	p = uk_out_reserve(&o, GENL_HDRLEN);
	if (p)
		memcpy(p, &g, sizeof(g));
	for (f = fields; f->name; f++) {
		/* The stack goes in its attribute's place, as the kernel does. */
		if (!stack_done && f->attr > UACCESS_KADDR_A_EVENT_STACK) {
			uk_out_stack(&o, ev);
			stack_done = true;
		}
		if (present & (1ULL << f->attr))
			uk_out_field(&o, f, src);
	}
	if (!stack_done)
		uk_out_stack(&o, ev);
	if (o.err)
		return o.err;
	if (o.pos > INT32_MAX)
		return -EMSGSIZE;
	h.nlmsg_len = (uint32_t)o.pos;
	memcpy(buf, &h, sizeof(h));
	return (int)o.pos;
}

int uk_event_build(const struct uk_event *ev, uint16_t family,
		   uint32_t seq_nl, void *buf, size_t buflen)
{
	if (!ev)
		return -EINVAL;
	return uk_msg_build(uk_event_fields, ev, ev->present, ev,
			    UACCESS_KADDR_CMD_EVENT, 0, family, seq_nl,
			    buf, buflen);
}

int uk_site_build(const struct uk_site *site, uint16_t family,
		  uint32_t seq_nl, void *buf, size_t buflen)
{
	if (!site)
		return -EINVAL;
	return uk_msg_build(uk_site_fields, site, site->present, NULL,
			    UACCESS_KADDR_CMD_DUMP_SITES, NLM_F_MULTI, family,
			    seq_nl, buf, buflen);
}

int uk_status_build(const struct uk_status *st, uint8_t cmd, uint16_t family,
		    uint32_t seq_nl, void *buf, size_t buflen)
{
	if (!st)
		return -EINVAL;
	return uk_msg_build(uk_status_fields, st, st->present, NULL, cmd, 0,
			    family, seq_nl, buf, buflen);
}

