/* SPDX-License-Identifier: GPL-2.0 */
/* How uaccessctl names a machine in its tables (list, sites, top). */
#ifndef UK_LABEL_H
#define UK_LABEL_H

#include <stdbool.h>
#include <stddef.h>

/* Host names longer than this are cut. */
#define UK_LABEL_HOST_MAX	256
/* "NAME(12345678)" with the longest NAME, and room to spare. */
#define UK_LABEL_LEN		(UK_LABEL_HOST_MAX + 64)

/*
 * The label of a machine: its host name, or, when another machine has
 * the same name (@ambiguous) or it has none, "NAME(MACHINE-ID's first 8
 * digits)"; "(unknown)" without either.  Made printable.
 */
void uk_label_host(const char *hostname, const char *machine_id,
		   bool ambiguous, char *buf, size_t len);

#endif /* UK_LABEL_H */
