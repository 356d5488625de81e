/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables of text cells, printed by libsmartcols (util-linux's, as lsblk's
 * and findmnt's): columns as wide as their widest cell in display
 * columns, one space apart, numbers right-aligned, no trailing blanks.
 *
 * Fit to a width (a terminal's): the column marked UK_CLI_TRUNC (the long
 * one: a symbol, a message) is cut to what is left, its cut cells ending
 * in an ellipsis; when even that leaves it less than UK_CLI_TRUNC_MIN
 * columns, the columns with a drop rank are left out first, rank 1
 * first.  Width 0: no limit (a pipe, a file, --full).
 */
#ifndef UK_CLI_TABLE_H
#define UK_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum uk_cli_align {
	UK_CLI_LEFT,
	UK_CLI_RIGHT,
};

#define UK_CLI_TRUNC		(1u << 0)
#define UK_CLI_TRUNC_MIN	20

struct uk_cli_column {
	const char *header;
	enum uk_cli_align align;
	unsigned int flags;	/* UK_CLI_TRUNC */
	unsigned int drop;	/* 0: always shown; else left out by rank */
};

struct uk_cli_table;

/* @cols must outlive the table.  -EINVAL for no column, -ENOMEM. */
int uk_cli_table_new(const struct uk_cli_column *cols, size_t ncols,
		     struct uk_cli_table **ret);
void uk_cli_table_free(struct uk_cli_table *t);
/*
 * Adds a row of ncols cells (NULL or "": "-"), copied and sanitized.
 * -ENOMEM.
 */
int uk_cli_table_add(struct uk_cli_table *t, const char *const *cells);
size_t uk_cli_table_rows(const struct uk_cli_table *t);
/* Leaves column @col out of the table (or puts it back). */
void uk_cli_table_hide(struct uk_cli_table *t, size_t col, bool hide);
/*
 * Prints the rows (and the header when @header) to @out, fit to @width
 * display columns (0: no limit).  0, -ENOMEM or -EIO.
 */
int uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
		       bool header, unsigned int width);

#endif /* UK_CLI_TABLE_H */
