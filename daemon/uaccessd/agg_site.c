// SPDX-License-Identifier: GPL-2.0
/* A site of the table: its key and hash, its memory, its stack counts. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_internal.h"

/* ---- Site keys ---- */

uint64_t agg_site_hash(const void *entry, const void *ctx)
{
	const struct uk_agg_site *s = entry;
	struct site_key k = {
		.ip = s->site_ip, .kind = s->kind, .helper = s->helper,
		.direction = s->direction,
	};

	return agg_key_hash(&k);
}

/* ---- Site memory ----
 *
 * One allocation per site: the struct, the symbol, then (8-aligned) the
 * stacks[] array of private_stacks_cap entries, then private_scap bytes
 * of encoded samples.  Three allocations would cost two malloc headers,
 * their rounding and two pointers: about 50 bytes of a ~370-byte site.
 * A site that outgrows its allocation moves (agg_site_relayout()), and its
 * table slot and list neighbours follow.
 */

static size_t site_stacks_off(size_t symlen)
{
	return (offsetof(struct uk_agg_site, symbol) + symlen + 1 + 7) &
	       ~(size_t)7;
}

static size_t site_size(size_t symlen, unsigned int stacks_cap, size_t scap)
{
	return site_stacks_off(symlen) +
	       stacks_cap * sizeof(struct uk_agg_stack_count) + scap;
}

static void site_set_stacks_ptr(struct uk_agg_site *s, size_t symlen)
{
	s->stacks = (struct uk_agg_stack_count *)((char *)s +
						  site_stacks_off(symlen));
}

uint8_t *agg_site_samples(const struct uk_agg_site *s)
{
	return (uint8_t *)(s->stacks + s->private_stacks_cap);
}

struct uk_agg_site *agg_site_alloc(const struct uk_agg *agg,
				      const struct site_key *k,
				      const char *sym, size_t len,
				      unsigned int stacks_cap, size_t scap)
{
	struct uk_agg_site *s;

	s = calloc(1, site_size(len, stacks_cap, scap));
	if (!s)
		return NULL;
	s->site_ip = k->ip;
	s->kind = k->kind;
	s->helper = k->helper;
	s->direction = k->direction;
	memcpy(s->symbol, sym, len);
	s->symbol[len] = '\0';
	s->private_stacks_cap = (uint8_t)stacks_cap;
	s->private_scap = (uint16_t)scap;
	site_set_stacks_ptr(s, len);
	uk_ratelimit_init(&s->rl, agg->p.site_interval_ns, agg->p.site_burst);
	return s;
}

/*
 * Gives a site in the table a new symbol (@sym NULL: keep it), stacks[]
 * capacity or samples capacity (>= what is used).  -ENOMEM leaves it
 * as it was.
 */
int agg_site_relayout(struct uk_agg *agg, struct uk_agg_site **sp,
			 const char *sym, size_t symlen,
			 unsigned int stacks_cap, size_t scap)
{
	struct uk_agg_site *s = *sp, *n;
	size_t oldlen = strlen(s->symbol);
	void **slot = uk_htab_slot_of(&agg->sites, s, agg_site_hash, NULL);

	if (!sym)
		symlen = oldlen;
	if (symlen == oldlen && stacks_cap == s->private_stacks_cap) {
		/* Only the samples' room changes: realloc() may do it in
		 * place, and the offsets stay. */
		n = realloc(s, site_size(symlen, stacks_cap, scap));
		if (!n)
			return -ENOMEM;
		if (sym)
			memcpy(n->symbol, sym, symlen);
	} else {
		n = malloc(site_size(symlen, stacks_cap, scap));
		if (!n)
			return -ENOMEM;
		memcpy(n, s, offsetof(struct uk_agg_site, symbol));
		memcpy(n->symbol, sym ? sym : s->symbol, symlen);
		n->symbol[symlen] = '\0';
		n->private_stacks_cap = (uint8_t)stacks_cap;
		site_set_stacks_ptr(n, symlen);
		memcpy(n->stacks, s->stacks, s->nr_stacks * sizeof(*s->stacks));
		memcpy(agg_site_samples(n), agg_site_samples(s), s->private_slen);
		free(s);
	}
	site_set_stacks_ptr(n, symlen);
	n->private_scap = (uint16_t)scap;
	*slot = n;
	agg_link_moved(&n->private_lru);
	*sp = n;
	return 0;
}

/* ---- Per-site stack hashes ---- */

