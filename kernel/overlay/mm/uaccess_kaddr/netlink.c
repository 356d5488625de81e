// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_kaddr generic netlink family, see
 * Documentation/netlink/specs/uaccess_kaddr.yaml.
 *
 * get-status is unprivileged and carries no kernel address.  set-config,
 * dump-sites and reset carry GENL_ADMIN_PERM and, like the "events"
 * multicast group, also require CAP_SYS_ADMIN: sites and events expose
 * kernel addresses.  The family lives in the initial network namespace.
 *
 * The telemetry layer over the detector core (CONFIG_DEBUG_UACCESS_KADDR_NETLINK):
 * the core works without it.  Everything here runs in process context: the
 * requests in the sender's context, uk_netlink_send_event() from the
 * core's drain work.
 */

#define pr_fmt(fmt) "uaccess_kaddr: " fmt

#include <linux/cache.h>
#include <linux/capability.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/netlink.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <uapi/linux/uaccess_kaddr.h>

#include "uaccess_kaddr.h"

/*
 * The core keeps its own names for what it reports; the values are those
 * of the uapi header, which is the contract with userspace.
 */
#define UK_SAME(k, u)	static_assert((int)(k) == (int)(u))
UK_SAME(UKADDR_MODE_OFF, UACCESS_KADDR_MODE_OFF);
UK_SAME(UKADDR_MODE_COUNT, UACCESS_KADDR_MODE_COUNT);
UK_SAME(UKADDR_MODE_REPORT, UACCESS_KADDR_MODE_REPORT);
UK_SAME(UKADDR_MODE_WARN, UACCESS_KADDR_MODE_WARN);
UK_SAME(UKADDR_ACCESS_FAIL, UACCESS_KADDR_ACCESS_FAIL);
UK_SAME(UKADDR_ACCESS_ALLOW, UACCESS_KADDR_ACCESS_ALLOW);
UK_SAME(UKADDR_KIND_FAULT, UACCESS_KADDR_KIND_FAULT);
UK_SAME(UKADDR_KIND_GP, UACCESS_KADDR_KIND_GP);
UK_SAME(UKADDR_KIND_PRECHECK, UACCESS_KADDR_KIND_PRECHECK);
UK_SAME(UKADDR_HELPER_GET_USER, UACCESS_KADDR_HELPER_GET_USER);
UK_SAME(UKADDR_HELPER_PUT_USER, UACCESS_KADDR_HELPER_PUT_USER);
UK_SAME(UKADDR_HELPER_COPY_FROM_USER, UACCESS_KADDR_HELPER_COPY_FROM_USER);
UK_SAME(UKADDR_HELPER_COPY_TO_USER, UACCESS_KADDR_HELPER_COPY_TO_USER);
UK_SAME(UKADDR_HELPER_CLEAR_USER, UACCESS_KADDR_HELPER_CLEAR_USER);
UK_SAME(UKADDR_HELPER_UNSAFE_GET_USER, UACCESS_KADDR_HELPER_UNSAFE_GET_USER);
UK_SAME(UKADDR_HELPER_UNSAFE_PUT_USER, UACCESS_KADDR_HELPER_UNSAFE_PUT_USER);
UK_SAME(UKADDR_HELPER_UNSAFE_COPY_TO_USER, UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER);
UK_SAME(UKADDR_HELPER_COPY_USER_GENERIC, UACCESS_KADDR_HELPER_COPY_USER_GENERIC);
UK_SAME(UKADDR_HELPER_STRNCPY_FROM_USER, UACCESS_KADDR_HELPER_STRNCPY_FROM_USER);
UK_SAME(UKADDR_HELPER_STRNLEN_USER, UACCESS_KADDR_HELPER_STRNLEN_USER);
UK_SAME(UKADDR_HELPER_FUTEX, UACCESS_KADDR_HELPER_FUTEX);
UK_SAME(UKADDR_HELPER_CMPXCHG_USER, UACCESS_KADDR_HELPER_CMPXCHG_USER);
UK_SAME(UKADDR_HELPER_UNKNOWN, UACCESS_KADDR_HELPER_UNKNOWN);
UK_SAME(UKADDR_DIR_FROM_USER, UACCESS_KADDR_DIRECTION_FROM_USER);
UK_SAME(UKADDR_DIR_TO_USER, UACCESS_KADDR_DIRECTION_TO_USER);
UK_SAME(UKADDR_DIR_BOTH, UACCESS_KADDR_DIRECTION_BOTH);
UK_SAME(UKADDR_CLASS_USER, UACCESS_KADDR_ADDR_CLASS_USER);
UK_SAME(UKADDR_CLASS_KERNEL_UNMAPPED, UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED);
UK_SAME(UKADDR_CLASS_KERNEL_MAPPED, UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED);
UK_SAME(UKADDR_CLASS_NONCANONICAL, UACCESS_KADDR_ADDR_CLASS_NONCANONICAL);
UK_SAME(UKADDR_CLASS_GUARD_PAGE, UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE);
UK_SAME(UKADDR_CLASS_ALL_ONES, UACCESS_KADDR_ADDR_CLASS_ALL_ONES);
UK_SAME(UKADDR_CLASS_VSYSCALL, UACCESS_KADDR_ADDR_CLASS_VSYSCALL);
UK_SAME(UKADDR_CTX_TASK, UACCESS_KADDR_CONTEXT_TASK);
UK_SAME(UKADDR_CTX_SOFTIRQ, UACCESS_KADDR_CONTEXT_SOFTIRQ);
UK_SAME(UKADDR_CTX_HARDIRQ, UACCESS_KADDR_CONTEXT_HARDIRQ);
UK_SAME(UKADDR_CTX_NMI, UACCESS_KADDR_CONTEXT_NMI);

