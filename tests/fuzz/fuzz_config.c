// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration parser on arbitrary bytes.  Besides memory errors
 * (ASan/UBSan), it checks that a parse either fails with a
 * "fuzz:LINE: reason" message or gives values inside their documented
 * ranges, and that the result can be matched and written as JSON.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/time.h"
#include "uaccessd/config.h"
#include "common/json.h"

#define SEC UK_USEC_PER_SEC
#define MS UK_USEC_PER_MSEC

static void check_range(uint64_t v, uint64_t min, uint64_t max, bool zero_ok)
{
	if ((v < min || v > max) && !(zero_ok && v == 0))
		abort();
}

static void check(const struct uk_config *cfg)
{
	size_t i;
	const char *c;

	check_range(cfg->rcvbuf, 64 << 10, 1 << 30, false);
	check_range(cfg->site_interval_usec, MS, 86400 * SEC, true);
	check_range(cfg->site_burst, 1, 10000, false);
	check_range(cfg->global_rate, 1, 1000000, false);
	check_range(cfg->global_burst, 1, 1000000, false);
	check_range(cfg->summary_interval_usec, SEC, 86400 * SEC, false);
	check_range(cfg->max_sites, 16, 1000000, false);
	check_range(cfg->samples, 1, 64, false);
	check_range(cfg->resync_interval_usec, 10 * SEC, 86400 * SEC, true);
	if (cfg->n_ignore > UK_CONFIG_IGNORE_MAX || cfg->missing)
		abort();
	for (i = 0; i < cfg->n_ignore; i++) {
		if (!cfg->ignore[i][0] ||
		    strlen(cfg->ignore[i]) > UK_CONFIG_PATTERN_MAX)
			abort();
		for (c = cfg->ignore[i]; *c; c++)
			if (*c <= ' ' || *c >= 0x7f)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_json_value *v;
	struct uk_config cfg;
	struct uk_json j;
	char err[512] = "";
	char name[64];
	size_t len;
	char *out;
	int r;

	r = uk_config_parse_buffer("fuzz", (const char *)data, size, &cfg,
				   err, sizeof(err));
	if (r < 0) {
		if ((r != -EINVAL && r != -ENOMEM) ||
		    strncmp(err, "fuzz:", 5))
			abort();
		return 0;
	}
	check(&cfg);

	/* a name from the input, and the usual symbol form */
	len = size < sizeof(name) - 1 ? size : sizeof(name) - 1;
	memcpy(name, data, len);
	name[len] = '\0';
	uk_config_ignored(&cfg, name);
	uk_config_ignored(&cfg, "my_driver_ioctl+0x1c/0x80 [my_driver]");

	uk_json_init(&j, 0);
	uk_json_object_begin(&j);
	uk_config_json(&j, &cfg);
	uk_json_object_end(&j);
	if (uk_json_finish(&j, &out, &len) < 0)
		abort();
	if (uk_json_parse(out, len, &v, NULL, 0) < 0)
		abort();
	uk_json_value_free(v);
	free(out);
	uk_config_free(&cfg);
	return 0;
}
