// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's site table (daemon/uaccessd/aggregate.c).  Events and dump-sites
 * replies are filled in directly, as the parser would leave them.
 */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uaccessd/aggregate.h"
#include "common/util.h"

#define MS		1000000ULL
#define SEC		1000000000ULL
#define IP(n)		(0xffffffff81000000ULL + (uint64_t)(n) * 0x40)
#define ALL_EVENT_ATTRS	(((1ULL << (UACCESS_KADDR_A_EVENT_MAX + 1)) - 1) & ~1ULL)
#define ALL_SITE_ATTRS	(((1ULL << (UACCESS_KADDR_A_SITE_MAX + 1)) - 1) & ~1ULL)

/* No limits, 4 samples, 64 sites, 64 stacks: each test changes what it tests. */
static void params(struct uk_agg_params *p)
{
	uk_agg_params_init(p);
	p->max_sites = 64;
	p->max_stacks = 64;
	p->samples = 4;
	p->site_interval_ns = 0;
	p->global_rate = 0;
}

static struct uk_agg *agg_new(const struct uk_agg_params *p)
{
	struct uk_agg *agg = NULL;

	assert_int_equal(uk_agg_new(p, &agg), 0);
	assert_non_null(agg);
	return agg;
}

static struct uk_agg *agg_default(void)
{
	struct uk_agg_params p;

	params(&p);
	return agg_new(&p);
}

/* An event of site @n (key: IP(n), fault, __get_user, from-user). */
static void event(struct uk_event *ev, unsigned int n, uint64_t seq,
		  uint64_t count)
{
	memset(ev, 0, sizeof(*ev));
	ev->present = ALL_EVENT_ATTRS;
	ev->seq = seq;
	ev->ts_boot = seq * MS;
	ev->ts_real = 1700000000 * SEC + seq * MS;
	ev->kind = UACCESS_KADDR_KIND_FAULT;
	ev->helper = UACCESS_KADDR_HELPER_GET_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_FROM_USER;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED;
	ev->address = 0xffff888100000000ULL + seq;
	ev->size = 8;
	ev->site_id = n;
	ev->site_ip = IP(n);
	snprintf(ev->site_symbol, sizeof(ev->site_symbol),
		 "site_%u_func+0x1c/0x80 [mod]", n);
	ev->stack_hash = 0;
	ev->pid = 100;
	ev->tgid = 100;
	snprintf(ev->comm, sizeof(ev->comm), "proc");
	ev->uid = 1000;
	ev->syscall_nr = 16;
	ev->cpu = 1;
	ev->count = count;
	ev->suppressed = 0;
	ev->context = UACCESS_KADDR_CONTEXT_TASK;
}

static void site_msg(struct uk_site *ks, unsigned int n, uint64_t count,
		     uint64_t suppressed, uint64_t reported)
{
	memset(ks, 0, sizeof(*ks));
	ks->present = ALL_SITE_ATTRS;
	ks->site_id = n;
	ks->site_ip = IP(n);
	snprintf(ks->site_symbol, sizeof(ks->site_symbol),
		 "site_%u_func+0x1c/0x80 [mod]", n);
	ks->kind = UACCESS_KADDR_KIND_FAULT;
	ks->helper = UACCESS_KADDR_HELPER_GET_USER;
	ks->direction = UACCESS_KADDR_DIRECTION_FROM_USER;
	ks->count = count;
	ks->suppressed = suppressed;
	ks->reported = reported;
}

static const struct uk_agg_site *add(struct uk_agg *agg,
				     const struct uk_event *ev, uint64_t now,
				     bool *forward)
{
	const struct uk_agg_site *s = NULL;
	bool fwd = false;
	int r;

	r = uk_agg_add_event(agg, ev, now, &s, &fwd);
	if (r != 0)
		fail_msg("uk_agg_add_event: expected 0, got %d", r);
	assert_non_null(s);
	if (forward)
		*forward = fwd;
	return s;
}

static const struct uk_agg_site *find(const struct uk_agg *agg,
				      unsigned int n)
{
	return uk_agg_find(agg, IP(n), UACCESS_KADDR_KIND_FAULT,
			   UACCESS_KADDR_HELPER_GET_USER,
			   UACCESS_KADDR_DIRECTION_FROM_USER);
}

static struct uk_agg_stats stats(const struct uk_agg *agg)
{
	struct uk_agg_stats st;

	uk_agg_get_stats(agg, &st);
	return st;
}

/* ---- Keys and kernel totals ---- */

static void same_key_merges_into_one_site(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;

	event(&ev, 1, 1, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 1, 2, 2);
	ev.address = 0xffffc90000001000ULL;
	add(agg, &ev, 0, NULL);
	event(&ev, 1, 3, 3);
	ev.address = 0xffffc90000002000ULL;
	s = add(agg, &ev, 0, NULL);
	assert_ptr_equal(find(agg, 1), s);
	assert_int_equal(stats(agg).sites, 1);
	assert_int_equal(s->events, 3);
	assert_int_equal(s->count, 3);
	assert_int_equal(s->kernel_reported, 3);
	assert_int_equal(s->first_boot, 1 * MS);
	assert_int_equal(s->last_boot, 3 * MS);
	assert_int_equal(s->first_real, 1700000000 * SEC + 1 * MS);
	assert_int_equal(s->last_real, 1700000000 * SEC + 3 * MS);
	assert_int_equal(s->last_address, 0xffffc90000002000ULL);
	assert_string_equal(s->symbol, "site_1_func+0x1c/0x80 [mod]");
	assert_int_equal(s->site_id, 1);
	uk_agg_free(agg);
}

static void kind_helper_or_direction_make_another_site(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *a, *b, *c, *d;
	struct uk_event ev;

	event(&ev, 1, 1, 1);
	a = add(agg, &ev, 0, NULL);
	ev.kind = UACCESS_KADDR_KIND_PRECHECK;
	b = add(agg, &ev, 0, NULL);
	event(&ev, 1, 2, 1);
	ev.helper = UACCESS_KADDR_HELPER_COPY_FROM_USER;
	c = add(agg, &ev, 0, NULL);
	event(&ev, 1, 3, 1);
	ev.direction = UACCESS_KADDR_DIRECTION_TO_USER;
	d = add(agg, &ev, 0, NULL);
	assert_int_equal(stats(agg).sites, 4);
	a = find(agg, 1);
	assert_non_null(a);
	assert_int_equal(a->events, 1);
	b = uk_agg_find(agg, IP(1), UACCESS_KADDR_KIND_PRECHECK,
			UACCESS_KADDR_HELPER_GET_USER,
			UACCESS_KADDR_DIRECTION_FROM_USER);
	c = uk_agg_find(agg, IP(1), UACCESS_KADDR_KIND_FAULT,
			UACCESS_KADDR_HELPER_COPY_FROM_USER,
			UACCESS_KADDR_DIRECTION_FROM_USER);
	assert_non_null(b);
	assert_non_null(c);
	assert_ptr_not_equal(a, b);
	assert_ptr_not_equal(a, c);
	assert_ptr_not_equal(b, c);
	assert_int_equal(d->direction, UACCESS_KADDR_DIRECTION_TO_USER);
	assert_ptr_equal(uk_agg_find(agg, IP(1), UACCESS_KADDR_KIND_FAULT,
				     UACCESS_KADDR_HELPER_GET_USER,
				     UACCESS_KADDR_DIRECTION_TO_USER), d);
	assert_null(uk_agg_find(agg, IP(2), UACCESS_KADDR_KIND_FAULT,
				UACCESS_KADDR_HELPER_GET_USER,
				UACCESS_KADDR_DIRECTION_FROM_USER));
	assert_null(uk_agg_find(agg, IP(1), 256 + UACCESS_KADDR_KIND_FAULT,
				UACCESS_KADDR_HELPER_GET_USER,
				UACCESS_KADDR_DIRECTION_FROM_USER));
	uk_agg_free(agg);
}

static void count_is_the_max_of_events_and_syncs(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	event(&ev, 1, 10, 5);
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 5);
	/* Per-CPU queues deliver out of order: a lower count is older. */
	event(&ev, 1, 9, 3);
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 5);
	/* Older in time too: first seen moves back, last seen stays. */
	assert_int_equal(s->first_boot, 9 * MS);
	assert_int_equal(s->first_real, 1700000000 * SEC + 9 * MS);
	assert_int_equal(s->last_boot, 10 * MS);
	assert_int_equal(s->last_real, 1700000000 * SEC + 10 * MS);
	assert_int_equal(s->last_address, 0xffff888100000000ULL + 10);
	site_msg(&ks, 1, 10, 0, 2);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_int_equal(s->count, 10);
	event(&ev, 1, 11, 7);
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 10);
	event(&ev, 1, 12, 11);
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 11);
	/* The same count again is not a reset. */
	site_msg(&ks, 1, 11, 0, 3);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_int_equal(s->count, 11);
	assert_int_equal(s->kernel_resets, 0);
	assert_int_equal(s->events, 4);
	uk_agg_free(agg);
}

