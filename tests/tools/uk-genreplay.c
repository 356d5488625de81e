// SPDX-License-Identifier: GPL-2.0
/*
 * uk-genreplay: write a replay file (docs/replay-format.md) of synthetic
 * events for tests and benchmarks.
 *
 *   uk-genreplay [-n EVENTS] [-s SITES] [-g GAP_EVERY] [-m MALFORMED_EVERY]
 *                [-f FAMILY] [-S FIRST_SEQ] FILE
 *
 * Event i hits site i % SITES (site_ip 0xffffffff81000000 + 0x40 * site,
 * symbol "uk_site_<site>+0x1c/0x80"), with sequence numbers from FIRST_SEQ
 * (default 1); every GAP_EVERY-th sequence number is skipped (a lost
 * event) and every MALFORMED_EVERY-th message is cut short.  Prints what
 * it wrote: "events E gaps G malformed M".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>

#include "msgbuild.h"
#include "uaccessd/replay.h"

static void fill(struct uk_event *ev, uint64_t i, uint64_t seq, uint64_t site)
{
	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->ts_boot = 1000000000ULL + i * 1000;
	ev->ts_real = 1764000000000000000ULL + i * 1000;
	ev->kind = UACCESS_KADDR_KIND_PRECHECK;
	ev->helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED;
	ev->address = 0xffff888000100000ULL + (i % 4096) * 8;
	ev->size = 16;
	ev->site_id = (uint32_t)site;
	snprintf(ev->site_symbol, sizeof(ev->site_symbol),
		 "uk_site_%" PRIu64 "+0x1c/0x80", site);
	ev->site_ip = 0xffffffff81000000ULL + 0x40 * site;
	ev->stack_hash = 0x1000 + (uint32_t)(site % 7);
	ev->pid = 100 + (uint32_t)(i % 50);
	ev->tgid = ev->pid;
	snprintf(ev->comm, sizeof(ev->comm), "uk-gen");
	ev->uid = 1000;
	/* waitid(P_PID, pid, infop, WEXITED, NULL), infop the address */
	ev->syscall_nr = 247;
	ev->syscall_arch = AUDIT_ARCH_X86_64;
	ev->syscall_args = (struct uk_syscall_args){
		.nr = UK_SYSCALL_ARGS, .v = { 1, ev->pid, ev->address, 4 },
	};
	ev->cpu = (uint32_t)(i % 2);
	ev->count = i / 1 + 1;
	ev->suppressed = 0;
	ev->context = UACCESS_KADDR_CONTEXT_TASK;
	ev->nr_frames = 2;
	snprintf(ev->frames[0].symbol, sizeof(ev->frames[0].symbol), "%s",
		 ev->site_symbol);
	ev->frames[0].ip = ev->site_ip;
	snprintf(ev->frames[1].symbol, sizeof(ev->frames[1].symbol),
		 "do_syscall_64+0x5d/0x170");
	ev->frames[1].ip = 0xffffffff82000000ULL;
	ev->present = 0;
	for (int a = UACCESS_KADDR_A_EVENT_SEQ; a <= UACCESS_KADDR_A_EVENT_MAX;
	     a++)
		ev->present |= 1ULL << a;
}

int main(int argc, char **argv)
{
	uint64_t n = 1000, sites = 10, gap_every = 0, bad_every = 0, seq = 1;
	uint64_t i, gaps = 0, bad = 0, *count;
	unsigned int family = 0x20;
	struct uk_replay_writer w;
	static char buf[65536] __attribute__((aligned(8)));
	struct uk_event ev;
	int c, len, r;

	while ((c = getopt(argc, argv, "n:s:g:m:f:S:")) != -1) {
		switch (c) {
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 's': sites = strtoull(optarg, NULL, 0); break;
		case 'g': gap_every = strtoull(optarg, NULL, 0); break;
		case 'm': bad_every = strtoull(optarg, NULL, 0); break;
		case 'f': family = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'S': seq = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: uk-genreplay [-n N] [-s SITES] [-g GAP] [-m BAD] [-f FAMILY] [-S SEQ] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !sites || family > 0xffff) {
		fprintf(stderr, "uk-genreplay: one FILE and SITES > 0 needed\n");
		return 2;
	}
	count = calloc(sites, sizeof(*count));
	if (!count)
		return 1;
	r = uk_replay_create(&w, argv[optind], (uint16_t)family);
	if (r < 0) {
		fprintf(stderr, "uk-genreplay: %s: %s\n", argv[optind], strerror(-r));
		return 1;
	}
	for (i = 0; i < n; i++, seq++) {
		uint64_t site = i % sites;

		if (gap_every && seq % gap_every == 0) {
			seq++;
			gaps++;
		}
		fill(&ev, i, seq, site);
		ev.count = ++count[site];
		len = uk_event_build(&ev, (uint16_t)family, (uint32_t)i, buf,
				     sizeof(buf));
		if (len < 0) {
			fprintf(stderr, "uk-genreplay: build: %s\n", strerror(-len));
			return 1;
		}
		if (bad_every && (i + 1) % bad_every == 0) {
			/* Cut the last attribute short: malformed. */
			struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

			nlh->nlmsg_len -= 2;
			bad++;
		}
		r = uk_replay_write(&w, (struct nlmsghdr *)buf,
				    ((struct nlmsghdr *)buf)->nlmsg_len);
		if (r < 0) {
			fprintf(stderr, "uk-genreplay: write: %s\n", strerror(-r));
			return 1;
		}
	}
	r = uk_replay_writer_close(&w, false);
	if (r < 0) {
		fprintf(stderr, "uk-genreplay: close: %s\n", strerror(-r));
		return 1;
	}
	printf("events %" PRIu64 " gaps %" PRIu64 " malformed %" PRIu64 "\n",
	       n, gaps, bad);
	free(count);
	return 0;
}
