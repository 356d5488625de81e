// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for uaccessd's loss accounting (daemon/uaccessd/
 * pipeline.c).  The input is a program of 3-byte steps: events with
 * numbers the fuzzer picks (gaps, duplicates, late and out-of-order
 * arrivals, several to a datagram), socket overruns, oversized datagrams,
 * dump-sites replies of a re-sync (the unknown direction 0 among them,
 * and keyless ones the site table refuses), time passing and flushes.  After every step:
 *
 *   - every missing number is lost exactly once: of the numbers between
 *     the first one received and the highest, those not received are
 *     the gap family's loss (plain gaps and overruns) plus those that
 *     malformed messages explain, no more and no fewer;
 *   - the loss is never more than what is missing and malformed, and
 *     malformed are only datagrams and messages;
 *   - a dump-sites reply, taken or refused, is no event: it changes
 *     neither the loss nor the malformed count;
 *   - counters never decrease: datagrams, messages, events, late and
 *     recovered arrivals, malformed messages, and the loss written to the
 *     journal by reason.
 *
 * A broken invariant aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "msgbuild.h"
#include "uaccessd/config.h"
#include "uaccessd/pipeline.h"

#define FAMILY		0x1f
#define SPAN		4096	/* numbers the fuzzer picks from */

enum op {
	OP_EVENT,		/* one event numbered BASE + arg % SPAN */
	OP_EVENTS,		/* a datagram of 2-5 consecutive events */
	OP_OVERRUN,
	OP_OVERSIZED,
	OP_TIME,		/* arg ms pass, then a tick */
	OP_FLUSH,
	OP_SYNC,		/* a dump-sites reply: site, direction, key from arg */
	OP_NR,
};

static uint64_t base = 1000000;

static int discard(const struct iovec *iov, int n)
{
	(void)iov;
	(void)n;
	return 0;
}

static void fill(struct uk_event *ev, uint64_t seq)
{
	int a;

	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->ts_boot = 1000000000ULL + seq;
	ev->kind = UACCESS_KADDR_KIND_PRECHECK;
	ev->helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ev->address = 0xffff888000100000ULL;
	ev->site_id = (uint32_t)(seq % 5) + 1;
	ev->site_ip = 0xffffffff81000000ULL + 0x40 * (seq % 5);
	ev->count = 1;
	for (a = UACCESS_KADDR_A_EVENT_SEQ; a <= UACCESS_KADDR_A_EVENT_MAX; a++)
		if (a != UACCESS_KADDR_A_EVENT_STACK)
			ev->present |= 1ULL << a;
}

struct model {
	uint8_t seen[SPAN / 8];
	bool any;
	uint64_t first, max;	/* offsets from base */
};

static void received(struct model *m, uint64_t off)
{
	if (!m->any) {
		m->any = true;
		m->first = m->max = off;
	}
	if (off > m->max)
		m->max = off;
	m->seen[off / 8] |= (uint8_t)(1u << (off % 8));
}

/* Numbers after the first received, up to the highest, not received. */
static uint64_t missing(const struct model *m)
{
	uint64_t off, n = 0;

	if (!m->any)
		return 0;
	for (off = m->first + 1; off < m->max; off++)
		n += !(m->seen[off / 8] & (1u << (off % 8)));
	return n;
}

struct counts {
	uint64_t datagrams, messages, events, late, recovered, malformed;
	uint64_t lost;
	uint64_t reported[UK_LOSS_NR];
};

static void snapshot(const struct uk_pipeline *p, struct counts *c)
{
	c->datagrams = p->datagrams;
	c->messages = p->messages;
	c->events = p->events;
	c->late = p->late;
	c->recovered = p->recovered;
	c->malformed = p->malformed;
	c->lost = uk_pipeline_lost(p);
	memcpy(c->reported, p->loss_reported, sizeof(c->reported));
}

static void fail(const char *what, uint64_t a, uint64_t b)
{
	fprintf(stderr, "fuzz_pipeline: %s (%llu, %llu)\n", what,
		(unsigned long long)a, (unsigned long long)b);
	abort();
}

