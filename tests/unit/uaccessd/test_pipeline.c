// SPDX-License-Identifier: GPL-2.0
/*
 * The event pipeline of uaccessd (daemon/uaccessd/pipeline.c): datagrams in,
 * journal entries out, every loss counted by its reason.  Messages are
 * built with msgbuild.h as the kernel sends them; a recording sendv()
 * replaces sd_journal_sendv() and can be told to fail.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/audit.h>
#include <linux/genetlink.h>

#include "common/json.h"
#include "msgbuild.h"
#include "uaccessd/pipeline.h"
#include "common/util.h"
#include "journal_rec.h"

#define FAMILY		0x1d
#define MS		1000000ULL
#define SEC		1000000000ULL
#define T0		(100 * SEC)	/* CLOCK_MONOTONIC of the first event */
#define BUFLEN		16384

static uint64_t val_u64(const struct uk_rec_entry *e, const char *key)
{
	const char *v = uk_rec_val(e, key);

	if (!v)
		fail_msg("field %s missing", key);
	return strtoull(v, NULL, 10);
}

/* Entries from @from on whose @key is @value. */
static int count_from(int from, const char *key, const char *value)
{
	int i, c = 0;

	for (i = from; i < uk_rec.n; i++) {
		const char *v = uk_rec_val(&uk_rec.e[i], key);

		c += v && !strcmp(v, value);
	}
	return c;
}

static int count(const char *key, const char *value)
{
	return count_from(0, key, value);
}

/* The @nth (from 0) entry whose @key is @value. */
static const struct uk_rec_entry *nth(const char *key, const char *value,
				   int nth)
{
	int i;

	for (i = 0; i < uk_rec.n; i++) {
		const char *v = uk_rec_val(&uk_rec.e[i], key);

		if (v && !strcmp(v, value) && nth-- == 0)
			return &uk_rec.e[i];
	}
	fail_msg("no entry %d with %s=%s (%d entries)", nth, key, value,
		 uk_rec.n);
	return NULL;
}

static int loss_entries(enum uk_loss r)
{
	return count("UACCESS_LOSS_REASON", uk_loss_name(r));
}

/* The @i-th loss entry of reason @r says @n (total @total). */
static void assert_loss_entry(enum uk_loss r, int i, uint64_t n,
			      uint64_t total)
{
	const struct uk_rec_entry *e = nth("UACCESS_LOSS_REASON",
					uk_loss_name(r), i);

	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_LOSS);
	uk_rec_assert_val(e, "PRIORITY", "3");
	if (val_u64(e, "UACCESS_LOSS_COUNT") != n ||
	    val_u64(e, "UACCESS_LOSS_TOTAL") != total)
		fail_msg("loss entry %d of %s: expected %" PRIu64 " (total %"
			 PRIu64 "), got %s (total %s)", i, uk_loss_name(r), n,
			 total, uk_rec_val(e, "UACCESS_LOSS_COUNT"),
			 uk_rec_val(e, "UACCESS_LOSS_TOTAL"));
}

/* Events said lost by the loss entries (the reasons of uk_pipeline_lost). */
static uint64_t journaled_event_loss(void)
{
	static const enum uk_loss reasons[] = {
		UK_LOSS_KERNEL_DROPPED, UK_LOSS_SEQ_GAP, UK_LOSS_OVERRUN,
		UK_LOSS_MALFORMED,
	};
	uint64_t sum = 0;
	size_t r;
	int i;

	for (r = 0; r < ARRAY_SIZE(reasons); r++)
		for (i = 0; i < loss_entries(reasons[r]); i++)
			sum += val_u64(nth("UACCESS_LOSS_REASON",
					   uk_loss_name(reasons[r]), i),
				       "UACCESS_LOSS_COUNT");
	return sum;
}

/* ---- the pipeline under test ---- */

static struct uk_pipeline pl;
static struct uk_config cfg;
static bool started;

static int setup(void **state)
{
	uk_rec_reset();
	uk_config_defaults(&cfg);
	started = false;
	return 0;
}

static int teardown(void **state)
{
	if (started)
		uk_pipeline_free(&pl);
	uk_config_free(&cfg);
	uk_rec_reset();
	return 0;
}

/* The pipeline with the defaults changed by @conf (config file text). */
static void start(const char *conf)
{
	char err[256];
	int r;

	if (conf) {
		r = uk_config_parse_buffer("test.conf", conf, strlen(conf),
					   &cfg, err, sizeof(err));
		if (r < 0)
			fail_msg("config: %s", err);
	}
	assert_int_equal(uk_pipeline_init(&pl, &cfg), 0);
	started = true;
	pl.journal.sendv = uk_rec_sendv;
	pl.family = FAMILY;
}

/* As tests/tools/uk-genreplay.c fills them: every attribute, two frames. */
static void fill(struct uk_event *ev, uint64_t seq, unsigned int site)
{
	int a;

	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->ts_boot = 1000000000ULL + seq * 1000;
	ev->ts_real = 1764000000000000000ULL + seq * 1000;
	ev->kind = UACCESS_KADDR_KIND_PRECHECK;
	ev->helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED;
	ev->address = 0xffff888000100000ULL + seq * 8;
	ev->size = 16;
	ev->site_id = site;
	snprintf(ev->site_symbol, sizeof(ev->site_symbol),
		 "uk_site_%u+0x1c/0x80", site);
	ev->site_ip = 0xffffffff81000000ULL + 0x40 * (uint64_t)site;
	ev->stack_hash = 0x1000 + site % 7;
	ev->pid = 100;
	ev->tgid = 100;
	snprintf(ev->comm, sizeof(ev->comm), "uk-gen");
	ev->uid = 1000;
	ev->syscall_nr = 247;
	ev->syscall_arch = AUDIT_ARCH_X86_64;
	ev->syscall_args = (struct uk_syscall_args){
		.nr = UK_SYSCALL_ARGS, .v = { 1, ev->pid, ev->address, 4 },
	};
	ev->cpu = 1;
	ev->count = seq;
	ev->context = UACCESS_KADDR_CONTEXT_TASK;
	ev->nr_frames = 2;
	snprintf(ev->frames[0].symbol, sizeof(ev->frames[0].symbol), "%s",
		 ev->site_symbol);
	ev->frames[0].ip = ev->site_ip;
	snprintf(ev->frames[1].symbol, sizeof(ev->frames[1].symbol),
		 "do_syscall_64+0x5d/0x170");
	ev->frames[1].ip = 0xffffffff82000000ULL;
	for (a = UACCESS_KADDR_A_EVENT_SEQ; a <= UACCESS_KADDR_A_EVENT_MAX; a++)
		ev->present |= 1ULL << a;
}

static size_t build(const struct uk_event *ev, void *buf, size_t len)
{
	int n = uk_event_build(ev, FAMILY, (uint32_t)ev->seq, buf, len);

	if (n < 0)
		fail_msg("uk_event_build: %d", n);
	return (size_t)n;
}

static void feed_event(const struct uk_event *ev, uint64_t now)
{
	_Alignas(8) static unsigned char buf[BUFLEN];

	uk_pipeline_datagram(&pl, buf, build(ev, buf, sizeof(buf)), now);
}

static void feed(uint64_t seq, unsigned int site, uint64_t now)
{
	struct uk_event ev;

	fill(&ev, seq, site);
	feed_event(&ev, now);
}

