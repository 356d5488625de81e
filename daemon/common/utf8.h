/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8 as the JSON reader and writer and the terminal output check it. */
#ifndef UK_UTF8_H
#define UK_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the well-formed UTF-8 sequence at @s (1 to 4; @n bytes
 * left, at least 1), or 0 if the bytes there are not one (Unicode table
 * 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
 */
size_t uk_utf8_len(const void *s, size_t n);

/* Code point @cp (at most U+10FFFF) in UTF-8 at @out; the length, 1-4. */
size_t uk_utf8_put(char *out, uint32_t cp);

#endif /* UK_UTF8_H */
