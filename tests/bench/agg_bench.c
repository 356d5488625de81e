// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of the site table: memory per site and events per
 * second through uk_agg_add_event().  From the top of the tree:
 *
 *   make -C daemon agg-bench
 *   build/daemon/agg_bench [sites [events]]   (10000 1000000)
 *   MAX_STACKS=0 build/daemon/agg_bench       the sites alone
 *
 * The events look like real ones: ~35-character "func+0x1c/0x80 [module]"
 * symbols, one or two stacks of 12 frames per site (the site, callers of
 * its own, then the system call entry all stacks share), a handful of
 * processes, timestamps that advance.  Each site gets six events, so it
 * holds four samples.  Memory is measured twice: the heap in use
 * (mallinfo2(), mmap()ed blocks included) and the resident set (VmRSS,
 * RssAnon), before and after filling the table; the default parameters
 * (uk_agg_params_init()) apply, max_stacks from the environment.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uaccessd/aggregate.h"

#define FUNCS	8192
#define PREBUILT	1024

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static char funcs[FUNCS][48];

static void make_funcs(void)
{
	static const char *const a[] = {
		"ext4", "btrfs", "tcp", "udp", "sock", "vfs", "do_sys",
		"drm", "amdgpu", "nvme", "blk_mq", "sched", "perf", "bpf",
		"netlink", "ioctl", "xfs", "kvm", "snd_pcm", "usb",
	};
	static const char *const b[] = {
		"read", "write", "ioctl", "getsockopt", "setsockopt",
		"copy_params", "fill_user_buffer", "get_info", "compat_ioctl",
		"handle_request", "submit", "query", "recvmsg", "sendmsg",
	};
	int i;

	for (i = 0; i < FUNCS; i++)
		snprintf(funcs[i], sizeof(funcs[i]), "%s_%s_%d",
			 a[next_rand() % 20], b[next_rand() % 14], i);
}

static void site_event(struct uk_event *ev, unsigned int site,
		       uint64_t seq, uint64_t now)
{
	static const char *const comms[] = {
		"systemd", "Xorg", "pulseaudio", "firefox", "fuzzer", "bash",
	};
	static const char *const mods[] = { "", " [amdgpu]", " [nvme]" };
	static const char *const entry[] = {
		"__x64_sys_ioctl", "x64_sys_call", "do_syscall_64",
		"entry_SYSCALL_64_after_hwframe", "entry_SYSCALL_64",
	};
	uint64_t r = next_rand();
	unsigned int i, stack = site * 2 + (r & 1 && site % 4 == 0);
	unsigned int task = (site + (r >> 8 & 1)) % 6;

	memset(ev, 0, sizeof(*ev));
	ev->present = ~0ULL;
	ev->seq = seq;
	ev->ts_boot = now;
	ev->ts_real = now + 1700000000000000000ULL + (r >> 16 & 0xff);
	ev->kind = 1 + site % 3;
	ev->helper = 1 + site % 13;
	ev->direction = 1 + site % 2;
	ev->addr_class = 3;
	ev->address = 0xffff888100000000ULL + (uint64_t)site * 4096 +
		      (r >> 20 & 0x3) * 8;
	ev->size = 8 << (site % 4);
	ev->site_id = site;
	ev->site_ip = 0xffffffff81000000ULL + (uint64_t)site * 64;
	snprintf(ev->site_symbol, sizeof(ev->site_symbol), "%s+0x%x/0x%x%s",
		 funcs[site % FUNCS], 0x10 + site % 0x200, 0x400,
		 mods[site % 3]);
	ev->stack_hash = 0x1000 + stack;
	ev->pid = 1000 + task;
	ev->tgid = 1000 + task;
	ev->uid = task ? 1000 : 0;
	memcpy(ev->comm, comms[task], strlen(comms[task]));
	ev->syscall_nr = 16;
	ev->cpu = r >> 24 & 7;
	ev->count = seq;
	ev->context = 1;
	ev->nr_frames = 12;
	/* Innermost the site itself, then callers particular to the stack,
	 * then the system call entry that every stack shares. */
	for (i = 0; i < ev->nr_frames; i++) {
		unsigned int f = (stack * 7 + i * 131) % FUNCS;

		if (i == 0) {
			ev->frames[i].ip = ev->site_ip;
			memcpy(ev->frames[i].symbol, ev->site_symbol,
			       sizeof(ev->site_symbol));
		} else if (i < 7) {
			ev->frames[i].ip = 0xffffffff81000000ULL + f * 4096 +
					   f % 0x300;
			snprintf(ev->frames[i].symbol,
				 sizeof(ev->frames[i].symbol), "%s+0x%x/0x%x",
				 funcs[f], 0x10 + f % 0x300, 0x400);
		} else {
			ev->frames[i].ip = 0xffffffff82000000ULL + i * 64;
			snprintf(ev->frames[i].symbol,
				 sizeof(ev->frames[i].symbol), "%s+0x%x/0x%x",
				 entry[i - 7], 0x20 + i, 0x200);
		}
	}
}

