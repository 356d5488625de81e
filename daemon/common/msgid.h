/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MESSAGE_IDs of uaccessd's journal entries: uaccessd writes them,
 * uaccessctl reads by them, packaging/uaccessd.catalog explains them to
 * `journalctl -x`.
 */
#ifndef UK_MSGID_H
#define UK_MSGID_H

#define UK_MSGID_EVENT		"d3e08ea094464dd2b8ef6d7fae8ae370"
#define UK_MSGID_SUPPRESSED	"144e7c15c18a4745b531ceb1dbc42003"
#define UK_MSGID_LOSS		"eb1e84d45e694f63a1ee5fa9e99e160c"
#define UK_MSGID_HEALTH		"7967fca40ce440eca704af1b2557114d"

#endif /* UK_MSGID_H */
