// SPDX-License-Identifier: GPL-2.0
/*
 * The uaccess_kaddr netlink messages, decoded: field tables, enum names
 * and the three parsers (event, site, status).
 *
 * The parsers walk the attributes themselves instead of calling libnl's
 * nla_parse(): a rejection must name the attribute and what is wrong with
 * it, and every byte is copied out with memcpy() so that a message at any
 * alignment (a replay file, a fuzzer input) is read without undefined
 * behaviour.  Nothing is read beyond the length the caller gives.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/genetlink.h>

#include "why.h"
#include "event.h"
#include "journal_fields.h"
#include "util.h"

#define MEMBER_SIZE(type, member)	sizeof(((type *)0)->member)

#define UK_FIELD(st, ATTR, member, journal_, ftype, en, req)		\
	{								\
		.attr = ATTR,						\
		.name = #member,					\
		.journal = journal_,					\
		.type = ftype,						\
		.names = en,						\
		.offset = offsetof(st, member),				\
		.len = MEMBER_SIZE(st, member),				\
		.required = req,					\
	}

#define EV(ATTR, member, JOURNAL, ftype, en, req)			\
	UK_FIELD(struct uk_event, UACCESS_KADDR_A_EVENT_##ATTR, member,	\
		 UK_JF(JOURNAL), ftype, en, req),
#define SI(ATTR, member, JOURNAL, ftype, en, req)			\
	UK_FIELD(struct uk_site, UACCESS_KADDR_A_SITE_##ATTR, member,	\
		 NULL, ftype, en, req)
#define ST(ATTR, member, JOURNAL, ftype, en, req)			\
	UK_FIELD(struct uk_status, UACCESS_KADDR_A_STATUS_##ATTR, member,\
		 NULL, ftype, en, req)

/* UK_EVENT_FIELDS (event.h) says what each one is. */
const struct uk_field uk_event_fields[] = {
	UK_EVENT_FIELDS(EV)
	{ 0 }
};

/* direction is part of the site key (ip, kind, helper, direction). */
const struct uk_field uk_site_fields[] = {
	SI(SITE_ID, site_id, SITE_ID, UK_FT_U32, UK_ENUM_NONE, true),
	SI(SITE_IP, site_ip, SITE_IP, UK_FT_HEX64, UK_ENUM_NONE, true),
	SI(SITE_SYMBOL, site_symbol, SITE_SYMBOL, UK_FT_STR, UK_ENUM_NONE,
	   false),
	SI(KIND, kind, KIND, UK_FT_ENUM, UK_ENUM_KIND, true),
	SI(HELPER, helper, HELPER, UK_FT_ENUM, UK_ENUM_HELPER, true),
	SI(DIRECTION, direction, DIRECTION, UK_FT_ENUM, UK_ENUM_DIRECTION,
	   true),
	SI(COUNT, count, COUNT, UK_FT_U64, UK_ENUM_NONE, true),
	SI(SUPPRESSED, suppressed, SUPPRESSED, UK_FT_U64, UK_ENUM_NONE, false),
	SI(REPORTED, reported, REPORTED, UK_FT_U64, UK_ENUM_NONE, false),
	SI(FIRST_TIMESTAMP_BOOT, first_ts_boot, FIRST_TS_BOOT, UK_FT_U64,
	   UK_ENUM_NONE, false),
	SI(LAST_TIMESTAMP_BOOT, last_ts_boot, LAST_TS_BOOT, UK_FT_U64,
	   UK_ENUM_NONE, false),
	SI(LAST_ADDRESS, last_address, LAST_ADDRESS, UK_FT_HEX64,
	   UK_ENUM_NONE, false),
	SI(LAST_PID, last_pid, LAST_PID, UK_FT_U32, UK_ENUM_NONE, false),
	SI(LAST_COMM, last_comm, LAST_COMM, UK_FT_STR, UK_ENUM_NONE, false),
	SI(STACK_HASH, stack_hash, STACK_HASH, UK_FT_HEX32, UK_ENUM_NONE,
	   false),
	{ 0 }
};

