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
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "common/time.h"
#include "common/json.h"
#include "common/nl.h"
#include "pipeline.h"

#define UK_LOSS_LOG_NS		(5 * UK_NSEC_PER_SEC)
#define UK_SUMMARIES_PER_FLUSH	100

/* -ERANGE for values the aggregator's 32-bit parameters cannot hold. */
static int agg_params(const struct uk_config *cfg, struct uk_agg_params *ap)
{
	if (cfg->max_sites > UINT32_MAX || cfg->samples > UINT32_MAX ||
	    cfg->site_burst > UINT32_MAX || cfg->global_rate > UINT32_MAX ||
	    cfg->global_burst > UINT32_MAX ||
	    cfg->site_interval_usec > UINT64_MAX / 1000)
		return -ERANGE;
	uk_agg_params_init(ap);
	ap->max_sites = (uint32_t)cfg->max_sites;
	ap->samples = (uint32_t)cfg->samples;
	ap->site_burst = (uint32_t)cfg->site_burst;
	ap->site_interval_ns = cfg->site_interval_usec * 1000;
	ap->global_rate = (uint32_t)cfg->global_rate;
	ap->global_burst = (uint32_t)cfg->global_burst;
	return 0;
}

int uk_pipeline_init(struct uk_pipeline *p, const struct uk_config *cfg)
{
	struct uk_agg_params ap;
	int r;

	memset(p, 0, sizeof(*p));
	uk_journal_init(&p->journal);
	p->cfg = cfg;
	p->seen = calloc(UK_SEEN_WINDOW / 8, 1);
	if (!p->seen)
		return -ENOMEM;
	r = agg_params(cfg, &ap);
	if (r == 0)
		r = uk_agg_new(&ap, &p->agg);
	return r;
}

void uk_pipeline_free(struct uk_pipeline *p)
{
	uk_agg_free(p->agg);
	p->agg = NULL;
	free(p->seen);
	p->seen = NULL;
}

int uk_pipeline_set_config(struct uk_pipeline *p, const struct uk_config *cfg)
{
	struct uk_agg_params ap;
	int r;

	r = agg_params(cfg, &ap);
	if (r == 0)
		r = uk_agg_set_params(p->agg, &ap);
	if (r == 0)
		p->cfg = cfg;
	return r;
}

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Every missing sequence number is one lost event, named once: a message
 * that did not parse left its number missing, and the kernel numbers the
 * events it drops; of what neither explains, the gaps after an overrun
 * are the overrun's and the rest are plain gaps.  Kernel drops count as
 * soon as get-status shows them, even before a later event reveals their
 * gap.
 */
static void update_loss(struct uk_pipeline *p)
{
	uint64_t kernel = p->kernel_dropped_acc +
			  sat_sub(p->kernel_dropped, p->kernel_dropped_base);
	uint64_t unexplained = sat_sub(p->gap_events + p->overrun_events,
				       p->malformed_noseq + kernel);
	uint64_t overrun = unexplained < p->overrun_events ?
			   unexplained : p->overrun_events;

	p->loss[UK_LOSS_MALFORMED] = p->malformed;
	p->loss[UK_LOSS_KERNEL_DROPPED] = kernel;
	p->loss[UK_LOSS_OVERRUN] = overrun;
	p->loss[UK_LOSS_SEQ_GAP] = unexplained - overrun;
	p->loss[UK_LOSS_SITE_OVERFLOW] = p->kernel_overflow_acc +
		sat_sub(p->kernel_overflow, p->kernel_overflow_base);
}

static int write_loss(struct uk_pipeline *p, enum uk_loss reason, uint64_t n,
		      const char *detail)
{
	int r;

	if (!n)
		return 0;
	r = uk_journal_loss(&p->journal, reason, n,
			    p->loss_reported[reason] + n, detail);
	if (r == 0)
		p->loss_reported[reason] += n;
	return r;
}

