/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of the Prometheus text exposition format 0.0.4, what
 * node_exporter's textfile collector reads: families of counters and
 * gauges, each a "# HELP" and a "# TYPE" line and then its samples,
 *
 *   # HELP uaccessd_events_total Events parsed.
 *   # TYPE uaccessd_events_total counter
 *   uaccessd_events_total 42
 *   # HELP uaccessd_state The daemon's state (1: the current one).
 *   # TYPE uaccessd_state gauge
 *   uaccessd_state{state="subscribed"} 1
 *
 * into a growable buffer.  A sample always belongs to the family begun
 * last, so a family's samples are contiguous; keeping its label sets
 * apart is the caller's job (node_exporter rejects a file with two).
 *
 * Names are the caller's constants: a bad one is a programming error,
 * which the call refuses with -EINVAL.  Like the JSON writer, the first
 * error is latched (later calls do nothing and return it) and
 * uk_om_finish() returns it.
 */
#ifndef UK_OPENMETRICS_H
#define UK_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum uk_om_type {
	UK_OM_COUNTER,		/* the name ends in "_total" */
	UK_OM_GAUGE,
};

struct uk_om {
	char *buf;
	size_t len;
	size_t cap;
	int err;		/* first error, latched */
	const char *family;	/* the family begun last, NULL before */
};

struct uk_om_label {
	const char *name;	/* [a-zA-Z_][a-zA-Z0-9_]* */
	const char *value;	/* any bytes; invalid UTF-8 becomes U+FFFD */
};

void uk_om_init(struct uk_om *om);
/* Frees the buffer; @om can be used again. */
void uk_om_release(struct uk_om *om);
int uk_om_error(const struct uk_om *om);
/* Latches @err (negative errno) unless an error is latched already. */
void uk_om_fail(struct uk_om *om, int err);

/*
 * The NUL-terminated text in *ret (free() it), its length in *retlen
 * unless that is NULL;
 * @om is empty again.  On a latched error, returns it and releases @om.
 */
int uk_om_finish(struct uk_om *om, char **ret, size_t *retlen);

/* Is @s a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*), a label name? */
bool uk_om_metric_name_ok(const char *s);
bool uk_om_label_name_ok(const char *s);

/*
 * Begins family @name (which must stay valid until the next family):
 * "# HELP" with @help (backslash and newline escaped) and "# TYPE".
 * -EINVAL for a bad name, a counter not named "..._total", a NULL help.
 */
int uk_om_family(struct uk_om *om, const char *name, enum uk_om_type type,
		 const char *help);

/*
 * A sample of the current family with @n labels (@labels may be NULL
 * for none).  -EINVAL before any family, for a bad or repeated label
 * name or a NULL value.  Doubles are written exactly: integral values
 * as integers, the rest in the fewest digits that read back the same,
 * NaN, +Inf and -Inf by those names.
 */
int uk_om_sample_u64(struct uk_om *om, const struct uk_om_label *labels,
		     size_t n, uint64_t v);
int uk_om_sample_double(struct uk_om *om, const struct uk_om_label *labels,
			size_t n, double v);

/* A family of one sample without labels. */
int uk_om_u64(struct uk_om *om, const char *name, enum uk_om_type type,
	      const char *help, uint64_t v);

/* @v as uk_om_sample_double() writes it, into @buf (32 bytes suffice). */
size_t uk_om_format_double(double v, char *buf, size_t len);

#endif /* UK_OPENMETRICS_H */
