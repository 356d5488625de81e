// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for uaccess_kaddr: every user-access helper against every
 * address class, exactly the bugs reported, with the right details; then
 * the modes, the ratelimit and reporting from interrupt context.
 *
 * While a test of this suite runs, the reporter hands each event to
 * uk_test_observer instead of failing the current test; outside it, any
 * report during a KUnit test fails that test.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kasan.h>
#include <linux/kfence.h>
#include <linux/kallsyms.h>
#include <linux/mman.h>
#include <linux/nmi.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#endif
#ifdef CONFIG_X86
#include <asm/extable_fixup_types.h>
#include <asm/insn.h>
#include <asm/insn-eval.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>
#endif

#include "uaccess_kaddr.h"
#include "test_triggers.h"

/* The address class an event reports for each class of the matrix. */
static const unsigned int uk_expected_class[UK_NR_CLASSES] = {
	[UK_KERNEL_UNMAPPED] = UKADDR_CLASS_KERNEL_UNMAPPED,
	[UK_KERNEL_KMALLOC] = UKADDR_CLASS_KERNEL_MAPPED,
	[UK_KERNEL_STACK] = UKADDR_CLASS_KERNEL_MAPPED,
	[UK_KERNEL_TEXT] = UKADDR_CLASS_KERNEL_MAPPED,
	[UK_NONCANONICAL] = UKADDR_CLASS_NONCANONICAL,
	[UK_NONCANONICAL_LOW] = UKADDR_CLASS_NONCANONICAL,
	[UK_ALL_ONES] = UKADDR_CLASS_ALL_ONES,
};

struct uk_expect {
	unsigned int kind;	/* 0: no report */
	unsigned int helper;
};

/*
 * What the detector owes for @t on @class.  Kernel-half addresses are
 * caught before the access; a lower-half non-canonical address only by
 * the #GP it raises (with 5-level paging it is a user address).  A helper
 * without the pre-access check is seen only when it faults: a mapped
 * kernel address passes silently and the all-ones page is where put_user()
 * sends bad pointers, so that fault counts as rejected.
 */
static struct uk_expect uk_expected(const struct uk_trigger *t,
				    enum uk_class class)
{
	struct uk_expect none = {}, gp = {
		UKADDR_KIND_GP, t->fault_helper
	};

	if (!t->helper)
		return none;
	if (class == UK_NONCANONICAL_LOW)
		return pgtable_l5_enabled() ? none : gp;
	if (!uk_expected_class[class])
		return none;
	if (!t->fault_only)
		return (struct uk_expect){ UKADDR_KIND_PRECHECK, t->helper };
	if (class == UK_KERNEL_UNMAPPED)
		return (struct uk_expect){ UKADDR_KIND_FAULT, t->fault_helper };
	return class == UK_NONCANONICAL ? gp : none;
}

#define UK_MAX_SEEN	8

/* A trigger's code is smaller than this (checked with kallsyms). */
#define UK_TRIGGER_MAX_SIZE	1024

struct uk_test_ctx {
	unsigned int nr_seen;
	struct uk_event seen[UK_MAX_SEEN];
	/* What the last printed report described (uk_observe_report()). */
	unsigned int nr_reports;
	struct uk_event report_ev;
	struct uk_object report_obj;
	struct uk_status saved;
	bool saved_allow;
	struct uk_buffers bufs;
};

static struct uk_test_ctx *uk_ctx;

static void uk_observe(const struct uk_event *ev)
{
	struct uk_test_ctx *ctx = READ_ONCE(uk_ctx);

	if (ctx && ctx->nr_seen < UK_MAX_SEEN)
		ctx->seen[ctx->nr_seen] = *ev;
	if (ctx)
		ctx->nr_seen++;
}

static void uk_observe_report(const struct uk_event *ev,
			      const struct uk_object *obj)
{
	struct uk_test_ctx *ctx = READ_ONCE(uk_ctx);

	if (!ctx)
		return;
	ctx->report_ev = *ev;
	ctx->report_obj = *obj;
	ctx->nr_reports++;
}

static int uk_test_init(struct kunit *test)
{
	struct uk_test_ctx *ctx;
	unsigned long user;
	u32 mode = UKADDR_MODE_REPORT, interval = 0, burst = 1000;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->bufs.kbuf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->bufs.kbuf);
	ctx->bufs.vbuf = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, ctx->bufs.vbuf);
	user = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, user, 0, "no user page for the test");
	ctx->bufs.upage = (void __user *)user;
	/* Faulted in: the helpers that run with page faults disabled need it. */
	KUNIT_ASSERT_EQ(test, clear_user(ctx->bufs.upage, PAGE_SIZE), 0);

	uk_get_status(&ctx->saved);
	/*
	 * Whatever the boot chose, the cases run with accesses refused, as
	 * they check what a refusal leaves untouched; uk_test_allow_*() let
	 * them through.
	 */
	ctx->saved_allow = READ_ONCE(uaccess_kaddr_allow_access);
	WRITE_ONCE(uaccess_kaddr_allow_access, false);
	/* Every hit reported: no ratelimit while the matrix runs. */
	uk_set_config(&mode, &interval, &burst);
	test->priv = ctx;
	WRITE_ONCE(uk_ctx, ctx);
	WRITE_ONCE(uk_test_observer, uk_observe);
	WRITE_ONCE(uk_test_report_observer, uk_observe_report);
	/* Hundreds of reports would flood the log: printed where tested. */
	WRITE_ONCE(uk_test_quiet, true);
	return 0;
}

static void uk_test_exit(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;

	if (!ctx)
		return;
	uk_flush_events();
	WRITE_ONCE(uaccess_kaddr_allow_access, ctx->saved_allow);
	WRITE_ONCE(uk_test_quiet, false);
	WRITE_ONCE(uk_test_report_observer, NULL);
	WRITE_ONCE(uk_test_observer, NULL);
	WRITE_ONCE(uk_ctx, NULL);
	uk_set_config(&ctx->saved.mode, &ctx->saved.ratelimit_interval_ms,
		      &ctx->saved.ratelimit_burst);
	vfree(ctx->bufs.vbuf);
}

static bool uk_cell_valid(unsigned int i)
{
	const struct uk_trigger *t = &uk_triggers[i / UK_NR_CLASSES];

	/* Never write into kernel text, even to prove it is caught. */
	if (t->writes && i % UK_NR_CLASSES == UK_KERNEL_TEXT)
		return false;
	/* Its #GP warns, once per boot: dmesg.t has it. */
	return !t->kernel_operand;
}

static const void *uk_matrix_gen(struct kunit *test, const void *prev,
				 char *desc)
{
	static unsigned int cells[ARRAY_SIZE(uk_triggers) * UK_NR_CLASSES];
	unsigned int i = prev ? *(const unsigned int *)prev + 1 : 0;

	for (; i < ARRAY_SIZE(cells) && !uk_cell_valid(i); i++)
		;
	if (i >= ARRAY_SIZE(cells))
		return NULL;
	cells[i] = i;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s/%s",
		 uk_triggers[i / UK_NR_CLASSES].name,
		 uk_class_names[i % UK_NR_CLASSES]);
	return &cells[i];
}

