// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl sites and top from the journal, the model: per-site totals
 * by machine and over the fleet, from uaccessd's event and summary
 * entries.  See fleet.h for what is counted and how; fleet_out.c prints
 * them, fleet_verb.c is the verb.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "fleet.h"
#include "common/time.h"
#include "text.h"
#include "common/hashtab.h"
#include "common/msgid.h"
#include "common/util.h"

/* Longest value taken from a field (a symbol is at most 128 bytes). */
#define UK_FLEET_VALUE_MAX	256

/* ---- hashing ---- */

/*
 * The maps hold an index into the caller's array plus one (an entry is
 * never NULL), or, for the set of entries seen, the entry's hash itself.
 */
#define MAP_ENTRY(index)	((void *)(uintptr_t)((index) + 1))
#define MAP_INDEX(entry)	((size_t)(uintptr_t)(entry) - 1)

/* FNV-1a of @n strings, each followed by a NUL so that "a","bc" != "ab","c". */
static uint64_t hash_strs(const char *const *s, size_t n)
{
	uint64_t h = UK_FNV1A_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = s[i] ? s[i] : "";

		h = uk_hash_fnv1a(h, p, strlen(p) + 1);
	}
	return h ? h : 1;	/* never NULL as a set entry */
}

/* ---- fields ---- */

/*
 * The value of @name as text fit for a table and a key: present, not
 * empty, no NUL or control character, at most UK_FLEET_VALUE_MAX bytes.
 * NULL otherwise, with the reason in @why (@required: absence is one).
 */
static const char *text_field(const struct uk_entry *e, const char *name,
			      bool required, char *why, size_t whylen)
{
	size_t len, i;
	const char *v = uk_entry_get(e, name, &len);

	if (!v) {
		if (required)
			snprintf(why, whylen, "no %s", name);
		return NULL;
	}
	if (!len || strlen(v) != len || len > UK_FLEET_VALUE_MAX) {
		snprintf(why, whylen, "%s is %s", name,
			 !len ? "empty" : len > UK_FLEET_VALUE_MAX ?
			 "too long" : "not text (a NUL byte)");
		return NULL;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c < 0x20 || c == 0x7f) {
			snprintf(why, whylen,
				 "%s holds a control character", name);
			return NULL;
		}
	}
	return v;
}

static const char *number_field(const struct uk_entry *e, const char *name,
				uint64_t *ret, char *why, size_t whylen)
{
	char tmp[160];
	const char *v = text_field(e, name, true, tmp, sizeof(tmp));

	if (!v) {
		snprintf(why, whylen, "%s", tmp);
		return NULL;
	}
	if (uk_cli_parse_u64(v, UINT64_MAX, ret) < 0) {
		snprintf(why, whylen, "%s=%.40s is not a decimal number",
			 name, v);
		return NULL;
	}
	return v;
}

/* "0x" and 1 to 16 hex digits, as uaccessd writes addresses. */
static bool is_hex_address(const char *s)
{
	size_t n;

	if (strncmp(s, "0x", 2))
		return false;
	n = strspn(s + 2, "0123456789abcdefABCDEF");
	return n >= 1 && n <= 16 && !s[2 + n];
}

/*
 * An address field (optional): NULL in *ret when absent, -EINVAL when it
 * is there but not an address.
 */