/*
 * The gap family (kernel drops, overruns, plain gaps) is reported as one:
 * a gap first written as a plain gap and later explained by a kernel drop
 * is not written again, and what is written adds up to the events lost.
 * Returns whether an entry was due.
 */
static bool report_gaps(struct uk_pipeline *p)
{
	static const enum uk_loss order[] = {
		UK_LOSS_KERNEL_DROPPED, UK_LOSS_OVERRUN, UK_LOSS_SEQ_GAP,
	};
	uint64_t total = 0, done = 0, left, d;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		total += p->loss[order[i]];
		done += p->loss_reported[order[i]];
	}
	if (total <= done)
		return false;
	left = total - done;
	for (i = 0; i < 3 && left; i++) {
		d = sat_sub(p->loss[order[i]], p->loss_reported[order[i]]);
		if (d > left)
			d = left;
		write_loss(p, order[i], d, order[i] == UK_LOSS_KERNEL_DROPPED ?
			   NULL : p->last_gap);
		left -= d;
	}
	return true;
}

static bool report_other(struct uk_pipeline *p, enum uk_loss reason,
			 const char *detail)
{
	if (p->loss[reason] <= p->loss_reported[reason])
		return false;
	write_loss(p, reason, p->loss[reason] - p->loss_reported[reason],
		   detail);
	return true;
}

/* Malformed messages: now, unless reported less than 5 s ago. */
static void malformed_now(struct uk_pipeline *p, uint64_t now_ns)
{
	uint64_t *last = &p->loss_logged_ns[UK_LOSS_MALFORMED];

	update_loss(p);
	if (*last && now_ns - *last < UK_LOSS_LOG_NS)
		return;
	if (report_other(p, UK_LOSS_MALFORMED, p->last_malformed))
		*last = now_ns;
}

void uk_pipeline_tick(struct uk_pipeline *p, uint64_t now_ns)
{
	uint64_t *last = &p->loss_logged_ns[UK_LOSS_SEQ_GAP];

	update_loss(p);
	if (p->gap_seen_ns && now_ns - p->gap_seen_ns < UK_GAP_GRACE_NS)
		return;
	if (*last && now_ns - *last < UK_LOSS_LOG_NS)
		return;
	if (report_gaps(p))
		*last = now_ns;
}

static void count_gap(struct uk_pipeline *p, uint64_t first, uint64_t last,
		      uint64_t now_ns);

/*
 * The kernel's last sequence number, read after the socket was drained:
 * events numbered up to it that never came are missing even if nothing
 * follows them (the end of a flood).  Events still on their way are
 * taken back when they arrive, as for any gap.
 */
static void catch_up(struct uk_pipeline *p, uint64_t kernel_last,
		     uint64_t now)
{
	if (!p->have_seq || kernel_last < p->last_seq)
		return;
	if (kernel_last == p->last_seq) {
		/* Nothing missing: an overrun lost nothing after all. */
		p->overrun_pending = false;
		return;
	}
	count_gap(p, p->last_seq + 1, kernel_last, now);
	p->last_seq = kernel_last;
}

/* Bit @seq of the window of received numbers. */
static bool seen_test_set(struct uk_pipeline *p, uint64_t seq)
{
	uint64_t bit = seq % UK_SEEN_WINDOW;
	uint8_t mask = (uint8_t)(1u << (bit % 8));
	bool was = p->seen[bit / 8] & mask;

	p->seen[bit / 8] |= mask;
	return was;
}

