// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl sites and top: the call sites that handed kernel addresses to
 * user-access helpers, most hits first.  From uaccessd's aggregated table
 * (its "sites" command, everybody may ask), or with --kernel straight
 * from the kernel's dump-sites (admin, works without uaccessd), or with
 * a journal option (--directory, --since, --until, --boot) from the
 * journal's entries of uaccessd, by machine and over a fleet
 * (fleet.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/fields.h"
#include "fleet.h"
#include "common/time.h"
#include "output.h"
#include "common/util.h"

#define TOP_DEFAULT	10

static const struct uk_cli_column columns[] = {
	{ "COUNT", UK_CLI_RIGHT, 0, 0 },
	{ "KIND", UK_CLI_LEFT, 0, 0 },
	{ "HELPER", UK_CLI_LEFT, 0, 0 },
	{ "DIR", UK_CLI_LEFT, 0, 0 },
	/* cut to the terminal; FIRST goes first, then LAST, SUPPRESSED */
	{ "SITE", UK_CLI_LEFT, UK_CLI_TRUNC, 0 },
	{ "FIRST", UK_CLI_LEFT, 0, 1 },
	{ "LAST", UK_CLI_LEFT, 0, 2 },
	{ "SUPPRESSED", UK_CLI_RIGHT, 0, 3 },
};
#define NCOLS	(ARRAY_SIZE(columns))

/* One table row, whichever the source. */
struct row {
	uint64_t count;
	uint64_t suppressed;
	uint64_t first_real;
	uint64_t last_real;
	const char *kind;
	const char *helper;
	const char *direction;
	const char *site;
};

static int add_row(struct uk_cli_table *t, const struct row *r)
{
	char count[24], supp[24], first[40], last[40];
	const char *cells[NCOLS];

	snprintf(count, sizeof(count), "%" PRIu64, r->count);
	snprintf(supp, sizeof(supp), "%" PRIu64, r->suppressed);
	uk_time_format_date(r->first_real, false, first, sizeof(first));
	uk_time_format_date(r->last_real, false, last, sizeof(last));
	cells[0] = count;
	cells[1] = r->kind;
	cells[2] = r->helper;
	cells[3] = r->direction;
	cells[4] = r->site;
	cells[5] = first;
	cells[6] = last;
	cells[7] = supp;
	return uk_cli_table_add(t, cells);
}

static void print_footer(const struct uk_cli *cli, size_t shown,
			 uint64_t total)
{
	if (cli->no_legend)
		return;
	if (!total)
		fprintf(cli->out, "No sites recorded.\n");
	else if (shown == total)
		fprintf(cli->out, "\n%zu site%s listed.\n", shown,
			shown == 1 ? "" : "s");
	else
		fprintf(cli->out, "\n%zu of %" PRIu64 " sites listed.\n",
			shown, total);
}

static int print_table(const struct uk_cli *cli, struct uk_cli_table *t,
		       uint64_t total)
{
	if (uk_cli_table_rows(t) &&
	    uk_cli_table_print(t, cli->out, !cli->no_legend,
			       cli->columns) < 0)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "cannot write the table: %s",
				    strerror(EIO));
	print_footer(cli, uk_cli_table_rows(t), total);
	return 0;
}

/* ---- from uaccessd ---- */

static uint64_t get_u64(const struct uk_json_value *o, const char *key)
{
	uint64_t v = 0;

	uk_json_get_u64(uk_json_object_get(o, key), &v);
	return v;
}

static const char *get_str(const struct uk_json_value *o, const char *key)
{
	const char *s = NULL;

	uk_json_get_str(uk_json_object_get(o, key), &s);
	return s;
}

/* The SUPPRESSED column: ratelimited in the kernel or by uaccessd. */
static uint64_t daemon_suppressed(const struct uk_json_value *s)
{
	uint64_t a = get_u64(s, "kernel_suppressed");
	uint64_t b = get_u64(s, "journal_suppressed");

	return a + b < a ? UINT64_MAX : a + b;
}

