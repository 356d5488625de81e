/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden files: expected outputs in $UK_TEST_DATA/golden/NAME (make unit
 * sets it to tests/unit; run by hand, tests/unit of this source tree).
 * UK_UPDATE_GOLDEN=1 rewrites them from the output instead, to be
 * reviewed before committing.
 */
#ifndef UK_TEST_GOLDEN_H
#define UK_TEST_GOLDEN_H

/* The path of golden file @name; free() it. */
char *uk_golden_path(const char *name);
/* Fails the test with both texts when @got differs from golden file @name. */
void uk_assert_golden(const char *name, const char *got);
/* Fails the test with both texts when @got (NULL: "") differs from @want. */
void uk_assert_text(const char *what, const char *got, const char *want);

#endif /* UK_TEST_GOLDEN_H */
