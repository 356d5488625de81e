// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessd: turns the kernel's uaccess_kaddr events into journal entries.
 *
 * One sd-event loop: the netlink source (source.c) feeds the pipeline
 * (pipeline.c); timers write the suppressed summaries, re-sync the totals
 * and refresh the STATUS= line; the control socket answers uaccessctl;
 * SIGHUP reloads the configuration, SIGTERM flushes and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "daemon.h"
#include "common/time.h"
#include "metrics.h"
#include "replay.h"
#include "common/util.h"

#define UK_STATUS_USEC		(2 * UK_USEC_PER_SEC)

static void log_msg(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* stderr with sd-daemon priority prefixes: the journal keeps the level. */
static void log_msg(int level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "<%d>", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A failure is journaled by uk_daemon_reload() (reload-failed) once. */
static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si,
		     void *userdata)
{
	char err[512];

	sd_notify(0, "RELOADING=1");
	uk_daemon_reload(userdata, err, sizeof(err));
	sd_notify(0, "READY=1");
	return 0;
}

static int on_sigterm(sd_event_source *s, const struct signalfd_siginfo *si,
		      void *userdata)
{
	struct uk_daemon *d = userdata;

	uint64_t until = uk_time_now_ns() + UK_NSEC_PER_SEC;

	sd_notify(0, "STOPPING=1");
	/* Everything queued, within a second; then what never came counts. */
	while (uk_source_drain(d) && uk_time_now_ns() < until)
		;
	if (d->nl)
		uk_source_resync(d);
	uk_pipeline_flush(&d->pipe);
	uk_journal_health(&d->pipe.journal, LOG_INFO, "stopping",
			  "stopping after %" PRIu64 " events, %" PRIu64
			  " journaled, %" PRIu64 " lost", d->pipe.events,
			  d->pipe.journaled, uk_pipeline_lost(&d->pipe));
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int on_summary(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct uk_daemon *d = userdata;

	uk_pipeline_flush(&d->pipe);
	uk_daemon_arm_timer(s, d->cfg.summary_interval_usec);
	return 0;
}

static int on_periodic_resync(sd_event_source *s, uint64_t usec,
			      void *userdata)
{
	struct uk_daemon *d = userdata;

	if (d->nl) {
		uk_source_drain(d);
		uk_source_resync(d);
	}
	uk_daemon_arm_timer(s, d->cfg.resync_interval_usec);
	return 0;
}

static int on_status(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct uk_daemon *d = userdata;

	uk_pipeline_tick(&d->pipe, uk_time_now_ns());
	sd_notifyf(0, "STATUS=%s: %" PRIu64 " events, %" PRIu64
		   " journaled, %" PRIu64 " lost, %" PRIu64 " overruns",
		   uk_daemon_state_name(d->state), d->pipe.events,
		   d->pipe.journaled, uk_pipeline_lost(&d->pipe),
		   d->pipe.overruns);
	uk_daemon_arm_timer(s, UK_STATUS_USEC);
	return 0;
}

static void replay_done(struct uk_daemon *d, int err, const char *path,
			const char *why)
{
	if (err < 0)
		log_msg(LOG_ERR, "%s: %s", path, why);
	uk_pipeline_flush(&d->pipe);
	d->state = UK_STATE_REPLAY_DONE;
	uk_journal_health(&d->pipe.journal, err < 0 ? LOG_ERR : LOG_INFO,
			  "replayed", "replay of %s %s: %" PRIu64 " events",
			  path, err < 0 ? "failed" : "done", d->pipe.events);
}

static const char *stream_path;

static void on_stream_done(int err, const char *why, void *data)
{
	struct uk_daemon *d = data;

	replay_done(d, err, stream_path, why);
	if (d->exit_after_replay)
		sd_event_exit(d->event, err < 0 ? err : 0);
}

/*
 * A FIFO, or a stdin that is a pipe, a socket or a terminal, is read as
 * it comes, from the event loop.  A FIFO given by its path is opened
 * non-blocking, a description of our own; stdin's description is the
 * caller's too, and is left as it is (see uk_replay_stream_new()).
 */
static int replay_stream(struct uk_daemon *d, const char *path)
{
	int fd = strcmp(path, "-") ?
		open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) :
		fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	int r;

	if (fd < 0) {
		r = -errno;
		log_msg(LOG_ERR, "%s: %s", path, strerror(-r));
		return r;
	}
	stream_path = path;
	r = uk_replay_stream_new(d->event, fd, &d->pipe, on_stream_done, d,
				 &d->stream);
	if (r < 0) {
		log_msg(LOG_ERR, "%s: cannot watch it: %s", path, strerror(-r));
		close(fd);
		return r;
	}
	d->state = UK_STATE_REPLAY;
	return 0;
}

static int replay(struct uk_daemon *d, const char *path)
{
	const struct nlmsghdr *nlh;
	struct uk_replay r;
	char why[256];
	size_t len;
	int ret;

	/* stdin from where it stands, as cat reads it. */
	ret = strcmp(path, "-") ? uk_replay_open(&r, path, why, sizeof(why)) :
	      uk_replay_open_fp(&r, stdin, why, sizeof(why));
	if (ret < 0) {
		log_msg(LOG_ERR, "%s", why);
		return ret;
	}
	d->state = UK_STATE_REPLAY;
	d->pipe.family = uk_replay_family(&r);
	while ((ret = uk_replay_next(&r, &nlh, &len, why, sizeof(why))) > 0)
		uk_pipeline_datagram(&d->pipe, nlh, len, uk_time_now_ns());
	uk_replay_close(&r);
	replay_done(d, ret, path, why);
	return ret < 0 ? ret : 0;
}

/*
 * Read as it comes: a FIFO, and a stdin that is a pipe, a socket or a
 * terminal.  A stdin that is a file (or /dev/null) is read whole.
 */
static bool is_stream(const char *path)
{
	struct stat st;

	if (strcmp(path, "-"))
		return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
	if (fstat(STDIN_FILENO, &st) < 0)
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	       isatty(STDIN_FILENO);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: uaccessd [OPTIONS]\n"
		"Forward the kernel's uaccess_kaddr events to the journal.\n\n"
		"  -c, --config=PATH      configuration file (%s)\n"
		"  -s, --control=PATH     control socket (%s)\n"
		"  -r, --replay=FILE      read recorded netlink messages instead\n"
		"                         of the kernel, then keep serving; a\n"
		"                         FIFO or - (stdin) is read as it comes\n"
		"  -x, --exit-after-replay  exit once the replay is done\n"
		"  -h, --help             this text\n"
		"  -V, --version          the version\n",
		UK_CONFIG_PATH, UK_CTL_SOCKET_PATH);
}

