// SPDX-License-Identifier: GPL-2.0
/*
 * uk_daemon_check: the guest's view of uaccessd against the kernel.
 *
 *   uk_daemon_check json PATH [PATH...] < JSON
 *       the value at each PATH ("kernel.mode", "sites.0.count", "#sites"
 *       for an array's length) of the JSON document on stdin, one a line;
 *       "(missing)" for a path that is not there; exit 1 if any is
 *       missing or the input is no JSON
 *   uk_daemon_check as-nobody CMD [ARG...]
 *       run CMD as uid/gid 65534 without supplementary groups
 *   uk_daemon_check as-net-admin CMD [ARG...]
 *       the same, with CAP_NET_ADMIN (and no other capability) kept
 *       across the exec as an ambient capability
 *   uk_daemon_check call SOCKET REQUEST
 *       one request, the reply line on stdout
 *   uk_daemon_check wait SOCKET STATE SECONDS
 *       until uaccessd's status says STATE (e.g. subscribed)
 *   uk_daemon_check compare SOCKET LABEL [exact]
 *       TAP: every site of the kernel's dump-sites is in uaccessd's table
 *       with the kernel's count; with "exact", also every event the kernel
 *       reported reached uaccessd or is counted lost by it
 *
 * Built with the daemon's common/ library (control client, JSON reader,
 * netlink).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "common/control_client.h"
#include "common/event.h"
#include "common/json.h"
#include "common/nl.h"

struct ksite {
	struct uk_site s;
	bool matched;
};

struct kdump {
	struct ksite *v;
	size_t n, cap;
};

static int collect(const struct uk_site *site, void *data)
{
	struct kdump *d = data;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct ksite *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n].s = *site;
	d->v[d->n].matched = false;
	d->n++;
	return 0;
}

static struct uk_json_value *call_quiet(const char *sock, const char *req,
					bool quiet)
{
	struct uk_json_value *v = NULL;
	char why[256] = "";
	int r;

	r = uk_ctl_call(sock, req, 30000, &v, why, sizeof(why));
	if (r < 0) {
		if (!quiet)
			printf("# %s: %s\n", req, why[0] ? why : strerror(-r));
		return NULL;
	}
	return v;
}

static struct uk_json_value *call(const char *sock, const char *req)
{
	return call_quiet(sock, req, false);
}

static uint64_t num(const struct uk_json_value *o, const char *key)
{
	uint64_t v = 0;

	uk_json_get_u64(uk_json_object_get(o, key), &v);
	return v;
}

static const char *str(const struct uk_json_value *o, const char *key)
{
	const char *s = "";

	uk_json_get_str(uk_json_object_get(o, key), &s);
	return s;
}

static int cmd_wait(const char *sock, const char *state, int secs)
{
	struct uk_json_value *v;
	int i;

	for (i = 0; i < secs * 10; i++) {
		/* Not there yet is what this waits for: no noise. */
		v = call_quiet(sock, "{\"cmd\":\"status\"}", true);
		if (v) {
			const struct uk_json_value *d =
				uk_json_object_get(v, "daemon");
			bool ok = !strcmp(str(d, "state"), state);

			uk_json_value_free(v);
			if (ok)
				return 0;
		}
		usleep(100000);
	}
	return 1;
}