/*
 * Kernel history of one site, hits numbered by count:
 *   1 reported (event A), 2-4 suppressed, 5 reported (event B, suppressed
 *   3), 6-7 suppressed, dump-sites (count 7, suppressed 5, reported 2),
 *   8 suppressed, 9 reported (event C, suppressed 3: hits 6, 7, 8).
 * After C the kernel has count 9, suppressed 6, reported 3: the two hits
 * the dump already counted must not be counted again.
 */
static void event_after_sync_adds_only_what_the_sync_did_not_see(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	event(&ev, 1, 1, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 1, 2, 5);
	ev.suppressed = 3;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->kernel_suppressed, 3);
	assert_int_equal(s->kernel_reported, 2);
	site_msg(&ks, 1, 7, 5, 2);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_int_equal(s->kernel_suppressed, 5);
	assert_int_equal(s->kernel_reported, 2);
	event(&ev, 1, 3, 9);
	ev.suppressed = 3;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 9);
	assert_int_equal(s->kernel_suppressed, 6);
	assert_int_equal(s->kernel_reported, 3);
	/* An event from before the dump, delivered late, adds nothing. */
	event(&ev, 1, 4, 5);
	ev.suppressed = 3;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->kernel_suppressed, 6);
	assert_int_equal(s->kernel_reported, 3);
	assert_int_equal(s->events, 4);
	uk_agg_free(agg);
}

/*
 * Hit 10 is reported, and the dump that follows sees count 10 before
 * its event is read: that event is already in the dump's totals.
 */
static void event_with_the_count_of_the_last_sync_is_in_it(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	site_msg(&ks, 1, 10, 9, 1);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_NEW);
	event(&ev, 1, 1, 10);
	ev.suppressed = 9;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->kernel_suppressed, 9);
	assert_int_equal(s->kernel_reported, 1);
	assert_int_equal(s->events, 1);
	uk_agg_free(agg);
}

static void event_without_a_count_leaves_kernel_totals(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;

	event(&ev, 1, 1, 0);
	ev.present &= ~(1ULL << UACCESS_KADDR_A_EVENT_COUNT);
	ev.count = 77;		/* not present: not to be read */
	ev.suppressed = 5;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 0);
	assert_int_equal(s->kernel_suppressed, 0);
	assert_int_equal(s->kernel_reported, 0);
	assert_int_equal(s->events, 1);
	uk_agg_free(agg);
}

static void sync_never_lowers_suppressed_or_reported(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	event(&ev, 1, 1, 10);
	ev.suppressed = 9;
	add(agg, &ev, 0, NULL);
	site_msg(&ks, 1, 10, 4, 0);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_int_equal(s->kernel_suppressed, 9);
	assert_int_equal(s->kernel_reported, 1);
	site_msg(&ks, 1, 12, 11, 1);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_int_equal(s->kernel_suppressed, 11);
	assert_int_equal(s->count, 12);
	uk_agg_free(agg);
}

static void lower_count_in_a_sync_is_a_kernel_reset(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_site ks;

	site_msg(&ks, 1, 100, 90, 10);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_NEW);
	event(&ev, 1, 1, 101);
	add(agg, &ev, 0, NULL);
	site_msg(&ks, 1, 4, 2, 2);
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_RESET);
	assert_int_equal(s->count, 4);
	assert_int_equal(s->kernel_suppressed, 2);
	assert_int_equal(s->kernel_reported, 2);
	assert_int_equal(s->kernel_resets, 1);
	/* The daemon's own counts stay. */
	assert_int_equal(s->events, 1);
	assert_int_equal(stats(agg).kernel_resets, 1);
	/* Counting goes on from the kernel's new values. */
	event(&ev, 1, 2, 6);
	ev.suppressed = 1;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->count, 6);
	assert_int_equal(s->kernel_suppressed, 3);
	assert_int_equal(s->kernel_reported, 3);
	assert_int_equal(stats(agg).syncs, 2);
	uk_agg_free(agg);
}

static void sync_creates_a_site_with_the_kernel_view(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_agg_sample smp[4];
	struct uk_event ev;
	struct uk_site ks;

	/* An event first, for the boot-to-real clock offset. */
	event(&ev, 2, 1, 1);
	add(agg, &ev, 0, NULL);
	site_msg(&ks, 1, 42, 40, 2);
	ks.first_ts_boot = 5 * SEC;
	ks.last_ts_boot = 9 * SEC;
	ks.last_address = 0xffff888000001234ULL;
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_NEW);
	assert_ptr_equal(find(agg, 1), s);
	assert_int_equal(s->count, 42);
	assert_int_equal(s->kernel_suppressed, 40);
	assert_int_equal(s->kernel_reported, 2);
	assert_int_equal(s->events, 0);
	assert_int_equal(s->first_boot, 5 * SEC);
	assert_int_equal(s->last_boot, 9 * SEC);
	assert_int_equal(s->first_real, 1700000000 * SEC + 5 * SEC);
	assert_int_equal(s->last_real, 1700000000 * SEC + 9 * SEC);
	assert_int_equal(s->last_address, 0xffff888000001234ULL);
	assert_string_equal(s->symbol, "site_1_func+0x1c/0x80 [mod]");
	assert_int_equal(s->nr_samples, 0);
	assert_int_equal(uk_agg_site_samples(s, smp, 4), 0);
	/* Its first event finds room for samples and stacks. */
	event(&ev, 1, 2, 43);
	ev.stack_hash = 7;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(uk_agg_site_samples(s, smp, 4), 1);
	assert_int_equal(smp[0].seq, 2);
	assert_int_equal(s->nr_stacks, 1);
	assert_int_equal(s->stacks[0].hash, 7);
	assert_int_equal(s->kernel_reported, 3);
	uk_agg_free(agg);
}

static void sync_without_events_leaves_real_times_unknown(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_site ks;

	site_msg(&ks, 3, 1, 0, 1);
	ks.first_ts_boot = ks.last_ts_boot = 5 * SEC;
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_NEW);
	assert_int_equal(s->first_boot, 5 * SEC);
	assert_int_equal(s->first_real, 0);
	assert_int_equal(s->last_real, 0);
	uk_agg_free(agg);
}

static void new_symbol_for_a_known_site_replaces_it(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_agg_sample smp[4];
	struct uk_event ev;
	struct uk_site ks;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		event(&ev, 1, i + 1, i + 1);
		ev.stack_hash = 100 + i;
		add(agg, &ev, 0, NULL);
	}
	/* Without a symbol attribute: the old one stays. */
	event(&ev, 1, 4, 4);
	ev.present &= ~(1ULL << UACCESS_KADDR_A_EVENT_SITE_SYMBOL);
	ev.stack_hash = 100;
	s = add(agg, &ev, 0, NULL);
	assert_string_equal(s->symbol, "site_1_func+0x1c/0x80 [mod]");
	/* A module at the same address: a much longer name... */
	event(&ev, 1, 5, 5);
	memset(ev.site_symbol, 'x', 100);
	ev.site_symbol[100] = '\0';
	ev.stack_hash = 101;
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(strlen(s->symbol), 100);
	/* ...another of the same length... */
	ev.site_symbol[0] = 'y';
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(s->symbol[0], 'y');
	assert_int_equal(s->symbol[1], 'x');
	/* ...then a short one, from a sync. */
	site_msg(&ks, 1, 5, 0, 5);
	snprintf(ks.site_symbol, sizeof(ks.site_symbol), "f+0x1/0x2");
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), 0);
	assert_string_equal(s->symbol, "f+0x1/0x2");
	assert_ptr_equal(find(agg, 1), s);
	/* Nothing else was lost in the moves. */
	assert_int_equal(s->events, 6);
	assert_int_equal(s->nr_stacks, 3);
	assert_int_equal(s->stacks[0].hash, 100);
	assert_int_equal(s->stacks[0].events, 2);
	assert_int_equal(s->stacks[1].events, 3);
	assert_int_equal(s->stacks[2].events, 1);
	assert_int_equal(uk_agg_site_samples(s, smp, 4), 4);
	for (i = 0; i < 3; i++)
		assert_int_equal(smp[i].seq, i + 3);
	assert_int_equal(smp[3].seq, 5);
	uk_agg_free(agg);
}

/* ---- Samples ---- */