/* Index of the "events" group in uk_nl_mcgrps[]. */
#define UK_NLGRP_EVENTS		0

static struct genl_family uk_genl_family;

/* Set once the family is registered; events are dropped before that. */
static bool uk_nl_registered __ro_after_init;

/*
 * Commands without request attributes.  With a policy, strict validation
 * rejects attribute 1 here and any other type as unknown; without one the
 * attributes would not be parsed at all, hence silently ignored.
 */
static const struct nla_policy uk_nl_reject_policy[] = {
	[0] = { .type = NLA_REJECT },
	[1] = { .type = NLA_REJECT },
};

/* The checks of the config attribute set in the spec. */
static const struct netlink_range_validation uk_nl_interval_range = {
	.min	= 0ULL,
	.max	= 3600000ULL,
};

static const struct nla_policy
uk_nl_set_config_policy[UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST + 1] = {
	[UACCESS_KADDR_A_CONFIG_MODE] =
		NLA_POLICY_RANGE(NLA_U32, UACCESS_KADDR_MODE_OFF,
				 UACCESS_KADDR_MODE_WARN),
	[UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &uk_nl_interval_range),
	[UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST] =
		NLA_POLICY_RANGE(NLA_U32, 1, 1000),
};

static int uk_nl_check_sys_admin(const struct sk_buff *skb,
				 struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack, "CAP_SYS_ADMIN is required");
	return -EPERM;
}

/*
 * An event's site and stack, each address formatted once with "%pB": the
 * message is sized from these strings, then filled with them.  Only the
 * core's drain work sends events, one at a time.
 */
static char uk_nl_syms[UK_STACK_DEPTH + 1][KSYM_SYMBOL_LEN];

static size_t uk_nl_format(unsigned int i, unsigned long ip)
{
	return scnprintf(uk_nl_syms[i], KSYM_SYMBOL_LEN, "%pB", (void *)ip) + 1;
}

static int uk_nl_put_symbol(struct sk_buff *skb, int attrtype,
			    unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	snprintf(sym, sizeof(sym), "%pB", (void *)ip);
	return nla_put_string(skb, attrtype, sym);
}

