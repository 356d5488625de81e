// SPDX-License-Identifier: GPL-2.0
/*
 * What uk_nl_open() and uk_nl_ctrl_open() (daemon/common/nl.c) return
 * when libnl fails to connect: libnl says why with its NLE_* code and
 * leaves errno as it was, so an errno left over from before (ENOENT from
 * a file that was not there) must not come out as the error: callers
 * read -ENOENT as "the kernel lacks uaccess_kaddr".  genl_connect() is
 * this program's own, failing as told.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <cmocka.h>

#include "common/nl.h"

static int connect_err;		/* what genl_connect() returns */
static int connect_errno;	/* what it leaves in errno, 0: untouched */
static unsigned int connects;

int genl_connect(struct nl_sock *sk)
{
	connects++;
	if (connect_errno)
		errno = connect_errno;
	return connect_err;
}

static void fail_with(int nle, int err)
{
	connect_err = nle;
	connect_errno = err;
	connects = 0;
}

static void stale_enoent_is_not_the_kernel_lacking_the_family(void **state)
{
	struct uk_nl *nl = NULL;

	fail_with(-NLE_FAILURE, 0);
	errno = ENOENT;		/* a stat() before, say */
	assert_int_equal(uk_nl_open(&nl), -EIO);
	assert_int_equal(connects, 1);
	assert_null(nl);
	errno = ENOENT;
	assert_int_equal(uk_nl_ctrl_open(), -EIO);
	assert_int_equal(connects, 2);
}

static void the_nle_code_says_why(void **state)
{
	struct uk_nl *nl = NULL;

	errno = ENOENT;
	fail_with(-NLE_AF_NOSUPPORT, 0);
	assert_int_equal(uk_nl_open(&nl), -EAFNOSUPPORT);
	errno = ENOENT;
	fail_with(-NLE_PERM, 0);
	assert_int_equal(uk_nl_open(&nl), -EPERM);
	errno = ENOENT;
	fail_with(-NLE_NOACCESS, 0);
	assert_int_equal(uk_nl_ctrl_open(), -EACCES);
	errno = ENOENT;
	fail_with(-NLE_NOMEM, 0);
	assert_int_equal(uk_nl_ctrl_open(), -ENOMEM);
	errno = ENOENT;
	fail_with(-NLE_PROTO_MISMATCH, 0);
	assert_int_equal(uk_nl_open(&nl), -EPROTONOSUPPORT);
	assert_null(nl);
}

/* libnl's errno is not read either: its code is the answer. */
static void errno_set_by_libnl_is_not_read(void **state)
{
	struct uk_nl *nl = NULL;

	fail_with(-NLE_FAILURE, ENOENT);
	assert_int_equal(uk_nl_open(&nl), -EIO);
	fail_with(-NLE_FAILURE, ENOENT);
	assert_int_equal(uk_nl_ctrl_open(), -EIO);
	assert_null(nl);
}

int main(void)
{
	const struct CMUnitTest nl_errno[] = {
		cmocka_unit_test(stale_enoent_is_not_the_kernel_lacking_the_family),
		cmocka_unit_test(the_nle_code_says_why),
		cmocka_unit_test(errno_set_by_libnl_is_not_read),
	};

	return cmocka_run_group_tests(nl_errno, NULL, NULL);
}
