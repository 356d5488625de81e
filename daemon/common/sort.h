/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The orders of a site table, as `uaccessctl sites --sort` names them and
 * the control protocol carries them, and the one comparison of two sites
 * that uaccessd's table and uaccessctl's kernel table both sort by.
 */
#ifndef UK_SORT_H
#define UK_SORT_H

#include <stdint.h>

enum uk_sort {
	UK_SORT_COUNT,	/* most hits first (the default) */
	UK_SORT_LAST,	/* most recent hit first */
	UK_SORT_NAME,	/* by site symbol, strcmp() order */
	UK_SORT_NR,
};

/* For messages: the names uk_sort_parse() takes. */
#define UK_SORT_NAMES	"count, last or name"

/* "count", "last", "name"; NULL out of range. */
const char *uk_sort_name(enum uk_sort sort);
/* 0 and *ret, or -EINVAL for NULL or a name not of UK_SORT_NAMES. */
int uk_sort_parse(const char *name, enum uk_sort *ret);

/* What the order of two sites depends on; the site key breaks ties. */
struct uk_sort_site {
	uint64_t count;
	uint64_t last;		/* CLOCK_BOOTTIME of the last hit, ns */
	const char *name;	/* the site's symbol */
	uint64_t ip;		/* the site key: ip, kind, helper, direction */
	uint32_t kind, helper, direction;
};

/* A total order: <0, 0 (the same site) or >0, as qsort() wants. */
int uk_sort_site_cmp(enum uk_sort sort, const struct uk_sort_site *a,
		     const struct uk_sort_site *b);

/* Highest first: <0 when @a > @b. */
static inline int uk_cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

#endif /* UK_SORT_H */
