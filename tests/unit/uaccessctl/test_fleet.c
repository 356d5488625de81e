// SPDX-License-Identifier: GPL-2.0
/*
 * The totals of `uaccessctl sites/top --directory` (daemon/uaccessctl/fleet.c)
 * from journal entries held as fields: events and summaries by machine
 * and over the fleet, summaries' counts summed (never their running
 * totals), duplicates counted once, entries with missing or garbage
 * UACCESS_* fields skipped and counted as skipped, machine labels, the
 * orders, the table (a golden file) and the JSON.  The list table's
 * labels for machines that share a host name are here too.
 *
 * UK_UPDATE_GOLDEN=1 rewrites the golden files from the output instead
 * of comparing; review the diff before committing it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uaccessctl/fleet.h"
#include "uaccessctl/list.h"
#include "common/msgid.h"
#include "common/json.h"
#include "common/util.h"
#include "fixtures.h"
#include "golden.h"
#include "entry_fake.h"

#define USEC		1000000ULL
/* Thu 2026-12-03 07:12:01 UTC */
#define NOW		(1796281921ULL * USEC)

#define MID_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define MID_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
#define MID_C	"ccccccccccccccccccccccccccccccc3"
#define BOOT_1	"11111111111111111111111111111111"
#define BOOT_2	"22222222222222222222222222222222"

static void trusted(struct uk_entry *e, const char *mid, const char *host,
		    const char *boot, uint64_t t)
{
	uk_entry_init(e);
	e->realtime_usec = t;
	if (mid)
		entry_addf(e, "_MACHINE_ID=%s", mid);
	if (host)
		entry_addf(e, "_HOSTNAME=%s", host);
	if (boot)
		entry_addf(e, "_BOOT_ID=%s", boot);
}

/* An event entry as uaccessd writes it (the fields top reads). */
static void event(struct uk_entry *e, const char *mid, const char *host,
		  const char *boot, uint64_t seq, unsigned int site,
		  uint64_t t)
{
	trusted(e, mid, host, boot, t);
	entry_addf(e, "MESSAGE_ID=%s", UK_MSGID_EVENT);
	entry_addf(e, "UACCESS_SEQ=%llu", (unsigned long long)seq);
	entry_addf(e, "UACCESS_KIND=precheck");
	entry_addf(e, "UACCESS_HELPER=__copy_to_user");
	entry_addf(e, "UACCESS_DIRECTION=to-user");
	entry_addf(e, "UACCESS_SITE_SYMBOL=uk_site_%u+0x1c/0x80", site);
	entry_addf(e, "UACCESS_SITE_IP=0x%016llx",
	    0xffffffff81000000ULL + 0x40ULL * site);
	entry_addf(e, "UACCESS_COUNT=%llu", (unsigned long long)seq);
}

/* A suppressed summary: @n more occurrences, running total @total. */
static void summary(struct uk_entry *e, const char *mid, const char *host,
		    const char *boot, unsigned int site, uint64_t n,
		    uint64_t total, uint64_t t)
{
	trusted(e, mid, host, boot, t);
	entry_addf(e, "MESSAGE_ID=%s", UK_MSGID_SUPPRESSED);
	entry_addf(e, "UACCESS_SITE_SYMBOL=uk_site_%u+0x1c/0x80", site);
	entry_addf(e, "UACCESS_SITE_IP=0x%016llx",
	    0xffffffff81000000ULL + 0x40ULL * site);
	entry_addf(e, "UACCESS_KIND=precheck");
	entry_addf(e, "UACCESS_HELPER=__copy_to_user");
	entry_addf(e, "UACCESS_SUPPRESSED_COUNT=%llu", (unsigned long long)n);
	entry_addf(e, "UACCESS_SUPPRESSED_TOTAL=%llu", (unsigned long long)total);
}