/* Numbers from..to (inclusive) not received: their bits cleared. */
static void seen_clear(struct uk_pipeline *p, uint64_t from, uint64_t to)
{
	if (to - from + 1 >= UK_SEEN_WINDOW) {
		memset(p->seen, 0, UK_SEEN_WINDOW / 8);
		return;
	}
	/* Bit by bit to a byte boundary, then whole bytes, then the rest. */
	for (; from <= to && from % 8; from++)
		p->seen[(from % UK_SEEN_WINDOW) / 8] &= (uint8_t)~(1u << (from % 8));
	for (; from <= to && to - from >= 7; from += 8)
		p->seen[(from % UK_SEEN_WINDOW) / 8] = 0;
	for (; from <= to; from++)
		p->seen[(from % UK_SEEN_WINDOW) / 8] &= (uint8_t)~(1u << (from % 8));
}

/* Numbers @first..@last did not come (yet). */
static void count_gap(struct uk_pipeline *p, uint64_t first, uint64_t last,
		      uint64_t now_ns)
{
	uint64_t gap = last - first + 1;

	if (p->overrun_pending)
		p->overrun_events += gap;
	else
		p->gap_events += gap;
	seen_clear(p, first, last);
	p->gap_seen_ns = now_ns;
	snprintf(p->last_gap, sizeof(p->last_gap),
		 "sequence %" PRIu64 " followed %" PRIu64, last + 1, first - 1);
	/*
	 * The kernel hands out ENOBUFS before the datagrams it had queued,
	 * so the overrun's gap is the first one after it, not the next
	 * event.
	 */
	p->overrun_pending = false;
}

/*
 * An event numbered below the highest seen was counted missing when that
 * one came (or by a catch-up) unless it was received already (a window of
 * UK_SEEN_WINDOW numbers tells): it was only late, and its gap shrinks.
 * The kernel drains its per-CPU queues in batches, and drops between them
 * use numbers too, so a late event can be far behind.  Numbers below our
 * first one (seq_first) were never counted.
 */
static void check_seq(struct uk_pipeline *p, uint64_t seq, uint64_t now_ns)
{
	if (p->have_seq && seq <= p->last_seq) {
		bool in_window = p->last_seq - seq < UK_SEEN_WINDOW;

		if (seq < p->seq_first || (in_window && seen_test_set(p, seq))) {
			p->late++;	/* before our time, or a duplicate */
		} else if (p->gap_events) {
			p->gap_events--;
			p->recovered++;
		} else if (p->overrun_events) {
			p->overrun_events--;
			p->recovered++;
		} else {
			p->late++;
		}
		return;
	}
	if (!p->have_seq)
		p->seq_first = seq;	/* seq - 1 would wrap at 0 */
	if (p->have_seq && seq > p->last_seq + 1)
		count_gap(p, p->last_seq + 1, seq - 1, now_ns);
	seen_test_set(p, seq);
	p->have_seq = true;
	p->last_seq = seq;
}

static void malformed(struct uk_pipeline *p, bool noseq, uint64_t now_ns)
{
	p->malformed++;
	if (noseq)
		p->malformed_noseq++;
	malformed_now(p, now_ns);
}

static void message(struct uk_pipeline *p, const struct nlmsghdr *nlh,
		    size_t len, uint64_t now_ns)
{
	const struct uk_agg_site *site;
	struct uk_event ev;
	bool forward;
	char why[160];
	int r;

	if (nlh->nlmsg_type != p->family) {
		p->other++;
		return;
	}
	/* Replies (dump-sites, status) in a replay are no events. */
	if (len >= NLMSG_HDRLEN + GENL_HDRLEN &&
	    ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd !=
	    UACCESS_KADDR_CMD_EVENT) {
		p->other++;
		return;
	}
	p->messages++;
	r = uk_event_parse(nlh, len, &ev, why, sizeof(why));
	if (r < 0) {
		snprintf(p->last_malformed, sizeof(p->last_malformed), "%s", why);
		/* Its number, if that much was readable, is no gap. */
		if (ev.present & (1ULL << UACCESS_KADDR_A_EVENT_SEQ))
			check_seq(p, ev.seq, now_ns);
		malformed(p, !(ev.present & (1ULL << UACCESS_KADDR_A_EVENT_SEQ)),
			  now_ns);
		return;
	}
	p->events++;
	check_seq(p, ev.seq, now_ns);

	/*
	 * Ignored sites are counted (here and in the kernel's totals, which
	 * the next re-sync brings), not aggregated: they must not use up
	 * the journal's budget nor get suppressed summaries.
	 */
	if (uk_config_ignored(p->cfg, ev.site_symbol)) {
		p->ignored++;
		return;
	}
	/* Recorded before a reset: counted, not folded into the new table. */
	if (p->reset_fence && ev.seq <= p->reset_fence) {
		p->before_reset++;
		return;
	}
	r = uk_agg_add_event(p->agg, &ev, now_ns, &site, &forward);
	if (r < 0) {
		snprintf(p->last_malformed, sizeof(p->last_malformed),
			 "event %" PRIu64 " not aggregated: %s", ev.seq,
			 strerror(-r));
		malformed(p, false, now_ns);
		return;
	}
	if (!forward)
		return;
	if (uk_journal_event(&p->journal, &ev, site->events) == 0)
		p->journaled++;
	else
		p->journal_lost++;
}

