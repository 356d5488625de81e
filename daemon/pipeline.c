// SPDX-License-Identifier: GPL-2.0
/*
 * The event pipeline of uaccessd: parse, check the sequence, aggregate,
 * ratelimit, journal; count every loss by its reason and write it to the
 * journal at ERR, at most once per reason per UK_LOSS_LOG_NS (the rest
 * are added up and written by the next flush).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <linux/netlink.h>

#include "json.h"
#include "pipeline.h"

#define UK_LOSS_LOG_NS		(5 * UK_NSEC_PER_SEC)
#define UK_SUMMARIES_PER_FLUSH	100

static void agg_params(const struct uk_config *cfg, struct uk_agg_params *ap)
{
	uk_agg_params_init(ap);
	ap->max_sites = (uint32_t)cfg->max_sites;
	ap->samples = (uint32_t)cfg->samples;
	ap->site_burst = (uint32_t)cfg->site_burst;
	ap->site_interval_ns = cfg->site_interval_usec * 1000;
	ap->global_rate = (uint32_t)cfg->global_rate;
	ap->global_burst = (uint32_t)cfg->global_burst;
}

int uk_pipeline_init(struct uk_pipeline *p, const struct uk_config *cfg)
{
	struct uk_agg_params ap;

	memset(p, 0, sizeof(*p));
	uk_journal_init(&p->journal);
	p->cfg = cfg;
	agg_params(cfg, &ap);
	return uk_agg_new(&ap, &p->agg);
}

void uk_pipeline_free(struct uk_pipeline *p)
{
	uk_agg_free(p->agg);
	p->agg = NULL;
}

int uk_pipeline_set_config(struct uk_pipeline *p, const struct uk_config *cfg)
{
	struct uk_agg_params ap;
	int r;

	agg_params(cfg, &ap);
	r = uk_agg_set_params(p->agg, &ap);
	if (r == 0)
		p->cfg = cfg;
	return r;
}

/*
 * Every missing sequence number is one lost event, named once: a message
 * that did not parse left its number missing, and the kernel numbers the
 * events it drops; what neither explains is a plain gap.  Kernel drops
 * count as soon as get-status shows them, even before a later event
 * reveals their gap.
 */
static void update_loss(struct uk_pipeline *p)
{
	uint64_t kernel = p->kernel_dropped - p->kernel_dropped_base;
	uint64_t gap = p->gap_events;

	p->loss[UK_LOSS_MALFORMED] = p->malformed;
	gap = gap > p->malformed_noseq ? gap - p->malformed_noseq : 0;
	p->loss[UK_LOSS_KERNEL_DROPPED] = kernel;
	p->loss[UK_LOSS_SEQ_GAP] = gap > kernel ? gap - kernel : 0;
	p->loss[UK_LOSS_OVERRUN] = p->overrun_events;
}

/* Write the loss of @reason not yet reported; 0 when nothing was due. */
static int report_loss(struct uk_pipeline *p, enum uk_loss reason,
		       const char *detail)
{
	uint64_t n;
	int r;

	update_loss(p);
	/* A gap later explained by a kernel drop is not reported twice. */
	if (p->loss[reason] <= p->loss_reported[reason])
		return 0;
	n = p->loss[reason] - p->loss_reported[reason];
	r = uk_journal_loss(&p->journal, reason, n, p->loss[reason], detail);
	if (r == 0)
		p->loss_reported[reason] = p->loss[reason];
	return r;
}

/* Report now unless this reason was reported less than 5 s ago. */
static void loss_now(struct uk_pipeline *p, enum uk_loss reason,
		     const char *detail, uint64_t now_ns)
{
	if (p->loss_logged_ns[reason] &&
	    now_ns - p->loss_logged_ns[reason] < UK_LOSS_LOG_NS)
		return;
	p->loss_logged_ns[reason] = now_ns;
	report_loss(p, reason, detail);
}

static void check_seq(struct uk_pipeline *p, uint64_t seq, uint64_t now_ns)
{
	enum uk_loss reason;
	uint64_t gap;
	char detail[96];

	if (p->have_seq && seq <= p->last_seq) {
		p->late++;
		return;
	}
	if (p->have_seq && seq > p->last_seq + 1) {
		gap = seq - p->last_seq - 1;
		if (p->overrun_pending) {
			reason = UK_LOSS_OVERRUN;
			p->overrun_events += gap;
		} else {
			reason = UK_LOSS_SEQ_GAP;
			p->gap_events += gap;
		}
		snprintf(detail, sizeof(detail),
			 "sequence %" PRIu64 " followed %" PRIu64, seq,
			 p->last_seq);
		loss_now(p, reason, detail, now_ns);
	}
	p->overrun_pending = false;
	p->have_seq = true;
	p->last_seq = seq;
}

