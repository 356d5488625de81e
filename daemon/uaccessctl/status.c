// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl status: the kernel's detector (get-status, straight over
 * netlink: it is unprivileged; from uaccessd's reply when netlink cannot
 * give it) and uaccessd's health (its control socket), as "key value"
 * lines in the manner of `auditctl -s`, or one JSON document; or, with
 * --format=openmetrics, uaccessd's metrics text (its control command
 * "metrics": the same text as its metrics file).
 *
 * Everything known is printed even when a part is missing; the exit
 * code names the first problem in the order kernel, daemon, loss
 * (docs/uaccessctl.md).  The metrics text carries the losses itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/fields.h"
#include "common/metrics.h"
#include "output.h"

struct kernel_part {
	bool have;
	const char *source;	/* "netlink" or "uaccessd" */
	struct uk_status st;
	int err;		/* UK_ERR_* of the problem, if !have */
	char msg[512];
};

struct daemon_part {
	bool asked;		/* not with --kernel */
	struct uk_json_value *reply;
	const struct uk_json_value *obj;	/* reply's "daemon" */
	int err;
	char msg[512];
};

static void kernel_from_netlink(struct kernel_part *k)
{
	struct uk_nl *nl = NULL;
	char why[256] = "";
	int r;

	r = uk_cli_sys->nl_open(&nl);
	if (r < 0) {
		k->err = uk_cli_nl_explain(r, k->msg, sizeof(k->msg));
		return;
	}
	r = uk_cli_sys->nl_get_status(nl, &k->st, why, sizeof(why));
	uk_cli_sys->nl_close(nl);
	if (r < 0) {
		k->err = r == -ENOENT ? UK_ERR_NO_KERNEL : UK_ERR_FAILURE;
		if (r == -ENOENT)
			snprintf(k->msg, sizeof(k->msg), "%s",
				 UK_CLI_MSG_NO_KERNEL);
		else
			snprintf(k->msg, sizeof(k->msg), "get-status failed: %s",
				 why[0] ? why : strerror(-r));
		return;
	}
	k->have = true;
	k->source = "netlink";
}

/* uaccessd's view of the kernel, when netlink gave none. */
static void kernel_from_daemon(struct kernel_part *k,
			       const struct uk_json_value *reply)
{
	const struct uk_json_value *kobj = uk_json_object_get(reply, "kernel");
	bool avail = false;

	if (uk_json_get_bool(uk_json_object_get(kobj, "available"),
			     &avail) < 0 || !avail)
		return;
	if (!uk_fields_from_json(uk_status_fields, kobj, &k->st,
				     sizeof(k->st)))
		return;
	k->have = true;
	k->source = "uaccessd";
	k->err = 0;
	k->msg[0] = '\0';
}

static void daemon_ask(const struct uk_cli *cli, struct daemon_part *d)
{
	char why[512];
	int r;

	d->asked = true;
	r = uk_cli_ctl(cli, "{\"cmd\":\"status\"}", &d->reply, why,
		       sizeof(why));
	if (r < 0) {
		d->err = uk_cli_ctl_explain(cli, r, why, d->msg,
					    sizeof(d->msg));
		return;
	}
	d->obj = uk_json_object_get(d->reply, "daemon");
	if (uk_json_type(d->obj) != UK_JSON_OBJECT) {
		d->obj = NULL;
		d->err = -EPROTO;
		snprintf(d->msg, sizeof(d->msg),
			 "uaccessd's status reply has no \"daemon\" object");
	}
}

static bool field_u64(const struct uk_status *st, int attr, uint64_t v)
{
	return (st->present & (1ULL << attr)) && v;
}

static uint64_t daemon_lost(const struct daemon_part *d)
{
	uint64_t lost = 0;

	if (d->obj)
		uk_json_get_u64(uk_json_object_get(d->obj, "lost"), &lost);
	return lost;
}

/* A sentence naming every loss, or "" when there is none. */
static void loss_message(const struct kernel_part *k,
			 const struct daemon_part *d, char *buf, size_t len)
{
	uint64_t lost = daemon_lost(d);
	size_t o = 0;

	buf[0] = '\0';
	if (k->have && field_u64(&k->st, UACCESS_KADDR_A_STATUS_DROPPED,
				 k->st.dropped))
		o += snprintf(buf + o, len - o, "%skernel dropped %" PRIu64,
			      o ? ", " : "", k->st.dropped);
	if (o < len && k->have &&
	    field_u64(&k->st, UACCESS_KADDR_A_STATUS_SITES_OVERFLOW,
		      k->st.sites_overflow))
		o += snprintf(buf + o, len - o,
			      "%skernel site table overflowed %" PRIu64 " times",
			      o ? ", " : "", k->st.sites_overflow);
	if (o < len && lost)
		o += snprintf(buf + o, len - o, "%suaccessd lost %" PRIu64,
			      o ? ", " : "", lost);
}

