// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol and the JSON reader/writer on arbitrary bytes.
 *
 * 1. uk_ctl_handle() with dummy handlers, as root and as a user: the reply
 *    must always be one line with one JSON object whose "ok" agrees with
 *    the return value, and an error reply carries "error" and "errno".
 * 2. uk_json_parse(): when it accepts the input, writing the tree and
 *    parsing that again must give the same text (the writer's output is
 *    a fixed point).
 * 3. The writer on the raw bytes as a string: always valid JSON, and
 *    stable when written again.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/control.h"
#include "common/json.h"

static int dummy(void *ctx, const struct uk_ctl_request *req,
		 struct uk_json *j, char *err, size_t errlen)
{
	uint64_t i;

	/* some requests make the handler fail, half of them with a message */
	if (req->limit % 7 == 3) {
		if (req->limit % 2)
			snprintf(err, errlen, "dummy failure %llu",
				 (unsigned long long)req->limit);
		return -EIO;
	}
	uk_json_kv_u64(j, "limit", req->limit);
	uk_json_kv_u64(j, "sort", req->sort);
	uk_json_key(j, "items");
	uk_json_array_begin(j);
	for (i = 0; i < req->limit && i < 16; i++)
		uk_json_u64(j, i);
	uk_json_array_end(j);
	return 0;
}

static const struct uk_ctl_ops ops = {
	.status = dummy,
	.sites = dummy,
	.reset = dummy,
	.metrics = dummy,
	/* no reload: EOPNOTSUPP */
};

static void check_reply(int r, const char *reply, size_t len)
{
	struct uk_json_value *v;
	const char *msg;
	uint64_t e;
	bool ok;

	if (!len || reply[len - 1] != '\n' || memchr(reply, '\n', len - 1))
		abort();
	if (uk_json_parse(reply, len, &v, NULL, 0) < 0)
		abort();
	if (uk_json_get_bool(uk_json_object_get(v, "ok"), &ok) < 0)
		abort();
	if (ok != (r == 0))
		abort();
	if (!ok && (uk_json_get_str(uk_json_object_get(v, "error"), &msg) ||
		    !*msg ||
		    uk_json_get_u64(uk_json_object_get(v, "errno"), &e) ||
		    (int64_t)e != -r))
		abort();
	uk_json_value_free(v);
}

static void fuzz_handle(const char *data, size_t size, uid_t uid)
{
	const struct uk_peer peer = { .pid = 42, .uid = uid, .gid = uid };
	size_t len;
	char *reply;
	int r;

	r = uk_ctl_handle(&ops, NULL, &peer, data, size, &reply, &len);
	check_reply(r, reply, len);
	uk_ctl_reply_free(reply);
}

/* Writes @v; the text in *out. */
static void rewrite(const struct uk_json_value *v, char **out, size_t *len)
{
	struct uk_json j;

	uk_json_init(&j, 0);
	uk_json_value_write(&j, v);
	if (uk_json_finish(&j, out, len) < 0)
		abort();
}

static void fuzz_roundtrip(const char *data, size_t size)
{
	struct uk_json_value *v, *w;
	char *a, *b, err[128];
	size_t alen, blen;

	if (uk_json_parse(data, size, &v, err, sizeof(err)) < 0) {
		if (strncmp(err, "offset ", 7))
			abort();
		return;
	}
	rewrite(v, &a, &alen);
	if (uk_json_parse(a, alen, &w, NULL, 0) < 0)
		abort();
	rewrite(w, &b, &blen);
	if (alen != blen || memcmp(a, b, alen))
		abort();
	uk_json_value_free(v);
	uk_json_value_free(w);
	free(a);
	free(b);
}

static void fuzz_string(const char *data, size_t size)
{
	struct uk_json_value *v;
	struct uk_json j;
	const char *s;
	char *a, *b;
	size_t alen, blen, slen;

	uk_json_init(&j, 0);
	uk_json_strn(&j, data, size);
	if (uk_json_finish(&j, &a, &alen) < 0)
		abort();
	if (uk_json_parse(a, alen, &v, NULL, 0) < 0 ||
	    uk_json_get_strn(v, &s, &slen) < 0)
		abort();
	/* what went in valid comes out the same; bad bytes only grow */
	if (slen < size || (slen == size && memcmp(s, data, size)))
		abort();
	uk_json_init(&j, 0);
	uk_json_strn(&j, s, slen);
	if (uk_json_finish(&j, &b, &blen) < 0)
		abort();
	if (alen != blen || memcmp(a, b, alen))
		abort();
	uk_json_value_free(v);
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	fuzz_handle(s, size, 0);
	fuzz_handle(s, size, 1000);
	fuzz_roundtrip(s, size);
	fuzz_string(s, size);
	return 0;
}