const struct uk_field uk_status_fields[] = {
	ST(MODE, mode, MODE, UK_FT_ENUM, UK_ENUM_MODE, true),
	ST(HITS_FAULT, hits_fault, HITS_FAULT, UK_FT_U64, UK_ENUM_NONE, false),
	ST(HITS_GP, hits_gp, HITS_GP, UK_FT_U64, UK_ENUM_NONE, false),
	ST(HITS_PRECHECK, hits_precheck, HITS_PRECHECK, UK_FT_U64,
	   UK_ENUM_NONE, false),
	ST(REJECTED, rejected, REJECTED, UK_FT_U64, UK_ENUM_NONE, false),
	ST(REPORTED, reported, REPORTED, UK_FT_U64, UK_ENUM_NONE, false),
	ST(SUPPRESSED, suppressed, SUPPRESSED, UK_FT_U64, UK_ENUM_NONE, false),
	ST(DROPPED, dropped, DROPPED, UK_FT_U64, UK_ENUM_NONE, false),
	ST(SITES_USED, sites_used, SITES_USED, UK_FT_U32, UK_ENUM_NONE, false),
	ST(SITES_MAX, sites_max, SITES_MAX, UK_FT_U32, UK_ENUM_NONE, false),
	ST(SITES_OVERFLOW, sites_overflow, SITES_OVERFLOW, UK_FT_U64,
	   UK_ENUM_NONE, false),
	ST(LAST_SEQ, last_seq, LAST_SEQ, UK_FT_U64, UK_ENUM_NONE, false),
	ST(RATELIMIT_INTERVAL_MS, ratelimit_interval_ms,
	   RATELIMIT_INTERVAL_MS, UK_FT_U32, UK_ENUM_NONE, false),
	ST(RATELIMIT_BURST, ratelimit_burst, RATELIMIT_BURST, UK_FT_U32,
	   UK_ENUM_NONE, false),
	ST(QUEUE_LEN, queue_len, QUEUE_LEN, UK_FT_U32, UK_ENUM_NONE, false),
	/* Not sent by a kernel older than the attribute: not required. */
	ST(ACCESS, access, ACCESS, UK_FT_ENUM, UK_ENUM_ACCESS, false),
	{ 0 }
};

/*
 * Enum names.  [0] is the name shown; [1] and [2] are also accepted by
 * uk_enum_value(): the spec's name where it differs (helper "get-user")
 * and the kernel log's wording (report.c: "mapped kernel", "from user").
 * The names shown are those of the kernel log where it prints a single
 * word (helpers, kinds, modes) and those of the spec otherwise.
 */
#define UK_NAMES_PER_VALUE	3

static const char *const uk_mode_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_MODE_OFF] = { "off" },
	[UACCESS_KADDR_MODE_COUNT] = { "count" },
	[UACCESS_KADDR_MODE_REPORT] = { "report" },
	[UACCESS_KADDR_MODE_WARN] = { "warn" },
};

static const char *const uk_kind_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_KIND_FAULT] = { "fault" },
	[UACCESS_KADDR_KIND_GP] = { "gp" },
	[UACCESS_KADDR_KIND_PRECHECK] = { "precheck" },
};