static int setup_control(struct uk_daemon *d, const char *path)
{
	char dir[256], *slash;
	int n = sd_listen_fds(1);

	if (n > 1) {
		log_msg(LOG_ERR, "expected one socket from systemd, got %d", n);
		return -EINVAL;
	}
	if (n == 1)
		return uk_ctl_server_new_fd(d->event, SD_LISTEN_FDS_START,
					    &uk_daemon_ctl_ops, d, &d->ctl);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
	}
	return uk_ctl_server_new(d->event, path, &uk_daemon_ctl_ops, d,
				 &d->ctl);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "control", required_argument, NULL, 's' },
		{ "replay", required_argument, NULL, 'r' },
		{ "exit-after-replay", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	const char *control = UK_CTL_SOCKET_PATH, *replay_path = NULL;
	struct uk_daemon d = {
		.config_path = UK_CONFIG_PATH, .kernel = &uk_kernel_netlink,
	};
	bool exit_after_replay = false;
	char err[512];
	sigset_t ss;
	int c, r;

	while ((c = getopt_long(argc, argv, "c:s:r:xhV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			d.config_path = optarg;
			break;
		case 's':
			control = optarg;
			break;
		case 'r':
			replay_path = optarg;
			break;
		case 'x':
			exit_after_replay = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("uaccessd %s\n", UK_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "uaccessd: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}

	d.started_ns = uk_time_now_ns();
	d.started_real_ns = uk_time_ns(CLOCK_REALTIME);
	r = uk_config_load(d.config_path, &d.cfg, err, sizeof(err));
	if (r < 0) {
		log_msg(LOG_ERR, "%s", err);
		return 1;
	}
	r = uk_pipeline_init(&d.pipe, &d.cfg);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot set up the pipeline: %s", strerror(-r));
		return 1;
	}

	r = sd_event_default(&d.event);
	if (r < 0)
		goto fail;
	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGHUP);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	signal(SIGPIPE, SIG_IGN);
	if ((r = sd_event_add_signal(d.event, NULL, SIGTERM, on_sigterm,
				     &d)) < 0 ||
	    (r = sd_event_add_signal(d.event, NULL, SIGINT, on_sigterm,
				     &d)) < 0 ||
	    (r = sd_event_add_signal(d.event, NULL, SIGHUP, on_sighup,
				     &d)) < 0)
		goto fail;
	r = sd_event_set_watchdog(d.event, 1);
	if (r < 0)
		goto fail;
	if ((r = sd_event_add_time_relative(d.event, &d.summary_timer,
					    CLOCK_MONOTONIC,
					    d.cfg.summary_interval_usec, 0,
					    on_summary, &d)) < 0 ||
	    (r = sd_event_add_time_relative(d.event, &d.periodic_resync,
					    CLOCK_MONOTONIC,
					    d.cfg.resync_interval_usec ?
					    d.cfg.resync_interval_usec : 1, 0,
					    on_periodic_resync, &d)) < 0 ||
	    (r = sd_event_add_time_relative(d.event, &d.status_timer,
					    CLOCK_MONOTONIC, UK_STATUS_USEC, 0,
					    on_status, &d)) < 0)
		goto fail;
	uk_daemon_arm_timer(d.periodic_resync, d.cfg.resync_interval_usec);
	r = uk_metrics_start(&d);
	if (r < 0)
		goto fail;

	r = setup_control(&d, control);
	if (r < 0) {
		log_msg(LOG_ERR, "control socket %s: %s", control, strerror(-r));
		goto out;
	}
	uk_journal_health(&d.pipe.journal, LOG_INFO, "started",
			  "uaccessd %s started (config %s%s)", UK_VERSION,
			  d.config_path, d.cfg.missing ? ", missing: defaults" : "");

	d.exit_after_replay = exit_after_replay;
	if (replay_path)
		snprintf(d.last_error, sizeof(d.last_error),
			 "replaying %s: not connected to the kernel",
			 replay_path);
	if (replay_path && is_stream(replay_path)) {
		r = replay_stream(&d, replay_path);
		if (r < 0)
			goto out;
	} else if (replay_path) {
		r = replay(&d, replay_path);
		if (r < 0 || exit_after_replay)
			goto out;
	} else {
		r = uk_source_start(&d);
		if (r < 0) {
			log_msg(LOG_ERR, "cannot watch the kernel's netlink families: %s",
				strerror(-r));
			goto out;
		}
	}
	sd_notify(0, "READY=1");
	on_status(d.status_timer, 0, &d);
	r = sd_event_loop(d.event);
	goto out;
fail:
	log_msg(LOG_ERR, "event loop setup: %s", strerror(-r));
out:
	/* The final counters, for a replay most of all. */
	if (r >= 0)
		uk_metrics_write(&d);
	if (r >= 0 && exit_after_replay) {
		struct uk_agg_stats st;

		uk_agg_get_stats(d.pipe.agg, &st);
		printf("events %" PRIu64 " journaled %" PRIu64 " suppressed %"
		       PRIu64 " ignored %" PRIu64 " journal-failed %" PRIu64
		       " lost %" PRIu64 "\n", d.pipe.events, d.pipe.journaled,
		       st.suppressed, d.pipe.ignored, d.pipe.journal_lost,
		       uk_pipeline_lost(&d.pipe));
	}
	uk_source_stop(&d);
	uk_metrics_stop(&d);
	uk_replay_stream_free(d.stream);
	uk_ctl_server_free(d.ctl);
	sd_event_source_disable_unref(d.summary_timer);
	sd_event_source_disable_unref(d.periodic_resync);
	sd_event_source_disable_unref(d.status_timer);
	sd_event_unref(d.event);
	uk_pipeline_free(&d.pipe);
	uk_config_free(&d.cfg);
	return r < 0 ? 1 : 0;
}
