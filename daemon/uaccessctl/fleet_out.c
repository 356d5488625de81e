// SPDX-License-Identifier: GPL-2.0
/* The fleet's table and JSON (fleet.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/time.h"
#include "common/util.h"
#include "fleet.h"
#include "table.h"
#include "text.h"

static const struct uk_cli_column columns[] = {
	{ "HOSTNAME", UK_CLI_LEFT, 0, 0 },
	{ "COUNT", UK_CLI_RIGHT, 0, 0 },
	{ "EVENTS", UK_CLI_RIGHT, 0, 0 },
	{ "SUPPRESSED", UK_CLI_RIGHT, 0, 3 },
	{ "KIND", UK_CLI_LEFT, 0, 0 },
	{ "HELPER", UK_CLI_LEFT, 0, 0 },
	{ "DIR", UK_CLI_LEFT, 0, 0 },
	{ "SITE", UK_CLI_LEFT, UK_CLI_TRUNC, 0 },
	{ "LAST", UK_CLI_LEFT, 0, 2 },
};
#define NCOLS	ARRAY_SIZE(columns)

static int add_rows(struct uk_cli_table *t, const char *label,
		    const struct uk_fleet_site *sites, size_t n,
		    uint64_t limit)
{
	size_t i;

	for (i = 0; i < n && (!limit || i < limit); i++) {
		const struct uk_fleet_site *s = &sites[i];
		char count[24], events[24], supp[24], last[40];
		const char *cells[NCOLS] = {
			label, count, events, supp, s->kind, s->helper,
			s->direction[0] ? s->direction : "-", s->site, last,
		};

		snprintf(count, sizeof(count), "%" PRIu64, s->count);
		snprintf(events, sizeof(events), "%" PRIu64, s->events);
		snprintf(supp, sizeof(supp), "%" PRIu64, s->suppressed);
		uk_time_format_date(s->last * 1000, false, last, sizeof(last));
		if (uk_cli_table_add(t, cells) < 0)
			return -ENOMEM;
	}
	return 0;
}

int uk_fleet_print(const struct uk_fleet *f, FILE *out, uint64_t limit,
		   bool legend, unsigned int width)
{
	struct uk_cli_table *t = NULL;
	bool cut = false;
	size_t i;
	int r;

	if (!f->n_machines) {
		if (legend)
			fputs("No sites recorded.\n", out);
		return ferror(out) ? -EIO : 0;
	}
	r = uk_cli_table_new(columns, NCOLS, &t);
	if (r < 0)
		return r;
	if (f->n_machines > 1) {
		r = add_rows(t, "(fleet)", f->sites, f->n_sites, limit);
		cut |= limit && f->n_sites > limit;
	}
	for (i = 0; r == 0 && i < f->n_machines; i++) {
		const struct uk_fleet_machine *m = &f->machines[i];

		r = add_rows(t, m->label, m->sites, m->n_sites, limit);
		cut |= limit && m->n_sites > limit;
	}
	if (r < 0) {
		uk_cli_table_free(t);
		return r;
	}
	r = uk_cli_table_print(t, out, legend, width);
	uk_cli_table_free(t);
	if (r < 0)
		return r;
	if (legend) {
		fprintf(out, "\n%zu %s, %zu %s, %" PRIu64 " %s: %" PRIu64
			" %s, %" PRIu64 " suppressed.\n",
			f->n_machines, uk_cli_plural(f->n_machines, "machine", "machines"),
			f->n_sites, uk_cli_plural(f->n_sites, "site", "sites"),
			f->count, uk_cli_plural(f->count, "occurrence", "occurrences"),
			f->events, uk_cli_plural(f->events, "event", "events"),
			f->suppressed);
		if (cut)
			fprintf(out, "At most %" PRIu64 " %s of each shown.\n",
				limit, uk_cli_plural(limit, "site", "sites"));
	}
	return ferror(out) ? -EIO : 0;
}

static void site_json(struct uk_json *j, const struct uk_fleet_site *s,
		      bool fleet)
{
	uk_json_object_begin(j);
	uk_json_kv_str(j, "site", s->site);
	uk_json_kv_str(j, "site_symbol", s->has_symbol ? s->site : NULL);
	if (!fleet)
		uk_json_kv_str(j, "site_ip", s->site_ip);
	uk_json_kv_str(j, "kind", s->kind);
	uk_json_kv_str(j, "helper", s->helper);
	uk_json_key(j, "direction");
	uk_json_array_begin(j);
	{
		const char *p = s->direction;

		while (*p) {
			size_t n = strcspn(p, ",");

			uk_json_strn(j, p, n);
			p += n;
			if (*p)
				p++;
		}
	}
	uk_json_array_end(j);
	uk_json_kv_u64(j, "count", s->count);
	uk_json_kv_u64(j, "events", s->events);
	uk_json_kv_u64(j, "suppressed", s->suppressed);
	uk_json_kv_u64(j, "first_time", s->first);
	uk_json_kv_u64(j, "last_time", s->last);
	if (fleet)
		uk_json_kv_u64(j, "machines", s->machines);
	uk_json_object_end(j);
}

static void sites_json(struct uk_json *j, const struct uk_fleet_site *s,
		       size_t n, uint64_t limit, bool fleet)
{
	size_t i;

	uk_json_kv_u64(j, "total", n);
	uk_json_key(j, "sites");
	uk_json_array_begin(j);
	for (i = 0; i < n && (!limit || i < limit); i++)
		site_json(j, &s[i], fleet);
	uk_json_array_end(j);
}

void uk_fleet_json(const struct uk_fleet *f, struct uk_json *j,
		   uint64_t limit, const char *directory,
		   char *const *bad_files, size_t n_bad_files)
{
	size_t i;

	uk_json_object_begin(j);
	uk_json_kv_str(j, "source", "journal");
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
	uk_json_kv_u64(j, "count", f->count);
	uk_json_kv_u64(j, "events", f->events);
	uk_json_kv_u64(j, "suppressed", f->suppressed);
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
		uk_json_kv_str(j, "machine_id", m->machine_id[0] ?
			       m->machine_id : NULL);
		uk_json_kv_str(j, "hostname", m->hostname);
		uk_json_kv_str(j, "label", m->label);
		uk_json_kv_u64(j, "count", m->count);
		uk_json_kv_u64(j, "events", m->events);
		uk_json_kv_u64(j, "suppressed", m->suppressed);
		uk_json_kv_u64(j, "last_time", m->last);
		sites_json(j, m->sites, m->n_sites, limit, false);
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
	uk_json_object_end(j);
}
