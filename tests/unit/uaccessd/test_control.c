// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol (daemon/common/control.c) and the control socket
 * (daemon/uaccessd/control_server.c).
 *
 * The protocol tests call uk_ctl_handle() with made-up peers.  The socket
 * tests run a real server on an sd-event loop in this thread and talk to
 * it from client threads (or a forked child that drops root), driving the
 * loop until the client is done.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/control.h"
#include "common/control_client.h"
#include "uaccessd/control_server.h"
#include "common/json.h"
#include "common/util.h"

/* ---- dummy daemon state behind the handlers ---- */

struct dummy {
	atomic_int calls[_UK_CTL_CMD_MAX];	/* a flag for run_until() */
	struct uk_ctl_request last;
	struct uk_peer last_peer;
	int fail;			/* handlers return this if < 0 */
	const char *fail_msg;
	bool malformed;			/* leave an array open */
	size_t big;			/* sites: this many entries */
	size_t big_mib;			/* status: this many MiB of text */
	unsigned int slow_ms;		/* sites: take this long */
};

static int record(struct dummy *d, const struct uk_ctl_request *req,
		  struct uk_json *j, char *err, size_t errlen)
{
	d->calls[req->cmd]++;
	d->last = *req;
	if (req->peer)
		d->last_peer = *req->peer;
	if (d->fail < 0) {
		/* written before failing: must not reach the reply */
		uk_json_kv_str(j, "partial", "yes");
		if (d->fail_msg)
			snprintf(err, errlen, "%s", d->fail_msg);
		return d->fail;
	}
	if (d->malformed) {
		uk_json_key(j, "open");
		uk_json_array_begin(j);
	}
	return 0;
}

static int dummy_status(void *ctx, const struct uk_ctl_request *req,
			struct uk_json *j, char *err, size_t errlen)
{
	struct dummy *d = ctx;
	char *chunk;
	size_t i;
	int r;

	r = record(d, req, j, err, errlen);
	if (r < 0)
		return r;
	uk_json_kv_u64(j, "uptime", 42);
	uk_json_kv_str(j, "state", "running");
	if (d->big_mib) {
		chunk = malloc(1 << 20);
		if (!chunk)
			return -ENOMEM;
		memset(chunk, 'x', 1 << 20);
		uk_json_key(j, "blob");
		uk_json_array_begin(j);
		for (i = 0; i < d->big_mib; i++)
			uk_json_strn(j, chunk, 1 << 20);
		uk_json_array_end(j);
		free(chunk);
	}
	return 0;
}

static int dummy_sites(void *ctx, const struct uk_ctl_request *req,
		       struct uk_json *j, char *err, size_t errlen)
{
	struct dummy *d = ctx;
	char name[200];
	size_t i, n;
	int r;

	r = record(d, req, j, err, errlen);
	if (r < 0)
		return r;
	if (d->slow_ms)
		usleep(d->slow_ms * 1000);
	n = d->big ? d->big : 3;
	if (req->limit && req->limit < n)
		n = req->limit;
	uk_json_key(j, "sites");
	uk_json_array_begin(j);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "site_%zu_%0150zu", i, i * 31);
		uk_json_object_begin(j);
		uk_json_kv_u64(j, "i", i);
		uk_json_kv_str(j, "name", name);
		uk_json_object_end(j);
	}
	uk_json_array_end(j);
	return 0;
}

static int dummy_admin(void *ctx, const struct uk_ctl_request *req,
		       struct uk_json *j, char *err, size_t errlen)
{
	int r = record(ctx, req, j, err, errlen);

	if (r == 0)
		uk_json_kv_bool(j, "done", true);
	return r;
}

static const struct uk_ctl_ops dummy_ops = {
	.status = dummy_status,
	.sites = dummy_sites,
	.reset = dummy_admin,
	.reload = dummy_admin,
};

static const struct uk_peer root = { .pid = 1, .uid = 0, .gid = 0 };
static const struct uk_peer user = { .pid = 1234, .uid = 1000, .gid = 1000 };

/* A reply must be exactly one line holding one JSON object. */
static struct uk_json_value *parse_reply(const char *reply, size_t len)
{
	struct uk_json_value *v = NULL;
	char err[128];

	assert_true(len > 0);
	assert_int_equal(reply[len - 1], '\n');
	assert_null(memchr(reply, '\n', len - 1));
	if (uk_json_parse(reply, len, &v, err, sizeof(err)) < 0)
		fail_msg("reply is not JSON (%s): %.*s", err, (int)len, reply);
	assert_int_equal(uk_json_type(v), UK_JSON_OBJECT);
	return v;
}

/* Handles @req and returns the parsed reply; *ret the return value. */
static struct uk_json_value *handle_n(struct dummy *d,
				      const struct uk_ctl_ops *ops,
				      const struct uk_peer *peer,
				      const char *req, size_t n, int *ret)
{
	struct uk_json_value *v;
	char *reply;
	size_t len;

	*ret = uk_ctl_handle(ops, d, peer, req, n, &reply, &len);
	v = parse_reply(reply, len);
	uk_ctl_reply_free(reply);
	return v;
}

static struct uk_json_value *handle(struct dummy *d,
				    const struct uk_peer *peer,
				    const char *req, int *ret)
{
	return handle_n(d, &dummy_ops, peer, req, strlen(req), ret);
}

static bool get_bool(const struct uk_json_value *v, const char *key)
{
	bool b = false;

	assert_int_equal(uk_json_get_bool(uk_json_object_get(v, key), &b), 0);
	return b;
}

static uint64_t get_u64(const struct uk_json_value *v, const char *key)
{
	uint64_t u = 0;

	assert_int_equal(uk_json_get_u64(uk_json_object_get(v, key), &u), 0);
	return u;
}

static const char *get_str(const struct uk_json_value *v, const char *key)
{
	const char *s = NULL;

	assert_int_equal(uk_json_get_str(uk_json_object_get(v, key), &s), 0);
	return s;
}

/* An error reply with @errnum, "cmd" (or none) and @msg in "error". */
static void assert_error_reply(const struct uk_json_value *v, int errnum,
			       const char *cmd, const char *msg)
{
	assert_false(get_bool(v, "ok"));
	assert_int_equal(get_u64(v, "errno"), errnum);
	assert_int_equal(get_u64(v, "version"), UK_CTL_VERSION);
	if (cmd)
		assert_string_equal(get_str(v, "cmd"), cmd);
	else
		assert_null(uk_json_object_get(v, "cmd"));
	if (msg && !strstr(get_str(v, "error"), msg))
		fail_msg("expected \"%s\" in \"%s\"", msg, get_str(v, "error"));
}

static void expect_error(const char *req, size_t n, int errnum,
			 const char *cmd, const char *msg)
{
	struct dummy d = { 0 };
	struct uk_json_value *v;
	int r, i;

	v = handle_n(&d, &dummy_ops, &root, req, n, &r);
	assert_int_equal(r, -errnum);
	assert_error_reply(v, errnum, cmd, msg);
	uk_json_value_free(v);
	for (i = 0; i < _UK_CTL_CMD_MAX; i++)
		assert_int_equal(d.calls[i], 0);
}

static void expect_error_str(const char *req, int errnum, const char *cmd,
			     const char *msg)
{
	expect_error(req, strlen(req), errnum, cmd, msg);
}

/* ---- protocol ---- */

static void status_is_allowed_for_unprivileged_peer(void **state)
{
	struct dummy d = { 0 };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &user, "{\"cmd\":\"status\"}\n", &r);
	assert_int_equal(r, 0);
	assert_true(get_bool(v, "ok"));
	assert_string_equal(get_str(v, "cmd"), "status");
	assert_int_equal(get_u64(v, "version"), 1);
	assert_int_equal(get_u64(v, "uptime"), 42);
	assert_string_equal(get_str(v, "state"), "running");
	assert_null(uk_json_object_get(v, "error"));
	assert_int_equal(d.calls[UK_CTL_STATUS], 1);
	assert_int_equal(d.last_peer.uid, 1000);
	assert_int_equal(d.last_peer.pid, 1234);
	uk_json_value_free(v);
}

