// SPDX-License-Identifier: GPL-2.0
/*
 * One JSON schema for sites and top, whatever the source
 * (daemon/uaccessctl/site_row.h, docs/json-output.md): the same site fed
 * through the kernel's dump-sites, uaccessd's sites reply and the
 * journal's entries gives the same row, key for key and byte for byte,
 * apart from the keys a source does not know (absent, never "" or null)
 * and those only one source has; and every time in every document is in
 * microseconds, below 2^53, its key ending in _usec.
 *
 * UK_SHOW_ROWS=1 prints the three rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli_fake.h"
#include "entry_fake.h"
#include "json_times.h"
#include "common/msgid.h"
#include "common/util.h"
#include "uaccessctl/fleet.h"

/* The site: three hits, none held back anywhere. */
#define SYM	"uk_trigger_copy_to_user+0x4f/0x73 [test_uaccess_kaddr]"
#define IP	0xffffffffc0201234ULL
#define ADDR	0xffff888004f20000ULL
/* ns since boot of the hits; FAKE_BOOT_NS is now */
#define BOOT1	(FAKE_BOOT_NS - 300000000000ULL + 123456789ULL)
#define BOOT2	(FAKE_BOOT_NS - 200000000000ULL + 555555555ULL)
#define BOOT3	(FAKE_BOOT_NS - 60000000000ULL + 987654321ULL)
/* the same hits on the wall clock, as the kernel stamps them */
#define REAL(b)	(FAKE_REAL_NS - (FAKE_BOOT_NS - (b)))

static const uint64_t boots[] = { BOOT1, BOOT2, BOOT3 };

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

/* ---- the three sources ---- */

static void kernel_site(void)
{
	struct uk_site *s = &fake.sites[fake.nsites++];
	int a;

	memset(s, 0, sizeof(*s));
	s->site_id = 7;
	s->site_ip = IP;
	snprintf(s->site_symbol, sizeof(s->site_symbol), "%s", SYM);
	s->kind = UACCESS_KADDR_KIND_PRECHECK;
	s->helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	s->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	s->count = 3;
	s->suppressed = 0;
	s->reported = 3;
	s->first_ts_boot = BOOT1;
	s->last_ts_boot = BOOT3;
	s->last_address = ADDR;
	s->last_pid = 470;
	snprintf(s->last_comm, sizeof(s->last_comm), "demo.sh");
	s->stack_hash = 0x1f2e3d4c;
	for (a = UACCESS_KADDR_A_SITE_SITE_ID; a <= UACCESS_KADDR_A_SITE_MAX;
	     a++)
		s->present |= 1ULL << a;
}

/* What uaccessd answers for the same site, as daemon_ctl.c writes it. */
static char *daemon_reply(void)
{
	char *r = NULL;

	assert_true(asprintf(&r,
		"{\"ok\":true,\"cmd\":\"sites\",\"version\":1,\"total\":1,"
		"\"sites\":[{\"site_id\":7,\"site_ip\":\"0x%016llx\","
		"\"site_symbol\":\"%s\",\"kind\":\"precheck\","
		"\"helper\":\"__copy_to_user\",\"direction\":\"to-user\","
		"\"count\":3,\"kernel_suppressed\":0,\"kernel_reported\":3,"
		"\"events\":3,\"journaled\":3,\"journal_suppressed\":0,"
		"\"first_ts_boot\":%llu,\"last_ts_boot\":%llu,"
		"\"first_ts_real\":%llu,\"last_ts_real\":%llu,"
		"\"last_address\":\"0x%016llx\","
		"\"stacks\":[{\"stack_hash\":\"0x1f2e3d4c\",\"events\":3,"
		"\"frames\":[\"%s\",\"do_syscall_64+0x5d/0x170\"]}],"
		"\"stacks_other\":0,"
		"\"samples\":[{\"seq\":3,\"ts_boot\":%llu,\"ts_real\":%llu,"
		"\"address\":\"0x%016llx\",\"size\":8,"
		"\"addr_class\":\"kernel-mapped\",\"cpu\":1,"
		"\"syscall_nr\":16,\"context\":\"task\","
		"\"stack_hash\":\"0x1f2e3d4c\"}]}]}",
		(unsigned long long)IP, SYM, (unsigned long long)BOOT1,
		(unsigned long long)BOOT3, (unsigned long long)REAL(BOOT1),
		(unsigned long long)REAL(BOOT3), (unsigned long long)ADDR,
		SYM, (unsigned long long)BOOT3,
		(unsigned long long)REAL(BOOT3),
		(unsigned long long)ADDR) > 0);
	return r;
}

/*
 * The journal's document for the three event entries uaccessd wrote,
 * each a few milliseconds after the kernel's stamp.
 */
