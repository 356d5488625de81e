// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_kaddr core: mode and static key, the site table, counters and the
 * per-CPU event queue.
 *
 * The hit path (uk_hit()) runs wherever a user access can run: task,
 * softirq, hardirq and NMI context (perf reads user stacks from NMIs), with
 * or without AC set, preemptible or not, possibly on behalf of a bug in
 * code holding any lock.  It therefore never sleeps, never allocates, takes
 * no lock that an NMI could interrupt, touches per-CPU data only with
 * preemption disabled, and refuses to nest more than UK_MAX_NESTING deep on
 * one CPU.  Detailed events, with what their address reaches (object.c),
 * are copied into preallocated per-CPU buffers; an NMI's event is
 * classified and described by the irq_work that follows it; all are
 * printed (report.c) and sent to the telemetry layer from process context
 * by uk_drain_work.
 */

#define pr_fmt(fmt) "uaccess_kaddr: " fmt

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <asm/syscall.h>

#include "uaccess_kaddr.h"

static unsigned int uk_mode = UKADDR_MODE_REPORT;

const char * const uk_mode_names[UKADDR_MODE_WARN + 1] = {
	[UKADDR_MODE_OFF] = "off",
	[UKADDR_MODE_COUNT] = "count",
	[UKADDR_MODE_REPORT] = "report",
	[UKADDR_MODE_WARN] = "warn",
};

static unsigned int uk_rl_interval_ms = 5000;
/* The same in jiffies, for the hit path: set with uk_rl_interval_ms. */
static unsigned long uk_rl_interval;
static unsigned int uk_rl_burst = 1;
static DEFINE_MUTEX(uk_config_lock);

/*
 * Modules inline the pre-access check too: plain exports, as KASAN's and
 * KCOV's hooks, since a module of any licence uses __get_user().
 */
DEFINE_STATIC_KEY_FALSE(uaccess_kaddr_enabled);
EXPORT_SYMBOL(uaccess_kaddr_enabled);

/*
 * uaccess_kaddr_access=allow: a pre-access hit is reported and the access
 * then goes ahead, as it would without the detector.  The default is
 * CONFIG_DEBUG_UACCESS_KADDR_REFUSE's.  Set at boot; a kernel with the
 * KUnit suite lets the suite change it, as it tests both policies.
 */
#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
bool uaccess_kaddr_allow_access __read_mostly =
#else
bool uaccess_kaddr_allow_access __ro_after_init =
#endif
	!IS_ENABLED(CONFIG_DEBUG_UACCESS_KADDR_REFUSE);
EXPORT_SYMBOL(uaccess_kaddr_allow_access);

/* Nesting of uaccess_kaddr_any_begin() on this CPU. */
static DEFINE_PER_CPU(int, uaccess_kaddr_any);

/**
 * uaccess_kaddr_any_begin - faults until the matching end are by design
 *
 * Around an access that may legitimately use a kernel or a user address
 * (SEV-ES #VC emulation through __get_user_any()): its faults are not
 * reported.  Only for code that cannot be preempted or migrated in between.
 */
void uaccess_kaddr_any_begin(void)
{
	this_cpu_inc(uaccess_kaddr_any);
}

/**
 * uaccess_kaddr_any_end - end of uaccess_kaddr_any_begin()
 */
void uaccess_kaddr_any_end(void)
{
	this_cpu_dec(uaccess_kaddr_any);
}

/*
 * The site table and the event buffers are allocated when the detector is
 * first switched on (uk_alloc_buffers()), at boot or later: a kernel
 * booted with uaccess_kaddr=off spends no memory on them.  Never freed.
 */
static struct uk_site *uk_sites;
static struct uk_event *uk_batch;
static size_t uk_buffer_bytes;

static atomic64_t uk_hits[UKADDR_KIND_PRECHECK + 1];
static atomic64_t uk_rejected;
static atomic64_t uk_reported;
static atomic64_t uk_suppressed;
static atomic64_t uk_dropped;
/* An event of mode warn was dropped: its WARN is owed by the drain work. */
static bool uk_warn_lost;
static atomic64_t uk_sites_overflow;
static atomic64_t uk_seq;
static atomic_t uk_sites_used;

#define UK_MAX_PROBES		64
#define UK_MAX_NESTING		4	/* task, softirq, hardirq, NMI */
#define UK_NMI_SLOTS		4
#define UK_BATCH_LEN		(UK_QUEUE_LEN * 4)

/*
 * An address class that only the page tables can tell (a kernel address,
 * mapped or not): not looked up in NMI context, but by uk_irq_work().
 */
#define UK_CLASS_LATER		0xff

/*
 * Per-CPU event queues.  Outside NMI context the active buffer is filled
 * under @lock with interrupts off; the drain work swaps it for the spare one.
 * An NMI cannot take @lock (it may have interrupted its holder), so it
 * claims one of @nmi_slot through @nmi_used and leaves it to the irq_work,
 * which runs on this CPU right after the NMI, to classify, print and move
 * into @active.  @nesting is only touched with preemption disabled.
 */
