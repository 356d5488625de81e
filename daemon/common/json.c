// SPDX-License-Identifier: GPL-2.0
/*
 * JSON writer and strict reader, see json.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utf8.h"
#include "util.h"

/* ---- writer ---- */

#define LV_OBJECT	0x1
#define LV_MEMBERS	0x2

void uk_json_init(struct uk_json *j, size_t max)
{
	memset(j, 0, sizeof(*j));
	j->max = max;
}

void uk_json_release(struct uk_json *j)
{
	free(j->buf);
	uk_json_init(j, j->max);
}

void uk_json_fail(struct uk_json *j, int err)
{
	if (!j->err)
		j->err = err;
}

int uk_json_error(const struct uk_json *j)
{
	return j->err;
}

size_t uk_json_len(const struct uk_json *j)
{
	return j->len;
}

/* Room for @n more bytes and the NUL. */
static bool reserve(struct uk_json *j, size_t n)
{
	size_t limit = j->max ? j->max : SIZE_MAX / 4;
	size_t need, cap;
	char *p;

	if (j->err)
		return false;
	if (n > limit - j->len) {
		uk_json_fail(j, -E2BIG);
		return false;
	}
	need = j->len + n + 1;
	if (need <= j->cap)
		return true;
	cap = j->cap ? j->cap : 256;
	while (cap < need)
		cap *= 2;
	if (cap > limit + 1)
		cap = limit + 1;	/* no slack beyond the cap */
	p = realloc(j->buf, cap);
	if (!p) {
		uk_json_fail(j, -ENOMEM);
		return false;
	}
	j->buf = p;
	j->cap = cap;
	return true;
}

static void put(struct uk_json *j, const char *s, size_t n)
{
	if (!reserve(j, n))
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

/* A quoted, escaped string; invalid UTF-8 bytes become U+FFFD. */
static void put_quoted(struct uk_json *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, k;
	char esc[8];

	put(j, "\"", 1);
	while (i < n && !j->err) {
		unsigned char c = p[i];

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0x80) {
			k = uk_utf8_len(p + i, n - i);
			if (k) {
				i += k;
				continue;
			}
		}
		put(j, s + run, i - run);
		if (c == '"')
			put(j, "\\\"", 2);
		else if (c == '\\')
			put(j, "\\\\", 2);
		else if (c < 0x20)
			put(j, esc, snprintf(esc, sizeof(esc), "\\u%04x", c));
		else
			put(j, "\xef\xbf\xbd", 3);
		run = ++i;
	}
	put(j, s + run, n - run);
	put(j, "\"", 1);
}

/* Separator and checks before any value; false if it must not be written. */
static bool value_begin(struct uk_json *j)
{
	uint8_t *lv;

	if (j->err)
		return false;
	if (j->depth == 0) {
		if (j->top_done) {
			uk_json_fail(j, -EINVAL);
			return false;
		}
		return true;
	}
	lv = &j->level[j->depth];
	if (*lv & LV_OBJECT) {
		if (!j->key_done) {
			uk_json_fail(j, -EINVAL);
			return false;
		}
		j->key_done = false;
		return true;
	}
	if (*lv & LV_MEMBERS)
		put(j, ",", 1);
	*lv |= LV_MEMBERS;
	return !j->err;
}

static void value_end(struct uk_json *j)
{
	if (j->depth == 0 && !j->err)
		j->top_done = true;
}

static void scalar(struct uk_json *j, const char *s, size_t n)
{
	if (!value_begin(j))
		return;
	put(j, s, n);
	value_end(j);
}

static void container_begin(struct uk_json *j, bool object)
{
	if (!value_begin(j))
		return;
	if (j->depth >= UK_JSON_WRITE_DEPTH) {
		uk_json_fail(j, -EINVAL);
		return;
	}
	put(j, object ? "{" : "[", 1);
	j->level[++j->depth] = object ? LV_OBJECT : 0;
}

static void container_end(struct uk_json *j, bool object)
{
	if (j->err)
		return;
	if (j->depth == 0 || !!(j->level[j->depth] & LV_OBJECT) != object ||
	    j->key_done) {
		uk_json_fail(j, -EINVAL);
		return;
	}
	put(j, object ? "}" : "]", 1);
	j->depth--;
	value_end(j);
}

