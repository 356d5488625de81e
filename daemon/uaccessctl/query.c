// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl list and show: uaccessd's journal entries read back with
 * sd-journal, in the manner of coredumpctl list and info.  What a match,
 * a time or an entry means on screen is match.c's; this file opens
 * the journal, applies the matches, the boot and the time window, and
 * walks the entries.
 *
 *   uaccessctl list [MATCH...]    a table of the event entries, newest last
 *   uaccessctl show [MATCH...]    every field of the matching entries
 *
 * A MATCH is a pid, FIELD=VALUE or a function (match.h); several
 * matches on one field are ORed, on different fields ANDed, as sd-journal
 * does.  Without a MESSAGE_ID= match only event entries are selected.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "cli.h"
#include "query.h"
#include "common/msgid.h"
#include "common/time.h"
#include "common/json.h"
#include "json_out.h"

static void free_bad_files(struct uk_query *q)
{
	size_t i;

	for (i = 0; i < q->n_bad_files; i++)
		free(q->bad_files[i]);
	free(q->bad_files);
	q->bad_files = NULL;
	q->n_bad_files = 0;
	q->n_denied_files = 0;
}

void uk_query_release(struct uk_query *q)
{
	free(q->matches);
	q->matches = NULL;
	if (q->j)
		sd_journal_close(q->j);
	q->j = NULL;
	free_bad_files(q);
}

/* "-1", "+2", "0", "": a boot offset as journalctl takes it. */
static bool parse_boot_offset(const char *s, long *ret)
{
	char *end;
	long v;

	if (!*s) {
		*ret = 0;
		return true;
	}
	if (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))
		return false;
	if ((*s == '-' || *s == '+') && (s[1] < '0' || s[1] > '9'))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return false;
	*ret = v;
	return true;
}

static int parse_times(struct uk_query *q)
{
	char why[160];
	int r;

	if (q->cli.since) {
		r = uk_time_parse(q->cli.since, q->now, &q->since, why,
				  sizeof(why));
		if (r < 0)
			return uk_cli_error(&q->cli, UK_ERR_USAGE,
					    "--since: %s", why);
	}
	if (q->cli.until) {
		r = uk_time_parse(q->cli.until, q->now, &q->until, why,
				  sizeof(why));
		if (r < 0)
			return uk_cli_error(&q->cli, UK_ERR_USAGE,
					    "--until: %s", why);
	}
	if (q->cli.since && q->cli.until && q->since > q->until)
		return uk_cli_error(&q->cli, UK_ERR_USAGE,
				    "--since (%s) is after --until (%s)",
				    q->cli.since, q->cli.until);
	return 0;
}

static int parse_matches(struct uk_query *q, int argc, char **argv)
{
	char why[256];
	int i, r;

	if (!argc)
		return 0;
	q->matches = calloc((size_t)argc, sizeof(*q->matches));
	if (!q->matches)
		return uk_cli_error(&q->cli, -ENOMEM, "out of memory");
	for (i = 0; i < argc; i++) {
		r = uk_match_parse(argv[i], &q->matches[i], why, sizeof(why));
		if (r < 0)
			return uk_cli_error(&q->cli, UK_ERR_USAGE, "%s", why);
	}
	q->n_matches = argc;
	return 0;
}

static bool is_journal_file(const char *name)
{
	size_t n = strlen(name);

	return (n > 8 && !strcmp(name + n - 8, ".journal")) ||
	       (n > 9 && !strcmp(name + n - 9, ".journal~"));
}

static bool is_machine_dir(const char *name)
{
	sd_id128_t id;

	return strlen(name) == 32 && sd_id128_from_string(name, &id) >= 0;
}

/*
 * Is @path a journal file that sd-journal opens?  Why not in @why, and
 * *denied when it is a matter of permission.
 */
