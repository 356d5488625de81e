// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of daemon/uaccessd/replay.c: the replay file reader and writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/event.h"
#include "msgbuild.h"
#include "uaccessd/replay.h"
#include "common/util.h"

#define FAMILY		0x21
#define NR_MSGS		2000

/* The messages of a recording, as built; a sample of every shape. */
struct msgs {
	uint8_t *buf;		/* all messages, each at its offset */
	size_t off[NR_MSGS];
	size_t len[NR_MSGS];
	size_t n;
};

static void add_msg(struct msgs *m, const void *p, size_t len)
{
	size_t at = m->n ? m->off[m->n - 1] + m->len[m->n - 1] : 0;

	m->buf = realloc(m->buf, at + len);
	assert_non_null(m->buf);
	memcpy(m->buf + at, p, len);
	m->off[m->n] = at;
	m->len[m->n] = len;
	m->n++;
}

/*
 * Events with 0..16 frames and symbols of every length (so messages of
 * every size), sites, status replies, NLMSG_DONE, and messages whose
 * nlmsg_len is not a multiple of 4.
 */
static void make_msgs(struct msgs *m)
{
	uint8_t buf[16384];
	struct uk_event ev;
	struct uk_site site;
	struct uk_status st;
	struct nlmsghdr done = {
		.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_DONE,
		.nlmsg_flags = NLM_F_MULTI,
	};
	size_t i;
	int n;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < NR_MSGS; i++) {
		switch (i % 5) {
		case 0:
		case 1:
			memset(&ev, 0, sizeof(ev));
			ev.seq = i + 1;
			ev.kind = UACCESS_KADDR_KIND_FAULT;
			ev.helper = 1 + i % UACCESS_KADDR_HELPER_UNKNOWN;
			ev.direction = UACCESS_KADDR_DIRECTION_TO_USER;
			ev.address = 0xffff000000000000ULL + i;
			ev.site_id = (uint32_t)i % 50;
			ev.site_ip = 0xffffffff81000000ULL + i;
			ev.count = i;
			memset(ev.site_symbol, 's', i % (UK_SYMBOL_LEN - 1));
			ev.nr_frames = i % (UK_STACK_MAX + 1);
			ev.present = 1ULL << UACCESS_KADDR_A_EVENT_SEQ |
				     1ULL << UACCESS_KADDR_A_EVENT_KIND |
				     1ULL << UACCESS_KADDR_A_EVENT_HELPER |
				     1ULL << UACCESS_KADDR_A_EVENT_DIRECTION |
				     1ULL << UACCESS_KADDR_A_EVENT_ADDRESS |
				     1ULL << UACCESS_KADDR_A_EVENT_SITE_ID |
				     1ULL << UACCESS_KADDR_A_EVENT_SITE_SYMBOL |
				     1ULL << UACCESS_KADDR_A_EVENT_SITE_IP |
				     1ULL << UACCESS_KADDR_A_EVENT_COUNT;
			n = uk_event_build(&ev, FAMILY, 0, buf, sizeof(buf));
			break;
		case 2:
			memset(&site, 0, sizeof(site));
			site.site_id = (uint32_t)i;
			site.site_ip = 0xffffffff81000000ULL + i;
			site.kind = UACCESS_KADDR_KIND_PRECHECK;
			site.helper = UACCESS_KADDR_HELPER_GET_USER;
			site.direction = UACCESS_KADDR_DIRECTION_FROM_USER;
			site.count = i * 3;
			site.present = 1ULL << UACCESS_KADDR_A_SITE_SITE_ID |
				       1ULL << UACCESS_KADDR_A_SITE_SITE_IP |
				       1ULL << UACCESS_KADDR_A_SITE_KIND |
				       1ULL << UACCESS_KADDR_A_SITE_HELPER |
				       1ULL << UACCESS_KADDR_A_SITE_DIRECTION |
				       1ULL << UACCESS_KADDR_A_SITE_COUNT;
			n = uk_site_build(&site, FAMILY, (uint32_t)i, buf,
					  sizeof(buf));
			break;
		case 3:
			memset(&st, 0, sizeof(st));
			st.mode = UACCESS_KADDR_MODE_REPORT;
			st.last_seq = i;
			st.present = 1ULL << UACCESS_KADDR_A_STATUS_MODE |
				     1ULL << UACCESS_KADDR_A_STATUS_LAST_SEQ;
			n = uk_status_build(&st, UACCESS_KADDR_CMD_GET_STATUS,
					    FAMILY, (uint32_t)i, buf,
					    sizeof(buf));
			break;
		default:
			if (i % 10 == 4) {
				memcpy(buf, &done, sizeof(done));
				n = NLMSG_HDRLEN;
			} else {
				/* Unaligned: 16..19 + 4 * k bytes. */
				n = (int)(NLMSG_HDRLEN + i % 37);
				memset(buf, (int)i, (size_t)n);
				memcpy(buf, &n, sizeof(uint32_t));
			}
			break;
		}
		assert_true(n >= NLMSG_HDRLEN);
		add_msg(m, buf, (size_t)n);
	}
}

