// SPDX-License-Identifier: GPL-2.0
/* Times and large numbers in JSON documents, see json_times.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "json_times.h"

#define JSON_EXACT_MAX	(UINT64_C(1) << 53)

static bool in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool uk_is_time_key(const char *name)
{
	static const char *const parts[] = {
		"ts", "time", "first", "last", "usec", "nsec", "msec", "boot",
		"real", NULL
	};
	/* the journal's boot ID; monitor's gap {"first":A,"last":B}: seqs */
	static const char *const not_times[] = {
		"last_address", "last_pid", "last_comm", "boot_id", "first", "last",
		NULL
	};
	char buf[64], *p, *save = NULL;

	if (in(not_times, name))
		return false;
	snprintf(buf, sizeof(buf), "%s", name);
	for (p = strtok_r(buf, "_", &save); p; p = strtok_r(NULL, "_", &save))
		if (in(parts, p))
			return true;
	return false;
}

static void check_number(const struct uk_json_value *v, const char *where,
			 const char *name)
{
	uint64_t u;
	int64_t s;

	if (uk_json_type(v) != UK_JSON_NUMBER)
		return;
	if ((uk_json_get_u64(v, &u) == 0 && u >= JSON_EXACT_MAX) ||
	    (uk_json_get_s64(v, &s) == 0 && s <= -(int64_t)JSON_EXACT_MAX))
		fail_msg("%s: %s is a number beyond 2^53", where,
			 name ? name : "an item");
}

static unsigned int walk(const struct uk_json_value *v, const char *where,
			 const char *name)
{
	unsigned int seen = 0;
	size_t i, n, len;
	uint64_t u;

	check_number(v, where, name);
	switch (uk_json_type(v)) {
	case UK_JSON_OBJECT:
		uk_json_for_each_member(it, v) {
			if (uk_is_time_key(it.key)) {
				len = strlen(it.key);
				if (len < 5 || strcmp(it.key + len - 5, "_usec"))
					fail_msg("%s: time key %s does not end in _usec",
						 where, it.key);
				if (uk_json_get_u64(it.value, &u) < 0)
					fail_msg("%s: %s is not an integer",
						 where, it.key);
				seen++;
			}
			seen += walk(it.value, where, it.key);
		}
		break;
	case UK_JSON_ARRAY:
		n = uk_json_array_len(v);
		for (i = 0; i < n; i++)
			seen += walk(uk_json_array_at(v, i), where, name);
		break;
	default:
		break;
	}
	return seen;
}

unsigned int uk_check_json_times(const struct uk_json_value *v,
				 const char *where)
{
	return walk(v, where, NULL);
}
