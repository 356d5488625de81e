// SPDX-License-Identifier: GPL-2.0
/* Machine labels, see label.h. */
#include <stdio.h>

#include "label.h"
#include "output.h"

void uk_label_host(const char *hostname, const char *machine_id,
		   bool ambiguous, char *buf, size_t len)
{
	char host[UK_LABEL_HOST_MAX + 1];

	if (hostname && hostname[0])
		uk_cli_sanitize(hostname, host, sizeof(host));
	else
		host[0] = '\0';
	if (host[0] && (!ambiguous || !machine_id || !machine_id[0]))
		snprintf(buf, len, "%s", host);
	else if (machine_id && machine_id[0])
		snprintf(buf, len, "%s(%.8s)", host[0] ? host : "-",
			 machine_id);
	else
		snprintf(buf, len, "(unknown)");
}
