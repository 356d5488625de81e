// SPDX-License-Identifier: GPL-2.0
/*
 * Journal entries in uaccessctl (daemon/uaccessctl/entry.c, show.c,
 * list.c): entries held as journal fields, their JSON objects, the detail
 * block of `show` and the table of `list` (compared with golden files in
 * tests/unit/golden/).
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
#include <time.h>
#include <cmocka.h>

#include "common/json.h"
#include "common/msgid.h"
#include "common/util.h"
#include "fixtures.h"
#include "uaccessctl/entry.h"
#include "uaccessctl/list.h"
#include "uaccessctl/text.h"
#include "golden.h"
#include "json_times.h"

#define USEC		1000000ULL

/* Thu 2026-12-03 07:12:01 UTC */
#define NOW		(1796281921ULL * USEC)

#define MACHINE_A	"0f1e2d3c4b5a69788796a5b4c3d2e1f0"
#define MACHINE_B	"1234567890abcdef1234567890abcdef"
#define BOOT_A		"aa11bb22cc33dd44ee55ff6677889900"

static const char *const event_fields[] = {
	"_HOSTNAME=box",
	"_MACHINE_ID=" MACHINE_A,
	"_BOOT_ID=" BOOT_A,
	"_COMM=uaccessd",
	"MESSAGE_ID=" UK_MSGID_EVENT,
	"PRIORITY=4",
	"SYSLOG_IDENTIFIER=uaccessd",
	"MESSAGE=__copy_to_user() to-user kernel address 0xffff888000100008 (kernel-mapped, precheck) at uk_site_1+0x1c/0x80 by uk-gen[101], task context",
	"UACCESS_SEQ=2",
	"UACCESS_TS_BOOT=1000001000",
	"UACCESS_TS_REAL=1796274541000001000",
	"UACCESS_KIND=precheck",
	"UACCESS_HELPER=__copy_to_user",
	"UACCESS_DIRECTION=to-user",
	"UACCESS_ADDR_CLASS=kernel-mapped",
	"UACCESS_ADDRESS=0xffff888000100008",
	"UACCESS_SIZE=16",
	"UACCESS_SITE_ID=1",
	"UACCESS_SITE_SYMBOL=uk_site_1+0x1c/0x80",
	"UACCESS_SITE_IP=0xffffffff81000040",
	"UACCESS_STACK_HASH=0x00001001",
	"UACCESS_PID=101",
	"UACCESS_TGID=101",
	"UACCESS_COMM=uk-gen",
	"UACCESS_UID=1000",
	"UACCESS_SYSCALL_NR=247",
	"UACCESS_CPU=1",
	"UACCESS_COUNT=1",
	"UACCESS_SUPPRESSED=0",
	"UACCESS_CONTEXT=task",
	"UACCESS_STACK=uk_site_1+0x1c/0x80\ndo_syscall_64+0x5d/0x170",
	"UACCESS_STACK_DEPTH=2",
	"UACCESS_SITE_FUNCTION=uk_site_1",
	"UACCESS_SITE_EVENTS=1",
};

static const char *const loss_fields[] = {
	"_HOSTNAME=box",
	"MESSAGE_ID=" UK_MSGID_LOSS,
	"PRIORITY=3",
	"MESSAGE=lost 2 events: sequence-gap (total 2)",
	"UACCESS_LOSS_REASON=sequence-gap",
	"UACCESS_LOSS_COUNT=2",
	"UACCESS_LOSS_TOTAL=2",
	"UACCESS_LOSS_DETAIL=seq 70..71",
};

static void entry_from(struct uk_entry *e, const char *const *fields,
		       size_t n, uint64_t realtime)
{
	size_t i;

	uk_entry_init(e);
	e->realtime_usec = realtime;
	for (i = 0; i < n; i++)
		assert_int_equal(uk_entry_add(e, fields[i], strlen(fields[i])),
				 0);
}

static void add(struct uk_entry *e, const char *datum)
{
	assert_int_equal(uk_entry_add(e, datum, strlen(datum)), 0);
}