static const char *const uk_helper_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_HELPER_GET_USER] = { "__get_user", "get-user" },
	[UACCESS_KADDR_HELPER_PUT_USER] = { "__put_user", "put-user" },
	[UACCESS_KADDR_HELPER_COPY_FROM_USER] = {
		"__copy_from_user", "copy-from-user"
	},
	[UACCESS_KADDR_HELPER_COPY_TO_USER] = {
		"__copy_to_user", "copy-to-user"
	},
	[UACCESS_KADDR_HELPER_CLEAR_USER] = { "__clear_user", "clear-user" },
	[UACCESS_KADDR_HELPER_UNSAFE_GET_USER] = {
		"unsafe_get_user", "unsafe-get-user"
	},
	[UACCESS_KADDR_HELPER_UNSAFE_PUT_USER] = {
		"unsafe_put_user", "unsafe-put-user"
	},
	[UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER] = {
		"unsafe_copy_to_user", "unsafe-copy-to-user"
	},
	[UACCESS_KADDR_HELPER_COPY_USER_GENERIC] = {
		"copy_user_generic", "copy-user-generic"
	},
	[UACCESS_KADDR_HELPER_STRNCPY_FROM_USER] = {
		"strncpy_from_user", "strncpy-from-user"
	},
	[UACCESS_KADDR_HELPER_STRNLEN_USER] = {
		"strnlen_user", "strnlen-user"
	},
	[UACCESS_KADDR_HELPER_FUTEX] = { "futex" },
	[UACCESS_KADDR_HELPER_CMPXCHG_USER] = {
		"cmpxchg_user", "cmpxchg-user"
	},
	/* The kernel log says "passed to user access" for this one. */
	[UACCESS_KADDR_HELPER_UNKNOWN] = { "unknown", "user access" },
};

static const char *const uk_direction_names[][UK_NAMES_PER_VALUE] = {
	/* The one enum whose 0 is sent: a #GP not decoded. */
	[UACCESS_KADDR_DIRECTION_UNKNOWN] = { "unknown" },
	[UACCESS_KADDR_DIRECTION_FROM_USER] = { "from-user", "from user" },
	[UACCESS_KADDR_DIRECTION_TO_USER] = { "to-user", "to user" },
	[UACCESS_KADDR_DIRECTION_BOTH] = { "both", "from and to user" },
};

static const char *const uk_addr_class_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_ADDR_CLASS_USER] = { "user" },
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED] = {
		"kernel-unmapped", "unmapped kernel"
	},
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED] = {
		"kernel-mapped", "mapped kernel"
	},
	[UACCESS_KADDR_ADDR_CLASS_NONCANONICAL] = {
		"noncanonical", "non-canonical"
	},
	[UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE] = { "guard-page", "guard page" },
	[UACCESS_KADDR_ADDR_CLASS_ALL_ONES] = { "all-ones", "all-ones page" },
	[UACCESS_KADDR_ADDR_CLASS_VSYSCALL] = { "vsyscall", "vsyscall page" },
};

static const char *const uk_context_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_CONTEXT_TASK] = { "task" },
	[UACCESS_KADDR_CONTEXT_SOFTIRQ] = { "softirq" },
	[UACCESS_KADDR_CONTEXT_HARDIRQ] = { "hardirq" },
	[UACCESS_KADDR_CONTEXT_NMI] = { "nmi" },
};

/* uaccess_kaddr_access=, as the boot parameter and debugfs spell it. */
static const char *const uk_access_names[][UK_NAMES_PER_VALUE] = {
	[UACCESS_KADDR_ACCESS_FAIL] = { "fail" },
	[UACCESS_KADDR_ACCESS_ALLOW] = { "allow" },
};

static const struct {
	const char *const (*names)[UK_NAMES_PER_VALUE];
	size_t n;
} uk_enums[] = {
	[UK_ENUM_MODE] = { uk_mode_names, ARRAY_SIZE(uk_mode_names) },
	[UK_ENUM_KIND] = { uk_kind_names, ARRAY_SIZE(uk_kind_names) },
	[UK_ENUM_HELPER] = { uk_helper_names, ARRAY_SIZE(uk_helper_names) },
	[UK_ENUM_DIRECTION] = { uk_direction_names,
				ARRAY_SIZE(uk_direction_names) },
	[UK_ENUM_ADDR_CLASS] = { uk_addr_class_names,
				 ARRAY_SIZE(uk_addr_class_names) },
	[UK_ENUM_CONTEXT] = { uk_context_names, ARRAY_SIZE(uk_context_names) },
	[UK_ENUM_ACCESS] = { uk_access_names, ARRAY_SIZE(uk_access_names) },
};

