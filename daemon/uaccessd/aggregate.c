// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's site table and stack store; see aggregate.h.  This file
 * has the sites, their order, summaries and the life cycle; the rest is
 * in agg_site.c, agg_samples.c and agg_stacks.c (agg_internal.h).
 *
 * Three open-addressing hash tables (linear probing, backward-shift
 * deletion, no tombstones) hold pointers: sites by key, stacks by stack
 * hash, interned frame symbols by content.  Two intrusive lists keep the
 * LRU order of sites and stacks, so eviction is O(1).
 *
 * Memory per site is what the 10,000-site goal is about: a site is one
 * allocation holding the struct, its symbol (exact size), its stack-hash
 * counts and its samples, delta-encoded (see "Samples" below), which
 * takes four samples from 4 x 88 bytes to about 100.  A site costs about
 * 370 bytes with four samples and a 35-character symbol (measured by
 * tests/bench/agg_bench.c).
 *
 * Updates are done in two steps: everything that can fail (allocations)
 * first, then a commit that cannot fail, so an -ENOMEM leaves the table
 * exactly as it was and the caller can count the event as lost.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_internal.h"

/* ---- Sites ---- */

static void site_unlink(struct uk_agg *agg, struct uk_agg_site *s)
{
	agg_link_del(&s->private_lru);
	uk_htab_remove(&agg->sites, s, agg_site_hash, NULL);
}

static void site_evict_to(struct uk_agg *agg, size_t max)
{
	while (agg->sites.n > max) {
		struct uk_agg_site *s = container_of(agg->site_lru.prev,
						     struct uk_agg_site,
						     private_lru);

		agg->st.evicted++;
		agg->st.evicted_pending += s->rl.suppressed_pending;
		site_unlink(agg, s);
		free(s);
	}
}

/* Insert a new site as the most recent; room was reserved. */
static void site_insert(struct uk_agg *agg, struct uk_agg_site *s)
{
	uk_htab_insert(&agg->sites, agg_site_hash(s, NULL), s);
	agg_link_add_front(&agg->site_lru, &s->private_lru);
	/* The new site is at the front: never the one evicted. */
	site_evict_to(agg, agg->p.max_sites);
}

/*
 * The kernel's site key.  Direction 0 is its "unknown direction" (a #GP
 * whose instruction did not decode), a site of its own; kind and helper
 * are never 0 (the kernel has HELPER_UNKNOWN).
 */
static int key_from(uint64_t present, int a_ip, int a_kind, int a_helper,
		    int a_dir, uint64_t ip, uint32_t kind, uint32_t helper,
		    uint32_t dir, struct site_key *k)
{
	uint64_t need = UK_BIT(a_ip) | UK_BIT(a_kind) |
			UK_BIT(a_helper) | UK_BIT(a_dir);

	if ((present & need) != need || !ip || !kind || !helper)
		return -EINVAL;
	if (kind > UINT8_MAX || helper > UINT8_MAX || dir > UINT8_MAX)
		return -ERANGE;
	k->ip = ip;
	k->kind = (uint8_t)kind;
	k->helper = (uint8_t)helper;
	k->direction = (uint8_t)dir;
	return 0;
}

static struct uk_agg_site *site_lookup(const struct uk_agg *agg,
				       const struct site_key *k)
{
	return uk_htab_find(&agg->sites, agg_key_hash(k), agg_site_eq, k);
}

/* Folds the event's numbers into its site. */
static void site_account(struct uk_agg *agg, struct uk_agg_site *s,
			 const struct uk_event *ev)
{
	uint64_t count = ev->present & UK_BIT(UACCESS_KADDR_A_EVENT_COUNT) ?
			 ev->count : 0;
	uint64_t sync = s->private_sync_count;

	s->events++;
	if (ev->present & UK_BIT(UACCESS_KADDR_A_EVENT_SITE_ID))
		s->site_id = ev->site_id;
	/*
	 * The count is a clock of the site: an event with a count at or
	 * below that of the last dump-sites was already in its totals.
	 * The event's suppressed hits are those just before it (counts
	 * count - suppressed .. count - 1); only the ones after the dump
	 * are new.  Exact when hits do not race, a lower bound otherwise.
	 */
	if (count > sync) {
		uint64_t after = count - 1 - sync;

		s->kernel_reported++;
		s->kernel_suppressed += ev->suppressed < after ?
					ev->suppressed : after;
	}
	if (count > s->count)
		s->count = count;
	if (!s->first_boot || ev->ts_boot < s->first_boot) {
		s->first_boot = ev->ts_boot;
		s->first_real = ev->ts_real;
	}
	if (ev->ts_boot >= s->last_boot) {
		s->last_boot = ev->ts_boot;
		s->last_real = ev->ts_real;
		s->last_address = ev->address;
	}
	if (ev->present & UK_BIT(UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL) &&
	    ev->present & UK_BIT(UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT)) {
		agg->real_offset = ev->ts_real - ev->ts_boot;
		agg->have_offset = true;
	}
}