static void entry_keeps_fields_and_binary_values(void **state)
{
	static const char bin[] = "UACCESS_COMM=a\0b";
	struct uk_entry e;
	size_t len;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW);
	assert_int_equal(e.n, ARRAY_SIZE(event_fields));
	assert_string_equal(uk_entry_get(&e, "UACCESS_SEQ", &len), "2");
	assert_int_equal(len, 1);
	assert_null(uk_entry_get(&e, "UACCESS_NOPE", &len));
	assert_int_equal(len, 0);
	/* The datum is not NUL-terminated: only @len bytes are read. */
	assert_int_equal(uk_entry_add(&e, "UACCESS_X=abcdef", 12), 0);
	assert_string_equal(uk_entry_get(&e, "UACCESS_X", &len), "ab");
	assert_int_equal(uk_entry_add(&e, bin, sizeof(bin) - 1), 0);
	/* The first of a repeated field is the one found. */
	assert_string_equal(uk_entry_get(&e, "UACCESS_COMM", &len), "uk-gen");
	assert_memory_equal(e.fields[e.n - 1].value, "a\0b", 4);
	assert_int_equal(e.fields[e.n - 1].value_len, 3);
	uk_entry_release(&e);
	assert_int_equal(e.n, 0);
	assert_null(e.fields);
}

static void entry_refuses_data_without_field(void **state)
{
	struct uk_entry e;

	uk_entry_init(&e);
	assert_int_equal(uk_entry_add(&e, "NOEQUALS", 8), -EINVAL);
	assert_int_equal(uk_entry_add(&e, "=x", 2), -EINVAL);
	assert_int_equal(uk_entry_add(&e, "A=x", 1), -EINVAL);	/* cut */
	assert_int_equal(uk_entry_add(&e, "", 0), -EINVAL);
	assert_int_equal(e.n, 0);
	assert_int_equal(uk_entry_add(&e, "A=", 2), 0);
	assert_string_equal(uk_entry_get(&e, "A", NULL), "");
	uk_entry_release(&e);
}

static struct uk_json_value *to_json(const struct uk_entry *e, bool full,
				     const char *catalog)
{
	struct uk_json_value *v = NULL;
	struct uk_json j;
	char *text, err[128];
	size_t len;

	uk_json_init(&j, 0);
	uk_entry_json(&j, e, full, catalog);
	assert_int_equal(uk_json_finish(&j, &text, &len), 0);
	if (uk_json_parse(text, len, &v, err, sizeof(err)) < 0)
		fail_msg("not JSON: %s: %s", err, text);
	free(text);
	return v;
}

static void assert_json_u64(const struct uk_json_value *o, const char *key,
			    uint64_t want)
{
	uint64_t got;

	if (uk_json_get_u64(uk_json_object_get(o, key), &got) < 0)
		fail_msg("\"%s\" is not an unsigned number", key);
	assert_int_equal(got, want);
}

static void assert_json_str(const struct uk_json_value *o, const char *key,
			    const char *want)
{
	const char *got;

	if (uk_json_get_str(uk_json_object_get(o, key), &got) < 0)
		fail_msg("\"%s\" is not a string", key);
	assert_string_equal(got, want);
}

