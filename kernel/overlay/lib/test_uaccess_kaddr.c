// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger uaccess_kaddr reports on demand, for end-to-end tests and
 * benchmarks of the detector and its userspace.
 *
 * Root writes "HELPER CLASS [COUNT]" to
 * /sys/kernel/debug/test_uaccess_kaddr/trigger, for example
 * "unsafe_put_user kernel-kmalloc 1000": the module makes COUNT accesses
 * through the helper at an address of the class.  The write returns the
 * number of bytes written once all accesses ran, whatever they returned;
 * "list" (read) names the helpers and classes.  Writing ends up in the
 * module's own buffers, never elsewhere in the kernel.
 *
 * "addresses" (read, root only) gives the kernel addresses of those
 * buffers, for tests whose root side hands them to an unprivileged
 * program, e.g. a proof of concept of a re-opened bug (kernel/inject/).
 *
 * "sites" (write, root only) takes "FIRST N COUNT": COUNT hits that cycle
 * through the N call sites FIRST, FIRST + 1, ... of 10,000 distinct
 * __get_user() sites, all reading the module's kmalloc'ed buffer, for
 * benchmarks of many sites (the site table, the event pipeline).  When
 * the three numbers are multiples of 100, the sites run 100 at a time.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../mm/uaccess_kaddr/test_triggers.h"

#define UK_MAX_COUNT	100000000UL

static struct dentry *uk_dir;
static struct uk_buffers uk_bufs;

/*
 * UK_NR_SITES distinct call sites of __get_user() for the "sites" file, in
 * runs of UK_SITES_RUN: uk_sites_00() ... uk_sites_99() make UK_SITES_RUN
 * accesses each, every expansion of UK_GET() a call site of its own; all
 * of them when @all, else only the @which-th.
 */
#define UK_SITES_RUN	100
#define UK_NR_SITES	(100 * UK_SITES_RUN)

#define UK_GET(p, all, which)						\
	({ u64 __v; (all) || !(which)-- ? __get_user(__v, p) : 0; })
#define UK_GET10(p, all, which)						\
	({								\
		int __r10 = UK_GET(p, all, which);			\
									\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10 |= UK_GET(p, all, which);				\
		__r10;							\
	})
#define UK_GET100(p, all, which)					\
	({								\
		int __r100 = UK_GET10(p, all, which);			\
									\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100 |= UK_GET10(p, all, which);			\
		__r100;							\
	})

#define UK_SITES(n)							\
static noinline int uk_sites_##n(u64 __user *p, bool all, int which)	\
{									\
	return UK_GET100(p, all, which);				\
}

UK_SITES(00) UK_SITES(01) UK_SITES(02) UK_SITES(03) UK_SITES(04)
UK_SITES(05) UK_SITES(06) UK_SITES(07) UK_SITES(08) UK_SITES(09)
UK_SITES(10) UK_SITES(11) UK_SITES(12) UK_SITES(13) UK_SITES(14)
UK_SITES(15) UK_SITES(16) UK_SITES(17) UK_SITES(18) UK_SITES(19)
UK_SITES(20) UK_SITES(21) UK_SITES(22) UK_SITES(23) UK_SITES(24)
UK_SITES(25) UK_SITES(26) UK_SITES(27) UK_SITES(28) UK_SITES(29)
UK_SITES(30) UK_SITES(31) UK_SITES(32) UK_SITES(33) UK_SITES(34)
UK_SITES(35) UK_SITES(36) UK_SITES(37) UK_SITES(38) UK_SITES(39)
UK_SITES(40) UK_SITES(41) UK_SITES(42) UK_SITES(43) UK_SITES(44)
UK_SITES(45) UK_SITES(46) UK_SITES(47) UK_SITES(48) UK_SITES(49)
UK_SITES(50) UK_SITES(51) UK_SITES(52) UK_SITES(53) UK_SITES(54)
UK_SITES(55) UK_SITES(56) UK_SITES(57) UK_SITES(58) UK_SITES(59)
UK_SITES(60) UK_SITES(61) UK_SITES(62) UK_SITES(63) UK_SITES(64)
UK_SITES(65) UK_SITES(66) UK_SITES(67) UK_SITES(68) UK_SITES(69)
UK_SITES(70) UK_SITES(71) UK_SITES(72) UK_SITES(73) UK_SITES(74)
UK_SITES(75) UK_SITES(76) UK_SITES(77) UK_SITES(78) UK_SITES(79)
UK_SITES(80) UK_SITES(81) UK_SITES(82) UK_SITES(83) UK_SITES(84)
UK_SITES(85) UK_SITES(86) UK_SITES(87) UK_SITES(88) UK_SITES(89)
UK_SITES(90) UK_SITES(91) UK_SITES(92) UK_SITES(93) UK_SITES(94)
UK_SITES(95) UK_SITES(96) UK_SITES(97) UK_SITES(98) UK_SITES(99)

