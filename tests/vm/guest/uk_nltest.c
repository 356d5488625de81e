// SPDX-License-Identifier: GPL-2.0
/*
 * uk_nltest - end-to-end test of the uaccess_kaddr generic netlink family,
 * run inside the test VM against the patched kernel.
 *
 *   uk_nltest events         each unchecked helper x bug class gives exactly
 *                            one complete event; checked helpers and the
 *                            harmless classes give none
 *   uk_nltest status         GET_STATUS, DUMP_SITES and RESET agree with
 *                            what was triggered
 *   uk_nltest perm           what an unprivileged user may and may not do
 *   uk_nltest malformed [N]  invalid and N random requests are answered and
 *                            leave the configuration alone (seed: UK_SEED)
 *   uk_nltest flood [N]      N hits on each of two sites are all accounted
 *
 * Hits are made by writing "HELPER CLASS [COUNT]" to the trigger file of the
 * test_uaccess_kaddr module.  The output is TAP without plan or numbers: one
 * "ok - ..." or "not ok - ... # expected ..., got ..." line per check and
 * "# ..." comments.  The exit status is 0 whenever the results could be
 * reported as test lines, 1 after a setup failure, 2 on a usage error.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <linux/audit.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/uaccess_kaddr.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK		270
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED		0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS		0x200
#endif
#ifndef NLMSGERR_ATTR_MSG
#define NLMSGERR_ATTR_MSG	1
#endif

#define UK_MODULE		"test_uaccess_kaddr"
#define UK_TRIGGER		"/sys/kernel/debug/" UK_MODULE "/trigger"
#define UK_NOBODY		65534
/* The lowest kernel-half address with 5-level paging (4-level: higher). */
#define UK_KERNEL_MIN		0xff00000000000000ULL
#define UK_NONCANONICAL		0xdead000000000100ULL	/* the trigger's LIST_POISON1 */
#define UK_ALL_ONES		0xfffffffffffffff0ULL
#define UK_TIMEOUT_MS		5000	/* for an answer or an event */
#define UK_EXTRA_MS		100	/* for events beyond the expected one */
#define UK_QUIET_MS		1000	/* silence that ends a wait for events */
#define UK_BOOT_SLACK_NS	50000000ULL
#define UK_DAY_S		86400
#define UK_WHY			512
#define UK_MAX_ATTR		32
#define UK_SYSCALL_ARGS		6	/* x86-64 passes six in registers */
#define UK_MAX_FRAMES		32
#define UK_SYM_LEN		256
#define UK_FUZZ_DEFAULT		10000
#define UK_FUZZ_TIMEOUT_MS	2000
#define UK_FUZZ_MAX_TIMEOUTS	5
#define UK_FUZZ_BODY		256
#define UK_FLOOD_DEFAULT	1000000UL
#define UK_FLOOD_MAX		100000000UL
#define UK_DEFAULT_SEED		0x756b5f6e6c746573ULL

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define UK_PRINTF(f, a)		__attribute__((format(printf, f, a)))

/* ---------------------------------------------------------------- TAP */

static unsigned int uk_nr_ok, uk_nr_not_ok;

/* One line, and no '#' that the harness could read as "# SKIP". */
static void uk_oneline(char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == '\t' || *s == '#')
			*s = ' ';
	}
}

/* One test line; @why says what was expected and what came instead. */
UK_PRINTF(3, 4)
static bool tap(bool ok, const char *why, const char *fmt, ...)
{
	char desc[UK_WHY], diag[UK_WHY];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	snprintf(diag, sizeof(diag), "%s", why && *why ? why : "failed");
	uk_oneline(desc);
	uk_oneline(diag);
	if (ok) {
		printf("ok - %s\n", desc);
		uk_nr_ok++;
	} else {
		printf("not ok - %s # %s\n", desc, diag);
		uk_nr_not_ok++;
	}
	return ok;
}

UK_PRINTF(1, 2)
static void diag(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	uk_oneline(buf);
	printf("# %s\n", buf);
}

/* Fill @w (UK_WHY bytes) with the reason of a failed check; false. */
UK_PRINTF(2, 3)
static bool fail(char *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w, UK_WHY, fmt, ap);
	va_end(ap);
	return false;
}

/* A setup step failed: report it as a test line, exit status 1. */
static int setup_fail(const char *what, const char *why)
{
	tap(false, why, "%s", what);
	return 1;
}

/* Short strings returned by value, usable as printf arguments. */
struct uk_str {
	char s[320];
};

static struct uk_str errname(int err)
{
	struct uk_str r;
	const char *n = strerrorname_np(err);

	if (n)
		snprintf(r.s, sizeof(r.s), "%s", n);
	else
		snprintf(r.s, sizeof(r.s), "errno %d", err);
	return r;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t ms_since(uint64_t start)
{
	return (now_ns(CLOCK_MONOTONIC) - start) / 1000000ULL;
}

/* ------------------------------------------------------- enum names */

static const char *const uk_mode_names[] = {
	[UACCESS_KADDR_MODE_OFF] = "OFF",
	[UACCESS_KADDR_MODE_COUNT] = "COUNT",
	[UACCESS_KADDR_MODE_REPORT] = "REPORT",
	[UACCESS_KADDR_MODE_WARN] = "WARN",
};

static const char *const uk_kind_names[] = {
	[UACCESS_KADDR_KIND_FAULT] = "FAULT",
	[UACCESS_KADDR_KIND_GP] = "GP",
	[UACCESS_KADDR_KIND_PRECHECK] = "PRECHECK",
};

static const char *const uk_helper_names[] = {
	[UACCESS_KADDR_HELPER_GET_USER] = "GET_USER",
	[UACCESS_KADDR_HELPER_PUT_USER] = "PUT_USER",
	[UACCESS_KADDR_HELPER_COPY_FROM_USER] = "COPY_FROM_USER",
	[UACCESS_KADDR_HELPER_COPY_TO_USER] = "COPY_TO_USER",
	[UACCESS_KADDR_HELPER_CLEAR_USER] = "CLEAR_USER",
	[UACCESS_KADDR_HELPER_UNSAFE_GET_USER] = "UNSAFE_GET_USER",
	[UACCESS_KADDR_HELPER_UNSAFE_PUT_USER] = "UNSAFE_PUT_USER",
	[UACCESS_KADDR_HELPER_UNSAFE_COPY_TO_USER] = "UNSAFE_COPY_TO_USER",
	[UACCESS_KADDR_HELPER_COPY_USER_GENERIC] = "COPY_USER_GENERIC",
	[UACCESS_KADDR_HELPER_STRNCPY_FROM_USER] = "STRNCPY_FROM_USER",
	[UACCESS_KADDR_HELPER_STRNLEN_USER] = "STRNLEN_USER",
	[UACCESS_KADDR_HELPER_FUTEX] = "FUTEX",
	[UACCESS_KADDR_HELPER_CMPXCHG_USER] = "CMPXCHG_USER",
	[UACCESS_KADDR_HELPER_UNKNOWN] = "UNKNOWN",
};

static const char *const uk_dir_names[] = {
	[UACCESS_KADDR_DIRECTION_FROM_USER] = "FROM_USER",
	[UACCESS_KADDR_DIRECTION_TO_USER] = "TO_USER",
	[UACCESS_KADDR_DIRECTION_BOTH] = "BOTH",
};

static const char *const uk_class_names[] = {
	[UACCESS_KADDR_ADDR_CLASS_USER] = "USER",
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_UNMAPPED] = "KERNEL_UNMAPPED",
	[UACCESS_KADDR_ADDR_CLASS_KERNEL_MAPPED] = "KERNEL_MAPPED",
	[UACCESS_KADDR_ADDR_CLASS_NONCANONICAL] = "NONCANONICAL",
	[UACCESS_KADDR_ADDR_CLASS_GUARD_PAGE] = "GUARD_PAGE",
	[UACCESS_KADDR_ADDR_CLASS_ALL_ONES] = "ALL_ONES",
	[UACCESS_KADDR_ADDR_CLASS_VSYSCALL] = "VSYSCALL",
};

static const char *const uk_context_names[] = {
	[UACCESS_KADDR_CONTEXT_TASK] = "TASK",
	[UACCESS_KADDR_CONTEXT_SOFTIRQ] = "SOFTIRQ",
	[UACCESS_KADDR_CONTEXT_HARDIRQ] = "HARDIRQ",
	[UACCESS_KADDR_CONTEXT_NMI] = "NMI",
};

struct uk_names {
	const char *const *name;
	size_t nr;
};

#define UK_NAMES(tbl)	((struct uk_names){ tbl, ARRAY_SIZE(tbl) })

/* "NAME (n)" for the value @v of an enum. */
static struct uk_str enum_str(struct uk_names n, uint64_t v)
{
	struct uk_str r;
	const char *name = v < n.nr && n.name[v] ? n.name[v] : "unknown";

	snprintf(r.s, sizeof(r.s), "%s (%" PRIu64 ")", name, v);
	return r;
}

/* ------------------------------------------- helpers, classes: the matrix */

/*
 * The trigger functions of the test module.  @helper is the helper the
 * detector must name (0: a checked helper, never reported), @size the length
 * of its access; @writes triggers are refused with kernel-text.
 */
struct uk_helper {
	const char *name;
	unsigned int helper;
	unsigned int dir;
	bool writes;
	unsigned int size;
};

#define UK_UNCHECKED(_name, _helper, _dir, _writes, _size) {		\
	.name = #_name,							\
	.helper = UACCESS_KADDR_HELPER_##_helper,			\
	.dir = UACCESS_KADDR_DIRECTION_##_dir,				\
	.writes = _writes,						\
	.size = _size,							\
}
#define UK_CHECKED(_name, _writes)	{ .name = #_name, .writes = _writes }

static const struct uk_helper uk_helpers[] = {
	UK_UNCHECKED(get_user, GET_USER, FROM_USER, false, 8),
	UK_UNCHECKED(put_user, PUT_USER, TO_USER, true, 8),
	UK_UNCHECKED(copy_from_user, COPY_FROM_USER, FROM_USER, false, 16),
	UK_UNCHECKED(copy_to_user, COPY_TO_USER, TO_USER, true, 16),
	UK_UNCHECKED(copy_from_user_inatomic, COPY_FROM_USER, FROM_USER, false, 16),
	UK_UNCHECKED(copy_to_user_inatomic, COPY_TO_USER, TO_USER, true, 16),
	UK_UNCHECKED(clear_user, CLEAR_USER, TO_USER, true, 16),
	UK_UNCHECKED(unsafe_get_user, UNSAFE_GET_USER, FROM_USER, false, 8),
	UK_UNCHECKED(unsafe_put_user, UNSAFE_PUT_USER, TO_USER, true, 8),
	UK_UNCHECKED(unsafe_copy_to_user, UNSAFE_COPY_TO_USER, TO_USER, true, 16),
	UK_UNCHECKED(unsafe_cmpxchg_user, CMPXCHG_USER, BOTH, true, 8),
	UK_CHECKED(checked_get_user, false),
	UK_CHECKED(checked_put_user, true),
	UK_CHECKED(checked_copy_from_user, false),
	UK_CHECKED(checked_copy_to_user, true),
	UK_CHECKED(checked_clear_user, true),
	UK_CHECKED(checked_strncpy_from_user, false),
	UK_CHECKED(checked_strnlen_user, false),
	UK_CHECKED(nofault_read, false),
	UK_CHECKED(nofault_write, true),
};

#define UK_NR_HELPERS	ARRAY_SIZE(uk_helpers)

/*
 * The address classes of the test module.  @bug: an unchecked helper given
 * such an address is a bug and is reported with @addr_class (and exactly
 * @addr when non-zero); @read_only: writing triggers are refused.
 */
struct uk_class {
	const char *name;
	bool bug;
	bool read_only;
	unsigned int addr_class;
	uint64_t addr;
};

#define UK_BUG(_name, _class, _addr, _ro) {				\
	.name = _name,							\
	.bug = true,							\
	.read_only = _ro,						\
	.addr_class = UACCESS_KADDR_ADDR_CLASS_##_class,		\
	.addr = _addr,							\
}
#define UK_HARMLESS(_name)	{ .name = _name }

static const struct uk_class uk_classes[] = {
	UK_BUG("kernel-unmapped", KERNEL_UNMAPPED, 0, false),
	UK_BUG("kernel-kmalloc", KERNEL_MAPPED, 0, false),
	UK_BUG("kernel-stack", KERNEL_MAPPED, 0, false),
	UK_BUG("kernel-text", KERNEL_MAPPED, 0, true),
	UK_BUG("noncanonical", NONCANONICAL, UK_NONCANONICAL, false),
	UK_HARMLESS("guard-page"),
	UK_BUG("all-ones", ALL_ONES, UK_ALL_ONES, false),
	UK_HARMLESS("user-valid"),
	UK_HARMLESS("user-faulting"),
};

static const struct uk_helper *helper_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < UK_NR_HELPERS; i++) {
		if (!strcmp(uk_helpers[i].name, name))
			return &uk_helpers[i];
	}
	return NULL;
}

/* ------------------------------------------------ attribute schemas */

/* UK_A_U64S: a multi-attr of u64, each one kept by its parser. */
enum uk_atype { UK_A_NONE, UK_A_PAD, UK_A_U32, UK_A_S32, UK_A_U64, UK_A_U64S, UK_A_STR, UK_A_NEST };

struct uk_adesc {
	const char *name;
	enum uk_atype type;
};

struct uk_aset {
	const char *name;
	const struct uk_adesc *attr;
	int max;
};

#define UK_A(set, attr, str, t) [UACCESS_KADDR_A_##set##_##attr] = { str, UK_A_##t }

