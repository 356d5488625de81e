// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text writer (daemon/common/openmetrics.c) and the
 * kernel's families (daemon/common/metrics.c): exact text, the escaping
 * of help texts and label values, invalid UTF-8, names refused, numbers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/metrics.h"
#include "common/openmetrics.h"
#include "common/util.h"
#include "golden.h"

/* The text of @om, which must have no error; free() it. */
static char *finish(struct uk_om *om)
{
	char *text = NULL;
	size_t len = 0;

	assert_int_equal(uk_om_finish(om, &text, &len), 0);
	assert_int_equal(strlen(text), len);
	return text;
}

static void assert_om_text(struct uk_om *om, const char *want)
{
	char *text = finish(om);

	uk_assert_text("exposition", text, want);
	free(text);
}

static void families_samples_and_labels(void **state)
{
	const struct uk_om_label two[] = {
		{ "cause", "kernel-dropped" }, { "b_2", "x" },
	};
	struct uk_om om;

	uk_om_init(&om);
	assert_int_equal(uk_om_u64(&om, "a_total", UK_OM_COUNTER, "A.", 7),
			 0);
	assert_int_equal(uk_om_family(&om, "b:c", UK_OM_GAUGE, "B c."), 0);
	assert_int_equal(uk_om_sample_u64(&om, two, 2, 0), 0);
	assert_int_equal(uk_om_sample_u64(&om, two, 1, UINT64_MAX), 0);
	assert_int_equal(uk_om_sample_double(&om, NULL, 0, 0.5), 0);
	assert_om_text(&om,
		       "# HELP a_total A.\n"
		       "# TYPE a_total counter\n"
		       "a_total 7\n"
		       "# HELP b:c B c.\n"
		       "# TYPE b:c gauge\n"
		       "b:c{cause=\"kernel-dropped\",b_2=\"x\"} 0\n"
		       "b:c{cause=\"kernel-dropped\"} 18446744073709551615\n"
		       "b:c 0.5\n");
	/* an empty text is a text */
	uk_om_init(&om);
	assert_om_text(&om, "");
}

static void label_values_and_help_are_escaped(void **state)
{
	struct uk_om om;

	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE,
		     "back\\slash, new\nline, \"quotes\" stay");
	uk_om_sample_u64(&om, &(struct uk_om_label){ "f",
			 "a\\b \"c\"\nd{e}=,f" }, 1, 1);
	uk_om_sample_u64(&om, &(struct uk_om_label){ "f", "" }, 1, 2);
	uk_om_sample_u64(&om, &(struct uk_om_label){ "f", "\\\\\n\n\"" }, 1,
			 3);
	assert_om_text(&om,
		       "# HELP g back\\\\slash, new\\nline, \"quotes\" stay\n"
		       "# TYPE g gauge\n"
		       "g{f=\"a\\\\b \\\"c\\\"\\nd{e}=,f\"} 1\n"
		       "g{f=\"\"} 2\n"
		       "g{f=\"\\\\\\\\\\n\\n\\\"\"} 3\n");
}

static void invalid_utf8_becomes_the_replacement_character(void **state)
{
	struct uk_om om;

	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE, "caf\xc3\xa9 \xff.");
	/* cut short, a lone continuation, a surrogate; valid ones stay */
	uk_om_sample_u64(&om, &(struct uk_om_label){ "f",
			 "a\xc3" }, 1, 1);
	uk_om_sample_u64(&om, &(struct uk_om_label){ "f",
			 "\x80z\xed\xa0\x80\xe2\x82\xac\xf0\x9f\x98\x80" }, 1,
			 2);
	assert_om_text(&om,
		       "# HELP g caf\xc3\xa9 \xef\xbf\xbd.\n"
		       "# TYPE g gauge\n"
		       "g{f=\"a\xef\xbf\xbd\"} 1\n"
		       "g{f=\"\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		       "\xe2\x82\xac\xf0\x9f\x98\x80\"} 2\n");
}