/* Event @seq with its last attribute cut short: the seq is readable. */
static void feed_cut(uint64_t seq, uint64_t now)
{
	_Alignas(8) static unsigned char buf[BUFLEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct uk_event ev;

	fill(&ev, seq, 0);
	build(&ev, buf, sizeof(buf));
	nlh->nlmsg_len -= 2;
	uk_pipeline_datagram(&pl, buf, nlh->nlmsg_len, now);
}

/* Event @seq whose SEQ attribute has a bad length: no seq to read. */
static void feed_bad_seq(uint64_t seq, uint64_t now)
{
	_Alignas(8) static unsigned char buf[BUFLEN];
	struct nlattr *a = (struct nlattr *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);
	struct uk_event ev;
	size_t len;

	fill(&ev, seq, 0);
	len = build(&ev, buf, sizeof(buf));
	assert_int_equal(a->nla_type, UACCESS_KADDR_A_EVENT_SEQ);
	assert_int_equal(a->nla_len, NLA_HDRLEN + 8);
	a->nla_len = NLA_HDRLEN + 4;
	uk_pipeline_datagram(&pl, buf, len, now);
}

static void kernel_status(uint64_t dropped, uint64_t overflow,
			  uint64_t last_seq)
{
	struct uk_status st;

	memset(&st, 0, sizeof(st));
	st.mode = UACCESS_KADDR_MODE_REPORT;
	st.dropped = dropped;
	st.sites_overflow = overflow;
	st.last_seq = last_seq;
	st.present = (1ULL << UACCESS_KADDR_A_STATUS_MODE) |
		     (1ULL << UACCESS_KADDR_A_STATUS_DROPPED) |
		     (1ULL << UACCESS_KADDR_A_STATUS_SITES_OVERFLOW) |
		     (1ULL << UACCESS_KADDR_A_STATUS_LAST_SEQ);
	uk_pipeline_kernel_status(&pl, &st);
}

static struct uk_agg_stats agg_stats(void)
{
	struct uk_agg_stats st;

	uk_agg_get_stats(pl.agg, &st);
	return st;
}

static void assert_lost(uint64_t want)
{
	uint64_t lost = uk_pipeline_lost(&pl);

	if (lost != want)
		fail_msg("uk_pipeline_lost: expected %" PRIu64 ", got %" PRIu64
			 " (dropped %" PRIu64 " gap %" PRIu64 " overrun %"
			 PRIu64 " malformed %" PRIu64 " journal %" PRIu64 ")",
			 want, lost, pl.loss[UK_LOSS_KERNEL_DROPPED],
			 pl.loss[UK_LOSS_SEQ_GAP], pl.loss[UK_LOSS_OVERRUN],
			 pl.loss[UK_LOSS_MALFORMED], pl.journal_lost);
}

#define MSGID		"MESSAGE_ID"
#define SITE_SYM(n)	"uk_site_" #n "+0x1c/0x80"

/* ---- events, ratelimit, summaries ---- */

static void events_within_the_site_burst_are_journaled(void **state)
{
	static const char *const seqs[] = { "1", "2", "3", "4", "5", "6" };
	static const char *const site_events[] = { "1", "1", "2", "2", "3", "3" };
	unsigned int i;

	start("site_burst = 3\n");
	for (i = 0; i < 14; i++)
		feed(i + 1, i % 2, T0 + i * MS);
	assert_int_equal(pl.datagrams, 14);
	assert_int_equal(pl.messages, 14);
	assert_int_equal(pl.events, 14);
	assert_int_equal(pl.journaled, 6);
	assert_int_equal(agg_stats().suppressed, 8);
	assert_int_equal(uk_rec.n, 6);
	for (i = 0; i < 6; i++) {
		uk_rec_assert_val(&uk_rec.e[i], MSGID, UK_MSGID_EVENT);
		uk_rec_assert_val(&uk_rec.e[i], "PRIORITY", "4");
		uk_rec_assert_val(&uk_rec.e[i], "UACCESS_SEQ", seqs[i]);
		uk_rec_assert_val(&uk_rec.e[i], "UACCESS_SITE_EVENTS", site_events[i]);
		uk_rec_assert_val(&uk_rec.e[i], "UACCESS_SITE_SYMBOL",
			   i % 2 ? SITE_SYM(1) : SITE_SYM(0));
	}
	assert_lost(0);
}

static void flush_writes_one_summary_per_site(void **state)
{
	const struct uk_rec_entry *e;
	unsigned int i;
	int before;

	start("site_burst = 3\n");
	for (i = 0; i < 14; i++)
		feed(i + 1, i % 2, T0 + i * MS);
	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.n, 6 + 2);
	assert_int_equal(count(MSGID, UK_MSGID_SUPPRESSED), 2);
	e = nth("UACCESS_SITE_SYMBOL", SITE_SYM(0), 3);
	uk_rec_assert_val(e, MSGID, UK_MSGID_SUPPRESSED);
	uk_rec_assert_val(e, "PRIORITY", "4");
	uk_rec_assert_val(e, "MESSAGE",
		   "4 more events at " SITE_SYM(0) " held back by uaccessd's ratelimit (total 4)");
	uk_rec_assert_val(e, "UACCESS_SUPPRESSED_COUNT", "4");
	uk_rec_assert_val(e, "UACCESS_SUPPRESSED_TOTAL", "4");
	uk_rec_assert_val(e, "UACCESS_SITE_IP", "0xffffffff81000000");
	uk_rec_assert_val(e, "UACCESS_KIND", "precheck");
	uk_rec_assert_val(e, "UACCESS_HELPER", "__copy_to_user");
	e = nth("UACCESS_SITE_SYMBOL", SITE_SYM(1), 3);
	uk_rec_assert_val(e, "MESSAGE",
		   "4 more events at " SITE_SYM(1) " held back by uaccessd's ratelimit (total 4)");
	uk_rec_assert_val(e, "UACCESS_SITE_IP", "0xffffffff81000040");
	assert_int_equal(count(MSGID, UK_MSGID_LOSS), 0);

	/* Nothing new: nothing written. */
	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.n, 8);

	/* Two more of site 0 in the same window: "2 more (total 6)". */
	feed(15, 0, T0 + 20 * MS);
	feed(16, 0, T0 + 21 * MS);
	before = uk_rec.n;
	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.n, before + 1);
	uk_rec_assert_val(&uk_rec.e[before], "MESSAGE",
		   "2 more events at " SITE_SYM(0) " held back by uaccessd's ratelimit (total 6)");
	uk_rec_assert_val(&uk_rec.e[before], "UACCESS_SUPPRESSED_TOTAL", "6");
}

static void flush_writes_at_most_100_summaries_the_rest_next_time(void **state)
{
	static bool seen[150];
	unsigned int i, site;
	int k;

	start("site_burst = 1\n");
	for (i = 0; i < 150; i++) {
		feed(2 * i + 1, i, T0 + i * MS);
		feed(2 * i + 2, i, T0 + i * MS);
	}
	assert_int_equal(pl.journaled, 150);
	memset(seen, 0, sizeof(seen));
	uk_pipeline_flush(&pl);
	assert_int_equal(count(MSGID, UK_MSGID_SUPPRESSED), 100);
	uk_pipeline_flush(&pl);
	assert_int_equal(count(MSGID, UK_MSGID_SUPPRESSED), 150);
	uk_pipeline_flush(&pl);
	assert_int_equal(count(MSGID, UK_MSGID_SUPPRESSED), 150);
	for (k = 0; k < 150; k++) {
		const struct uk_rec_entry *e = nth(MSGID, UK_MSGID_SUPPRESSED, k);

		assert_int_equal(sscanf(uk_rec_val(e, "UACCESS_SITE_SYMBOL"),
					"uk_site_%u+", &site), 1);
		assert_true(site < 150);
		if (seen[site])
			fail_msg("site %u summarized twice", site);
		seen[site] = true;
		uk_rec_assert_val(e, "UACCESS_SUPPRESSED_COUNT", "1");
	}
}

static void summary_refused_by_the_journal_stays_pending(void **state)
{
	const struct uk_rec_entry *e;

	start("site_burst = 1\n");
	feed(1, 0, T0);
	feed(2, 0, T0);
	feed(3, 0, T0);
	assert_int_equal(uk_rec.n, 1);
	uk_rec_plan(-EAGAIN, 1);
	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.calls, 2);
	assert_int_equal(uk_rec.n, 1);
	assert_int_equal(pl.journal.failed, 1);

	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.n, 3);
	e = &uk_rec.e[1];
	uk_rec_assert_val(e, "MESSAGE",
		   "2 more events at " SITE_SYM(0) " held back by uaccessd's ratelimit (total 2)");
	/* The refused summary is reported after the one that went through. */
	assert_loss_entry(UK_LOSS_JOURNAL, 0, 1, 1);
	/* A summary is not an event: nothing lost. */
	assert_lost(0);
}

/* ---- sequence numbers ---- */

