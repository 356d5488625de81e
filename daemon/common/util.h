/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's small helpers, once for the whole tree. */
#ifndef UK_UTIL_H
#define UK_UTIL_H

#include <stddef.h>
#include <unistd.h>

/* A compile error, not a wrong count, when @a is a pointer. */
#define UK_MUST_BE_ARRAY(a) \
	(sizeof(struct { int _: 1 - 2 * __builtin_types_compatible_p( \
		__typeof__(a), __typeof__(&(a)[0])); }) * 0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]) + UK_MUST_BE_ARRAY(a))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* The bit of an attribute in a message's ->present mask. */
#define UK_BIT(attr)	(1ULL << (attr))

/* A file descriptor closed when it goes out of scope (-1: none). */
static inline void uk_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

#define _cleanup_close_	__attribute__((cleanup(uk_closep)))

#endif /* UK_UTIL_H */