static void sites_passes_limit_and_sort(void **state)
{
	static const struct {
		const char *req;
		uint64_t limit;
		enum uk_sort sort;
		size_t n;
	} cases[] = {
		{ "{\"cmd\":\"sites\"}", 0, UK_SORT_COUNT, 3 },
		{ "{\"cmd\":\"sites\",\"limit\":2,\"sort\":\"last\"}", 2,
		  UK_SORT_LAST, 2 },
		{ "{\"sort\":\"name\",\"cmd\":\"sites\",\"limit\":0}", 0,
		  UK_SORT_NAME, 3 },
		{ "{\"cmd\":\"sites\",\"sort\":\"count\",\"limit\":"
		  "18446744073709551615}", UINT64_MAX, UK_SORT_COUNT, 3 },
	};
	struct uk_json_value *v;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct dummy d = { 0 };

		v = handle(&d, &user, cases[i].req, &r);
		assert_int_equal(r, 0);
		assert_int_equal(d.calls[UK_CTL_SITES], 1);
		assert_true(d.last.limit == cases[i].limit);
		assert_int_equal(d.last.sort, cases[i].sort);
		assert_int_equal(uk_json_array_len(uk_json_object_get(v,
				 "sites")), cases[i].n);
		uk_json_value_free(v);
	}
}

static void reset_and_reload_are_denied_to_non_root(void **state)
{
	static const char *const reqs[] = {
		"{\"cmd\":\"reset\"}", "{\"cmd\":\"reload\"}",
	};
	struct uk_json_value *v;
	char msg[64];
	size_t i;
	int r;

	for (i = 0; i < 2; i++) {
		struct dummy d = { 0 };
		const char *cmd = i ? "reload" : "reset";

		snprintf(msg, sizeof(msg), "permission denied: %s needs root",
			 cmd);
		v = handle(&d, &user, reqs[i], &r);
		assert_int_equal(r, -EPERM);
		assert_error_reply(v, EPERM, cmd, msg);
		assert_string_equal(get_str(v, "error"), msg);
		assert_int_equal(d.calls[UK_CTL_RESET], 0);
		assert_int_equal(d.calls[UK_CTL_RELOAD], 0);
		uk_json_value_free(v);

		/* unknown peer: not root either */
		v = handle(&d, NULL, reqs[i], &r);
		assert_int_equal(r, -EPERM);
		uk_json_value_free(v);
	}
}

static void reset_and_reload_are_allowed_to_root(void **state)
{
	struct dummy d = { 0 };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &root, "{\"cmd\":\"reset\",\"version\":1}", &r);
	assert_int_equal(r, 0);
	assert_true(get_bool(v, "done"));
	assert_string_equal(get_str(v, "cmd"), "reset");
	uk_json_value_free(v);
	v = handle(&d, &root, "{\"cmd\":\"reload\"}", &r);
	assert_int_equal(r, 0);
	uk_json_value_free(v);
	assert_int_equal(d.calls[UK_CTL_RESET], 1);
	assert_int_equal(d.calls[UK_CTL_RELOAD], 1);
}

static void permission_table_is_root_only_for_admin_commands(void **state)
{
	struct uk_peer gid0 = { .pid = 5, .uid = 1, .gid = 0 };

	assert_int_equal(uk_ctl_check_permission(UK_CTL_STATUS, &user), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_SITES, &user), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_METRICS, &user), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_STATUS, NULL), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_METRICS, NULL), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_RESET, &user), -EPERM);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_RELOAD, &user),
			 -EPERM);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_RESET, &gid0), -EPERM);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_RESET, &root), 0);
	assert_int_equal(uk_ctl_check_permission(UK_CTL_RELOAD, &root), 0);
	assert_int_equal(uk_ctl_check_permission(_UK_CTL_CMD_MAX, &root),
			 -EINVAL);
}

static void command_names_round_trip(void **state)
{
	enum uk_ctl_cmd c;
	int i;

	for (i = 0; i < _UK_CTL_CMD_MAX; i++) {
		assert_non_null(uk_ctl_cmd_name(i));
		assert_int_equal(uk_ctl_cmd_from_name(uk_ctl_cmd_name(i), &c),
				 0);
		assert_int_equal(c, i);
	}
	assert_null(uk_ctl_cmd_name(_UK_CTL_CMD_MAX));
	assert_int_equal(uk_ctl_cmd_from_name("Status", &c), -EINVAL);
}

static void version_other_than_1_is_refused(void **state)
{
	expect_error_str("{\"cmd\":\"status\",\"version\":2}",
			 EPROTONOSUPPORT, NULL,
			 "unsupported protocol version 2");
	expect_error_str("{\"cmd\":\"status\",\"version\":0}",
			 EPROTONOSUPPORT, NULL, "version 0");
	expect_error_str("{\"cmd\":\"status\",\"version\":\"1\"}", EINVAL,
			 NULL, "\"version\" must be a non-negative integer");
	expect_error_str("{\"cmd\":\"status\",\"version\":1.0}", EINVAL,
			 NULL, "\"version\"");
	expect_error_str("{\"cmd\":\"status\",\"version\":-1}", EINVAL,
			 NULL, "\"version\"");
	expect_error_str("{\"cmd\":\"status\",\"version\":null}", EINVAL,
			 NULL, "\"version\"");
}

static void unknown_or_mistyped_command_is_refused(void **state)
{
	const char *reqs[] = {
		"{\"cmd\":5}", "{\"cmd\":null}", "{\"cmd\":[\"status\"]}",
		"{\"cmd\":\"sta\\u0000tus\"}",
	};
	size_t i;

	expect_error_str("{\"cmd\":\"explode\"}", EOPNOTSUPP, NULL,
			 "unknown command \"explode\"");
	expect_error_str("{\"cmd\":\"STATUS\"}", EOPNOTSUPP, NULL, NULL);
	expect_error_str("{\"cmd\":\"\"}", EOPNOTSUPP, NULL, NULL);
	expect_error_str("{}", EINVAL, NULL, "missing \"cmd\"");
	expect_error_str("{\"command\":\"status\"}", EINVAL, NULL,
			 "missing \"cmd\"");
	for (i = 0; i < ARRAY_SIZE(reqs); i++)
		expect_error(reqs[i], strlen(reqs[i]), EINVAL, NULL,
			     "\"cmd\" must be a string");
}

static void unknown_keys_are_ignored(void **state)
{
	struct dummy d = { 0 };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &user, "{\"cmd\":\"status\",\"future\":{\"x\":[1]},"
		   "\"verbose\":true}", &r);
	assert_int_equal(r, 0);
	uk_json_value_free(v);
	/* keys of another command are not checked either */
	v = handle(&d, &user, "{\"cmd\":\"status\",\"limit\":\"x\"}", &r);
	assert_int_equal(r, 0);
	uk_json_value_free(v);
	assert_int_equal(d.calls[UK_CTL_STATUS], 2);
}

