// SPDX-License-Identifier: GPL-2.0
/* The Prometheus text exposition writer, see openmetrics.h. */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openmetrics.h"
#include "utf8.h"

static const char *const type_names[] = {
	[UK_OM_COUNTER] = "counter",
	[UK_OM_GAUGE] = "gauge",
};

void uk_om_init(struct uk_om *om)
{
	memset(om, 0, sizeof(*om));
}

void uk_om_release(struct uk_om *om)
{
	free(om->buf);
	uk_om_init(om);
}

int uk_om_error(const struct uk_om *om)
{
	return om->err;
}

void uk_om_fail(struct uk_om *om, int err)
{
	if (!om->err)
		om->err = err;
}

static int fail(struct uk_om *om, int err)
{
	uk_om_fail(om, err);
	return om->err;
}

int uk_om_finish(struct uk_om *om, char **ret, size_t *retlen)
{
	int err = om->err;

	if (!err && !om->buf) {
		om->buf = strdup("");
		if (!om->buf)
			err = -ENOMEM;
	}
	if (err) {
		uk_om_release(om);
		return err;
	}
	*ret = om->buf;
	if (retlen)
		*retlen = om->len;
	uk_om_init(om);
	return 0;
}

/* Room for @n more bytes and the NUL. */
static bool reserve(struct uk_om *om, size_t n)
{
	size_t cap;
	char *p;

	if (om->err)
		return false;
	if (n > SIZE_MAX / 4 - om->len) {
		fail(om, -E2BIG);
		return false;
	}
	if (om->len + n + 1 <= om->cap)
		return true;
	cap = om->cap ? om->cap : 1024;
	while (cap < om->len + n + 1)
		cap *= 2;
	p = realloc(om->buf, cap);
	if (!p) {
		fail(om, -ENOMEM);
		return false;
	}
	om->buf = p;
	om->cap = cap;
	return true;
}

static void put(struct uk_om *om, const char *s, size_t n)
{
	if (!reserve(om, n))
		return;
	memcpy(om->buf + om->len, s, n);
	om->len += n;
	om->buf[om->len] = '\0';
}

static void puts_(struct uk_om *om, const char *s)
{
	put(om, s, strlen(s));
}

/*
 * @s with backslash and newline escaped, and '"' too in a label value;
 * bytes that are not UTF-8 become U+FFFD.
 */
static void put_escaped(struct uk_om *om, const char *s, bool quote)
{
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		for (k = i; k < n; ) {
			size_t l = uk_utf8_len(s + k, n - k);

			if (!l || s[k] == '\\' || s[k] == '\n' ||
			    (quote && s[k] == '"'))
				break;
			k += l;
		}
		put(om, s + i, k - i);
		if (k == n)
			break;
		if (s[k] == '\\')
			put(om, "\\\\", 2);
		else if (s[k] == '\n')
			put(om, "\\n", 2);
		else if (s[k] == '"')
			put(om, "\\\"", 2);
		else
			put(om, "\xef\xbf\xbd", 3);
		i = k + 1;
	}
}

static bool name_ok(const char *s, bool colon)
{
	const char *p;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' ||
		      (colon && *p == ':')))
			return false;
	return true;
}

bool uk_om_metric_name_ok(const char *s)
{
	return name_ok(s, true);
}

bool uk_om_label_name_ok(const char *s)
{
	return name_ok(s, false);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int uk_om_family(struct uk_om *om, const char *name, enum uk_om_type type,
		 const char *help)
{
	if (om->err)
		return om->err;
	if (!uk_om_metric_name_ok(name) || !help ||
	    (type != UK_OM_COUNTER && type != UK_OM_GAUGE) ||
	    (type == UK_OM_COUNTER && !ends_with(name, "_total")))
		return fail(om, -EINVAL);
	puts_(om, "# HELP ");
	puts_(om, name);
	put(om, " ", 1);
	put_escaped(om, help, false);
	puts_(om, "\n# TYPE ");
	puts_(om, name);
	put(om, " ", 1);
	puts_(om, type_names[type]);
	put(om, "\n", 1);
	om->family = name;
	return om->err;
}

static int labels_ok(const struct uk_om_label *labels, size_t n)
{
	size_t i, k;

	if (n && !labels)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!uk_om_label_name_ok(labels[i].name) || !labels[i].value)
			return -EINVAL;
		for (k = 0; k < i; k++)
			if (!strcmp(labels[k].name, labels[i].name))
				return -EINVAL;
	}
	return 0;
}

static int sample(struct uk_om *om, const struct uk_om_label *labels,
		  size_t n, const char *value)
{
	size_t i;

	if (om->err)
		return om->err;
	if (!om->family || labels_ok(labels, n) < 0)
		return fail(om, -EINVAL);
	puts_(om, om->family);
	for (i = 0; i < n; i++) {
		put(om, i ? "," : "{", 1);
		puts_(om, labels[i].name);
		put(om, "=\"", 2);
		put_escaped(om, labels[i].value, true);
		put(om, "\"", 1);
	}
	if (n)
		put(om, "}", 1);
	put(om, " ", 1);
	puts_(om, value);
	put(om, "\n", 1);
	return om->err;
}

int uk_om_sample_u64(struct uk_om *om, const struct uk_om_label *labels,
		     size_t n, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return sample(om, labels, n, buf);
}

size_t uk_om_format_double(double v, char *buf, size_t len)
{
	locale_t c, old = (locale_t)0;
	int prec;

	if (isnan(v))
		return snprintf(buf, len, "NaN");
	if (isinf(v))
		return snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
	if (v == 0)
		return snprintf(buf, len, "0");
	/* Below 1e17 an integer has all its digits in an int64_t. */
	if (fabs(v) < 1e17 && v == (double)(int64_t)v)
		return snprintf(buf, len, "%" PRId64, (int64_t)v);
	/* printf's decimal point is the locale's; the format's is '.'. */
	c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c)
		old = uselocale(c);
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, len, "%.*g", prec, v);
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return strlen(buf);
}

int uk_om_sample_double(struct uk_om *om, const struct uk_om_label *labels,
			size_t n, double v)
{
	char buf[40];

	uk_om_format_double(v, buf, sizeof(buf));
	return sample(om, labels, n, buf);
}

int uk_om_u64(struct uk_om *om, const char *name, enum uk_om_type type,
	      const char *help, uint64_t v)
{
	uk_om_family(om, name, type, help);
	return uk_om_sample_u64(om, NULL, 0, v);
}
