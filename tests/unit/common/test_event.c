// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of daemon/common/event.c (field tables, enum names, parsers) and
 * tests/support/msgbuild.c (builders, symbol names).
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/genetlink.h>

#include "common/event.h"
#include "common/fields.h"
#include "msgbuild.h"
#include "common/util.h"
#include "fixtures.h"

#define FAMILY		0x1d
#define BUFLEN		16384

enum set { SET_EVENT, SET_SITE, SET_STATUS, NR_SETS };

static const struct uk_field *const set_fields[NR_SETS] = {
	uk_event_fields, uk_site_fields, uk_status_fields,
};

static const char *const set_names[NR_SETS] = { "event", "site", "status" };

static const int set_max[NR_SETS] = {
	UACCESS_KADDR_A_EVENT_MAX, UACCESS_KADDR_A_SITE_MAX,
	UACCESS_KADDR_A_STATUS_MAX,
};

static uint64_t all_bits(const struct uk_field *fields)
{
	uint64_t bits = 0;

	for (; fields->name; fields++)
		bits |= 1ULL << fields->attr;
	return bits;
}

static uint64_t required_bits(const struct uk_field *fields)
{
	uint64_t bits = 0;

	for (; fields->name; fields++)
		if (fields->required)
			bits |= 1ULL << fields->attr;
	return bits;
}

static void fill_site(struct uk_site *s)
{
	memset(s, 0, sizeof(*s));
	s->site_id = 9;
	s->site_ip = 0xffffffff81234567ULL;
	strcpy(s->site_symbol, "do_thing+0x10/0x40");
	s->kind = UACCESS_KADDR_KIND_PRECHECK;
	s->helper = UACCESS_KADDR_HELPER_PUT_USER;
	s->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	s->count = 1000;
	s->suppressed = 990;
	s->reported = 10;
	s->first_ts_boot = 1000000;
	s->last_ts_boot = 2000000;
	s->last_address = 0xffffffffff600000ULL;
	s->last_pid = 77;
	strcpy(s->last_comm, "kworker/0:1");
	s->stack_hash = 0x12345678;
	s->present = all_bits(uk_site_fields);
}

static void fill_status(struct uk_status *st)
{
	memset(st, 0, sizeof(*st));
	st->mode = UACCESS_KADDR_MODE_WARN;
	st->hits_fault = 1;
	st->hits_gp = 2;
	st->hits_precheck = 3;
	st->rejected = 4;
	st->reported = 5;
	st->suppressed = 6;
	st->dropped = 7;
	st->sites_used = 8;
	st->sites_max = 4096;
	st->sites_overflow = 9;
	st->last_seq = 10;
	st->ratelimit_interval_ms = 5000;
	st->ratelimit_burst = 10;
	st->queue_len = 64;
	st->access = UACCESS_KADDR_ACCESS_ALLOW;
	st->present = all_bits(uk_status_fields);
}

/* The sample message of @set with the attributes of @present. */
static int build_set(enum set set, uint64_t present, void *buf, size_t len)
{
	struct uk_event ev;
	struct uk_site site;
	struct uk_status st;

	switch (set) {
	case SET_EVENT:
		uk_test_fill_event(&ev, 0, 0xdeadbeef);
		ev.present = present;
		return uk_event_build(&ev, FAMILY, 1, buf, len);
	case SET_SITE:
		fill_site(&site);
		site.present = present;
		return uk_site_build(&site, FAMILY, 1, buf, len);
	default:
		fill_status(&st);
		st.present = present;
		return uk_status_build(&st, UACCESS_KADDR_CMD_GET_STATUS,
				       FAMILY, 1, buf, len);
	}
}

static int parse_set(enum set set, const void *buf, size_t len,
		     char *why, size_t whylen)
{
	struct uk_event ev;
	struct uk_site site;
	struct uk_status st;

	switch (set) {
	case SET_EVENT:
		return uk_event_parse(buf, len, &ev, why, whylen);
	case SET_SITE:
		return uk_site_parse(buf, len, &site, why, whylen);
	default:
		return uk_status_parse(buf, len, &st, why, whylen);
	}
}

static void set_nlmsg_len(uint8_t *buf, uint32_t len)
{
	memcpy(buf + offsetof(struct nlmsghdr, nlmsg_len), &len, sizeof(len));
}

static uint32_t get_nlmsg_len(const uint8_t *buf)
{
	uint32_t len;

	memcpy(&len, buf + offsetof(struct nlmsghdr, nlmsg_len), sizeof(len));
	return len;
}

/* Appends an attribute with an explicit nla_len; returns its offset. */
static size_t append_raw(uint8_t *buf, size_t *len, uint16_t type,
			 uint16_t nla_len, const void *data, size_t dlen)
{
	struct nlattr h = { .nla_len = nla_len, .nla_type = type };
	size_t off = *len;

	assert_true(off + NLA_HDRLEN + NLA_ALIGN(dlen) <= BUFLEN);
	memcpy(buf + off, &h, sizeof(h));
	if (dlen)
		memcpy(buf + off + NLA_HDRLEN, data, dlen);
	memset(buf + off + NLA_HDRLEN + dlen, 0, NLA_ALIGN(dlen) - dlen);
	*len = off + NLA_HDRLEN + NLA_ALIGN(dlen);
	set_nlmsg_len(buf, (uint32_t)*len);
	return off;
}

static size_t append_attr(uint8_t *buf, size_t *len, uint16_t type,
			  const void *data, size_t dlen)
{
	return append_raw(buf, len, type, (uint16_t)(NLA_HDRLEN + dlen),
			  data, dlen);
}

static void append_u64(uint8_t *buf, size_t *len, uint16_t type, uint64_t v)
{
	append_attr(buf, len, type, &v, sizeof(v));
}

static void append_str(uint8_t *buf, size_t *len, uint16_t type,
		       const char *s)
{
	append_attr(buf, len, type, s, strlen(s) + 1);
}

/* Closes a nest opened by append_raw(..., 0, NULL, 0) at @off. */
static void end_nest(uint8_t *buf, size_t len, size_t off)
{
	uint16_t nla_len = (uint16_t)(len - off);

	memcpy(buf + off, &nla_len, sizeof(nla_len));
}

/* A message of @set with its required attributes only. */
static size_t base_msg(enum set set, uint8_t *buf)
{
	int n = build_set(set, required_bits(set_fields[set]), buf, BUFLEN);

	assert_true(n > 0);
	return (size_t)n;
}

/* Field tables */

static void tables_cover_every_attribute_once(void **state)
{
	enum set set;
	int attr, n;

	for (set = 0; set < NR_SETS; set++) {
		for (attr = 1; attr <= set_max[set]; attr++) {
			const struct uk_field *f;

			n = 0;
			for (f = set_fields[set]; f->name; f++)
				n += f->attr == attr;
			if (attr == 1 ||	/* pad, in all three sets */
			    (set == SET_EVENT &&
			     attr == UACCESS_KADDR_A_EVENT_STACK)) {
				if (n != 0)
					fail_msg("%s: attribute %d is pad or stack, found in the table",
						 set_names[set], attr);
			} else if (n != 1) {
				fail_msg("%s: attribute %d found %d times, expected once",
					 set_names[set], attr, n);
			}
		}
	}
}

static void tables_are_in_attribute_order(void **state)
{
	const struct uk_field *f;
	enum set set;

	for (set = 0; set < NR_SETS; set++)
		for (f = set_fields[set]; f->name && f[1].name; f++)
			if (f->attr >= f[1].attr)
				fail_msg("%s: %s (%d) before %s (%d)",
					 set_names[set], f->name, f->attr,
					 f[1].name, f[1].attr);
}

static void tables_journal_names_are_uaccess_upper_json_names(void **state)
{
	const struct uk_field *f;
	char want[128];
	enum set set;
	size_t i;

	for (set = 0; set < NR_SETS; set++) {
		for (f = set_fields[set]; f->name; f++) {
			for (i = 0; f->name[i]; i++)
				if (!islower((unsigned char)f->name[i]) &&
				    !isdigit((unsigned char)f->name[i]) &&
				    f->name[i] != '_')
					fail_msg("%s: JSON name '%s' is not snake_case",
						 set_names[set], f->name);
			/* only the event's fields go to the journal */
			if (f->journal == NULL && set != SET_EVENT)
				continue;
			snprintf(want, sizeof(want), "UACCESS_%s", f->name);
			for (i = 0; want[i]; i++)
				want[i] = (char)toupper((unsigned char)want[i]);
			assert_non_null(f->journal);
			assert_string_equal(f->journal, want);
		}
	}
}