/* What uk_fleet_add() took @e for, or its error. */
static int add_to(struct uk_fleet *f, struct uk_entry *e)
{
	enum uk_fleet_took took;
	char why[256] = "";
	int r = uk_fleet_add(f, e, &took, why, sizeof(why));

	uk_entry_release(e);
	return r < 0 ? r : (int)took;
}

static const struct uk_fleet_machine *machine(const struct uk_fleet *f,
					      const char *mid)
{
	size_t i;

	for (i = 0; i < f->n_machines; i++)
		if (!strcmp(f->machines[i].machine_id, mid))
			return &f->machines[i];
	fail_msg("no machine %s", mid);
	return NULL;
}

static const struct uk_fleet_site *site_of(const struct uk_fleet_site *s,
					   size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].site, name))
			return &s[i];
	fail_msg("no site %s", name);
	return NULL;
}

/*
 * Three machines: A 6 events at sites 0-2 and a summary of 10 at site 0;
 * B 3 events at site 0, summaries of 4 and 5 at site 1 (totals 4, 9);
 * C 1 event at site 3.
 */
static void fill_fleet(struct uk_fleet *f)
{
	struct uk_entry e;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		event(&e, MID_A, "node-a", BOOT_1, i + 1, i % 3,
		      NOW + i * USEC);
		assert_int_equal(add_to(f, &e), 0);
	}
	summary(&e, MID_A, "node-a", BOOT_1, 0, 10, 10, NOW + 10 * USEC);
	assert_int_equal(add_to(f, &e), 0);
	for (i = 0; i < 3; i++) {
		event(&e, MID_B, "node-b", BOOT_2, i + 1, 0, NOW + i * USEC);
		assert_int_equal(add_to(f, &e), 0);
	}
	summary(&e, MID_B, "node-b", BOOT_2, 1, 4, 4, NOW + 20 * USEC);
	assert_int_equal(add_to(f, &e), 0);
	summary(&e, MID_B, "node-b", BOOT_2, 1, 5, 9, NOW + 40 * USEC);
	assert_int_equal(add_to(f, &e), 0);
	event(&e, MID_C, "node-c", BOOT_1, 1, 3, NOW + 30 * USEC);
	assert_int_equal(add_to(f, &e), 0);
}

