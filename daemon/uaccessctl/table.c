// SPDX-License-Identifier: GPL-2.0
/*
 * Tables (table.h).  libsmartcols lays them out; the fitting is done here
 * before: libsmartcols 2.38 cuts a column without an ellipsis and never
 * leaves one out, so that a table wider than the terminal would still
 * wrap.
 */
#include <errno.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <libsmartcols.h>

#include "common/event.h"
#include "table.h"
#include "text.h"

struct uk_cli_table {
	const struct uk_cli_column *cols;
	size_t ncols;
	size_t nrows, cap;
	char **cells;		/* nrows * ncols */
	bool *hidden;		/* ncols */
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
	t->hidden = calloc(ncols, sizeof(*t->hidden));
	if (!t->hidden) {
		free(t);
		return -ENOMEM;
	}
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
	free(t->hidden);
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

void uk_cli_table_hide(struct uk_cli_table *t, size_t col, bool hide)
{
	if (col < t->ncols)
		t->hidden[col] = hide;
}

static const char *cell(const struct uk_cli_table *t, size_t row, size_t col)
{
	return t->cells[row * t->ncols + col];
}

/*
 * What @width leaves the UK_CLI_TRUNC column: its width, with columns
 * left out in @hidden as needed; (size_t)-1 when it need not be cut.
 */
static size_t fit(const struct uk_cli_table *t, bool header,
		  unsigned int width, bool *hidden)
{
	size_t natural[t->ncols], total, trunc = t->ncols, r, c, least;
	unsigned int rank;

	for (c = 0; c < t->ncols; c++) {
		natural[c] = header ? uk_cli_width(t->cols[c].header) : 0;
		for (r = 0; r < t->nrows; r++) {
			size_t w = uk_cli_width(cell(t, r, c));

			if (w > natural[c])
				natural[c] = w;
		}
		if (t->cols[c].flags & UK_CLI_TRUNC)
			trunc = c;
	}
	for (rank = 1;; rank++) {
		size_t shown = 0;

		total = 0;
		for (c = 0; c < t->ncols; c++) {
			if (hidden[c])
				continue;
			total += natural[c];
			shown++;
		}
		total += shown ? shown - 1 : 0;
		if (!width || total <= width)
			return (size_t)-1;
		if (trunc == t->ncols || hidden[trunc])
			return (size_t)-1;
		least = natural[trunc] < UK_CLI_TRUNC_MIN ?
			natural[trunc] : UK_CLI_TRUNC_MIN;
		if (total - natural[trunc] + least <= width)
			return width - (total - natural[trunc]);
		/* Too narrow even so: the next rank's columns go. */
		for (c = 0, shown = 0; c < t->ncols; c++)
			if (t->cols[c].drop == rank && !hidden[c]) {
				hidden[c] = true;
				shown++;
			}
		for (c = 0; c < t->ncols; c++)
			if (t->cols[c].drop > rank)
				break;
		if (!shown && c == t->ncols)
			return least;	/* nothing left to drop: cut all we can */
	}
}

/* @s cut to @width display columns, the last one an ellipsis. */
static char *ellipsize(const char *s, size_t width)
{
	bool utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	const char *dots = utf8 ? "\xe2\x80\xa6" : "...";
	size_t dots_w = utf8 ? 1 : 3, keep, w = 0;
	char *out;

	if (width < dots_w)
		return strndup(s, 0);
	keep = uk_cli_width_prefix(s, width - dots_w, &w);
	out = malloc(keep + strlen(dots) + 1);
	if (!out)
		return NULL;
	memcpy(out, s, keep);
	strcpy(out + keep, dots);
	return out;
}

/* libsmartcols prints nothing for no rows: the header alone, here. */
static int print_header(const struct uk_cli_table *t, FILE *out,
			bool header, const bool *hidden)
{
	bool first = true;
	size_t c;

	if (!header)
		return 0;
	for (c = 0; c < t->ncols; c++) {
		if (hidden[c])
			continue;
		fprintf(out, "%s%s", first ? "" : " ", t->cols[c].header);
		first = false;
	}
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

int uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
		       bool header, unsigned int width)
{
	struct libscols_table *tb = scols_new_table();
	bool hidden[t->ncols];
	size_t r, c, cut;
	int ret = -ENOMEM;

	if (!tb)
		return -ENOMEM;
	memcpy(hidden, t->hidden, sizeof(hidden));
	cut = fit(t, header, width, hidden);
	/* Fit already: libsmartcols must not reduce it again. */
	scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	scols_table_enable_noheadings(tb, !header);
	scols_table_enable_noencoding(tb, 1);
	scols_table_set_stream(tb, out);
	for (c = 0; c < t->ncols; c++)
		if (!hidden[c] &&
		    /* Without a header, its width must not count. */
		    !scols_table_new_column(tb, header ? t->cols[c].header :
					    NULL, 0,
					    t->cols[c].align == UK_CLI_RIGHT ?
					    SCOLS_FL_RIGHT : 0))
			goto out;
	for (r = 0; r < t->nrows; r++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		size_t k = 0;

		if (!ln)
			goto out;
		for (c = 0; c < t->ncols; c++) {
			const char *s = cell(t, r, c);
			char *cutted = NULL;

			if (hidden[c])
				continue;
			if (cut != (size_t)-1 &&
			    (t->cols[c].flags & UK_CLI_TRUNC) &&
			    uk_cli_width(s) > cut) {
				cutted = ellipsize(s, cut);
				if (!cutted ||
				    scols_line_refer_data(ln, k, cutted) < 0) {
					free(cutted);
					goto out;
				}
			} else if (scols_line_set_data(ln, k, s) < 0) {
				goto out;
			}
			k++;
		}
	}
	if (t->nrows)
		ret = scols_print_table(tb) < 0 ? -EIO : 0;
	else
		ret = print_header(t, out, header, hidden);
out:
	scols_unref_table(tb);
	return ret;
}