static char *journal_doc(void)
{
	struct uk_fleet f;
	struct uk_json j;
	char *text = NULL;
	size_t len, i;

	uk_fleet_init(&f);
	for (i = 0; i < ARRAY_SIZE(boots); i++) {
		enum uk_fleet_took took;
		struct uk_entry e;
		char why[256];

		uk_entry_init(&e);
		e.realtime_usec = REAL(boots[i]) / 1000 + 2500;
		entry_addf(&e, "_MACHINE_ID=%s", "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
		entry_addf(&e, "_HOSTNAME=node-a");
		entry_addf(&e, "_BOOT_ID=%s", "11111111111111111111111111111111");
		entry_addf(&e, "MESSAGE_ID=%s", UK_MSGID_EVENT);
		entry_addf(&e, "UACCESS_SEQ=%zu", i + 1);
		entry_addf(&e, "UACCESS_TS_BOOT=%llu", (unsigned long long)boots[i]);
		entry_addf(&e, "UACCESS_TS_REAL=%llu",
		    (unsigned long long)REAL(boots[i]));
		entry_addf(&e, "UACCESS_KIND=precheck");
		entry_addf(&e, "UACCESS_HELPER=__copy_to_user");
		entry_addf(&e, "UACCESS_DIRECTION=to-user");
		entry_addf(&e, "UACCESS_ADDRESS=0x%016llx",
		    (unsigned long long)(ADDR - 2 + i));
		entry_addf(&e, "UACCESS_SITE_ID=7");
		entry_addf(&e, "UACCESS_SITE_SYMBOL=%s", SYM);
		entry_addf(&e, "UACCESS_SITE_IP=0x%016llx", (unsigned long long)IP);
		entry_addf(&e, "UACCESS_COUNT=%zu", i + 1);
		assert_int_equal(uk_fleet_add(&f, &e, &took, why, sizeof(why)),
				 0);
		assert_int_equal(took, UK_FLEET_COUNTED);
		uk_entry_release(&e);
	}
	assert_int_equal(uk_fleet_finish(&f, UK_SORT_COUNT), 0);
	uk_json_init(&j, 0);
	uk_fleet_json(&f, &j, 0, NULL, NULL, 0);
	assert_int_equal(uk_json_finish(&j, &text, &len), 0);
	uk_fleet_release(&f);
	return text;
}

/* ---- the documents ---- */

struct docs {
	struct run kernel, daemon;
	char *journal;
	struct uk_json_value *v[3];
	const struct uk_json_value *row[3];
};

static const char *const source_name[] = { "netlink", "uaccessd", "journal" };

static void docs_get(struct docs *d)
{
	const struct uk_cli json = { .json = true };
	const struct uk_cli kernel = { .json = true, .kernel = true };
	const struct uk_json_value *m;
	char *reply = daemon_reply();
	const char *text[3];
	size_t len[3];
	int i;

	memset(d, 0, sizeof(*d));
	fake_reset_all();
	kernel_site();
	RUN(&d->kernel, uk_cli_sites, kernel);
	assert_int_equal(d->kernel.code, UK_EXIT_OK);
	fake_reset_all();
	fake.reply_sites = reply;
	RUN(&d->daemon, uk_cli_sites, json);
	assert_int_equal(d->daemon.code, UK_EXIT_OK);
	free(reply);
	d->journal = journal_doc();
	text[0] = d->kernel.out;
	len[0] = d->kernel.outlen;
	text[1] = d->daemon.out;
	len[1] = d->daemon.outlen;
	text[2] = d->journal;
	len[2] = strlen(d->journal);
	for (i = 0; i < 3; i++)
		assert_int_equal(uk_json_parse(text[i], len[i], &d->v[i], NULL,
					       0), 0);
	d->row[0] = uk_json_array_at(uk_json_object_get(d->v[0], "sites"), 0);
	d->row[1] = uk_json_array_at(uk_json_object_get(d->v[1], "sites"), 0);
	/* the journal's: the machine's site (the fleet's has no address) */
	m = uk_json_array_at(uk_json_object_get(d->v[2], "machines"), 0);
	d->row[2] = uk_json_array_at(uk_json_object_get(m, "sites"), 0);
	for (i = 0; i < 3; i++)
		assert_non_null(d->row[i]);
}

static void docs_free(struct docs *d)
{
	int i;

	for (i = 0; i < 3; i++)
		uk_json_value_free(d->v[i]);
	run_free(&d->kernel);
	run_free(&d->daemon);
	free(d->journal);
}

/* One member of a row as JSON text, as the documents hold it. */
static char *member_text(const struct uk_json_value *v)
{
	struct uk_json j;
	char *text = NULL;

	uk_json_init(&j, 0);
	uk_json_value_write(&j, v);
	assert_int_equal(uk_json_finish(&j, &text, NULL), 0);
	return text;
}

static bool in(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/*
 * The row's keys (site_row.h), and per source the keys it does not
 * know and those only it has (docs/json-output.md says the same).
 */
static const char *const row_keys[] = {
	"site_id", "site_symbol", "site_ip", "kind", "helper", "direction",
	"count", "kernel_suppressed", "kernel_reported", "events",
	"journaled", "journal_suppressed", "first_usec", "last_usec",
	"first_boot_usec", "last_boot_usec", "last_address", NULL
};
static const char *const lacks[3][8] = {
	{ "events", "journaled", "journal_suppressed", NULL },
	{ NULL },
	{ "site_id", "count", "kernel_suppressed", "kernel_reported",
	  "first_boot_usec", "last_boot_usec", NULL },
};
static const char *const own[3][4] = {
	{ "last_pid", "last_comm", "stack_hash", NULL },
	{ "stacks", "stacks_other", "samples", NULL },
	{ NULL },
};

/*
 * The row without what only its source has: the shared keys in their
 * order, as one line of JSON.
 */
static char *shared_row(const struct uk_json_value *row, int src)
{
	struct uk_json j;
	char *text = NULL;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_for_each_member(it, row) {
		if (in(own[src], it.key))
			continue;
		uk_json_key(&j, it.key);
		uk_json_value_write(&j, it.value);
	}
	uk_json_object_end(&j);
	assert_int_equal(uk_json_finish(&j, &text, NULL), 0);
	return text;
}

static void same_site_gives_the_same_row_from_every_source(void **state)
{
	struct docs d;
	size_t k;
	int s, t;

	docs_get(&d);
	for (s = 0; s < 3; s++) {
		/* every key is the row's or the source's own, none null */
		uk_json_for_each_member(it, d.row[s]) {
			const char *str = NULL;
			size_t len = 1;

			if (!in(row_keys, it.key) && !in(own[s], it.key))
				fail_msg("%s: unexpected key %s",
					 source_name[s], it.key);
			if (uk_json_type(it.value) == UK_JSON_STRING)
				uk_json_get_strn(it.value, &str, &len);
			if (uk_json_type(it.value) == UK_JSON_NULL || !len)
				fail_msg("%s: %s is null or \"\": a lacking key is absent",
					 source_name[s], it.key);
		}
		/* a key is absent exactly where the source lacks it */
		for (k = 0; row_keys[k]; k++) {
			bool has = uk_json_object_get(d.row[s], row_keys[k]);

			if (has == in(lacks[s], row_keys[k]))
				fail_msg("%s: %s is %s, expected %s",
					 source_name[s], row_keys[k],
					 has ? "there" : "absent",
					 has ? "absent" : "there");
		}
	}
	/* the keys two sources both have: the same JSON text */
	for (s = 0; s < 3; s++)
		for (t = s + 1; t < 3; t++)
			for (k = 0; row_keys[k]; k++) {
				const struct uk_json_value *a, *b;
				char *ta, *tb;

				a = uk_json_object_get(d.row[s], row_keys[k]);
				b = uk_json_object_get(d.row[t], row_keys[k]);
				if (!a || !b)
					continue;
				ta = member_text(a);
				tb = member_text(b);
				if (strcmp(ta, tb))
					fail_msg("%s: %s from %s, %s from %s",
						 row_keys[k], ta,
						 source_name[s], tb,
						 source_name[t]);
				free(ta);
				free(tb);
			}
	/* uaccessd knows every key: the other rows are it, less theirs */
	for (s = 0; s < 3; s++) {
		char *row = shared_row(d.row[s], s);

		if (getenv("UK_SHOW_ROWS"))
			printf("# %s: %s\n", source_name[s], row);
		free(row);
	}
	docs_free(&d);
}

static void every_time_is_usec_below_2_53(void **state)
{
	unsigned int seen[3] = { 0 };
	struct docs d;
	int s;

	docs_get(&d);
	for (s = 0; s < 3; s++)
		seen[s] = uk_check_json_times(d.v[s], source_name[s]);
	/* the checker saw them: row times, samples', the machine's last */
	assert_int_equal(seen[0], 4);
	assert_int_equal(seen[1], 6);
	assert_true(seen[2] >= 5);
	docs_free(&d);
}

/* The checker itself fails on what the old documents held. */
static void time_checker_catches_nanoseconds(void **state)
{
	assert_true(uk_is_time_key("first_ts_real"));
	assert_true(uk_is_time_key("ts_boot"));
	assert_true(uk_is_time_key("last_time"));
	assert_true(uk_is_time_key("time"));
	assert_true(uk_is_time_key("first_usec"));
	assert_false(uk_is_time_key("last_address"));
	assert_false(uk_is_time_key("count"));
}

int main(void)
{
	const struct CMUnitTest cli_site_rows[] = {
		cmocka_unit_test(same_site_gives_the_same_row_from_every_source),
		cmocka_unit_test(every_time_is_usec_below_2_53),
		cmocka_unit_test(time_checker_catches_nanoseconds),
	};

	return cmocka_run_group_tests(cli_site_rows, setup, NULL);
}
