// SPDX-License-Identifier: GPL-2.0
/* UTF-8, see utf8.h. */
#include "utf8.h"

size_t uk_utf8_len(const void *p, size_t n)
{
	const unsigned char *s = p;
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t need, k;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
	} else if (c == 0xe0) {
		need = 3;
		lo = 0xa0;
	} else if (c == 0xed) {
		need = 3;
		hi = 0x9f;
	} else if (c >= 0xe1 && c <= 0xef) {
		need = 3;
	} else if (c == 0xf0) {
		need = 4;
		lo = 0x90;
	} else if (c >= 0xf1 && c <= 0xf3) {
		need = 4;
	} else if (c == 0xf4) {
		need = 4;
		hi = 0x8f;
	} else {
		return 0;
	}
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (k = 2; k < need; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return need;
}


size_t uk_utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}