static bool file_readable(const char *path, char *why, size_t whylen,
			  bool *denied)
{
	const char *paths[] = { path, NULL };
	uint64_t bytes = 0;
	sd_journal *j;
	int r;

	r = sd_journal_open_files(&j, paths, 0);
	*denied = r == -EACCES || r == -EPERM;
	if (r < 0) {
		snprintf(why, whylen, "%s",
			 r == -ENODATA ? "truncated" :
			 r == -EBADMSG ? "corrupt" :
			 r == -EPROTONOSUPPORT ?
			 "a journal format this systemd cannot read" :
			 strerror(-r));
		return false;
	}
	r = sd_journal_get_usage(j, &bytes);
	sd_journal_close(j);
	if (r < 0 || !bytes) {
		/* sd-journal skips it without a word: truncated or foreign */
		snprintf(why, whylen, "truncated or not a journal file");
		return false;
	}
	return true;
}

static int note_bad_file(struct uk_query *q, const char *path,
			 const char *why)
{
	char **v = reallocarray(q->bad_files, q->n_bad_files + 1,
				sizeof(*v));

	if (!v)
		return -ENOMEM;
	q->bad_files = v;
	v[q->n_bad_files] = strdup(path);
	if (!v[q->n_bad_files])
		return -ENOMEM;
	q->n_bad_files++;
	fprintf(q->cli.err,
		"uaccessctl: cannot read the journal file %s (%s): its entries are left out\n",
		path, why);
	return 0;
}

/*
 * sd_journal_open_directory() leaves out, silently, a file it cannot
 * open (a truncated copy, a file that is no journal): its entries would
 * be missing from list and from the totals of top without a word.  So
 * each journal file of the directory, and of its machine-ID
 * subdirectories as sd-journal reads them, is opened alone first.
 */
static int check_directory(struct uk_query *q, const char *dir, int depth)
{
	struct dirent *de;
	char why[128];
	DIR *d = opendir(dir);
	int r = 0;

	if (!d)
		return 0;	/* sd_journal_open_directory() says why */
	while (r >= 0 && (de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (is_journal_file(de->d_name)) {
			bool denied = false;

			if (!file_readable(path, why, sizeof(why), &denied)) {
				r = note_bad_file(q, path, why);
				q->n_denied_files += denied;
			}
		} else if (depth == 0 && is_machine_dir(de->d_name)) {
			r = check_directory(q, path, 1);
		}
		free(path);
	}
	closedir(d);
	return r;
}

static int open_journal(struct uk_query *q)
{
	uint64_t bytes = 0;
	int r;

	if (q->cli.directory)
		r = sd_journal_open_directory(&q->j, q->cli.directory, 0);
	else
		r = sd_journal_open(&q->j, SD_JOURNAL_LOCAL_ONLY |
				    SD_JOURNAL_SYSTEM);
	if (r < 0) {
		q->j = NULL;
		if (q->cli.directory)
			return uk_cli_error(&q->cli, UK_ERR_FAILURE,
					    "cannot open the journal directory %s: %s",
					    q->cli.directory, strerror(-r));
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "cannot open the journal: %s", strerror(-r));
	}
	/* The stack and the message in full, whatever their size. */
	r = sd_journal_set_data_threshold(q->j, 0);
	if (r < 0)
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "cannot read the journal: %s", strerror(-r));
	if (q->cli.directory && check_directory(q, q->cli.directory, 0) < 0)
		return uk_cli_error(&q->cli, -ENOMEM, "out of memory");
	/* No file opened: say why rather than "No entries found." */
	if (sd_journal_get_usage(q->j, &bytes) >= 0 && !bytes) {
		if (q->cli.directory && q->n_bad_files &&
		    q->n_denied_files == q->n_bad_files)
			return uk_cli_error(&q->cli, UK_ERR_PERM,
					    "permission denied: no journal file in %s is readable by this user",
					    q->cli.directory);
		if (q->cli.directory && q->n_bad_files)
			return uk_cli_error(&q->cli, UK_ERR_FAILURE,
					    "no readable journal files in %s",
					    q->cli.directory);
		if (q->cli.directory)
			return uk_cli_error(&q->cli, UK_ERR_FAILURE,
					    "no journal files in %s",
					    q->cli.directory);
		if (geteuid() != 0)
			return uk_cli_error(&q->cli, UK_ERR_PERM,
					    "no journal files readable: uaccessd's entries are in the system journal, readable by root and the groups systemd-journal, adm and wheel");
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "no journal files found (is systemd-journald running?)");
	}
	return 0;
}

