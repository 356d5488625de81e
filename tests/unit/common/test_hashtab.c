// SPDX-License-Identifier: GPL-2.0
/*
 * The hash table (daemon/common/hashtab.c) against a plain array: random
 * inserts and removals with colliding hashes, so that clusters wrap
 * around the end of the table and removal has to move entries back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/hashtab.h"

#define KEYS	4096

/* Entries are key + 1; few distinct hashes, so that probes are long. */
static uint64_t weak_hash(uint64_t key)
{
	return key % 61 * 0x9e3779b97f4a7c15ULL;
}

static uint64_t entry_hash(const void *entry, const void *ctx)
{
	return weak_hash((uintptr_t)entry - 1);
}

static bool entry_eq(const void *entry, const void *key)
{
	return entry == key;
}

static void *as_entry(uint64_t key)
{
	return (void *)(uintptr_t)(key + 1);
}

static void random_inserts_and_removals_match_an_array(void **state)
{
	static bool in[KEYS];
	struct uk_htab t = { 0 };
	uint64_t x = 88172645463325252ULL;
	unsigned int round, n = 0;
	size_t k;

	for (round = 0; round < 200000; round++) {
		uint64_t key;

		/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		key = x % KEYS;
		if (!in[key]) {
			assert_null(uk_htab_find(&t, weak_hash(key), entry_eq,
						 as_entry(key)));
			assert_int_equal(uk_htab_reserve(&t, t.n + 1,
							 entry_hash, NULL), 0);
			uk_htab_insert(&t, weak_hash(key), as_entry(key));
			in[key] = true;
			n++;
		} else if (x >> 63) {
			uk_htab_remove(&t, as_entry(key), entry_hash, NULL);
			in[key] = false;
			n--;
		}
		assert_int_equal(t.n, n);
		/* the load stays at most 3/4 */
		assert_true(t.n * 4 <= (t.mask + 1) * 3);
	}
	for (k = 0; k < KEYS; k++) {
		void *got = uk_htab_find(&t, weak_hash(k), entry_eq,
					 as_entry(k));

		if (in[k] != (got != NULL))
			fail_msg("key %zu: %s", k, in[k] ? "lost" : "resurrected");
		if (in[k])
			assert_ptr_equal(*uk_htab_slot_of(&t, got, entry_hash,
							  NULL), got);
	}
	uk_htab_clear(&t);
	assert_int_equal(t.n, 0);
	assert_null(uk_htab_find(&t, weak_hash(1), entry_eq, as_entry(1)));
}

static void fnv1a_matches_its_reference_values(void **state)
{
	/* the published FNV-1a 64-bit test vectors */
	assert_true(uk_hash_fnv1a(UK_FNV1A_INIT, "", 0) ==
		    0xcbf29ce484222325ULL);
	assert_true(uk_hash_fnv1a(UK_FNV1A_INIT, "a", 1) ==
		    0xaf63dc4c8601ec8cULL);
	assert_true(uk_hash_fnv1a(UK_FNV1A_INIT, "foobar", 6) ==
		    0x85944171f73967e8ULL);
	/* continuing is hashing the concatenation */
	assert_true(uk_hash_fnv1a(uk_hash_fnv1a(UK_FNV1A_INIT, "foo", 3),
				  "bar", 3) == 0x85944171f73967e8ULL);
}

int main(void)
{
	const struct CMUnitTest hashtab[] = {
		cmocka_unit_test(random_inserts_and_removals_match_an_array),
		cmocka_unit_test(fnv1a_matches_its_reference_values),
	};

	return cmocka_run_group_tests(hashtab, NULL, NULL);
}