static void uk_test_matrix(struct kunit *test)
{
	unsigned int cell = *(const unsigned int *)test->param_value;
	const struct uk_trigger *t = &uk_triggers[cell / UK_NR_CLASSES];
	enum uk_class class = cell % UK_NR_CLASSES;
	struct uk_test_ctx *ctx = test->priv;
	char stack[UK_TRIGGER_LEN * 2] = {};
	char want[64], got[128];
	void __user *p = uk_class_addr(&ctx->bufs, class, stack);
	struct uk_expect want_ev = uk_expected(t, class);
	const struct uk_event *ev = &ctx->seen[0];
	int ret;

	ret = t->fn(p, ctx->bufs.upage);

	if (!want_ev.kind) {
		KUNIT_EXPECT_EQ_MSG(test, ctx->nr_seen, 0,
				    "%s on %s (%lx) was reported, it is no bug",
				    t->name, uk_class_names[class],
				    (unsigned long)p);
		if (t->kernel_ptr)
			return;
		/*
		 * Silent is right only if the access went as it should: a
		 * helper that checks refuses everything but the user page,
		 * and every helper succeeds on that page.
		 */
		if (class == UK_USER_VALID)
			KUNIT_EXPECT_EQ_MSG(test, ret, 0,
					    "%s on the user page failed", t->name);
		else if (!t->helper)
			KUNIT_EXPECT_NE_MSG(test, ret, 0,
					    "%s on %s (%lx) succeeded, it must refuse",
					    t->name, uk_class_names[class],
					    (unsigned long)p);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, ctx->nr_seen, 1,
			    "%s on %s (%lx): want one report", t->name,
			    uk_class_names[class], (unsigned long)p);
	KUNIT_EXPECT_EQ(test, ev->kind, want_ev.kind);
	KUNIT_EXPECT_EQ(test, ev->helper, want_ev.helper);
	KUNIT_EXPECT_EQ(test, ev->dir, t->dir);
	KUNIT_EXPECT_EQ(test, ev->addr, (unsigned long)p);
	KUNIT_EXPECT_EQ(test, ev->addr_class, uk_expected_class[class]);
	KUNIT_EXPECT_EQ(test, ev->context, UKADDR_CTX_TASK);
	KUNIT_EXPECT_EQ(test, ev->pid, task_pid_nr(current));
	/* A kthread's saved user registers are not a system call. */
	KUNIT_EXPECT_EQ(test, ev->syscall_nr, -1);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EFAULT,
			    "%s on %s: the access must fail as a failed access_ok() would",
			    t->name, uk_class_names[class]);
	KUNIT_EXPECT_GE(test, ev->nr_frames, 2);
	KUNIT_EXPECT_EQ_MSG(test, ev->frames[0], ev->ip,
			    "the stack must start at the call site");
	/* The call site is inside the trigger, wherever symbols are. */
	KUNIT_EXPECT_LT_MSG(test, ev->ip - (unsigned long)t->fn, UK_TRIGGER_MAX_SIZE,
			    "call site %pS is not in %ps", (void *)ev->ip, t->fn);
	if (IS_ENABLED(CONFIG_KALLSYMS)) {
		snprintf(want, sizeof(want), "uk_trigger_%s", t->name);
		snprintf(got, sizeof(got), "%ps", (void *)ev->ip);
		KUNIT_EXPECT_STREQ(test, got, want);
	}
}

static void uk_set_mode(unsigned int mode)
{
	u32 m = mode;

	uk_set_config(&m, NULL, NULL);
}

/* off: not even counted; count: counted, no event; report: an event. */
static void uk_test_modes(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void __user *p = (void __user *)ctx->bufs.kbuf;
	struct uk_status a, b;

	uk_set_mode(UKADDR_MODE_OFF);
	uk_get_status(&a);
	uk_trigger_get_user(p, ctx->bufs.upage);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_precheck, a.hits_precheck);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);

	uk_set_mode(UKADDR_MODE_COUNT);
	uk_trigger_get_user(p, ctx->bufs.upage);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_precheck, a.hits_precheck + 1);
	KUNIT_EXPECT_EQ(test, b.reported, a.reported);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);

	uk_set_mode(UKADDR_MODE_REPORT);
	uk_trigger_get_user(p, ctx->bufs.upage);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_precheck, a.hits_precheck + 2);
	KUNIT_EXPECT_EQ(test, b.reported, a.reported + 1);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 1);
}

/* Burst 1 per long interval: one event, the rest carried as suppressed. */
static void uk_test_ratelimit(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void __user *p = (void __user *)ctx->bufs.kbuf;
	u32 interval = 3600000, burst = 1;
	struct uk_status a, b;
	unsigned int i;

	uk_set_config(NULL, &interval, &burst);
	/* A fresh window for the site: its first hit is always reported. */
	interval = 0;
	uk_set_config(NULL, &interval, NULL);
	uk_trigger_copy_from_user(p, ctx->bufs.upage);
	interval = 3600000;
	uk_set_config(NULL, &interval, NULL);
	ctx->nr_seen = 0;

	uk_get_status(&a);
	for (i = 0; i < 10; i++)
		uk_trigger_copy_from_user(p, ctx->bufs.upage);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
	KUNIT_EXPECT_EQ(test, b.suppressed, a.suppressed + 10);
	KUNIT_EXPECT_EQ(test, b.hits_precheck, a.hits_precheck + 10);

	interval = 0;
	uk_set_config(NULL, &interval, NULL);
	uk_trigger_copy_from_user(p, ctx->bufs.upage);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].suppressed, 10);
	KUNIT_EXPECT_GE(test, ctx->seen[0].count, 12);
}

struct uk_irq_trigger {
	struct irq_work work;
	void __user *p;
	void __user *upage;
};

static void uk_irq_fn(struct irq_work *work)
{
	struct uk_irq_trigger *t = container_of(work, struct uk_irq_trigger,
						 work);

	uk_trigger_copy_from_user_inatomic(t->p, t->upage);
}

/* A hit in hard interrupt context is recorded with its context. */
static void uk_test_hardirq(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct uk_irq_trigger t = {
		.work = IRQ_WORK_INIT_HARD(uk_irq_fn),
		.p = (void __user *)ctx->bufs.kbuf,
		.upage = ctx->bufs.upage,
	};

	irq_work_queue(&t.work);
	irq_work_sync(&t.work);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].context,
			UKADDR_CTX_HARDIRQ);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].helper,
			UKADDR_HELPER_COPY_FROM_USER);
}

#ifdef CONFIG_X86_LOCAL_APIC
static struct {
	void __user *p;
	atomic_t armed;
	atomic_t fired;
} uk_nmi;

static int uk_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	if (!atomic_xchg(&uk_nmi.armed, 0))
		return NMI_DONE;
	uk_trigger_copy_from_user_inatomic(uk_nmi.p, NULL);
	atomic_set(&uk_nmi.fired, 1);
	return NMI_HANDLED;
}

