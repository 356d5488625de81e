// SPDX-License-Identifier: GPL-2.0
/* Times as people write and read them, see time.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "time.h"
#include "util.h"
#include "why.h"

/* systemd's units; the short ones are the only ones of UK_SPAN_UNITS. */
static const struct {
	const char *name;
	uint64_t usec;
	bool short_form;
} uk_units[] = {
	{ "us", 1, false },
	{ "usec", 1, false },
	{ "ms", UK_USEC_PER_MSEC, true },
	{ "msec", UK_USEC_PER_MSEC, false },
	{ "s", UK_USEC_PER_SEC, true },
	{ "sec", UK_USEC_PER_SEC, false },
	{ "second", UK_USEC_PER_SEC, false },
	{ "seconds", UK_USEC_PER_SEC, false },
	{ "m", UK_USEC_PER_MINUTE, true },
	{ "min", UK_USEC_PER_MINUTE, false },
	{ "minute", UK_USEC_PER_MINUTE, false },
	{ "minutes", UK_USEC_PER_MINUTE, false },
	{ "h", UK_USEC_PER_HOUR, true },
	{ "hr", UK_USEC_PER_HOUR, false },
	{ "hour", UK_USEC_PER_HOUR, false },
	{ "hours", UK_USEC_PER_HOUR, false },
	{ "d", UK_USEC_PER_DAY, true },
	{ "day", UK_USEC_PER_DAY, false },
	{ "days", UK_USEC_PER_DAY, false },
	{ "w", UK_USEC_PER_WEEK, false },
	{ "week", UK_USEC_PER_WEEK, false },
	{ "weeks", UK_USEC_PER_WEEK, false },
	{ "M", UK_USEC_PER_MONTH, false },
	{ "month", UK_USEC_PER_MONTH, false },
	{ "months", UK_USEC_PER_MONTH, false },
	{ "y", UK_USEC_PER_YEAR, false },
	{ "year", UK_USEC_PER_YEAR, false },
	{ "years", UK_USEC_PER_YEAR, false },
};