static const struct uk_adesc uk_event_desc[UACCESS_KADDR_A_EVENT_MAX + 1] = {
	UK_A(EVENT, PAD, "pad", PAD),
	UK_A(EVENT, SEQ, "seq", U64),
	UK_A(EVENT, TIMESTAMP_BOOT, "timestamp-boot", U64),
	UK_A(EVENT, TIMESTAMP_REAL, "timestamp-real", U64),
	UK_A(EVENT, KIND, "kind", U32),
	UK_A(EVENT, HELPER, "helper", U32),
	UK_A(EVENT, DIRECTION, "direction", U32),
	UK_A(EVENT, ADDR_CLASS, "addr-class", U32),
	UK_A(EVENT, ADDRESS, "address", U64),
	UK_A(EVENT, SIZE, "size", U64),
	UK_A(EVENT, SITE_ID, "site-id", U32),
	UK_A(EVENT, SITE_SYMBOL, "site-symbol", STR),
	UK_A(EVENT, SITE_IP, "site-ip", U64),
	UK_A(EVENT, STACK, "stack", NEST),
	UK_A(EVENT, STACK_HASH, "stack-hash", U32),
	UK_A(EVENT, PID, "pid", U32),
	UK_A(EVENT, TGID, "tgid", U32),
	UK_A(EVENT, COMM, "comm", STR),
	UK_A(EVENT, UID, "uid", U32),
	UK_A(EVENT, SYSCALL_NR, "syscall-nr", S32),
	UK_A(EVENT, CPU, "cpu", U32),
	UK_A(EVENT, COUNT, "count", U64),
	UK_A(EVENT, SUPPRESSED, "suppressed", U64),
	UK_A(EVENT, CONTEXT, "context", U32),
	UK_A(EVENT, SYSCALL_ARCH, "syscall-arch", U32),
	UK_A(EVENT, SYSCALL_ARGS, "syscall-args", U64S),
};

static const struct uk_adesc uk_frame_desc[UACCESS_KADDR_A_STACK_FRAME_MAX + 1] = {
	UK_A(STACK_FRAME, PAD, "pad", PAD),
	UK_A(STACK_FRAME, IP, "ip", U64),
	UK_A(STACK_FRAME, SYMBOL, "symbol", STR),
};

static const struct uk_adesc uk_status_desc[UACCESS_KADDR_A_STATUS_MAX + 1] = {
	UK_A(STATUS, PAD, "pad", PAD),
	UK_A(STATUS, MODE, "mode", U32),
	UK_A(STATUS, HITS_FAULT, "hits-fault", U64),
	UK_A(STATUS, HITS_GP, "hits-gp", U64),
	UK_A(STATUS, HITS_PRECHECK, "hits-precheck", U64),
	UK_A(STATUS, REJECTED, "rejected", U64),
	UK_A(STATUS, REPORTED, "reported", U64),
	UK_A(STATUS, SUPPRESSED, "suppressed", U64),
	UK_A(STATUS, DROPPED, "dropped", U64),
	UK_A(STATUS, SITES_USED, "sites-used", U32),
	UK_A(STATUS, SITES_MAX, "sites-max", U32),
	UK_A(STATUS, SITES_OVERFLOW, "sites-overflow", U64),
	UK_A(STATUS, LAST_SEQ, "last-seq", U64),
	UK_A(STATUS, RATELIMIT_INTERVAL_MS, "ratelimit-interval-ms", U32),
	UK_A(STATUS, RATELIMIT_BURST, "ratelimit-burst", U32),
	UK_A(STATUS, QUEUE_LEN, "queue-len", U32),
	UK_A(STATUS, ACCESS, "access", U32),
};

static const struct uk_adesc uk_config_desc[UACCESS_KADDR_A_CONFIG_MAX + 1] = {
	UK_A(CONFIG, MODE, "mode", U32),
	UK_A(CONFIG, RATELIMIT_INTERVAL_MS, "ratelimit-interval-ms", U32),
	UK_A(CONFIG, RATELIMIT_BURST, "ratelimit-burst", U32),
};

static const struct uk_adesc uk_site_desc[UACCESS_KADDR_A_SITE_MAX + 1] = {
	UK_A(SITE, PAD, "pad", PAD),
	UK_A(SITE, SITE_ID, "site-id", U32),
	UK_A(SITE, SITE_IP, "site-ip", U64),
	UK_A(SITE, SITE_SYMBOL, "site-symbol", STR),
	UK_A(SITE, KIND, "kind", U32),
	UK_A(SITE, HELPER, "helper", U32),
	UK_A(SITE, DIRECTION, "direction", U32),
	UK_A(SITE, COUNT, "count", U64),
	UK_A(SITE, SUPPRESSED, "suppressed", U64),
	UK_A(SITE, REPORTED, "reported", U64),
	UK_A(SITE, FIRST_TIMESTAMP_BOOT, "first-timestamp-boot", U64),
	UK_A(SITE, LAST_TIMESTAMP_BOOT, "last-timestamp-boot", U64),
	UK_A(SITE, LAST_ADDRESS, "last-address", U64),
	UK_A(SITE, LAST_PID, "last-pid", U32),
	UK_A(SITE, LAST_COMM, "last-comm", STR),
	UK_A(SITE, STACK_HASH, "stack-hash", U32),
};

#define UK_SET(_name, _desc)	{ _name, _desc, (int)ARRAY_SIZE(_desc) - 1 }

static const struct uk_aset uk_event_set = UK_SET("event", uk_event_desc);
static const struct uk_aset uk_frame_set = UK_SET("stack-frame", uk_frame_desc);
static const struct uk_aset uk_status_set = UK_SET("status", uk_status_desc);
static const struct uk_aset uk_config_set = UK_SET("config", uk_config_desc);
static const struct uk_aset uk_site_set = UK_SET("site", uk_site_desc);

_Static_assert(UACCESS_KADDR_A_EVENT_MAX < UK_MAX_ATTR, "event set");
_Static_assert(UACCESS_KADDR_A_STATUS_MAX < UK_MAX_ATTR, "status set");
_Static_assert(UACCESS_KADDR_A_SITE_MAX < UK_MAX_ATTR, "site set");

/* The attributes of one message, checked against the schema of its set. */
struct uk_attrs {
	int cmd;
	bool has[UK_MAX_ATTR];
	unsigned int nr[UK_MAX_ATTR];	/* occurrences, for multi-attr nests */
	uint64_t u[UK_MAX_ATTR];	/* integers; s32 sign-extended */
	char *s[UK_MAX_ATTR];		/* strings */
	uint64_t max_u64;		/* largest 8-byte payload of any attribute */
	char bad[UK_WHY];		/* first violation of the schema */
};

UK_PRINTF(2, 3)
static void attrs_bad(struct uk_attrs *a, const char *fmt, ...)
{
	va_list ap;

	if (a->bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(a->bad, sizeof(a->bad), fmt, ap);
	va_end(ap);
}

static void attrs_free(struct uk_attrs *a)
{
	size_t i;

	for (i = 0; i < UK_MAX_ATTR; i++) {
		free(a->s[i]);
		a->s[i] = NULL;
	}
}

/* Is @nla a NUL-terminated string without embedded NULs? */
static bool nla_is_string(const struct nlattr *nla)
{
	const char *p = nla_data(nla);
	int len = nla_len(nla);

	return len >= 1 && p[len - 1] == '\0' && (int)strlen(p) == len - 1;
}

static void attrs_store(struct uk_attrs *a, const struct uk_aset *set,
			int type, const struct nlattr *nla)
{
	const struct uk_adesc *d = &set->attr[type];
	int len = nla_len(nla);
	uint32_t v32;
	uint64_t v64;

	if (d->type == UK_A_PAD)
		return;
	if (a->has[type] && d->type != UK_A_NEST && d->type != UK_A_U64S) {
		attrs_bad(a, "%s attribute %s appears twice", set->name, d->name);
		return;
	}
	switch (d->type) {
	case UK_A_U32:
	case UK_A_S32:
		if (len != 4) {
			attrs_bad(a, "%s attribute %s has %d bytes, expected 4",
				  set->name, d->name, len);
			return;
		}
		memcpy(&v32, nla_data(nla), 4);
		a->u[type] = d->type == UK_A_S32 ?
			     (uint64_t)(int64_t)(int32_t)v32 : v32;
		break;
	case UK_A_U64:
	case UK_A_U64S:
		if (len != 8) {
			attrs_bad(a, "%s attribute %s has %d bytes, expected 8",
				  set->name, d->name, len);
			return;
		}
		memcpy(&v64, nla_data(nla), 8);
		a->u[type] = v64;
		break;
	case UK_A_STR:
		if (!nla_is_string(nla)) {
			attrs_bad(a, "%s attribute %s is not a NUL-terminated string",
				  set->name, d->name);
			return;
		}
		a->s[type] = strdup(nla_data(nla));
		break;
	default:
		break;
	}
	a->has[type] = true;
	a->nr[type]++;
}

static void attrs_walk(struct uk_attrs *a, const struct uk_aset *set,
		       struct nlattr *head, int len)
{
	struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem) {
		int type = nla_type(nla);
		uint64_t v;

		if (nla_len(nla) == 8) {
			memcpy(&v, nla_data(nla), 8);
			if (v > a->max_u64)
				a->max_u64 = v;
		}
		if (type <= 0 || type > set->max || !set->attr[type].name) {
			attrs_bad(a, "unknown %s attribute type %d", set->name, type);
			continue;
		}
		attrs_store(a, set, type, nla);
	}
	if (rem > 0)
		attrs_bad(a, "%d bytes left over after the %s attributes",
			  rem, set->name);
}

/* Parse a generic netlink message whose attributes belong to @set. */
static void attrs_parse(struct uk_attrs *a, const struct uk_aset *set,
			struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh;

	memset(a, 0, sizeof(*a));
	a->cmd = -1;
	if (!genlmsg_valid_hdr(nlh, 0)) {
		attrs_bad(a, "message too short for a generic netlink header");
		return;
	}
	gnlh = genlmsg_hdr(nlh);
	a->cmd = gnlh->cmd;
	attrs_walk(a, set, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0));
}

/* Does @a carry every attribute of @set but the pad?  Lists the missing. */
static bool attrs_complete(const struct uk_attrs *a, const struct uk_aset *set,
			   char *w)
{
	size_t off = 0;
	int t;

	w[0] = '\0';
	for (t = 1; t <= set->max; t++) {
		const struct uk_adesc *d = &set->attr[t];

		if (!d->name || d->type == UK_A_PAD || a->has[t])
			continue;
		off += snprintf(w + off, off < UK_WHY ? UK_WHY - off : 0, "%s%s",
				off ? ", " : "expected every attribute, missing: ",
				d->name);
	}
	if (!off && a->bad[0])
		return fail(w, "%s", a->bad);
	return off == 0;
}

/* ------------------------------------------------- request socket */

enum uk_end { UK_PENDING, UK_BY_ACK, UK_BY_ERROR, UK_BY_DONE, UK_BY_REPLY };

/* One request and what came back for it. */
struct uk_req {
	uint32_t seq;
	uint16_t flags;
	enum uk_end end;
	int error;		/* the kernel's errno, negative; 0 if none */
	int nlerr;		/* libnl's view of the outcome, negative NLE_* */
	unsigned int replies;
	char extack[UK_WHY];
	void (*reply)(struct nl_msg *msg, void *arg);
	void *arg;
};

struct uk_nl {
	struct nl_sock *sk;
	struct nl_cb *cb;
	int family;
	int grp;
	struct uk_req *req;
	unsigned long stale;	/* messages for an earlier request */
};

static void req_init(struct uk_req *req,
		     void (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	memset(req, 0, sizeof(*req));
	req->reply = reply;
	req->arg = arg;
}

/* The NLMSGERR_ATTR_MSG of an error or done message, from @off on. */
static void extack_msg(const struct nlmsghdr *nlh, size_t off, char *out)
{
	struct nlattr *nla;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	nla_for_each_attr(nla, (struct nlattr *)((char *)nlh + off),
			  (int)(nlh->nlmsg_len - off), rem) {
		if (nla_type(nla) == NLMSGERR_ATTR_MSG && nla_len(nla) > 0)
			snprintf(out, UK_WHY, "%.*s", nla_len(nla),
				 (const char *)nla_data(nla));
	}
}

static int cb_seq(struct nl_msg *msg, void *arg)
{
	struct uk_nl *nl = arg;

	if (nl->req && nlmsg_hdr(msg)->nlmsg_seq == nl->req->seq)
		return NL_OK;
	nl->stale++;
	return NL_SKIP;
}

static int cb_valid(struct nl_msg *msg, void *arg)
{
	struct uk_nl *nl = arg;
	struct uk_req *req = nl->req;

	req->replies++;
	if (req->reply)
		req->reply(msg, req->arg);
	/* Without NLM_F_ACK the reply of a "do" is all there is. */
	if (!(nlmsg_hdr(msg)->nlmsg_flags & NLM_F_MULTI) &&
	    !(req->flags & NLM_F_ACK)) {
		req->end = UK_BY_REPLY;
		return NL_STOP;
	}
	return NL_OK;
}

static int cb_finish(struct nl_msg *msg, void *arg)
{
	struct uk_nl *nl = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0) {
			nl->req->error = err;
			extack_msg(nlh, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(err)),
				   nl->req->extack);
		}
	}
	nl->req->end = UK_BY_DONE;
	return NL_STOP;
}

static int cb_ack(struct nl_msg *msg, void *arg)
{
	struct uk_nl *nl = arg;

	(void)msg;
	nl->req->end = UK_BY_ACK;
	return NL_STOP;
}

static int cb_err(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	struct uk_nl *nl = arg;
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	(void)who;
	if (!nl->req || nlh->nlmsg_seq != nl->req->seq) {
		nl->stale++;
		return NL_SKIP;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	nl->req->error = e->error;
	extack_msg(nlh, off, nl->req->extack);
	nl->req->end = UK_BY_ERROR;
	return NL_STOP;
}

static void sock_setopt(struct nl_sock *sk, int level, int name, int val)
{
	setsockopt(nl_socket_get_fd(sk), level, name, &val, sizeof(val));
}

static void nl_close_sock(struct uk_nl *nl)
{
	if (nl->cb)
		nl_cb_put(nl->cb);
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->cb = NULL;
	nl->sk = NULL;
}

/* Connect, resolve the family and its group; requests then never block. */
static int nl_open_sock(struct uk_nl *nl, char *w)
{
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	nl->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nl->sk || !nl->cb) {
		nl_close_sock(nl);
		return fail(w, "expected a netlink socket, got no memory"), -1;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		fail(w, "genl_connect: %s", nl_geterror(err));
		goto err;
	}
	nl->family = genl_ctrl_resolve(nl->sk, UACCESS_KADDR_FAMILY_NAME);
	if (nl->family < 0) {
		fail(w, "expected family %s, got %s", UACCESS_KADDR_FAMILY_NAME,
		     nl_geterror(nl->family));
		goto err;
	}
	nl->grp = genl_ctrl_resolve_grp(nl->sk, UACCESS_KADDR_FAMILY_NAME,
					UACCESS_KADDR_MCGRP_EVENTS);
	if (nl->grp < 0) {
		fail(w, "expected group %s, got %s", UACCESS_KADDR_MCGRP_EVENTS,
		     nl_geterror(nl->grp));
		goto err;
	}
	sock_setopt(nl->sk, SOL_NETLINK, NETLINK_EXT_ACK, 1);
	sock_setopt(nl->sk, SOL_NETLINK, NETLINK_CAP_ACK, 1);
	nl_socket_enable_msg_peek(nl->sk);
	nl_socket_set_nonblocking(nl->sk);
	nl_cb_set(nl->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, cb_seq, nl);
	nl_cb_set(nl->cb, NL_CB_VALID, NL_CB_CUSTOM, cb_valid, nl);
	nl_cb_set(nl->cb, NL_CB_FINISH, NL_CB_CUSTOM, cb_finish, nl);
	nl_cb_set(nl->cb, NL_CB_ACK, NL_CB_CUSTOM, cb_ack, nl);
	nl_cb_err(nl->cb, NL_CB_CUSTOM, cb_err, nl);
	return 0;
err:
	nl_close_sock(nl);
	return -1;
}

