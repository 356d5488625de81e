/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One field of a decoded message as text, the way the journal and the
 * CLI's text output show it.  JSON has its own writer (json.h).
 */
#ifndef UK_FORMAT_H
#define UK_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include "event.h"

/* Is the field's attribute present in @obj (its first member)? */
bool uk_field_present(const struct uk_field *f, const void *obj);

/*
 * Write @f of @obj into @buf: decimal numbers, 0x-prefixed hex for
 * addresses and hashes, enum names (the number when the name is unknown),
 * strings as they are.  Returns the length, truncated to @len - 1.
 */
size_t uk_field_format(const struct uk_field *f, const void *obj,
		       char *buf, size_t len);

/* The field of @fields for attribute @attr, or NULL. */
const struct uk_field *uk_field_by_attr(const struct uk_field *fields,
					int attr);

#endif /* UK_FORMAT_H */
