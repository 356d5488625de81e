// SPDX-License-Identifier: GPL-2.0
/*
 * The fields of a decoded message (daemon/common/fields.c): every field
 * type, enum names and numbers, truncation to the caller's buffer,
 * unterminated strings, presence bits and the lookup by attribute.
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
#include <linux/audit.h>

#include "common/event.h"
#include "common/fields.h"
#include "common/util.h"

#define CANARY		'#'

static const struct uk_field *field(const struct uk_field *fields, int attr)
{
	const struct uk_field *f = uk_field_by_attr(fields, attr);

	if (!f)
		fail_msg("no field for attribute %d", attr);
	return f;
}

/* Formats @f of @obj and checks text and returned length. */
static void assert_format(const struct uk_field *f, const void *obj,
			  const char *want)
{
	char buf[512];
	size_t n;

	memset(buf, CANARY, sizeof(buf));
	n = uk_field_format(f, obj, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("field %s: expected \"%s\", got \"%s\"", f->name,
			 want, buf);
	if (n != strlen(want))
		fail_msg("field %s: expected length %zu, got %zu", f->name,
			 strlen(want), n);
}

static void fill_event(struct uk_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->seq = 42;
	ev->kind = UACCESS_KADDR_KIND_GP;
	ev->helper = UACCESS_KADDR_HELPER_COPY_FROM_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_BOTH;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_NONCANONICAL;
	ev->address = 0xffff888012345678ULL;
	ev->size = 64;
	ev->site_id = 4000000000U;
	strcpy(ev->site_symbol, "vuln_ioctl+0x1c/0x80 [uk_test]");
	ev->site_ip = 0xffffffffc0001234ULL;
	ev->stack_hash = 0xbeef;
	ev->pid = 1234;
	strcpy(ev->comm, "poc");
	ev->syscall_nr = -1;
	ev->context = UACCESS_KADDR_CONTEXT_NMI;
	ev->present = ~0ULL;
}

static void u32_is_decimal(void **state)
{
	struct uk_event ev;

	fill_event(&ev);
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_PID), &ev,
		      "1234");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_SITE_ID),
		      &ev, "4000000000");
	ev.pid = 0;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_PID), &ev,
		      "0");
	ev.pid = UINT32_MAX;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_PID), &ev,
		      "4294967295");
}

static void s32_is_signed_decimal(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	fill_event(&ev);
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_SYSCALL_NR);
	assert_int_equal(f->type, UK_FT_S32);
	assert_format(f, &ev, "-1");
	ev.syscall_nr = INT32_MIN;
	assert_format(f, &ev, "-2147483648");
	ev.syscall_nr = INT32_MAX;
	assert_format(f, &ev, "2147483647");
	ev.syscall_nr = 0;
	assert_format(f, &ev, "0");
}

static void u64_is_decimal_to_its_maximum(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	fill_event(&ev);
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_SEQ);
	assert_int_equal(f->type, UK_FT_U64);
	assert_format(f, &ev, "42");
	ev.seq = UINT64_MAX;
	assert_format(f, &ev, "18446744073709551615");
	ev.seq = 0;
	assert_format(f, &ev, "0");
}

static void hex64_is_0x_and_16_digits(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	fill_event(&ev);
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_ADDRESS);
	assert_int_equal(f->type, UK_FT_HEX64);
	assert_format(f, &ev, "0xffff888012345678");
	ev.address = 0x10;
	assert_format(f, &ev, "0x0000000000000010");
	ev.address = 0;
	assert_format(f, &ev, "0x0000000000000000");
	ev.address = UINT64_MAX;
	assert_format(f, &ev, "0xffffffffffffffff");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_SITE_IP),
		      &ev, "0xffffffffc0001234");
}

static void hex32_is_0x_and_8_digits(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	fill_event(&ev);
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_STACK_HASH);
	assert_int_equal(f->type, UK_FT_HEX32);
	assert_format(f, &ev, "0x0000beef");
	ev.stack_hash = 0;
	assert_format(f, &ev, "0x00000000");
	ev.stack_hash = UINT32_MAX;
	assert_format(f, &ev, "0xffffffff");
}

