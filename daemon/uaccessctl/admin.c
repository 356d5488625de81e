// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl set, reset and reload: the kernel's mode and ratelimit
 * (set-config), zeroing its counters (reset), and uaccessd re-reading its
 * configuration (reload).  All are admin commands: the kernel checks
 * CAP_SYS_ADMIN, uaccessd uid 0.
 *
 * set talks to the kernel directly.  reset goes through uaccessd when it
 * runs, so that the daemon's own table starts again with the kernel's,
 * and straight to the kernel when it does not (or with --kernel).
 * Value ranges are the kernel's to judge: its message is shown as it is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/fields.h"
#include "output.h"
#include "common/util.h"

#define SET_USAGE \
	"set mode off|count|report|warn, set ratelimit INTERVAL_MS BURST, " \
	"set ratelimit-interval INTERVAL_MS, set ratelimit-burst BURST"

struct settings {
	bool has_mode, has_interval, has_burst;
	uint32_t mode, interval_ms, burst;
};

static int parse_u32(const struct uk_cli *cli, const char *key,
		     const char *s, uint32_t *ret)
{
	uint64_t v;

	if (uk_cli_parse_u64(s, UINT32_MAX, &v) < 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "set: %s takes a whole number from 0 to 4294967295, not '%s'",
				    key, s);
	*ret = (uint32_t)v;
	return 0;
}

static int set_once(const struct uk_cli *cli, bool *has, const char *key)
{
	if (*has)
		return uk_cli_error(cli, UK_ERR_USAGE, "set: %s given twice",
				    key);
	*has = true;
	return 0;
}

/* KEY VALUE... pairs, all applied in one set-config request. */
static int parse_settings(const struct uk_cli *cli, int argc, char **argv,
			  struct settings *s)
{
	int i = 0, r;

	if (argc == 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "set: nothing to set; " SET_USAGE);
	while (i < argc) {
		const char *key = argv[i];

		if (!strcmp(key, "mode")) {
			if (i + 1 >= argc)
				goto missing;
			r = set_once(cli, &s->has_mode, key);
			if (r)
				return r;
			s->mode = uk_enum_value(UK_ENUM_MODE, argv[i + 1]);
			if (!s->mode)
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "set: mode is off, count, report or warn, not '%s'",
						    argv[i + 1]);
			i += 2;
		} else if (!strcmp(key, "ratelimit")) {
			if (i + 2 >= argc)
				return uk_cli_error(cli, UK_ERR_USAGE,
						    "set: ratelimit takes INTERVAL_MS and BURST");
			if ((r = set_once(cli, &s->has_interval,
					  "ratelimit-interval")) ||
			    (r = set_once(cli, &s->has_burst,
					  "ratelimit-burst")) ||
			    (r = parse_u32(cli, "ratelimit INTERVAL_MS",
					   argv[i + 1], &s->interval_ms)) ||
			    (r = parse_u32(cli, "ratelimit BURST",
					   argv[i + 2], &s->burst)))
				return r;
			i += 3;
		} else if (!strcmp(key, "ratelimit-interval")) {
			if (i + 1 >= argc)
				goto missing;
			if ((r = set_once(cli, &s->has_interval, key)) ||
			    (r = parse_u32(cli, key, argv[i + 1],
					   &s->interval_ms)))
				return r;
			i += 2;
		} else if (!strcmp(key, "ratelimit-burst")) {
			if (i + 1 >= argc)
				goto missing;
			if ((r = set_once(cli, &s->has_burst, key)) ||
			    (r = parse_u32(cli, key, argv[i + 1], &s->burst)))
				return r;
			i += 2;
		} else {
			return uk_cli_error(cli, UK_ERR_USAGE,
					    "set: unknown setting '%s'; " SET_USAGE,
					    key);
		}
	}
	return 0;
missing:
	return uk_cli_error(cli, UK_ERR_USAGE, "set: %s needs a value",
			    argv[i]);
}

static void print_config(const struct uk_cli *cli, const struct uk_status *st)
{
	static const int attrs[] = {
		UACCESS_KADDR_A_STATUS_MODE,
		UACCESS_KADDR_A_STATUS_RATELIMIT_INTERVAL_MS,
		UACCESS_KADDR_A_STATUS_RATELIMIT_BURST,
	};
	struct uk_status cfg = *st;
	uint64_t present = 0;
	struct uk_json j;
	size_t i;

	/* Only the settings, not the counters. */
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		present |= st->present & (1ULL << attrs[i]);
	cfg.present = present;
	if (!cli->json) {
		uk_cli_kv_fields(cli->out, "kernel", uk_status_fields, &cfg);
		return;
	}
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_key(&j, "kernel");
	uk_json_object_begin(&j);
	uk_fields_json(&j, uk_status_fields, &cfg);
	uk_json_object_end(&j);
	uk_json_object_end(&j);
	uk_cli_json_print(cli, &j);
}

