// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reader of json.h: json-c parses, check_text() refuses what
 * json-c's strict mode lets through (measured on json-c 0.16): integers
 * beyond 64 bits, which it clamps without a word; leading zeros; "1.";
 * NaN, Infinity and 1e400; control characters, invalid UTF-8 and lone
 * surrogates in strings, which become U+FFFD; and a \u0000 in a key,
 * where json-c cuts the key.  It runs on text json-c accepted, so the
 * strings are terminated and their escapes well formed.  It also counts
 * the nesting: json-c counts a scalar inside the deepest container as one
 * level more, so its limit is one above ours.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>
#include <json-c/linkhash.h>

#include "json.h"
#include "utf8.h"

/*
 * Every other value is a struct json_object; json-c has no object for
 * null (NULL), which would read as a missing member.
 */
struct uk_json_value {
	char unused;
};

static const struct uk_json_value json_null;

static struct json_object *J(const struct uk_json_value *v)
{
	return v == &json_null ? NULL : (struct json_object *)v;
}

static const struct uk_json_value *V(struct json_object *o)
{
	return o ? (const struct uk_json_value *)o : &json_null;
}

/* The json_object behind @v if it has type @t, else NULL. */
static struct json_object *as(const struct uk_json_value *v, enum json_type t)
{
	struct json_object *o = v ? J(v) : NULL;

	return o && json_object_is_type(o, t) ? o : NULL;
}

