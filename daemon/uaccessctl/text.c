// SPDX-License-Identifier: GPL-2.0
/*
 * Text fit for a terminal (text.h): sanitized strings, their display width,
 * "key value" lines and whether to colour them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <wchar.h>
#include <stdlib.h>
#include <string.h>

#include "common/fields.h"
#include "cli.h"
#include "common/utf8.h"
#include "text.h"

char *uk_cli_sanitize(const char *in, char *out, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)(in ? in : "");
	size_t rem = strlen((const char *)p), o = 0, k;

	if (!outlen)
		return out;
	while (rem) {
		k = uk_utf8_len(p, rem);
		/* C0, DEL, and U+0080..U+009F (C1, "\xc2\x80".."\xc2\x9f") */
		if (k == 0 || (k == 1 && (*p < 0x20 || *p == 0x7f)) ||
		    (k == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			if (o + 1 >= outlen)
				break;
			out[o++] = '?';
			k = k ? k : 1;
		} else {
			if (o + k >= outlen)
				break;
			memcpy(out + o, p, k);
			o += k;
		}
		p += k;
		rem -= k;
	}
	out[o] = '\0';
	return out;
}

void uk_cli_sanitize_n(const char *s, size_t len, char *out, size_t outlen)
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

char *uk_cli_sanitize_dup(const char *s, size_t len)
{
	char *out = malloc(len + 1);

	if (out)
		uk_cli_sanitize_n(s, len, out, len + 1);
	return out;
}

/*
 * The display width of the character at @p (@len bytes): wcwidth() of
 * it in the locale; 1 for what the locale cannot decode (the C locale:
 * one column per character, as a terminal shows most of them), 0 for a
 * combining one.  Its length in *k.
 */
static size_t char_width(const char *p, size_t len, size_t *k)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, p, len, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		n = uk_utf8_len((const unsigned char *)p, len);
		*k = n ? n : 1;
		return 1;
	}
	*k = n;
	w = wcwidth(wc);
	return w < 0 ? 1 : (size_t)w;
}

size_t uk_cli_width_prefix(const char *s, size_t max, size_t *width)
{
	size_t len = strlen(s), o = 0, w = 0, k, cw;

	while (o < len) {
		cw = char_width(s + o, len - o, &k);
		if (w + cw > max)
			break;
		w += cw;
		o += k;
	}
	*width = w;
	return o;
}

size_t uk_cli_width(const char *s)
{
	size_t w;

	uk_cli_width_prefix(s, SIZE_MAX, &w);
	return w;
}

unsigned int uk_cli_columns(bool full, const char *env, bool tty, int fd)
{
	struct winsize ws;
	uint64_t v;

	if (full)
		return 0;
	if (env && uk_cli_parse_u64(env, UINT16_MAX, &v) == 0 && v)
		return (unsigned int)v;
	if (tty && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	return tty ? 80 : 0;
}

bool uk_cli_color_mode(bool tty, const char *systemd_colors,
		       const char *no_color, const char *term)
{
	if (systemd_colors) {
		if (!strcmp(systemd_colors, "16") ||
		    !strcmp(systemd_colors, "256") ||
		    !strcmp(systemd_colors, "24bit"))
			return true;
		return uk_cli_parse_boolean(systemd_colors) == 1;
	}
	if (no_color || !term || !strcmp(term, "dumb"))
		return false;
	return tty;
}

void uk_cli_kv(FILE *out, const char *key, const char *value)
{
	char buf[1024];

	if (!value || !*value)
		value = "-";
	fprintf(out, "%s %s\n", key, uk_cli_sanitize(value, buf, sizeof(buf)));
}

/* A scalar as text: "" for containers. */
static const char *scalar_text(const struct uk_json_value *v, char *buf,
			       size_t len)
{
	const char *s;
	uint64_t u;
	int64_t i;
	double d;
	bool b;

	switch (uk_json_type(v)) {
	case UK_JSON_BOOL:
		uk_json_get_bool(v, &b);
		return b ? "yes" : "no";
	case UK_JSON_STRING:
		if (uk_json_get_strn(v, &s, NULL) == 0)
			return s;
		return "";
	case UK_JSON_NUMBER:
		if (uk_json_get_u64(v, &u) == 0)
			snprintf(buf, len, "%" PRIu64, u);
		else if (uk_json_get_s64(v, &i) == 0)
			snprintf(buf, len, "%" PRId64, i);
		else if (uk_json_get_double(v, &d) == 0)
			snprintf(buf, len, "%g", d);
		else
			return "";
		return buf;
	default:
		return "";
	}
}

void uk_cli_kv_json(FILE *out, const char *prefix,
		    const struct uk_json_value *v)
{
	char key[256], num[32], line[1024], item[1024];
	const struct uk_json_value *m;
	size_t i, n, o;

	switch (uk_json_type(v)) {
	case UK_JSON_OBJECT:
		uk_json_for_each_member(it, v) {
			snprintf(key, sizeof(key), "%s.%s", prefix, it.key);
			uk_cli_kv_json(out, key, it.value);
		}
		break;
	case UK_JSON_ARRAY:
		n = uk_json_array_len(v);
		o = 0;
		line[0] = '\0';
		/* Items are words: a blank inside one would split it. */
		for (i = 0; i < n && o + 1 < sizeof(line); i++) {
			m = uk_json_array_at(v, i);
			uk_cli_sanitize(scalar_text(m, num, sizeof(num)), item,
					sizeof(item));
			for (char *c = item; *c; c++)
				if (*c == ' ')
					*c = '?';
			o += (size_t)snprintf(line + o, sizeof(line) - o,
					      "%s%s", i ? " " : "",
					      item[0] ? item : "-");
		}
		uk_cli_kv(out, prefix, line);
		break;
	default:
		uk_cli_kv(out, prefix, scalar_text(v, num, sizeof(num)));
		break;
	}
}

void uk_cli_kv_fields(FILE *out, const char *prefix,
		      const struct uk_field *fields, const void *obj)
{
	char key[256], val[UK_SYMBOL_LEN + 32];
	const struct uk_field *f;

	for (f = fields; f->name; f++) {
		if (!uk_field_present(f, obj))
			continue;
		snprintf(key, sizeof(key), "%s.%s", prefix, f->name);
		uk_field_format(f, obj, val, sizeof(val));
		uk_cli_kv(out, key, val);
	}
}

const char *uk_cli_plural(uint64_t n, const char *one, const char *more)
{
	return n == 1 ? one : more;
}
