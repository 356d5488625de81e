// SPDX-License-Identifier: GPL-2.0
/*
 * Journal entries of uaccessd (daemon/uaccessd/journal.c).  A recording sendv()
 * replaces sd_journal_sendv(): it checks that every iovec is one valid
 * KEY=value field, keeps each entry as key/value pairs and can be told to
 * fail the next sends with a chosen errno.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/event.h"
#include "uaccessd/journal.h"
#include "common/util.h"
#include "journal_rec.h"
#include "fixtures.h"

#define ALL_EVENT_ATTRS	(((1ULL << (UACCESS_KADDR_A_EVENT_MAX + 1)) - 1) & ~1ULL)

static void assert_no_field(const struct uk_rec_entry *e, const char *key)
{
	const char *v = uk_rec_val(e, key);

	if (v)
		fail_msg("field %s: expected none, got \"%s\"", key, v);
}

static struct uk_journal *journal_new(void)
{
	static struct uk_journal j;

	uk_journal_init(&j);
	j.sendv = uk_rec_sendv;
	return &j;
}

static int setup(void **state)
{
	uk_rec_reset();
	return 0;
}

static int teardown(void **state)
{
	char bad[sizeof(uk_rec.bad)];

	snprintf(bad, sizeof(bad), "%s", uk_rec.bad);
	uk_rec_reset();
	if (bad[0]) {
		print_error("invalid journal entry: %s\n", bad);
		return -1;
	}
	return 0;
}

/* ---- events ---- */

/* What uk_test_fill_event() gives, field by field, as the journal shows it. */
static const struct {
	int attr;
	const char *key;
	const char *val;
} event_want[] = {
	{ UACCESS_KADDR_A_EVENT_SEQ, "UACCESS_SEQ", "42" },
	{ UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT, "UACCESS_TS_BOOT",
	  "123456789012" },
	{ UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL, "UACCESS_TS_REAL",
	  "1700000000123456789" },
	{ UACCESS_KADDR_A_EVENT_KIND, "UACCESS_KIND", "fault" },
	{ UACCESS_KADDR_A_EVENT_HELPER, "UACCESS_HELPER", "__copy_from_user" },
	{ UACCESS_KADDR_A_EVENT_DIRECTION, "UACCESS_DIRECTION", "from-user" },
	{ UACCESS_KADDR_A_EVENT_ADDR_CLASS, "UACCESS_ADDR_CLASS",
	  "kernel-mapped" },
	{ UACCESS_KADDR_A_EVENT_ADDRESS, "UACCESS_ADDRESS",
	  "0xffff888012345678" },
	{ UACCESS_KADDR_A_EVENT_SIZE, "UACCESS_SIZE", "64" },
	{ UACCESS_KADDR_A_EVENT_SITE_ID, "UACCESS_SITE_ID", "7" },
	{ UACCESS_KADDR_A_EVENT_SITE_SYMBOL, "UACCESS_SITE_SYMBOL",
	  "vuln_ioctl+0x1c/0x80 [uk_test]" },
	{ UACCESS_KADDR_A_EVENT_SITE_IP, "UACCESS_SITE_IP",
	  "0xffffffffc0001234" },
	{ UACCESS_KADDR_A_EVENT_STACK_HASH, "UACCESS_STACK_HASH",
	  "0x0000beef" },
	{ UACCESS_KADDR_A_EVENT_PID, "UACCESS_PID", "1234" },
	{ UACCESS_KADDR_A_EVENT_TGID, "UACCESS_TGID", "1230" },
	{ UACCESS_KADDR_A_EVENT_COMM, "UACCESS_COMM", "poc" },
	{ UACCESS_KADDR_A_EVENT_UID, "UACCESS_UID", "1000" },
	{ UACCESS_KADDR_A_EVENT_SYSCALL_NR, "UACCESS_SYSCALL_NR", "247" },
	{ UACCESS_KADDR_A_EVENT_CPU, "UACCESS_CPU", "3" },
	{ UACCESS_KADDR_A_EVENT_COUNT, "UACCESS_COUNT", "5" },
	{ UACCESS_KADDR_A_EVENT_SUPPRESSED, "UACCESS_SUPPRESSED", "2" },
	{ UACCESS_KADDR_A_EVENT_CONTEXT, "UACCESS_CONTEXT", "task" },
	{ UACCESS_KADDR_A_EVENT_SYSCALL_ARCH, "UACCESS_SYSCALL_ARCH", "x86_64" },
	{ UACCESS_KADDR_A_EVENT_SYSCALL_ARGS, "UACCESS_SYSCALL_ARGS",
	  "0x1 0x4d3 0xffff888012345678 0x4 0x0 0x0" },
};