/*
 * A hit in NMI context (a self-NMI, as the NMI selftest sends) goes
 * through the per-CPU NMI slots: recorded with its context, not dropped.
 */
static void uk_test_nmi(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	unsigned long timeout = jiffies + HZ;
	struct uk_status a, b;
	int ret;

	uk_nmi.p = (void __user *)ctx->bufs.kbuf;
	atomic_set(&uk_nmi.fired, 0);
	ret = register_nmi_handler(NMI_LOCAL, uk_nmi_handler, 0, "uk_test");
	KUNIT_ASSERT_EQ(test, ret, 0);

	uk_get_status(&a);
	atomic_set(&uk_nmi.armed, 1);
	__apic_send_IPI_self(NMI_VECTOR);
	/* The event is classified and observed by the irq_work after it. */
	while ((!atomic_read(&uk_nmi.fired) || !READ_ONCE(ctx->nr_seen)) &&
	       time_before(jiffies, timeout))
		cpu_relax();
	atomic_set(&uk_nmi.armed, 0);
	unregister_nmi_handler(NMI_LOCAL, "uk_test");
	uk_get_status(&b);

	KUNIT_ASSERT_TRUE_MSG(test, atomic_read(&uk_nmi.fired),
			      "the self-NMI did not arrive within 1 s");
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].context, UKADDR_CTX_NMI);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].helper,
			UKADDR_HELPER_COPY_FROM_USER);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr, (unsigned long)uk_nmi.p);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr_class,
			UKADDR_CLASS_KERNEL_MAPPED);
	KUNIT_EXPECT_EQ(test, b.reported, a.reported + 1);
	KUNIT_EXPECT_EQ(test, b.dropped, a.dropped);
}
#else
static void uk_test_nmi(struct kunit *test)
{
	kunit_skip(test, "no way to raise an NMI on this architecture");
}
#endif

/* Sequence numbers increase by one per event. */
static void uk_test_sequence(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void __user *p = (void __user *)ctx->bufs.kbuf;
	unsigned int i;

	for (i = 0; i < 4; i++)
		uk_trigger_get_user(p, ctx->bufs.upage);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 4);
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ctx->seen[i].seq, ctx->seen[i - 1].seq + 1);
}

/*
 * Two call sites that fault on the same non-canonical address one after the
 * other on one CPU are two bugs: each is reported.
 */
static void uk_test_same_address_two_sites(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void __user *p = (void __user *)(1UL << (__VIRTUAL_MASK_SHIFT + 1));

	migrate_disable();
	uk_trigger_unsafe_put_user(p, ctx->bufs.upage);
	uk_trigger_unsafe_copy_to_user(p, ctx->bufs.upage);
	migrate_enable();
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 2);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].kind, UKADDR_KIND_GP);
	KUNIT_EXPECT_EQ(test, ctx->seen[1].kind, UKADDR_KIND_GP);
	KUNIT_EXPECT_NE(test, ctx->seen[0].ip, ctx->seen[1].ip);
}

/*
 * The whole matrix again on every CPU, twice: a report that depends on
 * what ran before on that CPU shows here as a miss or an extra report.
 */
static void uk_test_matrix_each_cpu(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	char stack[UK_TRIGGER_LEN * 2] = {};
	unsigned int cpu, round, i, bad = 0;
	struct uk_status a, b;

	uk_get_status(&a);

	for_each_online_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
		for (round = 0; round < 2; round++) {
			for (i = 0; i < ARRAY_SIZE(uk_triggers) * UK_NR_CLASSES; i++) {
				const struct uk_trigger *t = &uk_triggers[i / UK_NR_CLASSES];
				enum uk_class class = i % UK_NR_CLASSES;
				void __user *p;
				struct uk_expect want;

				if (!uk_cell_valid(i))
					continue;
				p = uk_class_addr(&ctx->bufs, class, stack);
				want = uk_expected(t, class);
				ctx->nr_seen = 0;
				t->fn(p, ctx->bufs.upage);
				/*
				 * A pinned loop outruns the drain work: let it
				 * empty the queue, or events would be dropped.
				 */
				uk_flush_events();
				if (ctx->nr_seen == !!want.kind &&
				    (!want.kind || ctx->seen[0].kind == want.kind))
					continue;
				bad++;
				kunit_err(test, "cpu %u round %u: %s/%s: %u reports, want %u\n",
					  cpu, round, t->name, uk_class_names[class],
					  ctx->nr_seen, !!want.kind);
			}
		}
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ_MSG(test, b.dropped, a.dropped,
			    "a dropped event is no report the observer sees");
}

/* The bytes a refused access would have written are untouched. */
static void uk_test_refused_writes(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	u8 *buf = ctx->bufs.kbuf;
	unsigned int t, i;

	for (t = 0; t < ARRAY_SIZE(uk_triggers); t++) {
		const struct uk_trigger *tr = &uk_triggers[t];

		if (!tr->helper || tr->fault_only || !tr->writes)
			continue;
		memset(buf, 0xa5, UK_TRIGGER_LEN);
		KUNIT_EXPECT_EQ_MSG(test, tr->fn((void __user *)buf, ctx->bufs.upage),
				    -EFAULT, "%s: not refused", tr->name);
		for (i = 0; i < UK_TRIGGER_LEN; i++)
			if (buf[i] != 0xa5)
				break;
		KUNIT_EXPECT_EQ_MSG(test, i, UK_TRIGGER_LEN,
				    "%s wrote kernel memory at byte %u", tr->name, i);
	}
}

/*
 * Booted with uaccess_kaddr_access=allow (the default without
 * CONFIG_DEBUG_UACCESS_KADDR_REFUSE), a pre-access hit lets the access go
 * ahead, and it reaches the memory.  When it then faults (a #PF on an
 * unmapped address, a #GP on a non-canonical one), the bug has still one
 * report, the pre-access check's under the helper's name: a console
 * reader files one bug, not two under two titles.
 */
static void uk_test_allow_one_report(struct kunit *test)
{
	static const enum uk_class classes[] = {
		UK_KERNEL_UNMAPPED, UK_NONCANONICAL,
	};
	struct uk_test_ctx *ctx = test->priv;
	char stack[UK_TRIGGER_LEN], dst[UK_TRIGGER_LEN];
	struct uk_status a, b;
	unsigned int i;

	WRITE_ONCE(uaccess_kaddr_allow_access, true);
	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		void __user *p = uk_class_addr(&ctx->bufs, classes[i], stack);

		ctx->nr_seen = 0;
		uk_get_status(&a);
		KUNIT_EXPECT_EQ(test, uk_trigger_copy_from_user(p, ctx->bufs.upage),
				-EFAULT);
		uk_flush_events();
		uk_get_status(&b);
		KUNIT_EXPECT_EQ_MSG(test, ctx->nr_seen, 1, "%s",
				    uk_class_names[classes[i]]);
		KUNIT_EXPECT_EQ(test, ctx->seen[0].kind, UKADDR_KIND_PRECHECK);
		KUNIT_EXPECT_TRUE(test, ctx->seen[0].allowed);
		KUNIT_EXPECT_EQ(test, b.hits_fault, a.hits_fault);
		KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp);
	}
	memset(ctx->bufs.kbuf, 0x5a, UK_TRIGGER_LEN);
	KUNIT_EXPECT_EQ(test, __copy_from_user(dst, (void __user *)ctx->bufs.kbuf,
					       sizeof(dst)), 0);
	KUNIT_EXPECT_EQ(test, dst[UK_TRIGGER_LEN - 1], 0x5a);
}

