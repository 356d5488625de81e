// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs sites and top with journal options (fleet.h): the journal
 * walked, its entries counted, the table or JSON printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "common/msgid.h"
#include "fleet.h"
#include "text.h"
#include "json_out.h"
#include "query.h"


static int fleet_entry(struct uk_query *q, const struct uk_entry *e,
		       void *data)
{
	enum uk_fleet_took took;
	char why[256];
	int r = uk_fleet_add(data, e, &took, why, sizeof(why));

	if (r == -ENOMEM)
		return uk_cli_error(&q->cli, -ENOMEM, "out of memory");
	return 0;
}

int uk_cli_fleet(const struct uk_cli *cli, enum uk_sort sort,
		 uint64_t limit)
{
	static const char *const ids[] = {
		UK_MSGID_EVENT, UK_MSGID_SUPPRESSED, NULL
	};
	struct uk_cli qcli = *cli;
	struct uk_query q;
	struct uk_fleet f;
	int64_t n;
	int r;

	uk_fleet_init(&f);
	/* -n counts sites here, not entries. */
	qcli.lines = 0;
	r = uk_query_init(&q, &qcli, 0, NULL, ids);
	if (r < 0)
		goto out;
	n = uk_query_walk(&q, false, fleet_entry, &f);
	if (n < 0) {
		r = (int)n;
		goto out;
	}
	if (uk_fleet_finish(&f, sort) < 0) {
		r = uk_cli_error(cli, -ENOMEM, "out of memory");
		goto out;
	}
	if (cli->json) {
		struct uk_json j;

		uk_json_init(&j, 0);
		uk_fleet_json(&f, &j, limit, cli->directory, q.bad_files,
			      q.n_bad_files);
		r = uk_cli_json_print(cli, &j);
	} else {
		r = uk_fleet_print(cli, &f, limit);
	}
	if (f.duplicates)
		fprintf(cli->err,
			"uaccessctl: %" PRIu64 " %s in the journal more than once (uploaded twice?): counted once\n",
			f.duplicates, uk_cli_plural(f.duplicates, "entry was", "entries were"));
	if (f.skipped)
		fprintf(cli->err,
			"uaccessctl: skipped %" PRIu64 " %s of uaccessd with missing or malformed fields, not counted; the first: %s\n",
			f.skipped, uk_cli_plural(f.skipped, "entry", "entries"),
			f.first_skip);
	/* Totals without some files' entries are not the totals. */
	if (!r && q.n_bad_files)
		r = uk_cli_error(cli, UK_ERR_FAILURE,
				 "%zu journal %s could not be read: the totals leave out %s entries",
				 q.n_bad_files, uk_cli_plural(q.n_bad_files, "file", "files"),
				 uk_cli_plural(q.n_bad_files, "its", "their"));
out:
	uk_query_release(&q);
	uk_fleet_release(&f);
	return r;
}
