// SPDX-License-Identifier: GPL-2.0
/* The UACCESS_* journal fields, see journal_fields.h. */
#include <string.h>

#include "journal_fields.h"

/* An event field reads as its type shows it (fields.c). */
#define KIND_OF(ftype)							\
	((ftype) == UK_FT_U32 || (ftype) == UK_FT_U64 ? UK_JK_UNSIGNED :	\
	 (ftype) == UK_FT_S32 ? UK_JK_SIGNED : UK_JK_TEXT)

#define OF_EVENT(ATTR, member, JOURNAL, ftype, en, req)			\
	[UK_JF_##JOURNAL] = { UK_JF(JOURNAL), #member, KIND_OF(ftype) },
#define OF_EXTRA(JOURNAL, key_, kind_)					\
	[UK_JF_##JOURNAL] = { UK_JF(JOURNAL), #key_, kind_ },

const struct uk_jfield uk_journal_fields[UK_JF_NR] = {
	UK_EVENT_FIELDS(OF_EVENT)
	UK_JOURNAL_EXTRA_FIELDS(OF_EXTRA)
};

const struct uk_jfield *uk_journal_field(const char *name)
{
	size_t i;

	for (i = 0; name && i < UK_JF_NR; i++)
		if (!strcmp(uk_journal_fields[i].name, name))
			return &uk_journal_fields[i];
	return NULL;
}

const struct uk_jfield *uk_journal_field_by_key(const char *key, size_t len)
{
	size_t i;

	for (i = 0; key && i < UK_JF_NR; i++)
		if (strlen(uk_journal_fields[i].key) == len &&
		    !memcmp(uk_journal_fields[i].key, key, len))
			return &uk_journal_fields[i];
	return NULL;
}
