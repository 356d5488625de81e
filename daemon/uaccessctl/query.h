/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The journal side of uaccessctl's journal verbs (list, show, and sites
 * and top with --directory, --since, --until or --boot): the command
 * line's matches, boot and time window turned into an sd-journal query,
 * and a walk over the entries in the window.  query.c.
 */
#ifndef UK_CLI_JOURNAL_H
#define UK_CLI_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-journal.h>

#include "cli.h"
#include "entry.h"
#include "match.h"

struct uk_query {
	struct uk_cli cli;		/* the global options */
	uint64_t now;			/* CLOCK_REALTIME, usec */
	uint64_t since, until;		/* usec, when cli.since/until given */
	struct uk_match *matches;
	int n_matches;
	/* MESSAGE_IDs selected unless a match names one (NULL-ended) */
	const char *const *msgids;
	sd_journal *j;
	/* --directory: journal files there that sd-journal could not open */
	char **bad_files;
	size_t n_bad_files;
	size_t n_denied_files;	/* of them, for want of permission */
};

/*
 * Reads the time window and the matches (@argc/@argv, after the verb),
 * opens the journal (--directory or the system's), and adds the matches,
 * the boot and the MESSAGE_IDs of @msgids (NULL: uaccessd's events only)
 * unless a match selects a MESSAGE_ID itself.  Each journal file of a
 * --directory that cannot be read is named on stderr and kept in
 * bad_files.  Returns 0 or a negative errno (printed);
 * uk_query_release() either way.
 */
int uk_query_init(struct uk_query *q, const struct uk_cli *cli, int argc,
		  char **argv, const char *const *msgids);
void uk_query_release(struct uk_query *q);

typedef int (*uk_query_fn)(struct uk_query *q, const struct uk_entry *e,
			   void *data);

/*
 * Calls @fn for each entry in the window, oldest first; with cli.lines
 * for the last N of them; with @cursor, each entry's cursor is loaded.
 * An entry that cannot be read is skipped with a message.  Returns how
 * many entries @fn saw, or a negative errno (printed), or @fn's
 * negative return, which stops the walk.
 */
int64_t uk_query_walk(struct uk_query *q, bool cursor, uk_query_fn fn,
		      void *data);

/* What list and show print around the entries. */

/* "No entries found." (and "[]" for JSON); -ENODATA. */
int uk_query_no_entries(const struct uk_query *q);

/* JSON output: one object per line inside one array, written as they come. */
struct uk_query_json {
	bool full;		/* uk_entry_json()'s @full */
	uint64_t n;		/* objects written */
};

int uk_query_json_put(struct uk_query *q, const struct uk_entry *e,
		      const char *catalog, struct uk_query_json *jo);
int uk_query_json_end(struct uk_query *q);

/*
 * The walk of list and show: @fn (given @data) for each entry; with
 * --json the array written by uk_query_json_put() through @jo is closed,
 * after an error too.  0 when there were entries, -ENODATA after "No
 * entries found.", or the walk's negative errno.
 */
int uk_query_entries(struct uk_query *q, bool cursor, uk_query_fn fn,
		     void *data, struct uk_query_json *jo);

/*
 * @r, or UK_ERR_FAILURE with a message when the entries were shown but
 * not those of the journal files that could not be read.
 */
int uk_query_files_left_out(struct uk_query *q, int r);

#endif /* UK_CLI_JOURNAL_H */