static void sequence_gap_is_counted_and_written_at_err(void **state)
{
	const struct uk_rec_entry *e;

	start(NULL);
	feed(1, 0, T0);
	feed(2, 0, T0);
	feed(5, 0, T0);
	assert_int_equal(pl.gap_events, 2);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 2);
	assert_int_equal(pl.last_seq, 5);
	assert_lost(2);
	/* Written after a grace period in which the events may come late. */
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	uk_pipeline_tick(&pl, T0 + UK_GAP_GRACE_NS - 1);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	uk_pipeline_tick(&pl, T0 + UK_GAP_GRACE_NS);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 1);
	assert_loss_entry(UK_LOSS_SEQ_GAP, 0, 2, 2);
	e = nth("UACCESS_LOSS_REASON", "sequence-gap", 0);
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", "sequence 5 followed 2");
	uk_rec_assert_val(e, "MESSAGE",
		   "lost 2 events: sequence-gap, sequence 5 followed 2 (total 2)");
	uk_rec_assert_val(&uk_rec.e[2], "UACCESS_SEQ", "5");
	uk_rec_assert_val(&uk_rec.e[3], MSGID, UK_MSGID_LOSS);
	assert_int_equal(pl.journaled, 3);

	/* Reported once: flush has nothing more. */
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 1);
}

static void loss_entries_are_written_once_per_5s_the_rest_at_flush(void **state)
{
	start(NULL);
	feed(1, 0, T0);
	feed(3, 0, T0);				/* gap 1 */
	uk_pipeline_tick(&pl, T0 + 1 * SEC);	/* its grace over: written */
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 1);
	feed(6, 0, T0 + 1 * SEC);		/* gap 2: held */
	feed(8, 0, T0 + 4 * SEC);		/* gap 1: held */
	uk_pipeline_tick(&pl, T0 + 5 * SEC + SEC / 2);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 1);
	/* Another reason has its own 5 s. */
	feed_cut(9, T0 + 4 * SEC);
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), 1);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 4);

	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 2);
	assert_loss_entry(UK_LOSS_SEQ_GAP, 1, 3, 4);
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), 1);

	/* 5 s after the first entry: written after its grace again. */
	feed(11, 0, T0 + 5 * SEC);		/* gap 1 (10) */
	uk_pipeline_tick(&pl, T0 + 6 * SEC);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 3);
	assert_loss_entry(UK_LOSS_SEQ_GAP, 2, 1, 5);
	feed(13, 0, T0 + 6 * SEC);		/* held */
	uk_pipeline_tick(&pl, T0 + 8 * SEC);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 3);
	assert_lost(6 + 1);
}

static void malformed_message_with_its_seq_is_one_loss_not_a_gap(void **state)
{
	const struct uk_rec_entry *e;

	start(NULL);
	feed(1, 0, T0);
	feed_cut(2, T0);
	feed(3, 0, T0);
	assert_int_equal(pl.malformed, 1);
	assert_int_equal(pl.malformed_noseq, 0);
	assert_int_equal(pl.loss[UK_LOSS_MALFORMED], 1);
	assert_int_equal(pl.gap_events, 0);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_int_equal(pl.events, 2);
	assert_int_equal(pl.journaled, 2);
	assert_int_equal(pl.last_seq, 3);
	assert_lost(1);
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), 1);
	assert_loss_entry(UK_LOSS_MALFORMED, 0, 1, 1);
	e = nth("UACCESS_LOSS_REASON", "malformed-message", 0);
	assert_non_null(strstr(uk_rec_val(e, "UACCESS_LOSS_DETAIL"), "crosses the end"));
	assert_string_equal(uk_rec_val(e, "UACCESS_LOSS_DETAIL"), pl.last_malformed);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), 1);
	assert_int_equal(journaled_event_loss(), 1);
}

static void malformed_message_without_its_seq_absorbs_one_gap(void **state)
{
	start(NULL);
	feed(1, 0, T0);
	feed_bad_seq(2, T0);
	assert_int_equal(pl.malformed, 1);
	assert_int_equal(pl.malformed_noseq, 1);
	assert_non_null(strstr(pl.last_malformed, "seq"));
	feed(3, 0, T0);
	assert_int_equal(pl.gap_events, 1);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_int_equal(pl.loss[UK_LOSS_MALFORMED], 1);
	assert_lost(1);
	/* One gap only: the next one is a gap. */
	feed(5, 0, T0 + 10 * SEC);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 1);
	assert_lost(2);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), 1);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 1);
	assert_loss_entry(UK_LOSS_SEQ_GAP, 0, 1, 1);
	assert_int_equal(journaled_event_loss(), 2);
}

/*
 * A gap that turns out to be no loss writes no entry, and so must not
 * hold back the entry of the next real gap for 5 s.
 */
static void gap_explained_away_does_not_hold_back_the_next_entry(void **state)
{
	start(NULL);
	feed(1, 0, T0);
	feed_bad_seq(2, T0);
	feed(3, 0, T0);				/* no loss: no entry */
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	feed(5, 0, T0 + 1 * SEC);		/* the first real gap */
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 1);
	uk_pipeline_tick(&pl, T0 + 2 * SEC);	/* after its grace */
	if (loss_entries(UK_LOSS_SEQ_GAP) != 1)
		fail_msg("first sequence-gap loss not written at once, but held "
			 "for 5 s after a gap that wrote nothing");
}

static void late_events_are_counted_not_as_gaps(void **state)
{
	start(NULL);
	feed(5, 0, T0);
	feed(6, 0, T0);
	feed(4, 0, T0);
	feed(6, 0, T0);
	assert_int_equal(pl.late, 2);
	assert_int_equal(pl.events, 4);
	assert_int_equal(pl.last_seq, 6);
	assert_int_equal(pl.gap_events, 0);
	assert_lost(0);
	/* They are events all the same. */
	assert_int_equal(pl.journaled, 4);
	feed(7, 0, T0);
	assert_int_equal(pl.gap_events, 0);
	assert_int_equal(count(MSGID, UK_MSGID_LOSS), 0);
}

/*
 * The kernel drains its per-CPU queues in batches sorted by seq, so an
 * event recorded while a batch is collected can follow a higher seq of
 * that batch.  Once it arrives, its gap was no loss.
 */
static void event_arriving_after_its_gap_is_not_lost(void **state)
{
	start(NULL);
	feed(1, 0, T0);
	feed(3, 0, T0);
	feed(2, 0, T0);
	assert_int_equal(pl.recovered, 1);
	assert_int_equal(pl.late, 0);
	assert_int_equal(pl.journaled, 3);
	uk_pipeline_flush(&pl);
	assert_int_equal(count(MSGID, UK_MSGID_LOSS), 0);
	if (uk_pipeline_lost(&pl) != 0 || pl.loss[UK_LOSS_SEQ_GAP] != 0)
		fail_msg("seq 2 arrived after 3: expected nothing lost, got %"
			 PRIu64 " lost (sequence-gap %" PRIu64 ")",
			 uk_pipeline_lost(&pl), pl.loss[UK_LOSS_SEQ_GAP]);
}

/*
 * The first event numbered 0 (a replay's: the kernel numbers from 1):
 * no number is before it, so one arriving after its gap was late, not
 * before our time, and nothing is lost.
 */
static void first_event_numbered_0_has_nothing_before_it(void **state)
{
	start(NULL);
	feed(0, 0, T0);
	feed(2, 0, T0);
	feed(1, 0, T0);
	assert_int_equal(pl.events, 3);
	assert_int_equal(pl.recovered, 1);
	assert_int_equal(pl.late, 0);
	assert_int_equal(pl.gap_events, 0);
	feed(0, 0, T0);			/* again: a duplicate */
	assert_int_equal(pl.late, 1);
	uk_pipeline_flush(&pl);
	assert_int_equal(count(MSGID, UK_MSGID_LOSS), 0);
	assert_lost(0);
}

/* ---- datagrams ---- */

static size_t put_header(void *buf, uint32_t len, uint16_t type)
{
	struct nlmsghdr h = { .nlmsg_len = len, .nlmsg_type = type };

	memcpy(buf, &h, sizeof(h));
	return NLMSG_ALIGN(len);
}

