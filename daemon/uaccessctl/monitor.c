// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl monitor: the kernel's events live, straight from the
 * "events" multicast group (CAP_SYS_ADMIN: events carry kernel addresses),
 * whether uaccessd runs or not.  One line per event, or one JSON object
 * per line with --json; sequence gaps and socket overruns are reported
 * in the stream, never silently skipped.  Runs until SIGINT/SIGTERM, -n
 * events, or --timeout.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "common/fields.h"
#include "common/time.h"
#include "output.h"

/* Past net.core.rmem_max when privileged (we are, to join the group). */
#define MONITOR_RCVBUF	(8 << 20)

struct monitor {
	const struct uk_cli *cli;
	struct uk_nl *nl;
	uint16_t family;
	uint64_t limit;		/* -n, 0: none */
	uint64_t events;
	uint64_t last_seq;
	bool have_seq;
	bool done;
	uint8_t buf[UK_NL_BUFSIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
};

static void emit_json(struct monitor *m, struct uk_json *j)
{
	char *text = NULL;
	size_t len = 0;

	if (uk_json_finish(j, &text, &len) < 0)
		return;
	uk_cli_json_write(m->cli->out, text, len, m->cli->json_pretty, 0);
	fputc('\n', m->cli->out);
	free(text);
}

static void print_gap(struct monitor *m, uint64_t first, uint64_t last)
{
	uint64_t n = last - first + 1;
	struct uk_json j;

	if (!m->cli->json) {
		fprintf(m->cli->out,
			"-- %" PRIu64 " event%s missing (seq %" PRIu64 "..%"
			PRIu64 ") --\n", n, n == 1 ? "" : "s", first, last);
		return;
	}
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "gap");
	uk_json_object_begin(&j);
	uk_json_kv_u64(&j, "missing", n);
	uk_json_kv_u64(&j, "first", first);
	uk_json_kv_u64(&j, "last", last);
	uk_json_object_end(&j);
	uk_json_object_end(&j);
	emit_json(m, &j);
}

static void print_marker(struct monitor *m, const char *key,
			 const char *text, const char *why)
{
	struct uk_json j;

	if (!m->cli->json) {
		if (why)
			fprintf(m->cli->out, "-- %s: %s --\n", text, why);
		else
			fprintf(m->cli->out, "-- %s --\n", text);
		return;
	}
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	if (why)
		uk_json_kv_str(&j, key, why);
	else
		uk_json_kv_bool(&j, key, true);
	uk_json_object_end(&j);
	emit_json(m, &j);
}

static bool has(const struct uk_event *ev, int attr)
{
	return ev->present & (1ULL << attr);
}

static const char *enum_or_dash(const struct uk_event *ev, int attr,
				enum uk_enum e, uint32_t v, char *buf,
				size_t len)
{
	return has(ev, attr) ? uk_enum_text(e, v, buf, len) : "-";
}

/* comm[pid] in task context, else the context's name. */
static const char *who(const struct uk_event *ev, char *buf, size_t len)
{
	char comm[UK_COMM_LEN * 2];

	if (has(ev, UACCESS_KADDR_A_EVENT_COMM) &&
	    has(ev, UACCESS_KADDR_A_EVENT_PID)) {
		uk_cli_sanitize(ev->comm, comm, sizeof(comm));
		snprintf(buf, len, "%s[%" PRIu32 "]", comm[0] ? comm : "?",
			 ev->pid);
		return buf;
	}
	if (has(ev, UACCESS_KADDR_A_EVENT_PID)) {
		snprintf(buf, len, "[%" PRIu32 "]", ev->pid);
		return buf;
	}
	if (has(ev, UACCESS_KADDR_A_EVENT_CONTEXT) &&
	    uk_enum_name(UK_ENUM_CONTEXT, ev->context))
		return uk_enum_name(UK_ENUM_CONTEXT, ev->context);
	return "-";
}