static const struct uk_rec_entry *send_event(const struct uk_event *ev,
					  uint64_t site_events)
{
	struct uk_journal *j = journal_new();
	int before = uk_rec.n;

	assert_int_equal(uk_journal_event(j, ev, site_events), 0);
	assert_int_equal(uk_rec.n, before + 1);
	assert_int_equal(j->sent, 1);
	assert_int_equal(j->failed, 0);
	return uk_rec_entry(before);
}

static void event_has_every_present_attribute_as_its_field(void **state)
{
	const struct uk_rec_entry *e;
	struct uk_event ev;
	size_t i;

	uk_test_fill_event(&ev, 2, 0xbeef);
	e = send_event(&ev, 17);
	for (i = 0; i < ARRAY_SIZE(event_want); i++)
		uk_rec_assert_val(e, event_want[i].key, event_want[i].val);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_EVENT);
	uk_rec_assert_val(e, "PRIORITY", "4");
	uk_rec_assert_val(e, "SYSLOG_IDENTIFIER", "uaccessd");
	uk_rec_assert_val(e, "UACCESS_SITE_EVENTS", "17");
	uk_rec_assert_val(e, "UACCESS_STACK_DEPTH", "2");
	assert_non_null(uk_rec_val(e, "MESSAGE"));
	assert_non_null(uk_rec_val(e, "UACCESS_STACK"));
	uk_rec_assert_val(e, "UACCESS_SITE_FUNCTION", "vuln_ioctl");
	/* 24 attributes, MESSAGE_ID PRIORITY SYSLOG_IDENTIFIER MESSAGE,
	 * STACK STACK_DEPTH SITE_FUNCTION SITE_EVENTS: nothing else. */
	assert_int_equal(e->n, ARRAY_SIZE(event_want) + 8);
}

/* The field table and the expectations above cover the same attributes. */
static void every_event_field_of_the_table_is_expected(void **state)
{
	const struct uk_field *f;
	size_t i, n = 0;

	for (f = uk_event_fields; f->name; f++, n++) {
		for (i = 0; i < ARRAY_SIZE(event_want); i++)
			if (event_want[i].attr == f->attr)
				break;
		if (i == ARRAY_SIZE(event_want))
			fail_msg("field %s has no expected journal text here",
				 f->name);
		assert_string_equal(f->journal, event_want[i].key);
	}
	assert_int_equal(n, ARRAY_SIZE(event_want));
}

static void absent_attributes_give_no_field(void **state)
{
	const struct uk_rec_entry *e;
	struct uk_event ev;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(event_want); i++) {
		uk_rec_reset();
		uk_test_fill_event(&ev, 1, 0xbeef);
		ev.present &= ~(1ULL << event_want[i].attr);
		e = send_event(&ev, 1);
		for (k = 0; k < ARRAY_SIZE(event_want); k++) {
			if (k == i)
				assert_no_field(e, event_want[k].key);
			else
				uk_rec_assert_val(e, event_want[k].key,
					   event_want[k].val);
		}
	}

	/* Nothing present: only the daemon's own fields. */
	uk_rec_reset();
	uk_test_fill_event(&ev, 0, 0xbeef);
	ev.present = 0;
	e = send_event(&ev, 3);
	for (k = 0; k < ARRAY_SIZE(event_want); k++)
		assert_no_field(e, event_want[k].key);
	assert_no_field(e, "UACCESS_STACK");
	assert_no_field(e, "UACCESS_STACK_DEPTH");
	uk_rec_assert_val(e, "UACCESS_SITE_EVENTS", "3");
	assert_int_equal(e->n, 5);
}

