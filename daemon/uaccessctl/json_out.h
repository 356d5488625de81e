/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON documents on stdout, as --json=MODE asks: short (one line, the
 * default of --json) or pretty (indented by two spaces, one key or item a
 * line, as jq prints it).
 */
#ifndef UK_CLI_JSON_OUT_H
#define UK_CLI_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "common/json.h"

/*
 * --json's value: NULL (--json alone) and "short" give JSON on one line,
 * "pretty" indented, "off" none (the text output).  0, or -EINVAL for
 * any other value.
 */
int uk_cli_parse_json(const char *mode, bool *json, bool *pretty);

/*
 * The compact JSON @text (@len bytes, as uk_json_finish() gives it) to
 * @out, as it is or, @pretty, indented; @depth levels deep already (an
 * item of an array printed around it).  No final newline.
 */
void uk_cli_json_write(FILE *out, const char *text, size_t len, bool pretty,
		       unsigned int depth);

/*
 * Finishes @j and writes the document and a newline to cli->out, in the
 * mode of --json.  Returns 0, or prints why and returns UK_ERR_FAILURE.
 * @j is released either way.
 */
int uk_cli_json_print(const struct uk_cli *cli, struct uk_json *j);

/*
 * The kernel's two nanosecond times of an event, "ts_real" and "ts_boot"
 * (its fields' names, lower case), are written in microseconds as
 * "time_usec" and "boot_usec", the keys of json-output.md: a JSON number
 * above 2^53 is not exact in jq.  uk_cli_usec_key() gives the new key of
 * @key, or NULL for a key that is not one of them;
 * uk_cli_is_usec_key() says whether @key is one of the new keys.
 */
const char *uk_cli_usec_key(const char *key);
bool uk_cli_is_usec_key(const char *key);

#endif /* UK_CLI_JSON_OUT_H */
