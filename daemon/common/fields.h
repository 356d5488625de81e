/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a decoded message (the tables of event.h) as values, as
 * text (the journal and the CLI's text output) and as JSON, both ways.
 */
#ifndef UK_FIELDS_H
#define UK_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "json.h"

/* Is the field's attribute present in @obj (its first member)? */
bool uk_field_present(const struct uk_field *f, const void *obj);

/* A field's value: a number, or text (strings, enum names, hex). */
struct uk_fval {
	enum { UK_FV_U64, UK_FV_S64, UK_FV_STR } kind;
	uint64_t u;
	int64_t s;
	const char *str;	/* not NUL-terminated: @len bytes */
	size_t len;
};

/* Six "0x" and 16 hex digits, blanks between, and a NUL (UK_FT_ARGS). */
#define UK_FIELD_BUF	(UK_SYSCALL_ARGS * 19)

/*
 * @f of @obj: numbers as numbers, HEX64/HEX32 as 0x-prefixed text (in
 * @buf), enums by name (the number when the name is unknown), strings
 * up to their NUL.  -EINVAL for a type it does not know.
 */
int uk_field_get(const struct uk_field *f, const void *obj,
		 struct uk_fval *v, char buf[UK_FIELD_BUF]);

/*
 * @f of @obj as uk_field_get() gives it, into @buf.  Returns the length,
 * truncated to @len - 1.
 */
size_t uk_field_format(const struct uk_field *f, const void *obj,
		       char *buf, size_t len);

/* The field of @fields for attribute @attr, or NULL. */
const struct uk_field *uk_field_by_attr(const struct uk_field *fields,
					int attr);

/*
 * The field of @fields named @name (its JSON key), formatted into @buf
 * as uk_field_format() does, when @obj holds it; else NULL.
 */
const char *uk_field_text(const struct uk_field *fields, const char *name,
			  const void *obj, char *buf, size_t len);

/*
 * The kernel's access policy (its boot parameter uaccess_kaddr_access=):
 * "fail" (a pre-access hit fails the access with -EFAULT) or "allow" (it
 * goes ahead), the field "access" of uk_status_fields
 * (UACCESS_KADDR_A_STATUS_ACCESS); "unknown" (UK_ACCESS_UNKNOWN) when
 * the kernel did not send it (one older than the attribute), the number
 * for a value this uaccessd does not know.  Status, its JSON and the
 * metrics all read it here.
 */
#define UK_STATUS_ACCESS_FIELD	"access"
#define UK_ACCESS_UNKNOWN	"unknown"
const char *uk_status_access(const struct uk_status *st, char *buf,
			     size_t len);

/* Inside an object: the key and value of @f of @obj (uk_field_get()). */
void uk_field_json(struct uk_json *j, const struct uk_field *f,
		   const void *obj);

/*
 * Inside an object: a key and value for every field of @fields whose
 * attribute bit is set in the struct's first member, uint64_t present:
 * numbers, or strings for the rest (uk_field_get()).
 */
void uk_fields_json(struct uk_json *j, const struct uk_field *fields,
		    const void *obj);

/*
 * Fills @obj (a struct of event.h whose first member is present) from
 * the members of a JSON object named as in @fields: numbers, enum names
 * (or numbers), "0x..." strings for the hex fields, strings.  Members
 * missing or of the wrong type are left absent.  Returns how many were
 * taken.
 */
unsigned int uk_fields_from_json(const struct uk_field *fields,
				 const struct uk_json_value *v, void *obj,
				 size_t size);

#endif /* UK_FIELDS_H */
