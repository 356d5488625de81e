// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-8 (daemon/common/utf8.c): each row of the Unicode standard's table
 * 3-7 at its edges, the sequences it rules out, and every code point
 * written and read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/utf8.h"
#include "common/util.h"

static void well_formed_sequences_at_the_edges_of_each_row(void **state)
{
	static const struct {
		const char *s;
		size_t len;
	} cases[] = {
		{ "\x00", 1 }, { "\x7f", 1 },
		{ "\xc2\x80", 2 }, { "\xdf\xbf", 2 },
		{ "\xe0\xa0\x80", 3 }, { "\xe0\xbf\xbf", 3 },
		{ "\xe1\x80\x80", 3 }, { "\xec\xbf\xbf", 3 },
		{ "\xed\x80\x80", 3 }, { "\xed\x9f\xbf", 3 },
		{ "\xee\x80\x80", 3 }, { "\xef\xbf\xbf", 3 },
		{ "\xf0\x90\x80\x80", 4 }, { "\xf0\xbf\xbf\xbf", 4 },
		{ "\xf1\x80\x80\x80", 4 }, { "\xf3\xbf\xbf\xbf", 4 },
		{ "\xf4\x80\x80\x80", 4 }, { "\xf4\x8f\xbf\xbf", 4 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (uk_utf8_len(cases[i].s, cases[i].len) != cases[i].len)
			fail_msg("case %zu: not %zu bytes", i, cases[i].len);
}

static void ill_formed_sequences_are_refused(void **state)
{
	static const struct {
		const char *s;
		size_t n;
	} cases[] = {
		{ "\x80", 1 },			/* a continuation byte alone */
		{ "\xbf", 1 },
		{ "\xc0\x80", 2 },		/* overlong NUL */
		{ "\xc1\xbf", 2 },		/* overlong */
		{ "\xe0\x9f\xbf", 3 },		/* overlong 3-byte */
		{ "\xed\xa0\x80", 3 },		/* a surrogate, U+D800 */
		{ "\xed\xbf\xbf", 3 },		/* U+DFFF */
		{ "\xf0\x8f\xbf\xbf", 4 },	/* overlong 4-byte */
		{ "\xf4\x90\x80\x80", 4 },	/* U+110000 */
		{ "\xf5\x80\x80\x80", 4 },
		{ "\xff", 1 },
		{ "\xc2\x41", 2 },		/* no continuation */
		{ "\xe1\x80\x41", 3 },
		{ "\xf1\x80\x80\x41", 4 },
		{ "\xc2", 1 },			/* cut short */
		{ "\xe1\x80", 2 },
		{ "\xf1\x80\x80", 3 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (uk_utf8_len(cases[i].s, cases[i].n))
			fail_msg("case %zu: taken as a sequence", i);
}

static void every_code_point_reads_back(void **state)
{
	char buf[4];
	uint32_t cp;
	size_t n;

	for (cp = 0; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		n = uk_utf8_put(buf, cp);
		assert_int_equal(n, cp < 0x80 ? 1 : cp < 0x800 ? 2 :
				 cp < 0x10000 ? 3 : 4);
		if (uk_utf8_len(buf, n) != n)
			fail_msg("U+%04X does not read back", cp);
	}
}

int main(void)
{
	const struct CMUnitTest utf8[] = {
		cmocka_unit_test(well_formed_sequences_at_the_edges_of_each_row),
		cmocka_unit_test(ill_formed_sequences_are_refused),
		cmocka_unit_test(every_code_point_reads_back),
	};

	return cmocka_run_group_tests(utf8, NULL, NULL);
}
