/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uaccessd's state, shared by its main loop (uaccessd.c), its netlink
 * source (source.c) and its control-socket handlers (daemon_ctl.c).
 */
#ifndef UK_DAEMON_H
#define UK_DAEMON_H

#include <stdbool.h>
#include <systemd/sd-event.h>
#include "common/time.h"
#include "config.h"
#include "common/control.h"
#include "control_server.h"
#include "common/nl.h"
#include "pipeline.h"
#include "replay_stream.h"

/* The kernel's side of netlink as uaccessd uses it; tests put fakes here. */
struct uk_kernel_ops {
	int (*get_status)(struct uk_nl *nl, struct uk_status *st, char *why,
			  size_t whylen);
	int (*dump_sites)(struct uk_nl *nl,
			  int (*cb)(const struct uk_site *site, void *data),
			  void *data, char *why, size_t whylen);
	ssize_t (*events_recv)(struct uk_nl *nl, void *buf, size_t len);
	/* The events socket's receive buffer, in bytes (reload). */
	int (*events_rcvbuf)(struct uk_nl *nl, int rcvbuf);
};

/* The real one, over uk_nl (common/nl.h). */
extern const struct uk_kernel_ops uk_kernel_netlink;

enum uk_daemon_state {
	UK_STATE_STARTING,
	UK_STATE_WAITING,	/* for the family to appear */
	UK_STATE_SUBSCRIBED,
	UK_STATE_REPLAY,
	UK_STATE_REPLAY_DONE,
	UK_STATE_NR,
};

struct uk_daemon {
	sd_event *event;
	const char *config_path;
	struct uk_config cfg;
	struct uk_pipeline pipe;
	enum uk_daemon_state state;
	uint64_t started_ns;	/* CLOCK_MONOTONIC */
	uint64_t started_real_ns;	/* CLOCK_REALTIME */

	/* netlink */
	const struct uk_kernel_ops *kernel;
	struct uk_nl *nl;
	sd_event_source *events_src;
	sd_event_source *ctrl_src;	/* controller notifications */
	sd_event_source *retry_src;
	sd_event_source *resync_src;	/* deferred re-sync after overrun */
	bool resync_wanted;
	uint64_t refreshed_ns;		/* last re-sync for a control request */
	char last_error[256];

	/* the kernel's status as last read (re-syncs, status requests) */
	struct uk_status kstatus;
	int kstatus_err;		/* 0, or why it could not be read */
	char kstatus_why[256];
	uint64_t kstatus_ns;		/* when, CLOCK_MONOTONIC; 0: never */

	/* timers */
	sd_event_source *summary_timer;
	sd_event_source *periodic_resync;
	sd_event_source *status_timer;

	struct uk_ctl_server *ctl;
	struct uk_replay_stream *stream;	/* --replay from a FIFO */
	bool exit_after_replay;
	uint64_t reloads;
	uint64_t reload_failures;
	uint64_t resets;

	/* the metrics file (metrics.c) */
	sd_event_source *metrics_timer;
	sd_event_source *metrics_watch;	/* post: did the counters change? */
	uint64_t metrics_next_ns;	/* the timer's, CLOCK_MONOTONIC; 0: off */
	uint64_t metrics_due_ns;	/* the next periodic write */
	uint64_t metrics_written_ns;	/* the last attempt; 0: none */
	uint64_t metrics_mark;		/* the counters as then written */
	uint64_t metrics_failures;
	int metrics_err;		/* the last attempt's: 0 or -errno */
};

const char *uk_daemon_state_name(enum uk_daemon_state s);
/* Fires in @usec, or never for 0 (a NULL source is fine). */
void uk_daemon_arm_timer(sd_event_source *s, uint64_t usec);

/* source.c: the kernel family */
int uk_source_start(struct uk_daemon *d);
void uk_source_stop(struct uk_daemon *d);
/* Re-read the kernel's status and per-site totals; 0 or -errno. */
int uk_source_resync(struct uk_daemon *d);
/* Re-read the kernel's status alone into d->kstatus; 0 or -errno. */
int uk_source_status(struct uk_daemon *d);
/* Whether d->kstatus holds a reading of the kernel this daemon has. */
bool uk_source_status_known(const struct uk_daemon *d);
/* Read what the events socket holds now: true if a batch's worth is left. */
bool uk_source_drain(struct uk_daemon *d);

/* daemon_ctl.c: the control socket's commands */
extern const struct uk_ctl_ops uk_daemon_ctl_ops;
/* SIGHUP and the "reload" command; 0 or -errno with @err filled. */
int uk_daemon_reload(struct uk_daemon *d, char *err, size_t errlen);

#endif /* UK_DAEMON_H */