int uk_agg_add_event(struct uk_agg *agg, const struct uk_event *ev,
		     uint64_t now_ns, const struct uk_agg_site **site_out,
		     bool *forward)
{
	const char *sym = "";
	struct sample_plan samples;
	struct stack_plan stack;
	struct uk_agg_site *s;
	struct site_key k;
	size_t symlen = 0;
	bool created = false, fwd;
	struct rec r;
	int ret;

	if (site_out)
		*site_out = NULL;
	if (forward)
		*forward = false;
	if (!agg || !ev || !forward)
		return -EINVAL;
	ret = key_from(ev->present, UACCESS_KADDR_A_EVENT_SITE_IP,
		       UACCESS_KADDR_A_EVENT_KIND, UACCESS_KADDR_A_EVENT_HELPER,
		       UACCESS_KADDR_A_EVENT_DIRECTION, ev->site_ip, ev->kind,
		       ev->helper, ev->direction, &k);
	if (ret < 0)
		return ret;
	if (ev->nr_frames > UK_STACK_MAX)
		return -EINVAL;
	if (ev->present & UK_BIT(UACCESS_KADDR_A_EVENT_SITE_SYMBOL)) {
		sym = ev->site_symbol;
		symlen = agg_bounded_len(sym, sizeof(ev->site_symbol));
	}
	agg_rec_from_event(&r, ev);

	/* Everything that can fail. */
	ret = agg_stack_prepare(agg, ev, &stack);
	if (ret < 0)
		return ret;
	s = site_lookup(agg, &k);
	ret = agg_sample_prepare(s, &r, agg->p.samples, &samples);
	if (ret < 0)
		goto err;
	if (!s) {
		ret = -ENOMEM;
		s = agg_site_alloc(agg, &k, sym, symlen, 1, samples.len);
		if (!s)
			goto err;
		created = true;
		if (uk_htab_reserve(&agg->sites, agg->sites.n + 1, agg_site_hash,
				    NULL) < 0)
			goto err;
	} else {
		unsigned int cap = agg_site_stacks_need(s, ev->stack_hash);
		size_t scap = s->private_scap;
		bool newsym = symlen && !agg_site_symbol_is(s, sym, symlen);

		/* Exact: malloc() rounds up and realloc() within that
		 * rounding does not move. */
		if (samples.len > scap)
			scap = samples.len;
		if (newsym || cap != s->private_stacks_cap ||
		    scap != s->private_scap) {
			/* Moves the site, changes nothing else. */
			ret = agg_site_relayout(agg, &s, newsym ? sym : NULL,
					    symlen, cap, scap);
			if (ret < 0)
				goto err;
		}
	}

	/* The commit. */
	if (created)
		site_insert(agg, s);
	else
		agg_link_move_front(&agg->site_lru, &s->private_lru);
	agg_stack_commit(agg, &stack, ev->ts_boot);
	agg_sample_commit(s, &samples);
	agg_site_stacks_commit(s, ev->stack_hash);
	site_account(agg, s, ev);

	agg->st.events++;
	fwd = uk_ratelimit_allow(&s->rl, now_ns);
	if (fwd && !uk_ratelimit_allow(&agg->global, now_ns)) {
		uk_ratelimit_suppress(&s->rl);
		agg->st.suppressed_global++;
		fwd = false;
	}
	if (fwd)
		agg->st.forwarded++;
	else
		agg->st.suppressed++;
	*forward = fwd;
	if (site_out)
		*site_out = s;
	return 0;

err:
	if (created)
		free(s);
	agg_stack_abort(agg, &stack);
	return ret;
}

