/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uaccessd's metrics file (metrics_file in uaccessd.conf): the kernel's
 * families (common/metrics.h) and the daemon's, in the Prometheus text
 * format, rewritten whole at start, every metrics_interval and after the
 * counters change, at most once per UK_METRICS_MIN_GAP_NS.  The families
 * are listed in docs/uaccessd.md, "Metrics file".
 */
#ifndef UK_UACCESSD_METRICS_H
#define UK_UACCESSD_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "common/time.h"

#define UK_METRICS_MIN_GAP_NS	UK_NSEC_PER_SEC

struct uk_daemon;

/* A caller function and the hits of its sites. */
struct uk_metrics_fn {
	const char *name;	/* not NUL-terminated: @len bytes */
	size_t len;
	uint64_t hits;
};

/*
 * The @top functions with the most hits (the site counts summed by
 * uk_symbol_function() of the site symbol; "unknown" for a site without
 * one), most first and by name among equals, into *fns (malloc()ed, NULL
 * when there are none) and *n; *other gets the hits of all the other
 * sites.  The names point into the table: valid until it changes.
 * 0 or -ENOMEM.
 */
int uk_metrics_functions(const struct uk_agg *agg, size_t top,
			 struct uk_metrics_fn **fns, size_t *n,
			 uint64_t *other);

/* The whole text, kernel and daemon, into *text (free() it); 0 or -errno. */
int uk_metrics_text(const struct uk_daemon *d, char **text, size_t *len);

/*
 * Replaces @path with @len bytes of @text, mode 0644, so that a reader
 * sees the old file or the new one, whole: written to
 * "DIR/.NAME.tmp.PID" (node_exporter reads *.prom only), then renamed
 * over @path.  On error the temporary file is gone and @path as it was.
 * 0 or -errno.
 */
int uk_metrics_write_file(const char *path, const char *text, size_t len);

/* The timer and the watch of the counters; 0 or -errno. */
int uk_metrics_start(struct uk_daemon *d);
void uk_metrics_stop(struct uk_daemon *d);
/* After a reload: the new interval, file and number of functions. */
void uk_metrics_reconfigure(struct uk_daemon *d);
/*
 * Writes the file now if there is one: a failure is counted and logged
 * when its errno differs from the last attempt's.  0 or -errno.
 */
int uk_metrics_write(struct uk_daemon *d);

#endif /* UK_UACCESSD_METRICS_H */