static void message_says_what_where_and_who(void **state)
{
	const struct uk_rec_entry *e;
	struct uk_event ev;

	uk_test_fill_event(&ev, 0, 0xbeef);
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "MESSAGE",
		   "__copy_from_user() from-user kernel address 0xffff888012345678 "
		   "(kernel-mapped, fault) at vuln_ioctl+0x1c/0x80 [uk_test] "
		   "by poc[1234], task context");

	/* No task outside task context: no "by". */
	uk_rec_reset();
	ev.present &= ~((1ULL << UACCESS_KADDR_A_EVENT_PID) |
			(1ULL << UACCESS_KADDR_A_EVENT_TGID) |
			(1ULL << UACCESS_KADDR_A_EVENT_COMM) |
			(1ULL << UACCESS_KADDR_A_EVENT_UID));
	ev.context = UACCESS_KADDR_CONTEXT_SOFTIRQ;
	ev.helper = UACCESS_KADDR_HELPER_PUT_USER;
	ev.direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ev.addr_class = UACCESS_KADDR_ADDR_CLASS_NONCANONICAL;
	ev.kind = UACCESS_KADDR_KIND_GP;
	ev.address = 0x10;
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "MESSAGE",
		   "__put_user() to-user kernel address 0x0000000000000010 "
		   "(noncanonical, gp) at vuln_ioctl+0x1c/0x80 [uk_test], "
		   "softirq context");

	/* Empty comm and symbol are shown as "?". */
	uk_rec_reset();
	uk_test_fill_event(&ev, 0, 0xbeef);
	ev.comm[0] = '\0';
	ev.site_symbol[0] = '\0';
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "MESSAGE",
		   "__copy_from_user() from-user kernel address 0xffff888012345678 "
		   "(kernel-mapped, fault) at ? by ?[1234], task context");
}

static void unknown_enum_values_are_shown_as_numbers(void **state)
{
	const struct uk_rec_entry *e;
	struct uk_event ev;

	uk_test_fill_event(&ev, 0, 0xbeef);
	ev.kind = 77;
	ev.helper = 200;
	ev.direction = 9;
	ev.addr_class = UINT32_MAX;
	ev.context = 31;
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "UACCESS_KIND", "77");
	uk_rec_assert_val(e, "UACCESS_HELPER", "200");
	uk_rec_assert_val(e, "UACCESS_DIRECTION", "9");
	uk_rec_assert_val(e, "UACCESS_ADDR_CLASS", "4294967295");
	uk_rec_assert_val(e, "UACCESS_CONTEXT", "31");
	uk_rec_assert_val(e, "MESSAGE",
		   "200() 9 kernel address 0xffff888012345678 (4294967295, 77) "
		   "at vuln_ioctl+0x1c/0x80 [uk_test] by poc[1234], 31 context");
}

static void stack_is_one_symbol_per_line_with_its_depth(void **state)
{
	const struct uk_rec_entry *e;
	struct uk_event ev;

	uk_test_fill_event(&ev, 3, 0xbeef);
	/* A frame without a symbol is shown as "?". */
	ev.frames[1].symbol[0] = '\0';
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "UACCESS_STACK",
		   "frame_0+0x0/0x100\n?\nframe_2+0x8/0x100");
	uk_rec_assert_val(e, "UACCESS_STACK_DEPTH", "3");

	uk_rec_reset();
	uk_test_fill_event(&ev, 1, 0xbeef);
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "UACCESS_STACK", "frame_0+0x0/0x100");
	uk_rec_assert_val(e, "UACCESS_STACK_DEPTH", "1");
}