static void known_keys_of_wrong_type_are_refused(void **state)
{
	static const struct {
		const char *req;
		const char *msg;
	} cases[] = {
		{ "{\"cmd\":\"sites\",\"limit\":\"20\"}", "\"limit\" must be" },
		{ "{\"cmd\":\"sites\",\"limit\":-1}", "\"limit\" must be" },
		{ "{\"cmd\":\"sites\",\"limit\":1.5}", "\"limit\" must be" },
		{ "{\"cmd\":\"sites\",\"limit\":true}", "\"limit\" must be" },
		{ "{\"cmd\":\"sites\",\"limit\":1e2}", "\"limit\" must be" },
		{ "{\"cmd\":\"sites\",\"sort\":5}", "\"sort\" must be one of" },
		{ "{\"cmd\":\"sites\",\"sort\":\"size\"}",
		  "\"sort\" must be one of" },
		{ "{\"cmd\":\"sites\",\"sort\":\"\"}", "\"sort\" must be one of" },
		{ "{\"cmd\":\"sites\",\"sort\":null}", "\"sort\" must be one of" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect_error(cases[i].req, strlen(cases[i].req), EINVAL,
			     "sites", cases[i].msg);
}

static void garbage_gets_a_well_formed_error_reply(void **state)
{
	static const struct {
		const char *req;
		size_t len;
		const char *msg;
	} cases[] = {
		{ "", 0, "invalid JSON: offset 0: unexpected end of data" },
		{ "\n", 1, "invalid JSON: offset 0" },
		{ "garbage", 7, "invalid JSON: offset 0: unexpected character" },
		{ "{\"cmd\":\"status\"", 15, "invalid JSON: offset 15" },
		{ "{\"cmd\":\"status\"} x", 18, "trailing" },
		{ "{\"cmd\":\"status\"}{}", 18, "trailing" },
		{ "{\"cmd\":\"st\0atus\"}", 17, "offset 10: NUL byte" },
		{ "{\"cmd\":\"\xff\"}", 11, "invalid UTF-8" },
		/* json-c would clamp it: the reader refuses it */
		{ "{\"cmd\":\"sites\",\"limit\":99999999999999999999}", 44,
		  "offset 23: integer out of the 64-bit range" },
		{ "[\"status\"]", 10, "must be a JSON object" },
		{ "\"status\"", 8, "must be a JSON object" },
		{ "null", 4, "must be a JSON object" },
		{ "{\"cmd\":\n\"status\"}", 17, "must be one line" },
		{ "\x01\x02\x03\"\\", 5, "invalid JSON" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect_error(cases[i].req, cases[i].len, EINVAL, NULL,
			     cases[i].msg);
}

/*
 * What any local user may send costs at most one bounded parse: a request
 * nested past the reader's limit is refused with an error reply, not
 * parsed deeper.
 */
static void request_nested_too_deep_gets_an_error_reply(void **state)
{
	char req[UK_CTL_REQUEST_MAX];
	size_t n = 0, i;

	n += snprintf(req, sizeof(req), "{\"cmd\":");
	for (i = 0; i < UK_JSON_PARSE_DEPTH; i++)
		req[n++] = '[';
	for (i = 0; i < UK_JSON_PARSE_DEPTH; i++)
		req[n++] = ']';
	req[n++] = '}';
	expect_error(req, n, EINVAL, NULL, "nesting too deep");
}

static void unknown_command_with_odd_bytes_still_gives_valid_json(void **state)
{
	/* quotes, control characters and a long name in the message */
	char req[600];

	snprintf(req, sizeof(req), "{\"cmd\":\"a\\\"b\\u0001\\u00e9%0400d\"}",
		 0);
	expect_error(req, strlen(req), EOPNOTSUPP, NULL, "unknown command");
}

static void request_of_4096_bytes_with_newline_is_the_limit(void **state)
{
	char req[UK_CTL_REQUEST_MAX + 1];
	struct dummy d = { 0 };
	struct uk_json_value *v;
	const char *body = "{\"cmd\":\"status\"}";
	int r;

	/* 4095 bytes of JSON (padded with spaces) + '\n': accepted */
	memset(req, ' ', sizeof(req));
	memcpy(req, body, strlen(body));
	req[UK_CTL_REQUEST_MAX - 1] = '\n';
	v = handle_n(&d, &dummy_ops, &user, req, UK_CTL_REQUEST_MAX, &r);
	assert_int_equal(r, 0);
	uk_json_value_free(v);

	/* the same 4096 bytes with a space for the newline: too large */
	req[UK_CTL_REQUEST_MAX - 1] = ' ';
	expect_error(req, UK_CTL_REQUEST_MAX, EMSGSIZE, NULL,
		     "request larger than 4096 bytes");
}

static void request_over_4096_bytes_is_refused(void **state)
{
	char req[UK_CTL_REQUEST_MAX + 2];
	const char *body = "{\"cmd\":\"status\"}";

	memset(req, ' ', sizeof(req));
	memcpy(req, body, strlen(body));
	expect_error(req, UK_CTL_REQUEST_MAX, EMSGSIZE, NULL,
		     "request larger than 4096 bytes");
	req[UK_CTL_REQUEST_MAX] = '\n';
	expect_error(req, UK_CTL_REQUEST_MAX + 1, EMSGSIZE, NULL,
		     "request larger than 4096 bytes");
}

static void handler_error_replaces_the_payload(void **state)
{
	struct dummy d = { .fail = -EBUSY, .fail_msg = "kernel busy" };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &root, "{\"cmd\":\"reset\"}", &r);
	assert_int_equal(r, -EBUSY);
	assert_error_reply(v, EBUSY, "reset", NULL);
	assert_string_equal(get_str(v, "error"), "kernel busy");
	assert_null(uk_json_object_get(v, "partial"));
	assert_int_equal(uk_json_object_len(v), 5);
	uk_json_value_free(v);

	/* without a message: strerror() */
	d.fail_msg = NULL;
	d.fail = -ENODEV;
	v = handle(&d, &user, "{\"cmd\":\"status\"}", &r);
	assert_int_equal(r, -ENODEV);
	assert_error_reply(v, ENODEV, "status", strerror(ENODEV));
	uk_json_value_free(v);
}

static void missing_handler_is_not_supported(void **state)
{
	const struct uk_ctl_ops ops = { .status = dummy_status };
	struct dummy d = { 0 };
	struct uk_json_value *v;
	const char *req = "{\"cmd\":\"reload\"}";
	int r;

	v = handle_n(&d, &ops, &root, req, strlen(req), &r);
	assert_int_equal(r, -EOPNOTSUPP);
	assert_error_reply(v, EOPNOTSUPP, "reload",
			   "\"reload\" is not supported");
	uk_json_value_free(v);
	/* permission is checked first */
	v = handle_n(&d, &ops, &user, req, strlen(req), &r);
	assert_int_equal(r, -EPERM);
	uk_json_value_free(v);
	/* an older daemon's table: no metrics, for everyone alike */
	req = "{\"cmd\":\"metrics\"}";
	v = handle_n(&d, &ops, &user, req, strlen(req), &r);
	assert_int_equal(r, -EOPNOTSUPP);
	assert_error_reply(v, EOPNOTSUPP, "metrics",
			   "\"metrics\" is not supported");
	uk_json_value_free(v);
}

static void malformed_payload_gives_internal_error(void **state)
{
	struct dummy d = { .malformed = true };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &user, "{\"cmd\":\"status\"}", &r);
	assert_int_equal(r, -EIO);
	assert_error_reply(v, EIO, "status", "internal error");
	uk_json_value_free(v);
}

static void reply_over_64mib_gives_e2big(void **state)
{
	struct dummy d = { .big_mib = 65 };
	struct uk_json_value *v;
	int r;

	v = handle(&d, &user, "{\"cmd\":\"status\"}", &r);
	assert_int_equal(r, -E2BIG);
	assert_error_reply(v, E2BIG, "status", "reply larger than");
	uk_json_value_free(v);
}

static void error_reply_without_errno_says_eio(void **state)
{
	struct uk_json_value *v;
	char *reply;
	size_t len;

	uk_ctl_error_reply(0, "status", NULL, &reply, &len);
	v = parse_reply(reply, len);
	assert_error_reply(v, EIO, "status", strerror(EIO));
	uk_json_value_free(v);
	uk_ctl_reply_free(reply);
}

/* ---- socket ---- */

struct fixture {
	sd_event *e;
	struct uk_ctl_server *srv;
	pid_t holders[4];		/* hold_connections(): killed at teardown */
	struct dummy d;
	char dir[64];
	char path[128];
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/uk-test-control-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/control", f->dir);
	if (sd_event_new(&f->e) < 0)
		return -1;
	if (uk_ctl_server_new(f->e, f->path, &dummy_ops, &f->d, &f->srv) < 0)
		return -1;
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f->holders); i++)
		if (f->holders[i]) {
			kill(f->holders[i], SIGKILL);
			waitpid(f->holders[i], NULL, 0);
		}
	uk_ctl_server_free(f->srv);
	sd_event_unref(f->e);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static int64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The server's limits with the request timeout set to @usec. */
static void set_timeout(struct fixture *f, uint64_t usec)
{
	struct uk_ctl_limits lim;

	uk_ctl_server_get_limits(f->srv, &lim);
	lim.timeout_usec = usec;
	uk_ctl_server_set_limits(f->srv, &lim);
}

/* Runs the loop until *flag is set or @max_ms pass; whether it was set. */
static bool run_until(struct fixture *f, atomic_int *flag, int max_ms)
{
	int64_t end = ms_now() + max_ms;

	while (!atomic_load(flag) && ms_now() < end)
		assert_true(sd_event_run(f->e, 10 * 1000) >= 0);
	return atomic_load(flag);
}

static bool run_until_clients(struct fixture *f, unsigned int n, int max_ms)
{
	int64_t end = ms_now() + max_ms;

	while (uk_ctl_server_clients(f->srv) != n && ms_now() < end)
		assert_true(sd_event_run(f->e, 10 * 1000) >= 0);
	return uk_ctl_server_clients(f->srv) == n;
}

/* uk_ctl_call() in a thread. */
struct call {
	const char *path;
	const char *req;
	int timeout_ms;
	int rc;
	struct uk_json_value *reply;
	atomic_int done;
	pthread_t thread;
};

static void *call_thread(void *arg)
{
	struct call *c = arg;

	c->rc = uk_ctl_call(c->path, c->req, c->timeout_ms, &c->reply, NULL,
			    0);
	atomic_store(&c->done, 1);
	return NULL;
}

static void call_start(struct call *c, const char *path, const char *req,
		       int timeout_ms)
{
	c->path = path;
	c->req = req;
	c->timeout_ms = timeout_ms;
	c->reply = NULL;
	atomic_store(&c->done, 0);
	assert_int_equal(pthread_create(&c->thread, NULL, call_thread, c), 0);
}

static void call_finish(struct fixture *f, struct call *c, int max_ms)
{
	if (!run_until(f, &c->done, max_ms))
		fail_msg("client did not finish within %d ms", max_ms);
	assert_int_equal(pthread_join(c->thread, NULL), 0);
}

/* A whole call; returns the parsed reply (rc must be 0). */
static struct uk_json_value *call(struct fixture *f, const char *req)
{
	struct uk_json_value *v;
	struct call c;

	call_start(&c, f->path, req, 5000);
	call_finish(f, &c, 10000);
	if (c.rc != 0)
		fail_msg("uk_ctl_call(%s): %d", req, c.rc);
	v = c.reply;
	return v;
}

static void fill_sun(struct sockaddr_un *sa, const char *path)
{
	assert_true(strlen(path) < sizeof(sa->sun_path));
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, strlen(path));
}