static void str_is_written_as_it_is(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	fill_event(&ev);
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_SITE_SYMBOL);
	assert_int_equal(f->type, UK_FT_STR);
	assert_format(f, &ev, "vuln_ioctl+0x1c/0x80 [uk_test]");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_COMM), &ev,
		      "poc");
	ev.comm[0] = '\0';
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_COMM), &ev,
		      "");
	/* Bytes after the NUL are not shown. */
	strcpy(ev.comm, "ab");
	memcpy(ev.comm + 3, "zzz", 3);
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_COMM), &ev,
		      "ab");
}

static void str_without_nul_stops_at_the_end_of_its_array(void **state)
{
	char want[UK_SYMBOL_LEN + 1];
	struct uk_event ev;

	fill_event(&ev);
	/* site_ip follows site_symbol: its bytes must not be shown. */
	ev.site_ip = 0x4141414141414141ULL;
	memset(ev.site_symbol, 'S', sizeof(ev.site_symbol));
	memset(want, 'S', UK_SYMBOL_LEN);
	want[UK_SYMBOL_LEN] = '\0';
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_SITE_SYMBOL),
		      &ev, want);

	memset(ev.comm, 'c', sizeof(ev.comm));
	ev.uid = 0x41414141;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_COMM), &ev,
		      "cccccccccccccccc");
}

static void enum_is_its_name(void **state)
{
	struct uk_status st;
	struct uk_event ev;

	fill_event(&ev);
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_KIND), &ev,
		      "gp");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_HELPER),
		      &ev, "__copy_from_user");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_DIRECTION),
		      &ev, "both");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_ADDR_CLASS),
		      &ev, "noncanonical");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_CONTEXT),
		      &ev, "nmi");
	memset(&st, 0, sizeof(st));
	st.mode = UACCESS_KADDR_MODE_COUNT;
	assert_format(field(uk_status_fields, UACCESS_KADDR_A_STATUS_MODE),
		      &st, "count");
}

/* AUDIT_ARCH_* values, not an index: the two ABIs of x86-64 by name. */
static void syscall_arch_is_the_abi_name(void **state)
{
	const struct uk_field *f = field(uk_event_fields,
					 UACCESS_KADDR_A_EVENT_SYSCALL_ARCH);
	struct uk_event ev;

	fill_event(&ev);
	ev.syscall_arch = AUDIT_ARCH_X86_64;
	assert_format(f, &ev, "x86_64");
	ev.syscall_arch = AUDIT_ARCH_I386;
	assert_format(f, &ev, "i386");
	ev.syscall_arch = AUDIT_ARCH_AARCH64;
	assert_format(f, &ev, "3221225655");
	assert_int_equal(uk_enum_value(UK_ENUM_ARCH, "x86_64"),
			 AUDIT_ARCH_X86_64);
	assert_int_equal(uk_enum_value(UK_ENUM_ARCH, "i386"), AUDIT_ARCH_I386);
	assert_int_equal(uk_enum_value(UK_ENUM_ARCH, "x86-64"), 0);
	assert_int_equal(uk_enum_value(UK_ENUM_ARCH, NULL), 0);
}

/* Hex without padding, in order, as many as were sent. */
static void syscall_args_are_hex_in_order(void **state)
{
	const struct uk_field *f = field(uk_event_fields,
					 UACCESS_KADDR_A_EVENT_SYSCALL_ARGS);
	struct uk_event ev;

	fill_event(&ev);
	ev.syscall_args = (struct uk_syscall_args){
		.nr = UK_SYSCALL_ARGS,
		.v = { 1, 0x4d3, 0xffff888012345678ULL, 4, 0, UINT64_MAX },
	};
	assert_format(f, &ev,
		      "0x1 0x4d3 0xffff888012345678 0x4 0x0 0xffffffffffffffff");
	ev.syscall_args.nr = 2;
	assert_format(f, &ev, "0x1 0x4d3");
	/* a count beyond the array (a corrupt struct) reads no further */
	ev.syscall_args.nr = UINT32_MAX;
	assert_format(f, &ev,
		      "0x1 0x4d3 0xffff888012345678 0x4 0x0 0xffffffffffffffff");
	ev.syscall_args.nr = 0;
	assert_format(f, &ev, "");
}

