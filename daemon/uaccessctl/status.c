// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl status: the kernel's detector (get-status, straight over
 * netlink: it is unprivileged; from uaccessd's reply when netlink cannot
 * give it) and uaccessd's health (its control socket).  A summary first,
 * as `systemctl status` opens: a few aligned lines, problems highlighted
 * on a terminal; with --all every fact after it as "key value" lines in
 * the manner of `auditctl -s`; or one JSON document; or, with
 * --format=openmetrics, uaccessd's metrics text (its control command
 * "metrics": the same text as its metrics file).
 *
 * Everything known is printed even when a part is missing; the exit
 * code names the first problem in the order kernel, daemon, loss
 * (docs/uaccessctl.md).  What could not be read is said once, on stderr;
 * a loss is data, on stdout (the summary's Loss line, JSON "loss").  The
 * metrics text carries the losses itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/fields.h"
#include "common/metrics.h"
#include "common/time.h"
#include "common/util.h"
#include "output.h"

struct kernel_part {
	bool have;
	const char *source;	/* "netlink" or "uaccessd" */
	struct uk_status st;
	int err;		/* UK_ERR_* of the problem, if !have */
	char msg[512];
};

struct daemon_part {
	bool asked;		/* not with --kernel */
	struct uk_json_value *reply;
	const struct uk_json_value *obj;	/* reply's "daemon" */
	int err;
	char msg[512];
};

static void kernel_from_netlink(struct kernel_part *k)
{
	struct uk_nl *nl = NULL;
	char why[256] = "";
	int r;

	r = uk_cli_sys->nl_open(&nl);
	if (r < 0) {
		k->err = uk_cli_nl_explain(r, k->msg, sizeof(k->msg));
		return;
	}
	r = uk_cli_sys->nl_get_status(nl, &k->st, why, sizeof(why));
	uk_cli_sys->nl_close(nl);
	if (r < 0) {
		k->err = r == -ENOENT ? UK_ERR_NO_KERNEL : UK_ERR_FAILURE;
		if (r == -ENOENT)
			snprintf(k->msg, sizeof(k->msg), "%s",
				 UK_CLI_MSG_NO_KERNEL);
		else
			snprintf(k->msg, sizeof(k->msg), "get-status failed: %s",
				 why[0] ? why : strerror(-r));
		return;
	}
	k->have = true;
	k->source = "netlink";
}

/* uaccessd's view of the kernel, when netlink gave none. */
static void kernel_from_daemon(struct kernel_part *k,
			       const struct uk_json_value *reply)
{
	const struct uk_json_value *kobj = uk_json_object_get(reply, "kernel");
	bool avail = false;

	if (uk_json_get_bool(uk_json_object_get(kobj, "available"),
			     &avail) < 0 || !avail)
		return;
	if (!uk_fields_from_json(uk_status_fields, kobj, &k->st,
				     sizeof(k->st)))
		return;
	k->have = true;
	k->source = "uaccessd";
	k->err = 0;
	k->msg[0] = '\0';
}

static void daemon_ask(const struct uk_cli *cli, struct daemon_part *d)
{
	char why[512];
	int r;

	d->asked = true;
	r = uk_cli_ctl(cli, "{\"cmd\":\"status\"}", &d->reply, why,
		       sizeof(why));
	if (r < 0) {
		d->err = uk_cli_ctl_explain(cli, r, why, d->msg,
					    sizeof(d->msg));
		return;
	}
	d->obj = uk_json_object_get(d->reply, "daemon");
	if (uk_json_type(d->obj) != UK_JSON_OBJECT) {
		d->obj = NULL;
		d->err = -EPROTO;
		snprintf(d->msg, sizeof(d->msg),
			 "uaccessd's status reply has no \"daemon\" object");
	}
}

static bool has(const struct uk_status *st, int attr)
{
	return st->present & (1ULL << attr);
}

static bool field_u64(const struct uk_status *st, int attr, uint64_t v)
{
	return has(st, attr) && v;
}

/* A member of uaccessd's "daemon" object; 0 when absent. */
static uint64_t daemon_u64(const struct daemon_part *d, const char *name)
{
	uint64_t v = 0;

	if (d->obj)
		uk_json_get_u64(uk_json_object_get(d->obj, name), &v);
	return v;
}

static const char *daemon_str(const struct daemon_part *d, const char *name)
{
	const char *s = NULL;

	if (!d->obj ||
	    uk_json_get_str(uk_json_object_get(d->obj, name), &s) < 0)
		return NULL;
	return s;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* A sentence naming every loss, or "" when there is none. */
static void loss_message(const struct kernel_part *k,
			 const struct daemon_part *d, char *buf, size_t len)
{
	uint64_t lost = daemon_u64(d, "lost");
	size_t o = 0;

	buf[0] = '\0';
	if (k->have && field_u64(&k->st, UACCESS_KADDR_A_STATUS_DROPPED,
				 k->st.dropped))
		o += snprintf(buf + o, len - o, "%sthe kernel dropped %" PRIu64
			      " %s", o ? ", " : "", k->st.dropped,
			      plural(k->st.dropped, "event", "events"));
	if (o < len && k->have &&
	    field_u64(&k->st, UACCESS_KADDR_A_STATUS_SITES_OVERFLOW,
		      k->st.sites_overflow))
		o += snprintf(buf + o, len - o,
			      "%s%" PRIu64 " %s the kernel's site table full",
			      o ? ", " : "", k->st.sites_overflow,
			      plural(k->st.sites_overflow, "hit found",
				     "hits found"));
	if (o < len && lost)
		o += snprintf(buf + o, len - o, "%suaccessd lost %" PRIu64
			      " %s", o ? ", " : "", lost,
			      plural(lost, "event", "events"));
}

/* ---- the summary ---- */

enum level {
	LEVEL_OK,
	LEVEL_WARN,	/* worth a look: yellow */
	LEVEL_BAD,	/* a problem: red */
};

#define SUMMARY_LINES	16

struct summary {
	struct {
		const char *label;
		enum level level;
		char text[512];
	} line[SUMMARY_LINES];
	size_t n;
	enum level worst;
};

static void __attribute__((format(printf, 4, 5)))
add(struct summary *s, enum level level, const char *label,
    const char *fmt, ...)
{
	va_list ap;

	if (s->n == SUMMARY_LINES)
		return;
	s->line[s->n].label = label;
	s->line[s->n].level = level;
	va_start(ap, fmt);
	vsnprintf(s->line[s->n].text, sizeof(s->line[s->n].text), fmt, ap);
	va_end(ap);
	s->n++;
	if (level > s->worst)
		s->worst = level;
}

static const struct {
	const char *mode, *meaning;
} mode_meanings[] = {
	{ "off", "nothing is checked" },
	{ "count", "hits are counted, not reported" },
	{ "report", "hits are counted, reported and sent as events" },
	{ "warn", "as report, and each report is a WARNING" },
};

static void summary_kernel(struct summary *s, const struct kernel_part *k)
{
	const struct uk_status *st = &k->st;
	const char *mode = NULL, *meaning = NULL, *access;
	char mbuf[16], abuf[32], kinds[128];
	uint64_t hits = 0;
	size_t i, o = 0;

	if (!k->have) {
		/* Why is on stderr. */
		add(s, LEVEL_BAD, "Detector", "unknown");
		return;
	}
	if (has(st, UACCESS_KADDR_A_STATUS_MODE)) {
		mode = uk_enum_text(UK_ENUM_MODE, st->mode, mbuf, sizeof(mbuf));
		for (i = 0; i < ARRAY_SIZE(mode_meanings); i++)
			if (!strcmp(mode, mode_meanings[i].mode))
				meaning = mode_meanings[i].meaning;
	}
	if (!mode)
		add(s, LEVEL_WARN, "Detector", "mode unknown");
	else if (meaning)
		add(s, !strcmp(mode, "off") ? LEVEL_WARN : LEVEL_OK,
		    "Detector", "%s: %s", mode, meaning);
	else
		add(s, LEVEL_OK, "Detector", "%s", mode);

	access = uk_status_access(st, abuf, sizeof(abuf));
	if (mode && !strcmp(mode, "off"))
		add(s, LEVEL_OK, "Access", "not checked (mode off)");
	else if (!strcmp(access, "fail"))
		add(s, LEVEL_OK, "Access",
		    "refused with -EFAULT (uaccess_kaddr_access=fail)");
	else if (!strcmp(access, "allow"))
		add(s, LEVEL_WARN, "Access",
		    "allowed: the access goes ahead (uaccess_kaddr_access=allow)");
	else if (!strcmp(access, UK_ACCESS_UNKNOWN))
		add(s, LEVEL_OK, "Access", "unknown: the kernel does not say");
	else
		add(s, LEVEL_OK, "Access", "%s", access);

	kinds[0] = '\0';
	{
		const struct {
			const char *name;
			int attr;
			uint64_t v;
		} by_kind[] = {
			{ "fault", UACCESS_KADDR_A_STATUS_HITS_FAULT, st->hits_fault },
			{ "gp", UACCESS_KADDR_A_STATUS_HITS_GP, st->hits_gp },
			{ "precheck", UACCESS_KADDR_A_STATUS_HITS_PRECHECK,
			  st->hits_precheck },
		};

		for (i = 0; i < ARRAY_SIZE(by_kind); i++) {
			if (!has(st, by_kind[i].attr))
				continue;
			hits += by_kind[i].v;
			o += (size_t)snprintf(kinds + o, sizeof(kinds) - o,
					      "%s%s %" PRIu64, o ? ", " : "",
					      by_kind[i].name, by_kind[i].v);
		}
	}
	if (!o)
		return;
	if (has(st, UACCESS_KADDR_A_STATUS_SITES_USED))
		add(s, LEVEL_OK, "Hits", "%" PRIu64 " at %" PRIu32 " %s (%s)",
		    hits, st->sites_used, plural(st->sites_used, "site", "sites"),
		    kinds);
	else
		add(s, LEVEL_OK, "Hits", "%" PRIu64 " (%s)", hits, kinds);
}

static void summary_loss(struct summary *s, const struct kernel_part *k,
			 const struct daemon_part *d, const char *loss)
{
	const char *part = loss, *end;

	/* One loss a line, so that each fits 80 columns. */
	while (*part) {
		end = strstr(part, ", ");
		add(s, LEVEL_BAD, part == loss ? "Loss" : "", "%.*s%s",
		    (int)(end ? end - part : (ptrdiff_t)strlen(part)), part,
		    end ? "," : "");
		part = end ? end + 2 : part + strlen(part);
	}
	if (loss[0])
		return;
	if (k->have && (!d->asked || d->obj))
		add(s, LEVEL_OK, "Loss", "none");
	else if (k->have)
		add(s, LEVEL_OK, "Loss", "none in the kernel; uaccessd's count unknown");
	else if (d->obj)
		add(s, LEVEL_OK, "Loss", "none seen by uaccessd; the kernel's count unknown");
	else
		add(s, LEVEL_WARN, "Loss", "unknown");
}

/* uaccessd's state since when, and what went wrong in it. */
static void summary_daemon(struct summary *s, const struct daemon_part *d)
{
	const char *state, *e;
	uint64_t n, now, since;
	char when[64], ago[64], text[256];
	size_t o;
	struct timespec ts;
	enum level level;

	if (!d->asked)
		return;
	if (!d->obj) {
		/* Why is on stderr. */
		add(s, LEVEL_BAD, "uaccessd", "%s",
		    d->err == UK_ERR_NO_DAEMON ? "not running" :
		    d->err == UK_ERR_PERM ? "not reachable" : "unknown");
		return;
	}
	state = daemon_str(d, "state");
	if (!state)
		state = "unknown";
	level = !strcmp(state, "subscribed") || !strcmp(state, "replaying") ||
		!strcmp(state, "replayed") ? LEVEL_OK : LEVEL_WARN;
	if (uk_json_object_get(d->obj, "uptime_ms") &&
	    uk_cli_sys->clock_gettime(CLOCK_REALTIME, &ts) == 0) {
		now = (uint64_t)ts.tv_sec * UK_USEC_PER_SEC +
		      (uint64_t)ts.tv_nsec / 1000;
		n = daemon_u64(d, "uptime_ms") * UK_USEC_PER_MSEC;
		since = n < now ? now - n : 0;
		add(s, level, "uaccessd", "active (%s) since %s; %s", state,
		    uk_time_format(since, when, sizeof(when)),
		    uk_time_format_relative(since, now, ago, sizeof(ago)));
	} else {
		add(s, level, "uaccessd", "active (%s)", state);
	}

	/* Each line fits 80 columns: the glossary's short words. */
	o = (size_t)snprintf(text, sizeof(text), "%" PRIu64 " received: %"
			     PRIu64 " written to the journal",
			     daemon_u64(d, "events"), daemon_u64(d, "journaled"));
	n = daemon_u64(d, "suppressed");
	if (n && o < sizeof(text))
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      ", %" PRIu64 " held back", n);
	n = daemon_u64(d, "ignored");
	if (n && o < sizeof(text))
		snprintf(text + o, sizeof(text) - o, ", %" PRIu64 " ignored", n);
	add(s, LEVEL_OK, "Events", "%s", text);

	/* The problems, each on its own line, only when there is one. */
	n = daemon_u64(d, "journal_failed");
	if (n) {
		e = daemon_str(d, "journal_last_error");
		add(s, LEVEL_BAD, "Journal", "refused %" PRIu64 " %s%s%s%s", n,
		    plural(n, "entry", "entries"), e ? " (" : "", e ? e : "",
		    e ? ")" : "");
	}
	n = daemon_u64(d, "overruns");
	if (n)
		add(s, LEVEL_WARN, "Socket",
		    "overflowed %" PRIu64 " %s: raise rcvbuf", n,
		    plural(n, "time", "times"));
	if (uk_json_get_u64(uk_json_object_get(uk_json_object_get(d->obj,
			    "loss"), "site-evicted"), &n) == 0 && n)
		add(s, LEVEL_WARN, "Sites",
		    "%" PRIu64 " evicted from uaccessd's table: raise max_sites",
		    n);
	n = daemon_u64(d, "reload_failures");
	if (n)
		add(s, LEVEL_WARN, "Reloads", "%" PRIu64 " refused", n);
	n = daemon_u64(d, "metrics_write_failures");
	if (n)
		add(s, LEVEL_WARN, "Metrics",
		    "%" PRIu64 " %s of the metrics file failed", n,
		    plural(n, "write", "writes"));
	e = daemon_str(d, "last_error");
	if (e && *e)
		add(s, LEVEL_WARN, "Last error", "%s", e);
}

#define ANSI_NORMAL	"\x1b[0m"
#define ANSI_GREEN	"\x1b[0;1;32m"
#define ANSI_YELLOW	"\x1b[0;1;33m"
#define ANSI_RED	"\x1b[0;1;31m"

static const char *level_color(enum level level)
{
	return level == LEVEL_BAD ? ANSI_RED :
	       level == LEVEL_WARN ? ANSI_YELLOW : "";
}

/* systemd's black circle, "*" where the locale is not UTF-8. */
static const char *dot(void)
{
	const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars); i++) {
		v = getenv(vars[i]);
		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8") ?
			       "\u25cf" : "*";
	}
	return "*";
}

