// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/uaccess_kaddr/: the detector's counters ("stats") and
 * its call sites ("sites"), as /sys/kernel/debug/kfence/ shows KFENCE's.
 * Readable without the telemetry layer.
 */

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>

#include "uaccess_kaddr.h"

static int uk_stats_show(struct seq_file *m, void *v)
{
	struct uk_status st;

	uk_get_status(&st);
	seq_printf(m, "mode: %s\n", st.mode < ARRAY_SIZE(uk_mode_names) ?
		   uk_mode_names[st.mode] : "?");
	seq_printf(m, "access: %s\n",
		   st.access == UKADDR_ACCESS_ALLOW ? "allow" : "fail");
	seq_printf(m, "hits [fault]: %llu\n", st.hits_fault);
	seq_printf(m, "hits [gp]: %llu\n", st.hits_gp);
	seq_printf(m, "hits [precheck]: %llu\n", st.hits_precheck);
	seq_printf(m, "rejected: %llu\n", st.rejected);
	seq_printf(m, "reported: %llu\n", st.reported);
	seq_printf(m, "suppressed: %llu\n", st.suppressed);
	seq_printf(m, "dropped: %llu\n", st.dropped);
	seq_printf(m, "sites used: %u of %u\n", st.sites_used, st.sites_max);
	seq_printf(m, "sites overflow: %llu\n", st.sites_overflow);
	seq_printf(m, "last sequence number: %llu\n", st.last_seq);
	seq_printf(m, "ratelimit: %u per %u ms per site\n",
		   st.ratelimit_burst, st.ratelimit_interval_ms);
	seq_printf(m, "buffers: %zu bytes\n", st.buffer_bytes);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uk_stats);

/* One line per site in table order: counts, then what and where. */
static int uk_sites_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_puts(m, "# hits reported suppressed kind helper direction site\n");
	for (i = 0; i < UK_SITES; i++) {
		const struct uk_site *s = uk_site_at(i);

		if (!s)
			continue;
		seq_printf(m, "%llu %llu %llu %s %s %s %pB\n",
			   (u64)atomic64_read(&s->count),
			   (u64)atomic64_read(&s->reported),
			   (u64)atomic64_read(&s->suppressed),
			   uk_kind_name(s->kind), uk_helper_name(s->helper),
			   uk_dir_name(s->dir), (void *)s->ip);
		cond_resched();
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uk_sites);

static int __init uk_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("uaccess_kaddr", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &uk_stats_fops);
	debugfs_create_file("sites", 0400, dir, NULL, &uk_sites_fops);
	return 0;
}
late_initcall(uk_debugfs_init);