static int (* const uk_sites[UK_NR_SITES / UK_SITES_RUN])(u64 __user *p,
							  bool all, int which) = {
	uk_sites_00, uk_sites_01, uk_sites_02, uk_sites_03, uk_sites_04,
	uk_sites_05, uk_sites_06, uk_sites_07, uk_sites_08, uk_sites_09,
	uk_sites_10, uk_sites_11, uk_sites_12, uk_sites_13, uk_sites_14,
	uk_sites_15, uk_sites_16, uk_sites_17, uk_sites_18, uk_sites_19,
	uk_sites_20, uk_sites_21, uk_sites_22, uk_sites_23, uk_sites_24,
	uk_sites_25, uk_sites_26, uk_sites_27, uk_sites_28, uk_sites_29,
	uk_sites_30, uk_sites_31, uk_sites_32, uk_sites_33, uk_sites_34,
	uk_sites_35, uk_sites_36, uk_sites_37, uk_sites_38, uk_sites_39,
	uk_sites_40, uk_sites_41, uk_sites_42, uk_sites_43, uk_sites_44,
	uk_sites_45, uk_sites_46, uk_sites_47, uk_sites_48, uk_sites_49,
	uk_sites_50, uk_sites_51, uk_sites_52, uk_sites_53, uk_sites_54,
	uk_sites_55, uk_sites_56, uk_sites_57, uk_sites_58, uk_sites_59,
	uk_sites_60, uk_sites_61, uk_sites_62, uk_sites_63, uk_sites_64,
	uk_sites_65, uk_sites_66, uk_sites_67, uk_sites_68, uk_sites_69,
	uk_sites_70, uk_sites_71, uk_sites_72, uk_sites_73, uk_sites_74,
	uk_sites_75, uk_sites_76, uk_sites_77, uk_sites_78, uk_sites_79,
	uk_sites_80, uk_sites_81, uk_sites_82, uk_sites_83, uk_sites_84,
	uk_sites_85, uk_sites_86, uk_sites_87, uk_sites_88, uk_sites_89,
	uk_sites_90, uk_sites_91, uk_sites_92, uk_sites_93, uk_sites_94,
	uk_sites_95, uk_sites_96, uk_sites_97, uk_sites_98, uk_sites_99,
};

static int uk_lookup(const char *name, const char * const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (names[i] && !strcmp(name, names[i]))
			return i;
	}
	return -1;
}