/* Labels right-aligned to the longest, "Last error", as systemctl's. */
#define LABEL_WIDTH	10

static void print_summary(const struct uk_cli *cli, const struct summary *s)
{
	char buf[1024];
	const char *c;
	size_t i;

	c = s->worst == LEVEL_OK ? ANSI_GREEN : level_color(s->worst);
	fprintf(cli->out, "%s%s%s uaccess_kaddr: kernel addresses at user-access helpers\n",
		cli->color ? c : "", dot(), cli->color ? ANSI_NORMAL : "");
	for (i = 0; i < s->n; i++) {
		c = cli->color ? level_color(s->line[i].level) : "";
		/* A line without a label continues the one above. */
		fprintf(cli->out, "%*s%s%s%s%s\n", LABEL_WIDTH,
			s->line[i].label, s->line[i].label[0] ? ": " : "  ", c,
			uk_cli_sanitize(s->line[i].text, buf, sizeof(buf)),
			*c ? ANSI_NORMAL : "");
	}
}

static void print_text(const struct uk_cli *cli, const struct kernel_part *k,
		       const struct daemon_part *d)
{
	FILE *out = cli->out;

	/* What could not be read is said on stderr, not here again. */
	uk_cli_kv(out, "kernel.available", k->have ? "yes" : "no");
	if (k->have) {
		uk_cli_kv(out, "kernel.source", k->source);
		uk_cli_kv_fields(out, "kernel", uk_status_fields, &k->st);
		/* Among the fields when sent: the key once either way. */
		if (!has(&k->st, UACCESS_KADDR_A_STATUS_ACCESS))
			uk_cli_kv(out, "kernel." UK_STATUS_ACCESS_FIELD,
				  UK_ACCESS_UNKNOWN);
	}
	if (!d->asked)
		return;
	uk_cli_kv(out, "daemon.running", d->obj ? "yes" : "no");
	if (d->obj)
		uk_cli_kv_json(out, "daemon", d->obj);
}

