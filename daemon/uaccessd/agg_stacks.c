// SPDX-License-Identifier: GPL-2.0
/*
 * The stack store of the site table: symbolized stacks by stack hash in
 * LRU order, their frame symbols interned and shared.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_internal.h"

/* ---- Interned symbols ---- */

/* FNV-1a, folded to the 32 bits a uk_str keeps. */
static uint32_t str_hash32(const char *s, size_t len)
{
	uint64_t h = uk_hash_fnv1a(UK_FNV1A_INIT, s, len);

	return (uint32_t)(h ^ h >> 32);
}

static uint64_t str_hash(const void *entry, const void *ctx)
{
	return uk_hash_mix64(((const struct uk_str *)entry)->hash);
}

struct str_key {
	const char *s;
	size_t len;
	uint32_t hash;
};

static bool str_eq(const void *entry, const void *key)
{
	const struct uk_str *e = entry;
	const struct str_key *k = key;

	return e->hash == k->hash && strncmp(e->s, k->s, k->len) == 0 &&
	       e->s[k->len] == '\0';
}


static const char *str_get(struct uk_agg *agg, const char *s, size_t len)
{
	struct str_key k = { .s = s, .len = len, .hash = str_hash32(s, len) };
	struct uk_str *e = uk_htab_find(&agg->strs, uk_hash_mix64(k.hash),
					str_eq, &k);

	if (e) {
		e->refs++;
		return e->s;
	}
	if (uk_htab_reserve(&agg->strs, agg->strs.n + 1, str_hash, NULL) < 0)
		return NULL;
	e = malloc(offsetof(struct uk_str, s) + len + 1);
	if (!e)
		return NULL;
	e->refs = 1;
	e->hash = k.hash;
	memcpy(e->s, s, len);
	e->s[len] = '\0';
	uk_htab_insert(&agg->strs, uk_hash_mix64(k.hash), e);
	return e->s;
}

static void str_put(struct uk_agg *agg, const char *s)
{
	struct uk_str *e = container_of(s, struct uk_str, s);

	if (--e->refs)
		return;
	uk_htab_remove(&agg->strs, e, str_hash, NULL);
	free(e);
}


uint64_t agg_stack_hash(const void *entry, const void *ctx)
{
	return uk_hash_mix64(((const struct uk_agg_stack *)entry)->hash);
}

bool agg_stack_eq(const void *entry, const void *key)
{
	return ((const struct uk_agg_stack *)entry)->hash ==
	       *(const uint32_t *)key;
}


/* ---- Stack store ---- */

static void stack_free(struct uk_agg *agg, struct uk_agg_stack *st)
{
	uint32_t i;

	for (i = 0; i < st->nr_frames; i++)
		str_put(agg, st->frames[i].symbol);
	free(st);
}

void agg_stack_evict_to(struct uk_agg *agg, size_t max)
{
	while (agg->stacks.n > max) {
		struct uk_agg_stack *st = container_of(agg->stack_lru.prev,
						       struct uk_agg_stack,
						       private_lru);

		agg_link_del(&st->private_lru);
		uk_htab_remove(&agg->stacks, st, agg_stack_hash, NULL);
		stack_free(agg, st);
		agg->st.stacks_evicted++;
	}
}

static bool stack_same_frames(const struct uk_agg_stack *st,
			      const struct uk_event *ev)
{
	uint32_t i;

	if (st->nr_frames != ev->nr_frames)
		return false;
	for (i = 0; i < st->nr_frames; i++) {
		const char *sym = ev->frames[i].symbol;
		size_t len = agg_bounded_len(sym, sizeof(ev->frames[i].symbol));

		if (st->frames[i].ip != ev->frames[i].ip ||
		    strncmp(st->frames[i].symbol, sym, len) ||
		    st->frames[i].symbol[len])
			return false;
	}
	return true;
}

int agg_stack_prepare(struct uk_agg *agg, const struct uk_event *ev,
			 struct stack_plan *plan)
{
	uint32_t hash = ev->stack_hash, i;
	struct uk_agg_stack *st;

	memset(plan, 0, sizeof(*plan));
	if (!agg->p.max_stacks || !hash)
		return 0;
	plan->old = uk_htab_find(&agg->stacks, uk_hash_mix64(hash), agg_stack_eq,
				 &hash);
	plan->touch = plan->old || ev->nr_frames;
	if (!ev->nr_frames || (plan->old && stack_same_frames(plan->old, ev)))
		return 0;
	if (!plan->old &&
	    uk_htab_reserve(&agg->stacks, agg->stacks.n + 1, agg_stack_hash,
			    NULL) < 0)
		return -ENOMEM;
	st = calloc(1, sizeof(*st) + ev->nr_frames * sizeof(st->frames[0]));
	if (!st)
		return -ENOMEM;
	st->hash = hash;
	for (i = 0; i < ev->nr_frames; i++) {
		const char *sym = ev->frames[i].symbol;

		st->frames[i].ip = ev->frames[i].ip;
		st->frames[i].symbol = str_get(agg, sym,
			agg_bounded_len(sym, sizeof(ev->frames[i].symbol)));
		if (!st->frames[i].symbol) {
			stack_free(agg, st);
			return -ENOMEM;
		}
		st->nr_frames = i + 1;
	}
	plan->new = st;
	return 0;
}

void agg_stack_abort(struct uk_agg *agg, struct stack_plan *plan)
{
	if (plan->new)
		stack_free(agg, plan->new);
	plan->new = NULL;
}

void agg_stack_commit(struct uk_agg *agg, struct stack_plan *plan,
			 uint64_t ts_boot)
{
	struct uk_agg_stack *st = plan->old;

	if (!plan->touch)
		return;
	if (plan->new && st) {
		*uk_htab_slot_of(&agg->stacks, st, agg_stack_hash, NULL) = plan->new;
		plan->new->events = st->events;
		agg_link_del(&st->private_lru);
		stack_free(agg, st);
		st = plan->new;
		agg_link_add_front(&agg->stack_lru, &st->private_lru);
	} else if (plan->new) {
		st = plan->new;
		uk_htab_insert(&agg->stacks, agg_stack_hash(st, NULL), st);
		agg_link_add_front(&agg->stack_lru, &st->private_lru);
	} else {
		agg_link_move_front(&agg->stack_lru, &st->private_lru);
	}
	plan->new = NULL;
	st->events++;
	st->last_boot = ts_boot;
	/* The new entry is at the front: never the one evicted. */
	agg_stack_evict_to(agg, agg->p.max_stacks);
}


const struct uk_agg_stack *uk_agg_stack_find(const struct uk_agg *agg,
					     uint32_t hash)
{
	if (!agg)
		return NULL;
	return uk_htab_find(&agg->stacks, uk_hash_mix64(hash), agg_stack_eq, &hash);
}
