// SPDX-License-Identifier: GPL-2.0
/*
 * uk_bench: the in-guest half of `make bench`, linked statically.
 *
 * Run under QEMU with -icount shift=0,sleep=off, where the guest clock
 * advances one nanosecond per guest instruction: every figure printed is
 * "guest instructions" (per call, per hit, per event).  Each measurement is
 * one line on stdout, "RESULT WORD...", that tests/bench/report.py reads.
 *
 *   uk_bench syscalls ROUNDS ITERS
 *       syscall microbenchmarks; each round runs all of them with the
 *       detector off, in report mode, then off again ("off2", for the
 *       A/A noise floor); on a kernel without the detector, three times
 *       as it is ("none")
 *   uk_bench helpers ROUNDS COUNT
 *       each helper of the test module COUNT times on a valid user address
 *       inside one write(): the per-call cost of the check, off vs report
 *   uk_bench hits ROUNDS COUNT CALLS
 *       the hit path: one site, mapped (the access succeeds when off)
 *       and unmapped (it faults), in an in-kernel loop of COUNT and as
 *       CALLS write()s of one hit each; 1,000 sites in a loop of COUNT
 *       and as CALLS hits in write()s of 100 (the sites run 100 at a
 *       time); modes off, count and report
 *   uk_bench soak HITS SITES [FIRST]
 *       HITS reported hits over SITES sites of the "sites" file from
 *       FIRST (default 5000), for the lockup/printk check
 *   uk_bench mode off|count|report|warn
 *   uk_bench ratelimit INTERVAL_MS BURST
 *   uk_bench now                     CLOCK_MONOTONIC in ns
 *   uk_bench listen SECONDS          read the events group until SECONDS
 *                                    of silence (a listener that costs
 *                                    next to nothing)
 *   uk_bench trigger FIRST N COUNT [CHUNK]
 *       COUNT hits over sites FIRST..FIRST+N-1 of the test module's
 *       "sites" file, CHUNK hits per write() (default: all in one);
 *       prints its own user and system time in microseconds and the
 *       guest time spent in the write()s (with UK_BENCH_SLEEP_US, the
 *       pauses after them are excluded)
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>

#include <linux/uaccess_kaddr.h>

#define UK_DEBUGFS	"/sys/kernel/debug/test_uaccess_kaddr/"
#define UK_TRIGGER	UK_DEBUGFS "trigger"
#define UK_SITES	UK_DEBUGFS "sites"

static void die(const char *what)
{
	fprintf(stderr, "uk_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---------------------------------------------------------- netlink */

struct nlreq {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	char attrs[256];
};

static int nl_fd = -1;
static uint16_t nl_family;

static void nl_put(struct nlreq *r, uint16_t type, const void *data,
		   uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void nl_init(struct nlreq *r, uint16_t family, uint8_t cmd)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nh.nlmsg_type = family;
	r->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r->gh.cmd = cmd;
	r->gh.version = 1;
}

/*
 * Send @r and read the answer: the attributes of a reply message go to
 * @cb; returns 0 or the negative error of the ack.
 */
static int nl_call(struct nlreq *r,
		   void (*cb)(uint16_t type, const void *data, uint16_t len,
			      void *arg),
		   void *arg)
{
	static char buf[65536];
	int err = 1;

	if (send(nl_fd, r, r->nh.nlmsg_len, 0) < 0)
		die("netlink send");
	while (err > 0) {
		ssize_t n = recv(nl_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0)
			die("netlink recv");
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				break;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				err = 0;
				break;
			}
			if (cb) {
				char *p = (char *)NLMSG_DATA(h) + GENL_HDRLEN;
				char *end = (char *)h + h->nlmsg_len;

				while (p + NLA_HDRLEN <= end) {
					struct nlattr *a = (struct nlattr *)p;

					if (a->nla_len < NLA_HDRLEN)
						break;
					cb(a->nla_type & NLA_TYPE_MASK,
					   p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN,
					   arg);
					p += NLA_ALIGN(a->nla_len);
				}
			}
		}
	}
	return err;
}

