// SPDX-License-Identifier: GPL-2.0
/*
 * `uaccessctl show`: the detail block of an entry (uk_show_entry()) and
 * the verb.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal_fields.h"
#include "common/time.h"
#include "common/util.h"
#include "entry.h"
#include "output.h"
#include "query.h"

#define UK_LABEL_WIDTH	16

static void put_line(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put_line(FILE *f, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%*s: ", UK_LABEL_WIDTH, label);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* A field's value, printable, in a buffer of the caller's. */
static const char *show_val(const struct uk_entry *e, const char *name,
			    char *buf, size_t len)
{
	const struct uk_entry_field *f = uk_entry_find(e, name);

	if (!f)
		return NULL;
	uk_cli_sanitize_n(f->value, f->value_len, buf, len);
	return buf;
}

/* Fields the block shows under labels of its own (or folds in). */
static const char *const uk_show_known[] = {
	UK_JF(SEQ), UK_JF(KIND), UK_JF(HELPER), UK_JF(DIRECTION),
	UK_JF(ADDRESS), UK_JF(ADDR_CLASS), UK_JF(SIZE),
	UK_JF(SITE_SYMBOL), UK_JF(SITE_IP), UK_JF(SITE_ID),
	UK_JF(SITE_FUNCTION), UK_JF(PID), UK_JF(COMM),
	UK_JF(TGID), UK_JF(UID), UK_JF(SYSCALL_NR), UK_JF(SYSCALL_ARCH),
	UK_JF(SYSCALL_ARGS), UK_JF(CPU),
	UK_JF(CONTEXT), UK_JF(COUNT), UK_JF(SUPPRESSED),
	UK_JF(SITE_EVENTS), UK_JF(TS_REAL), UK_JF(TS_BOOT),
	UK_JF(STACK_HASH), UK_JF(STACK), UK_JF(STACK_DEPTH),
};

static bool show_known(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uk_show_known); i++)
		if (!strcmp(uk_show_known[i], name))
			return true;
	return false;
}

/* UK_JF(LOSS_REASON) is labelled "Loss reason". */
static void generic_label(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name + UK_JOURNAL_PREFIX_LEN);
	for (i = 0; buf[i]; i++) {
		if (buf[i] == '_')
			buf[i] = ' ';
		else if (i)
			buf[i] = (char)tolower((unsigned char)buf[i]);
	}
}

static void show_kernel_time(FILE *f, const struct uk_entry *e)
{
	const char *real = uk_entry_str(e, UK_JF(TS_REAL));
	const char *boot = uk_entry_str(e, UK_JF(TS_BOOT));
	char t[64] = "", b[80] = "", v[64];
	unsigned long long ns;
	char *end;

	if (!real && !boot)
		return;
	if (real) {
		errno = 0;
		ns = strtoull(real, &end, 10);
		if (errno || *end || end == real)
			uk_cli_sanitize_n(real, strlen(real), t, sizeof(t));
		else
			uk_time_format(ns / 1000, t, sizeof(t));
	}
	if (boot) {
		errno = 0;
		ns = strtoull(boot, &end, 10);
		if (errno || *end || end == boot)
			snprintf(b, sizeof(b), "boot time %s",
				 show_val(e, UK_JF(TS_BOOT), v, sizeof(v)));
		else
			snprintf(b, sizeof(b), "%llu.%09llus after boot",
				 ns / UK_NSEC_PER_SEC, ns % UK_NSEC_PER_SEC);
	}
	if (real && boot)
		put_line(f, "Kernel time", "%s (%s)", t, b);
	else
		put_line(f, "Kernel time", "%s", real ? t : b);
}