static char *tmp_path(void)
{
	const char *dir = getenv("TMPDIR") ?: "/tmp";
	char *path;
	int fd;

	assert_true(asprintf(&path, "%s/test_replay.XXXXXX", dir) > 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	return path;
}

static void write_msgs(const char *path, const struct msgs *m)
{
	struct uk_replay_writer w;
	size_t i;

	assert_int_equal(uk_replay_create(&w, path, FAMILY), 0);
	for (i = 0; i < m->n; i++)
		assert_int_equal(uk_replay_write(&w, (const void *)(m->buf +
								   m->off[i]),
						 m->len[i]), 0);
	assert_int_equal(uk_replay_writer_close(&w, true), 0);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long size;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	assert_true(size >= 0);
	rewind(fp);
	buf = malloc((size_t)size + 4);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	*len = (size_t)size;
	return buf;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* Reads every message of @r and compares it with @m. */
static void check_msgs(struct uk_replay *r, const struct msgs *m)
{
	const struct nlmsghdr *nlh;
	char why[256] = "";
	size_t i, len;
	int ret;

	assert_int_equal(uk_replay_family(r), FAMILY);
	for (i = 0; i < m->n; i++) {
		ret = uk_replay_next(r, &nlh, &len, why, sizeof(why));
		if (ret != 1)
			fail_msg("message %zu: %d %s", i, ret, why);
		assert_int_equal((uintptr_t)nlh % 4, 0);
		assert_int_equal(len, m->len[i]);
		assert_memory_equal(nlh, m->buf + m->off[i], len);
	}
	assert_int_equal(uk_replay_next(r, &nlh, &len, why, sizeof(why)), 0);
	assert_int_equal(uk_replay_next(r, &nlh, &len, why, sizeof(why)), 0);
}

static void round_trip_many_messages_via_path_fp_and_memory(void **state)
{
	struct uk_replay r;
	struct msgs m;
	char why[256] = "";
	char *path = tmp_path();
	uint8_t *file;
	size_t flen;
	FILE *fp;

	make_msgs(&m);
	write_msgs(path, &m);

	if (uk_replay_open(&r, path, why, sizeof(why)))
		fail_msg("open: %s", why);
	assert_non_null(r.map);		/* a regular file is mapped */
	check_msgs(&r, &m);
	uk_replay_close(&r);

	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(uk_replay_open_fp(&r, fp, why, sizeof(why)), 0);
	fclose(fp);
	check_msgs(&r, &m);
	uk_replay_close(&r);

	file = read_file(path, &flen);
	assert_int_equal(uk_replay_open_mem(&r, file, flen, why, sizeof(why)),
			 0);
	check_msgs(&r, &m);
	uk_replay_close(&r);

	free(file);
	unlink(path);
	free(path);
	free(m.buf);
}

/* A pipe is not a regular file: read to its end instead of mapped. */
static void round_trip_through_a_pipe(void **state)
{
	struct uk_replay r;
	struct msgs m;
	char why[256] = "", *path = tmp_path(), pipe_path[64];
	uint8_t *file;
	size_t flen;
	int fds[2], status;
	pid_t pid;

	make_msgs(&m);
	write_msgs(path, &m);
	file = read_file(path, &flen);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		size_t done = 0;
		ssize_t n;

		close(fds[0]);
		while (done < flen) {
			n = write(fds[1], file + done, flen - done);
			if (n <= 0)
				_exit(1);
			done += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	snprintf(pipe_path, sizeof(pipe_path), "/dev/fd/%d", fds[0]);
	if (uk_replay_open(&r, pipe_path, why, sizeof(why)))
		fail_msg("open %s: %s", pipe_path, why);
	assert_null(r.map);
	check_msgs(&r, &m);
	uk_replay_close(&r);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(file);
	unlink(path);
	free(path);
	free(m.buf);
}

static void file_layout_is_as_documented(void **state)
{
	static const uint8_t odd[21] = { 21 };	/* nlmsg_len 21 */
	static const uint8_t even[16] = { 16 };
	struct uk_replay_writer w;
	char *path = tmp_path();
	uint16_t u16;
	uint32_t u32;
	uint8_t *file;
	size_t len;
	struct stat st;

	assert_int_equal(uk_replay_create(&w, path, FAMILY), 0);
	assert_int_equal(uk_replay_write(&w, (const void *)odd, sizeof(odd)),
			 0);
	assert_int_equal(uk_replay_write(&w, (const void *)even, sizeof(even)),
			 0);
	assert_int_equal(uk_replay_writer_close(&w, false), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	file = read_file(path, &len);
	assert_int_equal(len, 16 + 24 + 16);
	assert_memory_equal(file, "UKREPLAY", 8);
	memcpy(&u16, file + 8, 2);
	assert_int_equal(u16, 1);
	memcpy(&u16, file + 10, 2);
	assert_int_equal(u16, FAMILY);
	memcpy(&u32, file + 12, 4);
	assert_int_equal(u32, 0);
	assert_memory_equal(file + 16, odd, sizeof(odd));
	assert_memory_equal(file + 37, "\0\0\0", 3);	/* padding */
	assert_memory_equal(file + 40, even, sizeof(even));
	free(file);
	unlink(path);
	free(path);
}

static void header_only_file_has_no_messages(void **state)
{
	const struct nlmsghdr *nlh;
	struct uk_replay_writer w;
	struct uk_replay r;
	char *path = tmp_path();
	size_t len;

	assert_int_equal(uk_replay_create(&w, path, FAMILY), 0);
	assert_int_equal(uk_replay_writer_close(&w, true), 0);
	assert_int_equal(uk_replay_open(&r, path, NULL, 0), 0);
	assert_int_equal(uk_replay_offset(&r), UK_REPLAY_HDRLEN);
	assert_int_equal(uk_replay_next(&r, &nlh, &len, NULL, 0), 0);
	uk_replay_close(&r);
	unlink(path);
	free(path);
}

/* Writes a replay header with these fields to @buf. */
static size_t header(uint8_t *buf, uint16_t version, uint16_t family,
		     uint32_t reserved)
{
	memcpy(buf, "UKREPLAY", 8);
	memcpy(buf + 8, &version, 2);
	memcpy(buf + 10, &family, 2);
	memcpy(buf + 12, &reserved, 4);
	return UK_REPLAY_HDRLEN;
}

static void open_rejects_bad_magic(void **state)
{
	static const char *const magics[] = {
		"UKREPLAX", "ukreplay", "\0\0\0\0\0\0\0\0", "UKREPLA\0",
	};
	uint32_t buf[16];
	struct uk_replay r;
	char why[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(magics); i++) {
		header((uint8_t *)buf, 1, FAMILY, 0);
		memcpy(buf, magics[i], 8);
		assert_int_equal(uk_replay_open_mem(&r, buf, 16, why,
						    sizeof(why)), -EBADMSG);
		assert_string_equal(why, "offset 0: bad magic, not a replay file");
	}
}

static void open_rejects_other_versions(void **state)
{
	static const uint16_t versions[] = { 0, 2, 0x100, 0xffff };
	uint32_t buf[16];
	struct uk_replay r;
	char why[256], want[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		header((uint8_t *)buf, versions[i], FAMILY, 0);
		assert_int_equal(uk_replay_open_mem(&r, buf, 16, why,
						    sizeof(why)),
				 -EPROTONOSUPPORT);
		snprintf(want, sizeof(want),
			 "offset 8: unsupported version %u (not 1)",
			 versions[i]);
		assert_string_equal(why, want);
	}
}

static void open_rejects_bad_family_and_reserved(void **state)
{
	uint32_t buf[16];
	struct uk_replay r;
	char why[256];

	header((uint8_t *)buf, 1, NLMSG_MIN_TYPE - 1, 0);
	assert_int_equal(uk_replay_open_mem(&r, buf, 16, why, sizeof(why)),
			 -EBADMSG);
	assert_non_null(strstr(why, "offset 10: family id 15"));
	header((uint8_t *)buf, 1, FAMILY, 1);
	assert_int_equal(uk_replay_open_mem(&r, buf, 16, why, sizeof(why)),
			 -EBADMSG);
	assert_non_null(strstr(why, "offset 12: reserved"));
}

static void open_rejects_truncated_header(void **state)
{
	const struct nlmsghdr *nlh;
	uint32_t buf[16];
	struct uk_replay r;
	char why[256], *path = tmp_path();
	size_t len, mlen;
	FILE *fp;

	header((uint8_t *)buf, 1, FAMILY, 0);
	for (len = 0; len < UK_REPLAY_HDRLEN; len++) {
		uint8_t *p = malloc(len ?: 1);

		assert_non_null(p);
		memcpy(p, buf, len);
		assert_int_equal(uk_replay_open_mem(&r, p, len, why,
						    sizeof(why)), -EBADMSG);
		assert_non_null(strstr(why, "truncated replay header"));
		/* A failed open leaves a reader that fails cleanly. */
		assert_int_equal(uk_replay_next(&r, &nlh, &mlen, NULL, 0),
				 -EINVAL);
		uk_replay_close(&r);
		free(p);

		write_file(path, buf, len);
		assert_int_equal(uk_replay_open(&r, path, why, sizeof(why)),
				 -EBADMSG);
		fp = fopen(path, "rb");
		assert_non_null(fp);
		assert_int_equal(uk_replay_open_fp(&r, fp, why, sizeof(why)),
				 -EBADMSG);
		fclose(fp);
	}
	assert_int_equal(uk_replay_open_mem(&r, NULL, 0, NULL, 0), -EBADMSG);
	unlink(path);
	free(path);
}

/* Three messages; the file cut at every byte of the last. */
static void next_reports_truncated_message_with_offset(void **state)
{
	const struct nlmsghdr *nlh;
	struct uk_replay r;
	struct msgs m;
	char *path = tmp_path(), why[256], want[128];
	uint8_t *file;
	size_t flen, cut, len, last;
	int ret;

	make_msgs(&m);
	m.n = 3;
	write_msgs(path, &m);
	file = read_file(path, &flen);
	last = flen - NLMSG_ALIGN(m.len[2]);
	for (cut = last + 1; cut < flen; cut++) {
		assert_int_equal(uk_replay_open_mem(&r, file, cut, why,
						    sizeof(why)), 0);
		assert_int_equal(uk_replay_next(&r, &nlh, &len, NULL, 0), 1);
		assert_int_equal(uk_replay_next(&r, &nlh, &len, NULL, 0), 1);
		ret = uk_replay_next(&r, &nlh, &len, why, sizeof(why));
		if (cut >= last + m.len[2]) {
			/* Only the padding of the last message is missing. */
			assert_int_equal(ret, 1);
			assert_int_equal(uk_replay_next(&r, &nlh, &len, NULL,
							0), 0);
		} else if (cut < last + NLMSG_HDRLEN) {
			assert_int_equal(ret, -EBADMSG);
			snprintf(want, sizeof(want),
				 "offset %zu: truncated message header, %zu bytes left",
				 last, cut - last);
			assert_string_equal(why, want);
		} else {
			assert_int_equal(ret, -EBADMSG);
			snprintf(want, sizeof(want),
				 "offset %zu: truncated message, nlmsg_len %zu > %zu bytes left",
				 last, m.len[2], cut - last);
			assert_string_equal(why, want);
		}
		uk_replay_close(&r);
	}
	free(file);
	unlink(path);
	free(path);
	free(m.buf);
}

static void next_rejects_nlmsg_len_below_header_without_looping(void **state)
{
	static const uint32_t lens[] = { 0, 1, 4, 15 };
	const struct nlmsghdr *nlh;
	uint32_t buf[32] = { 0 };
	struct uk_replay r;
	char why[256], want[128];
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		header((uint8_t *)buf, 1, FAMILY, 0);
		buf[4] = lens[i];
		assert_int_equal(uk_replay_open_mem(&r, buf, sizeof(buf), why,
						    sizeof(why)), 0);
		assert_int_equal(uk_replay_next(&r, &nlh, &len, why,
						sizeof(why)), -EBADMSG);
		snprintf(want, sizeof(want), "offset 16: nlmsg_len %u < 16",
			 lens[i]);
		assert_string_equal(why, want);
		/* The error sticks; the reader does not move on. */
		why[0] = '\0';
		assert_int_equal(uk_replay_next(&r, &nlh, &len, why,
						sizeof(why)), -EBADMSG);
		assert_string_equal(why, want);
		assert_int_equal(uk_replay_offset(&r), 16);
		uk_replay_close(&r);
	}
}

static void next_rejects_nlmsg_len_beyond_file(void **state)
{
	const struct nlmsghdr *nlh;
	uint32_t buf[32] = { 0 };
	struct uk_replay r;
	char why[256];
	size_t len;

	header((uint8_t *)buf, 1, FAMILY, 0);
	buf[4] = UINT32_MAX;
	assert_int_equal(uk_replay_open_mem(&r, buf, sizeof(buf), NULL, 0), 0);
	assert_int_equal(uk_replay_next(&r, &nlh, &len, why, sizeof(why)),
			 -EBADMSG);
	assert_string_equal(why,
			    "offset 16: truncated message, nlmsg_len 4294967295 > 112 bytes left");
	uk_replay_close(&r);
}

/* Messages are returned 4-byte aligned even from a misaligned buffer. */
static void misaligned_memory_buffer_is_copied(void **state)
{
	struct uk_replay r;
	struct msgs m;
	char *path = tmp_path();
	uint8_t *file, *shifted;
	size_t flen;

	make_msgs(&m);
	m.n = 50;
	write_msgs(path, &m);
	file = read_file(path, &flen);
	shifted = malloc(flen + 1);
	assert_non_null(shifted);
	memcpy(shifted + 1, file, flen);
	assert_int_equal(uk_replay_open_mem(&r, shifted + 1, flen, NULL, 0), 0);
	check_msgs(&r, &m);
	uk_replay_close(&r);
	free(shifted);
	free(file);
	unlink(path);
	free(path);
	free(m.buf);
}

static void writer_rejects_bad_messages(void **state)
{
	struct uk_replay_writer w;
	uint32_t msg[8] = { 0 };
	char *path = tmp_path();
	uint8_t *file;
	size_t flen;

	assert_int_equal(uk_replay_create(&w, path, NLMSG_MIN_TYPE - 1),
			 -EINVAL);
	assert_int_equal(uk_replay_create(&w, path, FAMILY), 0);
	msg[0] = 33;		/* nlmsg_len beyond the 32 bytes given */
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 32), -EINVAL);
	msg[0] = 15;
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 32), -EINVAL);
	msg[0] = 16;
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 15), -EINVAL);
	assert_int_equal(uk_replay_write(&w, NULL, 32), -EINVAL);
	/* Rejected messages are not errors of the file. */
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 16), 0);
	assert_int_equal(uk_replay_writer_close(&w, false), 0);
	file = read_file(path, &flen);
	assert_int_equal(flen, UK_REPLAY_HDRLEN + 16);
	free(file);
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 16), -EINVAL);
	unlink(path);
	free(path);
}

