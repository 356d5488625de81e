// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl monitor (daemon/uaccessctl/monitor.c) over a fake events group: a
 * script of datagrams (real netlink messages from msgbuild.c, errors
 * such as ENOBUFS) behind a pipe that poll() watches.  The text and JSON
 * lines (golden files), gaps, overruns, malformed messages, the ways it
 * stops (-n, --timeout, SIGTERM) and the errors with their exit codes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <linux/audit.h>

#include "cli_fake.h"
#include "common/util.h"
#include "json_times.h"

static const struct uk_cli plain = { 0 };
static const struct uk_cli json = { .json = true };

static int setup(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void fill(struct uk_event *ev, uint64_t seq)
{
	int a;

	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->ts_boot = FAKE_BOOT_NS - 5000000000ULL + seq * 1000;
	ev->ts_real = FAKE_REAL_NS + seq * 1234567;
	ev->kind = UACCESS_KADDR_KIND_PRECHECK;
	ev->helper = UACCESS_KADDR_HELPER_COPY_TO_USER;
	ev->direction = UACCESS_KADDR_DIRECTION_TO_USER;
	ev->addr_class = UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED;
	ev->address = 0xffff888000100000ULL + seq * 8;
	ev->size = 16;
	ev->site_id = 3;
	snprintf(ev->site_symbol, sizeof(ev->site_symbol),
		 "waitid+0x1c/0x80");
	ev->site_ip = 0xffffffff81234567ULL;
	ev->stack_hash = 0xbeef;
	ev->pid = 100 + (uint32_t)seq;
	ev->tgid = ev->pid;
	snprintf(ev->comm, sizeof(ev->comm), "poc");
	ev->uid = 1000;
	ev->syscall_nr = 247;
	ev->syscall_arch = AUDIT_ARCH_X86_64;
	ev->syscall_args = (struct uk_syscall_args){
		.nr = UK_SYSCALL_ARGS, .v = { 1, 101, ev->address, 4 },
	};
	ev->cpu = 1;
	ev->count = seq;
	ev->context = UACCESS_KADDR_CONTEXT_TASK;
	ev->nr_frames = 2;
	snprintf(ev->frames[0].symbol, sizeof(ev->frames[0].symbol),
		 "waitid+0x1c/0x80");
	ev->frames[0].ip = ev->site_ip;
	snprintf(ev->frames[1].symbol, sizeof(ev->frames[1].symbol),
		 "do_syscall_64+0x5d/0x170");
	ev->frames[1].ip = 0xffffffff82000000ULL;
	for (a = UACCESS_KADDR_A_EVENT_SEQ; a <= UACCESS_KADDR_A_EVENT_MAX;
	     a++)
		ev->present |= 1ULL << a;
	ev->present &= ~(1ULL << UACCESS_KADDR_A_EVENT_STACK);
}

static void add(uint64_t seq)
{
	struct uk_event ev;

	fill(&ev, seq);
	fake_add_event(&ev, 0);
}

static void add_error(ssize_t err)
{
	fake_add_event(NULL, err);
}

/* The script, then SIGTERM once it is read. */
static void end_with_sigterm(void)
{
	fake.sigterm_at = fake.ndgrams + 1;
}

/* Three events: one in task context, one in a softirq, one sparse. */
static void three_kinds(void)
{
	struct uk_event ev;

	fake_reset_all();
	add(1);
	fill(&ev, 2);
	ev.present &= ~(1ULL << UACCESS_KADDR_A_EVENT_PID |
			1ULL << UACCESS_KADDR_A_EVENT_TGID |
			1ULL << UACCESS_KADDR_A_EVENT_COMM |
			1ULL << UACCESS_KADDR_A_EVENT_UID);
	ev.context = UACCESS_KADDR_CONTEXT_SOFTIRQ;
	ev.kind = UACCESS_KADDR_KIND_FAULT;
	ev.helper = UACCESS_KADDR_HELPER_COPY_USER_GENERIC;
	ev.direction = UACCESS_KADDR_DIRECTION_FROM_USER;
	ev.addr_class = UACCESS_KADDR_ADDR_CLASS_NONCANONICAL;
	ev.address = 0x8000000000000000ULL;
	fake_add_event(&ev, 0);
	/* Only what the kernel must send, and a hostile task name. */
	fill(&ev, 3);
	ev.present = 1ULL << UACCESS_KADDR_A_EVENT_SEQ |
		     1ULL << UACCESS_KADDR_A_EVENT_KIND |
		     1ULL << UACCESS_KADDR_A_EVENT_HELPER |
		     1ULL << UACCESS_KADDR_A_EVENT_DIRECTION |
		     1ULL << UACCESS_KADDR_A_EVENT_ADDRESS |
		     1ULL << UACCESS_KADDR_A_EVENT_SITE_ID |
		     1ULL << UACCESS_KADDR_A_EVENT_SITE_IP |
		     1ULL << UACCESS_KADDR_A_EVENT_COUNT |
		     1ULL << UACCESS_KADDR_A_EVENT_PID |
		     1ULL << UACCESS_KADDR_A_EVENT_COMM;
	ev.site_symbol[0] = '\0';
	ev.nr_frames = 0;
	snprintf(ev.comm, sizeof(ev.comm), "x\n\x1b[2Jy");
	fake_add_event(&ev, 0);
	end_with_sigterm();
}

static void text_lines_match_golden(void **state)
{
	struct run r;

	three_kinds();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("monitor.txt", r.out);
	uk_assert_text("stderr", r.err, "");
	assert_int_equal(fake.opens, 1);
	assert_int_equal(fake.closes, 1);
	assert_int_equal(fake.events_rcvbuf, 8 << 20);
	run_free(&r);
}

static void json_lines_match_golden(void **state)
{
	struct uk_json_value *v = NULL;
	char *line, *save = NULL;
	int n = 0;
	struct run r;

	three_kinds();
	RUN(&r, uk_cli_monitor, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_golden("monitor.json", r.out);
	/* every line is one JSON object */
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		assert_int_equal(uk_json_parse(line, strlen(line), &v, NULL, 0),
				 0);
		assert_int_equal(uk_json_type(v), UK_JSON_OBJECT);
		uk_json_value_free(v);
	}
	assert_int_equal(n, 3);
	run_free(&r);
}

/*
 * json-output.md's rule holds for monitor's lines too: the kernel's
 * nanosecond stamps (1.7e18 since the epoch) come out in microseconds
 * as time_usec and boot_usec, and no number is beyond 2^53.
 */
static void json_lines_have_usec_times_below_2_53(void **state)
{
	struct uk_json_value *v = NULL;
	char *line, *save = NULL;
	unsigned int times = 0;
	struct run r;

	fake_reset_all();
	add(1);
	add(2);
	add_error(-ENOBUFS);
	add(5);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, json);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "\"overrun\":true"));
	assert_non_null(strstr(r.out, "\"gap\":"));
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_int_equal(uk_json_parse(line, strlen(line), &v, NULL, 0),
				 0);
		times += uk_check_json_times(v, "monitor --json");
		uk_json_value_free(v);
	}
	/* time_usec and boot_usec of each of the three events */
	assert_int_equal(times, 6);
	run_free(&r);
}