struct uk_cpu_queue {
	raw_spinlock_t lock;
	unsigned int len;
	struct uk_event *active;
	struct uk_event *bufs[2];	/* UK_QUEUE_LEN events each */
	unsigned long nmi_used;
	unsigned long nmi_ready;
	struct uk_event *nmi_slot;	/* UK_NMI_SLOTS events */
	struct uk_event *scratch;	/* where uk_record() makes an event */
	struct irq_work irq_work;
	int nesting;
	/* The last pre-access hit let through: see uk_allowed_fault(). */
	unsigned long allowed_start;
	unsigned long allowed_end;
	unsigned long allowed_ip;
};

static DEFINE_PER_CPU(struct uk_cpu_queue, uk_queue);

#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
void (*uk_test_observer)(const struct uk_event *ev);
bool uk_test_quiet;
#endif

static void uk_drain(struct work_struct *work);
static DECLARE_WORK(uk_drain_work, uk_drain);

static int __init uk_parse_mode(char *str)
{
	unsigned int i;

	for (i = UKADDR_MODE_OFF; i < ARRAY_SIZE(uk_mode_names); i++) {
		if (str && !strcmp(str, uk_mode_names[i])) {
			uk_mode = i;
			return 0;
		}
	}
	pr_err("unknown mode '%s', keeping '%s'\n", str ?: "",
	       uk_mode_names[uk_mode]);
	return 0;
}
early_param("uaccess_kaddr", uk_parse_mode);

/*
 * /sys/module/uaccess_kaddr/parameters/mode, read-only: the current mode,
 * and by its presence the sign for user space (uaccessd's unit) that the
 * kernel has the detector, netlink family or not.  The mode is chosen with
 * uaccess_kaddr= at boot and changed with set-config, when the netlink
 * layer is built.
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "uaccess_kaddr."

static int uk_param_mode_set(const char *val, const struct kernel_param *kp)
{
	pr_err("uaccess_kaddr.mode is read-only: boot with uaccess_kaddr=%s\n", val);
	return -EPERM;
}

static int uk_param_mode_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", uk_mode_names[READ_ONCE(uk_mode)]);
}

static const struct kernel_param_ops uk_param_mode_ops = {
	.set = uk_param_mode_set,
	.get = uk_param_mode_get,
};
module_param_cb(mode, &uk_param_mode_ops, NULL, 0444);

static int __init uk_parse_access(char *str)
{
	if (str && !strcmp(str, "allow"))
		uaccess_kaddr_allow_access = true;
	else if (str && !strcmp(str, "fail"))
		uaccess_kaddr_allow_access = false;
	else
		pr_err("unknown uaccess_kaddr_access '%s', keeping '%s'\n",
		       str ?: "", uaccess_kaddr_allow_access ? "allow" : "fail");
	return 0;
}
early_param("uaccess_kaddr_access", uk_parse_access);

static unsigned int uk_context(void)
{
	if (in_nmi())
		return UKADDR_CTX_NMI;
	if (in_hardirq())
		return UKADDR_CTX_HARDIRQ;
	if (in_serving_softirq())
		return UKADDR_CTX_SOFTIRQ;
	return UKADDR_CTX_TASK;
}

/*
 * The slot a site's probes start at.  Call sites are structured keys (a
 * module's differ in their low bits only); hash_long() alone clusters
 * them, so the key goes through MurmurHash3's 64-bit finalizer first.
 */
static __always_inline unsigned int uk_site_slot(u64 key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ULL;
	key ^= key >> 33;
	return key >> (64 - UK_SITES_SHIFT);
}

static struct uk_site *uk_site_get(unsigned long ip, unsigned int kind,
				   unsigned int helper, unsigned int dir)
{
	/* Pairs with smp_store_release() in uk_alloc_buffers(). */
	struct uk_site *sites = smp_load_acquire(&uk_sites);
	u32 key = kind | helper << 8 | dir << 16;
	unsigned int i, n = uk_site_slot(ip ^ key);

	/* A free slot has ip 0: a hit without a call site has no slot. */
	if (!sites || !ip)
		return NULL;
	for (i = 0; i < UK_MAX_PROBES; i++, n = (n + 1) & (UK_SITES - 1)) {
		struct uk_site *s = &sites[n];
		unsigned long cur = READ_ONCE(s->ip);
		int spin;

		if (!cur) {
			cur = cmpxchg(&s->ip, 0UL, ip);
			if (!cur) {
				s->kind = kind;
				s->helper = helper;
				s->dir = dir;
				s->first_ts = ktime_get_boot_fast_ns();
				atomic_inc(&uk_sites_used);
				atomic_set_release(&s->ready, 1);
				return s;
			}
		}
		if (cur != ip)
			continue;
		/*
		 * Another CPU is filling in a slot for this ip; wait a bounded
		 * time (it may be the context this NMI interrupted).
		 */
		for (spin = 0; !atomic_read_acquire(&s->ready) && spin < 1000; spin++)
			cpu_relax();
		if (atomic_read_acquire(&s->ready) && s->kind == kind &&
		    s->helper == helper && s->dir == dir)
			return s;
	}
	return NULL;
}

/*
 * At most uk_rl_burst events per site in each window of uk_rl_interval.
 * Opening a window and counting its first event are one cmpxchg of the
 * site's word, so no CPU's event can be counted into a window that another
 * CPU then resets.  A window start 2^31 jiffies old reads as a current
 * one: a site idle that long may stay quiet one interval more, its hits
 * still counted and carried as suppressed.
 */