static uint32_t nl_events_group;

/* CTRL_ATTR_MCAST_GROUPS: nested { nested { NAME, ID } ... } */
static void groups_cb(const char *p, uint16_t len)
{
	const char *end = p + len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *g = (const struct nlattr *)p;
		const char *q = p + NLA_HDRLEN, *gend = p + g->nla_len;
		uint32_t id = 0;
		bool events = false;

		if (g->nla_len < NLA_HDRLEN)
			break;
		while (q + NLA_HDRLEN <= gend) {
			const struct nlattr *a = (const struct nlattr *)q;

			if (a->nla_len < NLA_HDRLEN)
				break;
			if (a->nla_type == CTRL_ATTR_MCAST_GRP_ID)
				memcpy(&id, q + NLA_HDRLEN, 4);
			if (a->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
				events = !strcmp(q + NLA_HDRLEN, "events");
			q += NLA_ALIGN(a->nla_len);
		}
		if (events)
			nl_events_group = id;
		p += NLA_ALIGN(g->nla_len);
	}
}

static void family_cb(uint16_t type, const void *data, uint16_t len, void *arg)
{
	if (type == CTRL_ATTR_FAMILY_ID && len >= 2)
		memcpy(arg, data, 2);
	if (type == CTRL_ATTR_MCAST_GROUPS)
		groups_cb(data, len);
}

/* Resolve the family; false when the kernel has no detector. */
static bool nl_open(void)
{
	struct nlreq r;

	if (nl_fd >= 0)
		return nl_family != 0;
	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl_fd < 0)
		die("netlink socket");
	nl_init(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	nl_put(&r, CTRL_ATTR_FAMILY_NAME, UACCESS_KADDR_FAMILY_NAME,
	       sizeof(UACCESS_KADDR_FAMILY_NAME));
	if (nl_call(&r, family_cb, &nl_family) < 0)
		nl_family = 0;
	return nl_family != 0;
}

static const char * const mode_names[] = {
	[UACCESS_KADDR_MODE_OFF] = "off",
	[UACCESS_KADDR_MODE_COUNT] = "count",
	[UACCESS_KADDR_MODE_REPORT] = "report",
	[UACCESS_KADDR_MODE_WARN] = "warn",
};

static int mode_number(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if (mode_names[i] && !strcmp(name, mode_names[i]))
			return i;
	}
	return -1;
}

/* SET_CONFIG; a negative value leaves that setting alone. */
static void set_config(int mode, long interval_ms, long burst)
{
	struct nlreq r;
	uint32_t v;
	int err;

	if (!nl_open()) {
		fprintf(stderr, "uk_bench: the kernel has no uaccess_kaddr family\n");
		exit(1);
	}
	nl_init(&r, nl_family, UACCESS_KADDR_CMD_SET_CONFIG);
	if (mode >= 0) {
		v = mode;
		nl_put(&r, UACCESS_KADDR_A_CONFIG_MODE, &v, sizeof(v));
	}
	if (interval_ms >= 0) {
		v = interval_ms;
		nl_put(&r, UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS, &v,
		       sizeof(v));
	}
	if (burst >= 0) {
		v = burst;
		nl_put(&r, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST, &v, sizeof(v));
	}
	err = nl_call(&r, NULL, NULL);
	if (err) {
		errno = -err;
		die("SET_CONFIG");
	}
}

static void set_mode(const char *name)
{
	set_config(mode_number(name), -1, -1);
}

static void status_cb(uint16_t type, const void *data, uint16_t len, void *arg)
{
	uint64_t *st = arg;

	if (type > UACCESS_KADDR_A_STATUS_MAX)
		return;
	if (len == 8)
		memcpy(&st[type], data, 8);
	else if (len == 4)
		st[type] = *(const uint32_t *)data;
}

static void get_status(uint64_t st[UACCESS_KADDR_A_STATUS_MAX + 1])
{
	struct nlreq r;
	int err;

	memset(st, 0, sizeof(uint64_t) * (UACCESS_KADDR_A_STATUS_MAX + 1));
	if (!nl_open())
		return;
	nl_init(&r, nl_family, UACCESS_KADDR_CMD_GET_STATUS);
	err = nl_call(&r, status_cb, st);
	if (err) {
		errno = -err;
		die("GET_STATUS");
	}
}

