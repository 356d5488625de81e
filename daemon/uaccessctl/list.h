/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of `uaccessctl list`: one row per entry, padded columns, a
 * HOSTNAME column when the entries come from several machines.  Each type
 * of entry (--type) has its own columns; entries of several types share
 * TIME, HOSTNAME, TYPE and MESSAGE.
 */
#ifndef UK_LIST_H
#define UK_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "entry.h"

/* The types of uaccessd's entries (their MESSAGE_IDs), for --type. */
enum uk_list_type {
	UK_LIST_EVENT,
	UK_LIST_LOSS,
	UK_LIST_SUMMARY,
	UK_LIST_HEALTH,
	UK_LIST_TYPES,
};

#define UK_LIST_TYPE_NAMES	"event, loss, summary, health or all"

/*
 * --type: one of the names, "all", or several separated by commas, as a
 * mask of 1 << enum uk_list_type.  0 or -EINVAL.
 */
int uk_list_type_parse(const char *s, unsigned int *mask);

/* The event layout's columns; the other types' are in list.c. */
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
	enum uk_list_type type;	/* by MESSAGE_ID; an entry without: event */
	/* the columns of its type's layout (TIME and HOSTNAME first) */
	char *cell[UK_LIST_COLUMNS];
	char *message;		/* MESSAGE, for a table of several types */
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
 * The table (table.h), fit to @width (0: no limit), in the columns of
 * the rows' type (TIME, TYPE and MESSAGE when they are of several);
 * HOSTNAME only when the rows come from several machines; with @legend a
 * header line first and "N entries listed." last.  0, -ENOMEM or -EIO.
 */
int uk_list_table_print(const struct uk_list_table *t, FILE *f, bool legend,
			unsigned int width);

#endif /* UK_LIST_H */
