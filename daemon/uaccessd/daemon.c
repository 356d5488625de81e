// SPDX-License-Identifier: GPL-2.0
/* uaccessd's state, see daemon.h: its names, its timers, reloading. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "common/util.h"
#include "daemon.h"
#include "metrics.h"

static const char *const uk_state_names[UK_STATE_NR] = {
	[UK_STATE_STARTING] = "starting",
	[UK_STATE_WAITING] = "waiting-for-kernel",
	[UK_STATE_SUBSCRIBED] = "subscribed",
	[UK_STATE_REPLAY] = "replaying",
	[UK_STATE_REPLAY_DONE] = "replayed",
};

const char *uk_daemon_state_name(enum uk_daemon_state s)
{
	return s < ARRAY_SIZE(uk_state_names) ?
		uk_state_names[s] : "unknown";
}

void uk_daemon_arm_timer(sd_event_source *s, uint64_t usec)
{
	if (!s)
		return;
	if (!usec) {
		sd_event_source_set_enabled(s, SD_EVENT_OFF);
		return;
	}
	sd_event_source_set_time_relative(s, usec);
	sd_event_source_set_enabled(s, SD_EVENT_ON);
}

/*
 * All or nothing.  Once the file has loaded, two steps are left that can
 * fail: the events socket's receive buffer, and the aggregator, which
 * checks its parameters before it changes anything but cannot undo what
 * it then does (the sites it evicts, the samples it drops are gone).  So
 * the socket goes first, and is put back to its old size when the
 * aggregator refuses; after the aggregator nothing can fail.  A failure
 * is counted and written to the journal here, once.
 */
int uk_daemon_reload(struct uk_daemon *d, char *err, size_t errlen)
{
	struct uk_config cfg, old;
	uint64_t rcvbuf;
	bool rcvbuf_set = false;
	size_t n;
	int r, r2;

	r = uk_config_load(d->config_path, &cfg, err, errlen);
	if (r < 0)
		goto failed;
	rcvbuf = cfg.rcvbuf;
	if (rcvbuf != d->cfg.rcvbuf && d->nl) {
		r = d->kernel->events_rcvbuf(d->nl, (int)rcvbuf);
		if (r < 0) {
			snprintf(err, errlen, "%s: rcvbuf: the events socket "
				 "refused a receive buffer of %" PRIu64
				 " bytes: %s", d->config_path, rcvbuf,
				 strerror(-r));
			uk_config_free(&cfg);
			goto failed;
		}
		rcvbuf_set = true;
	}
	old = d->cfg;
	d->cfg = cfg;
	r = uk_pipeline_set_config(&d->pipe, &d->cfg);
	if (r < 0) {
		d->cfg = old;
		uk_config_free(&cfg);
		n = (size_t)snprintf(err, errlen, "%s: rejected by the "
				     "aggregator: %s", d->config_path,
				     strerror(-r));
		r2 = rcvbuf_set ?
		     d->kernel->events_rcvbuf(d->nl, (int)old.rcvbuf) : 0;
		if (r2 < 0 && n < errlen)
			snprintf(err + n, errlen - n, "; rcvbuf: the events "
				 "socket keeps %" PRIu64 " bytes, the old %"
				 PRIu64 " refused: %s", rcvbuf, old.rcvbuf,
				 strerror(-r2));
		goto failed;
	}
	uk_config_free(&old);
	d->reloads++;
	uk_daemon_arm_timer(d->summary_timer, d->cfg.summary_interval_usec);
	uk_daemon_arm_timer(d->periodic_resync, d->cfg.resync_interval_usec);
	uk_metrics_reconfigure(d);
	uk_journal_health(&d->pipe.journal, LOG_INFO, "reloaded",
			  "configuration reloaded from %s%s", d->config_path,
			  d->cfg.missing ? " (missing: defaults)" : "");
	return 0;

failed:
	d->reload_failures++;
	uk_journal_health(&d->pipe.journal, LOG_ERR, "reload-failed",
			  "configuration not reloaded, the old one stays: %s",
			  err);
	return r;
}
