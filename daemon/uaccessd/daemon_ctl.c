// SPDX-License-Identifier: GPL-2.0
/*
 * The control-socket commands of uaccessd (docs/control-protocol.md):
 * status, sites, reset, reload, metrics.  status and sites re-read the kernel's
 * counters first for root; for everyone else at most every
 * UK_REFRESH_NS, whatever the rate of requests, and the reply says how
 * old they are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "common/fields.h"
#include "daemon.h"
#include "common/time.h"
#include "common/json.h"
#include "metrics.h"

/*
 * Take what is queued, then the kernel's exact totals; at most once per
 * UK_REFRESH_NS for unprivileged askers, whom a loop of requests must
 * not let stall the draining of events.
 */
#define UK_REFRESH_NS	(2 * UK_NSEC_PER_SEC)

static void refresh(struct uk_daemon *d, const struct uk_ctl_request *req)
{
	uint64_t now = uk_time_now_ns();

	if (!d->nl)
		return;
	uk_source_drain(d);
	if (req->peer->uid != 0 && d->refreshed_ns &&
	    now - d->refreshed_ns < UK_REFRESH_NS)
		return;
	d->refreshed_ns = now;
	uk_source_resync(d);
}

/* get-status alone, for root every time, for others every UK_REFRESH_NS. */
static void refresh_status(struct uk_daemon *d,
			   const struct uk_ctl_request *req)
{
	uint64_t now = uk_time_now_ns();

	if (d->nl && (req->peer->uid == 0 || !d->kstatus_ns ||
		      now - d->kstatus_ns >= UK_REFRESH_NS))
		uk_source_status(d);
}

static void kernel_json(struct uk_daemon *d, const struct uk_ctl_request *req,
			struct uk_json *j)
{
	uint64_t now;
	bool available;

	refresh_status(d, req);
	now = uk_time_now_ns();
	available = uk_source_status_known(d);
	uk_json_key(j, "kernel");
	uk_json_object_begin(j);
	uk_json_kv_bool(j, "available", available);
	if (available) {
		uk_json_kv_u64(j, "age_ms",
			       (now - d->kstatus_ns) / UK_NSEC_PER_MSEC);
		uk_fields_json(j, uk_status_fields, &d->kstatus);
	} else {
		uk_json_kv_str(j, "error",
			       d->nl && d->kstatus_why[0] ? d->kstatus_why :
			       d->last_error[0] ? d->last_error :
			       strerror(ENOTCONN));
	}
	uk_json_object_end(j);
}

static int ctl_status(void *ctx, const struct uk_ctl_request *req,
		      struct uk_json *j, char *err, size_t errlen)
{
	struct uk_daemon *d = ctx;

	/* get-status alone: the per-site totals are not in this reply. */
	if (d->nl)
		uk_source_drain(d);
	kernel_json(d, req, j);
	uk_json_key(j, "daemon");
	uk_json_object_begin(j);
	uk_json_kv_str(j, "state", uk_daemon_state_name(d->state));
	uk_json_kv_u64(j, "pid", (uint64_t)getpid());
	uk_json_kv_u64(j, "uptime_ms", (uk_time_now_ns() - d->started_ns) / UK_NSEC_PER_MSEC);
	if (d->last_error[0])
		uk_json_kv_str(j, "last_error", d->last_error);
	uk_json_kv_u64(j, "reloads", d->reloads);
	uk_json_kv_u64(j, "reload_failures", d->reload_failures);
	uk_json_kv_u64(j, "metrics_write_failures", d->metrics_failures);
	uk_pipeline_json(&d->pipe, j);
	if (d->ctl) {
		struct uk_ctl_stats st;

		uk_ctl_server_stats(d->ctl, &st);
		uk_json_key(j, "control");
		uk_json_object_begin(j);
		uk_json_kv_u64(j, "built", st.built);
		uk_json_kv_u64(j, "shared", st.shared);
		uk_json_kv_u64(j, "delayed", st.delayed);
		uk_json_kv_u64(j, "refused", st.refused);
		uk_json_object_end(j);
	}
	uk_json_key(j, "config");
	uk_json_object_begin(j);
	uk_config_json(j, &d->cfg);
	uk_json_object_end(j);
	uk_json_object_end(j);
	return 0;
}

/*
 * %pB prints a bare address where it finds no symbol (code without
 * symbols, BPF): hidden like the other addresses.
 */
