/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording sd_journal_sendv() for the tests of uaccessd's journal
 * entries: put uk_rec_sendv in struct uk_journal's sendv, then read what
 * was sent.  It checks journald's rules on the way (KEY=value, keys of
 * [A-Z0-9_] not starting with '_' or a digit, at most 64 bytes, no NUL in
 * a value) and notes the first break in uk_rec.bad.  uk_rec_plan() makes
 * the next sends fail.
 */
#ifndef UK_TEST_JOURNAL_REC_H
#define UK_TEST_JOURNAL_REC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define UK_REC_ENTRIES	1024
#define UK_REC_PLAN	32

struct uk_rec_field {
	char *key;
	char *val;		/* NUL-terminated; @len bytes, may hold '\n' */
	size_t len;
};

struct uk_rec_entry {
	int n;
	struct uk_rec_field *f;
};

struct uk_rec {
	struct uk_rec_entry e[UK_REC_ENTRIES];
	int n;				/* entries of the sends that succeeded */
	unsigned int calls;		/* sends, failed or not */
	int plan[UK_REC_PLAN];		/* results of the next sends */
	int plan_n, plan_pos;
	char bad[256];			/* first break of journald's rules */
};

extern struct uk_rec uk_rec;

void uk_rec_reset(void);
/* The next @n sends return @r (a negative errno, or 0). */
void uk_rec_plan(int r, int n);
int uk_rec_sendv(const struct iovec *iov, int n);

/* Entry @i; fails the test when fewer were recorded. */
const struct uk_rec_entry *uk_rec_entry(int i);
/* The value of @key, NULL if absent; a key sent twice fails the test. */
const char *uk_rec_val(const struct uk_rec_entry *e, const char *key);
void uk_rec_assert_val(const struct uk_rec_entry *e, const char *key,
		       const char *want);

#endif /* UK_TEST_JOURNAL_REC_H */