static void totals_by_machine_and_fleet(void **state)
{
	const struct uk_fleet_machine *m;
	const struct uk_fleet_site *s;
	struct uk_fleet f;

	uk_fleet_init(&f);
	fill_fleet(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	assert_int_equal(f.n_machines, 3);
	assert_int_equal(f.event_entries, 10);
	assert_int_equal(f.summary_entries, 3);
	assert_int_equal(f.events, 10);
	assert_int_equal(f.suppressed, 19);
	assert_int_equal(f.count, 29);
	assert_int_equal(f.skipped + f.duplicates + f.other, 0);

	m = machine(&f, MID_A);
	assert_string_equal(m->label, "node-a");
	assert_int_equal(m->count, 16);
	assert_int_equal(m->n_sites, 3);
	s = site_of(m->sites, m->n_sites, "uk_site_0+0x1c/0x80");
	assert_int_equal(s->events, 2);
	assert_int_equal(s->suppressed, 10);
	assert_int_equal(s->count, 12);
	assert_string_equal(s->site_ip, "0xffffffff81000000");
	assert_string_equal(s->direction, "to-user");
	/* the hits are the events': the summary is written after them */
	assert_int_equal(s->first, NOW);
	assert_int_equal(s->last, NOW + 3 * USEC);

	/* Summaries' counts add up; their running totals are not added. */
	m = machine(&f, MID_B);
	assert_int_equal(m->count, 12);
	s = site_of(m->sites, m->n_sites, "uk_site_1+0x1c/0x80");
	assert_int_equal(s->events, 0);
	assert_int_equal(s->suppressed, 9);
	/* A site known from summaries only: no direction. */
	assert_string_equal(s->direction, "");

	/* The fleet: each site over the machines. */
	assert_int_equal(f.n_sites, 4);
	s = site_of(f.sites, f.n_sites, "uk_site_0+0x1c/0x80");
	assert_int_equal(s->events, 5);
	assert_int_equal(s->suppressed, 10);
	assert_int_equal(s->count, 15);
	assert_int_equal(s->machines, 2);
	s = site_of(f.sites, f.n_sites, "uk_site_1+0x1c/0x80");
	assert_int_equal(s->count, 11);
	assert_int_equal(s->machines, 2);
	s = site_of(f.sites, f.n_sites, "uk_site_3+0x1c/0x80");
	assert_int_equal(s->count, 1);
	assert_int_equal(s->machines, 1);
	uk_fleet_release(&f);
}

static void sorted_by_count_last_or_name(void **state)
{
	struct uk_fleet f;

	uk_fleet_init(&f);
	fill_fleet(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	/* Machines by count (16, 12, 1), sites too. */
	assert_string_equal(f.machines[0].label, "node-a");
	assert_string_equal(f.machines[1].label, "node-b");
	assert_string_equal(f.machines[2].label, "node-c");
	assert_string_equal(f.sites[0].site, "uk_site_0+0x1c/0x80");
	assert_string_equal(f.sites[1].site, "uk_site_1+0x1c/0x80");
	assert_string_equal(f.sites[3].site, "uk_site_3+0x1c/0x80");
	assert_string_equal(f.machines[1].sites[0].site, "uk_site_1+0x1c/0x80");
	uk_fleet_release(&f);

	uk_fleet_init(&f);
	fill_fleet(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_LAST), 0);
	/* node-b's last entry is the newest (+40 s), then node-c (+30 s). */
	assert_string_equal(f.machines[0].label, "node-b");
	assert_string_equal(f.machines[1].label, "node-c");
	assert_string_equal(f.sites[0].site, "uk_site_1+0x1c/0x80");
	assert_string_equal(f.sites[1].site, "uk_site_3+0x1c/0x80");
	uk_fleet_release(&f);

	uk_fleet_init(&f);
	fill_fleet(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_NAME), 0);
	assert_string_equal(f.machines[0].label, "node-a");
	assert_string_equal(f.sites[0].site, "uk_site_0+0x1c/0x80");
	assert_string_equal(f.sites[2].site, "uk_site_2+0x1c/0x80");
	uk_fleet_release(&f);
	assert_int_equal(uk_fleet_finish(&f, (enum uk_sort)7), -EINVAL);
}