/* status */

static size_t uk_status_msg_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* MODE */
	       nla_total_size_64bit(sizeof(u64)) +	/* HITS_FAULT */
	       nla_total_size_64bit(sizeof(u64)) +	/* HITS_GP */
	       nla_total_size_64bit(sizeof(u64)) +	/* HITS_PRECHECK */
	       nla_total_size_64bit(sizeof(u64)) +	/* REJECTED */
	       nla_total_size_64bit(sizeof(u64)) +	/* REPORTED */
	       nla_total_size_64bit(sizeof(u64)) +	/* SUPPRESSED */
	       nla_total_size_64bit(sizeof(u64)) +	/* DROPPED */
	       nla_total_size(sizeof(u32)) +		/* SITES_USED */
	       nla_total_size(sizeof(u32)) +		/* SITES_MAX */
	       nla_total_size_64bit(sizeof(u64)) +	/* SITES_OVERFLOW */
	       nla_total_size_64bit(sizeof(u64)) +	/* LAST_SEQ */
	       nla_total_size(sizeof(u32)) +		/* RATELIMIT_INTERVAL_MS */
	       nla_total_size(sizeof(u32)) +		/* RATELIMIT_BURST */
	       nla_total_size(sizeof(u32)) +		/* QUEUE_LEN */
	       nla_total_size(sizeof(u32));		/* ACCESS */
}

static int uk_status_fill(struct sk_buff *skb, const struct uk_status *st)
{
	if (nla_put_u32(skb, UACCESS_KADDR_A_STATUS_MODE, st->mode) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_HITS_FAULT,
			      st->hits_fault, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_HITS_GP,
			      st->hits_gp, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_HITS_PRECHECK,
			      st->hits_precheck, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_REJECTED,
			      st->rejected, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_REPORTED,
			      st->reported, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_SUPPRESSED,
			      st->suppressed, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_DROPPED,
			      st->dropped, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_SITES_USED,
			st->sites_used) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_SITES_MAX,
			st->sites_max) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_SITES_OVERFLOW,
			      st->sites_overflow, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_STATUS_LAST_SEQ,
			      st->last_seq, UACCESS_KADDR_A_STATUS_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_RATELIMIT_INTERVAL_MS,
			st->ratelimit_interval_ms) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_RATELIMIT_BURST,
			st->ratelimit_burst) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_QUEUE_LEN, st->queue_len) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_STATUS_ACCESS, st->access))
		return -EMSGSIZE;
	return 0;
}

/* Reply to @info with the status attribute set holding @st. */
static int uk_status_reply(struct sk_buff *msg, struct genl_info *info,
			   const struct uk_status *st)
{
	void *hdr;

	hdr = genlmsg_iput(msg, info);
	if (!hdr || uk_status_fill(msg, st)) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "status reply too large");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int uk_nl_get_status_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uk_status st;
	struct sk_buff *msg;

	msg = genlmsg_new(uk_status_msg_size(), GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "no memory for the reply");
		return -ENOMEM;
	}
	uk_get_status(&st);
	return uk_status_reply(msg, info, &st);
}

static int uk_nl_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uk_status old;
	struct sk_buff *msg;
	int err;

	err = uk_nl_check_sys_admin(skb, info->extack);
	if (err)
		return err;
	/* Allocate first: a failure must not lose the counters. */
	msg = genlmsg_new(uk_status_msg_size(), GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "no memory for the reply");
		return -ENOMEM;
	}
	uk_reset(&old);
	return uk_status_reply(msg, info, &old);
}

/* config */

static size_t uk_config_msg_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* MODE */
	       nla_total_size(sizeof(u32)) +		/* RATELIMIT_INTERVAL_MS */
	       nla_total_size(sizeof(u32));		/* RATELIMIT_BURST */
}

