// SPDX-License-Identifier: GPL-2.0
/*
 * Journal entries, built as iovecs from the field tables (every present
 * attribute becomes a UACCESS_* field) and sent with sd_journal_sendv().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "common/journal_fields.h"
#include "common/fields.h"
#include "journal.h"

#define UK_IOV_MAX	64
#define UK_ARENA	16384

struct entry {
	struct iovec iov[UK_IOV_MAX];
	int n;
	char arena[UK_ARENA];
	size_t used;
	bool full;
};

static const char *const uk_loss_names[UK_LOSS_NR] = {
	[UK_LOSS_KERNEL_DROPPED] = "kernel-dropped",
	[UK_LOSS_SEQ_GAP] = "sequence-gap",
	[UK_LOSS_OVERRUN] = "socket-overrun",
	[UK_LOSS_MALFORMED] = "malformed-message",
	[UK_LOSS_JOURNAL] = "journal-send-failed",
	[UK_LOSS_EVICTED] = "site-evicted",
	[UK_LOSS_SITE_OVERFLOW] = "kernel-site-table-full",
};

const char *uk_loss_name(enum uk_loss loss)
{
	return loss < UK_LOSS_NR ? uk_loss_names[loss] : "unknown";
}

#define UK_JOURNAL_SOCKET	"/run/systemd/journal/socket"

/*
 * sd_journal_sendv() returns success when journald's socket does not
 * exist ("fail silently"): a stopped journald would swallow entries
 * uncounted.  Look for the socket first; entries are ratelimited, the
 * extra access() is cheap.
 */
static int default_sendv(const struct iovec *iov, int n)
{
	if (access(UK_JOURNAL_SOCKET, F_OK) < 0)
		return -errno;
	return sd_journal_sendv(iov, n);
}

void uk_journal_init(struct uk_journal *j)
{
	memset(j, 0, sizeof(*j));
	j->sendv = default_sendv;
}

/* Append "KEY=value" (printf-style value) as one iovec. */
static void add(struct entry *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct entry *e, const char *key, const char *fmt, ...)
{
	size_t room = UK_ARENA - e->used;
	char *p = e->arena + e->used;
	va_list ap;
	int k, v;

	if (e->n >= UK_IOV_MAX || room < 2) {
		e->full = true;
		return;
	}
	k = snprintf(p, room, "%s=", key);
	if (k < 0 || (size_t)k >= room) {
		e->full = true;
		return;
	}
	va_start(ap, fmt);
	v = vsnprintf(p + k, room - k, fmt, ap);
	va_end(ap);
	if (v < 0) {
		e->full = true;
		return;
	}
	/* A value cut short is still sent: the journal keeps what fits. */
	if ((size_t)v >= room - k)
		v = (int)(room - k - 1);
	e->iov[e->n].iov_base = p;
	e->iov[e->n].iov_len = (size_t)(k + v);
	e->n++;
	e->used += (size_t)(k + v) + 1;
}

static void add_fields(struct entry *e, const struct uk_field *fields,
		       const void *obj)
{
	char val[UK_SYMBOL_LEN + 32];

	for (; fields->name; fields++) {
		if (!uk_field_present(fields, obj))
			continue;
		uk_field_format(fields, obj, val, sizeof(val));
		add(e, fields->journal, "%s", val);
	}
}

static void add_common(struct entry *e, const char *msgid, int priority)
{
	add(e, "MESSAGE_ID", "%s", msgid);
	add(e, "PRIORITY", "%d", priority);
	add(e, "SYSLOG_IDENTIFIER", "%s", "uaccessd");
}

static int send_entry(struct uk_journal *j, struct entry *e);

/* Report the entries the journal refused, once it takes entries again. */
static void flush_failed(struct uk_journal *j)
{
	uint64_t n = j->failed_pending;

	if (!n)
		return;
	j->failed_pending = 0;
	if (uk_journal_loss(j, UK_LOSS_JOURNAL, n, j->failed,
			    strerror(-j->last_error)) < 0)
		j->failed_pending += n;
}

static int send_entry(struct uk_journal *j, struct entry *e)
{
	int r = j->sendv(e->iov, e->n);

	if (r < 0) {
		j->failed++;
		j->failed_pending++;
		j->last_error = r;
		return r;
	}
	j->sent++;
	flush_failed(j);
	return 0;
}