static void duplicates_are_counted_once(void **state)
{
	struct uk_fleet f;
	struct uk_entry e;

	uk_fleet_init(&f);
	event(&e, MID_A, "node-a", BOOT_1, 5, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	/* Uploaded again: the same machine, boot and sequence number. */
	event(&e, MID_A, "node-a", BOOT_1, 5, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_DUPLICATE);
	/* The same number on another boot, another machine: other events. */
	event(&e, MID_A, "node-a", BOOT_2, 5, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_B, "node-b", BOOT_1, 5, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	/* A summary twice; then the next one of the site. */
	summary(&e, MID_A, "node-a", BOOT_1, 0, 3, 3, NOW + USEC);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	summary(&e, MID_A, "node-a", BOOT_1, 0, 3, 3, NOW + USEC);
	assert_int_equal(add_to(&f, &e), UK_FLEET_DUPLICATE);
	summary(&e, MID_A, "node-a", BOOT_1, 0, 3, 6, NOW + 2 * USEC);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	assert_int_equal(f.duplicates, 2);
	assert_int_equal(f.events, 3);
	assert_int_equal(f.suppressed, 6);
	assert_int_equal(f.count, 9);
	uk_fleet_release(&f);
}

/* Builds a bad entry: an event or summary with @field set to @value. */
static void bad(struct uk_entry *e, bool is_event, const char *drop,
		const char *datum, size_t len)
{
	struct uk_entry full;
	size_t i;

	if (is_event)
		event(&full, MID_A, "node-a", BOOT_1, 77, 0, NOW);
	else
		summary(&full, MID_A, "node-a", BOOT_1, 0, 2, 2, NOW);
	uk_entry_init(e);
	e->realtime_usec = full.realtime_usec;
	for (i = 0; i < full.n; i++) {
		const struct uk_entry_field *x = &full.fields[i];
		char buf[512];
		int n;

		if (drop && !strcmp(x->name, drop))
			continue;
		n = snprintf(buf, sizeof(buf), "%s=%s", x->name, x->value);
		assert_int_equal(uk_entry_add(e, buf, (size_t)n), 0);
	}
	if (datum)
		assert_int_equal(uk_entry_add(e, datum, len), 0);
	uk_entry_release(&full);
}

static void malformed_entries_are_skipped_and_counted(void **state)
{
	static const char nul_kind[] = "UACCESS_KIND=pre\0check";
	static const struct {
		bool event;
		const char *drop;
		const char *datum;
		size_t len;		/* 0: strlen */
		const char *why;
	} cases[] = {
		{ true, "UACCESS_SEQ", NULL, 0, "no UACCESS_SEQ" },
		{ true, "UACCESS_SEQ", "UACCESS_SEQ=12x", 0,
		  "UACCESS_SEQ=12x is not a decimal number" },
		{ true, "UACCESS_SEQ", "UACCESS_SEQ=-1", 0, "not a decimal" },
		{ true, "UACCESS_SEQ", "UACCESS_SEQ=", 0, "UACCESS_SEQ is empty" },
		{ true, "UACCESS_SEQ", "UACCESS_SEQ=18446744073709551616", 0,
		  "not a decimal" },
		{ true, "UACCESS_KIND", NULL, 0, "no UACCESS_KIND" },
		{ true, "UACCESS_KIND", nul_kind, sizeof(nul_kind) - 1,
		  "UACCESS_KIND is not text" },
		{ true, "UACCESS_HELPER", "UACCESS_HELPER=__get\x1b[2Juser", 0,
		  "UACCESS_HELPER holds a control character" },
		{ true, "UACCESS_DIRECTION", "UACCESS_DIRECTION=", 0,
		  "UACCESS_DIRECTION is empty" },
		{ true, "UACCESS_SITE_IP", "UACCESS_SITE_IP=ffff", 0,
		  "UACCESS_SITE_IP=ffff is not an address" },
		{ true, "UACCESS_SITE_IP", "UACCESS_SITE_IP=0x1234567890abcdef0", 0,
		  "not an address" },
		{ false, "UACCESS_SUPPRESSED_COUNT", NULL, 0,
		  "no UACCESS_SUPPRESSED_COUNT" },
		{ false, "UACCESS_SUPPRESSED_COUNT",
		  "UACCESS_SUPPRESSED_COUNT=two", 0,
		  "UACCESS_SUPPRESSED_COUNT=two is not a decimal number" },
		{ false, "UACCESS_SUPPRESSED_TOTAL", NULL, 0,
		  "no UACCESS_SUPPRESSED_TOTAL" },
		{ false, "UACCESS_SUPPRESSED_TOTAL",
		  "UACCESS_SUPPRESSED_TOTAL=1", 0,
		  "UACCESS_SUPPRESSED_TOTAL=1 is below UACCESS_SUPPRESSED_COUNT=2" },
		{ false, "UACCESS_HELPER", NULL, 0, "no UACCESS_HELPER" },
		{ false, "UACCESS_KIND", NULL, 0, "no UACCESS_KIND" },
	};
	struct uk_fleet f;
	struct uk_entry e;
	size_t i;

	uk_fleet_init(&f);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum uk_fleet_took took;
		char why[256] = "";
		int r;

		bad(&e, cases[i].event, cases[i].drop, cases[i].datum,
		    cases[i].len ? cases[i].len :
		    cases[i].datum ? strlen(cases[i].datum) : 0);
		r = uk_fleet_add(&f, &e, &took, why, sizeof(why));
		uk_entry_release(&e);
		if (r != -EINVAL || !strstr(why, cases[i].why))
			fail_msg("case %zu: want -EINVAL and \"%s\", got %d \"%s\"",
				 i, cases[i].why, r, why);
	}
	/* Neither a symbol nor an address. */
	bad(&e, true, "UACCESS_SITE_IP", NULL, 0);
	{
		struct uk_entry e2;
		size_t k;

		uk_entry_init(&e2);
		for (k = 0; k < e.n; k++) {
			char buf[512];
			int n;

			if (!strcmp(e.fields[k].name, "UACCESS_SITE_SYMBOL"))
				continue;
			n = snprintf(buf, sizeof(buf), "%s=%s",
				     e.fields[k].name, e.fields[k].value);
			assert_int_equal(uk_entry_add(&e2, buf, (size_t)n), 0);
		}
		uk_entry_release(&e);
		assert_int_equal(add_to(&f, &e2), -EINVAL);
	}
	assert_int_equal(f.skipped, ARRAY_SIZE(cases) + 1);
	assert_string_equal(f.first_skip, "node-a: no UACCESS_SEQ");
	/* Nothing was counted, no machine made up. */
	assert_int_equal(f.count + f.events + f.suppressed, 0);
	assert_int_equal(f.n_machines, 0);
	assert_int_equal(f.duplicates, 0);

	/* A good entry after them counts as usual. */
	event(&e, MID_A, "node-a", BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	assert_int_equal(f.count, 1);
	uk_fleet_release(&f);
}

static void other_entries_are_left_alone(void **state)
{
	struct uk_fleet f;
	struct uk_entry e;

	uk_fleet_init(&f);
	trusted(&e, MID_A, "node-a", BOOT_1, NOW);
	entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_LOSS);
	entry_addf(&e, "UACCESS_LOSS_COUNT=3");
	assert_int_equal(add_to(&f, &e), UK_FLEET_OTHER);
	trusted(&e, MID_A, "node-a", BOOT_1, NOW);
	entry_addf(&e, "MESSAGE=no MESSAGE_ID");
	assert_int_equal(add_to(&f, &e), UK_FLEET_OTHER);
	assert_int_equal(f.other, 2);
	assert_int_equal(f.skipped + f.count + f.n_machines, 0);
	uk_fleet_release(&f);
}

static void odd_but_valid_sites(void **state)
{
	const struct uk_fleet_site *s;
	struct uk_fleet f;
	struct uk_entry e;

	uk_fleet_init(&f);
	/* No symbol (empty, as uaccessd writes it): the site is its address. */
	trusted(&e, MID_A, "node-a", BOOT_1, NOW);
	entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_EVENT);
	entry_addf(&e, "UACCESS_SEQ=1");
	entry_addf(&e, "UACCESS_KIND=gp");
	entry_addf(&e, "UACCESS_HELPER=__get_user");
	entry_addf(&e, "UACCESS_SITE_IP=0xffffffff81000040");
	entry_addf(&e, "UACCESS_SITE_SYMBOL=");
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	/* The summary of evicted sites: no kind, no helper of its own. */
	trusted(&e, MID_A, "node-a", BOOT_1, NOW + USEC);
	entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_SUPPRESSED);
	entry_addf(&e, "UACCESS_SITE_SYMBOL=(sites evicted from uaccessd's table)");
	entry_addf(&e, "UACCESS_SITE_IP=0x0000000000000000");
	entry_addf(&e, "UACCESS_KIND=0");
	entry_addf(&e, "UACCESS_HELPER=0");
	entry_addf(&e, "UACCESS_SUPPRESSED_COUNT=7");
	entry_addf(&e, "UACCESS_SUPPRESSED_TOTAL=7");
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	/* Two directions at one site. */
	event(&e, MID_A, "node-a", BOOT_1, 2, 5, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	trusted(&e, MID_A, "node-a", BOOT_1, NOW);
	entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_EVENT);
	entry_addf(&e, "UACCESS_SEQ=3");
	entry_addf(&e, "UACCESS_KIND=precheck");
	entry_addf(&e, "UACCESS_HELPER=__copy_to_user");
	entry_addf(&e, "UACCESS_DIRECTION=from-user");
	entry_addf(&e, "UACCESS_SITE_SYMBOL=uk_site_5+0x1c/0x80");
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	/* An entry without any trusted field still counts. */
	uk_entry_init(&e);
	entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_EVENT);
	entry_addf(&e, "UACCESS_SEQ=1");
	entry_addf(&e, "UACCESS_KIND=fault");
	entry_addf(&e, "UACCESS_HELPER=__put_user");
	entry_addf(&e, "UACCESS_SITE_SYMBOL=bare+0x1/0x2");
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_NAME), 0);

	assert_int_equal(f.n_machines, 2);
	s = site_of(f.sites, f.n_sites, "0xffffffff81000040");
	assert_false(s->has_symbol);
	s = site_of(f.sites, f.n_sites, "(sites evicted from uaccessd's table)");
	assert_string_equal(s->kind, "-");
	assert_string_equal(s->helper, "-");
	assert_int_equal(s->suppressed, 7);
	s = site_of(f.sites, f.n_sites, "uk_site_5+0x1c/0x80");
	assert_string_equal(s->direction, "to-user,from-user");
	assert_int_equal(s->events, 2);
	assert_string_equal(machine(&f, "")->label, "(unknown)");
	uk_fleet_release(&f);
}

