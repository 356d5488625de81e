// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet's table and JSON (fleet.h): its sites as the rows of sites
 * and top (site_row.h), whose names say what the journal's counts are:
 * the occurrences uaccessd received (events), those it journaled
 * (journaled) and those its ratelimits held back (journal_suppressed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "fleet.h"
#include "text.h"
#include "site_row.h"

/* A site of the journal as a row; @fleet: over all machines. */
static void fleet_row(const struct uk_fleet_site *s, const char *label,
		      bool fleet, struct uk_site_row *r)
{
	memset(r, 0, sizeof(*r));
	r->label = label;
	if (s->has_symbol) {
		r->site_symbol = s->site;
		r->has |= UK_ROW_SITE_SYMBOL;
	}
	/* A fleet's site by address has it as its name. */
	if (!fleet && s->site_ip)
		uk_site_row_text(r, UK_ROW_SITE_IP, r->site_ip, "%s",
				 s->site_ip);
	else if (!s->has_symbol)
		uk_site_row_text(r, UK_ROW_SITE_IP, r->site_ip, "%s", s->site);
	/* "-": the summary of evicted sites, which have neither. */
	if (strcmp(s->kind, "-"))
		uk_site_row_text(r, UK_ROW_KIND, r->kind, "%s", s->kind);
	if (strcmp(s->helper, "-"))
		uk_site_row_text(r, UK_ROW_HELPER, r->helper, "%s",
				 s->helper);
	if (s->direction[0])
		uk_site_row_text(r, UK_ROW_DIRECTION, r->direction, "%s",
				 s->direction);
	r->events = s->count;
	r->journaled = s->events;
	r->journal_suppressed = s->suppressed;
	r->has |= UK_ROW_EVENTS | UK_ROW_JOURNALED | UK_ROW_JOURNAL_SUPPRESSED;
	if (s->first) {
		r->first_usec = s->first;
		r->has |= UK_ROW_FIRST;
	}
	if (s->last) {
		r->last_usec = s->last;
		r->has |= UK_ROW_LAST;
	}
	if (!fleet && s->last_address[0])
		uk_site_row_text(r, UK_ROW_LAST_ADDRESS, r->last_address, "%s",
				 s->last_address);
}

static const enum uk_site_col columns[] = {
	UK_COL_HOSTNAME, UK_COL_EVENTS, UK_COL_JOURNALED, UK_COL_SUPPRESSED,
	UK_COL_KIND, UK_COL_HELPER, UK_COL_DIR, UK_COL_SITE, UK_COL_LAST,
};

static size_t shown(size_t n, uint64_t limit)
{
	return limit && n > limit ? (size_t)limit : n;
}

static void add_rows(struct uk_site_row *rows, size_t *n, const char *label,
		     const struct uk_fleet_site *sites, size_t count,
		     uint64_t limit, bool fleet)
{
	size_t i;

	for (i = 0; i < shown(count, limit); i++)
		fleet_row(&sites[i], label, fleet, &rows[(*n)++]);
}

int uk_fleet_print(const struct uk_cli *cli, const struct uk_fleet *f,
		   uint64_t limit)
{
	struct uk_site_row *rows;
	size_t i, n = 0, max;
	bool cut = false;
	int r;

	if (!f->n_machines) {
		if (!cli->no_legend)
			fputs("No sites recorded.\n", cli->out);
		return 0;
	}
	max = f->n_machines > 1 ? shown(f->n_sites, limit) : 0;
	for (i = 0; i < f->n_machines; i++)
		max += shown(f->machines[i].n_sites, limit);
	rows = calloc(max ? max : 1, sizeof(*rows));
	if (!rows)
		return uk_cli_error(cli, -ENOMEM, "out of memory");
	if (f->n_machines > 1) {
		add_rows(rows, &n, "(fleet)", f->sites, f->n_sites, limit,
			 true);
		cut |= limit && f->n_sites > limit;
	}
	for (i = 0; i < f->n_machines; i++) {
		const struct uk_fleet_machine *m = &f->machines[i];

		add_rows(rows, &n, m->label, m->sites, m->n_sites, limit,
			 false);
		cut |= limit && m->n_sites > limit;
	}
	r = uk_site_rows_print(cli, rows, n, columns, ARRAY_SIZE(columns));
	free(rows);
	if (r < 0 || cli->no_legend)
		return r;
	fprintf(cli->out, "\n%zu %s, %zu %s, %" PRIu64 " %s: %" PRIu64
		" %s, %" PRIu64 " held back.\n",
		f->n_machines, uk_cli_plural(f->n_machines, "machine", "machines"),
		f->n_sites, uk_cli_plural(f->n_sites, "site", "sites"),
		f->count, uk_cli_plural(f->count, "occurrence", "occurrences"),
		f->events, uk_cli_plural(f->events, "event", "events"),
		f->suppressed);
	if (cut)
		fprintf(cli->out, "At most %" PRIu64 " %s of each shown.\n",
			limit, uk_cli_plural(limit, "site", "sites"));
	return 0;
}

static void sites_json(struct uk_json *j, const struct uk_fleet_site *s,
		       size_t n, uint64_t limit, bool fleet)
{
	struct uk_site_row row;
	size_t i;

	uk_json_kv_u64(j, "total", n);
	uk_json_key(j, "sites");
	uk_json_array_begin(j);
	for (i = 0; i < shown(n, limit); i++) {
		fleet_row(&s[i], NULL, fleet, &row);
		uk_json_object_begin(j);
		uk_site_row_json(j, &row);
		if (fleet)
			uk_json_kv_u64(j, "machines", s[i].machines);
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
}

/* The totals of a machine or of everything, named as a row's. */
static void totals_json(struct uk_json *j, uint64_t count, uint64_t events,
			uint64_t suppressed)
{
	uk_json_kv_u64(j, "events", count);
	uk_json_kv_u64(j, "journaled", events);
	uk_json_kv_u64(j, "journal_suppressed", suppressed);
}

void uk_fleet_json(const struct uk_fleet *f, struct uk_json *j,
		   uint64_t limit, const char *directory,
		   char *const *bad_files, size_t n_bad_files)
{
	size_t i;

	uk_json_object_begin(j);
	uk_json_kv_str(j, "source", "journal");
	if (directory)
		uk_json_kv_str(j, "directory", directory);
	uk_json_key(j, "unreadable_files");
	uk_json_array_begin(j);
	for (i = 0; i < n_bad_files; i++)
		uk_json_str(j, bad_files[i]);
	uk_json_array_end(j);
	uk_json_key(j, "entries");
	uk_json_object_begin(j);
	uk_json_kv_u64(j, "events", f->event_entries);
	uk_json_kv_u64(j, "summaries", f->summary_entries);
	uk_json_kv_u64(j, "duplicates", f->duplicates);
	uk_json_kv_u64(j, "skipped", f->skipped);
	uk_json_object_end(j);
	totals_json(j, f->count, f->events, f->suppressed);
	uk_json_key(j, "fleet");
	uk_json_object_begin(j);
	uk_json_kv_u64(j, "machines", f->n_machines);
	sites_json(j, f->sites, f->n_sites, limit, true);
	uk_json_object_end(j);
	uk_json_key(j, "machines");
	uk_json_array_begin(j);
	for (i = 0; i < f->n_machines; i++) {
		const struct uk_fleet_machine *m = &f->machines[i];

		uk_json_object_begin(j);
		if (m->machine_id[0])
			uk_json_kv_str(j, "machine_id", m->machine_id);
		if (m->hostname)
			uk_json_kv_str(j, "hostname", m->hostname);
		uk_json_kv_str(j, "label", m->label);
		totals_json(j, m->count, m->events, m->suppressed);
		if (m->last)
			uk_json_kv_u64(j, "last_usec", m->last);
		sites_json(j, m->sites, m->n_sites, limit, false);
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
	uk_json_object_end(j);
}
