// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "util.h"

bool uk_field_present(const struct uk_field *f, const void *obj)
{
	uint64_t present;

	memcpy(&present, obj, sizeof(present));
	return f->attr >= 0 && f->attr < 64 && (present & UK_BIT(f->attr));
}

size_t uk_field_format(const struct uk_field *f, const void *obj,
		       char *buf, size_t len)
{
	const char *p = (const char *)obj + f->offset;
	const char *name;
	uint64_t u64;
	uint32_t u32;
	int32_t s32;
	int n = 0;

	if (!len)
		return 0;
	switch (f->type) {
	case UK_FT_U32:
		memcpy(&u32, p, sizeof(u32));
		n = snprintf(buf, len, "%" PRIu32, u32);
		break;
	case UK_FT_S32:
		memcpy(&s32, p, sizeof(s32));
		n = snprintf(buf, len, "%" PRId32, s32);
		break;
	case UK_FT_U64:
		memcpy(&u64, p, sizeof(u64));
		n = snprintf(buf, len, "%" PRIu64, u64);
		break;
	case UK_FT_HEX64:
		memcpy(&u64, p, sizeof(u64));
		n = snprintf(buf, len, "0x%016" PRIx64, u64);
		break;
	case UK_FT_HEX32:
		memcpy(&u32, p, sizeof(u32));
		n = snprintf(buf, len, "0x%08" PRIx32, u32);
		break;
	case UK_FT_STR:
		n = snprintf(buf, len, "%.*s", (int)strnlen(p, f->len), p);
		break;
	default:
		buf[0] = '\0';
		return 0;
	case UK_FT_ENUM:
		memcpy(&u32, p, sizeof(u32));
		name = uk_enum_name(f->names, u32);
		n = name ? snprintf(buf, len, "%s", name) :
			   snprintf(buf, len, "%" PRIu32, u32);
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