static int daemon_json(const struct uk_cli *cli, uint64_t total,
		       const struct uk_json_value *sites)
{
	const struct uk_json_value *s, *m;
	struct uk_json j;
	const char *name;
	size_t i, k, n = uk_json_array_len(sites);

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_str(&j, "source", "uaccessd");
	uk_json_kv_u64(&j, "total", total);
	uk_json_key(&j, "sites");
	uk_json_array_begin(&j);
	for (i = 0; i < n; i++) {
		s = uk_json_array_at(sites, i);
		uk_json_object_begin(&j);
		for (k = 0; k < uk_json_object_len(s); k++) {
			m = uk_json_object_at(s, k, &name);
			if (!strcmp(name, "suppressed"))
				continue;
			uk_json_key(&j, name);
			uk_json_value_write(&j, m);
		}
		uk_json_kv_u64(&j, "suppressed", daemon_suppressed(s));
		uk_json_object_end(&j);
	}
	uk_json_array_end(&j);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

static int daemon_text(const struct uk_cli *cli, uint64_t total,
		       const struct uk_json_value *sites)
{
	const struct uk_json_value *s;
	struct uk_cli_table *t = NULL;
	size_t i, n = uk_json_array_len(sites);
	struct row r;
	int ret;

	if (uk_cli_table_new(columns, NCOLS, &t) < 0)
		return uk_cli_error(cli, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		s = uk_json_array_at(sites, i);
		r = (struct row){
			.count = get_u64(s, "count"),
			.suppressed = daemon_suppressed(s),
			.first_real = get_u64(s, "first_ts_real"),
			.last_real = get_u64(s, "last_ts_real"),
			.kind = get_str(s, "kind"),
			.helper = get_str(s, "helper"),
			.direction = get_str(s, "direction"),
			.site = get_str(s, "site_symbol"),
		};
		if (!r.site || !r.site[0])
			r.site = get_str(s, "site_ip");
		if (add_row(t, &r) < 0) {
			ret = uk_cli_error(cli, -ENOMEM, "out of memory");
			goto out;
		}
	}
	ret = print_table(cli, t, total);
out:
	uk_cli_table_free(t);
	return ret;
}

static int from_daemon(const struct uk_cli *cli, enum uk_sort sort,
		       uint64_t limit)
{
	struct uk_json_value *reply = NULL;
	const struct uk_json_value *sites;
	char req[128], why[512];
	uint64_t total = 0;
	int r;

	snprintf(req, sizeof(req),
		 "{\"cmd\":\"sites\",\"sort\":\"%s\",\"limit\":%" PRIu64 "}",
		 uk_sort_name(sort), limit);
	r = uk_cli_ctl(cli, req, &reply, why, sizeof(why));
	if (r < 0)
		return uk_cli_ctl_fail(cli, r, why);
	sites = uk_json_object_get(reply, "sites");
	if (uk_json_type(sites) != UK_JSON_ARRAY ||
	    uk_json_get_u64(uk_json_object_get(reply, "total"), &total) < 0)
		r = uk_cli_error(cli, -EPROTO,
				 "uaccessd's sites reply has no \"sites\" array or \"total\"");
	else if (cli->json)
		r = daemon_json(cli, total, sites);
	else
		r = daemon_text(cli, total, sites);
	uk_json_value_free(reply);
	return r;
}

/* ---- from the kernel ---- */

struct site_list {
	struct uk_site *v;
	size_t n, cap;
};

static int collect(const struct uk_site *site, void *data)
{
	struct site_list *l = data;
	struct uk_site *p;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;

		p = realloc(l->v, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		l->v = p;
		l->cap = cap;
	}
	l->v[l->n++] = *site;
	return 0;
}

static int site_cmp(const void *pa, const void *pb, void *sort)
{
	const struct uk_site *v[2] = { pa, pb };
	struct uk_sort_site k[2];
	int i;

	for (i = 0; i < 2; i++)
		k[i] = (struct uk_sort_site){
			.count = v[i]->count, .last = v[i]->last_ts_boot,
			.name = v[i]->site_symbol, .ip = v[i]->site_ip,
			.kind = v[i]->kind, .helper = v[i]->helper,
			.direction = v[i]->direction,
		};
	return uk_sort_site_cmp(*(const enum uk_sort *)sort, &k[0], &k[1]);
}

static bool has(const struct uk_site *s, int attr)
{
	return s->present & (1ULL << attr);
}

static int kernel_text(const struct uk_cli *cli, const struct site_list *l,
		       size_t shown)
{
	char kind[16], helper[16], dir[16], ip[24];
	struct uk_cli_table *t = NULL;
	const struct uk_site *s;
	struct row r;
	size_t i;
	int ret;

	if (uk_cli_table_new(columns, NCOLS, &t) < 0)
		return uk_cli_error(cli, -ENOMEM, "out of memory");
	for (i = 0; i < shown; i++) {
		s = &l->v[i];
		snprintf(ip, sizeof(ip), "0x%016" PRIx64, s->site_ip);
		r = (struct row){
			.count = s->count,
			.suppressed = s->suppressed,
			.first_real = uk_cli_boot_to_real(s->first_ts_boot),
			.last_real = uk_cli_boot_to_real(s->last_ts_boot),
			.kind = uk_enum_text(UK_ENUM_KIND, s->kind, kind,
					  sizeof(kind)),
			.helper = uk_enum_text(UK_ENUM_HELPER, s->helper, helper,
					    sizeof(helper)),
			.direction = uk_enum_text(UK_ENUM_DIRECTION, s->direction,
					       dir, sizeof(dir)),
			.site = s->site_symbol[0] ? s->site_symbol : ip,
		};
		if (add_row(t, &r) < 0) {
			ret = uk_cli_error(cli, -ENOMEM, "out of memory");
			goto out;
		}
	}
	ret = print_table(cli, t, l->n);
out:
	uk_cli_table_free(t);
	return ret;
}

/*
 * The kernel's field names, but the two counters named as in uaccessd's
 * sites reply, so that both sources read alike.
 */
static void site_fields(struct uk_field *out, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && uk_site_fields[i].name; i++) {
		out[i] = uk_site_fields[i];
		if (out[i].attr == UACCESS_KADDR_A_SITE_SUPPRESSED)
			out[i].name = "kernel_suppressed";
		else if (out[i].attr == UACCESS_KADDR_A_SITE_REPORTED)
			out[i].name = "kernel_reported";
	}
	memset(&out[i], 0, sizeof(out[i]));
}

