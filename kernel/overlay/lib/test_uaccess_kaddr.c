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

static const struct file_operations uk_trigger_fops = {
	.owner = THIS_MODULE,
	.write = uk_trigger_write,
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
	debugfs_create_file("list", 0400, uk_dir, NULL, &uk_list_fops);
	debugfs_create_file("addresses", 0400, uk_dir, NULL,
			    &uk_addresses_fops);
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
