// SPDX-License-Identifier: GPL-2.0
/* The hash table of pointers, see hashtab.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

int uk_htab_reserve(struct uk_htab *t, size_t n, uk_htab_hash_fn hash,
		    const void *ctx)
{
	size_t cap = t->slot ? t->mask + 1 : 0, ncap, i;
	void **slot;

	if (n * 4 <= cap * 3)
		return 0;
	for (ncap = cap ? cap * 2 : 16; n * 4 > ncap * 3; ncap *= 2)
		;
	slot = calloc(ncap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < cap; i++) {
		size_t j;

		if (!t->slot[i])
			continue;
		for (j = hash(t->slot[i], ctx) & (ncap - 1); slot[j];
		     j = (j + 1) & (ncap - 1))
			;
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->mask = ncap - 1;
	return 0;
}

void uk_htab_remove(struct uk_htab *t, const void *entry,
		    uk_htab_hash_fn hash, const void *ctx)
{
	size_t i = uk_htab_slot_of(t, entry, hash, ctx) - t->slot, j = i;

	/*
	 * Move back each later entry of the cluster whose home slot is not
	 * cyclically in (i, j]: it would not be found past the hole.
	 */
	for (;;) {
		size_t home;

		j = (j + 1) & t->mask;
		if (!t->slot[j])
			break;
		home = hash(t->slot[j], ctx) & t->mask;
		if (i <= j ? home <= i || home > j :
			     home <= i && home > j) {
			t->slot[i] = t->slot[j];
			i = j;
		}
	}
	t->slot[i] = NULL;
	t->n--;
}

void uk_htab_clear(struct uk_htab *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