struct want_field {
	const char *name;
	enum uk_ftype type;
	enum uk_enum names;
	size_t offset;
};

#define WE(m, t, e) { #m, t, e, offsetof(struct uk_event, m) }
#define WS(m, t, e) { #m, t, e, offsetof(struct uk_site, m) }
#define WT(m, t, e) { #m, t, e, offsetof(struct uk_status, m) }

static const struct want_field want_event[] = {
	WE(seq, UK_FT_U64, UK_ENUM_NONE),
	WE(ts_boot, UK_FT_U64, UK_ENUM_NONE),
	WE(ts_real, UK_FT_U64, UK_ENUM_NONE),
	WE(kind, UK_FT_ENUM, UK_ENUM_KIND),
	WE(helper, UK_FT_ENUM, UK_ENUM_HELPER),
	WE(direction, UK_FT_ENUM, UK_ENUM_DIRECTION),
	WE(addr_class, UK_FT_ENUM, UK_ENUM_ADDR_CLASS),
	WE(address, UK_FT_HEX64, UK_ENUM_NONE),
	WE(size, UK_FT_U64, UK_ENUM_NONE),
	WE(site_id, UK_FT_U32, UK_ENUM_NONE),
	WE(site_symbol, UK_FT_STR, UK_ENUM_NONE),
	WE(site_ip, UK_FT_HEX64, UK_ENUM_NONE),
	WE(stack_hash, UK_FT_HEX32, UK_ENUM_NONE),
	WE(pid, UK_FT_U32, UK_ENUM_NONE),
	WE(tgid, UK_FT_U32, UK_ENUM_NONE),
	WE(comm, UK_FT_STR, UK_ENUM_NONE),
	WE(uid, UK_FT_U32, UK_ENUM_NONE),
	WE(syscall_nr, UK_FT_S32, UK_ENUM_NONE),
	WE(cpu, UK_FT_U32, UK_ENUM_NONE),
	WE(count, UK_FT_U64, UK_ENUM_NONE),
	WE(suppressed, UK_FT_U64, UK_ENUM_NONE),
	WE(context, UK_FT_ENUM, UK_ENUM_CONTEXT),
	WE(syscall_arch, UK_FT_ENUM, UK_ENUM_ARCH),
	WE(syscall_args, UK_FT_ARGS, UK_ENUM_NONE),
};

static const struct want_field want_site[] = {
	WS(site_id, UK_FT_U32, UK_ENUM_NONE),
	WS(site_ip, UK_FT_HEX64, UK_ENUM_NONE),
	WS(site_symbol, UK_FT_STR, UK_ENUM_NONE),
	WS(kind, UK_FT_ENUM, UK_ENUM_KIND),
	WS(helper, UK_FT_ENUM, UK_ENUM_HELPER),
	WS(direction, UK_FT_ENUM, UK_ENUM_DIRECTION),
	WS(count, UK_FT_U64, UK_ENUM_NONE),
	WS(suppressed, UK_FT_U64, UK_ENUM_NONE),
	WS(reported, UK_FT_U64, UK_ENUM_NONE),
	WS(first_ts_boot, UK_FT_U64, UK_ENUM_NONE),
	WS(last_ts_boot, UK_FT_U64, UK_ENUM_NONE),
	WS(last_address, UK_FT_HEX64, UK_ENUM_NONE),
	WS(last_pid, UK_FT_U32, UK_ENUM_NONE),
	WS(last_comm, UK_FT_STR, UK_ENUM_NONE),
	WS(stack_hash, UK_FT_HEX32, UK_ENUM_NONE),
};

static const struct want_field want_status[] = {
	WT(mode, UK_FT_ENUM, UK_ENUM_MODE),
	WT(hits_fault, UK_FT_U64, UK_ENUM_NONE),
	WT(hits_gp, UK_FT_U64, UK_ENUM_NONE),
	WT(hits_precheck, UK_FT_U64, UK_ENUM_NONE),
	WT(rejected, UK_FT_U64, UK_ENUM_NONE),
	WT(reported, UK_FT_U64, UK_ENUM_NONE),
	WT(suppressed, UK_FT_U64, UK_ENUM_NONE),
	WT(dropped, UK_FT_U64, UK_ENUM_NONE),
	WT(sites_used, UK_FT_U32, UK_ENUM_NONE),
	WT(sites_max, UK_FT_U32, UK_ENUM_NONE),
	WT(sites_overflow, UK_FT_U64, UK_ENUM_NONE),
	WT(last_seq, UK_FT_U64, UK_ENUM_NONE),
	WT(ratelimit_interval_ms, UK_FT_U32, UK_ENUM_NONE),
	WT(ratelimit_burst, UK_FT_U32, UK_ENUM_NONE),
	WT(queue_len, UK_FT_U32, UK_ENUM_NONE),
	WT(access, UK_FT_ENUM, UK_ENUM_ACCESS),
};

static void check_table(const char *set, const struct uk_field *fields,
			const struct want_field *want, size_t n,
			size_t struct_size)
{
	const struct uk_field *f;
	size_t i;

	for (i = 0, f = fields; f->name; f++, i++) {
		if (i >= n)
			fail_msg("%s: unexpected field %s", set, f->name);
		assert_string_equal(f->name, want[i].name);
		if (f->type != want[i].type || f->names != want[i].names ||
		    f->offset != want[i].offset)
			fail_msg("%s.%s: type %d names %d offset %zu, expected %d %d %zu",
				 set, f->name, f->type, f->names, f->offset,
				 want[i].type, want[i].names, want[i].offset);
		switch (f->type) {
		case UK_FT_U64:
		case UK_FT_HEX64:
			assert_int_equal(f->len, 8);
			break;
		case UK_FT_STR:
			assert_true(f->len == UK_SYMBOL_LEN ||
				    f->len == UK_COMM_LEN);
			break;
		case UK_FT_ARGS:
			assert_int_equal(f->len, sizeof(struct uk_syscall_args));
			break;
		default:
			assert_int_equal(f->len, 4);
		}
		assert_true(f->offset + f->len <= struct_size);
		assert_true(f->attr > 0 && f->attr < 64);
	}
	assert_int_equal(i, n);
}

static void tables_types_and_offsets_match_structs(void **state)
{
	check_table("event", uk_event_fields, want_event,
		    ARRAY_SIZE(want_event), sizeof(struct uk_event));
	check_table("site", uk_site_fields, want_site,
		    ARRAY_SIZE(want_site), sizeof(struct uk_site));
	check_table("status", uk_status_fields, want_status,
		    ARRAY_SIZE(want_status), sizeof(struct uk_status));
}

static void check_required(const char *set, const struct uk_field *fields,
			   const char *want)
{
	const struct uk_field *f;
	char got[512] = "";

	for (f = fields; f->name; f++) {
		if (!f->required)
			continue;
		if (got[0])
			strcat(got, ",");
		strcat(got, f->name);
	}
	if (strcmp(got, want))
		fail_msg("%s: required '%s', expected '%s'", set, got, want);
}

static void tables_required_attributes(void **state)
{
	check_required("event", uk_event_fields,
		       "seq,kind,helper,direction,address,site_id,site_ip,count");
	check_required("site", uk_site_fields,
		       "site_id,site_ip,kind,helper,direction,count");
	check_required("status", uk_status_fields, "mode");
}

/* Enum names */

/* The kernel's strings: report.c, core.c (modes) and the spec. */
static const char *const kernel_modes[] = {
	NULL, "off", "count", "report", "warn",
};
static const char *const kernel_kinds[] = {
	NULL, "fault", "gp", "precheck",
};
static const char *const kernel_helpers[] = {
	NULL, "__get_user", "__put_user", "__copy_from_user",
	"__copy_to_user", "__clear_user", "unsafe_get_user",
	"unsafe_put_user", "unsafe_copy_to_user", "copy_user_generic",
	"strncpy_from_user", "strnlen_user", "futex", "cmpxchg_user",
	"unknown",
};
static const char *const kernel_directions[] = {
	"unknown", "from-user", "to-user", "both",
};
static const char *const kernel_classes[] = {
	NULL, "user", "kernel-unmapped", "kernel-mapped", "noncanonical",
	"guard-page", "all-ones", "vsyscall",
};
static const char *const kernel_contexts[] = {
	NULL, "task", "softirq", "hardirq", "nmi",
};
/* uaccess_kaddr_access= (core.c) and debugfs's "access" line. */
static const char *const kernel_accesses[] = {
	NULL, "fail", "allow",
};