static const char *shown_symbol(const char *sym, bool addresses)
{
	return addresses || !uk_symbol_is_address(sym) ? sym : "?";
}

/*
 * Kernel addresses are a KASLR leak: the kernel shows them to admins only
 * (dump-sites, the events group), and so does uaccessd.  Others get the
 * symbols, which are what they need to read a report.
 */
static uint64_t boot_to_real(uint64_t boot_ns)
{
	return uk_time_boot_to_real(boot_ns, uk_time_ns(CLOCK_REALTIME),
				    uk_time_ns(CLOCK_BOOTTIME));
}

/*
 * The task a sample names (pid, tgid, uid, comm) goes to those who may
 * read it in the journal (struct uk_peer's journal_reader); what the
 * sample says of the bug (syscall, context, CPU) to everyone.
 */
static void site_json(struct uk_daemon *d, struct uk_json *j,
		      const struct uk_agg_site *s, bool addresses, bool tasks)
{
	struct uk_agg_sample samples[UK_AGG_SAMPLES_MAX];
	const struct uk_agg_stack *stack;
	char hex[24], dir[12];
	size_t i, n;

	uk_json_object_begin(j);
	uk_json_kv_u64(j, "site_id", s->site_id);
	snprintf(hex, sizeof(hex), "0x%016" PRIx64, s->site_ip);
	if (addresses)
		uk_json_kv_str(j, "site_ip", hex);
	uk_json_kv_str(j, "site_symbol", shown_symbol(s->symbol, addresses));
	uk_json_kv_str(j, "kind", uk_enum_name(UK_ENUM_KIND, s->kind));
	uk_json_kv_str(j, "helper", uk_enum_name(UK_ENUM_HELPER, s->helper));
	/* 0, the unknown direction, as a number: as journal entries show it */
	uk_json_kv_str(j, "direction",
		       uk_enum_text(UK_ENUM_DIRECTION, s->direction, dir,
				    sizeof(dir)));
	uk_json_kv_u64(j, "count", s->count);
	uk_json_kv_u64(j, "kernel_suppressed", s->kernel_suppressed);
	uk_json_kv_u64(j, "kernel_reported", s->kernel_reported);
	uk_json_kv_u64(j, "events", s->events);
	uk_json_kv_u64(j, "journaled", s->events - s->rl.suppressed_total);
	uk_json_kv_u64(j, "journal_suppressed", s->rl.suppressed_total);
	uk_json_kv_u64(j, "first_ts_boot", s->first_boot);
	uk_json_kv_u64(j, "last_ts_boot", s->last_boot);
	/*
	 * A site known from dump-sites alone has boot times only; this
	 * boot's, when uaccessd reads the kernel it runs on.
	 */
	uk_json_kv_u64(j, "first_ts_real", s->first_real ? s->first_real :
		       d->nl ? boot_to_real(s->first_boot) : 0);
	uk_json_kv_u64(j, "last_ts_real", s->last_real ? s->last_real :
		       d->nl ? boot_to_real(s->last_boot) : 0);
	snprintf(hex, sizeof(hex), "0x%016" PRIx64, s->last_address);
	if (addresses)
		uk_json_kv_str(j, "last_address", hex);

	uk_json_key(j, "stacks");
	uk_json_array_begin(j);
	for (i = 0; i < s->nr_stacks; i++) {
		uk_json_object_begin(j);
		snprintf(hex, sizeof(hex), "0x%08" PRIx32, s->stacks[i].hash);
		uk_json_kv_str(j, "stack_hash", hex);
		uk_json_kv_u64(j, "events", s->stacks[i].events);
		stack = uk_agg_stack_find(d->pipe.agg, s->stacks[i].hash);
		if (stack) {
			uint32_t k;

			uk_json_key(j, "frames");
			uk_json_array_begin(j);
			for (k = 0; k < stack->nr_frames; k++)
				uk_json_str(j, shown_symbol(stack->frames[k].symbol,
							    addresses));
			uk_json_array_end(j);
		}
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
	uk_json_kv_u64(j, "stacks_other", s->stacks_other);

	n = uk_agg_site_samples(s, samples, UK_AGG_SAMPLES_MAX);
	uk_json_key(j, "samples");
	uk_json_array_begin(j);
	for (i = 0; i < n; i++) {
		const struct uk_agg_sample *sa = &samples[i];

		uk_json_object_begin(j);
		uk_json_kv_u64(j, "seq", sa->seq);
		uk_json_kv_u64(j, "ts_boot", sa->ts_boot);
		uk_json_kv_u64(j, "ts_real", sa->ts_real);
		snprintf(hex, sizeof(hex), "0x%016" PRIx64, sa->address);
		if (addresses)
			uk_json_kv_str(j, "address", hex);
		uk_json_kv_u64(j, "size", sa->size);
		uk_json_kv_str(j, "addr_class",
			       uk_enum_name(UK_ENUM_ADDR_CLASS, sa->addr_class));
		if (tasks) {
			uk_json_kv_u64(j, "pid", sa->pid);
			uk_json_kv_u64(j, "tgid", sa->tgid);
			uk_json_kv_u64(j, "uid", sa->uid);
			uk_json_kv_str(j, "comm", sa->comm);
		}
		uk_json_kv_u64(j, "cpu", sa->cpu);
		uk_json_kv_s64(j, "syscall_nr", sa->syscall_nr);
		uk_json_kv_str(j, "context",
			       uk_enum_name(UK_ENUM_CONTEXT, sa->context));
		snprintf(hex, sizeof(hex), "0x%08" PRIx32, sa->stack_hash);
		uk_json_kv_str(j, "stack_hash", hex);
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
	uk_json_object_end(j);
}

static int ctl_sites(void *ctx, const struct uk_ctl_request *req,
		     struct uk_json *j, char *err, size_t errlen)
{
	const struct uk_agg_site **sites = NULL;
	struct uk_daemon *d = ctx;
	size_t i, n = 0, shown;
	int r;

	refresh(d, req);
	r = uk_agg_sorted(d->pipe.agg, req->sort, &sites, &n);
	if (r < 0)
		return r;
	shown = req->limit && n > req->limit ? req->limit : n;
	uk_json_kv_u64(j, "total", n);
	uk_json_key(j, "sites");
	uk_json_array_begin(j);
	for (i = 0; i < shown; i++)
		site_json(d, j, sites[i], req->peer->uid == 0,
			  req->peer->journal_reader);
	uk_json_array_end(j);
	free(sites);
	return 0;
}

/*
 * Kernel counters and the daemon's table start again from zero; the
 * kernel returns its counters as they were, which the reply carries.
 */
static int ctl_reset(void *ctx, const struct uk_ctl_request *req,
		     struct uk_json *j, char *err, size_t errlen)
{
	struct uk_daemon *d = ctx;
	struct uk_status old;
	int r;

	if (!d->nl) {
		snprintf(err, errlen, "%s", d->last_error[0] ? d->last_error :
			 "not connected to the kernel");
		return -ENOTCONN;
	}
	uk_source_drain(d);
	uk_pipeline_flush(&d->pipe);
	r = uk_nl_reset(d->nl, &old, err, errlen);
	if (r < 0)
		return r;
	uk_pipeline_kernel_reset(&d->pipe, &old);
	d->resets++;
	uk_source_resync(d);
	uk_json_key(j, "kernel_before");
	uk_json_object_begin(j);
	uk_fields_json(j, uk_status_fields, &old);
	uk_json_object_end(j);
	uk_journal_health(&d->pipe.journal, LOG_INFO, "reset",
			  "counters reset by uid %u", (unsigned int)req->peer->uid);
	return 0;
}

static int ctl_reload(void *ctx, const struct uk_ctl_request *req,
		      struct uk_json *j, char *err, size_t errlen)
{
	return uk_daemon_reload(ctx, err, errlen);
}

/* The metrics file's text, kernel part as fresh as status has it. */
static int ctl_metrics(void *ctx, const struct uk_ctl_request *req,
		       struct uk_json *j, char *err, size_t errlen)
{
	struct uk_daemon *d = ctx;
	char *text = NULL;
	size_t len;
	int r;

	if (d->nl)
		uk_source_drain(d);
	refresh_status(d, req);
	r = uk_metrics_text(d, &text, &len);
	if (r < 0)
		return r;
	uk_json_kv_str(j, "text", text);
	free(text);
	return 0;
}

const struct uk_ctl_ops uk_daemon_ctl_ops = {
	.status = ctl_status,
	.sites = ctl_sites,
	.reset = ctl_reset,
	.reload = ctl_reload,
	.metrics = ctl_metrics,
};