/* 16 frames of 127-character symbols, the largest stack: all of it. */
static void largest_stack_and_symbols_are_sent_whole(void **state)
{
	char want[UK_STACK_MAX * UK_SYMBOL_LEN];
	const struct uk_rec_entry *e;
	struct uk_event ev;
	size_t off = 0;
	unsigned int i;

	uk_test_fill_event(&ev, UK_STACK_MAX, 0xbeef);
	memset(ev.site_symbol, 'S', UK_SYMBOL_LEN - 1);
	ev.site_symbol[UK_SYMBOL_LEN - 1] = '\0';
	memset(ev.comm, 'c', UK_COMM_LEN - 1);
	ev.comm[UK_COMM_LEN - 1] = '\0';
	for (i = 0; i < UK_STACK_MAX; i++) {
		memset(ev.frames[i].symbol, 'a' + i, UK_SYMBOL_LEN - 1);
		ev.frames[i].symbol[UK_SYMBOL_LEN - 1] = '\0';
		off += (size_t)sprintf(want + off, "%s%s", i ? "\n" : "",
				       ev.frames[i].symbol);
	}
	e = send_event(&ev, 1);
	uk_rec_assert_val(e, "UACCESS_STACK", want);
	uk_rec_assert_val(e, "UACCESS_STACK_DEPTH", "16");
	uk_rec_assert_val(e, "UACCESS_SITE_SYMBOL", ev.site_symbol);
	uk_rec_assert_val(e, "UACCESS_COMM", ev.comm);
	assert_non_null(strstr(uk_rec_val(e, "MESSAGE"), ev.site_symbol));
}

/*
 * Strings without their NUL (not from the parser, which always ends
 * them): cut at the end of their array, never read beyond it, and the
 * entry is still sent.  The event sits in a buffer of 'Z's so that
 * reading past it shows (ended by a NUL, so that an overread fails this
 * test and does not abort the others under ASan).
 */
static void unterminated_strings_are_cut_and_the_entry_sent(void **state)
{
	char want_sym[UK_SYMBOL_LEN + 1], want_comm[UK_COMM_LEN + 1];
	_Alignas(8) static unsigned char raw[sizeof(struct uk_event) + 64];
	struct uk_event *ev;
	const struct uk_rec_entry *e;
	const char *stack, *last;

	memset(raw, 'Z', sizeof(raw));
	raw[sizeof(raw) - 1] = '\0';
	ev = (struct uk_event *)raw;
	uk_test_fill_event(ev, UK_STACK_MAX, 0xbeef);
	memset(ev->site_symbol, 'S', UK_SYMBOL_LEN);
	ev->site_ip = 0x5a5a5a5a5a5a5a5aULL;
	memset(ev->comm, 'c', UK_COMM_LEN);
	ev->uid = 0x5a5a5a5a;
	/* The last frame's symbol ends the struct. */
	memset(ev->frames[UK_STACK_MAX - 1].symbol, 'f', UK_SYMBOL_LEN);
	memset(want_sym, 'S', UK_SYMBOL_LEN);
	want_sym[UK_SYMBOL_LEN] = '\0';
	memset(want_comm, 'c', UK_COMM_LEN);
	want_comm[UK_COMM_LEN] = '\0';

	e = send_event(ev, 1);
	uk_rec_assert_val(e, "UACCESS_SITE_SYMBOL", want_sym);
	uk_rec_assert_val(e, "UACCESS_COMM", want_comm);
	if (strchr(uk_rec_val(e, "MESSAGE"), 'Z'))
		fail_msg("MESSAGE read beyond a string: \"%s\"",
			 uk_rec_val(e, "MESSAGE"));
	stack = uk_rec_val(e, "UACCESS_STACK");
	assert_non_null(stack);
	last = strrchr(stack, '\n');
	assert_non_null(last);
	if (strchr(stack, 'Z') || strlen(last + 1) > UK_SYMBOL_LEN)
		fail_msg("UACCESS_STACK read beyond the last frame: \"%s\"",
			 last + 1);
}