static void show_stack(FILE *f, const struct uk_entry *e)
{
	const struct uk_entry_field *st = uk_entry_find(e, UK_JF(STACK));
	char frame[4 * UK_SYMBOL_LEN + 1], depth[32];
	const char *p, *end;
	unsigned int i = 0;

	if (!st) {
		if (show_val(e, UK_JF(STACK_DEPTH), depth, sizeof(depth)))
			put_line(f, "Stack depth", "%s", depth);
		return;
	}
	p = st->value;
	end = st->value + st->value_len;
	while (p < end || i == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		uk_cli_sanitize_n(p, n, frame, sizeof(frame));
		fprintf(f, "%*s%c #%u %s\n", UK_LABEL_WIDTH, i ? "" : "Stack",
			i ? ' ' : ':', i, frame);
		i++;
		p += n + 1;
	}
}

/* Fields shown as they are, one "Label: value" line each. */
struct plain_line {
	const char *field;
	const char *label;
};

static const struct plain_line head[] = {
	{ "_HOSTNAME", "Hostname" },
	{ "_MACHINE_ID", "Machine ID" },
	{ "_BOOT_ID", "Boot ID" },
	{ "MESSAGE", "Message" },
	{ UK_JF(SEQ), "Seq" },
	{ UK_JF(KIND), "Kind" },
	{ UK_JF(HELPER), "Helper" },
	{ UK_JF(DIRECTION), "Direction" },
};

static const struct plain_line task[] = {
	{ UK_JF(TGID), "TGID" },
	{ UK_JF(UID), "UID" },
	{ UK_JF(SYSCALL_NR), "Syscall" },
	{ UK_JF(SYSCALL_ARCH), "Syscall ABI" },
	{ UK_JF(SYSCALL_ARGS), "Syscall args" },
	{ UK_JF(CPU), "CPU" },
	{ UK_JF(CONTEXT), "Context" },
};

static void put_plain(FILE *f, const struct uk_entry *e,
		      const struct plain_line *lines, size_t n, char *buf,
		      size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (show_val(e, lines[i].field, buf, len))
			put_line(f, lines[i].label, "%s", buf);
}