/*
 * Wait until @req is answered (ACK, error, end of dump, or a reply that
 * needs no ACK).  0 when answered, -ETIMEDOUT, or -EIO with req->nlerr.
 */
static int nl_wait(struct uk_nl *nl, struct uk_req *req, int timeout_ms)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC);
	int ret = 0;

	nl->req = req;
	while (req->end == UK_PENDING) {
		struct pollfd pfd = { nl_socket_get_fd(nl->sk), POLLIN, 0 };
		uint64_t spent = ms_since(start);
		int n, err;

		if (spent >= (uint64_t)timeout_ms) {
			ret = -ETIMEDOUT;
			break;
		}
		n = poll(&pfd, 1, timeout_ms - (int)spent);
		if (n < 0 && errno != EINTR) {
			req->nlerr = -nl_syserr2nlerr(errno);
			ret = -EIO;
			break;
		}
		if (n <= 0)
			continue;
		err = nl_recvmsgs(nl->sk, nl->cb);
		if (err < 0) {
			req->nlerr = err;
			if (req->end == UK_PENDING) {
				ret = -EIO;
				break;
			}
		}
	}
	nl->req = NULL;
	return ret;
}

/* Send @msg (freed) and wait; see nl_wait(). */
static int nl_request(struct uk_nl *nl, struct nl_msg *msg,
		      struct uk_req *req, int timeout_ms)
{
	int err = nl_send_auto(nl->sk, msg);

	if (err < 0) {
		req->nlerr = err;
		nlmsg_free(msg);
		return -EIO;
	}
	req->seq = nlmsg_hdr(msg)->nlmsg_seq;
	req->flags = nlmsg_hdr(msg)->nlmsg_flags;
	nlmsg_free(msg);
	return nl_wait(nl, req, timeout_ms);
}

/* Send the ready-made message in @buf (its seq is set here) and wait. */
static int nl_request_raw(struct uk_nl *nl, void *buf, size_t len,
			  struct uk_req *req, int timeout_ms)
{
	struct nlmsghdr *nlh = buf;
	int err;

	nlh->nlmsg_seq = nl_socket_use_seq(nl->sk);
	nlh->nlmsg_pid = 0;
	req->seq = nlh->nlmsg_seq;
	req->flags = nlh->nlmsg_flags;
	err = nl_sendto(nl->sk, buf, len);
	if (err < 0) {
		req->nlerr = err;
		return -EIO;
	}
	return nl_wait(nl, req, timeout_ms);
}

static struct nl_msg *nl_new(const struct uk_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, (uint8_t)cmd, UACCESS_KADDR_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* The outcome of a request: 0 or a negative errno, the kernel's first. */
static int req_result(int ret, const struct uk_req *req)
{
	return req->error ? req->error : ret;
}

static struct uk_str req_str(int ret, const struct uk_req *req)
{
	struct uk_str r;

	if (req->error)
		snprintf(r.s, sizeof(r.s), "%.40s%s%.100s%s", errname(-req->error).s,
			 req->extack[0] ? " (extack \"" : "", req->extack,
			 req->extack[0] ? "\")" : "");
	else if (ret == -ETIMEDOUT)
		snprintf(r.s, sizeof(r.s), "no answer within the timeout");
	else if (ret == -EIO)
		snprintf(r.s, sizeof(r.s), "libnl error: %s", nl_geterror(req->nlerr));
	else if (ret == -ENOMSG)
		snprintf(r.s, sizeof(r.s), "an answer without a reply message");
	else if (ret)
		snprintf(r.s, sizeof(r.s), "%s", errname(-ret).s);
	else
		snprintf(r.s, sizeof(r.s), "success");
	return r;
}

/* --------------------------------------------------------- commands */

struct uk_config {
	uint32_t mode;
	uint32_t interval_ms;
	uint32_t burst;
};

static struct uk_str config_str(const struct uk_config *c)
{
	struct uk_str r;

	snprintf(r.s, sizeof(r.s), "mode %.40s interval %" PRIu32 " ms burst %" PRIu32,
		 enum_str(UK_NAMES(uk_mode_names), c->mode).s, c->interval_ms,
		 c->burst);
	return r;
}

static bool config_eq(const struct uk_config *a, const struct uk_config *b)
{
	return a->mode == b->mode && a->interval_ms == b->interval_ms &&
	       a->burst == b->burst;
}

static struct uk_config status_config(const struct uk_attrs *st)
{
	return (struct uk_config){
		.mode = (uint32_t)st->u[UACCESS_KADDR_A_STATUS_MODE],
		.interval_ms = (uint32_t)st->u[UACCESS_KADDR_A_STATUS_RATELIMIT_INTERVAL_MS],
		.burst = (uint32_t)st->u[UACCESS_KADDR_A_STATUS_RATELIMIT_BURST],
	};
}

static struct uk_config reply_config(const struct uk_attrs *a)
{
	return (struct uk_config){
		.mode = (uint32_t)a->u[UACCESS_KADDR_A_CONFIG_MODE],
		.interval_ms = (uint32_t)a->u[UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS],
		.burst = (uint32_t)a->u[UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST],
	};
}

/* One "do" reply, parsed with @set into @a. */
struct uk_reply {
	const struct uk_aset *set;
	struct uk_attrs *a;
	unsigned int nr;
};

static void reply_one(struct nl_msg *msg, void *arg)
{
	struct uk_reply *r = arg;

	if (r->nr++ == 0)
		attrs_parse(r->a, r->set, msg);
	else
		attrs_bad(r->a, "more than one reply message");
}

/* A "do" of @cmd, built by @msg, whose reply is parsed with @set. */
static int do_cmd(struct uk_nl *nl, struct nl_msg *msg, const struct uk_aset *set,
		  struct uk_attrs *a, struct uk_req *req)
{
	struct uk_reply r = { set, a, 0 };
	struct uk_req local;
	int ret = -ENOMEM;

	memset(a, 0, sizeof(*a));
	req_init(&local, reply_one, &r);
	if (msg)
		ret = req_result(nl_request(nl, msg, &local, UK_TIMEOUT_MS), &local);
	if (!ret && !r.nr)
		ret = -ENOMSG;
	*req = local;
	req->reply = NULL;
	req->arg = NULL;
	return ret;
}

/* GET_STATUS or RESET (same reply). */
static int status_cmd(struct uk_nl *nl, int cmd, struct uk_attrs *st,
		      struct uk_req *req)
{
	return do_cmd(nl, nl_new(nl, cmd, 0), &uk_status_set, st, req);
}

static int get_status(struct uk_nl *nl, struct uk_attrs *st, struct uk_req *req)
{
	return status_cmd(nl, UACCESS_KADDR_CMD_GET_STATUS, st, req);
}

static int set_config(struct uk_nl *nl, const struct uk_config *c,
		      struct uk_attrs *reply, struct uk_req *req)
{
	struct nl_msg *msg = nl_new(nl, UACCESS_KADDR_CMD_SET_CONFIG, 0);

	if (msg && (nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_MODE, c->mode) ||
		    nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS,
				c->interval_ms) ||
		    nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST,
				c->burst))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return do_cmd(nl, msg, &uk_config_set, reply, req);
}

struct uk_sites {
	struct uk_attrs *site;
	size_t nr;
};

static void reply_site(struct nl_msg *msg, void *arg)
{
	struct uk_sites *s = arg;
	struct uk_attrs *n = realloc(s->site, (s->nr + 1) * sizeof(*n));

	if (!n)
		return;
	s->site = n;
	attrs_parse(&s->site[s->nr++], &uk_site_set, msg);
}

static void sites_free(struct uk_sites *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		attrs_free(&s->site[i]);
	free(s->site);
	s->site = NULL;
	s->nr = 0;
}

static int dump_sites(struct uk_nl *nl, struct uk_sites *s, struct uk_req *req)
{
	struct nl_msg *msg = nl_new(nl, UACCESS_KADDR_CMD_DUMP_SITES, NLM_F_DUMP);

	memset(s, 0, sizeof(*s));
	req_init(req, reply_site, s);
	if (!msg)
		return -ENOMEM;
	return req_result(nl_request(nl, msg, req, UK_TIMEOUT_MS), req);
}

/* The sites of trigger @h: those named uk_trigger_<name>+... with its helper. */
struct uk_site_sum {
	unsigned int nr;
	uint64_t count, reported, suppressed;
	const struct uk_attrs *first;
};

/*
 * The test module's pre-access site of @h.  The KUnit suite built into the
 * kernel has functions of the same names, without the module suffix.
 */
static bool site_is(const struct uk_attrs *a, const struct uk_helper *h)
{
	static const char suffix[] = " [test_uaccess_kaddr]";
	const char *sym = a->s[UACCESS_KADDR_A_SITE_SITE_SYMBOL];
	char prefix[96];
	size_t len;

	snprintf(prefix, sizeof(prefix), "uk_trigger_%s+", h->name);
	if (!sym || strncmp(sym, prefix, strlen(prefix)))
		return false;
	len = strlen(sym);
	return len > sizeof(suffix) - 1 &&
	       !strcmp(sym + len - (sizeof(suffix) - 1), suffix) &&
	       a->u[UACCESS_KADDR_A_SITE_KIND] == UACCESS_KADDR_KIND_PRECHECK &&
	       a->u[UACCESS_KADDR_A_SITE_HELPER] == h->helper;
}

static struct uk_site_sum site_sum(const struct uk_sites *s, const struct uk_helper *h)
{
	struct uk_site_sum sum = { 0 };
	size_t i;

	for (i = 0; h && i < s->nr; i++) {
		const struct uk_attrs *a = &s->site[i];

		if (!site_is(a, h))
			continue;
		if (!sum.nr++)
			sum.first = a;
		sum.count += a->u[UACCESS_KADDR_A_SITE_COUNT];
		sum.reported += a->u[UACCESS_KADDR_A_SITE_REPORTED];
		sum.suppressed += a->u[UACCESS_KADDR_A_SITE_SUPPRESSED];
	}
	return sum;
}

/* SET_CONFIG @c and check that the reply carries it. */
static bool apply_config(struct uk_nl *nl, const struct uk_config *c,
			 const char *desc)
{
	struct uk_attrs reply;
	struct uk_config got;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ret = set_config(nl, c, &reply, &req);
	bool ok = false;

	got = reply_config(&reply);
	if (ret)
		fail(w, "expected success, got %s", req_str(ret, &req).s);
	else if (!attrs_complete(&reply, &uk_config_set, w))
		;
	else if (!config_eq(&got, c))
		fail(w, "expected a reply with %s, got %s", config_str(c).s,
		     config_str(&got).s);
	else
		ok = true;
	attrs_free(&reply);
	return tap(ok, w, "%s", desc);
}

/* ------------------------------------------------- event socket */

struct uk_frame {
	bool has_ip, has_sym;
	uint64_t ip;
	char sym[UK_SYM_LEN];
};

struct uk_event {
	struct uk_attrs a;
	unsigned int nr_frames;
	struct uk_frame frame[UK_MAX_FRAMES];
	unsigned int nr_args;
	uint64_t args[UK_SYSCALL_ARGS];
};

struct uk_evs {
	struct nl_sock *sk;
	struct nl_cb *cb;
	int family;
	struct uk_event *ev;
	size_t nr, cap;
	unsigned long overruns;	/* ENOBUFS: events lost in the socket */
	unsigned long foreign;	/* messages that are not our events */
};

static void frame_parse(struct uk_event *ev, struct nlattr *nest)
{
	struct uk_frame *f;
	struct nlattr *nla;
	int rem;

	if (ev->nr_frames >= UK_MAX_FRAMES) {
		attrs_bad(&ev->a, "more than %d stack frames", UK_MAX_FRAMES);
		return;
	}
	f = &ev->frame[ev->nr_frames++];
	nla_for_each_nested(nla, nest, rem) {
		int type = nla_type(nla);

		if (type == UACCESS_KADDR_A_STACK_FRAME_IP && nla_len(nla) == 8 &&
		    !f->has_ip) {
			memcpy(&f->ip, nla_data(nla), 8);
			f->has_ip = true;
		} else if (type == UACCESS_KADDR_A_STACK_FRAME_SYMBOL &&
			   nla_is_string(nla) && !f->has_sym) {
			snprintf(f->sym, sizeof(f->sym), "%s",
				 (const char *)nla_data(nla));
			f->has_sym = true;
		} else if (type != UACCESS_KADDR_A_STACK_FRAME_PAD) {
			attrs_bad(&ev->a, "bad %s attribute type %d (%d bytes)",
				  uk_frame_set.name, type, nla_len(nla));
		}
	}
}

static void event_parse(struct uk_event *ev, struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh;
	struct nlattr *nla;
	int rem;

	attrs_parse(&ev->a, &uk_event_set, msg);
	if (!genlmsg_valid_hdr(nlh, 0))
		return;
	gnlh = genlmsg_hdr(nlh);
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(nla) == UACCESS_KADDR_A_EVENT_STACK)
			frame_parse(ev, nla);
		if (nla_type(nla) != UACCESS_KADDR_A_EVENT_SYSCALL_ARGS ||
		    nla_len(nla) != 8)
			continue;
		if (ev->nr_args == UK_SYSCALL_ARGS)
			attrs_bad(&ev->a, "more than %d syscall-args", UK_SYSCALL_ARGS);
		else
			memcpy(&ev->args[ev->nr_args++], nla_data(nla), 8);
	}
}