static int cmd_compare(const char *sock, const char *label, bool exact)
{
	const struct uk_json_value *sites, *site, *daemon, *kernel;
	struct uk_json_value *v, *st;
	uint64_t devents = 0, dlost;
	struct kdump kd = {};
	unsigned int bad = 0;
	struct uk_nl *nl;
	char why[256];
	size_t i, j;
	int r;

	/*
	 * uaccessd re-syncs at the sites request: ask it first.  The kernel
	 * may still be sending its last queued events: take the snapshot
	 * only once two in a row agree (events received, kernel last seq),
	 * so that sites and status describe the same moment.
	 */
	v = st = NULL;
	for (i = 0; i < 50; i++) {
		struct uk_json_value *v2 = call(sock, "{\"cmd\":\"sites\"}");
		struct uk_json_value *st2 = call(sock, "{\"cmd\":\"status\"}");
		bool same = v2 && st2 && st &&
			num(uk_json_object_get(st, "daemon"), "events") ==
			num(uk_json_object_get(st2, "daemon"), "events") &&
			num(uk_json_object_get(st, "kernel"), "last_seq") ==
			num(uk_json_object_get(st2, "kernel"), "last_seq");

		uk_json_value_free(v);
		uk_json_value_free(st);
		v = v2;
		st = st2;
		if (same)
			break;
		usleep(200000);
	}
	r = uk_nl_open(&nl);
	if (r == 0)
		r = uk_nl_dump_sites(nl, collect, &kd, why, sizeof(why));
	if (!v || !st || r < 0) {
		printf("not ok - %s: daemon sites, status and the kernel's dump-sites # %s\n",
		       label, r < 0 ? why : "no reply from uaccessd");
		return 1;
	}
	sites = uk_json_object_get(v, "sites");
	for (i = 0; i < uk_json_array_len(sites); i++) {
		site = uk_json_array_at(sites, i);
		devents += num(site, "events");
		for (j = 0; j < kd.n; j++) {
			struct uk_site *k = &kd.v[j].s;
			char ip[24], kb[12], hb[12], db[12];

			/* uk_enum_text: the unknown direction 0 has no name */
			snprintf(ip, sizeof(ip), "0x%016" PRIx64, k->site_ip);
			if (kd.v[j].matched || strcmp(str(site, "site_ip"), ip) ||
			    strcmp(str(site, "kind"),
				   uk_enum_text(UK_ENUM_KIND, k->kind, kb, sizeof(kb))) ||
			    strcmp(str(site, "helper"),
				   uk_enum_text(UK_ENUM_HELPER, k->helper, hb, sizeof(hb))) ||
			    strcmp(str(site, "direction"),
				   uk_enum_text(UK_ENUM_DIRECTION, k->direction, db,
						sizeof(db))))
				continue;
			kd.v[j].matched = true;
			if (num(site, "count") != k->count) {
				printf("# %s: daemon count %" PRIu64 ", kernel %" PRIu64 "\n",
				       k->site_symbol, num(site, "count"), k->count);
				bad++;
			}
			break;
		}
	}
	for (j = 0; j < kd.n; j++) {
		if (!kd.v[j].matched && kd.v[j].s.count) {
			printf("# %s (%" PRIu64 " hits) missing from uaccessd\n",
			       kd.v[j].s.site_symbol, kd.v[j].s.count);
			bad++;
		}
	}
	printf("%s - %s: uaccessd's per-site totals equal the kernel's (%zu sites)\n",
	       bad ? "not ok" : "ok", label, kd.n);
	daemon = uk_json_object_get(st, "daemon");
	kernel = uk_json_object_get(st, "kernel");
	/* Lost on the way in; events the journal refused were received. */
	dlost = num(daemon, "lost") - num(daemon, "journal_lost_events");
	if (exact) {
		/*
		 * Since the reset, every event the kernel queued (reported) or
		 * could not queue (dropped) reached uaccessd or is counted lost.
		 */
		uint64_t sent = num(kernel, "reported") + num(kernel, "dropped");
		bool ok = devents + dlost == sent;

		printf("%s - %s: %" PRIu64 " events received + %" PRIu64
		       " counted lost == %" PRIu64 " reported or dropped by the kernel\n",
		       ok ? "ok" : "not ok", label, devents, dlost, sent);
		bad += !ok;
	}
	printf("# %s: daemon events %" PRIu64 " journaled %" PRIu64 " lost %" PRIu64
	       " overruns %" PRIu64 " resyncs %" PRIu64 "\n", label, devents,
	       num(daemon, "journaled"), dlost, num(daemon, "overruns"),
	       num(daemon, "resyncs"));
	uk_json_value_free(v);
	uk_json_value_free(st);
	uk_nl_close(nl);
	free(kd.v);
	return bad ? 1 : 0;
}