static void message(struct uk_pipeline *p, const struct nlmsghdr *nlh,
		    size_t len, uint64_t now_ns)
{
	const struct uk_agg_site *site;
	struct uk_event ev;
	bool forward, ignored;
	char why[160];
	int r;

	if (nlh->nlmsg_type != p->family) {
		p->other++;
		return;
	}
	p->messages++;
	r = uk_event_parse(nlh, len, &ev, why, sizeof(why));
	if (r < 0) {
		p->malformed++;
		/* Its number, if that much was readable, is no gap. */
		if (ev.present & (1ULL << UACCESS_KADDR_A_EVENT_SEQ))
			check_seq(p, ev.seq, now_ns);
		else
			p->malformed_noseq++;
		snprintf(p->last_malformed, sizeof(p->last_malformed), "%s", why);
		loss_now(p, UK_LOSS_MALFORMED, why, now_ns);
		return;
	}
	p->events++;
	check_seq(p, ev.seq, now_ns);

	ignored = uk_config_ignored(p->cfg, ev.site_symbol);
	r = uk_agg_add_event(p->agg, &ev, now_ns, &site, &forward);
	if (r < 0) {
		p->malformed++;
		snprintf(p->last_malformed, sizeof(p->last_malformed),
			 "event %" PRIu64 " not aggregated: %s", ev.seq,
			 strerror(-r));
		loss_now(p, UK_LOSS_MALFORMED, p->last_malformed, now_ns);
		return;
	}
	if (ignored) {
		p->ignored++;
		return;
	}
	if (!forward)
		return;
	if (uk_journal_event(&p->journal, &ev, site->events) == 0)
		p->journaled++;
	else
		p->journal_lost++;
}

void uk_pipeline_datagram(struct uk_pipeline *p, const void *buf, size_t len,
			  uint64_t now_ns)
{
	const struct nlmsghdr *nlh = buf;
	size_t left = len;

	p->datagrams++;
	while (left >= sizeof(*nlh)) {
		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > left) {
			p->malformed++;
			p->malformed_noseq++;
			snprintf(p->last_malformed, sizeof(p->last_malformed),
				 "datagram of %zu bytes: message length %" PRIu32
				 " at offset %zu", len, nlh->nlmsg_len,
				 len - left);
			loss_now(p, UK_LOSS_MALFORMED, p->last_malformed,
				 now_ns);
			break;
		}
		message(p, nlh, nlh->nlmsg_len, now_ns);
		if (NLMSG_ALIGN(nlh->nlmsg_len) >= left)
			break;
		left -= NLMSG_ALIGN(nlh->nlmsg_len);
		nlh = (const struct nlmsghdr *)((const char *)nlh +
						NLMSG_ALIGN(nlh->nlmsg_len));
	}
	update_loss(p);
}

void uk_pipeline_overrun(struct uk_pipeline *p)
{
	p->overruns++;
	p->overrun_pending = true;
	uk_journal_health(&p->journal, LOG_ERR, "overrun",
			  "netlink receive buffer overrun (%" PRIu64
			  " so far): events lost, re-syncing per-site totals "
			  "from the kernel; raise rcvbuf in %s",
			  p->overruns, UK_CONFIG_PATH);
}

void uk_pipeline_kernel_status(struct uk_pipeline *p,
			       const struct uk_status *st)
{
	if (!p->have_kernel) {
		p->have_kernel = true;
		p->kernel_dropped_base = st->dropped;
		p->kernel_overflow_base = st->sites_overflow;
		if (!p->have_seq) {
			p->have_seq = true;
			p->last_seq = st->last_seq;
		}
	}
	/* A reset of the kernel counters shows as a drop: a new baseline. */
	if (st->dropped < p->kernel_dropped ||
	    st->sites_overflow < p->kernel_overflow) {
		p->kernel_dropped_base = st->dropped;
		p->kernel_overflow_base = st->sites_overflow;
	}
	p->kernel_dropped = st->dropped;
	p->kernel_overflow = st->sites_overflow;
	p->loss[UK_LOSS_SITE_OVERFLOW] = st->sites_overflow -
					 p->kernel_overflow_base;
	update_loss(p);
}

