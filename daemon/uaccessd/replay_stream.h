/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A replay (docs/replay-format.md) read as it arrives, from a pipe or a
 * FIFO: the messages go through the pipeline one by one while uaccessd
 * keeps serving, which lets tests feed it in steps (stop journald between
 * two of them, say).
 */
#ifndef UK_REPLAY_STREAM_H
#define UK_REPLAY_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>
#include "pipeline.h"

struct uk_replay_stream;

/*
 * Reads @fd (taken over once this returns 0; on an error it is the
 * caller's still) on @e; at the end of the stream calls @done with 0, or
 * with a negative errno and a reason after a corrupt or truncated stream.
 * @fd need not be non-blocking, nor made so: it is read once each time
 * epoll finds it readable, a socket with MSG_DONTWAIT, so that a
 * description shared with another process (uaccessd's stdin) keeps its
 * flags.
 */
int uk_replay_stream_new(sd_event *e, int fd, struct uk_pipeline *p,
			 void (*done)(int err, const char *why, void *data),
			 void *data, struct uk_replay_stream **ret);
void uk_replay_stream_free(struct uk_replay_stream *s);

#endif /* UK_REPLAY_STREAM_H */