static void print_event_text(struct monitor *m, const struct uk_event *ev)
{
	char time[40], b1[16], b2[16], b3[16], b4[16], addr[24];
	char site[UK_SYMBOL_LEN * 2], whobuf[UK_COMM_LEN * 2 + 16];
	uint64_t real = 0;

	if (has(ev, UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL))
		real = ev->ts_real;
	else if (has(ev, UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT))
		real = uk_cli_boot_to_real(ev->ts_boot);
	uk_time_format_date(real, true, time, sizeof(time));
	snprintf(addr, sizeof(addr), "0x%016" PRIx64, ev->address);
	if (ev->site_symbol[0])
		uk_cli_sanitize(ev->site_symbol, site, sizeof(site));
	else
		snprintf(site, sizeof(site), "0x%016" PRIx64, ev->site_ip);
	/* A time without a date would be "-": keep the column count. */
	fprintf(m->cli->out, "%s%s %" PRIu64 " %s %s %s %s %s %s %s\n",
		time, real ? "" : " -", ev->seq,
		enum_or_dash(ev, UACCESS_KADDR_A_EVENT_KIND, UK_ENUM_KIND,
			     ev->kind, b1, sizeof(b1)),
		enum_or_dash(ev, UACCESS_KADDR_A_EVENT_HELPER, UK_ENUM_HELPER,
			     ev->helper, b2, sizeof(b2)),
		enum_or_dash(ev, UACCESS_KADDR_A_EVENT_DIRECTION,
			     UK_ENUM_DIRECTION, ev->direction, b3, sizeof(b3)),
		addr,
		enum_or_dash(ev, UACCESS_KADDR_A_EVENT_ADDR_CLASS,
			     UK_ENUM_ADDR_CLASS, ev->addr_class, b4,
			     sizeof(b4)),
		site, who(ev, whobuf, sizeof(whobuf)));
}

/* A field of the event; its nanosecond times in microseconds. */
static void event_field_json(struct uk_json *j, const struct uk_field *f,
			     const struct uk_event *ev)
{
	const char *usec = uk_cli_usec_key(f->name);
	char buf[UK_FIELD_BUF];
	struct uk_fval v;

	if (usec && uk_field_get(f, ev, &v, buf) == 0 && v.kind == UK_FV_U64)
		uk_json_kv_u64(j, usec, v.u / UK_NSEC_PER_USEC);
	else
		uk_field_json(j, f, ev);
}

static void print_event_json(struct monitor *m, const struct uk_event *ev)
{
	const struct uk_field *f;
	struct uk_json j;
	char ip[24];
	unsigned int i;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	for (f = uk_event_fields; f->name; f++)
		if (uk_field_present(f, ev))
			event_field_json(&j, f, ev);
	if (ev->nr_frames) {
		uk_json_key(&j, "frames");
		uk_json_array_begin(&j);
		for (i = 0; i < ev->nr_frames && i < UK_STACK_MAX; i++) {
			uk_json_object_begin(&j);
			snprintf(ip, sizeof(ip), "0x%016" PRIx64,
				 ev->frames[i].ip);
			uk_json_kv_str(&j, "ip", ip);
			uk_json_kv_str(&j, "symbol", ev->frames[i].symbol);
			uk_json_object_end(&j);
		}
		uk_json_array_end(&j);
	}
	uk_json_object_end(&j);
	emit_json(m, &j);
}

static void handle_event(struct monitor *m, const struct uk_event *ev)
{
	/*
	 * The kernel numbers events per boot and never restarts; it drains
	 * its per-CPU queues in batches, so one from another CPU may come
	 * after a higher number (it fills a gap shown before: "missing so
	 * far").  The highest number seen stays the reference.
	 */
	if (m->have_seq && ev->seq > m->last_seq + 1)
		print_gap(m, m->last_seq + 1, ev->seq - 1);
	if (!m->have_seq || ev->seq > m->last_seq)
		m->last_seq = ev->seq;
	m->have_seq = true;
	if (m->cli->json)
		print_event_json(m, ev);
	else
		print_event_text(m, ev);
	m->events++;
	if (m->limit && m->events >= m->limit)
		m->done = true;
}

/* Every message of one datagram. */
static int walk_message(const struct nlmsghdr *nlh, size_t len, void *data)
{
	struct monitor *m = data;
	struct uk_event ev;
	char why[160];

	if (nlh->nlmsg_type == m->family) {
		if (uk_event_parse(nlh, len, &ev, why, sizeof(why)) == 0)
			handle_event(m, &ev);
		else
			print_marker(m, "malformed", "malformed event", why);
	}
	return m->done;
}

static void handle_datagram(struct monitor *m, size_t len)
{
	int r;

	if (m->done)
		return;
	r = uk_nl_walk(m->buf, len, walk_message, m, NULL, 0);
	if (r == -EBADMSG)
		print_marker(m, "malformed", "malformed datagram",
			     "bad nlmsg_len");
	else if (r == -EMSGSIZE)
		print_marker(m, "malformed", "malformed datagram",
			     "stray bytes after the last message");
}