static const struct {
	enum uk_enum e;
	const char *const *names;
	size_t n;
	uint32_t last;		/* highest value of the uapi enum */
} enum_tests[] = {
	{ UK_ENUM_MODE, kernel_modes, ARRAY_SIZE(kernel_modes),
	  UACCESS_KADDR_MODE_WARN },
	{ UK_ENUM_KIND, kernel_kinds, ARRAY_SIZE(kernel_kinds),
	  UACCESS_KADDR_KIND_PRECHECK },
	{ UK_ENUM_HELPER, kernel_helpers, ARRAY_SIZE(kernel_helpers),
	  UACCESS_KADDR_HELPER_UNKNOWN },
	{ UK_ENUM_DIRECTION, kernel_directions, ARRAY_SIZE(kernel_directions),
	  UACCESS_KADDR_DIRECTION_BOTH },
	{ UK_ENUM_ADDR_CLASS, kernel_classes, ARRAY_SIZE(kernel_classes),
	  UACCESS_KADDR_ADDR_CLASS_VSYSCALL },
	{ UK_ENUM_CONTEXT, kernel_contexts, ARRAY_SIZE(kernel_contexts),
	  UACCESS_KADDR_CONTEXT_NMI },
	{ UK_ENUM_ACCESS, kernel_accesses, ARRAY_SIZE(kernel_accesses),
	  UACCESS_KADDR_ACCESS_ALLOW },
};

static void enum_every_value_has_its_name_both_ways(void **state)
{
	size_t i;
	uint32_t v;

	for (i = 0; i < ARRAY_SIZE(enum_tests); i++) {
		assert_int_equal(enum_tests[i].n - 1, enum_tests[i].last);
		for (v = 1; v < enum_tests[i].n; v++) {
			const char *name = uk_enum_name(enum_tests[i].e, v);

			if (!name || strcmp(name, enum_tests[i].names[v]))
				fail_msg("enum %d value %u: name '%s', expected '%s'",
					 enum_tests[i].e, v, name ?: "(null)",
					 enum_tests[i].names[v]);
			assert_int_equal(uk_enum_value(enum_tests[i].e, name),
					 v);
		}
	}
}

static void enum_unknown_values_have_no_name(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(enum_tests); i++) {
		/* 0 is reserved, but for direction: unknown (a #GP not decoded). */
		if (enum_tests[i].e == UK_ENUM_DIRECTION)
			assert_string_equal(uk_enum_name(enum_tests[i].e, 0), "unknown");
		else
			assert_null(uk_enum_name(enum_tests[i].e, 0));
		assert_null(uk_enum_name(enum_tests[i].e,
					 enum_tests[i].last + 1));
		assert_null(uk_enum_name(enum_tests[i].e, UINT32_MAX));
	}
	assert_null(uk_enum_name(UK_ENUM_NONE, 1));
	assert_null(uk_enum_name((enum uk_enum)99, 1));
}

static void enum_unknown_names_give_zero(void **state)
{
	assert_int_equal(uk_enum_value(UK_ENUM_KIND, "bogus"), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_KIND, ""), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_KIND, NULL), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_KIND, "FAULT"), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_KIND, "fault "), 0);
	/* A name of another enum. */
	assert_int_equal(uk_enum_value(UK_ENUM_MODE, "fault"), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_NONE, "fault"), 0);
	assert_int_equal(uk_enum_value((enum uk_enum)99, "fault"), 0);
}

static void enum_accepts_spec_and_kernel_log_names(void **state)
{
	assert_int_equal(uk_enum_value(UK_ENUM_HELPER, "get-user"),
			 UACCESS_KADDR_HELPER_GET_USER);
	assert_int_equal(uk_enum_value(UK_ENUM_HELPER, "unsafe-copy-to-user"),
			 UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER);
	assert_int_equal(uk_enum_value(UK_ENUM_HELPER, "user access"),
			 UACCESS_KADDR_HELPER_UNKNOWN);
	assert_int_equal(uk_enum_value(UK_ENUM_DIRECTION, "from user"),
			 UACCESS_KADDR_DIRECTION_FROM_USER);
	assert_int_equal(uk_enum_value(UK_ENUM_DIRECTION, "from and to user"),
			 UACCESS_KADDR_DIRECTION_BOTH);
	assert_int_equal(uk_enum_value(UK_ENUM_ADDR_CLASS, "mapped kernel"),
			 UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED);
	assert_int_equal(uk_enum_value(UK_ENUM_ADDR_CLASS, "non-canonical"),
			 UACCESS_KADDR_ADDR_CLASS_NONCANONICAL);
	assert_int_equal(uk_enum_value(UK_ENUM_ADDR_CLASS, "vsyscall page"),
			 UACCESS_KADDR_ADDR_CLASS_VSYSCALL);
}

/* Round trips */

static void event_round_trip_all_attributes_and_full_stack(void **state)
{
	struct uk_event in, out;
	uint8_t buf[BUFLEN];
	char why[256] = "";
	int n, r;

	uk_test_fill_event(&in, UK_STACK_MAX, 0xdeadbeef);
	memset(in.site_symbol, 'a', sizeof(in.site_symbol) - 1);
	memset(in.comm, 'c', sizeof(in.comm) - 1);
	n = uk_event_build(&in, FAMILY, 77, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(n % 4, 0);
	assert_int_equal(get_nlmsg_len(buf), n);
	r = uk_event_parse((const void *)buf, (size_t)n, &out, why,
			   sizeof(why));
	if (r)
		fail_msg("parse: %d %s", r, why);
	assert_int_equal(out.nr_frames, UK_STACK_MAX);
	assert_string_equal(out.frames[15].symbol, "frame_15+0x3c/0x100");
	assert_int_equal(out.syscall_nr, 247);
	assert_int_equal(out.syscall_args.nr, UK_SYSCALL_ARGS);
	assert_int_equal(out.syscall_args.v[2], in.address);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void event_round_trip_required_only(void **state)
{
	struct uk_event in, out;
	uint8_t buf[BUFLEN];
	char why[256] = "";
	int n;

	uk_test_fill_event(&in, 0, 0xdeadbeef);
	in.present = required_bits(uk_event_fields);
	n = uk_event_build(&in, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	if (uk_event_parse((const void *)buf, (size_t)n, &out, why,
			   sizeof(why)))
		fail_msg("parse: %s", why);
	assert_int_equal(out.present, in.present);
	assert_int_equal(out.seq, 42);
	assert_int_equal(out.address, 0xffff888012345678ULL);
	assert_int_equal(out.ts_boot, 0);
	assert_string_equal(out.comm, "");
	assert_int_equal(out.nr_frames, 0);
}

static void event_round_trip_irq_context_without_task_fields(void **state)
{
	struct uk_event in, out;
	uint8_t buf[BUFLEN];
	int n;

	uk_test_fill_event(&in, 3, 0xdeadbeef);
	in.context = UACCESS_KADDR_CONTEXT_HARDIRQ;
	in.present &= ~(1ULL << UACCESS_KADDR_A_EVENT_PID |
			1ULL << UACCESS_KADDR_A_EVENT_TGID |
			1ULL << UACCESS_KADDR_A_EVENT_COMM |
			1ULL << UACCESS_KADDR_A_EVENT_UID);
	in.pid = in.tgid = in.uid = 0;
	memset(in.comm, 0, sizeof(in.comm));
	n = uk_event_build(&in, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(uk_event_parse((const void *)buf, (size_t)n, &out,
					NULL, 0), 0);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_false(out.present & 1ULL << UACCESS_KADDR_A_EVENT_PID);
}

static void site_round_trip(void **state)
{
	struct uk_site in, out;
	uint8_t buf[BUFLEN];
	char why[256] = "";
	int n;

	fill_site(&in);
	n = uk_site_build(&in, FAMILY, 5, buf, sizeof(buf));
	assert_true(n > 0);
	if (uk_site_parse((const void *)buf, (size_t)n, &out, why,
			  sizeof(why)))
		fail_msg("parse: %s", why);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void status_round_trip_get_status_and_reset(void **state)
{
	static const uint8_t cmds[] = {
		UACCESS_KADDR_CMD_GET_STATUS, UACCESS_KADDR_CMD_RESET,
	};
	struct uk_status in, out;
	uint8_t buf[BUFLEN];
	char why[256] = "";
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		fill_status(&in);
		in.hits_gp += i;
		n = uk_status_build(&in, cmds[i], FAMILY, 5, buf, sizeof(buf));
		assert_true(n > 0);
		assert_int_equal(buf[NLMSG_HDRLEN], cmds[i]);
		if (uk_status_parse((const void *)buf, (size_t)n, &out, why,
				    sizeof(why)))
			fail_msg("parse cmd %u: %s", cmds[i], why);
		assert_memory_equal(&in, &out, sizeof(in));
	}
}

/*
 * The access policy (UACCESS_KADDR_A_STATUS_ACCESS, a u32 after QUEUE_LEN)
 * as the kernel sends it, appended by hand to an older kernel's reply: the
 * policy when it is there, "unknown" when it is not.
 */
static void status_access_parsed_when_sent_unknown_when_not(void **state)
{
	static const uint32_t values[] = {
		UACCESS_KADDR_ACCESS_FAIL, UACCESS_KADDR_ACCESS_ALLOW,
	};
	static const char *const names[] = { "fail", "allow" };
	struct uk_status in, out;
	uint8_t old[BUFLEN], buf[BUFLEN];
	struct nlmsghdr nlh;
	struct nlattr nla = {
		.nla_len = NLA_HDRLEN + sizeof(uint32_t),
		.nla_type = UACCESS_KADDR_A_STATUS_ACCESS,
	};
	char why[256] = "", abuf[16];
	size_t i;
	int n;

	fill_status(&in);
	in.present &= ~UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS);
	n = uk_status_build(&in, UACCESS_KADDR_CMD_GET_STATUS, FAMILY, 5, old,
			    sizeof(old));
	assert_true(n > 0);
	if (uk_status_parse((const void *)old, (size_t)n, &out, why,
			    sizeof(why)))
		fail_msg("parse of an older kernel's reply: %s", why);
	assert_false(out.present & UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS));
	assert_int_equal(out.queue_len, 64);
	assert_string_equal(uk_status_access(&out, abuf, sizeof(abuf)),
			    UK_ACCESS_UNKNOWN);

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		memcpy(buf, old, (size_t)n);
		memcpy(buf + n, &nla, NLA_HDRLEN);
		memcpy(buf + n + NLA_HDRLEN, &values[i], sizeof(values[i]));
		memcpy(&nlh, buf, sizeof(nlh));
		nlh.nlmsg_len = (uint32_t)n + nla.nla_len;
		memcpy(buf, &nlh, sizeof(nlh));
		if (uk_status_parse((const void *)buf, nlh.nlmsg_len, &out,
				    why, sizeof(why)))
			fail_msg("parse with access=%s: %s", names[i], why);
		assert_true(out.present & UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS));
		assert_int_equal(out.access, values[i]);
		assert_string_equal(uk_status_access(&out, abuf, sizeof(abuf)),
				    names[i]);
	}
}