void uk_pipeline_sync_site(struct uk_pipeline *p, const struct uk_site *s)
{
	uk_agg_sync_site(p->agg, s, NULL);
}

void uk_pipeline_kernel_reset(struct uk_pipeline *p)
{
	p->have_kernel = false;
	p->kernel_dropped = 0;
	p->kernel_overflow = 0;
}

struct summary_walk {
	struct uk_pipeline *p;
	unsigned int left;
};

static int summary_cb(const struct uk_agg_site *site, uint64_t suppressed,
		      void *userdata)
{
	struct summary_walk *w = userdata;

	/* Stop here: the rest stay pending for the next flush. */
	if (!w->left)
		return -EAGAIN;
	w->left--;
	return uk_journal_suppressed(&w->p->journal, site->symbol,
				     site->site_ip, site->kind, site->helper,
				     suppressed, site->rl.suppressed_total);
}

void uk_pipeline_flush(struct uk_pipeline *p)
{
	struct summary_walk w = { p, UK_SUMMARIES_PER_FLUSH };
	struct uk_agg_stats st;
	enum uk_loss r;

	uk_agg_take_summaries(p->agg, summary_cb, &w);
	uk_agg_get_stats(p->agg, &st);
	/* Sites evicted with suppressed occurrences not yet summarized. */
	if (st.evicted_pending > p->evicted_summarized &&
	    uk_journal_suppressed(&p->journal, "(sites evicted from uaccessd's table)",
				  0, 0, 0, st.evicted_pending - p->evicted_summarized,
				  st.evicted_pending) == 0)
		p->evicted_summarized = st.evicted_pending;
	if (st.evicted > p->loss[UK_LOSS_EVICTED])
		p->loss[UK_LOSS_EVICTED] = st.evicted;
	for (r = 0; r < UK_LOSS_NR; r++) {
		if (r == UK_LOSS_JOURNAL)
			continue;	/* the journal reports its own */
		report_loss(p, r, r == UK_LOSS_MALFORMED ?
			    p->last_malformed : NULL);
	}
}

/*
 * Events lost on their way to the journal, each counted once; events the
 * journal refused are in it (other entries it refused are not events), site-table overflows and evictions are not
 * (those hits were counted, only not attributed to their site).
 */
uint64_t uk_pipeline_lost(const struct uk_pipeline *p)
{
	return p->loss[UK_LOSS_KERNEL_DROPPED] + p->loss[UK_LOSS_SEQ_GAP] +
	       p->loss[UK_LOSS_OVERRUN] + p->loss[UK_LOSS_MALFORMED] +
	       p->journal_lost;
}

void uk_pipeline_json(const struct uk_pipeline *p, struct uk_json *j)
{
	struct uk_agg_stats st;
	enum uk_loss r;

	uk_agg_get_stats(p->agg, &st);
	uk_json_kv_u64(j, "datagrams", p->datagrams);
	uk_json_kv_u64(j, "messages", p->messages);
	uk_json_kv_u64(j, "events", p->events);
	uk_json_kv_u64(j, "journaled", p->journaled);
	uk_json_kv_u64(j, "suppressed", st.suppressed);
	uk_json_kv_u64(j, "suppressed_global", st.suppressed_global);
	uk_json_kv_u64(j, "ignored", p->ignored);
	uk_json_kv_u64(j, "late", p->late);
	uk_json_kv_u64(j, "other_messages", p->other);
	uk_json_kv_u64(j, "overruns", p->overruns);
	uk_json_kv_u64(j, "resyncs", p->resyncs);
	uk_json_kv_u64(j, "last_seq", p->last_seq);
	uk_json_kv_u64(j, "sites", st.sites);
	uk_json_kv_u64(j, "max_sites", st.max_sites);
	uk_json_kv_u64(j, "stacks", st.stacks);
	uk_json_kv_u64(j, "journal_sent", p->journal.sent);
	uk_json_kv_u64(j, "journal_failed", p->journal.failed);
	uk_json_kv_u64(j, "journal_lost_events", p->journal_lost);
	if (p->journal.last_error)
		uk_json_kv_str(j, "journal_last_error",
			       strerror(-p->journal.last_error));
	uk_json_key(j, "loss");
	uk_json_object_begin(j);
	for (r = 0; r < UK_LOSS_NR; r++)
		uk_json_kv_u64(j, uk_loss_name(r), r == UK_LOSS_JOURNAL ?
			       p->journal.failed : p->loss[r]);
	uk_json_object_end(j);
	uk_json_kv_u64(j, "lost", uk_pipeline_lost(p));
}