/* The ABIs of x86-64, as seccomp and the audit log number them. */
static const struct {
	uint32_t value;
	const char *name;
} uk_arch_names[] = {
	{ AUDIT_ARCH_X86_64, "x86_64" },
	{ AUDIT_ARCH_I386, "i386" },
};

const char *uk_enum_name(enum uk_enum e, uint32_t value)
{
	size_t i;

	if (e == UK_ENUM_ARCH) {
		for (i = 0; i < ARRAY_SIZE(uk_arch_names); i++)
			if (uk_arch_names[i].value == value)
				return uk_arch_names[i].name;
		return NULL;
	}
	if ((size_t)e >= ARRAY_SIZE(uk_enums) || !uk_enums[e].names ||
	    value >= uk_enums[e].n)
		return NULL;
	return uk_enums[e].names[value][0];
}

const char *uk_enum_text(enum uk_enum e, uint32_t v, char *buf, size_t len)
{
	const char *name = uk_enum_name(e, v);

	if (name)
		return name;
	snprintf(buf, len, "%" PRIu32, v);
	return buf;
}

uint32_t uk_enum_value(enum uk_enum e, const char *name)
{
	size_t v, i;

	if (e == UK_ENUM_ARCH && name) {
		for (v = 0; v < ARRAY_SIZE(uk_arch_names); v++)
			if (!strcmp(uk_arch_names[v].name, name))
				return uk_arch_names[v].value;
		return 0;
	}
	if ((size_t)e >= ARRAY_SIZE(uk_enums) || !uk_enums[e].names || !name)
		return 0;
	for (v = 1; v < uk_enums[e].n; v++)
		for (i = 0; i < UK_NAMES_PER_VALUE; i++)
			if (uk_enums[e].names[v][i] &&
			    !strcmp(uk_enums[e].names[v][i], name))
				return v;
	return 0;
}

/* Parsing */

/* Attribute types below this have a bit in ->present. */
#define UK_ATTR_BITS	64

/* Every attribute of the tables has its bit, and its index fits int8_t. */
_Static_assert(UACCESS_KADDR_A_EVENT_MAX < UK_ATTR_BITS, "event attributes fit ->present");
_Static_assert(UACCESS_KADDR_A_SITE_MAX < UK_ATTR_BITS, "site attributes fit ->present");
_Static_assert(UACCESS_KADDR_A_STATUS_MAX < UK_ATTR_BITS, "status attributes fit ->present");
_Static_assert(UK_ATTR_BITS <= INT8_MAX, "a field's index fits index[]");

struct uk_msg_desc {
	const char *what;
	const struct uk_field *fields;
	uint8_t cmds[2];		/* accepted commands, 0 = none */
	int stack_attr;			/* 0: none */
};

static const struct uk_msg_desc uk_event_desc = {
	.what = "event",
	.fields = uk_event_fields,
	.cmds = { UACCESS_KADDR_CMD_EVENT },
	.stack_attr = UACCESS_KADDR_A_EVENT_STACK,
};

/* Replies carry the command of the request (genlmsg_iput(), dumps). */
static const struct uk_msg_desc uk_site_desc = {
	.what = "site",
	.fields = uk_site_fields,
	.cmds = { UACCESS_KADDR_CMD_DUMP_SITES },
};

static const struct uk_msg_desc uk_status_desc = {
	.what = "status",
	.fields = uk_status_fields,
	.cmds = { UACCESS_KADDR_CMD_GET_STATUS, UACCESS_KADDR_CMD_RESET },
};

/* Iterator over the attributes of [p, p + len); @base: offset of p. */
struct uk_nla_iter {
	const uint8_t *p;
	size_t len;
	size_t pos;
	size_t base;
};

struct uk_nla {
	uint16_t type;			/* without the NLA_F_* flags */
	const uint8_t *data;
	size_t len;			/* payload */
	size_t off;			/* of the header, from the message */
};