static void datagram_with_several_messages(void **state)
{
	_Alignas(8) static unsigned char buf[BUFLEN];
	struct uk_event ev;
	size_t off = 0;
	uint64_t seq;

	start(NULL);
	for (seq = 1; seq <= 3; seq++) {
		fill(&ev, seq, (unsigned int)seq);
		off += build(&ev, buf + off, sizeof(buf) - off);
		if (seq == 2)	/* another kind of message in between */
			off += put_header(buf + off, NLMSG_HDRLEN, NLMSG_NOOP);
	}
	uk_pipeline_datagram(&pl, buf, off, T0);
	assert_int_equal(pl.datagrams, 1);
	assert_int_equal(pl.messages, 3);
	assert_int_equal(pl.events, 3);
	assert_int_equal(pl.other, 1);
	assert_int_equal(pl.journaled, 3);
	assert_int_equal(pl.malformed, 0);
	assert_int_equal(pl.last_seq, 3);
	uk_rec_assert_val(&uk_rec.e[0], "UACCESS_SEQ", "1");
	uk_rec_assert_val(&uk_rec.e[2], "UACCESS_SEQ", "3");
	assert_lost(0);
}

static void messages_of_other_types_are_skipped(void **state)
{
	_Alignas(8) static unsigned char buf[BUFLEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct uk_event ev;
	size_t len;

	start(NULL);
	fill(&ev, 1, 0);
	len = build(&ev, buf, sizeof(buf));
	nlh->nlmsg_type = FAMILY + 1;	/* a valid event of another family */
	uk_pipeline_datagram(&pl, buf, len, T0);
	put_header(buf, NLMSG_HDRLEN + 4, NLMSG_ERROR);
	memset(buf + NLMSG_HDRLEN, 0, 4);
	uk_pipeline_datagram(&pl, buf, NLMSG_HDRLEN + 4, T0);
	put_header(buf, NLMSG_HDRLEN, NLMSG_DONE);
	uk_pipeline_datagram(&pl, buf, NLMSG_HDRLEN, T0);
	assert_int_equal(pl.other, 3);
	assert_int_equal(pl.datagrams, 3);
	assert_int_equal(pl.messages, 0);
	assert_int_equal(pl.events, 0);
	assert_int_equal(pl.malformed, 0);
	assert_false(pl.have_seq);
	assert_int_equal(uk_rec.n, 0);
	assert_lost(0);
}

/* Each bad length is one malformed message, then the datagram ends. */
static void bad_message_length_is_malformed_and_ends_the_datagram(void **state)
{
	static const uint32_t lens[] = {
		0, 1, NLMSG_HDRLEN - 1, 68, 1000, UINT32_MAX,
	};
	_Alignas(8) static unsigned char buf[BUFLEN];
	char want[160];
	uint64_t seq = 0;
	size_t i, off;
	struct uk_event ev;

	start(NULL);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		/* A good event, then the bad header, then a good one. */
		memset(buf, 0, 64 + 2 * BUFLEN / 4);
		fill(&ev, ++seq, 0);
		off = build(&ev, buf, BUFLEN / 4);
		put_header(buf + off, lens[i], FAMILY);
		fill(&ev, ++seq, 0);
		build(&ev, buf + off + 64, BUFLEN / 4);
		uk_pipeline_datagram(&pl, buf, off + 64, T0 + i * 10 * SEC);
		assert_int_equal(pl.malformed, i + 1);
		assert_int_equal(pl.malformed_noseq, i + 1);
		assert_int_equal(pl.events, i + 1);
		snprintf(want, sizeof(want),
			 "datagram of %zu bytes: message length %" PRIu32
			 " at offset %zu", off + 64, lens[i], off);
		assert_string_equal(pl.last_malformed, want);
	}
	assert_int_equal(pl.datagrams, ARRAY_SIZE(lens));
	assert_int_equal(loss_entries(UK_LOSS_MALFORMED), ARRAY_SIZE(lens));
	assert_loss_entry(UK_LOSS_MALFORMED, 0, 1, 1);
	snprintf(want, sizeof(want),
		 "datagram of %zu bytes: message length 0 at offset %zu",
		 off + 64, off);
	uk_rec_assert_val(nth("UACCESS_LOSS_REASON", "malformed-message", 0),
		   "UACCESS_LOSS_DETAIL", want);

	/* Alone: a datagram that is all header with length 0. */
	memset(buf, 0, 64);
	uk_pipeline_datagram(&pl, buf, 64, T0 + 100 * SEC);
	assert_int_equal(pl.malformed, ARRAY_SIZE(lens) + 1);
	assert_int_equal(pl.messages, ARRAY_SIZE(lens));
}

/* Received bytes that hold no whole message are not silently dropped. */
static void bytes_that_are_not_a_whole_header_are_malformed(void **state)
{
	_Alignas(8) static unsigned char buf[BUFLEN];
	struct uk_event ev;
	size_t len;

	start(NULL);
	memset(buf, 0xa5, 64);
	uk_pipeline_datagram(&pl, buf, 10, T0);
	assert_int_equal(pl.datagrams, 1);
	if (pl.malformed != 1)
		fail_msg("10-byte datagram: expected 1 malformed, got %" PRIu64,
			 pl.malformed);

	fill(&ev, 1, 0);
	len = build(&ev, buf, sizeof(buf));
	memset(buf + len, 0xa5, 8);
	uk_pipeline_datagram(&pl, buf, len + 8, T0);
	assert_int_equal(pl.events, 1);
	if (pl.malformed != 2)
		fail_msg("8 bytes after the last message: expected 2 malformed, got %"
			 PRIu64, pl.malformed);
}

/* ---- overruns and the kernel's counters ---- */

static void overrun_makes_the_next_gap_a_socket_overrun(void **state)
{
	const struct uk_rec_entry *e;

	start(NULL);
	feed(1, 0, T0);
	feed(2, 0, T0);
	uk_pipeline_overrun(&pl);
	assert_int_equal(pl.overruns, 1);
	e = nth(MSGID, UK_MSGID_HEALTH, 0);
	uk_rec_assert_val(e, "PRIORITY", "3");
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "overrun");
	assert_non_null(strstr(uk_rec_val(e, "MESSAGE"), UK_CONFIG_PATH));

	feed(10, 0, T0 + 1 * SEC);
	assert_int_equal(pl.overrun_events, 7);
	assert_int_equal(pl.loss[UK_LOSS_OVERRUN], 7);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	uk_pipeline_tick(&pl, T0 + 2 * SEC);
	assert_int_equal(loss_entries(UK_LOSS_OVERRUN), 1);
	assert_loss_entry(UK_LOSS_OVERRUN, 0, 7, 7);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);

	/* Only that gap: the next one is a plain gap. */
	feed(12, 0, T0 + 2 * SEC);
	assert_int_equal(pl.loss[UK_LOSS_OVERRUN], 7);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 1);
	uk_pipeline_tick(&pl, T0 + 8 * SEC);	/* past the 5 s holdoff */
	assert_loss_entry(UK_LOSS_SEQ_GAP, 0, 1, 1);
	assert_lost(8);
}

/*
 * The kernel reports ENOBUFS before the datagrams it had queued: the
 * in-order events that follow are those, and the first gap is the
 * overrun's.  A status showing nothing missing ends the overrun.
 */
static void overrun_names_the_first_gap_after_queued_events(void **state)
{
	start(NULL);
	feed(1, 0, T0);
	uk_pipeline_overrun(&pl);
	feed(2, 0, T0);
	feed(4, 0, T0);
	assert_int_equal(pl.loss[UK_LOSS_OVERRUN], 1);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_int_equal(pl.overruns, 1);
	assert_lost(1);

	uk_pipeline_overrun(&pl);
	kernel_status(0, 0, 4);		/* nothing was missing after all */
	feed(6, 0, T0);
	assert_int_equal(pl.loss[UK_LOSS_OVERRUN], 1);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 1);
}

static void first_kernel_status_sets_the_baseline(void **state)
{
	start(NULL);
	kernel_status(7, 3, 50);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 0);
	assert_int_equal(pl.loss[UK_LOSS_SITE_OVERFLOW], 0);
	assert_true(pl.have_seq);
	assert_int_equal(pl.last_seq, 50);
	feed(51, 0, T0);
	assert_int_equal(pl.gap_events, 0);
	feed(53, 0, T0);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 1);
	kernel_status(7, 3, 53);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_KERNEL_DROPPED), 0);
	assert_int_equal(loss_entries(UK_LOSS_SITE_OVERFLOW), 0);
	assert_lost(1);
}

