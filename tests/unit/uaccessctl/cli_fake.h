/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uaccessctl verb tests' shared parts: fake transports behind
 * uk_cli_sys (control socket, netlink family, events group, clocks), a
 * runner that captures a verb's stdout and stderr; golden files and text
 * comparisons are tests/support/golden.h's.
 *
 * Include after cmocka.h.  Each test starts with fake_reset_all().
 */
#ifndef UK_TEST_CLI_FAKE_H
#define UK_TEST_CLI_FAKE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uaccessctl/cli.h"
#include "common/control_client.h"
#include "uaccessctl/output.h"
#include "golden.h"
#include "msgbuild.h"

#define FAKE_FAMILY	0x1d
#define FAKE_MAX_SITES	64
#define FAKE_MAX_DGRAMS	32
#define FAKE_MAX_CALLS	8

struct fake_dgram {
	ssize_t ret;		/* < 0: returned as an error */
	size_t len;
	uint8_t data[8192] __attribute__((aligned(4)));
};

struct fake {
	/* control socket: the reply to each command, or an error */
	int ctl_err;
	const char *reply_status;
	const char *reply_metrics;
	const char *reply_sites;
	const char *reply_reset;
	const char *reply_reload;
	char requests[FAKE_MAX_CALLS][512];
	int ctl_calls;
	const char *ctl_path;

	/* netlink */
	int open_err;
	int opens, closes;
	int status_err;
	const char *status_why;
	struct uk_status status;
	int reset_err;
	const char *reset_why;
	struct uk_status reset_old;
	int resets;
	int set_err;
	const char *set_why;
	int sets;
	bool set_has_mode, set_has_interval, set_has_burst;
	uint32_t set_mode, set_interval, set_burst;
	int dump_err;
	const char *dump_why;
	struct uk_site sites[FAKE_MAX_SITES];
	size_t nsites;

	/* events group: a script of datagrams, then nothing */
	int events_err;
	int events_rcvbuf;
	int pipe[2];
	struct fake_dgram dgrams[FAKE_MAX_DGRAMS];
	size_t ndgrams, next;
	size_t sigterm_at;	/* raise SIGTERM when reaching this one (+1) */

	/* clocks: CLOCK_REALTIME and CLOCK_BOOTTIME */
	uint64_t real_ns, boot_ns;
};

static struct fake fake;

/* The transport faked, the reply parsed as uk_ctl_call() parses it. */
static inline int fake_ctl_call(const char *path, const char *req,
				int timeout_ms, struct uk_json_value **reply,
				char *why, size_t whylen)
{
	const char *r = NULL;

	if (fake.ctl_calls < FAKE_MAX_CALLS)
		snprintf(fake.requests[fake.ctl_calls],
			 sizeof(fake.requests[0]), "%s", req);
	fake.ctl_calls++;
	fake.ctl_path = path;
	if (fake.ctl_err < 0)
		return fake.ctl_err;
	if (strstr(req, "\"cmd\":\"status\""))
		r = fake.reply_status;
	else if (strstr(req, "\"cmd\":\"metrics\""))
		r = fake.reply_metrics;
	else if (strstr(req, "\"cmd\":\"sites\""))
		r = fake.reply_sites;
	else if (strstr(req, "\"cmd\":\"reset\""))
		r = fake.reply_reset;
	else if (strstr(req, "\"cmd\":\"reload\""))
		r = fake.reply_reload;
	if (!r)
		return -ECONNREFUSED;
	return uk_ctl_reply_parse(r, strlen(r), reply, why, whylen);
}

static inline int fake_nl_open(struct uk_nl **ret)
{
	if (fake.open_err < 0)
		return fake.open_err;
	fake.opens++;
	*ret = (struct uk_nl *)&fake;
	return 0;
}

static inline void fake_nl_close(struct uk_nl *nl)
{
	assert_ptr_equal(nl, &fake);
	fake.closes++;
}

static inline void fake_why(char *why, size_t whylen, const char *s)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", s ? s : "");
}

