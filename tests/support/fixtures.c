// SPDX-License-Identifier: GPL-2.0
/* Fixtures the unit tests share, see fixtures.h. */
#include <stdlib.h>
#include <time.h>

#include "fixtures.h"

void uk_test_set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

int uk_test_utc(void **state)
{
	uk_test_set_tz("UTC");
	return 0;
}
