// SPDX-License-Identifier: GPL-2.0
/*
 * The list of uaccessd's journal fields (daemon/common/journal_fields.c):
 * names and keys agree, an event field reads as its type shows it, the
 * lookups, and docs/journal-fields.md documents exactly these fields.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/event.h"
#include "common/journal_fields.h"

static void name_is_the_prefix_and_the_key_in_upper_case(void **state)
{
	char want[64];
	size_t i, k;

	for (i = 0; i < UK_JF_NR; i++) {
		const struct uk_jfield *f = &uk_journal_fields[i];

		assert_non_null(f->name);
		snprintf(want, sizeof(want), "UACCESS_%s", f->key);
		for (k = 0; want[k]; k++)
			want[k] = (char)toupper((unsigned char)want[k]);
		assert_string_equal(f->name, want);
		assert_ptr_equal(uk_journal_field(f->name), f);
		assert_ptr_equal(uk_journal_field_by_key(f->key,
							 strlen(f->key)), f);
	}
	assert_null(uk_journal_field("UACCESS_NOPE"));
	assert_null(uk_journal_field(NULL));
	assert_null(uk_journal_field_by_key("seqx", 4));
	assert_non_null(uk_journal_field_by_key("seqx", 3));
	assert_string_equal(UK_JF(SITE_IP), "UACCESS_SITE_IP");
}

static void event_fields_read_as_their_type_shows_them(void **state)
{
	const struct uk_field *f;

	for (f = uk_event_fields; f->name; f++) {
		const struct uk_jfield *jf = uk_journal_field(f->journal);
		enum uk_jkind want = f->type == UK_FT_U32 ||
				     f->type == UK_FT_U64 ? UK_JK_UNSIGNED :
				     f->type == UK_FT_S32 ? UK_JK_SIGNED :
				     UK_JK_TEXT;

		assert_non_null(jf);
		assert_string_equal(jf->key, f->name);
		assert_int_equal(jf->kind, want);
	}
	assert_int_equal(uk_journal_field(UK_JF(STACK))->kind, UK_JK_LINES);
	assert_int_equal(uk_journal_field(UK_JF(LOSS_COUNT))->kind,
			 UK_JK_UNSIGNED);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void the_docs_list_exactly_these_fields(void **state)
{
	const char *data = getenv("UK_TEST_DATA");
	char path[4096], tok[64];
	const char *p;
	char *doc;
	size_t i, n;

	snprintf(path, sizeof(path), "%s/../../docs/journal-fields.md",
		 data ? data : "tests/unit");
	doc = slurp(path);
	if (!doc)
		fail_msg("cannot read %s", path);
	for (i = 0; i < UK_JF_NR; i++) {
		const char *name = uk_journal_fields[i].name;
		bool found = false;

		for (p = doc; (p = strstr(p, name)); p++) {
			char c = p[strlen(name)];

			if (!isupper((unsigned char)c) && c != '_') {
				found = true;
				break;
			}
		}
		if (!found)
			fail_msg("%s is not documented", name);
	}
	/* and every field the docs name is one uaccessd writes */
	for (p = doc; (p = strstr(p, "UACCESS_")); p += n) {
		for (n = 8; isupper((unsigned char)p[n]) || p[n] == '_' ||
			    isdigit((unsigned char)p[n]); n++)
			;
		if (n == 8 || !strncmp(p, "UACCESS_KADDR", 13) ||
		    n >= sizeof(tok))
			continue;
		memcpy(tok, p, n);
		tok[n] = '\0';
		if (!uk_journal_field(tok))
			fail_msg("the docs name %s, which uaccessd does not write",
				 tok);
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest journal_fields[] = {
		cmocka_unit_test(name_is_the_prefix_and_the_key_in_upper_case),
		cmocka_unit_test(event_fields_read_as_their_type_shows_them),
		cmocka_unit_test(the_docs_list_exactly_these_fields),
	};

	return cmocka_run_group_tests(journal_fields, NULL, NULL);
}
