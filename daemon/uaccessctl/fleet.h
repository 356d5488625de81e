/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `uaccessctl sites` and `top` from the journal (--directory, --since,
 * --until, --boot): per-site totals computed from uaccessd's journal
 * entries, by machine (_MACHINE_ID, shown by _HOSTNAME) and over the
 * whole fleet, for a collector's directory of systemd-journal-remote
 * (docs/fleet.md).  The model (fleet.c: adding entries, totals,
 * sorting), its table and JSON (fleet_out.c) are unit-tested on their own;
 * uk_cli_fleet() (fleet_verb.c) walks the journal (query.h).
 *
 * The totals, as the entries state them (docs/uaccessctl.md):
 *   events      the event entries of the site (MESSAGE_ID event), one
 *               per occurrence that uaccessd journaled;
 *   suppressed  the sum of UACCESS_SUPPRESSED_COUNT of its summary
 *               entries: the occurrences uaccessd's ratelimits held back
 *               since its previous summary (a delta, never cumulative);
 *   count       events + suppressed: every occurrence uaccessd received
 *               is in exactly one of them.
 * An entry that is in the journal twice (the same event by machine, boot
 * and sequence number; the same summary by machine, boot, time, site and
 * running total), as a second upload without its state file leaves it,
 * is counted once.  An entry of uaccessd's whose fields are missing or
 * malformed is skipped and counted as skipped, never guessed at.
 */
#ifndef UK_CLI_FLEET_H
#define UK_CLI_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "common/hashtab.h"
#include "common/json.h"
#include "common/sort.h"
#include "entry.h"
#include "label.h"

#define UK_FLEET_DIR_LEN	48

struct uk_fleet_site {
	char *site;		/* UACCESS_SITE_SYMBOL, else UACCESS_SITE_IP */
	char *kind;		/* UACCESS_KIND, "-" for evicted sites */
	char *helper;		/* UACCESS_HELPER, "-" for evicted sites */
	char *site_ip;		/* a machine's: as its entries say; NULL */
	bool has_symbol;	/* @site is a symbol, not an address */
	/* the events' directions, comma-separated; "" if only summaries */
	char direction[UK_FLEET_DIR_LEN];
	uint64_t events;	/* event entries */
	uint64_t suppressed;	/* sum of the summaries' counts */
	uint64_t count;		/* events + suppressed */
	/* its first, last hit (us): the events' UACCESS_TS_REAL, see fleet.c */
	uint64_t first, last;
	char last_address[24];	/* the newest event's UACCESS_ADDRESS, or "" */
	unsigned int machines;	/* fleet sites: on how many machines */
};

struct uk_fleet_machine {
	char *machine_id;	/* _MACHINE_ID; "" when the entries had none */
	char *hostname;		/* its newest entry's _HOSTNAME, or NULL */
	uint64_t hostname_time;	/* ...and that entry's time */
	char label[UK_LABEL_LEN];	/* set by uk_fleet_finish() */
	uint64_t events, suppressed, count, last;
	struct uk_fleet_site *sites;
	size_t n_sites, cap;
	struct uk_htab map;	/* its sites by key */
};


struct uk_fleet {
	struct uk_fleet_machine *machines;
	size_t n_machines, cap;
	struct uk_fleet_site *sites;	/* the fleet's, by uk_fleet_finish() */
	size_t n_sites, sites_cap;
	uint64_t events, suppressed, count;
	/* entries seen: counted by type, skipped, duplicates, others */
	uint64_t event_entries, summary_entries, skipped, duplicates, other;
	char first_skip[320];	/* "HOST: why" of the first skipped entry */
	struct uk_htab machine_map, fleet_map;
	struct uk_htab seen;	/* hashes of the entries counted */
};

void uk_fleet_init(struct uk_fleet *f);
void uk_fleet_release(struct uk_fleet *f);

/* What uk_fleet_add() did with an entry it took. */
enum uk_fleet_took {
	UK_FLEET_COUNTED,
	UK_FLEET_OTHER,		/* not an event or summary entry of uaccessd */
	UK_FLEET_DUPLICATE,	/* seen already (the same entry twice) */
};

/*
 * Counts one journal entry: 0 and what it did in *took (the counters
 * other and duplicates count the last two), -EINVAL for an entry of
 * uaccessd with a field missing or malformed (counted in skipped; the
 * reason in @why and, for the first one, in first_skip), -ENOMEM.
 */
int uk_fleet_add(struct uk_fleet *f, const struct uk_entry *e,
		 enum uk_fleet_took *took, char *why, size_t whylen);

/*
 * Once every entry is in: the machines' labels, the fleet-wide sites,
 * everything sorted.  -ENOMEM.
 */
int uk_fleet_finish(struct uk_fleet *f, enum uk_sort sort);

/*
 * The table (fleet_out.c): the fleet-wide sites first (HOSTNAME
 * "(fleet)", only when there are several machines), then each machine's,
 * at most @limit of each (0: all), to cli->out; a header and a footer
 * unless --no-legend.  Returns 0, or prints why and returns an error.
 */
int uk_fleet_print(const struct uk_cli *cli, const struct uk_fleet *f,
		   uint64_t limit);

/* The JSON document (docs/uaccessctl.md); @directory may be NULL. */
void uk_fleet_json(const struct uk_fleet *f, struct uk_json *j,
		   uint64_t limit, const char *directory,
		   char *const *bad_files, size_t n_bad_files);

/* The verbs sites and top with journal options; returns an exit code. */
int uk_cli_fleet(const struct uk_cli *cli, enum uk_sort sort,
		 uint64_t limit);

#endif /* UK_CLI_FLEET_H */