static void samples_keep_the_newest_n_in_arrival_order(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s = NULL;
	struct uk_agg_sample smp[8];
	struct uk_event ev;
	unsigned int i;

	/* Out-of-order seqs: the order kept is the arrival order. */
	static const uint64_t seqs[] = { 5, 3, 9, 4, 8, 2, 7, 6, 1, 10 };

	for (i = 0; i < 10; i++) {
		event(&ev, 1, seqs[i], seqs[i]);
		ev.pid = 1000 + i;
		s = add(agg, &ev, 0, NULL);
		assert_int_equal(s->nr_samples, i < 4 ? i + 1 : 4);
	}
	assert_int_equal(uk_agg_site_samples(s, smp, 8), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(smp[i].seq, seqs[6 + i]);
		assert_int_equal(smp[i].pid, 1006 + i);
		assert_int_equal(smp[i].ts_boot, seqs[6 + i] * MS);
	}
	/* Fewer asked: the newest, still oldest first. */
	assert_int_equal(uk_agg_site_samples(s, smp, 2), 2);
	assert_int_equal(smp[0].seq, 1);
	assert_int_equal(smp[1].seq, 10);
	assert_int_equal(uk_agg_site_samples(s, smp, 0), 0);
	assert_int_equal(uk_agg_site_samples(NULL, smp, 4), 0);
	uk_agg_free(agg);
}

static void assert_sample_is_event(const struct uk_agg_sample *smp,
				   const struct uk_event *ev)
{
	assert_int_equal(smp->seq, ev->seq);
	assert_int_equal(smp->ts_boot, ev->ts_boot);
	assert_int_equal(smp->ts_real, ev->ts_real);
	assert_int_equal(smp->address, ev->address);
	assert_int_equal(smp->size, ev->size);
	assert_int_equal(smp->pid, ev->pid);
	assert_int_equal(smp->tgid, ev->tgid);
	assert_int_equal(smp->uid, ev->uid);
	assert_int_equal(smp->cpu, ev->cpu);
	assert_int_equal(smp->syscall_nr, ev->syscall_nr);
	assert_int_equal(smp->stack_hash, ev->stack_hash);
	assert_int_equal(smp->context, ev->context);
	assert_int_equal(smp->addr_class, ev->addr_class);
	assert_int_equal(smp->direction, ev->direction);
	assert_memory_equal(smp->comm, ev->comm, strnlen(ev->comm, 15));
	assert_int_equal(smp->comm[strnlen(ev->comm, 15)], '\0');
}

/* Every field at its extremes, and differences that wrap around. */
static void samples_keep_every_field_exactly(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s = NULL;
	struct uk_agg_sample smp[4];
	struct uk_event evs[4];
	unsigned int i;

	event(&evs[0], 1, 0, 1);
	evs[0].seq = UINT64_MAX;
	evs[0].ts_boot = UINT64_MAX;
	evs[0].ts_real = 0;
	evs[0].address = UINT64_MAX;
	evs[0].size = UINT64_MAX;
	evs[0].pid = evs[0].tgid = evs[0].uid = evs[0].cpu = UINT32_MAX;
	evs[0].syscall_nr = INT32_MIN;
	evs[0].stack_hash = UINT32_MAX;
	evs[0].context = evs[0].addr_class = UINT32_MAX;
	memset(evs[0].comm, 'c', sizeof(evs[0].comm));	/* unterminated */

	event(&evs[1], 1, 0, 2);
	evs[1].seq = 0;
	evs[1].ts_boot = 0;
	evs[1].ts_real = UINT64_MAX;
	evs[1].address = 0;
	evs[1].size = 0;
	evs[1].pid = evs[1].tgid = evs[1].uid = evs[1].cpu = 0;
	evs[1].syscall_nr = -1;
	evs[1].stack_hash = 0;
	evs[1].context = 0;
	evs[1].comm[0] = '\0';

	event(&evs[2], 1, 1ULL << 63, 3);
	evs[2].syscall_nr = INT32_MAX;
	evs[2].address = 0x8000000000000000ULL;
	snprintf(evs[2].comm, sizeof(evs[2].comm), "kworker/u16:3");

	event(&evs[3], 1, (1ULL << 63) - 1, 4);
	evs[3].ts_real = evs[3].ts_boot - 1;	/* real before boot */
	evs[3].addr_class = UACCESS_KADDR_ADDR_CLASS_NONCANONICAL;

	for (i = 0; i < 4; i++)
		s = add(agg, &evs[i], 0, NULL);
	assert_int_equal(uk_agg_site_samples(s, smp, 4), 4);
	for (i = 0; i < 4; i++)
		assert_sample_is_event(&smp[i], &evs[i]);
	assert_string_equal(smp[0].comm, "ccccccccccccccc");
	uk_agg_free(agg);
}

static void samples_limit_of_one_and_of_sixty_four(void **state)
{
	struct uk_agg_params p;
	struct uk_agg_sample smp[64];
	const struct uk_agg_site *s = NULL;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.samples = 1;
	agg = agg_new(&p);
	for (i = 1; i <= 5; i++) {
		event(&ev, 1, i, i);
		s = add(agg, &ev, 0, NULL);
	}
	assert_int_equal(uk_agg_site_samples(s, smp, 64), 1);
	assert_int_equal(smp[0].seq, 5);
	uk_agg_free(agg);

	p.samples = 64;
	agg = agg_new(&p);
	for (i = 1; i <= 100; i++) {
		event(&ev, 1, i, i);
		ev.pid = (uint32_t)(i * 7919);
		ev.cpu = i % 3;
		s = add(agg, &ev, 0, NULL);
	}
	assert_int_equal(s->nr_samples, 64);
	assert_int_equal(uk_agg_site_samples(s, smp, 64), 64);
	for (i = 0; i < 64; i++) {
		assert_int_equal(smp[i].seq, 37 + i);
		assert_int_equal(smp[i].pid, (37 + i) * 7919);
		assert_int_equal(smp[i].cpu, (37 + i) % 3);
	}
	uk_agg_free(agg);
}