/* ---- the other entries ---- */

static void suppressed_summary_entry(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;

	assert_int_equal(uk_journal_suppressed(j, "foo+0x1/0x2 [m]",
					       0xffffffff81000040ULL,
					       UACCESS_KADDR_KIND_PRECHECK,
					       UACCESS_KADDR_HELPER_CLEAR_USER,
					       12, 40), 0);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_SUPPRESSED);
	uk_rec_assert_val(e, "PRIORITY", "4");
	uk_rec_assert_val(e, "SYSLOG_IDENTIFIER", "uaccessd");
	uk_rec_assert_val(e, "MESSAGE",
		   "12 more events at foo+0x1/0x2 [m] held back by uaccessd's ratelimit (total 40)");
	uk_rec_assert_val(e, "UACCESS_SITE_SYMBOL", "foo+0x1/0x2 [m]");
	uk_rec_assert_val(e, "UACCESS_SITE_IP", "0xffffffff81000040");
	uk_rec_assert_val(e, "UACCESS_KIND", "precheck");
	uk_rec_assert_val(e, "UACCESS_HELPER", "__clear_user");
	uk_rec_assert_val(e, "UACCESS_SITE_FUNCTION", "foo");
	uk_rec_assert_val(e, "UACCESS_SUPPRESSED_COUNT", "12");
	uk_rec_assert_val(e, "UACCESS_SUPPRESSED_TOTAL", "40");
	assert_int_equal(j->sent, 1);
}

static void suppressed_summary_without_symbol_or_known_enums(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;

	assert_int_equal(uk_journal_suppressed(j, NULL, 0x40, 0, 99,
					       UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(uk_journal_suppressed(j, "", 0x40, 9, 0, 1, 1), 0);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE",
		   "18446744073709551615 more events at ? held back by "
		   "uaccessd's ratelimit (total 18446744073709551615)");
	uk_rec_assert_val(e, "UACCESS_SITE_IP", "0x0000000000000040");
	uk_rec_assert_val(e, "UACCESS_KIND", "0");
	uk_rec_assert_val(e, "UACCESS_HELPER", "99");
	assert_no_field(e, "UACCESS_SITE_FUNCTION");
	e = uk_rec_entry(1);
	uk_rec_assert_val(e, "MESSAGE", "1 more event at ? held back by uaccessd's ratelimit (total 1)");
	assert_no_field(e, "UACCESS_SITE_FUNCTION");
	uk_rec_assert_val(e, "UACCESS_KIND", "9");
}

static void loss_entry_names_reason_count_total_and_detail(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;

	assert_int_equal(uk_journal_loss(j, UK_LOSS_SEQ_GAP, 1, 9,
					 "sequence 5 followed 3"), 0);
	assert_int_equal(uk_journal_loss(j, UK_LOSS_KERNEL_DROPPED, 2, 2,
					 NULL), 0);
	assert_int_equal(uk_journal_loss(j, UK_LOSS_MALFORMED, 3, 4, ""), 0);

	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_LOSS);
	uk_rec_assert_val(e, "PRIORITY", "3");
	uk_rec_assert_val(e, "MESSAGE",
		   "lost 1 event: sequence-gap, sequence 5 followed 3 (total 9)");
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "sequence-gap");
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "1");
	uk_rec_assert_val(e, "UACCESS_LOSS_TOTAL", "9");
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", "sequence 5 followed 3");

	e = uk_rec_entry(1);
	uk_rec_assert_val(e, "MESSAGE", "lost 2 events: kernel-dropped (total 2)");
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "kernel-dropped");
	assert_no_field(e, "UACCESS_LOSS_DETAIL");

	e = uk_rec_entry(2);
	uk_rec_assert_val(e, "MESSAGE", "lost 3 events: malformed-message (total 4)");
	assert_no_field(e, "UACCESS_LOSS_DETAIL");
}

