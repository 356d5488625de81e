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
#include "site_row.h"

#define TOP_DEFAULT	10

/* The columns of sites and top from the kernel and from uaccessd. */
static const enum uk_site_col columns[] = {
	UK_COL_COUNT, UK_COL_KIND, UK_COL_HELPER, UK_COL_DIR, UK_COL_SITE,
	UK_COL_FIRST, UK_COL_LAST, UK_COL_SUPPRESSED,
};

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

/*
 * The document: {"source":...,"total":N,"sites":[rows]}, each row's
 * shared keys followed by what only its source has (@extra).
 */
static int print_json(const struct uk_cli *cli, const char *source,
		      uint64_t total, const struct uk_site_row *rows,
		      size_t n, void (*extra)(struct uk_json *j, size_t i,
					      const void *data),
		      const void *data)
{
	struct uk_json j;
	size_t i;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_str(&j, "source", source);
	uk_json_kv_u64(&j, "total", total);
	uk_json_key(&j, "sites");
	uk_json_array_begin(&j);
	for (i = 0; i < n; i++) {
		uk_json_object_begin(&j);
		uk_site_row_json(&j, &rows[i]);
		extra(&j, i, data);
		uk_json_object_end(&j);
	}
	uk_json_array_end(&j);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

static int print_rows(const struct uk_cli *cli, const char *source,
		      uint64_t total, const struct uk_site_row *rows,
		      size_t n, void (*extra)(struct uk_json *j, size_t i,
					      const void *data),
		      const void *data)
{
	int r;

	if (cli->json)
		return print_json(cli, source, total, rows, n, extra, data);
	r = uk_site_rows_print(cli, rows, n, columns, ARRAY_SIZE(columns));
	if (r == 0)
		print_footer(cli, n, total);
	return r;
}

/* ---- from uaccessd ---- */

static bool get_u64(const struct uk_json_value *o, const char *key,
		    uint64_t *v)
{
	return uk_json_get_u64(uk_json_object_get(o, key), v) == 0;
}

/* A number of uaccessd's reply as a member of the row, when present. */
static void take_u64(struct uk_site_row *r, const struct uk_json_value *o,
		     const char *key, unsigned int bit, uint64_t *field)
{
	if (get_u64(o, key, field))
		r->has |= bit;
}

/* A time of uaccessd's reply (ns; 0: unknown) as microseconds. */
static void take_time(struct uk_site_row *r, const struct uk_json_value *o,
		      const char *key, unsigned int bit, uint64_t *field)
{
	uint64_t ns;

	if (get_u64(o, key, &ns) && ns) {
		*field = ns / UK_NSEC_PER_USEC;
		r->has |= bit;
	}
}

static void take_str(struct uk_site_row *r, const struct uk_json_value *o,
		     const char *key, unsigned int bit, char *field)
{
	const char *s;

	if (uk_json_get_str(uk_json_object_get(o, key), &s) == 0 && s[0])
		uk_site_row_text(r, bit, field, "%s", s);
}

/* uaccessd's site object as a row. */
static void daemon_row(const struct uk_json_value *s, struct uk_site_row *r)
{
	const char *sym;

	memset(r, 0, sizeof(*r));
	take_u64(r, s, "site_id", UK_ROW_SITE_ID, &r->site_id);
	/* "" is how uaccessd says "no symbol": absent here. */
	if (uk_json_get_str(uk_json_object_get(s, "site_symbol"), &sym) == 0 &&
	    sym[0]) {
		r->site_symbol = sym;
		r->has |= UK_ROW_SITE_SYMBOL;
	}
	take_str(r, s, "site_ip", UK_ROW_SITE_IP, r->site_ip);
	take_str(r, s, "kind", UK_ROW_KIND, r->kind);
	take_str(r, s, "helper", UK_ROW_HELPER, r->helper);
	take_str(r, s, "direction", UK_ROW_DIRECTION, r->direction);
	take_u64(r, s, "count", UK_ROW_COUNT, &r->count);
	take_u64(r, s, "kernel_suppressed", UK_ROW_KERNEL_SUPPRESSED,
		 &r->kernel_suppressed);
	take_u64(r, s, "kernel_reported", UK_ROW_KERNEL_REPORTED,
		 &r->kernel_reported);
	take_u64(r, s, "events", UK_ROW_EVENTS, &r->events);
	take_u64(r, s, "journaled", UK_ROW_JOURNALED, &r->journaled);
	take_u64(r, s, "journal_suppressed", UK_ROW_JOURNAL_SUPPRESSED,
		 &r->journal_suppressed);
	take_time(r, s, "first_ts_real", UK_ROW_FIRST, &r->first_usec);
	take_time(r, s, "last_ts_real", UK_ROW_LAST, &r->last_usec);
	take_time(r, s, "first_ts_boot", UK_ROW_FIRST_BOOT,
		  &r->first_boot_usec);
	take_time(r, s, "last_ts_boot", UK_ROW_LAST_BOOT, &r->last_boot_usec);
	take_str(r, s, "last_address", UK_ROW_LAST_ADDRESS, r->last_address);
}

/*
 * A value of uaccessd's reply as it is, but its nanosecond times
 * ("ts_boot", "ts_real" of the samples) in microseconds, under keys that
 * say so (uk_cli_usec_key()).
 */
static void write_usec(struct uk_json *j, const struct uk_json_value *v)
{
	const char *usec;
	uint64_t ns;
	size_t i, n;

	switch (uk_json_type(v)) {
	case UK_JSON_OBJECT:
		uk_json_object_begin(j);
		uk_json_for_each_member(it, v) {
			usec = uk_cli_usec_key(it.key);
			if (usec && uk_json_get_u64(it.value, &ns) == 0) {
				uk_json_kv_u64(j, usec, ns / UK_NSEC_PER_USEC);
				continue;
			}
			uk_json_key(j, it.key);
			write_usec(j, it.value);
		}
		uk_json_object_end(j);
		break;
	case UK_JSON_ARRAY:
		uk_json_array_begin(j);
		n = uk_json_array_len(v);
		for (i = 0; i < n; i++)
			write_usec(j, uk_json_array_at(v, i));
		uk_json_array_end(j);
		break;
	default:
		uk_json_value_write(j, v);
		break;
	}
}

/* What uaccessd alone has: its stacks and samples. */
static void daemon_extra(struct uk_json *j, size_t i, const void *data)
{
	static const char *const keys[] = {
		"stacks", "stacks_other", "samples",
	};
	const struct uk_json_value *s = uk_json_array_at(data, i), *m;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		m = uk_json_object_get(s, keys[k]);
		if (!m)
			continue;
		uk_json_key(j, keys[k]);
		write_usec(j, m);
	}
}