static void fewer_samples_on_reload_keeps_the_newest(void **state)
{
	struct uk_agg_params p;
	struct uk_agg_sample smp[8];
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.samples = 8;
	agg = agg_new(&p);
	for (i = 1; i <= 8; i++) {
		event(&ev, 1, i, i);
		add(agg, &ev, 0, NULL);
		event(&ev, 2, 100 + i, i);
		add(agg, &ev, 0, NULL);
	}
	p.samples = 3;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	s = find(agg, 1);
	assert_int_equal(uk_agg_site_samples(s, smp, 8), 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(smp[i].seq, 6 + i);
	s = find(agg, 2);
	assert_int_equal(uk_agg_site_samples(s, smp, 8), 3);
	assert_int_equal(smp[2].seq, 108);
	/* Still a ring of three afterwards. */
	event(&ev, 1, 9, 9);
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(uk_agg_site_samples(s, smp, 8), 3);
	assert_int_equal(smp[0].seq, 7);
	assert_int_equal(smp[2].seq, 9);
	/* More samples again: the ring grows from what is there. */
	p.samples = 5;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	for (i = 10; i <= 12; i++) {
		event(&ev, 1, i, i);
		s = add(agg, &ev, 0, NULL);
	}
	assert_int_equal(uk_agg_site_samples(s, smp, 8), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(smp[i].seq, 8 + i);
	uk_agg_free(agg);
}

/* ---- Stack hashes ---- */

static void site_counts_eight_stacks_then_other(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s = NULL;
	uint64_t sum = 0;
	struct uk_event ev;
	unsigned int i;

	for (i = 0; i < 30; i++) {
		event(&ev, 1, i + 1, i + 1);
		/* hashes 0..11, each seen once in the first 12 events */
		ev.stack_hash = i % 12;
		s = add(agg, &ev, 0, NULL);
	}
	assert_int_equal(s->nr_stacks, UK_AGG_SITE_STACKS);
	for (i = 0; i < s->nr_stacks; i++) {
		assert_int_equal(s->stacks[i].hash, i);
		assert_int_equal(s->stacks[i].events, i < 6 ? 3 : 2);
		sum += s->stacks[i].events;
	}
	/* Hashes 8..11, twice each, found no room. */
	assert_int_equal(s->stacks_other, 30 - sum);
	assert_int_equal(s->stacks_other, 8);
	uk_agg_free(agg);
}

static void fill_frames(struct uk_event *ev, unsigned int n, unsigned int tag)
{
	unsigned int i;

	ev->nr_frames = n;
	for (i = 0; i < n; i++) {
		ev->frames[i].ip = 0xffffffff81100000ULL + tag * 0x100 + i;
		snprintf(ev->frames[i].symbol, sizeof(ev->frames[i].symbol),
			 "frame_%u_%u+0x%x/0x100", tag, i, i);
	}
}

static void stack_store_keeps_the_latest_frames_of_a_hash(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_stack *st;
	struct uk_event ev;

	event(&ev, 1, 1, 1);
	ev.stack_hash = 0xabcd;
	fill_frames(&ev, 5, 1);
	add(agg, &ev, 0, NULL);
	st = uk_agg_stack_find(agg, 0xabcd);
	assert_non_null(st);
	assert_int_equal(st->nr_frames, 5);
	assert_string_equal(st->frames[4].symbol, "frame_1_4+0x4/0x100");
	assert_int_equal(st->frames[4].ip, 0xffffffff81100104ULL);

	/* Same hash, other frames (a collision, or symbols changed). */
	event(&ev, 2, 2, 1);
	ev.stack_hash = 0xabcd;
	fill_frames(&ev, 3, 2);
	add(agg, &ev, 0, NULL);
	st = uk_agg_stack_find(agg, 0xabcd);
	assert_int_equal(st->nr_frames, 3);
	assert_string_equal(st->frames[0].symbol, "frame_2_0+0x0/0x100");
	assert_int_equal(st->events, 2);
	assert_int_equal(st->last_boot, 2 * MS);

	/* The same hash without frames still counts. */
	event(&ev, 3, 3, 1);
	ev.stack_hash = 0xabcd;
	add(agg, &ev, 0, NULL);
	st = uk_agg_stack_find(agg, 0xabcd);
	assert_int_equal(st->nr_frames, 3);
	assert_int_equal(st->events, 3);
	/* A new hash without frames is not stored; hash 0 never is. */
	ev.stack_hash = 0x1234;
	add(agg, &ev, 0, NULL);
	assert_null(uk_agg_stack_find(agg, 0x1234));
	ev.stack_hash = 0;
	fill_frames(&ev, 3, 3);
	add(agg, &ev, 0, NULL);
	assert_null(uk_agg_stack_find(agg, 0));
	assert_int_equal(stats(agg).stacks, 1);
	/* The frames of the replaced stack went, the new ones stay. */
	assert_int_equal(stats(agg).symbols, 3);
	uk_agg_free(agg);
}

static void stack_store_evicts_least_recently_seen_and_counts(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.max_stacks = 16;
	agg = agg_new(&p);
	for (i = 0; i < 16; i++) {
		event(&ev, i, i + 1, 1);
		ev.stack_hash = 1000 + i;
		fill_frames(&ev, 4, i);
		add(agg, &ev, 0, NULL);
	}
	/* Stack 1000 seen again: 1001 is now the oldest. */
	event(&ev, 0, 20, 2);
	ev.stack_hash = 1000;
	fill_frames(&ev, 4, 0);
	add(agg, &ev, 0, NULL);
	for (i = 16; i < 20; i++) {
		event(&ev, i, i + 30, 1);
		ev.stack_hash = 1000 + i;
		fill_frames(&ev, 4, i);
		add(agg, &ev, 0, NULL);
	}
	assert_int_equal(stats(agg).stacks, 16);
	assert_int_equal(stats(agg).stacks_evicted, 4);
	assert_non_null(uk_agg_stack_find(agg, 1000));
	for (i = 1001; i <= 1004; i++)
		assert_null(uk_agg_stack_find(agg, i));
	for (i = 1005; i < 1020; i++)
		assert_non_null(uk_agg_stack_find(agg, i));
	/* Evicted stacks gave back their symbols. */
	assert_int_equal(stats(agg).symbols, 16 * 4);

	/* A smaller store on reload evicts the oldest. */
	p.max_stacks = 4;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	assert_int_equal(stats(agg).stacks, 4);
	assert_int_equal(stats(agg).stacks_evicted, 16);
	for (i = 1016; i < 1020; i++)
		assert_non_null(uk_agg_stack_find(agg, i));
	assert_int_equal(stats(agg).symbols, 4 * 4);
	uk_agg_free(agg);
}

static void stack_symbols_are_stored_once_across_stacks(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_stack *a, *b;
	struct uk_event ev;

	event(&ev, 1, 1, 1);
	ev.stack_hash = 1;
	fill_frames(&ev, 6, 7);
	add(agg, &ev, 0, NULL);
	event(&ev, 2, 2, 1);
	ev.stack_hash = 2;
	fill_frames(&ev, 6, 7);
	snprintf(ev.frames[0].symbol, sizeof(ev.frames[0].symbol), "other");
	add(agg, &ev, 0, NULL);
	a = uk_agg_stack_find(agg, 1);
	b = uk_agg_stack_find(agg, 2);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(stats(agg).symbols, 7);
	assert_ptr_equal(a->frames[5].symbol, b->frames[5].symbol);
	assert_string_equal(b->frames[0].symbol, "other");
	uk_agg_free(agg);
}

static void zero_max_stacks_keeps_no_stacks(void **state)
{
	struct uk_agg_params p;
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_agg *agg;

	params(&p);
	p.max_stacks = 0;
	agg = agg_new(&p);
	event(&ev, 1, 1, 1);
	ev.stack_hash = 5;
	fill_frames(&ev, 4, 1);
	s = add(agg, &ev, 0, NULL);
	assert_null(uk_agg_stack_find(agg, 5));
	assert_int_equal(stats(agg).stacks, 0);
	assert_int_equal(stats(agg).symbols, 0);
	assert_int_equal(stats(agg).stacks_evicted, 0);
	/* The site still counts its stack hash. */
	assert_int_equal(s->nr_stacks, 1);
	assert_int_equal(s->stacks[0].hash, 5);
	uk_agg_free(agg);
}

/* ---- Bounded sites ---- */

static void full_table_evicts_the_least_recently_seen_site(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_site ks;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.max_sites = 16;
	agg = agg_new(&p);
	for (i = 0; i < 16; i++) {
		event(&ev, i, i + 1, 1);
		add(agg, &ev, 0, NULL);
	}
	/* 0 seen again by an event, 1 by a sync with new hits. */
	event(&ev, 0, 20, 2);
	add(agg, &ev, 0, NULL);
	site_msg(&ks, 1, 5, 4, 1);
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), 0);
	/* A sync with nothing new does not refresh 2. */
	site_msg(&ks, 2, 1, 0, 1);
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), 0);
	event(&ev, 16, 21, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 17, 22, 1);
	add(agg, &ev, 0, NULL);
	assert_int_equal(stats(agg).sites, 16);
	assert_int_equal(stats(agg).evicted, 2);
	assert_non_null(find(agg, 0));
	assert_non_null(find(agg, 1));
	assert_null(find(agg, 2));
	assert_null(find(agg, 3));
	for (i = 4; i < 18; i++)
		assert_non_null(find(agg, i));
	/* A site created by a sync evicts too. */
	site_msg(&ks, 30, 1, 0, 1);
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), UK_AGG_SYNC_NEW);
	assert_null(find(agg, 4));
	assert_int_equal(stats(agg).evicted, 3);
	uk_agg_free(agg);
}

static void evicting_a_site_counts_its_unsummarized_suppressed(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.max_sites = 16;
	p.site_interval_ns = 60 * SEC;
	p.site_burst = 1;
	agg = agg_new(&p);
	for (i = 0; i < 5; i++) {
		event(&ev, 0, i + 1, i + 1);
		add(agg, &ev, 0, NULL);
	}
	for (i = 1; i <= 16; i++) {
		event(&ev, i, 100 + i, 1);
		add(agg, &ev, 0, NULL);
	}
	assert_null(find(agg, 0));
	assert_int_equal(stats(agg).evicted, 1);
	assert_int_equal(stats(agg).evicted_pending, 4);
	uk_agg_free(agg);
}

static void smaller_max_sites_on_reload_evicts_the_oldest(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.max_sites = 64;
	agg = agg_new(&p);
	for (i = 0; i < 40; i++) {
		event(&ev, i, i + 1, 1);
		add(agg, &ev, 0, NULL);
	}
	event(&ev, 3, 50, 2);
	add(agg, &ev, 0, NULL);
	p.max_sites = 16;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	assert_int_equal(stats(agg).sites, 16);
	assert_int_equal(stats(agg).max_sites, 16);
	assert_int_equal(stats(agg).evicted, 24);
	assert_non_null(find(agg, 3));
	for (i = 25; i < 40; i++)
		assert_non_null(find(agg, i));
	assert_null(find(agg, 24));
	assert_null(find(agg, 0));
	/* And the table keeps working at the new size. */
	event(&ev, 100, 60, 1);
	add(agg, &ev, 0, NULL);
	assert_int_equal(stats(agg).sites, 16);
	assert_null(find(agg, 25));
	uk_agg_free(agg);
}

/* ---- Rate limits, summaries ---- */

static void site_limit_decides_what_goes_to_the_journal(void **state)
{
	struct uk_agg_params p;
	const struct uk_agg_site *s = NULL;
	struct uk_event ev;
	struct uk_agg *agg;
	bool fwd[6];
	unsigned int i;

	params(&p);
	p.site_interval_ns = 10 * SEC;
	p.site_burst = 2;
	agg = agg_new(&p);
	for (i = 0; i < 4; i++) {
		event(&ev, 1, i + 1, i + 1);
		s = add(agg, &ev, (uint64_t)i * SEC, &fwd[i]);
	}
	/* Another site has its own budget. */
	event(&ev, 2, 10, 1);
	add(agg, &ev, 3 * SEC, &fwd[4]);
	/* The window is [0, 10 s): its last nanosecond, then the next. */
	event(&ev, 1, 11, 5);
	s = add(agg, &ev, 10 * SEC - 1, &fwd[3]);
	assert_false(fwd[3]);
	event(&ev, 1, 12, 6);
	s = add(agg, &ev, 10 * SEC, &fwd[5]);
	assert_true(fwd[0]);
	assert_true(fwd[1]);
	assert_false(fwd[2]);
	assert_false(fwd[3]);
	assert_true(fwd[4]);
	assert_true(fwd[5]);
	assert_int_equal(s->rl.suppressed_pending, 3);
	assert_int_equal(s->rl.suppressed_total, 3);
	assert_int_equal(stats(agg).forwarded, 4);
	assert_int_equal(stats(agg).suppressed, 3);
	assert_int_equal(stats(agg).suppressed_global, 0);
	uk_agg_free(agg);
}