/* ------------------------------------------------------ syscalls */

static int zero_fd, sock[2], futex_word;
static char buf[4096];

static void b_getppid(void)
{
	syscall(SYS_getppid);
}

static void b_read(void)
{
	if (read(zero_fd, buf, 64) != 64)
		die("read");
}

static void b_pread(void)
{
	if (pread(zero_fd, buf, 64, 0) != 64)
		die("pread");
}

static void b_uname(void)
{
	struct utsname u;

	uname(&u);
}

static void b_getrusage(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
}

static void b_fstat(void)
{
	struct stat st;

	if (fstat(zero_fd, &st))
		die("fstat");
}

static void b_poll(void)
{
	struct pollfd p = { .fd = zero_fd, .events = POLLIN };

	if (poll(&p, 1, 0) != 1)
		die("poll");
}

/* The value differs: futex_wait() reads it with __get_user() and returns. */
static void b_futex_wait(void)
{
	syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
}

static void b_futex_wake(void)
{
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* One datagram there and back with its SCM_CREDENTIALS (put_cmsg()). */
static void b_recvmsg_cmsg(void)
{
	char data = 'x', cbuf[CMSG_SPACE(sizeof(struct ucred))];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};

	if (send(sock[0], &data, 1, 0) != 1)
		die("send");
	if (recvmsg(sock[1], &m, 0) != 1 || !(CMSG_FIRSTHDR(&m)))
		die("recvmsg");
}

static const struct bench {
	const char *name;
	void (*fn)(void);
} benches[] = {
	{ "getppid", b_getppid },
	{ "read", b_read },
	{ "pread", b_pread },
	{ "uname", b_uname },
	{ "getrusage", b_getrusage },
	{ "fstat", b_fstat },
	{ "poll", b_poll },
	{ "futex_wait", b_futex_wait },
	{ "futex_wake", b_futex_wake },
	{ "recvmsg_cmsg", b_recvmsg_cmsg },
};

#define NR_BENCHES	(sizeof(benches) / sizeof(benches[0]))

static double time_bench(const struct bench *b, unsigned long iters)
{
	uint64_t t0;
	unsigned long i;

	for (i = 0; i < 64; i++)	/* warm the caches and the paths */
		b->fn();
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		b->fn();
	return (double)(now_ns() - t0) / iters;
}

