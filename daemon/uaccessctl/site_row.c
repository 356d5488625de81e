// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of sites and top (site_row.h): one table of keys drives the
 * JSON, one table of columns the text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/time.h"
#include "common/util.h"
#include "json_out.h"
#include "site_row.h"
#include "table.h"

void uk_site_row_text(struct uk_site_row *r, unsigned int bit, char *field,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(field, UK_SITE_ROW_TEXT, fmt, ap);
	va_end(ap);
	r->has |= bit;
}

/* The keys, in their order: each a number, a string or a text member. */
static const struct key {
	const char *name;
	unsigned int bit;
	enum { K_U64, K_STR, K_TEXT } type;
	size_t off;
} keys[] = {
#define U(n, b) { #n, b, K_U64, offsetof(struct uk_site_row, n) }
#define T(n, b) { #n, b, K_TEXT, offsetof(struct uk_site_row, n) }
	U(site_id, UK_ROW_SITE_ID),
	{ "site_symbol", UK_ROW_SITE_SYMBOL, K_STR,
	  offsetof(struct uk_site_row, site_symbol) },
	T(site_ip, UK_ROW_SITE_IP),
	T(kind, UK_ROW_KIND),
	T(helper, UK_ROW_HELPER),
	T(direction, UK_ROW_DIRECTION),
	U(count, UK_ROW_COUNT),
	U(kernel_suppressed, UK_ROW_KERNEL_SUPPRESSED),
	U(kernel_reported, UK_ROW_KERNEL_REPORTED),
	U(events, UK_ROW_EVENTS),
	U(journaled, UK_ROW_JOURNALED),
	U(journal_suppressed, UK_ROW_JOURNAL_SUPPRESSED),
	U(first_usec, UK_ROW_FIRST),
	U(last_usec, UK_ROW_LAST),
	U(first_boot_usec, UK_ROW_FIRST_BOOT),
	U(last_boot_usec, UK_ROW_LAST_BOOT),
	T(last_address, UK_ROW_LAST_ADDRESS),
#undef U
#undef T
};

void uk_site_row_json(struct uk_json *j, const struct uk_site_row *r)
{
	const char *base = (const char *)r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct key *k = &keys[i];

		if (!(r->has & k->bit))
			continue;
		if (k->type == K_U64)
			uk_json_kv_u64(j, k->name,
				       *(const uint64_t *)(base + k->off));
		else if (k->type == K_STR)
			uk_json_kv_str(j, k->name,
				       *(const char *const *)(base + k->off));
		else
			uk_json_kv_str(j, k->name, base + k->off);
	}
}

/*
 * The columns.  SITE is the long one, cut to the terminal; FIRST goes
 * first when even so the table does not fit, then LAST, then SUPPRESSED.
 */
static const struct uk_cli_column columns[] = {
	[UK_COL_HOSTNAME] = { "HOSTNAME", UK_CLI_LEFT, 0, 0 },
	[UK_COL_COUNT] = { "COUNT", UK_CLI_RIGHT, 0, 0 },
	[UK_COL_EVENTS] = { "EVENTS", UK_CLI_RIGHT, 0, 0 },
	[UK_COL_JOURNALED] = { "JOURNALED", UK_CLI_RIGHT, 0, 0 },
	[UK_COL_SUPPRESSED] = { "SUPPRESSED", UK_CLI_RIGHT, 0, 3 },
	[UK_COL_KIND] = { "KIND", UK_CLI_LEFT, 0, 0 },
	[UK_COL_HELPER] = { "HELPER", UK_CLI_LEFT, 0, 0 },
	[UK_COL_DIR] = { "DIR", UK_CLI_LEFT, 0, 0 },
	[UK_COL_SITE] = { "SITE", UK_CLI_LEFT, UK_CLI_TRUNC, 0 },
	[UK_COL_FIRST] = { "FIRST", UK_CLI_LEFT, 0, 1 },
	[UK_COL_LAST] = { "LAST", UK_CLI_LEFT, 0, 2 },
};

static void num(char *buf, size_t len, bool has, uint64_t v)
{
	if (has)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "-");
}

static void date(char *buf, size_t len, bool has, uint64_t usec)
{
	uk_time_format_date(has ? usec * UK_NSEC_PER_USEC : 0, false, buf,
			    len);
}

/* The cell of column @c of @r, in @buf when it has to be formatted. */
static const char *cell(const struct uk_site_row *r, enum uk_site_col c,
			char *buf, size_t len)
{
	uint64_t supp = 0;

	switch (c) {
	case UK_COL_HOSTNAME:
		return r->label;
	case UK_COL_COUNT:
		num(buf, len, r->has & UK_ROW_COUNT, r->count);
		return buf;
	case UK_COL_EVENTS:
		num(buf, len, r->has & UK_ROW_EVENTS, r->events);
		return buf;
	case UK_COL_JOURNALED:
		num(buf, len, r->has & UK_ROW_JOURNALED, r->journaled);
		return buf;
	case UK_COL_SUPPRESSED:
		/* The kernel's and uaccessd's: what a source has of them. */
		if (r->has & UK_ROW_KERNEL_SUPPRESSED)
			supp = r->kernel_suppressed;
		if ((r->has & UK_ROW_JOURNAL_SUPPRESSED) &&
		    __builtin_add_overflow(supp, r->journal_suppressed, &supp))
			supp = UINT64_MAX;
		num(buf, len, r->has & (UK_ROW_KERNEL_SUPPRESSED |
					UK_ROW_JOURNAL_SUPPRESSED), supp);
		return buf;
	case UK_COL_KIND:
		return r->has & UK_ROW_KIND ? r->kind : NULL;
	case UK_COL_HELPER:
		return r->has & UK_ROW_HELPER ? r->helper : NULL;
	case UK_COL_DIR:
		return r->has & UK_ROW_DIRECTION ? r->direction : NULL;
	case UK_COL_SITE:
		if ((r->has & UK_ROW_SITE_SYMBOL) && r->site_symbol[0])
			return r->site_symbol;
		return r->has & UK_ROW_SITE_IP ? r->site_ip : NULL;
	case UK_COL_FIRST:
		date(buf, len, r->has & UK_ROW_FIRST, r->first_usec);
		return buf;
	case UK_COL_LAST:
		date(buf, len, r->has & UK_ROW_LAST, r->last_usec);
		return buf;
	}
	return NULL;
}

int uk_site_rows_print(const struct uk_cli *cli, const struct uk_site_row *rows,
		       size_t n, const enum uk_site_col *cols, size_t ncols)
{
	struct uk_cli_column picked[ARRAY_SIZE(columns)];
	char bufs[ARRAY_SIZE(columns)][48];
	const char *cells[ARRAY_SIZE(columns)];
	struct uk_cli_table *t = NULL;
	size_t i, c;
	int r;

	if (ncols > ARRAY_SIZE(columns))
		return uk_cli_error(cli, -EINVAL, "too many columns");
	for (c = 0; c < ncols; c++)
		picked[c] = columns[cols[c]];
	r = uk_cli_table_new(picked, ncols, &t);
	for (i = 0; r == 0 && i < n; i++) {
		for (c = 0; c < ncols; c++)
			cells[c] = cell(&rows[i], cols[c], bufs[c],
					sizeof(bufs[c]));
		r = uk_cli_table_add(t, cells);
	}
	if (r == 0 && n)
		r = uk_cli_table_print(t, cli->out, !cli->no_legend,
				       cli->columns);
	uk_cli_table_free(t);
	if (r < 0)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "cannot write the table: %s",
				    strerror(-r));
	return 0;
}
