// SPDX-License-Identifier: GPL-2.0
/* Site orders, see sort.h. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "sort.h"

static const char *const sort_names[UK_SORT_NR] = {
	[UK_SORT_COUNT] = "count",
	[UK_SORT_LAST] = "last",
	[UK_SORT_NAME] = "name",
};

const char *uk_sort_name(enum uk_sort sort)
{
	return (unsigned int)sort < UK_SORT_NR ? sort_names[sort] : NULL;
}

int uk_sort_parse(const char *name, enum uk_sort *ret)
{
	unsigned int i;

	for (i = 0; name && i < UK_SORT_NR; i++) {
		if (!strcmp(name, sort_names[i])) {
			*ret = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_key(const struct uk_sort_site *a, const struct uk_sort_site *b)
{
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return cmp_u32(a->kind, b->kind) ?: cmp_u32(a->helper, b->helper) ?:
	       cmp_u32(a->direction, b->direction);
}

int uk_sort_site_cmp(enum uk_sort sort, const struct uk_sort_site *a,
		     const struct uk_sort_site *b)
{
	int r;

	switch (sort) {
	case UK_SORT_LAST:
		return uk_cmp_u64_desc(a->last, b->last) ?:
		       uk_cmp_u64_desc(a->count, b->count) ?: cmp_key(a, b);
	case UK_SORT_NAME:
		r = strcmp(a->name ? a->name : "", b->name ? b->name : "");
		return r < 0 ? -1 : r > 0 ? 1 : cmp_key(a, b);
	case UK_SORT_COUNT:
	default:
		return uk_cmp_u64_desc(a->count, b->count) ?:
		       uk_cmp_u64_desc(a->last, b->last) ?: cmp_key(a, b);
	}
}
