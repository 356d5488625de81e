// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file parser (daemon/uaccessd/config.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "uaccessd/config.h"
#include "common/json.h"
#include "common/util.h"

#define MS	1000ULL
#define SEC	1000000ULL

static char tmpdir[64];

static int make_tmpdir(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/uk-test-config-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Parses @text (must succeed) into *cfg. */
static void parse_ok(const char *text, struct uk_config *cfg)
{
	char err[256] = "";
	int r;

	r = uk_config_parse_buffer("t.conf", text, strlen(text), cfg, err,
				   sizeof(err));
	if (r != 0)
		fail_msg("parsing \"%s\": %d %s", text, r, err);
}

/* Parsing @text must fail with exactly @msg. */
static void parse_fails(const char *text, size_t len, const char *msg)
{
	struct uk_config cfg;
	char err[256] = "";
	int r;

	memset(&cfg, 0xa5, sizeof(cfg));
	r = uk_config_parse_buffer("t.conf", text, len, &cfg, err,
				   sizeof(err));
	if (r != -EINVAL)
		fail_msg("parsing \"%s\": expected -EINVAL, got %d", text, r);
	if (strcmp(err, msg))
		fail_msg("parsing \"%s\":\n expected \"%s\"\n got      \"%s\"",
			 text, msg, err);
}

static void defaults_are_the_documented_ones(void **state)
{
	struct uk_config cfg;

	uk_config_defaults(&cfg);
	assert_int_equal(cfg.rcvbuf, 8 * 1024 * 1024);
	assert_int_equal(cfg.site_interval_usec, 60 * SEC);
	assert_int_equal(cfg.site_burst, 5);
	assert_int_equal(cfg.global_rate, 100);
	assert_int_equal(cfg.global_burst, 500);
	assert_int_equal(cfg.summary_interval_usec, 60 * SEC);
	assert_int_equal(cfg.max_sites, 10000);
	assert_int_equal(cfg.samples, 4);
	assert_int_equal(cfg.resync_interval_usec, 5 * 60 * SEC);
	assert_null(cfg.metrics_file);
	assert_int_equal(cfg.metrics_interval_usec, 15 * SEC);
	assert_int_equal(cfg.metrics_top_sites, 10);
	assert_int_equal(cfg.n_ignore, 0);
	assert_null(cfg.ignore);
	assert_false(cfg.missing);
}

static void missing_file_gives_defaults_and_sets_flag(void **state)
{
	struct uk_config cfg, def;
	char path[128], err[256] = "";

	snprintf(path, sizeof(path), "%s/nonexistent.conf", tmpdir);
	memset(&cfg, 0xa5, sizeof(cfg));
	assert_int_equal(uk_config_load(path, &cfg, err, sizeof(err)), 0);
	assert_true(cfg.missing);
	uk_config_defaults(&def);
	def.missing = true;
	assert_memory_equal(&cfg, &def, sizeof(cfg));
	assert_string_equal(err, "");
}

static void empty_and_comment_only_input_gives_defaults(void **state)
{
	struct uk_config cfg, def;

	uk_config_defaults(&def);
	parse_ok("", &cfg);
	assert_memory_equal(&cfg, &def, sizeof(cfg));
	parse_ok("\n\n   \n\t\n# comment\n   # indented = comment\n#rcvbuf=1\n",
		 &cfg);
	assert_memory_equal(&cfg, &def, sizeof(cfg));
}

static void parses_every_key(void **state)
{
	struct uk_config cfg;

	parse_ok("rcvbuf = 16M\n"
		 "site_interval = 500ms\n"
		 "site_burst = 10\n"
		 "global_rate = 1000\n"
		 "global_burst = 2000\n"
		 "summary_interval = 5m\n"
		 "max_sites = 500\n"
		 "samples = 8\n"
		 "resync_interval = 1h\n"
		 "metrics_file = /var/lib/node exporter/uaccessd.prom\n"
		 "metrics_interval = 1m\n"
		 "metrics_top_sites = 0\n"
		 "ignore = my_driver_*\n"
		 "ignore = other_func\n", &cfg);
	assert_int_equal(cfg.rcvbuf, 16 * 1024 * 1024);
	assert_int_equal(cfg.site_interval_usec, 500 * MS);
	assert_int_equal(cfg.site_burst, 10);
	assert_int_equal(cfg.global_rate, 1000);
	assert_int_equal(cfg.global_burst, 2000);
	assert_int_equal(cfg.summary_interval_usec, 5 * 60 * SEC);
	assert_int_equal(cfg.max_sites, 500);
	assert_int_equal(cfg.samples, 8);
	assert_int_equal(cfg.resync_interval_usec, 3600 * SEC);
	assert_string_equal(cfg.metrics_file,
			    "/var/lib/node exporter/uaccessd.prom");
	assert_int_equal(cfg.metrics_interval_usec, 60 * SEC);
	assert_int_equal(cfg.metrics_top_sites, 0);
	assert_int_equal(cfg.n_ignore, 2);
	assert_string_equal(cfg.ignore[0], "my_driver_*");
	assert_string_equal(cfg.ignore[1], "other_func");
	assert_false(cfg.missing);
	uk_config_free(&cfg);
	assert_int_equal(cfg.n_ignore, 0);
	assert_null(cfg.ignore);
	assert_null(cfg.metrics_file);
}

static void trims_whitespace_and_accepts_crlf_and_no_final_newline(void **state)
{
	struct uk_config cfg;

	parse_ok("  \tsite_burst\t=\t7  \r\n samples=3", &cfg);
	assert_int_equal(cfg.site_burst, 7);
	assert_int_equal(cfg.samples, 3);
}

static void later_lines_override_earlier_ones(void **state)
{
	struct uk_config cfg;

	parse_ok("samples = 2\nsamples = 9\n", &cfg);
	assert_int_equal(cfg.samples, 9);
}

static void sizes_take_binary_suffixes(void **state)
{
	static const struct {
		const char *v;
		uint64_t bytes;
	} cases[] = {
		{ "64K", 64 * 1024 }, { "64k", 64 * 1024 },
		{ "8m", 8 << 20 }, { "1G", 1 << 30 }, { "1g", 1 << 30 },
		{ "65536", 65536 }, { "1073741824", 1 << 30 },
		{ "0064K", 64 * 1024 },
	};
	struct uk_config cfg;
	char line[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(line, sizeof(line), "rcvbuf = %s\n", cases[i].v);
		parse_ok(line, &cfg);
		assert_int_equal(cfg.rcvbuf, cases[i].bytes);
	}
}

static void sizes_out_of_range_or_malformed_are_refused(void **state)
{
	static const struct {
		const char *line;
		const char *msg;
	} cases[] = {
		{ "rcvbuf = 63K", "t.conf:1: rcvbuf: 63K is out of range "
				  "(64K..1G)" },
		{ "rcvbuf = 65535", "t.conf:1: rcvbuf: 65535 is out of range "
				    "(64K..1G)" },
		{ "rcvbuf = 1073741825", "t.conf:1: rcvbuf: 1073741825 is out "
					 "of range (64K..1G)" },
		{ "rcvbuf = 2G", "t.conf:1: rcvbuf: 2G is out of range "
				 "(64K..1G)" },
		{ "rcvbuf = 99999999999999999999", "t.conf:1: rcvbuf: "
		  "99999999999999999999 is out of range (64K..1G)" },
		{ "rcvbuf = 18014398509481984K", "t.conf:1: rcvbuf: "
		  "18014398509481984K is out of range (64K..1G)" },
		{ "rcvbuf = 8MB", "t.conf:1: rcvbuf: \"8MB\" is not a size in "
		  "bytes with an optional K, M or G suffix" },
		{ "rcvbuf = 8 M", "t.conf:1: rcvbuf: \"8 M\" is not a size in "
		  "bytes with an optional K, M or G suffix" },
		{ "rcvbuf = -1", "t.conf:1: rcvbuf: \"-1\" is not a size in "
		  "bytes with an optional K, M or G suffix" },
		{ "rcvbuf = 0x100000", "t.conf:1: rcvbuf: \"0x100000\" is not "
		  "a size in bytes with an optional K, M or G suffix" },
		{ "rcvbuf = M", "t.conf:1: rcvbuf: \"M\" is not a size in "
		  "bytes with an optional K, M or G suffix" },
		{ "rcvbuf = 8M # big", "t.conf:1: rcvbuf: \"8M # big\" is not "
		  "a size in bytes with an optional K, M or G suffix" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		parse_fails(cases[i].line, strlen(cases[i].line),
			    cases[i].msg);
}

static void durations_take_units_and_plain_seconds(void **state)
{
	static const struct {
		const char *line;
		size_t offset;
		uint64_t usec;
	} cases[] = {
		{ "site_interval = 500ms",
		  offsetof(struct uk_config, site_interval_usec), 500 * MS },
		{ "site_interval = 1ms",
		  offsetof(struct uk_config, site_interval_usec), 1 * MS },
		{ "site_interval = 0",
		  offsetof(struct uk_config, site_interval_usec), 0 },
		{ "site_interval = 0ms",
		  offsetof(struct uk_config, site_interval_usec), 0 },
		{ "site_interval = 90",
		  offsetof(struct uk_config, site_interval_usec), 90 * SEC },
		{ "site_interval = 1d",
		  offsetof(struct uk_config, site_interval_usec),
		  86400 * SEC },
		{ "summary_interval = 1s",
		  offsetof(struct uk_config, summary_interval_usec), SEC },
		{ "summary_interval = 1000ms",
		  offsetof(struct uk_config, summary_interval_usec), SEC },
		{ "summary_interval = 2h",
		  offsetof(struct uk_config, summary_interval_usec),
		  7200 * SEC },
		{ "resync_interval = 0",
		  offsetof(struct uk_config, resync_interval_usec), 0 },
		{ "resync_interval = 10s",
		  offsetof(struct uk_config, resync_interval_usec), 10 * SEC },
		{ "resync_interval = 24h",
		  offsetof(struct uk_config, resync_interval_usec),
		  86400 * SEC },
	};
	struct uk_config cfg;
	uint64_t got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		parse_ok(cases[i].line, &cfg);
		memcpy(&got, (char *)&cfg + cases[i].offset, sizeof(got));
		if (got != cases[i].usec)
			fail_msg("%s: expected %llu usec, got %llu",
				 cases[i].line,
				 (unsigned long long)cases[i].usec,
				 (unsigned long long)got);
	}
}

static void durations_out_of_range_or_malformed_are_refused(void **state)
{
	static const struct {
		const char *line;
		const char *msg;
	} cases[] = {
		{ "summary_interval = 0", "t.conf:1: summary_interval: 0 is "
		  "out of range (1s..1d)" },
		{ "summary_interval = 999ms", "t.conf:1: summary_interval: "
		  "999ms is out of range (1s..1d)" },
		{ "summary_interval = 25h", "t.conf:1: summary_interval: 25h "
		  "is out of range (1s..1d)" },
		{ "site_interval = 2d", "t.conf:1: site_interval: 2d is out of "
		  "range (0 or 1ms..1d)" },
		{ "resync_interval = 9s", "t.conf:1: resync_interval: 9s is "
		  "out of range (0 or 10s..1d)" },
		{ "resync_interval = 99999999999999999d", "t.conf:1: "
		  "resync_interval: 99999999999999999d is out of range "
		  "(0 or 10s..1d)" },
		{ "site_interval = 1.5s", "t.conf:1: site_interval: \"1.5s\" "
		  "is not a duration like 500ms, 60s, 5m, 1h, 1d (a plain "
		  "number is seconds)" },
		{ "site_interval = 5 m", "t.conf:1: site_interval: \"5 m\" is "
		  "not a duration like 500ms, 60s, 5m, 1h, 1d (a plain number "
		  "is seconds)" },
		{ "site_interval = 5min", "t.conf:1: site_interval: \"5min\" "
		  "is not a duration like 500ms, 60s, 5m, 1h, 1d (a plain "
		  "number is seconds)" },
		{ "site_interval = s", "t.conf:1: site_interval: \"s\" is not "
		  "a duration like 500ms, 60s, 5m, 1h, 1d (a plain number is "
		  "seconds)" },
		{ "site_interval = 10us", "t.conf:1: site_interval: \"10us\" "
		  "is not a duration like 500ms, 60s, 5m, 1h, 1d (a plain "
		  "number is seconds)" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		parse_fails(cases[i].line, strlen(cases[i].line),
			    cases[i].msg);
}

static void counts_are_range_checked(void **state)
{
	static const struct {
		const char *line;
		const char *msg;
	} cases[] = {
		{ "site_burst = 0", "t.conf:1: site_burst: 0 is out of range "
		  "(1..10000)" },
		{ "site_burst = 10001", "t.conf:1: site_burst: 10001 is out of "
		  "range (1..10000)" },
		{ "global_rate = 1000001", "t.conf:1: global_rate: 1000001 is "
		  "out of range (1..1000000)" },
		{ "global_burst = 0", "t.conf:1: global_burst: 0 is out of "
		  "range (1..1000000)" },
		{ "max_sites = 15", "t.conf:1: max_sites: 15 is out of range "
		  "(16..1000000)" },
		{ "samples = 65", "t.conf:1: samples: 65 is out of range "
		  "(1..64)" },
		{ "samples = 4x", "t.conf:1: samples: \"4x\" is not a decimal "
		  "number" },
		{ "samples = +4", "t.conf:1: samples: \"+4\" is not a decimal "
		  "number" },
		{ "samples = 4K", "t.conf:1: samples: \"4K\" is not a decimal "
		  "number" },
	};
	struct uk_config cfg;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		parse_fails(cases[i].line, strlen(cases[i].line),
			    cases[i].msg);
	/* the bounds themselves are fine */
	parse_ok("site_burst = 1\nmax_sites = 16\nsamples = 64\n"
		 "global_rate = 1000000\nsite_burst = 10000\n", &cfg);
	assert_int_equal(cfg.site_burst, 10000);
	assert_int_equal(cfg.max_sites, 16);
	assert_int_equal(cfg.samples, 64);
	assert_int_equal(cfg.global_rate, 1000000);
}

static void metrics_keys_are_checked(void **state)
{
	static const struct {
		const char *line;
		const char *msg;
	} cases[] = {
		{ "metrics_file = uaccessd.prom", "t.conf:1: metrics_file: "
		  "\"uaccessd.prom\" is not an absolute path" },
		{ "metrics_file = ./x/uaccessd.prom", "t.conf:1: metrics_file: "
		  "\"./x/uaccessd.prom\" is not an absolute path" },
		{ "metrics_file = /run/uaccessd.txt", "t.conf:1: metrics_file: "
		  "\"/run/uaccessd.txt\" is not a path of a file named *.prom" },
		{ "metrics_file = /run/uaccessd.prom.tmp", "t.conf:1: "
		  "metrics_file: \"/run/uaccessd.prom.tmp\" is not a path of "
		  "a file named *.prom" },
		{ "metrics_file = /run/x/.prom", "t.conf:1: metrics_file: "
		  "\"/run/x/.prom\" is not a path of a file named *.prom" },
		{ "metrics_file = /run/x.prom/", "t.conf:1: metrics_file: "
		  "\"/run/x.prom/\" is not a path of a file named *.prom" },
		{ "metrics_file = /run/a\x01.prom", "t.conf:1: metrics_file: "
		  "\"/run/a?.prom\" is not a path without control characters" },
		{ "metrics_interval = 0", "t.conf:1: metrics_interval: 0 is "
		  "out of range (1s..1h)" },
		{ "metrics_interval = 999ms", "t.conf:1: metrics_interval: "
		  "999ms is out of range (1s..1h)" },
		{ "metrics_interval = 61m", "t.conf:1: metrics_interval: 61m "
		  "is out of range (1s..1h)" },
		{ "metrics_interval =", "t.conf:1: metrics_interval: missing "
		  "value" },
		{ "metrics_top_sites = 101", "t.conf:1: metrics_top_sites: 101 "
		  "is out of range (0..100)" },
		{ "metrics_top_sites = -1", "t.conf:1: metrics_top_sites: "
		  "\"-1\" is not a decimal number" },
	};
	struct uk_config cfg;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		parse_fails(cases[i].line, strlen(cases[i].line),
			    cases[i].msg);
	/* the bounds are fine; an empty file name is none, the last wins */
	parse_ok("metrics_interval = 1s\nmetrics_top_sites = 100\n"
		 "metrics_file = /a.prom\n", &cfg);
	assert_int_equal(cfg.metrics_interval_usec, SEC);
	assert_int_equal(cfg.metrics_top_sites, 100);
	assert_string_equal(cfg.metrics_file, "/a.prom");
	uk_config_free(&cfg);
	parse_ok("metrics_interval = 1h\nmetrics_file = /a.prom\n"
		 "metrics_file =\n", &cfg);
	assert_int_equal(cfg.metrics_interval_usec, 3600 * SEC);
	assert_null(cfg.metrics_file);
	parse_ok("metrics_file = /a.prom\nmetrics_file = /b/c.prom\n", &cfg);
	assert_string_equal(cfg.metrics_file, "/b/c.prom");
	uk_config_free(&cfg);
}

static void malformed_lines_are_refused_with_line_number(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "# ok\n\nrcvbuf 8M\n", "t.conf:3: missing '=' in \"rcvbuf "
		  "8M\" (lines are key = value)" },
		{ "= 5\n", "t.conf:1: missing key before '='" },
		{ "samples =\n", "t.conf:1: samples: missing value" },
		{ "samples =   \t\n", "t.conf:1: samples: missing value" },
		{ "a\nb = 1\n", "t.conf:1: missing '=' in \"a\" (lines are "
		  "key = value)" },
		{ "samples = 4\nrcvbuff = 8M\n", "t.conf:2: unknown key "
		  "\"rcvbuff\"" },
		{ "RCVBUF = 8M\n", "t.conf:1: unknown key \"RCVBUF\"" },
		{ "samples = 4 = 5\n", "t.conf:1: samples: \"4 = 5\" is not a "
		  "decimal number" },
		{ "\x01\x02 = 1\n", "t.conf:1: unknown key \"??\"" },
		{ "samples = \xff\n", "t.conf:1: samples: \"?\" is not a "
		  "decimal number" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		parse_fails(cases[i].text, strlen(cases[i].text),
			    cases[i].msg);
}

static void long_values_are_cut_in_messages(void **state)
{
	char line[300], msg[300];

	strcpy(line, "samples = ");
	memset(line + 10, '9', 200);
	line[210] = '\0';
	snprintf(msg, sizeof(msg), "t.conf:1: samples: %.52s... is out of "
		 "range (1..64)", line + 10);
	parse_fails(line, strlen(line), msg);
}

static void line_longer_than_1024_bytes_is_refused(void **state)
{
	char text[1100];
	struct uk_config cfg;

	/* a 1024-byte comment is fine */
	memset(text, ' ', sizeof(text));
	text[0] = '#';
	text[1024] = '\n';
	memcpy(text + 1025, "samples = 3\n", 13);
	parse_ok(text, &cfg);
	assert_int_equal(cfg.samples, 3);

	/* 1025 bytes are not, on line 2 */
	memcpy(text, "samples = 2\n", 12);
	memset(text + 12, ' ', 1025);
	text[12] = '#';
	text[12 + 1025] = '\n';
	parse_fails(text, 12 + 1026, "t.conf:2: line longer than 1024 bytes");
	/* also without the newline */
	parse_fails(text, 12 + 1025, "t.conf:2: line longer than 1024 bytes");
}

static void nul_byte_is_refused(void **state)
{
	parse_fails("samples = 4\nsamples\0 = 5\n", 25,
		    "t.conf:2: NUL byte in line");
	parse_fails("# comment \0 too\n", 16, "t.conf:1: NUL byte in line");
}

static void failed_parse_leaves_target_untouched(void **state)
{
	struct uk_config cur, saved;
	char err[256];
	const char *bad = "samples = 3\nignore = new_*\nbogus = 1\n";

	parse_ok("samples = 9\nignore = keep_me\n", &cur);
	saved = cur;
	assert_int_equal(uk_config_parse_buffer("t.conf", bad, strlen(bad),
						&cur, err, sizeof(err)),
			 -EINVAL);
	assert_memory_equal(&cur, &saved, sizeof(cur));
	assert_string_equal(cur.ignore[0], "keep_me");
	assert_string_equal(err, "t.conf:3: unknown key \"bogus\"");
	uk_config_free(&cur);
}

static void failed_load_leaves_target_untouched(void **state)
{
	struct uk_config cur, saved;
	char path[128], err[256];
	const char *text = "samples = 3\nsite_burst = 0\n";

	snprintf(path, sizeof(path), "%s/bad.conf", tmpdir);
	write_file(path, text, strlen(text));
	parse_ok("samples = 9\n", &cur);
	saved = cur;
	assert_int_equal(uk_config_load(path, &cur, err, sizeof(err)),
			 -EINVAL);
	assert_memory_equal(&cur, &saved, sizeof(cur));
	assert_non_null(strstr(err, "/bad.conf:2: site_burst: 0 is out of "
			       "range (1..10000)"));
	assert_memory_equal(err, path, strlen(path));
}

static void load_reads_a_real_file(void **state)
{
	const char *text = "# test\nrcvbuf = 1M\nignore = foo_*\n";
	struct uk_config cfg;
	char path[128], err[256] = "";

	snprintf(path, sizeof(path), "%s/good.conf", tmpdir);
	write_file(path, text, strlen(text));
	assert_int_equal(uk_config_load(path, &cfg, err, sizeof(err)), 0);
	assert_false(cfg.missing);
	assert_int_equal(cfg.rcvbuf, 1 << 20);
	assert_int_equal(cfg.n_ignore, 1);
	uk_config_free(&cfg);
}

static void load_reports_unreadable_and_oversized_files(void **state)
{
	struct uk_config cfg;
	char path[128], err[256], want[200];
	char *big;

	/* a directory opens but cannot be read */
	assert_int_equal(uk_config_load(tmpdir, &cfg, err, sizeof(err)),
			 -EISDIR);
	snprintf(want, sizeof(want), "%s: Is a directory", tmpdir);
	assert_string_equal(err, want);

	snprintf(path, sizeof(path), "%s/big.conf", tmpdir);
	big = malloc(UK_CONFIG_FILE_MAX + 1);
	assert_non_null(big);
	memset(big, '\n', UK_CONFIG_FILE_MAX + 1);
	write_file(path, big, UK_CONFIG_FILE_MAX + 1);
	assert_int_equal(uk_config_load(path, &cfg, err, sizeof(err)),
			 -EFBIG);
	snprintf(want, sizeof(want), "%s: larger than %d bytes", path,
		 UK_CONFIG_FILE_MAX);
	assert_string_equal(err, want);

	/* exactly the maximum is fine */
	write_file(path, big, UK_CONFIG_FILE_MAX);
	assert_int_equal(uk_config_load(path, &cfg, err, sizeof(err)), 0);
	free(big);
}

static void ignore_limits_count_length_and_characters(void **state)
{
	size_t size = (UK_CONFIG_IGNORE_MAX + 1) * 32;
	char *text = malloc(size);
	struct uk_config cfg;
	char line[300], msg[200];
	size_t off = 0;
	int i;

	assert_non_null(text);
	for (i = 0; i < UK_CONFIG_IGNORE_MAX; i++)
		off += snprintf(text + off, size - off, "ignore = f%d_*\n", i);
	parse_ok(text, &cfg);
	assert_int_equal(cfg.n_ignore, UK_CONFIG_IGNORE_MAX);
	assert_string_equal(cfg.ignore[255], "f255_*");
	uk_config_free(&cfg);

	snprintf(text + off, size - off, "ignore = one_more\n");
	snprintf(msg, sizeof(msg), "t.conf:%d: ignore: more than %d patterns",
		 UK_CONFIG_IGNORE_MAX + 1, UK_CONFIG_IGNORE_MAX);
	parse_fails(text, strlen(text), msg);
	free(text);

	snprintf(line, sizeof(line), "ignore = %0128d", 0);
	parse_ok(line, &cfg);
	uk_config_free(&cfg);
	snprintf(line, sizeof(line), "ignore = %0129d", 0);
	parse_fails(line, strlen(line),
		    "t.conf:1: ignore: pattern longer than 128 bytes");

	parse_fails("ignore = a b", 12, "t.conf:1: ignore: a pattern is one "
		    "word of printable ASCII (a function name glob)");
	parse_fails("ignore = caf\xc3\xa9", 14, "t.conf:1: ignore: a pattern "
		    "is one word of printable ASCII (a function name glob)");
	parse_fails("ignore =", 8, "t.conf:1: ignore: missing value");
}

static void ignored_matches_function_name_globs(void **state)
{
	struct uk_config cfg;

	parse_ok("ignore = my_driver_*\nignore = exact_fn\n"
		 "ignore = ?oo_[ab]ar\n", &cfg);
	assert_true(uk_config_ignored(&cfg, "my_driver_ioctl"));
	assert_true(uk_config_ignored(&cfg, "my_driver_"));
	assert_true(uk_config_ignored(&cfg, "exact_fn"));
	assert_true(uk_config_ignored(&cfg, "foo_bar"));
	assert_true(uk_config_ignored(&cfg, "zoo_aar"));
	assert_false(uk_config_ignored(&cfg, "foo_car"));
	assert_false(uk_config_ignored(&cfg, "exact_fn2"));
	assert_false(uk_config_ignored(&cfg, "xmy_driver_ioctl"));
	assert_false(uk_config_ignored(&cfg, "my_drive"));
	assert_false(uk_config_ignored(&cfg, ""));
	assert_false(uk_config_ignored(&cfg, NULL));
	/* full site symbols: only the function name counts */
	assert_true(uk_config_ignored(&cfg,
				      "my_driver_ioctl+0x1c/0x80 [mydrv]"));
	assert_true(uk_config_ignored(&cfg, "exact_fn+0x0/0x10"));
	assert_false(uk_config_ignored(&cfg, "other+0x1c/0x80 [my_driver_x]"));
	uk_config_free(&cfg);

	uk_config_defaults(&cfg);
	assert_false(uk_config_ignored(&cfg, "anything"));
}

static char *config_to_json(const struct uk_config *cfg)
{
	struct uk_json j;
	char *out = NULL;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_config_json(&j, cfg);
	uk_json_object_end(&j);
	assert_int_equal(uk_json_finish(&j, &out, NULL), 0);
	return out;
}

static void config_json_lists_every_key(void **state)
{
	const struct uk_json_value *ign;
	struct uk_json_value *v;
	struct uk_config cfg;
	struct uk_json j;
	const char *s;
	uint64_t u;
	char *out;
	size_t len;

	parse_ok("site_interval = 500ms\nignore = a_*\nignore = b\n", &cfg);
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_config_json(&j, &cfg);
	uk_json_object_end(&j);
	assert_int_equal(uk_json_finish(&j, &out, &len), 0);
	assert_int_equal(uk_json_parse(out, len, &v, NULL, 0), 0);

	assert_int_equal(uk_json_object_len(v), 13);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, "rcvbuf"), &u),
			 0);
	assert_int_equal(u, 8 << 20);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v,
			 "site_interval_ms"), &u), 0);
	assert_int_equal(u, 500);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v,
			 "resync_interval_ms"), &u), 0);
	assert_int_equal(u, 300000);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, "samples"),
					 &u), 0);
	assert_int_equal(u, 4);
	ign = uk_json_object_get(v, "ignore");
	assert_int_equal(uk_json_array_len(ign), 2);
	assert_int_equal(uk_json_get_str(uk_json_array_at(ign, 1), &s), 0);
	assert_string_equal(s, "b");
	assert_int_equal(uk_json_get_str(uk_json_object_get(v,
			 "metrics_file"), &s), 0);
	assert_string_equal(s, "");
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v,
			 "metrics_interval_ms"), &u), 0);
	assert_int_equal(u, 15000);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(v,
			 "metrics_top_sites"), &u), 0);
	assert_int_equal(u, 10);
	uk_json_value_free(v);
	free(out);
	uk_config_free(&cfg);

	parse_ok("metrics_file = /x/y.prom\n", &cfg);
	out = config_to_json(&cfg);
	assert_non_null(strstr(out, "\"metrics_file\":\"/x/y.prom\""));
	free(out);
	uk_config_free(&cfg);
}

