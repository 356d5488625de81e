/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text fit for a terminal: sanitized, measured, as "key value" lines,
 * highlighted or not.
 */
#ifndef UK_CLI_TEXT_H
#define UK_CLI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdint.h>
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

/*
 * The display width of a string (wcwidth() in the locale: a CJK
 * character takes 2, a combining accent 0; 1 per character where the
 * locale cannot tell).
 */
size_t uk_cli_width(const char *s);
/*
 * The longest prefix of @s at most @max display columns wide: its length
 * in bytes, its width in *width.
 */
size_t uk_cli_width_prefix(const char *s, size_t max, size_t *width);

/*
 * The width tables are fit to, as systemd's tools choose it: none (0)
 * with @full (--full); else $COLUMNS (@env) when it is a number; else on a
 * terminal (@tty) its width (TIOCGWINSZ on @fd), 80 when unknown; else
 * none: a pipe or a file gets whole lines.
 */
unsigned int uk_cli_columns(bool full, const char *env, bool tty, int fd);

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

/*
 * Whether to highlight, as systemd decides it: $SYSTEMD_COLORS (a
 * boolean; "16", "256" and "24bit" are true) when set, else never with
 * $NO_COLOR set or $TERM "dumb" (or unset), else when stdout is a
 * terminal (@tty).  The environment's values are NULL when unset.
 */
bool uk_cli_color_mode(bool tty, const char *systemd_colors,
		       const char *no_color, const char *term);

/* @one when @n is 1, else @more. */
const char *uk_cli_plural(uint64_t n, const char *one, const char *more);

#endif /* UK_CLI_TEXT_H */
