// SPDX-License-Identifier: GPL-2.0
/*
 * The fields of a decoded message, see fields.h: uk_field_get() is the
 * one place that reads a field by its type; text and JSON are written
 * from what it gives.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "util.h"

bool uk_field_present(const struct uk_field *f, const void *obj)
{
	uint64_t present;

	memcpy(&present, obj, sizeof(present));
	return f->attr >= 0 && f->attr < 64 && (present & UK_BIT(f->attr));
}

/* "0x3 0x7ffc1c2e0a10 0x40": the arguments in hex, in order. */
static void args_format(const char *p, char buf[UK_FIELD_BUF])
{
	struct uk_syscall_args args;
	size_t n = 0;
	uint32_t i;

	memcpy(&args, p, sizeof(args));
	buf[0] = '\0';
	for (i = 0; i < args.nr && i < UK_SYSCALL_ARGS; i++)
		n += (size_t)snprintf(buf + n, UK_FIELD_BUF - n, "%s0x%" PRIx64,
				      i ? " " : "", args.v[i]);
}

int uk_field_get(const struct uk_field *f, const void *obj,
		 struct uk_fval *v, char buf[UK_FIELD_BUF])
{
	const char *p = (const char *)obj + f->offset;
	const char *name;
	uint64_t u64;
	uint32_t u32;
	int32_t s32;

	memset(v, 0, sizeof(*v));
	switch (f->type) {
	case UK_FT_U32:
		memcpy(&u32, p, sizeof(u32));
		v->u = u32;
		return 0;
	case UK_FT_S32:
		memcpy(&s32, p, sizeof(s32));
		v->kind = UK_FV_S64;
		v->s = s32;
		return 0;
	case UK_FT_U64:
		memcpy(&u64, p, sizeof(u64));
		v->u = u64;
		return 0;
	case UK_FT_HEX64:
		memcpy(&u64, p, sizeof(u64));
		snprintf(buf, UK_FIELD_BUF, "0x%016" PRIx64, u64);
		break;
	case UK_FT_HEX32:
		memcpy(&u32, p, sizeof(u32));
		snprintf(buf, UK_FIELD_BUF, "0x%08" PRIx32, u32);
		break;
	case UK_FT_STR:
		v->kind = UK_FV_STR;
		v->str = p;
		v->len = strnlen(p, f->len);
		return 0;
	case UK_FT_ARGS:
		args_format(p, buf);
		break;
	case UK_FT_ENUM:
		memcpy(&u32, p, sizeof(u32));
		name = uk_enum_name(f->names, u32);
		if (!name) {
			v->u = u32;	/* a value newer than us */
			return 0;
		}
		v->kind = UK_FV_STR;
		v->str = name;
		v->len = strlen(name);
		return 0;
	default:
		return -EINVAL;
	}
	v->kind = UK_FV_STR;
	v->str = buf;
	v->len = strlen(buf);
	return 0;
}

size_t uk_field_format(const struct uk_field *f, const void *obj,
		       char *buf, size_t len)
{
	char tmp[UK_FIELD_BUF];
	struct uk_fval v;
	int n;

	if (!len)
		return 0;
	if (uk_field_get(f, obj, &v, tmp) < 0) {
		buf[0] = '\0';
		return 0;
	}
	switch (v.kind) {
	case UK_FV_U64:
		n = snprintf(buf, len, "%" PRIu64, v.u);
		break;
	case UK_FV_S64:
		n = snprintf(buf, len, "%" PRId64, v.s);
		break;
	default:
		n = snprintf(buf, len, "%.*s", (int)v.len, v.str);
		break;
	}
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n < len ? (size_t)n : len - 1;
}

const struct uk_field *uk_field_by_attr(const struct uk_field *fields,
					int attr)
{
	for (; fields->name; fields++) {
		if (fields->attr == attr)
			return fields;
	}
	return NULL;
}

const char *uk_field_text(const struct uk_field *fields, const char *name,
			  const void *obj, char *buf, size_t len)
{
	for (; fields->name; fields++) {
		if (strcmp(fields->name, name))
			continue;
		if (!uk_field_present(fields, obj))
			return NULL;
		uk_field_format(fields, obj, buf, len);
		return buf;
	}
	return NULL;
}

const char *uk_status_access(const struct uk_status *st, char *buf,
			     size_t len)
{
	const char *s = uk_field_text(uk_status_fields, UK_STATUS_ACCESS_FIELD,
				      st, buf, len);

	return s && *s ? s : UK_ACCESS_UNKNOWN;
}

