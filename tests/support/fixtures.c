// SPDX-License-Identifier: GPL-2.0
/* Fixtures the unit tests share, see fixtures.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/audit.h>

#include "fixtures.h"

void uk_test_set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

int uk_test_utc(void **state)
{
	uk_test_set_tz("UTC");
	return 0;
}

void uk_test_fill_event(struct uk_event *ev, unsigned int nr_frames,
			uint32_t stack_hash)
{
	const struct uk_field *f;
	unsigned int i;

	memset(ev, 0, sizeof(*ev));
	ev->seq = 42;
	ev->ts_boot = 123456789012ULL;
	ev->ts_real = 1700000000123456789ULL;
	ev->kind = UACCESS_KADDR_KIND_FAULT;
	ev->helper = UACCESS_KADDR_HELPER_COPY_FROM_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_FROM_USER;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED;
	ev->address = 0xffff888012345678ULL;
	ev->size = 64;
	ev->site_id = 7;
	strcpy(ev->site_symbol, "vuln_ioctl+0x1c/0x80 [uk_test]");
	ev->site_ip = 0xffffffffc0001234ULL;
	ev->stack_hash = stack_hash;
	ev->pid = 1234;
	ev->tgid = 1230;
	strcpy(ev->comm, "poc");
	ev->uid = 1000;
	/* waitid(P_PID, 1235, infop, WEXITED, NULL), infop the bad address */
	ev->syscall_nr = 247;
	ev->syscall_arch = AUDIT_ARCH_X86_64;
	ev->syscall_args.nr = UK_SYSCALL_ARGS;
	ev->syscall_args.v[0] = 1;
	ev->syscall_args.v[1] = 1235;
	ev->syscall_args.v[2] = ev->address;
	ev->syscall_args.v[3] = 4;
	ev->cpu = 3;
	ev->count = 5;
	ev->suppressed = 2;
	ev->context = UACCESS_KADDR_CONTEXT_TASK;
	ev->nr_frames = nr_frames;
	for (i = 0; i < nr_frames && i < UK_STACK_MAX; i++) {
		ev->frames[i].ip = 0xffffffff81000000ULL + i * 0x100;
		snprintf(ev->frames[i].symbol, sizeof(ev->frames[i].symbol),
			 "frame_%u+0x%x/0x100", i, i * 4);
	}
	for (f = uk_event_fields; f->name; f++)
		ev->present |= 1ULL << f->attr;
	if (nr_frames)
		ev->present |= 1ULL << UACCESS_KADDR_A_EVENT_STACK;
}
