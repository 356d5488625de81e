// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file, see config.h and docs/uaccessd.conf.md.
 *
 * One table of keys gives each key's type, default and range; parsing,
 * the defaults, range messages and the JSON dump all read it.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "common/event.h"
#include "common/json.h"
#include "common/time.h"
#include "common/util.h"

#define KIB	1024ULL
#define MIB	(1024 * KIB)
#define GIB	(1024 * MIB)
#define MSEC	UK_USEC_PER_MSEC
#define SEC	UK_USEC_PER_SEC
#define MINUTE	UK_USEC_PER_MINUTE
#define HOUR	UK_USEC_PER_HOUR
#define DAY	UK_USEC_PER_DAY

enum kind {
	K_SIZE,		/* bytes, optional K/M/G suffix */
	K_DURATION,	/* usec, written with ms/s/m/h/d, plain = seconds */
	K_COUNT,	/* plain decimal number */
	K_PATTERN,	/* repeatable glob */
	K_PATH,		/* absolute, of a "*.prom" file; empty: none */
};

struct key {
	const char *name;
	enum kind kind;
	size_t offset;
	uint64_t def;
	uint64_t min;
	uint64_t max;
	bool zero_ok;	/* 0 is allowed besides min..max ("off") */
};

/* What node_exporter's textfile collector reads. */
#define PATH_SUFFIX	".prom"

#define OFF(m) offsetof(struct uk_config, m)

static const struct key keys[] = {
	{ "rcvbuf", K_SIZE, OFF(rcvbuf), 8 * MIB, 64 * KIB, 1 * GIB, false },
	{ "site_interval", K_DURATION, OFF(site_interval_usec),
	  60 * SEC, 1 * MSEC, DAY, true },
	{ "site_burst", K_COUNT, OFF(site_burst), 5, 1, 10000, false },
	{ "global_rate", K_COUNT, OFF(global_rate), 100, 1, 1000000, false },
	{ "global_burst", K_COUNT, OFF(global_burst), 500, 1, 1000000, false },
	{ "summary_interval", K_DURATION, OFF(summary_interval_usec),
	  60 * SEC, 1 * SEC, DAY, false },
	{ "max_sites", K_COUNT, OFF(max_sites), 10000, 16, 1000000, false },
	{ "samples", K_COUNT, OFF(samples), 4, 1, 64, false },
	{ "resync_interval", K_DURATION, OFF(resync_interval_usec),
	  5 * MINUTE, 10 * SEC, DAY, true },
	{ "ignore", K_PATTERN, 0, 0, 0, 0, false },
	{ "metrics_file", K_PATH, OFF(metrics_file), 0, 0, 0, false },
	{ "metrics_interval", K_DURATION, OFF(metrics_interval_usec),
	  15 * SEC, 1 * SEC, HOUR, false },
	{ "metrics_top_sites", K_COUNT, OFF(metrics_top_sites), 10, 0, 100,
	  false },
};

#define N_KEYS (ARRAY_SIZE(keys))

static uint64_t *slot(struct uk_config *cfg, const struct key *k)
{
	return (uint64_t *)((char *)cfg + k->offset);
}

static char **path_slot(struct uk_config *cfg, const struct key *k)
{
	return (char **)((char *)cfg + k->offset);
}

static bool has_value(const struct key *k)
{
	return k->kind != K_PATTERN && k->kind != K_PATH;
}

void uk_config_defaults(struct uk_config *cfg)
{
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < N_KEYS; i++)
		if (has_value(&keys[i]))
			*slot(cfg, &keys[i]) = keys[i].def;
}

void uk_config_free(struct uk_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->n_ignore; i++)
		free(cfg->ignore[i]);
	free(cfg->ignore);
	for (i = 0; i < N_KEYS; i++)
		if (keys[i].kind == K_PATH)
			free(*path_slot(cfg, &keys[i]));
	uk_config_defaults(cfg);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A file value quoted for a message: printable ASCII, at most 48 bytes. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t i, n = strlen(s), max = size - 4;

	for (i = 0; i < n && i < max; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	if (n > max)
		strcpy(buf + i, "...");
	return buf;
}