static void bad_names_are_refused(void **state)
{
	static const char *const metrics[] = {
		"", "1a", "a-b", "a b", "a.b", "\xc3\xa9", "a\n",
	};
	static const char *const labels[] = {
		"", "1a", "a:b", "a-b", "a b", "\xc3\xa9",
	};
	char *text;
	size_t i, len;
	struct uk_om om;

	for (i = 0; i < ARRAY_SIZE(metrics); i++) {
		uk_om_init(&om);
		if (uk_om_family(&om, metrics[i], UK_OM_GAUGE, "x") != -EINVAL)
			fail_msg("metric name \"%s\" taken", metrics[i]);
		/* latched: the text is never handed out */
		assert_int_equal(uk_om_u64(&om, "ok", UK_OM_GAUGE, "x", 1),
				 -EINVAL);
		assert_int_equal(uk_om_finish(&om, &text, &len), -EINVAL);
	}
	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		uk_om_init(&om);
		uk_om_family(&om, "ok", UK_OM_GAUGE, "x");
		if (uk_om_sample_u64(&om, &(struct uk_om_label){ labels[i],
				     "v" }, 1, 1) != -EINVAL)
			fail_msg("label name \"%s\" taken", labels[i]);
		uk_om_release(&om);
	}
	assert_true(uk_om_metric_name_ok("_a:b_9"));
	assert_true(uk_om_metric_name_ok(":a"));
	assert_true(uk_om_label_name_ok("_a9"));
	assert_false(uk_om_metric_name_ok(NULL));
	assert_false(uk_om_label_name_ok(NULL));
}

static void misuse_is_refused(void **state)
{
	const struct uk_om_label twice[] = { { "a", "1" }, { "a", "2" } };
	const struct uk_om_label null_value[] = { { "a", NULL } };
	struct uk_om om;

	/* a counter not named ..._total */
	uk_om_init(&om);
	assert_int_equal(uk_om_family(&om, "hits", UK_OM_COUNTER, "x"),
			 -EINVAL);
	uk_om_release(&om);
	/* no help, an unknown type */
	uk_om_init(&om);
	assert_int_equal(uk_om_family(&om, "g", UK_OM_GAUGE, NULL), -EINVAL);
	uk_om_release(&om);
	uk_om_init(&om);
	assert_int_equal(uk_om_family(&om, "g", (enum uk_om_type)7, "x"),
			 -EINVAL);
	uk_om_release(&om);
	/* a sample before any family */
	uk_om_init(&om);
	assert_int_equal(uk_om_sample_u64(&om, NULL, 0, 1), -EINVAL);
	uk_om_release(&om);
	/* a label twice, a NULL value, labels missing */
	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE, "x");
	assert_int_equal(uk_om_sample_u64(&om, twice, 2, 1), -EINVAL);
	uk_om_release(&om);
	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE, "x");
	assert_int_equal(uk_om_sample_u64(&om, null_value, 1, 1), -EINVAL);
	uk_om_release(&om);
	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE, "x");
	assert_int_equal(uk_om_sample_u64(&om, NULL, 1, 1), -EINVAL);
	uk_om_release(&om);
}

static void numbers_are_written_exactly(void **state)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0, "0" }, { -0.0, "0" }, { 1, "1" }, { -3, "-3" },
		{ 1700000000.0, "1700000000" },
		{ 1700000000.123, "1700000000.123" },
		{ 0.1, "0.1" }, { 0.5, "0.5" }, { 1.0 / 3, "0.3333333333333333" },
		{ 9007199254740993.0, "9007199254740992" },
		{ 1e17, "1e+17" }, { 1e300, "1e+300" }, { 1.5e-7, "1.5e-07" },
		{ INFINITY, "+Inf" }, { -INFINITY, "-Inf" }, { NAN, "NaN" },
	};
	char buf[40];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uk_om_format_double(cases[i].v, buf, sizeof(buf));
		if (strcmp(buf, cases[i].text))
			fail_msg("%.17g: \"%s\", expected \"%s\"", cases[i].v,
				 buf, cases[i].text);
		if (!isnan(cases[i].v) && strtod(buf, NULL) != cases[i].v)
			fail_msg("\"%s\" does not read back", buf);
	}
}

static void a_large_text_grows_the_buffer(void **state)
{
	struct uk_om om;
	char name[32], *text;
	size_t i, lines = 0;

	uk_om_init(&om);
	uk_om_family(&om, "g", UK_OM_GAUGE, "x");
	for (i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		uk_om_sample_u64(&om, &(struct uk_om_label){ "f", name }, 1, i);
	}
	text = finish(&om);
	for (i = 0; text[i]; i++)
		lines += text[i] == '\n';
	assert_int_equal(lines, 10002);
	assert_non_null(strstr(text, "\ng{f=\"f9999\"} 9999\n"));
	free(text);
}

/* ---- the kernel's families ---- */