static void setup_syscalls(void)
{
	int one = 1;

	zero_fd = open("/dev/zero", O_RDONLY);
	if (zero_fd < 0)
		die("/dev/zero");
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sock))
		die("socketpair");
	if (setsockopt(sock[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		die("SO_PASSCRED");
}

/*
 * The three slots of a round: off, report, off again.  Alternating in the
 * same boot cancels slow drift; the two "off" slots give the A/A ratio.
 */
static int cmd_syscalls(unsigned long rounds, unsigned long iters)
{
	static const char * const slots[] = { "off", "report", "off2" };
	bool detector = nl_open();
	unsigned long r, s, b;

	setup_syscalls();
	for (r = 0; r < rounds; r++) {
		for (s = 0; s < 3; s++) {
			const char *mode = detector ? slots[s] : "none";

			if (detector)
				set_mode(s == 1 ? "report" : "off");
			for (b = 0; b < NR_BENCHES; b++)
				printf("syscall %s %lu %s %.3f\n", benches[b].name,
				       r, s == 2 && !detector ? "none2" :
				       s == 1 && !detector ? "none1" : mode,
				       time_bench(&benches[b], iters));
			fflush(stdout);
		}
	}
	if (detector)
		set_mode("report");
	return 0;
}

/* ------------------------------------------------ test module */

static int trig_fd = -1, sites_fd = -1;

static void open_module(void)
{
	if (trig_fd >= 0)
		return;
	trig_fd = open(UK_TRIGGER, O_WRONLY);
	sites_fd = open(UK_SITES, O_WRONLY);
	if (trig_fd < 0 || sites_fd < 0)
		die("the test module's debugfs files");
}

/* One write of @cmd; the module overwrites a "user-valid" buffer. */
static void write_cmd(int fd, const char *cmd)
{
	char b[128];
	size_t len = strlen(cmd);

	memcpy(b, cmd, len + 1);
	if (write(fd, b, len) != (ssize_t)len)
		die(cmd);
}

/* Instructions per access: one write() of COUNT accesses. */
static double time_trigger(const char *helper, const char *class,
			   unsigned long count)
{
	char cmd[128];
	uint64_t t0;

	snprintf(cmd, sizeof(cmd), "%s %s %lu", helper, class, count);
	t0 = now_ns();
	write_cmd(trig_fd, cmd);
	return (double)(now_ns() - t0) / count;
}

static int cmd_helpers(unsigned long rounds, unsigned long count)
{
	static const char * const helpers[] = {
		"get_user", "put_user", "copy_from_user", "copy_to_user",
		"copy_from_user_inatomic", "copy_to_user_inatomic",
		"clear_user", "unsafe_get_user", "unsafe_put_user",
		"unsafe_copy_to_user", "unsafe_cmpxchg_user",
		"checked_copy_from_user", "checked_copy_to_user",
		"checked_clear_user", "copy_user_generic",
	};
	static const char * const slots[] = { "off", "report", "off2" };
	unsigned long r, s, h;

	open_module();
	for (r = 0; r < rounds; r++) {
		for (s = 0; s < 3; s++) {
			set_mode(s == 1 ? "report" : "off");
			for (h = 0; h < sizeof(helpers) / sizeof(helpers[0]); h++) {
				time_trigger(helpers[h], "user-valid", 64);
				printf("helper %s %lu %s %.3f\n", helpers[h], r,
				       slots[s], time_trigger(helpers[h],
							      "user-valid", count));
			}
			fflush(stdout);
		}
	}
	set_mode("report");
	return 0;
}

/* Guest time spent in the write()s of trigger_sites(), pauses excluded. */
static uint64_t write_ns;

/*
 * Hits over sites FIRST.. of the "sites" file, CHUNK per write(); with N
 * of 1, of the trigger file's get_user site.
 */
static void trigger_sites(unsigned long first, unsigned long n,
			  unsigned long count, unsigned long chunk)
{
	unsigned long done = 0, at = first;
	char cmd[96];

	while (done < count) {
		unsigned long c = count - done < chunk ? count - done : chunk;
		uint64_t t0 = now_ns();

		/* One site: the trigger file's; else "FIRST N COUNT". */
		if (n == 1) {
			snprintf(cmd, sizeof(cmd), "get_user kernel-kmalloc %lu", c);
			write_cmd(trig_fd, cmd);
		} else {
			snprintf(cmd, sizeof(cmd), "%lu %lu %lu", at, n, c);
			write_cmd(sites_fd, cmd);
		}
		write_ns += now_ns() - t0;
		at = first + (at - first + c) % n;
		done += c;
		if (getenv("UK_BENCH_YIELD"))
			sched_yield();
		if (getenv("UK_BENCH_SLEEP_US"))
			usleep(atoi(getenv("UK_BENCH_SLEEP_US")));
	}
}

static double time_sites(unsigned long n, unsigned long count,
			 unsigned long chunk)
{
	uint64_t t0 = now_ns();

	trigger_sites(0, n, count, chunk);
	return (double)(now_ns() - t0) / count;
}

/* One hit per write() of the trigger file. */
static double time_trigger_calls(const char *class, unsigned long calls)
{
	char cmd[64];
	uint64_t t0;
	unsigned long i;

	snprintf(cmd, sizeof(cmd), "get_user %s 1", class);
	t0 = now_ns();
	for (i = 0; i < calls; i++)
		write_cmd(trig_fd, cmd);
	return (double)(now_ns() - t0) / calls;
}

static int cmd_hits(unsigned long rounds, unsigned long count,
		    unsigned long calls)
{
	static const char * const modes[] = { "off", "count", "report" };
	uint64_t st[UACCESS_KADDR_A_STATUS_MAX + 1];
	unsigned long r, m;

	open_module();
	for (r = 0; r < rounds; r++) {
		for (m = 0; m < 3; m++) {
			set_mode(modes[m]);
			/* warm: the sites exist, the paths are in the caches */
			time_trigger("get_user", "kernel-kmalloc", 16);
			time_trigger("get_user", "kernel-unmapped", 16);
			time_sites(1000, 1000, 1000);
			printf("hit loop-1-mapped %lu %s %.3f\n", r, modes[m],
			       time_trigger("get_user", "kernel-kmalloc", count));
			printf("hit loop-1-unmapped %lu %s %.3f\n", r, modes[m],
			       time_trigger("get_user", "kernel-unmapped", count));
			printf("hit loop-1000-mapped %lu %s %.3f\n", r, modes[m],
			       time_sites(1000, count, count));
			printf("hit call-1-mapped %lu %s %.3f\n", r, modes[m],
			       time_trigger_calls("kernel-kmalloc", calls));
			printf("hit call-1-unmapped %lu %s %.3f\n", r, modes[m],
			       time_trigger_calls("kernel-unmapped", calls));
			printf("hit call-1000-mapped %lu %s %.3f\n", r, modes[m],
			       time_sites(1000, calls, 100));
			fflush(stdout);
		}
	}
	set_mode("report");
	get_status(st);
	printf("hitstatus sites_used %" PRIu64 " sites_overflow %" PRIu64 "\n",
	       st[UACCESS_KADDR_A_STATUS_SITES_USED],
	       st[UACCESS_KADDR_A_STATUS_SITES_OVERFLOW]);
	return 0;
}

/*
 * HITS reported hits over SITES sites of the "sites" file from FIRST (not
 * hit before: their first hits print); prints the kernel's counters.
 */
static int cmd_soak(unsigned long hits, unsigned long sites,
		    unsigned long first)
{
	char cmd[96];
	uint64_t a[UACCESS_KADDR_A_STATUS_MAX + 1], b[UACCESS_KADDR_A_STATUS_MAX + 1];
	uint64_t t0, t1;

	open_module();
	set_mode("report");
	get_status(a);
	snprintf(cmd, sizeof(cmd), "%lu %lu %lu", first, sites, hits);
	t0 = now_ns();
	write_cmd(sites_fd, cmd);
	t1 = now_ns();
	get_status(b);
#define D(x) (b[UACCESS_KADDR_A_STATUS_##x] - a[UACCESS_KADDR_A_STATUS_##x])
	printf("soak %lu %lu ns %" PRIu64 " hits %" PRIu64 " reported %" PRIu64
	       " suppressed %" PRIu64 " dropped %" PRIu64 " overflow %" PRIu64 "\n",
	       hits, sites, t1 - t0, D(HITS_PRECHECK), D(REPORTED), D(SUPPRESSED),
	       D(DROPPED), D(SITES_OVERFLOW));
#undef D
	return 0;
}

/*
 * Subscribe to the events group and read until SECONDS of silence: a
 * listener that costs next to nothing, to tell the kernel's share of the
 * pipeline from uaccessd's and journald's.  Prints the messages read.
 */
static int cmd_listen(unsigned long seconds)
{
	static char msg[65536];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned long n = 0, bytes = 0;
	int rcvbuf = 64 << 20;
	struct pollfd p;
	int fd;

	if (!nl_open() || !nl_events_group) {
		fprintf(stderr, "uk_bench: no events group\n");
		return 1;
	}
	/* Bound: broadcasts skip a socket whose port id is 0, the kernel's. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				 sizeof(rcvbuf)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &nl_events_group,
		       sizeof(nl_events_group)))
		die("events socket");
	printf("listening\n");
	p.fd = fd;
	p.events = POLLIN;
	while (poll(&p, 1, seconds * 1000) > 0) {
		ssize_t r = recv(fd, msg, sizeof(msg), 0);

		if (r < 0 && errno != ENOBUFS)
			die("events recv");
		if (r > 0) {
			n++;
			bytes += r;
		}
	}
	printf("listened %lu messages %lu bytes\n", n, bytes);
	return 0;
}

static int cmd_status(void)
{
	static const char * const names[] = {
		[UACCESS_KADDR_A_STATUS_MODE] = "mode",
		[UACCESS_KADDR_A_STATUS_HITS_FAULT] = "hits_fault",
		[UACCESS_KADDR_A_STATUS_HITS_GP] = "hits_gp",
		[UACCESS_KADDR_A_STATUS_HITS_PRECHECK] = "hits_precheck",
		[UACCESS_KADDR_A_STATUS_REJECTED] = "rejected",
		[UACCESS_KADDR_A_STATUS_REPORTED] = "reported",
		[UACCESS_KADDR_A_STATUS_SUPPRESSED] = "suppressed",
		[UACCESS_KADDR_A_STATUS_DROPPED] = "dropped",
		[UACCESS_KADDR_A_STATUS_SITES_USED] = "sites_used",
		[UACCESS_KADDR_A_STATUS_SITES_MAX] = "sites_max",
		[UACCESS_KADDR_A_STATUS_SITES_OVERFLOW] = "sites_overflow",
		[UACCESS_KADDR_A_STATUS_LAST_SEQ] = "last_seq",
	};
	uint64_t st[UACCESS_KADDR_A_STATUS_MAX + 1];
	unsigned int i;

	get_status(st);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i])
			printf("%s %" PRIu64 "\n", names[i], st[i]);
	}
	return 0;
}

static unsigned long arg(char **argv, int i, int argc, unsigned long def)
{
	char *end;
	unsigned long v;

	if (i >= argc)
		return def;
	v = strtoul(argv[i], &end, 0);
	if (*end) {
		fprintf(stderr, "uk_bench: not a number: %s\n", argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "syscalls"))
		return cmd_syscalls(arg(argv, 2, argc, 21), arg(argv, 3, argc, 10000));
	if (!strcmp(cmd, "helpers"))
		return cmd_helpers(arg(argv, 2, argc, 7), arg(argv, 3, argc, 100000));
	if (!strcmp(cmd, "hits"))
		return cmd_hits(arg(argv, 2, argc, 5), arg(argv, 3, argc, 100000),
				arg(argv, 4, argc, 10000));
	if (!strcmp(cmd, "soak"))
		return cmd_soak(arg(argv, 2, argc, 1000000), arg(argv, 3, argc, 1),
				arg(argv, 4, argc, 5000));
	if (!strcmp(cmd, "mode") && argc == 3 && mode_number(argv[2]) > 0) {
		set_mode(argv[2]);
		return 0;
	}
	if (!strcmp(cmd, "ratelimit") && argc == 4) {
		set_config(-1, arg(argv, 2, argc, 0), arg(argv, 3, argc, 0));
		return 0;
	}
	if (!strcmp(cmd, "status"))
		return cmd_status();
	if (!strcmp(cmd, "listen"))
		return cmd_listen(arg(argv, 2, argc, 2));
	if (!strcmp(cmd, "now")) {
		printf("%" PRIu64 "\n", now_ns());
		return 0;
	}
	if (!strcmp(cmd, "trigger") && argc >= 5) {
		unsigned long count = arg(argv, 4, argc, 0);

		struct rusage ru;

		open_module();
		trigger_sites(arg(argv, 2, argc, 0), arg(argv, 3, argc, 1), count,
			      arg(argv, 5, argc, count));
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld %ld %" PRIu64 "\n",
		       ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec,
		       ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec, write_ns);
		return 0;
	}
	fprintf(stderr,
		"usage: uk_bench syscalls ROUNDS ITERS | helpers ROUNDS COUNT |\n"
		"       hits ROUNDS COUNT CALLS | soak HITS SITES [FIRST] | mode MODE |\n"
		"       ratelimit MS BURST | status | now | listen SECONDS |\n"
		"       trigger FIRST N COUNT [CHUNK]\n");
	return 2;
}