/* Decimal digits at *s; advances *s.  -EINVAL without any, -ERANGE. */
static int parse_digits(const char **s, uint64_t *ret)
{
	const char *p = *s;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*s = p;
	*ret = v;
	return 0;
}

static int scale(uint64_t v, uint64_t unit, uint64_t *ret)
{
	if (v && unit > UINT64_MAX / v)
		return -ERANGE;
	*ret = v * unit;
	return 0;
}

static int parse_size(const char *s, uint64_t *ret)
{
	uint64_t v, unit = 1;
	int r;

	r = parse_digits(&s, &v);
	if (r < 0)
		return r;
	switch (*s) {
	case '\0':
		break;
	case 'k': case 'K':
		unit = KIB;
		s++;
		break;
	case 'm': case 'M':
		unit = MIB;
		s++;
		break;
	case 'g': case 'G':
		unit = GIB;
		s++;
		break;
	default:
		return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	return scale(v, unit, ret);
}

static int parse_count(const char *s, uint64_t *ret)
{
	int r = parse_digits(&s, ret);

	if (r < 0)
		return r;
	return *s ? -EINVAL : 0;
}

/* A value in the key's own notation: "8M", "60s", "5". */
static void format_value(const struct key *k, uint64_t v, char *buf,
			 size_t size)
{
	static const struct {
		const char *suffix;
		uint64_t unit;
	} sizes[] = {
		{ "G", GIB }, { "M", MIB }, { "K", KIB },
	}, durations[] = {
		{ "d", DAY }, { "h", HOUR }, { "m", MINUTE }, { "s", SEC },
		{ "ms", MSEC },
	};
	size_t i;

	if (k->kind == K_SIZE) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++)
			if (v && v % sizes[i].unit == 0) {
				snprintf(buf, size, "%" PRIu64 "%s",
					 v / sizes[i].unit, sizes[i].suffix);
				return;
			}
	} else if (k->kind == K_DURATION) {
		for (i = 0; i < ARRAY_SIZE(durations); i++)
			if (v && v % durations[i].unit == 0) {
				snprintf(buf, size, "%" PRIu64 "%s",
					 v / durations[i].unit,
					 durations[i].suffix);
				return;
			}
	}
	snprintf(buf, size, "%" PRIu64, v);
}

static const char *const expected[] = {
	[K_SIZE] = "a size in bytes with an optional K, M or G suffix",
	[K_DURATION] = ("a duration like 500ms, 60s, 5m, 1h, 1d "
			"(a plain number is seconds)"),
	[K_COUNT] = "a decimal number",
	[K_PATH] = "an absolute path",
};

static int add_pattern(struct uk_config *cfg, const char *pat, char *why,
		       size_t whylen)
{
	char **p;
	const char *c;

	if (cfg->n_ignore >= UK_CONFIG_IGNORE_MAX) {
		snprintf(why, whylen, "ignore: more than %d patterns",
			 UK_CONFIG_IGNORE_MAX);
		return -EINVAL;
	}
	if (strlen(pat) > UK_CONFIG_PATTERN_MAX) {
		snprintf(why, whylen, "ignore: pattern longer than %d bytes",
			 UK_CONFIG_PATTERN_MAX);
		return -EINVAL;
	}
	for (c = pat; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f) {
			snprintf(why, whylen, "ignore: a pattern is one word "
				 "of printable ASCII (a function name glob)");
			return -EINVAL;
		}
	p = realloc(cfg->ignore, (cfg->n_ignore + 1) * sizeof(*p));
	if (!p)
		goto oom;
	cfg->ignore = p;
	p[cfg->n_ignore] = strdup(pat);
	if (!p[cfg->n_ignore])
		goto oom;
	cfg->n_ignore++;
	return 0;
oom:
	snprintf(why, whylen, "out of memory");
	return -ENOMEM;
}

/*
 * An absolute path without control characters whose file name ends in
 * PATH_SUFFIX; the empty value is none.
 */