static void enum_unknown_value_is_its_number(void **state)
{
	struct uk_event ev;

	fill_event(&ev);
	ev.kind = 0;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_KIND), &ev,
		      "0");
	ev.kind = UACCESS_KADDR_KIND_PRECHECK + 1;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_KIND), &ev,
		      "4");
	ev.helper = UACCESS_KADDR_HELPER_UNKNOWN + 1;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_HELPER),
		      &ev, "15");
	ev.context = UINT32_MAX;
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_CONTEXT),
		      &ev, "4294967295");
}

/* Every enum field of every table, every value up to past the last name. */
static void enum_fields_follow_the_name_tables(void **state)
{
	static const struct uk_field *const tables[] = {
		uk_event_fields, uk_site_fields, uk_status_fields,
	};
	unsigned char obj[sizeof(struct uk_event)];
	const struct uk_field *f;
	char want[32], buf[32];
	unsigned int enums = 0;
	uint32_t v;
	size_t t;

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		for (f = tables[t]; f->name; f++) {
			if (f->type != UK_FT_ENUM)
				continue;
			enums++;
			assert_int_not_equal(f->names, UK_ENUM_NONE);
			for (v = 0; v < 40; v++) {
				const char *name = uk_enum_name(f->names, v);

				memset(obj, 0, sizeof(obj));
				memcpy(obj + f->offset, &v, sizeof(v));
				if (name)
					snprintf(want, sizeof(want), "%s", name);
				else
					snprintf(want, sizeof(want), "%u", v);
				uk_field_format(f, obj, buf, sizeof(buf));
				if (strcmp(buf, want))
					fail_msg("%s = %u: expected \"%s\", got \"%s\"",
						 f->name, v, want, buf);
			}
		}
	}
	/*
	 * event: kind helper direction addr_class context syscall_arch;
	 * site: 3; status: mode access
	 */
	assert_int_equal(enums, 6 + 3 + 2);
}

static void enum_without_a_name_table_is_a_number(void **state)
{
	const struct uk_field f = {
		.attr = 1, .name = "x", .journal = "UACCESS_X",
		.type = UK_FT_ENUM, .names = UK_ENUM_NONE,
		.offset = sizeof(uint64_t),
	};
	struct {
		uint64_t present;
		uint32_t v;
	} obj = { 1ULL << 1, UACCESS_KADDR_KIND_FAULT };

	assert_format(&f, &obj, "1");
}

/* Each type cut to every buffer size: a NUL-terminated prefix. */
static void output_is_cut_to_the_buffer_and_nul_terminated(void **state)
{
	static const int attrs[] = {
		UACCESS_KADDR_A_EVENT_SEQ, UACCESS_KADDR_A_EVENT_ADDRESS,
		UACCESS_KADDR_A_EVENT_STACK_HASH, UACCESS_KADDR_A_EVENT_SITE_ID,
		UACCESS_KADDR_A_EVENT_SYSCALL_NR,
		UACCESS_KADDR_A_EVENT_SITE_SYMBOL,
		UACCESS_KADDR_A_EVENT_HELPER,
	};
	char full[256], buf[256];
	struct uk_event ev;
	size_t i, len, n, want;

	fill_event(&ev);
	ev.seq = UINT64_MAX;
	ev.syscall_nr = INT32_MIN;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct uk_field *f = field(uk_event_fields, attrs[i]);
		size_t flen = uk_field_format(f, &ev, full, sizeof(full));

		assert_int_equal(flen, strlen(full));
		for (len = 1; len <= flen + 2; len++) {
			memset(buf, CANARY, sizeof(buf));
			n = uk_field_format(f, &ev, buf, len);
			want = flen < len ? flen : len - 1;
			if (n != want || strlen(buf) != want ||
			    strncmp(buf, full, want) != 0)
				fail_msg("%s in %zu bytes: expected %zu bytes \"%.*s\", got %zu \"%s\"",
					 f->name, len, want, (int)want, full,
					 n, buf);
			if (buf[len] != CANARY)
				fail_msg("%s in %zu bytes: wrote past the buffer",
					 f->name, len);
		}
	}
}

static void zero_length_buffer_is_not_touched(void **state)
{
	struct uk_event ev;
	char buf[4] = { CANARY, CANARY, CANARY, CANARY };

	fill_event(&ev);
	assert_int_equal(uk_field_format(field(uk_event_fields,
					       UACCESS_KADDR_A_EVENT_SEQ),
					 &ev, buf, 0), 0);
	assert_int_equal(buf[0], CANARY);
}

