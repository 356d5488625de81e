// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of one metrics file write (daemon/uaccessd/metrics.c) with a
 * full site table: every site in a function of its own, so that the top
 * functions are chosen among as many as there are sites.  From the top of
 * the tree:
 *
 *   make -C daemon metrics-bench
 *   build/daemon/metrics_bench [sites [top [writes [dir]]]]
 *                                   (10000 100 200 $TMPDIR or /tmp)
 *
 * Prints the file's size and the microseconds per write: the text (the
 * site walk, the sums and the sort, the formatting) and the file (write,
 * chmod, rename), each the median of the writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uaccessd/daemon.h"
#include "uaccessd/metrics.h"

#define ALL_SITE_ATTRS	(((1ULL << (UACCESS_KADDR_A_SITE_MAX + 1)) - 1) & ~1ULL)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double median_us(uint64_t *ns, unsigned int n)
{
	qsort(ns, n, sizeof(*ns), cmp_u64);
	return ns[n / 2] / 1000.0;
}

static int fill(struct uk_daemon *d, unsigned int sites)
{
	static const char *const a[] = {
		"ext4", "btrfs", "tcp", "sock", "vfs", "drm", "amdgpu",
		"nvme", "blk_mq", "netlink", "xfs", "kvm", "snd_pcm", "usb",
	};
	static const char *const b[] = {
		"ioctl", "getsockopt", "copy_params", "fill_user_buffer",
		"get_info", "compat_ioctl", "handle_request", "recvmsg",
	};
	const struct uk_agg_site *s;
	struct uk_site ks;
	unsigned int i;

	for (i = 0; i < sites; i++) {
		memset(&ks, 0, sizeof(ks));
		ks.present = ALL_SITE_ATTRS;
		ks.site_id = i;
		ks.site_ip = 0xffffffff81000000ULL + (uint64_t)i * 64;
		snprintf(ks.site_symbol, sizeof(ks.site_symbol),
			 "%s_%s_%u+0x%x/0x400%s", a[i % 14], b[i / 14 % 8], i,
			 0x10 + i % 0x200, i % 3 ? "" : " [amdgpu]");
		ks.kind = 1 + i % 3;
		ks.helper = 1 + i % 13;
		ks.direction = 1 + i % 2;
		ks.count = 1 + (uint64_t)i * 7919 % 100003;
		if (uk_agg_sync_site(d->pipe.agg, &ks, &s) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int sites = argc > 1 ? atoi(argv[1]) : 10000;
	unsigned int top = argc > 2 ? atoi(argv[2]) : 100;
	unsigned int writes = argc > 3 ? atoi(argv[3]) : 200;
	const char *dir = argc > 4 ? argv[4] :
		getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	uint64_t *text_ns, *file_ns, t0, t1, t2;
	struct uk_daemon d = { .state = UK_STATE_SUBSCRIBED };
	char path[512], *text;
	size_t len = 0;
	unsigned int i;

	text_ns = calloc(writes, sizeof(*text_ns));
	file_ns = calloc(writes, sizeof(*file_ns));
	if (!text_ns || !file_ns || !writes)
		return 1;
	uk_config_defaults(&d.cfg);
	d.cfg.max_sites = sites < 16 ? 16 : sites;
	d.cfg.metrics_top_sites = top;
	d.started_real_ns = uk_time_ns(CLOCK_REALTIME);
	snprintf(path, sizeof(path), "%s/uaccessd-bench-%d.prom", dir,
		 (int)getpid());
	if (uk_pipeline_init(&d.pipe, &d.cfg) < 0 || fill(&d, sites) < 0)
		return 1;
	for (i = 0; i < writes; i++) {
		t0 = uk_time_now_ns();
		if (uk_metrics_text(&d, &text, &len) < 0)
			return 1;
		t1 = uk_time_now_ns();
		if (uk_metrics_write_file(path, text, len) < 0) {
			perror(path);
			return 1;
		}
		t2 = uk_time_now_ns();
		free(text);
		text_ns[i] = t1 - t0;
		file_ns[i] = t2 - t1;
	}
	unlink(path);
	printf("%u sites in %u functions, top %u: %zu bytes per write; "
	       "text %.1f us, file %.1f us (median of %u writes to %s)\n",
	       sites, sites, top, len, median_us(text_ns, writes),
	       median_us(file_ns, writes), writes, dir);
	uk_pipeline_free(&d.pipe);
	uk_config_free(&d.cfg);
	free(text_ns);
	free(file_ns);
	return 0;
}