/*
 * The kernel's last-seq, read once the socket is drained, shows the
 * events that never came even when nothing follows them (the end of a
 * flood); those still on their way are taken back when they arrive.
 */
static void kernel_last_seq_shows_a_gap_at_the_end(void **state)
{
	start(NULL);
	feed(5, 0, T0);
	kernel_status(2, 0, 50);	/* the first status: its drops are old */
	assert_int_equal(pl.last_seq, 50);
	assert_int_equal(pl.gap_events, 45);
	assert_lost(45);
	feed(6, 0, T0);			/* late, not lost */
	assert_int_equal(pl.recovered, 1);
	assert_int_equal(pl.gap_events, 44);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 0);
	assert_lost(44);
	kernel_status(2, 0, 50);	/* nothing new */
	assert_lost(44);
}

static void kernel_drops_are_named_and_not_counted_with_their_gap(void **state)
{
	start(NULL);
	kernel_status(7, 0, 10);
	feed(11, 0, T0);
	feed(12, 0, T0);
	kernel_status(9, 0, 14);		/* 13 and 14 dropped */
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 2);
	assert_lost(2);
	feed(15, 0, T0);			/* shows their gap */
	assert_int_equal(pl.gap_events, 2);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_lost(2);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	assert_int_equal(loss_entries(UK_LOSS_KERNEL_DROPPED), 1);
	assert_loss_entry(UK_LOSS_KERNEL_DROPPED, 0, 2, 2);
}

/*
 * The usual order: the next event shows the gap at once, get-status tells
 * later that the kernel dropped them.  The journal must not end up
 * saying 4 events were lost when 2 were.
 */
static void kernel_drops_seen_after_their_gap_are_journaled_once(void **state)
{
	start(NULL);
	kernel_status(0, 0, 10);
	feed(11, 0, T0);
	feed(14, 0, T0);			/* 12, 13 missing */
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 2);
	kernel_status(2, 0, 14);		/* the kernel dropped them */
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 2);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_lost(2);
	uk_pipeline_flush(&pl);
	if (journaled_event_loss() != uk_pipeline_lost(&pl))
		fail_msg("loss entries add up to %" PRIu64 " lost events, the "
			 "pipeline counts %" PRIu64 " (%d sequence-gap, %d "
			 "kernel-dropped entries)", journaled_event_loss(),
			 uk_pipeline_lost(&pl), loss_entries(UK_LOSS_SEQ_GAP),
			 loss_entries(UK_LOSS_KERNEL_DROPPED));
}

/* Overruns come with floods, when the kernel's queue overflows too. */
static void kernel_drops_inside_an_overrun_gap_are_counted_once(void **state)
{
	start(NULL);
	kernel_status(0, 0, 10);
	feed(11, 0, T0);
	uk_pipeline_overrun(&pl);
	feed(20, 0, T0);			/* 12..19: 8 missing */
	assert_int_equal(pl.loss[UK_LOSS_OVERRUN], 8);
	kernel_status(3, 0, 20);		/* 3 of them never sent */
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 3);
	if (uk_pipeline_lost(&pl) != 8)
		fail_msg("8 events missing, %" PRIu64 " counted lost "
			 "(socket-overrun %" PRIu64 ", kernel-dropped %" PRIu64
			 ")", uk_pipeline_lost(&pl), pl.loss[UK_LOSS_OVERRUN],
			 pl.loss[UK_LOSS_KERNEL_DROPPED]);
}

static void site_table_overflow_growth_is_counted(void **state)
{
	start(NULL);
	kernel_status(0, 3, 0);
	kernel_status(0, 8, 0);
	assert_int_equal(pl.loss[UK_LOSS_SITE_OVERFLOW], 5);
	/* Hits without a site, not lost events. */
	assert_lost(0);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_SITE_OVERFLOW), 1);
	assert_loss_entry(UK_LOSS_SITE_OVERFLOW, 0, 5, 5);
	kernel_status(0, 9, 0);
	uk_pipeline_flush(&pl);
	assert_loss_entry(UK_LOSS_SITE_OVERFLOW, 1, 1, 6);
}

/*
 * A counter that goes down was reset in the kernel: what it showed before
 * stays counted, and what it gains from its new value on is added.
 */
static void kernel_counter_going_down_is_a_new_baseline(void **state)
{
	start(NULL);
	kernel_status(0, 0, 0);
	kernel_status(5, 4, 0);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 5);
	assert_int_equal(pl.loss[UK_LOSS_SITE_OVERFLOW], 4);
	uk_pipeline_flush(&pl);
	assert_loss_entry(UK_LOSS_KERNEL_DROPPED, 0, 5, 5);

	kernel_status(1, 1, 0);			/* reset behind our back */
	if (pl.loss[UK_LOSS_KERNEL_DROPPED] < 5 ||
	    pl.loss[UK_LOSS_SITE_OVERFLOW] < 4)
		fail_msg("loss went down on a kernel reset: kernel-dropped "
			 "%" PRIu64 " (was 5), site overflow %" PRIu64
			 " (was 4)", pl.loss[UK_LOSS_KERNEL_DROPPED],
			 pl.loss[UK_LOSS_SITE_OVERFLOW]);
	assert_true(uk_pipeline_lost(&pl) >= 5);
	kernel_status(3, 1, 0);
	/* 5 before, 2 (or 3, counting the one before we looked) since. */
	assert_in_range(pl.loss[UK_LOSS_KERNEL_DROPPED], 7, 8);
	uk_pipeline_flush(&pl);
	assert_int_equal(loss_entries(UK_LOSS_KERNEL_DROPPED), 2);
}

/* uaccessctl reset: the kernel's counters restart, our loss stays. */
static void kernel_reset_by_the_daemon_keeps_the_loss_so_far(void **state)
{
	int entries;

	start(NULL);
	kernel_status(0, 0, 10);
	feed(11, 0, T0);
	kernel_status(2, 0, 13);
	feed(14, 0, T0);
	uk_pipeline_flush(&pl);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 2);
	assert_int_equal(pl.loss[UK_LOSS_SEQ_GAP], 0);
	assert_lost(2);
	entries = uk_rec.n;

	/* The reset returns the counters as they were. */
	uk_pipeline_kernel_reset(&pl, &(struct uk_status){ .dropped = 2 });
	kernel_status(0, 0, 14);
	if (uk_pipeline_lost(&pl) != 2 ||
	    pl.loss[UK_LOSS_KERNEL_DROPPED] != 2)
		fail_msg("after a reset: expected 2 lost (2 kernel-dropped), "
			 "got %" PRIu64 " (kernel-dropped %" PRIu64
			 ", sequence-gap %" PRIu64 ")", uk_pipeline_lost(&pl),
			 pl.loss[UK_LOSS_KERNEL_DROPPED],
			 pl.loss[UK_LOSS_SEQ_GAP]);
	uk_pipeline_flush(&pl);
	if (count_from(entries, MSGID, UK_MSGID_LOSS) != 0)
		fail_msg("nothing new was lost, yet flush wrote %d loss entries "
			 "(first: %s)", count_from(entries, MSGID, UK_MSGID_LOSS),
			 uk_rec_val(&uk_rec.e[entries], "MESSAGE"));

	/* Drops after the reset are new. */
	kernel_status(1, 0, 15);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 3);
}

/* ---- ignore list, journal failures, aggregator refusals ---- */

static void ignored_sites_are_counted_not_journaled(void **state)
{
	unsigned int i;

	start("ignore = uk_site_1\n");
	for (i = 0; i < 6; i++)
		feed(i + 1, i % 3, T0);
	assert_int_equal(pl.events, 6);
	assert_int_equal(pl.ignored, 2);
	assert_int_equal(pl.journaled, 4);
	assert_int_equal(count("UACCESS_SITE_SYMBOL", SITE_SYM(1)), 0);
	assert_int_equal(count("UACCESS_SITE_SYMBOL", SITE_SYM(0)), 2);
	assert_int_equal(count("UACCESS_SITE_SYMBOL", SITE_SYM(2)), 2);
	/*
	 * Counted, not aggregated: they use no journal budget, and the
	 * kernel's totals of the site come with the next re-sync.
	 */
	assert_null(uk_agg_find(pl.agg, 0xffffffff81000040ULL,
				    UACCESS_KADDR_KIND_PRECHECK,
				    UACCESS_KADDR_HELPER_COPY_TO_USER,
				    UACCESS_KADDR_DIRECTION_TO_USER));
	assert_lost(0);
}