static int raw_connect(const char *path)
{
	struct sockaddr_un sa;
	int fd;

	fill_sun(&sa, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Reads until EOF (or a reset after data); NUL-terminated. */
static size_t read_all(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	ssize_t n;

	while (len < cap - 1) {
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	return len;
}

static void socket_status_round_trip(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *v;

	v = call(f, "{\"cmd\":\"status\"}");
	assert_true(get_bool(v, "ok"));
	assert_int_equal(get_u64(v, "uptime"), 42);
	uk_json_value_free(v);
	assert_true(run_until_clients(f, 0, 1000));
}

static void socket_passes_peer_credentials_to_handler(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *v;

	v = call(f, "{\"cmd\":\"sites\",\"limit\":1}\n");
	uk_json_value_free(v);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 1);
	assert_int_equal(f->d.last.limit, 1);
	assert_int_equal(f->d.last_peer.pid, getpid());
	assert_int_equal(f->d.last_peer.uid, getuid());
	assert_int_equal(f->d.last_peer.gid, getgid());
}

static void socket_is_world_writable(void **state)
{
	struct fixture *f = *state;
	struct stat st;

	assert_int_equal(stat(f->path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0666);
}

/*
 * Run as an unprivileged user in a child: status works, reset is refused
 * for lack of root.  Exit code: 0 as expected, else which step failed.
 */
static int unprivileged_child(const char *path)
{
	struct uk_json_value *v;
	uint64_t e;
	bool ok;

	if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	    setresuid(65534, 65534, 65534) < 0)
		return 10;
	if (uk_ctl_call(path, "{\"cmd\":\"status\"}", 5000, &v, NULL, 0))
		return 11;
	if (uk_json_get_bool(uk_json_object_get(v, "ok"), &ok) || !ok)
		return 12;
	uk_json_value_free(v);
	if (uk_ctl_call(path, "{\"cmd\":\"reset\"}", 5000, &v, NULL, 0))
		return 13;
	if (uk_json_get_bool(uk_json_object_get(v, "ok"), &ok) || ok ||
	    uk_json_get_u64(uk_json_object_get(v, "errno"), &e) || e != EPERM)
		return 14;
	uk_json_value_free(v);
	return 0;
}

static void socket_unprivileged_peer_gets_status_but_not_reset(void **state)
{
	struct fixture *f = *state;
	int64_t end = ms_now() + 10000;
	int status = 0;
	pid_t pid, w = 0;

	if (geteuid() != 0)
		skip();
	/* the directory must let the unprivileged user reach the socket */
	assert_int_equal(chmod(f->dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(unprivileged_child(f->path));
	while (w == 0 && ms_now() < end) {
		assert_true(sd_event_run(f->e, 10 * 1000) >= 0);
		w = waitpid(pid, &status, WNOHANG);
	}
	assert_int_equal(w, pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 1);
	assert_int_equal(f->d.calls[UK_CTL_RESET], 0);
	assert_int_equal(f->d.last_peer.uid, 65534);
	assert_int_equal(f->d.last_peer.pid, pid);
}

static void socket_reset_as_root_is_allowed(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *v;

	if (geteuid() != 0)
		skip();
	v = call(f, "{\"cmd\":\"reset\"}");
	assert_true(get_bool(v, "ok"));
	assert_true(get_bool(v, "done"));
	uk_json_value_free(v);
	assert_int_equal(f->d.calls[UK_CTL_RESET], 1);
}

static void socket_garbage_gets_error_reply(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *v;

	v = call(f, "garbage \x01\xff");
	assert_error_reply(v, EINVAL, NULL, "invalid JSON");
	uk_json_value_free(v);
}

static void socket_oversized_request_gets_error_reply(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *v;
	char *req = malloc(100000);

	assert_non_null(req);
	memset(req, 'x', 99999);
	req[99999] = '\0';
	v = call(f, req);
	assert_error_reply(v, EMSGSIZE, NULL, "request larger than 4096");
	uk_json_value_free(v);

	/* 4095 bytes and the newline are fine */
	memset(req, ' ', UK_CTL_REQUEST_MAX - 1);
	memcpy(req, "{\"cmd\":\"status\"}", 16);
	req[UK_CTL_REQUEST_MAX - 1] = '\n';
	req[UK_CTL_REQUEST_MAX] = '\0';
	v = call(f, req);
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);
	free(req);
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 1);
}

/* A raw client in a thread: sends the pieces with pauses, reads all. */
struct raw {
	const char *path;
	const char *const *pieces;
	int pause_ms;
	bool shut_wr;
	char buf[4096];
	size_t len;
	int64_t elapsed_ms;
	atomic_int done;
	pthread_t thread;
};

static void *raw_thread(void *arg)
{
	struct raw *r = arg;
	int64_t start = ms_now();
	int fd = raw_connect(r->path);
	size_t i;

	for (i = 0; r->pieces[i]; i++) {
		if (write(fd, r->pieces[i], strlen(r->pieces[i])) < 0)
			break;
		usleep(r->pause_ms * 1000);
	}
	if (r->shut_wr)
		shutdown(fd, SHUT_WR);
	r->len = read_all(fd, r->buf, sizeof(r->buf));
	r->elapsed_ms = ms_now() - start;
	close(fd);
	atomic_store(&r->done, 1);
	return NULL;
}

static void raw_run(struct fixture *f, struct raw *r, int max_ms)
{
	r->path = f->path;
	atomic_store(&r->done, 0);
	assert_int_equal(pthread_create(&r->thread, NULL, raw_thread, r), 0);
	if (!run_until(f, &r->done, max_ms))
		fail_msg("raw client did not finish within %d ms", max_ms);
	assert_int_equal(pthread_join(r->thread, NULL), 0);
}

static void socket_request_in_pieces_is_assembled(void **state)
{
	static const char *const pieces[] = {
		"{\"cm", "d\":\"sta", "tus\"", "}", "\n", NULL,
	};
	struct fixture *f = *state;
	struct uk_json_value *v;
	struct raw *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->pieces = pieces;
	r->pause_ms = 30;
	raw_run(f, r, 5000);
	v = parse_reply(r->buf, r->len);
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);
	free(r);
}

static void socket_request_may_end_at_eof(void **state)
{
	static const char *const pieces[] = { "{\"cmd\":\"status\"}", NULL };
	struct fixture *f = *state;
	struct uk_json_value *v;
	struct raw *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->pieces = pieces;
	r->shut_wr = true;
	raw_run(f, r, 5000);
	v = parse_reply(r->buf, r->len);
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);
	free(r);
}