static void global_limit_refusals_count_on_the_site(void **state)
{
	struct uk_agg_params p;
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_agg *agg;
	bool fwd;
	unsigned int i, passed = 0;

	params(&p);
	p.global_rate = 2;
	p.global_burst = 3;	/* 3 per 1.5 s */
	agg = agg_new(&p);
	for (i = 0; i < 6; i++) {
		event(&ev, i, i + 1, 1);
		add(agg, &ev, 0, &fwd);
		passed += fwd;
	}
	assert_int_equal(passed, 3);
	for (i = 3; i < 6; i++) {
		s = find(agg, i);
		assert_int_equal(s->rl.suppressed_pending, 1);
		assert_int_equal(s->events - s->rl.suppressed_total, 0);
	}
	assert_int_equal(stats(agg).suppressed_global, 3);
	assert_int_equal(stats(agg).suppressed, 3);
	event(&ev, 7, 7, 1);
	add(agg, &ev, 1500 * MS, &fwd);
	assert_true(fwd);
	/* Changing the rate keeps the global counters. */
	p.global_rate = 0;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	assert_int_equal(stats(agg).suppressed_global, 3);
	uk_agg_free(agg);
}

static void reload_keeps_site_limiter_counters(void **state)
{
	struct uk_agg_params p;
	const struct uk_agg_site *s;
	struct uk_event ev;
	struct uk_agg *agg;
	bool fwd;
	unsigned int i;

	params(&p);
	p.site_interval_ns = 10 * SEC;
	p.site_burst = 1;
	agg = agg_new(&p);
	for (i = 0; i < 3; i++) {
		event(&ev, 1, i + 1, i + 1);
		add(agg, &ev, 0, &fwd);
	}
	p.site_burst = 3;
	assert_int_equal(uk_agg_set_params(agg, &p), 0);
	s = find(agg, 1);
	assert_int_equal(s->rl.suppressed_pending, 2);
	assert_int_equal(s->rl.burst, 3);
	/* Same window, two more now allowed. */
	event(&ev, 1, 4, 4);
	add(agg, &ev, SEC, &fwd);
	assert_true(fwd);
	uk_agg_free(agg);
}

struct summary {
	unsigned int calls;
	unsigned int fail_at;	/* 1-based call that fails, 0: none */
	uint64_t sum;
	uint64_t last_total;
};

static int summarize(const struct uk_agg_site *s, uint64_t n, void *data)
{
	struct summary *sm = data;

	sm->calls++;
	if (sm->calls == sm->fail_at)
		return -EIO;
	sm->sum += n;
	sm->last_total = s->rl.suppressed_total;
	return 0;
}

static void summaries_read_and_zero_the_pending_counts(void **state)
{
	struct uk_agg_params p;
	struct summary sm = { 0 };
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;
	bool fwd;

	params(&p);
	p.site_interval_ns = 10 * SEC;
	p.site_burst = 1;
	agg = agg_new(&p);
	for (i = 0; i < 4; i++) {
		event(&ev, 1, i + 1, i + 1);
		add(agg, &ev, 0, &fwd);
	}
	for (i = 0; i < 3; i++) {
		event(&ev, 2, i + 10, i + 1);
		add(agg, &ev, 0, &fwd);
	}
	event(&ev, 3, 20, 1);	/* nothing suppressed here */
	add(agg, &ev, 0, &fwd);
	assert_int_equal(uk_agg_take_summaries(agg, summarize, &sm), 2);
	assert_int_equal(sm.sum, 3 + 2);
	assert_int_equal(find(agg, 1)->rl.suppressed_pending, 0);
	assert_int_equal(find(agg, 1)->rl.suppressed_total, 3);
	memset(&sm, 0, sizeof(sm));
	assert_int_equal(uk_agg_take_summaries(agg, summarize, &sm), 0);
	assert_int_equal(sm.calls, 0);
	/* New suppressions after the summary: totals go on. */
	event(&ev, 1, 30, 5);
	add(agg, &ev, 0, &fwd);
	assert_int_equal(uk_agg_take_summaries(agg, summarize, &sm), 1);
	assert_int_equal(sm.sum, 1);
	assert_int_equal(sm.last_total, 4);
	assert_int_equal(uk_agg_take_summaries(agg, NULL, &sm), -EINVAL);
	uk_agg_free(agg);
}

static void failed_summary_leaves_the_counts_pending(void **state)
{
	struct uk_agg_params p;
	struct summary sm = { .fail_at = 2 };
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i, n;
	bool fwd;

	params(&p);
	p.site_interval_ns = 10 * SEC;
	p.site_burst = 1;
	agg = agg_new(&p);
	for (n = 1; n <= 3; n++)
		for (i = 0; i < 2; i++) {
			event(&ev, n, n * 10 + i, i + 1);
			add(agg, &ev, 0, &fwd);
		}
	/* Most recently seen first: 3, then 2 fails, 1 untouched. */
	assert_int_equal(uk_agg_take_summaries(agg, summarize, &sm), -EIO);
	assert_int_equal(find(agg, 3)->rl.suppressed_pending, 0);
	assert_int_equal(find(agg, 2)->rl.suppressed_pending, 1);
	assert_int_equal(find(agg, 1)->rl.suppressed_pending, 1);
	memset(&sm, 0, sizeof(sm));
	assert_int_equal(uk_agg_take_summaries(agg, summarize, &sm), 2);
	assert_int_equal(sm.sum, 2);
	uk_agg_free(agg);
}

/* ---- Sorting, lookups, reset ---- */

