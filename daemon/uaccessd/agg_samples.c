// SPDX-License-Identifier: GPL-2.0
/* The sample codec of the site table: see "Samples" below. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_internal.h"

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


void agg_rec_to_sample(const struct rec *r, struct uk_agg_sample *s)
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

size_t agg_rec_encode(const struct rec *r, const struct rec *ref,
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
size_t agg_rec_decode(const uint8_t *p, const uint8_t *end,
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


/*
 * Byte length of the first @count records, 0 if they are malformed; the
 * first one decoded into @first and its length into @first_len.
 */
static size_t samples_span(const struct uk_agg_site *s, unsigned int count,
			   struct rec *first, size_t *first_len)
{
	const uint8_t *p = agg_site_samples(s);
	const uint8_t *end = p + s->private_slen;
	struct rec ref = { 0 }, r;
	size_t off = 0, n;
	unsigned int i;

	for (i = 0; i < count; i++) {
		n = agg_rec_decode(p + off, end, &ref, &r);
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

/* What adding @r to the site's samples, keeping @max, would write. */
int agg_sample_prepare(const struct uk_agg_site *s, const struct rec *r,
			  unsigned int max, struct sample_plan *plan)
{
	static const struct rec zero;
	struct rec newest;
	unsigned int keep;
	size_t len;

	plan->head_len = agg_rec_encode(r, &zero, plan->head);
	plan->old_len = plan->rest_len = 0;
	keep = 0;
	if (s)
		keep = s->nr_samples < max - 1 ? s->nr_samples : max - 1;
	if (keep) {
		len = samples_span(s, keep, &newest, &plan->old_len);
		if (!len)
			return -EBADMSG;	/* our own data: cannot be */
		plan->rest_len = len - plan->old_len;
		plan->head_len += agg_rec_encode(&newest, r,
					     plan->head + plan->head_len);
	}
	plan->n = keep + 1;
	/* At most 64 records of REC_MAX bytes: fits private_slen. */
	plan->len = plan->head_len + plan->rest_len;
	return 0;
}

/* The site has room for plan->len bytes. */
void agg_sample_commit(struct uk_agg_site *s, const struct sample_plan *plan)
{
	uint8_t *buf = agg_site_samples(s);

	memmove(buf + plan->head_len, buf + plan->old_len, plan->rest_len);
	memcpy(buf, plan->head, plan->head_len);
	s->private_slen = (uint16_t)plan->len;
	s->nr_samples = (uint8_t)plan->n;
}

/* Keep the newest @max samples. */
void agg_samples_truncate(struct uk_agg *agg, struct uk_agg_site **sp,
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
	agg_site_relayout(agg, sp, NULL, 0, s->private_stacks_cap, len);
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
	p = agg_site_samples(s);
	end = p + s->private_slen;
	for (i = 0; i < n; i++) {
		len = agg_rec_decode(p, end, &ref, &r);
		if (!len)
			break;
		agg_rec_to_sample(&r, &out[n - 1 - i]);
		p += len;
		ref = r;
	}
	if (i < n)	/* cannot happen; never hand out half-filled slots */
		memmove(out, out + n - i, i * sizeof(*out));
	return i;
}