void uk_json_object_begin(struct uk_json *j)
{
	container_begin(j, true);
}

void uk_json_object_end(struct uk_json *j)
{
	container_end(j, true);
}

void uk_json_array_begin(struct uk_json *j)
{
	container_begin(j, false);
}

void uk_json_array_end(struct uk_json *j)
{
	container_end(j, false);
}

static void key_n(struct uk_json *j, const char *key, size_t n)
{
	uint8_t *lv;

	if (j->err)
		return;
	lv = &j->level[j->depth];
	if (j->depth == 0 || !(*lv & LV_OBJECT) || j->key_done || !key) {
		uk_json_fail(j, -EINVAL);
		return;
	}
	if (*lv & LV_MEMBERS)
		put(j, ",", 1);
	*lv |= LV_MEMBERS;
	put_quoted(j, key, n);
	put(j, ":", 1);
	j->key_done = true;
}

void uk_json_key(struct uk_json *j, const char *key)
{
	key_n(j, key, key ? strlen(key) : 0);
}

void uk_json_strn(struct uk_json *j, const char *s, size_t n)
{
	if (!s) {
		uk_json_null(j);
		return;
	}
	if (!value_begin(j))
		return;
	put_quoted(j, s, n);
	value_end(j);
}

void uk_json_str(struct uk_json *j, const char *s)
{
	uk_json_strn(j, s, s ? strlen(s) : 0);
}

void uk_json_u64(struct uk_json *j, uint64_t v)
{
	char b[24];

	scalar(j, b, snprintf(b, sizeof(b), "%" PRIu64, v));
}

void uk_json_s64(struct uk_json *j, int64_t v)
{
	char b[24];

	scalar(j, b, snprintf(b, sizeof(b), "%" PRId64, v));
}

void uk_json_bool(struct uk_json *j, bool v)
{
	if (v)
		scalar(j, "true", 4);
	else
		scalar(j, "false", 5);
}

void uk_json_null(struct uk_json *j)
{
	scalar(j, "null", 4);
}

void uk_json_kv_str(struct uk_json *j, const char *key, const char *s)
{
	uk_json_key(j, key);
	uk_json_str(j, s);
}

void uk_json_kv_u64(struct uk_json *j, const char *key, uint64_t v)
{
	uk_json_key(j, key);
	uk_json_u64(j, v);
}

void uk_json_kv_s64(struct uk_json *j, const char *key, int64_t v)
{
	uk_json_key(j, key);
	uk_json_s64(j, v);
}

void uk_json_kv_bool(struct uk_json *j, const char *key, bool v)
{
	uk_json_key(j, key);
	uk_json_bool(j, v);
}

void uk_json_newline(struct uk_json *j)
{
	if (j->err)
		return;
	if (!j->top_done) {
		uk_json_fail(j, -EINVAL);
		return;
	}
	put(j, "\n", 1);
	if (!j->err)
		j->top_done = false;
}

int uk_json_finish(struct uk_json *j, char **ret, size_t *retlen)
{
	int r = j->err;

	/* Nothing written is not JSON either. */
	if (!r && (j->depth || j->key_done || !j->len))
		r = -EINVAL;
	if (r) {
		uk_json_release(j);
		return r;
	}
	*ret = j->buf;
	if (retlen)
		*retlen = j->len;
	uk_json_init(j, j->max);
	return 0;
}

/* ---- reader ---- */

#define NUM_INTEGRAL	0x1	/* no fraction, no exponent */
#define NUM_U64		0x2	/* fits uint64_t */
#define NUM_S64		0x4	/* fits int64_t */

struct member {
	char *key;
	size_t keylen;
	struct uk_json_value *val;
};

struct uk_json_value {
	enum uk_json_type type;
	union {
		bool b;
		struct {
			char *raw;	/* the token as written */
			double d;
			uint64_t u;
			int64_t i;
			unsigned int flags;
		} num;
		struct {
			char *s;
			size_t len;
		} str;
		struct {
			struct uk_json_value **v;
			size_t n, cap;
		} arr;
		struct {
			struct member *m;
			size_t n, cap;
		} obj;
	};
};