static int unit_usec(const char *s, size_t len, unsigned int flags,
		     uint64_t *ret)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_units); i++) {
		if (strlen(uk_units[i].name) == len &&
		    !memcmp(uk_units[i].name, s, len) &&
		    (uk_units[i].short_form || (flags & UK_SPAN_ALL_UNITS))) {
			*ret = uk_units[i].usec;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

int uk_time_parse_span(const char *s, unsigned int flags, uint64_t *ret,
		       bool *ago, char *why, size_t whylen)
{
	bool loose = flags & UK_SPAN_LOOSE;
	uint64_t total = 0;
	bool any = false;

	if (!s)
		goto bad;
	if (loose)
		s = skip_spaces(s);
	while (*s) {
		uint64_t whole = 0, frac = 0, scale = 1, unit, v;
		const char *w;

		if (ago && !strcmp(s, "ago")) {
			*ago = true;
			break;
		}
		if (any && !loose)
			goto bad;
		if (!isdigit((unsigned char)*s) && !(loose && *s == '.'))
			goto bad;
		for (; isdigit((unsigned char)*s); s++) {
			if (whole > (UINT64_MAX - 9) / 10)
				goto range;
			whole = whole * 10 + (uint64_t)(*s - '0');
		}
		if (*s == '.') {
			s++;
			if (!(flags & UK_SPAN_FRACTION) ||
			    !isdigit((unsigned char)*s))
				goto bad;
			/* Past 9 digits the fraction cannot matter. */
			for (; isdigit((unsigned char)*s); s++) {
				if (scale < 1000000000ULL) {
					frac = frac * 10 + (uint64_t)(*s - '0');
					scale *= 10;
				}
			}
		}
		if (loose)
			s = skip_spaces(s);
		for (w = s; isalpha((unsigned char)*s); s++)
			;
		if (w == s || (ago && !strcmp(w, "ago"))) {
			/* A bare number is seconds: "90", "90 ago". */
			unit = UK_USEC_PER_SEC;
			s = w;
		} else if (!(flags & UK_SPAN_UNITS)) {
			goto bad;
		} else if (unit_usec(w, (size_t)(s - w), flags, &unit) < 0) {
			uk_why(why, whylen, "unknown time unit \"%.*s\"",
			       (int)(s - w > 16 ? 16 : s - w), w);
			return -EINVAL;
		}
		if (whole && unit > UINT64_MAX / whole)
			goto range;
		/* frac * unit could overflow: scale divides in two steps */
		v = whole * unit + unit / scale * frac +
		    unit % scale * frac / scale;
		if (v > UINT64_MAX - total)
			goto range;
		total += v;
		any = true;
		if (loose)
			s = skip_spaces(s);
	}
	if (!any)
		goto bad;
	*ret = total;
	return 0;
bad:
	uk_why(why, whylen, "not a time span");
	return -EINVAL;
range:
	uk_why(why, whylen, "time span out of range");
	return -ERANGE;
}

/* 1 to @max digits at *p into *v; moves past them. */
static bool read_num(const char **p, int min, int max, int *v)
{
	const char *s = *p;
	int n = 0, val = 0;

	while (isdigit((unsigned char)*s) && n < max) {
		val = val * 10 + (*s - '0');
		s++;
		n++;
	}
	if (n < min || isdigit((unsigned char)*s))
		return false;
	*p = s;
	*v = val;
	return true;
}

/* "HH:MM[:SS[.frac]]" at *p; moves past it. */
static bool read_clock(const char **p, struct tm *tm, uint64_t *usec)
{
	const char *s = *p;

	tm->tm_sec = 0;
	*usec = 0;
	if (!read_num(&s, 1, 2, &tm->tm_hour) || *s++ != ':' ||
	    !read_num(&s, 2, 2, &tm->tm_min))
		return false;
	if (*s == ':') {
		s++;
		if (!read_num(&s, 2, 2, &tm->tm_sec))
			return false;
		if (*s == '.') {
			uint64_t scale = UK_USEC_PER_SEC;

			s++;
			if (!isdigit((unsigned char)*s))
				return false;
			for (; isdigit((unsigned char)*s); s++) {
				if (scale > 1) {
					scale /= 10;
					*usec += (uint64_t)(*s - '0') * scale;
				}
			}
		}
	}
	if (tm->tm_hour > 23 || tm->tm_min > 59 || tm->tm_sec > 60)
		return false;
	*p = s;
	return true;
}

static int to_usec(time_t t, uint64_t frac, uint64_t *ret, char *why,
		   size_t whylen)
{
	if (t < 0 || (uint64_t)t > (UINT64_MAX - frac) / UK_USEC_PER_SEC) {
		uk_why(why, whylen, "time out of range");
		return -ERANGE;
	}
	*ret = (uint64_t)t * UK_USEC_PER_SEC + frac;
	return 0;
}

/* Local midnight @days after that of @now_usec. */
static int midnight(uint64_t now_usec, int days, uint64_t *ret, char *why,
		    size_t whylen)
{
	time_t now = (time_t)(now_usec / UK_USEC_PER_SEC), t;
	struct tm tm;

	if (!localtime_r(&now, &tm)) {
		uk_why(why, whylen, "time out of range");
		return -ERANGE;
	}
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	return to_usec(t, 0, ret, why, whylen);
}

static int parse_absolute(const char *s, uint64_t now_usec, uint64_t *ret,
			  char *why, size_t whylen)
{
	size_t len = strlen(s);
	bool utc = len > 4 && !strcmp(s + len - 4, " UTC");
	struct tm tm = { 0 }, want;
	uint64_t frac = 0;
	char buf[64];
	const char *p;
	time_t t;

	if (len >= sizeof(buf))
		goto bad;
	memcpy(buf, s, len + 1);
	if (utc)
		buf[len - 4] = '\0';
	p = buf;
	if (isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) &&
	    isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
	    p[4] == '-') {
		if (!read_num(&p, 4, 4, &tm.tm_year) || *p++ != '-' ||
		    !read_num(&p, 1, 2, &tm.tm_mon) || *p++ != '-' ||
		    !read_num(&p, 1, 2, &tm.tm_mday))
			goto bad;
		if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
		    tm.tm_mday > 31)
			goto bad;
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		if (*p == ' ' || *p == 'T') {
			p++;
			if (!read_clock(&p, &tm, &frac))
				goto bad;
		}
	} else {
		/* A clock time alone is today's. */
		time_t now = (time_t)(now_usec / UK_USEC_PER_SEC);
		struct tm today;

		if (!(utc ? gmtime_r(&now, &today) : localtime_r(&now, &today)))
			goto bad;
		if (!read_clock(&p, &tm, &frac))
			goto bad;
		tm.tm_year = today.tm_year;
		tm.tm_mon = today.tm_mon;
		tm.tm_mday = today.tm_mday;
	}
	if (*p)
		goto bad;
	tm.tm_isdst = -1;
	want = tm;
	t = utc ? timegm(&tm) : mktime(&tm);
	/* mktime() takes 2026-02-30 for 2026-03-02: refuse that. */
	if (tm.tm_mday != want.tm_mday || tm.tm_mon != want.tm_mon ||
	    tm.tm_year != want.tm_year) {
		uk_why(why, whylen, "\"%s\": no such date", s);
		return -EINVAL;
	}
	return to_usec(t, frac, ret, why, whylen);
bad:
	uk_why(why, whylen,
		"\"%.64s\" is not a time like \"2026-12-03 07:12:01\", \"today\", \"-1h\", \"1h ago\"",
		s);
	return -EINVAL;
}

