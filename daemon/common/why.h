/* SPDX-License-Identifier: GPL-2.0 */
/* The one-line reason that parsers hand back to their caller. */
#ifndef UK_WHY_H
#define UK_WHY_H

#include <stddef.h>

/* printf into @why (if the caller gave one), cut to @whylen. */
void uk_why(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* UK_WHY_H */