static int set_path(struct uk_config *cfg, const struct key *k,
		    const char *val, char *why, size_t whylen)
{
	const char *name = strrchr(val, '/'), *why_not = NULL, *c;
	size_t n = strlen(val), sn = strlen(PATH_SUFFIX);
	char shown_buf[56], *copy = NULL;

	for (c = val; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			why_not = "a path without control characters";
	if (n && val[0] != '/')
		why_not = expected[k->kind];
	else if (n && (strlen(name + 1) <= sn ||
		       strcmp(val + n - sn, PATH_SUFFIX)))
		why_not = "a path of a file named *" PATH_SUFFIX;
	if (why_not) {
		snprintf(why, whylen, "%s: \"%s\" is not %s", k->name,
			 shown(val, shown_buf, sizeof(shown_buf)), why_not);
		return -EINVAL;
	}
	if (n) {
		copy = strdup(val);
		if (!copy) {
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
	}
	free(*path_slot(cfg, k));
	*path_slot(cfg, k) = copy;
	return 0;
}

static int set_value(struct uk_config *cfg, const struct key *k,
		     const char *val, char *why, size_t whylen)
{
	char shown_buf[56], lo[24], hi[24];
	uint64_t v;
	int r;

	switch (k->kind) {
	case K_PATTERN:
		return add_pattern(cfg, val, why, whylen);
	case K_PATH:
		return set_path(cfg, k, val, why, whylen);
	case K_SIZE:
		r = parse_size(val, &v);
		break;
	case K_DURATION:
		r = uk_time_parse_span(val, UK_SPAN_UNITS, &v, NULL, NULL, 0);
		break;
	default:
		r = parse_count(val, &v);
		break;
	}
	if (r == -EINVAL) {
		snprintf(why, whylen, "%s: \"%s\" is not %s", k->name,
			 shown(val, shown_buf, sizeof(shown_buf)),
			 expected[k->kind]);
		return -EINVAL;
	}
	if (r < 0 || ((v < k->min || v > k->max) && !(v == 0 && k->zero_ok))) {
		format_value(k, k->min, lo, sizeof(lo));
		format_value(k, k->max, hi, sizeof(hi));
		snprintf(why, whylen, "%s: %s is out of range (%s%s..%s)",
			 k->name, shown(val, shown_buf, sizeof(shown_buf)),
			 k->zero_ok ? "0 or " : "", lo, hi);
		return -EINVAL;
	}
	*slot(cfg, k) = v;
	return 0;
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static int parse_line(struct uk_config *cfg, const char *s, size_t n,
		      char *why, size_t whylen)
{
	char key[UK_CONFIG_LINE_MAX + 1], val[UK_CONFIG_LINE_MAX + 1];
	char shown_buf[56];
	const char *eq, *k, *v;
	size_t kn, vn, i;

	if (n > UK_CONFIG_LINE_MAX) {
		snprintf(why, whylen, "line longer than %d bytes",
			 UK_CONFIG_LINE_MAX);
		return -EINVAL;
	}
	if (memchr(s, '\0', n)) {
		snprintf(why, whylen, "NUL byte in line");
		return -EINVAL;
	}
	trim(&s, &n);
	if (n == 0 || s[0] == '#')
		return 0;
	eq = memchr(s, '=', n);
	if (!eq) {
		memcpy(val, s, n);
		val[n] = '\0';
		snprintf(why, whylen, "missing '=' in \"%s\" "
			 "(lines are key = value)",
			 shown(val, shown_buf, sizeof(shown_buf)));
		return -EINVAL;
	}
	k = s;
	kn = eq - s;
	v = eq + 1;
	vn = n - kn - 1;
	trim(&k, &kn);
	trim(&v, &vn);
	memcpy(key, k, kn);
	key[kn] = '\0';
	memcpy(val, v, vn);
	val[vn] = '\0';
	if (kn == 0) {
		snprintf(why, whylen, "missing key before '='");
		return -EINVAL;
	}
	for (i = 0; i < N_KEYS; i++)
		if (!strcmp(keys[i].name, key))
			break;
	if (i == N_KEYS) {
		snprintf(why, whylen, "unknown key \"%s\"",
			 shown(key, shown_buf, sizeof(shown_buf)));
		return -EINVAL;
	}
	if (vn == 0 && keys[i].kind != K_PATH) {
		snprintf(why, whylen, "%s: missing value", keys[i].name);
		return -EINVAL;
	}
	return set_value(cfg, &keys[i], val, why, whylen);
}

int uk_config_parse_buffer(const char *name, const char *buf, size_t len,
			   struct uk_config *ret, char *err, size_t errlen)
{
	struct uk_config cfg;
	char why[256];
	size_t pos = 0, end;
	unsigned int line = 0;
	const char *nl;
	int r;

	uk_config_defaults(&cfg);
	while (pos < len) {
		nl = memchr(buf + pos, '\n', len - pos);
		end = nl ? (size_t)(nl - buf) : len;
		line++;
		r = parse_line(&cfg, buf + pos, end - pos, why, sizeof(why));
		if (r < 0) {
			if (err && errlen)
				snprintf(err, errlen, "%s:%u: %s", name, line,
					 why);
			uk_config_free(&cfg);
			return r;
		}
		pos = end + 1;
	}
	*ret = cfg;
	return 0;
}

static int read_file(int fd, char **ret, size_t *retlen)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *p;
	ssize_t n;
	int r;

	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			if (cap > UK_CONFIG_FILE_MAX + 1)
				cap = UK_CONFIG_FILE_MAX + 1;
			r = -EFBIG;
			if (len == cap)
				goto fail;
			r = -ENOMEM;
			p = realloc(buf, cap);
			if (!p)
				goto fail;
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += n;
	}
	r = -EFBIG;
	if (len > UK_CONFIG_FILE_MAX)
		goto fail;
	*ret = buf;
	*retlen = len;
	return 0;
fail:
	free(buf);
	return r;
}

int uk_config_load(const char *path, struct uk_config *ret,
		   char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		if (r == -ENOENT) {
			uk_config_defaults(ret);
			ret->missing = true;
			return 0;
		}
		goto fail;
	}
	r = read_file(fd, &buf, &len);
	close(fd);
	if (r < 0)
		goto fail;
	r = uk_config_parse_buffer(path, buf ? buf : "", len, ret, err,
				   errlen);
	free(buf);
	return r;
fail:
	if (err && errlen) {
		if (r == -EFBIG)
			snprintf(err, errlen, "%s: larger than %d bytes",
				 path, UK_CONFIG_FILE_MAX);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
	}
	return r;
}

