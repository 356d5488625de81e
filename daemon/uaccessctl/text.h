/* SPDX-License-Identifier: GPL-2.0 */
/* Text fit for a terminal: sanitized, measured, as "key value" lines. */
#ifndef UK_CLI_TEXT_H
#define UK_CLI_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "common/fields.h"
#include "common/json.h"

/*
 * Copies @in to @out (cut to @outlen - 1 bytes at a character boundary)
 * with control characters, C1 controls and invalid UTF-8 bytes replaced
 * by '?', so that a task name cannot move the cursor or fake a line.
 * Returns @out.
 */
char *uk_cli_sanitize(const char *in, char *out, size_t outlen);
/*
 * @len bytes (a journal value: may hold NULs, shown up to the first)
 * sanitized the same way into @out.
 */
void uk_cli_sanitize_n(const char *s, size_t len, char *out, size_t outlen);
/* A sanitized copy of @len bytes of @s; NULL on ENOMEM. */
char *uk_cli_sanitize_dup(const char *s, size_t len);

/* Columns a UTF-8 string takes (one per character). */
size_t uk_cli_width(const char *s);

/* A "key value" line; NULL or "" values print as "-", text sanitized. */
void uk_cli_kv(FILE *out, const char *key, const char *value);

/*
 * A parsed JSON value as "key value" lines: an object gives one line per
 * member, keyed PREFIX.MEMBER (recursively); an array of scalars one line
 * with the items separated by spaces ("-" when empty); booleans are
 * "yes"/"no", null and "" are "-".
 */
void uk_cli_kv_json(FILE *out, const char *prefix,
		    const struct uk_json_value *v);

/* Every present field of a decoded message as PREFIX.NAME lines. */
void uk_cli_kv_fields(FILE *out, const char *prefix,
		      const struct uk_field *fields, const void *obj);

#endif /* UK_CLI_TEXT_H */