static int address_field(const struct uk_entry *e, const char *name,
			 const char **ret, char *why, size_t whylen)
{
	const char *v;

	*ret = NULL;
	if (!uk_entry_get(e, name, NULL))
		return 0;
	v = text_field(e, name, true, why, whylen);
	if (!v)
		return -EINVAL;
	if (!is_hex_address(v)) {
		snprintf(why, whylen, "%s=%.40s is not an address", name, v);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

/* ---- counting ---- */

struct site_key {
	const char *site, *kind, *helper;
};

struct machine_key {
	const struct uk_fleet *f;
	const char *id;
};

struct site_in {
	const struct uk_fleet_site *sites;
	const struct site_key *key;
};

static bool same_machine(const void *entry, const void *data)
{
	const struct machine_key *k = data;

	return !strcmp(k->f->machines[MAP_INDEX(entry)].machine_id, k->id);
}

/* @ctx: the fleet. */
static uint64_t machine_hash(const void *entry, const void *ctx)
{
	const struct uk_fleet *f = ctx;
	const char *id = f->machines[MAP_INDEX(entry)].machine_id;

	return hash_strs(&id, 1);
}

static bool same_site(const void *entry, const void *data)
{
	const struct site_in *in = data;
	const struct uk_fleet_site *s = &in->sites[MAP_INDEX(entry)];

	return !strcmp(s->site, in->key->site) &&
	       !strcmp(s->kind, in->key->kind) &&
	       !strcmp(s->helper, in->key->helper);
}

static uint64_t site_key_hash(const char *site, const char *kind,
			      const char *helper)
{
	const char *parts[] = { site, kind, helper };

	return hash_strs(parts, ARRAY_SIZE(parts));
}

/* @ctx: the array of sites. */
static uint64_t site_hash(const void *entry, const void *ctx)
{
	const struct uk_fleet_site *s =
		&((const struct uk_fleet_site *)ctx)[MAP_INDEX(entry)];

	return site_key_hash(s->site, s->kind, s->helper);
}

static bool same_hash(const void *entry, const void *key)
{
	return entry == key;
}

static uint64_t seen_hash(const void *entry, const void *ctx)
{
	return uk_hash_mix64((uintptr_t)entry);
}

void uk_fleet_init(struct uk_fleet *f)
{
	memset(f, 0, sizeof(*f));
}

static void site_release(struct uk_fleet_site *s)
{
	free(s->site);
	free(s->kind);
	free(s->helper);
	free(s->site_ip);
}

void uk_fleet_release(struct uk_fleet *f)
{
	size_t i, k;

	for (i = 0; i < f->n_machines; i++) {
		struct uk_fleet_machine *m = &f->machines[i];

		for (k = 0; k < m->n_sites; k++)
			site_release(&m->sites[k]);
		free(m->sites);
		uk_htab_clear(&m->map);
		free(m->machine_id);
		free(m->hostname);
	}
	free(f->machines);
	for (i = 0; i < f->n_sites; i++)
		site_release(&f->sites[i]);
	free(f->sites);
	uk_htab_clear(&f->machine_map);
	uk_htab_clear(&f->fleet_map);
	uk_htab_clear(&f->seen);
	uk_fleet_init(f);
}

static int machine_get(struct uk_fleet *f, const char *id, size_t *ret)
{
	struct machine_key k = { f, id };
	uint64_t h = hash_strs(&id, 1);
	struct uk_fleet_machine *m;

	void *found = uk_htab_find(&f->machine_map, h, same_machine, &k);

	if (found) {
		*ret = MAP_INDEX(found);
		return 0;
	}
	if (f->n_machines == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;

		m = reallocarray(f->machines, cap, sizeof(*m));
		if (!m)
			return -ENOMEM;
		f->machines = m;
		f->cap = cap;
	}
	m = &f->machines[f->n_machines];
	memset(m, 0, sizeof(*m));
	m->machine_id = strdup(id);
	if (!m->machine_id ||
	    uk_htab_reserve(&f->machine_map, f->machine_map.n + 1,
			    machine_hash, f) < 0) {
		free(m->machine_id);
		return -ENOMEM;
	}
	uk_htab_insert(&f->machine_map, h, MAP_ENTRY(f->n_machines));
	*ret = f->n_machines++;
	return 0;
}

/* A site in @sites (a machine's or the fleet's), added when new. */
static int site_get(struct uk_fleet_site **sites, size_t *n, size_t *cap,
		    struct uk_htab *map, uint64_t h,
		    const struct site_key *key, struct uk_fleet_site **ret)
{
	struct site_in in = { *sites, key };
	struct uk_fleet_site *s;
	void *found = uk_htab_find(map, h, same_site, &in);

	if (found) {
		*ret = &(*sites)[MAP_INDEX(found)];
		return 0;
	}
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;

		s = reallocarray(*sites, c, sizeof(*s));
		if (!s)
			return -ENOMEM;
		*sites = s;
		*cap = c;
	}
	s = &(*sites)[*n];
	memset(s, 0, sizeof(*s));
	s->site = strdup(key->site);
	s->kind = strdup(key->kind);
	s->helper = strdup(key->helper);
	if (!s->site || !s->kind || !s->helper ||
	    uk_htab_reserve(map, map->n + 1, site_hash, *sites) < 0) {
		site_release(s);
		return -ENOMEM;
	}
	uk_htab_insert(map, h, MAP_ENTRY(*n));
	(*n)++;
	*ret = s;
	return 0;
}

/* Adds @dir to the comma-separated set @set (cut when it is full). */
static void add_direction(char *set, size_t len, const char *dir)
{
	size_t n = strlen(dir), used = strlen(set);
	const char *p = set;

	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == n && !memcmp(p, dir, n))
			return;
		p += k;
		if (*p)
			p++;
	}
	if (used + !!used + n + 1 > len)
		return;
	if (used)
		set[used++] = ',';
	memcpy(set + used, dir, n + 1);
}