bool uk_config_ignored(const struct uk_config *cfg, const char *function_name)
{
	char name[UK_SYMBOL_LEN];
	size_t i;

	if (!cfg->n_ignore ||
	    !uk_symbol_function(function_name, name, sizeof(name)))
		return false;
	for (i = 0; i < cfg->n_ignore; i++)
		if (fnmatch(cfg->ignore[i], name, 0) == 0)
			return true;
	return false;
}

void uk_config_json(struct uk_json *j, const struct uk_config *cfg)
{
	const uint64_t *v;
	char key[64];
	size_t i, p;

	for (i = 0; i < N_KEYS; i++) {
		const struct key *k = &keys[i];

		v = (const uint64_t *)((const char *)cfg + k->offset);
		switch (k->kind) {
		case K_PATTERN:
			uk_json_key(j, k->name);
			uk_json_array_begin(j);
			for (p = 0; p < cfg->n_ignore; p++)
				uk_json_str(j, cfg->ignore[p]);
			uk_json_array_end(j);
			break;
		case K_PATH:
			uk_json_kv_str(j, k->name,
				       *(char *const *)((const char *)cfg +
							k->offset) ?: "");
			break;
		case K_DURATION:
			snprintf(key, sizeof(key), "%s_ms", k->name);
			uk_json_kv_u64(j, key, *v / MSEC);
			break;
		default:
			uk_json_kv_u64(j, k->name, *v);
			break;
		}
	}
}