struct parser {
	const unsigned char *s;
	size_t len;
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

static int oom(struct parser *p, size_t off)
{
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "offset %zu: out of memory", off);
	return -ENOMEM;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static size_t skip_ws(const struct parser *p, size_t q)
{
	while (q < p->len && (p->s[q] == ' ' || p->s[q] == '\t' ||
			      p->s[q] == '\n' || p->s[q] == '\r'))
		q++;
	return q;
}

/* json-c checked the four hex digits */
static uint32_t hex4(const unsigned char *s)
{
	char b[5] = { s[0], s[1], s[2], s[3], '\0' };

	return strtoul(b, NULL, 16);
}

/*
 * The code point of the \uXXXX escape at *q (with its low surrogate);
 * *q goes past it.
 */
static int check_u_escape(struct parser *p, size_t *q)
{
	const unsigned char *s = p->s;
	size_t at = *q;
	uint32_t hi, lo, cp;

	hi = hex4(s + at + 2);
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(p, at, "lone low surrogate \\u%04x", hi);
	*q = at + 6;
	if (hi < 0xd800 || hi > 0xdbff)
		return hi;
	lo = p->len - at >= 12 && s[at + 6] == '\\' && s[at + 7] == 'u' ?
	     hex4(s + at + 8) : 0;
	if (lo < 0xdc00 || lo > 0xdfff)
		return fail(p, at, "lone high surrogate \\u%04x", hi);
	*q = at + 12;
	cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	/* json-c 0.16 takes these for surrogates too: U+1D800 is U+FFFD */
	if ((cp & 0xf800) == 0xd800)
		return fail(p, at,
			    "U+%X as \\u%04x\\u%04x, which json-c garbles",
			    cp, hi, lo);
	return cp;
}

/* The string whose opening quote is at *pos; *pos goes to its last quote. */
static int check_string(struct parser *p, size_t *pos)
{
	const unsigned char *s = p->s;
	size_t q = *pos + 1, k;
	bool nul = false;
	int r;

	while (q < p->len && s[q] != '"') {
		if (s[q] == '\\' && q + 1 < p->len && s[q + 1] == 'u') {
			r = check_u_escape(p, &q);
			if (r < 0)
				return r;
			nul |= r == 0;
		} else if (s[q] == '\\') {
			q += 2;
		} else if (s[q] < 0x20) {
			return fail(p, q, "control character 0x%02x in string",
				    s[q]);
		} else if (s[q] >= 0x80) {
			k = uk_utf8_len(s + q, p->len - q);
			if (!k)
				return fail(p, q, "invalid UTF-8 in string");
			q += k;
		} else {
			q++;
		}
	}
	if (nul && skip_ws(p, q + 1) < p->len && s[skip_ws(p, q + 1)] == ':')
		return fail(p, *pos, "NUL (\\u0000) in an object key");
	*pos = q;
	return 0;
}

/* A fraction or exponent too large for a double (json-c makes it inf). */
static int check_double(struct parser *p, size_t at, size_t n)
{
	char *s;
	double d;

	if (!p->c_locale)
		p->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	s = strndup((const char *)p->s + at, n);
	if (!s || !p->c_locale) {
		free(s);
		return oom(p, at);
	}
	d = strtod_l(s, NULL, p->c_locale);
	free(s);
	return isinf(d) ? fail(p, at, "number out of range") : 0;
}

/* The number starting at *pos; *pos goes to its last byte. */
static int check_number(struct parser *p, size_t *pos)
{
	const unsigned char *s = p->s;
	size_t q = *pos, start = *pos;
	bool integral = true, overflow = false;
	uint64_t mag = 0, lim = UINT64_MAX;

	if (s[q] == '-') {
		lim = (uint64_t)INT64_MAX + 1;
		q++;
	}
	if (q >= p->len || !is_digit(s[q]))
		return fail(p, q, "invalid number");
	if (s[q] == '0' && q + 1 < p->len && is_digit(s[q + 1]))
		return fail(p, q, "leading zero");
	for (; q < p->len && is_digit(s[q]); q++) {
		unsigned int d = s[q] - '0';

		if (mag > (lim - d) / 10)
			overflow = true;
		else
			mag = mag * 10 + d;
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
		if (++q < p->len && (s[q] == '+' || s[q] == '-'))
			q++;
		while (q < p->len && is_digit(s[q]))
			q++;
	}
	if (integral && overflow)
		return fail(p, start, "integer out of the 64-bit range");
	*pos = q - 1;
	return integral ? 0 : check_double(p, start, q - start);
}

static int check_text(struct parser *p)
{
	unsigned int depth = 0;
	size_t i;
	int r = 0;

	for (i = 0; i < p->len && r == 0; i++) {
		if (p->s[i] == '[' || p->s[i] == '{') {
			if (++depth > UK_JSON_PARSE_DEPTH)
				r = fail(p, i, "nesting too deep");
		} else if (p->s[i] == ']' || p->s[i] == '}') {
			depth--;
		} else if (p->s[i] == '"') {
			r = check_string(p, &i);
		} else if (p->s[i] == '-' || is_digit(p->s[i])) {
			r = check_number(p, &i);
		} else if (p->s[i] == 'N' || p->s[i] == 'I') {
			r = fail(p, i, "unexpected character '%c'", p->s[i]);
		}
	}
	return r;
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
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error e;
	const char *nul;
	size_t end;
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

	tok = json_tokener_new_ex(UK_JSON_PARSE_DEPTH + 1);
	if (!tok)
		return oom(&p, 0);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	o = json_tokener_parse_ex(tok, buf, len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (e == json_tokener_continue) {
		/* a number at the end of the input could go on: end it */
		o = json_tokener_parse_ex(tok, "", 1);
		e = json_tokener_get_error(tok);
		end = len;
	}
	json_tokener_free(tok);
	/* json-c 0.16 has no error code for a failed allocation */
	if (e == json_tokener_error_parse_unexpected && end < len &&
	    p.s[end] >= 0x20 && p.s[end] < 0x7f)
		return fail(&p, end, "unexpected character '%c'", p.s[end]);
	if (e == json_tokener_error_parse_unexpected && end < len)
		return fail(&p, end, "unexpected byte 0x%02x", p.s[end]);
	if (e != json_tokener_success)
		return fail(&p, end, "%s", json_tokener_error_desc(e));

	if (skip_ws(&p, end) < len)
		r = fail(&p, skip_ws(&p, end),
			 "trailing characters after the value");
	else
		r = check_text(&p);
	if (p.c_locale)
		freelocale(p.c_locale);
	if (r < 0) {
		json_object_put(o);
		return r;
	}
	*ret = (struct uk_json_value *)V(o);
	return 0;
}

void uk_json_value_free(struct uk_json_value *v)
{
	if (v)
		json_object_put(J(v));
}

enum uk_json_type uk_json_type(const struct uk_json_value *v)
{
	switch (v ? json_object_get_type(J(v)) : json_type_null) {
	case json_type_boolean:
		return UK_JSON_BOOL;
	case json_type_int:
	case json_type_double:
		return UK_JSON_NUMBER;
	case json_type_string:
		return UK_JSON_STRING;
	case json_type_array:
		return UK_JSON_ARRAY;
	case json_type_object:
		return UK_JSON_OBJECT;
	default:
		return UK_JSON_NULL;
	}
}

static int check_type(const struct uk_json_value *v, enum uk_json_type t)
{
	if (!v)
		return -ENOENT;
	return uk_json_type(v) == t ? 0 : -EINVAL;
}

int uk_json_get_bool(const struct uk_json_value *v, bool *ret)
{
	int r = check_type(v, UK_JSON_BOOL);

	if (r == 0)
		*ret = json_object_get_boolean(J(v));
	return r;
}

/*
 * json-c keeps an integer as int64 or, above INT64_MAX, as uint64, and
 * clamps it to the range of the getter: each getter tells the other's
 * overflow.
 */
int uk_json_get_u64(const struct uk_json_value *v, uint64_t *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r < 0)
		return r;
	if (!as(v, json_type_int))
		return -EINVAL;
	if (json_object_get_int64(J(v)) < 0)
		return -ERANGE;
	*ret = json_object_get_uint64(J(v));
	return 0;
}

int uk_json_get_s64(const struct uk_json_value *v, int64_t *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r < 0)
		return r;
	if (!as(v, json_type_int))
		return -EINVAL;
	if (json_object_get_uint64(J(v)) > INT64_MAX)
		return -ERANGE;
	*ret = json_object_get_int64(J(v));
	return 0;
}

