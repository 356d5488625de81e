// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer, see json.h (the reader is json_read.c).
 */
#include <errno.h>
#include <inttypes.h>
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

void uk_json_number(struct uk_json *j, const char *s, size_t n)
{
	scalar(j, s, n);
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
