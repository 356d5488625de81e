// SPDX-License-Identifier: GPL-2.0
/*
 * What cli.h promises every verb: its errors on stderr, the exit codes, the
 * strict numbers and booleans of the command line and the environment.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

#include "cli.h"
#include "common/util.h"

int uk_cli_error(const struct uk_cli *cli, int err, const char *fmt, ...)
{
	FILE *f = cli && cli->err ? cli->err : stderr;
	va_list ap;

	fputs("uaccessctl: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
	return err;
}

int uk_cli_exit_code(int err)
{
	switch (err) {
	case 0:
		return UK_EXIT_OK;
	case UK_ERR_USAGE:
		return UK_EXIT_USAGE;
	case UK_ERR_NO_KERNEL:
		return UK_EXIT_NO_KERNEL;
	case UK_ERR_NO_DAEMON:
		return UK_EXIT_NO_DAEMON;
	case UK_ERR_PERM:
	case -EACCES:
		return UK_EXIT_PERM;
	case UK_ERR_LOSS:
		return UK_EXIT_LOSS;
	default:
		return UK_EXIT_FAILURE;
	}
}

int uk_cli_parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	const char *p;

	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++) {
		unsigned int d;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		d = (unsigned int)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int uk_cli_parse_boolean(const char *s)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}