static bool uk_ratelimit_pass(struct uk_site *s)
{
	u32 now = (u32)jiffies ?: 1;
	u32 interval = READ_ONCE(uk_rl_interval);
	u32 burst = READ_ONCE(uk_rl_burst);
	s64 old = atomic64_read(&s->rl), new;

	do {
		u32 begin = (u64)old >> 32, events = (u32)old;

		if (!begin || (s32)(now - begin - interval) >= 0)
			new = (s64)((u64)now << 32 | 1);
		else if (events < burst)
			new = old + 1;
		else
			return false;
	} while (!atomic64_try_cmpxchg(&s->rl, &old, new));
	return (u32)new <= burst;
}

static unsigned int uk_fill_stack(struct uk_event *ev, struct pt_regs *regs)
{
	unsigned long frames[UK_STACK_DEPTH + 8];
	unsigned int n, i;

	if (regs)
		n = stack_trace_save_regs(regs, frames, ARRAY_SIZE(frames), 0);
	else
		n = stack_trace_save(frames, ARRAY_SIZE(frames), 0);
	/* Start the trace at the call site: drop our own frames. */
	for (i = 0; i < n; i++) {
		if (frames[i] == ev->ip)
			break;
	}
	if (i == n)
		i = 0;
	ev->nr_frames = min_t(unsigned int, n - i, UK_STACK_DEPTH);
	memcpy(ev->frames, frames + i, ev->nr_frames * sizeof(frames[0]));
	if (!ev->nr_frames)
		return 0;
	return jhash(ev->frames, ev->nr_frames * sizeof(frames[0]), 0);
}

static void uk_fill_event(struct uk_event *ev, struct uk_site *s,
			  unsigned int kind, unsigned int helper,
			  unsigned int dir, unsigned long addr,
			  unsigned long size, unsigned long ip,
			  unsigned int addr_class, struct pt_regs *regs,
			  bool warn)
{
	struct task_struct *t = current;
	struct pt_regs *uregs;

	/* Whatever the buffer held before: no field is left as it was. */
	memset(ev, 0, sizeof(*ev));
	ev->seq = atomic64_inc_return(&uk_seq);
	ev->ts_boot = ktime_get_boot_fast_ns();
	ev->ts_real = ktime_get_real_fast_ns();
	ev->kind = kind;
	ev->helper = helper;
	ev->dir = dir;
	ev->addr = addr;
	ev->size = size;
	ev->ip = ip;
	ev->addr_class = addr_class;
	ev->context = uk_context();
	ev->warn = warn;
	ev->allowed = kind == UKADDR_KIND_PRECHECK && uaccess_kaddr_allow_access;
	ev->on_stack = object_is_on_stack((void *)addr);
#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
	ev->quiet = READ_ONCE(uk_test_quiet);
#endif
	ev->site_id = s - uk_sites;
	ev->count = atomic64_read(&s->count);
	ev->suppressed = atomic64_xchg(&s->pending, 0);
	ev->pid = task_pid_nr(t);
	ev->tgid = task_tgid_nr(t);
	ev->uid = from_kuid_munged(&init_user_ns, task_uid(t));
	ev->cpu = raw_smp_processor_id();
	/*
	 * Only a user task in a system call has one: the saved registers of
	 * a kthread that borrows an mm, or of an io_uring worker, are stale.
	 */
	ev->syscall_nr = -1;
	if (ev->context == UKADDR_CTX_TASK && t->mm &&
	    !(t->flags & (PF_KTHREAD | PF_IO_WORKER))) {
		uregs = task_pt_regs(t);
		ev->syscall_nr = syscall_get_nr(t, uregs);
		if (ev->syscall_nr >= 0) {
			ev->syscall_arch = syscall_get_arch(t);
			syscall_get_arguments(t, uregs, ev->syscall_args);
		}
	}
	strscpy(ev->comm, t->comm, sizeof(ev->comm));
	ev->stack_hash = uk_fill_stack(ev, regs);
	WRITE_ONCE(s->stack_hash, ev->stack_hash);
	/* An NMI's event is described by uk_irq_work(), once classified. */
	if (!in_nmi())
		uk_snapshot_object(ev);
}

/* Queue @ev on this CPU; false if the buffer is full. Interrupts are off. */
static bool uk_queue_event(struct uk_cpu_queue *q, const struct uk_event *ev)
{
	bool ok = false;

	raw_spin_lock(&q->lock);
	if (q->len < UK_QUEUE_LEN) {
		q->active[q->len++] = *ev;
		ok = true;
	}
	raw_spin_unlock(&q->lock);
	return ok;
}

/*
 * An event counted as reported that will not be sent after all: it is
 * dropped instead, so that each event is counted once, and its sequence
 * number is the gap that listeners see.
 */
void uk_event_unsent(void)
{
	atomic64_inc(&uk_dropped);
	atomic64_dec_if_positive(&uk_reported);
}

static unsigned int uk_classify(unsigned long addr, unsigned long size);
static void uk_notify_kunit(const struct uk_event *ev);