static uint64_t real_estimate(const struct uk_agg *agg, uint64_t boot)
{
	return agg->have_offset && boot ? boot + agg->real_offset : 0;
}

int uk_agg_sync_site(struct uk_agg *agg, const struct uk_site *ks,
		     const struct uk_agg_site **site_out)
{
	const char *sym = "";
	struct uk_agg_site *s;
	struct site_key k;
	size_t symlen = 0;
	int ret, flags = 0;

	if (site_out)
		*site_out = NULL;
	if (!agg || !ks)
		return -EINVAL;
	ret = key_from(ks->present, UACCESS_KADDR_A_SITE_SITE_IP,
		       UACCESS_KADDR_A_SITE_KIND, UACCESS_KADDR_A_SITE_HELPER,
		       UACCESS_KADDR_A_SITE_DIRECTION, ks->site_ip, ks->kind,
		       ks->helper, ks->direction, &k);
	if (ret < 0)
		return ret;
	if (ks->present & UK_BIT(UACCESS_KADDR_A_SITE_SITE_SYMBOL)) {
		sym = ks->site_symbol;
		symlen = agg_bounded_len(sym, sizeof(ks->site_symbol));
	}

	s = site_lookup(agg, &k);
	if (!s) {
		s = agg_site_alloc(agg, &k, sym, symlen, 0, 0);
		if (!s)
			return -ENOMEM;
		if (uk_htab_reserve(&agg->sites, agg->sites.n + 1,
				    agg_site_hash, NULL) < 0) {
			free(s);
			return -ENOMEM;
		}
		site_insert(agg, s);
		flags |= UK_AGG_SYNC_NEW;
	} else if (symlen && !agg_site_symbol_is(s, sym, symlen)) {
		ret = agg_site_relayout(agg, &s, sym, symlen,
				    s->private_stacks_cap, s->private_scap);
		if (ret < 0)
			return ret;
	}

	agg->st.syncs++;
	if (ks->present & UK_BIT(UACCESS_KADDR_A_SITE_SITE_ID))
		s->site_id = ks->site_id;
	if (ks->count < s->count) {
		/* Counts only go down when the kernel was reset. */
		s->count = ks->count;
		s->kernel_suppressed = ks->suppressed;
		s->kernel_reported = ks->reported;
		s->kernel_resets++;
		agg->st.kernel_resets++;
		flags |= UK_AGG_SYNC_RESET;
	} else {
		if (!(flags & UK_AGG_SYNC_NEW) && ks->count > s->count)
			agg_link_move_front(&agg->site_lru, &s->private_lru);
		s->count = ks->count;
		if (ks->suppressed > s->kernel_suppressed)
			s->kernel_suppressed = ks->suppressed;
		if (ks->reported > s->kernel_reported)
			s->kernel_reported = ks->reported;
	}
	s->private_sync_count = ks->count;
	if (flags & UK_AGG_SYNC_RESET)
		agg_link_move_front(&agg->site_lru, &s->private_lru);

	/* The kernel's times are boot times: real ones are estimated. */
	if (ks->first_ts_boot &&
	    (!s->first_boot || ks->first_ts_boot < s->first_boot)) {
		s->first_boot = ks->first_ts_boot;
		s->first_real = real_estimate(agg, ks->first_ts_boot);
	}
	if (ks->last_ts_boot > s->last_boot) {
		s->last_boot = ks->last_ts_boot;
		s->last_real = real_estimate(agg, ks->last_ts_boot);
		if (ks->present & UK_BIT(UACCESS_KADDR_A_SITE_LAST_ADDRESS))
			s->last_address = ks->last_address;
	}
	if (site_out)
		*site_out = s;
	return flags;
}

const struct uk_agg_site *uk_agg_find(const struct uk_agg *agg,
				      uint64_t site_ip, uint32_t kind,
				      uint32_t helper, uint32_t direction)
{
	struct site_key k = {
		.ip = site_ip, .kind = (uint8_t)kind,
		.helper = (uint8_t)helper, .direction = (uint8_t)direction,
	};

	if (!agg || kind > UINT8_MAX || helper > UINT8_MAX ||
	    direction > UINT8_MAX)
		return NULL;
	return site_lookup(agg, &k);
}

