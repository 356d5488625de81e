/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inverse of event.h's parsers: encode a decoded message back into
 * netlink, the way kernel/overlay/mm/uaccess_kaddr/netlink.c does (same
 * headers, attributes in attribute order, one STACK nest per frame).  For
 * tests, fuzz seeds, replay files and benchmarks: the daemon itself only
 * parses.
 *
 * Every attribute whose bit is set in ->present is written, through the
 * field table; the stack of an event is written when ->nr_frames is not 0
 * (at most UK_STACK_MAX frames), whatever the STACK bit says.  Strings are
 * written up to their NUL with the NUL.  u64 attributes carry no PAD
 * attribute before them, as on x86-64 where the kernel does not align
 * them.  The builders return the length of the message (a multiple of 4),
 * -EMSGSIZE if it does not fit in @buflen, -EINVAL on a NULL argument.
 */
#ifndef UK_MSGBUILD_H
#define UK_MSGBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "common/event.h"

/* nlmsg_type @family, nlmsg_seq @seq_nl; cmd EVENT, version 1. */
int uk_event_build(const struct uk_event *ev, uint16_t family,
		   uint32_t seq_nl, void *buf, size_t buflen);

/* A dump reply: cmd DUMP_SITES, NLM_F_MULTI. */
int uk_site_build(const struct uk_site *site, uint16_t family,
		  uint32_t seq_nl, void *buf, size_t buflen);

/* A reply to @cmd: UACCESS_KADDR_CMD_GET_STATUS or UACCESS_KADDR_CMD_RESET. */
int uk_status_build(const struct uk_status *st, uint8_t cmd, uint16_t family,
		    uint32_t seq_nl, void *buf, size_t buflen);


#endif /* UK_MSGBUILD_H */