/* 1 and the next attribute in @a, 0 at the end, -EBADMSG if malformed. */
static int uk_nla_next(struct uk_nla_iter *it, struct uk_nla *a,
		       char *why, size_t whylen)
{
	size_t rem = it->len - it->pos, step;
	struct nlattr h;

	if (!rem)
		return 0;
	if (rem < NLA_HDRLEN) {
		uk_why(why, whylen,
		       "%zu trailing bytes at offset %zu after the last attribute",
		       rem, it->base + it->pos);
		return -EBADMSG;
	}
	memcpy(&h, it->p + it->pos, sizeof(h));
	if (h.nla_len < NLA_HDRLEN) {
		uk_why(why, whylen, "attribute at offset %zu: nla_len %u < %d",
		       it->base + it->pos, h.nla_len, NLA_HDRLEN);
		return -EBADMSG;
	}
	if (h.nla_len > rem) {
		uk_why(why, whylen,
		       "attribute at offset %zu: nla_len %u crosses the end (%zu bytes left)",
		       it->base + it->pos, h.nla_len, rem);
		return -EBADMSG;
	}
	a->type = h.nla_type & NLA_TYPE_MASK;
	a->data = it->p + it->pos + NLA_HDRLEN;
	a->len = h.nla_len - NLA_HDRLEN;
	a->off = it->base + it->pos;
	/* The padding of the last attribute may be missing. */
	step = NLA_ALIGN((size_t)h.nla_len);
	it->pos += step < rem ? step : rem;
	return 1;
}

/* Checks the payload of a string attribute; returns its length or < 0. */
static int uk_nla_string(const struct uk_nla *a, const char *name,
			 char *why, size_t whylen)
{
	const uint8_t *nul;

	if (!a->len) {
		uk_why(why, whylen, "attribute %s: empty", name);
		return -EBADMSG;
	}
	nul = memchr(a->data, '\0', a->len);
	if (!nul) {
		uk_why(why, whylen, "attribute %s: not NUL-terminated", name);
		return -EBADMSG;
	}
	return (int)(nul - a->data);
}

/* Copies a checked string of length @n, cut to fit @size and zero-filled. */
static void uk_copy_string(char *dst, size_t size, const uint8_t *src,
			   size_t n)
{
	if (n >= size)
		n = size - 1;
	memset(dst, 0, size);
	memcpy(dst, src, n);
}

static int uk_nla_check_len(const struct uk_nla *a, size_t want,
			    const char *name, char *why, size_t whylen)
{
	if (a->len == want)
		return 0;
	uk_why(why, whylen, "attribute %s: length %zu, expected %zu",
	       name, a->len, want);
	return -EBADMSG;
}

/* One more argument of a multi-attr, in the order sent. */
static int args_store(const struct uk_field *f, char *dst,
		      const struct uk_nla *a, char *why, size_t whylen)
{
	struct uk_syscall_args args;
	int r;

	r = uk_nla_check_len(a, sizeof(uint64_t), f->name, why, whylen);
	if (r < 0)
		return r;
	memcpy(&args, dst, sizeof(args));
	if (args.nr == UK_SYSCALL_ARGS) {
		uk_why(why, whylen, "attribute %s: more than %d", f->name,
		       UK_SYSCALL_ARGS);
		return -EBADMSG;
	}
	memcpy(&args.v[args.nr++], a->data, sizeof(uint64_t));
	memcpy(dst, &args, sizeof(args));
	return 0;
}