/* The tables are const and checked, but a bad entry must not leave junk. */
static void unknown_field_type_gives_an_empty_string(void **state)
{
	const struct uk_field f = {
		.attr = 1, .name = "bogus", .journal = "UACCESS_BOGUS",
		.type = (enum uk_ftype)99, .offset = sizeof(uint64_t),
		.len = sizeof(uint32_t),
	};
	struct {
		uint64_t present;
		uint32_t v;
	} obj = { 1ULL << 1, 7 };
	char buf[16];
	size_t n;

	memset(buf, CANARY, sizeof(buf));
	n = uk_field_format(&f, &obj, buf, sizeof(buf));
	assert_int_equal(n, 0);
	if (buf[0] != '\0')
		fail_msg("type 99: expected an empty string, buffer starts with 0x%02x",
			 (unsigned char)buf[0]);
}

/* A replay file or a fuzzer hands over objects at any alignment. */
static void unaligned_object_is_read_without_undefined_behaviour(void **state)
{
	_Alignas(8) unsigned char raw[sizeof(struct uk_event) + 8];
	const struct uk_field *f;
	struct uk_event ev;
	void *obj = raw + 1;

	fill_event(&ev);
	memcpy(obj, &ev, sizeof(ev));
	assert_true(uk_field_present(field(uk_event_fields,
					   UACCESS_KADDR_A_EVENT_SEQ), obj));
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_SEQ), obj,
		      "42");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_ADDRESS),
		      obj, "0xffff888012345678");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_SYSCALL_NR),
		      obj, "-1");
	assert_format(field(uk_event_fields, UACCESS_KADDR_A_EVENT_STACK_HASH),
		      obj, "0x0000beef");
	f = field(uk_event_fields, UACCESS_KADDR_A_EVENT_HELPER);
	assert_format(f, obj, "__copy_from_user");
}

static void present_follows_the_bit_of_the_attribute(void **state)
{
	const struct uk_field *f;
	struct uk_event ev;

	memset(&ev, 0, sizeof(ev));
	for (f = uk_event_fields; f->name; f++)
		assert_false(uk_field_present(f, &ev));
	ev.present = 1ULL << UACCESS_KADDR_A_EVENT_COMM;
	for (f = uk_event_fields; f->name; f++)
		assert_int_equal(uk_field_present(f, &ev),
				 f->attr == UACCESS_KADDR_A_EVENT_COMM);
	ev.present = ~(1ULL << UACCESS_KADDR_A_EVENT_COMM);
	for (f = uk_event_fields; f->name; f++)
		assert_int_equal(uk_field_present(f, &ev),
				 f->attr != UACCESS_KADDR_A_EVENT_COMM);
}

static void present_is_false_for_attributes_without_a_bit(void **state)
{
	static const int attrs[] = { -1, -64, 64, 65, 1000, INT32_MAX };
	struct uk_field f = { .name = "x", .type = UK_FT_U32 };
	uint64_t obj = ~0ULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		f.attr = attrs[i];
		if (uk_field_present(&f, &obj))
			fail_msg("attribute %d: present with no bit for it",
				 attrs[i]);
	}
	f.attr = 63;
	assert_true(uk_field_present(&f, &obj));
	f.attr = 0;
	assert_true(uk_field_present(&f, &obj));
}

static void by_attr_finds_every_field_of_each_table(void **state)
{
	static const struct uk_field *const tables[] = {
		uk_event_fields, uk_site_fields, uk_status_fields,
	};
	const struct uk_field *f;
	size_t t, n;

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		n = 0;
		for (f = tables[t]; f->name; f++, n++)
			assert_ptr_equal(uk_field_by_attr(tables[t], f->attr),
					 f);
		assert_true(n > 10);
	}
	assert_string_equal(field(uk_event_fields,
				  UACCESS_KADDR_A_EVENT_SITE_SYMBOL)->journal,
			    "UACCESS_SITE_SYMBOL");
	assert_string_equal(field(uk_site_fields,
				  UACCESS_KADDR_A_SITE_LAST_COMM)->name,
			    "last_comm");
	assert_string_equal(field(uk_status_fields,
				  UACCESS_KADDR_A_STATUS_DROPPED)->name,
			    "dropped");
}