static inline int fake_get_status(struct uk_nl *nl, struct uk_status *st,
				  char *why, size_t whylen)
{
	fake_why(why, whylen, fake.status_why);
	if (fake.status_err < 0)
		return fake.status_err;
	*st = fake.status;
	return 0;
}

static inline int fake_reset(struct uk_nl *nl, struct uk_status *old,
			     char *why, size_t whylen)
{
	fake.resets++;
	fake_why(why, whylen, fake.reset_why);
	if (fake.reset_err < 0)
		return fake.reset_err;
	*old = fake.reset_old;
	return 0;
}

static inline int fake_set_config(struct uk_nl *nl, const uint32_t *mode,
				  const uint32_t *interval,
				  const uint32_t *burst, char *why,
				  size_t whylen)
{
	fake.sets++;
	fake.set_has_mode = mode != NULL;
	fake.set_has_interval = interval != NULL;
	fake.set_has_burst = burst != NULL;
	fake.set_mode = mode ? *mode : 0;
	fake.set_interval = interval ? *interval : 0;
	fake.set_burst = burst ? *burst : 0;
	fake_why(why, whylen, fake.set_why);
	if (fake.set_err < 0)
		return fake.set_err;
	if (mode) {
		fake.status.mode = *mode;
		fake.status.present |= 1ULL << UACCESS_KADDR_A_STATUS_MODE;
	}
	if (interval)
		fake.status.ratelimit_interval_ms = *interval;
	if (burst)
		fake.status.ratelimit_burst = *burst;
	return 0;
}

static inline int fake_dump_sites(struct uk_nl *nl,
				  int (*cb)(const struct uk_site *, void *),
				  void *data, char *why, size_t whylen)
{
	size_t i;
	int r;

	fake_why(why, whylen, fake.dump_why);
	if (fake.dump_err < 0)
		return fake.dump_err;
	for (i = 0; i < fake.nsites; i++) {
		r = cb(&fake.sites[i], data);
		if (r < 0)
			return r;
	}
	return 0;
}

static inline uint16_t fake_family(const struct uk_nl *nl)
{
	return FAKE_FAMILY;
}

/* The pipe stays readable while datagrams are queued. */
static inline int fake_events_open(struct uk_nl *nl, int rcvbuf)
{
	fake.events_rcvbuf = rcvbuf;
	if (fake.events_err < 0)
		return fake.events_err;
	if (fake.pipe[0] <= 0) {
		assert_int_equal(pipe2(fake.pipe, O_CLOEXEC | O_NONBLOCK), 0);
		if (fake.ndgrams)
			assert_int_equal(write(fake.pipe[1], "x", 1), 1);
	}
	return fake.pipe[0];
}

static inline ssize_t fake_events_recv(struct uk_nl *nl, void *buf,
				       size_t len)
{
	struct fake_dgram *d;
	char c;

	if (fake.sigterm_at && fake.next + 1 == fake.sigterm_at) {
		fake.sigterm_at = 0;
		kill(getpid(), SIGTERM);	/* blocked: the signalfd sees it */
		return -EAGAIN;
	}
	if (fake.next >= fake.ndgrams) {
		while (read(fake.pipe[0], &c, 1) == 1)
			;
		return -EAGAIN;
	}
	d = &fake.dgrams[fake.next++];
	if (d->ret < 0)
		return d->ret;
	assert_true(d->len <= len);
	memcpy(buf, d->data, d->len);
	return (ssize_t)d->len;
}