struct walk {
	struct uk_pipeline *p;
	uint64_t now_ns;
};

static int walk_message(const struct nlmsghdr *nlh, size_t len, void *data)
{
	struct walk *w = data;

	message(w->p, nlh, len, w->now_ns);
	return 0;
}

void uk_pipeline_datagram(struct uk_pipeline *p, const void *buf, size_t len,
			  uint64_t now_ns)
{
	struct walk w = { p, now_ns };
	char why[96];

	p->datagrams++;
	/* A bad length or bytes too few for a header: a message cut short. */
	if (uk_nl_walk(buf, len, walk_message, &w, why, sizeof(why)) < 0) {
		snprintf(p->last_malformed, sizeof(p->last_malformed),
			 "datagram of %zu bytes: %s", len, why);
		malformed(p, true, now_ns);
	}
	uk_pipeline_tick(p, now_ns);
}

void uk_pipeline_oversized(struct uk_pipeline *p, uint64_t now_ns)
{
	p->datagrams++;
	snprintf(p->last_malformed, sizeof(p->last_malformed),
		 "datagram larger than the %d-byte receive buffer", UK_NL_BUFSIZE);
	malformed(p, true, now_ns);
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
		/* What the counters held before us is not ours to report. */
		p->have_kernel = true;
		p->kernel_dropped_base = st->dropped;
		p->kernel_overflow_base = st->sites_overflow;
		p->kernel_dropped = st->dropped;
		p->kernel_overflow = st->sites_overflow;
		if (!p->have_seq) {
			p->have_seq = true;
			p->last_seq = st->last_seq;
			p->seq_first = st->last_seq < UINT64_MAX ?
				       st->last_seq + 1 : UINT64_MAX;
		}
	}
	/*
	 * A counter that went down was reset by someone else: keep what was
	 * counted so far, count from zero again.
	 */
	if (st->dropped < p->kernel_dropped) {
		p->kernel_dropped_acc += sat_sub(p->kernel_dropped,
						 p->kernel_dropped_base);
		p->kernel_dropped_base = 0;
	}
	if (st->sites_overflow < p->kernel_overflow) {
		p->kernel_overflow_acc += sat_sub(p->kernel_overflow,
						  p->kernel_overflow_base);
		p->kernel_overflow_base = 0;
	}
	p->kernel_dropped = st->dropped;
	p->kernel_overflow = st->sites_overflow;
	catch_up(p, st->last_seq, uk_time_now_ns());
	update_loss(p);
}

