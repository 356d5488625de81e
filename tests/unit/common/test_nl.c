// SPDX-License-Identifier: GPL-2.0
/*
 * The datagram walk (uk_nl_walk() in daemon/common/nl.c) that uaccessd's
 * pipeline, uaccessctl monitor and the controller watch share: every
 * message handed over with its length, padding, the two malformed
 * shapes after the good messages before them, and an early stop.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/netlink.h>
#include <cmocka.h>

#include "common/nl.h"

struct seen {
	size_t n, len[8], off[8];
	const char *base;
	size_t stop_after;
};

static int record(const struct nlmsghdr *nlh, size_t len, void *data)
{
	struct seen *s = data;

	s->off[s->n] = (size_t)((const char *)nlh - s->base);
	s->len[s->n++] = len;
	return s->stop_after && s->n == s->stop_after ? 7 : 0;
}

/* A message of @len bytes (header included) at @off of @buf. */
static void put(char *buf, size_t off, uint32_t len)
{
	struct nlmsghdr h = { .nlmsg_len = len, .nlmsg_type = 0x20 };

	memcpy(buf + off, &h, sizeof(h));
}

static void every_message_is_handed_over_with_its_length(void **state)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct seen s = { .base = buf };
	char why[96] = "";

	put(buf, 0, 20);	/* padded to 20 */
	put(buf, 20, 18);	/* padded to 20 */
	put(buf, 40, 17);	/* the last one: its padding may be missing */
	assert_int_equal(uk_nl_walk(buf, 57, record, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.off[1], 20);
	assert_int_equal(s.len[1], 18);
	assert_int_equal(s.off[2], 40);
	assert_int_equal(s.len[2], 17);
	assert_string_equal(why, "");
	assert_int_equal(uk_nl_walk(buf, 0, record, &s, why, sizeof(why)), 0);
}

static void bad_lengths_stop_the_walk_after_the_good_messages(void **state)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct seen s = { .base = buf };
	char why[96];

	put(buf, 0, 20);
	put(buf, 20, 8);	/* shorter than the header */
	assert_int_equal(uk_nl_walk(buf, 60, record, &s, why, sizeof(why)),
			 -EBADMSG);
	assert_int_equal(s.n, 1);
	assert_string_equal(why, "message length 8 at offset 20");
	memset(&s, 0, sizeof(s));
	s.base = buf;
	put(buf, 20, 41);	/* past the end */
	assert_int_equal(uk_nl_walk(buf, 60, record, &s, why, sizeof(why)),
			 -EBADMSG);
	assert_string_equal(why, "message length 41 at offset 20");
	assert_int_equal(s.n, 1);
}

static void stray_bytes_after_the_last_message_are_malformed(void **state)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct seen s = { .base = buf };
	char why[96];

	put(buf, 0, 20);
	assert_int_equal(uk_nl_walk(buf, 30, record, &s, why, sizeof(why)),
			 -EMSGSIZE);
	assert_int_equal(s.n, 1);
	assert_string_equal(why, "10 stray bytes at offset 20");
	/* too short for any header at all */
	memset(&s, 0, sizeof(s));
	s.base = buf;
	assert_int_equal(uk_nl_walk(buf, 15, record, &s, NULL, 0), -EMSGSIZE);
	assert_int_equal(s.n, 0);
}

static void the_callback_stops_the_walk(void **state)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct seen s = { .base = buf, .stop_after = 2 };

	put(buf, 0, 20);
	put(buf, 20, 20);
	put(buf, 40, 20);
	assert_int_equal(uk_nl_walk(buf, 60, record, &s, NULL, 0), 7);
	assert_int_equal(s.n, 2);
}

int main(void)
{
	const struct CMUnitTest nl[] = {
		cmocka_unit_test(every_message_is_handed_over_with_its_length),
		cmocka_unit_test(bad_lengths_stop_the_walk_after_the_good_messages),
		cmocka_unit_test(stray_bytes_after_the_last_message_are_malformed),
		cmocka_unit_test(the_callback_stops_the_walk),
	};

	return cmocka_run_group_tests(nl, NULL, NULL);
}
