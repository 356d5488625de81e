/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash table of pointers (linear probing, a power-of-
 * two capacity, at most 3/4 full, deletion by backward shift): one slot,
 * 8 bytes, per entry and no other memory.  The table does not keep the
 * hashes: the calls that move entries (reserve, remove) take the hash
 * function, with a context for entries that are not pointers (an index
 * into the caller's array, a hash itself).  No entry may be NULL.
 */
#ifndef UK_HASHTAB_H
#define UK_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uk_htab {
	void **slot;
	size_t mask;		/* capacity - 1; the capacity is 0 or 2^k */
	size_t n;
};

typedef uint64_t (*uk_htab_hash_fn)(const void *entry, const void *ctx);
typedef bool (*uk_htab_eq_fn)(const void *entry, const void *key);

/* Room for @n entries; 0 or -ENOMEM (the table is left as it was). */
int uk_htab_reserve(struct uk_htab *t, size_t n, uk_htab_hash_fn hash,
		    const void *ctx);
void uk_htab_remove(struct uk_htab *t, const void *entry,
		    uk_htab_hash_fn hash, const void *ctx);
/* Frees the slots; the table is empty and usable again. */
void uk_htab_clear(struct uk_htab *t);


/*
 * The lookups are inline: the table's users are the daemon's hot path,
 * and inlined, the compiler calls their @eq and @hash directly.
 */
/*
 * The slot holding the entry matching @key, or the empty slot ending
 * its probe sequence.  The table must have a capacity.
 */
static inline void **uk_htab_probe(const struct uk_htab *t, uint64_t h,
				    uk_htab_eq_fn eq, const void *key)
{
	size_t i = h & t->mask;

	for (;;) {
		void **slot = &t->slot[i];

		if (!*slot || eq(*slot, key))
			return slot;
		i = (i + 1) & t->mask;
	}
}

/* The entry of hash @h that @eq says is @key, or NULL. */
static inline void *uk_htab_find(const struct uk_htab *t, uint64_t h,
				 uk_htab_eq_fn eq, const void *key)
{
	if (!t->slot)
		return NULL;
	return *uk_htab_probe(t, h, eq, key);
}

/* The slot that holds @entry (which is in the table). */
static inline void **uk_htab_slot_of(const struct uk_htab *t,
				      const void *entry,
				      uk_htab_hash_fn hash, const void *ctx)
{
	size_t i = hash(entry, ctx) & t->mask;

	while (t->slot[i] != entry)
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

/* Adds @entry of hash @h; uk_htab_reserve() made room for it first. */
static inline void uk_htab_insert(struct uk_htab *t, uint64_t h,
				  void *entry)
{
	size_t i;

	for (i = h & t->mask; t->slot[i]; i = (i + 1) & t->mask)
		;
	t->slot[i] = entry;
	t->n++;
}

/* The splitmix64 finalizer: every input bit affects every output bit. */
static inline uint64_t uk_hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#define UK_FNV1A_INIT	UINT64_C(0xcbf29ce484222325)

/* FNV-1a over @n bytes at @p, continuing from @h (UK_FNV1A_INIT). */
static inline uint64_t uk_hash_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

#endif /* UK_HASHTAB_H */