struct parser {
	const unsigned char *s;
	size_t len;
	size_t pos;
	char *err;
	size_t errlen;
	locale_t c_locale;	/* for strtod_l(), made on first use */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -EINVAL;
	n = snprintf(p->err, p->errlen, "offset %zu: ", off);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int oom(struct parser *p)
{
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "offset %zu: out of memory",
			 p->pos);
	return -ENOMEM;
}

void uk_json_value_free(struct uk_json_value *v)
{
	size_t i;

	if (!v)
		return;
	switch (v->type) {
	case UK_JSON_NUMBER:
		free(v->num.raw);
		break;
	case UK_JSON_STRING:
		free(v->str.s);
		break;
	case UK_JSON_ARRAY:
		for (i = 0; i < v->arr.n; i++)
			uk_json_value_free(v->arr.v[i]);
		free(v->arr.v);
		break;
	case UK_JSON_OBJECT:
		for (i = 0; i < v->obj.n; i++) {
			free(v->obj.m[i].key);
			uk_json_value_free(v->obj.m[i].val);
		}
		free(v->obj.m);
		break;
	default:
		break;
	}
	free(v);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static struct uk_json_value *new_value(enum uk_json_type type)
{
	struct uk_json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

/* Grows an array of @size-byte elements so that one more fits. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	if (ncap > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int hex4(const unsigned char *s, uint32_t *ret)
{
	uint32_t v = 0;
	int k;

	for (k = 0; k < 4; k++) {
		unsigned char c = s[k];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -EINVAL;
	}
	*ret = v;
	return 0;
}

/* A \uXXXX escape (and its low surrogate) at @q; advances *q past it. */
static int parse_u_escape(struct parser *p, size_t *q, size_t end,
			  uint32_t *cp)
{
	const unsigned char *s = p->s;
	size_t at = *q;
	uint32_t hi, lo;

	if (end - at < 6 || hex4(s + at + 2, &hi))
		return fail(p, at, "bad \\u escape");
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(p, at, "lone low surrogate \\u%04x", hi);
	if (hi < 0xd800 || hi > 0xdbff) {
		*q = at + 6;
		*cp = hi;
		return 0;
	}
	if (end - at < 12 || s[at + 6] != '\\' || s[at + 7] != 'u' ||
	    hex4(s + at + 8, &lo) || lo < 0xdc00 || lo > 0xdfff)
		return fail(p, at, "lone high surrogate \\u%04x", hi);
	*q = at + 12;
	*cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

/* The string starting at the quote at p->pos. */
static int parse_string(struct parser *p, char **ret, size_t *retlen)
{
	const unsigned char *s = p->s;
	size_t start = p->pos + 1, end, q, n = 0, k;
	uint32_t cp = 0;
	char *out;
	int r;

	for (end = start; end < p->len && s[end] != '"'; end++)
		if (s[end] == '\\')
			end++;
	if (end >= p->len)
		return fail(p, p->pos, "unterminated string");

	/* Escapes only shrink, so the raw length is enough. */
	out = malloc(end - start + 1);
	if (!out)
		return oom(p);
	q = start;
	while (q < end) {
		unsigned char c = s[q];

		if (c == '\\') {
			char e = s[q + 1], d;

			switch (e) {
			case '"':  d = '"';  break;
			case '\\': d = '\\'; break;
			case '/':  d = '/';  break;
			case 'b':  d = '\b'; break;
			case 'f':  d = '\f'; break;
			case 'n':  d = '\n'; break;
			case 'r':  d = '\r'; break;
			case 't':  d = '\t'; break;
			case 'u':
				r = parse_u_escape(p, &q, end, &cp);
				if (r < 0)
					goto err;
				n += uk_utf8_put(out + n, cp);
				continue;
			default:
				r = fail(p, q, "invalid escape \\%c",
					 e >= 0x20 && e < 0x7f ? e : '?');
				goto err;
			}
			out[n++] = d;
			q += 2;
		} else if (c < 0x20) {
			r = fail(p, q, "control character 0x%02x in string",
				 c);
			goto err;
		} else {
			k = uk_utf8_len(s + q, end - q);
			if (!k) {
				r = fail(p, q, "invalid UTF-8 in string");
				goto err;
			}
			memcpy(out + n, s + q, k);
			n += k;
			q += k;
		}
	}
	out[n] = '\0';
	p->pos = end + 1;
	*ret = out;
	*retlen = n;
	return 0;
err:
	free(out);
	return r;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct parser *p, struct uk_json_value **ret)
{
	const unsigned char *s = p->s;
	size_t start = p->pos, q = p->pos, tl;
	bool neg = false, integral = true, overflow = false;
	uint64_t mag = 0;
	struct uk_json_value *v;
	char *end;

	if (s[q] == '-') {
		neg = true;
		q++;
	}
	if (q < p->len && s[q] == '0') {
		q++;
	} else if (q < p->len && is_digit(s[q])) {
		while (q < p->len && is_digit(s[q])) {
			unsigned int d = s[q] - '0';

			if (mag > (UINT64_MAX - d) / 10)
				overflow = true;
			else
				mag = mag * 10 + d;
			q++;
		}
	} else {
		return fail(p, start, "invalid number");
	}
	if (q < p->len && s[q] == '.') {
		integral = false;
		if (++q >= p->len || !is_digit(s[q]))
			return fail(p, q, "digit expected after '.'");
		while (q < p->len && is_digit(s[q]))
			q++;
	}
	if (q < p->len && (s[q] == 'e' || s[q] == 'E')) {
		integral = false;
		q++;
		if (q < p->len && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q >= p->len || !is_digit(s[q]))
			return fail(p, q, "digit expected in exponent");
		while (q < p->len && is_digit(s[q]))
			q++;
	}

	v = new_value(UK_JSON_NUMBER);
	if (!v)
		return oom(p);
	tl = q - start;
	v->num.raw = malloc(tl + 1);
	if (!v->num.raw) {
		free(v);
		return oom(p);
	}
	memcpy(v->num.raw, s + start, tl);
	v->num.raw[tl] = '\0';

	if (integral) {
		v->num.flags = NUM_INTEGRAL;
		if (!overflow && !neg) {
			v->num.flags |= NUM_U64;
			v->num.u = mag;
			if (mag <= INT64_MAX) {
				v->num.flags |= NUM_S64;
				v->num.i = mag;
			}
		} else if (!overflow && mag <= (uint64_t)INT64_MAX + 1) {
			v->num.flags |= NUM_S64;
			v->num.i = mag == (uint64_t)INT64_MAX + 1 ?
				   INT64_MIN : -(int64_t)mag;
			if (mag == 0)
				v->num.flags |= NUM_U64;
		}
	}
	if (v->num.flags & NUM_U64) {
		v->num.d = (double)v->num.u;
	} else if (v->num.flags & NUM_S64) {
		v->num.d = (double)v->num.i;
	} else {
		if (!p->c_locale) {
			p->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
			if (!p->c_locale) {
				uk_json_value_free(v);
				return oom(p);
			}
		}
		v->num.d = strtod_l(v->num.raw, &end, p->c_locale);
		if (isinf(v->num.d) || isnan(v->num.d)) {
			uk_json_value_free(v);
			return fail(p, start, "number out of range");
		}
	}
	p->pos = q;
	*ret = v;
	return 0;
}

static int parse_literal(struct parser *p, struct uk_json_value **ret)
{
	static const struct {
		const char *word;
		enum uk_json_type type;
		bool b;
	} lits[] = {
		{ "true", UK_JSON_BOOL, true },
		{ "false", UK_JSON_BOOL, false },
		{ "null", UK_JSON_NULL, false },
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(lits); i++) {
		n = strlen(lits[i].word);
		if (p->len - p->pos >= n &&
		    !memcmp(p->s + p->pos, lits[i].word, n)) {
			*ret = new_value(lits[i].type);
			if (!*ret)
				return oom(p);
			(*ret)->b = lits[i].b;
			p->pos += n;
			return 0;
		}
	}
	return fail(p, p->pos, "invalid literal");
}

static int parse_value(struct parser *p, unsigned int depth,
		       struct uk_json_value **ret);

static int parse_array(struct parser *p, unsigned int depth,
		       struct uk_json_value **ret)
{
	struct uk_json_value *v, *item;
	int r;

	v = new_value(UK_JSON_ARRAY);
	if (!v)
		return oom(p);
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		*ret = v;
		return 0;
	}
	for (;;) {
		r = parse_value(p, depth, &item);
		if (r < 0)
			goto err;
		if (grow((void **)&v->arr.v, &v->arr.cap, v->arr.n,
			 sizeof(*v->arr.v))) {
			uk_json_value_free(item);
			r = oom(p);
			goto err;
		}
		v->arr.v[v->arr.n++] = item;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == ']') {
			p->pos++;
			break;
		}
		r = fail(p, p->pos, "expected ',' or ']' in array");
		goto err;
	}
	*ret = v;
	return 0;
err:
	uk_json_value_free(v);
	return r;
}

static int parse_object(struct parser *p, unsigned int depth,
			struct uk_json_value **ret)
{
	struct uk_json_value *v, *item;
	char *key;
	size_t keylen;
	int r;

	v = new_value(UK_JSON_OBJECT);
	if (!v)
		return oom(p);
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		*ret = v;
		return 0;
	}
	for (;;) {
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != '"') {
			r = fail(p, p->pos, "expected a string key");
			goto err;
		}
		r = parse_string(p, &key, &keylen);
		if (r < 0)
			goto err;
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':') {
			free(key);
			r = fail(p, p->pos, "expected ':' after key");
			goto err;
		}
		p->pos++;
		r = parse_value(p, depth, &item);
		if (r < 0) {
			free(key);
			goto err;
		}
		if (grow((void **)&v->obj.m, &v->obj.cap, v->obj.n,
			 sizeof(*v->obj.m))) {
			free(key);
			uk_json_value_free(item);
			r = oom(p);
			goto err;
		}
		v->obj.m[v->obj.n++] = (struct member){ key, keylen, item };
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == '}') {
			p->pos++;
			break;
		}
		r = fail(p, p->pos, "expected ',' or '}' in object");
		goto err;
	}
	*ret = v;
	return 0;