/*
 * The pre-access hit that let an access through covers the fault of that
 * access only: an access of mapped memory does not fault, and a later
 * fault of another function on the same range, once the memory is gone,
 * is a bug of its own and reported.
 */
static void uk_test_allow_stale_range(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct uk_status a, b;
	char *v;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		kunit_skip(test, "without kallsyms the match is by range alone");
	v = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, v);
	WRITE_ONCE(uaccess_kaddr_allow_access, true);
	ctx->nr_seen = 0;
	KUNIT_EXPECT_EQ(test, uk_trigger_copy_from_user((void __user *)v,
							ctx->bufs.upage), 0);
	vfree(v);
	vm_unmap_aliases();
	uk_get_status(&a);
	KUNIT_EXPECT_EQ(test, uk_trigger_copy_user_generic((void __user *)v,
							   ctx->bufs.upage),
			-EFAULT);
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_fault, a.hits_fault + 1);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 2);
	KUNIT_EXPECT_EQ(test, ctx->seen[1].kind, UKADDR_KIND_FAULT);
}

/* No access follows a pre-access check of 0 bytes: nothing to report. */
static void uk_test_zero_size(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void __user *p = (void __user *)ctx->bufs.kbuf;
	struct uk_status a, b;
	unsigned long n = 0;
	char dst[1];

	OPTIMIZER_HIDE_VAR(n);
	uk_get_status(&a);
	KUNIT_EXPECT_EQ(test, __copy_from_user(dst, p, n), 0);
	KUNIT_EXPECT_EQ(test, __copy_to_user(p, dst, n), 0);
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_precheck, a.hits_precheck);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}

/*
 * A copy that faults on its kernel operand (here the guard page after a
 * vmalloc area) has no kernel address in its user operand: not reported.
 */
static void uk_test_copy_kernel_operand(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void *end = ctx->bufs.vbuf + PAGE_SIZE;

	KUNIT_EXPECT_EQ(test, __copy_to_user(ctx->bufs.upage, end - 8, 16), 8);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}

#ifdef CONFIG_X86_64
/*
 * The checksum and non-temporal copies also copy kernel to kernel; a fault
 * on a kernel operand there (here the guard page after a vmalloc area) is
 * no user access at all: not reported.  With GENERIC_CSUM (KASAN, KMSAN)
 * csum_partial_copy_nocheck() is a memcpy() without fixups, which oopses.
 */
static void uk_test_kernel_to_kernel_copies(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	void *end = ctx->bufs.vbuf + PAGE_SIZE;
	__wsum sum;

	if (!IS_ENABLED(CONFIG_GENERIC_CSUM)) {
		sum = csum_partial_copy_nocheck(ctx->bufs.kbuf, end - 8, 16);
		KUNIT_EXPECT_EQ(test, (__force u32)sum, 0);
	}
	KUNIT_EXPECT_GT(test, copy_to_nontemporal(end - 8, ctx->bufs.kbuf, 16), 0);
	uk_flush_events();
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}
#else
static void uk_test_kernel_to_kernel_copies(struct kunit *test)
{
	kunit_skip(test, "x86-64 only");
}
#endif

#ifdef CONFIG_KFENCE
/* A KFENCE object that ends where its guard page begins. */
static void *uk_kfence_alloc_before_guard(size_t size)
{
	unsigned long timeout = jiffies +
				msecs_to_jiffies(100 * kfence_sample_interval);
	void *p;

	do {
		p = kmalloc(size, GFP_KERNEL);
		if (is_kfence_address(p) && PAGE_ALIGNED((unsigned long)p + size))
			return p;
		kfree(p);
		cond_resched();
	} while (time_before(jiffies, timeout));
	return NULL;
}

/* Such an object, or the test skipped (or failed) for want of one. */
static void *uk_kfence_object(struct kunit *test, size_t size)
{
	void *p;

	if (!READ_ONCE(kfence_sample_interval))
		kunit_skip(test, "KFENCE is disabled (kfence.sample_interval=0)");
	p = uk_kfence_alloc_before_guard(size);
	KUNIT_ASSERT_NOT_NULL_MSG(test, p,
				  "no KFENCE object within 100 sample intervals");
	return p;
}

/*
 * The same on a KFENCE-guarded object: the fixup is not applied, so that
 * KFENCE reports the out-of-bounds read and lets the copy complete.
 */
static void uk_test_copy_kfence_operand(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	size_t size = 32;
	char *obj, *src;

	obj = uk_kfence_object(test, size);
	src = obj + size - 8;
	/* Past the object on purpose: hide it from the copy's size check. */
	OPTIMIZER_HIDE_VAR(src);
	pr_info("uaccess_kaddr_test: a KFENCE out-of-bounds read report follows\n");
	KUNIT_EXPECT_EQ(test, copy_to_user(ctx->bufs.upage, src, 16), 0);
	pr_info("uaccess_kaddr_test: end of the expected KFENCE report\n");
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
	kfree(obj);
}
#else
static void uk_test_copy_kfence_operand(struct kunit *test)
{
	kunit_skip(test, "no KFENCE");
}
#endif

#ifdef CONFIG_X86
/*
 * A fault handed to the detector as the exception fixup would hand it,
 * from a nop in this function: the stack the report would unwind is this
 * one, and the nop has no operand to decode.
 */
static noinline enum uaccess_kaddr_fixup
uk_fault_at_nop(struct pt_regs *regs, int trapnr, unsigned long error_code,
		unsigned long addr, int ex_type, int ex_imm)
{
	asm volatile("lea 1f(%%rip), %0\n\t"
		     "mov %%rsp, %1\n\t"
		     "1: nop"
		     : "=r" (regs->ip), "=r" (regs->sp));
	return uaccess_kaddr_x86_fault(regs, trapnr, error_code, addr, ex_type,
				       ex_imm);
}

/*
 * A #GP in a user access whose operand cannot be decoded is still counted
 * and reported, at address 0.
 */
static void uk_test_gp_undecoded(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct pt_regs regs = {};
	struct uk_status a, b;

	uk_get_status(&a);
	uk_fault_at_nop(&regs, X86_TRAP_GP, 0, 0, EX_TYPE_UACCESS, 0);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp + 1);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].kind, UKADDR_KIND_GP);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr, 0);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr_class,
			UKADDR_CLASS_NONCANONICAL);
}

/*
 * A #GP with an error code is about a segment selector, not an address:
 * whatever the user access did, it was not handed a kernel address.
 */
static void uk_test_gp_segment(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct pt_regs regs = {};
	struct uk_status a, b;

	uk_get_status(&a);
	uk_fault_at_nop(&regs, X86_TRAP_GP, 0x10, 0, EX_TYPE_UACCESS, 0);
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}

