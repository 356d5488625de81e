// SPDX-License-Identifier: GPL-2.0
/* Golden files, see golden.h. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "golden.h"

char *uk_golden_path(const char *name)
{
	const char *dir = getenv("UK_TEST_DATA");
	char *p;

	/* by hand: this file is tests/support/golden.c */
	if (dir)
		assert_true(asprintf(&p, "%s/golden/%s", dir, name) > 0);
	else
		assert_true(asprintf(&p, "%.*s/../unit/golden/%s",
				     (int)(strrchr(__FILE__, '/') - __FILE__),
				     __FILE__, name) > 0);
	return p;
}

void uk_assert_text(const char *what, const char *got, const char *want)
{
	if (strcmp(got ? got : "", want))
		fail_msg("%s: expected\n---\n%s---\ngot\n---\n%s---", what,
			 want, got ? got : "(null)");
}

void uk_assert_golden(const char *name, const char *got)
{
	char *path = uk_golden_path(name), *want = NULL;
	size_t cap = 0;
	FILE *f;

	if (getenv("UK_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
		free(path);
		return;
	}
	f = fopen(path, "r");
	if (!f)
		fail_msg("golden file %s: %s", path, strerror(errno));
	if (getdelim(&want, &cap, '\0', f) < 0) {
		free(want);
		want = strdup("");	/* an empty golden file */
	}
	fclose(f);
	uk_assert_text(path, got, want);
	free(want);
	free(path);
}
