/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule of docs/json-output.md for uaccessctl's documents, as a
 * cmocka check: times are microseconds, under a key ending in _usec, and
 * no JSON number is above 2^53 (jq and JavaScript read numbers as
 * doubles).
 */
#ifndef UK_TEST_JSON_TIMES_H
#define UK_TEST_JSON_TIMES_H

#include <stdbool.h>

#include "common/json.h"

/* Would a key name a time?  Its parts say so: "ts_boot", "last_usec". */
bool uk_is_time_key(const char *name);

/*
 * Fails the test, naming @where, at every time key of @v (at any depth)
 * that does not end in _usec or whose value is not an integer, and at
 * every number of 2^53 or more.  Returns how many time keys it saw.
 */
unsigned int uk_check_json_times(const struct uk_json_value *v,
				 const char *where);

#endif /* UK_TEST_JSON_TIMES_H */