static int uk_config_fill(struct sk_buff *skb, const struct uk_status *st)
{
	if (nla_put_u32(skb, UACCESS_KADDR_A_CONFIG_MODE, st->mode) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS,
			st->ratelimit_interval_ms) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST,
			st->ratelimit_burst))
		return -EMSGSIZE;
	return 0;
}

static int uk_nl_set_config_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a_mode = info->attrs[UACCESS_KADDR_A_CONFIG_MODE];
	struct nlattr *a_interval =
		info->attrs[UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS];
	struct nlattr *a_burst =
		info->attrs[UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST];
	u32 mode, interval_ms, burst;
	struct uk_status st;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = uk_nl_check_sys_admin(skb, info->extack);
	if (err)
		return err;
	if (!a_mode && !a_interval && !a_burst) {
		NL_SET_ERR_MSG(info->extack, "no configuration attribute given");
		return -EINVAL;
	}
	if (a_mode)
		mode = nla_get_u32(a_mode);
	if (a_interval)
		interval_ms = nla_get_u32(a_interval);
	if (a_burst)
		burst = nla_get_u32(a_burst);

	/* Allocate first: do not apply a change that cannot be replied to. */
	msg = genlmsg_new(uk_config_msg_size(), GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "no memory for the reply");
		return -ENOMEM;
	}
	err = uk_set_config(a_mode ? &mode : NULL,
			    a_interval ? &interval_ms : NULL,
			    a_burst ? &burst : NULL);
	if (err) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack,
			       "failed to apply the configuration");
		return err;
	}

	uk_get_status(&st);
	hdr = genlmsg_iput(msg, info);
	if (!hdr || uk_config_fill(msg, &st)) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "config reply too large");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* dump-sites */

static int uk_site_fill(struct sk_buff *skb, struct netlink_callback *cb,
			unsigned int id, const struct uk_site *s)
{
	char comm[TASK_COMM_LEN];
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &uk_genl_family, NLM_F_MULTI,
			  UACCESS_KADDR_CMD_DUMP_SITES);
	if (!hdr)
		return -EMSGSIZE;

	/* Written by whichever CPU hit the site last, without a lock. */
	data_race(memcpy(comm, s->last_comm, sizeof(comm)));
	comm[sizeof(comm) - 1] = '\0';

	/*
	 * ip, kind, helper, dir and first_ts were written before ->ready was
	 * released and never change afterwards.
	 */
	if (nla_put_u32(skb, UACCESS_KADDR_A_SITE_SITE_ID, id) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_SITE_IP, s->ip,
			      UACCESS_KADDR_A_SITE_PAD) ||
	    uk_nl_put_symbol(skb, UACCESS_KADDR_A_SITE_SITE_SYMBOL, s->ip) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_SITE_KIND, s->kind) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_SITE_HELPER, s->helper) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_SITE_DIRECTION, s->dir) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_COUNT,
			      atomic64_read(&s->count),
			      UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_SUPPRESSED,
			      atomic64_read(&s->suppressed),
			      UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_REPORTED,
			      atomic64_read(&s->reported),
			      UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_FIRST_TIMESTAMP_BOOT,
			      s->first_ts, UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_LAST_TIMESTAMP_BOOT,
			      READ_ONCE(s->last_ts), UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_SITE_LAST_ADDRESS,
			      READ_ONCE(s->last_addr),
			      UACCESS_KADDR_A_SITE_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_SITE_LAST_PID,
			READ_ONCE(s->last_pid)) ||
	    nla_put_string(skb, UACCESS_KADDR_A_SITE_LAST_COMM, comm) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_SITE_STACK_HASH,
			READ_ONCE(s->stack_hash))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int uk_nl_dump_sites_start(struct netlink_callback *cb)
{
	return uk_nl_check_sys_admin(cb->skb, cb->extack);
}

