/* SPDX-License-Identifier: GPL-2.0 */
/* Fixtures the unit tests share. */
#ifndef UK_TEST_FIXTURES_H
#define UK_TEST_FIXTURES_H

/* Local time is @tz ("UTC", "Europe/Berlin") from now on. */
void uk_test_set_tz(const char *tz);
/* A cmocka group setup: local time is UTC, so that outputs are fixed. */
int uk_test_utc(void **state);

#endif /* UK_TEST_FIXTURES_H */