/* /dev/full: every write fails with ENOSPC, reported again at close. */
static void writer_error_is_sticky_and_reported_at_close(void **state)
{
	struct uk_replay_writer w;
	uint32_t msg[4] = { 16 };
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		skip();
	assert_int_equal(uk_replay_writer_fd(&w, fd, FAMILY), -ENOSPC);
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 16), -ENOSPC);
	assert_int_equal(uk_replay_writer_close(&w, false), -ENOSPC);
	/* The writer did not own the fd. */
	assert_int_equal(fcntl(fd, F_GETFD), FD_CLOEXEC);
	close(fd);
	assert_int_equal(uk_replay_create(&w, "/nonexistent/dir/file", FAMILY),
			 -ENOENT);
}

/*
 * A symlink planted at the path (in a shared /tmp, by another user) is not
 * followed: the file it points to is left as it was.
 */
static void create_does_not_follow_a_symlink(void **state)
{
	struct uk_replay_writer w;
	char *target = tmp_path(), *link = tmp_path();
	struct stat st;

	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(uk_replay_create(&w, link, FAMILY), -ELOOP);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 0);
	unlink(link);
	unlink(target);
	free(link);
	free(target);
}

static void open_reports_missing_file(void **state)
{
	struct uk_replay r;
	char why[256] = "";

	assert_int_equal(uk_replay_open(&r, "/nonexistent/replay", why,
					sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "cannot open"));
	assert_int_equal(uk_replay_open(NULL, "x", NULL, 0), -EINVAL);
	assert_int_equal(uk_replay_open_fp(&r, NULL, NULL, 0), -EINVAL);
	assert_int_equal(uk_replay_open_mem(&r, NULL, 10, NULL, 0), -EINVAL);
}