static void loss_reasons_have_fixed_names(void **state)
{
	static const char *const want[UK_LOSS_NR] = {
		[UK_LOSS_KERNEL_DROPPED] = "kernel-dropped",
		[UK_LOSS_SEQ_GAP] = "sequence-gap",
		[UK_LOSS_OVERRUN] = "socket-overrun",
		[UK_LOSS_MALFORMED] = "malformed-message",
		[UK_LOSS_JOURNAL] = "journal-send-failed",
		[UK_LOSS_EVICTED] = "site-evicted",
		[UK_LOSS_SITE_OVERFLOW] = "kernel-site-table-full",
	};
	struct uk_journal *j = journal_new();
	unsigned int r;

	for (r = 0; r < UK_LOSS_NR; r++) {
		assert_string_equal(uk_loss_name(r), want[r]);
		assert_int_equal(uk_journal_loss(j, r, 1, 1, NULL), 0);
		uk_rec_assert_val(uk_rec_entry((int)r), "UACCESS_LOSS_REASON", want[r]);
	}
	assert_string_equal(uk_loss_name(UK_LOSS_NR), "unknown");
	assert_string_equal(uk_loss_name((enum uk_loss)1000), "unknown");
	assert_int_equal(uk_journal_loss(j, (enum uk_loss)1000, 1, 1, NULL), 0);
	uk_rec_assert_val(uk_rec_entry(UK_LOSS_NR), "UACCESS_LOSS_REASON", "unknown");
}

/* A huge detail must not push out the fields that carry the numbers. */
static void overlong_loss_detail_is_cut_and_the_counts_kept(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;
	size_t n = 40000;
	char *detail = malloc(n + 1);

	assert_non_null(detail);
	memset(detail, 'd', n);
	detail[n] = '\0';
	assert_int_equal(uk_journal_loss(j, UK_LOSS_MALFORMED, 5, 6, detail),
			 0);
	free(detail);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_LOSS);
	uk_rec_assert_val(e, "PRIORITY", "3");
	assert_non_null(uk_rec_val(e, "MESSAGE"));
	assert_true(strncmp(uk_rec_val(e, "MESSAGE"), "lost 5 events: ", 15) == 0);
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "malformed-message");
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "5");
	uk_rec_assert_val(e, "UACCESS_LOSS_TOTAL", "6");
}

static void health_entry_has_the_given_priority_and_state(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;

	assert_int_equal(uk_journal_health(j, LOG_INFO, "reloaded",
					   "configuration reloaded from %s (%d)",
					   "/etc/uaccessd.conf", 3), 0);
	assert_int_equal(uk_journal_health(j, LOG_ERR, "overrun", "%s",
					   "buffer overrun"), 0);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_HEALTH);
	uk_rec_assert_val(e, "PRIORITY", "6");
	uk_rec_assert_val(e, "MESSAGE",
		   "configuration reloaded from /etc/uaccessd.conf (3)");
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "reloaded");
	e = uk_rec_entry(1);
	uk_rec_assert_val(e, "PRIORITY", "3");
	uk_rec_assert_val(e, "MESSAGE", "buffer overrun");
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "overrun");
}

static void long_health_message_is_cut_and_sent(void **state)
{
	struct uk_journal *j = journal_new();
	char *msg = malloc(5001);
	const char *m;

	assert_non_null(msg);
	memset(msg, 'h', 5000);
	msg[5000] = '\0';
	assert_int_equal(uk_journal_health(j, LOG_ERR, "x", "%s", msg), 0);
	free(msg);
	m = uk_rec_val(uk_rec_entry(0), "MESSAGE");
	assert_non_null(m);
	assert_true(strlen(m) > 200 && strlen(m) < 5000);
	assert_true(strspn(m, "h") == strlen(m));
	uk_rec_assert_val(uk_rec_entry(0), "UACCESS_DAEMON_STATE", "x");
}