/*
 * A copy whose #GP is on its kernel operand (a corrupt kernel pointer, for
 * KASAN to catch), while the user operand is a user address: no kernel
 * address was handed to the helper.  The detector reports nothing and
 * leaves the fixup its own warning ("General protection fault in user
 * access"), as it does for a #GP in a checked helper; the faults that it
 * reports, in modes report and warn, it keeps that warning quiet for.
 * (dmesg.t sees the warning of a real copy's #GP on its kernel operand.)
 */
static void uk_test_copy_gp_kernel_operand(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	unsigned long dst = 0xdead000000000100UL;
	u32 count = UKADDR_MODE_COUNT, report = UKADDR_MODE_REPORT;
	struct pt_regs regs = {};
	struct uk_status a, b;

	regs.si = (unsigned long)ctx->bufs.upage;
	regs.di = dst;
	uk_get_status(&a);
	KUNIT_EXPECT_EQ(test, uk_fault_at_nop(&regs, X86_TRAP_GP, 0, dst,
					      EX_TYPE_UACCESS_LEAF,
					      EX_UACCESS_LEAF_COPY),
			UACCESS_KADDR_FIXUP);
	KUNIT_EXPECT_EQ(test, uk_fault_at_nop(&regs, X86_TRAP_GP, 0, dst,
					      EX_TYPE_UACCESS_CHECKED, 0),
			UACCESS_KADDR_FIXUP);
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp);
	KUNIT_EXPECT_EQ(test, b.rejected, a.rejected + 1);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);

	/*
	 * A user operand at a non-canonical address: the detector's.  An
	 * inlined access (a leaf's caller would be read off this stack).
	 */
	regs.si = dst;
	regs.di = (unsigned long)ctx->bufs.kbuf;
	KUNIT_EXPECT_EQ(test, uk_fault_at_nop(&regs, X86_TRAP_GP, 0, dst,
					      EX_TYPE_UACCESS, 0),
			UACCESS_KADDR_FIXUP_QUIET);
	uk_set_config(&count, NULL, NULL);
	KUNIT_EXPECT_EQ(test, uk_fault_at_nop(&regs, X86_TRAP_GP, 0, dst,
					      EX_TYPE_UACCESS, 0),
			UACCESS_KADDR_FIXUP);
	uk_set_config(&report, NULL, NULL);
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp + 2);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 1);
}

#ifdef CONFIG_X86_64
static noinline int uk_masked_read(const u64 __user *up, unsigned long idx)
{
	u64 v;

	up = masked_user_access_begin(up);
	unsafe_get_user(v, up + idx, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/*
 * masked_user_access_begin() turns a kernel pointer into the guard page
 * below the kernel half, for dense accesses from the start: a fault in the
 * guard page is bad input, counted as rejected.  An access a page or more
 * past the masked pointer breaks that contract (with an offset that the
 * user chose, it could reach the kernel half) and is reported, as the #GP
 * of a non-canonical address, with either paging.
 */
static void uk_test_masked_pointer_offset(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	const u64 __user *up = (const u64 __user *)ctx->bufs.kbuf;
	unsigned long far = 2 * PAGE_SIZE / sizeof(u64);
	struct uk_status a, b;

	if (!can_do_masked_user_access())
		kunit_skip(test, "no address masking");
	ctx->nr_seen = 0;
	uk_get_status(&a);
	KUNIT_EXPECT_EQ(test, uk_masked_read(up, PAGE_SIZE / sizeof(u64) - 1),
			-EFAULT);
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
	KUNIT_EXPECT_EQ(test, b.rejected - a.rejected, 1);

	KUNIT_EXPECT_EQ(test, uk_masked_read(up, far), -EFAULT);
	uk_flush_events();
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].kind, UKADDR_KIND_GP);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr_class, UKADDR_CLASS_NONCANONICAL);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr,
			(unsigned long)mask_user_address(up) + far * sizeof(u64));
}

/*
 * The user operand is told by bit 63, not TASK_SIZE_MAX: a copy that faults
 * writing its kernel operand while reading a LAM-tagged user pointer (bits
 * 57-62 set, ignored by the MMU under LAM) is not reported.
 */
static void uk_test_copy_kernel_operand_tagged(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	unsigned long dst = (unsigned long)ctx->bufs.vbuf + PAGE_SIZE;
	struct pt_regs regs = {};

	regs.si = (unsigned long)ctx->bufs.upage | 0x7e00000000000000UL;
	regs.di = dst;
	/* The fault of an out-of-line copy leaf. */
	uk_fault_at_nop(&regs, X86_TRAP_PF, X86_PF_WRITE, dst,
			EX_TYPE_UACCESS_LEAF, EX_UACCESS_LEAF_COPY);
	uk_flush_events();
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}
#else
static void uk_test_copy_kernel_operand_tagged(struct kunit *test)
{
	kunit_skip(test, "x86-64 only");
}
#endif
#else
static void uk_test_gp_undecoded(struct kunit *test)
{
	kunit_skip(test, "x86 only");
}

static void uk_test_gp_segment(struct kunit *test)
{
	kunit_skip(test, "x86 only");
}

static void uk_test_copy_gp_kernel_operand(struct kunit *test)
{
	kunit_skip(test, "x86 only");
}

static void uk_test_copy_kernel_operand_tagged(struct kunit *test)
{
	kunit_skip(test, "x86 only");
}
#endif

#ifdef CONFIG_X86_64
/*
 * The #GP decoding (the hint, the direction of a fault) takes the operand
 * of a string instruction from rsi or rdi.  Only a legacy one-byte opcode
 * is one: a VEX or EVEX prefix makes 0xa4-0xaf other instructions.
 */
static const struct {
	const char *name;
	u8 bytes[8];
	bool string;
} uk_string_insns[] = {
	{ "rep movsb", { 0xf3, 0xa4 }, true },
	{ "rep stosq", { 0xf3, 0x48, 0xab }, true },
	{ "lodsb", { 0xac }, true },
	{ "scasb", { 0xae }, true },
	{ "insb", { 0x6c }, true },
	{ "vfnmadd213ss (%rax),%xmm1,%xmm0", { 0xc4, 0xe2, 0x71, 0xaf, 0x00 }, false },
	{ "vldmxcsr (%rax)", { 0xc5, 0xf8, 0xae, 0x10 }, false },
	{ "vstmxcsr (%rax)", { 0xc5, 0xf8, 0xae, 0x18 }, false },
	{ "clflush (%rax)", { 0x0f, 0xae, 0x38 }, false },
	{ "mov (%rsi),%rax", { 0x48, 0x8b, 0x06 }, false },
};

static void uk_test_string_insn(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uk_string_insns); i++) {
		u8 buf[MAX_INSN_SIZE] = {};
		struct insn insn;

		memcpy(buf, uk_string_insns[i].bytes, sizeof(uk_string_insns[i].bytes));
		KUNIT_ASSERT_EQ_MSG(test, insn_decode_kernel(&insn, buf), 0,
				    "%s does not decode", uk_string_insns[i].name);
		KUNIT_EXPECT_EQ_MSG(test, insn_is_string(&insn),
				    uk_string_insns[i].string, "%s",
				    uk_string_insns[i].name);
	}
}
#else
static void uk_test_string_insn(struct kunit *test)
{
	kunit_skip(test, "x86-64 only");
}
#endif