static ssize_t uk_trigger_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *off)
{
	char cmd[96], helper[40], class_name[40], stack[UK_TRIGGER_LEN * 2];
	struct uk_buffers bufs = uk_bufs;
	unsigned long count = 1, i;
	void __user *p;
	int t, c, n;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	n = sscanf(cmd, "%39s %39s %lu", helper, class_name, &count);
	if (n < 2 || count == 0 || count > UK_MAX_COUNT)
		return -EINVAL;

	for (t = 0; t < ARRAY_SIZE(uk_triggers); t++) {
		if (!strcmp(helper, uk_triggers[t].name))
			break;
	}
	c = uk_lookup(class_name, uk_class_names, UK_NR_CLASSES);
	if (t == ARRAY_SIZE(uk_triggers) || c < 0)
		return -EINVAL;
	/* Writes go only to buffers of ours; kernel text is read-only. */
	if (uk_triggers[t].writes && c == UK_KERNEL_TEXT)
		return -EINVAL;

	/* The caller's own buffer is valid user memory. */
	bufs.upage = (void __user *)ubuf;
	memset(stack, 0, sizeof(stack));
	p = uk_class_addr(&bufs, c, stack);
	for (i = 0; i < count; i++) {
		uk_triggers[t].fn(p, bufs.upage);
		if ((i & 1023) == 1023) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return len;
}

/* "FIRST N COUNT": see the top. */
static ssize_t uk_sites_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *off)
{
	u64 __user *p = (u64 __user *)uk_bufs.kbuf;
	unsigned long first, n, count, i, at, step = 1;
	char cmd[64];
	bool runs;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	if (sscanf(cmd, "%lu %lu %lu", &first, &n, &count) != 3 ||
	    first >= UK_NR_SITES || n == 0 || n > UK_NR_SITES ||
	    count == 0 || count > UK_MAX_COUNT)
		return -EINVAL;

	/* Whole runs when they fit: no site skipped on the way. */
	runs = !(first % UK_SITES_RUN) && !(n % UK_SITES_RUN) &&
	       !(count % UK_SITES_RUN);
	if (runs)
		step = UK_SITES_RUN;
	for (i = 0, at = 0; i < count; i += step) {
		unsigned long site = (first + at) % UK_NR_SITES;

		uk_sites[site / UK_SITES_RUN](p, runs, site % UK_SITES_RUN);
		at += step;
		if (at == n)
			at = 0;
		if ((i & 1023) < step) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return len;
}

static int uk_list_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(uk_triggers); i++)
		seq_printf(m, "helper %s%s\n", uk_triggers[i].name,
			   uk_triggers[i].helper ? "" : " (checked)");
	for (i = 0; i < UK_NR_CLASSES; i++)
		seq_printf(m, "class %s\n", uk_class_names[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uk_list);

/*
 * The raw addresses, deliberately: a test module only, and the file is
 * 0400 root.  %pK or %p would hash them and make them useless to the
 * tests that write through them.  Both stay within our own buffers: the
 * kmalloc'ed page and the guard page after the vmalloc'ed one.
 */
static int uk_addresses_show(struct seq_file *m, void *v)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	seq_printf(m, "kmalloc 0x%lx\n", (unsigned long)uk_bufs.kbuf);
	seq_printf(m, "unmapped 0x%lx\n",
		   (unsigned long)uk_bufs.vbuf + PAGE_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uk_addresses);

/* The first bytes of the kmalloc'ed page: did a refused access write? */
static int uk_kbuf_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%*phN\n", 32, uk_bufs.kbuf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uk_kbuf);

static const struct file_operations uk_trigger_fops = {
	.owner = THIS_MODULE,
	.write = uk_trigger_write,
	.llseek = noop_llseek,
};

static const struct file_operations uk_sites_fops = {
	.owner = THIS_MODULE,
	.write = uk_sites_write,
	.llseek = noop_llseek,
};

static int __init test_uaccess_kaddr_init(void)
{
	uk_bufs.kbuf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	uk_bufs.vbuf = vmalloc(PAGE_SIZE);
	if (!uk_bufs.kbuf || !uk_bufs.vbuf) {
		kfree(uk_bufs.kbuf);
		vfree(uk_bufs.vbuf);
		return -ENOMEM;
	}
	uk_dir = debugfs_create_dir("test_uaccess_kaddr", NULL);
	debugfs_create_file("trigger", 0200, uk_dir, NULL, &uk_trigger_fops);
	debugfs_create_file("sites", 0200, uk_dir, NULL, &uk_sites_fops);
	debugfs_create_file("list", 0400, uk_dir, NULL, &uk_list_fops);
	debugfs_create_file("addresses", 0400, uk_dir, NULL,
			    &uk_addresses_fops);
	debugfs_create_file("kbuf", 0400, uk_dir, NULL, &uk_kbuf_fops);
	return 0;
}

static void __exit test_uaccess_kaddr_exit(void)
{
	debugfs_remove_recursive(uk_dir);
	vfree(uk_bufs.vbuf);
	kfree(uk_bufs.kbuf);
}

module_init(test_uaccess_kaddr_init);
module_exit(test_uaccess_kaddr_exit);
MODULE_DESCRIPTION("Trigger uaccess_kaddr reports on demand (test only)");
MODULE_LICENSE("GPL");
