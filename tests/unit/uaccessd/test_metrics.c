// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessd's metrics file (daemon/uaccessd/metrics.c): the text of a
 * known state, the top functions (summed, bounded, ordered, the rest in
 * "other", "unknown" for sites without a symbol), the atomic write under
 * a concurrent reader, failed writes, their count and log lines, and the
 * timer: a write at start and at most one a second while counters move.
 */
#include <errno.h>
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/util.h"
#include "golden.h"
#include "journal_rec.h"
#include "uaccessd/daemon.h"
#include "uaccessd/metrics.h"

#define ALL_SITE_ATTRS	(((1ULL << (UACCESS_KADDR_A_SITE_MAX + 1)) - 1) & ~1ULL)

static struct uk_daemon d;
static int nl_token;
static char tmpdir[64];

static int setup(void **state)
{
	memset(&d, 0, sizeof(d));
	uk_config_defaults(&d.cfg);
	assert_int_equal(uk_pipeline_init(&d.pipe, &d.cfg), 0);
	uk_rec_reset();
	d.pipe.journal.sendv = uk_rec_sendv;
	d.state = UK_STATE_SUBSCRIBED;
	d.started_ns = uk_time_now_ns();
	d.started_real_ns = 1700000000123456789ULL;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/uk-test-metrics-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	uk_pipeline_free(&d.pipe);
	uk_config_free(&d.cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* A site of the kernel's dump-sites: its own key, @symbol, @count hits. */
static void site(unsigned int id, const char *symbol, uint64_t count)
{
	const struct uk_agg_site *s = NULL;
	struct uk_site ks;

	memset(&ks, 0, sizeof(ks));
	ks.present = ALL_SITE_ATTRS;
	if (!symbol)
		ks.present &= ~(1ULL << UACCESS_KADDR_A_SITE_SITE_SYMBOL);
	ks.site_id = id;
	ks.site_ip = 0xffffffff81000000ULL + id * 64;
	snprintf(ks.site_symbol, sizeof(ks.site_symbol), "%s",
		 symbol ? symbol : "");
	ks.kind = UACCESS_KADDR_KIND_FAULT;
	ks.helper = UACCESS_KADDR_HELPER_GET_USER;
	ks.direction = UACCESS_KADDR_DIRECTION_FROM_USER;
	ks.count = count;
	assert_true(uk_agg_sync_site(d.pipe.agg, &ks, &s) >= 0);
}

static char *text(void)
{
	char *t = NULL;
	size_t len = 0;

	assert_int_equal(uk_metrics_text(&d, &t, &len), 0);
	assert_int_equal(strlen(t), len);
	return t;
}

/*
 * The uaccessd_site_hits_total samples of @t, in order, as
 * "function=hits" lines; every function once.
 */
static char *hits_lines(const char *t, uint64_t *other)
{
	static const char prefix[] = "uaccessd_site_hits_total{function=\"";
	char *out = calloc(1, strlen(t) + 1), *o = out;
	const char *p, *q, *line;

	assert_non_null(out);
	for (line = t; *line; line = strchr(line, '\n') + 1) {
		if (!strncmp(line, prefix, sizeof(prefix) - 1)) {
			p = line + sizeof(prefix) - 1;
			q = strstr(p, "\"} ");
			assert_non_null(q);
			o += sprintf(o, "%.*s=%llu\n", (int)(q - p), p,
				     strtoull(q + 3, NULL, 10));
		}
		if (!strncmp(line, "uaccessd_site_hits_other_total ", 31))
			*other = strtoull(line + 31, NULL, 10);
	}
	return out;
}

static void the_text_of_a_known_state(void **state)
{
	char *t;

	d.nl = (struct uk_nl *)&nl_token;
	d.kstatus = (struct uk_status){
		.present = ~0ULL, .mode = UACCESS_KADDR_MODE_REPORT,
		.hits_fault = 57, .hits_gp = 0, .hits_precheck = 42,
		.rejected = 1, .reported = 90, .suppressed = 9, .dropped = 0,
		.sites_used = 7, .sites_max = 2048, .sites_overflow = 0,
		.last_seq = 90, .queue_len = 64,
		.access = UACCESS_KADDR_ACCESS_ALLOW,
	};
	d.kstatus_ns = uk_time_now_ns();
	d.cfg.metrics_top_sites = 3;
	d.reloads = 2;
	d.reload_failures = 1;
	d.metrics_failures = 4;
	d.pipe.datagrams = 120;
	d.pipe.events = 118;
	d.pipe.journaled = 100;
	d.pipe.ignored = 3;
	d.pipe.late = 1;
	d.pipe.recovered = 2;
	d.pipe.overruns = 1;
	d.pipe.resyncs = 5;
	d.pipe.journal.failed = 6;
	d.pipe.journal_lost = 4;
	d.pipe.loss[UK_LOSS_SEQ_GAP] = 2;
	d.pipe.loss[UK_LOSS_OVERRUN] = 11;
	/* two sites of vuln_ioctl, tied with copy_params; two unknown */
	site(1, "vuln_ioctl+0x1c/0x80 [uk_test]", 40);
	site(2, "vuln_ioctl+0x40/0x80 [uk_test]", 2);
	site(3, "copy_params+0x10/0x100", 42);
	site(4, NULL, 5);
	site(5, "0xffffffffc0001234", 7);
	site(6, "drm_ioctl+0x1/0x2 [drm]", 3);
	site(7, "a_rare_fn+0x1/0x2", 1);
	t = text();
	uk_assert_golden("metrics-daemon.prom", t);
	free(t);
}

static void sites_sharing_a_function_are_one_sample(void **state)
{
	uint64_t other = UINT64_MAX;
	char *t, *lines;

	site(1, "f+0x1/0x10", 1);
	site(2, "f+0x2/0x10", 2);
	site(3, "f [mod]", 4);
	site(4, "f", 8);
	site(5, "f_2+0x1/0x10", 16);
	site(6, "", 32);
	site(7, NULL, 64);
	site(8, "0xffffffff81000000", 128);
	t = text();
	lines = hits_lines(t, &other);
	uk_assert_text("hits", lines, "unknown=224\nf_2=16\nf=15\n");
	assert_int_equal(other, 0);
	/* never an address */
	assert_null(strstr(t, "0xffffffff81000000"));
	free(lines);
	free(t);
}

static void the_top_functions_are_bounded_and_ordered(void **state)
{
	struct uk_metrics_fn *fns;
	uint64_t other = 0, total = 0, shown = 0;
	char sym[64], *t, *lines, want[512] = "";
	size_t i, n;

	/* fn_00..fn_29 with 0..29 hits, and three with 20 too */
	for (i = 0; i < 30; i++) {
		snprintf(sym, sizeof(sym), "fn_%02zu+0x1/0x2", i);
		site(i + 1, sym, i);
		total += i;
	}
	site(100, "zz+0x1/0x2", 20);
	site(101, "aa+0x1/0x2", 20);
	site(102, "fn_20+0x9/0x10", 0);	/* a second site, no hits */
	total += 40;

	d.cfg.metrics_top_sites = 12;
	t = text();
	lines = hits_lines(t, &other);
	strcat(want, "fn_29=29\nfn_28=28\nfn_27=27\nfn_26=26\nfn_25=25\n"
	       "fn_24=24\nfn_23=23\nfn_22=22\nfn_21=21\n"
	       "aa=20\nfn_20=20\nzz=20\n");
	uk_assert_text("top 12", lines, want);
	for (i = 20; i < 30; i++)
		shown += i;
	shown += 40;
	assert_int_equal(other, total - shown);
	free(lines);
	free(t);

	/* the same through the call, and a bound above the functions */
	assert_int_equal(uk_metrics_functions(d.pipe.agg, 100, &fns, &n,
					      &other), 0);
	assert_int_equal(n, 32);
	assert_int_equal(other, 0);
	for (i = 1; i < n; i++)
		assert_true(fns[i - 1].hits >= fns[i].hits);
	assert_int_equal(fns[n - 1].hits, 0);
	free(fns);

	/* 0: the sum alone, and no empty family */
	d.cfg.metrics_top_sites = 0;
	t = text();
	assert_null(strstr(t, "TYPE uaccessd_site_hits_total"));
	lines = hits_lines(t, &other);
	assert_int_equal(other, total);
	free(lines);
	free(t);
}

static void no_sites_no_functions(void **state)
{
	struct uk_metrics_fn *fns = (void *)1;
	uint64_t other = 1;
	size_t n = 1;
	char *t;

	assert_int_equal(uk_metrics_functions(d.pipe.agg, 10, &fns, &n,
					      &other), 0);
	assert_null(fns);
	assert_int_equal(n, 0);
	assert_int_equal(other, 0);
	t = text();
	assert_null(strstr(t, "TYPE uaccessd_site_hits_total"));
	assert_non_null(strstr(t, "\nuaccessd_site_hits_other_total 0\n"));
	/* no kernel reading: its status is down and nothing else of it */
	assert_non_null(strstr(t, "\nuaccess_kaddr_kernel_status_up 0\n"));
	assert_null(strstr(t, "uaccess_kaddr_mode"));
	free(t);
}

/* ---- the file ---- */

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0)
		n += r;
	close(fd);
	*len = n;
	return buf;
}

