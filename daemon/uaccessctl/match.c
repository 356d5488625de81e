// SPDX-License-Identifier: GPL-2.0
/*
 * Matches, times and entry output of `uaccessctl list` and `show`; see
 * match.h.  No journal IO here.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/why.h"
#include "fleet.h"
#include "match.h"
#include "output.h"
#include "common/event.h"
#include "common/util.h"

#define USEC_PER_MSEC	UINT64_C(1000)
#define USEC_PER_SEC	UINT64_C(1000000)
#define USEC_PER_MINUTE	(UINT64_C(60) * USEC_PER_SEC)
#define USEC_PER_HOUR	(UINT64_C(60) * USEC_PER_MINUTE)
#define USEC_PER_DAY	(UINT64_C(24) * USEC_PER_HOUR)
#define USEC_PER_WEEK	(UINT64_C(7) * USEC_PER_DAY)
#define USEC_PER_MONTH	(UINT64_C(2629800) * USEC_PER_SEC)	/* 30.44 days */
#define USEC_PER_YEAR	(UINT64_C(31557600) * USEC_PER_SEC)	/* 365.25 days */

#define UK_PREFIX	"UACCESS_"
#define UK_PREFIX_LEN	(sizeof(UK_PREFIX) - 1)

/* ---- matches ---- */

/*
 * UACCESS_* fields written besides the event table's: the stack, the
 * site function and counts of event entries, and the fields of the
 * suppressed, loss and health entries (journal.c).
 */
static const char *const uk_extra_fields[] = {
	"stack", "stack_depth", "site_function", "site_events",
	"suppressed_count", "suppressed_total",
	"loss_reason", "loss_count", "loss_total", "loss_detail",
	"daemon_state",
};

static bool known_lower_field(const char *name, size_t len)
{
	const struct uk_field *f;
	size_t i;

	for (f = uk_event_fields; f->name; f++)
		if (strlen(f->name) == len && !memcmp(f->name, name, len))
			return true;
	for (i = 0; i < ARRAY_SIZE(uk_extra_fields); i++)
		if (strlen(uk_extra_fields[i]) == len &&
		    !memcmp(uk_extra_fields[i], name, len))
			return true;
	return false;
}