struct boot {
	sd_id128_t id;
	uint64_t first;		/* realtime of its first entry */
};

static int boot_cmp(const void *a, const void *b)
{
	const struct boot *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The boots in the journal, oldest first (by their first entry), as
 * journalctl --list-boots orders them.  Leaves no match behind.
 */
static int list_boots(sd_journal *j, struct boot **ret, size_t *n)
{
	struct boot *boots = NULL, *nb;
	size_t cap = 0, i;
	const void *d;
	size_t l;
	int r;

	*n = 0;
	r = sd_journal_query_unique(j, "_BOOT_ID");
	if (r < 0)
		return r;
	while ((r = sd_journal_enumerate_unique(j, &d, &l)) > 0) {
		char s[SD_ID128_STRING_MAX];

		if (l != 9 + 32 || memcmp(d, "_BOOT_ID=", 9))
			continue;
		memcpy(s, (const char *)d + 9, 32);
		s[32] = '\0';
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nb = reallocarray(boots, cap, sizeof(*boots));
			if (!nb) {
				r = -ENOMEM;
				goto fail;
			}
			boots = nb;
		}
		if (sd_id128_from_string(s, &boots[*n].id) < 0)
			continue;
		boots[*n].first = 0;
		(*n)++;
	}
	if (r < 0)
		goto fail;
	for (i = 0; i < *n; i++) {
		char m[9 + SD_ID128_STRING_MAX] = "_BOOT_ID=";

		sd_id128_to_string(boots[i].id, m + 9);
		sd_journal_flush_matches(j);
		r = sd_journal_add_match(j, m, 0);
		if (r < 0)
			goto fail;
		r = sd_journal_seek_head(j);
		if (r >= 0)
			r = sd_journal_next(j);
		if (r > 0)
			r = sd_journal_get_realtime_usec(j, &boots[i].first);
		if (r < 0)
			goto fail;
	}
	sd_journal_flush_matches(j);
	qsort(boots, *n, sizeof(*boots), boot_cmp);
	*ret = boots;
	return 0;
fail:
	sd_journal_flush_matches(j);
	free(boots);
	*n = 0;
	return r;
}

/*
 * --boot as journalctl takes it: "" or "0" the current boot (the newest
 * one of a --directory), "-1" the one before, "1" the oldest, a boot ID,
 * or a boot ID and an offset from it ("ID-1").  The match "_BOOT_ID=..."
 * goes to @m (9 + SD_ID128_STRING_MAX bytes), "" without --boot.
 */
static int resolve_boot(struct uk_query *q, char *m)
{
	char s[SD_ID128_STRING_MAX];
	const char *spec = q->cli.boot, *rest = spec;
	struct boot *boots = NULL;
	bool have_id = false;
	sd_id128_t id;
	size_t n = 0, i, at;
	long off;
	int r;

	if (!spec)
		return 0;
	if (strlen(spec) >= 32) {
		memcpy(s, spec, 32);
		s[32] = '\0';
		if (sd_id128_from_string(s, &id) >= 0) {
			have_id = true;
			rest = spec + 32;
		}
	}
	if (have_id && !*rest)
		goto add;
	if (!parse_boot_offset(rest, &off))
		return uk_cli_error(&q->cli, UK_ERR_USAGE,
				    "--boot: \"%s\" is not a boot ID and/or an offset like -1",
				    spec);
	/* This machine's boot, unless the journal is another machine's. */
	if (!have_id && off == 0 && !q->cli.directory) {
		r = sd_id128_get_boot(&id);
		if (r < 0)
			return uk_cli_error(&q->cli, UK_ERR_FAILURE,
					    "cannot read the current boot ID: %s",
					    strerror(-r));
		goto add;
	}
	r = list_boots(q->j, &boots, &n);
	if (r < 0)
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "cannot list the boots in the journal: %s",
				    strerror(-r));
	if (have_id) {
		for (i = 0; i < n && !sd_id128_equal(boots[i].id, id); i++)
			;
		if (i == n)
			goto none;
		/* i + off, in range */
		if (off < 0 ? (size_t)-off > i : (size_t)off >= n - i)
			goto none;
		at = off < 0 ? i - (size_t)-off : i + (size_t)off;
	} else if (off <= 0) {
		if ((size_t)-off >= n)
			goto none;
		at = n - 1 - (size_t)-off;
	} else {
		if ((size_t)off > n)
			goto none;
		at = (size_t)off - 1;
	}
	id = boots[at].id;
	free(boots);