static void json_has_every_field_lower_case_and_typed(void **state)
{
	struct uk_json_value *v;
	const struct uk_json_value *stack;
	struct uk_entry e;
	const char *s;
	size_t i, n_uaccess = 0;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW + 17);
	v = to_json(&e, false, NULL);
	assert_json_u64(v, "journal_usec", NOW + 17);
	assert_json_str(v, "hostname", "box");
	assert_json_str(v, "machine_id", MACHINE_A);
	assert_json_str(v, "boot_id", BOOT_A);
	assert_json_str(v, "message_id", UK_MSGID_EVENT);
	assert_json_u64(v, "priority", 4);
	assert_json_u64(v, "seq", 2);
	/* the kernel's nanoseconds in microseconds, under keys that say so */
	assert_json_u64(v, "time_usec", 1796274541000001ULL);
	assert_json_u64(v, "boot_usec", 1000001ULL);
	assert_null(uk_json_object_get(v, "ts_real"));
	assert_null(uk_json_object_get(v, "ts_boot"));
	assert_json_str(v, "kind", "precheck");
	assert_json_str(v, "helper", "__copy_to_user");
	assert_json_str(v, "direction", "to-user");
	assert_json_str(v, "addr_class", "kernel-mapped");
	assert_json_str(v, "address", "0xffff888000100008");
	assert_json_u64(v, "size", 16);
	assert_json_u64(v, "site_id", 1);
	assert_json_str(v, "site_symbol", "uk_site_1+0x1c/0x80");
	assert_json_str(v, "site_ip", "0xffffffff81000040");
	assert_json_str(v, "stack_hash", "0x00001001");
	assert_json_u64(v, "pid", 101);
	assert_json_u64(v, "tgid", 101);
	assert_json_str(v, "comm", "uk-gen");
	assert_json_u64(v, "uid", 1000);
	assert_json_u64(v, "syscall_nr", 247);
	assert_json_u64(v, "cpu", 1);
	assert_json_u64(v, "count", 1);
	assert_json_u64(v, "suppressed", 0);
	assert_json_str(v, "context", "task");
	assert_json_u64(v, "stack_depth", 2);
	assert_json_str(v, "site_function", "uk_site_1");
	assert_json_u64(v, "site_events", 1);
	stack = uk_json_object_get(v, "stack");
	assert_int_equal(uk_json_type(stack), UK_JSON_ARRAY);
	assert_int_equal(uk_json_array_len(stack), 2);
	assert_int_equal(uk_json_get_str(uk_json_array_at(stack, 0), &s), 0);
	assert_string_equal(s, "uk_site_1+0x1c/0x80");
	assert_int_equal(uk_json_get_str(uk_json_array_at(stack, 1), &s), 0);
	assert_string_equal(s, "do_syscall_64+0x5d/0x170");
	/* One key per UACCESS_* field, no fields of other programs. */
	for (i = 0; i < ARRAY_SIZE(event_fields); i++)
		n_uaccess += !strncmp(event_fields[i], "UACCESS_", 8);
	assert_int_equal(uk_json_object_len(v), n_uaccess + 7);
	assert_null(uk_json_object_get(v, "_comm"));
	assert_null(uk_json_object_get(v, "syslog_identifier"));
	assert_null(uk_json_object_get(v, "cursor"));
	assert_null(uk_json_object_get(v, "catalog"));
	uk_json_value_free(v);
	uk_entry_release(&e);
}

static void json_full_adds_cursor_and_catalog(void **state)
{
	struct uk_json_value *v;
	struct uk_entry e;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields), NOW);
	e.cursor = strdup("s=abc;i=1");
	v = to_json(&e, true, "Subject: x\n\ntext\n");
	assert_json_str(v, "cursor", "s=abc;i=1");
	assert_json_str(v, "catalog", "Subject: x\n\ntext\n");
	uk_json_value_free(v);
	free(e.cursor);
	e.cursor = NULL;
	v = to_json(&e, true, NULL);
	assert_int_equal(uk_json_type(uk_json_object_get(v, "cursor")),
			 UK_JSON_NULL);
	assert_null(uk_json_object_get(v, "catalog"));
	uk_json_value_free(v);
	uk_entry_release(&e);
}

