// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "clock.h"

static uint64_t ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t uk_now_ns(void)
{
	return ns(CLOCK_MONOTONIC);
}

uint64_t uk_boot_to_real_ns(void)
{
	return ns(CLOCK_REALTIME) - ns(CLOCK_BOOTTIME);
}