/*
 * packaging/uaccessd.conf shows every key commented out with its default:
 * uncommented (all but the ignore and metrics_file examples) it must
 * give the defaults.
 */
static void shipped_config_shows_every_key_with_its_default(void **state)
{
	static const char *const names[] = {
		"rcvbuf", "site_interval", "site_burst", "global_rate",
		"global_burst", "summary_interval", "max_sites", "samples",
		"ignore", "resync_interval", "metrics_file", "metrics_interval",
		"metrics_top_sites",
	};
	const char *data = getenv("UK_TEST_DATA");
	struct uk_config cfg, def;
	char path[512], want[64], err[256] = "";
	char *text, *out, *line, *save, *got_json, *def_json;
	size_t len = 0, olen = 0, i;
	FILE *f;

	if (!data)
		skip();
	snprintf(path, sizeof(path), "%s/../../packaging/uaccessd.conf", data);
	f = fopen(path, "r");
	assert_non_null(f);
	text = calloc(1, UK_CONFIG_FILE_MAX + 1);
	out = calloc(1, UK_CONFIG_FILE_MAX + 1);
	assert_non_null(text);
	assert_non_null(out);
	len = fread(text, 1, UK_CONFIG_FILE_MAX, f);
	fclose(f);
	assert_true(len > 0);

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(want, sizeof(want), "\n#%s = ", names[i]);
		if (!strstr(text, want))
			fail_msg("%s does not show \"%s\"", path, want + 1);
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' && line[1] >= 'a' && line[1] <= 'z' &&
		    strstr(line, " = ") && strncmp(line, "#ignore ", 8) &&
		    strncmp(line, "#metrics_file ", 14))
			line++;
		olen += snprintf(out + olen, UK_CONFIG_FILE_MAX + 1 - olen,
				 "%s\n", line);
	}
	assert_int_equal(uk_config_parse_buffer(path, out, olen, &cfg, err,
						sizeof(err)), 0);
	uk_config_defaults(&def);
	/* as JSON, so that a failure shows which key differs */
	got_json = config_to_json(&cfg);
	def_json = config_to_json(&def);
	assert_string_equal(got_json, def_json);
	assert_memory_equal(&cfg, &def, sizeof(cfg));
	free(got_json);
	free(def_json);
	free(text);
	free(out);
}

