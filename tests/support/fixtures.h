/* SPDX-License-Identifier: GPL-2.0 */
/* Fixtures the unit tests share. */
#ifndef UK_TEST_FIXTURES_H
#define UK_TEST_FIXTURES_H

#include <stdint.h>

#include "common/event.h"

/* Local time is @tz ("UTC", "Europe/Berlin") from now on. */
void uk_test_set_tz(const char *tz);
/* A cmocka group setup: local time is UTC, so that outputs are fixed. */
int uk_test_utc(void **state);

/*
 * A fault event with every attribute of the event table set (the STACK
 * bit too when @nr_frames is not 0): seq 42, __copy_from_user, pid 1234
 * "poc", at vuln_ioctl+0x1c/0x80 [uk_test], frames frame_I+0x../0x100.
 */
void uk_test_fill_event(struct uk_event *ev, unsigned int nr_frames,
			uint32_t stack_hash);

#endif /* UK_TEST_FIXTURES_H */