static void json_of_odd_values_stays_valid(void **state)
{
	static const char *const odd[] = {
		"UACCESS_PID=abc",		/* not a number: a string */
		"UACCESS_CPU=-1",		/* unsigned field, signed value */
		"UACCESS_SYSCALL_NR=-1",	/* signed field */
		"UACCESS_COUNT=99999999999999999999",	/* beyond 64 bits */
		"UACCESS_SEQ=",
		"UACCESS_SIZE= 5",
		"UACCESS_JOURNAL_USEC=shadow",	/* a fixed key: dropped */
		"UACCESS_TIME_USEC=shadow",	/* TS_REAL's key: dropped */
		"UACCESS_TS_BOOT=soon",		/* no number: text, as it is */
		"UACCESS_HOSTNAME=shadow",
		"UACCESS_=nothing",
		"UACCESS_COMM=bad\xff\x01",
		"UACCESS_STACK=",
		"UACCESS_NEW_FIELD=from a newer uaccessd",
	};
	static const char dup[] = "UACCESS_COMM=second";
	struct uk_json_value *v;
	struct uk_entry e;
	const char *s;
	int64_t sv;

	entry_from(&e, odd, ARRAY_SIZE(odd), NOW);
	assert_int_equal(uk_entry_add(&e, dup, strlen(dup)), 0);
	assert_int_equal(uk_entry_add(&e, "UACCESS_UID=1\0002", 15), 0);
	v = to_json(&e, false, NULL);
	assert_json_str(v, "pid", "abc");
	assert_json_str(v, "cpu", "-1");
	assert_int_equal(uk_json_get_s64(uk_json_object_get(v, "syscall_nr"),
					 &sv), 0);
	assert_int_equal(sv, -1);
	assert_json_str(v, "count", "99999999999999999999");
	assert_json_str(v, "seq", "");
	assert_json_str(v, "size", " 5");
	assert_json_u64(v, "journal_usec", NOW);
	assert_null(uk_json_object_get(v, "time_usec"));
	assert_json_str(v, "ts_boot", "soon");
	assert_null(uk_json_object_get(v, "boot_usec"));
	/* What the entry does not have is absent, never null. */
	assert_null(uk_json_object_get(v, "hostname"));
	assert_null(uk_json_object_get(v, "machine_id"));
	assert_null(uk_json_object_get(v, "boot_id"));
	assert_null(uk_json_object_get(v, "message_id"));
	assert_null(uk_json_object_get(v, "message"));
	assert_null(uk_json_object_get(v, "priority"));
	assert_null(uk_json_object_get(v, ""));
	/* Invalid UTF-8 becomes U+FFFD; the first of a repeated field. */
	assert_int_equal(uk_json_get_str(uk_json_object_get(v, "comm"), &s), 0);
	assert_string_equal(s, "bad\xef\xbf\xbd\x01");
	assert_int_equal(uk_json_array_len(uk_json_object_get(v, "stack")), 0);
	assert_json_str(v, "new_field", "from a newer uaccessd");
	/* A NUL byte in a number: kept as a string, in full. */
	{
		const char *u;
		size_t len;

		assert_int_equal(uk_json_get_strn(uk_json_object_get(v, "uid"),
						  &u, &len), 0);
		assert_int_equal(len, 3);
		assert_memory_equal(u, "1\0002", 3);
	}
	uk_json_value_free(v);
	uk_entry_release(&e);
}

/* ---- text output and golden files ---- */

/* Runs @fn into a memory stream and gives the text. */
static char *capture_show(const struct uk_entry *e, const char *catalog)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(uk_show_entry(f, e, NOW, catalog), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void show_block_of_an_event(void **state)
{
	static const char catalog[] =
		"Subject: Kernel address handed to a user-access helper\n"
		"Defined-By: uaccessd\n"
		"\n"
		"The kernel passed a kernel address to a user-access helper.";
	struct uk_entry e;
	char *text;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields),
		   NOW - 7380 * USEC);
	text = capture_show(&e, catalog);
	uk_assert_golden("journal-show-event.txt", text);
	free(text);
	uk_entry_release(&e);
}

static void show_block_of_a_loss_entry_names_its_own_fields(void **state)
{
	struct uk_entry e;
	char *text;

	entry_from(&e, loss_fields, ARRAY_SIZE(loss_fields), NOW - 12 * USEC);
	text = capture_show(&e, NULL);
	uk_assert_golden("journal-show-loss.txt", text);
	free(text);
	uk_entry_release(&e);
}