static void sorted_by_count_last_and_name_with_ties_broken(void **state)
{
	/* site, count, last ts (ms), symbol */
	static const struct {
		unsigned int n;
		uint64_t count;
		uint64_t seq;
		const char *sym;
		uint32_t kind;
	} in[] = {
		{ 5, 10, 50, "b_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
		{ 1, 30, 10, "c_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
		{ 3, 10, 50, "a_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
		{ 3, 10, 50, "a_func+0x1/0x2", UACCESS_KADDR_KIND_GP },
		{ 6, 10, 70, "b_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
		{ 4, 5, 90, "a_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
		{ 0, 8, 50, "d_func+0x1/0x2", UACCESS_KADDR_KIND_FAULT },
	};
	/*
	 * Expected orders, as indexes into in[].  Each tie-break is needed:
	 * by count, 4 wins its tie on last seen against a smaller key; by
	 * last, 6 loses on count against larger keys; by name, the key.
	 */
	static const unsigned int by_count[] = { 1, 4, 2, 3, 0, 6, 5 };
	static const unsigned int by_last[] = { 5, 4, 2, 3, 0, 6, 1 };
	static const unsigned int by_name[] = { 2, 3, 5, 0, 4, 1, 6 };
	static const struct {
		const char *name;
		const unsigned int *order;
	} sorts[] = {
		{ "count", by_count }, { "last", by_last }, { "name", by_name },
	};
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site **v;
	enum uk_sort sort;
	struct uk_event ev;
	size_t n, i, j;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		event(&ev, in[i].n, in[i].seq, in[i].count);
		ev.kind = in[i].kind;
		snprintf(ev.site_symbol, sizeof(ev.site_symbol), "%s",
			 in[i].sym);
		add(agg, &ev, 0, NULL);
	}
	for (j = 0; j < 3; j++) {
		assert_int_equal(uk_sort_parse(sorts[j].name, &sort), 0);
		assert_int_equal(uk_agg_sorted(agg, sort, &v, &n), 0);
		assert_int_equal(n, ARRAY_SIZE(in));
		for (i = 0; i < n; i++) {
			const unsigned int k = sorts[j].order[i];

			if (v[i]->site_ip != IP(in[k].n) ||
			    v[i]->kind != in[k].kind)
				fail_msg("sort %s, position %zu: expected site %u kind %u, got ip %#llx kind %u",
					 sorts[j].name, i, in[k].n, in[k].kind,
					 (unsigned long long)v[i]->site_ip,
					 v[i]->kind);
		}
		free(v);
	}
	uk_agg_free(agg);
}

static void sort_names_parse_and_bad_ones_are_refused(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site **v = (void *)1;
	enum uk_sort sort = UK_SORT_LAST;
	size_t n = 5;

	assert_int_equal(uk_sort_parse("count", &sort), 0);
	assert_int_equal(sort, UK_SORT_COUNT);
	assert_int_equal(uk_sort_parse("name", &sort), 0);
	assert_int_equal(sort, UK_SORT_NAME);
	assert_int_equal(uk_sort_parse("Count", &sort), -EINVAL);
	assert_int_equal(uk_sort_parse("", &sort), -EINVAL);
	assert_int_equal(uk_sort_parse(NULL, &sort), -EINVAL);
	assert_int_equal(sort, UK_SORT_NAME);
	assert_int_equal(uk_agg_sorted(agg, (enum uk_sort)7, &v, &n),
			 -EINVAL);
	/* Empty table: no array, zero sites. */
	assert_int_equal(uk_agg_sorted(agg, UK_SORT_COUNT, &v, &n), 0);
	assert_null(v);
	assert_int_equal(n, 0);
	uk_agg_free(agg);
}

static void collect_ids(const struct uk_agg_site *s, void *data)
{
	char *ids = data;

	sprintf(ids + strlen(ids), "%u ", (unsigned int)s->site_id);
}

static void for_each_visits_every_site_most_recent_first(void **state)
{
	struct uk_agg *agg = agg_default();
	struct uk_event ev;
	char ids[64] = "";

	uk_agg_for_each(agg, collect_ids, ids);
	assert_string_equal(ids, "");
	event(&ev, 1, 1, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 2, 2, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 3, 3, 1);
	add(agg, &ev, 0, NULL);
	event(&ev, 1, 4, 2);
	add(agg, &ev, 0, NULL);
	uk_agg_for_each(agg, collect_ids, ids);
	assert_string_equal(ids, "1 3 2 ");
	uk_agg_free(agg);
}

static void find_id_returns_the_most_recent_site_of_a_slot(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;

	event(&ev, 1, 1, 1);
	ev.site_id = 77;
	add(agg, &ev, 0, NULL);
	event(&ev, 2, 2, 1);
	ev.site_id = 77;
	add(agg, &ev, 0, NULL);
	event(&ev, 3, 3, 1);
	add(agg, &ev, 0, NULL);
	s = uk_agg_find_id(agg, 77);
	assert_non_null(s);
	assert_int_equal(s->site_ip, IP(2));
	assert_null(uk_agg_find_id(agg, 78));
	assert_null(uk_agg_find_id(NULL, 77));
	uk_agg_free(agg);
}

static void reset_forgets_everything_but_the_parameters(void **state)
{
	struct uk_agg_params p;
	struct uk_agg_stats st;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;
	bool fwd;

	params(&p);
	p.max_sites = 20;
	p.site_interval_ns = SEC;
	p.site_burst = 1;
	agg = agg_new(&p);
	for (i = 0; i < 30; i++) {
		event(&ev, i % 25, i + 1, 1);
		ev.stack_hash = i;
		fill_frames(&ev, 3, i);
		add(agg, &ev, 0, &fwd);
	}
	uk_agg_reset(agg);
	st = stats(agg);
	assert_int_equal(st.sites, 0);
	assert_int_equal(st.stacks, 0);
	assert_int_equal(st.symbols, 0);
	assert_int_equal(st.events, 0);
	assert_int_equal(st.evicted, 0);
	assert_int_equal(st.suppressed, 0);
	assert_int_equal(st.max_sites, 20);
	assert_null(find(agg, 5));
	/* Works as new afterwards, with the same limits. */
	event(&ev, 1, 100, 1);
	add(agg, &ev, 0, &fwd);
	assert_true(fwd);
	add(agg, &ev, 0, &fwd);
	assert_false(fwd);
	assert_int_equal(stats(agg).sites, 1);
	uk_agg_free(agg);
}

/* ---- Malformed input ---- */

static void events_without_a_complete_key_are_refused(void **state)
{
	static const int key_attrs[] = {
		UACCESS_KADDR_A_EVENT_SITE_IP, UACCESS_KADDR_A_EVENT_KIND,
		UACCESS_KADDR_A_EVENT_HELPER, UACCESS_KADDR_A_EVENT_DIRECTION,
	};
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	struct uk_event ev;
	unsigned int i;
	bool fwd;

	for (i = 0; i < 4; i++) {
		event(&ev, 1, 1, 1);
		ev.present &= ~(1ULL << key_attrs[i]);
		s = (void *)1;
		fwd = true;
		assert_int_equal(uk_agg_add_event(agg, &ev, 0, &s, &fwd),
				 -EINVAL);
		assert_null(s);
		assert_false(fwd);
	}
	/*
	 * Present but 0: the kernel never sends kind or helper 0 (it has
	 * HELPER_UNKNOWN); direction 0 it does send, see below.
	 */
	event(&ev, 1, 1, 1);
	ev.kind = 0;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -EINVAL);
	event(&ev, 1, 1, 1);
	ev.helper = 0;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -EINVAL);
	event(&ev, 1, 1, 1);
	ev.site_ip = 0;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -EINVAL);
	assert_int_equal(stats(agg).events, 0);
	assert_int_equal(stats(agg).sites, 0);
	uk_agg_free(agg);
}

/*
 * Direction 0 is the kernel's "unknown direction" (a #GP whose instruction
 * did not decode: arch/x86/mm/uaccess_kaddr.c): part of the kernel's site
 * key like any direction, so a site of its own, from events and from
 * dump-sites alike.
 */
static void unknown_direction_is_a_site_of_its_own(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s, *s0;
	struct uk_event ev;
	struct uk_site ks;
	bool fwd;

	event(&ev, 1, 1, 1);
	ev.direction = 0;
	s0 = add(agg, &ev, 0, &fwd);
	assert_int_equal(s0->direction, 0);
	event(&ev, 1, 2, 1);
	s = add(agg, &ev, 0, &fwd);
	assert_ptr_not_equal(s, s0);
	assert_int_equal(stats(agg).sites, 2);

	site_msg(&ks, 1, 9, 0, 2);
	ks.kind = ev.kind;
	ks.helper = ev.helper;
	ks.direction = 0;
	assert_true(uk_agg_sync_site(agg, &ks, &s) >= 0);
	assert_ptr_equal(s, uk_agg_find(agg, IP(1), ev.kind, ev.helper, 0));
	assert_int_equal(s->count, 9);
	assert_int_equal(stats(agg).sites, 2);
	uk_agg_free(agg);
}

static void out_of_range_values_are_refused(void **state)
{
	struct uk_agg *agg = agg_default();
	struct uk_event ev;
	struct uk_site ks;
	bool fwd;

	event(&ev, 1, 1, 1);
	ev.kind = 256;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -ERANGE);
	event(&ev, 1, 1, 1);
	ev.helper = UINT32_MAX;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -ERANGE);
	event(&ev, 1, 1, 1);
	ev.direction = 0x10001;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -ERANGE);
	event(&ev, 1, 1, 1);
	ev.nr_frames = UK_STACK_MAX + 1;
	ev.stack_hash = 1;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -EINVAL);
	ev.nr_frames = UINT32_MAX;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), -EINVAL);
	/* A newer kernel's enum values under 256 are fine. */
	event(&ev, 1, 1, 1);
	ev.kind = 200;
	ev.helper = 255;
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, &fwd), 0);
	assert_int_equal(stats(agg).events, 1);

	site_msg(&ks, 1, 1, 0, 1);
	ks.kind = 300;
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), -ERANGE);
	site_msg(&ks, 1, 1, 0, 1);
	ks.present &= ~(1ULL << UACCESS_KADDR_A_SITE_DIRECTION);
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), -EINVAL);
	site_msg(&ks, 1, 1, 0, 1);
	ks.present &= ~(1ULL << UACCESS_KADDR_A_SITE_SITE_IP);
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), -EINVAL);
	site_msg(&ks, 1, 1, 0, 1);
	ks.helper = 0;
	assert_int_equal(uk_agg_sync_site(agg, &ks, NULL), -EINVAL);
	assert_int_equal(stats(agg).syncs, 0);
	uk_agg_free(agg);
}

static void null_arguments_are_refused(void **state)
{
	struct uk_agg *agg = agg_default();
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_site ks;
	bool fwd;

	params(&p);
	event(&ev, 1, 1, 1);
	site_msg(&ks, 1, 1, 0, 1);
	assert_int_equal(uk_agg_add_event(NULL, &ev, 0, NULL, &fwd), -EINVAL);
	assert_int_equal(uk_agg_add_event(agg, NULL, 0, NULL, &fwd), -EINVAL);
	assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL, NULL), -EINVAL);
	assert_int_equal(uk_agg_sync_site(NULL, &ks, NULL), -EINVAL);
	assert_int_equal(uk_agg_sync_site(agg, NULL, NULL), -EINVAL);
	assert_int_equal(uk_agg_set_params(agg, NULL), -ERANGE);
	assert_int_equal(uk_agg_set_params(NULL, &p), -EINVAL);
	assert_int_equal(uk_agg_new(&p, NULL), -EINVAL);
	assert_null(uk_agg_stack_find(NULL, 1));
	assert_null(uk_agg_find(NULL, IP(1), 1, 1, 1));
	uk_agg_free(NULL);
	uk_agg_reset(NULL);
	assert_int_equal(stats(agg).events, 0);
	uk_agg_free(agg);
}

