/* SPDX-License-Identifier: GPL-2.0 */
/* JSON documents on stdout. */
#ifndef UK_CLI_JSON_OUT_H
#define UK_CLI_JSON_OUT_H

#include "cli.h"
#include "common/json.h"

/*
 * Finishes @j and writes the document and a newline to cli->out.  Returns
 * 0, or prints why and returns UK_ERR_FAILURE.  @j is released
 * either way.
 */
int uk_cli_json_print(const struct uk_cli *cli, struct uk_json *j);

#endif /* UK_CLI_JSON_OUT_H */
