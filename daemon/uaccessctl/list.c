// SPDX-License-Identifier: GPL-2.0
/* `uaccessctl list`: the table (list.h) and the verb. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "common/msgid.h"
#include "common/time.h"
#include "common/util.h"
#include "entry.h"
#include "label.h"
#include "list.h"
#include "output.h"
#include "query.h"

/*
 * A column: how the table prints it (header, alignment, the one cut to the
 * terminal, the rank it is left out at), the journal field of its cells
 * (NULL: TIME, or computed).  Every layout starts with TIME and HOSTNAME
 * (shown for several machines only).
 */
struct column {
	struct uk_cli_column out;
	const char *field;
	bool loss_unit;		/* computed: the unit of a loss entry's counts */
};

struct layout {
	const struct column *cols;
	int n;
};

#define COL(h, f, a, fl, d) \
	{ .out = { h, UK_CLI_##a, fl, d }, .field = f }
#define TIME_HOST \
	COL("TIME", NULL, LEFT, 0, 0), COL("HOSTNAME", "_HOSTNAME", LEFT, 0, 0)

/*
 * SITE is cut to the terminal; ADDRESS goes first when even so the table
 * does not fit, then KIND, then DIR.
 */
static const struct column event_cols[UK_LIST_COLUMNS] = {
	[UK_LIST_TIME] = COL("TIME", NULL, LEFT, 0, 0),
	[UK_LIST_HOSTNAME] = COL("HOSTNAME", "_HOSTNAME", LEFT, 0, 0),
	[UK_LIST_PID] = COL("PID", UK_JF(PID), RIGHT, 0, 0),
	[UK_LIST_COMM] = COL("COMM", UK_JF(COMM), LEFT, 0, 0),
	[UK_LIST_HELPER] = COL("HELPER", UK_JF(HELPER), LEFT, 0, 0),
	[UK_LIST_DIR] = COL("DIR", UK_JF(DIRECTION), LEFT, 0, 3),
	[UK_LIST_ADDRESS] = COL("ADDRESS", UK_JF(ADDRESS), LEFT, 0, 1),
	[UK_LIST_SITE] = COL("SITE", UK_JF(SITE_SYMBOL), LEFT, UK_CLI_TRUNC, 0),
	[UK_LIST_KIND] = COL("KIND", UK_JF(KIND), LEFT, 0, 2),
};

/*
 * What was lost, how many, in which unit, since start, and the detail
 * (cut to the terminal; the total goes first when that is not enough).
 */
static const struct column loss_cols[] = {
	TIME_HOST,
	COL("REASON", UK_JF(LOSS_REASON), LEFT, 0, 0),
	COL("LOST", UK_JF(LOSS_COUNT), RIGHT, 0, 0),
	{ .out = { "UNIT", UK_CLI_LEFT, 0, 0 }, .loss_unit = true },
	COL("TOTAL", UK_JF(LOSS_TOTAL), RIGHT, 0, 1),
	COL("DETAIL", UK_JF(LOSS_DETAIL), LEFT, UK_CLI_TRUNC, 0),
};

/*
 * Events of a site uaccessd's ratelimits held back since its last summary
 * (SITE cut to the terminal; the total goes first, then KIND).
 */
static const struct column summary_cols[] = {
	TIME_HOST,
	COL("HELD-BACK", UK_JF(SUPPRESSED_COUNT), RIGHT, 0, 0),
	COL("TOTAL", UK_JF(SUPPRESSED_TOTAL), RIGHT, 0, 1),
	COL("KIND", UK_JF(KIND), LEFT, 0, 2),
	COL("HELPER", UK_JF(HELPER), LEFT, 0, 0),
	COL("SITE", UK_JF(SITE_SYMBOL), LEFT, UK_CLI_TRUNC, 0),
};

static const struct column health_cols[] = {
	TIME_HOST,
	COL("STATE", UK_JF(DAEMON_STATE), LEFT, 0, 0),
	COL("MESSAGE", "MESSAGE", LEFT, UK_CLI_TRUNC, 0),
};

/* Rows of several types: their MESSAGE, which each type writes for people. */
#define MIXED_TYPE	2
#define MIXED_MESSAGE	3
static const struct column mixed_cols[] = {
	TIME_HOST,
	[MIXED_TYPE] = COL("TYPE", NULL, LEFT, 0, 0),
	[MIXED_MESSAGE] = COL("MESSAGE", "MESSAGE", LEFT, UK_CLI_TRUNC, 0),
};

/* A row holds the cells of any layout. */
_Static_assert(ARRAY_SIZE(loss_cols) <= UK_LIST_COLUMNS &&
	       ARRAY_SIZE(summary_cols) <= UK_LIST_COLUMNS &&
	       ARRAY_SIZE(health_cols) <= UK_LIST_COLUMNS &&
	       ARRAY_SIZE(mixed_cols) <= UK_LIST_COLUMNS,
	       "a layout has more columns than struct uk_list_row's cells");

static const struct layout layouts[UK_LIST_TYPES] = {
	[UK_LIST_EVENT] = { event_cols, UK_LIST_COLUMNS },
	[UK_LIST_LOSS] = { loss_cols, ARRAY_SIZE(loss_cols) },
	[UK_LIST_SUMMARY] = { summary_cols, ARRAY_SIZE(summary_cols) },
	[UK_LIST_HEALTH] = { health_cols, ARRAY_SIZE(health_cols) },
};

static const struct layout mixed = { mixed_cols, ARRAY_SIZE(mixed_cols) };

static const struct {
	const char *name;
	const char *msgid;
} types[UK_LIST_TYPES] = {
	[UK_LIST_EVENT] = { "event", UK_MSGID_EVENT },
	[UK_LIST_LOSS] = { "loss", UK_MSGID_LOSS },
	[UK_LIST_SUMMARY] = { "summary", UK_MSGID_SUPPRESSED },
	[UK_LIST_HEALTH] = { "health", UK_MSGID_HEALTH },
};

int uk_list_type_parse(const char *s, unsigned int *mask)
{
	unsigned int m = 0;
	size_t len;
	int t;

	for (;;) {
		len = strcspn(s, ",");
		if (len == 3 && !strncmp(s, "all", 3))
			m |= (1U << UK_LIST_TYPES) - 1;
		else {
			for (t = 0; t < UK_LIST_TYPES; t++)
				if (strlen(types[t].name) == len &&
				    !strncmp(s, types[t].name, len))
					break;
			if (t == UK_LIST_TYPES)
				return -EINVAL;
			m |= 1U << t;
		}
		if (!s[len])
			break;
		s += len + 1;
	}
	*mask = m;
	return 0;
}

/* The type of an entry by its MESSAGE_ID; one without is an event. */
static enum uk_list_type entry_type(const struct uk_entry *e)
{
	const char *id = uk_entry_str(e, "MESSAGE_ID");
	int t;

	for (t = 0; id && t < UK_LIST_TYPES; t++)
		if (!strcmp(id, types[t].msgid))
			return t;
	return UK_LIST_EVENT;
}

/* The unit of a loss entry's counts (docs/journal-fields.md). */
static const char *loss_unit(const struct uk_entry *e)
{
	const char *r = uk_entry_str(e, UK_JF(LOSS_REASON));

	if (!r)
		return NULL;
	if (!strcmp(r, "journal-send-failed"))
		return "entries";
	if (!strcmp(r, "site-evicted"))
		return "sites";
	if (!strcmp(r, "kernel-site-table-full"))
		return "hits";
	return "events";
}

void uk_list_table_init(struct uk_list_table *t)
{
	memset(t, 0, sizeof(*t));
}

static void row_release(struct uk_list_row *row)
{
	int c;

	for (c = 0; c < UK_LIST_COLUMNS; c++)
		free(row->cell[c]);
	free(row->message);
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

/* A printable copy of field @name of @e, "-" when absent or empty. */
static char *cell_of(const struct uk_entry *e, const char *name)
{
	const struct uk_entry_field *f = uk_entry_find(e, name);

	return f && f->value_len ? uk_cli_sanitize_dup(f->value, f->value_len) :
	       strdup("-");
}

int uk_list_table_add(struct uk_list_table *t, const struct uk_entry *e)
{
	const struct uk_entry_field *m;
	struct uk_list_row row = { .type = entry_type(e) };
	const struct layout *l = &layouts[row.type];
	const char *unit;
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
	for (c = 1; c < l->n; c++) {
		if (l->cols[c].field)
			row.cell[c] = cell_of(e, l->cols[c].field);
		else if (l->cols[c].loss_unit)
			row.cell[c] = (unit = loss_unit(e)) ? strdup(unit) :
							      strdup("-");
		if (!row.cell[c])
			goto nomem;
	}
	row.message = cell_of(e, "MESSAGE");
	if (!row.message)
		goto nomem;
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

/* The layout of the rows: their type's, or the mixed one. */
static const struct layout *table_layout(const struct uk_list_table *t)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (t->rows[i].type != t->rows[0].type)
			return &mixed;
	return &layouts[t->n ? t->rows[0].type : UK_LIST_EVENT];
}

/* Row @r's cell of column @c of @l (the TYPE and MESSAGE of a mixed table). */
static const char *cell(const struct uk_list_row *r, const struct layout *l,
			int c)
{
	if (l != &mixed || c < MIXED_TYPE)
		return r->cell[c];
	return c == MIXED_TYPE ? types[r->type].name : r->message;
}

int uk_list_table_print(const struct uk_list_table *t, FILE *f, bool legend,
			unsigned int width)
{
	const struct layout *l = table_layout(t);
	struct uk_cli_column cols[UK_LIST_COLUMNS];
	struct uk_cli_table *tab = NULL;
	const char *cells[UK_LIST_COLUMNS];
	char **labels = NULL;
	bool fleet = uk_list_table_fleet(t);
	size_t i;
	int c, r;

	if (fleet)
		labels = host_labels(t);
	for (c = 0; c < l->n; c++)
		cols[c] = l->cols[c].out;
	r = uk_cli_table_new(cols, l->n, &tab);
	if (r < 0)
		goto out;
	uk_cli_table_hide(tab, UK_LIST_HOSTNAME, !fleet);
	for (i = 0; r == 0 && i < t->n; i++) {
		for (c = 0; c < l->n; c++)
			cells[c] = labels && c == UK_LIST_HOSTNAME ?
				   labels[i] : cell(&t->rows[i], l, c);
		r = uk_cli_table_add(tab, cells);
	}
	if (r == 0)
		r = uk_cli_table_print(tab, f, legend, width);
	uk_cli_table_free(tab);
	if (r == 0 && legend)
		fprintf(f, "\n%zu entr%s listed.\n", t->n,
			t->n == 1 ? "y" : "ies");
out:
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
	const char *msgids[UK_LIST_TYPES + 1] = { NULL };
	unsigned int mask = cli->types ? cli->types : 1U << UK_LIST_EVENT;
	struct uk_list_table t;
	struct uk_query_json jo = { .full = false };
	struct uk_query q;
	int r, type, n = 0;

	for (type = 0; type < UK_LIST_TYPES; type++)
		if (mask & (1U << type))
			msgids[n++] = types[type].msgid;
	uk_list_table_init(&t);
	r = uk_query_init(&q, cli, argc, argv, msgids);
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