static int cb_event(struct nl_msg *msg, void *arg)
{
	struct uk_evs *e = arg;

	if (nlmsg_hdr(msg)->nlmsg_type != e->family) {
		e->foreign++;
		return NL_OK;
	}
	if (e->nr == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		struct uk_event *n = realloc(e->ev, cap * sizeof(*n));

		if (!n)
			return NL_STOP;
		e->ev = n;
		e->cap = cap;
	}
	memset(&e->ev[e->nr], 0, sizeof(e->ev[0]));
	event_parse(&e->ev[e->nr++], msg);
	return NL_OK;
}

static int cb_any_seq(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static void evs_clear(struct uk_evs *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		attrs_free(&e->ev[i].a);
	e->nr = 0;
}

static void evs_close(struct uk_evs *e)
{
	evs_clear(e);
	free(e->ev);
	if (e->cb)
		nl_cb_put(e->cb);
	if (e->sk)
		nl_socket_free(e->sk);
	memset(e, 0, sizeof(*e));
}

/* A socket subscribed to the events group of @nl's family. */
static int evs_open(struct uk_evs *e, const struct uk_nl *nl, char *w)
{
	int err;

	memset(e, 0, sizeof(*e));
	e->family = nl->family;
	e->sk = nl_socket_alloc();
	e->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!e->sk || !e->cb) {
		evs_close(e);
		return fail(w, "expected a netlink socket, got no memory"), -1;
	}
	err = genl_connect(e->sk);
	if (!err)
		err = nl_socket_add_membership(e->sk, nl->grp);
	if (err < 0) {
		fail(w, "expected to join group %d, got %s", nl->grp,
		     nl_geterror(err));
		evs_close(e);
		return -1;
	}
	/* Room for bursts of events; only root may exceed rmem_max. */
	sock_setopt(e->sk, SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20);
	nl_socket_enable_msg_peek(e->sk);
	nl_socket_set_nonblocking(e->sk);
	nl_cb_set(e->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, cb_any_seq, NULL);
	nl_cb_set(e->cb, NL_CB_VALID, NL_CB_CUSTOM, cb_event, e);
	return 0;
}

/* Wait up to @timeout_ms for events, then read all there are; how many. */
static size_t evs_pump(struct uk_evs *e, int timeout_ms)
{
	struct pollfd pfd = { nl_socket_get_fd(e->sk), POLLIN, 0 };
	size_t before = e->nr;

	while (poll(&pfd, 1, timeout_ms) > 0) {
		int err = nl_recvmsgs(e->sk, e->cb);

		if (err == -NLE_NOMEM)
			e->overruns++;
		timeout_ms = 0;
	}
	return e->nr - before;
}

/* Until @want events are in, for at most @timeout_ms. */
static void evs_wait(struct uk_evs *e, size_t want, int timeout_ms)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC);
	uint64_t spent;

	while (e->nr < want && (spent = ms_since(start)) < (uint64_t)timeout_ms)
		evs_pump(e, timeout_ms - (int)spent);
}

/* Until no event came for @quiet_ms, for at most @max_ms. */
static void evs_quiet(struct uk_evs *e, int quiet_ms, int max_ms)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), last = start;

	while (ms_since(start) < (uint64_t)max_ms &&
	       ms_since(last) < (uint64_t)quiet_ms) {
		if (evs_pump(e, quiet_ms - (int)ms_since(last)))
			last = now_ns(CLOCK_MONOTONIC);
	}
}

static struct uk_str event_str(const struct uk_event *ev)
{
	const struct uk_attrs *a = &ev->a;
	struct uk_str r;

	snprintf(r.s, sizeof(r.s), "seq %" PRIu64 " %.40s %.60s",
		 a->u[UACCESS_KADDR_A_EVENT_SEQ],
		 enum_str(UK_NAMES(uk_helper_names), a->u[UACCESS_KADDR_A_EVENT_HELPER]).s,
		 a->s[UACCESS_KADDR_A_EVENT_SITE_SYMBOL] ?
		 a->s[UACCESS_KADDR_A_EVENT_SITE_SYMBOL] : "(no symbol)");
	return r;
}

/* ---------------------------------------------------- environment */

static pid_t uk_pid;
static char uk_comm[17];
static long uk_ncpus;

/* The last trigger's write(): its fd, buffer and length. */
static uint64_t uk_write_args[3];

/* Make "HELPER CLASS COUNT" accesses in one write(); 0 or -errno. */
static int trigger(const char *helper, const char *class, unsigned long count)
{
	/* Also the user memory of user-valid and of the unsafe_*() regions. */
	char buf[96];
	ssize_t ret;
	int fd, n, err = 0;

	memset(buf, 0, sizeof(buf));
	n = snprintf(buf, sizeof(buf), "%s %s %lu", helper, class, count);
	fd = open(UK_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uk_write_args[0] = (uint64_t)fd;
	uk_write_args[1] = (uint64_t)(uintptr_t)buf;
	uk_write_args[2] = (uint64_t)n;
	ret = write(fd, buf, (size_t)n);
	if (ret < 0)
		err = -errno;
	else if (ret != n)
		err = -EIO;
	close(fd);
	return err;
}

/* The trigger file, after loading the module if the init script did not. */
static bool trigger_ready(char *w)
{
	if (access(UK_TRIGGER, W_OK) && system("modprobe " UK_MODULE " 2>/dev/null"))
		diag("modprobe %s failed", UK_MODULE);
	if (!access(UK_TRIGGER, W_OK))
		return true;
	return fail(w, "expected %s, got %s", UK_TRIGGER, errname(errno).s);
}

static bool need_root(const char *sub)
{
	char w[UK_WHY];

	if (geteuid() == 0)
		return true;
	fail(w, "expected euid 0, got %d", (int)geteuid());
	tap(false, w, "%s: running as root", sub);
	return false;
}

static int drop_to_nobody(void)
{
	if (setgroups(0, NULL) || setgid(UK_NOBODY) || setuid(UK_NOBODY))
		return -errno;
	if (getuid() != UK_NOBODY || geteuid() != UK_NOBODY ||
	    getgid() != UK_NOBODY || getegid() != UK_NOBODY)
		return -EPERM;
	return 0;
}

/* Module symbols uk_trigger_* from /proc/kallsyms (0: hidden or absent). */
struct uk_ksym {
	char name[64];
	uint64_t addr;
};

static struct uk_ksym uk_ksyms[64];
static size_t uk_nr_ksyms;

static void ksyms_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[128], mod[128], t;
	uint64_t addr;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && uk_nr_ksyms < ARRAY_SIZE(uk_ksyms)) {
		if (sscanf(line, "%" SCNx64 " %c %127s %127s", &addr, &t, name, mod) != 4 ||
		    strcmp(mod, "[" UK_MODULE "]") || strncmp(name, "uk_trigger_", 11) ||
		    !addr || strlen(name) >= sizeof(uk_ksyms[0].name))
			continue;
		memcpy(uk_ksyms[uk_nr_ksyms].name, name, strlen(name) + 1);
		uk_ksyms[uk_nr_ksyms++].addr = addr;
	}
	fclose(f);
}

static uint64_t ksym(const char *name)
{
	size_t i;

	for (i = 0; i < uk_nr_ksyms; i++) {
		if (!strcmp(uk_ksyms[i].name, name))
			return uk_ksyms[i].addr;
	}
	return 0;
}

/* Split "func+0xoff/0xsize [module]"; false unless exactly that form. */
static bool parse_symbol(const char *s, char *func, uint64_t *off,
			 uint64_t *size, char *mod)
{
	char again[UK_SYM_LEN + 64];

	if (!s || sscanf(s, "%127[^+]+0x%" SCNx64 "/0x%" SCNx64 " [%63[^]]]",
			 func, off, size, mod) != 4)
		return false;
	snprintf(again, sizeof(again), "%s+0x%" PRIx64 "/0x%" PRIx64 " [%s]",
		 func, *off, *size, mod);
	return !strcmp(again, s);
}

/* ------------------------------------------------ event checks */

/* Per trigger: what its earlier events said about its site. */
struct uk_track {
	bool seen;
	uint64_t site_id;
	uint64_t count;
};

struct uk_expect {
	const struct uk_helper *h;
	const struct uk_class *c;
	const struct uk_track *track;
	uint64_t seq;			/* 0: not known */
	uint64_t boot_lo, boot_hi;	/* CLOCK_BOOTTIME around the trigger */
	uint64_t sites_max;
	uint64_t func_addr;		/* kallsyms of the trigger, 0: unknown */
	uint64_t text_addr;		/* kallsyms of uk_trigger_get_user */
};

static bool ev_need(const struct uk_event *ev, int type, uint64_t *v, char *w)
{
	*v = 0;
	if (!ev->a.has[type])
		return fail(w, "expected attribute %s, got none", uk_event_desc[type].name);
	*v = ev->a.u[type];
	return true;
}

static bool ev_enum(const struct uk_event *ev, int type, struct uk_names n,
		    uint64_t want, char *w)
{
	uint64_t v;

	if (!ev_need(ev, type, &v, w))
		return false;
	return v == want || fail(w, "expected %s, got %s", enum_str(n, want).s,
				 enum_str(n, v).s);
}

static bool ev_u64(const struct uk_event *ev, int type, uint64_t want, char *w)
{
	uint64_t v;

	if (!ev_need(ev, type, &v, w))
		return false;
	return v == want || fail(w, "expected %" PRIu64 ", got %" PRIu64, want, v);
}

static bool chk_schema(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	if (ev->a.cmd != UACCESS_KADDR_CMD_EVENT)
		return fail(w, "expected genl command EVENT (%d), got %d",
			    UACCESS_KADDR_CMD_EVENT, ev->a.cmd);
	return attrs_complete(&ev->a, &uk_event_set, w);
}

static bool chk_seq(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SEQ, &v, w))
		return false;
	if (!v)
		return fail(w, "expected a sequence number from 1, got 0");
	return !x->seq || v == x->seq ||
	       fail(w, "expected %" PRIu64 " (previous + 1), got %" PRIu64, x->seq, v);
}

static bool chk_ts_boot(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_TIMESTAMP_BOOT, &v, w))
		return false;
	return (v && v + UK_BOOT_SLACK_NS >= x->boot_lo &&
		v <= x->boot_hi + UK_BOOT_SLACK_NS) ||
	       fail(w, "expected CLOCK_BOOTTIME %" PRIu64 "..%" PRIu64 " ns, got %" PRIu64,
		    x->boot_lo, x->boot_hi, v);
}

static bool chk_ts_real(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	int64_t now = (int64_t)time(NULL), s;
	uint64_t v;

	(void)x;
	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_TIMESTAMP_REAL, &v, w))
		return false;
	s = (int64_t)(v / 1000000000ULL);
	return (v && s > now - UK_DAY_S && s < now + UK_DAY_S) ||
	       fail(w, "expected CLOCK_REALTIME within a day of %" PRId64 " s, got %" PRIu64 " ns",
		    now, v);
}

static bool chk_kind(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	return ev_enum(ev, UACCESS_KADDR_A_EVENT_KIND, UK_NAMES(uk_kind_names),
		       UACCESS_KADDR_KIND_PRECHECK, w);
}

static bool chk_helper(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	return ev_enum(ev, UACCESS_KADDR_A_EVENT_HELPER, UK_NAMES(uk_helper_names),
		       x->h->helper, w);
}

static bool chk_direction(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	return ev_enum(ev, UACCESS_KADDR_A_EVENT_DIRECTION, UK_NAMES(uk_dir_names),
		       x->h->dir, w);
}

static bool chk_addr_class(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	return ev_enum(ev, UACCESS_KADDR_A_EVENT_ADDR_CLASS, UK_NAMES(uk_class_names),
		       x->c->addr_class, w);
}

static bool chk_address(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	bool text = x->c->read_only;
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_ADDRESS, &v, w))
		return false;
	if (x->c->addr)
		return v == x->c->addr ||
		       fail(w, "expected 0x%" PRIx64 ", got 0x%" PRIx64, x->c->addr, v);
	if (v < UK_KERNEL_MIN)
		return fail(w, "expected a kernel-half address, got 0x%" PRIx64, v);
	return !text || !x->text_addr || v == x->text_addr ||
	       fail(w, "expected uk_trigger_get_user at 0x%" PRIx64 ", got 0x%" PRIx64,
		    x->text_addr, v);
}

static bool chk_size(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	return ev_u64(ev, UACCESS_KADDR_A_EVENT_SIZE, x->h->size, w);
}

static bool chk_site_id(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SITE_ID, &v, w))
		return false;
	if (v >= x->sites_max)
		return fail(w, "expected below sites-max %" PRIu64 ", got %" PRIu64,
			    x->sites_max, v);
	return !x->track->seen || v == x->track->site_id ||
	       fail(w, "expected %" PRIu64 " as in the previous event of this site, got %" PRIu64,
		    x->track->site_id, v);
}

static bool chk_site_symbol(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	const char *s = ev->a.s[UACCESS_KADDR_A_EVENT_SITE_SYMBOL];
	char func[128], mod[64], want[96];
	uint64_t off, size;

	snprintf(want, sizeof(want), "uk_trigger_%s", x->h->name);
	if (!s)
		return fail(w, "expected attribute site-symbol, got none");
	if (!parse_symbol(s, func, &off, &size, mod))
		return fail(w, "expected \"%s+0xOFF/0xSIZE [%s]\", got \"%.100s\"",
			    want, UK_MODULE, s);
	return (!strcmp(func, want) && !strcmp(mod, UK_MODULE) && off < size) ||
	       fail(w, "expected \"%s+0xOFF/0xSIZE [%s]\" with OFF < SIZE, got \"%.100s\"",
		    want, UK_MODULE, s);
}