err:
	uk_json_value_free(v);
	return r;
}

static int parse_value(struct parser *p, unsigned int depth,
		       struct uk_json_value **ret)
{
	unsigned char c;
	int r;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, p->pos, "unexpected end of input");
	c = p->s[p->pos];
	switch (c) {
	case '{':
	case '[':
		if (depth >= UK_JSON_PARSE_DEPTH)
			return fail(p, p->pos, "nesting deeper than %d",
				    UK_JSON_PARSE_DEPTH);
		if (c == '{')
			return parse_object(p, depth + 1, ret);
		return parse_array(p, depth + 1, ret);
	case '"':
		*ret = new_value(UK_JSON_STRING);
		if (!*ret)
			return oom(p);
		r = parse_string(p, &(*ret)->str.s, &(*ret)->str.len);
		if (r < 0) {
			free(*ret);
			*ret = NULL;
		}
		return r;
	case 't':
	case 'f':
	case 'n':
		return parse_literal(p, ret);
	default:
		if (c == '-' || is_digit(c))
			return parse_number(p, ret);
		if (c >= 0x20 && c < 0x7f)
			return fail(p, p->pos, "unexpected character '%c'", c);
		return fail(p, p->pos, "unexpected byte 0x%02x", c);
	}
}

int uk_json_parse(const char *buf, size_t len, struct uk_json_value **ret,
		  char *err, size_t errlen)
{
	struct parser p = {
		.s = (const unsigned char *)buf,
		.len = len,
		.err = err,
		.errlen = errlen,
	};
	struct uk_json_value *v = NULL;
	const char *nul;
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (len > UK_JSON_PARSE_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "input larger than %u bytes",
				 UK_JSON_PARSE_MAX);
		return -E2BIG;
	}
	nul = len ? memchr(buf, '\0', len) : NULL;
	if (nul)
		return fail(&p, nul - buf, "NUL byte");

	r = parse_value(&p, 0, &v);
	if (r == 0) {
		skip_ws(&p);
		if (p.pos != p.len) {
			uk_json_value_free(v);
			r = fail(&p, p.pos,
				 "trailing characters after the value");
		}
	}
	if (p.c_locale)
		freelocale(p.c_locale);
	if (r == 0)
		*ret = v;
	return r;
}