#ifdef CONFIG_X86_64
/*
 * The reporter's asm takes its operands in any register; each must be read
 * before the register it sits in is reloaded.  Here @how sits in %esi and
 * @ptr in %edi, the registers the asm loads last.
 */
static noinline void uk_report_from_argument_registers(void __user *p)
{
	register unsigned long ptr asm("rdi") = (__force unsigned long)p;
	register unsigned long size asm("rdx") = 8;
	register unsigned int how asm("esi") = UACCESS_KADDR_GET_USER;

	asm volatile("" : "+r" (ptr), "+r" (size), "+r" (how));
	arch_uaccess_kaddr_report(__uaccess_kaddr_precheck,
				  (void __user *)ptr, size, how);
}

static void uk_test_report_operands(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;

	uk_report_from_argument_registers((void __user *)ctx->bufs.kbuf);
	KUNIT_ASSERT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].helper, UKADDR_HELPER_GET_USER);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].dir,
			UKADDR_DIR_FROM_USER);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].size, 8);
	KUNIT_EXPECT_EQ(test, ctx->seen[0].addr, (unsigned long)ctx->bufs.kbuf);
}
#else
static void uk_test_report_operands(struct kunit *test)
{
	kunit_skip(test, "x86-64 only");
}
#endif

/* unsafe_try_cmpxchg_user() evaluates its pointer argument once. */
static void uk_test_cmpxchg_pointer_once(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	u32 __user *base = ctx->bufs.upage;
	u32 old = 0;
	int i = 0;

	if (!user_access_begin(base, 2 * sizeof(u32)))
		goto fail;
	unsafe_try_cmpxchg_user(base + i++, &old, 1, efault);
	user_access_end();
	KUNIT_EXPECT_EQ(test, i, 1);
	return;
efault:
	user_access_end();
fail:
	KUNIT_FAIL(test, "the user page faulted");
}

/* The first two lines of a report, for each kind of hit. */
static const struct {
	struct uk_event ev;
	const char *title;	/* up to the call site */
	const char *access;
} uk_report_lines[] = {
	{
		{ .kind = UKADDR_KIND_PRECHECK, .helper = UKADDR_HELPER_UNSAFE_PUT_USER,
		  .dir = UKADDR_DIR_TO_USER, .addr = 0xffff888000825000UL, .size = 4,
		  .addr_class = UKADDR_CLASS_KERNEL_MAPPED },
		"uaccess-kaddr: unsafe_put_user to kernel address in ",
		"Write of 4 bytes to mapped kernel address 0xffff888000825000 (access blocked)",
	},
	{
		{ .kind = UKADDR_KIND_PRECHECK, .helper = UKADDR_HELPER_UNSAFE_PUT_USER,
		  .dir = UKADDR_DIR_TO_USER, .addr = 0xffff888000825000UL, .size = 4,
		  .addr_class = UKADDR_CLASS_KERNEL_MAPPED, .allowed = true },
		"uaccess-kaddr: unsafe_put_user to kernel address in ",
		"Write of 4 bytes to mapped kernel address 0xffff888000825000 (access allowed by uaccess_kaddr_access=allow)",
	},
	{
		{ .kind = UKADDR_KIND_FAULT, .helper = UKADDR_HELPER_COPY_FROM_USER,
		  .dir = UKADDR_DIR_FROM_USER, .addr = 0xffffc90000201000UL,
		  .addr_class = UKADDR_CLASS_KERNEL_UNMAPPED },
		"uaccess-kaddr: __copy_from_user from kernel address in ",
		"Read from unmapped kernel address 0xffffc90000201000 (page fault, access failed)",
	},
	{
		{ .kind = UKADDR_KIND_GP, .helper = UKADDR_HELPER_CMPXCHG_USER,
		  .dir = UKADDR_DIR_BOTH, .addr = 0x8000000000000000UL, .size = 1,
		  .addr_class = UKADDR_CLASS_NONCANONICAL },
		"uaccess-kaddr: cmpxchg_user on kernel address in ",
		"Read-modify-write of 1 byte at non-canonical address 0x8000000000000000 (#GP, access failed)",
	},
	{
		{ .kind = UKADDR_KIND_GP, .helper = UKADDR_HELPER_UNKNOWN,
		  .addr_class = UKADDR_CLASS_NONCANONICAL },
		"uaccess-kaddr: user access on kernel address in ",
		"Access at an undecoded non-canonical address (#GP, access failed)",
	},
	{
		{ .kind = UKADDR_KIND_GP, .helper = UKADDR_HELPER_GET_USER,
		  .dir = UKADDR_DIR_FROM_USER, .addr = 0x0080000000000000UL,
		  .addr_class = UKADDR_CLASS_NONCANONICAL },
		"uaccess-kaddr: __get_user from non-canonical address in ",
		"Read from non-canonical address 0x80000000000000 (#GP, access failed)",
	},
};

static void uk_test_report_lines(struct kunit *test)
{
	char buf[192], site[64];
	unsigned int i;

	snprintf(site, sizeof(site), " in %s+0x", __func__);
	for (i = 0; i < ARRAY_SIZE(uk_report_lines); i++) {
		struct uk_event ev = uk_report_lines[i].ev;

		ev.ip = _THIS_IP_;
		uk_format_title(buf, sizeof(buf), &ev);
		KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, uk_report_lines[i].title),
				      "%s", buf);
		if (IS_ENABLED(CONFIG_KALLSYMS))
			KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, site), "%s", buf);
		uk_format_access(buf, sizeof(buf), &ev);
		KUNIT_EXPECT_STREQ(test, buf, uk_report_lines[i].access);
	}
}

/*
 * A hit on @p, printed and described by the drain work like any report,
 * with the size of the access the helper would have made.
 */
static const struct uk_object *uk_describe_hit(struct kunit *test,
					       const void *p, size_t size)
{
	struct uk_test_ctx *ctx = test->priv;

	WRITE_ONCE(uk_test_quiet, false);
	ctx->nr_seen = 0;
	ctx->nr_reports = 0;
	__uaccess_kaddr_precheck((const void __user *)p, size,
				 UACCESS_KADDR_GET_USER);
	uk_flush_events();
	WRITE_ONCE(uk_test_quiet, true);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 1);
	KUNIT_EXPECT_EQ(test, ctx->nr_reports, 1);
	KUNIT_EXPECT_EQ(test, ctx->report_ev.addr, (unsigned long)p);
	return &ctx->report_obj;
}

static bool uk_kasan_generic(void)
{
	return IS_ENABLED(CONFIG_KASAN_GENERIC) && kasan_enabled();
}

