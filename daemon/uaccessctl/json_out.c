// SPDX-License-Identifier: GPL-2.0
/* JSON documents on stdout (json_out.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "json_out.h"

static const struct {
	const char *ns, *usec;
} usec_keys[] = {
	{ "ts_real", "time_usec" },
	{ "ts_boot", "boot_usec" },
};

int uk_cli_parse_json(const char *mode, bool *json, bool *pretty)
{
	if (!mode || !strcmp(mode, "short")) {
		*json = true;
		*pretty = false;
	} else if (!strcmp(mode, "pretty")) {
		*json = true;
		*pretty = true;
	} else if (!strcmp(mode, "off")) {
		*json = false;
		*pretty = false;
	} else {
		return -EINVAL;
	}
	return 0;
}

static void indent(FILE *out, unsigned int depth)
{
	fputc('\n', out);
	while (depth--)
		fputs("  ", out);
}

void uk_cli_json_write(FILE *out, const char *text, size_t len, bool pretty,
		       unsigned int depth)
{
	bool in_str = false, esc = false;
	size_t i;

	if (!pretty) {
		fwrite(text, 1, len, out);
		return;
	}
	/* The writer's output has no blanks outside strings. */
	for (i = 0; i < len; i++) {
		char c = text[i];

		if (in_str) {
			fputc(c, out);
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			fputc(c, out);
			break;
		case '{':
		case '[':
			fputc(c, out);
			if (i + 1 < len && (text[i + 1] == '}' ||
					    text[i + 1] == ']')) {
				fputc(text[++i], out);	/* {} and [] stay */
				break;
			}
			indent(out, ++depth);
			break;
		case '}':
		case ']':
			indent(out, depth ? --depth : 0);
			fputc(c, out);
			break;
		case ',':
			fputc(c, out);
			indent(out, depth);
			break;
		case ':':
			fputs(": ", out);
			break;
		default:
			fputc(c, out);
			break;
		}
	}
}

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
	uk_cli_json_write(cli->out, text, len, cli->json_pretty, 0);
	fputc('\n', cli->out);
	free(text);
	return 0;
}

const char *uk_cli_usec_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usec_keys); i++)
		if (!strcmp(key, usec_keys[i].ns))
			return usec_keys[i].usec;
	return NULL;
}

bool uk_cli_is_usec_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usec_keys); i++)
		if (!strcmp(key, usec_keys[i].usec))
			return true;
	return false;
}