static void print_text(const struct uk_cli *cli, const struct kernel_part *k,
		       const struct daemon_part *d)
{
	FILE *out = cli->out;

	uk_cli_kv(out, "kernel.available", k->have ? "yes" : "no");
	if (k->have) {
		uk_cli_kv(out, "kernel.source", k->source);
		uk_cli_kv_fields(out, "kernel", uk_status_fields, &k->st);
	} else {
		uk_cli_kv(out, "kernel.error", k->msg);
	}
	if (!d->asked)
		return;
	uk_cli_kv(out, "daemon.running", d->obj ? "yes" : "no");
	if (d->obj)
		uk_cli_kv_json(out, "daemon", d->obj);
	else
		uk_cli_kv(out, "daemon.error", d->msg);
}

static int print_json(const struct uk_cli *cli, const struct kernel_part *k,
		      const struct daemon_part *d, bool loss)
{
	const struct uk_json_value *m;
	struct uk_json j;
	const char *name;
	size_t i, n;

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "kernel");
	uk_json_object_begin(&j);
	uk_json_kv_bool(&j, "available", k->have);
	if (k->have) {
		uk_json_kv_str(&j, "source", k->source);
		uk_fields_json(&j, uk_status_fields, &k->st);
	} else {
		uk_json_kv_str(&j, "error", k->msg);
	}
	uk_json_object_end(&j);
	if (d->asked) {
		uk_json_key(&j, "daemon");
		uk_json_object_begin(&j);
		uk_json_kv_bool(&j, "running", d->obj != NULL);
		if (d->obj) {
			n = uk_json_object_len(d->obj);
			for (i = 0; i < n; i++) {
				m = uk_json_object_at(d->obj, i, &name);
				if (!strcmp(name, "running"))
					continue;
				uk_json_key(&j, name);
				uk_json_value_write(&j, m);
			}
		} else {
			uk_json_kv_str(&j, "error", d->msg);
		}
		uk_json_object_end(&j);
	}
	uk_json_kv_bool(&j, "loss", loss);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

/* The kernel's families alone, from what netlink gave (none: up 0). */
static int kernel_metrics(const struct uk_cli *cli, const struct kernel_part *k)
{
	struct uk_om om;
	char *text;
	int r;

	uk_om_init(&om);
	uk_metrics_kernel(&om, k->have ? &k->st : NULL);
	r = uk_om_finish(&om, &text, NULL);
	if (r < 0)
		return uk_cli_error(cli, r, "cannot write the metrics: %s",
				    strerror(-r));
	fputs(text, cli->out);
	free(text);
	return 0;
}

/*
 * uaccessd's text when it answers (0: whatever it says of the kernel and
 * of losses is in the text).  Else the kernel's families from netlink,
 * and the error of the first part missing, kernel or daemon.
 */
static int print_openmetrics(const struct uk_cli *cli)
{
	struct kernel_part k = { .err = 0 };
	struct uk_json_value *reply = NULL;
	const char *text;
	char why[512];
	int err = 0, r;

	if (!cli->kernel) {
		r = uk_cli_ctl(cli, "{\"cmd\":\"metrics\"}", &reply, why,
			       sizeof(why));
		if (!r && !uk_json_get_str(uk_json_object_get(reply, "text"),
					   &text)) {
			fputs(text, cli->out);
			uk_json_value_free(reply);
			return 0;
		}
		err = r ? uk_cli_ctl_fail(cli, r, why) :
			  uk_cli_error(cli, -EPROTO,
				       "uaccessd's metrics reply has no \"text\"");
		uk_json_value_free(reply);
	}
	kernel_from_netlink(&k);
	r = kernel_metrics(cli, &k);
	if (!k.have) {
		uk_cli_error(cli, k.err, "%s", k.msg);
		err = k.err;
	}
	return err ?: r;
}

int uk_cli_status(const struct uk_cli *cli, int argc, char **argv)
{
	struct kernel_part k = { .err = 0 };
	struct daemon_part d = { .err = 0 };
	char loss[512];
	int err = 0, r;

	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "status: unexpected argument '%s'", argv[0]);
	if (cli->openmetrics)
		return print_openmetrics(cli);

	kernel_from_netlink(&k);
	if (!cli->kernel) {
		daemon_ask(cli, &d);
		if (!k.have && d.reply)
			kernel_from_daemon(&k, d.reply);
	}
	loss_message(&k, &d, loss, sizeof(loss));

	if (cli->json) {
		r = print_json(cli, &k, &d, loss[0] != '\0');
		if (r)
			err = r;
	} else {
		print_text(cli, &k, &d);
	}
	fflush(cli->out);

	if (!k.have) {
		uk_cli_error(cli, k.err, "%s", k.msg);
		err = err ?: k.err;
	}
	if (d.asked && !d.obj) {
		uk_cli_error(cli, d.err, "%s", d.msg);
		err = err ?: d.err;
	}
	if (loss[0]) {
		uk_cli_error(cli, UK_ERR_LOSS, "events were lost: %s", loss);
		err = err ?: UK_ERR_LOSS;
	}
	uk_json_value_free(d.reply);
	return err;
}