static void skip(struct uk_fleet *f, const struct uk_entry *e,
		 const char *why)
{
	const char *host = uk_entry_get(e, "_HOSTNAME", NULL);
	char clean[UK_FLEET_VALUE_MAX + 1];

	f->skipped++;
	if (f->skipped > 1)
		return;
	uk_cli_sanitize(host ? host : "?", clean, sizeof(clean));
	snprintf(f->first_skip, sizeof(f->first_skip), "%s: %s", clean, why);
}

/* What an entry of uaccessd says about a site, once checked. */
struct parsed {
	bool event;
	struct site_key key;
	const char *site_ip;	/* NULL if none */
	const char *direction;	/* NULL if none */
	const char *address;	/* an event's UACCESS_ADDRESS, or NULL */
	uint64_t ts_real;	/* an event's UACCESS_TS_REAL (ns), or 0 */
	uint64_t suppressed;	/* summaries: this summary's count */
	uint64_t dedup;		/* hash of what makes it unique */
};

static int parse_event(const struct uk_entry *e, const char *machine,
		       const char *boot, struct parsed *p, char *why,
		       size_t whylen)
{
	const char *seq;
	uint64_t n;

	p->event = true;
	seq = number_field(e, UK_JF(SEQ), &n, why, whylen);
	if (!seq)
		return -EINVAL;
	p->key.kind = text_field(e, UK_JF(KIND), true, why, whylen);
	if (!p->key.kind)
		return -EINVAL;
	p->key.helper = text_field(e, UK_JF(HELPER), true, why, whylen);
	if (!p->key.helper)
		return -EINVAL;
	if (uk_entry_get(e, UK_JF(DIRECTION), NULL)) {
		p->direction = text_field(e, UK_JF(DIRECTION), true, why,
					  whylen);
		if (!p->direction)
			return -EINVAL;
	}
	/* The kernel's stamp of the hit, when the entry has one. */
	if (uk_entry_get(e, UK_JF(TS_REAL), NULL) &&
	    !number_field(e, UK_JF(TS_REAL), &p->ts_real, why, whylen))
		return -EINVAL;
	if (address_field(e, UK_JF(ADDRESS), &p->address, why, whylen) < 0)
		return -EINVAL;
	{
		const char *parts[] = { "E", machine, boot, seq };

		p->dedup = hash_strs(parts, ARRAY_SIZE(parts));
	}
	return 0;
}