/* The kernel's attribute order, as in netlink.c uk_event_fill(). */
static void build_uses_kernel_headers_and_attribute_order(void **state)
{
	static const uint16_t want[] = {
		UACCESS_KADDR_A_EVENT_SEQ, UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT,
		UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL, UACCESS_KADDR_A_EVENT_KIND,
		UACCESS_KADDR_A_EVENT_HELPER, UACCESS_KADDR_A_EVENT_DIRECTION,
		UACCESS_KADDR_A_EVENT_ADDR_CLASS,
		UACCESS_KADDR_A_EVENT_ADDRESS, UACCESS_KADDR_A_EVENT_SIZE,
		UACCESS_KADDR_A_EVENT_SITE_ID,
		UACCESS_KADDR_A_EVENT_SITE_SYMBOL,
		UACCESS_KADDR_A_EVENT_SITE_IP, UACCESS_KADDR_A_EVENT_STACK,
		UACCESS_KADDR_A_EVENT_STACK, UACCESS_KADDR_A_EVENT_STACK_HASH,
		UACCESS_KADDR_A_EVENT_PID, UACCESS_KADDR_A_EVENT_TGID,
		UACCESS_KADDR_A_EVENT_COMM, UACCESS_KADDR_A_EVENT_UID,
		UACCESS_KADDR_A_EVENT_SYSCALL_NR, UACCESS_KADDR_A_EVENT_CPU,
		UACCESS_KADDR_A_EVENT_COUNT, UACCESS_KADDR_A_EVENT_SUPPRESSED,
		UACCESS_KADDR_A_EVENT_CONTEXT, UACCESS_KADDR_A_EVENT_SYSCALL_ARCH,
		UACCESS_KADDR_A_EVENT_SYSCALL_ARGS, UACCESS_KADDR_A_EVENT_SYSCALL_ARGS,
		UACCESS_KADDR_A_EVENT_SYSCALL_ARGS, UACCESS_KADDR_A_EVENT_SYSCALL_ARGS,
		UACCESS_KADDR_A_EVENT_SYSCALL_ARGS, UACCESS_KADDR_A_EVENT_SYSCALL_ARGS,
	};
	struct uk_event ev;
	struct uk_site site;
	uint8_t buf[BUFLEN];
	struct genlmsghdr g;
	struct nlmsghdr h;
	struct nlattr a;
	size_t off, i = 0;
	int n;

	uk_test_fill_event(&ev, 2, 0xdeadbeef);
	n = uk_event_build(&ev, FAMILY, 99, buf, sizeof(buf));
	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	memcpy(&g, buf + NLMSG_HDRLEN, sizeof(g));
	assert_int_equal(h.nlmsg_type, FAMILY);
	assert_int_equal(h.nlmsg_seq, 99);
	assert_int_equal(h.nlmsg_flags, 0);
	assert_int_equal(g.cmd, UACCESS_KADDR_CMD_EVENT);
	assert_int_equal(g.version, UACCESS_KADDR_FAMILY_VERSION);
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off < (size_t)n;
	     off += NLA_ALIGN(a.nla_len)) {
		memcpy(&a, buf + off, sizeof(a));
		assert_true(i < ARRAY_SIZE(want));
		assert_int_equal(a.nla_type & NLA_TYPE_MASK, want[i]);
		if (want[i] == UACCESS_KADDR_A_EVENT_STACK)
			assert_true(a.nla_type & NLA_F_NESTED);
		i++;
	}
	assert_int_equal(i, ARRAY_SIZE(want));

	fill_site(&site);
	n = uk_site_build(&site, FAMILY, 3, buf, sizeof(buf));
	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_flags, NLM_F_MULTI);
	assert_int_equal(buf[NLMSG_HDRLEN], UACCESS_KADDR_CMD_DUMP_SITES);
}