static inline int fake_clock(clockid_t clk, struct timespec *ts)
{
	uint64_t ns;

	if (clk == CLOCK_REALTIME)
		ns = fake.real_ns;
	else if (clk == CLOCK_BOOTTIME)
		ns = fake.boot_ns;
	else
		return clock_gettime(clk, ts);
	ts->tv_sec = (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
	return 0;
}

static const struct uk_cli_sys fake_sys = {
	.ctl_call = fake_ctl_call,
	.nl_open = fake_nl_open,
	.nl_close = fake_nl_close,
	.nl_get_status = fake_get_status,
	.nl_reset = fake_reset,
	.nl_set_config = fake_set_config,
	.nl_dump_sites = fake_dump_sites,
	.nl_family = fake_family,
	.nl_events_open = fake_events_open,
	.nl_events_recv = fake_events_recv,
	.clock_gettime = fake_clock,
};

/* 2025-11-24 16:00:00 UTC, 1000 s after boot. */
#define FAKE_REAL_NS	1764000000000000000ULL
#define FAKE_BOOT_NS	1000000000000ULL

static inline void fake_reset_all(void)
{
	if (fake.pipe[0] > 0) {
		close(fake.pipe[0]);
		close(fake.pipe[1]);
	}
	memset(&fake, 0, sizeof(fake));
	fake.real_ns = FAKE_REAL_NS;
	fake.boot_ns = FAKE_BOOT_NS;
	uk_cli_sys = &fake_sys;
}

/* Adds a datagram holding @ev (or an error when @ret < 0). */
static inline void fake_add_event(const struct uk_event *ev, ssize_t ret)
{
	struct fake_dgram *d;
	int n;

	assert_true(fake.ndgrams < FAKE_MAX_DGRAMS);
	d = &fake.dgrams[fake.ndgrams++];
	d->ret = ret;
	if (ret < 0)
		return;
	n = uk_event_build(ev, FAKE_FAMILY, 1, d->data, sizeof(d->data));
	assert_true(n > 0);
	d->len = (size_t)n;
}

/* A status the kernel might give: every attribute present. */
static inline void fake_status_fill(struct uk_status *st)
{
	int a;

	memset(st, 0, sizeof(*st));
	st->mode = UACCESS_KADDR_MODE_REPORT;
	st->hits_fault = 3;
	st->hits_gp = 1;
	st->hits_precheck = 12;
	st->rejected = 2;
	st->reported = 14;
	st->suppressed = 2;
	st->dropped = 0;
	st->sites_used = 4;
	st->sites_max = 4096;
	st->sites_overflow = 0;
	st->last_seq = 14;
	st->ratelimit_interval_ms = 5000;
	st->ratelimit_burst = 10;
	st->queue_len = 0;
	st->access = UACCESS_KADDR_ACCESS_FAIL;
	for (a = UACCESS_KADDR_A_STATUS_MODE; a <= UACCESS_KADDR_A_STATUS_MAX;
	     a++)
		st->present |= 1ULL << a;
}

/* ---- running a verb ---- */

struct run {
	int code;
	char *out;
	size_t outlen;
	char *err;
	size_t errlen;
};

static inline void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Runs @fn with @cli's options (out and err are set here). */
static inline void run_verb(uk_cli_verb_fn fn, struct uk_cli cli,
			    struct run *r, int argc, const char *const *argv)
{
	char *args[argc + 1];
	int i, ret;

	for (i = 0; i < argc; i++)
		args[i] = (char *)argv[i];
	args[argc] = NULL;
	memset(r, 0, sizeof(*r));
	cli.out = open_memstream(&r->out, &r->outlen);
	cli.err = open_memstream(&r->err, &r->errlen);
	assert_non_null(cli.out);
	assert_non_null(cli.err);
	ret = fn(&cli, argc, args);
	/* Verbs return 0 or -errno; main() alone makes exit codes. */
	assert_true(ret <= 0);
	r->code = uk_cli_exit_code(ret);
	fclose(cli.out);
	fclose(cli.err);
}

#define RUN(r, fn, cli, ...)						\
	do {								\
		const char *argv_[] = { NULL, ##__VA_ARGS__ };		\
		run_verb(fn, cli, r, (int)(sizeof(argv_) /		\
			 sizeof(argv_[0])) - 1, argv_ + 1);		\
	} while (0)

#endif /* UK_TEST_CLI_FAKE_H */