add:
	strcpy(m, "_BOOT_ID=");
	sd_id128_to_string(id, m + 9);
	return 0;
none:
	free(boots);
	return uk_cli_error(&q->cli, UK_ERR_FAILURE,
			    "no boot %s in the journal (%zu boot%s)", spec, n,
			    n == 1 ? "" : "s");
}

/* The user's matches, the event MESSAGE_ID unless one is given, the boot. */
static int add_matches(struct uk_query *q)
{
	char boot[9 + SD_ID128_STRING_MAX] = "";
	bool msgid = false;
	int i, r;

	/* First: finding a boot by its offset flushes the matches. */
	r = resolve_boot(q, boot);
	if (r < 0)
		return r;
	for (i = 0; i < q->n_matches; i++) {
		r = sd_journal_add_match(q->j, q->matches[i].text, 0);
		if (r < 0)
			return uk_cli_error(&q->cli, UK_ERR_USAGE,
					    "bad match \"%s\": %s",
					    q->matches[i].text, strerror(-r));
		if (uk_match_is_field(&q->matches[i], "MESSAGE_ID"))
			msgid = true;
	}
	r = 0;
	for (i = 0; !msgid && r >= 0 && q->msgids[i]; i++) {
		char m[11 + SD_ID128_STRING_MAX];

		snprintf(m, sizeof(m), "MESSAGE_ID=%s", q->msgids[i]);
		r = sd_journal_add_match(q->j, m, 0);
	}
	if (r >= 0 && boot[0])
		r = sd_journal_add_match(q->j, boot, 0);
	if (r < 0)
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "cannot add a journal match: %s",
				    strerror(-r));
	return 0;
}

int uk_query_init(struct uk_query *q, const struct uk_cli *cli, int argc,
		  char **argv, const char *const *msgids)
{
	static const char *const events[] = { UK_MSGID_EVENT, NULL };
	int r;

	memset(q, 0, sizeof(*q));
	q->cli = *cli;
	q->now = uk_time_real_usec();
	q->msgids = msgids ? msgids : events;
	/* uaccessctl.c has taken the options; "--" may still end them. */
	if (argc && !strcmp(argv[0], "--")) {
		argc--;
		argv++;
	}
	r = parse_times(q);
	if (!r)
		r = parse_matches(q, argc, argv);
	if (!r)
		r = open_journal(q);
	if (!r)
		r = add_matches(q);
	return r;
}

static bool in_window(const struct uk_query *q, uint64_t t)
{
	return t >= q->since && (!q->cli.until || t <= q->until);
}

static int load_entry(sd_journal *j, struct uk_entry *e, bool cursor)
{
	const void *d;
	size_t l;
	int r;

	r = sd_journal_get_realtime_usec(j, &e->realtime_usec);
	if (r < 0)
		return r;
	sd_journal_restart_data(j);
	while ((r = sd_journal_enumerate_data(j, &d, &l)) > 0) {
		r = uk_entry_add(e, d, l);
		if (r == -ENOMEM)
			return r;
	}
	if (r < 0)
		return r;
	if (cursor) {
		r = sd_journal_get_cursor(j, &e->cursor);
		if (r < 0)
			return r;
	}
	return 0;
}

