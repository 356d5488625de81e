// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessd's netlink side: find the family (or wait for the controller to
 * announce it), join the events group, drain it into the pipeline, and
 * re-sync the per-site totals from dump-sites at start, after an overrun
 * and periodically.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon.h"
#include "common/time.h"

#define UK_RETRY_USEC		(5 * UK_USEC_PER_SEC)
#define UK_DRAIN_BATCH		256	/* datagrams per wakeup */

static void schedule_retry(struct uk_daemon *d);

static void stop_events(struct uk_daemon *d)
{
	d->events_src = sd_event_source_disable_unref(d->events_src);
	uk_nl_close(d->nl);
	d->nl = NULL;
}

static int sync_cb(const struct uk_site *site, void *data)
{
	struct uk_daemon *d = data;

	uk_pipeline_sync_site(&d->pipe, site);
	return 0;
}

const struct uk_kernel_ops uk_kernel_netlink = {
	.get_status = uk_nl_get_status,
	.dump_sites = uk_nl_dump_sites,
	.events_recv = uk_nl_events_recv,
	.events_rcvbuf = uk_nl_events_rcvbuf,
};

int uk_source_status(struct uk_daemon *d)
{
	struct uk_status st;
	char why[sizeof(d->kstatus_why)] = "";
	int r;

	if (!d->nl)
		return -ENOTCONN;
	r = d->kernel->get_status(d->nl, &st, why, sizeof(why));
	d->kstatus_ns = uk_time_now_ns();
	d->kstatus_err = r;
	snprintf(d->kstatus_why, sizeof(d->kstatus_why), "%s",
		 why[0] || r == 0 ? why : strerror(-r));
	if (r == 0) {
		d->kstatus = st;
		uk_pipeline_kernel_status(&d->pipe, &st);
	}
	return r;
}

bool uk_source_status_known(const struct uk_daemon *d)
{
	return d->nl && d->kstatus_ns && !d->kstatus_err;
}

int uk_source_resync(struct uk_daemon *d)
{
	char why[256];
	int r;

	if (!d->nl)
		return -ENOTCONN;
	r = uk_source_status(d);
	snprintf(why, sizeof(why), "%s", d->kstatus_why);
	if (r == 0)
		r = d->kernel->dump_sites(d->nl, sync_cb, d, why, sizeof(why));
	if (r < 0) {
		char msg[sizeof(d->last_error)];

		snprintf(msg, sizeof(msg), "re-sync from the kernel failed: %.200s",
			 why);
		/* Once per cause: a control request may ask every second. */
		if (strcmp(msg, d->last_error)) {
			snprintf(d->last_error, sizeof(d->last_error), "%s", msg);
			uk_journal_health(&d->pipe.journal, LOG_ERR,
					  "resync-failed", "%s", msg);
		}
		return r;
	}
	d->pipe.resyncs++;
	return 0;
}

bool uk_source_drain(struct uk_daemon *d)
{
	static char buf[UK_NL_BUFSIZE] __attribute__((aligned(8)));
	unsigned int i;
	ssize_t n;

	for (i = 0; d->nl && i < UK_DRAIN_BATCH; i++) {
		n = d->kernel->events_recv(d->nl, buf, sizeof(buf));
		if (n == -EAGAIN)
			return false;
		if (n == -ENOBUFS) {
			uk_pipeline_overrun(&d->pipe);
			d->resync_wanted = true;
			sd_event_source_set_enabled(d->resync_src,
						    SD_EVENT_ONESHOT);
			continue;
		}
		if (n == -EMSGSIZE) {
			uk_pipeline_oversized(&d->pipe, uk_time_now_ns());
			continue;
		}
		if (n < 0) {
			/* Not to spin on a broken socket: subscribe anew. */
			snprintf(d->last_error, sizeof(d->last_error),
				 "events socket: %s", strerror((int)-n));
			uk_journal_health(&d->pipe.journal, LOG_ERR,
					  "events-socket-error",
					  "%s; subscribing again", d->last_error);
			stop_events(d);
			d->state = UK_STATE_WAITING;
			schedule_retry(d);
			return false;
		}
		uk_pipeline_datagram(&d->pipe, buf, (size_t)n, uk_time_now_ns());
	}
	return d->nl != NULL;
}

static int on_events(sd_event_source *s, int fd, uint32_t revents,
		     void *userdata)
{
	uk_source_drain(userdata);
	return 0;
}

static int on_resync(sd_event_source *s, void *userdata)
{
	struct uk_daemon *d = userdata;

	if (d->resync_wanted) {
		d->resync_wanted = false;
		/* What is queued now predates the dump: take it first. */
		uk_source_drain(d);
		uk_source_resync(d);
	}
	return 0;
}