/* At most UK_STACK_MAX frames are written, whatever nr_frames says. */
static void build_caps_stack_at_maximum(void **state)
{
	struct uk_event in, out;
	uint8_t buf[BUFLEN];
	int n;

	uk_test_fill_event(&in, UK_STACK_MAX, 0xdeadbeef);
	in.nr_frames = UK_STACK_MAX + 10;
	n = uk_event_build(&in, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(uk_event_parse((const void *)buf, (size_t)n, &out,
					NULL, 0), 0);
	assert_int_equal(out.nr_frames, UK_STACK_MAX);
	in.nr_frames = UK_STACK_MAX;
	assert_memory_equal(&in, &out, sizeof(in));
}

/* With no attribute after STACK present, the frames come last. */
static void build_writes_stack_last_when_nothing_follows(void **state)
{
	struct uk_event in, out;
	uint8_t buf[BUFLEN];
	struct nlattr a;
	size_t off;
	int n;

	uk_test_fill_event(&in, 3, 0xdeadbeef);
	in.present &= (1ULL << UACCESS_KADDR_A_EVENT_STACK) - 1;
	in.present |= 1ULL << UACCESS_KADDR_A_EVENT_STACK;
	n = uk_event_build(&in, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	/* A missing required count proves only what precedes STACK was written. */
	assert_int_equal(uk_event_parse((const void *)buf, (size_t)n, &out,
					NULL, 0), -EBADMSG);
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off < (size_t)n;
	     off += NLA_ALIGN(a.nla_len))
		memcpy(&a, buf + off, sizeof(a));
	assert_int_equal(a.nla_type & NLA_TYPE_MASK,
			 UACCESS_KADDR_A_EVENT_STACK);
	in.present |= 1ULL << UACCESS_KADDR_A_EVENT_COUNT;
	n = uk_event_build(&in, FAMILY, 1, buf, sizeof(buf));
	assert_int_equal(uk_event_parse((const void *)buf, (size_t)n, &out,
					NULL, 0), 0);
	assert_int_equal(out.present, in.present);
	assert_int_equal(out.count, in.count);
	assert_int_equal(out.stack_hash, 0);
	assert_int_equal(out.nr_frames, 3);
	assert_memory_equal(out.frames, in.frames, sizeof(in.frames));
}

static void build_fails_when_buffer_too_small(void **state)
{
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	size_t len;
	int n;

	uk_test_fill_event(&ev, UK_STACK_MAX, 0xdeadbeef);
	n = uk_event_build(&ev, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	for (len = 0; len < (size_t)n; len++) {
		uint8_t *small = malloc(len ?: 1);

		assert_non_null(small);
		assert_int_equal(uk_event_build(&ev, FAMILY, 1, small, len),
				 -EMSGSIZE);
		free(small);
	}
	assert_int_equal(uk_event_build(&ev, FAMILY, 1, buf, (size_t)n), n);
}

static void build_rejects_null_arguments(void **state)
{
	struct uk_event ev;
	struct uk_site site;
	struct uk_status st;
	uint8_t buf[64];

	uk_test_fill_event(&ev, 0, 0xdeadbeef);
	fill_site(&site);
	fill_status(&st);
	assert_int_equal(uk_event_build(NULL, FAMILY, 1, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(uk_event_build(&ev, FAMILY, 1, NULL, 100), -EINVAL);
	assert_int_equal(uk_site_build(NULL, FAMILY, 1, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(uk_status_build(NULL, 1, FAMILY, 1, buf, 64),
			 -EINVAL);
	assert_int_equal(uk_site_build(&site, FAMILY, 1, NULL, 100), -EINVAL);
	assert_int_equal(uk_status_build(&st, 1, FAMILY, 1, NULL, 100),
			 -EINVAL);
}

/*
 * What the kernel sends where u64 needs alignment (no efficient unaligned
 * access): a PAD attribute before each u64 that would be misaligned, and
 * NLA_F_NESTED on the nests, with a PAD inside a frame too.
 */
static void event_parse_accepts_pad_attributes_and_nested_flag(void **state)
{
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	char why[256] = "";
	uint32_t u32;
	size_t len, nest;
	struct genlmsghdr g = { .cmd = UACCESS_KADDR_CMD_EVENT, .version = 1 };
	struct nlmsghdr h = { .nlmsg_type = FAMILY };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &g, sizeof(g));
	len = NLMSG_HDRLEN + GENL_HDRLEN;
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_PAD, NULL, 0);
	append_u64(buf, &len, UACCESS_KADDR_A_EVENT_SEQ, 1000);
	u32 = UACCESS_KADDR_KIND_GP;
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_KIND, &u32, 4);
	u32 = UACCESS_KADDR_HELPER_UNKNOWN;
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_HELPER, &u32, 4);
	u32 = 0;	/* the fault path sends 0 when it cannot tell */
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_DIRECTION, &u32, 4);
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_PAD, NULL, 0);
	append_u64(buf, &len, UACCESS_KADDR_A_EVENT_ADDRESS,
		   0x8000000000000000ULL);
	u32 = 3;
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_SITE_ID, &u32, 4);
	append_str(buf, &len, UACCESS_KADDR_A_EVENT_SITE_SYMBOL,
		   "gp_site+0x5/0x9");
	append_u64(buf, &len, UACCESS_KADDR_A_EVENT_SITE_IP, 0xffffffff81000005);
	nest = append_raw(buf, &len,
			  UACCESS_KADDR_A_EVENT_STACK | NLA_F_NESTED, 0,
			  NULL, 0);
	append_attr(buf, &len, UACCESS_KADDR_A_STACK_FRAME_PAD, NULL, 0);
	append_u64(buf, &len, UACCESS_KADDR_A_STACK_FRAME_IP, 0xffffffff81000aaa);
	append_str(buf, &len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL, "caller+0x1/0x2");
	end_nest(buf, len, nest);
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_PAD, NULL, 0);
	append_u64(buf, &len, UACCESS_KADDR_A_EVENT_COUNT, 17);

	if (uk_event_parse((const void *)buf, len, &ev, why, sizeof(why)))
		fail_msg("parse: %s", why);
	assert_int_equal(ev.seq, 1000);
	assert_int_equal(ev.kind, UACCESS_KADDR_KIND_GP);
	assert_int_equal(ev.direction, 0);
	assert_int_equal(ev.address, 0x8000000000000000ULL);
	assert_string_equal(ev.site_symbol, "gp_site+0x5/0x9");
	assert_int_equal(ev.nr_frames, 1);
	assert_int_equal(ev.frames[0].ip, 0xffffffff81000aaaULL);
	assert_string_equal(ev.frames[0].symbol, "caller+0x1/0x2");
	assert_int_equal(ev.count, 17);
	assert_false(ev.present & 1ULL << UACCESS_KADDR_A_EVENT_PAD);
	assert_true(ev.present & 1ULL << UACCESS_KADDR_A_EVENT_STACK);
}

/* Malformed headers */

static void parse_rejects_truncated_netlink_header(void **state)
{
	uint8_t buf[BUFLEN];
	char why[256];
	size_t len;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		base_msg(set, buf);
		for (len = 0; len < NLMSG_HDRLEN; len++) {
			uint8_t *p = malloc(len ?: 1);

			assert_non_null(p);
			memcpy(p, buf, len);
			why[0] = '\0';
			assert_int_equal(parse_set(set, p, len, why, sizeof(why)),
					 -EMSGSIZE);
			assert_non_null(strstr(why, "truncated"));
			free(p);
		}
	}
	assert_int_equal(uk_event_parse(NULL, 0, &(struct uk_event){ 0 },
					NULL, 0), -EMSGSIZE);
	assert_int_equal(uk_event_parse((const void *)buf, 100, NULL, NULL, 0),
			 -EINVAL);
}

static void parse_rejects_nlmsg_len_beyond_buffer(void **state)
{
	uint8_t buf[BUFLEN];
	char why[256], want[64];
	size_t len;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		len = base_msg(set, buf);
		set_nlmsg_len(buf, (uint32_t)len + 4);
		assert_int_equal(parse_set(set, buf, len, why, sizeof(why)),
				 -EMSGSIZE);
		snprintf(want, sizeof(want), "truncated: nlmsg_len %zu > %zu bytes",
			 len + 4, len);
		assert_string_equal(why, want);
		set_nlmsg_len(buf, UINT32_MAX);
		assert_int_equal(parse_set(set, buf, len, why, sizeof(why)),
				 -EMSGSIZE);
	}
}

static void parse_rejects_nlmsg_len_below_headers(void **state)
{
	static const uint32_t lens[] = { 0, 1, 15, 16, 19 };
	uint8_t buf[BUFLEN];
	char why[256];
	size_t len, i;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		len = base_msg(set, buf);
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			set_nlmsg_len(buf, lens[i]);
			assert_int_equal(parse_set(set, buf, len, why,
						   sizeof(why)), -EBADMSG);
			assert_non_null(strstr(why, "too small"));
		}
	}
}

/* Only the first message counts; what follows it in the buffer is not read. */
static void parse_ignores_bytes_after_the_message(void **state)
{
	uint8_t buf[BUFLEN];
	size_t len;

	len = base_msg(SET_EVENT, buf);
	memset(buf + len, 0xff, 64);
	assert_int_equal(uk_event_parse((const void *)buf, len + 64,
					&(struct uk_event){ 0 }, NULL, 0), 0);
}

/*
 * Every prefix of a message, in a buffer of exactly that size (ASan sees
 * any read beyond it): with the original nlmsg_len it is truncated; with
 * nlmsg_len cut too it is malformed or, on an attribute boundary with all
 * required attributes, valid.
 */
static void parse_every_prefix_stays_within_len(void **state)
{
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	size_t cut;
	int n, r;

	uk_test_fill_event(&ev, 4, 0xdeadbeef);
	n = uk_event_build(&ev, FAMILY, 1, buf, sizeof(buf));
	assert_true(n > 0);
	for (cut = 0; cut < (size_t)n; cut++) {
		uint8_t *p = malloc(cut ?: 1);

		assert_non_null(p);
		memcpy(p, buf, cut);
		assert_int_equal(uk_event_parse((const void *)p, cut, &ev,
						NULL, 0), -EMSGSIZE);
		if (cut >= NLMSG_HDRLEN) {
			set_nlmsg_len(p, (uint32_t)cut);
			r = uk_event_parse((const void *)p, cut, &ev, NULL, 0);
			assert_true(r == 0 || r == -EBADMSG);
		}
		free(p);
	}
}

