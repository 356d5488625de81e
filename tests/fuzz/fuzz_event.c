// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the netlink message parsers (daemon/common/event.c) and
 * the replay reader (daemon/uaccessd/replay.c).
 *
 * The input goes to the three parsers as one netlink message, then to the
 * replay reader as a file whose messages go to the parsers in turn.  A
 * message that parses must survive a round trip: built again with
 * tests/support/msgbuild.c, it parses to the same struct, byte for byte (the
 * parsers zero the struct first and strings are zero-filled).  Enum names
 * map back to their values, function names are prefixes of their symbols,
 * and a replay file read at an odd address gives the same messages.
 *
 * Seeds: tests/fuzz/corpus/event/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/event.h"
#include "msgbuild.h"
#include "uaccessd/replay.h"

#define FAMILY	0x1d

static uint8_t rebuilt[32768];

static void check(int ok)
{
	if (!ok)
		abort();
}

/* Function names are a non-empty prefix of the symbol, up to '+' or ' '. */
static void check_symbol(const char *symbol)
{
	char out[UK_SYMBOL_LEN];
	size_t n;

	if (!uk_symbol_function(symbol, out, sizeof(out))) {
		check(out[0] == '\0');
		return;
	}
	n = strlen(out);
	check(n > 0 && !strncmp(out, symbol, n));
	check(symbol[n] == '\0' || symbol[n] == '+' || symbol[n] == ' ');
	check(!strpbrk(out, "+ "));
}

/* The enum names of a parsed message map back to their values. */
static void check_fields(const struct uk_field *fields, const void *msg)
{
	const struct uk_field *f;
	const char *name;
	uint32_t v;

	for (f = fields; f->name; f++) {
		const char *p = (const char *)msg + f->offset;

		if (f->type == UK_FT_STR) {
			check(memchr(p, '\0', f->len) != NULL);
			check_symbol(p);
		}
		if (f->type != UK_FT_ENUM)
			continue;
		memcpy(&v, p, sizeof(v));
		name = uk_enum_name(f->names, v);
		if (name)
			check(uk_enum_value(f->names, name) == v);
	}
}

static void fuzz_message(const struct nlmsghdr *nlh, size_t len)
{
	struct uk_event ev, ev2;
	struct uk_site site, site2;
	struct uk_status st, st2;
	char why[256];
	int n;

	if (!uk_event_parse(nlh, len, &ev, why, sizeof(why))) {
		n = uk_event_build(&ev, FAMILY, 1, rebuilt, sizeof(rebuilt));
		check(n > 0);
		check(!uk_event_parse((const void *)rebuilt, (size_t)n, &ev2,
				      why, sizeof(why)));
		check(!memcmp(&ev, &ev2, sizeof(ev)));
		check_fields(uk_event_fields, &ev);
		check(ev.nr_frames <= UK_STACK_MAX);
		for (n = 0; n < (int)ev.nr_frames; n++)
			check_symbol(ev.frames[n].symbol);
	}
	if (!uk_site_parse(nlh, len, &site, why, sizeof(why))) {
		n = uk_site_build(&site, FAMILY, 1, rebuilt, sizeof(rebuilt));
		check(n > 0);
		check(!uk_site_parse((const void *)rebuilt, (size_t)n, &site2,
				     why, sizeof(why)));
		check(!memcmp(&site, &site2, sizeof(site)));
		check_fields(uk_site_fields, &site);
	}
	if (!uk_status_parse(nlh, len, &st, why, sizeof(why))) {
		n = uk_status_build(&st, UACCESS_KADDR_CMD_RESET, FAMILY, 1,
				    rebuilt, sizeof(rebuilt));
		check(n > 0);
		check(!uk_status_parse((const void *)rebuilt, (size_t)n, &st2,
				       why, sizeof(why)));
		check(!memcmp(&st, &st2, sizeof(st)));
		check_fields(uk_status_fields, &st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t shifted[1 << 16];
	const struct nlmsghdr *nlh, *nlh2;
	struct uk_replay r, r2 = { 0 };
	char why[256];
	size_t len, len2;
	int ret;

	fuzz_message((const void *)data, size);

	if (uk_replay_open_mem(&r, data, size, why, sizeof(why)))
		return 0;
	/* The same file at an odd address: the reader copies it. */
	if (size + 1 <= sizeof(shifted)) {
		memcpy(shifted + 1, data, size);
		check(!uk_replay_open_mem(&r2, shifted + 1, size, NULL, 0));
	}
	while ((ret = uk_replay_next(&r, &nlh, &len, why, sizeof(why))) > 0) {
		check(len >= NLMSG_HDRLEN && len <= size);
		check((const uint8_t *)nlh + len <= r.data + r.size);
		if (r2.data) {
			check(uk_replay_next(&r2, &nlh2, &len2, NULL, 0) == 1);
			check(len2 == len && !memcmp(nlh, nlh2, len));
		}
		fuzz_message(nlh, len);
	}
	check(ret == 0 || ret == -EBADMSG);
	if (r2.data)
		check(uk_replay_next(&r2, &nlh2, &len2, NULL, 0) == ret);
	uk_replay_close(&r2);
	uk_replay_close(&r);
	return 0;
}
