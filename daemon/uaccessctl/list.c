// SPDX-License-Identifier: GPL-2.0
/* `uaccessctl list`: the table (list.h) and the verb. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "common/time.h"
#include "common/util.h"
#include "entry.h"
#include "label.h"
#include "list.h"
#include "output.h"
#include "query.h"

static const char *const uk_list_field[UK_LIST_COLUMNS] = {
	[UK_LIST_HOSTNAME] = "_HOSTNAME",
	[UK_LIST_PID] = UK_JF(PID),
	[UK_LIST_COMM] = UK_JF(COMM),
	[UK_LIST_HELPER] = UK_JF(HELPER),
	[UK_LIST_DIR] = UK_JF(DIRECTION),
	[UK_LIST_ADDRESS] = UK_JF(ADDRESS),
	[UK_LIST_SITE] = UK_JF(SITE_SYMBOL),
	[UK_LIST_KIND] = UK_JF(KIND),
};

void uk_list_table_init(struct uk_list_table *t)
{
	memset(t, 0, sizeof(*t));
}

static void row_release(struct uk_list_row *row)
{
	int c;

	for (c = 0; c < UK_LIST_COLUMNS; c++)
		free(row->cell[c]);
	free(row->machine);
}

void uk_list_table_release(struct uk_list_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		row_release(&t->rows[i]);
	free(t->rows);
	uk_list_table_init(t);
}

int uk_list_table_add(struct uk_list_table *t, const struct uk_entry *e)
{
	const struct uk_entry_field *m;
	struct uk_list_row row = { 0 };
	char tbuf[64];
	int c;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct uk_list_row *rows = reallocarray(t->rows, cap,
							sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		t->rows = rows;
		t->cap = cap;
	}
	uk_time_format(e->realtime_usec, tbuf, sizeof(tbuf));
	row.cell[UK_LIST_TIME] = strdup(tbuf);
	if (!row.cell[UK_LIST_TIME])
		goto nomem;
	for (c = 0; c < UK_LIST_COLUMNS; c++) {
		const struct uk_entry_field *f;

		if (!uk_list_field[c])
			continue;
		f = uk_entry_find(e, uk_list_field[c]);
		row.cell[c] = f && f->value_len ?
			      uk_cli_sanitize_dup(f->value, f->value_len) : strdup("-");
		if (!row.cell[c])
			goto nomem;
	}
	m = uk_entry_find(e, "_MACHINE_ID");
	if (!m)
		m = uk_entry_find(e, "_HOSTNAME");
	if (m) {
		row.machine = uk_cli_sanitize_dup(m->value, m->value_len);
		if (!row.machine)
			goto nomem;
	}
	t->rows[t->n++] = row;
	return 0;
nomem:
	row_release(&row);
	return -ENOMEM;
}

bool uk_list_table_fleet(const struct uk_list_table *t)
{
	size_t i;

	for (i = 1; i < t->n; i++) {
		const char *a = t->rows[0].machine, *b = t->rows[i].machine;

		if (!a != !b || (a && strcmp(a, b)))
			return true;
	}
	return false;
}

/*
 * A fleet's HOSTNAME cells: the host name, or where two machines share
 * one (or one has none), the name and the machine ID's first 8 digits,
 * as uaccessctl top labels machines (uk_label_host()).  Returns the
 * cells, row by row, or NULL (then the host names are shown as they are).
 */
static char **host_labels(const struct uk_list_table *t)
{
	struct pair {
		const char *host, *machine;
		char *label;
	} *pairs = NULL, *np;
	size_t n = 0, i, k, *at = calloc(t->n ? t->n : 1, sizeof(*at));
	char **cells = calloc(t->n ? t->n : 1, sizeof(*cells));

	if (!at || !cells)
		goto fail;
	for (i = 0; i < t->n; i++) {
		const char *h = t->rows[i].cell[UK_LIST_HOSTNAME];
		const char *m = t->rows[i].machine ? t->rows[i].machine : "";

		for (k = 0; k < n; k++)
			if (!strcmp(pairs[k].host, h) &&
			    !strcmp(pairs[k].machine, m))
				break;
		if (k == n) {
			np = reallocarray(pairs, n + 1, sizeof(*pairs));
			if (!np)
				goto fail;
			pairs = np;
			pairs[n++] = (struct pair){ h, m, NULL };
		}
		at[i] = k;
	}
	for (k = 0; k < n; k++) {
		char buf[UK_LABEL_LEN];
		const char *h = strcmp(pairs[k].host, "-") ? pairs[k].host : NULL;
		bool ambiguous = !h;

		for (i = 0; i < n && !ambiguous; i++)
			ambiguous = i != k && !strcmp(pairs[i].host, pairs[k].host) &&
				    strcmp(pairs[i].machine, pairs[k].machine);
		/* Without a machine ID, .machine is the host name itself. */
		uk_label_host(h, strcmp(pairs[k].machine, pairs[k].host) ?
			       pairs[k].machine : NULL, ambiguous, buf,
			       sizeof(buf));
		pairs[k].label = strdup(buf);
		if (!pairs[k].label)
			goto fail;
	}
	for (i = 0; i < t->n; i++) {
		cells[i] = strdup(pairs[at[i]].label);
		if (!cells[i])
			goto fail;
	}
	goto out;
fail:
	for (i = 0; cells && i < t->n; i++)
		free(cells[i]);
	free(cells);
	cells = NULL;
out:
	for (k = 0; k < n; k++)
		free(pairs[k].label);
	free(pairs);
	free(at);
	return cells;
}

