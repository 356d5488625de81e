// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol, see control.h and docs/control-protocol.md.
 *
 * Unknown keys in a request are ignored so that a newer uaccessctl can
 * talk to an older daemon; a known key of the wrong type is an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "json.h"
#include "util.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* Sent when not even an error reply can be allocated. */
static const char oom_reply[] =
	"{\"ok\":false,\"error\":\"out of memory\",\"errno\":"
	STR(ENOMEM) "}\n";

static const struct {
	const char *name;
	bool root;
	size_t handler;		/* offset in struct uk_ctl_ops */
} cmds[_UK_CTL_CMD_MAX] = {
	[UK_CTL_STATUS] = { "status", false,
			    offsetof(struct uk_ctl_ops, status) },
	[UK_CTL_SITES]  = { "sites", false,
			    offsetof(struct uk_ctl_ops, sites) },
	[UK_CTL_RESET]  = { "reset", true,
			    offsetof(struct uk_ctl_ops, reset) },
	[UK_CTL_RELOAD] = { "reload", true,
			    offsetof(struct uk_ctl_ops, reload) },
	[UK_CTL_METRICS] = { "metrics", false,
			     offsetof(struct uk_ctl_ops, metrics) },
};


const char *uk_ctl_cmd_name(enum uk_ctl_cmd cmd)
{
	if ((unsigned int)cmd >= _UK_CTL_CMD_MAX)
		return NULL;
	return cmds[cmd].name;
}

int uk_ctl_cmd_from_name(const char *name, enum uk_ctl_cmd *ret)
{
	unsigned int i;

	for (i = 0; i < _UK_CTL_CMD_MAX; i++)
		if (!strcmp(cmds[i].name, name)) {
			*ret = i;
			return 0;
		}
	return -EINVAL;
}

int uk_ctl_check_permission(enum uk_ctl_cmd cmd, const struct uk_peer *peer)
{
	if ((unsigned int)cmd >= _UK_CTL_CMD_MAX)
		return -EINVAL;
	if (!cmds[cmd].root)
		return 0;
	return peer && peer->uid == 0 ? 0 : -EPERM;
}

void uk_ctl_reply_free(char *reply)
{
	if (reply != oom_reply)
		free(reply);
}

void uk_ctl_error_reply(int error, const char *cmd, const char *message,
			char **reply, size_t *reply_len)
{
	struct uk_json j;

	if (error >= 0)
		error = -EIO;
	if (!message || !*message)
		message = strerror(-error);
	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_json_kv_bool(&j, "ok", false);
	if (cmd)
		uk_json_kv_str(&j, "cmd", cmd);
	uk_json_kv_u64(&j, "version", UK_CTL_VERSION);
	uk_json_kv_str(&j, "error", message);
	uk_json_kv_s64(&j, "errno", -error);
	uk_json_object_end(&j);
	uk_json_newline(&j);
	if (uk_json_finish(&j, reply, reply_len) < 0) {
		*reply = (char *)oom_reply;
		*reply_len = sizeof(oom_reply) - 1;
	}
}

/* Fills @r from the request object; an error message in @err. */
static int parse_request(const struct uk_json_value *req,
			 struct uk_ctl_request *r, char *err, size_t errlen)
{
	const struct uk_json_value *v;
	const char *s;
	uint64_t version;
	int ret;

	if (uk_json_type(req) != UK_JSON_OBJECT) {
		snprintf(err, errlen, "the request must be a JSON object");
		return -EINVAL;
	}

	v = uk_json_object_get(req, "version");
	if (v) {
		ret = uk_json_get_u64(v, &version);
		if (ret < 0) {
			snprintf(err, errlen,
				 "\"version\" must be a non-negative integer");
			return -EINVAL;
		}
		if (version != UK_CTL_VERSION) {
			snprintf(err, errlen, "unsupported protocol version "
				 "%llu (this uaccessd speaks %d)",
				 (unsigned long long)version, UK_CTL_VERSION);
			return -EPROTONOSUPPORT;
		}
	}

	ret = uk_json_get_str(uk_json_object_get(req, "cmd"), &s);
	if (ret == -ENOENT) {
		snprintf(err, errlen, "missing \"cmd\"");
		return -EINVAL;
	}
	if (ret < 0) {
		snprintf(err, errlen, "\"cmd\" must be a string");
		return -EINVAL;
	}
	if (uk_ctl_cmd_from_name(s, &r->cmd) < 0) {
		snprintf(err, errlen, "unknown command \"%.64s\"", s);
		return -EOPNOTSUPP;
	}
	if (r->cmd != UK_CTL_SITES)
		return 0;