static int print_json(const struct uk_cli *cli, const struct kernel_part *k,
		      const struct daemon_part *d, bool loss)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "kernel");
	uk_json_object_begin(&j);
	uk_json_kv_bool(&j, "available", k->have);
	if (k->have) {
		uk_json_kv_str(&j, "source", k->source);
		uk_fields_json(&j, uk_status_fields, &k->st);
		/* Among the fields when sent: the key once either way. */
		if (!has(&k->st, UACCESS_KADDR_A_STATUS_ACCESS))
			uk_json_kv_str(&j, UK_STATUS_ACCESS_FIELD,
				       UK_ACCESS_UNKNOWN);
	} else {
		uk_json_kv_str(&j, "error", k->msg);
	}
	uk_json_object_end(&j);
	if (d->asked) {
		uk_json_key(&j, "daemon");
		uk_json_object_begin(&j);
		uk_json_kv_bool(&j, "running", d->obj != NULL);
		if (d->obj) {
			uk_json_for_each_member(it, d->obj) {
				if (!strcmp(it.key, "running"))
					continue;
				uk_json_key(&j, it.key);
				uk_json_value_write(&j, it.value);
			}
		} else {
			uk_json_kv_str(&j, "error", d->msg);
		}
		uk_json_object_end(&j);
	}
	uk_json_kv_bool(&j, "loss", loss);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