static bool chk_site_ip(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	const char *s = ev->a.s[UACCESS_KADDR_A_EVENT_SITE_SYMBOL];
	char func[128], mod[64];
	uint64_t v, off, size;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SITE_IP, &v, w))
		return false;
	if (v < UK_KERNEL_MIN)
		return fail(w, "expected a kernel text address, got 0x%" PRIx64, v);
	if (!x->func_addr || !parse_symbol(s, func, &off, &size, mod))
		return true;
	return v == x->func_addr + off ||
	       fail(w, "expected uk_trigger_%s (0x%" PRIx64 ") + 0x%" PRIx64
		    " from the site symbol, got 0x%" PRIx64,
		    x->h->name, x->func_addr, off, v);
}

static bool chk_stack(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	char want[96];
	unsigned int i;

	snprintf(want, sizeof(want), "uk_trigger_%s+", x->h->name);
	if (!ev->nr_frames)
		return fail(w, "expected at least one stack frame, got none");
	for (i = 0; i < ev->nr_frames; i++) {
		const struct uk_frame *f = &ev->frame[i];

		if (!f->has_ip || !f->has_sym || !f->ip)
			return fail(w, "expected ip and symbol in every frame, frame %u has %s%s",
				    i, f->has_ip && f->ip ? "an ip" : "no ip",
				    f->has_sym ? " and a symbol" : " and no symbol");
	}
	return !strncmp(ev->frame[0].sym, want, strlen(want)) ||
	       fail(w, "expected the first frame in %s..., got \"%.100s\"", want,
		    ev->frame[0].sym);
}

static bool chk_stack_hash(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	(void)x;
	return ev_need(ev, UACCESS_KADDR_A_EVENT_STACK_HASH, &v, w);
}

static bool chk_pid(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	return ev_u64(ev, UACCESS_KADDR_A_EVENT_PID, (uint64_t)uk_pid, w);
}

static bool chk_tgid(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	return ev_u64(ev, UACCESS_KADDR_A_EVENT_TGID, (uint64_t)uk_pid, w);
}

static bool chk_comm(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	const char *s = ev->a.s[UACCESS_KADDR_A_EVENT_COMM];

	(void)x;
	return (s && !strcmp(s, uk_comm)) ||
	       fail(w, "expected \"%s\", got %s%.40s%s", uk_comm, s ? "\"" : "",
		    s ? s : "none", s ? "\"" : "");
}

static bool chk_uid(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	return ev_u64(ev, UACCESS_KADDR_A_EVENT_UID, getuid(), w);
}

static bool chk_syscall(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	(void)x;
	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SYSCALL_NR, &v, w))
		return false;
	return (int64_t)v == SYS_write ||
	       fail(w, "expected write (%d), got %" PRId64, (int)SYS_write, (int64_t)v);
}

static bool chk_syscall_arch(const struct uk_event *ev, const struct uk_expect *x,
			     char *w)
{
	uint64_t v;

	(void)x;
	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SYSCALL_ARCH, &v, w))
		return false;
	return v == AUDIT_ARCH_X86_64 ||
	       fail(w, "expected AUDIT_ARCH_X86_64 (0x%x), got 0x%" PRIx64,
		    AUDIT_ARCH_X86_64, v);
}

/* The trigger's write(fd, buf, n), as the task entered the kernel. */
static bool chk_syscall_args(const struct uk_event *ev, const struct uk_expect *x,
			     char *w)
{
	unsigned int i;

	(void)x;
	if (ev->nr_args != UK_SYSCALL_ARGS)
		return fail(w, "expected %d syscall-args, got %u", UK_SYSCALL_ARGS,
			    ev->nr_args);
	for (i = 0; i < ARRAY_SIZE(uk_write_args); i++)
		if (ev->args[i] != uk_write_args[i])
			return fail(w, "expected write(%" PRIu64 ", 0x%" PRIx64 ", %" PRIu64
				    "), argument %u is 0x%" PRIx64, uk_write_args[0],
				    uk_write_args[1], uk_write_args[2], i, ev->args[i]);
	return true;
}

static bool chk_cpu(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	(void)x;
	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_CPU, &v, w))
		return false;
	return v < (uint64_t)uk_ncpus ||
	       fail(w, "expected below %ld CPUs, got %" PRIu64, uk_ncpus, v);
}

static bool chk_count(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_COUNT, &v, w))
		return false;
	if (!v)
		return fail(w, "expected at least 1, got 0");
	return !x->track->seen || v == x->track->count + 1 ||
	       fail(w, "expected %" PRIu64 " (previous event of this site + 1), got %" PRIu64,
		    x->track->count + 1, v);
}

static bool chk_suppressed(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	uint64_t v;

	if (!ev_need(ev, UACCESS_KADDR_A_EVENT_SUPPRESSED, &v, w))
		return false;
	/* Before the first event hits may have been rate-limited. */
	return !x->track->seen || !v ||
	       fail(w, "expected 0 without rate limit, got %" PRIu64, v);
}

static bool chk_context(const struct uk_event *ev, const struct uk_expect *x, char *w)
{
	(void)x;
	return ev_enum(ev, UACCESS_KADDR_A_EVENT_CONTEXT, UK_NAMES(uk_context_names),
		       UACCESS_KADDR_CONTEXT_TASK, w);
}

static const struct {
	const char *name;
	bool (*check)(const struct uk_event *ev, const struct uk_expect *x, char *w);
} uk_event_checks[] = {
	{ "well-formed, every attribute", chk_schema },
	{ "seq", chk_seq },
	{ "timestamp-boot", chk_ts_boot },
	{ "timestamp-real", chk_ts_real },
	{ "kind", chk_kind },
	{ "helper", chk_helper },
	{ "direction", chk_direction },
	{ "addr-class", chk_addr_class },
	{ "address", chk_address },
	{ "size", chk_size },
	{ "site-id", chk_site_id },
	{ "site-symbol", chk_site_symbol },
	{ "site-ip", chk_site_ip },
	{ "stack", chk_stack },
	{ "stack-hash", chk_stack_hash },
	{ "pid", chk_pid },
	{ "tgid", chk_tgid },
	{ "comm", chk_comm },
	{ "uid", chk_uid },
	{ "syscall-nr", chk_syscall },
	{ "cpu", chk_cpu },
	{ "count", chk_count },
	{ "suppressed", chk_suppressed },
	{ "context", chk_context },
	{ "syscall-arch", chk_syscall_arch },
	{ "syscall-args", chk_syscall_args },
};

/* --------------------------------------------------------- events */

struct uk_run {
	struct uk_nl nl;
	struct uk_evs evs;
	uint64_t sites_max;
	uint64_t next_seq;
	struct uk_track track[UK_NR_HELPERS];
	unsigned int nr_quiet;
};

/* A writing helper with kernel-text: the module refuses, nothing happens. */
static void refused_case(const struct uk_helper *h, const struct uk_class *c)
{
	char w[UK_WHY] = "";
	int err = trigger(h->name, c->name, 1);

	if (err != -EINVAL)
		fail(w, "expected EINVAL from the test module, got %s",
		     err ? errname(-err).s : "success");
	tap(err == -EINVAL, w, "events: %s %s: refused by the test module",
	    h->name, c->name);
}

static void event_case(struct uk_run *r, size_t hi, const struct uk_class *c)
{
	const struct uk_helper *h = &uk_helpers[hi];
	struct uk_track *t = &r->track[hi];
	struct uk_expect x = {
		.h = h, .c = c, .track = t, .seq = r->next_seq,
		.sites_max = r->sites_max,
	};
	const struct uk_event *ev;
	char w[UK_WHY] = "", name[96];
	size_t i;
	int err;

	snprintf(name, sizeof(name), "uk_trigger_%s", h->name);
	x.func_addr = ksym(name);
	x.text_addr = ksym("uk_trigger_get_user");
	evs_clear(&r->evs);
	x.boot_lo = now_ns(CLOCK_BOOTTIME);
	err = trigger(h->name, c->name, 1);
	if (!err) {
		evs_wait(&r->evs, 1, UK_TIMEOUT_MS);
		evs_quiet(&r->evs, UK_EXTRA_MS, UK_TIMEOUT_MS);
	}
	x.boot_hi = now_ns(CLOCK_BOOTTIME);
	if (err)
		fail(w, "expected the trigger write to succeed, got %s", errname(-err).s);
	else if (r->evs.nr != 1)
		fail(w, "expected 1 event within %d ms, got %zu", UK_TIMEOUT_MS, r->evs.nr);
	tap(!err && r->evs.nr == 1, w, "events: %s %s: exactly one event",
	    h->name, c->name);
	for (i = 1; i < r->evs.nr; i++)
		diag("events: %s %s: extra event %s", h->name, c->name,
		     event_str(&r->evs.ev[i]).s);
	if (!r->evs.nr)
		return;

	ev = &r->evs.ev[0];
	for (i = 0; i < ARRAY_SIZE(uk_event_checks); i++) {
		w[0] = '\0';
		tap(uk_event_checks[i].check(ev, &x, w), w, "events: %s %s: %s",
		    h->name, c->name, uk_event_checks[i].name);
	}

	ev = &r->evs.ev[r->evs.nr - 1];
	if (ev->a.has[UACCESS_KADDR_A_EVENT_SEQ])
		r->next_seq = ev->a.u[UACCESS_KADDR_A_EVENT_SEQ] + 1;
	ev = &r->evs.ev[0];
	if (ev->a.has[UACCESS_KADDR_A_EVENT_SITE_ID] &&
	    ev->a.has[UACCESS_KADDR_A_EVENT_COUNT]) {
		t->seen = true;
		t->site_id = ev->a.u[UACCESS_KADDR_A_EVENT_SITE_ID];
		t->count = ev->a.u[UACCESS_KADDR_A_EVENT_COUNT];
	}
}

/* The counters that move with every detected hit or event. */
static const int uk_hit_counters[] = {
	UACCESS_KADDR_A_STATUS_HITS_FAULT,
	UACCESS_KADDR_A_STATUS_HITS_GP,
	UACCESS_KADDR_A_STATUS_HITS_PRECHECK,
	UACCESS_KADDR_A_STATUS_REPORTED,
	UACCESS_KADDR_A_STATUS_SUPPRESSED,
	UACCESS_KADDR_A_STATUS_DROPPED,
	UACCESS_KADDR_A_STATUS_SITES_OVERFLOW,
	UACCESS_KADDR_A_STATUS_LAST_SEQ,
};

/* Which hit counters differ between @a and @b; true if none. */
static bool counters_still(const struct uk_attrs *a, const struct uk_attrs *b, char *w)
{
	size_t i, off = 0;

	for (i = 0; i < ARRAY_SIZE(uk_hit_counters); i++) {
		int t = uk_hit_counters[i];

		if (a->u[t] == b->u[t])
			continue;
		off += snprintf(w + off, off < UK_WHY ? UK_WHY - off : 0,
				"%s%s %" PRIu64 " -> %" PRIu64,
				off ? ", " : "expected no hit and no event, got ",
				uk_status_desc[t].name, a->u[t], b->u[t]);
	}
	return off == 0;
}

/*
 * A checked helper or a harmless class: no hit may be counted and no
 * sequence number used, which the counters tell at once; the events socket
 * is checked once for all of them at the end.
 */
static void quiet_case(struct uk_run *r, const struct uk_helper *h,
		       const struct uk_class *c)
{
	struct uk_attrs a, b;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ra, rb, err;
	bool ok = false;

	ra = get_status(&r->nl, &a, &req);
	err = trigger(h->name, c->name, 1);
	rb = get_status(&r->nl, &b, &req);
	if (err)
		fail(w, "expected the trigger write to succeed, got %s", errname(-err).s);
	else if (ra || rb)
		fail(w, "expected GET_STATUS around the trigger, got %s",
		     req_str(ra ? ra : rb, &req).s);
	else
		ok = counters_still(&a, &b, w);
	tap(ok, w, "events: %s %s: not reported", h->name, c->name);
	r->nr_quiet++;
	attrs_free(&a);
	attrs_free(&b);
}

static void events_matrix(struct uk_run *r)
{
	size_t hi, ci;

	for (hi = 0; hi < UK_NR_HELPERS; hi++) {
		const struct uk_helper *h = &uk_helpers[hi];

		for (ci = 0; ci < ARRAY_SIZE(uk_classes); ci++) {
			const struct uk_class *c = &uk_classes[ci];

			if (!h->helper || !c->bug)
				continue;
			if (h->writes && c->read_only)
				refused_case(h, c);
			else
				event_case(r, hi, c);
		}
	}
}

static void quiet_matrix(struct uk_run *r)
{
	char w[UK_WHY] = "";
	size_t hi, ci;

	evs_clear(&r->evs);
	for (hi = 0; hi < UK_NR_HELPERS; hi++) {
		const struct uk_helper *h = &uk_helpers[hi];

		for (ci = 0; ci < ARRAY_SIZE(uk_classes); ci++) {
			const struct uk_class *c = &uk_classes[ci];

			if (h->helper && c->bug)
				continue;
			if (h->writes && c->read_only)
				refused_case(h, c);
			else
				quiet_case(r, h, c);
		}
	}
	evs_quiet(&r->evs, UK_QUIET_MS, UK_QUIET_MS);
	if (r->evs.nr)
		fail(w, "expected no event, got %zu, the first: %s", r->evs.nr,
		     event_str(&r->evs.ev[0]).s);
	tap(!r->evs.nr, w,
	    "events: no event within %d ms after the %u triggers that must not report",
	    UK_QUIET_MS, r->nr_quiet);
}