void uk_field_json(struct uk_json *j, const struct uk_field *f,
		   const void *obj)
{
	char buf[UK_FIELD_BUF];
	struct uk_fval v;

	if (uk_field_get(f, obj, &v, buf) < 0) {
		uk_json_fail(j, -EINVAL);
		return;
	}
	uk_json_key(j, f->name);
	switch (v.kind) {
	case UK_FV_U64:
		uk_json_u64(j, v.u);
		break;
	case UK_FV_S64:
		uk_json_s64(j, v.s);
		break;
	default:
		uk_json_strn(j, v.str, v.len);
		break;
	}
}

void uk_fields_json(struct uk_json *j, const struct uk_field *fields,
		    const void *obj)
{
	const struct uk_field *f;

	for (f = fields; f->name; f++)
		if (uk_field_present(f, obj))
			uk_field_json(j, f, obj);
}

static int hex_u64(const char *s, uint64_t *ret)
{
	uint64_t v = 0;
	const char *p;

	if (strncmp(s, "0x", 2) || !s[2] || strlen(s) > 18)
		return -EINVAL;
	for (p = s + 2; *p; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			return -EINVAL;
		v = v << 4 | d;
	}
	*ret = v;
	return 0;
}

/* "0x3 0x7ffc1c2e0a10 0x40", as args_format() writes it. */
static bool args_parse(const char *s, char *p)
{
	struct uk_syscall_args args = { 0 };
	char tok[UK_FIELD_BUF];
	const char *end;
	size_t n;

	while (*s) {
		end = strchr(s, ' ');
		n = end ? (size_t)(end - s) : strlen(s);
		if (args.nr == UK_SYSCALL_ARGS || n >= sizeof(tok))
			return false;
		memcpy(tok, s, n);
		tok[n] = '\0';
		if (hex_u64(tok, &args.v[args.nr]) < 0)
			return false;
		args.nr++;
		s += n;
		if (*s && !*++s)
			return false;	/* a blank at the end */
	}
	memcpy(p, &args, sizeof(args));
	return true;
}

/* One field from @v; false if it does not fit the field. */
static bool field_from_json(const struct uk_field *f,
			    const struct uk_json_value *v, void *obj)
{
	char *p = (char *)obj + f->offset;
	const char *s;
	uint64_t u = 0;
	int64_t i;
	uint32_t u32;
	int32_t s32;
	size_t n;

	switch (f->type) {
	case UK_FT_U32:
		if (uk_json_get_u64(v, &u) < 0 || u > UINT32_MAX)
			return false;
		u32 = (uint32_t)u;
		memcpy(p, &u32, sizeof(u32));
		return true;
	case UK_FT_S32:
		if (uk_json_get_s64(v, &i) < 0 || i < INT32_MIN ||
		    i > INT32_MAX)
			return false;
		s32 = (int32_t)i;
		memcpy(p, &s32, sizeof(s32));
		return true;
	case UK_FT_U64:
		if (uk_json_get_u64(v, &u) < 0)
			return false;
		memcpy(p, &u, sizeof(u));
		return true;
	case UK_FT_HEX64:
	case UK_FT_HEX32:
		if (uk_json_get_str(v, &s) < 0 || hex_u64(s, &u) < 0)
			return false;
		if (f->type == UK_FT_HEX64) {
			memcpy(p, &u, sizeof(u));
			return true;
		}
		if (u > UINT32_MAX)
			return false;
		u32 = (uint32_t)u;
		memcpy(p, &u32, sizeof(u32));
		return true;
	case UK_FT_STR:
		if (uk_json_get_str(v, &s) < 0)
			return false;
		n = strlen(s);
		if (n >= f->len)
			n = f->len - 1;
		memset(p, 0, f->len);
		memcpy(p, s, n);
		return true;
	case UK_FT_ARGS:
		return uk_json_get_str(v, &s) == 0 && args_parse(s, p);
	case UK_FT_ENUM:
		if (uk_json_get_str(v, &s) == 0) {
			u32 = uk_enum_value(f->names, s);
			if (!u32)
				return false;
		} else if (uk_json_get_u64(v, &u) == 0 && u <= UINT32_MAX) {
			u32 = (uint32_t)u;
		} else {
			return false;
		}
		memcpy(p, &u32, sizeof(u32));
		return true;
	default:
		return false;
	}
}

unsigned int uk_fields_from_json(const struct uk_field *fields,
				 const struct uk_json_value *v, void *obj,
				 size_t size)
{
	const struct uk_json_value *m;
	const struct uk_field *f;
	uint64_t present = 0;
	unsigned int n = 0;

	memset(obj, 0, size);
	for (f = fields; f->name; f++) {
		if (f->offset + (f->type == UK_FT_STR ||
				 f->type == UK_FT_ARGS ? f->len : 4) > size)
			continue;
		m = uk_json_object_get(v, f->name);
		if (m && field_from_json(f, m, obj)) {
			present |= UK_BIT(f->attr);
			n++;
		}
	}
	memcpy(obj, &present, sizeof(present));
	return n;
}
