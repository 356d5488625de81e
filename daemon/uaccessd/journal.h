/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Journal entries of uaccessd: events, suppressed summaries, data loss and
 * daemon health, each with a fixed MESSAGE_ID (packaging/uaccessd.catalog
 * explains them to `journalctl -x`) and UACCESS_* fields.
 */
#ifndef UK_JOURNAL_H
#define UK_JOURNAL_H

#include <stdint.h>
#include <sys/uio.h>
#include "common/event.h"
#include "common/msgid.h"

/* Where an event was lost, as UACCESS_LOSS_REASON says it. */
enum uk_loss {
	UK_LOSS_KERNEL_DROPPED,	/* the kernel's queue was full */
	UK_LOSS_SEQ_GAP,	/* sequence numbers missing on arrival */
	UK_LOSS_OVERRUN,	/* socket receive buffer overrun (ENOBUFS) */
	UK_LOSS_MALFORMED,	/* a message that failed to parse */
	UK_LOSS_JOURNAL,	/* journal entries that could not be sent */
	UK_LOSS_EVICTED,	/* sites evicted from the daemon's table */
	UK_LOSS_SITE_OVERFLOW,	/* hits the kernel's site table had no room for */
	UK_LOSS_NR,
};

const char *uk_loss_name(enum uk_loss loss);

struct uk_journal {
	/* sd_journal_sendv() unless a test puts its own here */
	int (*sendv)(const struct iovec *iov, int n);
	uint64_t sent;
	uint64_t failed;	/* entries the journal refused */
	uint64_t failed_pending;	/* not yet reported in a loss entry */
	int last_error;
};

void uk_journal_init(struct uk_journal *j);

/*
 * Each returns 0 or the negative errno of the send; a failure is counted
 * in failed/failed_pending, and the next successful send is followed by a
 * loss entry reporting them.
 */
int uk_journal_event(struct uk_journal *j, const struct uk_event *ev,
		     uint64_t site_events);
int uk_journal_suppressed(struct uk_journal *j, const char *site_symbol,
			  uint64_t site_ip, uint32_t kind, uint32_t helper,
			  uint64_t n, uint64_t total);
int uk_journal_loss(struct uk_journal *j, enum uk_loss loss, uint64_t n,
		    uint64_t total, const char *detail);
/* @priority: LOG_INFO for state changes, LOG_ERR for failures */
int uk_journal_health(struct uk_journal *j, int priority, const char *state,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* UK_JOURNAL_H */