static int cmd_events(int argc, char **argv)
{
	const struct uk_config cfg = { UACCESS_KADDR_MODE_REPORT, 0, 1000 };
	struct uk_run *r = calloc(1, sizeof(*r));
	struct uk_config saved;
	struct uk_attrs st;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ret, rc = 1;

	(void)argc;
	(void)argv;
	if (!r)
		return setup_fail("events: memory", "expected memory, got none");
	if (!need_root("events"))
		goto out_free;
	if (!tap(!nl_open_sock(&r->nl, w), w, "events: family %s and group %s resolved",
		 UACCESS_KADDR_FAMILY_NAME, UACCESS_KADDR_MCGRP_EVENTS))
		goto out_free;
	if (!tap(trigger_ready(w), w, "events: trigger file %s", UK_TRIGGER))
		goto out_nl;
	if (!tap(!evs_open(&r->evs, &r->nl, w), w, "events: subscribed to the events group"))
		goto out_nl;
	ret = get_status(&r->nl, &st, &req);
	if (!tap(!ret, req_str(ret, &req).s, "events: GET_STATUS"))
		goto out_evs;
	saved = status_config(&st);
	r->sites_max = st.u[UACCESS_KADDR_A_STATUS_SITES_MAX];
	attrs_free(&st);
	diag("events: configuration was %s", config_str(&saved).s);
	apply_config(&r->nl, &cfg, "events: SET_CONFIG mode REPORT, interval 0 ms, burst 1000");

	ret = get_status(&r->nl, &st, &req);
	if (!ret)
		r->next_seq = st.u[UACCESS_KADDR_A_STATUS_LAST_SEQ] + 1;
	attrs_free(&st);
	ksyms_load();
	diag("events: %zu trigger symbols in /proc/kallsyms%s", uk_nr_ksyms,
	     uk_nr_ksyms ? "" : " (hidden: site-ip not checked against them)");

	events_matrix(r);
	quiet_matrix(r);
	if (r->evs.overruns)
		diag("events: %lu receive overruns", r->evs.overruns);
	apply_config(&r->nl, &saved, "events: original configuration restored");
	rc = 0;
out_evs:
	evs_close(&r->evs);
out_nl:
	nl_close_sock(&r->nl);
out_free:
	free(r);
	return rc;
}

/* --------------------------------------------------------- status */

static void status_nobody(void)
{
	struct uk_attrs st;
	struct uk_req req;
	struct uk_nl nl;
	char w[UK_WHY] = "";
	int err = drop_to_nobody(), ret;

	if (!tap(!err, err ? errname(-err).s : NULL, "status: dropped to uid/gid %d",
		 UK_NOBODY))
		return;
	if (!tap(!nl_open_sock(&nl, w), w, "status: family resolved as nobody"))
		return;
	ret = get_status(&nl, &st, &req);
	if (tap(!ret, req_str(ret, &req).s, "status: GET_STATUS as nobody"))
		tap(attrs_complete(&st, &uk_status_set, w), w,
		    "status: GET_STATUS reply as nobody has every status attribute");
	attrs_free(&st);
	nl_close_sock(&nl);
}

/* Run status_nobody() in a child, so that this process stays root. */
static void status_fork_nobody(void)
{
	char w[UK_WHY] = "";
	int wstatus;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		uk_nr_ok = uk_nr_not_ok = 0;
		status_nobody();
		diag("status: unprivileged child: %u ok, %u not ok", uk_nr_ok, uk_nr_not_ok);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &wstatus, 0) != pid) {
		tap(false, "expected a child process, got none", "status: GET_STATUS as nobody");
		return;
	}
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
		fail(w, "expected the unprivileged child to exit 0, got status 0x%x", wstatus);
		tap(false, w, "status: unprivileged child completed");
	}
}

static void check_u64(uint64_t got, uint64_t want, const char *desc)
{
	char w[UK_WHY] = "";

	if (got != want)
		fail(w, "expected %" PRIu64 ", got %" PRIu64, want, got);
	tap(got == want, w, "%s", desc);
}

/* Every hit is reported, suppressed, dropped or without a site slot. */
static void check_accounting(const struct uk_attrs *st, const char *desc)
{
	uint64_t hits = st->u[UACCESS_KADDR_A_STATUS_HITS_FAULT] +
			st->u[UACCESS_KADDR_A_STATUS_HITS_GP] +
			st->u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK];
	uint64_t sum = st->u[UACCESS_KADDR_A_STATUS_REPORTED] +
		       st->u[UACCESS_KADDR_A_STATUS_SUPPRESSED] +
		       st->u[UACCESS_KADDR_A_STATUS_DROPPED] +
		       st->u[UACCESS_KADDR_A_STATUS_SITES_OVERFLOW];

	check_u64(sum, hits, desc);
}

static void status_site(const struct uk_sites *s, const char *helper,
			uint64_t want, const char *sub)
{
	const struct uk_helper *h = helper_by_name(helper);
	struct uk_site_sum sum = site_sum(s, h);
	const struct uk_attrs *a = sum.first;
	char w[UK_WHY] = "";
	bool ok;

	if (!sum.nr)
		fail(w, "expected a site uk_trigger_%s+..., got none among %zu", helper, s->nr);
	else if (sum.nr > 1)
		fail(w, "expected one site, got %u", sum.nr);
	else if (sum.count != want)
		fail(w, "expected count %" PRIu64 ", got %" PRIu64, want, sum.count);
	tap(sum.nr == 1 && sum.count == want, w, "%s: %s site has count %" PRIu64,
	    sub, helper, want);
	if (!a)
		return;

	ok = a->u[UACCESS_KADDR_A_SITE_KIND] == UACCESS_KADDR_KIND_PRECHECK &&
	     a->u[UACCESS_KADDR_A_SITE_DIRECTION] == h->dir;
	if (!ok)
		fail(w, "expected PRECHECK %s, got %s %s",
		     enum_str(UK_NAMES(uk_dir_names), h->dir).s,
		     enum_str(UK_NAMES(uk_kind_names), a->u[UACCESS_KADDR_A_SITE_KIND]).s,
		     enum_str(UK_NAMES(uk_dir_names), a->u[UACCESS_KADDR_A_SITE_DIRECTION]).s);
	tap(ok, w, "%s: %s site has kind and direction", sub, helper);

	ok = a->u[UACCESS_KADDR_A_SITE_LAST_PID] == (uint64_t)uk_pid &&
	     a->s[UACCESS_KADDR_A_SITE_LAST_COMM] &&
	     !strcmp(a->s[UACCESS_KADDR_A_SITE_LAST_COMM], uk_comm);
	if (!ok)
		fail(w, "expected pid %d comm %s, got pid %" PRIu64 " comm %.20s",
		     (int)uk_pid, uk_comm, a->u[UACCESS_KADDR_A_SITE_LAST_PID],
		     a->s[UACCESS_KADDR_A_SITE_LAST_COMM] ?
		     a->s[UACCESS_KADDR_A_SITE_LAST_COMM] : "(none)");
	tap(ok, w, "%s: %s site has our last-pid and last-comm", sub, helper);
}

static void status_dump(struct uk_nl *nl, const struct uk_attrs *st)
{
	struct uk_sites s;
	struct uk_req req;
	char w[UK_WHY] = "";
	size_t i;
	int ret = dump_sites(nl, &s, &req);

	if (!tap(!ret, req_str(ret, &req).s, "status: DUMP_SITES as root"))
		goto out;
	for (i = 0; i < s.nr && attrs_complete(&s.site[i], &uk_site_set, w); i++)
		;
	tap(i == s.nr, w, "status: every dumped site has every site attribute");
	check_u64(s.nr, st->u[UACCESS_KADDR_A_STATUS_SITES_USED],
		  "status: DUMP_SITES returns sites-used sites");
	status_site(&s, "get_user", 7, "status");
	status_site(&s, "put_user", 3, "status");
out:
	sites_free(&s);
}

static void status_after_reset(struct uk_nl *nl)
{
	struct uk_attrs old, st;
	struct uk_sites s;
	struct uk_req req;
	char w[UK_WHY] = "";
	size_t i;
	int ret;

	ret = status_cmd(nl, UACCESS_KADDR_CMD_RESET, &old, &req);
	if (tap(!ret, req_str(ret, &req).s, "status: second RESET")) {
		tap(attrs_complete(&old, &uk_status_set, w), w,
		    "status: RESET reply has every status attribute");
		check_u64(old.u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK], 10,
			  "status: RESET reply has the counters before the reset "
			  "(hits-precheck 10)");
	}
	ret = get_status(nl, &st, &req);
	if (tap(!ret, req_str(ret, &req).s, "status: GET_STATUS after RESET")) {
		check_u64(st.u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK], 0,
			  "status: hits-precheck is 0 after RESET");
		check_u64(st.u[UACCESS_KADDR_A_STATUS_REPORTED] +
			  st.u[UACCESS_KADDR_A_STATUS_SUPPRESSED] +
			  st.u[UACCESS_KADDR_A_STATUS_DROPPED], 0,
			  "status: reported, suppressed and dropped are 0 after RESET");
	}
	ret = dump_sites(nl, &s, &req);
	for (i = 0; !ret && i < s.nr; i++) {
		if (s.site[i].u[UACCESS_KADDR_A_SITE_COUNT]) {
			fail(w, "expected count 0, got %" PRIu64 " at %.80s",
			     s.site[i].u[UACCESS_KADDR_A_SITE_COUNT],
			     s.site[i].s[UACCESS_KADDR_A_SITE_SITE_SYMBOL] ?
			     s.site[i].s[UACCESS_KADDR_A_SITE_SITE_SYMBOL] : "?");
			break;
		}
	}
	tap(!ret && i == s.nr, ret ? req_str(ret, &req).s : w,
	    "status: every site has count 0 after RESET");
	sites_free(&s);
	attrs_free(&old);
	attrs_free(&st);
}

static int cmd_status(int argc, char **argv)
{
	struct uk_config saved, cfg;
	struct uk_attrs st;
	struct uk_req req;
	struct uk_nl nl;
	char w[UK_WHY] = "";
	int ret, err;

	(void)argc;
	(void)argv;
	if (!need_root("status"))
		return 1;
	if (!tap(!nl_open_sock(&nl, w), w, "status: family %s resolved",
		 UACCESS_KADDR_FAMILY_NAME))
		return 1;
	if (!tap(trigger_ready(w), w, "status: trigger file %s", UK_TRIGGER))
		goto out_fail;
	ret = get_status(&nl, &st, &req);
	if (!tap(!ret, req_str(ret, &req).s, "status: GET_STATUS as root"))
		goto out_fail;
	tap(attrs_complete(&st, &uk_status_set, w), w,
	    "status: GET_STATUS reply as root has every status attribute");
	saved = status_config(&st);
	attrs_free(&st);
	cfg = saved;
	cfg.mode = UACCESS_KADDR_MODE_REPORT;
	apply_config(&nl, &cfg, "status: SET_CONFIG mode REPORT");

	ret = status_cmd(&nl, UACCESS_KADDR_CMD_RESET, &st, &req);
	attrs_free(&st);
	tap(!ret, req_str(ret, &req).s, "status: RESET");
	err = trigger("get_user", "kernel-kmalloc", 7);
	tap(!err, err ? errname(-err).s : NULL, "status: trigger get_user kernel-kmalloc 7");
	err = trigger("put_user", "kernel-stack", 3);
	tap(!err, err ? errname(-err).s : NULL, "status: trigger put_user kernel-stack 3");

	ret = get_status(&nl, &st, &req);
	if (tap(!ret, req_str(ret, &req).s, "status: GET_STATUS after the triggers")) {
		check_u64(st.u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK], 10,
			  "status: hits-precheck is 10 after RESET and 7 + 3 hits");
		check_accounting(&st, "status: reported + suppressed + dropped + "
				 "sites-overflow == hits");
		status_dump(&nl, &st);
	}
	attrs_free(&st);
	status_after_reset(&nl);
	apply_config(&nl, &saved, "status: original configuration restored");
	nl_close_sock(&nl);
	status_fork_nobody();
	return 0;
out_fail:
	nl_close_sock(&nl);
	return 1;
}

/* ----------------------------------------------------------- perm */

static void check_eperm(int ret, const struct uk_req *req, const char *desc)
{
	char w[UK_WHY] = "";
	bool ok = req->error == -EPERM && req->nlerr == -NLE_PERM;

	if (!ok)
		fail(w, "expected EPERM (libnl -NLE_PERM), got %s (libnl %d)",
		     req_str(ret, req).s, req->nlerr);
	tap(ok, w, "%s", desc);
}

static void perm_join(const struct uk_nl *nl)
{
	struct nl_sock *sk = nl_socket_alloc();
	char w[UK_WHY] = "";
	int err = sk ? genl_connect(sk) : -NLE_NOMEM;

	if (!err)
		err = nl_socket_add_membership(sk, nl->grp);
	if (err != -NLE_PERM)
		fail(w, "expected -NLE_PERM (EPERM), got %s",
		     err ? nl_geterror(err) : "membership");
	tap(err == -NLE_PERM, w, "perm: joining the events group is refused with EPERM");
	if (sk)
		nl_socket_free(sk);
}

static void perm_status(struct uk_nl *nl, struct uk_config *cfg)
{
	struct uk_attrs st;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ret = get_status(nl, &st, &req);

	if (tap(!ret, req_str(ret, &req).s, "perm: GET_STATUS as nobody")) {
		tap(attrs_complete(&st, &uk_status_set, w), w,
		    "perm: GET_STATUS reply has every status attribute");
		if (st.max_u64 >= UK_KERNEL_MIN)
			fail(w, "expected no value >= 0x%llx, got 0x%" PRIx64,
			     UK_KERNEL_MIN, st.max_u64);
		tap(st.max_u64 < UK_KERNEL_MIN, w,
		    "perm: GET_STATUS reply holds nothing like a kernel address");
		*cfg = status_config(&st);
	}
	attrs_free(&st);
}

static int cmd_perm(int argc, char **argv)
{
	struct uk_config cfg = { UACCESS_KADDR_MODE_REPORT, 5000, 1 };
	struct uk_attrs a;
	struct uk_sites s;
	struct uk_req req;
	struct uk_nl nl;
	char w[UK_WHY] = "";
	int ret, fd, err = 0;

	(void)argc;
	(void)argv;
	if (geteuid() == 0)
		err = drop_to_nobody();
	if (!tap(!err && geteuid() != 0, err ? errname(-err).s : "still root",
		 "perm: running as uid %d gid %d", (int)getuid(), (int)getgid()))
		return 1;
	if (!tap(!nl_open_sock(&nl, w), w, "perm: family and group resolved as nobody"))
		return 1;

	perm_join(&nl);
	perm_status(&nl, &cfg);
	/* The current configuration: should the check fail, nothing changes. */
	ret = set_config(&nl, &cfg, &a, &req);
	attrs_free(&a);
	check_eperm(ret, &req, "perm: SET_CONFIG is refused with EPERM");
	ret = dump_sites(&nl, &s, &req);
	sites_free(&s);
	check_eperm(ret, &req, "perm: DUMP_SITES is refused with EPERM");
	ret = status_cmd(&nl, UACCESS_KADDR_CMD_RESET, &a, &req);
	attrs_free(&a);
	check_eperm(ret, &req, "perm: RESET is refused with EPERM");

	fd = open(UK_TRIGGER, O_WRONLY | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (err != EACCES && err != EPERM)
		fail(w, "expected EACCES or EPERM, got %s", err ? errname(err).s : "an open file");
	tap(err == EACCES || err == EPERM, w,
	    "perm: the trigger file cannot be opened for writing");
	nl_close_sock(&nl);
	return 0;
}

/* ------------------------------------------------------ malformed */

/* A request that must be refused; built by @build on top of the header. */
struct uk_bad {
	const char *name;
	int cmd;
	int flags;
	void (*build)(struct nl_msg *msg, const struct uk_config *cur);
	int errs[3];		/* the errnos allowed; none listed: any error */
	bool extack;		/* an extack message is due */
};

static void b_none(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)msg;
	(void)cur;
}