/* Reads until the socket is empty; 0, or a negative errno (printed). */
static int drain(struct monitor *m)
{
	ssize_t n;

	while (!m->done) {
		n = uk_cli_sys->nl_events_recv(m->nl, m->buf, sizeof(m->buf));
		if (n == -EAGAIN || n == -EINTR)
			return 0;
		if (n == -ENOBUFS) {
			print_marker(m, "overrun", "overrun: events lost",
				     NULL);
		} else if (n == -EMSGSIZE) {
			print_marker(m, "malformed", "malformed datagram",
				     "larger than the receive buffer, dropped");
		} else if (n < 0) {
			return uk_cli_error(m->cli, UK_ERR_FAILURE,
					    "reading events failed: %s",
					    strerror((int)-n));
		} else {
			handle_datagram(m, (size_t)n);
		}
		fflush(m->cli->out);
	}
	return 0;
}

static int run(struct monitor *m, int evfd, int sigfd, uint64_t timeout_ms,
	       bool *timed_out)
{
	int64_t deadline = timeout_ms ? (int64_t)uk_time_now_ms() + (int64_t)timeout_ms : -1;
	struct pollfd p[2] = {
		{ .fd = evfd, .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
	};
	int wait, r;

	*timed_out = false;
	while (!m->done) {
		wait = -1;
		if (deadline >= 0) {
			int64_t left = deadline - (int64_t)uk_time_now_ms();

			if (left <= 0) {
				*timed_out = true;
				return 0;
			}
			wait = left > 3600000 ? 3600000 : (int)left;
		}
		r = poll(p, 2, wait);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return uk_cli_error(m->cli, UK_ERR_FAILURE,
					    "poll failed: %s", strerror(errno));
		}
		if (p[1].revents) {
			struct signalfd_siginfo si;

			/* Taken, so that unblocking it later does not kill us. */
			if (read(sigfd, &si, sizeof(si)) < 0 && errno == EAGAIN)
				continue;
			return 0;	/* SIGINT or SIGTERM: a normal end */
		}
		if (p[0].revents & POLLIN) {
			r = drain(m);
			if (r)
				return r;
		} else if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			return uk_cli_error(m->cli, UK_ERR_FAILURE,
					    "the events socket failed");
		}
	}
	return 0;
}

int uk_cli_monitor(const struct uk_cli *cli, int argc, char **argv)
{
	struct monitor *m = NULL;
	sigset_t mask, old;
	uint64_t timeout_ms = cli->timeout_ms;
	bool timed_out = false;
	int evfd, sigfd = -1, r;

	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "monitor: unexpected argument '%s'", argv[0]);
	m = calloc(1, sizeof(*m));
	if (!m)
		return uk_cli_error(cli, -ENOMEM, "out of memory");
	m->cli = cli;
	m->limit = cli->lines;
	r = uk_cli_nl_open(cli, &m->nl);
	if (r)
		goto out;
	m->family = uk_cli_sys->nl_family(m->nl);
	evfd = uk_cli_sys->nl_events_open(m->nl, MONITOR_RCVBUF);
	if (evfd < 0) {
		if (evfd == -EPERM || evfd == -EACCES)
			r = uk_cli_error(cli, UK_ERR_PERM, "%s",
					 UK_CLI_MSG_NEED_ADMIN);
		else
			r = uk_cli_error(cli, UK_ERR_FAILURE,
					 "cannot join the events group: %s",
					 strerror(-evfd));
		goto out;
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0) {
		r = uk_cli_error(cli, UK_ERR_FAILURE, "signalfd failed: %s",
				 strerror(errno));
	} else {
		r = run(m, evfd, sigfd, timeout_ms, &timed_out);
		close(sigfd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	fflush(cli->out);
	if (r == 0 && timed_out && m->limit && m->events < m->limit)
		r = uk_cli_error(cli, UK_ERR_FAILURE,
				 "timed out: %" PRIu64 " of %" PRIu64
				 " events in %" PRIu64 ".%03" PRIu64 " s",
				 m->events, m->limit, timeout_ms / 1000,
				 timeout_ms % 1000);
out:
	if (m->nl)
		uk_cli_sys->nl_close(m->nl);
	free(m);
	return r;
}
