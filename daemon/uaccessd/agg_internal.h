/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The site table's insides, shared by its files: aggregate.c (sites, order,
 * summaries, life cycle), agg_site.c (a site's memory and stack counts),
 * agg_samples.c (the sample codec), agg_stacks.c (stacks and their
 * interned symbols).  Nothing outside the table includes it.
 */
#ifndef UK_AGG_INTERNAL_H
#define UK_AGG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aggregate.h"
#include "common/hashtab.h"
#include "common/util.h"

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

struct stack_plan {
	struct uk_agg_stack *old;	/* in the store */
	struct uk_agg_stack *new;	/* to replace or add, or NULL */
	bool touch;
};


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


struct sample_plan {
	uint8_t head[2 * REC_MAX];	/* the new one + the previous newest */
	size_t head_len;
	size_t old_len;			/* the previous newest, replaced */
	size_t rest_len;		/* older records kept after it */
	size_t len;			/* bytes after the commit */
	unsigned int n;			/* records after the commit */
};


/* ---- LRU lists ---- */

static inline void agg_link_init(struct uk_agg_link *head)
{
	head->prev = head->next = head;
}

static inline void agg_link_del(struct uk_agg_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

static inline void agg_link_add_front(struct uk_agg_link *head, struct uk_agg_link *l)
{
	l->next = head->next;
	l->prev = head;
	head->next->prev = l;
	head->next = l;
}

static inline void agg_link_move_front(struct uk_agg_link *head, struct uk_agg_link *l)
{
	if (head->next == l)
		return;
	agg_link_del(l);
	agg_link_add_front(head, l);
}

/* After realloc() moved the struct holding @l: fix the neighbours. */
static inline void agg_link_moved(struct uk_agg_link *l)
{
	l->prev->next = l;
	l->next->prev = l;
}


static inline size_t agg_bounded_len(const char *s, size_t size)
{
	/* A string that fills its array unterminated is cut by one byte. */
	return strnlen(s, size - 1);
}


bool agg_stack_eq(const void *entry, const void *key);
void agg_stack_evict_to(struct uk_agg *agg, size_t max);
int agg_stack_prepare(struct uk_agg *agg, const struct uk_event *ev,
			 struct stack_plan *plan);
void agg_stack_abort(struct uk_agg *agg, struct stack_plan *plan);
void agg_stack_commit(struct uk_agg *agg, struct stack_plan *plan,
			 uint64_t ts_boot);
void agg_rec_to_sample(const struct rec *r, struct uk_agg_sample *s);
size_t agg_rec_encode(const struct rec *r, const struct rec *ref,
			 uint8_t *out);
size_t agg_rec_decode(const uint8_t *p, const uint8_t *end,
			 const struct rec *ref, struct rec *r);
int agg_site_relayout(struct uk_agg *agg, struct uk_agg_site **sp,
			 const char *sym, size_t symlen,
			 unsigned int stacks_cap, size_t scap);
int agg_sample_prepare(const struct uk_agg_site *s, const struct rec *r,
			  unsigned int max, struct sample_plan *plan);
void agg_sample_commit(struct uk_agg_site *s, const struct sample_plan *plan);
void agg_samples_truncate(struct uk_agg *agg, struct uk_agg_site **sp,
			     unsigned int max);

uint8_t *agg_site_samples(const struct uk_agg_site *s);
uint64_t agg_site_hash(const void *entry, const void *ctx);
uint64_t agg_stack_hash(const void *entry, const void *ctx);
struct uk_agg_site *agg_site_alloc(const struct uk_agg *agg,
				   const struct site_key *k,
				   const char *sym, size_t len,
				   unsigned int stacks_cap, size_t scap);

/* Per event, on the hot path: inline. */
static inline uint64_t agg_key_hash(const struct site_key *k)
{
	uint64_t rest = k->kind | k->helper << 8 | (uint64_t)k->direction << 16;

	return uk_hash_mix64(k->ip ^ (rest + 1) * 0x9e3779b97f4a7c15ULL);
}

static inline bool agg_site_eq(const void *entry, const void *key)
{
	const struct uk_agg_site *s = entry;
	const struct site_key *k = key;

	return s->site_ip == k->ip && s->kind == k->kind &&
	       s->helper == k->helper && s->direction == k->direction;
}

static inline bool agg_site_symbol_is(const struct uk_agg_site *s, const char *sym,
			   size_t len)
{
	return !strncmp(s->symbol, sym, len) && !s->symbol[len];
}

/* The stacks[] capacity the site needs to count @hash. */
static inline unsigned int agg_site_stacks_need(const struct uk_agg_site *s,
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

static inline void agg_site_stacks_commit(struct uk_agg_site *s, uint32_t hash)
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

static inline void agg_rec_from_event(struct rec *r, const struct uk_event *ev)
{
	size_t len = agg_bounded_len(ev->comm, sizeof(ev->comm));

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

#endif /* UK_AGG_INTERNAL_H */
