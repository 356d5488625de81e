// SPDX-License-Identifier: GPL-2.0
/*
 * kptr_shim.so: hand a fuzzer's pointer arguments a kernel address now and
 * then, as syzkaller does with its special pointers and trinity (2023)
 * does not.  An LD_PRELOAD library for a fuzzer that makes its system
 * calls through syscall(3), as trinity does for the 64-bit ABI.
 *
 *   UK_KPTR_ARGS="NR:ARG[,NR:ARG...]"  the arguments (ARG 1-6) of system
 *                                      call number NR that are pointers
 *   UK_KPTR_ADDRS="ADDR[,ADDR...]"     the kernel addresses to hand them
 *   UK_KPTR_ONE_IN=N                   one call in N gets one (default 16)
 *
 * For a listed call, one time in N, the shim replaces the argument with
 * one of the addresses, in turn; everything else passes through as it is.
 * (Trinity's children leave with _exit(): what the shim did is for the
 * kernel to count.)
 *
 * Bad settings are refused at load, with the reason on stderr and exit
 * status 2: a shim that silently did nothing would read as a fuzzer that
 * found nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS	16
#define MAX_ADDRS	16

struct kptr_arg {
	long nr;
	int arg;	/* 0-5 */
};

static struct kptr_arg args[MAX_ARGS];
static int nargs;
static unsigned long addrs[MAX_ADDRS];
static int naddrs;
static unsigned long one_in = 16;
static unsigned long given, seq;
static long (*real_syscall)(long, ...);

static void die(const char *what, const char *val)
{
	fprintf(stderr, "kptr_shim: %s: '%s'\n", what, val ? val : "");
	_exit(2);
}

static int parse_ulong(const char *s, char **end, unsigned long *out)
{
	errno = 0;
	*out = strtoul(s, end, 0);
	return errno || *end == s;
}

static void parse_args(const char *env)
{
	const char *p = env;
	char *end;

	while (*p) {
		unsigned long nr, arg;

		if (nargs == MAX_ARGS)
			die("UK_KPTR_ARGS has more than 16 entries", env);
		if (parse_ulong(p, &end, &nr) || *end != ':')
			die("UK_KPTR_ARGS wants NR:ARG[,NR:ARG...]", env);
		p = end + 1;
		if (parse_ulong(p, &end, &arg) || arg < 1 || arg > 6 ||
		    (*end && *end != ','))
			die("UK_KPTR_ARGS: ARG is 1 to 6", env);
		args[nargs].nr = nr;
		args[nargs++].arg = arg - 1;
		p = *end ? end + 1 : end;
	}
	if (!nargs)
		die("UK_KPTR_ARGS is empty", env);
}

static void parse_addrs(const char *env)
{
	const char *p = env;
	char *end;

	while (*p) {
		unsigned long a;

		if (naddrs == MAX_ADDRS)
			die("UK_KPTR_ADDRS has more than 16 entries", env);
		if (parse_ulong(p, &end, &a) || (*end && *end != ','))
			die("UK_KPTR_ADDRS wants ADDR[,ADDR...]", env);
		/* The upper half of the canonical address space. */
		if (a < 0xff00000000000000UL)
			die("UK_KPTR_ADDRS: not a kernel address", env);
		addrs[naddrs++] = a;
		p = *end ? end + 1 : end;
	}
	if (!naddrs)
		die("UK_KPTR_ADDRS is empty", env);
}

__attribute__((constructor))
static void kptr_shim_init(void)
{
	const char *a = getenv("UK_KPTR_ARGS");
	const char *k = getenv("UK_KPTR_ADDRS");
	const char *n = getenv("UK_KPTR_ONE_IN");
	char *end;

	if (!a || !k)
		die("UK_KPTR_ARGS and UK_KPTR_ADDRS must be set", a ? k : a);
	parse_args(a);
	parse_addrs(k);
	if (n && (parse_ulong(n, &end, &one_in) || *end || !one_in))
		die("UK_KPTR_ONE_IN is a number from 1", n);
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (!real_syscall)
		die("no syscall() to wrap", dlerror());
}

long syscall(long nr, ...)
{
	unsigned long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);

	for (i = 0; i < nargs; i++) {
		if (args[i].nr != nr)
			continue;
		if (++seq % one_in == 0) {
			a[args[i].arg] = addrs[given++ % naddrs];
			break;
		}
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