static long status_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = atol(line + strlen(key) + 1);
	fclose(f);
	return v;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * What the sample codec saves: the encoded bytes the sites hold against
 * the same samples as plain structs, which is what the table would hold
 * without the codec.
 */
static void samples_cost(const struct uk_agg *agg)
{
	const struct uk_agg_site **v;
	size_t n, i, enc = 0, kept = 0;

	if (uk_agg_sorted(agg, UK_SORT_COUNT, &v, &n) < 0 || !n)
		return;
	for (i = 0; i < n; i++) {
		struct uk_agg_sample tmp[64];

		enc += v[i]->private_slen;
		kept += uk_agg_site_samples(v[i], tmp, 64);
	}
	printf("samples: %zu kept, %.1f bytes encoded per site, %.1f as structs (%zu bytes each): the codec saves %.1f bytes per site\n",
	       kept, (double)enc / n,
	       (double)kept * sizeof(struct uk_agg_sample) / n,
	       sizeof(struct uk_agg_sample),
	       ((double)kept * sizeof(struct uk_agg_sample) - enc) / n);
	free(v);
}

int main(int argc, char **argv)
{
	unsigned int sites = argc > 1 ? atoi(argv[1]) : 10000;
	unsigned long events = argc > 2 ? atol(argv[2]) : 1000000;
	struct uk_agg_params p;
	struct uk_agg_stats st;
	struct uk_event *ev, *pre;
	struct uk_agg *agg;
	long rss0, anon0, rss1, anon1;
	size_t heap0, heap1;
	const struct uk_agg_site *site;
	uint64_t seq = 1, now = 1000000000;
	unsigned long i;
	unsigned int s, k;
	double t0, t1;
	bool fwd;

	make_funcs();
	pre = calloc(PREBUILT, sizeof(*pre));
	if (!pre)
		return 1;
	ev = &pre[0];
	uk_agg_params_init(&p);
	p.max_sites = sites;
	p.samples = 4;
	if (getenv("MAX_STACKS"))
		p.max_stacks = atoi(getenv("MAX_STACKS"));

	rss0 = status_kb("VmRSS:");
	anon0 = status_kb("RssAnon:");
	heap0 = heap_in_use();
	if (uk_agg_new(&p, &agg) < 0)
		return 1;
	/* Six events per site: four samples kept, two re-encoded away. */
	for (k = 0; k < 6; k++)
		for (s = 0; s < sites; s++) {
			site_event(ev, s, seq++, now += 1000 + next_rand() % 50000);
			if (uk_agg_add_event(agg, ev, now, &site, &fwd) < 0)
				return 1;
		}
	heap1 = heap_in_use();
	rss1 = status_kb("VmRSS:");
	anon1 = status_kb("RssAnon:");
	uk_agg_get_stats(agg, &st);
	printf("%u sites, %u samples each, %llu stacks, %llu symbols\n",
	       sites, p.samples, (unsigned long long)st.stacks,
	       (unsigned long long)st.symbols);
	printf("heap in use: %zu bytes, %.1f bytes per site\n",
	       heap1 - heap0, (double)(heap1 - heap0) / sites);
	printf("VmRSS %ld -> %ld kB, RssAnon %ld -> %ld kB\n",
	       rss0, rss1, anon0, anon1);
	samples_cost(agg);

	t0 = now_s();
	for (i = 0; i < events; i++) {
		s = next_rand() % sites;
		site_event(ev, s, seq++, now += 1000);
		if (uk_agg_add_event(agg, ev, now, &site, &fwd) < 0)
			return 1;
	}
	t1 = now_s();
	printf("%lu events (event built each time) in %.3f s: %.0f events/s\n",
	       events, t1 - t0, events / (t1 - t0));

	/* The same with events built beforehand: the table's own cost. */
	for (k = 0; k < PREBUILT; k++)
		site_event(&pre[k], next_rand() % sites, 0, 0);
	t0 = now_s();
	for (i = 0; i < events; i++) {
		ev = &pre[i % PREBUILT];
		ev->seq = ev->count = seq++;
		ev->ts_boot = now += 1000;
		ev->ts_real = now + 1700000000000000000ULL;
		if (uk_agg_add_event(agg, ev, now, &site, &fwd) < 0)
			return 1;
	}
	t1 = now_s();
	printf("%lu events (prebuilt) in %.3f s: %.0f events/s\n",
	       events, t1 - t0, events / (t1 - t0));
	uk_agg_get_stats(agg, &st);
	if (st.evicted || st.events != st.forwarded + st.suppressed)
		return 1;
	uk_agg_free(agg);
	free(pre);
	return 0;
}