static void socket_slow_client_is_dropped_after_timeout(void **state)
{
	static const char *const pieces[] = { "{\"cmd\"", NULL };
	struct fixture *f = *state;
	struct uk_json_value *v;
	struct raw *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	set_timeout(f, 300 * 1000);
	r->pieces = pieces;
	raw_run(f, r, 5000);
	/* told why, then closed */
	v = parse_reply(r->buf, r->len);
	assert_error_reply(v, ETIMEDOUT, NULL, "no complete request in time");
	uk_json_value_free(v);
	assert_in_range(r->elapsed_ms, 290, 2000);
	assert_int_equal(uk_ctl_server_clients(f->srv), 0);
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 0);
	free(r);
}

static void socket_client_that_never_reads_is_dropped(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"sites\"}\n";
	int64_t start;
	char buf[65536];
	size_t total = 0;
	ssize_t n;
	int fd;

	f->d.big = 50000;		/* about 9 MB */
	f->d.slow_ms = 400;		/* longer than the timeout */
	set_timeout(f, 300 * 1000);
	start = ms_now();
	fd = raw_connect(f->path);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	/* the reply is stuck in the socket: still connected */
	assert_true(run_until(f, &f->d.calls[UK_CTL_SITES], 10000));
	assert_int_equal(uk_ctl_server_clients(f->srv), 1);
	assert_true(run_until_clients(f, 0, 10000));
	/* a whole timeout after the slow reply was built, not at once */
	assert_true(ms_now() - start >= 400 + 300);
	/* what had fit in the socket is there, then the end */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	assert_true(total > 0);
	assert_true(total < 9000000);
	close(fd);
}

static void socket_slow_reader_of_big_reply_is_kept(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"sites\"}\n";
	struct uk_json_value *v;
	atomic_int never = 0;
	int64_t start;
	size_t total = 0, cap = 4 << 20;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	assert_non_null(buf);
	f->d.big = 8000;		/* about 1.4 MB */
	set_timeout(f, 250 * 1000);
	fd = raw_connect(f->path);
	assert_int_equal(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	/* 128 KiB every 100 ms: longer in total than the timeout */
	start = ms_now();
	for (;;) {
		run_until(f, &never, 100);
		n = read(fd, buf + total, cap - total < 131072 ?
			 cap - total : 131072);
		if (n == 0)
			break;
		if (n < 0) {
			assert_int_equal(errno, EAGAIN);
			continue;
		}
		total += n;
		assert_true(ms_now() - start < 20000);
	}
	assert_true(ms_now() - start > 500);
	v = parse_reply(buf, total);
	assert_int_equal(uk_json_array_len(uk_json_object_get(v, "sites")),
			 8000);
	uk_json_value_free(v);
	close(fd);
	free(buf);
}

static void socket_multi_megabyte_reply_arrives_intact(void **state)
{
	struct fixture *f = *state;
	const struct uk_json_value *sites, *s;
	struct uk_json_value *v;
	char want[200];
	const char *name;
	uint64_t idx;
	struct call c;
	size_t i;

	f->d.big = 25000;		/* about 4.5 MB */
	call_start(&c, f->path, "{\"cmd\":\"sites\",\"sort\":\"name\"}",
		   20000);
	call_finish(f, &c, 30000);
	assert_int_equal(c.rc, 0);
	v = c.reply;
	sites = uk_json_object_get(v, "sites");
	assert_int_equal(uk_json_array_len(sites), 25000);
	for (i = 0; i < 25000; i++) {
		s = uk_json_array_at(sites, i);
		assert_int_equal(uk_json_get_u64(uk_json_object_get(s, "i"),
						 &idx), 0);
		assert_int_equal(idx, i);
		assert_int_equal(uk_json_get_str(uk_json_object_get(s, "name"),
						 &name), 0);
		snprintf(want, sizeof(want), "site_%zu_%0150zu", i, i * 31);
		assert_string_equal(name, want);
	}
	uk_json_value_free(v);
	assert_int_equal(f->d.last.sort, UK_SORT_NAME);
}

static void socket_serves_many_concurrent_clients(void **state)
{
	struct fixture *f = *state;
	struct call *c = calloc(60, sizeof(*c));
	struct uk_ctl_limits lim;
	struct uk_json_value *v;
	int i;

	assert_non_null(c);
	/* as root or not: this one is about connections at once */
	uk_ctl_server_get_limits(f->srv, &lim);
	lim.max_per_uid = 64;
	lim.root_reserved = 0;
	lim.builds_per_sec = 0;
	lim.share_usec = 0;
	uk_ctl_server_set_limits(f->srv, &lim);
	for (i = 0; i < 60; i++)
		call_start(&c[i], f->path, i % 2 ? "{\"cmd\":\"status\"}" :
			   "{\"cmd\":\"sites\",\"limit\":2}", 10000);
	for (i = 0; i < 60; i++) {
		call_finish(f, &c[i], 15000);
		assert_int_equal(c[i].rc, 0);
		v = c[i].reply;
		assert_true(get_bool(v, "ok"));
		assert_string_equal(get_str(v, "cmd"),
				    i % 2 ? "status" : "sites");
		uk_json_value_free(v);
	}
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 30);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 30);
	assert_true(run_until_clients(f, 0, 1000));
	free(c);
}

static void socket_refuses_clients_over_the_limit(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"status\"}\n";
	struct uk_ctl_limits lim;
	struct uk_json_value *v;
	char buf[512];
	int fd[4], i;
	struct call c;

	uk_ctl_server_get_limits(f->srv, &lim);
	lim.max_clients = 4;
	uk_ctl_server_set_limits(f->srv, &lim);
	for (i = 0; i < 4; i++)
		fd[i] = raw_connect(f->path);
	assert_true(run_until_clients(f, 4, 2000));

	/* the fifth is told to come back later */
	call_start(&c, f->path, req, 5000);
	call_finish(f, &c, 10000);
	assert_int_equal(c.rc, 0);
	v = c.reply;
	assert_error_reply(v, EBUSY, NULL, "too many clients (4)");
	uk_json_value_free(v);
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 0);

	/* the four are still served */
	for (i = 0; i < 4; i++)
		assert_int_equal(write(fd[i], req, strlen(req)),
				 (ssize_t)strlen(req));
	assert_true(run_until_clients(f, 0, 3000));
	for (i = 0; i < 4; i++) {
		v = parse_reply(buf, read_all(fd[i], buf, sizeof(buf)));
		assert_true(get_bool(v, "ok"));
		uk_json_value_free(v);
		close(fd[i]);
	}
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 4);
}

/* ---- what peers other than root can make uaccessd do ---- */

/*
 * Runs @fn(@arg, @path) in a child as @uid (gid the same, no groups)
 * while the loop serves; the child's exit code (0: as expected).
 */