int uk_json_get_double(const struct uk_json_value *v, double *ret)
{
	int r = check_type(v, UK_JSON_NUMBER);

	if (r == 0)
		*ret = json_object_get_double(J(v));
	return r;
}

int uk_json_get_strn(const struct uk_json_value *v, const char **ret,
		     size_t *len)
{
	int r = check_type(v, UK_JSON_STRING);

	if (r < 0)
		return r;
	*ret = json_object_get_string(J(v));
	if (len)
		*len = json_object_get_string_len(J(v));
	return 0;
}

int uk_json_get_str(const struct uk_json_value *v, const char **ret)
{
	size_t len;
	int r = uk_json_get_strn(v, ret, &len);

	if (r == 0 && strlen(*ret) != len)
		return -EINVAL;
	return r;
}

const struct uk_json_value *uk_json_object_get(const struct uk_json_value *v,
					       const char *key)
{
	struct json_object *o = as(v, json_type_object), *m;

	if (!o || !key || !json_object_object_get_ex(o, key, &m))
		return NULL;
	return V(m);
}

size_t uk_json_object_len(const struct uk_json_value *v)
{
	struct json_object *o = as(v, json_type_object);

	return o ? (size_t)json_object_object_length(o) : 0;
}

bool uk_json_object_next(const struct uk_json_value *v,
			 struct uk_json_iter *it)
{
	struct json_object *o = as(v, json_type_object);
	struct lh_entry *e;

	if (!o)
		return false;
	e = it->pos ? lh_entry_next(it->pos) :
		      lh_table_head(json_object_get_object(o));
	if (!e)
		return false;
	it->pos = e;
	it->key = lh_entry_k(e);
	it->value = V(lh_entry_v(e));
	return true;
}

size_t uk_json_array_len(const struct uk_json_value *v)
{
	struct json_object *o = as(v, json_type_array);

	return o ? json_object_array_length(o) : 0;
}

const struct uk_json_value *uk_json_array_at(const struct uk_json_value *v,
					     size_t i)
{
	if (i >= uk_json_array_len(v))
		return NULL;
	return V(json_object_array_get_idx(J(v), i));
}

void uk_json_value_write(struct uk_json *j, const struct uk_json_value *v)
{
	struct json_object *o = v ? J(v) : NULL;
	const char *s;
	size_t i, n;

	switch (json_object_get_type(o)) {
	case json_type_boolean:
		uk_json_bool(j, json_object_get_boolean(o));
		break;
	case json_type_int:
		if (json_object_get_int64(o) < 0)
			uk_json_s64(j, json_object_get_int64(o));
		else
			uk_json_u64(j, json_object_get_uint64(o));
		break;
	case json_type_double:
		/* json-c keeps the text of a double as written */
		s = json_object_get_string(o);
		uk_json_number(j, s, strlen(s));
		break;
	case json_type_string:
		uk_json_strn(j, json_object_get_string(o),
			     json_object_get_string_len(o));
		break;
	case json_type_array:
		uk_json_array_begin(j);
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			uk_json_value_write(j,
				V(json_object_array_get_idx(o, i)));
		uk_json_array_end(j);
		break;
	case json_type_object:
		uk_json_object_begin(j);
		uk_json_for_each_member(it, v) {
			uk_json_key(j, it.key);
			uk_json_value_write(j, it.value);
		}
		uk_json_object_end(j);
		break;
	default:
		uk_json_null(j);
		break;
	}
}