int uk_time_parse(const char *s, uint64_t now_usec, uint64_t *ret,
		  char *why, size_t whylen)
{
	uint64_t span;
	size_t len;
	bool ago = false;
	int r;

	if (!s || !*s) {
		uk_why(why, whylen, "empty time");
		return -EINVAL;
	}
	len = strlen(s);
	if (!strcmp(s, "now")) {
		*ret = now_usec;
		return 0;
	}
	if (!strcmp(s, "today"))
		return midnight(now_usec, 0, ret, why, whylen);
	if (!strcmp(s, "yesterday"))
		return midnight(now_usec, -1, ret, why, whylen);
	if (!strcmp(s, "tomorrow"))
		return midnight(now_usec, 1, ret, why, whylen);
	if (s[0] == '@') {
		unsigned long long sec;
		char *end;

		if (!isdigit((unsigned char)s[1]))
			goto bad;
		errno = 0;
		sec = strtoull(s + 1, &end, 10);
		if (*end)
			goto bad;
		if (errno || sec > UINT64_MAX / UK_USEC_PER_SEC) {
			uk_why(why, whylen, "time out of range");
			return -ERANGE;
		}
		*ret = sec * UK_USEC_PER_SEC;
		return 0;
	}
	if (s[0] == '+' || s[0] == '-') {
		r = uk_time_parse_span(s + 1, UK_SPAN_SYSTEMD, &span, NULL, why,
				       whylen);
		if (r < 0)
			return r;
		goto relative;
	}
	if (len > 4 && !strcmp(s + len - 3, "ago")) {
		r = uk_time_parse_span(s, UK_SPAN_SYSTEMD, &span, &ago, why,
				       whylen);
		if (r < 0)
			return r;
		if (ago)
			goto relative;
		goto bad;
	}
	return parse_absolute(s, now_usec, ret, why, whylen);

relative:
	if (s[0] == '+') {
		if (span > UINT64_MAX - now_usec)
			goto range;
		*ret = now_usec + span;
	} else {
		if (span > now_usec)
			goto range;
		*ret = now_usec - span;
	}
	return 0;
range:
	uk_why(why, whylen, "\"%.64s\" is out of range", s);
	return -ERANGE;
bad:
	uk_why(why, whylen,
		"\"%.64s\" is not a time like \"2026-12-03 07:12:01\", \"today\", \"-1h\", \"1h ago\"",
		s);
	return -EINVAL;
}

char *uk_time_format(uint64_t usec, char *buf, size_t len)
{
	time_t t = (time_t)(usec / UK_USEC_PER_SEC);
	struct tm tm;

	if (!len)
		return buf;
	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%a %Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, len, "n/a");
	return buf;
}