static int field_store(const struct uk_field *f, void *out,
			  const struct uk_nla *a, char *why, size_t whylen)
{
	char *dst = (char *)out + f->offset;
	int r;

	switch (f->type) {
	case UK_FT_ARGS:
		return args_store(f, dst, a, why, whylen);
	case UK_FT_U32:
	case UK_FT_S32:
	case UK_FT_HEX32:
	case UK_FT_ENUM:
		r = uk_nla_check_len(a, sizeof(uint32_t), f->name, why,
				     whylen);
		if (r < 0)
			return r;
		memcpy(dst, a->data, sizeof(uint32_t));
		return 0;
	case UK_FT_U64:
	case UK_FT_HEX64:
		r = uk_nla_check_len(a, sizeof(uint64_t), f->name, why,
				     whylen);
		if (r < 0)
			return r;
		memcpy(dst, a->data, sizeof(uint64_t));
		return 0;
	case UK_FT_STR:
		r = uk_nla_string(a, f->name, why, whylen);
		if (r < 0)
			return r;
		uk_copy_string(dst, f->len, a->data, (size_t)r);
		return 0;
	}
	uk_why(why, whylen, "attribute %s: bad field type %d in the table",
	       f->name, (int)f->type);
	return -EINVAL;
}

/* One STACK nest: STACK_FRAME_IP (required) and STACK_FRAME_SYMBOL. */
static int uk_frame_parse(const struct uk_nla *nest, struct uk_frame *fr,
			  char *why, size_t whylen)
{
	struct uk_nla_iter it = {
		.p = nest->data,
		.len = nest->len,
		.base = nest->off + NLA_HDRLEN,
	};
	bool have_ip = false;
	struct uk_nla a;
	int r;

	while ((r = uk_nla_next(&it, &a, why, whylen)) > 0) {
		switch (a.type) {
		case UACCESS_KADDR_A_STACK_FRAME_IP:
			r = uk_nla_check_len(&a, sizeof(uint64_t), "ip", why,
					     whylen);
			if (r < 0)
				return r;
			if (fr)
				memcpy(&fr->ip, a.data, sizeof(fr->ip));
			have_ip = true;
			break;
		case UACCESS_KADDR_A_STACK_FRAME_SYMBOL:
			r = uk_nla_string(&a, "symbol", why, whylen);
			if (r < 0)
				return r;
			if (fr)
				uk_copy_string(fr->symbol, sizeof(fr->symbol),
					       a.data, (size_t)r);
			break;
		default:	/* pad, or newer than us */
			break;
		}
	}
	if (r < 0)
		return r;
	if (!have_ip) {
		uk_why(why, whylen, "missing attribute ip");
		return -EBADMSG;
	}
	return 0;
}

/* Puts "stack frame N: " before the reason, only once there is an error. */
static void uk_why_frame(char *why, size_t whylen, unsigned int index)
{
	char reason[256];

	if (!why || !whylen)
		return;
	snprintf(reason, sizeof(reason), "%s", why);
	uk_why(why, whylen, "stack frame %u: %s", index, reason);
}

/*
 * Common part of the three parsers.  @out is zeroed first (so that equal
 * messages give byte-identical structs) and starts with the present mask;
 * @ev is the same object when the message kind has a stack.
 */
static int uk_msg_parse(const struct uk_msg_desc *d,
			const struct nlmsghdr *nlh, size_t len,
			void *out, size_t outsize, uint64_t *present,
			struct uk_event *ev, char *why, size_t whylen)
{
	int8_t index[UK_ATTR_BITS];
	unsigned int nr_frames = 0;
	const struct uk_field *f;
	struct genlmsghdr g;
	struct nlmsghdr h;
	struct uk_nla_iter it;
	struct uk_nla a;
	int r;

