/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One journal entry as uaccessctl's journal verbs hold it (its fields as
 * sd_journal_enumerate_data() gives them), and the entry as JSON.
 */
#ifndef UK_ENTRY_H
#define UK_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json.h"

/* The longest journal field name (journald's limit). */
#define UK_JOURNAL_FIELD_MAX	64

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
 * The JSON object of an entry: "journal_usec" (the journal's time,
 * microseconds since the epoch), "hostname", "machine_id", "boot_id",
 * "message_id", "message", "priority", then every UACCESS_* field, named
 * in lower case without the prefix ("seq", "site_function", "stack"...):
 * numbers for the numeric fields of the event table and the counts, but
 * the event's nanosecond times in microseconds as "time_usec" and
 * "boot_usec" (uk_cli_usec_key()), "stack" as an array of frames,
 * strings for the rest.  With @full, also "cursor" and "catalog" (when
 * @catalog is given).
 */
void uk_entry_json(struct uk_json *j, const struct uk_entry *e, bool full,
		   const char *catalog);

/* The first field @name, or NULL. */
const struct uk_entry_field *uk_entry_find(const struct uk_entry *e,
					   const char *name);
/* The value of the first field @name if it is a string without NULs. */
const char *uk_entry_str(const struct uk_entry *e, const char *name);

/*
 * The detail block of `uaccessctl show`: one "Label: value" line per
 * field, the stack one frame per line, then @catalog (if not NULL) with
 * "-- " before each line, as journalctl -x shows it.  Returns 0 or
 * -EIO if writing to @f failed.
 */
int uk_show_entry(FILE *f, const struct uk_entry *e, uint64_t now_usec,
		  const char *catalog);

#endif /* UK_ENTRY_H */