static void show_block_of_a_sparse_event(void **state)
{
	/* Interrupt context: no task; a symbol-less site; an empty stack. */
	static const char *const sparse[] = {
		"MESSAGE_ID=" UK_MSGID_EVENT,
		"UACCESS_SEQ=9",
		"UACCESS_KIND=gp",
		"UACCESS_ADDR_CLASS=noncanonical",
		"UACCESS_SITE_IP=0xffffffff81000040",
		"UACCESS_COMM=evil\x1b[2Jname",
		"UACCESS_SUPPRESSED=4",
		"UACCESS_TS_BOOT=5",
		"UACCESS_STACK_DEPTH=0",
		"UACCESS_CONTEXT=hardirq",
	};
	struct uk_entry e;
	char *text;

	entry_from(&e, sparse, ARRAY_SIZE(sparse), NOW);
	text = capture_show(&e, NULL);
	uk_assert_golden("journal-show-sparse.txt", text);
	/* No escape sequence reaches the terminal. */
	assert_null(strchr(text, '\x1b'));
	free(text);
	uk_entry_release(&e);
}

static char *capture_table_at(const struct uk_list_table *t, bool legend,
			      unsigned int width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(uk_list_table_print(t, f, legend, width), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static char *capture_table(const struct uk_list_table *t, bool legend)
{
	return capture_table_at(t, legend, 0);
}

/* Two events of machine A, one whose task name would move the cursor. */
static void fill_table(struct uk_list_table *t, bool fleet)
{
	struct uk_entry e;

	entry_from(&e, event_fields, ARRAY_SIZE(event_fields),
		   NOW - 3600 * USEC);
	assert_int_equal(uk_list_table_add(t, &e), 0);
	uk_entry_release(&e);

	{
		static const char *const second[] = {
			"UACCESS_PID=4194304",
			"UACCESS_COMM=x\x1b[31mred",
			"UACCESS_HELPER=copy_user_generic",
			"UACCESS_DIRECTION=from-user",
			"UACCESS_ADDRESS=0x8000000000000000",
			"UACCESS_SITE_SYMBOL=demo_ioctl+0x1c/0x80 [uaccess_kaddr_test]",
			"UACCESS_KIND=fault",
		};

		entry_from(&e, second, ARRAY_SIZE(second), NOW);
		add(&e, fleet ? "_MACHINE_ID=" MACHINE_B :
				"_MACHINE_ID=" MACHINE_A);
		add(&e, fleet ? "_HOSTNAME=node-b2" : "_HOSTNAME=box");
		assert_int_equal(uk_list_table_add(t, &e), 0);
		uk_entry_release(&e);
	}
}

static void list_table_of_one_machine(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, false);
	assert_false(uk_list_table_fleet(&t));
	text = capture_table(&t, true);
	uk_assert_golden("journal-list.txt", text);
	assert_null(strchr(text, '\x1b'));
	free(text);
	uk_list_table_release(&t);
}

static void list_table_without_legend_has_rows_only(void **state)
{
	struct uk_list_table t;
	char *text, *p;
	int lines = 0;

	uk_list_table_init(&t);
	fill_table(&t, false);
	text = capture_table(&t, false);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	assert_null(strstr(text, "TIME"));
	assert_null(strstr(text, "listed"));
	assert_true(!strncmp(text, "Thu 2026-12-03 06:12:01 UTC     101 uk-gen",
			     42));
	free(text);
	uk_list_table_release(&t);
}

static void list_table_of_a_fleet_shows_hostnames(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, true);
	assert_true(uk_list_table_fleet(&t));
	text = capture_table(&t, true);
	uk_assert_golden("journal-list-fleet.txt", text);
	free(text);
	uk_list_table_release(&t);
}

static const char *const summary_fields[] = {
	"_HOSTNAME=box",
	"MESSAGE_ID=" UK_MSGID_SUPPRESSED,
	"PRIORITY=4",
	"MESSAGE=36 more events at uk_site_4+0x1c/0x80 held back by uaccessd's ratelimit (total 36)",
	"UACCESS_SITE_SYMBOL=uk_site_4+0x1c/0x80",
	"UACCESS_SITE_IP=0xffffffff81000100",
	"UACCESS_KIND=precheck",
	"UACCESS_HELPER=__copy_to_user",
	"UACCESS_SITE_FUNCTION=uk_site_4",
	"UACCESS_SUPPRESSED_COUNT=36",
	"UACCESS_SUPPRESSED_TOTAL=40",
};