int uk_show_entry(FILE *f, const struct uk_entry *e, uint64_t now_usec,
		  const char *catalog)
{
	char a[UK_SYMBOL_LEN * 4 + 1], b[UK_SYMBOL_LEN * 4 + 1];
	char c[UK_SYMBOL_LEN * 4 + 1], t[64], rel[64];
	char val[4096], label[UK_MATCH_FIELD_MAX + 1];
	const char *pid, *comm;
	size_t i;

	put_line(f, "Time", "%s (%s)",
		 uk_time_format(e->realtime_usec, t, sizeof(t)),
		 uk_time_format_relative(e->realtime_usec, now_usec, rel,
					 sizeof(rel)));
	put_plain(f, e, head, ARRAY_SIZE(head), val, sizeof(val));

	if (show_val(e, UK_JF(ADDRESS), a, sizeof(a))) {
		const char *cls = show_val(e, UK_JF(ADDR_CLASS), b,
					   sizeof(b));
		const char *size = show_val(e, UK_JF(SIZE), c, sizeof(c));

		put_line(f, "Address", "%s%s%s%s%s%s", a,
			 cls ? " (" : "", cls ? cls : "", cls ? ")" : "",
			 size ? ", size " : "", size ? size : "");
	} else {
		if (show_val(e, UK_JF(ADDR_CLASS), b, sizeof(b)))
			put_line(f, "Address class", "%s", b);
		if (show_val(e, UK_JF(SIZE), c, sizeof(c)))
			put_line(f, "Size", "%s", c);
	}

	if (show_val(e, UK_JF(SITE_SYMBOL), a, sizeof(a)) ||
	    show_val(e, UK_JF(SITE_FUNCTION), a, sizeof(a)) ||
	    show_val(e, UK_JF(SITE_IP), a, sizeof(a))) {
		const char *ip = show_val(e, UK_JF(SITE_IP), b, sizeof(b));
		const char *id = show_val(e, UK_JF(SITE_ID), c, sizeof(c));
		char extra[sizeof(b) + sizeof(c) + 16] = "";

		if (ip && !strcmp(ip, a))
			ip = NULL;
		if (ip && id)
			snprintf(extra, sizeof(extra), " (%s, id %s)", ip, id);
		else if (ip || id)
			snprintf(extra, sizeof(extra), " (%s%s)", ip ? "" : "id ",
				 ip ? ip : id);
		put_line(f, "Site", "%s%s", a, extra);
	} else if (show_val(e, UK_JF(SITE_ID), c, sizeof(c))) {
		put_line(f, "Site", "id %s", c);
	}

	pid = show_val(e, UK_JF(PID), a, sizeof(a));
	comm = show_val(e, UK_JF(COMM), b, sizeof(b));
	if (pid)
		put_line(f, "PID", "%s%s%s%s", pid, comm ? " (" : "",
			 comm ? comm : "", comm ? ")" : "");
	else if (comm)
		put_line(f, "Command", "%s", comm);
	put_plain(f, e, task, ARRAY_SIZE(task), val, sizeof(val));
	if (show_val(e, UK_JF(COUNT), a, sizeof(a))) {
		const char *sup = show_val(e, UK_JF(SUPPRESSED), b,
					   sizeof(b));

		put_line(f, "Count", "%s%s%s%s", a,
			 sup ? " (suppressed by the kernel: " : "",
			 sup ? sup : "", sup ? ")" : "");
	} else if (show_val(e, UK_JF(SUPPRESSED), b, sizeof(b))) {
		put_line(f, "Suppressed", "%s", b);
	}
	if (show_val(e, UK_JF(SITE_EVENTS), a, sizeof(a)))
		put_line(f, "Site events", "%s", a);
	show_kernel_time(f, e);
	if (show_val(e, UK_JF(STACK_HASH), a, sizeof(a)))
		put_line(f, "Stack hash", "%s", a);

	for (i = 0; i < e->n; i++) {
		const struct uk_entry_field *x = &e->fields[i];

		if (strncmp(x->name, UK_JOURNAL_PREFIX, UK_JOURNAL_PREFIX_LEN) ||
		    !x->name[UK_JOURNAL_PREFIX_LEN] || show_known(x->name) ||
		    uk_entry_find(e, x->name) != x)
			continue;
		generic_label(x->name, label, sizeof(label));
		uk_cli_sanitize_n(x->value, x->value_len, val, sizeof(val));
		put_line(f, label, "%s", val);
	}
	show_stack(f, e);

	if (catalog) {
		const char *p = catalog;

		fputc('\n', f);
		while (*p) {
			size_t n = strcspn(p, "\n");

			if (n)
				fprintf(f, "-- %.*s\n", (int)n, p);
			else
				fputs("--\n", f);
			p += n;
			if (*p)
				p++;
		}
	}
	return ferror(f) ? -EIO : 0;
}

static int show_entry(struct uk_query *q, const struct uk_entry *e, void *data)
{
	struct uk_query_json *jo = data;
	char *catalog = NULL;
	int r;

	/* The catalog explains the entry's MESSAGE_ID, fields filled in. */
	if (sd_journal_get_catalog(q->j, &catalog) < 0)
		catalog = NULL;
	if (q->cli.json) {
		r = uk_query_json_put(q, e, catalog, jo);
	} else {
		if (jo->n)
			fputc('\n', q->cli.out);
		r = uk_show_entry(q->cli.out, e, q->now, catalog) < 0 ?
		    uk_cli_error(&q->cli, UK_ERR_FAILURE,
				 "cannot write the entry: %s", strerror(EIO)) :
		    0;
		jo->n++;
	}
	free(catalog);
	return r;
}

int uk_cli_show(const struct uk_cli *cli, int argc, char **argv)
{
	struct uk_query_json jo = { .full = true };
	struct uk_query q;
	int r;

	r = uk_query_init(&q, cli, argc, argv, NULL);
	if (r < 0)
		goto out;
	/* Nothing asked for: the newest event, like coredumpctl debug. */
	if (!q.n_matches && !q.cli.lines && !q.cli.since && !q.cli.until)
		q.cli.lines = 1;
	r = uk_query_entries(&q, true, show_entry, &jo, &jo);
	r = uk_query_files_left_out(&q, r);
out:
	uk_query_release(&q);
	return r;
}
