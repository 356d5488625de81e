// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics file, see metrics.h: the daemon's families, the top
 * functions, the atomic write and when it happens.
 *
 * When: one timer, armed for the next periodic write, or earlier when a
 * post source (run after every other event source of the loop) sees the
 * counters moved, but never within UK_METRICS_MIN_GAP_NS of the last
 * write.  A flood of datagrams thus costs one write a second, an idle
 * daemon one per metrics_interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "common/hashtab.h"
#include "common/metrics.h"
#include "common/openmetrics.h"
#include "common/util.h"
#include "daemon.h"
#include "metrics.h"

#define UNKNOWN		"unknown"

static int fn_name_cmp(const struct uk_metrics_fn *a,
		       const struct uk_metrics_fn *b)
{
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Most hits first, then by name. */
static int fn_rank_cmp(const struct uk_metrics_fn *a,
		       const struct uk_metrics_fn *b)
{
	if (a->hits != b->hits)
		return a->hits < b->hits ? 1 : -1;
	return fn_name_cmp(a, b);
}

static uint64_t fn_hash(const void *entry, const void *ctx)
{
	const struct uk_metrics_fn *f = entry;

	return uk_hash_mix64(uk_hash_fnv1a(UK_FNV1A_INIT, f->name, f->len));
}

static bool fn_eq(const void *entry, const void *key)
{
	return !fn_name_cmp(entry, key);
}

/* The functions, one entry each, in a table by name. */
struct fn_walk {
	struct uk_metrics_fn *v;
	size_t n;
	struct uk_htab names;
};

static void add_site(const struct uk_agg_site *s, void *data)
{
	struct fn_walk *w = data;
	struct uk_metrics_fn key, *f;
	char name[UK_SYMBOL_LEN];
	uint64_t h;

	/* The function name is the symbol's start: point at it. */
	if (uk_symbol_function(s->symbol, name, sizeof(name))) {
		key.name = s->symbol;
		key.len = strlen(name);
	} else {
		key.name = UNKNOWN;
		key.len = strlen(UNKNOWN);
	}
	h = fn_hash(&key, NULL);
	f = uk_htab_find(&w->names, h, fn_eq, &key);
	if (!f) {
		f = &w->v[w->n++];
		*f = key;
		f->hits = 0;
		uk_htab_insert(&w->names, h, f);
	}
	f->hits += s->count;
}

int uk_metrics_functions(const struct uk_agg *agg, size_t top,
			 struct uk_metrics_fn **fns, size_t *n,
			 uint64_t *other)
{
	struct fn_walk w = { 0 };
	struct uk_agg_stats st;
	struct uk_metrics_fn *v;
	size_t i, k, kept = 0;
	uint64_t sum = 0;

	*fns = NULL;
	*n = 0;
	*other = 0;
	uk_agg_get_stats(agg, &st);
	if (!st.sites)
		return 0;
	w.v = v = calloc(st.sites, sizeof(*v));
	if (!v || uk_htab_reserve(&w.names, st.sites, fn_hash, NULL) < 0) {
		free(v);
		return -ENOMEM;
	}
	uk_agg_for_each(agg, add_site, &w);
	uk_htab_clear(&w.names);
	/*
	 * The @top first at the front, in order: an insertion that most
	 * functions leave at the first comparison.
	 */
	for (i = 0; i < w.n; i++) {
		struct uk_metrics_fn f = v[i];

		if (kept == top && (!top || fn_rank_cmp(&f, &v[top - 1]) > 0)) {
			sum += f.hits;
			continue;
		}
		if (kept == top)
			sum += v[top - 1].hits;
		else
			kept++;
		for (k = kept - 1; k && fn_rank_cmp(&f, &v[k - 1]) < 0; k--)
			v[k] = v[k - 1];
		v[k] = f;
	}
	*other = sum;
	*n = kept;
	if (kept)
		*fns = v;
	else
		free(v);
	return 0;
}

static void counter(struct uk_om *om, const char *name, const char *help,
		    uint64_t v)
{
	uk_om_u64(om, name, UK_OM_COUNTER, help, v);
}

static void gauge(struct uk_om *om, const char *name, const char *help,
		  uint64_t v)
{
	uk_om_u64(om, name, UK_OM_GAUGE, help, v);
}

static void site_hits(struct uk_om *om, const struct uk_daemon *d)
{
	struct uk_metrics_fn *fns;
	char name[UK_SYMBOL_LEN];
	size_t i, n;
	uint64_t other;
	int r;

	r = uk_metrics_functions(d->pipe.agg, d->cfg.metrics_top_sites, &fns,
				 &n, &other);
	if (r < 0) {
		uk_om_fail(om, r);
		return;
	}
	if (n)
		uk_om_family(om, "uaccessd_site_hits_total", UK_OM_COUNTER,
			     "Hits at the call sites in a function, for the functions with the most.");
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%.*s", (int)fns[i].len,
			 fns[i].name);
		uk_om_sample_u64(om, &(struct uk_om_label){ "function", name },
				 1, fns[i].hits);
	}
	free(fns);
	counter(om, "uaccessd_site_hits_other_total",
		"Hits at the call sites of the functions not in uaccessd_site_hits_total.",
		other);
}