static const char *const health_fields[] = {
	"_HOSTNAME=box",
	"MESSAGE_ID=" UK_MSGID_HEALTH,
	"PRIORITY=6",
	"MESSAGE=subscribed to the kernel's uaccess_kaddr events",
	"UACCESS_DAEMON_STATE=subscribed",
};

/*
 * list and show write uk_entry_json()'s objects: of every type of entry,
 * times in microseconds under _usec keys, no number beyond 2^53.
 */
static void json_of_every_entry_has_usec_times_below_2_53(void **state)
{
	static const struct {
		const char *const *fields;
		size_t n;
		unsigned int times;	/* journal_usec, time_usec, boot_usec */
	} entries[] = {
		{ event_fields, ARRAY_SIZE(event_fields), 3 },
		{ loss_fields, ARRAY_SIZE(loss_fields), 1 },
		{ summary_fields, ARRAY_SIZE(summary_fields), 1 },
		{ health_fields, ARRAY_SIZE(health_fields), 1 },
	};
	struct uk_json_value *v;
	struct uk_entry e;
	size_t i;
	int full;

	for (i = 0; i < ARRAY_SIZE(entries); i++)
		for (full = 0; full < 2; full++) {
			entry_from(&e, entries[i].fields, entries[i].n, NOW);
			e.cursor = full ? strdup("s=abc;i=1") : NULL;
			v = to_json(&e, full, full ? "Subject: x\n" : NULL);
			assert_int_equal(uk_check_json_times(v, full ?
							     "show" : "list"),
					 entries[i].times);
			uk_json_value_free(v);
			uk_entry_release(&e);
		}
}

static char *table_of(const char *const *fields, size_t n)
{
	struct uk_list_table t;
	struct uk_entry e;
	char *text;

	uk_list_table_init(&t);
	entry_from(&e, fields, n, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	entry_from(&e, fields, n, NOW + USEC);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	text = capture_table(&t, true);
	uk_list_table_release(&t);
	return text;
}

/* Loss entries in their own columns: what was lost, how many, the detail. */
static void list_table_of_loss_entries_has_their_columns(void **state)
{
	static const char *const evicted[] = {
		"MESSAGE_ID=" UK_MSGID_LOSS,
		"UACCESS_LOSS_REASON=site-evicted",
		"UACCESS_LOSS_COUNT=3",
		"UACCESS_LOSS_TOTAL=3",
	};
	char *text = table_of(loss_fields, ARRAY_SIZE(loss_fields));

	uk_assert_text("loss table", text,
		       "TIME                        REASON       LOST UNIT   TOTAL DETAIL\n"
		       "Thu 2026-12-03 07:12:01 UTC sequence-gap    2 events     2 seq 70..71\n"
		       "Thu 2026-12-03 07:12:02 UTC sequence-gap    2 events     2 seq 70..71\n"
		       "\n2 entries listed.\n");
	free(text);
	text = table_of(evicted, ARRAY_SIZE(evicted));
	assert_non_null(strstr(text, " site-evicted    3 sites     3 -\n"));
	free(text);
}

/* Summaries: what uaccessd held back at which site, since its last one. */
static void list_table_of_summaries_has_their_columns(void **state)
{
	char *text = table_of(summary_fields, ARRAY_SIZE(summary_fields));

	uk_assert_text("summary table", text,
		       "TIME                        HELD-BACK TOTAL KIND     HELPER         SITE\n"
		       "Thu 2026-12-03 07:12:01 UTC        36    40 precheck __copy_to_user uk_site_4+0x1c/0x80\n"
		       "Thu 2026-12-03 07:12:02 UTC        36    40 precheck __copy_to_user uk_site_4+0x1c/0x80\n"
		       "\n2 entries listed.\n");
	free(text);
	text = table_of(health_fields, ARRAY_SIZE(health_fields));
	uk_assert_text("health table", text,
		       "TIME                        STATE      MESSAGE\n"
		       "Thu 2026-12-03 07:12:01 UTC subscribed subscribed to the kernel's uaccess_kaddr events\n"
		       "Thu 2026-12-03 07:12:02 UTC subscribed subscribed to the kernel's uaccess_kaddr events\n"
		       "\n2 entries listed.\n");
	free(text);
}

/* An entry of @fields from machine A (fill_table()'s) at @when. */
static void add_of_machine_a(struct uk_list_table *t,
			     const char *const *fields, size_t n,
			     uint64_t when)
{
	struct uk_entry e;

	entry_from(&e, fields, n, when);
	add(&e, "_MACHINE_ID=" MACHINE_A);
	assert_int_equal(uk_list_table_add(t, &e), 0);
	uk_entry_release(&e);
}

/* Entries of several types: TIME, TYPE and each one's MESSAGE, no dashes. */
static void list_table_of_several_types_shows_their_messages(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, false);
	add_of_machine_a(&t, loss_fields, ARRAY_SIZE(loss_fields), NOW + USEC);
	add_of_machine_a(&t, summary_fields, ARRAY_SIZE(summary_fields),
			 NOW + 2 * USEC);
	text = capture_table(&t, true);
	uk_assert_golden("journal-list-types.txt", text);
	assert_null(strstr(text, " - "));
	free(text);
	uk_list_table_release(&t);
}

