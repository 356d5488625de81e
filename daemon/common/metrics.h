/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's part of the metrics file (docs/uaccessd.md, "Metrics
 * file"): the uaccess_kaddr_* families from a get-status reply.  uaccessd
 * writes them from its last reading, uaccessctl from its own when no
 * daemon runs.
 */
#ifndef UK_METRICS_H
#define UK_METRICS_H

#include "event.h"
#include "openmetrics.h"

/*
 * uaccess_kaddr_kernel_status_up, 1 with the families of the attributes
 * @st holds, or 0 alone for a NULL @st (no reading).  Returns the
 * writer's error, 0 if none.
 */
int uk_metrics_kernel(struct uk_om *om, const struct uk_status *st);

#endif /* UK_METRICS_H */