static void ignored_site_gets_no_suppressed_summary(void **state)
{
	unsigned int i;

	start("ignore = uk_site_1\nsite_burst = 2\n");
	for (i = 0; i < 5; i++)
		feed(i + 1, 1, T0);
	assert_int_equal(pl.ignored, 5);
	uk_pipeline_flush(&pl);
	if (uk_rec.n)
		fail_msg("an ignored site got %d journal entries, the first: %s",
			 uk_rec.n, uk_rec_val(&uk_rec.e[0], "MESSAGE"));
}

static void ignored_events_do_not_use_the_global_budget(void **state)
{
	start("ignore = uk_site_1\nglobal_rate = 1\nglobal_burst = 2\n");
	feed(1, 1, T0);
	feed(2, 1, T0);
	feed(3, 0, T0);
	assert_int_equal(pl.ignored, 2);
	if (pl.journaled != 1)
		fail_msg("event of site 0 refused by the global limit after two "
			 "ignored events (journaled %" PRIu64 ", suppressed "
			 "globally %" PRIu64 ")", pl.journaled,
			 agg_stats().suppressed_global);
}

static void journal_refusing_events_loses_them(void **state)
{
	const struct uk_rec_entry *e;

	start(NULL);
	uk_rec_plan(-EAGAIN, 3);
	feed(1, 0, T0);
	feed(2, 0, T0);
	feed(3, 0, T0);
	assert_int_equal(pl.events, 3);
	assert_int_equal(pl.journaled, 0);
	assert_int_equal(pl.journal_lost, 3);
	assert_int_equal(pl.journal.failed, 3);
	assert_int_equal(pl.journal.last_error, -EAGAIN);
	assert_lost(3);

	feed(4, 0, T0);
	assert_int_equal(pl.journaled, 1);
	assert_int_equal(uk_rec.n, 2);
	uk_rec_assert_val(&uk_rec.e[0], "UACCESS_SEQ", "4");
	e = &uk_rec.e[1];
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "journal-send-failed");
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "3");
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", strerror(EAGAIN));
	assert_lost(3);

	/* Refused entries that are not events are no lost events. */
	uk_rec_plan(-EIO, 1);
	uk_pipeline_overrun(&pl);
	assert_int_equal(pl.journal.failed, 4);
	assert_lost(3);
}

static void loss_entry_refused_by_the_journal_is_written_at_flush(void **state)
{
	int before;

	start(NULL);
	feed(1, 0, T0);
	uk_rec_plan(-EAGAIN, 2);			/* the event, then the loss entry */
	feed(3, 0, T0);
	uk_pipeline_tick(&pl, T0 + SEC);
	assert_int_equal(pl.journal_lost, 1);
	assert_int_equal(loss_entries(UK_LOSS_SEQ_GAP), 0);
	assert_lost(2);
	before = uk_rec.n;
	uk_pipeline_flush(&pl);
	assert_int_equal(uk_rec.n, before + 2);
	assert_loss_entry(UK_LOSS_SEQ_GAP, 0, 1, 1);
	assert_loss_entry(UK_LOSS_JOURNAL, 0, 2, 2);
}

static void event_the_aggregator_refuses_is_a_malformed_loss(void **state)
{
	struct uk_event ev;

	start(NULL);
	fill(&ev, 1, 0);
	ev.site_ip = 0;
	feed_event(&ev, T0);
	assert_int_equal(pl.malformed, 1);
	assert_int_equal(pl.journaled, 0);
	assert_int_equal(count(MSGID, UK_MSGID_EVENT), 0);
	assert_string_equal(pl.last_malformed,
			    "event 1 not aggregated: Invalid argument");
	assert_loss_entry(UK_LOSS_MALFORMED, 0, 1, 1);

	fill(&ev, 2, 0);
	ev.kind = 300;
	feed_event(&ev, T0 + 10 * SEC);
	assert_int_equal(pl.malformed, 2);
	assert_non_null(strstr(pl.last_malformed, "event 2 not aggregated"));
	/* Their numbers were read: no gap. */
	feed(3, 0, T0 + 20 * SEC);
	assert_int_equal(pl.gap_events, 0);
	assert_int_equal(pl.journaled, 1);
	assert_lost(2);
}

static void evicted_sites_are_reported_at_flush(void **state)
{
	unsigned int i;

	start("max_sites = 16\n");
	for (i = 0; i < 20; i++)
		feed(i + 1, i, T0);
	uk_pipeline_flush(&pl);
	assert_int_equal(agg_stats().evicted, 4);
	assert_int_equal(pl.loss[UK_LOSS_EVICTED], 4);
	assert_loss_entry(UK_LOSS_EVICTED, 0, 4, 4);
	assert_lost(0);
}

static void dump_sites_reply_is_merged_into_the_table(void **state)
{
	const struct uk_agg_site *s;
	struct uk_site ks;

	start(NULL);
	memset(&ks, 0, sizeof(ks));
	ks.site_id = 3;
	ks.site_ip = 0xffffffff810000c0ULL;
	snprintf(ks.site_symbol, sizeof(ks.site_symbol), SITE_SYM(3));
	ks.kind = UACCESS_KADDR_KIND_PRECHECK;
	ks.helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	ks.direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ks.count = 40;
	ks.present = (1ULL << UACCESS_KADDR_A_SITE_SITE_ID) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_IP) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_SYMBOL) |
		     (1ULL << UACCESS_KADDR_A_SITE_KIND) |
		     (1ULL << UACCESS_KADDR_A_SITE_HELPER) |
		     (1ULL << UACCESS_KADDR_A_SITE_DIRECTION) |
		     (1ULL << UACCESS_KADDR_A_SITE_COUNT);
	uk_pipeline_sync_site(&pl, &ks);
	s = uk_agg_find(pl.agg, ks.site_ip, ks.kind, ks.helper, ks.direction);
	assert_non_null(s);
	assert_int_equal(s->count, 40);
	assert_int_equal(uk_rec.n, 0);
	assert_int_equal(pl.malformed, 0);
}

/*
 * A reply the table cannot take is no event, hence no loss: counted and
 * named once per cause, however many re-syncs meet it again.
 */
static void dump_sites_reply_not_merged_is_counted_not_lost(void **state)
{
	struct uk_site ks;

	start(NULL);
	memset(&ks, 0, sizeof(ks));
	ks.site_id = 4;
	ks.site_ip = 0xffffffff81000100ULL;
	ks.count = 7;		/* no kind, helper or direction: no site key */
	ks.present = (1ULL << UACCESS_KADDR_A_SITE_SITE_ID) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_IP) |
		     (1ULL << UACCESS_KADDR_A_SITE_COUNT);
	uk_pipeline_sync_site(&pl, &ks);
	uk_pipeline_sync_site(&pl, &ks);
	uk_pipeline_flush(&pl);
	assert_int_equal(pl.sync_refused, 2);
	assert_int_equal(pl.malformed, 0);
	assert_lost(0);
	assert_int_equal(count(MSGID, UK_MSGID_LOSS), 0);
	assert_int_equal(count("UACCESS_DAEMON_STATE", "sync-refused"), 1);
	assert_non_null(strstr(uk_rec_val(nth("UACCESS_DAEMON_STATE",
					      "sync-refused", 0), "MESSAGE"),
			       "dump-sites reply of site 4 not merged"));
	assert_null(uk_agg_find(pl.agg, ks.site_ip, 0, 0, 0));
}

/*
 * bench-smoke's flood of one site as uaccessd met it.  It subscribes while
 * the kernel's table holds the site of a #GP whose instruction did not
 * decode (direction 0, which KUnit leaves from boot; uaccessd's table
 * refused it until it took direction 0), reads the status again while
 * the script waits for it, resets the kernel through the control socket
 * and re-syncs (the site has no hits now: skipped); then 300 hits: 121
 * sent, 179 dropped by the kernel.  Lost is the kernel's 179, as before
 * the flood it was 0: the refused reply was counted as a malformed
 * message, so 1 and then 180.
 */