/*
 * The columns: SITE is cut to the terminal; ADDRESS goes first when even
 * so the table does not fit, then KIND, then DIR.
 */
static const struct uk_cli_column uk_list_column[UK_LIST_COLUMNS] = {
	[UK_LIST_TIME] = { "TIME", UK_CLI_LEFT, 0, 0 },
	[UK_LIST_HOSTNAME] = { "HOSTNAME", UK_CLI_LEFT, 0, 0 },
	[UK_LIST_PID] = { "PID", UK_CLI_RIGHT, 0, 0 },
	[UK_LIST_COMM] = { "COMM", UK_CLI_LEFT, 0, 0 },
	[UK_LIST_HELPER] = { "HELPER", UK_CLI_LEFT, 0, 0 },
	[UK_LIST_DIR] = { "DIR", UK_CLI_LEFT, 0, 3 },
	[UK_LIST_ADDRESS] = { "ADDRESS", UK_CLI_LEFT, 0, 1 },
	[UK_LIST_SITE] = { "SITE", UK_CLI_LEFT, UK_CLI_TRUNC, 0 },
	[UK_LIST_KIND] = { "KIND", UK_CLI_LEFT, 0, 2 },
};

int uk_list_table_print(const struct uk_list_table *t, FILE *f, bool legend,
			unsigned int width)
{
	struct uk_cli_table *tab = NULL;
	const char *cells[UK_LIST_COLUMNS];
	char **labels = NULL;
	bool fleet = uk_list_table_fleet(t);
	size_t i;
	int c, r;

	if (fleet)
		labels = host_labels(t);
	r = uk_cli_table_new(uk_list_column, UK_LIST_COLUMNS, &tab);
	if (r < 0)
		return r;
	uk_cli_table_hide(tab, UK_LIST_HOSTNAME, !fleet);
	for (i = 0; r == 0 && i < t->n; i++) {
		for (c = 0; c < UK_LIST_COLUMNS; c++)
			cells[c] = labels && c == UK_LIST_HOSTNAME ?
				   labels[i] : t->rows[i].cell[c];
		r = uk_cli_table_add(tab, cells);
	}
	if (r == 0)
		r = uk_cli_table_print(tab, f, legend, width);
	uk_cli_table_free(tab);
	if (r == 0 && legend)
		fprintf(f, "\n%zu entr%s listed.\n", t->n,
			t->n == 1 ? "y" : "ies");
	for (i = 0; labels && i < t->n; i++)
		free(labels[i]);
	free(labels);
	return r < 0 ? r : ferror(f) ? -EIO : 0;
}

static int list_row(struct uk_query *q, const struct uk_entry *e, void *data)
{
	if (q->cli.json)
		return uk_query_json_put(q, e, NULL, data);
	if (uk_list_table_add(data, e) < 0)
		return uk_cli_error(&q->cli, -ENOMEM, "out of memory");
	return 0;
}

int uk_cli_list(const struct uk_cli *cli, int argc, char **argv)
{
	struct uk_list_table t;
	struct uk_query_json jo = { .full = false };
	struct uk_query q;
	int r;

	uk_list_table_init(&t);
	r = uk_query_init(&q, cli, argc, argv, NULL);
	if (!r)
		r = uk_query_entries(&q, false, list_row,
				     q.cli.json ? (void *)&jo : (void *)&t, &jo);
	if (!r && !q.cli.json &&
	    uk_list_table_print(&t, q.cli.out, !q.cli.no_legend,
				q.cli.columns) < 0)
		r = uk_cli_error(&q.cli, UK_ERR_FAILURE,
				 "cannot write the table: %s", strerror(EIO));
	r = uk_query_files_left_out(&q, r);
	uk_list_table_release(&t);
	uk_query_release(&q);
	return r;
}
