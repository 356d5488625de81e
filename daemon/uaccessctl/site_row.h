/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One row of `uaccessctl sites` and `top`, whatever the source: the
 * kernel's dump-sites (sites.c), uaccessd's sites reply (sites.c) or the
 * journal's entries (fleet.c).  Each source fills a struct uk_site_row;
 * one emitter writes the JSON object of a row (uk_site_row_json()), one
 * the table (uk_site_rows_print()).  So a site gives the same JSON keys
 * with the same values from every source, except the keys a source does
 * not know: those are absent, never "" or null (docs/json-output.md).
 *
 * Times are microseconds, JSON numbers (below 2^53, exact in any JSON
 * reader), and the key says the unit: *_usec.
 */
#ifndef UK_CLI_SITE_ROW_H
#define UK_CLI_SITE_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "common/json.h"

#define UK_SITE_ROW_TEXT	48

/* Which members of struct uk_site_row a source filled. */
enum uk_site_row_has {
	UK_ROW_SITE_ID = 1 << 0,
	UK_ROW_SITE_SYMBOL = 1 << 1,
	UK_ROW_SITE_IP = 1 << 2,
	UK_ROW_KIND = 1 << 3,
	UK_ROW_HELPER = 1 << 4,
	UK_ROW_DIRECTION = 1 << 5,
	UK_ROW_COUNT = 1 << 6,
	UK_ROW_KERNEL_SUPPRESSED = 1 << 7,
	UK_ROW_KERNEL_REPORTED = 1 << 8,
	UK_ROW_EVENTS = 1 << 9,
	UK_ROW_JOURNALED = 1 << 10,
	UK_ROW_JOURNAL_SUPPRESSED = 1 << 11,
	UK_ROW_FIRST = 1 << 12,
	UK_ROW_LAST = 1 << 13,
	UK_ROW_FIRST_BOOT = 1 << 14,
	UK_ROW_LAST_BOOT = 1 << 15,
	UK_ROW_LAST_ADDRESS = 1 << 16,
};

struct uk_site_row {
	unsigned int has;		/* UK_ROW_* */
	uint64_t site_id;
	const char *site_symbol;	/* borrowed from the source */
	char site_ip[UK_SITE_ROW_TEXT];	/* "0x" and 16 hex digits */
	char kind[UK_SITE_ROW_TEXT];
	char helper[UK_SITE_ROW_TEXT];
	char direction[UK_SITE_ROW_TEXT];
	uint64_t count;			/* the kernel's hits */
	uint64_t kernel_suppressed;	/* held back by its ratelimit */
	uint64_t kernel_reported;
	uint64_t events;		/* occurrences uaccessd received */
	uint64_t journaled;		/* ...that became an event entry */
	uint64_t journal_suppressed;	/* ...held back by its ratelimits */
	uint64_t first_usec, last_usec;	/* CLOCK_REALTIME */
	uint64_t first_boot_usec, last_boot_usec;	/* CLOCK_BOOTTIME */
	char last_address[UK_SITE_ROW_TEXT];
	const char *label;		/* the HOSTNAME column (journal) */
};

/* Sets @field (a char array of the row) and its bit. */
void uk_site_row_text(struct uk_site_row *r, unsigned int bit, char *field,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The row's keys, inside an object the caller opened (so that it may add
 * what only its source has), in one order: site_id, site_symbol, site_ip,
 * kind, helper, direction, count, kernel_suppressed, kernel_reported,
 * events, journaled, journal_suppressed, first_usec, last_usec,
 * first_boot_usec, last_boot_usec, last_address.
 */
void uk_site_row_json(struct uk_json *j, const struct uk_site_row *r);

/* The table's columns; a source picks which, and their order. */
enum uk_site_col {
	UK_COL_HOSTNAME,
	UK_COL_COUNT,
	UK_COL_EVENTS,
	UK_COL_JOURNALED,
	UK_COL_SUPPRESSED,	/* kernel_suppressed + journal_suppressed */
	UK_COL_KIND,
	UK_COL_HELPER,
	UK_COL_DIR,
	UK_COL_SITE,		/* the symbol, else the address */
	UK_COL_FIRST,
	UK_COL_LAST,
};

/*
 * The rows as a table of @cols, fit to cli->columns (table.h), with a
 * header unless --no-legend.  Returns 0, or prints why and returns an
 * error.
 */
int uk_site_rows_print(const struct uk_cli *cli, const struct uk_site_row *rows,
		       size_t n, const enum uk_site_col *cols, size_t ncols);

#endif /* UK_CLI_SITE_ROW_H */