/* A live kmalloc object: its cache, start and offset; all accessible. */
static void uk_test_object_kmalloc(struct kunit *test)
{
	char *p = kunit_kmalloc(test, 64, GFP_KERNEL);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, p);
	obj = uk_describe_hit(test, p + 8, 8);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_SLAB);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
	KUNIT_EXPECT_GE(test, obj->size, 64);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(obj->cache, "kmalloc-"),
			      "cache %s", obj->cache);
	KUNIT_EXPECT_NULL(test, obj->kasan_bug);
}

KUNIT_DEFINE_ACTION_WRAPPER(uk_kfree_action, kfree, const void *);

/*
 * A kmalloc() object of the slab allocator's own: not one that KFENCE took
 * (it takes one allocation per sample interval), whose page KFENCE would
 * protect once freed and whose bytes KASAN does not watch.
 */
static void *uk_kmalloc_slab(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);
	unsigned int i;

	for (i = 0; i < 8 && is_kfence_address(p); i++) {
		void *next = kmalloc(size, GFP_KERNEL);

		kfree(p);
		p = next;
	}
	return is_kfence_address(p) ? NULL : p;
}

/* A freed object: still a slab object; KASAN knows it was freed. */
static void uk_test_object_freed(struct kunit *test)
{
	char *p = uk_kmalloc_slab(64);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	/* The access is refused: the freed memory is never touched. */
	obj = uk_describe_hit(test, p, 8);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_SLAB);
	if (uk_kasan_generic()) {
		KUNIT_ASSERT_NOT_NULL(test, obj->kasan_bug);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(obj->kasan_bug, "use-after-free"),
					  "KASAN says %s", obj->kasan_bug);
	}
}

/* Past the 13 bytes asked for: a redzone to KASAN. */
static void uk_test_object_redzone(struct kunit *test)
{
	char *p = uk_kmalloc_slab(13);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, uk_kfree_action, p), 0);
	obj = uk_describe_hit(test, p + 13, 1);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_SLAB);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
	if (uk_kasan_generic()) {
		KUNIT_ASSERT_NOT_NULL(test, obj->kasan_bug);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(obj->kasan_bug, "out-of-bounds"),
					  "KASAN says %s", obj->kasan_bug);
	}
	/* The 13 bytes themselves are fine, to the byte. */
	obj = uk_describe_hit(test, p + 12, 1);
	KUNIT_EXPECT_NULL(test, obj->kasan_bug);
}

/*
 * A hit at @offset into @p, then @p freed with @free while no report is
 * printed: the report comes after the free.
 */
static const struct uk_object *uk_describe_hit_then_free(struct kunit *test,
							 char *p,
							 size_t offset,
							 size_t size,
							 void (*free)(const void *))
{
	struct uk_test_ctx *ctx = test->priv;

	uk_flush_events();
	WRITE_ONCE(uk_test_quiet, false);
	ctx->nr_seen = 0;
	ctx->nr_reports = 0;
	uk_test_hold_reports(true);
	__uaccess_kaddr_precheck((const void __user *)(p + offset), size,
				 UACCESS_KADDR_GET_USER);
	free(p);
	/* A vfree()'d area and its KASAN shadow are gone after this. */
	vm_unmap_aliases();
	uk_test_hold_reports(false);
	uk_flush_events();
	WRITE_ONCE(uk_test_quiet, true);
	KUNIT_EXPECT_EQ(test, ctx->nr_reports, 1);
	KUNIT_EXPECT_EQ(test, ctx->report_ev.addr, (unsigned long)(p + offset));
	return &ctx->report_obj;
}

/*
 * The report describes the memory as it was at the hit, not as the drain
 * work finds it: an object freed after the hit was live when it was hit,
 * and a large kmalloc() block keeps its bounds once its pages are freed.
 */
static void uk_test_object_freed_after_hit(struct kunit *test)
{
	char *p = kmalloc(64, GFP_KERNEL);
	char *big = kmalloc(4 * PAGE_SIZE, GFP_KERNEL);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, big);
	obj = uk_describe_hit_then_free(test, p, 0, 8, kfree);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_SLAB);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(obj->cache, "kmalloc-"),
			      "cache %s", obj->cache);
	KUNIT_EXPECT_NULL_MSG(test, obj->kasan_bug, "KASAN says %s at the hit",
			      obj->kasan_bug);

	obj = uk_describe_hit_then_free(test, big, PAGE_SIZE, 8, kfree);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_PAGE);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)big);
	KUNIT_EXPECT_EQ(test, obj->size, 4 * PAGE_SIZE);
	KUNIT_EXPECT_NULL_MSG(test, obj->kasan_bug, "KASAN says %s at the hit",
			      obj->kasan_bug);
}

#ifdef CONFIG_KFENCE
/*
 * A freed KFENCE object: its page is protected, the address unmapped, and
 * the report still names the object, as KFENCE would have; KFENCE itself
 * never sees the access, refused before it is made.
 */
static void uk_test_object_kfence_freed(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	const struct uk_object *obj;
	char *p;

	p = uk_kfence_object(test, 32);
	kfree(p);
	obj = uk_describe_hit(test, p + 8, 8);
	KUNIT_EXPECT_EQ(test, ctx->report_ev.addr_class,
			UKADDR_CLASS_KERNEL_UNMAPPED);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_SLAB);
	KUNIT_EXPECT_TRUE(test, obj->kfence);
	KUNIT_EXPECT_TRUE(test, obj->store_user);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
	KUNIT_EXPECT_EQ(test, obj->size, 32);
	KUNIT_EXPECT_STREQ(test, obj->cache, "kmalloc-32");
}

/*
 * Past the end of a KFENCE object that ends at its guard page, and before
 * the start of the next object: the guard page is described by the nearer
 * object.
 */
static void uk_test_object_kfence_guard(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	const struct uk_object *obj;
	unsigned long next;
	char *p;

	p = uk_kfence_object(test, 32);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, uk_kfree_action, p), 0);

	obj = uk_describe_hit(test, p + 32 + 16, 8);
	KUNIT_EXPECT_EQ(test, ctx->report_ev.addr_class,
			UKADDR_CLASS_KERNEL_UNMAPPED);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_KFENCE_GUARD);
	KUNIT_EXPECT_TRUE(test, obj->kfence);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
	KUNIT_EXPECT_EQ(test, obj->size, 32);
	KUNIT_EXPECT_STREQ(test, obj->cache, "kmalloc-32");

	/*
	 * The last byte of the guard page is nearer the next object (none
	 * after the pool's last): in use, or never used and not described.
	 */
	next = (unsigned long)p + 32 + PAGE_SIZE;
	obj = uk_describe_hit(test, (void *)(next - 1), 1);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_KFENCE_GUARD);
	if (is_kfence_address((void *)next))
		KUNIT_EXPECT_TRUE_MSG(test, !obj->start || obj->start >= next,
				      "described by the object at 0x%lx",
				      obj->start);
	else
		KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)p);
}
#else
static void uk_test_object_kfence_freed(struct kunit *test)
{
	kunit_skip(test, "no KFENCE");
}

static void uk_test_object_kfence_guard(struct kunit *test)
{
	kunit_skip(test, "no KFENCE");
}
#endif