static void refused_dump_reply_before_a_reset_adds_no_loss(void **state)
{
	struct uk_status old = {
		.dropped = 1746, .sites_overflow = 6100, .last_seq = 2243,
	};
	struct uk_site gp;
	uint64_t seq;

	start(NULL);
	memset(&gp, 0, sizeof(gp));
	gp.site_id = 494;
	gp.site_ip = 0xffffffff811e6e58ULL;
	snprintf(gp.site_symbol, sizeof(gp.site_symbol),
		 "uk_gp_at_nop+0xa/0x30");
	gp.kind = UACCESS_KADDR_KIND_GP;
	gp.helper = UACCESS_KADDR_HELPER_UNKNOWN;
	gp.direction = 0;	/* unknown: the #GP did not decode */
	gp.count = 1;
	gp.reported = 1;
	gp.present = (1ULL << UACCESS_KADDR_A_SITE_SITE_ID) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_IP) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_SYMBOL) |
		     (1ULL << UACCESS_KADDR_A_SITE_KIND) |
		     (1ULL << UACCESS_KADDR_A_SITE_HELPER) |
		     (1ULL << UACCESS_KADDR_A_SITE_DIRECTION) |
		     (1ULL << UACCESS_KADDR_A_SITE_COUNT) |
		     (1ULL << UACCESS_KADDR_A_SITE_REPORTED);

	/* subscribe: get-status, dump-sites */
	kernel_status(old.dropped, old.sites_overflow, old.last_seq);
	uk_pipeline_sync_site(&pl, &gp);
	/* uk_daemon_check wait ... subscribed */
	kernel_status(old.dropped, old.sites_overflow, old.last_seq);
	/* {"cmd":"reset"}: flush, reset, re-sync */
	uk_pipeline_flush(&pl);
	uk_pipeline_kernel_reset(&pl, &old);
	kernel_status(0, 0, old.last_seq);
	gp.count = 0;
	gp.reported = 0;
	uk_pipeline_sync_site(&pl, &gp);
	/* pipeline.sh: base=$(pending); before=$(status ...) */
	kernel_status(0, 0, old.last_seq);
	assert_int_equal(pl.events, 0);
	assert_int_equal(pl.sync_refused, 0);
	assert_lost(0);

	/* the flood: the first 121 hits sent, the other 179 dropped */
	for (seq = old.last_seq + 1; seq <= old.last_seq + 121; seq++)
		feed(seq, 0, T0 + seq * MS);
	kernel_status(179, 0, old.last_seq + 300);
	uk_pipeline_flush(&pl);
	assert_int_equal(pl.events, 121);
	assert_int_equal(pl.loss[UK_LOSS_KERNEL_DROPPED], 179);
	/* uk_daemon_check compare ... exact: 121 + lost == 121 + 179 */
	assert_lost(179);
}

/*
 * Direction 0 is the kernel's "unknown direction" (a #GP whose instruction
 * did not decode): its events are aggregated and journaled like any, and
 * its site merges from dump-sites; neither is malformed, neither is lost.
 */
static void unknown_direction_is_taken_not_malformed(void **state)
{
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	start(NULL);
	kernel_status(0, 0, 10);
	fill(&ev, 11, 5);
	ev.kind = UACCESS_KADDR_KIND_GP;
	ev.helper = UACCESS_KADDR_HELPER_UNKNOWN;
	ev.direction = 0;
	feed_event(&ev, T0);
	assert_int_equal(pl.events, 1);
	assert_int_equal(pl.journaled, 1);
	assert_int_equal(pl.malformed, 0);
	assert_lost(0);
	assert_string_equal(uk_rec_val(nth(MSGID, UK_MSGID_EVENT, 0),
				       "UACCESS_DIRECTION"), "unknown");

	memset(&ks, 0, sizeof(ks));
	ks.site_id = 5;
	ks.site_ip = ev.site_ip;
	ks.kind = ev.kind;
	ks.helper = ev.helper;
	ks.direction = 0;
	ks.count = 3;
	ks.present = (1ULL << UACCESS_KADDR_A_SITE_SITE_ID) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_IP) |
		     (1ULL << UACCESS_KADDR_A_SITE_KIND) |
		     (1ULL << UACCESS_KADDR_A_SITE_HELPER) |
		     (1ULL << UACCESS_KADDR_A_SITE_DIRECTION) |
		     (1ULL << UACCESS_KADDR_A_SITE_COUNT);
	uk_pipeline_sync_site(&pl, &ks);
	assert_int_equal(pl.sync_refused, 0);
	s = uk_agg_find(pl.agg, ks.site_ip, ks.kind, ks.helper, 0);
	assert_non_null(s);
	assert_int_equal(s->count, 3);
	assert_int_equal(s->events, 1);
	assert_lost(0);
}

/* ---- JSON and configuration ---- */

static struct uk_json_value *pipeline_json(char **text)
{
	struct uk_json_value *root = NULL;
	struct uk_json j;
	char err[128];
	size_t len;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_pipeline_json(&pl, &j);
	uk_json_object_end(&j);
	assert_int_equal(uk_json_finish(&j, text, &len), 0);
	if (uk_json_parse(*text, len, &root, err, sizeof(err)) < 0)
		fail_msg("uk_pipeline_json output does not parse: %s: %s", err,
			 *text);
	return root;
}

static void assert_json_u64(const struct uk_json_value *o, const char *key,
			    uint64_t want)
{
	uint64_t v;
	int r = uk_json_get_u64(uk_json_object_get(o, key), &v);

	if (r < 0)
		fail_msg("JSON key %s: %s", key, strerror(-r));
	if (v != want)
		fail_msg("JSON key %s: expected %" PRIu64 ", got %" PRIu64, key,
			 want, v);
}

static void json_numbers_are_the_counters(void **state)
{
	_Alignas(8) unsigned char noop[NLMSG_HDRLEN];
	const struct uk_json_value *loss;
	struct uk_json_value *root;
	struct uk_agg_stats st;
	const char *s;
	char *text;
	unsigned int i;
	enum uk_loss r;

	start("site_burst = 2\nignore = uk_site_2\nmax_sites = 16\n");
	kernel_status(4, 1, 0);
	for (i = 1; i <= 10; i++)
		feed(i, i % 3, T0);
	feed(12, 0, T0);				/* gap 1 */
	feed_cut(13, T0);				/* malformed */
	feed(9, 1, T0);					/* late */
	put_header(noop, NLMSG_HDRLEN, NLMSG_NOOP);
	uk_pipeline_datagram(&pl, noop, sizeof(noop), T0);	/* other */
	uk_pipeline_overrun(&pl);
	feed(20, 0, T0);				/* overrun 6 */
	kernel_status(5, 3, 20);			/* dropped 1, overflow 2 */
	uk_rec_plan(-EBUSY, 1);
	feed(21, 1, T0 + 100 * SEC);			/* journal refuses */
	for (i = 0; i < 20; i++)			/* evictions */
		feed(22 + i, 10 + i, T0 + 100 * SEC);
	uk_pipeline_flush(&pl);
	pl.resyncs = 2;

	root = pipeline_json(&text);
	uk_agg_get_stats(pl.agg, &st);
	assert_json_u64(root, "datagrams", pl.datagrams);
	assert_json_u64(root, "datagrams", 36);
	assert_json_u64(root, "messages", pl.messages);
	assert_json_u64(root, "events", pl.events);
	assert_json_u64(root, "events", 34);
	assert_json_u64(root, "messages", 35);
	assert_json_u64(root, "journaled", pl.journaled);
	assert_json_u64(root, "suppressed", st.suppressed);
	assert_json_u64(root, "suppressed_global", st.suppressed_global);
	assert_json_u64(root, "ignored", pl.ignored);
	assert_json_u64(root, "ignored", 3);
	assert_json_u64(root, "late", pl.late);
	assert_json_u64(root, "late", 1);
	assert_json_u64(root, "other_messages", 1);
	assert_json_u64(root, "sync_refused", 0);
	assert_json_u64(root, "overruns", 1);
	assert_json_u64(root, "resyncs", 2);
	assert_json_u64(root, "last_seq", 41);
	assert_json_u64(root, "sites", st.sites);
	assert_json_u64(root, "sites", 16);
	assert_json_u64(root, "max_sites", 16);
	assert_json_u64(root, "stacks", st.stacks);
	assert_json_u64(root, "journal_sent", pl.journal.sent);
	assert_json_u64(root, "journal_sent", (uint64_t)uk_rec.n);
	assert_json_u64(root, "journal_failed", 1);
	assert_json_u64(root, "journal_lost_events", 1);
	assert_int_equal(uk_json_get_str(uk_json_object_get(root,
							    "journal_last_error"),
					 &s), 0);
	assert_string_equal(s, strerror(EBUSY));

	loss = uk_json_object_get(root, "loss");
	assert_int_equal(uk_json_type(loss), UK_JSON_OBJECT);
	assert_int_equal(uk_json_object_len(loss), UK_LOSS_NR);
	for (r = 0; r < UK_LOSS_NR; r++)
		assert_json_u64(loss, uk_loss_name(r), r == UK_LOSS_JOURNAL ?
				pl.journal.failed : pl.loss[r]);
	assert_json_u64(loss, "sequence-gap", 0);
	assert_json_u64(loss, "malformed-message", 1);
	assert_json_u64(loss, "socket-overrun", 6);
	assert_json_u64(loss, "kernel-dropped", 1);
	assert_json_u64(loss, "kernel-site-table-full", 2);
	assert_json_u64(loss, "site-evicted", st.evicted);
	assert_json_u64(root, "lost", uk_pipeline_lost(&pl));
	assert_json_u64(root, "lost", 1 + 1 + 6 + 1);
	uk_json_value_free(root);
	free(text);
}

