// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessd's control commands against a fake kernel (daemon/uaccessd/
 * daemon_ctl.c, source.c): a loop of status requests from an unprivileged
 * client costs the kernel one get-status per UK_REFRESH_NS, not one per
 * request, and the reply says how old the counters are; root's requests
 * read the kernel every time; a kernel that fails is reported; a site of
 * the unknown direction (0) is listed; the samples name their task (pid,
 * tgid, uid, comm) to the journal's readers only, kernel addresses to
 * root only; a reload is taken whole or not at all (daemon.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/json.h"
#include "common/time.h"
#include "common/util.h"
#include "journal_rec.h"
#include "uaccessd/daemon.h"
#include "uaccessd/metrics.h"
#include "fixtures.h"
#include "msgbuild.h"

#define MIB	(1024 * 1024)

static struct {
	unsigned int get_status;
	int err;
	uint64_t hits;
	bool gp_site;		/* dump-sites: a #GP site, direction unknown */
	/* events_rcvbuf(): the sizes asked for, and what each call returns */
	unsigned int rcvbuf_calls;
	int rcvbuf[4];
	int rcvbuf_err[4];
} kernel;

static int fake_get_status(struct uk_nl *nl, struct uk_status *st,
			   char *why, size_t whylen)
{
	kernel.get_status++;
	if (kernel.err) {
		snprintf(why, whylen, "the kernel said no");
		return kernel.err;
	}
	memset(st, 0, sizeof(*st));
	st->mode = UACCESS_KADDR_MODE_REPORT;
	st->hits_precheck = kernel.hits;
	st->present = 1ULL << UACCESS_KADDR_A_STATUS_MODE |
		      1ULL << UACCESS_KADDR_A_STATUS_HITS_PRECHECK;
	return 0;
}

static int fake_dump_sites(struct uk_nl *nl,
			   int (*cb)(const struct uk_site *site, void *data),
			   void *data, char *why, size_t whylen)
{
	struct uk_site s;

	if (!kernel.gp_site)
		return 0;
	memset(&s, 0, sizeof(s));
	s.site_id = 494;
	s.site_ip = 0xffffffff811e6e58ULL;
	snprintf(s.site_symbol, sizeof(s.site_symbol), "uk_gp_at_nop+0xa/0x30");
	s.kind = UACCESS_KADDR_KIND_GP;
	s.helper = UACCESS_KADDR_HELPER_UNKNOWN;
	s.direction = 0;
	s.count = 1;
	s.present = 1ULL << UACCESS_KADDR_A_SITE_SITE_ID |
		    1ULL << UACCESS_KADDR_A_SITE_SITE_IP |
		    1ULL << UACCESS_KADDR_A_SITE_SITE_SYMBOL |
		    1ULL << UACCESS_KADDR_A_SITE_KIND |
		    1ULL << UACCESS_KADDR_A_SITE_HELPER |
		    1ULL << UACCESS_KADDR_A_SITE_DIRECTION |
		    1ULL << UACCESS_KADDR_A_SITE_COUNT;
	return cb(&s, data);
}

static ssize_t fake_events_recv(struct uk_nl *nl, void *buf, size_t len)
{
	return -EAGAIN;
}

static int fake_events_rcvbuf(struct uk_nl *nl, int rcvbuf)
{
	unsigned int i = kernel.rcvbuf_calls++;

	assert_true(i < ARRAY_SIZE(kernel.rcvbuf));
	kernel.rcvbuf[i] = rcvbuf;
	return kernel.rcvbuf_err[i];
}

static const struct uk_kernel_ops fake_kernel = {
	.get_status = fake_get_status,
	.dump_sites = fake_dump_sites,
	.events_recv = fake_events_recv,
	.events_rcvbuf = fake_events_rcvbuf,
};

static int discard(const struct iovec *iov, int n)
{
	return 0;
}

static struct uk_daemon d;
static int nl_token;

static int setup(void **state)
{
	memset(&kernel, 0, sizeof(kernel));
	memset(&d, 0, sizeof(d));
	uk_config_defaults(&d.cfg);
	assert_int_equal(uk_pipeline_init(&d.pipe, &d.cfg), 0);
	d.pipe.journal.sendv = discard;
	d.kernel = &fake_kernel;
	d.nl = (struct uk_nl *)&nl_token;
	d.state = UK_STATE_SUBSCRIBED;
	d.started_ns = uk_time_now_ns();
	return 0;
}

static int teardown(void **state)
{
	uk_pipeline_free(&d.pipe);
	uk_config_free(&d.cfg);
	uk_rec_reset();
	return 0;
}

static char tmpdir[64];
static char conf_path[128];

static int make_tmpdir(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/uk-test-daemon-ctl-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(conf_path, sizeof(conf_path), "%s/uaccessd.conf", tmpdir);
	return 0;
}

static int remove_tmpdir(void **state)
{
	unlink(conf_path);
	return rmdir(tmpdir);
}

/* The "kernel" object of a status reply to @uid. */
static struct uk_json_value *status(uid_t uid)
{
	static const char req[] = "{\"cmd\":\"status\"}";
	struct uk_peer peer = { .pid = 1, .uid = uid, .gid = uid };
	struct uk_json_value *v;
	char *reply;
	size_t len;

	assert_int_equal(uk_ctl_handle(&uk_daemon_ctl_ops, &d, &peer, req,
				       sizeof(req) - 1, &reply, &len), 0);
	assert_int_equal(uk_json_parse(reply, len, &v, NULL, 0), 0);
	uk_ctl_reply_free(reply);
	return v;
}

static uint64_t kernel_u64(const struct uk_json_value *v, const char *key)
{
	uint64_t u = UINT64_MAX;

	assert_int_equal(uk_json_get_u64(uk_json_object_get(
			 uk_json_object_get(v, "kernel"), key), &u), 0);
	return u;
}

static bool available(const struct uk_json_value *v)
{
	bool b = false;

	assert_int_equal(uk_json_get_bool(uk_json_object_get(
			 uk_json_object_get(v, "kernel"), "available"), &b), 0);
	return b;
}

static void unprivileged_requests_share_one_reading(void **state)
{
	struct uk_json_value *v;
	int i;

	kernel.hits = 7;
	for (i = 0; i < 50; i++) {
		v = status(1000);
		assert_true(available(v));
		assert_int_equal(kernel_u64(v, "hits_precheck"), 7);
		assert_true(kernel_u64(v, "age_ms") < 2000);
		uk_json_value_free(v);
		kernel.hits++;	/* unseen until the next reading */
	}
	assert_int_equal(kernel.get_status, 1);
	/* once the reading is UK_REFRESH_NS old, the next one reads again */
	d.kstatus_ns -= 3 * UK_NSEC_PER_SEC;
	v = status(1000);
	assert_int_equal(kernel.get_status, 2);
	assert_int_equal(kernel_u64(v, "hits_precheck"), 57);
	assert_true(kernel_u64(v, "age_ms") < 2000);
	uk_json_value_free(v);
}

static void root_reads_the_kernel_every_time(void **state)
{
	struct uk_json_value *v;
	int i;

	for (i = 0; i < 5; i++) {
		kernel.hits = (uint64_t)i;
		v = status(0);
		assert_int_equal(kernel_u64(v, "hits_precheck"), (uint64_t)i);
		uk_json_value_free(v);
	}
	assert_int_equal(kernel.get_status, 5);
}

static void a_failing_kernel_is_reported(void **state)
{
	const char *err = NULL;
	struct uk_json_value *v;

	kernel.err = -EIO;
	v = status(1000);
	assert_false(available(v));
	assert_int_equal(uk_json_get_str(uk_json_object_get(
			 uk_json_object_get(v, "kernel"), "error"), &err), 0);
	assert_string_equal(err, "the kernel said no");
	uk_json_value_free(v);
	/* and not asked again at every request either */
	uk_json_value_free(status(1000));
	assert_int_equal(kernel.get_status, 1);
}

/* The text of a metrics reply to @uid. */
static char *metrics(uid_t uid)
{
	static const char req[] = "{\"cmd\":\"metrics\"}";
	struct uk_peer peer = { .pid = 1, .uid = uid, .gid = uid };
	struct uk_json_value *v;
	const char *text;
	char *reply, *ret;
	size_t len;

	assert_int_equal(uk_ctl_handle(&uk_daemon_ctl_ops, &d, &peer, req,
				       sizeof(req) - 1, &reply, &len), 0);
	assert_int_equal(uk_json_parse(reply, len, &v, NULL, 0), 0);
	uk_ctl_reply_free(reply);
	assert_int_equal(uk_json_get_str(uk_json_object_get(v, "text"),
					 &text), 0);
	ret = strdup(text);
	assert_non_null(ret);
	uk_json_value_free(v);
	return ret;
}

static void metrics_is_the_file_with_status_freshness(void **state)
{
	char *t, *file;
	size_t len;
	int i;

	kernel.hits = 7;
	for (i = 0; i < 10; i++) {
		t = metrics(1000);
		assert_non_null(strstr(t, "\nuaccess_kaddr_hits_total"
				       "{kind=\"precheck\"} 7\n"));
		assert_non_null(strstr(t, "\nuaccessd_state"
				       "{state=\"subscribed\"} 1\n"));
		free(t);
		kernel.hits++;
	}
	assert_int_equal(kernel.get_status, 1);
	t = metrics(0);
	assert_non_null(strstr(t, "{kind=\"precheck\"} 17\n"));
	assert_int_equal(kernel.get_status, 2);
	/* the very text of the file */
	assert_int_equal(uk_metrics_text(&d, &file, &len), 0);
	assert_string_equal(t, file);
	free(file);
	free(t);

	/* a kernel that fails: its status is down */
	kernel.err = -EIO;
	t = metrics(0);
	assert_non_null(strstr(t, "uaccess_kaddr_kernel_status_up 0\n"));
	assert_null(strstr(t, "uaccess_kaddr_hits_total"));
	free(t);
}

/*
 * The site the kernel keeps of KUnit's undecoded #GP: merged at the
 * re-sync of the sites request, listed with its direction as a number
 * (as journal entries and uaccessctl --kernel show it), and no loss.
 */
static void site_of_unknown_direction_is_listed(void **state)
{
	static const char req[] = "{\"cmd\":\"sites\"}";
	struct uk_peer peer = { .pid = 1, .uid = 0, .gid = 0 };
	const struct uk_json_value *sites, *s;
	struct uk_json_value *v;
	const char *str = NULL;
	uint64_t u = 0;
	char *reply;
	size_t len;

	kernel.gp_site = true;
	assert_int_equal(uk_ctl_handle(&uk_daemon_ctl_ops, &d, &peer, req,
				       sizeof(req) - 1, &reply, &len), 0);
	assert_int_equal(uk_json_parse(reply, len, &v, NULL, 0), 0);
	uk_ctl_reply_free(reply);
	sites = uk_json_object_get(v, "sites");
	assert_int_equal(uk_json_array_len(sites), 1);
	s = uk_json_array_at(sites, 0);
	assert_int_equal(uk_json_get_str(uk_json_object_get(s, "direction"),
					 &str), 0);
	assert_string_equal(str, "unknown");
	assert_int_equal(uk_json_get_str(uk_json_object_get(s, "kind"), &str),
			 0);
	assert_string_equal(str, "gp");
	assert_int_equal(uk_json_get_u64(uk_json_object_get(s, "count"), &u),
			 0);
	assert_int_equal(u, 1);
	uk_json_value_free(v);
	assert_int_equal(d.pipe.sync_refused, 0);
	assert_int_equal(uk_pipeline_lost(&d.pipe), 0);
}

/* The first sample of the only site in a sites reply to @peer. */
static struct uk_json_value *sites_reply(const struct uk_peer *peer,
					 const struct uk_json_value **sample)
{
	static const char req[] = "{\"cmd\":\"sites\"}";
	const struct uk_json_value *sites, *samples;
	struct uk_json_value *v;
	char *reply;
	size_t len;

	assert_int_equal(uk_ctl_handle(&uk_daemon_ctl_ops, &d, peer, req,
				       sizeof(req) - 1, &reply, &len), 0);
	assert_int_equal(uk_json_parse(reply, len, &v, NULL, 0), 0);
	uk_ctl_reply_free(reply);
	sites = uk_json_object_get(v, "sites");
	assert_int_equal(uk_json_array_len(sites), 1);
	samples = uk_json_object_get(uk_json_array_at(sites, 0), "samples");
	assert_int_equal(uk_json_array_len(samples), 1);
	*sample = uk_json_array_at(samples, 0);
	return v;
}

static void samples_name_their_task_to_journal_readers_only(void **state)
{
	static const char *const task[] = { "pid", "tgid", "uid", "comm" };
	const struct uk_peer root = { .pid = 1, .uid = 0, .journal_reader = true };
	const struct uk_peer adm = { .pid = 2, .uid = 1000, .gid = 1000,
				     .journal_reader = true };
	const struct uk_peer other = { .pid = 3, .uid = 65534, .gid = 65534 };
	const struct uk_json_value *sample;
	struct uk_json_value *v;
	struct uk_event ev;
	uint8_t buf[8192];
	const char *comm;
	uint64_t pid;
	size_t i;
	int n;

	d.pipe.family = 0x1f;
	uk_test_fill_event(&ev, 2, 0x1234);
	n = uk_event_build(&ev, d.pipe.family, 1, buf, sizeof(buf));
	assert_true(n > 0);
	uk_pipeline_datagram(&d.pipe, buf, n, uk_time_now_ns());

	v = sites_reply(&root, &sample);
	assert_int_equal(uk_json_get_u64(uk_json_object_get(sample, "pid"),
					 &pid), 0);
	assert_int_equal(pid, 1234);
	assert_non_null(uk_json_object_get(sample, "address"));
	uk_json_value_free(v);

	v = sites_reply(&adm, &sample);
	assert_int_equal(uk_json_get_str(uk_json_object_get(sample, "comm"),
					 &comm), 0);
	assert_string_equal(comm, "poc");
	assert_null(uk_json_object_get(sample, "address"));
	uk_json_value_free(v);

	v = sites_reply(&other, &sample);
	for (i = 0; i < ARRAY_SIZE(task); i++)
		if (uk_json_object_get(sample, task[i]))
			fail_msg("uid 65534 sees the sample's \"%s\"", task[i]);
	assert_null(uk_json_object_get(sample, "address"));
	/* what the sample says of the bug stays */
	assert_non_null(uk_json_object_get(sample, "syscall_nr"));
	assert_non_null(uk_json_object_get(sample, "addr_class"));
	uk_json_value_free(v);
}

/*
 * The system call's arguments (user pointers, file descriptors, flags of
 * another user's task) are in the journal, for its readers: the control
 * socket's samples carry none of them, to root or to anyone.
 */
static void samples_carry_no_syscall_arguments(void **state)
{
	const struct uk_peer peers[] = {
		{ .pid = 1, .uid = 0, .journal_reader = true },
		{ .pid = 3, .uid = 65534, .gid = 65534 },
	};
	const struct uk_json_value *sample;
	struct uk_json_value *v;
	struct uk_event ev;
	uint8_t buf[8192];
	size_t i;
	int n;

	d.pipe.family = 0x1f;
	uk_test_fill_event(&ev, 2, 0x1234);
	assert_int_equal(ev.syscall_args.nr, UK_SYSCALL_ARGS);
	n = uk_event_build(&ev, d.pipe.family, 1, buf, sizeof(buf));
	assert_true(n > 0);
	uk_pipeline_datagram(&d.pipe, buf, n, uk_time_now_ns());
	for (i = 0; i < ARRAY_SIZE(peers); i++) {
		v = sites_reply(&peers[i], &sample);
		assert_null(uk_json_object_get(sample, "syscall_args"));
		assert_null(uk_json_object_get(sample, "syscall_arch"));
		assert_non_null(uk_json_object_get(sample, "syscall_nr"));
		uk_json_value_free(v);
	}
}

/* @n sites of @per_site events each in the daemon's table. */
static void fill_sites(unsigned int n, unsigned int per_site)
{
	struct uk_event ev;
	uint64_t seq = 0;
	unsigned int i, j;
	bool fwd;

	for (i = 0; i < n; i++) {
		for (j = 0; j < per_site; j++) {
			uk_test_fill_event(&ev, 0, 0);
			ev.site_ip += i * 0x100;
			ev.seq = ++seq;
			assert_int_equal(uk_agg_add_event(d.pipe.agg, &ev,
							  uk_time_now_ns(),
							  NULL, &fwd), 0);
		}
	}
}

static void count_samples(const struct uk_agg_site *site, void *data)
{
	struct uk_agg_sample out[UK_AGG_SAMPLES_MAX];
	size_t *most = data;
	size_t n = uk_agg_site_samples(site, out, ARRAY_SIZE(out));

	if (n > *most)
		*most = n;
}

/* The table: its sites, its cap and the most samples a site keeps. */
static void assert_table(uint64_t sites, uint64_t max_sites, size_t samples)
{
	struct uk_agg_stats st;
	size_t most = 0;

	uk_agg_get_stats(d.pipe.agg, &st);
	assert_int_equal(st.sites, sites);
	assert_int_equal(st.max_sites, max_sites);
	uk_agg_for_each(d.pipe.agg, count_samples, &most);
	assert_int_equal(most, samples);
}

static void write_conf(const char *text)
{
	FILE *f = fopen(conf_path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	d.config_path = conf_path;
}

/* The one entry of a failed reload: at error, with @err. */
static void assert_one_reload_failed(const char *err)
{
	const struct uk_rec_entry *e;
	char msg[700];

	assert_int_equal(uk_rec.n, 1);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "reload-failed");
	uk_rec_assert_val(e, "PRIORITY", "3");
	snprintf(msg, sizeof(msg),
		 "configuration not reloaded, the old one stays: %s", err);
	uk_rec_assert_val(e, "MESSAGE", msg);
}

/*
 * A reload whose receive buffer size the events socket refuses changes
 * nothing: not the configuration, not the site table (no site evicted, no
 * sample dropped), and the one error names the socket, not the
 * aggregator.  Once the socket takes it, the whole file is taken.
 */
static void reload_refused_by_the_socket_changes_nothing(void **state)
{
	char err[512], want[640];

	fill_sites(20, 3);
	assert_table(20, 10000, 3);
	write_conf("max_sites = 16\nsamples = 1\nrcvbuf = 16M\n");
	d.pipe.journal.sendv = uk_rec_sendv;
	kernel.rcvbuf_err[0] = -EPERM;

	assert_int_equal(uk_daemon_reload(&d, err, sizeof(err)), -EPERM);
	assert_int_equal(kernel.rcvbuf_calls, 1);
	assert_int_equal(kernel.rcvbuf[0], 16 * MIB);
	assert_table(20, 10000, 3);
	assert_int_equal(d.cfg.max_sites, 10000);
	assert_int_equal(d.cfg.samples, 4);
	assert_int_equal(d.cfg.rcvbuf, 8 * MIB);
	assert_ptr_equal(d.pipe.cfg, &d.cfg);
	assert_int_equal(d.reloads, 0);
	assert_int_equal(d.reload_failures, 1);
	snprintf(want, sizeof(want), "%s: rcvbuf: the events socket refused "
		 "a receive buffer of 16777216 bytes: %s", conf_path,
		 strerror(EPERM));
	assert_string_equal(err, want);
	assert_one_reload_failed(want);

	uk_rec_reset();
	kernel.rcvbuf_err[1] = 0;
	assert_int_equal(uk_daemon_reload(&d, err, sizeof(err)), 0);
	assert_int_equal(kernel.rcvbuf_calls, 2);
	assert_int_equal(kernel.rcvbuf[1], 16 * MIB);
	assert_table(16, 16, 1);
	assert_int_equal(d.cfg.rcvbuf, 16 * MIB);
	assert_int_equal(d.reloads, 1);
	assert_int_equal(d.reload_failures, 1);
	assert_int_equal(uk_rec.n, 1);
	uk_rec_assert_val(uk_rec_entry(0), "UACCESS_DAEMON_STATE", "reloaded");
}

/*
 * A reload the aggregator refuses leaves the events socket at the size it
 * had, and says so if it cannot.  No file that loads is refused by the
 * aggregator (the ranges of config.c are inside its own): a daemon without
 * a table stands in for one that refuses.
 */
static void reload_refused_by_the_aggregator_keeps_the_socket(void **state)
{
	struct uk_agg *agg = d.pipe.agg;
	char err[512], want[640];

	write_conf("rcvbuf = 16M\n");
	d.pipe.journal.sendv = uk_rec_sendv;
	d.pipe.agg = NULL;

	assert_int_equal(uk_daemon_reload(&d, err, sizeof(err)), -EINVAL);
	/* not asked at all, or asked and put back */
	assert_true(kernel.rcvbuf_calls == 0 ||
		    kernel.rcvbuf[kernel.rcvbuf_calls - 1] == 8 * MIB);
	assert_int_equal(d.cfg.rcvbuf, 8 * MIB);
	assert_int_equal(d.reload_failures, 1);
	snprintf(want, sizeof(want), "%s: rejected by the aggregator: %s",
		 conf_path, strerror(EINVAL));
	assert_string_equal(err, want);
	assert_one_reload_failed(want);

	/* the old size refused as well: the socket keeps the new one */
	uk_rec_reset();
	kernel.rcvbuf_calls = 0;
	kernel.rcvbuf_err[1] = -ENOMEM;
	assert_int_equal(uk_daemon_reload(&d, err, sizeof(err)), -EINVAL);
	assert_int_equal(kernel.rcvbuf_calls, 2);
	assert_int_equal(kernel.rcvbuf[1], 8 * MIB);
	snprintf(want, sizeof(want), "%s: rejected by the aggregator: %s; "
		 "rcvbuf: the events socket keeps 16777216 bytes, the old "
		 "8388608 refused: %s", conf_path, strerror(EINVAL),
		 strerror(ENOMEM));
	assert_string_equal(err, want);
	assert_one_reload_failed(want);
	d.pipe.agg = agg;
}

int main(void)
{
	const struct CMUnitTest daemon_ctl[] = {
		cmocka_unit_test_setup_teardown(
			unprivileged_requests_share_one_reading, setup, teardown),
		cmocka_unit_test_setup_teardown(
			root_reads_the_kernel_every_time, setup, teardown),
		cmocka_unit_test_setup_teardown(
			a_failing_kernel_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(
			metrics_is_the_file_with_status_freshness, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			site_of_unknown_direction_is_listed, setup, teardown),
		cmocka_unit_test_setup_teardown(
			samples_name_their_task_to_journal_readers_only, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			samples_carry_no_syscall_arguments, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			reload_refused_by_the_socket_changes_nothing, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			reload_refused_by_the_aggregator_keeps_the_socket,
			setup, teardown),
	};

	return cmocka_run_group_tests(daemon_ctl, make_tmpdir, remove_tmpdir);
}