static void labels_tell_machines_apart(void **state)
{
	struct uk_fleet f;
	struct uk_entry e;
	char buf[64];

	uk_label_host("node-a", MID_A, false, buf, sizeof(buf));
	assert_string_equal(buf, "node-a");
	uk_label_host("node-a", MID_A, true, buf, sizeof(buf));
	assert_string_equal(buf, "node-a(aaaaaaaa)");
	uk_label_host(NULL, MID_B, true, buf, sizeof(buf));
	assert_string_equal(buf, "-(bbbbbbbb)");
	uk_label_host("x\x1b[2J", NULL, true, buf, sizeof(buf));
	assert_string_equal(buf, "x?[2J");
	uk_label_host(NULL, NULL, false, buf, sizeof(buf));
	assert_string_equal(buf, "(unknown)");

	/* Two machines named alike, one without a name; the newest name. */
	uk_fleet_init(&f);
	event(&e, MID_A, "web", BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_B, "web", BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_C, NULL, BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_C, "db-old", BOOT_1, 2, 0, NOW + USEC);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_C, "db", BOOT_1, 3, 0, NOW + 2 * USEC);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	event(&e, MID_C, "db-older", BOOT_1, 4, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_NAME), 0);
	assert_string_equal(machine(&f, MID_A)->label, "web(aaaaaaaa)");
	assert_string_equal(machine(&f, MID_B)->label, "web(bbbbbbbb)");
	assert_string_equal(machine(&f, MID_C)->label, "db");
	uk_fleet_release(&f);
}