static int parse_summary(const struct uk_entry *e, const char *machine,
			 const char *boot, struct parsed *p, char *why,
			 size_t whylen)
{
	const char *count, *total;
	uint64_t t;
	char when[24];

	count = number_field(e, UK_JF(SUPPRESSED_COUNT), &p->suppressed,
			     why, whylen);
	if (!count)
		return -EINVAL;
	total = number_field(e, UK_JF(SUPPRESSED_TOTAL), &t, why, whylen);
	if (!total)
		return -EINVAL;
	if (t < p->suppressed) {
		snprintf(why, whylen,
			 "%s=%s is below %s=%s", UK_JF(SUPPRESSED_TOTAL),
			 total, UK_JF(SUPPRESSED_COUNT), count);
		return -EINVAL;
	}
	snprintf(when, sizeof(when), "%" PRIu64, e->realtime_usec);
	{
		const char *parts[] = { "S", machine, boot, when, p->key.site,
					p->key.kind, p->key.helper, total };

		p->dedup = hash_strs(parts, ARRAY_SIZE(parts));
	}
	return 0;
}

/* The site of an event or summary: its symbol, else its address. */
static int parse_site(const struct uk_entry *e, struct parsed *p, char *why,
		      size_t whylen)
{
	const char *sym = NULL;
	size_t len;

	if (address_field(e, UK_JF(SITE_IP), &p->site_ip, why, whylen) < 0)
		return -EINVAL;
	/* An empty symbol is "none" (the kernel had no name for it). */
	if (uk_entry_get(e, UK_JF(SITE_SYMBOL), &len) && len) {
		sym = text_field(e, UK_JF(SITE_SYMBOL), true, why, whylen);
		if (!sym)
			return -EINVAL;
	}
	if (!sym && !p->site_ip) {
		snprintf(why, whylen, "no UACCESS_SITE_SYMBOL nor UACCESS_SITE_IP");
		return -EINVAL;
	}
	p->key.site = sym ? sym : p->site_ip;
	return 0;
}

/* uaccessd's summary of the sites its table evicted: no kind, no helper. */
static bool evicted_summary(const struct parsed *p)
{
	return p->key.site[0] == '(' && p->site_ip &&
	       strspn(p->site_ip + 2, "0") == strlen(p->site_ip + 2);
}

/*
 * A site's first and last hit: its events' times, the kernel's stamps
 * (UACCESS_TS_REAL) where they have one, else the entries' times, which
 * are a little later; a summary's time only while the site has no event:
 * a summary is written a while after the hits it counts.
 */
static void site_times(struct uk_fleet_site *s, const struct parsed *p,
		       uint64_t entry_usec)
{
	uint64_t t = p->ts_real ? p->ts_real / UK_NSEC_PER_USEC : entry_usec;

	if (!p->event && s->events)
		return;
	if (p->event && s->events == 1)	/* this one: the summaries' go */
		s->first = s->last = 0;
	if (!s->first || t < s->first)
		s->first = t;
	if (t > s->last)
		s->last = t;
}

/* Was the entry of hash @h counted already?  If not, it is now. */
static int seen_before(struct uk_fleet *f, uint64_t h, bool *seen)
{
	void *entry = (void *)(uintptr_t)h;

	*seen = uk_htab_find(&f->seen, uk_hash_mix64(h), same_hash, entry);
	if (*seen)
		return 0;
	if (uk_htab_reserve(&f->seen, f->seen.n + 1, seen_hash, NULL) < 0)
		return -ENOMEM;
	uk_htab_insert(&f->seen, uk_hash_mix64(h), entry);
	return 0;
}

int uk_fleet_add(struct uk_fleet *f, const struct uk_entry *e,
		 enum uk_fleet_took *took, char *why, size_t whylen)
{
	const char *msgid = uk_entry_get(e, "MESSAGE_ID", NULL);
	const char *machine, *host, *boot;
	struct uk_fleet_machine *m;
	struct uk_fleet_site *s;
	struct parsed p = { 0 };
	char tmp[160];
	bool seen;
	size_t mi;
	int r;

	*took = UK_FLEET_OTHER;
	if (!msgid || (strcmp(msgid, UK_MSGID_EVENT) &&
		       strcmp(msgid, UK_MSGID_SUPPRESSED))) {
		f->other++;
		return 0;
	}
	/* Trusted fields: an entry without them is still counted. */
	machine = text_field(e, "_MACHINE_ID", false, tmp, sizeof(tmp));
	host = text_field(e, "_HOSTNAME", false, tmp, sizeof(tmp));
	boot = text_field(e, "_BOOT_ID", false, tmp, sizeof(tmp));
	if (!machine)
		machine = "";