static bool is_field_name(const char *s, size_t len)
{
	size_t i;

	if (!len || isdigit((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_')
			return false;
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool is_symbol_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* "0x" and at least one hex digit at *p; moves past them. */
static bool skip_hex(const char **p)
{
	const char *s = *p;

	if (s[0] != '0' || s[1] != 'x' || !isxdigit((unsigned char)s[2]))
		return false;
	for (s += 2; isxdigit((unsigned char)*s); s++)
		;
	*p = s;
	return true;
}

/* What may follow the function in %pB form: "+0x1c/0x80", " [mod]". */
static bool symbol_tail_ok(const char *s)
{
	if (*s == '+') {
		s++;
		if (!skip_hex(&s))
			return false;
		if (*s == '/') {
			s++;
			if (!skip_hex(&s))
				return false;
		}
	}
	if (*s == ' ') {
		s++;
		if (*s++ != '[' || *s == ']')
			return false;
		for (; *s && *s != ']'; s++)
			if (!is_symbol_char(*s) && *s != '-')
				return false;
		if (*s++ != ']')
			return false;
	}
	return *s == '\0';
}

static int match_field(const char *arg, const char *eq, struct uk_match *m,
		       char *why, size_t whylen)
{
	size_t flen = (size_t)(eq - arg), i;
	int n;

	if (!flen) {
		uk_why(why, whylen, "\"%s\": no field name before '='", arg);
		return -EINVAL;
	}
	m->type = UK_MATCH_FIELD;
	if (is_field_name(arg, flen)) {
		if (flen > UK_MATCH_FIELD_MAX) {
			uk_why(why, whylen,
				"field name \"%.*s...\" longer than %d bytes",
				16, arg, UK_MATCH_FIELD_MAX);
			return -EINVAL;
		}
		snprintf(m->text, sizeof(m->text), "%s", arg);
		m->field_len = flen;
		return 0;
	}
	if (!known_lower_field(arg, flen)) {
		uk_why(why, whylen,
			"\"%.*s\" is not a journal field (upper case: UACCESS_PID=101) nor a field of uaccessd's entries (seq, pid, comm, helper, ...)",
			(int)(flen > 64 ? 64 : flen), arg);
		return -EINVAL;
	}
	n = snprintf(m->text, sizeof(m->text), UK_PREFIX "%s", arg);
	if (n < 0 || (size_t)n >= sizeof(m->text)) {
		uk_why(why, whylen, "match longer than %d bytes",
			UK_MATCH_MAX - 1);
		return -ENAMETOOLONG;
	}
	for (i = UK_PREFIX_LEN; i < UK_PREFIX_LEN + flen; i++)
		m->text[i] = (char)toupper((unsigned char)m->text[i]);
	m->field_len = UK_PREFIX_LEN + flen;
	return 0;
}

int uk_match_parse(const char *arg, struct uk_match *m, char *why,
		   size_t whylen)
{
	const char *eq;
	size_t flen;

	memset(m, 0, sizeof(*m));
	if (!arg || !arg[0]) {
		uk_why(why, whylen, "empty match");
		return -EINVAL;
	}
	if (strlen(arg) >= UK_MATCH_MAX) {
		uk_why(why, whylen, "match longer than %d bytes",
			UK_MATCH_MAX - 1);
		return -ENAMETOOLONG;
	}
	if (all_digits(arg)) {
		unsigned long long pid;

		errno = 0;
		pid = strtoull(arg, NULL, 10);
		if (errno || pid > UINT32_MAX) {
			uk_why(why, whylen, "pid %s out of range", arg);
			return -ERANGE;
		}
		m->type = UK_MATCH_PID;
		snprintf(m->text, sizeof(m->text), UK_PREFIX "PID=%llu", pid);
		m->field_len = UK_PREFIX_LEN + 3;
		return 0;
	}
	eq = strchr(arg, '=');
	if (eq)
		return match_field(arg, eq, m, why, whylen);

	flen = strcspn(arg, "+ ");
	if (!flen || isdigit((unsigned char)arg[0]) ||
	    !symbol_tail_ok(arg + flen)) {
		uk_why(why, whylen,
			"\"%s\" is not a pid, FIELD=VALUE or function name", arg);
		return -EINVAL;
	}
	for (size_t i = 0; i < flen; i++) {
		if (!is_symbol_char(arg[i])) {
			uk_why(why, whylen,
				"\"%s\" is not a pid, FIELD=VALUE or function name",
				arg);
			return -EINVAL;
		}
	}
	if (flen >= UK_SYMBOL_LEN) {
		uk_why(why, whylen, "function name longer than %d bytes",
			UK_SYMBOL_LEN - 1);
		return -ENAMETOOLONG;
	}
	m->type = UK_MATCH_FUNCTION;
	snprintf(m->text, sizeof(m->text), UK_PREFIX "SITE_FUNCTION=%.*s",
		 (int)flen, arg);
	m->field_len = UK_PREFIX_LEN + 13;
	return 0;
}

bool uk_match_is_field(const struct uk_match *m, const char *field)
{
	return strlen(field) == m->field_len &&
	       !memcmp(m->text, field, m->field_len);
}

/* ---- times ---- */

static const struct {
	const char *name;
	uint64_t usec;
} uk_units[] = {
	{ "us", 1 }, { "usec", 1 },
	{ "ms", USEC_PER_MSEC }, { "msec", USEC_PER_MSEC },
	{ "s", USEC_PER_SEC }, { "sec", USEC_PER_SEC },
	{ "second", USEC_PER_SEC }, { "seconds", USEC_PER_SEC },
	{ "m", USEC_PER_MINUTE }, { "min", USEC_PER_MINUTE },
	{ "minute", USEC_PER_MINUTE }, { "minutes", USEC_PER_MINUTE },
	{ "h", USEC_PER_HOUR }, { "hr", USEC_PER_HOUR },
	{ "hour", USEC_PER_HOUR }, { "hours", USEC_PER_HOUR },
	{ "d", USEC_PER_DAY }, { "day", USEC_PER_DAY },
	{ "days", USEC_PER_DAY },
	{ "w", USEC_PER_WEEK }, { "week", USEC_PER_WEEK },
	{ "weeks", USEC_PER_WEEK },
	{ "M", USEC_PER_MONTH }, { "month", USEC_PER_MONTH },
	{ "months", USEC_PER_MONTH },
	{ "y", USEC_PER_YEAR }, { "year", USEC_PER_YEAR },
	{ "years", USEC_PER_YEAR },
};

static int unit_usec(const char *s, size_t len, uint64_t *ret)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_units); i++) {
		if (strlen(uk_units[i].name) == len &&
		    !memcmp(uk_units[i].name, s, len)) {
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

/*
 * A time span, "1h 30min", "2.5d", "90" (seconds), up to the end of @s or
 * a trailing " ago" when @ago is given (*ago set if it was there).
 */
static int parse_span(const char *s, uint64_t *ret, bool *ago, char *why,
		      size_t whylen)
{
	uint64_t total = 0;
	bool any = false;

	s = skip_spaces(s);
	while (*s) {
		uint64_t whole = 0, frac = 0, scale = 1, unit, v;
		const char *w;

		if (ago && !strcmp(s, "ago")) {
			*ago = true;
			break;
		}
		if (!isdigit((unsigned char)*s) && *s != '.')
			goto bad;
		for (; isdigit((unsigned char)*s); s++) {
			if (whole > (UINT64_MAX - 9) / 10)
				goto range;
			whole = whole * 10 + (uint64_t)(*s - '0');
		}
		if (*s == '.') {
			s++;
			if (!isdigit((unsigned char)*s))
				goto bad;
			/* Past 9 digits the fraction cannot matter. */
			for (; isdigit((unsigned char)*s); s++) {
				if (scale < 1000000000ULL) {
					frac = frac * 10 + (uint64_t)(*s - '0');
					scale *= 10;
				}
			}
		}
		s = skip_spaces(s);
		for (w = s; isalpha((unsigned char)*s); s++)
			;
		if (w == s || (ago && !strcmp(w, "ago"))) {
			/* A bare number is seconds: "90", "90 ago". */
			unit = USEC_PER_SEC;
			s = w;
		} else if (unit_usec(w, (size_t)(s - w), &unit) < 0) {
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
			uint64_t scale = USEC_PER_SEC;

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
	if (t < 0 || (uint64_t)t > (UINT64_MAX - frac) / USEC_PER_SEC) {
		uk_why(why, whylen, "time out of range");
		return -ERANGE;
	}
	*ret = (uint64_t)t * USEC_PER_SEC + frac;
	return 0;
}

/* Local midnight @days after that of @now_usec. */
static int midnight(uint64_t now_usec, int days, uint64_t *ret, char *why,
		    size_t whylen)
{
	time_t now = (time_t)(now_usec / USEC_PER_SEC), t;
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
		time_t now = (time_t)(now_usec / USEC_PER_SEC);
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
		if (errno || sec > UINT64_MAX / USEC_PER_SEC) {
			uk_why(why, whylen, "time out of range");
			return -ERANGE;
		}
		*ret = sec * USEC_PER_SEC;
		return 0;
	}
	if (s[0] == '+' || s[0] == '-') {
		r = parse_span(s + 1, &span, NULL, why, whylen);
		if (r < 0)
			return r;
		goto relative;
	}
	if (len > 4 && !strcmp(s + len - 3, "ago")) {
		r = parse_span(s, &span, &ago, why, whylen);
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
	time_t t = (time_t)(usec / USEC_PER_SEC);
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

	if (d >= USEC_PER_YEAR)
		snprintf(buf, len, "%" PRIu64 " years %" PRIu64 " months %s",
			 d / USEC_PER_YEAR, d % USEC_PER_YEAR / USEC_PER_MONTH,
			 s);
	else if (d >= USEC_PER_MONTH)
		snprintf(buf, len, "%" PRIu64 " months %" PRIu64 " days %s",
			 d / USEC_PER_MONTH, d % USEC_PER_MONTH / USEC_PER_DAY,
			 s);
	else if (d >= USEC_PER_WEEK)
		snprintf(buf, len, "%" PRIu64 " weeks %" PRIu64 " days %s",
			 d / USEC_PER_WEEK, d % USEC_PER_WEEK / USEC_PER_DAY, s);
	else if (d >= 2 * USEC_PER_DAY)
		snprintf(buf, len, "%" PRIu64 " days %s", d / USEC_PER_DAY, s);
	else if (d >= 25 * USEC_PER_HOUR)
		snprintf(buf, len, "1 day %" PRIu64 "h %s",
			 (d - USEC_PER_DAY) / USEC_PER_HOUR, s);
	else if (d >= 6 * USEC_PER_HOUR)
		snprintf(buf, len, "%" PRIu64 "h %s", d / USEC_PER_HOUR, s);
	else if (d >= USEC_PER_HOUR)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "min %s",
			 d / USEC_PER_HOUR, d % USEC_PER_HOUR / USEC_PER_MINUTE,
			 s);
	else if (d >= 5 * USEC_PER_MINUTE)
		snprintf(buf, len, "%" PRIu64 "min %s", d / USEC_PER_MINUTE, s);
	else if (d >= USEC_PER_MINUTE)
		snprintf(buf, len, "%" PRIu64 "min %" PRIu64 "s %s",
			 d / USEC_PER_MINUTE, d % USEC_PER_MINUTE / USEC_PER_SEC,
			 s);
	else if (d >= USEC_PER_SEC)
		snprintf(buf, len, "%" PRIu64 "s %s", d / USEC_PER_SEC, s);
	else if (d >= USEC_PER_MSEC)
		snprintf(buf, len, "%" PRIu64 "ms %s", d / USEC_PER_MSEC, s);
	else if (d > 0)
		snprintf(buf, len, "%" PRIu64 "us %s", d, s);
	else
		snprintf(buf, len, "now");
	return buf;
}

/* ---- entries ---- */

void uk_entry_init(struct uk_entry *e)
{
	memset(e, 0, sizeof(*e));
}

void uk_entry_release(struct uk_entry *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->fields[i].name);
		free(e->fields[i].value);
	}
	free(e->fields);
	free(e->cursor);
	uk_entry_init(e);
}

int uk_entry_add(struct uk_entry *e, const void *data, size_t len)
{
	const char *eq = memchr(data, '=', len);
	struct uk_entry_field *f;
	size_t nlen;

	if (!eq || eq == data)
		return -EINVAL;
	nlen = (size_t)(eq - (const char *)data);
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 32;

		f = reallocarray(e->fields, cap, sizeof(*f));
		if (!f)
			return -ENOMEM;
		e->fields = f;
		e->cap = cap;
	}
	f = &e->fields[e->n];
	f->name = strndup(data, nlen);
	f->value_len = len - nlen - 1;
	f->value = malloc(f->value_len + 1);
	if (!f->name || !f->value) {
		free(f->name);
		free(f->value);
		return -ENOMEM;
	}
	memcpy(f->value, eq + 1, f->value_len);
	f->value[f->value_len] = '\0';
	e->n++;
	return 0;
}

static const struct uk_entry_field *entry_field(const struct uk_entry *e,
						const char *name)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (!strcmp(e->fields[i].name, name))
			return &e->fields[i];
	return NULL;
}

const char *uk_entry_get(const struct uk_entry *e, const char *name,
			 size_t *len)
{
	const struct uk_entry_field *f = entry_field(e, name);

	if (len)
		*len = f ? f->value_len : 0;
	return f ? f->value : NULL;
}

/* The value as a C string: NULL if absent or holding a NUL byte. */
static const char *entry_str(const struct uk_entry *e, const char *name)
{
	const struct uk_entry_field *f = entry_field(e, name);

	return f && strlen(f->value) == f->value_len ? f->value : NULL;
}

/* ---- JSON ---- */

/* Counts written by journal.c besides the event table's numbers. */
static const char *const uk_numeric_extra[] = {
	"UACCESS_STACK_DEPTH", "UACCESS_SITE_EVENTS",
	"UACCESS_SUPPRESSED_COUNT", "UACCESS_SUPPRESSED_TOTAL",
	"UACCESS_LOSS_COUNT", "UACCESS_LOSS_TOTAL",
};

/* Keys the JSON object has whatever the entry holds. */
static const char *const uk_json_fixed[] = {
	"time", "hostname", "machine_id", "boot_id", "message_id", "message",
	"priority", "cursor", "catalog",
};

enum num_kind { NUM_NONE, NUM_UNSIGNED, NUM_SIGNED };

static enum num_kind numeric_kind(const char *name)
{
	const struct uk_field *f;
	size_t i;

	for (f = uk_event_fields; f->name; f++) {
		if (strcmp(f->journal, name))
			continue;
		if (f->type == UK_FT_U32 || f->type == UK_FT_U64)
			return NUM_UNSIGNED;
		if (f->type == UK_FT_S32)
			return NUM_SIGNED;
		return NUM_NONE;
	}
	for (i = 0; i < ARRAY_SIZE(uk_numeric_extra); i++)
		if (!strcmp(uk_numeric_extra[i], name))
			return NUM_UNSIGNED;
	return NUM_NONE;
}

/* A number, when the value is exactly one; a string otherwise. */
static void json_value(struct uk_json *j, const struct uk_entry_field *f,
		       enum num_kind kind)
{
	const char *v = f->value;
	char *end;

	if (kind != NUM_NONE && f->value_len && strlen(v) == f->value_len &&
	    (isdigit((unsigned char)v[0]) ||
	     (kind == NUM_SIGNED && v[0] == '-' &&
	      isdigit((unsigned char)v[1])))) {
		errno = 0;
		if (kind == NUM_UNSIGNED) {
			unsigned long long u = strtoull(v, &end, 10);

			if (!errno && !*end) {
				uk_json_u64(j, u);
				return;
			}
		} else {
			long long s = strtoll(v, &end, 10);

			if (!errno && !*end) {
				uk_json_s64(j, s);
				return;
			}
		}
	}
	uk_json_strn(j, v, f->value_len);
}

static void json_stack(struct uk_json *j, const struct uk_entry_field *f)
{
	const char *p = f->value, *end = f->value + f->value_len;

	uk_json_array_begin(j);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		uk_json_strn(j, p, n);
		p += n + 1;
	}
	uk_json_array_end(j);
}