/* ---- output ---- */

static char *capture(const struct uk_fleet *f, uint64_t limit, bool legend)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	struct uk_cli cli = { .out = out, .err = stderr,
			      .no_legend = !legend };

	assert_non_null(out);
	assert_int_equal(uk_fleet_print(&cli, f, limit), 0);
	assert_int_equal(fclose(out), 0);
	return text;
}

static void table_of_a_fleet(void **state)
{
	struct uk_fleet f;
	char *text;

	uk_fleet_init(&f);
	fill_fleet(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	text = capture(&f, 0, true);
	uk_assert_golden("fleet-top.txt", text);
	free(text);
	text = capture(&f, 1, true);
	uk_assert_golden("fleet-top-n1.txt", text);
	free(text);
	/* Without the legend: rows only, one per line. */
	text = capture(&f, 0, false);
	assert_true(!strncmp(text, "(fleet) 15 5 10 precheck", 24));
	assert_null(strstr(text, "HOSTNAME"));
	assert_null(strstr(text, "machines"));
	free(text);
	uk_fleet_release(&f);
}

static void table_of_one_machine_has_no_fleet_rows(void **state)
{
	struct uk_fleet f;
	struct uk_entry e;
	char *text;

	uk_fleet_init(&f);
	event(&e, MID_A, "node-a", BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_COUNTED);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	text = capture(&f, 0, true);
	assert_null(strstr(text, "(fleet)"));
	assert_non_null(strstr(text, "\n1 machine, 1 site, 1 occurrence: 1 event, 0 held back.\n"));
	free(text);
	uk_fleet_release(&f);

	uk_fleet_init(&f);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	text = capture(&f, 0, true);
	assert_string_equal(text, "No sites recorded.\n");
	free(text);
	text = capture(&f, 0, false);
	assert_string_equal(text, "");
	free(text);
	uk_fleet_release(&f);
}

static uint64_t u64_at(const struct uk_json_value *v, const char *key)
{
	uint64_t n = UINT64_MAX;

	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, key), &n), 0);
	return n;
}

