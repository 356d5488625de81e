/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure half of `uaccessctl list` and `show` (query.c does the
 * sd-journal IO): what a command-line match means, what a --since/--until
 * time means, and how an entry, held as its journal fields, is shown as a
 * table row, a detail block or a JSON object.  Nothing here touches the
 * journal, the clock or the time zone beyond what the caller passes (the
 * local time zone of the process is used for local times), so that the
 * unit tests can drive it with fixed inputs.
 */
#ifndef UK_CLI_MATCH_H
#define UK_CLI_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json.h"

/* ---- matches ---- */

#define UK_MATCH_MAX		1024	/* "FIELD=VALUE" with its NUL */
#define UK_MATCH_FIELD_MAX	64	/* journal field names (journald's) */

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

/* ---- times ---- */

/*
 * A time as journalctl's --since/--until take it, in microseconds since
 * the epoch, local time unless it ends in " UTC":
 *   "2026-12-03 07:12:01", "2026-12-03 07:12", "2026-12-03" (midnight),
 *   "2026-12-03T07:12:01", with ".123456" after the seconds if wanted,
 *   "07:12:01" or "07:12" (today), "now", "today", "yesterday",
 *   "tomorrow", "@1764000000" (seconds since the epoch),
 *   relative to @now_usec: "-1h", "+30min", "1h ago", "2 days ago",
 *   "1h 30min ago", "-1d12h" (us, ms, s, min, h, d, w, M, y and their
 *   long forms; a bare number is seconds).
 * Returns 0, -EINVAL (with a reason in @why) or -ERANGE (before the
 * epoch, beyond 64 bits).
 */
int uk_time_parse(const char *s, uint64_t now_usec, uint64_t *ret,
		  char *why, size_t whylen);

/* "Thu 2026-12-03 07:12:01 UTC", local time; returns @buf. */
char *uk_time_format(uint64_t usec, char *buf, size_t len);

/* "2h 3min ago", "5s left", "now", as systemd says it; returns @buf. */
char *uk_time_format_relative(uint64_t usec, uint64_t now_usec, char *buf,
			      size_t len);

/* ---- entries ---- */

struct uk_entry_field {
	char *name;		/* "UACCESS_PID", NUL-terminated */
	char *value;		/* NUL-terminated, may hold other NULs */
	size_t value_len;
};

/* One journal entry: its fields as sd_journal_enumerate_data() gives them. */
struct uk_entry {
	uint64_t realtime_usec;	/* the journal's time of the entry */
	char *cursor;		/* NULL if not known */
	struct uk_entry_field *fields;
	size_t n, cap;
};

void uk_entry_init(struct uk_entry *e);
void uk_entry_release(struct uk_entry *e);
/*
 * Add a "FIELD=value" datum of @len bytes (a copy is kept).  -EINVAL if
 * it has no '=' or an empty FIELD, -ENOMEM.
 */
int uk_entry_add(struct uk_entry *e, const void *data, size_t len);
/* The value of the first field @name, or NULL; its length in *len. */
const char *uk_entry_get(const struct uk_entry *e, const char *name,
			 size_t *len);

/*
 * The JSON object of an entry: "time" (the journal's, microseconds since
 * the epoch), "hostname", "machine_id", "boot_id", "message_id",
 * "message", "priority", then every UACCESS_* field, named in lower case
 * without the prefix ("seq", "site_function", "stack"...): numbers for
 * the numeric fields of the event table and the counts, "stack" as an
 * array of frames, strings for the rest.  With @full, also "cursor" and
 * "catalog" (when @catalog is given).
 */
void uk_entry_json(struct uk_json *j, const struct uk_entry *e, bool full,
		   const char *catalog);

/*
 * The detail block of `uaccessctl show`: one "Label: value" line per
 * field, the stack one frame per line, then @catalog (if not NULL) with
 * "-- " before each line, as journalctl -x shows it.  Returns 0 or
 * -EIO if writing to @f failed.
 */
int uk_entry_show(FILE *f, const struct uk_entry *e, uint64_t now_usec,
		  const char *catalog);

/* ---- the list table ---- */

enum {
	UK_LIST_TIME,
	UK_LIST_HOSTNAME,
	UK_LIST_PID,
	UK_LIST_COMM,
	UK_LIST_HELPER,
	UK_LIST_DIR,
	UK_LIST_ADDRESS,
	UK_LIST_SITE,
	UK_LIST_KIND,
	UK_LIST_COLUMNS,
};

struct uk_list_row {
	char *cell[UK_LIST_COLUMNS];
	char *machine;		/* _MACHINE_ID, or _HOSTNAME without one */
};

struct uk_list_table {
	struct uk_list_row *rows;
	size_t n, cap;
};

void uk_list_table_init(struct uk_list_table *t);
void uk_list_table_release(struct uk_list_table *t);
/* A row for @e, its cells made printable; -ENOMEM. */
int uk_list_table_add(struct uk_list_table *t, const struct uk_entry *e);
/* Do the rows come from more than one machine (the HOSTNAME column)? */
bool uk_list_table_fleet(const struct uk_list_table *t);
/*
 * The table, columns padded to their widest cell; HOSTNAME only when the
 * rows come from several machines; with @legend a header line first and
 * an "N entries listed." footer.  Returns 0 or -EIO.
 */
int uk_list_table_print(const struct uk_list_table *t, FILE *f, bool legend);

#endif /* UK_CLI_MATCH_H */