/* Files in @dir besides "." and ".."; the first name in @first. */
static int count_files(const char *dir, char *first, size_t len)
{
	struct dirent *e;
	DIR *dd = opendir(dir);
	int n = 0;

	assert_non_null(dd);
	while ((e = readdir(dd)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !n++ && first)
			snprintf(first, len, "%s", e->d_name);
	closedir(dd);
	return n;
}

struct shared {
	atomic_int stop;
	atomic_long reads;
	atomic_long bad;
	size_t bad_len;
};

/*
 * A reader in another process reads the file over and over while it is
 * rewritten with two texts of very different sizes: it sees one or the
 * other, whole, every time.
 */
static void readers_see_one_whole_file_or_the_other(void **state)
{
	size_t small_len = 6, big_len = 256 * 1024, len, i;
	char path[128], *big, *got;
	struct shared *sh;
	long writes = 0;
	uint64_t until;
	pid_t pid;
	int status;

	big = malloc(big_len);
	assert_non_null(big);
	for (i = 0; i < big_len; i++)
		big[i] = 'a' + i % 26;
	big[big_len - 1] = '\n';
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	snprintf(path, sizeof(path), "%s/u.prom", tmpdir);
	assert_int_equal(uk_metrics_write_file(path, "small\n", small_len),
			 0);

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		while (!atomic_load(&sh->stop)) {
			got = read_all(path, &len);
			if (!got || !((len == small_len &&
				       !memcmp(got, "small\n", len)) ||
				      (len == big_len &&
				       !memcmp(got, big, len)))) {
				sh->bad_len = got ? len : (size_t)-1;
				atomic_fetch_add(&sh->bad, 1);
			}
			free(got);
			atomic_fetch_add(&sh->reads, 1);
		}
		_exit(0);
	}
	/* Hundreds of writes, and as many reads at least, within 60 s. */
	until = uk_time_now_ns() + 60 * UK_NSEC_PER_SEC;
	while ((writes < 400 || atomic_load(&sh->reads) < 400) &&
	       uk_time_now_ns() < until) {
		if (writes & 1)
			assert_int_equal(uk_metrics_write_file(path, "small\n",
							       small_len), 0);
		else
			assert_int_equal(uk_metrics_write_file(path, big,
							       big_len), 0);
		writes++;
	}
	atomic_store(&sh->stop, 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	print_message("# %ld writes, %ld reads\n", writes,
		      atomic_load(&sh->reads));
	if (atomic_load(&sh->bad))
		fail_msg("%ld of %ld reads saw neither text (one of %zd bytes)",
			 atomic_load(&sh->bad), atomic_load(&sh->reads),
			 (ssize_t)sh->bad_len);
	assert_true(writes >= 400);
	assert_true(atomic_load(&sh->reads) >= 400);
	/* the target alone is left, mode 0644 whatever the umask */
	assert_int_equal(count_files(tmpdir, NULL, 0), 1);
	munmap(sh, sizeof(*sh));
	free(big);
}

static void assert_file(const char *path, const char *want)
{
	size_t len = 0;
	char *got = read_all(path, &len);

	assert_non_null(got);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
	free(got);
}

static void a_failed_write_leaves_the_old_file_and_no_temporary(void **state)
{
	char path[128], dir[160], name[256];
	struct rlimit old, small;
	struct stat st;
	char *big;
	mode_t mask;

	snprintf(path, sizeof(path), "%s/u.prom", tmpdir);
	mask = umask(0077);
	assert_int_equal(uk_metrics_write_file(path, "old 1\n", 6), 0);
	umask(mask);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);

	/* a directory that is not there */
	snprintf(dir, sizeof(dir), "%s/nonexistent/u.prom", tmpdir);
	assert_int_equal(uk_metrics_write_file(dir, "new\n", 4), -ENOENT);

	/* the disk fills up halfway (a file size limit stands in) */
	big = calloc(1, 64 * 1024);
	assert_non_null(big);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = (struct rlimit){ 4096, old.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(uk_metrics_write_file(path, big, 64 * 1024), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	free(big);
	assert_file(path, "old 1\n");
	assert_int_equal(count_files(tmpdir, name, sizeof(name)), 1);
	assert_string_equal(name, "u.prom");

	/* the rename fails: a directory stands where the file goes */
	snprintf(dir, sizeof(dir), "%s/d.prom", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(uk_metrics_write_file(dir, "x\n", 2), -EISDIR);
	assert_int_equal(count_files(tmpdir, NULL, 0), 2);
	assert_int_equal(rmdir(dir), 0);

	/* a directory not writable (root may write anyway) */
	if (geteuid() != 0) {
		assert_int_equal(chmod(tmpdir, 0555), 0);
		assert_int_equal(uk_metrics_write_file(path, "new\n", 4),
				 -EACCES);
		assert_int_equal(chmod(tmpdir, 0755), 0);
	}
	assert_file(path, "old 1\n");
	assert_int_equal(count_files(tmpdir, NULL, 0), 1);
}

/* A temporary file left by a crash, or a link planted there, goes. */
static void a_stale_temporary_file_is_replaced_not_followed(void **state)
{
	char path[128], tmp[192], victim[128];

	snprintf(path, sizeof(path), "%s/u.prom", tmpdir);
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	snprintf(tmp, sizeof(tmp), "%s/.u.prom.tmp.%d", tmpdir, (int)getpid());
	assert_int_equal(uk_metrics_write_file(victim, "keep\n", 5), 0);
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(uk_metrics_write_file(path, "new\n", 4), 0);
	assert_file(victim, "keep\n");
	assert_file(path, "new\n");
	assert_int_equal(count_files(tmpdir, NULL, 0), 2);
}

static void failures_are_counted_and_logged_once_per_errno(void **state)
{
	char path[160], sub[128];
	const struct uk_rec_entry *e;
	size_t len;
	char *got;

	snprintf(sub, sizeof(sub), "%s/sub", tmpdir);
	snprintf(path, sizeof(path), "%s/u.prom", sub);
	d.cfg.metrics_file = strdup(path);
	assert_non_null(d.cfg.metrics_file);

	assert_int_equal(uk_metrics_write(&d), -ENOENT);
	assert_int_equal(uk_metrics_write(&d), -ENOENT);
	assert_int_equal(uk_metrics_write(&d), -ENOENT);
	assert_int_equal(d.metrics_failures, 3);
	assert_int_equal(uk_rec.n, 1);
	e = uk_rec_entry(0);
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "metrics-write-failed");
	uk_rec_assert_val(e, "PRIORITY", "3");
	assert_non_null(strstr(uk_rec_val(e, "MESSAGE"),
			       "/sub/u.prom: No such file or directory"));

	/* another reason is another line */
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(uk_metrics_write(&d), -EISDIR);
	assert_int_equal(uk_metrics_write(&d), -EISDIR);
	assert_int_equal(uk_rec.n, 2);
	assert_non_null(strstr(uk_rec_val(uk_rec_entry(1), "MESSAGE"),
			       "Is a directory"));

	/* and writing again, one more */
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(uk_metrics_write(&d), 0);
	assert_int_equal(uk_metrics_write(&d), 0);
	assert_int_equal(uk_rec.n, 3);
	e = uk_rec_entry(2);
	uk_rec_assert_val(e, "UACCESS_DAEMON_STATE", "metrics-written");
	uk_rec_assert_val(e, "PRIORITY", "6");
	assert_int_equal(d.metrics_failures, 5);
	/* the file counts the failures before it */
	got = read_all(path, &len);
	assert_non_null(got);
	got[len - 1] = '\0';
	assert_non_null(strstr(got,
			       "\nuaccessd_metrics_write_failures_total 5"));
	free(got);
}

/* ---- when ---- */

struct ticker {
	unsigned int left;
	uint64_t writes[64];		/* the write times seen */
	unsigned int n;
};

static void note_write(struct ticker *t)
{
	if (d.metrics_written_ns && t->n < ARRAY_SIZE(t->writes) &&
	    (!t->n || t->writes[t->n - 1] != d.metrics_written_ns))
		t->writes[t->n++] = d.metrics_written_ns;
}

/* A datagram's worth of change every 10 ms. */
static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct ticker *t = userdata;

	if (!t->left)
		return sd_event_exit(d.event, 0);
	t->left--;
	d.pipe.datagrams++;
	sd_event_source_set_time_relative(s, 10 * UK_USEC_PER_MSEC);
	return 0;
}

static void written_at_start_and_at_most_once_a_second(void **state)
{
	sd_event_source *tick = NULL;
	struct ticker t = { .left = 250 };
	uint64_t start, secs;
	char path[128];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/u.prom", tmpdir);
	d.cfg.metrics_file = strdup(path);
	d.cfg.metrics_interval_usec = 3600 * UK_USEC_PER_SEC;
	assert_int_equal(sd_event_new(&d.event), 0);
	assert_int_equal(uk_metrics_start(&d), 0);
	/* at start, with nothing changed */
	assert_true(sd_event_run(d.event, UK_USEC_PER_SEC) > 0);
	assert_int_equal(access(path, R_OK), 0);
	note_write(&t);
	assert_int_equal(t.n, 1);

	/* 2.5 s of changes: a write a second, not one per change */
	start = uk_time_now_ns();
	assert_true(sd_event_add_time_relative(d.event, &tick, CLOCK_MONOTONIC,
					       10 * UK_USEC_PER_MSEC, 1,
					       on_tick, &t) >= 0);
	assert_int_equal(sd_event_source_set_enabled(tick, SD_EVENT_ON), 0);
	while (sd_event_get_state(d.event) != SD_EVENT_FINISHED) {
		assert_true(sd_event_run(d.event, 5 * UK_USEC_PER_SEC) >= 0);
		note_write(&t);
	}
	secs = (uk_time_now_ns() - start) / UK_NSEC_PER_SEC;
	print_message("# %u writes in %llu s of 250 changes\n", t.n,
		      (unsigned long long)secs);
	for (i = 1; i < t.n; i++)
		assert_true(t.writes[i] - t.writes[i - 1] >=
			    UK_METRICS_MIN_GAP_NS);
	/* the one at start, one a second after, ... */
	assert_true(t.n >= 3);
	assert_true(t.n <= 2 + secs);
	sd_event_source_disable_unref(tick);
	uk_metrics_stop(&d);
	sd_event_unref(d.event);
	d.event = NULL;
}

int main(void)
{
	const struct CMUnitTest metrics[] = {
		cmocka_unit_test_setup_teardown(the_text_of_a_known_state,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			sites_sharing_a_function_are_one_sample, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			the_top_functions_are_bounded_and_ordered, setup,
			teardown),
		cmocka_unit_test_setup_teardown(no_sites_no_functions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			readers_see_one_whole_file_or_the_other, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			a_failed_write_leaves_the_old_file_and_no_temporary,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			a_stale_temporary_file_is_replaced_not_followed,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			failures_are_counted_and_logged_once_per_errno, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			written_at_start_and_at_most_once_a_second, setup,
			teardown),
	};

	return cmocka_run_group_tests(metrics, NULL, NULL);
}