static void json_has_no_journal_error_before_one(void **state)
{
	struct uk_json_value *root;
	char *text;

	start(NULL);
	feed(1, 0, T0);
	root = pipeline_json(&text);
	assert_null(uk_json_object_get(root, "journal_last_error"));
	assert_json_u64(root, "lost", 0);
	assert_json_u64(root, "journaled", 1);
	uk_json_value_free(root);
	free(text);
}

static void set_config_with_bad_values_changes_nothing(void **state)
{
	struct uk_config bad;
	size_t i;
	static const struct {
		const char *what;
		size_t offset;
		uint64_t value;
	} bads[] = {
		{ "max_sites 15", offsetof(struct uk_config, max_sites), 15 },
		{ "max_sites 1000001", offsetof(struct uk_config, max_sites),
		  1000001 },
		{ "samples 0", offsetof(struct uk_config, samples), 0 },
		{ "samples 65", offsetof(struct uk_config, samples), 65 },
		{ "site_burst 0", offsetof(struct uk_config, site_burst), 0 },
		{ "global_burst 0", offsetof(struct uk_config, global_burst),
		  0 },
	};

	start("site_burst = 2\nignore = uk_site_1\n");
	feed(1, 0, T0);
	for (i = 0; i < ARRAY_SIZE(bads); i++) {
		bad = cfg;
		bad.ignore = NULL;
		bad.n_ignore = 0;
		memcpy((char *)&bad + bads[i].offset, &bads[i].value,
		       sizeof(uint64_t));
		if (uk_pipeline_set_config(&pl, &bad) != -ERANGE)
			fail_msg("%s: not refused with -ERANGE", bads[i].what);
		assert_ptr_equal(pl.cfg, &cfg);
	}
	/* The old burst and ignore list still apply. */
	feed(2, 0, T0);
	feed(3, 0, T0);
	feed(4, 1, T0);
	assert_int_equal(pl.journaled, 2);
	assert_int_equal(pl.ignored, 1);
	assert_int_equal(agg_stats().max_sites, 10000);

	/* A good one is taken. */
	bad = cfg;
	bad.ignore = NULL;
	bad.n_ignore = 0;
	bad.site_burst = 4;
	assert_int_equal(uk_pipeline_set_config(&pl, &bad), 0);
	assert_ptr_equal(pl.cfg, &bad);
	feed(5, 1, T0);			/* no ignore list any more */
	assert_int_equal(pl.ignored, 1);
	assert_int_equal(pl.journaled, 3);
	feed(6, 0, T0);			/* burst 4: two more */
	feed(7, 0, T0);
	feed(8, 0, T0);
	assert_int_equal(pl.journaled, 5);
	pl.cfg = &cfg;		/* @bad goes out of scope */
}

/* Values the configuration file would refuse, given straight in. */
static void set_config_refuses_values_that_do_not_fit(void **state)
{
	struct uk_config bad;

	start(NULL);
	bad = cfg;
	bad.max_sites = (1ULL << 32) + 16;	/* 16 in 32 bits */
	if (uk_pipeline_set_config(&pl, &bad) != -ERANGE) {
		pl.cfg = &cfg;
		fail_msg("max_sites 2^32 + 16 taken (now %" PRIu64 ")",
			 agg_stats().max_sites);
	}
	bad = cfg;
	bad.site_burst = (1ULL << 32) + 1;	/* 1 in 32 bits */
	if (uk_pipeline_set_config(&pl, &bad) != -ERANGE) {
		pl.cfg = &cfg;
		fail_msg("site_burst 2^32 + 1 taken");
	}
	assert_ptr_equal(pl.cfg, &cfg);
}

static void init_with_bad_config_fails(void **state)
{
	struct uk_pipeline p;

	cfg.samples = 0;
	assert_int_equal(uk_pipeline_init(&p, &cfg), -ERANGE);
	assert_null(p.agg);
	uk_pipeline_free(&p);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest pipeline[] = {
		T(events_within_the_site_burst_are_journaled),
		T(flush_writes_one_summary_per_site),
		T(flush_writes_at_most_100_summaries_the_rest_next_time),
		T(summary_refused_by_the_journal_stays_pending),
		T(sequence_gap_is_counted_and_written_at_err),
		T(loss_entries_are_written_once_per_5s_the_rest_at_flush),
		T(malformed_message_with_its_seq_is_one_loss_not_a_gap),
		T(malformed_message_without_its_seq_absorbs_one_gap),
		T(gap_explained_away_does_not_hold_back_the_next_entry),
		T(late_events_are_counted_not_as_gaps),
		T(event_arriving_after_its_gap_is_not_lost),
		T(first_event_numbered_0_has_nothing_before_it),
		T(datagram_with_several_messages),
		T(messages_of_other_types_are_skipped),
		T(bad_message_length_is_malformed_and_ends_the_datagram),
		T(bytes_that_are_not_a_whole_header_are_malformed),
		T(overrun_makes_the_next_gap_a_socket_overrun),
		T(overrun_names_the_first_gap_after_queued_events),
		T(first_kernel_status_sets_the_baseline),
		T(kernel_last_seq_shows_a_gap_at_the_end),
		T(kernel_drops_are_named_and_not_counted_with_their_gap),
		T(kernel_drops_seen_after_their_gap_are_journaled_once),
		T(kernel_drops_inside_an_overrun_gap_are_counted_once),
		T(site_table_overflow_growth_is_counted),
		T(kernel_counter_going_down_is_a_new_baseline),
		T(kernel_reset_by_the_daemon_keeps_the_loss_so_far),
		T(ignored_sites_are_counted_not_journaled),
		T(ignored_site_gets_no_suppressed_summary),
		T(ignored_events_do_not_use_the_global_budget),
		T(journal_refusing_events_loses_them),
		T(loss_entry_refused_by_the_journal_is_written_at_flush),
		T(event_the_aggregator_refuses_is_a_malformed_loss),
		T(evicted_sites_are_reported_at_flush),
		T(dump_sites_reply_is_merged_into_the_table),
		T(dump_sites_reply_not_merged_is_counted_not_lost),
		T(refused_dump_reply_before_a_reset_adds_no_loss),
		T(unknown_direction_is_taken_not_malformed),
		T(json_numbers_are_the_counters),
		T(json_has_no_journal_error_before_one),
		T(set_config_with_bad_values_changes_nothing),
		T(set_config_refuses_values_that_do_not_fit),
		T(init_with_bad_config_fails),
	};

	return cmocka_run_group_tests(pipeline, NULL, NULL);
}
