// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's site table and stack store; see aggregate.h.
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

#include "aggregate.h"
#include "common/hashtab.h"
#include "common/util.h"

/* Interned frame symbol, shared by every stack that has the frame. */
struct uk_str {
	uint32_t refs;
	uint32_t hash;
	char s[];
};

struct uk_agg {
	struct uk_agg_params p;
	struct uk_htab sites;
	struct uk_agg_link site_lru;	/* next: most recent, prev: least */
	struct uk_htab stacks;
	struct uk_agg_link stack_lru;
	struct uk_htab strs;
	struct uk_ratelimit global;
	struct uk_agg_stats st;
	uint64_t real_offset;		/* ts_real - ts_boot, last event */
	bool have_offset;
};

struct site_key {
	uint64_t ip;
	uint8_t kind;
	uint8_t helper;
	uint8_t direction;
};

/* ---- Hashing ---- */

static uint64_t key_hash(const struct site_key *k)
{
	uint64_t rest = k->kind | k->helper << 8 | (uint64_t)k->direction << 16;

	return uk_hash_mix64(k->ip ^ (rest + 1) * 0x9e3779b97f4a7c15ULL);
}

static uint64_t site_hash(const void *entry, const void *ctx)
{
	const struct uk_agg_site *s = entry;
	struct site_key k = {
		.ip = s->site_ip, .kind = s->kind, .helper = s->helper,
		.direction = s->direction,
	};

	return key_hash(&k);
}

static bool site_eq(const void *entry, const void *key)
{
	const struct uk_agg_site *s = entry;
	const struct site_key *k = key;

	return s->site_ip == k->ip && s->kind == k->kind &&
	       s->helper == k->helper && s->direction == k->direction;
}

static uint64_t stack_hash(const void *entry, const void *ctx)
{
	return uk_hash_mix64(((const struct uk_agg_stack *)entry)->hash);
}

static bool stack_eq(const void *entry, const void *key)
{
	return ((const struct uk_agg_stack *)entry)->hash ==
	       *(const uint32_t *)key;
}

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

/* ---- LRU lists ---- */

static void link_init(struct uk_agg_link *head)
{
	head->prev = head->next = head;
}