/* The stack of the task that made the access. */
static void uk_test_object_stack(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	char local[16];
	char *p = local;
	const struct uk_object *obj;

	OPTIMIZER_HIDE_VAR(p);
	obj = uk_describe_hit(test, p, sizeof(local));
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_TASK_STACK);
	KUNIT_EXPECT_TRUE(test, ctx->report_ev.on_stack);
}

static u64 uk_test_global;

/* A variable of the kernel image (or of this module). */
static void uk_test_object_global(struct kunit *test)
{
	const struct uk_object *obj;

	obj = uk_describe_hit(test, &uk_test_global, sizeof(uk_test_global));
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_IMAGE);
}

/* A vmalloc area: its bounds and who allocated it. */
static void uk_test_object_vmalloc(struct kunit *test)
{
	char *v = vmalloc(2 * PAGE_SIZE);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, v);
	obj = uk_describe_hit(test, v + PAGE_SIZE + 16, 8);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_VMALLOC);
	KUNIT_EXPECT_EQ(test, obj->start, (unsigned long)v);
	KUNIT_EXPECT_EQ(test, obj->size, 2 * PAGE_SIZE);
	KUNIT_EXPECT_LT_MSG(test, (unsigned long)obj->caller -
			    (unsigned long)uk_test_object_vmalloc, 512,
			    "allocated at %pS", obj->caller);
	vfree(v);
}

/*
 * A vmalloc area freed and purged between the hit and its report: KASAN's
 * shadow of it is unmapped with it (KASAN_VMALLOC), and the report must
 * not read it.  The area is large enough for whole pages of its shadow to
 * be freed.
 */
static void uk_test_object_vfreed_after_hit(struct kunit *test)
{
	char *v = vmalloc(64 * PAGE_SIZE);
	const struct uk_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, v);
	obj = uk_describe_hit_then_free(test, v, 32 * PAGE_SIZE, 8, vfree);
	KUNIT_EXPECT_EQ(test, obj->region, UK_REGION_VMALLOC);
	KUNIT_EXPECT_NULL_MSG(test, obj->kasan_bug, "KASAN says %s at the hit",
			      obj->kasan_bug);
	/* Looked up when printed: gone. */
	KUNIT_EXPECT_EQ(test, obj->size, 0);
}

/*
 * A hit without a call site (ip 0, the mark of a free slot in the site
 * table) is counted as overflow and takes no slot: claiming one with ip 0
 * left it free, to be claimed and counted again.
 */
static void uk_test_hit_without_site(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct pt_regs regs = {};
	struct uk_status a, b;
	int i;

	uk_get_status(&a);
	/* Only counted: the fixup keeps its own warning. */
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_FALSE(test,
				   uaccess_kaddr_fault(&regs, 0xdead000000000100UL, 0,
						       UKADDR_KIND_GP,
						       UACCESS_KADDR_HOW(UKADDR_HELPER_UNKNOWN, 0),
						       UKADDR_CLASS_NONCANONICAL));
	uk_flush_events();
	uk_get_status(&b);
	KUNIT_EXPECT_EQ(test, b.hits_gp, a.hits_gp + 2);
	KUNIT_EXPECT_EQ(test, b.sites_used, a.sites_used);
	KUNIT_EXPECT_EQ(test, b.sites_overflow, a.sites_overflow + 2);
	KUNIT_EXPECT_EQ(test, ctx->nr_seen, 0);
}

/* Nothing is left counted as "inside the reporter" on any CPU. */
static void uk_test_nesting_balanced(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uk_nesting_total(), 0);
}

/*
 * A report during another KUnit test fails that test, from the hit path
 * with interrupts off: nothing there may sleep (DEBUG_ATOMIC_SLEEP would
 * print "sleeping function called from invalid context").  The test that
 * fails is a fake one, installed as the current test for one hit.
 */
static void uk_test_fails_other_kunit_test(struct kunit *test)
{
	struct uk_test_ctx *ctx = test->priv;
	struct kunit fake;

	kunit_init_test(&fake, "uk_fake", NULL);
	WRITE_ONCE(uk_test_observer, NULL);
	current->kunit_test = &fake;
	uk_trigger_copy_from_user((void __user *)ctx->bufs.kbuf,
				  ctx->bufs.upage);
	current->kunit_test = test;
	WRITE_ONCE(uk_test_observer, uk_observe);
	uk_flush_events();
	KUNIT_EXPECT_EQ(test, READ_ONCE(fake.status), KUNIT_FAILURE);
}

static struct kunit_case uk_test_cases[] = {
	KUNIT_CASE_PARAM(uk_test_matrix, uk_matrix_gen),
	KUNIT_CASE(uk_test_modes),
	KUNIT_CASE(uk_test_ratelimit),
	KUNIT_CASE(uk_test_hardirq),
	KUNIT_CASE(uk_test_nmi),
	KUNIT_CASE(uk_test_sequence),
	KUNIT_CASE(uk_test_same_address_two_sites),
	KUNIT_CASE(uk_test_refused_writes),
	KUNIT_CASE(uk_test_allow_one_report),
	KUNIT_CASE(uk_test_allow_stale_range),
	KUNIT_CASE(uk_test_zero_size),
	KUNIT_CASE(uk_test_copy_kernel_operand),
	KUNIT_CASE(uk_test_kernel_to_kernel_copies),
	KUNIT_CASE(uk_test_copy_kfence_operand),
	KUNIT_CASE(uk_test_gp_undecoded),
	KUNIT_CASE(uk_test_gp_segment),
	KUNIT_CASE(uk_test_copy_gp_kernel_operand),
	KUNIT_CASE(uk_test_copy_kernel_operand_tagged),
	KUNIT_CASE(uk_test_masked_pointer_offset),
	KUNIT_CASE(uk_test_report_operands),
	KUNIT_CASE(uk_test_string_insn),
	KUNIT_CASE(uk_test_cmpxchg_pointer_once),
	KUNIT_CASE(uk_test_matrix_each_cpu),
	KUNIT_CASE(uk_test_report_lines),
	KUNIT_CASE(uk_test_object_kmalloc),
	KUNIT_CASE(uk_test_object_freed),
	KUNIT_CASE(uk_test_object_redzone),
	KUNIT_CASE(uk_test_object_freed_after_hit),
	KUNIT_CASE(uk_test_object_kfence_freed),
	KUNIT_CASE(uk_test_object_kfence_guard),
	KUNIT_CASE(uk_test_object_stack),
	KUNIT_CASE(uk_test_object_global),
	KUNIT_CASE(uk_test_object_vmalloc),
	KUNIT_CASE(uk_test_object_vfreed_after_hit),
	KUNIT_CASE(uk_test_fails_other_kunit_test),
	KUNIT_CASE(uk_test_hit_without_site),
	KUNIT_CASE(uk_test_nesting_balanced),
	{}
};

static struct kunit_suite uk_test_suite = {
	.name = "uaccess_kaddr",
	.init = uk_test_init,
	.exit = uk_test_exit,
	.test_cases = uk_test_cases,
};

kunit_test_suite(uk_test_suite);

MODULE_DESCRIPTION("KUnit tests for the uaccess_kaddr detector");
MODULE_LICENSE("GPL");