/* One message per used slot; cb->args[0] is the next slot to look at. */
static int uk_nl_dump_sites_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	unsigned long i;
	int err;

	for (i = cb->args[0]; i < UK_SITES; i++) {
		const struct uk_site *s = uk_site_at(i);

		if (!s)
			continue;
		err = uk_site_fill(skb, cb, i, s);
		if (err) {
			/*
			 * The skb is full.  With a site in it the core ends
			 * this part of the dump and calls again, resuming at
			 * @i; an empty skb means the site can never fit.
			 */
			cb->args[0] = i;
			if (!skb->len)
				NL_SET_ERR_MSG(cb->extack,
					       "site message too large");
			return err;
		}
	}
	cb->args[0] = i;
	return skb->len;
}

/* event */

/*
 * Size of the event message.  Formats its symbols into uk_nl_syms[]: [0]
 * the site, [1 + i] frame i, which uk_event_fill() then puts.
 */
static size_t uk_event_msg_size(const struct uk_event *ev)
{
	unsigned int i, n = min_t(unsigned int, ev->nr_frames, UK_STACK_DEPTH);
	size_t size, sym;

	sym = uk_nl_format(0, ev->ip);
	size = nla_total_size_64bit(sizeof(u64)) +	/* SEQ */
	       nla_total_size_64bit(sizeof(u64)) +	/* TIMESTAMP_BOOT */
	       nla_total_size_64bit(sizeof(u64)) +	/* TIMESTAMP_REAL */
	       nla_total_size(sizeof(u32)) +		/* KIND */
	       nla_total_size(sizeof(u32)) +		/* HELPER */
	       nla_total_size(sizeof(u32)) +		/* DIRECTION */
	       nla_total_size(sizeof(u32)) +		/* ADDR_CLASS */
	       nla_total_size_64bit(sizeof(u64)) +	/* ADDRESS */
	       nla_total_size_64bit(sizeof(u64)) +	/* SIZE */
	       nla_total_size(sizeof(u32)) +		/* SITE_ID */
	       nla_total_size(sym) +			/* SITE_SYMBOL */
	       nla_total_size_64bit(sizeof(u64)) +	/* SITE_IP */
	       nla_total_size(sizeof(u32)) +		/* STACK_HASH */
	       nla_total_size(sizeof(u32)) +		/* PID */
	       nla_total_size(sizeof(u32)) +		/* TGID */
	       nla_total_size(TASK_COMM_LEN) +		/* COMM */
	       nla_total_size(sizeof(u32)) +		/* UID */
	       nla_total_size(sizeof(s32)) +		/* SYSCALL_NR */
	       nla_total_size(sizeof(u32)) +		/* CPU */
	       nla_total_size_64bit(sizeof(u64)) +	/* COUNT */
	       nla_total_size_64bit(sizeof(u64)) +	/* SUPPRESSED */
	       nla_total_size(sizeof(u32)) +		/* CONTEXT */
	       nla_total_size(sizeof(u32)) +		/* SYSCALL_ARCH */
	       UK_SYSCALL_ARGS *
	       nla_total_size_64bit(sizeof(u64));	/* SYSCALL_ARGS */

	for (i = 0; i < n; i++) {
		sym = uk_nl_format(1 + i, ev->frames[i]);
		/* STACK nest: STACK_FRAME_IP, STACK_FRAME_SYMBOL */
		size += nla_total_size(nla_total_size_64bit(sizeof(u64)) +
				       nla_total_size(sym));
	}
	return size;
}

static int uk_event_put_stack(struct sk_buff *skb, const struct uk_event *ev)
{
	unsigned int i, n = min_t(unsigned int, ev->nr_frames, UK_STACK_DEPTH);
	struct nlattr *frame;

	/* multi-attr: one STACK nest per frame, innermost first. */
	for (i = 0; i < n; i++) {
		frame = nla_nest_start(skb, UACCESS_KADDR_A_EVENT_STACK);
		if (!frame)
			return -EMSGSIZE;
		if (nla_put_u64_64bit(skb, UACCESS_KADDR_A_STACK_FRAME_IP,
				      ev->frames[i],
				      UACCESS_KADDR_A_STACK_FRAME_PAD) ||
		    nla_put_string(skb, UACCESS_KADDR_A_STACK_FRAME_SYMBOL,
				   uk_nl_syms[1 + i])) {
			nla_nest_cancel(skb, frame);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, frame);
	}
	return 0;
}