static void check(const struct uk_pipeline *p, const struct model *m,
		  const struct counts *before)
{
	uint64_t miss = missing(m), gaps, explained, lost;
	struct counts now;
	int i;

	gaps = p->loss[UK_LOSS_SEQ_GAP] + p->loss[UK_LOSS_OVERRUN];
	explained = p->malformed_noseq < miss ? p->malformed_noseq : miss;
	if (p->gap_events + p->overrun_events != miss)
		fail("the gap counters are not the numbers missing",
		     p->gap_events + p->overrun_events, miss);
	if (gaps + explained != miss)
		fail("a missing number is not lost exactly once",
		     gaps + explained, miss);
	lost = uk_pipeline_lost(p);
	if (lost > miss + p->malformed)
		fail("more lost than missing and malformed", lost,
		     miss + p->malformed);
	if (p->malformed > p->datagrams + p->messages)
		fail("more malformed than datagrams and messages", p->malformed,
		     p->datagrams + p->messages);
	snapshot(p, &now);
	if (now.datagrams < before->datagrams ||
	    now.messages < before->messages ||
	    now.events < before->events || now.late < before->late ||
	    now.recovered < before->recovered ||
	    now.malformed < before->malformed)
		fail("a counter went down", 0, 0);
	for (i = 0; i < UK_LOSS_NR; i++)
		if (now.reported[i] < before->reported[i])
			fail("the loss reported went down", now.reported[i],
			     before->reported[i]);
	/* what the journal was told never exceeds what was counted */
	for (i = 0; i < UK_LOSS_NR; i++)
		if (i != UK_LOSS_JOURNAL && i != UK_LOSS_EVICTED &&
		    now.reported[i] > p->loss[i] &&
		    i != UK_LOSS_SEQ_GAP && i != UK_LOSS_OVERRUN)
			fail("more loss reported than counted", now.reported[i],
			     p->loss[i]);
}

/*
 * A dump-sites reply: one of 8 sites, its direction arg % 4 (0: unknown,
 * as the kernel sends for a #GP it could not decode), every fourth one
 * without its kind (no site key).
 */
static void site_reply(struct uk_site *s, unsigned int arg)
{
	memset(s, 0, sizeof(*s));
	s->site_id = (arg >> 2) % 8 + 1;
	s->site_ip = 0xffffffff81000000ULL + 0x40 * s->site_id;
	s->kind = UACCESS_KADDR_KIND_GP;
	s->helper = UACCESS_KADDR_HELPER_UNKNOWN;
	s->direction = arg % 4;
	s->count = arg >> 5;
	s->present = (1ULL << UACCESS_KADDR_A_SITE_SITE_ID) |
		     (1ULL << UACCESS_KADDR_A_SITE_SITE_IP) |
		     (1ULL << UACCESS_KADDR_A_SITE_HELPER) |
		     (1ULL << UACCESS_KADDR_A_SITE_DIRECTION) |
		     (1ULL << UACCESS_KADDR_A_SITE_COUNT);
	if ((arg >> 5) % 4)
		s->present |= 1ULL << UACCESS_KADDR_A_SITE_KIND;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[8 * 1024] __attribute__((aligned(4)));
	struct uk_pipeline p;
	struct uk_config cfg;
	struct model m = { 0 };
	struct counts before;
	uint64_t now = 1000000000ULL;
	size_t i;

	uk_config_defaults(&cfg);
	if (uk_pipeline_init(&p, &cfg) < 0)
		return 0;
	p.journal.sendv = discard;
	p.family = FAMILY;
	for (i = 0; i + 3 <= size; i += 3) {
		unsigned int arg = data[i + 1] | data[i + 2] << 8;
		struct uk_event ev;
		struct uk_site site;
		size_t len = 0;
		int n, k, r;

		snapshot(&p, &before);
		switch (data[i] % OP_NR) {
		case OP_EVENT:
		case OP_EVENTS:
			n = data[i] % OP_NR == OP_EVENT ? 1 : 2 + data[i] / OP_NR % 4;
			for (k = 0; k < n; k++) {
				uint64_t off = (arg + (unsigned int)k) % SPAN;

				fill(&ev, base + off);
				r = uk_event_build(&ev, FAMILY, 0, buf + len,
						   sizeof(buf) - len);
				if (r < 0)
					abort();
				len += (size_t)r;
				received(&m, off);
			}
			uk_pipeline_datagram(&p, buf, len, now);
			break;
		case OP_OVERRUN:
			uk_pipeline_overrun(&p);
			break;
		case OP_OVERSIZED:
			uk_pipeline_oversized(&p, now);
			break;
		case OP_TIME:
			now += (uint64_t)arg * 1000000;
			uk_pipeline_tick(&p, now);
			break;
		case OP_FLUSH:
			uk_pipeline_flush(&p);
			break;
		case OP_SYNC:
			site_reply(&site, arg);
			uk_pipeline_sync_site(&p, &site);
			if (uk_pipeline_lost(&p) != before.lost ||
			    p.malformed != before.malformed)
				fail("a dump-sites reply changed the loss",
				     uk_pipeline_lost(&p), before.lost);
			break;
		}
		check(&p, &m, &before);
	}
	uk_pipeline_free(&p);
	uk_config_free(&cfg);
	return 0;
}
