/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What uaccessctl's verbs share besides cli.h, one job per header: the
 * transports (transport.h), text for a terminal (text.h), tables
 * (table.h), JSON documents (json_out.h) and the pager (pager.h).
 */
#ifndef UK_CLI_OUTPUT_H
#define UK_CLI_OUTPUT_H

#include "cli.h"
#include "json_out.h"
#include "pager.h"
#include "table.h"
#include "text.h"
#include "transport.h"

#endif /* UK_CLI_OUTPUT_H */