static void json_kv_field(struct uk_json *j, const struct uk_entry *e,
			  const char *key, const char *field)
{
	const struct uk_entry_field *f = entry_field(e, field);

	uk_json_key(j, key);
	if (f)
		uk_json_strn(j, f->value, f->value_len);
	else
		uk_json_null(j);
}

static bool is_fixed_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_json_fixed); i++)
		if (!strcmp(uk_json_fixed[i], key))
			return true;
	return false;
}

void uk_entry_json(struct uk_json *j, const struct uk_entry *e, bool full,
		   const char *catalog)
{
	const struct uk_entry_field *prio = entry_field(e, "PRIORITY");
	char key[UK_MATCH_FIELD_MAX + 1];
	size_t i, k;

	uk_json_object_begin(j);
	uk_json_kv_u64(j, "time", e->realtime_usec);
	json_kv_field(j, e, "hostname", "_HOSTNAME");
	json_kv_field(j, e, "machine_id", "_MACHINE_ID");
	json_kv_field(j, e, "boot_id", "_BOOT_ID");
	json_kv_field(j, e, "message_id", "MESSAGE_ID");
	json_kv_field(j, e, "message", "MESSAGE");
	uk_json_key(j, "priority");
	if (prio)
		json_value(j, prio, NUM_UNSIGNED);
	else
		uk_json_null(j);
	for (i = 0; i < e->n; i++) {
		const struct uk_entry_field *f = &e->fields[i];
		const char *rest = f->name + UK_PREFIX_LEN;
		size_t n;

		if (strncmp(f->name, UK_PREFIX, UK_PREFIX_LEN) || !*rest)
			continue;
		/* A field repeated in the entry: its first value only. */
		if (entry_field(e, f->name) != f)
			continue;
		n = strlen(rest);
		if (n >= sizeof(key))
			continue;
		for (k = 0; k <= n; k++)
			key[k] = (char)tolower((unsigned char)rest[k]);
		if (is_fixed_key(key))
			continue;
		uk_json_key(j, key);
		if (!strcmp(f->name, "UACCESS_STACK"))
			json_stack(j, f);
		else
			json_value(j, f, numeric_kind(f->name));
	}
	if (full) {
		uk_json_kv_str(j, "cursor", e->cursor);
		if (catalog)
			uk_json_kv_str(j, "catalog", catalog);
	}
	uk_json_object_end(j);
}