/* The widest line of @text, in display columns. */
static size_t widest_line(const char *text)
{
	size_t widest = 0;
	char *copy = strdup(text), *line, *save = NULL;

	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (uk_cli_width(line) > widest)
			widest = uk_cli_width(line);
	free(copy);
	return widest;
}

/*
 * Each type's columns are fit to the terminal as the events' are: the
 * long one (MESSAGE, DETAIL) cut, the least useful (a loss's TOTAL) left
 * out first.
 */
static void list_tables_of_every_type_fit_the_terminal(void **state)
{
	struct uk_list_table t;
	struct uk_entry e;
	char *text;

	uk_list_table_init(&t);
	fill_table(&t, false);
	add_of_machine_a(&t, loss_fields, ARRAY_SIZE(loss_fields), NOW + USEC);
	text = capture_table_at(&t, true, 80);
	assert_true(widest_line(text) <= 80);
	assert_non_null(strstr(text, "TIME                        TYPE  MESSAGE\n"));
	assert_non_null(strstr(text, " event __copy_to_user() to-user kernel"));
	assert_null(strstr(text, "task context"));
	free(text);
	uk_list_table_release(&t);

	uk_list_table_init(&t);
	entry_from(&e, loss_fields, ARRAY_SIZE(loss_fields), NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	text = capture_table_at(&t, true, 65);
	uk_assert_text("loss table at 65 columns", text,
		       "TIME                        REASON       LOST UNIT   DETAIL\n"
		       "Thu 2026-12-03 07:12:01 UTC sequence-gap    2 events seq 70..71\n"
		       "\n1 entry listed.\n");
	free(text);
	uk_list_table_release(&t);
}

static void list_types_parse(void **state)
{
	unsigned int m = 0;

	assert_int_equal(uk_list_type_parse("event", &m), 0);
	assert_int_equal(m, 1U << UK_LIST_EVENT);
	assert_int_equal(uk_list_type_parse("loss,summary", &m), 0);
	assert_int_equal(m, (1U << UK_LIST_LOSS) | (1U << UK_LIST_SUMMARY));
	assert_int_equal(uk_list_type_parse("all", &m), 0);
	assert_int_equal(m, (1U << UK_LIST_TYPES) - 1);
	assert_int_equal(uk_list_type_parse("health", &m), 0);
	assert_int_equal(m, 1U << UK_LIST_HEALTH);
	assert_int_equal(uk_list_type_parse("events", &m), -EINVAL);
	assert_int_equal(uk_list_type_parse("", &m), -EINVAL);
	assert_int_equal(uk_list_type_parse("loss,", &m), -EINVAL);
	assert_int_equal(uk_list_type_parse("Loss", &m), -EINVAL);
}

static void empty_list_table_prints_the_legend_only(void **state)
{
	struct uk_list_table t;
	char *text;

	uk_list_table_init(&t);
	text = capture_table(&t, true);
	assert_string_equal(text,
			    "TIME PID COMM HELPER DIR ADDRESS SITE KIND\n"
			    "\n0 entries listed.\n");
	free(text);
	text = capture_table(&t, false);
	assert_string_equal(text, "");
	free(text);
}

static void fleet_is_told_by_machine_id_then_hostname(void **state)
{
	static const char *const a[] = { "_HOSTNAME=same" };
	static const char *const b[] = { "_HOSTNAME=other" };
	static const char *const none[] = { "UACCESS_PID=1" };
	struct uk_list_table t;
	struct uk_entry e;

	uk_list_table_init(&t);
	entry_from(&e, a, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_false(uk_list_table_fleet(&t));
	entry_from(&e, b, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_true(uk_list_table_fleet(&t));
	uk_list_table_release(&t);

	/* An entry with no machine at all next to one with a machine. */
	entry_from(&e, none, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	assert_false(uk_list_table_fleet(&t));
	uk_entry_release(&e);
	entry_from(&e, a, 1, NOW);
	assert_int_equal(uk_list_table_add(&t, &e), 0);
	uk_entry_release(&e);
	assert_true(uk_list_table_fleet(&t));
	uk_list_table_release(&t);
}

static void list_table_grows_past_its_first_allocation(void **state)
{
	struct uk_list_table t;
	struct uk_entry e;
	char *text, *p;
	size_t i, lines = 0;

	uk_list_table_init(&t);
	for (i = 0; i < 200; i++) {
		char pid[32];

		snprintf(pid, sizeof(pid), "UACCESS_PID=%zu", i);
		entry_from(&e, NULL, 0, NOW + i * USEC);
		add(&e, pid);
		assert_int_equal(uk_list_table_add(&t, &e), 0);
		uk_entry_release(&e);
	}
	assert_int_equal(t.n, 200);
	assert_string_equal(t.rows[199].cell[UK_LIST_PID], "199");
	assert_string_equal(t.rows[0].cell[UK_LIST_COMM], "-");
	text = capture_table(&t, false);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 200);
	free(text);
	uk_list_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest entries[] = {
		cmocka_unit_test(entry_keeps_fields_and_binary_values),
		cmocka_unit_test(entry_refuses_data_without_field),
		cmocka_unit_test(json_has_every_field_lower_case_and_typed),
		cmocka_unit_test(json_full_adds_cursor_and_catalog),
		cmocka_unit_test(json_of_odd_values_stays_valid),
		cmocka_unit_test(json_of_every_entry_has_usec_times_below_2_53),
		cmocka_unit_test(show_block_of_an_event),
		cmocka_unit_test(show_block_of_a_loss_entry_names_its_own_fields),
		cmocka_unit_test(show_block_of_a_sparse_event),
		cmocka_unit_test(list_table_of_one_machine),
		cmocka_unit_test(list_table_without_legend_has_rows_only),
		cmocka_unit_test(list_table_of_a_fleet_shows_hostnames),
		cmocka_unit_test(list_table_of_loss_entries_has_their_columns),
		cmocka_unit_test(list_table_of_summaries_has_their_columns),
		cmocka_unit_test(list_table_of_several_types_shows_their_messages),
		cmocka_unit_test(list_tables_of_every_type_fit_the_terminal),
		cmocka_unit_test(list_types_parse),
		cmocka_unit_test(empty_list_table_prints_the_legend_only),
		cmocka_unit_test(fleet_is_told_by_machine_id_then_hostname),
		cmocka_unit_test(list_table_grows_past_its_first_allocation),
	};

	return cmocka_run_group_tests(entries, uk_test_utc, NULL);
}