enum uk_json_type uk_json_type(const struct uk_json_value *v)
{
	return v ? v->type : UK_JSON_NULL;
}

static int check_type(const struct uk_json_value *v, enum uk_json_type t)
{
	if (!v)
		return -ENOENT;
	return v->type == t ? 0 : -EINVAL;
}

int uk_json_get_bool(const struct uk_json_value *v, bool *ret)
{
	int r = check_type(v, UK_JSON_BOOL);

	if (r == 0)
		*ret = v->b;
	return r;
}

int uk_json_get_u64(const struct uk_json_value *v, uint64_t *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r < 0)
		return r;
	if (!(v->num.flags & NUM_INTEGRAL))
		return -EINVAL;
	if (!(v->num.flags & NUM_U64))
		return -ERANGE;
	*ret = v->num.u;
	return 0;
}

int uk_json_get_s64(const struct uk_json_value *v, int64_t *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r < 0)
		return r;
	if (!(v->num.flags & NUM_INTEGRAL))
		return -EINVAL;
	if (!(v->num.flags & NUM_S64))
		return -ERANGE;
	*ret = v->num.i;
	return 0;
}

int uk_json_get_double(const struct uk_json_value *v, double *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r == 0)
		*ret = v->num.d;
	return r;
}

int uk_json_get_strn(const struct uk_json_value *v, const char **ret,
		     size_t *len)
{
	int r = check_type(v, UK_JSON_STRING);

	if (r < 0)
		return r;
	*ret = v->str.s;
	if (len)
		*len = v->str.len;
	return 0;
}

