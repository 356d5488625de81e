/* SPDX-License-Identifier: GPL-2.0 */
/* The clocks uaccessd and uaccessctl read. */
#ifndef UK_CLOCK_H
#define UK_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC, ns: what timers, ratelimits and timeouts use. */
uint64_t uk_now_ns(void);
/* CLOCK_REALTIME - CLOCK_BOOTTIME now, ns: a boot time made wall time. */
uint64_t uk_boot_to_real_ns(void);

#endif /* UK_CLOCK_H */