static int kernel_json(const struct uk_cli *cli, const struct site_list *l,
		       size_t shown)
{
	struct uk_field fields[UACCESS_KADDR_A_SITE_MAX + 1];
	const struct uk_site *s;
	struct uk_json j;
	uint64_t real;
	size_t i;

	site_fields(fields, ARRAY_SIZE(fields));
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_str(&j, "source", "netlink");
	uk_json_kv_u64(&j, "total", l->n);
	uk_json_key(&j, "sites");
	uk_json_array_begin(&j);
	for (i = 0; i < shown; i++) {
		s = &l->v[i];
		uk_json_object_begin(&j);
		uk_fields_json(&j, fields, s);
		real = uk_cli_boot_to_real(s->first_ts_boot);
		if (has(s, UACCESS_KADDR_A_SITE_FIRST_TIMESTAMP_BOOT) && real)
			uk_json_kv_u64(&j, "first_ts_real", real);
		real = uk_cli_boot_to_real(s->last_ts_boot);
		if (has(s, UACCESS_KADDR_A_SITE_LAST_TIMESTAMP_BOOT) && real)
			uk_json_kv_u64(&j, "last_ts_real", real);
		uk_json_kv_u64(&j, "suppressed", s->suppressed);
		uk_json_object_end(&j);
	}
	uk_json_array_end(&j);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

static int from_kernel(const struct uk_cli *cli, enum uk_sort sort,
		       uint64_t limit)
{
	struct site_list l = { 0 };
	struct uk_nl *nl = NULL;
	char why[256] = "";
	size_t shown;
	int r;

	r = uk_cli_nl_open(cli, &nl);
	if (r)
		return r;
	r = uk_cli_sys->nl_dump_sites(nl, collect, &l, why, sizeof(why));
	uk_cli_sys->nl_close(nl);
	if (r < 0) {
		free(l.v);
		if (r == -ENOMEM)
			return uk_cli_error(cli, UK_ERR_FAILURE,
					    "out of memory");
		return uk_cli_nl_fail(cli, "dump-sites", r, why);
	}
	if (l.n)
		qsort_r(l.v, l.n, sizeof(*l.v), site_cmp, &sort);
	shown = limit && l.n > limit ? (size_t)limit : l.n;
	r = cli->json ? kernel_json(cli, &l, shown) :
			kernel_text(cli, &l, shown);
	free(l.v);
	return r;
}

/* ---- the verbs ---- */

static int sites_verb(const struct uk_cli *cli, const char *verb,
		      uint64_t limit, int argc, char **argv)
{
	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "%s: unexpected argument '%s'", verb,
				    argv[0]);
	if (cli->directory || cli->since || cli->until || cli->boot)
		return cli->kernel ?
		       uk_cli_error(cli, UK_ERR_USAGE,
				    "%s: --kernel and the journal options (--directory, --since, --until, --boot) exclude each other",
				    verb) :
		       uk_cli_fleet(cli, cli->sort, limit);
	return cli->kernel ? from_kernel(cli, cli->sort, limit) :
			     from_daemon(cli, cli->sort, limit);
}

int uk_cli_sites(const struct uk_cli *cli, int argc, char **argv)
{
	return sites_verb(cli, "sites", cli->lines, argc, argv);
}

int uk_cli_top(const struct uk_cli *cli, int argc, char **argv)
{
	return sites_verb(cli, "top", cli->lines ? cli->lines : TOP_DEFAULT,
			  argc, argv);
}