/* ---- text ---- */

/*
 * @len bytes as a terminal should see them, NUL-terminated in @out (cut to
 * @outlen): uaccessctl's one rule (uk_cli_sanitize(): control characters
 * and invalid UTF-8 become '?'), since a kernel symbol or a task name can
 * hold anything.  A value with a NUL byte is shown up to it.
 */
static void clean(const char *s, size_t len, char *out, size_t outlen)
{
	char *tmp;

	if (!outlen)
		return;
	tmp = strndup(s, len < outlen ? len : outlen - 1);
	if (!tmp) {
		out[0] = '\0';
		return;
	}
	uk_cli_sanitize(tmp, out, outlen);
	free(tmp);
}

/* A printable copy of @s (len bytes); NULL on ENOMEM. */
static char *clean_dup(const char *s, size_t len)
{
	char *out = malloc(len + 1);

	if (out)
		clean(s, len, out, len + 1);
	return out;
}

#define UK_LABEL_WIDTH	16

static void put_line(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put_line(FILE *f, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%*s: ", UK_LABEL_WIDTH, label);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* A field's value, printable, in a buffer of the caller's. */
static const char *show_val(const struct uk_entry *e, const char *name,
			    char *buf, size_t len)
{
	const struct uk_entry_field *f = entry_field(e, name);

	if (!f)
		return NULL;
	clean(f->value, f->value_len, buf, len);
	return buf;
}

/* Fields the block shows under labels of its own (or folds in). */
static const char *const uk_show_known[] = {
	"UACCESS_SEQ", "UACCESS_KIND", "UACCESS_HELPER", "UACCESS_DIRECTION",
	"UACCESS_ADDRESS", "UACCESS_ADDR_CLASS", "UACCESS_SIZE",
	"UACCESS_SITE_SYMBOL", "UACCESS_SITE_IP", "UACCESS_SITE_ID",
	"UACCESS_SITE_FUNCTION", "UACCESS_PID", "UACCESS_COMM",
	"UACCESS_TGID", "UACCESS_UID", "UACCESS_SYSCALL_NR", "UACCESS_CPU",
	"UACCESS_CONTEXT", "UACCESS_COUNT", "UACCESS_SUPPRESSED",
	"UACCESS_SITE_EVENTS", "UACCESS_TS_REAL", "UACCESS_TS_BOOT",
	"UACCESS_STACK_HASH", "UACCESS_STACK", "UACCESS_STACK_DEPTH",
};

static bool show_known(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_show_known); i++)
		if (!strcmp(uk_show_known[i], name))
			return true;
	return false;
}