static int subscribe(struct uk_daemon *d)
{
	int fd, r;

	r = uk_nl_open(&d->nl);
	if (r < 0)
		return r;
	d->pipe.family = uk_nl_family(d->nl);
	fd = uk_nl_events_open(d->nl, (int)d->cfg.rcvbuf);
	if (fd < 0) {
		r = fd;
		goto err;
	}
	r = sd_event_add_io(d->event, &d->events_src, fd, EPOLLIN, on_events,
			    d);
	if (r < 0)
		goto err;
	d->state = UK_STATE_SUBSCRIBED;
	d->last_error[0] = '\0';
	uk_journal_health(&d->pipe.journal, LOG_INFO, "subscribed",
			  "subscribed to the kernel's uaccess_kaddr events");
	uk_source_resync(d);
	return 0;
err:
	stop_events(d);
	return r;
}

static int on_retry(sd_event_source *s, uint64_t usec, void *userdata);

static void schedule_retry(struct uk_daemon *d)
{
	sd_event_source_set_time_relative(d->retry_src, UK_RETRY_USEC);
	sd_event_source_set_enabled(d->retry_src, SD_EVENT_ONESHOT);
}

/* Subscribe, or wait: for the controller (no family) or a retry. */
static void try_subscribe(struct uk_daemon *d)
{
	char why[sizeof(d->last_error)];
	int r = subscribe(d);

	if (r == 0)
		return;
	if (r == -ENOENT) {
		if (d->state != UK_STATE_WAITING)
			uk_journal_health(&d->pipe.journal, LOG_WARNING,
					  "family-absent",
					  "the kernel has no uaccess_kaddr family "
					  "(CONFIG_DEBUG_UACCESS_KADDR); waiting "
					  "for it to appear");
		d->state = UK_STATE_WAITING;
		snprintf(d->last_error, sizeof(d->last_error),
			 "kernel lacks uaccess_kaddr support");
		return;
	}
	snprintf(why, sizeof(why), "cannot subscribe to the kernel's events: %s",
		 r == -EPERM ? "permission denied (needs CAP_SYS_ADMIN)" :
		 strerror(-r));
	/* Once per cause, not at every retry. */
	if (strcmp(why, d->last_error)) {
		snprintf(d->last_error, sizeof(d->last_error), "%s", why);
		uk_journal_health(&d->pipe.journal, LOG_ERR, "subscribe-failed",
				  "%s; retrying every %" PRIu64 " s", why,
				  UK_RETRY_USEC / UK_USEC_PER_SEC);
	}
	d->state = UK_STATE_WAITING;
	schedule_retry(d);
}

static int on_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct uk_daemon *d = userdata;

	if (!d->nl)
		try_subscribe(d);
	return 0;
}

static int on_ctrl(sd_event_source *s, int fd, uint32_t revents,
		   void *userdata)
{
	struct uk_daemon *d = userdata;
	enum uk_nl_family_change change;
	int r;

	while ((r = uk_nl_ctrl_recv(fd, &change)) != -EAGAIN) {
		if (r == 0 && change == UK_NL_FAMILY_NEW && !d->nl) {
			uk_journal_health(&d->pipe.journal, LOG_INFO,
					  "family-appeared",
					  "the uaccess_kaddr family appeared");
			try_subscribe(d);
		} else if (r == 0 && change == UK_NL_FAMILY_GONE && d->nl) {
			stop_events(d);
			d->state = UK_STATE_WAITING;
			uk_journal_health(&d->pipe.journal, LOG_WARNING,
					  "family-removed",
					  "the uaccess_kaddr family went away; "
					  "waiting for it");
		} else if (r < 0) {
			/* An overrun of notifications: look for ourselves. */
			if (!d->nl)
				try_subscribe(d);
			if (r != -ENOBUFS)
				break;
		}
	}
	return 0;
}

int uk_source_start(struct uk_daemon *d)
{
	int fd, r;

	r = sd_event_add_time_relative(d->event, &d->retry_src,
				       CLOCK_MONOTONIC, UK_RETRY_USEC, 0,
				       on_retry, d);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(d->retry_src, SD_EVENT_OFF);
	r = sd_event_add_defer(d->event, &d->resync_src, on_resync, d);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(d->resync_src, SD_EVENT_OFF);

	/* Listen to the controller first, so no announcement is missed. */
	fd = uk_nl_ctrl_open();
	if (fd < 0)
		return fd;
	r = sd_event_add_io(d->event, &d->ctrl_src, fd, EPOLLIN, on_ctrl, d);
	if (r < 0) {
		close(fd);	/* the source would have owned it */
		return r;
	}
	sd_event_source_set_io_fd_own(d->ctrl_src, 1);
	try_subscribe(d);
	return 0;
}

void uk_source_stop(struct uk_daemon *d)
{
	stop_events(d);
	d->ctrl_src = sd_event_source_disable_unref(d->ctrl_src);
	d->retry_src = sd_event_source_disable_unref(d->retry_src);
	d->resync_src = sd_event_source_disable_unref(d->resync_src);
}