static void b_status_attr(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_STATUS_MODE, UACCESS_KADDR_MODE_REPORT);
}

static void b_attr99(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, 99, 0);
}

static void b_mode0(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_MODE, 0);
}

static void b_mode5(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_MODE, 5);
}

static void b_interval(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_INTERVAL_MS, 3600001);
}

static void b_burst0(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST, 0);
}

static void b_burst1001(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_RATELIMIT_BURST, 1001);
}

/* The wrong sizes carry the current mode: accepted, they change nothing. */
static void b_mode_u8(struct nl_msg *msg, const struct uk_config *cur)
{
	nla_put_u8(msg, UACCESS_KADDR_A_CONFIG_MODE, (uint8_t)cur->mode);
}

static void b_mode_u64(struct nl_msg *msg, const struct uk_config *cur)
{
	nla_put_u64(msg, UACCESS_KADDR_A_CONFIG_MODE, cur->mode);
}

static void b_mode_attr99(struct nl_msg *msg, const struct uk_config *cur)
{
	nla_put_u32(msg, UACCESS_KADDR_A_CONFIG_MODE, cur->mode);
	nla_put_u32(msg, 99, 0);
}

/* A mode attribute whose nla_len runs 56 bytes past the message. */
static void b_truncated(struct nl_msg *msg, const struct uk_config *cur)
{
	struct nlattr nla = { .nla_len = 64, .nla_type = UACCESS_KADDR_A_CONFIG_MODE };
	uint8_t raw[NLA_HDRLEN + 4];

	memcpy(raw, &nla, sizeof(nla));
	memcpy(raw + NLA_HDRLEN, &cur->mode, 4);
	nlmsg_append(msg, raw, sizeof(raw), NLMSG_ALIGNTO);
}

/* genlmsghdr.reserved must be 0. */
static void b_reserved(struct nl_msg *msg, const struct uk_config *cur)
{
	(void)cur;
	genlmsg_hdr(nlmsg_hdr(msg))->reserved = 0x5a;
}

#define CFG	UACCESS_KADDR_CMD_SET_CONFIG
#define STS	UACCESS_KADDR_CMD_GET_STATUS

static const struct uk_bad uk_bad_requests[] = {
	{ "unknown command 200", 200, 0, b_none, { EOPNOTSUPP, EINVAL }, false },
	{ "GET_STATUS as a dump", STS, NLM_F_DUMP, b_none, { EOPNOTSUPP, EINVAL }, false },
	{ "GET_STATUS with a mode attribute", STS, 0, b_status_attr, { EINVAL }, true },
	{ "GET_STATUS with attribute 99", STS, 0, b_attr99, { EINVAL }, true },
	{ "GET_STATUS with a reserved genl header byte", STS, 0, b_reserved, { EINVAL }, true },
	{ "GET_STATUS with flag NLM_F_ATOMIC", STS, NLM_F_ATOMIC, b_none, { EINVAL }, true },
	{ "SET_CONFIG mode 0", CFG, 0, b_mode0, { 0 }, true },
	{ "SET_CONFIG mode 5", CFG, 0, b_mode5, { 0 }, true },
	{ "SET_CONFIG interval 3600001 ms", CFG, 0, b_interval, { 0 }, true },
	{ "SET_CONFIG burst 0", CFG, 0, b_burst0, { 0 }, true },
	{ "SET_CONFIG burst 1001", CFG, 0, b_burst1001, { 0 }, true },
	{ "SET_CONFIG mode as u8", CFG, 0, b_mode_u8, { 0 }, true },
	{ "SET_CONFIG mode as u64", CFG, 0, b_mode_u64, { 0 }, true },
	{ "SET_CONFIG with attribute 99", CFG, 0, b_mode_attr99, { 0 }, true },
	{ "SET_CONFIG with a truncated attribute", CFG, 0, b_truncated, { 0 }, true },
	{ "SET_CONFIG without attributes", CFG, 0, b_none, { 0 }, true },
};

#undef CFG
#undef STS

static bool errno_allowed(const struct uk_bad *b, int err)
{
	size_t i;

	if (!err)
		return false;
	if (!b->errs[0])
		return true;
	for (i = 0; i < ARRAY_SIZE(b->errs) && b->errs[i]; i++) {
		if (b->errs[i] == err)
			return true;
	}
	return false;
}

static void bad_request(struct uk_nl *nl, const struct uk_bad *b,
			const struct uk_config *cur)
{
	struct nl_msg *msg = nl_new(nl, b->cmd, b->flags);
	struct uk_attrs a;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ret;
	bool ok;

	if (msg)
		b->build(msg, cur);
	ret = do_cmd(nl, msg, &uk_config_set, &a, &req);
	attrs_free(&a);
	ok = errno_allowed(b, req.error ? -req.error : 0);
	if (!ok && b->errs[0])
		fail(w, "expected %s%s%s, got %s", errname(b->errs[0]).s,
		     b->errs[1] ? " or " : "", b->errs[1] ? errname(b->errs[1]).s : "",
		     req_str(ret, &req).s);
	else if (!ok)
		fail(w, "expected an error, got %s", req_str(ret, &req).s);
	tap(ok, w, "malformed: %s is refused", b->name);
	if (ok)
		diag("malformed: %s: %s", b->name, req_str(ret, &req).s);
	if (b->extack)
		tap(req.extack[0], "expected an extack message, got none",
		    "malformed: %s has an extack message", b->name);
}

/* splitmix64 */
static uint64_t uk_rng;

static uint64_t rnd(void)
{
	uint64_t z = (uk_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd();
}

/* Random attributes, some with lying lengths; bytes used of @room. */
static size_t fuzz_attrs(uint8_t *p, size_t room, int depth)
{
	size_t used = 0;
	uint32_t i, n = below(5);

	for (i = 0; i < n; i++) {
		struct nlattr nla;
		uint32_t plen = below(13), r = below(16);

		if (used + NLA_HDRLEN + NLA_ALIGN(plen) > room)
			break;
		nla.nla_type = r < 10 ? (uint16_t)below(5) :
			       r < 14 ? (uint16_t)rnd() : 99;
		nla.nla_len = (uint16_t)(NLA_HDRLEN + plen);
		if (!below(16))
			nla.nla_len = (uint16_t)rnd();
		rnd_bytes(p + used + NLA_HDRLEN, NLA_ALIGN(plen));
		if (plen == 4 && below(2)) {
			uint32_t small = below(8);

			memcpy(p + used + NLA_HDRLEN, &small, 4);
		}
		if (depth == 0 && !below(8)) {
			size_t in = fuzz_attrs(p + used + NLA_HDRLEN,
					       room - used - NLA_HDRLEN, 1);

			nla.nla_type |= NLA_F_NESTED;
			nla.nla_len = (uint16_t)(NLA_HDRLEN + in);
			plen = (uint32_t)in;
		}
		memcpy(p + used, &nla, sizeof(nla));
		used += NLA_HDRLEN + NLA_ALIGN(plen);
	}
	return used;
}

/* A random request to the family; its length. */
static size_t fuzz_build(uint8_t *buf, int family)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	uint8_t *p = buf + NLMSG_HDRLEN;
	struct genlmsghdr g;
	size_t len;
	uint32_t shape = below(4);

	if (shape == 0) {
		len = below(GENL_HDRLEN + UK_FUZZ_BODY + 1);
		rnd_bytes(p, len);
	} else {
		/* Half of them aimed at the family's commands and their neighbours. */
		g.cmd = below(2) ? (uint8_t)below(UACCESS_KADDR_CMD_MAX + 2) : (uint8_t)rnd();
		g.version = below(4) ? UACCESS_KADDR_FAMILY_VERSION : (uint8_t)rnd();
		g.reserved = below(8) ? 0 : (uint16_t)rnd();
		memcpy(p, &g, GENL_HDRLEN);
		len = GENL_HDRLEN;
		if (shape == 1) {
			size_t n = below(UK_FUZZ_BODY + 1);

			rnd_bytes(p + len, n);
			len += n;
		} else {
			len += fuzz_attrs(p + len, UK_FUZZ_BODY, shape == 3 ? 0 : 1);
		}
	}
	nlh->nlmsg_len = (uint32_t)(NLMSG_HDRLEN + len);
	nlh->nlmsg_type = (uint16_t)family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	if (below(8))
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (!below(4))
		nlh->nlmsg_flags |= NLM_F_DUMP;
	if (!below(8))
		nlh->nlmsg_flags |= (uint16_t)(rnd() & (NLM_F_MULTI | NLM_F_ECHO |
						       NLM_F_DUMP_INTR | NLM_F_ATOMIC));
	return NLMSG_HDRLEN + len;
}

struct uk_fuzz {
	unsigned long malformed;
	char first_bad[UK_WHY];
	bool cfg_seen;
	struct uk_config cfg;
};

/* Replies to random requests must still be well-formed. */
static void fuzz_reply(struct nl_msg *msg, void *arg)
{
	struct uk_fuzz *f = arg;
	const struct uk_aset *set;
	struct uk_attrs a;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int cmd = genlmsg_valid_hdr(nlh, 0) ? genlmsg_hdr(nlh)->cmd : -1;

	switch (cmd) {
	case UACCESS_KADDR_CMD_GET_STATUS:
	case UACCESS_KADDR_CMD_RESET:
		set = &uk_status_set;
		break;
	case UACCESS_KADDR_CMD_SET_CONFIG:
		set = &uk_config_set;
		break;
	case UACCESS_KADDR_CMD_DUMP_SITES:
		set = &uk_site_set;
		break;
	default:
		if (!f->malformed++)
			snprintf(f->first_bad, sizeof(f->first_bad),
				 "a reply with genl command %d", cmd);
		return;
	}
	attrs_parse(&a, set, msg);
	if (a.bad[0] && !f->malformed++)
		snprintf(f->first_bad, sizeof(f->first_bad), "%s", a.bad);
	if (cmd == UACCESS_KADDR_CMD_SET_CONFIG && !a.bad[0]) {
		f->cfg_seen = true;
		f->cfg = reply_config(&a);
	}
	attrs_free(&a);
}

struct uk_fuzz_stats {
	unsigned long acks, replies, dumps, errors, timeouts, nlerrs, configs;
	unsigned long by_errno[256];
};

static void fuzz_count(struct uk_fuzz_stats *fs, int ret, const struct uk_req *req)
{
	if (ret == -ETIMEDOUT) {
		fs->timeouts++;
	} else if (ret) {
		fs->nlerrs++;
	} else if (req->error) {
		fs->errors++;
		if (-req->error > 0 && -req->error < (int)ARRAY_SIZE(fs->by_errno))
			fs->by_errno[-req->error]++;
	} else if (req->end == UK_BY_DONE) {
		fs->dumps++;
	} else if (req->end == UK_BY_ACK) {
		fs->acks++;
	} else {
		fs->replies++;
	}
}

static void fuzz_report(const struct uk_fuzz_stats *fs)
{
	size_t i;

	diag("malformed: answers: %lu ACK, %lu reply only, %lu dump, %lu error, "
	     "%lu none, %lu libnl failure", fs->acks, fs->replies, fs->dumps,
	     fs->errors, fs->timeouts, fs->nlerrs);
	for (i = 0; i < ARRAY_SIZE(fs->by_errno); i++) {
		if (fs->by_errno[i])
			diag("malformed:   %s: %lu", errname((int)i).s, fs->by_errno[i]);
	}
	if (fs->configs)
		diag("malformed: %lu random SET_CONFIG requests were valid and accepted",
		     fs->configs);
}

/* @n random requests; @expect becomes the config they legitimately set. */
static void fuzz(struct uk_nl *nl, unsigned long n, struct uk_config *expect)
{
	uint8_t buf[NLMSG_HDRLEN + GENL_HDRLEN + UK_FUZZ_BODY + 64];
	struct uk_fuzz_stats *fs = calloc(1, sizeof(*fs));
	struct uk_fuzz f = { 0 };
	struct uk_req req;
	char w[UK_WHY] = "";
	unsigned long i;
	uint64_t start = now_ns(CLOCK_MONOTONIC);

	if (!fs) {
		tap(false, "expected memory, got none", "malformed: random requests");
		return;
	}
	for (i = 0; i < n && fs->timeouts < UK_FUZZ_MAX_TIMEOUTS; i++) {
		size_t len;
		int ret;

		memset(buf, 0, sizeof(buf));
		len = fuzz_build(buf, nl->family);
		f.cfg_seen = false;
		req_init(&req, fuzz_reply, &f);
		ret = nl_request_raw(nl, buf, len, &req, UK_FUZZ_TIMEOUT_MS);
		fuzz_count(fs, ret, &req);
		if (!ret && !req.error && f.cfg_seen) {
			*expect = f.cfg;
			fs->configs++;
		}
	}
	diag("malformed: %lu random requests in %" PRIu64 " ms, %lu stale messages skipped",
	     i, ms_since(start), nl->stale);
	fuzz_report(fs);
	if (i < n || fs->timeouts || fs->nlerrs)
		fail(w, "expected an answer to each, got %lu without answer "
		     "and %lu libnl failures in %lu",
		     fs->timeouts, fs->nlerrs, i);
	tap(i == n && !fs->timeouts && !fs->nlerrs, w,
	    "malformed: %lu random requests answered", n);
	tap(!f.malformed, f.first_bad, "malformed: replies to random requests are well-formed");
	free(fs);
}

