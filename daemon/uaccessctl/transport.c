// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out of the process (transport.h): uaccessd's control socket and
 * the kernel's netlink family, their errors as sentences and UK_ERR_*
 * errors, and the clocks.
 */
#include <errno.h>
#include <string.h>

#include "common/control.h"
#include "common/control_client.h"
#include "common/time.h"
#include "common/why.h"
#include "transport.h"

const struct uk_cli_sys uk_cli_sys_real = {
	.ctl_call = uk_ctl_call,
	.nl_open = uk_nl_open,
	.nl_close = uk_nl_close,
	.nl_get_status = uk_nl_get_status,
	.nl_reset = uk_nl_reset,
	.nl_set_config = uk_nl_set_config,
	.nl_dump_sites = uk_nl_dump_sites,
	.nl_family = uk_nl_family,
	.nl_events_open = uk_nl_events_open,
	.nl_events_recv = uk_nl_events_recv,
	.clock_gettime = clock_gettime,
};

const struct uk_cli_sys *uk_cli_sys = &uk_cli_sys_real;

const char *uk_cli_socket(const struct uk_cli *cli)
{
	return cli->socket ? cli->socket : UK_CTL_SOCKET_PATH;
}

bool uk_cli_ctl_absent(int err)
{
	return err == -ENOENT || err == -ECONNREFUSED;
}

/* The transport's errors as sentences. */
static void ctl_why(const char *path, int err, char *why, size_t whylen)
{
	switch (-err) {
	case ENOENT:
		uk_why(why, whylen, "no control socket %s", path);
		break;
	case ECONNREFUSED:
		uk_why(why, whylen, "nothing listens on %s", path);
		break;
	case EACCES:
	case EPERM:
		uk_why(why, whylen, "permission denied: cannot connect to %s",
			path);
		break;
	case ETIMEDOUT:
		uk_why(why, whylen, "uaccessd did not answer within %d s",
			UK_CLI_CTL_TIMEOUT_MS / 1000);
		break;
	case EPROTO:
		uk_why(why, whylen,
			"uaccessd's reply is not one JSON object line");
		break;
	case EMSGSIZE:
		uk_why(why, whylen, "uaccessd's reply is too large");
		break;
	case ENAMETOOLONG:
		uk_why(why, whylen, "socket path too long: %s", path);
		break;
	case ENOTSOCK:
		uk_why(why, whylen, "%s is not a socket", path);
		break;
	default:
		uk_why(why, whylen, "cannot talk to uaccessd at %s: %s", path,
			strerror(-err));
		break;
	}
}

int uk_cli_ctl(const struct uk_cli *cli, const char *request,
	       struct uk_json_value **reply, char *why, size_t whylen)
{
	const char *path = uk_cli_socket(cli), *msg = NULL;
	struct uk_json_value *v = NULL;
	char perr[160] = "";
	uint64_t en = 0;
	bool ok = false;
	int r;

	uk_why(why, whylen, "%s", "");
	r = uk_cli_sys->ctl_call(path, request, UK_CLI_CTL_TIMEOUT_MS, &v,
				 perr, sizeof(perr));
	if (r == -EPROTO && perr[0]) {
		uk_why(why, whylen, "uaccessd's reply is %s", perr);
		return r;
	}
	if (r < 0) {
		ctl_why(path, r, why, whylen);
		return r;
	}
	if (uk_json_get_bool(uk_json_object_get(v, "ok"), &ok) < 0) {
		uk_why(why, whylen, "uaccessd's reply has no \"ok\"");
		uk_json_value_free(v);
		return -EPROTO;
	}
	if (!ok) {
		if (uk_json_get_u64(uk_json_object_get(v, "errno"), &en) < 0 ||
		    en == 0 || en > 4095)
			en = EIO;
		if (uk_json_get_str(uk_json_object_get(v, "error"), &msg) < 0)
			msg = strerror((int)en);
		uk_why(why, whylen, "%s", msg);
		uk_json_value_free(v);
		/* Not to be read as "uaccessd is not running" by a caller. */
		if (en == ENOENT || en == ECONNREFUSED)
			en = EREMOTEIO;
		return -(int)en;
	}
	*reply = v;
	return 0;
}

int uk_cli_ctl_explain(const struct uk_cli *cli, int err, const char *why,
		       char *msg, size_t msglen)
{
	if (uk_cli_ctl_absent(err)) {
		if (cli->socket)
			uk_why(msg, msglen, "%s: %s", UK_CLI_MSG_NO_DAEMON,
				why);
		else
			uk_why(msg, msglen, "%s", UK_CLI_MSG_NO_DAEMON);
		return UK_ERR_NO_DAEMON;
	}
	uk_why(msg, msglen, "%s", why && why[0] ? why : strerror(-err));
	if (err == -EPERM || err == -EACCES)
		return UK_ERR_PERM;
	return UK_ERR_FAILURE;
}

int uk_cli_ctl_fail(const struct uk_cli *cli, int err, const char *why)
{
	char msg[512];
	int r = uk_cli_ctl_explain(cli, err, why, msg, sizeof(msg));

	return uk_cli_error(cli, r, "%s", msg);
}

int uk_cli_nl_explain(int err, char *msg, size_t msglen)
{
	switch (-err) {
	case ENOENT:
		uk_why(msg, msglen, "%s", UK_CLI_MSG_NO_KERNEL);
		return UK_ERR_NO_KERNEL;
	case EPERM:
	case EACCES:
		uk_why(msg, msglen,
			"permission denied: cannot open a generic netlink socket");
		return UK_ERR_PERM;
	default:
		uk_why(msg, msglen,
			"cannot reach the kernel's uaccess_kaddr family: %s",
			strerror(-err));
		return UK_ERR_FAILURE;
	}
}

int uk_cli_nl_open(const struct uk_cli *cli, struct uk_nl **nl)
{
	char msg[256];
	int r = uk_cli_sys->nl_open(nl);

	if (r == 0)
		return 0;
	*nl = NULL;
	return uk_cli_error(cli, uk_cli_nl_explain(r, msg, sizeof(msg)), "%s",
			    msg);
}

int uk_cli_nl_fail(const struct uk_cli *cli, const char *what, int err,
		   const char *why)
{
	if (err == -EPERM || err == -EACCES)
		return uk_cli_error(cli, UK_ERR_PERM, "%s",
				    UK_CLI_MSG_NEED_ADMIN);
	if (err == -ENOENT)
		return uk_cli_error(cli, UK_ERR_NO_KERNEL, "%s",
				    UK_CLI_MSG_NO_KERNEL);
	if (err == -ETIMEDOUT)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "%s: the kernel did not answer in time",
				    what);
	return uk_cli_error(cli, UK_ERR_FAILURE, "%s failed: %s", what,
			    why && why[0] ? why : strerror(-err));
}

uint64_t uk_cli_boot_to_real(uint64_t boot_ns)
{
	struct timespec real, boot;
	uint64_t real_ns, boot_now;

	if (uk_cli_sys->clock_gettime(CLOCK_REALTIME, &real) < 0 ||
	    uk_cli_sys->clock_gettime(CLOCK_BOOTTIME, &boot) < 0)
		return 0;
	real_ns = (uint64_t)real.tv_sec * UK_NSEC_PER_SEC + real.tv_nsec;
	boot_now = (uint64_t)boot.tv_sec * UK_NSEC_PER_SEC + boot.tv_nsec;
	return uk_time_boot_to_real(boot_ns, real_ns, boot_now);
}