static void link_del(struct uk_agg_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

static void link_add_front(struct uk_agg_link *head, struct uk_agg_link *l)
{
	l->next = head->next;
	l->prev = head;
	head->next->prev = l;
	head->next = l;
}

static void link_move_front(struct uk_agg_link *head, struct uk_agg_link *l)
{
	if (head->next == l)
		return;
	link_del(l);
	link_add_front(head, l);
}

/* After realloc() moved the struct holding @l: fix the neighbours. */
static void link_moved(struct uk_agg_link *l)
{
	l->prev->next = l;
	l->next->prev = l;
}

/* ---- Interned symbols ---- */

static size_t bounded_len(const char *s, size_t size)
{
	/* A string that fills its array unterminated is cut by one byte. */
	return strnlen(s, size - 1);
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

/* ---- Stack store ---- */

static void stack_free(struct uk_agg *agg, struct uk_agg_stack *st)
{
	uint32_t i;

	for (i = 0; i < st->nr_frames; i++)
		str_put(agg, st->frames[i].symbol);
	free(st);
}

static void stack_evict_to(struct uk_agg *agg, size_t max)
{
	while (agg->stacks.n > max) {
		struct uk_agg_stack *st = container_of(agg->stack_lru.prev,
						       struct uk_agg_stack,
						       private_lru);

		link_del(&st->private_lru);
		uk_htab_remove(&agg->stacks, st, stack_hash, NULL);
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
		size_t len = bounded_len(sym, sizeof(ev->frames[i].symbol));

		if (st->frames[i].ip != ev->frames[i].ip ||
		    strncmp(st->frames[i].symbol, sym, len) ||
		    st->frames[i].symbol[len])
			return false;
	}
	return true;
}

struct stack_plan {
	struct uk_agg_stack *old;	/* in the store */
	struct uk_agg_stack *new;	/* to replace or add, or NULL */
	bool touch;
};

static int stack_prepare(struct uk_agg *agg, const struct uk_event *ev,
			 struct stack_plan *plan)
{
	uint32_t hash = ev->stack_hash, i;
	struct uk_agg_stack *st;

	memset(plan, 0, sizeof(*plan));
	if (!agg->p.max_stacks || !hash)
		return 0;
	plan->old = uk_htab_find(&agg->stacks, uk_hash_mix64(hash), stack_eq,
				 &hash);
	plan->touch = plan->old || ev->nr_frames;
	if (!ev->nr_frames || (plan->old && stack_same_frames(plan->old, ev)))
		return 0;
	if (!plan->old &&
	    uk_htab_reserve(&agg->stacks, agg->stacks.n + 1, stack_hash,
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
			bounded_len(sym, sizeof(ev->frames[i].symbol)));
		if (!st->frames[i].symbol) {
			stack_free(agg, st);
			return -ENOMEM;
		}
		st->nr_frames = i + 1;
	}
	plan->new = st;
	return 0;
}

static void stack_abort(struct uk_agg *agg, struct stack_plan *plan)
{
	if (plan->new)
		stack_free(agg, plan->new);
	plan->new = NULL;
}

static void stack_commit(struct uk_agg *agg, struct stack_plan *plan,
			 uint64_t ts_boot)
{
	struct uk_agg_stack *st = plan->old;

	if (!plan->touch)
		return;
	if (plan->new && st) {
		*uk_htab_slot_of(&agg->stacks, st, stack_hash, NULL) = plan->new;
		plan->new->events = st->events;
		link_del(&st->private_lru);
		stack_free(agg, st);
		st = plan->new;
		link_add_front(&agg->stack_lru, &st->private_lru);
	} else if (plan->new) {
		st = plan->new;
		uk_htab_insert(&agg->stacks, stack_hash(st, NULL), st);
		link_add_front(&agg->stack_lru, &st->private_lru);
	} else {
		link_move_front(&agg->stack_lru, &st->private_lru);
	}
	plan->new = NULL;
	st->events++;
	st->last_boot = ts_boot;
	/* The new entry is at the front: never the one evicted. */
	stack_evict_to(agg, agg->p.max_stacks);
}

/* ---- Samples ----
 *
 * A site keeps its samples newest first in one byte buffer.  The newest
 * is encoded against an all-zero sample, every older one against the one
 * just newer than itself.  A record is a varint bitmap of the fields that
 * differ from the reference, then for each of them the zigzag varint of
 * the difference (modulo 2^64, so exact for any value), then the comm as
 * a length byte and its bytes.  ts_real is kept as ts_real - ts_boot,
 * which changes only when the clock is set, so a delta record is usually
 * seq, ts_boot and a few bytes: about 12 bytes instead of 88.
 * Adding a sample re-encodes the previous newest against the new one and
 * drops the oldest past the limit; reading decodes from the front.
 */

enum {
	SF_SEQ,
	SF_TS_BOOT,
	SF_TS_REAL,		/* as ts_real - ts_boot */
	SF_ADDRESS,
	SF_SIZE,
	SF_PID,
	SF_TGID,
	SF_UID,
	SF_CPU,
	SF_SYSCALL_NR,
	SF_STACK_HASH,
	SF_CONTEXT,
	SF_ADDR_CLASS,
	SF_DIRECTION,
	SF_NUM,
	SF_COMM = SF_NUM,	/* its bit in the bitmap */
};

struct rec {
	uint64_t v[SF_NUM];
	char comm[UK_COMM_LEN];
};

/* bitmap (3 bytes for 15 bits) + 14 varints + length byte + comm */
#define REC_MAX	(3 + SF_NUM * 10 + 1 + UK_COMM_LEN - 1)

static void rec_from_event(struct rec *r, const struct uk_event *ev)
{
	size_t len = bounded_len(ev->comm, sizeof(ev->comm));

	r->v[SF_SEQ] = ev->seq;
	r->v[SF_TS_BOOT] = ev->ts_boot;
	r->v[SF_TS_REAL] = ev->ts_real - ev->ts_boot;
	r->v[SF_ADDRESS] = ev->address;
	r->v[SF_SIZE] = ev->size;
	r->v[SF_PID] = ev->pid;
	r->v[SF_TGID] = ev->tgid;
	r->v[SF_UID] = ev->uid;
	r->v[SF_CPU] = ev->cpu;
	r->v[SF_SYSCALL_NR] = (uint32_t)ev->syscall_nr;
	r->v[SF_STACK_HASH] = ev->stack_hash;
	r->v[SF_CONTEXT] = ev->context;
	r->v[SF_ADDR_CLASS] = ev->addr_class;
	r->v[SF_DIRECTION] = ev->direction;
	memcpy(r->comm, ev->comm, len);
	memset(r->comm + len, 0, sizeof(r->comm) - len);
}

static void rec_to_sample(const struct rec *r, struct uk_agg_sample *s)
{
	s->seq = r->v[SF_SEQ];
	s->ts_boot = r->v[SF_TS_BOOT];
	s->ts_real = r->v[SF_TS_REAL] + r->v[SF_TS_BOOT];
	s->address = r->v[SF_ADDRESS];
	s->size = r->v[SF_SIZE];
	s->pid = (uint32_t)r->v[SF_PID];
	s->tgid = (uint32_t)r->v[SF_TGID];
	s->uid = (uint32_t)r->v[SF_UID];
	s->cpu = (uint32_t)r->v[SF_CPU];
	s->syscall_nr = (int32_t)(uint32_t)r->v[SF_SYSCALL_NR];
	s->stack_hash = (uint32_t)r->v[SF_STACK_HASH];
	s->context = (uint32_t)r->v[SF_CONTEXT];
	s->addr_class = (uint32_t)r->v[SF_ADDR_CLASS];
	s->direction = (uint32_t)r->v[SF_DIRECTION];
	memcpy(s->comm, r->comm, sizeof(s->comm));
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)v | 0x80;
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Returns the bytes read, 0 when malformed or past @end. */
static size_t get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	unsigned int shift;
	size_t n = 0;

	*v = 0;
	for (shift = 0; shift < 64 && p + n < end; shift += 7) {
		uint8_t b = p[n++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return n;
	}
	return 0;
}

static uint64_t zigzag(uint64_t d)
{
	return d << 1 ^ (0 - (d >> 63));
}

static uint64_t unzigzag(uint64_t z)
{
	return z >> 1 ^ (0 - (z & 1));
}

static size_t rec_encode(const struct rec *r, const struct rec *ref,
			 uint8_t *out)
{
	uint64_t bits = 0;
	size_t n, i, len;

	for (i = 0; i < SF_NUM; i++)
		if (r->v[i] != ref->v[i])
			bits |= 1ULL << i;
	if (strcmp(r->comm, ref->comm))
		bits |= 1ULL << SF_COMM;
	n = put_varint(out, bits);
	for (i = 0; i < SF_NUM; i++)
		if (bits & 1ULL << i)
			n += put_varint(out + n, zigzag(r->v[i] - ref->v[i]));
	if (bits & 1ULL << SF_COMM) {
		len = strlen(r->comm);
		out[n++] = (uint8_t)len;
		memcpy(out + n, r->comm, len);
		n += len;
	}
	return n;
}

/* Returns the record's length, 0 when it is malformed. */
static size_t rec_decode(const uint8_t *p, const uint8_t *end,
			 const struct rec *ref, struct rec *r)
{
	uint64_t bits, z;
	size_t n, k, i;

	*r = *ref;
	n = get_varint(p, end, &bits);
	if (!n || bits >> (SF_COMM + 1))
		return 0;
	for (i = 0; i < SF_NUM; i++) {
		if (!(bits & 1ULL << i))
			continue;
		k = get_varint(p + n, end, &z);
		if (!k)
			return 0;
		n += k;
		r->v[i] = ref->v[i] + unzigzag(z);
	}
	if (bits & 1ULL << SF_COMM) {
		if (p + n >= end || p[n] >= UK_COMM_LEN ||
		    p[n] > end - (p + n + 1))
			return 0;
		k = p[n++];
		memcpy(r->comm, p + n, k);
		memset(r->comm + k, 0, sizeof(r->comm) - k);
		n += k;
	}
	return n;
}

/* ---- Site memory ----
 *
 * One allocation per site: the struct, the symbol, then (8-aligned) the
 * stacks[] array of private_stacks_cap entries, then private_scap bytes
 * of encoded samples.  Three allocations would cost two malloc headers,
 * their rounding and two pointers: about 50 bytes of a ~370-byte site.
 * A site that outgrows its allocation moves (site_relayout()), and its
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

static uint8_t *site_samples(const struct uk_agg_site *s)
{
	return (uint8_t *)(s->stacks + s->private_stacks_cap);
}

static struct uk_agg_site *site_alloc(const struct uk_agg *agg,
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
static int site_relayout(struct uk_agg *agg, struct uk_agg_site **sp,
			 const char *sym, size_t symlen,
			 unsigned int stacks_cap, size_t scap)
{
	struct uk_agg_site *s = *sp, *n;
	size_t oldlen = strlen(s->symbol);
	void **slot = uk_htab_slot_of(&agg->sites, s, site_hash, NULL);

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
		memcpy(site_samples(n), site_samples(s), s->private_slen);
		free(s);
	}
	site_set_stacks_ptr(n, symlen);
	n->private_scap = (uint16_t)scap;
	*slot = n;
	link_moved(&n->private_lru);
	*sp = n;
	return 0;
}

static bool site_symbol_is(const struct uk_agg_site *s, const char *sym,
			   size_t len)
{
	return !strncmp(s->symbol, sym, len) && !s->symbol[len];
}

/* ---- Samples, continued ---- */

/*
 * Byte length of the first @count records, 0 if they are malformed; the
 * first one decoded into @first and its length into @first_len.
 */
static size_t samples_span(const struct uk_agg_site *s, unsigned int count,
			   struct rec *first, size_t *first_len)
{
	const uint8_t *p = site_samples(s);
	const uint8_t *end = p + s->private_slen;
	struct rec ref = { 0 }, r;
	size_t off = 0, n;
	unsigned int i;

	for (i = 0; i < count; i++) {
		n = rec_decode(p + off, end, &ref, &r);
		if (!n)
			return 0;
		if (!i && first) {
			*first = r;
			*first_len = n;
		}
		off += n;
		ref = r;
	}
	return off;
}

struct sample_plan {
	uint8_t head[2 * REC_MAX];	/* the new one + the previous newest */
	size_t head_len;
	size_t old_len;			/* the previous newest, replaced */
	size_t rest_len;		/* older records kept after it */
	size_t len;			/* bytes after the commit */
	unsigned int n;			/* records after the commit */
};

/* What adding @r to the site's samples, keeping @max, would write. */
static int sample_prepare(const struct uk_agg_site *s, const struct rec *r,
			  unsigned int max, struct sample_plan *plan)
{
	static const struct rec zero;
	struct rec newest;
	unsigned int keep;
	size_t len;

	plan->head_len = rec_encode(r, &zero, plan->head);
	plan->old_len = plan->rest_len = 0;
	keep = 0;
	if (s)
		keep = s->nr_samples < max - 1 ? s->nr_samples : max - 1;
	if (keep) {
		len = samples_span(s, keep, &newest, &plan->old_len);
		if (!len)
			return -EBADMSG;	/* our own data: cannot be */
		plan->rest_len = len - plan->old_len;
		plan->head_len += rec_encode(&newest, r,
					     plan->head + plan->head_len);
	}
	plan->n = keep + 1;
	/* At most 64 records of REC_MAX bytes: fits private_slen. */
	plan->len = plan->head_len + plan->rest_len;
	return 0;
}

/* The site has room for plan->len bytes. */
static void sample_commit(struct uk_agg_site *s, const struct sample_plan *plan)
{
	uint8_t *buf = site_samples(s);

	memmove(buf + plan->head_len, buf + plan->old_len, plan->rest_len);
	memcpy(buf, plan->head, plan->head_len);
	s->private_slen = (uint16_t)plan->len;
	s->nr_samples = (uint8_t)plan->n;
}

/* Keep the newest @max samples. */
static void samples_truncate(struct uk_agg *agg, struct uk_agg_site **sp,
			     unsigned int max)
{
	struct uk_agg_site *s = *sp;
	size_t len;

	if (s->nr_samples <= max)
		return;
	len = samples_span(s, max, NULL, NULL);
	if (!len)
		return;
	s->private_slen = (uint16_t)len;
	s->nr_samples = (uint8_t)max;
	/* Giving memory back: if that fails, the site holds the same data
	 * in a larger block, which is no loss. */
	site_relayout(agg, sp, NULL, 0, s->private_stacks_cap, len);
}

size_t uk_agg_site_samples(const struct uk_agg_site *s,
			   struct uk_agg_sample *out, size_t max)
{
	const uint8_t *p, *end;
	struct rec ref = { 0 }, r;
	size_t n, i, len;

	if (!s || !out)
		return 0;
	n = s->nr_samples < max ? s->nr_samples : max;
	p = site_samples(s);
	end = p + s->private_slen;
	for (i = 0; i < n; i++) {
		len = rec_decode(p, end, &ref, &r);
		if (!len)
			break;
		rec_to_sample(&r, &out[n - 1 - i]);
		p += len;
		ref = r;
	}
	if (i < n)	/* cannot happen; never hand out half-filled slots */
		memmove(out, out + n - i, i * sizeof(*out));
	return i;
}

/* ---- Per-site stack hashes ---- */

/* The stacks[] capacity the site needs to count @hash. */
static unsigned int site_stacks_need(const struct uk_agg_site *s,
				     uint32_t hash)
{
	unsigned int i;

	for (i = 0; i < s->nr_stacks; i++)
		if (s->stacks[i].hash == hash)
			return s->private_stacks_cap;
	if (s->nr_stacks == UK_AGG_SITE_STACKS ||
	    s->nr_stacks < s->private_stacks_cap)
		return s->private_stacks_cap;
	return s->private_stacks_cap ? s->private_stacks_cap * 2 : 1;
}

static void site_stacks_commit(struct uk_agg_site *s, uint32_t hash)
{
	unsigned int i;

	for (i = 0; i < s->nr_stacks; i++) {
		if (s->stacks[i].hash == hash) {
			s->stacks[i].events++;
			return;
		}
	}
	if (s->nr_stacks == UK_AGG_SITE_STACKS) {
		s->stacks_other++;
		return;
	}
	s->stacks[s->nr_stacks].hash = hash;
	s->stacks[s->nr_stacks].events = 1;
	s->nr_stacks++;
}

/* ---- Sites ---- */

static void site_unlink(struct uk_agg *agg, struct uk_agg_site *s)
{
	link_del(&s->private_lru);
	uk_htab_remove(&agg->sites, s, site_hash, NULL);
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
	uk_htab_insert(&agg->sites, site_hash(s, NULL), s);
	link_add_front(&agg->site_lru, &s->private_lru);
	/* The new site is at the front: never the one evicted. */
	site_evict_to(agg, agg->p.max_sites);
}

static int key_from(uint64_t present, int a_ip, int a_kind, int a_helper,
		    int a_dir, uint64_t ip, uint32_t kind, uint32_t helper,
		    uint32_t dir, struct site_key *k)
{
	uint64_t need = UK_BIT(a_ip) | UK_BIT(a_kind) |
			UK_BIT(a_helper) | UK_BIT(a_dir);

	if ((present & need) != need || !ip || !kind || !helper || !dir)
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
	return uk_htab_find(&agg->sites, key_hash(k), site_eq, k);
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
		symlen = bounded_len(sym, sizeof(ev->site_symbol));
	}
	rec_from_event(&r, ev);

	/* Everything that can fail. */
	ret = stack_prepare(agg, ev, &stack);
	if (ret < 0)
		return ret;
	s = site_lookup(agg, &k);
	ret = sample_prepare(s, &r, agg->p.samples, &samples);
	if (ret < 0)
		goto err;
	if (!s) {
		ret = -ENOMEM;
		s = site_alloc(agg, &k, sym, symlen, 1, samples.len);
		if (!s)
			goto err;
		created = true;
		if (uk_htab_reserve(&agg->sites, agg->sites.n + 1, site_hash,
				    NULL) < 0)
			goto err;
	} else {
		unsigned int cap = site_stacks_need(s, ev->stack_hash);
		size_t scap = s->private_scap;
		bool newsym = symlen && !site_symbol_is(s, sym, symlen);

		/* Exact: malloc() rounds up and realloc() within that
		 * rounding does not move. */
		if (samples.len > scap)
			scap = samples.len;
		if (newsym || cap != s->private_stacks_cap ||
		    scap != s->private_scap) {
			/* Moves the site, changes nothing else. */
			ret = site_relayout(agg, &s, newsym ? sym : NULL,
					    symlen, cap, scap);
			if (ret < 0)
				goto err;
		}
	}

	/* The commit. */
	if (created)
		site_insert(agg, s);
	else
		link_move_front(&agg->site_lru, &s->private_lru);
	stack_commit(agg, &stack, ev->ts_boot);
	sample_commit(s, &samples);
	site_stacks_commit(s, ev->stack_hash);
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
	stack_abort(agg, &stack);
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
		symlen = bounded_len(sym, sizeof(ks->site_symbol));
	}

	s = site_lookup(agg, &k);
	if (!s) {
		s = site_alloc(agg, &k, sym, symlen, 0, 0);
		if (!s)
			return -ENOMEM;
		if (uk_htab_reserve(&agg->sites, agg->sites.n + 1,
				    site_hash, NULL) < 0) {
			free(s);
			return -ENOMEM;
		}
		site_insert(agg, s);
		flags |= UK_AGG_SYNC_NEW;
	} else if (symlen && !site_symbol_is(s, sym, symlen)) {
		ret = site_relayout(agg, &s, sym, symlen,
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
			link_move_front(&agg->site_lru, &s->private_lru);
		s->count = ks->count;
		if (ks->suppressed > s->kernel_suppressed)
			s->kernel_suppressed = ks->suppressed;
		if (ks->reported > s->kernel_reported)
			s->kernel_reported = ks->reported;
	}
	s->private_sync_count = ks->count;
	if (flags & UK_AGG_SYNC_RESET)
		link_move_front(&agg->site_lru, &s->private_lru);

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

const struct uk_agg_stack *uk_agg_stack_find(const struct uk_agg *agg,
					     uint32_t hash)
{
	if (!agg)
		return NULL;
	return uk_htab_find(&agg->stacks, uk_hash_mix64(hash), stack_eq, &hash);
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
	link_init(&agg->site_lru);
	link_init(&agg->stack_lru);
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
		samples_truncate(agg, &s, p->samples);
		l = &s->private_lru;	/* the site may have moved */
	}
	uk_ratelimit_set_rate(&agg->global, p->global_rate, p->global_burst);
	agg->p = *p;
	site_evict_to(agg, p->max_sites);
	stack_evict_to(agg, p->max_stacks);
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
	link_init(&agg->site_lru);
	link_init(&agg->stack_lru);
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