	r = parse_site(e, &p, why, whylen);
	if (r == 0 && !strcmp(msgid, UK_MSGID_EVENT)) {
		r = parse_event(e, machine, boot, &p, why, whylen);
	} else if (r == 0) {
		if (evicted_summary(&p)) {
			p.key.kind = "-";
			p.key.helper = "-";
		} else {
			p.key.kind = text_field(e, UK_JF(KIND), true, why,
						whylen);
			p.key.helper = p.key.kind ?
				       text_field(e, UK_JF(HELPER), true,
						  why, whylen) : NULL;
			r = p.key.helper ? 0 : -EINVAL;
		}
		if (r == 0)
			r = parse_summary(e, machine, boot, &p, why, whylen);
	}
	if (r < 0) {
		skip(f, e, why);
		return -EINVAL;
	}

	r = seen_before(f, p.dedup, &seen);
	if (r < 0)
		return r;
	if (seen) {
		f->duplicates++;
		*took = UK_FLEET_DUPLICATE;
		return 0;
	}
	*took = UK_FLEET_COUNTED;
	r = machine_get(f, machine, &mi);
	if (r < 0)
		return r;
	m = &f->machines[mi];
	if (host && (!m->hostname || e->realtime_usec >= m->hostname_time)) {
		char *h = strdup(host);

		if (!h)
			return -ENOMEM;
		free(m->hostname);
		m->hostname = h;
		m->hostname_time = e->realtime_usec;
	}
	r = site_get(&m->sites, &m->n_sites, &m->cap, &m->map,
		     site_key_hash(p.key.site, p.key.kind, p.key.helper),
		     &p.key, &s);
	if (r < 0)
		return r;
	if (!s->site_ip && p.site_ip) {
		s->site_ip = strdup(p.site_ip);
		if (!s->site_ip)
			return -ENOMEM;
	}
	s->has_symbol = strcmp(p.key.site, p.site_ip ? p.site_ip : "");
	if (p.direction)
		add_direction(s->direction, sizeof(s->direction), p.direction);
	if (p.event && p.address &&
	    (p.ts_real ? p.ts_real / UK_NSEC_PER_USEC : e->realtime_usec) >=
	    s->last)
		snprintf(s->last_address, sizeof(s->last_address), "%s",
			 p.address);
	if (p.event) {
		s->events++;
		m->events++;
		f->events++;
		f->event_entries++;
	} else {
		s->suppressed += p.suppressed;
		m->suppressed += p.suppressed;
		f->suppressed += p.suppressed;
		f->summary_entries++;
	}
	s->count = s->events + s->suppressed;
	m->count = m->events + m->suppressed;
	f->count = f->events + f->suppressed;
	site_times(s, &p, e->realtime_usec);
	if (s->last > m->last)
		m->last = s->last;
	return 0;
}

/* ---- totals and order ---- */

static int cmp_name(const struct uk_fleet_site *a,
		    const struct uk_fleet_site *b)
{
	int r = strcmp(a->site, b->site);

	if (!r)
		r = strcmp(a->kind, b->kind);
	if (!r)
		r = strcmp(a->helper, b->helper);
	return r < 0 ? -1 : r > 0;
}

static int site_by_count(const void *pa, const void *pb)
{
	const struct uk_fleet_site *a = pa, *b = pb;

	return uk_cmp_u64_desc(a->count, b->count) ?:
	       uk_cmp_u64_desc(a->last, b->last) ?: cmp_name(a, b);
}

static int site_by_last(const void *pa, const void *pb)
{
	const struct uk_fleet_site *a = pa, *b = pb;

	return uk_cmp_u64_desc(a->last, b->last) ?:
	       uk_cmp_u64_desc(a->count, b->count) ?: cmp_name(a, b);
}

static int site_by_name(const void *pa, const void *pb)
{
	return cmp_name(pa, pb);
}