static void parse_rejects_wrong_command(void **state)
{
	static const struct {
		enum set set;
		uint8_t cmd;
	} bad[] = {
		{ SET_EVENT, UACCESS_KADDR_CMD_DUMP_SITES },
		{ SET_EVENT, UACCESS_KADDR_CMD_GET_STATUS },
		{ SET_EVENT, 0 },
		{ SET_SITE, UACCESS_KADDR_CMD_EVENT },
		{ SET_SITE, UACCESS_KADDR_CMD_GET_STATUS },
		{ SET_SITE, 0 },
		{ SET_STATUS, UACCESS_KADDR_CMD_SET_CONFIG },
		{ SET_STATUS, UACCESS_KADDR_CMD_EVENT },
		{ SET_STATUS, 0 },
		{ SET_STATUS, 200 },
	};
	uint8_t buf[BUFLEN];
	char why[256];
	size_t len, i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		len = base_msg(bad[i].set, buf);
		buf[NLMSG_HDRLEN] = bad[i].cmd;
		why[0] = '\0';
		assert_int_equal(parse_set(bad[i].set, buf, len, why,
					   sizeof(why)), -EPROTO);
		assert_non_null(strstr(why, "genetlink command"));
	}
}

static void parse_rejects_netlink_control_messages(void **state)
{
	static const uint16_t types[] = {
		NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN, 15,
	};
	uint8_t buf[BUFLEN];
	char why[256];
	size_t len, i;

	len = base_msg(SET_EVENT, buf);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		memcpy(buf + offsetof(struct nlmsghdr, nlmsg_type), &types[i],
		       sizeof(types[i]));
		assert_int_equal(uk_event_parse((const void *)buf, len,
						&(struct uk_event){ 0 }, why,
						sizeof(why)), -EPROTO);
		assert_non_null(strstr(why, "control message"));
	}
}

/* Malformed attributes */

static void parse_rejects_wrong_length_for_every_field(void **state)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16 };
	const uint8_t payload[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const struct uk_field *f;
	uint8_t buf[BUFLEN];
	char why[256], want[256];
	size_t len, i, good;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		for (f = set_fields[set]; f->name; f++) {
			if (f->type == UK_FT_STR)
				continue;
			good = f->type == UK_FT_U64 || f->type == UK_FT_HEX64 ||
			       f->type == UK_FT_ARGS ? 8 : 4;
			for (i = 0; i < ARRAY_SIZE(lens); i++) {
				if (lens[i] == good)
					continue;
				len = base_msg(set, buf);
				append_attr(buf, &len, (uint16_t)f->attr,
					    payload, lens[i]);
				assert_int_equal(parse_set(set, buf, len, why,
							   sizeof(why)),
						 -EBADMSG);
				snprintf(want, sizeof(want),
					 "attribute %s: length %zu, expected %zu",
					 f->name, lens[i], good);
				assert_string_equal(why, want);
			}
		}
	}
}

static void parse_rejects_string_without_nul(void **state)
{
	const struct uk_field *f;
	uint8_t buf[BUFLEN];
	char why[256], want[256];
	size_t len, n;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		for (f = set_fields[set]; f->name; f++) {
			if (f->type != UK_FT_STR)
				continue;
			for (n = 1; n <= 8; n++) {
				len = base_msg(set, buf);
				append_attr(buf, &len, (uint16_t)f->attr,
					    "abcdefgh", n);
				assert_int_equal(parse_set(set, buf, len, why,
							   sizeof(why)),
						 -EBADMSG);
				snprintf(want, sizeof(want),
					 "attribute %s: not NUL-terminated",
					 f->name);
				assert_string_equal(why, want);
			}
		}
	}
}

static void parse_rejects_zero_length_string(void **state)
{
	const struct uk_field *f;
	uint8_t buf[BUFLEN];
	char why[256], want[256];
	size_t len;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		for (f = set_fields[set]; f->name; f++) {
			if (f->type != UK_FT_STR)
				continue;
			len = base_msg(set, buf);
			append_attr(buf, &len, (uint16_t)f->attr, NULL, 0);
			assert_int_equal(parse_set(set, buf, len, why,
						   sizeof(why)), -EBADMSG);
			snprintf(want, sizeof(want), "attribute %s: empty",
				 f->name);
			assert_string_equal(why, want);
		}
	}
}

/* prctl(PR_SET_NAME, "") gives a task an empty comm: not malformed. */
static void parse_accepts_empty_c_string(void **state)
{
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	size_t len;

	len = base_msg(SET_EVENT, buf);
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_COMM, "", 1);
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, NULL, 0),
			 0);
	assert_string_equal(ev.comm, "");
	assert_true(ev.present & 1ULL << UACCESS_KADDR_A_EVENT_COMM);
}

static void parse_cuts_long_strings_and_stops_at_first_nul(void **state)
{
	char longsym[600], want[UK_SYMBOL_LEN];
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	size_t len;

	memset(longsym, 'x', sizeof(longsym) - 1);
	longsym[sizeof(longsym) - 1] = '\0';
	memset(want, 'x', sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	len = base_msg(SET_EVENT, buf);
	append_str(buf, &len, UACCESS_KADDR_A_EVENT_SITE_SYMBOL, longsym);
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_COMM, "ab\0cdefg", 8);
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, NULL, 0),
			 0);
	assert_string_equal(ev.site_symbol, want);
	assert_string_equal(ev.comm, "ab");
	assert_int_equal(ev.comm[3], 0);
}

static void parse_rejects_nla_len_below_header(void **state)
{
	uint8_t buf[BUFLEN];
	char why[256], want[128];
	size_t len, off;
	uint16_t nla_len;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		for (nla_len = 0; nla_len < NLA_HDRLEN; nla_len++) {
			len = base_msg(set, buf);
			off = append_raw(buf, &len, 0x7f, nla_len, NULL, 0);
			assert_int_equal(parse_set(set, buf, len, why,
						   sizeof(why)), -EBADMSG);
			snprintf(want, sizeof(want),
				 "attribute at offset %zu: nla_len %u < 4",
				 off, nla_len);
			assert_string_equal(why, want);
		}
	}
}

static void parse_rejects_attribute_crossing_message_end(void **state)
{
	uint8_t buf[BUFLEN];
	char why[256], want[128];
	size_t len, off;
	uint64_t v = 1;
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		len = base_msg(set, buf);
		off = append_attr(buf, &len, 0x7f, &v, sizeof(v));
		/* Claim 4 bytes more than the message has. */
		buf[off] = (uint8_t)(NLA_HDRLEN + sizeof(v) + 4);
		assert_int_equal(parse_set(set, buf, len, why, sizeof(why)),
				 -EBADMSG);
		snprintf(want, sizeof(want),
			 "attribute at offset %zu: nla_len 16 crosses the end (12 bytes left)",
			 off);
		assert_string_equal(why, want);
		/* A known attribute whose payload is cut by nlmsg_len. */
		len = base_msg(set, buf);
		append_u64(buf, &len, 0x7f, v);
		set_nlmsg_len(buf, (uint32_t)len - 4);
		assert_int_equal(parse_set(set, buf, len, why, sizeof(why)),
				 -EBADMSG);
		assert_non_null(strstr(why, "crosses the end"));
	}
}

static void parse_rejects_trailing_bytes(void **state)
{
	uint8_t buf[BUFLEN];
	char why[256];
	size_t len, extra;

	for (extra = 1; extra < NLA_HDRLEN; extra++) {
		len = base_msg(SET_SITE, buf);
		memset(buf + len, 0, extra);
		set_nlmsg_len(buf, (uint32_t)(len + extra));
		assert_int_equal(uk_site_parse((const void *)buf, len + extra,
					       &(struct uk_site){ 0 }, why,
					       sizeof(why)), -EBADMSG);
		assert_non_null(strstr(why, "trailing bytes"));
	}
}

/* A string as the last attribute, its padding cut by nlmsg_len. */
static void parse_accepts_last_attribute_without_padding(void **state)
{
	struct uk_site site;
	uint8_t buf[BUFLEN];
	size_t len;

	len = base_msg(SET_SITE, buf);
	append_str(buf, &len, UACCESS_KADDR_A_SITE_LAST_COMM, "abcde");
	set_nlmsg_len(buf, (uint32_t)len - 2);
	assert_int_equal(uk_site_parse((const void *)buf, len - 2, &site,
				       NULL, 0), 0);
	assert_string_equal(site.last_comm, "abcde");
}