/*
 * Runs on the CPU that recorded the events, in hard interrupt context: an
 * NMI's events are classified (a page table walk) here, not in the NMI,
 * which may have interrupted a page table update.
 */
static void uk_irq_work(struct irq_work *work)
{
	struct uk_cpu_queue *q = container_of(work, struct uk_cpu_queue, irq_work);
	unsigned long ready = READ_ONCE(q->nmi_ready);
	unsigned int i;

	for_each_set_bit(i, &ready, UK_NMI_SLOTS) {
		struct uk_event *ev = &q->nmi_slot[i];

		if (!ev->addr_class || ev->addr_class == UK_CLASS_LATER)
			ev->addr_class = uk_classify(ev->addr, ev->size);
		uk_snapshot_object(ev);
		uk_notify_kunit(ev);
		if (!uk_queue_event(q, ev)) {
			uk_event_unsent();
			if (ev->warn)
				WRITE_ONCE(uk_warn_lost, true);
		}
		clear_bit(i, &q->nmi_ready);
		clear_bit_unlock(i, &q->nmi_used);
	}
	queue_work(system_unbound_wq, &uk_drain_work);
}

/*
 * A report while a KUnit test runs fails that test, unless it is one of
 * ours that expects reports and observes them.  Interrupts are off here and
 * kunit_fail_current_test() allocates with GFP_KERNEL: the test is only
 * marked failed, as KASAN does, and the report says why.
 */
static void uk_notify_kunit(const struct uk_event *ev)
{
	struct kunit *test = kunit_get_current_test();

#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
	void (*observe)(const struct uk_event *ev) = READ_ONCE(uk_test_observer);

	if (observe) {
		observe(ev);
		return;
	}
#endif
	if (in_task() && test)
		kunit_set_failure(test);
}

/* Where an address points, without looking at the page tables. */
static unsigned int uk_classify_range(unsigned long addr, unsigned long size)
{
	unsigned long last = addr + (size ? size - 1 : 0);

	if (last < addr)
		last = ULONG_MAX;
	if (addr < TASK_SIZE_MAX && last < TASK_SIZE_MAX)
		return UKADDR_CLASS_USER;
	if (addr < TASK_SIZE_MAX)
		addr = TASK_SIZE_MAX;	/* a range that runs off user space */
	if (addr < TASK_SIZE_MAX + PAGE_SIZE)
		return UKADDR_CLASS_GUARD_PAGE;
	if (addr >= -PAGE_SIZE)
		return UKADDR_CLASS_ALL_ONES;
	if (!__is_canonical_address(addr, __VIRTUAL_MASK_SHIFT + 1))
		return UKADDR_CLASS_NONCANONICAL;
#ifdef CONFIG_X86_VSYSCALL_EMULATION
	if ((addr & PAGE_MASK) == VSYSCALL_ADDR)
		return UKADDR_CLASS_VSYSCALL;
#endif
	return UK_CLASS_LATER;
}

/*
 * Where an address points; any context but NMI, no locks.  The page table
 * walk runs with interrupts off: a CPA collapse frees the table pages only
 * after a TLB flush IPI, which this CPU then holds off.
 */
static unsigned int uk_classify(unsigned long addr, unsigned long size)
{
	unsigned int class = uk_classify_range(addr, size);
	unsigned long flags;
	unsigned int level;
	bool present;
	pte_t *pte;

	if (class != UK_CLASS_LATER)
		return class;
	local_irq_save(flags);
	pte = lookup_address(addr, &level);
	/*
	 * The hardware's present bit: pte_present() also takes a PROTNONE
	 * entry (the global bit without present) for present, and KFENCE
	 * protects its pages by clearing the present bit alone.
	 */
	present = pte && (pte_flags(*pte) & _PAGE_PRESENT);
	local_irq_restore(flags);
	return present ? UKADDR_CLASS_KERNEL_MAPPED :
			 UKADDR_CLASS_KERNEL_UNMAPPED;
}

/*
 * No room for an event: the sequence number it would have had is the gap
 * that listeners see.  In mode warn the drain work still owes the WARN.
 */
static void uk_drop(struct uk_cpu_queue *q, bool warn)
{
	atomic64_inc(&uk_dropped);
	atomic64_inc(&uk_seq);
	if (warn) {
		WRITE_ONCE(uk_warn_lost, true);
		irq_work_queue(&q->irq_work);
	}
}