static int as_uid_in(struct fixture *f, uid_t uid, int ngroups,
		     const gid_t *groups,
		     int (*fn)(const char *path, void *arg), void *arg,
		     int max_ms)
{
	int64_t end = ms_now() + max_ms;
	int status = 0;
	pid_t pid, w = 0;

	assert_int_equal(chmod(f->dir, 0755), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgroups(ngroups, groups) < 0 ||
		    setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(100);
		_exit(fn(f->path, arg));
	}
	while (w == 0 && ms_now() < end) {
		assert_true(sd_event_run(f->e, 10 * 1000) >= 0);
		w = waitpid(pid, &status, WNOHANG);
	}
	if (w == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		fail_msg("the child of uid %u did not finish in %d ms",
			 (unsigned int)uid, max_ms);
	}
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The same without supplementary groups. */
static int as_uid(struct fixture *f, uid_t uid,
		  int (*fn)(const char *path, void *arg), void *arg,
		  int max_ms)
{
	return as_uid_in(f, uid, 0, NULL, fn, arg, max_ms);
}

/* errno of the reply (0 for "ok":true), -1 if none came. */
static int reply_errno(struct uk_json_value *v)
{
	uint64_t e = 0;
	bool ok = false;

	if (!v || uk_json_get_bool(uk_json_object_get(v, "ok"), &ok))
		return -1;
	if (!ok && uk_json_get_u64(uk_json_object_get(v, "errno"), &e))
		return -1;
	return ok ? 0 : (int)e;
}

static int call_errno(const char *path, const char *req)
{
	struct uk_json_value *v = NULL;
	int r;

	if (uk_ctl_call(path, req, 20000, &v, NULL, 0) < 0)
		return -1;
	r = reply_errno(v);
	uk_json_value_free(v);
	return r;
}

/* The first byte of a reply on a raw connection, without the request. */
static int raw_errno(int fd)
{
	struct uk_json_value *v;
	char buf[512];
	size_t n;
	int r;

	n = read_all(fd, buf, sizeof(buf));
	if (uk_json_parse(buf, n ? n - 1 : 0, &v, NULL, 0) < 0)
		return -1;
	r = reply_errno(v);
	uk_json_value_free(v);
	return r;
}

/*
 * What a user other than root can make of the socket by default, as
 * docs/control-protocol.md gives it: a connection lives 60 s at most, 5 s
 * for the request and per piece of the reply; 4 connections of a uid, 8
 * of 64 kept for root; 4 builds a second (burst 4), shared for 1 s,
 * refused while 32 MiB of replies are held.
 */
static void socket_default_limits_are_the_documented_ones(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_limits l;

	uk_ctl_server_get_limits(f->srv, &l);
	assert_int_equal(l.deadline_usec, 60 * UK_USEC_PER_SEC);
	assert_int_equal(l.timeout_usec, 5 * UK_USEC_PER_SEC);
	assert_int_equal(l.max_per_uid, 4);
	assert_int_equal(l.max_clients, 64);
	assert_int_equal(l.root_reserved, 8);
	assert_int_equal(l.builds_per_sec, 4);
	assert_int_equal(l.builds_burst, 4);
	assert_int_equal(l.share_usec, UK_USEC_PER_SEC);
	assert_int_equal(l.busy_bytes, 32u << 20);
}

/* A child of @uid holding @n connections open until it is killed. */
static pid_t hold_connections(struct fixture *f, uid_t uid, int n)
{
	pid_t pid;
	int i;

	assert_int_equal(chmod(f->dir, 0755), 0);
	fflush(NULL);
	for (i = 0; f->holders[i]; i++)
		assert_true(i + 1 < (int)ARRAY_SIZE(f->holders));
	pid = fork();
	assert_true(pid >= 0);
	if (pid) {
		f->holders[i] = pid;
		return pid;
	}
	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		_exit(100);
	for (i = 0; i < n; i++)
		raw_connect(f->path);
	for (;;)
		pause();
}

static void release(struct fixture *f, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f->holders); i++)
		if (f->holders[i] == pid)
			f->holders[i] = 0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Serves until @clients are open and @refused were refused. */
static bool run_until_held(struct fixture *f, unsigned int clients,
			   uint64_t refused)
{
	int64_t end = ms_now() + 10000;
	struct uk_ctl_stats st;

	do {
		assert_true(sd_event_run(f->e, 10 * 1000) >= 0);
		uk_ctl_server_stats(f->srv, &st);
		if (uk_ctl_server_clients(f->srv) == clients &&
		    st.refused == refused)
			return true;
	} while (ms_now() < end);
	printf("# %u clients, %llu refused\n", uk_ctl_server_clients(f->srv),
	       (unsigned long long)st.refused);
	return false;
}

static void socket_caps_the_connections_of_each_uid(void **state)
{
	struct fixture *f = *state;
	pid_t pid;
	int fd[6], i;

	if (geteuid() != 0)
		skip();
	/* uid 65534 may hold 4: the fifth and sixth are refused */
	pid = hold_connections(f, 65534, 6);
	assert_true(run_until_held(f, 4, 2));
	/* root is not counted per uid */
	for (i = 0; i < 6; i++)
		fd[i] = raw_connect(f->path);
	assert_true(run_until_held(f, 10, 2));
	release(f, pid);
	assert_true(run_until_held(f, 6, 2));
	for (i = 0; i < 6; i++)
		close(fd[i]);
}

static void socket_keeps_connections_for_root(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_limits lim;
	pid_t a, b;
	int fd[3], i;

	if (geteuid() != 0)
		skip();
	uk_ctl_server_get_limits(f->srv, &lim);
	lim.max_clients = 6;
	lim.root_reserved = 2;
	uk_ctl_server_set_limits(f->srv, &lim);
	a = hold_connections(f, 65534, 4);
	assert_true(run_until_held(f, 4, 0));
	/* the others have 4 of 6: the last two are root's */
	b = hold_connections(f, 65533, 1);
	assert_true(run_until_held(f, 4, 1));
	for (i = 0; i < 3; i++)
		fd[i] = raw_connect(f->path);
	/* root's third is one too many in all (root's are not counted) */
	assert_true(run_until_held(f, 6, 1));
	assert_int_equal(raw_errno(fd[2]), EBUSY);
	release(f, a);
	release(f, b);
	for (i = 0; i < 3; i++)
		close(fd[i]);
}

static int twenty_sites_calls(const char *path, void *arg)
{
	int i;

	for (i = 0; i < 20; i++)
		if (call_errno(path, "{\"cmd\":\"sites\",\"limit\":2}") != 0)
			return 1 + i;
	return 0;
}

static void socket_others_asking_the_same_share_one_reply(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_stats st;
	struct uk_json_value *v;
	int i;

	if (geteuid() != 0)
		skip();
	assert_int_equal(as_uid(f, 65534, twenty_sites_calls, NULL, 20000), 0);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 1);
	uk_ctl_server_stats(f->srv, &st);
	assert_int_equal(st.built, 1);
	assert_int_equal(st.shared, 19);
	/* root's requests are its own */
	for (i = 0; i < 3; i++) {
		v = call(f, "{\"cmd\":\"sites\",\"limit\":2}");
		uk_json_value_free(v);
	}
	assert_int_equal(f->d.calls[UK_CTL_SITES], 4);
	/* and what is shared goes after share_usec */
	assert_true(run_until_clients(f, 0, 2000));
	usleep(1100 * 1000);
	assert_int_equal(as_uid(f, 65534, twenty_sites_calls, NULL, 20000), 0);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 5);
}

static int one_sites_call(const char *path, void *arg)
{
	return call_errno(path, "{\"cmd\":\"sites\",\"limit\":2}") != 0;
}

/*
 * A journal reader's reply names tasks: it is never shared with one who
 * may not read the journal, nor the other way round.  Needs the adm group
 * (Debian has it); the server looks it up at start.
 */
static void socket_journal_readers_and_others_never_share(void **state)
{
	struct fixture *f = *state;
	struct group *adm = getgrnam("adm");
	struct uk_ctl_stats st;
	gid_t g;

	if (geteuid() != 0 || !adm)
		skip();
	g = adm->gr_gid;
	/* a member of adm first, through its supplementary group */
	assert_int_equal(as_uid_in(f, 65534, 1, &g, one_sites_call, NULL,
				   10000), 0);
	assert_true(f->d.last_peer.journal_reader);
	assert_int_equal(as_uid(f, 65534, one_sites_call, NULL, 10000), 0);
	assert_false(f->d.last_peer.journal_reader);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 2);
	/* and each shares with its own kind */
	assert_int_equal(as_uid_in(f, 65533, 1, &g, one_sites_call, NULL,
				   10000), 0);
	assert_int_equal(as_uid(f, 65533, one_sites_call, NULL, 10000), 0);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 2);
	uk_ctl_server_stats(f->srv, &st);
	assert_int_equal(st.built, 2);
	assert_int_equal(st.shared, 2);
}

static int six_different_calls(const char *path, void *arg)
{
	char req[64];
	int i;

	for (i = 1; i <= 6; i++) {
		snprintf(req, sizeof(req), "{\"cmd\":\"sites\",\"limit\":%d}", i);
		if (call_errno(path, req) != 0)
			return i;
	}
	return 0;
}