static const char *str_at(const struct uk_json_value *v, const char *key)
{
	const char *s = NULL;

	if (uk_json_get_str(uk_json_object_get(v, key), &s) < 0)
		return NULL;
	return s;
}

static void json_of_a_fleet(void **state)
{
	static char *const bad_files[] = { "/x/remote-1.journal~" };
	const struct uk_json_value *fleet, *sites, *s, *m, *dir;
	struct uk_json_value *v;
	struct uk_fleet f;
	struct uk_json j;
	struct uk_entry e;
	char *text;
	size_t len;

	uk_fleet_init(&f);
	fill_fleet(&f);
	event(&e, MID_A, "node-a", BOOT_1, 1, 0, NOW);
	assert_int_equal(add_to(&f, &e), UK_FLEET_DUPLICATE);
	bad(&e, true, "UACCESS_SEQ", NULL, 0);
	assert_int_equal(add_to(&f, &e), -EINVAL);
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	uk_json_init(&j, 0);
	uk_fleet_json(&f, &j, 2, "/var/log/journal/remote", bad_files, 1);
	assert_int_equal(uk_json_finish(&j, &text, &len), 0);
	assert_int_equal(uk_json_parse(text, len, &v, NULL, 0), 0);

	assert_string_equal(str_at(v, "source"), "journal");
	assert_string_equal(str_at(v, "directory"), "/var/log/journal/remote");
	assert_int_equal(uk_json_array_len(uk_json_object_get(v, "unreadable_files")), 1);
	/* named as the rows of every source are */
	assert_int_equal(u64_at(v, "events"), 29);
	assert_int_equal(u64_at(v, "journaled"), 10);
	assert_int_equal(u64_at(v, "journal_suppressed"), 19);
	assert_null(uk_json_object_get(v, "count"));
	m = uk_json_object_get(v, "entries");
	assert_int_equal(u64_at(m, "events"), 10);
	assert_int_equal(u64_at(m, "summaries"), 3);
	assert_int_equal(u64_at(m, "duplicates"), 1);
	assert_int_equal(u64_at(m, "skipped"), 1);

	fleet = uk_json_object_get(v, "fleet");
	assert_int_equal(u64_at(fleet, "machines"), 3);
	assert_int_equal(u64_at(fleet, "total"), 4);
	sites = uk_json_object_get(fleet, "sites");
	/* -n 2: two of the four */
	assert_int_equal(uk_json_array_len(sites), 2);
	s = uk_json_array_at(sites, 0);
	assert_string_equal(str_at(s, "site_symbol"), "uk_site_0+0x1c/0x80");
	assert_null(uk_json_object_get(s, "site_ip"));
	/* what the journal does not know is absent: the kernel's count */
	assert_null(uk_json_object_get(s, "count"));
	assert_null(uk_json_object_get(s, "kernel_suppressed"));
	assert_int_equal(u64_at(s, "events"), 15);
	assert_int_equal(u64_at(s, "journaled"), 5);
	assert_int_equal(u64_at(s, "journal_suppressed"), 10);
	assert_int_equal(u64_at(s, "machines"), 2);
	assert_int_equal(u64_at(s, "first_usec"), NOW);
	assert_int_equal(u64_at(s, "last_usec"), NOW + 3 * USEC);
	/* one string, as from the kernel and uaccessd */
	dir = uk_json_object_get(s, "direction");
	assert_int_equal(uk_json_type(dir), UK_JSON_STRING);
	assert_string_equal(str_at(s, "direction"), "to-user");

	m = uk_json_array_at(uk_json_object_get(v, "machines"), 1);
	assert_string_equal(str_at(m, "machine_id"), MID_B);
	assert_string_equal(str_at(m, "hostname"), "node-b");
	assert_string_equal(str_at(m, "label"), "node-b");
	assert_int_equal(u64_at(m, "events"), 12);
	assert_int_equal(u64_at(m, "journaled"), 3);
	assert_int_equal(u64_at(m, "journal_suppressed"), 9);
	assert_int_equal(u64_at(m, "total"), 2);
	s = uk_json_array_at(uk_json_object_get(m, "sites"), 0);
	assert_string_equal(str_at(s, "site_ip"), "0xffffffff81000040");
	assert_null(uk_json_object_get(s, "machines"));
	/* A site of summaries only: no direction known, so none. */
	assert_null(uk_json_object_get(s, "direction"));
	/* ...and its times the summaries' */
	assert_int_equal(u64_at(s, "first_usec"), NOW + 20 * USEC);
	assert_int_equal(u64_at(s, "last_usec"), NOW + 40 * USEC);
	uk_json_value_free(v);
	free(text);
	uk_fleet_release(&f);
}