/* The kernel sends six; a seventh is a malformed message, not dropped. */
static void parse_takes_six_syscall_args_in_order_and_no_more(void **state)
{
	const uint16_t attr = UACCESS_KADDR_A_EVENT_SYSCALL_ARGS;
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	char why[256];
	uint64_t v;
	size_t len;

	len = base_msg(SET_EVENT, buf);
	for (v = 0; v < 3; v++)
		append_attr(buf, &len, attr, &(uint64_t){ 0x100 + v }, 8);
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, why,
					sizeof(why)), 0);
	assert_int_equal(ev.syscall_args.nr, 3);
	assert_true(ev.syscall_args.v[0] == 0x100 && ev.syscall_args.v[2] == 0x102);
	assert_true(ev.present & 1ULL << attr);

	for (; v < 7; v++)
		append_attr(buf, &len, attr, &(uint64_t){ 0x100 + v }, 8);
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, why,
					sizeof(why)), -EBADMSG);
	assert_string_equal(why, "attribute syscall_args: more than 6");
}

static void parse_ignores_unknown_attributes(void **state)
{
	static const uint16_t types[] = {
		0, 1, 45, 50, 63, 64, 100, 0x3fff | NLA_F_NESTED,
		0x7fff | NLA_F_NET_BYTEORDER,
	};
	uint8_t big[1000] = { 0 };
	enum set set;

	for (set = 0; set < NR_SETS; set++) {
		uint8_t buf[BUFLEN], ref[BUFLEN];
		struct uk_event a, b;
		size_t len, i;
		int n;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		n = build_set(set, all_bits(set_fields[set]), ref, sizeof(ref));
		assert_true(n > 0);
		memcpy(buf, ref, (size_t)n);
		len = (size_t)n;
		for (i = 0; i < ARRAY_SIZE(types); i++) {
			append_attr(buf, &len, types[i], big, i * 7);
			append_attr(buf, &len, types[i], big, sizeof(big));
		}
		/* The largest struct is the event: room for all three. */
		switch (set) {
		case SET_EVENT:
			assert_int_equal(uk_event_parse((const void *)ref,
							(size_t)n, &a, NULL, 0), 0);
			assert_int_equal(uk_event_parse((const void *)buf, len,
							&b, NULL, 0), 0);
			break;
		case SET_SITE:
			assert_int_equal(uk_site_parse((const void *)ref,
						       (size_t)n, (void *)&a,
						       NULL, 0), 0);
			assert_int_equal(uk_site_parse((const void *)buf, len,
						       (void *)&b, NULL, 0), 0);
			break;
		default:
			assert_int_equal(uk_status_parse((const void *)ref,
							 (size_t)n, (void *)&a,
							 NULL, 0), 0);
			assert_int_equal(uk_status_parse((const void *)buf, len,
							 (void *)&b, NULL, 0),
					 0);
		}
		assert_memory_equal(&a, &b, sizeof(a));
		assert_int_equal(a.present, all_bits(set_fields[set]));
	}
}

static void parse_missing_each_required_attribute(void **state)
{
	const struct uk_field *f;
	uint8_t buf[BUFLEN];
	char why[256], want[128];
	uint64_t all;
	enum set set;
	int n, r;

	for (set = 0; set < NR_SETS; set++) {
		all = all_bits(set_fields[set]);
		for (f = set_fields[set]; f->name; f++) {
			n = build_set(set, all & ~(1ULL << f->attr), buf,
				      sizeof(buf));
			assert_true(n > 0);
			why[0] = '\0';
			r = parse_set(set, buf, (size_t)n, why, sizeof(why));
			if (!f->required) {
				if (r)
					fail_msg("%s without optional %s: %d %s",
						 set_names[set], f->name, r, why);
				continue;
			}
			assert_int_equal(r, -EBADMSG);
			snprintf(want, sizeof(want),
				 "missing required attribute %s", f->name);
			assert_string_equal(why, want);
		}
	}
}

static void parse_duplicate_attribute_last_wins(void **state)
{
	char want_comm[UK_COMM_LEN] = "ab";
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	uint32_t id = 1234;
	size_t len;

	len = base_msg(SET_EVENT, buf);
	append_str(buf, &len, UACCESS_KADDR_A_EVENT_COMM, "longer-name");
	append_attr(buf, &len, UACCESS_KADDR_A_EVENT_SITE_ID, &id, 4);
	append_str(buf, &len, UACCESS_KADDR_A_EVENT_COMM, "ab");
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, NULL, 0),
			 0);
	assert_int_equal(ev.site_id, 1234);
	/* No stale bytes of the first value after the NUL. */
	assert_memory_equal(ev.comm, want_comm, sizeof(want_comm));
}

/* Appends a well-formed STACK nest. */
static void append_frame(uint8_t *buf, size_t *len, uint64_t ip,
			 const char *sym)
{
	size_t nest = append_raw(buf, len,
				 UACCESS_KADDR_A_EVENT_STACK | NLA_F_NESTED,
				 0, NULL, 0);

	append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, ip);
	append_str(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL, sym);
	end_nest(buf, *len, nest);
}

static void parse_keeps_first_frames_of_oversized_stack(void **state)
{
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	char sym[32];
	size_t len;
	unsigned int i;

	len = base_msg(SET_EVENT, buf);
	for (i = 0; i < UK_STACK_MAX + 8; i++) {
		snprintf(sym, sizeof(sym), "f%u+0x0/0x1", i);
		append_frame(buf, &len, 0xffffffff80000000ULL + i, sym);
	}
	assert_int_equal(uk_event_parse((const void *)buf, len, &ev, NULL, 0),
			 0);
	assert_int_equal(ev.nr_frames, UK_STACK_MAX);
	for (i = 0; i < UK_STACK_MAX; i++) {
		snprintf(sym, sizeof(sym), "f%u+0x0/0x1", i);
		assert_int_equal(ev.frames[i].ip, 0xffffffff80000000ULL + i);
		assert_string_equal(ev.frames[i].symbol, sym);
	}
}

enum bad_frame {
	BF_IP_SHORT, BF_IP_LONG, BF_SYMBOL_NO_NUL, BF_SYMBOL_EMPTY,
	BF_NO_IP, BF_EMPTY_NEST, BF_INNER_NLA_LEN, BF_INNER_CROSSES,
	BF_TRAILING, NR_BAD_FRAMES,
};

static void append_bad_frame(uint8_t *buf, size_t *len, enum bad_frame bf)
{
	size_t nest = append_raw(buf, len, UACCESS_KADDR_A_EVENT_STACK, 0,
				 NULL, 0);
	uint32_t u32 = 1;
	size_t off;

	switch (bf) {
	case BF_IP_SHORT:
		append_attr(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, &u32, 4);
		break;
	case BF_IP_LONG:
		append_attr(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP,
			    "0123456789abcdef", 12);
		break;
	case BF_SYMBOL_NO_NUL:
		append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, 1);
		append_attr(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL,
			    "abcd", 4);
		break;
	case BF_SYMBOL_EMPTY:
		append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, 1);
		append_attr(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL,
			    NULL, 0);
		break;
	case BF_NO_IP:
		append_str(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL, "x");
		break;
	case BF_EMPTY_NEST:
		break;
	case BF_INNER_NLA_LEN:
		append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, 1);
		append_raw(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL, 2,
			   NULL, 0);
		break;
	case BF_INNER_CROSSES:
		append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, 1);
		off = append_attr(buf, len, UACCESS_KADDR_A_STACK_FRAME_SYMBOL,
				  "abc", 4);
		/* The symbol claims 8 bytes beyond the end of the nest. */
		buf[off] += 8;
		break;
	case BF_TRAILING:
		append_u64(buf, len, UACCESS_KADDR_A_STACK_FRAME_IP, 1);
		end_nest(buf, *len + 2, nest);
		memset(buf + *len, 0, 4);
		*len += 4;
		set_nlmsg_len(buf, (uint32_t)*len);
		return;
	case NR_BAD_FRAMES:
		break;
	}
	end_nest(buf, *len, nest);
}

