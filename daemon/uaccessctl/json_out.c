// SPDX-License-Identifier: GPL-2.0
/* JSON documents on stdout (json_out.h). */
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

int uk_cli_json_print(const struct uk_cli *cli, struct uk_json *j)
{
	char *text = NULL;
	size_t len = 0;
	int r;

	r = uk_json_finish(j, &text, &len);
	if (r < 0)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "cannot write the JSON output: %s",
				    strerror(-r));
	fwrite(text, 1, len, cli->out);
	fputc('\n', cli->out);
	free(text);
	return 0;
}