static int machine_by_label(const struct uk_fleet_machine *a,
			    const struct uk_fleet_machine *b)
{
	int r = strcmp(a->label, b->label);

	if (!r)
		r = strcmp(a->machine_id, b->machine_id);
	return r < 0 ? -1 : r > 0;
}

static int machine_by_count(const void *pa, const void *pb)
{
	const struct uk_fleet_machine *a = pa, *b = pb;

	return uk_cmp_u64_desc(a->count, b->count) ?: machine_by_label(a, b);
}

static int machine_by_last(const void *pa, const void *pb)
{
	const struct uk_fleet_machine *a = pa, *b = pb;

	return uk_cmp_u64_desc(a->last, b->last) ?: machine_by_label(a, b);
}

static int machine_by_name(const void *pa, const void *pb)
{
	return machine_by_label(pa, pb);
}

static void set_labels(struct uk_fleet *f)
{
	size_t i, k;

	for (i = 0; i < f->n_machines; i++) {
		struct uk_fleet_machine *m = &f->machines[i];
		bool ambiguous = !m->hostname;

		for (k = 0; k < f->n_machines && !ambiguous; k++) {
			const char *h = f->machines[k].hostname;

			ambiguous = k != i && h && !strcmp(h, m->hostname);
		}
		uk_label_host(m->hostname, m->machine_id, ambiguous,
			       m->label, sizeof(m->label));
	}
}

int uk_fleet_finish(struct uk_fleet *f, enum uk_sort sort)
{
	static int (*const site_cmp[])(const void *, const void *) = {
		[UK_SORT_COUNT] = site_by_count,
		[UK_SORT_LAST] = site_by_last,
		[UK_SORT_NAME] = site_by_name,
	};
	static int (*const machine_cmp[])(const void *, const void *) = {
		[UK_SORT_COUNT] = machine_by_count,
		[UK_SORT_LAST] = machine_by_last,
		[UK_SORT_NAME] = machine_by_name,
	};
	size_t i, k;
	int r;

	if ((unsigned int)sort >= ARRAY_SIZE(site_cmp))
		return -EINVAL;
	set_labels(f);
	for (i = 0; i < f->n_machines; i++) {
		const struct uk_fleet_machine *m = &f->machines[i];

		for (k = 0; k < m->n_sites; k++) {
			const struct uk_fleet_site *ms = &m->sites[k];
			struct site_key key = { ms->site, ms->kind,
						ms->helper };
			struct uk_fleet_site *s;
			const char *p;

			r = site_get(&f->sites, &f->n_sites, &f->sites_cap,
				     &f->fleet_map,
				     site_key_hash(ms->site, ms->kind,
						   ms->helper),
				     &key, &s);
			if (r < 0)
				return r;
			s->has_symbol = ms->has_symbol;
			s->events += ms->events;
			s->suppressed += ms->suppressed;
			s->count = s->events + s->suppressed;
			s->machines++;
			if (!s->first || ms->first < s->first)
				s->first = ms->first;
			if (ms->last > s->last)
				s->last = ms->last;
			for (p = ms->direction; *p; ) {
				char d[UK_FLEET_DIR_LEN];
				size_t n = strcspn(p, ",");

				snprintf(d, sizeof(d), "%.*s", (int)n, p);
				add_direction(s->direction,
					      sizeof(s->direction), d);
				p += n;
				if (*p)
					p++;
			}
		}
	}
	/* The maps' indexes die with the order: no entry is added after. */
	uk_htab_clear(&f->fleet_map);
	uk_htab_clear(&f->machine_map);
	for (i = 0; i < f->n_machines; i++)
		uk_htab_clear(&f->machines[i].map);
	for (i = 0; i < f->n_machines; i++)
		if (f->machines[i].n_sites)
			qsort(f->machines[i].sites, f->machines[i].n_sites,
			      sizeof(*f->machines[i].sites), site_cmp[sort]);
	if (f->n_sites)
		qsort(f->sites, f->n_sites, sizeof(*f->sites), site_cmp[sort]);
	if (f->n_machines)
		qsort(f->machines, f->n_machines, sizeof(*f->machines),
		      machine_cmp[sort]);
	return 0;
}