static int from_daemon(const struct uk_cli *cli, enum uk_sort sort,
		       uint64_t limit)
{
	struct uk_json_value *reply = NULL;
	const struct uk_json_value *sites;
	struct uk_site_row *rows = NULL;
	char req[128], why[512];
	uint64_t total = 0;
	size_t i, n;
	int r;

	snprintf(req, sizeof(req),
		 "{\"cmd\":\"sites\",\"sort\":\"%s\",\"limit\":%" PRIu64 "}",
		 uk_sort_name(sort), limit);
	r = uk_cli_ctl(cli, req, &reply, why, sizeof(why));
	if (r < 0)
		return uk_cli_ctl_fail(cli, r, why);
	sites = uk_json_object_get(reply, "sites");
	if (uk_json_type(sites) != UK_JSON_ARRAY ||
	    uk_json_get_u64(uk_json_object_get(reply, "total"), &total) < 0) {
		r = uk_cli_error(cli, -EPROTO,
				 "uaccessd's sites reply has no \"sites\" array or \"total\"");
		goto out;
	}
	n = uk_json_array_len(sites);
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		r = uk_cli_error(cli, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		daemon_row(uk_json_array_at(sites, i), &rows[i]);
	r = print_rows(cli, "uaccessd", total, rows, n, daemon_extra, sites);
out:
	free(rows);
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

/* A boot-time stamp of the kernel's (ns) as the row's two times (us). */
static void kernel_time(struct uk_site_row *r, const struct uk_site *s,
			int attr, uint64_t boot_ns, unsigned int bit,
			uint64_t *real, unsigned int boot_bit, uint64_t *boot)
{
	uint64_t ns;

	if (!has(s, attr) || !boot_ns)
		return;
	*boot = boot_ns / UK_NSEC_PER_USEC;
	r->has |= boot_bit;
	ns = uk_cli_boot_to_real(boot_ns);
	if (ns) {
		*real = ns / UK_NSEC_PER_USEC;
		r->has |= bit;
	}
}

/* The kernel's site as a row. */
static void kernel_row(const struct uk_site *s, struct uk_site_row *r)
{
	static const struct {
		int attr;
		unsigned int bit;
		size_t off;
	} nums[] = {
		{ UACCESS_KADDR_A_SITE_COUNT, UK_ROW_COUNT,
		  offsetof(struct uk_site_row, count) },
		{ UACCESS_KADDR_A_SITE_SUPPRESSED, UK_ROW_KERNEL_SUPPRESSED,
		  offsetof(struct uk_site_row, kernel_suppressed) },
		{ UACCESS_KADDR_A_SITE_REPORTED, UK_ROW_KERNEL_REPORTED,
		  offsetof(struct uk_site_row, kernel_reported) },
	};
	const uint64_t val[] = { s->count, s->suppressed, s->reported };
	char buf[16];
	size_t i;

	memset(r, 0, sizeof(*r));
	if (has(s, UACCESS_KADDR_A_SITE_SITE_ID)) {
		r->site_id = s->site_id;
		r->has |= UK_ROW_SITE_ID;
	}
	if (has(s, UACCESS_KADDR_A_SITE_SITE_SYMBOL) && s->site_symbol[0]) {
		r->site_symbol = s->site_symbol;
		r->has |= UK_ROW_SITE_SYMBOL;
	}
	if (has(s, UACCESS_KADDR_A_SITE_SITE_IP))
		uk_site_row_text(r, UK_ROW_SITE_IP, r->site_ip,
				 "0x%016" PRIx64, s->site_ip);
	if (has(s, UACCESS_KADDR_A_SITE_KIND))
		uk_site_row_text(r, UK_ROW_KIND, r->kind, "%s",
				 uk_enum_text(UK_ENUM_KIND, s->kind, buf,
					      sizeof(buf)));
	if (has(s, UACCESS_KADDR_A_SITE_HELPER))
		uk_site_row_text(r, UK_ROW_HELPER, r->helper, "%s",
				 uk_enum_text(UK_ENUM_HELPER, s->helper, buf,
					      sizeof(buf)));
	if (has(s, UACCESS_KADDR_A_SITE_DIRECTION))
		uk_site_row_text(r, UK_ROW_DIRECTION, r->direction, "%s",
				 uk_enum_text(UK_ENUM_DIRECTION, s->direction,
					      buf, sizeof(buf)));
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		if (!has(s, nums[i].attr))
			continue;
		*(uint64_t *)((char *)r + nums[i].off) = val[i];
		r->has |= nums[i].bit;
	}
	kernel_time(r, s, UACCESS_KADDR_A_SITE_FIRST_TIMESTAMP_BOOT,
		    s->first_ts_boot, UK_ROW_FIRST, &r->first_usec,
		    UK_ROW_FIRST_BOOT, &r->first_boot_usec);
	kernel_time(r, s, UACCESS_KADDR_A_SITE_LAST_TIMESTAMP_BOOT,
		    s->last_ts_boot, UK_ROW_LAST, &r->last_usec,
		    UK_ROW_LAST_BOOT, &r->last_boot_usec);
	if (has(s, UACCESS_KADDR_A_SITE_LAST_ADDRESS))
		uk_site_row_text(r, UK_ROW_LAST_ADDRESS, r->last_address,
				 "0x%016" PRIx64, s->last_address);
}

/* What the kernel alone has: the last task and stack of the site. */
static void kernel_extra(struct uk_json *j, size_t i, const void *data)
{
	static const int attrs[] = {
		UACCESS_KADDR_A_SITE_LAST_PID,
		UACCESS_KADDR_A_SITE_LAST_COMM,
		UACCESS_KADDR_A_SITE_STACK_HASH,
	};
	const struct site_list *l = data;
	struct uk_field f[ARRAY_SIZE(attrs) + 1] = { 0 };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(attrs); k++)
		f[k] = *uk_field_by_attr(uk_site_fields, attrs[k]);
	uk_fields_json(j, f, &l->v[i]);
}

static int from_kernel(const struct uk_cli *cli, enum uk_sort sort,
		       uint64_t limit)
{
	struct site_list l = { 0 };
	struct uk_site_row *rows = NULL;
	struct uk_nl *nl = NULL;
	char why[256] = "";
	size_t shown, i;
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
	rows = calloc(shown ? shown : 1, sizeof(*rows));
	if (!rows) {
		free(l.v);
		return uk_cli_error(cli, UK_ERR_FAILURE, "out of memory");
	}
	for (i = 0; i < shown; i++)
		kernel_row(&l.v[i], &rows[i]);
	r = print_rows(cli, "netlink", l.n, rows, shown, kernel_extra, &l);
	free(rows);
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