static void uk_record(struct uk_site *s, unsigned int kind,
		      unsigned int helper, unsigned int dir,
		      unsigned long addr, unsigned long size, unsigned long ip,
		      unsigned int addr_class, struct pt_regs *regs, bool warn)
{
	struct uk_cpu_queue *q = this_cpu_ptr(&uk_queue);
	struct uk_event *ev;
	unsigned long flags;
	unsigned int slot;
	bool queued;

	if (in_nmi()) {
		for (slot = 0; slot < UK_NMI_SLOTS; slot++) {
			if (!test_and_set_bit_lock(slot, &q->nmi_used))
				break;
		}
		if (slot == UK_NMI_SLOTS) {
			uk_drop(q, warn);
			return;
		}
		ev = &q->nmi_slot[slot];
		/* Classified by uk_irq_work(). */
		uk_fill_event(ev, s, kind, helper, dir, addr, size, ip,
			      addr_class, regs, warn);
		set_bit(slot, &q->nmi_ready);
		atomic64_inc(&uk_reported);
		atomic64_inc(&s->reported);
		irq_work_queue(&q->irq_work);
		return;
	}

	/*
	 * With interrupts off, only an NMI can come in, and it has slots of its
	 * own: the event is made in this CPU's scratch event, outside the
	 * lock, which is held for the copy alone.  Only this CPU adds to its
	 * queue, so a full one stays full until the lock is taken.
	 */
	local_irq_save(flags);
	if (READ_ONCE(q->len) >= UK_QUEUE_LEN) {
		uk_drop(q, warn);
		goto out;
	}
	if (!addr_class || addr_class == UK_CLASS_LATER)
		addr_class = uk_classify(addr, size);
	ev = q->scratch;
	uk_fill_event(ev, s, kind, helper, dir, addr, size, ip, addr_class,
		      regs, warn);
	queued = uk_queue_event(q, ev);
	if (queued) {
		atomic64_inc(&uk_reported);
		atomic64_inc(&s->reported);
		uk_notify_kunit(ev);
		irq_work_queue(&q->irq_work);
	} else {
		/* Not reached (see above); its sequence number is the gap. */
		atomic64_inc(&uk_dropped);
		if (warn)
			WRITE_ONCE(uk_warn_lost, true);
	}
out:
	local_irq_restore(flags);
}

/*
 * A hit: count it at its site and, past the ratelimit, record an event.
 * @addr_class is 0 when not worked out yet: only an event needs it, so a
 * hit that is only counted or suppressed skips the page table walk.
 *
 * Entered from preemptible code (the pre-access check, the #GP fixup after
 * cond_local_irq_enable()): preemption stays off until the per-CPU nesting
 * count is back where it was, so that a migration can neither split an
 * increment from its decrement nor fill another CPU's queue.
 *
 * Returns whether the hit has a report: recorded, or held back by its
 * site's ratelimit (modes report and warn), not only counted.
 */
static bool uk_hit(unsigned int kind, unsigned int how, unsigned long addr,
		   unsigned long size, unsigned long ip,
		   unsigned int addr_class, struct pt_regs *regs)
{
	unsigned int helper = UACCESS_KADDR_HOW_HELPER(how);
	unsigned int dir = UACCESS_KADDR_HOW_DIR(how);
	unsigned int mode = READ_ONCE(uk_mode);
	bool reported = false;
	unsigned long now;
	struct uk_site *s;

	/* No access would follow. */
	if (mode == UKADDR_MODE_OFF || (kind == UKADDR_KIND_PRECHECK && !size))
		return false;
	preempt_disable_notrace();
	/* An access let through may fault: see uk_allowed_fault(). */
	if (kind == UKADDR_KIND_PRECHECK &&
	    READ_ONCE(uaccess_kaddr_allow_access)) {
		this_cpu_write(uk_queue.allowed_start, addr);
		this_cpu_write(uk_queue.allowed_end,
			       addr + size < addr ? ULONG_MAX : addr + size);
		this_cpu_write(uk_queue.allowed_ip, ip);
	}
	atomic64_inc(&uk_hits[kind]);
	/* Deeper than task, softirq, hardirq, NMI: counted, not attributed. */
	if (this_cpu_inc_return(uk_queue.nesting) > UK_MAX_NESTING) {
		atomic64_inc(&uk_sites_overflow);
		goto out;
	}
	s = uk_site_get(ip, kind, helper, dir);
	if (!s) {
		atomic64_inc(&uk_sites_overflow);
		goto out;
	}
	atomic64_inc(&s->count);
	now = jiffies;
	if (READ_ONCE(s->last_jiffies) != now) {
		WRITE_ONCE(s->last_jiffies, now);
		WRITE_ONCE(s->last_ts, ktime_get_boot_fast_ns());
	}
	WRITE_ONCE(s->last_addr, addr);
	WRITE_ONCE(s->last_pid, in_task() ? task_pid_nr(current) : 0);
	/* Concurrent hits may mix two comms: it is a hint, not a record. */
	data_race(memcpy(s->last_comm, current->comm, sizeof(s->last_comm)));

	if (mode == UKADDR_MODE_COUNT)
		goto out;
	reported = true;
	if (!uk_ratelimit_pass(s)) {
		atomic64_inc(&s->suppressed);
		atomic64_inc(&s->pending);
		atomic64_inc(&uk_suppressed);
		goto out;
	}
	uk_record(s, kind, helper, dir, addr, size, ip, addr_class, regs,
		  mode == UKADDR_MODE_WARN);
out:
	this_cpu_dec(uk_queue.nesting);
	preempt_enable_notrace();
	return reported;
}

/**
 * __uaccess_kaddr_precheck - an unchecked helper was given a kernel range
 * @ptr: the __user pointer
 * @size: the size of the access
 * @how: UACCESS_KADDR_HOW(helper, direction)
 *
 * Called from uaccess_kaddr_refused() before the access, in any context,
 * with AC clear.  The call site is our return address.
 */