static void gaps_are_reported_as_lines(void **state)
{
	struct run r;

	fake_reset_all();
	add(1);
	add(2);
	add(5);
	add(7);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, (struct uk_cli){ .no_legend = true });
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out,
		" 2 precheck")); /* the events stay */
	assert_non_null(strstr(r.out, "\n-- 2 events missing (seq 3..4) --\n"));
	assert_non_null(strstr(r.out, "\n-- 1 event missing (seq 6..6) --\n"));
	run_free(&r);
	fake_reset_all();
	add(10);
	add(13);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, json);
	assert_non_null(strstr(r.out,
		"\n{\"gap\":{\"missing\":2,\"first\":11,\"last\":12}}\n"));
	run_free(&r);
}

static void sequence_going_back_is_no_gap(void **state)
{
	struct run r;

	fake_reset_all();
	add(50);
	add(1);		/* counters reset: numbering starts again */
	add(2);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_null(strstr(r.out, "missing"));
	run_free(&r);
}

static void overrun_is_reported_and_monitor_goes_on(void **state)
{
	struct run r;

	fake_reset_all();
	add(1);
	add_error(-ENOBUFS);
	add(4);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "\n-- overrun: events lost --\n"
				      "-- 2 events missing (seq 2..3) --\n"));
	assert_non_null(strstr(r.out, " 4 precheck "));
	run_free(&r);
	fake_reset_all();
	add_error(-ENOBUFS);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, json);
	uk_assert_text("stdout", r.out, "{\"overrun\":true}\n");
	run_free(&r);
}