/* GET_STATUS works and shows @want. */
static void check_config(struct uk_nl *nl, const struct uk_config *want,
			 const char *when)
{
	struct uk_attrs st;
	struct uk_config got;
	struct uk_req req;
	char w[UK_WHY] = "";
	int ret = get_status(nl, &st, &req);

	got = status_config(&st);
	if (tap(!ret, req_str(ret, &req).s, "malformed: GET_STATUS %s", when)) {
		if (!config_eq(&got, want))
			fail(w, "expected %s, got %s", config_str(want).s, config_str(&got).s);
		tap(config_eq(&got, want), w, "malformed: configuration unchanged %s", when);
	}
	attrs_free(&st);
}

static int cmd_malformed(int argc, char **argv)
{
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : UK_FUZZ_DEFAULT;
	const char *seed = getenv("UK_SEED");
	struct uk_config saved, expect;
	struct uk_attrs st;
	struct uk_req req;
	struct uk_nl nl;
	char w[UK_WHY] = "";
	size_t i;
	int ret;

	if (!need_root("malformed"))
		return 1;
	if (!tap(!nl_open_sock(&nl, w), w, "malformed: family %s resolved",
		 UACCESS_KADDR_FAMILY_NAME))
		return 1;
	ret = get_status(&nl, &st, &req);
	saved = status_config(&st);
	attrs_free(&st);
	if (!tap(!ret, req_str(ret, &req).s, "malformed: GET_STATUS before")) {
		nl_close_sock(&nl);
		return 1;
	}
	diag("malformed: configuration is %s", config_str(&saved).s);

	for (i = 0; i < ARRAY_SIZE(uk_bad_requests); i++)
		bad_request(&nl, &uk_bad_requests[i], &saved);
	check_config(&nl, &saved, "after the invalid requests");

	uk_rng = seed ? strtoull(seed, NULL, 0) : UK_DEFAULT_SEED;
	diag("malformed: PRNG seed 0x%" PRIx64 " (set UK_SEED to change)", uk_rng);
	expect = saved;
	fuzz(&nl, n, &expect);
	check_config(&nl, &expect, "after the random requests");
	if (!config_eq(&expect, &saved))
		apply_config(&nl, &saved, "malformed: original configuration restored");
	nl_close_sock(&nl);
	return 0;
}

/* ---------------------------------------------------------- flood */

struct uk_flood {
	uint64_t base_seq;
	size_t received;	/* events with seq > base_seq */
	bool ordered;		/* strictly increasing seqs */
};

static struct uk_flood flood_events(const struct uk_evs *e, uint64_t base)
{
	struct uk_flood f = { .base_seq = base, .ordered = true };
	uint64_t prev = base;
	size_t i;

	for (i = 0; i < e->nr; i++) {
		uint64_t seq = e->ev[i].a.u[UACCESS_KADDR_A_EVENT_SEQ];

		if (seq <= base)
			continue;
		if (seq <= prev)
			f.ordered = false;
		prev = seq;
		f.received++;
	}
	return f;
}

/* Collect events until 1 s passed without any and all reported are in. */
static void flood_collect(struct uk_evs *e, uint64_t base, uint64_t reported)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), last = start;

	while (ms_since(start) < 30000) {
		if (evs_pump(e, 100))
			last = now_ns(CLOCK_MONOTONIC);
		if (ms_since(last) >= UK_QUIET_MS &&
		    flood_events(e, base).received >= reported)
			break;
		if (ms_since(last) >= 5 * UK_QUIET_MS)
			break;
	}
}

static void flood_site(const struct uk_sites *s, const char *helper, unsigned long n)
{
	struct uk_site_sum sum = site_sum(s, helper_by_name(helper));
	char desc[128];

	snprintf(desc, sizeof(desc), "flood: %s site has count %lu", helper, n);
	check_u64(sum.count, n, desc);
	snprintf(desc, sizeof(desc), "flood: %s site count == reported + suppressed", helper);
	check_u64(sum.reported + sum.suppressed, sum.count, desc);
	diag("flood: %s site: %u slot(s), count %" PRIu64 ", reported %" PRIu64
	     ", suppressed %" PRIu64, helper, sum.nr, sum.count, sum.reported,
	     sum.suppressed);
}

static void flood_check(const struct uk_attrs *st, const struct uk_sites *s,
			const struct uk_evs *e, uint64_t base, unsigned long n)
{
	uint64_t reported = st->u[UACCESS_KADDR_A_STATUS_REPORTED];
	uint64_t dropped = st->u[UACCESS_KADDR_A_STATUS_DROPPED];
	uint64_t last = st->u[UACCESS_KADDR_A_STATUS_LAST_SEQ];
	struct uk_flood f = flood_events(e, base);
	uint64_t used = last > base ? last - base : 0;
	uint64_t missing = used > f.received ? used - f.received : 0;
	uint64_t lost = reported > f.received ? reported - f.received : 0;
	char w[UK_WHY] = "";

	diag("flood: hits-precheck %" PRIu64 ", reported %" PRIu64 ", suppressed %" PRIu64
	     ", dropped %" PRIu64 ", sites-overflow %" PRIu64,
	     st->u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK], reported,
	     st->u[UACCESS_KADDR_A_STATUS_SUPPRESSED], dropped,
	     st->u[UACCESS_KADDR_A_STATUS_SITES_OVERFLOW]);
	diag("flood: seq %" PRIu64 "..%" PRIu64 ", %zu events received, %lu socket overruns",
	     base, last, f.received, e->overruns);

	check_u64(st->u[UACCESS_KADDR_A_STATUS_HITS_PRECHECK], 2 * (uint64_t)n,
		  "flood: hits-precheck == 2N");
	flood_site(s, "get_user", n);
	flood_site(s, "put_user", n);
	check_accounting(st, "flood: reported + suppressed + dropped + sites-overflow == hits");
	check_u64(used, reported + dropped, "flood: sequence numbers used == reported + dropped");
	if (f.received > reported)
		fail(w, "expected at most %" PRIu64 ", got %zu", reported, f.received);
	tap(f.received <= reported, w, "flood: events received <= reported");
	tap(f.ordered, "expected increasing seq, got a repeat or a step back",
	    "flood: events arrive in seq order without duplicates");
	check_u64(missing, lost + dropped,
		  "flood: seq gaps == (reported - received) + dropped");
	if (f.received != reported && !e->overruns)
		fail(w, "expected %" PRIu64 " events without socket overrun, got %zu",
		     reported, f.received);
	tap(f.received == reported || e->overruns, w,
	    "flood: every reported event received (or the socket overran)");
}

static void flood_trigger(const char *helper, unsigned long n)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC);
	int err = trigger(helper, "kernel-kmalloc", n);
	double s = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;

	tap(!err, err ? errname(-err).s : NULL, "flood: trigger %s kernel-kmalloc %lu",
	    helper, n);
	diag("flood: %s: %lu hits in %.3f s (%.0f hits/s)", helper, n, s,
	     s > 0 ? (double)n / s : 0.0);
}

static int cmd_flood(int argc, char **argv)
{
	const struct uk_config cfg = { UACCESS_KADDR_MODE_REPORT, 5000, 1 };
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : UK_FLOOD_DEFAULT;
	struct uk_config saved;
	struct uk_attrs st;
	struct uk_sites s = { 0 };
	struct uk_req req;
	struct uk_evs evs;
	struct uk_nl nl;
	char w[UK_WHY] = "";
	uint64_t base;
	int ret, rc = 1;

	if (!n || n > UK_FLOOD_MAX) {
		fail(w, "expected N in 1..%lu, got %s", UK_FLOOD_MAX, argv[2]);
		return setup_fail("flood: count", w);
	}
	if (!need_root("flood"))
		return 1;
	if (!tap(!nl_open_sock(&nl, w), w, "flood: family and group resolved"))
		return 1;
	if (!tap(trigger_ready(w), w, "flood: trigger file %s", UK_TRIGGER))
		goto out_nl;
	ret = get_status(&nl, &st, &req);
	saved = status_config(&st);
	attrs_free(&st);
	if (!tap(!ret, req_str(ret, &req).s, "flood: GET_STATUS"))
		goto out_nl;
	if (!tap(!evs_open(&evs, &nl, w), w, "flood: subscribed to the events group"))
		goto out_nl;
	apply_config(&nl, &cfg, "flood: SET_CONFIG mode REPORT, interval 5000 ms, burst 1");
	ret = status_cmd(&nl, UACCESS_KADDR_CMD_RESET, &st, &req);
	attrs_free(&st);
	tap(!ret, req_str(ret, &req).s, "flood: RESET");
	ret = get_status(&nl, &st, &req);
	base = st.u[UACCESS_KADDR_A_STATUS_LAST_SEQ];
	attrs_free(&st);
	if (!tap(!ret, req_str(ret, &req).s, "flood: GET_STATUS after RESET"))
		goto out_evs;

	evs_clear(&evs);
	flood_trigger("get_user", n);
	flood_trigger("put_user", n);
	ret = get_status(&nl, &st, &req);
	flood_collect(&evs, base, ret ? 0 : st.u[UACCESS_KADDR_A_STATUS_REPORTED]);
	attrs_free(&st);

	ret = get_status(&nl, &st, &req);
	if (tap(!ret, req_str(ret, &req).s, "flood: GET_STATUS after the flood")) {
		ret = dump_sites(&nl, &s, &req);
		if (tap(!ret, req_str(ret, &req).s, "flood: DUMP_SITES after the flood"))
			flood_check(&st, &s, &evs, base, n);
	}
	sites_free(&s);
	attrs_free(&st);
	apply_config(&nl, &saved, "flood: original configuration restored");
	rc = 0;
out_evs:
	evs_close(&evs);
out_nl:
	nl_close_sock(&nl);
	return rc;
}

/* ----------------------------------------------------------- show */

/* The enum names of an event attribute, for printing. */
static const struct uk_names *event_attr_names(int attr)
{
	static const struct uk_names kind = UK_NAMES(uk_kind_names);
	static const struct uk_names helper = UK_NAMES(uk_helper_names);
	static const struct uk_names dir = UK_NAMES(uk_dir_names);
	static const struct uk_names class = UK_NAMES(uk_class_names);
	static const struct uk_names context = UK_NAMES(uk_context_names);

	switch (attr) {
	case UACCESS_KADDR_A_EVENT_KIND: return &kind;
	case UACCESS_KADDR_A_EVENT_HELPER: return &helper;
	case UACCESS_KADDR_A_EVENT_DIRECTION: return &dir;
	case UACCESS_KADDR_A_EVENT_ADDR_CLASS: return &class;
	case UACCESS_KADDR_A_EVENT_CONTEXT: return &context;
	}
	return NULL;
}

/* Every attribute of @ev, one per line, as the event set names them. */
static void event_print(const struct uk_event *ev)
{
	const struct uk_attrs *a = &ev->a;
	unsigned int i;
	int t;

	for (t = 1; t <= uk_event_set.max; t++) {
		const struct uk_adesc *d = &uk_event_set.attr[t];
		const struct uk_names *names = event_attr_names(t);

		if (!a->has[t] || d->type == UK_A_PAD || t == UACCESS_KADDR_A_EVENT_STACK)
			continue;
		if (d->type == UK_A_STR)
			printf("  %-16s %s\n", d->name, a->s[t]);
		else if (names)
			printf("  %-16s %s\n", d->name, enum_str(*names, a->u[t]).s);
		else if (t == UACCESS_KADDR_A_EVENT_ADDRESS || t == UACCESS_KADDR_A_EVENT_SITE_IP ||
			 t == UACCESS_KADDR_A_EVENT_STACK_HASH)
			printf("  %-16s 0x%" PRIx64 "\n", d->name, a->u[t]);
		else if (d->type == UK_A_S32)
			printf("  %-16s %" PRId64 "\n", d->name, (int64_t)a->u[t]);
		else
			printf("  %-16s %" PRIu64 "\n", d->name, a->u[t]);
	}
	for (i = 0; i < ev->nr_frames; i++)
		printf("  %-16s %s\n", i ? "" : "stack", ev->frame[i].sym);
}

/*
 * uk_nltest show HELPER CLASS: subscribe, make one access, print every event
 * it caused with all its attributes.  For the demo; no TAP.
 */
static int cmd_show(int argc, char **argv)
{
	char w[UK_WHY] = "";
	struct uk_evs evs;
	struct uk_nl nl;
	size_t i;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: uk_nltest show HELPER CLASS\n");
		return 2;
	}
	if (nl_open_sock(&nl, w) || evs_open(&evs, &nl, w)) {
		fprintf(stderr, "uk_nltest: %s\n", w);
		return 1;
	}
	err = trigger(argv[2], argv[3], 1);
	if (err) {
		fprintf(stderr, "uk_nltest: trigger %s %s: %s\n", argv[2], argv[3],
			strerror(-err));
		return 1;
	}
	evs_quiet(&evs, 500, 5000);
	for (i = 0; i < evs.nr; i++) {
		printf("netlink event %zu of %zu:\n", i + 1, evs.nr);
		event_print(&evs.ev[i]);
	}
	if (!evs.nr)
		printf("no netlink event\n");
	evs_close(&evs);
	nl_close_sock(&nl);
	return 0;
}

/* ----------------------------------------------------------- main */

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} uk_cmds[] = {
	{ "events", cmd_events },
	{ "status", cmd_status },
	{ "perm", cmd_perm },
	{ "malformed", cmd_malformed },
	{ "flood", cmd_flood },
	{ "show", cmd_show },
};

int main(int argc, char **argv)
{
	size_t i;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	uk_pid = getpid();
	prctl(PR_GET_NAME, uk_comm, 0, 0, 0);
	uk_ncpus = sysconf(_SC_NPROCESSORS_CONF);

	for (i = 0; argc > 1 && i < ARRAY_SIZE(uk_cmds); i++) {
		if (strcmp(argv[1], uk_cmds[i].name))
			continue;
		rc = uk_cmds[i].run(argc, argv);
		if (uk_nr_ok || uk_nr_not_ok)
			diag("uk_nltest %s: %u ok, %u not ok", argv[1], uk_nr_ok,
			     uk_nr_not_ok);
		return rc;
	}
	fprintf(stderr, "usage: %s events|status|perm|malformed [N]|flood [N]|show HELPER CLASS\n",
		argv[0]);
	tap(false, "expected a subcommand: events, status, perm, malformed [N], flood [N]",
	    "uk_nltest: command line");
	return 2;
}