int uk_journal_event(struct uk_journal *j, const struct uk_event *ev,
		     uint64_t site_events)
{
	char helper[16], dir[16], cls[16], kind[16], ctx[16];
	char who[64] = "", stack[UK_STACK_MAX * (UK_SYMBOL_LEN + 1)];
	char func[UK_SYMBOL_LEN];
	struct entry e = {};
	size_t off = 0;
	unsigned int i;

	add_common(&e, UK_MSGID_EVENT, LOG_WARNING);
	if (ev->present & (1ULL << UACCESS_KADDR_A_EVENT_PID))
		snprintf(who, sizeof(who), " by %.*s[%" PRIu32 "]",
			 ev->comm[0] ?
			 (int)strnlen(ev->comm, sizeof(ev->comm)) : 1,
			 ev->comm[0] ? ev->comm : "?", ev->pid);
	add(&e, "MESSAGE",
	    "%s() %s kernel address 0x%016" PRIx64 " (%s, %s) at %.*s%s, %s context",
	    uk_enum_text(UK_ENUM_HELPER, ev->helper, helper, sizeof(helper)),
	    uk_enum_text(UK_ENUM_DIRECTION, ev->direction, dir, sizeof(dir)),
	    ev->address,
	    uk_enum_text(UK_ENUM_ADDR_CLASS, ev->addr_class, cls, sizeof(cls)),
	    uk_enum_text(UK_ENUM_KIND, ev->kind, kind, sizeof(kind)),
	    ev->site_symbol[0] ?
	    (int)strnlen(ev->site_symbol, sizeof(ev->site_symbol)) : 1,
	    ev->site_symbol[0] ? ev->site_symbol : "?", who,
	    uk_enum_text(UK_ENUM_CONTEXT, ev->context, ctx, sizeof(ctx)));
	add_fields(&e, uk_event_fields, ev);
	for (i = 0; i < ev->nr_frames && i < UK_STACK_MAX; i++) {
		const char *sym = ev->frames[i].symbol;
		int n = snprintf(stack + off, sizeof(stack) - off, "%s%.*s",
				 i ? "\n" : "",
				 sym[0] ? (int)strnlen(sym, UK_SYMBOL_LEN) : 1,
				 sym[0] ? sym : "?");

		if (n < 0 || (size_t)n >= sizeof(stack) - off)
			break;
		off += (size_t)n;
	}
	if (ev->nr_frames) {
		add(&e, UK_JF(STACK), "%s", stack);
		add(&e, UK_JF(STACK_DEPTH), "%u", ev->nr_frames);
	}
	/* The function alone, for exact journal matches (uaccessctl list). */
	if ((ev->present & (1ULL << UACCESS_KADDR_A_EVENT_SITE_SYMBOL)) &&
	    uk_symbol_function(ev->site_symbol, func, sizeof(func)))
		add(&e, UK_JF(SITE_FUNCTION), "%s", func);
	add(&e, UK_JF(SITE_EVENTS), "%" PRIu64, site_events);
	return send_entry(j, &e);
}

int uk_journal_suppressed(struct uk_journal *j, const char *site_symbol,
			  uint64_t site_ip, uint32_t kind, uint32_t helper,
			  uint64_t n, uint64_t total)
{
	char kbuf[16], hbuf[16], func[UK_SYMBOL_LEN];
	struct entry e = {};

	add_common(&e, UK_MSGID_SUPPRESSED, LOG_WARNING);
	/* "held back": uaccessd's ratelimits; "suppressed" is the kernel's. */
	add(&e, "MESSAGE",
	    "%" PRIu64 " more %s at %s held back by uaccessd's ratelimit (total %"
	    PRIu64 ")", n, n == 1 ? "event" : "events",
	    site_symbol && site_symbol[0] ? site_symbol : "?", total);
	add(&e, UK_JF(SITE_SYMBOL), "%s", site_symbol ? site_symbol : "");
	add(&e, UK_JF(SITE_IP), "0x%016" PRIx64, site_ip);
	add(&e, UK_JF(KIND), "%s",
	    uk_enum_text(UK_ENUM_KIND, kind, kbuf, sizeof(kbuf)));
	add(&e, UK_JF(HELPER), "%s",
	    uk_enum_text(UK_ENUM_HELPER, helper, hbuf, sizeof(hbuf)));
	/* As in the event entries: `uaccessctl list FUNCTION` finds both. */
	if (site_symbol &&
	    uk_symbol_function(site_symbol, func, sizeof(func)))
		add(&e, UK_JF(SITE_FUNCTION), "%s", func);
	add(&e, UK_JF(SUPPRESSED_COUNT), "%" PRIu64, n);
	add(&e, UK_JF(SUPPRESSED_TOTAL), "%" PRIu64, total);
	return send_entry(j, &e);
}

int uk_journal_loss(struct uk_journal *j, enum uk_loss loss, uint64_t n,
		    uint64_t total, const char *detail)
{
	struct entry e = {};

	add_common(&e, UK_MSGID_LOSS, LOG_ERR);
	/* The detail is cut, so that the counts below always fit. */
	if (loss == UK_LOSS_EVICTED)
		add(&e, "MESSAGE", "evicted %" PRIu64 " site%s from uaccessd's "
		    "table (max_sites; total %" PRIu64 "): their counts are "
		    "gone from uaccessd, the kernel keeps them", n,
		    n == 1 ? "" : "s", total);
	else if (loss == UK_LOSS_JOURNAL)
		add(&e, "MESSAGE", "the journal refused %" PRIu64 " entr%s: "
		    "%s%s%.256s (total %" PRIu64 ")", n, n == 1 ? "y" : "ies",
		    uk_loss_name(loss), detail && detail[0] ? ", " : "",
		    detail ? detail : "", total);
	else
		add(&e, "MESSAGE", "lost %" PRIu64 " event%s: %s%s%.256s "
		    "(total %" PRIu64 ")", n, n == 1 ? "" : "s",
		    uk_loss_name(loss), detail && detail[0] ? ", " : "",
		    detail ? detail : "", total);
	add(&e, UK_JF(LOSS_REASON), "%s", uk_loss_name(loss));
	add(&e, UK_JF(LOSS_COUNT), "%" PRIu64, n);
	add(&e, UK_JF(LOSS_TOTAL), "%" PRIu64, total);
	if (detail && detail[0])
		add(&e, UK_JF(LOSS_DETAIL), "%.1024s", detail);
	return send_entry(j, &e);
}

int uk_journal_health(struct uk_journal *j, int priority, const char *state,
		      const char *fmt, ...)
{
	struct entry e = {};
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_common(&e, UK_MSGID_HEALTH, priority);
	add(&e, "MESSAGE", "%s", msg);
	add(&e, UK_JF(DAEMON_STATE), "%s", state);
	return send_entry(j, &e);
}