/* ---- list: machines that share a host name ---- */

static void list_labels_machines_that_share_a_name(void **state)
{
	struct uk_list_table t;
	struct uk_entry e;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	uk_list_table_init(&t);
	event(&e, MID_A, "web", BOOT_1, 1, 0, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	event(&e, MID_B, "web", BOOT_1, 1, 0, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	event(&e, MID_C, "db", BOOT_1, 1, 0, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	event(&e, MID_C, NULL, BOOT_1, 2, 0, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(uk_list_table_print(&t, out, false, 0), 0);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(text, " web(aaaaaaaa) "));
	assert_non_null(strstr(text, " web(bbbbbbbb) "));
	assert_non_null(strstr(text, " db            "));
	/* The entry without a host name: its machine's ID. */
	assert_non_null(strstr(text, " -(cccccccc) "));
	free(text);
	uk_list_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest cli_fleet[] = {
		cmocka_unit_test(totals_by_machine_and_fleet),
		cmocka_unit_test(sorted_by_count_last_or_name),
		cmocka_unit_test(duplicates_are_counted_once),
		cmocka_unit_test(malformed_entries_are_skipped_and_counted),
		cmocka_unit_test(other_entries_are_left_alone),
		cmocka_unit_test(odd_but_valid_sites),
		cmocka_unit_test(labels_tell_machines_apart),
		cmocka_unit_test(table_of_a_fleet),
		cmocka_unit_test(table_of_one_machine_has_no_fleet_rows),
		cmocka_unit_test(json_of_a_fleet),
		cmocka_unit_test(list_labels_machines_that_share_a_name),
	};

	return cmocka_run_group_tests(cli_fleet, uk_test_utc, NULL);
}