/* The system call as the task entered the kernel, when it made one. */
static int uk_event_put_syscall(struct sk_buff *skb,
				const struct uk_event *ev)
{
	unsigned int i;

	if (ev->syscall_nr < 0)
		return 0;
	if (nla_put_u32(skb, UACCESS_KADDR_A_EVENT_SYSCALL_ARCH,
			ev->syscall_arch))
		return -EMSGSIZE;
	/* multi-attr: one per argument, in order. */
	for (i = 0; i < UK_SYSCALL_ARGS; i++) {
		if (nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_SYSCALL_ARGS,
				      ev->syscall_args[i],
				      UACCESS_KADDR_A_EVENT_PAD))
			return -EMSGSIZE;
	}
	return 0;
}

static int uk_event_fill(struct sk_buff *skb, const struct uk_event *ev)
{
	void *hdr;

	hdr = genlmsg_put(skb, 0, 0, &uk_genl_family, 0,
			  UACCESS_KADDR_CMD_EVENT);
	if (!hdr)
		return -EMSGSIZE;

	/* The site is a return address (precheck) or a caller's address. */
	if (nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_SEQ, ev->seq,
			      UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT,
			      ev->ts_boot, UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL,
			      ev->ts_real, UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_KIND, ev->kind) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_HELPER, ev->helper) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_DIRECTION, ev->dir) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_ADDR_CLASS,
			ev->addr_class) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_ADDRESS, ev->addr,
			      UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_SIZE, ev->size,
			      UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_SITE_ID, ev->site_id) ||
	    nla_put_string(skb, UACCESS_KADDR_A_EVENT_SITE_SYMBOL,
			   uk_nl_syms[0]) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_SITE_IP, ev->ip,
			      UACCESS_KADDR_A_EVENT_PAD) ||
	    uk_event_put_stack(skb, ev) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_STACK_HASH,
			ev->stack_hash))
		goto nla_put_failure;

	/* pid, tgid, comm and uid describe a task: task context only. */
	if (ev->context == UKADDR_CTX_TASK &&
	    (nla_put_u32(skb, UACCESS_KADDR_A_EVENT_PID, ev->pid) ||
	     nla_put_u32(skb, UACCESS_KADDR_A_EVENT_TGID, ev->tgid) ||
	     nla_put_string(skb, UACCESS_KADDR_A_EVENT_COMM, ev->comm) ||
	     nla_put_u32(skb, UACCESS_KADDR_A_EVENT_UID, ev->uid)))
		goto nla_put_failure;

	if (nla_put_s32(skb, UACCESS_KADDR_A_EVENT_SYSCALL_NR,
			ev->syscall_nr) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_CPU, ev->cpu) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_COUNT, ev->count,
			      UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, UACCESS_KADDR_A_EVENT_SUPPRESSED,
			      ev->suppressed, UACCESS_KADDR_A_EVENT_PAD) ||
	    nla_put_u32(skb, UACCESS_KADDR_A_EVENT_CONTEXT, ev->context) ||
	    uk_event_put_syscall(skb, ev))
		goto nla_put_failure;

	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static struct sk_buff *uk_event_build(const struct uk_event *ev)
{
	struct sk_buff *skb;

	skb = genlmsg_new(uk_event_msg_size(ev), GFP_KERNEL);
	if (!skb)
		return NULL;
	if (uk_event_fill(skb, ev)) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/*
 * Is anyone subscribed to the "events" group?  False until the family is
 * registered.  Any context.
 */
static bool uk_netlink_has_listeners(void)
{
	/* Pairs with smp_store_release() in uk_netlink_init(). */
	if (!smp_load_acquire(&uk_nl_registered))
		return false;
	return genl_has_listeners(&uk_genl_family, &init_net,
				  UK_NLGRP_EVENTS) > 0;
}

/**
 * uk_netlink_send_event - send one event to the "events" multicast group
 * @ev: the event, as recorded in the hit context
 *
 * Builds a UACCESS_KADDR_CMD_EVENT message, symbolizing the site and the
 * stack trace, and multicasts it in the initial network namespace.  Nothing
 * is built when there is no listener.  A lost event is not reported to the
 * caller: the listener sees the gap in the sequence numbers.
 *
 * Context: process context, may sleep; the core's drain work only (the
 * symbols go through a static buffer).
 */
void uk_netlink_send_event(const struct uk_event *ev)
{
	struct sk_buff *skb;
	int err;

	if (!uk_netlink_has_listeners())
		return;

	skb = uk_event_build(ev);
	if (!skb) {
		uk_event_unsent();
		pr_warn_ratelimited("event %llu not sent: out of memory\n",
				    ev->seq);
		return;
	}
	/*
	 * -ESRCH: the last listener left since the check.  Any other error
	 * (a full receive queue) is reported to the listener by the socket.
	 */
	err = genlmsg_multicast(&uk_genl_family, skb, 0, UK_NLGRP_EVENTS,
				GFP_KERNEL);
	if (err && err != -ESRCH)
		pr_debug_ratelimited("event %llu not delivered: %d\n",
				     ev->seq, err);
}

static const struct genl_split_ops uk_nl_ops[] = {
	{
		.cmd		= UACCESS_KADDR_CMD_GET_STATUS,
		.doit		= uk_nl_get_status_doit,
		.policy		= uk_nl_reject_policy,
		.maxattr	= ARRAY_SIZE(uk_nl_reject_policy) - 1,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UACCESS_KADDR_CMD_SET_CONFIG,
		.doit		= uk_nl_set_config_doit,
		.policy		= uk_nl_set_config_policy,
		.maxattr	= UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UACCESS_KADDR_CMD_DUMP_SITES,
		.start		= uk_nl_dump_sites_start,
		.dumpit		= uk_nl_dump_sites_dumpit,
		.policy		= uk_nl_reject_policy,
		.maxattr	= ARRAY_SIZE(uk_nl_reject_policy) - 1,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= UACCESS_KADDR_CMD_RESET,
		.doit		= uk_nl_reset_doit,
		.policy		= uk_nl_reject_policy,
		.maxattr	= ARRAY_SIZE(uk_nl_reject_policy) - 1,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group uk_nl_mcgrps[] = {
	[UK_NLGRP_EVENTS] = {
		.name	= UACCESS_KADDR_MCGRP_EVENTS,
		.flags	= GENL_MCAST_CAP_SYS_ADMIN,
	},
};

/*
 * No handler relies on genl_mutex: the core's counters are atomic and
 * uk_set_config() takes its own lock, so parallel_ops is safe.
 */
static struct genl_family uk_genl_family __ro_after_init = {
	.name		= UACCESS_KADDR_FAMILY_NAME,
	.version	= UACCESS_KADDR_FAMILY_VERSION,
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= uk_nl_ops,
	.n_split_ops	= ARRAY_SIZE(uk_nl_ops),
	.mcgrps		= uk_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(uk_nl_mcgrps),
};

/*
 * Register the family; genl_init() ran at core_initcall.  Until then no
 * event is sent.
 */
static int __init uk_netlink_init(void)
{
	int err;

	err = genl_register_family(&uk_genl_family);
	if (err) {
		pr_err("cannot register the netlink family: %d\n", err);
		return err;
	}
	/* Pairs with smp_load_acquire() in uk_netlink_has_listeners(). */
	smp_store_release(&uk_nl_registered, true);
	return 0;
}
subsys_initcall(uk_netlink_init);
