/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a command-line match of `uaccessctl list` and `show` means: a pid,
 * a journal field, or the function of the call site.  query.c adds the
 * result to its sd-journal query.
 */
#ifndef UK_MATCH_H
#define UK_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "entry.h"

#define UK_MATCH_MAX		1024	/* "FIELD=VALUE" with its NUL */
#define UK_MATCH_FIELD_MAX	UK_JOURNAL_FIELD_MAX

enum uk_match_type {
	UK_MATCH_PID,		/* "101": UACCESS_PID=101 */
	UK_MATCH_FIELD,		/* "FIELD=VALUE", or "seq=5": UACCESS_SEQ=5 */
	UK_MATCH_FUNCTION,	/* "waitid+0x1c/0x80": UACCESS_SITE_FUNCTION=waitid */
};

struct uk_match {
	enum uk_match_type type;
	size_t field_len;		/* of FIELD in @text */
	char text[UK_MATCH_MAX];	/* for sd_journal_add_match() */
};

/*
 * Typed matches, as coredumpctl takes them:
 *   - a decimal number is the task's pid (UACCESS_PID=N, leading zeros
 *     dropped);
 *   - FIELD=VALUE is a raw journal match: FIELD is a journal field name
 *     (upper case, digits, '_', not starting with a digit, at most 64
 *     bytes), or the lower-case name of a UACCESS_* field as the JSON
 *     output names it ("seq=5" is UACCESS_SEQ=5, "comm=poc" is
 *     UACCESS_COMM=poc);
 *   - anything else is the function of the call site, given alone or as
 *     printed in the kernel log ("waitid", "waitid+0x1c/0x80",
 *     "foo+0x10/0x20 [mod]"): UACCESS_SITE_FUNCTION=waitid.
 * Returns 0, -EINVAL (empty, "=x", an unknown lower-case field, a bad
 * field name, not a function name), -ERANGE (a pid beyond 32 bits) or
 * -ENAMETOOLONG, with a one-line reason in @why.
 */
int uk_match_parse(const char *arg, struct uk_match *m, char *why,
		   size_t whylen);

/* Does @m match on FIELD @field ("MESSAGE_ID")? */
bool uk_match_is_field(const struct uk_match *m, const char *field);

#endif /* UK_MATCH_H */