const struct uk_agg_site *uk_agg_find_id(const struct uk_agg *agg,
					 uint32_t site_id)
{
	const struct uk_agg_link *l;

	if (!agg)
		return NULL;
	for (l = agg->site_lru.next; l != &agg->site_lru; l = l->next) {
		const struct uk_agg_site *s;

		s = container_of(l, struct uk_agg_site, private_lru);
		if (s->site_id == site_id)
			return s;
	}
	return NULL;
}


/* ---- Sorting ---- */

static int site_cmp(const void *pa, const void *pb, void *sort)
{
	const struct uk_agg_site *const *v[2] = { pa, pb };
	struct uk_sort_site k[2];
	int i;

	for (i = 0; i < 2; i++) {
		const struct uk_agg_site *s = *v[i];

		k[i] = (struct uk_sort_site){
			.count = s->count, .last = s->last_boot,
			.name = s->symbol, .ip = s->site_ip, .kind = s->kind,
			.helper = s->helper, .direction = s->direction,
		};
	}
	return uk_sort_site_cmp(*(const enum uk_sort *)sort, &k[0], &k[1]);
}

int uk_agg_sorted(const struct uk_agg *agg, enum uk_sort sort,
		  const struct uk_agg_site ***out, size_t *n)
{
	const struct uk_agg_site **v;
	const struct uk_agg_link *l;
	size_t i = 0;

	if (!agg || !out || !n || (unsigned int)sort >= UK_SORT_NR)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	if (!agg->sites.n)
		return 0;
	v = malloc(agg->sites.n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (l = agg->site_lru.next; l != &agg->site_lru; l = l->next)
		v[i++] = container_of(l, struct uk_agg_site, private_lru);
	qsort_r(v, i, sizeof(*v), site_cmp, &sort);
	*out = v;
	*n = i;
	return 0;
}

void uk_agg_for_each(const struct uk_agg *agg,
		     void (*fn)(const struct uk_agg_site *site, void *data),
		     void *data)
{
	const struct uk_agg_link *l;

	for (l = agg->site_lru.next; l != &agg->site_lru; l = l->next)
		fn(container_of(l, struct uk_agg_site, private_lru), data);
}

/* ---- Summaries, stats ---- */

int uk_agg_take_summaries(struct uk_agg *agg, uk_agg_summary_fn fn,
			  void *userdata)
{
	struct uk_agg_link *l;
	int calls = 0, ret;

	if (!agg || !fn)
		return -EINVAL;
	for (l = agg->site_lru.next; l != &agg->site_lru; l = l->next) {
		struct uk_agg_site *s = container_of(l, struct uk_agg_site,
						     private_lru);

		if (!s->rl.suppressed_pending)
			continue;
		ret = fn(s, s->rl.suppressed_pending, userdata);
		if (ret < 0)
			return ret;
		uk_ratelimit_take_pending(&s->rl);
		if (calls < INT_MAX)
			calls++;
	}
	return calls;
}

void uk_agg_get_stats(const struct uk_agg *agg, struct uk_agg_stats *st)
{
	if (!agg) {
		memset(st, 0, sizeof(*st));
		return;
	}
	*st = agg->st;
	st->sites = agg->sites.n;
	st->max_sites = agg->p.max_sites;
	st->stacks = agg->stacks.n;
	st->max_stacks = agg->p.max_stacks;
	st->symbols = agg->strs.n;
}

/* ---- Life cycle ---- */

void uk_agg_params_init(struct uk_agg_params *p)
{
	memset(p, 0, sizeof(*p));
	p->max_sites = 10000;
	p->samples = 4;
	p->max_stacks = 1024;
	p->site_interval_ns = 60 * UK_NSEC_PER_SEC;
	p->site_burst = 5;
	p->global_rate = 100;
	p->global_burst = 500;
}

static int __attribute__((format(printf, 3, 4)))
why_range(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -ERANGE;
}

int uk_agg_params_check(const struct uk_agg_params *p, char *why,
			size_t whylen)
{
	if (!p)
		return why_range(why, whylen, "no parameters");
	if (p->max_sites < UK_AGG_MAX_SITES_MIN ||
	    p->max_sites > UK_AGG_MAX_SITES_MAX)
		return why_range(why, whylen,
				 "max_sites %u is not in %u..%u", p->max_sites,
				 UK_AGG_MAX_SITES_MIN, UK_AGG_MAX_SITES_MAX);
	if (p->samples < UK_AGG_SAMPLES_MIN || p->samples > UK_AGG_SAMPLES_MAX)
		return why_range(why, whylen, "samples %u is not in %u..%u",
				 p->samples, UK_AGG_SAMPLES_MIN,
				 UK_AGG_SAMPLES_MAX);
	if (p->max_stacks > UK_AGG_MAX_STACKS_MAX)
		return why_range(why, whylen, "max_stacks %u is over %u",
				 p->max_stacks, UK_AGG_MAX_STACKS_MAX);
	if (p->site_interval_ns && !p->site_burst)
		return why_range(why, whylen,
				 "site_burst must be at least 1 with a site interval");
	if (p->global_rate && !p->global_burst)
		return why_range(why, whylen,
				 "global_burst must be at least 1 with a global rate");
	return 0;
}

int uk_agg_new(const struct uk_agg_params *p, struct uk_agg **ret)
{
	struct uk_agg *agg;
	int r;

	if (!ret)
		return -EINVAL;
	*ret = NULL;
	r = uk_agg_params_check(p, NULL, 0);
	if (r < 0)
		return r;
	agg = calloc(1, sizeof(*agg));
	if (!agg)
		return -ENOMEM;
	agg->p = *p;
	agg_link_init(&agg->site_lru);
	agg_link_init(&agg->stack_lru);
	uk_ratelimit_init(&agg->global, 0, 0);
	/* Checked above: cannot fail. */
	uk_ratelimit_set_rate(&agg->global, p->global_rate, p->global_burst);
	*ret = agg;
	return 0;
}

int uk_agg_set_params(struct uk_agg *agg, const struct uk_agg_params *p)
{
	struct uk_agg_link *l;
	int r;

	if (!agg)
		return -EINVAL;
	r = uk_agg_params_check(p, NULL, 0);
	if (r < 0)
		return r;
	for (l = agg->site_lru.next; l != &agg->site_lru; l = l->next) {
		struct uk_agg_site *s = container_of(l, struct uk_agg_site,
						     private_lru);

		uk_ratelimit_set(&s->rl, p->site_interval_ns, p->site_burst);
		agg_samples_truncate(agg, &s, p->samples);
		l = &s->private_lru;	/* the site may have moved */
	}
	uk_ratelimit_set_rate(&agg->global, p->global_rate, p->global_burst);
	agg->p = *p;
	site_evict_to(agg, p->max_sites);
	agg_stack_evict_to(agg, p->max_stacks);
	return 0;
}

void uk_agg_reset(struct uk_agg *agg)
{
	struct uk_agg_link *l, *next;
	size_t i;

	if (!agg)
		return;
	for (l = agg->site_lru.next; l != &agg->site_lru; l = next) {
		next = l->next;
		free(container_of(l, struct uk_agg_site, private_lru));
	}
	for (l = agg->stack_lru.next; l != &agg->stack_lru; l = next) {
		next = l->next;
		/* Symbols are all freed below: no str_put() one by one. */
		free(container_of(l, struct uk_agg_stack, private_lru));
	}
	for (i = 0; agg->strs.slot && i <= agg->strs.mask; i++)
		free(agg->strs.slot[i]);
	uk_htab_clear(&agg->sites);
	uk_htab_clear(&agg->stacks);
	uk_htab_clear(&agg->strs);
	agg_link_init(&agg->site_lru);
	agg_link_init(&agg->stack_lru);
	memset(&agg->st, 0, sizeof(agg->st));
	uk_ratelimit_init(&agg->global, 0, 0);
	uk_ratelimit_set_rate(&agg->global, agg->p.global_rate,
			      agg->p.global_burst);
	agg->real_offset = 0;
	agg->have_offset = false;
}

void uk_agg_free(struct uk_agg *agg)
{
	if (!agg)
		return;
	uk_agg_reset(agg);
	free(agg);
}

