/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Journal entries for the uaccessctl tests, built field by field
 * (uaccessctl/entry.h).  Include after cmocka.h.
 */
#ifndef UK_TEST_ENTRY_FAKE_H
#define UK_TEST_ENTRY_FAKE_H

#include <stdarg.h>
#include <stdio.h>

#include "uaccessctl/entry.h"

/* Adds the field "NAME=VALUE" that @fmt makes to @e. */
static inline void entry_addf(struct uk_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void entry_addf(struct uk_entry *e, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	assert_int_equal(uk_entry_add(e, buf, (size_t)n), 0);
}

#endif /* UK_TEST_ENTRY_FAKE_H */
