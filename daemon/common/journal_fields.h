/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UACCESS_* fields of uaccessd's journal entries: those of the event
 * table (UK_EVENT_FIELDS, event.h) and the ones uaccessd adds, in one
 * list that the journal writer, the CLI's journal reader, its JSON and
 * its matches share.  docs/journal-fields.md documents each.
 */
#ifndef UK_JOURNAL_FIELDS_H
#define UK_JOURNAL_FIELDS_H

#include <stddef.h>

#include "event.h"

/* How a field's value reads: what uaccessctl's JSON makes of it. */
enum uk_jkind {
	UK_JK_TEXT,
	UK_JK_UNSIGNED,
	UK_JK_SIGNED,
	UK_JK_LINES,		/* one item a line: the stack */
};

/*
 * The fields uaccessd writes besides the event's: X(JOURNAL, key, kind)
 * for UACCESS_JOURNAL, JSON key @key.
 */
#define UK_JOURNAL_EXTRA_FIELDS(X)					\
	X(STACK, stack, UK_JK_LINES)					\
	X(STACK_DEPTH, stack_depth, UK_JK_UNSIGNED)			\
	X(SITE_FUNCTION, site_function, UK_JK_TEXT)			\
	X(SITE_EVENTS, site_events, UK_JK_UNSIGNED)			\
	X(SUPPRESSED_COUNT, suppressed_count, UK_JK_UNSIGNED)		\
	X(SUPPRESSED_TOTAL, suppressed_total, UK_JK_UNSIGNED)		\
	X(LOSS_REASON, loss_reason, UK_JK_TEXT)				\
	X(LOSS_COUNT, loss_count, UK_JK_UNSIGNED)			\
	X(LOSS_TOTAL, loss_total, UK_JK_UNSIGNED)			\
	X(LOSS_DETAIL, loss_detail, UK_JK_TEXT)				\
	X(DAEMON_STATE, daemon_state, UK_JK_TEXT)

#define UK_JF_OF_EVENT(ATTR, member, JOURNAL, ...)	UK_JF_##JOURNAL,
#define UK_JF_OF_EXTRA(JOURNAL, key, kind)	UK_JF_##JOURNAL,
enum uk_jf {
	UK_EVENT_FIELDS(UK_JF_OF_EVENT)
	UK_JOURNAL_EXTRA_FIELDS(UK_JF_OF_EXTRA)
	UK_JF_NR
};
#undef UK_JF_OF_EVENT
#undef UK_JF_OF_EXTRA

/*
 * "UACCESS_SEQ" for UK_JF(SEQ): a field of the list or a compile error,
 * and a constant that static tables may hold.
 */
#define UK_JF(JOURNAL)	(&("UACCESS_" #JOURNAL)[0 * sizeof(char[UK_JF_##JOURNAL + 1])])

#define UK_JOURNAL_PREFIX	"UACCESS_"
#define UK_JOURNAL_PREFIX_LEN	(sizeof(UK_JOURNAL_PREFIX) - 1)

struct uk_jfield {
	const char *name;	/* "UACCESS_SITE_IP" */
	const char *key;	/* its JSON key and lower-case match: "site_ip" */
	enum uk_jkind kind;
};

extern const struct uk_jfield uk_journal_fields[UK_JF_NR];

/* The field named @name ("UACCESS_SEQ"), or NULL. */
const struct uk_jfield *uk_journal_field(const char *name);
/* The field of JSON key @key (@len bytes: "seq"), or NULL. */
const struct uk_jfield *uk_journal_field_by_key(const char *key, size_t len);

#endif /* UK_JOURNAL_FIELDS_H */