static void by_attr_gives_null_for_attributes_not_in_the_table(void **state)
{
	static const struct uk_field empty[] = { { 0 } };

	/* PAD and STACK are not fields; the rest are out of range. */
	assert_null(uk_field_by_attr(uk_event_fields,
				     UACCESS_KADDR_A_EVENT_PAD));
	assert_null(uk_field_by_attr(uk_event_fields,
				     UACCESS_KADDR_A_EVENT_STACK));
	assert_null(uk_field_by_attr(uk_event_fields, 0));
	assert_null(uk_field_by_attr(uk_event_fields, -1));
	assert_null(uk_field_by_attr(uk_event_fields,
				     UACCESS_KADDR_A_EVENT_MAX + 1));
	assert_null(uk_field_by_attr(uk_event_fields, 1000));
	assert_null(uk_field_by_attr(uk_status_fields,
				     UACCESS_KADDR_A_STATUS_PAD));
	assert_null(uk_field_by_attr(empty, 1));
}

static void text_by_name_is_the_value_when_present(void **state)
{
	struct uk_status st = { .mode = UACCESS_KADDR_MODE_WARN };
	char buf[32];

	assert_null(uk_field_text(uk_status_fields, "mode", &st, buf,
				  sizeof(buf)));
	st.present = UK_BIT(UACCESS_KADDR_A_STATUS_MODE);
	assert_string_equal(uk_field_text(uk_status_fields, "mode", &st, buf,
					  sizeof(buf)), "warn");
	assert_null(uk_field_text(uk_status_fields, "no_such_field", &st,
				  buf, sizeof(buf)));
}

/*
 * The access policy: the kernel's "access" field when it sends it (fail,
 * allow), "unknown" when it does not (an older kernel).
 */
static void access_policy_is_the_kernels_or_unknown(void **state)
{
	struct uk_status st = {
		.present = ~0ULL & ~UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS),
		.access = UACCESS_KADDR_ACCESS_ALLOW,
	};
	char buf[32];

	assert_string_equal(uk_status_access(&st, buf, sizeof(buf)),
			    UK_ACCESS_UNKNOWN);
	st.present = UK_BIT(UACCESS_KADDR_A_STATUS_ACCESS);
	assert_string_equal(uk_status_access(&st, buf, sizeof(buf)), "allow");
	st.access = UACCESS_KADDR_ACCESS_FAIL;
	assert_string_equal(uk_status_access(&st, buf, sizeof(buf)), "fail");
	assert_string_equal(uk_field_text(uk_status_fields,
					  UK_STATUS_ACCESS_FIELD, &st, buf,
					  sizeof(buf)), "fail");
}

int main(void)
{
	const struct CMUnitTest format[] = {
		cmocka_unit_test(u32_is_decimal),
		cmocka_unit_test(s32_is_signed_decimal),
		cmocka_unit_test(u64_is_decimal_to_its_maximum),
		cmocka_unit_test(hex64_is_0x_and_16_digits),
		cmocka_unit_test(hex32_is_0x_and_8_digits),
		cmocka_unit_test(str_is_written_as_it_is),
		cmocka_unit_test(str_without_nul_stops_at_the_end_of_its_array),
		cmocka_unit_test(enum_is_its_name),
		cmocka_unit_test(enum_unknown_value_is_its_number),
		cmocka_unit_test(syscall_arch_is_the_abi_name),
		cmocka_unit_test(syscall_args_are_hex_in_order),
		cmocka_unit_test(enum_fields_follow_the_name_tables),
		cmocka_unit_test(enum_without_a_name_table_is_a_number),
		cmocka_unit_test(output_is_cut_to_the_buffer_and_nul_terminated),
		cmocka_unit_test(zero_length_buffer_is_not_touched),
		cmocka_unit_test(unknown_field_type_gives_an_empty_string),
		cmocka_unit_test(unaligned_object_is_read_without_undefined_behaviour),
		cmocka_unit_test(present_follows_the_bit_of_the_attribute),
		cmocka_unit_test(present_is_false_for_attributes_without_a_bit),
		cmocka_unit_test(by_attr_finds_every_field_of_each_table),
		cmocka_unit_test(text_by_name_is_the_value_when_present),
		cmocka_unit_test(access_policy_is_the_kernels_or_unknown),
		cmocka_unit_test(by_attr_gives_null_for_attributes_not_in_the_table),
	};

	return cmocka_run_group_tests(format, NULL, NULL);
}