int main(void)
{
	const struct CMUnitTest config[] = {
		cmocka_unit_test(defaults_are_the_documented_ones),
		cmocka_unit_test(missing_file_gives_defaults_and_sets_flag),
		cmocka_unit_test(empty_and_comment_only_input_gives_defaults),
		cmocka_unit_test(parses_every_key),
		cmocka_unit_test(trims_whitespace_and_accepts_crlf_and_no_final_newline),
		cmocka_unit_test(later_lines_override_earlier_ones),
		cmocka_unit_test(sizes_take_binary_suffixes),
		cmocka_unit_test(sizes_out_of_range_or_malformed_are_refused),
		cmocka_unit_test(durations_take_units_and_plain_seconds),
		cmocka_unit_test(durations_out_of_range_or_malformed_are_refused),
		cmocka_unit_test(counts_are_range_checked),
		cmocka_unit_test(metrics_keys_are_checked),
		cmocka_unit_test(malformed_lines_are_refused_with_line_number),
		cmocka_unit_test(long_values_are_cut_in_messages),
		cmocka_unit_test(line_longer_than_1024_bytes_is_refused),
		cmocka_unit_test(nul_byte_is_refused),
		cmocka_unit_test(failed_parse_leaves_target_untouched),
		cmocka_unit_test(failed_load_leaves_target_untouched),
		cmocka_unit_test(load_reads_a_real_file),
		cmocka_unit_test(load_reports_unreadable_and_oversized_files),
		cmocka_unit_test(ignore_limits_count_length_and_characters),
		cmocka_unit_test(ignored_matches_function_name_globs),
		cmocka_unit_test(config_json_lists_every_key),
		cmocka_unit_test(shipped_config_shows_every_key_with_its_default),
	};

	return cmocka_run_group_tests(config, make_tmpdir, remove_tmpdir);
}