static void unterminated_strings_are_cut_not_overrun(void **state)
{
	struct uk_agg *agg = agg_default();
	const struct uk_agg_site *s;
	const struct uk_agg_stack *st;
	struct uk_agg_sample smp[1];
	struct uk_event ev;
	struct uk_site ks;

	event(&ev, 1, 1, 1);
	memset(ev.site_symbol, 'S', sizeof(ev.site_symbol));
	memset(ev.comm, 'C', sizeof(ev.comm));
	ev.stack_hash = 9;
	fill_frames(&ev, UK_STACK_MAX, 1);
	memset(ev.frames[3].symbol, 'F', sizeof(ev.frames[3].symbol));
	s = add(agg, &ev, 0, NULL);
	assert_int_equal(strlen(s->symbol), UK_SYMBOL_LEN - 1);
	assert_int_equal(uk_agg_site_samples(s, smp, 1), 1);
	assert_int_equal(strlen(smp[0].comm), UK_COMM_LEN - 1);
	st = uk_agg_stack_find(agg, 9);
	assert_non_null(st);
	assert_int_equal(st->nr_frames, UK_STACK_MAX);
	assert_int_equal(strlen(st->frames[3].symbol), UK_SYMBOL_LEN - 1);
	/* The same unterminated stack again is recognised as the same. */
	add(agg, &ev, 0, NULL);
	assert_ptr_equal(uk_agg_stack_find(agg, 9), st);

	site_msg(&ks, 2, 1, 0, 1);
	memset(ks.site_symbol, 'K', sizeof(ks.site_symbol));
	assert_int_equal(uk_agg_sync_site(agg, &ks, &s), UK_AGG_SYNC_NEW);
	assert_int_equal(strlen(s->symbol), UK_SYMBOL_LEN - 1);
	uk_agg_free(agg);
}