	if (!out)
		return -EINVAL;
	memset(out, 0, outsize);
	if (len < NLMSG_HDRLEN || !nlh) {
		uk_why(why, whylen, "truncated: %zu bytes, no netlink header",
		       len);
		return -EMSGSIZE;
	}
	memcpy(&h, nlh, sizeof(h));
	if (h.nlmsg_len > len) {
		uk_why(why, whylen, "truncated: nlmsg_len %u > %zu bytes",
		       h.nlmsg_len, len);
		return -EMSGSIZE;
	}
	if (h.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		uk_why(why, whylen,
		       "nlmsg_len %u too small for the netlink and genetlink headers (%u bytes)",
		       h.nlmsg_len,
		       (unsigned int)(NLMSG_HDRLEN + GENL_HDRLEN));
		return -EBADMSG;
	}
	if (h.nlmsg_type < NLMSG_MIN_TYPE) {
		uk_why(why, whylen,
		       "nlmsg_type %u is a netlink control message, not %s",
		       h.nlmsg_type, d->what);
		return -EPROTO;
	}
	memcpy(&g, (const uint8_t *)nlh + NLMSG_HDRLEN, sizeof(g));
	if (!g.cmd || (g.cmd != d->cmds[0] && g.cmd != d->cmds[1])) {
		uk_why(why, whylen, "genetlink command %u is not a%s %s message",
		       g.cmd, d->what[0] == 'e' ? "n" : "", d->what);
		return -EPROTO;
	}

	memset(index, -1, sizeof(index));
	for (f = d->fields; f->name; f++)
		index[f->attr] = (int8_t)(f - d->fields);

	it = (struct uk_nla_iter){
		.p = (const uint8_t *)nlh + NLMSG_HDRLEN + GENL_HDRLEN,
		.len = h.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
		.base = NLMSG_HDRLEN + GENL_HDRLEN,
	};
	while ((r = uk_nla_next(&it, &a, why, whylen)) > 0) {
		if (ev && a.type == d->stack_attr) {
			struct uk_frame *fr = NULL;

			/* Frames beyond the maximum are checked, not kept. */
			if (nr_frames < UK_STACK_MAX)
				fr = &ev->frames[ev->nr_frames++];
			r = uk_frame_parse(&a, fr, why, whylen);
			if (r < 0) {
				uk_why_frame(why, whylen, nr_frames);
				return r;
			}
			nr_frames++;
			*present |= 1ULL << a.type;
			continue;
		}
		if (a.type >= UK_ATTR_BITS || index[a.type] < 0)
			continue;	/* pad, or newer than us */
		f = &d->fields[index[a.type]];
		r = field_store(f, out, &a, why, whylen);
		if (r < 0)
			return r;
		*present |= 1ULL << a.type;
	}
	if (r < 0)
		return r;

	for (f = d->fields; f->name; f++) {
		if (f->required && !(*present & (1ULL << f->attr))) {
			uk_why(why, whylen, "missing required attribute %s",
			       f->name);
			return -EBADMSG;
		}
	}
	return 0;
}

int uk_event_parse(const struct nlmsghdr *nlh, size_t len,
		   struct uk_event *ev, char *why, size_t whylen)
{
	return uk_msg_parse(&uk_event_desc, nlh, len, ev, sizeof(*ev),
			    ev ? &ev->present : NULL, ev, why, whylen);
}

int uk_site_parse(const struct nlmsghdr *nlh, size_t len,
		  struct uk_site *site, char *why, size_t whylen)
{
	return uk_msg_parse(&uk_site_desc, nlh, len, site, sizeof(*site),
			    site ? &site->present : NULL, NULL, why, whylen);
}

int uk_status_parse(const struct nlmsghdr *nlh, size_t len,
		    struct uk_status *st, char *why, size_t whylen)
{
	return uk_msg_parse(&uk_status_desc, nlh, len, st, sizeof(*st),
			    st ? &st->present : NULL, NULL, why, whylen);
}

/* "0x" and hex digits up to the end or a blank: %pB found no symbol. */
bool uk_symbol_is_address(const char *s)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
	    !isxdigit((unsigned char)s[2]))
		return false;
	for (s += 2; *s && *s != ' '; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

const char *uk_symbol_function(const char *symbol, char *out, size_t outlen)
{
	size_t n;

	if (out && outlen)
		out[0] = '\0';
	if (!symbol || !out || !outlen || uk_symbol_is_address(symbol))
		return NULL;
	n = strcspn(symbol, "+ ");
	if (!n || n >= outlen)
		return NULL;
	memcpy(out, symbol, n);
	out[n] = '\0';
	return out;
}