/* "UACCESS_LOSS_REASON" is labelled "Loss reason". */
static void generic_label(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name + UK_PREFIX_LEN);
	for (i = 0; buf[i]; i++) {
		if (buf[i] == '_')
			buf[i] = ' ';
		else if (i)
			buf[i] = (char)tolower((unsigned char)buf[i]);
	}
}

static void show_kernel_time(FILE *f, const struct uk_entry *e)
{
	const char *real = entry_str(e, "UACCESS_TS_REAL");
	const char *boot = entry_str(e, "UACCESS_TS_BOOT");
	char t[64] = "", b[64] = "", v[64];
	unsigned long long ns;
	char *end;

	if (!real && !boot)
		return;
	if (real) {
		errno = 0;
		ns = strtoull(real, &end, 10);
		if (errno || *end || end == real)
			clean(real, strlen(real), t, sizeof(t));
		else
			uk_time_format(ns / 1000, t, sizeof(t));
	}
	if (boot) {
		errno = 0;
		ns = strtoull(boot, &end, 10);
		if (errno || *end || end == boot)
			snprintf(b, sizeof(b), "boot time %s",
				 show_val(e, "UACCESS_TS_BOOT", v, sizeof(v)));
		else
			snprintf(b, sizeof(b), "%llu.%09llus after boot",
				 ns / 1000000000ULL, ns % 1000000000ULL);
	}
	if (real && boot)
		put_line(f, "Kernel time", "%s (%s)", t, b);
	else
		put_line(f, "Kernel time", "%s", real ? t : b);
}