static void parse_rejects_bad_nested_frame(void **state)
{
	static const char *const want[NR_BAD_FRAMES] = {
		[BF_IP_SHORT] = "attribute ip: length 4, expected 8",
		[BF_IP_LONG] = "attribute ip: length 12, expected 8",
		[BF_SYMBOL_NO_NUL] = "attribute symbol: not NUL-terminated",
		[BF_SYMBOL_EMPTY] = "attribute symbol: empty",
		[BF_NO_IP] = "missing attribute ip",
		[BF_EMPTY_NEST] = "missing attribute ip",
		[BF_INNER_NLA_LEN] = "nla_len 2 < 4",
		[BF_INNER_CROSSES] = "crosses the end",
		[BF_TRAILING] = "2 trailing bytes",
	};
	static const unsigned int positions[] = { 0, 5, UK_STACK_MAX + 2 };
	struct uk_event ev;
	uint8_t buf[BUFLEN];
	char why[256], prefix[32];
	enum bad_frame bf;
	size_t len, p;
	unsigned int i;

	for (bf = 0; bf < NR_BAD_FRAMES; bf++) {
		for (p = 0; p < ARRAY_SIZE(positions); p++) {
			len = base_msg(SET_EVENT, buf);
			for (i = 0; i < positions[p]; i++)
				append_frame(buf, &len, i, "ok+0x0/0x1");
			append_bad_frame(buf, &len, bf);
			why[0] = '\0';
			assert_int_equal(uk_event_parse((const void *)buf, len,
							&ev, why, sizeof(why)),
					 -EBADMSG);
			snprintf(prefix, sizeof(prefix), "stack frame %u: ",
				 positions[p]);
			if (strncmp(why, prefix, strlen(prefix)) ||
			    !strstr(why, want[bf]))
				fail_msg("bad frame %d at %u: '%s', expected '%s%s'",
					 bf, positions[p], why, prefix,
					 want[bf]);
		}
	}
}

static void parse_why_may_be_null_or_short(void **state)
{
	uint8_t buf[BUFLEN];
	char why[8];
	size_t len;

	len = base_msg(SET_EVENT, buf);
	set_nlmsg_len(buf, (uint32_t)len + 100);
	assert_int_equal(uk_event_parse((const void *)buf, len,
					&(struct uk_event){ 0 }, NULL, 100),
			 -EMSGSIZE);
	memset(why, 'z', sizeof(why));
	assert_int_equal(uk_event_parse((const void *)buf, len,
					&(struct uk_event){ 0 }, why,
					sizeof(why)), -EMSGSIZE);
	assert_string_equal(why, "truncat");
}

static void parse_reads_misaligned_buffer(void **state)
{
	struct uk_event in, out;
	uint8_t *buf = malloc(BUFLEN + 3);
	size_t shift;
	int n;

	assert_non_null(buf);
	uk_test_fill_event(&in, 5, 0xdeadbeef);
	for (shift = 1; shift < 4; shift++) {
		n = uk_event_build(&in, FAMILY, 1, buf + shift, BUFLEN);
		assert_true(n > 0);
		assert_int_equal(uk_event_parse((const void *)(buf + shift),
						(size_t)n, &out, NULL, 0), 0);
		assert_memory_equal(&in, &out, sizeof(in));
	}
	free(buf);
}

/* Symbol names */

static void symbol_function_extracts_function_name(void **state)
{
	static const struct {
		const char *symbol;
		const char *want;	/* NULL: no function */
	} cases[] = {
		{ "func+0x1c/0x80 [module]", "func" },
		{ "func+0x1c/0x80 [module 0123abcd]", "func" },
		{ "func+0x1c/0x80", "func" },
		{ "func [module]", "func" },
		{ "func", "func" },
		{ "foo.cold+0x0/0x10", "foo.cold" },
		{ "__x64_sys_ioctl+0x8d/0xc0", "__x64_sys_ioctl" },
		{ "0xffffffff81000000", NULL },
		{ "0xffffffffc0001234 [module]", NULL },
		{ "0x0", NULL },
		{ "", NULL },
		{ "+0x1c/0x80", NULL },
		{ " [module]", NULL },
		{ "0xgarbage+0x1/0x2", "0xgarbage" },
	};
	char out[UK_SYMBOL_LEN];
	const char *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(out, 'z', sizeof(out));
		r = uk_symbol_function(cases[i].symbol, out, sizeof(out));
		if (!cases[i].want) {
			if (r)
				fail_msg("'%s' gave '%s', expected none",
					 cases[i].symbol, r);
			assert_string_equal(out, "");
			continue;
		}
		if (r != out)
			fail_msg("'%s' gave no function, expected '%s'",
				 cases[i].symbol, cases[i].want);
		assert_string_equal(out, cases[i].want);
	}
}

static void symbol_function_checks_output_size(void **state)
{
	char out[8];

	memset(out, 'z', sizeof(out));
	assert_null(uk_symbol_function(NULL, out, sizeof(out)));
	assert_string_equal(out, "");
	assert_null(uk_symbol_function("func", NULL, 10));
	/* outlen 0: nothing written. */
	out[0] = 'z';
	assert_null(uk_symbol_function("func", out, 0));
	assert_int_equal(out[0], 'z');
	/* "abcdefg" needs 8 bytes with the NUL; 7 is too few. */
	assert_ptr_equal(uk_symbol_function("abcdefg+0x1/0x2", out, 8), out);
	assert_string_equal(out, "abcdefg");
	assert_null(uk_symbol_function("abcdefg+0x1/0x2", out, 7));
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_cover_every_attribute_once),
		cmocka_unit_test(tables_are_in_attribute_order),
		cmocka_unit_test(tables_journal_names_are_uaccess_upper_json_names),
		cmocka_unit_test(tables_types_and_offsets_match_structs),
		cmocka_unit_test(tables_required_attributes),
		cmocka_unit_test(enum_every_value_has_its_name_both_ways),
		cmocka_unit_test(enum_unknown_values_have_no_name),
		cmocka_unit_test(enum_unknown_names_give_zero),
		cmocka_unit_test(enum_accepts_spec_and_kernel_log_names),
		cmocka_unit_test(event_round_trip_all_attributes_and_full_stack),
		cmocka_unit_test(event_round_trip_required_only),
		cmocka_unit_test(event_round_trip_irq_context_without_task_fields),
		cmocka_unit_test(site_round_trip),
		cmocka_unit_test(status_round_trip_get_status_and_reset),
		cmocka_unit_test(status_access_parsed_when_sent_unknown_when_not),
		cmocka_unit_test(build_uses_kernel_headers_and_attribute_order),
		cmocka_unit_test(build_caps_stack_at_maximum),
		cmocka_unit_test(build_writes_stack_last_when_nothing_follows),
		cmocka_unit_test(build_fails_when_buffer_too_small),
		cmocka_unit_test(build_rejects_null_arguments),
		cmocka_unit_test(event_parse_accepts_pad_attributes_and_nested_flag),
		cmocka_unit_test(parse_rejects_truncated_netlink_header),
		cmocka_unit_test(parse_rejects_nlmsg_len_beyond_buffer),
		cmocka_unit_test(parse_rejects_nlmsg_len_below_headers),
		cmocka_unit_test(parse_ignores_bytes_after_the_message),
		cmocka_unit_test(parse_every_prefix_stays_within_len),
		cmocka_unit_test(parse_rejects_wrong_command),
		cmocka_unit_test(parse_rejects_netlink_control_messages),
		cmocka_unit_test(parse_rejects_wrong_length_for_every_field),
		cmocka_unit_test(parse_rejects_string_without_nul),
		cmocka_unit_test(parse_rejects_zero_length_string),
		cmocka_unit_test(parse_accepts_empty_c_string),
		cmocka_unit_test(parse_cuts_long_strings_and_stops_at_first_nul),
		cmocka_unit_test(parse_rejects_nla_len_below_header),
		cmocka_unit_test(parse_rejects_attribute_crossing_message_end),
		cmocka_unit_test(parse_rejects_trailing_bytes),
		cmocka_unit_test(parse_accepts_last_attribute_without_padding),
		cmocka_unit_test(parse_takes_six_syscall_args_in_order_and_no_more),
		cmocka_unit_test(parse_ignores_unknown_attributes),
		cmocka_unit_test(parse_missing_each_required_attribute),
		cmocka_unit_test(parse_duplicate_attribute_last_wins),
		cmocka_unit_test(parse_keeps_first_frames_of_oversized_stack),
		cmocka_unit_test(parse_rejects_bad_nested_frame),
		cmocka_unit_test(parse_why_may_be_null_or_short),
		cmocka_unit_test(parse_reads_misaligned_buffer),
		cmocka_unit_test(symbol_function_extracts_function_name),
		cmocka_unit_test(symbol_function_checks_output_size),
	};

	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
