/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /etc/uaccessd.conf: "key = value" lines, read at start and on SIGHUP.
 * docs/uaccessd.conf.md describes every key.
 *
 * Loading fills a separate struct and touches nothing on error, so the
 * daemon keeps running with its old configuration when the new file is
 * bad.
 */
#ifndef UK_CONFIG_H
#define UK_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uk_json;

#define UK_CONFIG_PATH		"/etc/uaccessd.conf"
#define UK_CONFIG_LINE_MAX	1024		/* bytes, without the '\n' */
#define UK_CONFIG_FILE_MAX	(1024 * 1024)
#define UK_CONFIG_IGNORE_MAX	256		/* ignore patterns */
#define UK_CONFIG_PATTERN_MAX	128		/* bytes per pattern */


struct uk_config {
	uint64_t rcvbuf;		/* netlink SO_RCVBUF, bytes */
	uint64_t site_interval_usec;	/* per-site window, 0: no limit */
	uint64_t site_burst;		/* events per site per window */
	uint64_t global_rate;		/* journal events per second */
	uint64_t global_burst;
	uint64_t summary_interval_usec;	/* "N more suppressed" summaries */
	uint64_t max_sites;		/* aggregation cap */
	uint64_t samples;		/* samples kept per site */
	uint64_t resync_interval_usec;	/* 0: at start and after overruns */
	char *metrics_file;		/* absolute, "*.prom"; NULL: none */
	uint64_t metrics_interval_usec;	/* periodic rewrite */
	uint64_t metrics_top_sites;	/* functions named in the file */
	char **ignore;			/* fnmatch() patterns */
	size_t n_ignore;
	bool missing;			/* no file: these are the defaults */
};

/* All defaults; nothing allocated. */
void uk_config_defaults(struct uk_config *cfg);

/*
 * Reads @path into *ret.  A missing file gives the defaults with
 * ret->missing set.  On error returns a negative errno (-EINVAL for a bad
 * line, -EFBIG over UK_CONFIG_FILE_MAX, or what open/read failed with),
 * puts "PATH:LINE: reason" (or "PATH: reason") in @err and leaves *ret
 * alone.  On success *ret is overwritten without being freed first.
 */
int uk_config_load(const char *path, struct uk_config *ret,
		   char *err, size_t errlen);

/* The same on a buffer; @name stands for the path in messages. */
int uk_config_parse_buffer(const char *name, const char *buf, size_t len,
			   struct uk_config *ret, char *err, size_t errlen);

/* Frees the strings; @cfg holds the defaults afterwards. */
void uk_config_free(struct uk_config *cfg);

/*
 * Whether events at this function are to be counted only.  A full site
 * symbol ("func+0x1c/0x80 [module]") may be passed: only the function
 * name before '+' or ' ' is matched.
 */
bool uk_config_ignored(const struct uk_config *cfg, const char *function_name);

/*
 * Writes the configuration as keys into the current JSON object: sizes
 * and counts as numbers, durations as "<key>_ms" numbers, paths as
 * strings ("" for none), "ignore" as an array of strings.
 */
void uk_config_json(struct uk_json *j, const struct uk_config *cfg);

#endif /* UK_CONFIG_H */