void uk_pipeline_sync_site(struct uk_pipeline *p, const struct uk_site *s)
{
	int r;

	/* A slot the kernel keeps after a reset, never hit since: no site. */
	if (!s->count && !uk_agg_find(p->agg, s->site_ip, s->kind, s->helper,
				      s->direction))
		return;
	r = uk_agg_sync_site(p->agg, s, NULL);
	if (r < 0) {
		char msg[sizeof(p->last_sync_refused)];

		/*
		 * Not a lost event: nothing was sent that did not arrive, and
		 * every re-sync meets the same reply again.  Counted, and
		 * logged once per cause.
		 */
		p->sync_refused++;
		snprintf(msg, sizeof(msg),
			 "dump-sites reply of site %" PRIu32 " not merged: %s",
			 s->site_id, strerror(-r));
		if (strcmp(msg, p->last_sync_refused)) {
			snprintf(p->last_sync_refused,
				 sizeof(p->last_sync_refused), "%s", msg);
			uk_journal_health(&p->journal, LOG_WARNING,
					  "sync-refused", "%s", msg);
		}
	}
}

void uk_pipeline_kernel_reset(struct uk_pipeline *p,
			      const struct uk_status *old)
{
	struct uk_agg_stats st;

	/* The daemon's table starts again too; its own counts go on. */
	uk_agg_get_stats(p->agg, &st);
	p->evicted_acc += st.evicted;
	p->evicted_pending_acc += st.evicted_pending;
	uk_agg_reset(p->agg);
	p->reset_fence = old->last_seq;
	if (p->have_kernel) {
		p->kernel_dropped_acc += sat_sub(old->dropped,
						 p->kernel_dropped_base);
		p->kernel_overflow_acc += sat_sub(old->sites_overflow,
						  p->kernel_overflow_base);
	}
	p->kernel_dropped_base = 0;
	p->kernel_overflow_base = 0;
	p->kernel_dropped = 0;
	p->kernel_overflow = 0;
	update_loss(p);
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
	uint64_t pending;

	uk_agg_take_summaries(p->agg, summary_cb, &w);
	uk_agg_get_stats(p->agg, &st);
	/* Sites evicted with suppressed occurrences not yet summarized. */
	pending = p->evicted_pending_acc + st.evicted_pending;
	if (pending > p->evicted_summarized &&
	    uk_journal_suppressed(&p->journal, "(sites evicted from uaccessd's table)",
				  0, 0, 0, pending - p->evicted_summarized,
				  pending) == 0)
		p->evicted_summarized = pending;
	p->loss[UK_LOSS_EVICTED] = p->evicted_acc + st.evicted;
	update_loss(p);
	report_gaps(p);
	report_other(p, UK_LOSS_MALFORMED, p->last_malformed);
	report_other(p, UK_LOSS_SITE_OVERFLOW, NULL);
	report_other(p, UK_LOSS_EVICTED, NULL);
}

/* Event entries the journal refused are counted as they happen. */
uint64_t uk_pipeline_loss(const struct uk_pipeline *p, enum uk_loss reason)
{
	return reason == UK_LOSS_JOURNAL ? p->journal_lost : p->loss[reason];
}

/*
 * Events lost on their way to the journal, each counted once; events the
 * journal refused are in it (other entries it refused are not events),
 * site-table overflows and evictions are not (those hits were counted,
 * only not attributed to their site).
 */
uint64_t uk_pipeline_lost(const struct uk_pipeline *p)
{
	return p->loss[UK_LOSS_KERNEL_DROPPED] + p->loss[UK_LOSS_SEQ_GAP] +
	       p->loss[UK_LOSS_OVERRUN] + p->loss[UK_LOSS_MALFORMED] +
	       uk_pipeline_loss(p, UK_LOSS_JOURNAL);
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
	uk_json_kv_u64(j, "recovered", p->recovered);
	uk_json_kv_u64(j, "before_reset", p->before_reset);
	uk_json_kv_u64(j, "sync_refused", p->sync_refused);
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
		uk_json_kv_u64(j, uk_loss_name(r), uk_pipeline_loss(p, r));
	uk_json_object_end(j);
	uk_json_kv_u64(j, "lost", uk_pipeline_lost(p));
}