static void daemon_families(struct uk_om *om, const struct uk_daemon *d)
{
	const struct uk_pipeline *p = &d->pipe;
	struct uk_agg_stats st;
	enum uk_daemon_state s;
	enum uk_loss r;

	uk_agg_get_stats(p->agg, &st);
	uk_om_family(om, "uaccessd_start_time_seconds", UK_OM_GAUGE,
		     "When uaccessd started, in seconds since the epoch.");
	uk_om_sample_double(om, NULL, 0, (double)(d->started_real_ns /
				UK_NSEC_PER_MSEC) / UK_MSEC_PER_SEC);
	uk_om_family(om, "uaccessd_state", UK_OM_GAUGE,
		     "The daemon's state (1: the current one).");
	for (s = 0; s < UK_STATE_NR; s++)
		uk_om_sample_u64(om, &(struct uk_om_label){ "state",
				 uk_daemon_state_name(s) }, 1, s == d->state);
	counter(om, "uaccessd_reloads_total", "Configuration reloads.",
		d->reloads);
	counter(om, "uaccessd_reload_failures_total",
		"Reloads refused (a bad file): the old configuration stayed.",
		d->reload_failures);
	counter(om, "uaccessd_datagrams_total",
		"Datagrams received from the kernel.", p->datagrams);
	counter(om, "uaccessd_events_total",
		"Events received and parsed.", p->events);
	counter(om, "uaccessd_journaled_events_total",
		"Event entries written to the journal.", p->journaled);
	counter(om, "uaccessd_suppressed_events_total",
		"Events held back from the journal by the site or the global ratelimit.",
		st.suppressed);
	counter(om, "uaccessd_suppressed_global_events_total",
		"Of uaccessd_suppressed_events_total, those held back by the global ratelimit.",
		st.suppressed_global);
	counter(om, "uaccessd_ignored_events_total",
		"Events at sites of the ignore list.", p->ignored);
	counter(om, "uaccessd_late_events_total",
		"Events older than the highest sequence number seen.",
		p->late);
	counter(om, "uaccessd_recovered_events_total",
		"Events that arrived after their gap was counted.",
		p->recovered);
	counter(om, "uaccessd_socket_overruns_total",
		"Receive buffer overruns of the events socket (ENOBUFS).",
		p->overruns);
	counter(om, "uaccessd_resyncs_total",
		"Re-syncs of the per-site totals from the kernel.", p->resyncs);
	counter(om, "uaccessd_sync_refused_total",
		"Sites of a re-sync the daemon's table could not take (no events).",
		p->sync_refused);
	counter(om, "uaccessd_journal_failures_total",
		"Journal entries journald refused.", p->journal.failed);
	uk_om_family(om, "uaccessd_lost_events_total", UK_OM_COUNTER,
		     "Events lost, by cause (site-evicted counts sites).");
	for (r = 0; r < UK_LOSS_NR; r++)
		uk_om_sample_u64(om, &(struct uk_om_label){ "cause",
				 uk_loss_name(r) }, 1, uk_pipeline_loss(p, r));
	gauge(om, "uaccessd_sites", "Call sites in the daemon's table.",
	      st.sites);
	gauge(om, "uaccessd_sites_max",
	      "Call sites the daemon's table holds at most (max_sites).",
	      st.max_sites);
	gauge(om, "uaccessd_stacks", "Symbolized stacks the daemon keeps.",
	      st.stacks);
	site_hits(om, d);
	gauge(om, "uaccessd_metrics_top_sites",
	      "Functions named in uaccessd_site_hits_total at most (metrics_top_sites).",
	      d->cfg.metrics_top_sites);
	counter(om, "uaccessd_metrics_write_failures_total",
		"Writes of this file that failed.", d->metrics_failures);
}

int uk_metrics_text(const struct uk_daemon *d, char **text, size_t *len)
{
	struct uk_om om;

	uk_om_init(&om);
	uk_metrics_kernel(&om, uk_source_status_known(d) ? &d->kstatus : NULL);
	daemon_families(&om, d);
	return uk_om_finish(&om, text, len);
}

/*
 * No fsync(): a reader needs the rename to be atomic, which it is; after
 * a crash the next write (at start) puts a whole file there again.
 */