	r->limit = 0;
	v = uk_json_object_get(req, "limit");
	if (v && uk_json_get_u64(v, &r->limit) < 0) {
		snprintf(err, errlen,
			 "\"limit\" must be a non-negative integer");
		return -EINVAL;
	}
	r->sort = UK_SORT_COUNT;
	v = uk_json_object_get(req, "sort");
	if (v && (uk_json_get_str(v, &s) < 0 ||
		  uk_sort_parse(s, &r->sort) < 0)) {
		snprintf(err, errlen, "\"sort\" must be one of "
			 "\"count\", \"last\", \"name\"");
		return -EINVAL;
	}
	return 0;
}

/* Runs the handler; the full reply line in *reply, or an errno + @err. */
static int run(const struct uk_ctl_ops *ops, void *ctx,
	       const struct uk_ctl_request *r, char **reply,
	       size_t *reply_len, char *err, size_t errlen)
{
	uk_ctl_handler_t handler;
	struct uk_json j;
	int ret;

	memcpy(&handler, (const char *)ops + cmds[r->cmd].handler,
	       sizeof(handler));
	if (!handler) {
		snprintf(err, errlen,
			 "\"%s\" is not supported by this uaccessd",
			 cmds[r->cmd].name);
		return -EOPNOTSUPP;
	}

	uk_json_init(&j, UK_CTL_REPLY_MAX);
	uk_json_object_begin(&j);
	uk_json_kv_bool(&j, "ok", true);
	uk_json_kv_str(&j, "cmd", cmds[r->cmd].name);
	uk_json_kv_u64(&j, "version", UK_CTL_VERSION);
	err[0] = '\0';
	ret = handler(ctx, r, &j, err, errlen);
	if (ret < 0) {
		uk_json_release(&j);
		return ret;
	}
	uk_json_object_end(&j);
	uk_json_newline(&j);
	ret = uk_json_finish(&j, reply, reply_len);
	if (ret == -E2BIG) {
		snprintf(err, errlen, "reply larger than %u bytes",
			 UK_CTL_REPLY_MAX);
	} else if (ret == -EINVAL) {
		snprintf(err, errlen,
			 "internal error: malformed reply payload");
		ret = -EIO;
	} else if (ret < 0) {
		err[0] = '\0';
	}
	return ret;
}

int uk_ctl_parse(const struct uk_peer *peer, const char *req, size_t len,
		 struct uk_ctl_request *r, char *err, size_t errlen)
{
	struct uk_json_value *v = NULL;
	char perr[256];
	int ret;

	*r = (struct uk_ctl_request){ .peer = peer, .cmd = _UK_CTL_CMD_MAX };
	err[0] = '\0';
	if (len && req[len - 1] == '\n')
		len--;
	if (len >= UK_CTL_REQUEST_MAX) {
		snprintf(err, errlen, "request larger than %d bytes",
			 UK_CTL_REQUEST_MAX);
		return -EMSGSIZE;
	}
	if (len && memchr(req, '\n', len)) {
		snprintf(err, errlen, "the request must be one line");
		return -EINVAL;
	}
	ret = uk_json_parse(req, len, &v, perr, sizeof(perr));
	if (ret < 0) {
		if (ret == -EINVAL)
			snprintf(err, errlen, "invalid JSON: %s", perr);
		return ret;
	}
	ret = parse_request(v, r, err, errlen);
	uk_json_value_free(v);
	if (ret < 0)
		return ret;
	ret = uk_ctl_check_permission(r->cmd, peer);
	if (ret < 0)
		snprintf(err, errlen, "permission denied: %s needs root",
			 uk_ctl_cmd_name(r->cmd));
	return ret;
}

int uk_ctl_run(const struct uk_ctl_ops *ops, void *ctx,
	       const struct uk_ctl_request *r, char **reply,
	       size_t *reply_len)
{
	char err[512] = "";
	int ret;

	ret = run(ops, ctx, r, reply, reply_len, err, sizeof(err));
	if (ret < 0)
		uk_ctl_error_reply(ret, uk_ctl_cmd_name(r->cmd), err, reply,
				   reply_len);
	return ret;
}

int uk_ctl_handle(const struct uk_ctl_ops *ops, void *ctx,
		  const struct uk_peer *peer, const char *req, size_t len,
		  char **reply, size_t *reply_len)
{
	struct uk_ctl_request r;
	char err[512];
	int ret;

	ret = uk_ctl_parse(peer, req, len, &r, err, sizeof(err));
	if (ret == 0)
		return uk_ctl_run(ops, ctx, &r, reply, reply_len);
	/* r.cmd is set once the command is known: echo it then. */
	uk_ctl_error_reply(ret, uk_ctl_cmd_name(r.cmd), err, reply,
			   reply_len);
	return ret;
}
