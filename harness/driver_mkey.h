/* Reference-driver helpers for memory keys (PRM §6, §12.5), on top of harness/driver.h: create,
 * query and destroy an MKey from a plain description, read the reserved LKey, and run a create
 * command through the ICM page dance every create may need (D-PG-4): NO_RESOURCES, then
 * QUERY_PAGES(regular) and MANAGE_PAGES for what the device asks, then the command again. */
#ifndef NICREF_DRIVER_MKEY_H
#define NICREF_DRIVER_MKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* One KLM (T36/T37). */
struct refdrv_klm {
	uint32_t byte_count;
	uint32_t mkey; /* index << 8 | tag */
	uint64_t address;
};

/* An MKey as T10 describes it. Rights: lr is always set (T10 "Must be set for all MKeys"). */
struct refdrv_mkey_attr {
	unsigned access_mode; /* 0 PA, 1 MTT, 2 KLM */
	uint32_t pd;
	uint8_t tag; /* mkey[7:0] */
	bool lw, rr, rw, umr_en, free, length64, pg_access;
	uint64_t start_addr, len;
	unsigned log_entity_size; /* MTT page size, >= 12 */
	const uint64_t *mtt;      /* MTT/PAS entries (T11 / T138 as 64-bit values) */
	uint32_t nmtt;
	const struct refdrv_klm *klm;
	uint32_t nklm;
	uint32_t octword_size; /* translations_octword_size; 0: the entries, rounded up to 4 */
};

/* CREATE_MKEY (T226-T229). 0 with *mkey_index set, the status when refused, -1 on error. */
int refdrv_create_mkey(struct refdrv *d, const struct refdrv_mkey_attr *a, uint32_t *mkey_index);
/* DESTROY_MKEY (T234-T237): the status, or -1. */
int refdrv_destroy_mkey(struct refdrv *d, uint32_t mkey_index);
/* QUERY_MKEY op_mod 0 (T230-T233) into out[0, out_len): the status, or -1. */
int refdrv_query_mkey(struct refdrv *d, uint32_t mkey_index, bool pg_access, uint8_t *out,
		      uint32_t out_len);
/* QUERY_SPECIAL_CONTEXTS (T238-T241): 0 with *resd_lkey set, the status, or -1. */
int refdrv_query_special_contexts(struct refdrv *d, uint32_t *resd_lkey);

#endif