/* A sparse file one byte over the limit: refused before mapping. */
static void open_rejects_file_over_size_limit(void **state)
{
	uint8_t hdr[UK_REPLAY_HDRLEN];
	struct uk_replay r;
	char *path = tmp_path(), why[256] = "";
	int fd;

	header(hdr, 1, FAMILY, 0);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, hdr, sizeof(hdr)), sizeof(hdr));
	if (ftruncate(fd, (off_t)UK_REPLAY_MAX_SIZE + 1) < 0) {
		close(fd);
		unlink(path);
		free(path);
		skip();
	}
	close(fd);
	assert_int_equal(uk_replay_open(&r, path, why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "more than"));
	unlink(path);
	free(path);
}

/* A directory opens but cannot be read: the read error is reported. */
static void open_reports_read_error(void **state)
{
	struct uk_replay r;
	char why[256] = "";

	assert_int_equal(uk_replay_open(&r, "/", why, sizeof(why)), -EISDIR);
	assert_non_null(strstr(why, "read error at offset 0"));
}

/* The size is checked before any byte is read. */
static void open_mem_rejects_buffer_over_size_limit(void **state)
{
	uint32_t buf[4];
	struct uk_replay r;
	char why[256] = "";

	header((uint8_t *)buf, 1, FAMILY, 0);
	assert_int_equal(uk_replay_open_mem(&r, buf, UK_REPLAY_MAX_SIZE + 1,
					    why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "more than"));
}