char *uk_time_format_relative(uint64_t usec, uint64_t now_usec, char *buf,
			      size_t len)
{
	const char *s = usec > now_usec ? "left" : "ago";
	uint64_t d = usec > now_usec ? usec - now_usec : now_usec - usec;

	if (d >= UK_USEC_PER_YEAR)
		snprintf(buf, len, "%" PRIu64 " years %" PRIu64 " months %s",
			 d / UK_USEC_PER_YEAR, d % UK_USEC_PER_YEAR / UK_USEC_PER_MONTH,
			 s);
	else if (d >= UK_USEC_PER_MONTH)
		snprintf(buf, len, "%" PRIu64 " months %" PRIu64 " days %s",
			 d / UK_USEC_PER_MONTH, d % UK_USEC_PER_MONTH / UK_USEC_PER_DAY,
			 s);
	else if (d >= UK_USEC_PER_WEEK)
		snprintf(buf, len, "%" PRIu64 " weeks %" PRIu64 " days %s",
			 d / UK_USEC_PER_WEEK, d % UK_USEC_PER_WEEK / UK_USEC_PER_DAY, s);
	else if (d >= 2 * UK_USEC_PER_DAY)
		snprintf(buf, len, "%" PRIu64 " days %s", d / UK_USEC_PER_DAY, s);
	else if (d >= 25 * UK_USEC_PER_HOUR)
		snprintf(buf, len, "1 day %" PRIu64 "h %s",
			 (d - UK_USEC_PER_DAY) / UK_USEC_PER_HOUR, s);
	else if (d >= 6 * UK_USEC_PER_HOUR)
		snprintf(buf, len, "%" PRIu64 "h %s", d / UK_USEC_PER_HOUR, s);
	else if (d >= UK_USEC_PER_HOUR)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "min %s",
			 d / UK_USEC_PER_HOUR, d % UK_USEC_PER_HOUR / UK_USEC_PER_MINUTE,
			 s);
	else if (d >= 5 * UK_USEC_PER_MINUTE)
		snprintf(buf, len, "%" PRIu64 "min %s", d / UK_USEC_PER_MINUTE, s);
	else if (d >= UK_USEC_PER_MINUTE)
		snprintf(buf, len, "%" PRIu64 "min %" PRIu64 "s %s",
			 d / UK_USEC_PER_MINUTE, d % UK_USEC_PER_MINUTE / UK_USEC_PER_SEC,
			 s);
	else if (d >= UK_USEC_PER_SEC)
		snprintf(buf, len, "%" PRIu64 "s %s", d / UK_USEC_PER_SEC, s);
	else if (d >= UK_USEC_PER_MSEC)
		snprintf(buf, len, "%" PRIu64 "ms %s", d / UK_USEC_PER_MSEC, s);
	else if (d > 0)
		snprintf(buf, len, "%" PRIu64 "us %s", d, s);
	else
		snprintf(buf, len, "now");
	return buf;
}

uint64_t uk_time_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * UK_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t uk_time_boot_to_real(uint64_t boot_ns, uint64_t real_now_ns,
			      uint64_t boot_now_ns)
{
	if (!boot_ns || boot_ns > boot_now_ns ||
	    boot_now_ns - boot_ns >= real_now_ns)
		return 0;
	return real_now_ns - (boot_now_ns - boot_ns);
}

size_t uk_time_format_date(uint64_t ns, bool usec, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / UK_NSEC_PER_SEC);
	struct tm tm;
	size_t n;
	int k;

	if (!len)
		return 0;
	if (!ns || !localtime_r(&sec, &tm) ||
	    !(n = strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))) {
		snprintf(buf, len, "-");
		return strlen(buf);
	}
	if (usec) {
		k = snprintf(buf + n, len - n, ".%06" PRIu64,
			     ns % UK_NSEC_PER_SEC / UK_NSEC_PER_USEC);
		if (k > 0)
			n += (size_t)k < len - n ? (size_t)k : len - n - 1;
	}
	return n;
}