/* The kernel's families alone, from what netlink gave (none: up 0). */
static int kernel_metrics(const struct uk_cli *cli, const struct kernel_part *k)
{
	struct uk_om om;
	char *text;
	int r;

	uk_om_init(&om);
	uk_metrics_kernel(&om, k->have ? &k->st : NULL);
	r = uk_om_finish(&om, &text, NULL);
	if (r < 0)
		return uk_cli_error(cli, r, "cannot write the metrics: %s",
				    strerror(-r));
	fputs(text, cli->out);
	free(text);
	return 0;
}

/*
 * uaccessd's text when it answers (0: whatever it says of the kernel and
 * of losses is in the text).  Else the kernel's families from netlink,
 * and the error of the first part missing, kernel or daemon.
 */
static int print_openmetrics(const struct uk_cli *cli)
{
	struct kernel_part k = { .err = 0 };
	struct uk_json_value *reply = NULL;
	const char *text;
	char why[512];
	int err = 0, r;

	if (!cli->kernel) {
		r = uk_cli_ctl(cli, "{\"cmd\":\"metrics\"}", &reply, why,
			       sizeof(why));
		if (!r && !uk_json_get_str(uk_json_object_get(reply, "text"),
					   &text)) {
			fputs(text, cli->out);
			uk_json_value_free(reply);
			return 0;
		}
		err = r ? uk_cli_ctl_fail(cli, r, why) :
			  uk_cli_error(cli, -EPROTO,
				       "uaccessd's metrics reply has no \"text\"");
		uk_json_value_free(reply);
	}
	kernel_from_netlink(&k);
	r = kernel_metrics(cli, &k);
	if (!k.have) {
		uk_cli_error(cli, k.err, "%s", k.msg);
		err = k.err;
	}
	return err ?: r;
}