UACCESS_KADDR_REPORTER notrace
void __uaccess_kaddr_precheck(const void __user *ptr, unsigned long size,
			      unsigned int how)
{
	unsigned long addr = (__force unsigned long)ptr;

	uk_hit(UKADDR_KIND_PRECHECK, how, addr, size, _RET_IP_, 0, NULL);
}
EXPORT_SYMBOL(__uaccess_kaddr_precheck);

/**
 * __uaccess_kaddr_precheck_ac - __uaccess_kaddr_precheck() with AC set
 * @ptr: the __user pointer
 * @size: the size of the access
 * @how: UACCESS_KADDR_HOW(helper, direction)
 *
 * Called inside user_access_begin() regions (unsafe_*()); listed in
 * objtool's uaccess_safe_builtin[].  AC is cleared before anything else
 * runs and restored on return.
 */
UACCESS_KADDR_REPORTER notrace
void __uaccess_kaddr_precheck_ac(const void __user *ptr, unsigned long size,
				 unsigned int how)
{
	unsigned long flags = user_access_save();
	unsigned long addr = (__force unsigned long)ptr;

	uk_hit(UKADDR_KIND_PRECHECK, how, addr, size, _RET_IP_, 0, NULL);
	user_access_restore(flags);
}
EXPORT_SYMBOL(__uaccess_kaddr_precheck_ac);

/**
 * uaccess_kaddr_reports - does the detector print what it finds?
 *
 * For the architecture's own warnings of the faults it reports: in modes
 * off and count it prints nothing, and they warn as they would without it.
 */
bool uaccess_kaddr_reports(void)
{
	return READ_ONCE(uk_mode) >= UKADDR_MODE_REPORT;
}

/**
 * uaccess_kaddr_fault_class - is a user-access fault worth reporting?
 * @addr: the address that faulted (decoded from the instruction for a #GP)
 * @known: false for a #GP whose instruction could not be decoded: it was
 *	   still a user access to a non-canonical address
 *
 * The first step of the fault detector, cheap, before the architecture
 * works out the helper and the call site: user addresses (the ordinary
 * -EFAULT) are ignored and the pointers that the checked helpers clamp or
 * mask (guard page, all-ones page) are counted as rejected.  No fault
 * follows a pre-access hit that refused the access.  Returns the address
 * class of a fault to hand to uaccess_kaddr_fault(), else 0.
 */
unsigned int uaccess_kaddr_fault_class(unsigned long addr, bool known)
{
	unsigned int class;

	if (!static_branch_unlikely(&uaccess_kaddr_enabled) ||
	    this_cpu_read(uaccess_kaddr_any))
		return 0;
	if (!known) {
		class = UKADDR_CLASS_NONCANONICAL;
	} else {
		class = in_nmi() ? uk_classify_range(addr, 1) :
				   uk_classify(addr, 1);
		switch (class) {
		case UKADDR_CLASS_USER:
			return 0;
		case UKADDR_CLASS_GUARD_PAGE:
		case UKADDR_CLASS_ALL_ONES:
			atomic64_inc(&uk_rejected);
			return 0;
		}
	}
	return class;
}

/* The function @ip is in, or @ip itself without kallsyms. */
static unsigned long uk_func_of(unsigned long ip)
{
	unsigned long size, offset;

	if (kallsyms_lookup_size_offset(ip, &size, &offset))
		return ip - offset;
	return ip;
}

/*
 * Is this fault that of an access that a pre-access hit let through
 * (uaccess_kaddr_access=allow)?  That hit was the report, and the count,
 * of the bug, under the helper's own name; the fault would be a second one
 * under the fixup's.  It is, when it comes on the CPU of the last such hit,
 * in its range, from the same function.  Best effort: a migration between
 * the two, or an interrupt's own hit in between, gives two reports; a
 * later fault of the same function on the same range, after an access
 * that did not fault, goes unreported, as a repeat of that hit.
 */
static bool uk_allowed_fault(unsigned long addr, unsigned long caller)
{
	struct uk_cpu_queue *q;
	bool match;

	preempt_disable_notrace();
	q = this_cpu_ptr(&uk_queue);
	match = q->allowed_start != q->allowed_end &&
		addr >= q->allowed_start && addr < q->allowed_end;
	if (match && IS_ENABLED(CONFIG_KALLSYMS))
		match = uk_func_of(caller) == uk_func_of(q->allowed_ip);
	if (match)
		q->allowed_end = q->allowed_start;
	preempt_enable_notrace();
	return match;
}

/**
 * uaccess_kaddr_fault - report a user-access fault on a kernel address
 * @regs: the faulting context
 * @addr: the address that faulted
 * @caller: the call site, as the architecture knows it
 * @kind: UKADDR_KIND_FAULT (#PF) or UKADDR_KIND_GP
 * @how: UACCESS_KADDR_HOW(helper, direction), as far as the fixup knows
 * @addr_class: what uaccess_kaddr_fault_class() returned, not 0
 *
 * Called from the exception fixup, in the context of the faulting access.
 *
 * Return: whether the fault has a report (recorded, held back by its
 * site's ratelimit, or that of the pre-access hit that let the access
 * through): the architecture then leaves out its own warning of it.
 */
bool uaccess_kaddr_fault(struct pt_regs *regs, unsigned long addr,
			 unsigned long caller, unsigned int kind,
			 unsigned int how, unsigned int addr_class)
{
	if (addr && uk_allowed_fault(addr, caller))
		return uaccess_kaddr_reports();
	return uk_hit(kind, how, addr, 0, caller, addr_class, regs);
}

