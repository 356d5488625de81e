// SPDX-License-Identifier: GPL-2.0
/* A journal entry, held and written as JSON; see entry.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "common/event.h"
#include "common/util.h"
#include "common/time.h"
#include "entry.h"
#include "json_out.h"

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

const struct uk_entry_field *uk_entry_find(const struct uk_entry *e,
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
	const struct uk_entry_field *f = uk_entry_find(e, name);

	if (len)
		*len = f ? f->value_len : 0;
	return f ? f->value : NULL;
}

/* The value as a C string: NULL if absent or holding a NUL byte. */
const char *uk_entry_str(const struct uk_entry *e, const char *name)
{
	const struct uk_entry_field *f = uk_entry_find(e, name);

	return f && strlen(f->value) == f->value_len ? f->value : NULL;
}

/* Keys the JSON object has whatever the entry holds. */
static const char *const uk_json_fixed[] = {
	"journal_usec", "hostname", "machine_id", "boot_id", "message_id", "message",
	"priority", "cursor", "catalog",
};

/* How a field reads: the list's kind; text for fields it does not know. */
static enum uk_jkind field_kind(const char *name)
{
	const struct uk_jfield *jf = uk_journal_field(name);

	return jf ? jf->kind : UK_JK_TEXT;
}

/* @f's value as an unsigned decimal number, all of it, or false. */
static bool field_u64(const struct uk_entry_field *f, unsigned long long *u)
{
	char *end;

	if (!isdigit((unsigned char)f->value[0]) ||
	    strlen(f->value) != f->value_len)
		return false;
	errno = 0;
	*u = strtoull(f->value, &end, 10);
	return !errno && !*end;
}

/* A number, when the value is exactly one; a string otherwise. */
static void json_value(struct uk_json *j, const struct uk_entry_field *f,
		       enum uk_jkind kind)
{
	const char *v = f->value;
	unsigned long long u;
	char *end;

	if (kind == UK_JK_UNSIGNED && field_u64(f, &u)) {
		uk_json_u64(j, u);
		return;
	}
	if (kind == UK_JK_SIGNED && f->value_len && strlen(v) == f->value_len &&
	    (isdigit((unsigned char)v[0]) ||
	     (v[0] == '-' && isdigit((unsigned char)v[1])))) {
		long long s;

		errno = 0;
		s = strtoll(v, &end, 10);
		if (!errno && !*end) {
			uk_json_s64(j, s);
			return;
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
	const struct uk_entry_field *f = uk_entry_find(e, field);

	if (!f)
		return;
	uk_json_key(j, key);
	uk_json_strn(j, f->value, f->value_len);
}

/* Keys no UACCESS_* field may take: the fixed ones and the times'. */
static bool is_reserved_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_json_fixed); i++)
		if (!strcmp(uk_json_fixed[i], key))
			return true;
	return uk_cli_is_usec_key(key);
}

/* UACCESS_TS_REAL and _TS_BOOT, nanoseconds, as "time_usec", "boot_usec". */
static bool json_usec(struct uk_json *j, const struct uk_entry_field *f,
		      const char *usec)
{
	unsigned long long ns;

	if (!field_u64(f, &ns))
		return false;
	uk_json_kv_u64(j, usec, ns / UK_NSEC_PER_USEC);
	return true;
}

void uk_entry_json(struct uk_json *j, const struct uk_entry *e, bool full,
		   const char *catalog)
{
	const struct uk_entry_field *prio = uk_entry_find(e, "PRIORITY");
	char key[UK_JOURNAL_FIELD_MAX + 1];
	size_t i, k;

	uk_json_object_begin(j);
	uk_json_kv_u64(j, "journal_usec", e->realtime_usec);
	json_kv_field(j, e, "hostname", "_HOSTNAME");
	json_kv_field(j, e, "machine_id", "_MACHINE_ID");
	json_kv_field(j, e, "boot_id", "_BOOT_ID");
	json_kv_field(j, e, "message_id", "MESSAGE_ID");
	json_kv_field(j, e, "message", "MESSAGE");
	if (prio) {
		uk_json_key(j, "priority");
		json_value(j, prio, UK_JK_UNSIGNED);
	}
	for (i = 0; i < e->n; i++) {
		const struct uk_entry_field *f = &e->fields[i];
		const char *rest = f->name + UK_JOURNAL_PREFIX_LEN, *usec;
		size_t n;

		if (strncmp(f->name, UK_JOURNAL_PREFIX, UK_JOURNAL_PREFIX_LEN) || !*rest)
			continue;
		/* A field repeated in the entry: its first value only. */
		if (uk_entry_find(e, f->name) != f)
			continue;
		n = strlen(rest);
		if (n >= sizeof(key))
			continue;
		for (k = 0; k <= n; k++)
			key[k] = (char)tolower((unsigned char)rest[k]);
		usec = uk_cli_usec_key(key);
		if (usec && json_usec(j, f, usec))
			continue;
		if (is_reserved_key(key))
			continue;
		uk_json_key(j, key);
		if (field_kind(f->name) == UK_JK_LINES)
			json_stack(j, f);
		else
			json_value(j, f, field_kind(f->name));
	}
	if (full) {
		if (e->cursor)
			uk_json_kv_str(j, "cursor", e->cursor);
		if (catalog)
			uk_json_kv_str(j, "catalog", catalog);
	}
	uk_json_object_end(j);
}
