// SPDX-License-Identifier: GPL-2.0
/* Command-line matches, see match.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "common/event.h"
#include "common/util.h"
#include "common/why.h"
#include "entry.h"
#include "match.h"

static bool is_field_name(const char *s, size_t len)
{
	size_t i;

	if (!len || isdigit((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_')
			return false;
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool is_symbol_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* "0x" and at least one hex digit at *p; moves past them. */
static bool skip_hex(const char **p)
{
	const char *s = *p;

	if (s[0] != '0' || s[1] != 'x' || !isxdigit((unsigned char)s[2]))
		return false;
	for (s += 2; isxdigit((unsigned char)*s); s++)
		;
	*p = s;
	return true;
}

/* What may follow the function in %pB form: "+0x1c/0x80", " [mod]". */
static bool symbol_tail_ok(const char *s)
{
	if (*s == '+') {
		s++;
		if (!skip_hex(&s))
			return false;
		if (*s == '/') {
			s++;
			if (!skip_hex(&s))
				return false;
		}
	}
	if (*s == ' ') {
		s++;
		if (*s++ != '[' || *s == ']')
			return false;
		for (; *s && *s != ']'; s++)
			if (!is_symbol_char(*s) && *s != '-')
				return false;
		if (*s++ != ']')
			return false;
	}
	return *s == '\0';
}

static int match_field(const char *arg, const char *eq, struct uk_match *m,
		       char *why, size_t whylen)
{
	size_t flen = (size_t)(eq - arg), i;
	int n;

	if (!flen) {
		uk_why(why, whylen, "\"%s\": no field name before '='", arg);
		return -EINVAL;
	}
	m->type = UK_MATCH_FIELD;
	if (is_field_name(arg, flen)) {
		if (flen > UK_MATCH_FIELD_MAX) {
			uk_why(why, whylen,
				"field name \"%.*s...\" longer than %d bytes",
				16, arg, UK_MATCH_FIELD_MAX);
			return -EINVAL;
		}
		snprintf(m->text, sizeof(m->text), "%s", arg);
		m->field_len = flen;
		return 0;
	}
	if (!uk_journal_field_by_key(arg, flen)) {
		uk_why(why, whylen,
			"\"%.*s\" is not a journal field (upper case: UACCESS_PID=101) nor a field of uaccessd's entries (seq, pid, comm, helper, ...)",
			(int)(flen > 64 ? 64 : flen), arg);
		return -EINVAL;
	}
	n = snprintf(m->text, sizeof(m->text), UK_JOURNAL_PREFIX "%s", arg);
	if (n < 0 || (size_t)n >= sizeof(m->text)) {
		uk_why(why, whylen, "match longer than %d bytes",
			UK_MATCH_MAX - 1);
		return -ENAMETOOLONG;
	}
	for (i = UK_JOURNAL_PREFIX_LEN; i < UK_JOURNAL_PREFIX_LEN + flen; i++)
		m->text[i] = (char)toupper((unsigned char)m->text[i]);
	m->field_len = UK_JOURNAL_PREFIX_LEN + flen;
	return 0;
}

int uk_match_parse(const char *arg, struct uk_match *m, char *why,
		   size_t whylen)
{
	const char *eq;
	size_t flen;

	memset(m, 0, sizeof(*m));
	if (!arg || !arg[0]) {
		uk_why(why, whylen, "empty match");
		return -EINVAL;
	}
	if (strlen(arg) >= UK_MATCH_MAX) {
		uk_why(why, whylen, "match longer than %d bytes",
			UK_MATCH_MAX - 1);
		return -ENAMETOOLONG;
	}
	if (all_digits(arg)) {
		unsigned long long pid;

		errno = 0;
		pid = strtoull(arg, NULL, 10);
		if (errno || pid > UINT32_MAX) {
			uk_why(why, whylen, "pid %s out of range", arg);
			return -ERANGE;
		}
		m->type = UK_MATCH_PID;
		snprintf(m->text, sizeof(m->text), UK_JOURNAL_PREFIX "PID=%llu", pid);
		m->field_len = UK_JOURNAL_PREFIX_LEN + 3;
		return 0;
	}
	eq = strchr(arg, '=');
	if (eq)
		return match_field(arg, eq, m, why, whylen);

	flen = strcspn(arg, "+ ");
	if (!flen || isdigit((unsigned char)arg[0]) ||
	    !symbol_tail_ok(arg + flen)) {
		uk_why(why, whylen,
			"\"%s\" is not a pid, FIELD=VALUE or function name", arg);
		return -EINVAL;
	}
	for (size_t i = 0; i < flen; i++) {
		if (!is_symbol_char(arg[i])) {
			uk_why(why, whylen,
				"\"%s\" is not a pid, FIELD=VALUE or function name",
				arg);
			return -EINVAL;
		}
	}
	if (flen >= UK_SYMBOL_LEN) {
		uk_why(why, whylen, "function name longer than %d bytes",
			UK_SYMBOL_LEN - 1);
		return -ENAMETOOLONG;
	}
	m->type = UK_MATCH_FUNCTION;
	snprintf(m->text, sizeof(m->text), UK_JOURNAL_PREFIX "SITE_FUNCTION=%.*s",
		 (int)flen, arg);
	m->field_len = UK_JOURNAL_PREFIX_LEN + 13;
	return 0;
}

bool uk_match_is_field(const struct uk_match *m, const char *field)
{
	return strlen(field) == m->field_len &&
	       !memcmp(m->text, field, m->field_len);
}