/* A checked helper faulted on what it was given: bad input, not a bug. */
void uaccess_kaddr_rejected(void)
{
	atomic64_inc(&uk_rejected);
}

#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
/* For the KUnit suite: hits in progress on all CPUs, 0 when idle. */
int uk_nesting_total(void)
{
	int cpu, sum = 0;

	for_each_possible_cpu(cpu)
		sum += per_cpu(uk_queue.nesting, cpu);
	return sum;
}
#endif

#if IS_ENABLED(CONFIG_UACCESS_KADDR_KUNIT_TEST)
/*
 * For the KUnit suite: no report is printed while held, so that a test can
 * free memory between a hit and its report.  Process context.
 */
void uk_test_hold_reports(bool hold)
{
	if (hold) {
		disable_work_sync(&uk_drain_work);
	} else {
		enable_work(&uk_drain_work);
		queue_work(system_unbound_wq, &uk_drain_work);
	}
}
#endif

static int uk_cmp_seq(const void *a, const void *b)
{
	const struct uk_event *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Collect every CPU's buffer, sort by sequence number, print and send.
 * Runs from uk_drain_work, never concurrently with itself.
 */
static void uk_drain(struct work_struct *work)
{
	struct uk_event *batch = uk_batch;
	unsigned int n = 0, i, cpu;
	bool more = false;

	for_each_possible_cpu(cpu) {
		struct uk_cpu_queue *q = per_cpu_ptr(&uk_queue, cpu);
		struct uk_event *full;
		unsigned int len;
		unsigned long flags;

		if (n + UK_QUEUE_LEN > UK_BATCH_LEN) {
			more = true;
			break;
		}
		raw_spin_lock_irqsave(&q->lock, flags);
		full = q->active;
		len = q->len;
		q->active = full == q->bufs[0] ? q->bufs[1] : q->bufs[0];
		q->len = 0;
		raw_spin_unlock_irqrestore(&q->lock, flags);
		memcpy(batch + n, full, len * sizeof(*full));
		n += len;
	}
	sort(batch, n, sizeof(batch[0]), uk_cmp_seq, NULL);
	for (i = 0; i < n; i++) {
		uk_print_report(&batch[i]);
		uk_netlink_send_event(&batch[i]);
		if (batch[i].warn)
			uk_warn_taken();
	}
	if (READ_ONCE(uk_warn_lost) && xchg(&uk_warn_lost, false))
		uk_warn_taken();
	if (more)
		queue_work(system_unbound_wq, &uk_drain_work);
}

/* Process context: every event recorded so far has been sent or dropped. */
void uk_flush_events(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&uk_queue, cpu)->irq_work);
	flush_work(&uk_drain_work);
}

void uk_get_status(struct uk_status *st)
{
	st->mode = READ_ONCE(uk_mode);
	st->hits_fault = atomic64_read(&uk_hits[UKADDR_KIND_FAULT]);
	st->hits_gp = atomic64_read(&uk_hits[UKADDR_KIND_GP]);
	st->hits_precheck = atomic64_read(&uk_hits[UKADDR_KIND_PRECHECK]);
	st->rejected = atomic64_read(&uk_rejected);
	st->reported = atomic64_read(&uk_reported);
	st->suppressed = atomic64_read(&uk_suppressed);
	st->dropped = atomic64_read(&uk_dropped);
	st->sites_used = atomic_read(&uk_sites_used);
	st->sites_max = UK_SITES;
	st->sites_overflow = atomic64_read(&uk_sites_overflow);
	st->last_seq = atomic64_read(&uk_seq);
	st->ratelimit_interval_ms = READ_ONCE(uk_rl_interval_ms);
	st->ratelimit_burst = READ_ONCE(uk_rl_burst);
	st->queue_len = UK_QUEUE_LEN;
	st->buffer_bytes = uk_buffer_bytes;
	st->access = uaccess_kaddr_allow_access ? UKADDR_ACCESS_ALLOW :
						  UKADDR_ACCESS_FAIL;
}

/*
 * Return the counters and zero them, each with one atomic exchange, so that
 * no hit is lost between reading and clearing.  The site table keeps its
 * sites (their ids stay stable) but their counts restart.  The sequence
 * number is per boot and is not reset.
 */
void uk_reset(struct uk_status *old)
{
	unsigned int i;

	uk_get_status(old);
	old->hits_fault = atomic64_xchg(&uk_hits[UKADDR_KIND_FAULT], 0);
	old->hits_gp = atomic64_xchg(&uk_hits[UKADDR_KIND_GP], 0);
	old->hits_precheck = atomic64_xchg(&uk_hits[UKADDR_KIND_PRECHECK], 0);
	old->rejected = atomic64_xchg(&uk_rejected, 0);
	old->reported = atomic64_xchg(&uk_reported, 0);
	old->suppressed = atomic64_xchg(&uk_suppressed, 0);
	old->dropped = atomic64_xchg(&uk_dropped, 0);
	old->sites_overflow = atomic64_xchg(&uk_sites_overflow, 0);
	for (i = 0; i < UK_SITES; i++) {
		struct uk_site *s = uk_site_at(i);

		if (!s)
			continue;
		atomic64_set(&s->count, 0);
		atomic64_set(&s->reported, 0);
		atomic64_set(&s->suppressed, 0);
		atomic64_set(&s->pending, 0);
	}
}

