/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every way out of the process a verb takes, behind one table that the unit
 * tests replace: uaccessd's control socket, the netlink family, the clocks;
 * their failures turned into sentences and UK_ERR_* errors.
 */
#ifndef UK_CLI_TRANSPORT_H
#define UK_CLI_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "cli.h"
#include "common/event.h"
#include "common/json.h"
#include "common/nl.h"

/*
 * Every way out of the process a verb takes: the control socket, the
 * netlink family, the clocks.  uk_cli_sys points at uk_cli_sys_real; the
 * unit tests point it at fakes (the only global the verbs read).
 */
struct uk_cli_sys {
	int (*ctl_call)(const char *path, const char *request_line,
			int timeout_ms, struct uk_json_value **reply,
			char *why, size_t whylen);
	int (*nl_open)(struct uk_nl **ret);
	void (*nl_close)(struct uk_nl *nl);
	int (*nl_get_status)(struct uk_nl *nl, struct uk_status *st,
			     char *why, size_t whylen);
	int (*nl_reset)(struct uk_nl *nl, struct uk_status *old, char *why,
			size_t whylen);
	int (*nl_set_config)(struct uk_nl *nl, const uint32_t *mode,
			     const uint32_t *interval_ms,
			     const uint32_t *burst, char *why, size_t whylen);
	int (*nl_dump_sites)(struct uk_nl *nl,
			     int (*cb)(const struct uk_site *site, void *data),
			     void *data, char *why, size_t whylen);
	uint16_t (*nl_family)(const struct uk_nl *nl);
	int (*nl_events_open)(struct uk_nl *nl, int rcvbuf);
	ssize_t (*nl_events_recv)(struct uk_nl *nl, void *buf, size_t len);
	int (*clock_gettime)(clockid_t clk, struct timespec *ts);
};

extern const struct uk_cli_sys uk_cli_sys_real;
extern const struct uk_cli_sys *uk_cli_sys;

/* How long uaccessd may take to answer (a big site table is megabytes). */
#define UK_CLI_CTL_TIMEOUT_MS	10000

/* --socket, or the default control socket. */
const char *uk_cli_socket(const struct uk_cli *cli);

/*
 * One request to uaccessd.  0 and the parsed reply in *reply (free with
 * uk_json_value_free()) when it answered "ok":true.  Otherwise a negative
 * errno and a sentence in @why: the transport's error (-ENOENT and
 * -ECONNREFUSED: uaccessd is not running), or the errno of an "ok":false
 * reply with its "error" text, or -EPROTO for a reply that makes no sense.
 */
int uk_cli_ctl(const struct uk_cli *cli, const char *request,
	       struct uk_json_value **reply, char *why, size_t whylen);

/* uaccessd's "not running" errors. */
bool uk_cli_ctl_absent(int err);

/*
 * Prints the failure of uk_cli_ctl() on cli->err and returns what it
 * stands for: UK_ERR_NO_DAEMON for a daemon that is not running,
 * UK_ERR_PERM for a refused connection or request, UK_ERR_FAILURE
 * otherwise.
 */
int uk_cli_ctl_fail(const struct uk_cli *cli, int err, const char *why);
/* The same without printing: the sentence in @msg, the error returned. */
int uk_cli_ctl_explain(const struct uk_cli *cli, int err, const char *why,
		       char *msg, size_t msglen);

/*
 * Opens the netlink family; on failure prints why and returns
 * UK_ERR_NO_KERNEL when the kernel has no uaccess_kaddr family,
 * UK_ERR_PERM or UK_ERR_FAILURE, else returns 0.
 */
int uk_cli_nl_open(const struct uk_cli *cli, struct uk_nl **nl);
/* The sentence and UK_ERR_* for an error of uk_nl_open(), unprinted. */
int uk_cli_nl_explain(int err, char *msg, size_t msglen);

/*
 * Prints the failure of a netlink request (@what: "get-status", ...) and
 * returns UK_ERR_PERM for -EPERM/-EACCES ("permission denied: needs
 * CAP_SYS_ADMIN"), UK_ERR_NO_KERNEL for -ENOENT, else UK_ERR_FAILURE
 * with the kernel's message.
 */
int uk_cli_nl_fail(const struct uk_cli *cli, const char *what, int err,
		   const char *why);

#define UK_CLI_MSG_NO_KERNEL \
	"kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)"
#define UK_CLI_MSG_NO_DAEMON \
	"uaccessd is not running (systemctl start uaccessd)"
#define UK_CLI_MSG_NEED_ADMIN "permission denied: needs CAP_SYS_ADMIN"

/* ---- time ---- */

/*
 * uk_time_boot_to_real() with the clocks of uk_cli_sys (the tests' fake
 * ones): the offset now, so a clock change since is not accounted for.
 */
uint64_t uk_cli_boot_to_real(uint64_t boot_ns);

#endif /* UK_CLI_TRANSPORT_H */