static void message_ids_are_distinct_128bit_hex(void **state)
{
	const char *ids[] = {
		UK_MSGID_EVENT, UK_MSGID_SUPPRESSED, UK_MSGID_LOSS,
		UK_MSGID_HEALTH,
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		assert_int_equal(strlen(ids[i]), 32);
		assert_int_equal(strspn(ids[i], "0123456789abcdef"), 32);
		for (k = 0; k < i; k++)
			assert_string_not_equal(ids[i], ids[k]);
	}
}

/* ---- failures ---- */

static void failed_send_is_counted_with_its_error(void **state)
{
	struct uk_journal *j = journal_new();
	struct uk_event ev;

	uk_test_fill_event(&ev, 1, 0xbeef);
	uk_rec_plan(-ECONNREFUSED, 1);
	uk_rec_plan(-EAGAIN, 2);
	assert_int_equal(uk_journal_event(j, &ev, 1), -ECONNREFUSED);
	assert_int_equal(j->failed, 1);
	assert_int_equal(j->failed_pending, 1);
	assert_int_equal(j->last_error, -ECONNREFUSED);
	assert_int_equal(uk_journal_health(j, LOG_ERR, "x", "y"), -EAGAIN);
	assert_int_equal(uk_journal_suppressed(j, "s", 1, 1, 1, 1, 1),
			 -EAGAIN);
	assert_int_equal(j->failed, 3);
	assert_int_equal(j->failed_pending, 3);
	assert_int_equal(j->last_error, -EAGAIN);
	assert_int_equal(j->sent, 0);
	assert_int_equal(uk_rec.n, 0);
	assert_int_equal(uk_rec.calls, 3);
}

/*
 * What journal.c does: the entry that succeeds goes first (only then is
 * the journal known to take entries again), the loss entry right after it.
 */
static void next_successful_send_is_followed_by_a_loss_entry(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;
	struct uk_event ev;

	uk_test_fill_event(&ev, 1, 0xbeef);
	uk_rec_plan(-ENOBUFS, 1);
	uk_rec_plan(-EAGAIN, 1);
	assert_int_equal(uk_journal_event(j, &ev, 1), -ENOBUFS);
	assert_int_equal(uk_journal_event(j, &ev, 2), -EAGAIN);

	assert_int_equal(uk_journal_event(j, &ev, 3), 0);
	assert_int_equal(uk_rec.n, 2);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_EVENT);
	uk_rec_assert_val(e, "UACCESS_SITE_EVENTS", "3");
	e = uk_rec_entry(1);
	uk_rec_assert_val(e, "MESSAGE_ID", UK_MSGID_LOSS);
	uk_rec_assert_val(e, "PRIORITY", "3");
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "journal-send-failed");
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "2");
	uk_rec_assert_val(e, "UACCESS_LOSS_TOTAL", "2");
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", strerror(EAGAIN));
	assert_int_equal(j->failed_pending, 0);
	assert_int_equal(j->failed, 2);
	assert_int_equal(j->sent, 2);

	/* Reported once: the next entry goes alone. */
	assert_int_equal(uk_journal_health(j, LOG_INFO, "ok", "ok"), 0);
	assert_int_equal(uk_rec.n, 3);
	uk_rec_assert_val(uk_rec_entry(2), "MESSAGE_ID", UK_MSGID_HEALTH);
	assert_int_equal(uk_rec.calls, 5);

	/* The totals go on across reports. */
	uk_rec_plan(-EIO, 1);
	assert_int_equal(uk_journal_health(j, LOG_INFO, "a", "a"), -EIO);
	assert_int_equal(uk_journal_health(j, LOG_INFO, "b", "b"), 0);
	assert_int_equal(uk_rec.n, 5);
	e = uk_rec_entry(4);
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "1");
	uk_rec_assert_val(e, "UACCESS_LOSS_TOTAL", "3");
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", strerror(EIO));
}