static int cmd_call(const char *sock, const char *req)
{
	struct uk_json_value *v = NULL;
	char why[256] = "", *text;
	struct uk_json j;
	int r = uk_ctl_call(sock, req, 30000, &v, why, sizeof(why));

	if (r < 0) {
		fprintf(stderr, "uk_daemon_check: %s: %s\n", sock,
			why[0] ? why : strerror(-r));
		return 1;
	}
	uk_json_init(&j, 0);
	uk_json_value_write(&j, v);
	uk_json_value_free(v);
	if (uk_json_finish(&j, &text, NULL) < 0)
		return 1;
	printf("%s\n", text);
	free(text);
	return 0;
}

static const struct uk_json_value *lookup(const struct uk_json_value *v,
					  const char *path)
{
	char buf[256], *part, *save = NULL;
	char *end;
	unsigned long i;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, ".", &save); v && part;
	     part = strtok_r(NULL, ".", &save)) {
		if (uk_json_type(v) == UK_JSON_ARRAY) {
			i = strtoul(part, &end, 10);
			v = *end ? NULL : uk_json_array_at(v, i);
		} else {
			v = uk_json_object_get(v, part);
		}
	}
	return v;
}

static int cmd_json(int n, char **paths)
{
	static char in[8 << 20];
	struct uk_json_value *doc;
	struct uk_json j;
	char err[128], *text;
	size_t len = fread(in, 1, sizeof(in), stdin), tlen;
	int i, missing = 0;

	if (uk_json_parse(in, len, &doc, err, sizeof(err)) < 0) {
		fprintf(stderr, "uk_daemon_check: input is no JSON: %s\n", err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		bool count = paths[i][0] == '#';
		const struct uk_json_value *v = lookup(doc, paths[i] + count);
		const char *str;
		uint64_t u;
		int64_t s;

		if (!v) {
			printf("(missing)\n");
			missing++;
		} else if (count) {
			printf("%zu\n", uk_json_type(v) == UK_JSON_ARRAY ?
			       uk_json_array_len(v) : uk_json_object_len(v));
		} else if (uk_json_get_str(v, &str) == 0) {
			printf("%s\n", str);
		} else if (uk_json_get_u64(v, &u) == 0) {
			printf("%" PRIu64 "\n", u);
		} else if (uk_json_get_s64(v, &s) == 0) {
			printf("%" PRId64 "\n", s);
		} else {
			uk_json_init(&j, 0);
			uk_json_value_write(&j, v);
			if (uk_json_finish(&j, &text, &tlen) == 0) {
				printf("%s\n", text);
				free(text);
			}
		}
	}
	uk_json_value_free(doc);
	return missing ? 1 : 0;
}

/* No libcap in the guest: the raw capset(2) of one capability. */
static int keep_only_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {
		{
			.effective = 1u << CAP_NET_ADMIN,
			.permitted = 1u << CAP_NET_ADMIN,
			.inheritable = 1u << CAP_NET_ADMIN,
		},
	};

	if (syscall(SYS_capset, &hdr, data) < 0)
		return -1;
	return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0);
}

/* Run @argv as nobody, with CAP_NET_ADMIN alone if @net_admin. */
static int cmd_as_nobody(char **argv, bool net_admin)
{
	if ((net_admin && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0) ||
	    setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0 ||
	    (net_admin && keep_only_net_admin() < 0)) {
		perror("uk_daemon_check: dropping to nobody");
		return 125;
	}
	execvp(argv[0], argv);
	perror(argv[0]);
	return 127;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "as-nobody"))
		return cmd_as_nobody(argv + 2, false);
	if (argc >= 3 && !strcmp(argv[1], "as-net-admin"))
		return cmd_as_nobody(argv + 2, true);
	if (argc >= 3 && !strcmp(argv[1], "json"))
		return cmd_json(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "call"))
		return cmd_call(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "wait"))
		return cmd_wait(argv[2], argv[3], atoi(argv[4]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "compare"))
		return cmd_compare(argv[2], argv[3],
				   argc == 5 && !strcmp(argv[4], "exact"));
	fprintf(stderr, "usage: uk_daemon_check as-nobody|as-net-admin CMD... | "
		"json PATH... | "
		"call SOCKET REQUEST | "
		"wait SOCKET STATE SECONDS | "
		"compare SOCKET LABEL [exact]\n");
	return 2;
}