int uk_cli_set(const struct uk_cli *cli, int argc, char **argv)
{
	struct settings s = { 0 };
	struct uk_nl *nl = NULL;
	struct uk_status st;
	char why[256] = "";
	int r;

	r = parse_settings(cli, argc, argv, &s);
	if (r)
		return r;
	r = uk_cli_nl_open(cli, &nl);
	if (r)
		return r;
	r = uk_cli_sys->nl_set_config(nl, s.has_mode ? &s.mode : NULL,
				      s.has_interval ? &s.interval_ms : NULL,
				      s.has_burst ? &s.burst : NULL,
				      why, sizeof(why));
	if (r == -EINVAL || r == -ERANGE) {
		r = uk_cli_error(cli, UK_ERR_USAGE,
				 "the kernel refused the setting: %s",
				 why[0] ? why : strerror(-r));
		goto out;
	}
	if (r < 0) {
		r = uk_cli_nl_fail(cli, "set-config", r, why);
		goto out;
	}
	r = uk_cli_sys->nl_get_status(nl, &st, why, sizeof(why));
	if (r < 0) {
		r = uk_cli_error(cli, UK_ERR_FAILURE,
				 "the setting was made, but get-status failed: %s",
				 why[0] ? why : strerror(-r));
		goto out;
	}
	print_config(cli, &st);
	r = 0;
out:
	uk_cli_sys->nl_close(nl);
	return r;
}

static int print_before(const struct uk_cli *cli, const char *source,
			const struct uk_status *old)
{
	struct uk_json j;

	if (!cli->json) {
		uk_cli_kv(cli->out, "source", source);
		uk_cli_kv_fields(cli->out, "kernel_before", uk_status_fields,
				 old);
		return 0;
	}
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_str(&j, "source", source);
	uk_json_key(&j, "kernel_before");
	uk_json_object_begin(&j);
	uk_fields_json(&j, uk_status_fields, old);
	uk_json_object_end(&j);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}

/*
 * Through uaccessd: 0 or a negative errno (printed), or *direct set when
 * it is not there (or not connected to the kernel) and the kernel must be
 * asked directly.
 */
static int reset_daemon(const struct uk_cli *cli, bool *direct)
{
	struct uk_json_value *reply = NULL;
	struct uk_status old;
	char why[512];
	int r;

	r = uk_cli_ctl(cli, "{\"cmd\":\"reset\"}", &reply, why, sizeof(why));
	if (uk_cli_ctl_absent(r) || r == -ENOTCONN) {
		*direct = true;
		return 0;
	}
	if (r == -EPERM)
		return uk_cli_error(cli, UK_ERR_PERM, "%s", why);
	if (r < 0)
		return uk_cli_ctl_fail(cli, r, why);
	if (uk_fields_from_json(uk_status_fields,
				uk_json_object_get(reply, "kernel_before"),
				&old, sizeof(old)))
		r = print_before(cli, "uaccessd", &old);
	else
		r = uk_cli_error(cli, -EPROTO,
				 "uaccessd reset the counters, but its reply has no \"kernel_before\"");
	uk_json_value_free(reply);
	return r;
}

int uk_cli_reset(const struct uk_cli *cli, int argc, char **argv)
{
	struct uk_nl *nl = NULL;
	struct uk_status old;
	bool direct = cli->kernel;
	char why[256] = "";
	int r;

	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "reset: unexpected argument '%s'", argv[0]);
	if (!direct) {
		r = reset_daemon(cli, &direct);
		if (!direct)
			return r;
	}
	r = uk_cli_nl_open(cli, &nl);
	if (r)
		return r;
	r = uk_cli_sys->nl_reset(nl, &old, why, sizeof(why));
	uk_cli_sys->nl_close(nl);
	if (r < 0)
		return uk_cli_nl_fail(cli, "reset", r, why);
	return print_before(cli, "netlink", &old);
}

int uk_cli_reload(const struct uk_cli *cli, int argc, char **argv)
{
	struct uk_json_value *reply = NULL;
	struct uk_json j;
	char why[512];
	int r;

	if (argc > 0)
		return uk_cli_error(cli, UK_ERR_USAGE,
				    "reload: unexpected argument '%s'", argv[0]);
	r = uk_cli_ctl(cli, "{\"cmd\":\"reload\"}", &reply, why, sizeof(why));
	/*
	 * uaccessd answered but did not take the file (PATH:LINE: reason, or
	 * one it cannot read): not a permission problem of ours.
	 */
	if (r < 0 && r != -EPERM && !uk_cli_ctl_absent(r) && why[0] &&
	    r != -ETIMEDOUT && r != -EPROTO)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "uaccessd kept its configuration: %s", why);
	if (r < 0)
		return uk_cli_ctl_fail(cli, r, why);
	uk_json_value_free(reply);
	if (!cli->json)
		return 0;
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_bool(&j, "reloaded", true);
	uk_json_object_end(&j);
	return uk_cli_json_print(cli, &j);
}