static void failed_loss_entry_is_kept_for_later_without_recursion(void **state)
{
	struct uk_journal *j = journal_new();
	const struct uk_rec_entry *e;
	struct uk_event ev;

	uk_test_fill_event(&ev, 1, 0xbeef);
	uk_rec_plan(-EAGAIN, 1);		/* the event */
	uk_rec_plan(0, 1);			/* the next event */
	uk_rec_plan(-EPIPE, 1);		/* its loss entry */
	assert_int_equal(uk_journal_event(j, &ev, 1), -EAGAIN);
	/* The event went through: 0, whatever became of the loss entry. */
	assert_int_equal(uk_journal_event(j, &ev, 2), 0);
	assert_int_equal(uk_rec.calls, 3);
	assert_int_equal(uk_rec.n, 1);
	/* The refused loss entry counts as refused too. */
	assert_int_equal(j->failed, 2);
	assert_int_equal(j->failed_pending, 2);
	assert_int_equal(j->last_error, -EPIPE);

	assert_int_equal(uk_journal_event(j, &ev, 3), 0);
	assert_int_equal(uk_rec.calls, 5);
	assert_int_equal(uk_rec.n, 3);
	e = uk_rec_entry(2);
	uk_rec_assert_val(e, "UACCESS_LOSS_REASON", "journal-send-failed");
	uk_rec_assert_val(e, "UACCESS_LOSS_COUNT", "2");
	uk_rec_assert_val(e, "UACCESS_LOSS_TOTAL", "2");
	uk_rec_assert_val(e, "UACCESS_LOSS_DETAIL", strerror(EPIPE));
	assert_int_equal(j->failed_pending, 0);
}

static void init_zeroes_the_counters_and_sets_a_sender(void **state)
{
	struct uk_journal j;

	memset(&j, 0xff, sizeof(j));
	uk_journal_init(&j);
	assert_non_null(j.sendv);
	assert_int_equal(j.sent, 0);
	assert_int_equal(j.failed, 0);
	assert_int_equal(j.failed_pending, 0);
	assert_int_equal(j.last_error, 0);
}

/*
 * sd_journal_sendv() reports success when journald's socket is missing;
 * the default sender must not: the entry is counted as refused.  Only
 * checked where there is no journald (no entry is written to a real one).
 */
static void default_sender_refuses_without_journald(void **state)
{
	struct uk_journal j;

	if (access("/run/systemd/journal/socket", F_OK) == 0) {
		skip();
		return;
	}
	uk_journal_init(&j);
	assert_int_equal(uk_journal_health(&j, LOG_INFO, "test", "test"),
			 -ENOENT);
	assert_int_equal(j.failed, 1);
	assert_int_equal(j.failed_pending, 1);
	assert_int_equal(j.last_error, -ENOENT);
	assert_int_equal(j.sent, 0);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest journal[] = {
		T(event_has_every_present_attribute_as_its_field),
		T(every_event_field_of_the_table_is_expected),
		T(absent_attributes_give_no_field),
		T(message_says_what_where_and_who),
		T(unknown_enum_values_are_shown_as_numbers),
		T(stack_is_one_symbol_per_line_with_its_depth),
		T(largest_stack_and_symbols_are_sent_whole),
		T(unterminated_strings_are_cut_and_the_entry_sent),
		T(suppressed_summary_entry),
		T(suppressed_summary_without_symbol_or_known_enums),
		T(loss_entry_names_reason_count_total_and_detail),
		T(loss_reasons_have_fixed_names),
		T(overlong_loss_detail_is_cut_and_the_counts_kept),
		T(health_entry_has_the_given_priority_and_state),
		T(long_health_message_is_cut_and_sent),
		T(message_ids_are_distinct_128bit_hex),
		T(failed_send_is_counted_with_its_error),
		T(next_successful_send_is_followed_by_a_loss_entry),
		T(failed_loss_entry_is_kept_for_later_without_recursion),
		T(init_zeroes_the_counters_and_sets_a_sender),
		T(default_sender_refuses_without_journald),
	};

	return cmocka_run_group_tests(journal, NULL, NULL);
}