static void malformed_messages_are_reported(void **state)
{
	struct fake_dgram *d;
	struct run r;

	fake_reset_all();
	add(1);
	d = &fake.dgrams[0];
	/* cut the last attribute short, as uk-genreplay -m does */
	((struct nlmsghdr *)d->data)->nlmsg_len -= 2;
	add_error(-EMSGSIZE);
	add(2);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, "-- malformed event: "));
	assert_non_null(strstr(r.out,
		"\n-- malformed datagram: larger than the receive buffer, dropped --\n"));
	assert_non_null(strstr(r.out, " 2 precheck "));
	run_free(&r);
	fake_reset_all();
	add(1);
	/* nlmsg_len shorter than the netlink header itself */
	((struct nlmsghdr *)fake.dgrams[0].data)->nlmsg_len = 4;
	fake.dgrams[0].len = 16;
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, json);
	uk_assert_text("stdout", r.out, "{\"malformed\":\"bad nlmsg_len\"}\n");
	run_free(&r);
	fake_reset_all();
	add(1);
	/* bytes after the event too few for another message */
	fake.dgrams[0].len = NLMSG_ALIGN(fake.dgrams[0].len) + 8;
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, json);
	assert_non_null(strstr(r.out, "\"seq\":1"));
	assert_non_null(strstr(r.out,
		"{\"malformed\":\"stray bytes after the last message\"}\n"));
	run_free(&r);
}

static void every_message_of_a_datagram_is_read(void **state)
{
	struct fake_dgram *d;
	struct uk_event ev;
	struct nlmsghdr *done;
	struct run r;
	int n;

	fake_reset_all();
	add(1);
	d = &fake.dgrams[0];
	fill(&ev, 2);
	n = uk_event_build(&ev, FAKE_FAMILY, 2, d->data + d->len,
			   sizeof(d->data) - d->len);
	assert_true(n > 0);
	d->len += (size_t)n;
	/* a message of another type is skipped */
	done = (struct nlmsghdr *)(d->data + d->len);
	memset(done, 0, NLMSG_HDRLEN + 4);
	done->nlmsg_len = NLMSG_HDRLEN + 4;
	done->nlmsg_type = NLMSG_DONE;
	d->len += NLMSG_HDRLEN + 4;
	add(3);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, " 1 precheck "));
	assert_non_null(strstr(r.out, " 2 precheck "));
	assert_non_null(strstr(r.out, " 3 precheck "));
	assert_null(strstr(r.out, "--"));
	run_free(&r);
}

static void lines_option_stops_after_n_events(void **state)
{
	struct uk_cli cli = { .lines = 2 };
	struct run r;
	int i;

	fake_reset_all();
	for (i = 1; i <= 5; i++)
		add((uint64_t)i);
	RUN(&r, uk_cli_monitor, cli);
	assert_int_equal(r.code, UK_EXIT_OK);
	assert_non_null(strstr(r.out, " 1 precheck "));
	assert_non_null(strstr(r.out, " 2 precheck "));
	assert_null(strstr(r.out, " 3 precheck "));
	assert_int_equal(fake.next, 2);
	run_free(&r);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void timeout_ends_quietly(void **state)
{
	uint64_t t0 = mono_ms(), took;
	struct run r;

	fake_reset_all();
	add(1);
	struct uk_cli cli = { .timeout_ms = 200 };

	RUN(&r, uk_cli_monitor, cli);
	took = mono_ms() - t0;
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stderr", r.err, "");
	assert_non_null(strstr(r.out, " 1 precheck "));
	assert_true(took >= 200 && took < 5000);
	run_free(&r);
}

static void timeout_before_n_events_exits_1(void **state)
{
	struct uk_cli cli = { .lines = 3, .timeout_ms = 150 };
	struct run r;

	fake_reset_all();
	add(1);
	RUN(&r, uk_cli_monitor, cli);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: timed out: 1 of 3 events in 0.150 s\n");
	run_free(&r);
}

static void permission_denied_exits_5(void **state)
{
	struct run r;

	fake_reset_all();
	fake.events_err = -EPERM;
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_PERM);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: permission denied: needs CAP_SYS_ADMIN\n");
	assert_int_equal(fake.opens, fake.closes);
	run_free(&r);
	fake_reset_all();
	fake.events_err = -ENOMEM;
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: cannot join the events group: Cannot allocate memory\n");
	run_free(&r);
}