static void uk_apply_mode(unsigned int mode)
{
	WRITE_ONCE(uk_mode, mode);
	if (mode == UKADDR_MODE_OFF)
		static_branch_disable(&uaccess_kaddr_enabled);
	else
		static_branch_enable(&uaccess_kaddr_enabled);
}

static void uk_free_buffers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct uk_cpu_queue *q = per_cpu_ptr(&uk_queue, cpu);

		kvfree(q->bufs[0]);
		q->bufs[0] = NULL;
		q->bufs[1] = NULL;
		q->nmi_slot = NULL;
		q->scratch = NULL;
		q->active = NULL;
	}
	kvfree(uk_batch);
	uk_batch = NULL;
}

/*
 * Before the first switch out of mode off, under uk_config_lock or at
 * init.  The hit path only runs once the static key is on, after this:
 * static_branch_enable() patches the text with a serialising IPI to every
 * CPU, so the buffers are seen before the first hit.  The site table is
 * published last, with a release that uk_site_get() pairs with; a hit that
 * still finds none (a key switched on by other means) is only counted.
 */
static int uk_alloc_buffers(void)
{
	size_t per_cpu = (2 * UK_QUEUE_LEN + UK_NMI_SLOTS + 1) *
			 sizeof(struct uk_event);
	struct uk_site *sites;
	int cpu;

	if (uk_sites)
		return 0;
	/* Zeroed, as KMSAN would otherwise take copies into it for uninit. */
	uk_batch = kvcalloc(UK_BATCH_LEN, sizeof(*uk_batch), GFP_KERNEL);
	if (!uk_batch)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct uk_cpu_queue *q = per_cpu_ptr(&uk_queue, cpu);
		struct uk_event *ev = kvzalloc_node(per_cpu, GFP_KERNEL,
						    cpu_to_node(cpu));

		if (!ev)
			goto fail;
		q->bufs[0] = ev;
		q->bufs[1] = ev + UK_QUEUE_LEN;
		q->nmi_slot = ev + 2 * UK_QUEUE_LEN;
		q->scratch = q->nmi_slot + UK_NMI_SLOTS;
		q->active = q->bufs[0];
	}
	sites = kvcalloc(UK_SITES, sizeof(*sites), GFP_KERNEL);
	if (!sites)
		goto fail;
	uk_buffer_bytes = UK_SITES * sizeof(*sites) +
			  UK_BATCH_LEN * sizeof(*uk_batch) +
			  num_possible_cpus() * per_cpu;
	/* The table is zeroed before a hit can see it: uk_site_get(). */
	smp_store_release(&uk_sites, sites);
	pr_info("%zu bytes of site table and event buffers allocated\n",
		uk_buffer_bytes);
	return 0;
fail:
	uk_free_buffers();
	return -ENOMEM;
}

/**
 * uk_site_at - slot @i of the site table, if it holds a site
 * @i: the slot, below UK_SITES
 *
 * Return: the site, whose key fields are set, or NULL.  Any context.
 */
struct uk_site *uk_site_at(unsigned int i)
{
	struct uk_site *sites = READ_ONCE(uk_sites);

	/* Pairs with atomic_set_release() in uk_site_get(). */
	if (!sites || !atomic_read_acquire(&sites[i].ready))
		return NULL;
	return &sites[i];
}

/* Process context; the values were range-checked by the netlink policy. */
int uk_set_config(const u32 *mode, const u32 *interval_ms, const u32 *burst)
{
	int err = 0;

	mutex_lock(&uk_config_lock);
	if (mode && *mode != UKADDR_MODE_OFF)
		err = uk_alloc_buffers();
	if (err)
		goto out;
	if (interval_ms) {
		WRITE_ONCE(uk_rl_interval_ms, *interval_ms);
		WRITE_ONCE(uk_rl_interval, msecs_to_jiffies(*interval_ms));
	}
	if (burst)
		WRITE_ONCE(uk_rl_burst, *burst);
	if (mode && *mode != READ_ONCE(uk_mode)) {
		pr_info("mode %u -> %u\n", READ_ONCE(uk_mode), *mode);
		uk_apply_mode(*mode);
	}
out:
	mutex_unlock(&uk_config_lock);
	return err;
}

static int __init uk_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct uk_cpu_queue *q = per_cpu_ptr(&uk_queue, cpu);

		raw_spin_lock_init(&q->lock);
		/* Hard on PREEMPT_RT too: it takes @lock as hardirqs do. */
		q->irq_work = IRQ_WORK_INIT_HARD(uk_irq_work);
	}
	uk_rl_interval = msecs_to_jiffies(uk_rl_interval_ms);
	if (uk_mode != UKADDR_MODE_OFF && uk_alloc_buffers()) {
		pr_err("no memory for the site table and event buffers: mode off\n");
		uk_mode = UKADDR_MODE_OFF;
	}
	uk_apply_mode(uk_mode);
	return 0;
}
early_initcall(uk_init);