static void kernel_families_of_a_full_status(void **state)
{
	struct uk_status st = {
		.present = ~0ULL, .mode = UACCESS_KADDR_MODE_REPORT,
		.hits_fault = 3, .hits_gp = 0, .hits_precheck = 12,
		.rejected = 1, .reported = 9, .suppressed = 5, .dropped = 2,
		.sites_used = 4, .sites_max = 2048, .sites_overflow = 0,
		.last_seq = 11, .queue_len = 64,
		.access = UACCESS_KADDR_ACCESS_FAIL,
	};
	struct uk_om om;
	char *text;

	uk_om_init(&om);
	assert_int_equal(uk_metrics_kernel(&om, &st), 0);
	text = finish(&om);
	uk_assert_golden("metrics-kernel.prom", text);
	free(text);
}

static void kernel_unknown_is_status_up_zero_alone(void **state)
{
	struct uk_om om;

	uk_om_init(&om);
	assert_int_equal(uk_metrics_kernel(&om, NULL), 0);
	assert_om_text(&om,
		       "# HELP uaccess_kaddr_kernel_status_up Whether the kernel's status could be read (1) or not (0).\n"
		       "# TYPE uaccess_kaddr_kernel_status_up gauge\n"
		       "uaccess_kaddr_kernel_status_up 0\n");
}

/* A kernel that does not say what it does with a refused access. */
#define ACCESS_UNKNOWN							\
	"# HELP uaccess_kaddr_access Whether a pre-access hit is refused (fail) or let through (allow), as uaccess_kaddr_access= says (1: the current policy).\n" \
	"# TYPE uaccess_kaddr_access gauge\n"				\
	"uaccess_kaddr_access{access=\"fail\"} 0\n"			\
	"uaccess_kaddr_access{access=\"allow\"} 0\n"			\
	"uaccess_kaddr_access{access=\"unknown\"} 1\n"

/*
 * An older kernel's reply: only the families of what it sent, and the
 * access policy as unknown.
 */
static void kernel_families_follow_the_attributes_sent(void **state)
{
	struct uk_status st = {
		.present = UK_BIT(UACCESS_KADDR_A_STATUS_MODE) |
			   UK_BIT(UACCESS_KADDR_A_STATUS_HITS_GP),
		.mode = 9, .hits_gp = 4,
	};
	struct uk_om om;

	uk_om_init(&om);
	assert_int_equal(uk_metrics_kernel(&om, &st), 0);
	assert_om_text(&om,
		       "# HELP uaccess_kaddr_kernel_status_up Whether the kernel's status could be read (1) or not (0).\n"
		       "# TYPE uaccess_kaddr_kernel_status_up gauge\n"
		       "uaccess_kaddr_kernel_status_up 1\n"
		       "# HELP uaccess_kaddr_mode The detector's mode (1: the current one).\n"
		       "# TYPE uaccess_kaddr_mode gauge\n"
		       "uaccess_kaddr_mode{mode=\"off\"} 0\n"
		       "uaccess_kaddr_mode{mode=\"count\"} 0\n"
		       "uaccess_kaddr_mode{mode=\"report\"} 0\n"
		       "uaccess_kaddr_mode{mode=\"warn\"} 0\n"
		       "uaccess_kaddr_mode{mode=\"9\"} 1\n"
		       ACCESS_UNKNOWN
		       "# HELP uaccess_kaddr_hits_total Kernel addresses seen at user-access helpers, by how they were detected.\n"
		       "# TYPE uaccess_kaddr_hits_total counter\n"
		       "uaccess_kaddr_hits_total{kind=\"gp\"} 4\n");
}

int main(void)
{
	const struct CMUnitTest openmetrics[] = {
		cmocka_unit_test(families_samples_and_labels),
		cmocka_unit_test(label_values_and_help_are_escaped),
		cmocka_unit_test(invalid_utf8_becomes_the_replacement_character),
		cmocka_unit_test(bad_names_are_refused),
		cmocka_unit_test(misuse_is_refused),
		cmocka_unit_test(numbers_are_written_exactly),
		cmocka_unit_test(a_large_text_grows_the_buffer),
		cmocka_unit_test(kernel_families_of_a_full_status),
		cmocka_unit_test(kernel_unknown_is_status_up_zero_alone),
		cmocka_unit_test(kernel_families_follow_the_attributes_sent),
	};

	return cmocka_run_group_tests(openmetrics, NULL, NULL);
}