static void socket_others_wait_for_the_build_rate(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_limits lim;
	struct uk_ctl_stats st;
	int64_t start;

	if (geteuid() != 0)
		skip();
	uk_ctl_server_get_limits(f->srv, &lim);
	lim.builds_per_sec = 10;
	lim.builds_burst = 2;
	uk_ctl_server_set_limits(f->srv, &lim);
	start = ms_now();
	/* six builds at 10/s with a burst of 2: 4 waits of 100 ms at least */
	assert_int_equal(as_uid(f, 65534, six_different_calls, NULL, 20000), 0);
	assert_true(ms_now() - start >= 400);
	assert_int_equal(f->d.calls[UK_CTL_SITES], 6);
	uk_ctl_server_stats(f->srv, &st);
	assert_int_equal(st.built, 6);
	assert_int_equal(st.delayed, 4);
}

static int busy_then_ok(const char *path, void *arg)
{
	bool *held = arg;

	return call_errno(path, "{\"cmd\":\"status\"}") == (*held ? EBUSY : 0) ?
	       0 : 1;
}

static void socket_others_wait_while_replies_hold_too_much(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"sites\"}\n";
	struct uk_ctl_limits lim;
	struct uk_json_value *v;
	bool held = true;
	int fd;

	if (geteuid() != 0)
		skip();
	uk_ctl_server_get_limits(f->srv, &lim);
	lim.busy_bytes = 1u << 20;
	uk_ctl_server_set_limits(f->srv, &lim);
	/* root asks for 9 MB and does not read it */
	f->d.big = 50000;
	fd = raw_connect(f->path);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	assert_true(run_until(f, &f->d.calls[UK_CTL_SITES], 10000));
	assert_int_equal(as_uid(f, 65534, busy_then_ok, &held, 10000), 0);
	assert_int_equal(f->d.calls[UK_CTL_STATUS], 0);
	/* root still gets its answers */
	v = call(f, "{\"cmd\":\"status\"}");
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);
	close(fd);
	assert_true(run_until_clients(f, 0, 10000));
	held = false;
	assert_int_equal(as_uid(f, 65534, busy_then_ok, &held, 10000), 0);
}

/*
 * Reads a 9 MB reply 64 KiB every 50 ms: always progress (the server
 * writes again once the socket is three quarters empty), never the end
 * within the deadline.
 */