int uk_json_get_str(const struct uk_json_value *v, const char **ret)
{
	int r = check_type(v, UK_JSON_STRING);

	if (r < 0)
		return r;
	if (strlen(v->str.s) != v->str.len)
		return -EINVAL;
	*ret = v->str.s;
	return 0;
}

const struct uk_json_value *uk_json_object_get(const struct uk_json_value *v,
					       const char *key)
{
	size_t i, n;

	if (!v || v->type != UK_JSON_OBJECT || !key)
		return NULL;
	n = strlen(key);
	for (i = v->obj.n; i-- > 0;) {
		const struct member *m = &v->obj.m[i];

		if (m->keylen == n && !memcmp(m->key, key, n))
			return m->val;
	}
	return NULL;
}

size_t uk_json_object_len(const struct uk_json_value *v)
{
	return v && v->type == UK_JSON_OBJECT ? v->obj.n : 0;
}

const struct uk_json_value *uk_json_object_at(const struct uk_json_value *v,
					      size_t i, const char **key)
{
	if (!v || v->type != UK_JSON_OBJECT || i >= v->obj.n)
		return NULL;
	if (key)
		*key = v->obj.m[i].key;
	return v->obj.m[i].val;
}

size_t uk_json_array_len(const struct uk_json_value *v)
{
	return v && v->type == UK_JSON_ARRAY ? v->arr.n : 0;
}

const struct uk_json_value *uk_json_array_at(const struct uk_json_value *v,
					     size_t i)
{
	if (!v || v->type != UK_JSON_ARRAY || i >= v->arr.n)
		return NULL;
	return v->arr.v[i];
}

void uk_json_value_write(struct uk_json *j, const struct uk_json_value *v)
{
	size_t i;

	if (!v) {
		uk_json_null(j);
		return;
	}
	switch (v->type) {
	case UK_JSON_NULL:
		uk_json_null(j);
		break;
	case UK_JSON_BOOL:
		uk_json_bool(j, v->b);
		break;
	case UK_JSON_NUMBER:
		scalar(j, v->num.raw, strlen(v->num.raw));
		break;
	case UK_JSON_STRING:
		uk_json_strn(j, v->str.s, v->str.len);
		break;
	case UK_JSON_ARRAY:
		uk_json_array_begin(j);
		for (i = 0; i < v->arr.n; i++)
			uk_json_value_write(j, v->arr.v[i]);
		uk_json_array_end(j);
		break;
	case UK_JSON_OBJECT:
		uk_json_object_begin(j);
		for (i = 0; i < v->obj.n; i++) {
			key_n(j, v->obj.m[i].key, v->obj.m[i].keylen);
			uk_json_value_write(j, v->obj.m[i].val);
		}
		uk_json_object_end(j);
		break;
	}
}