static void show_stack(FILE *f, const struct uk_entry *e)
{
	const struct uk_entry_field *st = entry_field(e, "UACCESS_STACK");
	char frame[4 * UK_SYMBOL_LEN + 1], depth[32];
	const char *p, *end;
	unsigned int i = 0;

	if (!st) {
		if (show_val(e, "UACCESS_STACK_DEPTH", depth, sizeof(depth)))
			put_line(f, "Stack depth", "%s", depth);
		return;
	}
	p = st->value;
	end = st->value + st->value_len;
	while (p < end || i == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		clean(p, n, frame, sizeof(frame));
		fprintf(f, "%*s%c #%u %s\n", UK_LABEL_WIDTH, i ? "" : "Stack",
			i ? ' ' : ':', i, frame);
		i++;
		p += n + 1;
	}
}

int uk_entry_show(FILE *f, const struct uk_entry *e, uint64_t now_usec,
		  const char *catalog)
{
	char a[UK_SYMBOL_LEN * 4 + 1], b[UK_SYMBOL_LEN * 4 + 1];
	char c[UK_SYMBOL_LEN * 4 + 1], t[64], rel[64];
	char val[4096], label[UK_MATCH_FIELD_MAX + 1];
	const char *pid, *comm;
	size_t i;

	put_line(f, "Time", "%s (%s)",
		 uk_time_format(e->realtime_usec, t, sizeof(t)),
		 uk_time_format_relative(e->realtime_usec, now_usec, rel,
					 sizeof(rel)));
	if (show_val(e, "_HOSTNAME", a, sizeof(a)))
		put_line(f, "Hostname", "%s", a);
	if (show_val(e, "_MACHINE_ID", a, sizeof(a)))
		put_line(f, "Machine ID", "%s", a);
	if (show_val(e, "_BOOT_ID", a, sizeof(a)))
		put_line(f, "Boot ID", "%s", a);
	if (show_val(e, "MESSAGE", val, sizeof(val)))
		put_line(f, "Message", "%s", val);
	if (show_val(e, "UACCESS_SEQ", a, sizeof(a)))
		put_line(f, "Seq", "%s", a);
	if (show_val(e, "UACCESS_KIND", a, sizeof(a)))
		put_line(f, "Kind", "%s", a);
	if (show_val(e, "UACCESS_HELPER", a, sizeof(a)))
		put_line(f, "Helper", "%s", a);
	if (show_val(e, "UACCESS_DIRECTION", a, sizeof(a)))
		put_line(f, "Direction", "%s", a);

	if (show_val(e, "UACCESS_ADDRESS", a, sizeof(a))) {
		const char *cls = show_val(e, "UACCESS_ADDR_CLASS", b,
					   sizeof(b));
		const char *size = show_val(e, "UACCESS_SIZE", c, sizeof(c));

		put_line(f, "Address", "%s%s%s%s%s%s", a,
			 cls ? " (" : "", cls ? cls : "", cls ? ")" : "",
			 size ? ", size " : "", size ? size : "");
	} else {
		if (show_val(e, "UACCESS_ADDR_CLASS", b, sizeof(b)))
			put_line(f, "Address class", "%s", b);
		if (show_val(e, "UACCESS_SIZE", c, sizeof(c)))
			put_line(f, "Size", "%s", c);
	}

	if (show_val(e, "UACCESS_SITE_SYMBOL", a, sizeof(a)) ||
	    show_val(e, "UACCESS_SITE_FUNCTION", a, sizeof(a)) ||
	    show_val(e, "UACCESS_SITE_IP", a, sizeof(a))) {
		const char *ip = show_val(e, "UACCESS_SITE_IP", b, sizeof(b));
		const char *id = show_val(e, "UACCESS_SITE_ID", c, sizeof(c));
		char extra[sizeof(b) + sizeof(c) + 16] = "";

		if (ip && !strcmp(ip, a))
			ip = NULL;
		if (ip && id)
			snprintf(extra, sizeof(extra), " (%s, id %s)", ip, id);
		else if (ip || id)
			snprintf(extra, sizeof(extra), " (%s%s)", ip ? "" : "id ",
				 ip ? ip : id);
		put_line(f, "Site", "%s%s", a, extra);
	} else if (show_val(e, "UACCESS_SITE_ID", c, sizeof(c))) {
		put_line(f, "Site", "id %s", c);
	}

	pid = show_val(e, "UACCESS_PID", a, sizeof(a));
	comm = show_val(e, "UACCESS_COMM", b, sizeof(b));
	if (pid)
		put_line(f, "PID", "%s%s%s%s", pid, comm ? " (" : "",
			 comm ? comm : "", comm ? ")" : "");
	else if (comm)
		put_line(f, "Command", "%s", comm);
	if (show_val(e, "UACCESS_TGID", a, sizeof(a)))
		put_line(f, "TGID", "%s", a);
	if (show_val(e, "UACCESS_UID", a, sizeof(a)))
		put_line(f, "UID", "%s", a);
	if (show_val(e, "UACCESS_SYSCALL_NR", a, sizeof(a)))
		put_line(f, "Syscall", "%s", a);
	if (show_val(e, "UACCESS_CPU", a, sizeof(a)))
		put_line(f, "CPU", "%s", a);
	if (show_val(e, "UACCESS_CONTEXT", a, sizeof(a)))
		put_line(f, "Context", "%s", a);
	if (show_val(e, "UACCESS_COUNT", a, sizeof(a))) {
		const char *sup = show_val(e, "UACCESS_SUPPRESSED", b,
					   sizeof(b));

		put_line(f, "Count", "%s%s%s%s", a,
			 sup ? " (suppressed by the kernel: " : "",
			 sup ? sup : "", sup ? ")" : "");
	} else if (show_val(e, "UACCESS_SUPPRESSED", b, sizeof(b))) {
		put_line(f, "Suppressed", "%s", b);
	}
	if (show_val(e, "UACCESS_SITE_EVENTS", a, sizeof(a)))
		put_line(f, "Site events", "%s", a);
	show_kernel_time(f, e);
	if (show_val(e, "UACCESS_STACK_HASH", a, sizeof(a)))
		put_line(f, "Stack hash", "%s", a);

	for (i = 0; i < e->n; i++) {
		const struct uk_entry_field *x = &e->fields[i];

		if (strncmp(x->name, UK_PREFIX, UK_PREFIX_LEN) ||
		    !x->name[UK_PREFIX_LEN] || show_known(x->name) ||
		    entry_field(e, x->name) != x)
			continue;
		generic_label(x->name, label, sizeof(label));
		clean(x->value, x->value_len, val, sizeof(val));
		put_line(f, label, "%s", val);
	}
	show_stack(f, e);

	if (catalog) {
		const char *p = catalog;

		fputc('\n', f);
		while (*p) {
			size_t n = strcspn(p, "\n");

			if (n)
				fprintf(f, "-- %.*s\n", (int)n, p);
			else
				fputs("--\n", f);
			p += n;
			if (*p)
				p++;
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- the list table ---- */

static const char *const uk_list_header[UK_LIST_COLUMNS] = {
	[UK_LIST_TIME] = "TIME",
	[UK_LIST_HOSTNAME] = "HOSTNAME",
	[UK_LIST_PID] = "PID",
	[UK_LIST_COMM] = "COMM",
	[UK_LIST_HELPER] = "HELPER",
	[UK_LIST_DIR] = "DIR",
	[UK_LIST_ADDRESS] = "ADDRESS",
	[UK_LIST_SITE] = "SITE",
	[UK_LIST_KIND] = "KIND",
};

static const char *const uk_list_field[UK_LIST_COLUMNS] = {
	[UK_LIST_HOSTNAME] = "_HOSTNAME",
	[UK_LIST_PID] = "UACCESS_PID",
	[UK_LIST_COMM] = "UACCESS_COMM",
	[UK_LIST_HELPER] = "UACCESS_HELPER",
	[UK_LIST_DIR] = "UACCESS_DIRECTION",
	[UK_LIST_ADDRESS] = "UACCESS_ADDRESS",
	[UK_LIST_SITE] = "UACCESS_SITE_SYMBOL",
	[UK_LIST_KIND] = "UACCESS_KIND",
};

void uk_list_table_init(struct uk_list_table *t)
{
	memset(t, 0, sizeof(*t));
}

static void row_release(struct uk_list_row *row)
{
	int c;

	for (c = 0; c < UK_LIST_COLUMNS; c++)
		free(row->cell[c]);
	free(row->machine);
}

void uk_list_table_release(struct uk_list_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		row_release(&t->rows[i]);
	free(t->rows);
	uk_list_table_init(t);
}

int uk_list_table_add(struct uk_list_table *t, const struct uk_entry *e)
{
	const struct uk_entry_field *m;
	struct uk_list_row row = { 0 };
	char tbuf[64];
	int c;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct uk_list_row *rows = reallocarray(t->rows, cap,
							sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		t->rows = rows;
		t->cap = cap;
	}
	uk_time_format(e->realtime_usec, tbuf, sizeof(tbuf));
	row.cell[UK_LIST_TIME] = strdup(tbuf);
	if (!row.cell[UK_LIST_TIME])
		goto nomem;
	for (c = 0; c < UK_LIST_COLUMNS; c++) {
		const struct uk_entry_field *f;

		if (!uk_list_field[c])
			continue;
		f = entry_field(e, uk_list_field[c]);
		row.cell[c] = f && f->value_len ?
			      clean_dup(f->value, f->value_len) : strdup("-");
		if (!row.cell[c])
			goto nomem;
	}
	m = entry_field(e, "_MACHINE_ID");
	if (!m)
		m = entry_field(e, "_HOSTNAME");
	if (m) {
		row.machine = clean_dup(m->value, m->value_len);
		if (!row.machine)
			goto nomem;
	}
	t->rows[t->n++] = row;
	return 0;
nomem:
	row_release(&row);
	return -ENOMEM;
}

bool uk_list_table_fleet(const struct uk_list_table *t)
{
	size_t i;

	for (i = 1; i < t->n; i++) {
		const char *a = t->rows[0].machine, *b = t->rows[i].machine;

		if (!a != !b || (a && strcmp(a, b)))
			return true;
	}
	return false;
}

/*
 * A fleet's HOSTNAME cells: the host name, or where two machines share
 * one (or one has none), the name and the machine ID's first 8 digits,
 * as uaccessctl top labels machines (uk_fleet_label()).  Returns the
 * cells, row by row, or NULL (then the host names are shown as they are).
 */
static char **host_labels(const struct uk_list_table *t)
{
	struct pair {
		const char *host, *machine;
		char *label;
	} *pairs = NULL, *np;
	size_t n = 0, i, k, *at = calloc(t->n ? t->n : 1, sizeof(*at));
	char **cells = calloc(t->n ? t->n : 1, sizeof(*cells));

	if (!at || !cells)
		goto fail;
	for (i = 0; i < t->n; i++) {
		const char *h = t->rows[i].cell[UK_LIST_HOSTNAME];
		const char *m = t->rows[i].machine ? t->rows[i].machine : "";

		for (k = 0; k < n; k++)
			if (!strcmp(pairs[k].host, h) &&
			    !strcmp(pairs[k].machine, m))
				break;
		if (k == n) {
			np = reallocarray(pairs, n + 1, sizeof(*pairs));
			if (!np)
				goto fail;
			pairs = np;
			pairs[n++] = (struct pair){ h, m, NULL };
		}
		at[i] = k;
	}
	for (k = 0; k < n; k++) {
		char buf[UK_FLEET_LABEL_LEN];
		const char *h = strcmp(pairs[k].host, "-") ? pairs[k].host : NULL;
		bool ambiguous = !h;

		for (i = 0; i < n && !ambiguous; i++)
			ambiguous = i != k && !strcmp(pairs[i].host, pairs[k].host) &&
				    strcmp(pairs[i].machine, pairs[k].machine);
		/* Without a machine ID, .machine is the host name itself. */
		uk_fleet_label(h, strcmp(pairs[k].machine, pairs[k].host) ?
			       pairs[k].machine : NULL, ambiguous, buf,
			       sizeof(buf));
		pairs[k].label = strdup(buf);
		if (!pairs[k].label)
			goto fail;
	}
	for (i = 0; i < t->n; i++) {
		cells[i] = strdup(pairs[at[i]].label);
		if (!cells[i])
			goto fail;
	}
	goto out;
fail:
	for (i = 0; cells && i < t->n; i++)
		free(cells[i]);
	free(cells);
	cells = NULL;
out:
	for (k = 0; k < n; k++)
		free(pairs[k].label);
	free(pairs);
	free(at);
	return cells;
}

int uk_list_table_print(const struct uk_list_table *t, FILE *f, bool legend)
{
	size_t width[UK_LIST_COLUMNS] = { 0 }, i;
	bool show[UK_LIST_COLUMNS];
	char **labels = NULL;
	int c, last = UK_LIST_COLUMNS - 1;

	for (c = 0; c < UK_LIST_COLUMNS; c++)
		show[c] = true;
	show[UK_LIST_HOSTNAME] = uk_list_table_fleet(t);
	if (show[UK_LIST_HOSTNAME])
		labels = host_labels(t);
	for (c = 0; c < UK_LIST_COLUMNS; c++) {
		if (legend)
			width[c] = strlen(uk_list_header[c]);
		for (i = 0; i < t->n; i++) {
			const char *s = labels && c == UK_LIST_HOSTNAME ?
					labels[i] : t->rows[i].cell[c];
			size_t w = uk_cli_width(s);

			if (w > width[c])
				width[c] = w;
		}
	}
	for (i = 0; i <= t->n; i++) {
		bool head = i == 0;

		if (head && !legend)
			continue;
		for (c = 0; c < UK_LIST_COLUMNS; c++) {
			const char *s;
			size_t pad;

			if (!show[c])
				continue;
			s = head ? uk_list_header[c] :
			    labels && c == UK_LIST_HOSTNAME ? labels[i - 1] :
			    t->rows[i - 1].cell[c];
			pad = width[c] - uk_cli_width(s);
			if (c == UK_LIST_PID)
				fprintf(f, "%*s%s", (int)pad, "", s);
			else if (c == last)
				fputs(s, f);
			else
				fprintf(f, "%s%*s", s, (int)pad, "");
			fputc(c == last ? '\n' : ' ', f);
		}
	}
	if (legend)
		fprintf(f, "\n%zu entr%s listed.\n", t->n,
			t->n == 1 ? "y" : "ies");
	for (i = 0; labels && i < t->n; i++)
		free(labels[i]);
	free(labels);
	return ferror(f) ? -EIO : 0;
}