static void socket_deadline_is_not_pushed_back_by_reading(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"sites\"}\n";
	struct uk_ctl_limits lim;
	atomic_int never = 0;
	size_t total = 0;
	char buf[65536];
	int64_t start;
	ssize_t n;
	int fd;

	uk_ctl_server_get_limits(f->srv, &lim);
	lim.timeout_usec = 1000 * 1000;
	lim.deadline_usec = 1500 * 1000;
	uk_ctl_server_set_limits(f->srv, &lim);
	f->d.big = 50000;
	start = ms_now();
	fd = raw_connect(f->path);
	assert_int_equal(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	for (;;) {
		run_until(f, &never, 50);
		n = read(fd, buf, sizeof(buf));
		if (n == 0)
			break;
		if (n < 0 && errno != EAGAIN)
			break;	/* ECONNRESET: dropped with data unread */
		if (n > 0)
			total += n;
		if (ms_now() - start > 20000)
			fail_msg("still connected after %lld ms, %zu bytes read",
				 (long long)(ms_now() - start), total);
	}
	printf("# dropped after %lld ms, %zu bytes read\n",
	       (long long)(ms_now() - start), total);
	/* read at 1.3 MB/s at most, the 9 MB would take 7 s */
	assert_true(total > 0 && total < 9000000);
	assert_in_range(ms_now() - start, 1400, 6000);
	assert_int_equal(uk_ctl_server_clients(f->srv), 0);
	close(fd);
}

/* An eventfd that stays readable for @left dispatches. */
struct busy_source {
	int fd;
	int dispatched;
	int at_handler;		/* dispatched when the handler ran */
};

static int busy_io(sd_event_source *src, int fd, uint32_t revents,
		   void *userdata)
{
	struct busy_source *b = userdata;
	uint64_t one;

	if (read(fd, &one, sizeof(one)) == sizeof(one))
		b->dispatched++;
	return 0;
}

static void socket_clients_wait_for_the_other_sources(void **state)
{
	struct fixture *f = *state;
	const char *req = "{\"cmd\":\"status\"}\n";
	struct busy_source b = { 0 };
	sd_event_source *src;
	uint64_t five = 5;
	char buf[512];
	int fd;

	b.fd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	assert_true(b.fd >= 0);
	assert_int_equal(sd_event_add_io(f->e, &src, b.fd, EPOLLIN, busy_io,
					 &b), 0);
	/* a request waiting to be accepted, and five events pending */
	fd = raw_connect(f->path);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	assert_int_equal(write(b.fd, &five, sizeof(five)), sizeof(five));
	while (!atomic_load(&f->d.calls[UK_CTL_STATUS])) {
		assert_true(sd_event_run(f->e, 100 * 1000) >= 0);
		if (!atomic_load(&f->d.calls[UK_CTL_STATUS]))
			b.at_handler = b.dispatched;
	}
	assert_int_equal(b.at_handler, 5);
	assert_true(raw_errno(fd) == 0 || read_all(fd, buf, sizeof(buf)) == 0);
	close(fd);
	sd_event_source_disable_unref(src);
	close(b.fd);
}

static void socket_free_closes_clients_and_removes_the_file(void **state)
{
	struct fixture *f = *state;
	char buf[64];
	int fd;

	fd = raw_connect(f->path);
	assert_true(run_until_clients(f, 1, 2000));
	uk_ctl_server_free(f->srv);
	f->srv = NULL;
	assert_int_equal(read(fd, buf, sizeof(buf)), 0);
	close(fd);
	assert_int_equal(access(f->path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

static void client_reports_missing_socket_as_enoent(void **state)
{
	struct fixture *f = *state;
	struct uk_json_value *reply = NULL;
	char path[160];

	snprintf(path, sizeof(path), "%s/nothing-here", f->dir);
	assert_int_equal(uk_ctl_call(path, "{\"cmd\":\"status\"}", 1000,
				     &reply, NULL, 0), -ENOENT);
	assert_null(reply);
}

/* A socket file nobody listens on, like after a crash. */
static void make_stale_socket(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	fill_sun(&sa, path);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
}

static void stale_socket_is_refused_then_replaced(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_server *srv;
	struct uk_json_value *v, *reply = NULL;

	uk_ctl_server_free(f->srv);
	f->srv = NULL;
	make_stale_socket(f->path);
	assert_int_equal(uk_ctl_call(f->path, "{\"cmd\":\"status\"}", 1000,
				     &reply, NULL, 0), -ECONNREFUSED);
	assert_null(reply);
	assert_int_equal(uk_ctl_server_new(f->e, f->path, &dummy_ops, &f->d,
					   &srv), 0);
	f->srv = srv;
	v = call(f, "{\"cmd\":\"status\"}");
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);
}

static void server_does_not_replace_a_live_socket_or_a_file(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_server *srv = NULL;
	struct uk_json_value *v;
	char path[160];
	int fd;

	assert_int_equal(uk_ctl_server_new(f->e, f->path, &dummy_ops, &f->d,
					   &srv), -EADDRINUSE);
	assert_null(srv);
	/* the first one still answers */
	v = call(f, "{\"cmd\":\"status\"}");
	uk_json_value_free(v);

	snprintf(path, sizeof(path), "%s/regular", f->dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(uk_ctl_server_new(f->e, path, &dummy_ops, &f->d,
					   &srv), -EEXIST);
	assert_int_equal(access(path, F_OK), 0);
}

static void server_and_client_refuse_too_long_paths(void **state)
{
	struct fixture *f = *state;
	struct uk_ctl_server *srv;
	struct uk_json_value *reply = NULL;
	char path[300];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(uk_ctl_server_new(f->e, path, &dummy_ops, &f->d,
					   &srv), -ENAMETOOLONG);
	assert_int_equal(uk_ctl_call(path, "{}", 100, &reply, NULL, 0),
			 -ENAMETOOLONG);
}

static void server_new_fd_takes_a_listening_socket_only(void **state)
{
	struct fixture *f = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct uk_ctl_server *srv = NULL;
	struct uk_json_value *v;
	struct call c;
	int fd, pfd[2];

	/* plays the socket-activated server instead of the fixture's */
	uk_ctl_server_free(f->srv);
	f->srv = NULL;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/activated", f->dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	/* not listening yet: refused */
	assert_int_equal(uk_ctl_server_new_fd(f->e, fd, &dummy_ops, &f->d,
					      &srv), -EINVAL);
	assert_int_equal(listen(fd, 16), 0);
	assert_int_equal(uk_ctl_server_new_fd(f->e, fd, &dummy_ops, &f->d,
					      &srv), 0);
	f->srv = srv;
	call_start(&c, sa.sun_path, "{\"cmd\":\"status\"}", 5000);
	call_finish(f, &c, 10000);
	assert_int_equal(c.rc, 0);
	v = c.reply;
	assert_true(get_bool(v, "ok"));
	uk_json_value_free(v);

	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(uk_ctl_server_new_fd(f->e, pfd[0], &dummy_ops, &f->d,
					      &srv), -ENOTSOCK);
	close(pfd[0]);
	close(pfd[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_int_equal(uk_ctl_server_new_fd(f->e, fd, &dummy_ops, &f->d,
					      &srv), -EINVAL);
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(uk_ctl_server_new_fd(f->e, fd, &dummy_ops, &f->d,
					      &srv), -EINVAL);
	close(fd);
}

/* A fake server answering one connection with canned bytes. */
struct fake {
	int lfd;
	const char *answer;	/* NULL: close without a word */
	bool silent;		/* never answer (nor close) */
	atomic_int done;
	pthread_t thread;
};

static void *fake_thread(void *arg)
{
	struct fake *fk = arg;
	char buf[4096];
	ssize_t n;
	int fd;

	fd = accept(fk->lfd, NULL, NULL);
	if (fd >= 0) {
		do
			n = read(fd, buf, sizeof(buf));
		while (n > 0 && !memchr(buf, '\n', n));
		if (fk->answer && write(fd, fk->answer,
					strlen(fk->answer)) < 0)
			n = -1;
		while (fk->silent && !atomic_load(&fk->done))
			usleep(10000);
		close(fd);
	}
	return NULL;
}

static int fake_listen(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	fill_sun(&sa, path);
	unlink(path);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 4), 0);
	return fd;
}

static int fake_call(const char *path, const char *answer, bool silent,
		     int timeout_ms)
{
	struct fake fk = { .answer = answer, .silent = silent };
	struct uk_json_value *reply = NULL;
	char why[160] = "";
	int r;

	fk.lfd = fake_listen(path);
	assert_int_equal(pthread_create(&fk.thread, NULL, fake_thread, &fk),
			 0);
	r = uk_ctl_call(path, "{\"cmd\":\"status\"}", timeout_ms, &reply,
			why, sizeof(why));
	atomic_store(&fk.done, 1);
	assert_int_equal(pthread_join(fk.thread, NULL), 0);
	close(fk.lfd);
	if (r == 0) {
		assert_true(get_bool(reply, "ok"));
		assert_int_equal(uk_json_object_len(reply), 1);
		uk_json_value_free(reply);
	} else {
		assert_null(reply);
		/* a reply that came, but not as one object line, says why */
		if (r == -EPROTO && answer)
			assert_true(why[0]);
	}
	return r;
}

static void client_checks_the_reply_is_one_json_object_line(void **state)
{
	struct fixture *f = *state;
	char path[160];

	snprintf(path, sizeof(path), "%s/fake", f->dir);
	assert_int_equal(fake_call(path, "{\"ok\":true}\n", false, 2000), 0);
	assert_int_equal(fake_call(path, "not json\n", false, 2000), -EPROTO);
	assert_int_equal(fake_call(path, "{}\n{}\n", false, 2000), -EPROTO);
	assert_int_equal(fake_call(path, "{}", false, 2000), -EPROTO);
	assert_int_equal(fake_call(path, "[]\n", false, 2000), -EPROTO);
	assert_int_equal(fake_call(path, "\n", false, 2000), -EPROTO);
	assert_int_equal(fake_call(path, NULL, false, 2000), -EPROTO);
}

static void client_times_out_on_a_silent_server(void **state)
{
	struct fixture *f = *state;
	int64_t start = ms_now();
	char path[160];

	snprintf(path, sizeof(path), "%s/silent", f->dir);
	assert_int_equal(fake_call(path, NULL, true, 300), -ETIMEDOUT);
	assert_in_range(ms_now() - start, 290, 3000);
}

int main(void)
{
#define SOCKET_TEST(t) \
	cmocka_unit_test_setup_teardown(t, fixture_setup, fixture_teardown)
	const struct CMUnitTest control[] = {
		cmocka_unit_test(status_is_allowed_for_unprivileged_peer),
		cmocka_unit_test(sites_passes_limit_and_sort),
		cmocka_unit_test(reset_and_reload_are_denied_to_non_root),
		cmocka_unit_test(reset_and_reload_are_allowed_to_root),
		cmocka_unit_test(permission_table_is_root_only_for_admin_commands),
		cmocka_unit_test(command_names_round_trip),
		cmocka_unit_test(version_other_than_1_is_refused),
		cmocka_unit_test(unknown_or_mistyped_command_is_refused),
		cmocka_unit_test(unknown_keys_are_ignored),
		cmocka_unit_test(known_keys_of_wrong_type_are_refused),
		cmocka_unit_test(garbage_gets_a_well_formed_error_reply),
		cmocka_unit_test(request_nested_too_deep_gets_an_error_reply),
		cmocka_unit_test(unknown_command_with_odd_bytes_still_gives_valid_json),
		cmocka_unit_test(request_of_4096_bytes_with_newline_is_the_limit),
		cmocka_unit_test(request_over_4096_bytes_is_refused),
		cmocka_unit_test(handler_error_replaces_the_payload),
		cmocka_unit_test(missing_handler_is_not_supported),
		cmocka_unit_test(malformed_payload_gives_internal_error),
		cmocka_unit_test(reply_over_64mib_gives_e2big),
		cmocka_unit_test(error_reply_without_errno_says_eio),
		SOCKET_TEST(socket_status_round_trip),
		SOCKET_TEST(socket_passes_peer_credentials_to_handler),
		SOCKET_TEST(socket_is_world_writable),
		SOCKET_TEST(socket_unprivileged_peer_gets_status_but_not_reset),
		SOCKET_TEST(socket_reset_as_root_is_allowed),
		SOCKET_TEST(socket_garbage_gets_error_reply),
		SOCKET_TEST(socket_oversized_request_gets_error_reply),
		SOCKET_TEST(socket_request_in_pieces_is_assembled),
		SOCKET_TEST(socket_request_may_end_at_eof),
		SOCKET_TEST(socket_slow_client_is_dropped_after_timeout),
		SOCKET_TEST(socket_client_that_never_reads_is_dropped),
		SOCKET_TEST(socket_slow_reader_of_big_reply_is_kept),
		SOCKET_TEST(socket_multi_megabyte_reply_arrives_intact),
		SOCKET_TEST(socket_serves_many_concurrent_clients),
		SOCKET_TEST(socket_refuses_clients_over_the_limit),
		SOCKET_TEST(socket_default_limits_are_the_documented_ones),
		SOCKET_TEST(socket_caps_the_connections_of_each_uid),
		SOCKET_TEST(socket_keeps_connections_for_root),
		SOCKET_TEST(socket_others_asking_the_same_share_one_reply),
		SOCKET_TEST(socket_journal_readers_and_others_never_share),
		SOCKET_TEST(socket_others_wait_for_the_build_rate),
		SOCKET_TEST(socket_others_wait_while_replies_hold_too_much),
		SOCKET_TEST(socket_deadline_is_not_pushed_back_by_reading),
		SOCKET_TEST(socket_clients_wait_for_the_other_sources),
		SOCKET_TEST(socket_free_closes_clients_and_removes_the_file),
		SOCKET_TEST(client_reports_missing_socket_as_enoent),
		SOCKET_TEST(stale_socket_is_refused_then_replaced),
		SOCKET_TEST(server_does_not_replace_a_live_socket_or_a_file),
		SOCKET_TEST(server_and_client_refuse_too_long_paths),
		SOCKET_TEST(server_new_fd_takes_a_listening_socket_only),
		SOCKET_TEST(client_checks_the_reply_is_one_json_object_line),
		SOCKET_TEST(client_times_out_on_a_silent_server),
	};

	return cmocka_run_group_tests(control, NULL, NULL);
}