int64_t uk_query_walk(struct uk_query *q, bool cursor, uk_query_fn fn,
		      void *data)
{
	char *start = NULL;
	uint64_t t, want = q->cli.lines, n = 0;
	int r;

	if (want) {
		/* Back from the end of the window to the Nth entry. */
		r = q->cli.until ? sd_journal_seek_realtime_usec(q->j, q->until) :
				   sd_journal_seek_tail(q->j);
		while (r >= 0 && n < want && (r = sd_journal_previous(q->j)) > 0) {
			r = sd_journal_get_realtime_usec(q->j, &t);
			if (r < 0)
				break;
			if (q->cli.until && t > q->until)
				continue;
			if (t < q->since)
				break;
			free(start);
			start = NULL;
			r = sd_journal_get_cursor(q->j, &start);
			n++;
		}
		if (r < 0)
			goto fail;
		if (!n)
			return 0;
		want = n;
		r = sd_journal_seek_cursor(q->j, start);
		free(start);
		start = NULL;
	} else {
		r = q->since ? sd_journal_seek_realtime_usec(q->j, q->since) :
			       sd_journal_seek_head(q->j);
	}
	n = 0;
	while (r >= 0 && (!want || n < want) &&
	       (r = sd_journal_next(q->j)) > 0) {
		struct uk_entry e;

		r = sd_journal_get_realtime_usec(q->j, &t);
		if (r < 0)
			break;
		if (q->cli.until && t > q->until)
			break;
		if (!in_window(q, t))
			continue;
		uk_entry_init(&e);
		r = load_entry(q->j, &e, cursor);
		if (r == -ENOMEM) {
			uk_entry_release(&e);
			break;
		}
		if (r < 0) {
			/* A damaged entry: say so, go on with the rest. */
			fprintf(q->cli.err,
				"uaccessctl: skipping an unreadable journal entry: %s\n",
				strerror(-r));
			uk_entry_release(&e);
			r = 0;
			continue;
		}
		r = fn(q, &e, data);
		uk_entry_release(&e);
		if (r < 0)
			return r;
		n++;
	}
	if (r < 0)
		goto fail;
	return (int64_t)n;
fail:
	free(start);
	return uk_cli_error(&q->cli, UK_ERR_FAILURE,
			    "cannot read the journal: %s", strerror(-r));
}

int uk_query_entries(struct uk_query *q, bool cursor, uk_query_fn fn,
		     void *data, struct uk_query_json *jo)
{
	int64_t n = uk_query_walk(q, cursor, fn, data);

	if (!n)
		return uk_query_no_entries(q);
	/* Closed after an error too: what was written stays a document. */
	if (q->cli.json && (n > 0 || jo->n))
		uk_query_json_end(q);
	return n < 0 ? (int)n : 0;
}

int uk_query_no_entries(const struct uk_query *q)
{
	if (q->cli.json)
		fputs("[]\n", q->cli.out);
	fputs("No entries found.\n", q->cli.err);
	return -ENODATA;
}

int uk_query_json_put(struct uk_query *q, const struct uk_entry *e,
		      const char *catalog, struct uk_query_json *jo)
{
	struct uk_json js;
	char *text;
	int r;

	uk_json_init(&js, 0);
	uk_entry_json(&js, e, jo->full, catalog);
	r = uk_json_finish(&js, &text, NULL);
	if (r < 0)
		return uk_cli_error(&q->cli, UK_ERR_FAILURE,
				    "cannot write JSON: %s", strerror(-r));
	fputs(jo->n ? "," : "[", q->cli.out);
	if (q->cli.json_pretty)
		fputs("\n  ", q->cli.out);
	else if (jo->n)
		fputc('\n', q->cli.out);
	uk_cli_json_write(q->cli.out, text, strlen(text), q->cli.json_pretty,
			  1);
	free(text);
	jo->n++;
	return 0;
}

int uk_query_json_end(struct uk_query *q)
{
	fputs(q->cli.json_pretty ? "\n]\n" : "]\n", q->cli.out);
	return 0;
}

int uk_query_files_left_out(struct uk_query *q, int r)
{
	if (r < 0 || !q->n_bad_files)
		return r;
	return uk_cli_error(&q->cli, UK_ERR_FAILURE,
			    "%zu journal file%s could not be read: %s entries are not shown",
			    q->n_bad_files, q->n_bad_files == 1 ? "" : "s",
			    q->n_bad_files == 1 ? "its" : "their");
}