static void no_family_exits_3(void **state)
{
	struct run r;

	fake_reset_all();
	fake.open_err = -ENOENT;
	RUN(&r, uk_cli_monitor, json);
	assert_int_equal(r.code, UK_EXIT_NO_KERNEL);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: kernel lacks uaccess_kaddr support (CONFIG_DEBUG_UACCESS_KADDR)\n");
	uk_assert_text("stdout", r.out, "");
	run_free(&r);
}

static void read_error_exits_1(void **state)
{
	struct run r;

	fake_reset_all();
	add(1);
	add_error(-EIO);
	add(2);
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_FAILURE);
	uk_assert_text("stderr", r.err,
		    "uaccessctl: reading events failed: Input/output error\n");
	assert_non_null(strstr(r.out, " 1 precheck "));
	assert_null(strstr(r.out, " 2 precheck "));
	run_free(&r);
}

static void bad_arguments_exit_2(void **state)
{
	static const struct {
		const char *argv[2];
		int argc;
		const char *err;
	} cases[] = {
		{ { "now" }, 1, "unexpected argument 'now'" },
		{ { "now", "later" }, 2, "unexpected argument 'now'" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fake_reset_all();
		run_verb(uk_cli_monitor, plain, &r, cases[i].argc,
			 cases[i].argv);
		assert_int_equal(r.code, UK_EXIT_USAGE);
		if (!strstr(r.err, cases[i].err))
			fail_msg("case %zu: expected \"%s\" in \"%s\"", i,
				 cases[i].err, r.err);
		assert_int_equal(fake.opens, 0);
		run_free(&r);
	}
}

static void boot_time_is_used_without_real_time(void **state)
{
	struct uk_event ev;
	struct run r;

	fake_reset_all();
	fill(&ev, 1);
	ev.present &= ~(1ULL << UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL);
	ev.ts_boot = FAKE_BOOT_NS - 60000000000ULL + 250000000ULL;
	fake_add_event(&ev, 0);
	end_with_sigterm();
	RUN(&r, uk_cli_monitor, plain);
	assert_int_equal(r.code, UK_EXIT_OK);
	uk_assert_text("stdout", r.out,
		    "2025-11-24 15:59:00.250000 1 precheck __copy_to_user to-user 0xffff888000100008 kernel-mapped waitid+0x1c/0x80 poc[101]\n");
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest cli_monitor[] = {
		cmocka_unit_test(text_lines_match_golden),
		cmocka_unit_test(json_lines_match_golden),
		cmocka_unit_test(json_lines_have_usec_times_below_2_53),
		cmocka_unit_test(gaps_are_reported_as_lines),
		cmocka_unit_test(sequence_going_back_is_no_gap),
		cmocka_unit_test(overrun_is_reported_and_monitor_goes_on),
		cmocka_unit_test(malformed_messages_are_reported),
		cmocka_unit_test(every_message_of_a_datagram_is_read),
		cmocka_unit_test(lines_option_stops_after_n_events),
		cmocka_unit_test(timeout_ends_quietly),
		cmocka_unit_test(timeout_before_n_events_exits_1),
		cmocka_unit_test(permission_denied_exits_5),
		cmocka_unit_test(no_family_exits_3),
		cmocka_unit_test(read_error_exits_1),
		cmocka_unit_test(bad_arguments_exit_2),
		cmocka_unit_test(boot_time_is_used_without_real_time),
	};

	return cmocka_run_group_tests(cli_monitor, setup, NULL);
}