int uk_metrics_write_file(const char *path, const char *text, size_t len)
{
	const char *slash = strrchr(path, '/');
	char *tmp = NULL;
	size_t done = 0;
	ssize_t w;
	int fd, r = 0;

	if (!slash || !slash[1])
		return -EINVAL;
	if (asprintf(&tmp, "%.*s/.%s.tmp.%d", (int)(slash - path), path,
		     slash + 1, (int)getpid()) < 0)
		return -ENOMEM;
	/*
	 * Ours alone: whatever a crash left there (or anyone planted, a
	 * symbolic link to follow) goes first.
	 */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		r = -errno;
		free(tmp);
		return r;
	}
	while (done < len) {
		w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		done += w;
	}
	/* The unit's UMask=0077 would keep node_exporter out. */
	if (!r && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	free(tmp);
	return r;
}

/*
 * Moves whenever the counters the file shows change: datagrams (and what
 * they bring), overruns, re-syncs, resets, reloads, the loss the ticks
 * write up and the journal's refusals.
 */
static uint64_t change_mark(const struct uk_daemon *d)
{
	const struct uk_pipeline *p = &d->pipe;
	uint64_t mark = p->datagrams + p->overruns + p->resyncs +
			p->journal.failed + d->reloads + d->reload_failures +
			d->resets;
	enum uk_loss r;

	for (r = 0; r < UK_LOSS_NR; r++)
		mark += uk_pipeline_loss(p, r);
	return mark;
}

int uk_metrics_write(struct uk_daemon *d)
{
	const char *path = d->cfg.metrics_file;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (!path)
		return 0;
	d->metrics_written_ns = uk_time_now_ns();
	d->metrics_mark = change_mark(d);
	r = uk_metrics_text(d, &text, &len);
	if (r == 0)
		r = uk_metrics_write_file(path, text, len);
	free(text);
	if (r < 0)
		d->metrics_failures++;
	if (r < 0 && r != d->metrics_err)
		uk_journal_health(&d->pipe.journal, LOG_ERR,
				  "metrics-write-failed",
				  "cannot write the metrics file %s: %s",
				  path, strerror(-r));
	else if (r == 0 && d->metrics_err)
		uk_journal_health(&d->pipe.journal, LOG_INFO,
				  "metrics-written",
				  "the metrics file %s is written again", path);
	d->metrics_err = r;
	return r;
}

/* The timer for @when_ns (CLOCK_MONOTONIC), or off for 0. */
static void arm(struct uk_daemon *d, uint64_t when_ns)
{
	d->metrics_next_ns = when_ns;
	if (!when_ns) {
		sd_event_source_set_enabled(d->metrics_timer, SD_EVENT_OFF);
		return;
	}
	sd_event_source_set_time(d->metrics_timer, when_ns / UK_NSEC_PER_USEC);
	sd_event_source_set_enabled(d->metrics_timer, SD_EVENT_ONESHOT);
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct uk_daemon *d = userdata;
	uint64_t now = uk_time_now_ns();

	if (!d->cfg.metrics_file) {
		arm(d, 0);
		return 0;
	}
	/* A periodic write shows the kernel as it is now. */
	if (now >= d->metrics_due_ns) {
		d->metrics_due_ns = now + d->cfg.metrics_interval_usec *
			UK_NSEC_PER_USEC;
		if (d->nl) {
			uk_source_drain(d);
			uk_source_status(d);
		}
	}
	uk_metrics_write(d);
	arm(d, d->metrics_due_ns);
	return 0;
}

static int on_post(sd_event_source *s, void *userdata)
{
	struct uk_daemon *d = userdata;
	uint64_t when;

	if (change_mark(d) == d->metrics_mark)
		return 0;
	when = d->metrics_written_ns + UK_METRICS_MIN_GAP_NS;
	if (when < d->metrics_next_ns || !d->metrics_next_ns)
		arm(d, when);
	return 0;
}

int uk_metrics_start(struct uk_daemon *d)
{
	int r;

	r = sd_event_add_time(d->event, &d->metrics_timer, CLOCK_MONOTONIC,
			      0, 0, on_timer, d);
	if (r < 0)
		return r;
	r = sd_event_add_post(d->event, &d->metrics_watch, on_post, d);
	if (r < 0)
		return r;
	uk_metrics_reconfigure(d);
	return 0;
}

void uk_metrics_stop(struct uk_daemon *d)
{
	d->metrics_timer = sd_event_source_disable_unref(d->metrics_timer);
	d->metrics_watch = sd_event_source_disable_unref(d->metrics_watch);
}

void uk_metrics_reconfigure(struct uk_daemon *d)
{
	uint64_t gap_end = d->metrics_written_ns + UK_METRICS_MIN_GAP_NS;

	if (!d->metrics_timer)
		return;
	sd_event_source_set_enabled(d->metrics_watch, d->cfg.metrics_file ?
				    SD_EVENT_ON : SD_EVENT_OFF);
	if (!d->cfg.metrics_file) {
		arm(d, 0);
		return;
	}
	/*
	 * A periodic write now (or once the gap is over), the next ones
	 * every metrics_interval from then.
	 */
	d->metrics_due_ns = uk_time_now_ns();
	arm(d, d->metrics_written_ns && gap_end > d->metrics_due_ns ?
	    gap_end : d->metrics_due_ns);
}
