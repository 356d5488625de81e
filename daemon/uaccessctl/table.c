// SPDX-License-Identifier: GPL-2.0
/* Aligned tables (table.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/event.h"
#include "table.h"
#include "text.h"

struct uk_cli_table {
	const struct uk_cli_column *cols;
	size_t ncols;
	size_t nrows, cap;
	char **cells;		/* nrows * ncols */
};

int uk_cli_table_new(const struct uk_cli_column *cols, size_t ncols,
		     struct uk_cli_table **ret)
{
	struct uk_cli_table *t;

	if (!ncols)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->cols = cols;
	t->ncols = ncols;
	*ret = t;
	return 0;
}

void uk_cli_table_free(struct uk_cli_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

int uk_cli_table_add(struct uk_cli_table *t, const char *const *cells)
{
	char buf[UK_SYMBOL_LEN * 2];
	size_t i, base;
	char **p;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;

		if (cap > SIZE_MAX / t->ncols / sizeof(*p))
			return -ENOMEM;
		p = realloc(t->cells, cap * t->ncols * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->cells = p;
		t->cap = cap;
	}
	base = t->nrows * t->ncols;
	for (i = 0; i < t->ncols; i++) {
		const char *c = cells[i] && cells[i][0] ? cells[i] : "-";

		t->cells[base + i] = strdup(uk_cli_sanitize(c, buf,
							    sizeof(buf)));
		if (!t->cells[base + i]) {
			while (i--)
				free(t->cells[base + i]);
			return -ENOMEM;
		}
	}
	t->nrows++;
	return 0;
}

size_t uk_cli_table_rows(const struct uk_cli_table *t)
{
	return t->nrows;
}

static void print_cell(FILE *out, const char *s, size_t width,
		       enum uk_cli_align align, bool last)
{
	size_t w = uk_cli_width(s);
	size_t pad = width > w ? width - w : 0;

	if (align == UK_CLI_RIGHT)
		fprintf(out, "%*s", (int)pad, "");
	fputs(s, out);
	if (align == UK_CLI_LEFT && !last)
		fprintf(out, "%*s", (int)pad, "");
}

static void print_row(const struct uk_cli_table *t, FILE *out,
		      const size_t *width, const char *const *cells)
{
	size_t i, last = t->ncols - 1;

	/* The last left-aligned column takes no padding: no trailing blanks. */
	for (i = 0; i < t->ncols; i++) {
		if (i)
			fputc(' ', out);
		print_cell(out, cells[i], width[i], t->cols[i].align,
			   i == last);
	}
	fputc('\n', out);
}

void uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
			bool header)
{
	const char *hdr[t->ncols];
	size_t width[t->ncols];
	size_t r, i, w;

	for (i = 0; i < t->ncols; i++) {
		hdr[i] = t->cols[i].header;
		width[i] = header ? uk_cli_width(hdr[i]) : 0;
		for (r = 0; r < t->nrows; r++) {
			w = uk_cli_width(t->cells[r * t->ncols + i]);
			if (w > width[i])
				width[i] = w;
		}
	}
	if (header)
		print_row(t, out, width, hdr);
	for (r = 0; r < t->nrows; r++)
		print_row(t, out, width,
			  (const char *const *)&t->cells[r * t->ncols]);
}