int uk_cli_status(const struct uk_cli *cli, int argc, char **argv)
{
	struct kernel_part k = { .err = 0 };
	struct daemon_part d = { .err = 0 };
	struct summary s = { .n = 0 };
	char loss[512];
	int err = 0, r;

	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "status: unexpected argument '%s'", argv[0]);
	if (cli->openmetrics)
		return print_openmetrics(cli);

	kernel_from_netlink(&k);
	if (!cli->kernel) {
		daemon_ask(cli, &d);
		if (!k.have && d.reply)
			kernel_from_daemon(&k, d.reply);
	}
	loss_message(&k, &d, loss, sizeof(loss));

	if (cli->json) {
		r = print_json(cli, &k, &d, loss[0] != '\0');
		if (r)
			err = r;
	} else {
		summary_kernel(&s, &k);
		summary_loss(&s, &k, &d, loss);
		summary_daemon(&s, &d);
		print_summary(cli, &s);
		if (cli->all) {
			fputc('\n', cli->out);
			print_text(cli, &k, &d);
		}
	}
	fflush(cli->out);

	if (!k.have) {
		uk_cli_error(cli, k.err, "%s", k.msg);
		err = err ?: k.err;
	}
	if (d.asked && !d.obj) {
		uk_cli_error(cli, d.err, "%s", d.msg);
		err = err ?: d.err;
	}
	/* The verdict is the Loss line (JSON "loss"), not a message. */
	if (loss[0])
		err = err ?: UK_ERR_LOSS;
	uk_json_value_free(d.reply);
	return err;
}
