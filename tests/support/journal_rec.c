// SPDX-License-Identifier: GPL-2.0
/* The recording sd_journal_sendv(), see journal_rec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "journal_rec.h"

struct uk_rec uk_rec;

void uk_rec_reset(void)
{
	int i, k;

	for (i = 0; i < uk_rec.n; i++) {
		for (k = 0; k < uk_rec.e[i].n; k++) {
			free(uk_rec.e[i].f[k].key);
			free(uk_rec.e[i].f[k].val);
		}
		free(uk_rec.e[i].f);
	}
	memset(&uk_rec, 0, sizeof(uk_rec));
}

void uk_rec_plan(int r, int n)
{
	while (n-- > 0) {
		assert_true(uk_rec.plan_n < UK_REC_PLAN);
		uk_rec.plan[uk_rec.plan_n++] = r;
	}
}

/* journald's rule: [A-Z0-9_], not starting with '_' or a digit, <= 64. */
static bool valid_key(const char *k, size_t n)
{
	size_t i;

	if (!n || n > 64 || k[0] == '_' || (k[0] >= '0' && k[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!((k[i] >= 'A' && k[i] <= 'Z') ||
		      (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return false;
	return true;
}

int uk_rec_sendv(const struct iovec *iov, int n)
{
	struct uk_rec_entry *e;
	int i, r = 0;

	uk_rec.calls++;
	if (uk_rec.plan_pos < uk_rec.plan_n)
		r = uk_rec.plan[uk_rec.plan_pos++];
	if (r < 0)
		return r;
	if (uk_rec.n >= UK_REC_ENTRIES || n < 0) {
		snprintf(uk_rec.bad, sizeof(uk_rec.bad), "too many entries");
		return 0;
	}
	e = &uk_rec.e[uk_rec.n++];
	e->f = calloc((size_t)n + 1, sizeof(*e->f));
	assert_non_null(e->f);
	for (i = 0; i < n; i++) {
		const char *base = iov[i].iov_base;
		const char *eq = memchr(base, '=', iov[i].iov_len);
		size_t kn, vn;

		if (!eq || !valid_key(base, (size_t)(eq - base))) {
			if (!uk_rec.bad[0])
				snprintf(uk_rec.bad, sizeof(uk_rec.bad),
					 "entry %d field %d: \"%.*s\" is not KEY=value",
					 uk_rec.n - 1, i, (int)iov[i].iov_len,
					 base);
			continue;
		}
		kn = (size_t)(eq - base);
		vn = iov[i].iov_len - kn - 1;
		if (memchr(eq + 1, '\0', vn) && !uk_rec.bad[0])
			snprintf(uk_rec.bad, sizeof(uk_rec.bad),
				 "field %.*s holds a NUL byte", (int)kn, base);
		e->f[e->n].key = strndup(base, kn);
		e->f[e->n].val = malloc(vn + 1);
		assert_non_null(e->f[e->n].key);
		assert_non_null(e->f[e->n].val);
		memcpy(e->f[e->n].val, eq + 1, vn);
		e->f[e->n].val[vn] = '\0';
		e->f[e->n].len = vn;
		e->n++;
	}
	return 0;
}

const struct uk_rec_entry *uk_rec_entry(int i)
{
	if (i >= uk_rec.n)
		fail_msg("entry %d: only %d recorded", i, uk_rec.n);
	return &uk_rec.e[i];
}

const char *uk_rec_val(const struct uk_rec_entry *e, const char *key)
{
	const char *v = NULL;
	int i, c = 0;

	for (i = 0; i < e->n; i++) {
		if (strcmp(e->f[i].key, key))
			continue;
		if (!c++)
			v = e->f[i].val;
	}
	if (c > 1)
		fail_msg("field %s appears %d times", key, c);
	return v;
}

void uk_rec_assert_val(const struct uk_rec_entry *e, const char *key,
		       const char *want)
{
	const char *v = uk_rec_val(e, key);

	if (!v)
		fail_msg("field %s missing, expected \"%s\"", key, want);
	if (strcmp(v, want))
		fail_msg("field %s: expected \"%s\", got \"%s\"", key, want, v);
}