static void params_out_of_range_are_refused_with_a_reason(void **state)
{
	struct uk_agg_params p;
	struct uk_agg *agg = (void *)1;
	char why[128];

	params(&p);
	assert_int_equal(uk_agg_params_check(&p, why, sizeof(why)), 0);
	p.max_sites = 15;
	assert_int_equal(uk_agg_params_check(&p, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "max_sites 15 is not in 16..1000000");
	assert_int_equal(uk_agg_new(&p, &agg), -ERANGE);
	assert_null(agg);
	p.max_sites = 1000001;
	assert_int_equal(uk_agg_params_check(&p, NULL, 0), -ERANGE);
	p.max_sites = 1000000;
	assert_int_equal(uk_agg_params_check(&p, NULL, 0), 0);
	p.samples = 0;
	assert_int_equal(uk_agg_params_check(&p, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "samples 0 is not in 1..64");
	p.samples = 65;
	assert_int_equal(uk_agg_params_check(&p, NULL, 0), -ERANGE);
	p.samples = 64;
	p.max_stacks = UK_AGG_MAX_STACKS_MAX + 1;
	assert_int_equal(uk_agg_params_check(&p, why, sizeof(why)), -ERANGE);
	p.max_stacks = 0;
	p.site_interval_ns = SEC;
	p.site_burst = 0;
	assert_int_equal(uk_agg_params_check(&p, why, sizeof(why)), -ERANGE);
	assert_string_equal(why,
			    "site_burst must be at least 1 with a site interval");
	p.site_interval_ns = 0;
	p.global_rate = 10;
	p.global_burst = 0;
	assert_int_equal(uk_agg_params_check(&p, why, 8), -ERANGE);
	assert_string_equal(why, "global_");	/* cut to the buffer */
	assert_int_equal(uk_agg_params_check(NULL, NULL, 0), -ERANGE);
}

static void bad_params_on_reload_change_nothing(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_agg *agg;
	unsigned int i;

	params(&p);
	p.max_sites = 32;
	agg = agg_new(&p);
	for (i = 0; i < 20; i++) {
		event(&ev, i, i + 1, 1);
		add(agg, &ev, 0, NULL);
	}
	p.max_sites = 16;
	p.samples = 0;
	assert_int_equal(uk_agg_set_params(agg, &p), -ERANGE);
	assert_int_equal(stats(agg).sites, 20);
	assert_int_equal(stats(agg).max_sites, 32);
	assert_int_equal(find(agg, 0)->nr_samples, 1);
	uk_agg_free(agg);
}

/* ---- Scale ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

#define NKEYS	10000

/* What the kernel has for one site, and what the daemon last saw of it. */
struct model {
	uint64_t count, suppressed, reported, pending;
	uint64_t seen_count, seen_suppressed, seen_reported;
	uint64_t events;
	uint64_t last_seq[4];
	unsigned int nseq;
	bool exists;		/* an event or a sync created the site */
};

static void model_key(unsigned int i, uint64_t *ip, uint32_t *kind,
		      uint32_t *helper)
{
	/* Pairs of keys share an ip and differ by kind or helper. */
	*ip = IP(i / 2);
	*kind = i % 2 ? UACCESS_KADDR_KIND_PRECHECK : UACCESS_KADDR_KIND_FAULT;
	*helper = 1 + (i / 2) % 13;
}

/*
 * 100,000 random events (and 2,000 dump-sites replies) over 10,000 keys,
 * against a model of the kernel: per-site kernel totals must be exact,
 * nothing double counted, and the global counts must add up.
 */
static void random_events_keep_every_invariant(void **state)
{
	struct uk_agg_params p;
	struct uk_agg_sample smp[4];
	struct uk_agg_stats st;
	const struct uk_agg_site **v;
	struct uk_event ev;
	struct uk_site ks;
	struct model *m;
	struct uk_agg *agg;
	uint64_t seq = 0, sum_events = 0, sum_journal = 0, now = 0;
	unsigned int i, j, step;
	size_t n;
	bool fwd;

	m = calloc(NKEYS, sizeof(*m));
	assert_non_null(m);
	rng_state = 0x2545f4914f6cdd1dULL;
	params(&p);
	p.max_sites = NKEYS;
	p.max_stacks = 256;
	/* About 2,000 events per second, 10 per site over 50 s. */
	p.site_interval_ns = 10 * SEC;
	p.site_burst = 2;
	p.global_rate = 1000;
	p.global_burst = 10;
	agg = agg_new(&p);

	for (step = 0; step < 102000; step++) {
		struct model *k;
		uint64_t r = rnd();

		i = (unsigned int)(r % NKEYS);
		k = &m[i];
		/* Hits the ratelimit suppressed since the last event. */
		if (r >> 20 & 1) {
			uint64_t h = r >> 24 & 3;

			k->count += h;
			k->suppressed += h;
			k->pending += h;
		}
		now += r >> 32 & 0xfffff;
		if (step % 51 == 50) {
			memset(&ks, 0, sizeof(ks));
			ks.present = ALL_SITE_ATTRS;
			model_key(i, &ks.site_ip, &ks.kind, &ks.helper);
			ks.direction = UACCESS_KADDR_DIRECTION_TO_USER;
			ks.count = k->count;
			ks.suppressed = k->suppressed;
			ks.reported = k->reported;
			assert_in_range(uk_agg_sync_site(agg, &ks, NULL), 0,
					UK_AGG_SYNC_NEW);
			k->seen_count = k->count;
			k->seen_suppressed = k->suppressed;
			k->seen_reported = k->reported;
			k->exists = true;
			continue;
		}
		k->count++;
		k->reported++;
		event(&ev, 0, ++seq, k->count);
		model_key(i, &ev.site_ip, &ev.kind, &ev.helper);
		ev.direction = UACCESS_KADDR_DIRECTION_TO_USER;
		ev.suppressed = k->pending;
		ev.stack_hash = (uint32_t)(r >> 40 & 31);
		ev.pid = (uint32_t)(r >> 45 & 0xffff);
		ev.ts_boot = now;
		ev.ts_real = now + 1700000000 * SEC;
		if (ev.stack_hash)
			fill_frames(&ev, 1 + ev.stack_hash % 8, ev.stack_hash);
		k->pending = 0;
		assert_int_equal(uk_agg_add_event(agg, &ev, now, NULL, &fwd), 0);
		k->events++;
		k->exists = true;
		k->seen_count = k->count;
		k->seen_suppressed = k->suppressed;
		k->seen_reported = k->reported;
		k->last_seq[k->nseq++ % 4] = seq;
	}

	st = stats(agg);
	assert_int_equal(st.events, seq);
	assert_int_equal(st.forwarded + st.suppressed, st.events);
	assert_true(st.suppressed_global > 0);
	assert_true(st.suppressed > st.suppressed_global);
	assert_int_equal(st.evicted, 0);
	assert_true(st.stacks <= 256);
	assert_int_equal(uk_agg_sorted(agg, UK_SORT_COUNT, &v, &n), 0);
	assert_int_equal(n, st.sites);
	for (j = 0; j < n; j++) {
		const struct uk_agg_site *s = v[j];
		uint64_t stacks = s->stacks_other;

		sum_events += s->events;
		sum_journal += s->events - s->rl.suppressed_total;
		for (i = 0; i < s->nr_stacks; i++)
			stacks += s->stacks[i].events;
		assert_int_equal(stacks, s->events);
		if (j)
			assert_true(v[j - 1]->count >= s->count);
	}
	free(v);
	assert_int_equal(sum_events, st.events);
	assert_int_equal(sum_journal, st.forwarded);

	for (i = 0; i < NKEYS; i++) {
		const struct uk_agg_site *s;
		uint64_t ip;
		uint32_t kind, helper;
		unsigned int got, want;

		model_key(i, &ip, &kind, &helper);
		s = uk_agg_find(agg, ip, kind, helper,
				UACCESS_KADDR_DIRECTION_TO_USER);
		if (!m[i].exists) {
			assert_null(s);
			continue;
		}
		assert_non_null(s);
		if (s->events != m[i].events ||
		    s->count != m[i].seen_count ||
		    s->kernel_suppressed != m[i].seen_suppressed ||
		    s->kernel_reported != m[i].seen_reported)
			fail_msg("key %u: expected events %llu count %llu suppressed %llu reported %llu, got %llu %llu %llu %llu",
				 i, (unsigned long long)m[i].events,
				 (unsigned long long)m[i].seen_count,
				 (unsigned long long)m[i].seen_suppressed,
				 (unsigned long long)m[i].seen_reported,
				 (unsigned long long)s->events,
				 (unsigned long long)s->count,
				 (unsigned long long)s->kernel_suppressed,
				 (unsigned long long)s->kernel_reported);
		want = m[i].nseq < 4 ? m[i].nseq : 4;
		got = (unsigned int)uk_agg_site_samples(s, smp, 4);
		assert_int_equal(got, want);
		for (j = 0; j < want; j++)
			assert_int_equal(smp[j].seq,
					 m[i].last_seq[(m[i].nseq - want + j) % 4]);
	}
	uk_agg_free(agg);
	free(m);
}

/*
 * Bytes per site.  The goal: 10,000 sites with 4 samples and ~40-character
 * symbols must leave the whole daemon well under 8 MiB resident.  The
 * daemon without sites is about 3 MiB (libsystemd, libnl and libc pages,
 * most of it shared), the stack store at its default 1024 stacks about
 * 0.6 MiB; 400 bytes per site puts 10,000 sites at 3.8 MiB and the
 * total near 7.4 MiB.  The heap in use (mallinfo2) is measured, chunk
 * headers and the hash table included.
 */
#define SITE_BYTES_MAX	400

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static void ten_thousand_sites_fit_the_memory_budget(void **state)
{
	struct uk_agg_params p;
	struct uk_event ev;
	struct uk_agg *agg;
	size_t before, after, per_site;
	unsigned int i, k;
	void *probe;
	bool fwd;

	/* Under ASan, malloc() is not glibc's and mallinfo2() is blind. */
	before = heap_in_use();
	probe = malloc(1 << 20);
	assert_non_null(probe);
	after = heap_in_use();
	free(probe);
	if (after < before + (1 << 20)) {
		print_message("mallinfo2() does not see allocations here (sanitizer build): not measured\n");
		skip();
	}

	params(&p);
	p.max_sites = NKEYS;
	p.max_stacks = 0;	/* the stack store is measured apart */
	before = heap_in_use();
	agg = agg_new(&p);
	for (k = 0; k < 6; k++)
		for (i = 0; i < NKEYS; i++) {
			event(&ev, i, (uint64_t)k * NKEYS + i + 1, k + 1);
			/* "ext4_file_write_iter+0x1c2/0x4d0 [ext4]": 40 */
			snprintf(ev.site_symbol, sizeof(ev.site_symbol),
				 "ext4_file_write_it%04u+0x1c2/0x4d0 [ext4]",
				 i);
			ev.ts_boot = (uint64_t)k * 5 * SEC + i * 100000ULL;
			ev.ts_real = ev.ts_boot + 1700000000 * SEC + k * 17;
			ev.pid = 1000 + (i + k) % 3;
			ev.tgid = ev.pid;
			ev.cpu = (i * 7 + k) % 8;
			ev.stack_hash = 0x10000 + i;
			assert_int_equal(uk_agg_add_event(agg, &ev, 0, NULL,
							  &fwd), 0);
		}
	after = heap_in_use();
	per_site = (after - before) / NKEYS;
	print_message("%zu bytes per site (10,000 sites, 4 samples, 40-character symbols)\n",
		      per_site);
	assert_int_equal(stats(agg).sites, NKEYS);
	assert_int_equal(find(agg, 9999)->nr_samples, 4);
	if (per_site > SITE_BYTES_MAX)
		fail_msg("expected at most %d bytes per site, got %zu",
			 SITE_BYTES_MAX, per_site);
	uk_agg_free(agg);
	/*
	 * And it is all given back (3.7 MB), but for the few freed chunks
	 * per size that glibc keeps in its thread cache, which mallinfo2()
	 * counts as in use.
	 */
	after = heap_in_use();
	if (after > before + 64 * 1024)
		fail_msg("heap in use before %zu, after uk_agg_free() %zu",
			 before, after);
}

int main(void)
{
	const struct CMUnitTest aggregate[] = {
		cmocka_unit_test(same_key_merges_into_one_site),
		cmocka_unit_test(kind_helper_or_direction_make_another_site),
		cmocka_unit_test(count_is_the_max_of_events_and_syncs),
		cmocka_unit_test(event_after_sync_adds_only_what_the_sync_did_not_see),
		cmocka_unit_test(event_with_the_count_of_the_last_sync_is_in_it),
		cmocka_unit_test(event_without_a_count_leaves_kernel_totals),
		cmocka_unit_test(sync_never_lowers_suppressed_or_reported),
		cmocka_unit_test(lower_count_in_a_sync_is_a_kernel_reset),
		cmocka_unit_test(sync_creates_a_site_with_the_kernel_view),
		cmocka_unit_test(sync_without_events_leaves_real_times_unknown),
		cmocka_unit_test(new_symbol_for_a_known_site_replaces_it),
		cmocka_unit_test(samples_keep_the_newest_n_in_arrival_order),
		cmocka_unit_test(samples_keep_every_field_exactly),
		cmocka_unit_test(samples_limit_of_one_and_of_sixty_four),
		cmocka_unit_test(fewer_samples_on_reload_keeps_the_newest),
		cmocka_unit_test(site_counts_eight_stacks_then_other),
		cmocka_unit_test(stack_store_keeps_the_latest_frames_of_a_hash),
		cmocka_unit_test(stack_store_evicts_least_recently_seen_and_counts),
		cmocka_unit_test(stack_symbols_are_stored_once_across_stacks),
		cmocka_unit_test(zero_max_stacks_keeps_no_stacks),
		cmocka_unit_test(full_table_evicts_the_least_recently_seen_site),
		cmocka_unit_test(evicting_a_site_counts_its_unsummarized_suppressed),
		cmocka_unit_test(smaller_max_sites_on_reload_evicts_the_oldest),
		cmocka_unit_test(site_limit_decides_what_goes_to_the_journal),
		cmocka_unit_test(global_limit_refusals_count_on_the_site),
		cmocka_unit_test(reload_keeps_site_limiter_counters),
		cmocka_unit_test(summaries_read_and_zero_the_pending_counts),
		cmocka_unit_test(failed_summary_leaves_the_counts_pending),
		cmocka_unit_test(sorted_by_count_last_and_name_with_ties_broken),
		cmocka_unit_test(for_each_visits_every_site_most_recent_first),
		cmocka_unit_test(sort_names_parse_and_bad_ones_are_refused),
		cmocka_unit_test(find_id_returns_the_most_recent_site_of_a_slot),
		cmocka_unit_test(reset_forgets_everything_but_the_parameters),
		cmocka_unit_test(events_without_a_complete_key_are_refused),
		cmocka_unit_test(unknown_direction_is_a_site_of_its_own),
		cmocka_unit_test(out_of_range_values_are_refused),
		cmocka_unit_test(null_arguments_are_refused),
		cmocka_unit_test(unterminated_strings_are_cut_not_overrun),
		cmocka_unit_test(params_out_of_range_are_refused_with_a_reason),
		cmocka_unit_test(bad_params_on_reload_change_nothing),
		cmocka_unit_test(random_events_keep_every_invariant),
		cmocka_unit_test(ten_thousand_sites_fit_the_memory_budget),
	};

	return cmocka_run_group_tests(aggregate, NULL, NULL);
}
