/* SPDX-License-Identifier: GPL-2.0 */
/* Aligned tables of text cells. */
#ifndef UK_CLI_TABLE_H
#define UK_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum uk_cli_align {
	UK_CLI_LEFT,
	UK_CLI_RIGHT,
};

struct uk_cli_column {
	const char *header;
	enum uk_cli_align align;
};

struct uk_cli_table;

/* @cols must outlive the table.  -ENOMEM. */
int uk_cli_table_new(const struct uk_cli_column *cols, size_t ncols,
		     struct uk_cli_table **ret);
void uk_cli_table_free(struct uk_cli_table *t);
/*
 * Adds a row of ncols cells (NULL: "-"), copied and sanitized.  -ENOMEM.
 */
int uk_cli_table_add(struct uk_cli_table *t, const char *const *cells);
size_t uk_cli_table_rows(const struct uk_cli_table *t);
/*
 * Prints the rows, each column as wide as its widest cell (and its header
 * when @header), separated by one space, numbers right-aligned, no
 * trailing blanks.
 */
void uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
			bool header);

#endif /* UK_CLI_TABLE_H */