/* The writer stops before the file would exceed what the reader takes. */
static void writer_refuses_to_grow_beyond_size_limit(void **state)
{
	struct uk_replay_writer w;
	uint32_t msg[5] = { 20 };
	char *path = tmp_path();

	assert_int_equal(uk_replay_create(&w, path, FAMILY), 0);
	/* Pretend the file is almost full rather than writing 1 GiB. */
	w.size = UK_REPLAY_MAX_SIZE - 20;
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 20), 0);
	assert_int_equal(uk_replay_write(&w, (const void *)msg, 20), -EFBIG);
	assert_int_equal(uk_replay_writer_close(&w, false), 0);
	unlink(path);
	free(path);
}

static void close_is_idempotent(void **state)
{
	const struct nlmsghdr *nlh;
	uint32_t buf[4];
	struct uk_replay r;
	size_t len;

	header((uint8_t *)buf, 1, FAMILY, 0);
	assert_int_equal(uk_replay_open_mem(&r, buf, sizeof(buf), NULL, 0), 0);
	uk_replay_close(&r);
	uk_replay_close(&r);
	uk_replay_close(NULL);
	assert_int_equal(uk_replay_next(&r, &nlh, &len, NULL, 0), -EINVAL);
}

/* Every message recorded is parsed back by the event.h parsers. */
static void recorded_messages_parse_back(void **state)
{
	const struct nlmsghdr *nlh;
	struct uk_replay r;
	struct uk_event ev;
	struct uk_site site;
	struct uk_status st;
	struct msgs m;
	char *path = tmp_path(), why[256] = "";
	size_t len, i, events = 0, sites = 0, status = 0;
	uint8_t cmd;

	make_msgs(&m);
	write_msgs(path, &m);
	assert_int_equal(uk_replay_open(&r, path, NULL, 0), 0);
	for (i = 0; uk_replay_next(&r, &nlh, &len, NULL, 0) == 1; i++) {
		if (nlh->nlmsg_type != uk_replay_family(&r) ||
		    len < NLMSG_HDRLEN + 4)
			continue;
		cmd = ((const uint8_t *)nlh)[NLMSG_HDRLEN];
		if (cmd == UACCESS_KADDR_CMD_EVENT) {
			if (uk_event_parse(nlh, len, &ev, why, sizeof(why)))
				fail_msg("message %zu: %s", i, why);
			assert_int_equal(ev.seq, i + 1);
			assert_int_equal(ev.nr_frames, i % (UK_STACK_MAX + 1));
			events++;
		} else if (cmd == UACCESS_KADDR_CMD_DUMP_SITES) {
			if (uk_site_parse(nlh, len, &site, why, sizeof(why)))
				fail_msg("message %zu: %s", i, why);
			assert_int_equal(site.count, i * 3);
			sites++;
		} else if (cmd == UACCESS_KADDR_CMD_GET_STATUS) {
			if (uk_status_parse(nlh, len, &st, why, sizeof(why)))
				fail_msg("message %zu: %s", i, why);
			assert_int_equal(st.last_seq, i);
			status++;
		}
	}
	assert_int_equal(i, NR_MSGS);
	assert_int_equal(events, NR_MSGS * 2 / 5);
	assert_int_equal(sites, NR_MSGS / 5);
	assert_int_equal(status, NR_MSGS / 5);
	uk_replay_close(&r);
	unlink(path);
	free(path);
	free(m.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_many_messages_via_path_fp_and_memory),
		cmocka_unit_test(round_trip_through_a_pipe),
		cmocka_unit_test(file_layout_is_as_documented),
		cmocka_unit_test(create_does_not_follow_a_symlink),
		cmocka_unit_test(header_only_file_has_no_messages),
		cmocka_unit_test(open_rejects_bad_magic),
		cmocka_unit_test(open_rejects_other_versions),
		cmocka_unit_test(open_rejects_bad_family_and_reserved),
		cmocka_unit_test(open_rejects_truncated_header),
		cmocka_unit_test(next_reports_truncated_message_with_offset),
		cmocka_unit_test(next_rejects_nlmsg_len_below_header_without_looping),
		cmocka_unit_test(next_rejects_nlmsg_len_beyond_file),
		cmocka_unit_test(misaligned_memory_buffer_is_copied),
		cmocka_unit_test(writer_rejects_bad_messages),
		cmocka_unit_test(writer_error_is_sticky_and_reported_at_close),
		cmocka_unit_test(open_reports_missing_file),
		cmocka_unit_test(open_rejects_file_over_size_limit),
		cmocka_unit_test(open_reports_read_error),
		cmocka_unit_test(open_mem_rejects_buffer_over_size_limit),
		cmocka_unit_test(writer_refuses_to_grow_beyond_size_limit),
		cmocka_unit_test(close_is_idempotent),
		cmocka_unit_test(recorded_messages_parse_back),
	};

	return cmocka_run_group_tests_name("replay", tests, NULL, NULL);
}
