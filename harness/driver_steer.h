/* Reference-driver helpers for flow steering (PRM §7.11, §12.14 T383-T456), on top of
 * harness/driver.h: a table, a group, an entry, a counter in one call each. Creates run through
 * refdrv_cmd_paged (ICM pages on demand, D-PG-4). Functions return the command status (T128,
 * 0 = OK) or -1 when the command did not complete (d->error). */
#ifndef NICREF_DRIVER_STEER_H
#define NICREF_DRIVER_STEER_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* The matchable part of fte_match_param (T407: outer_headers, misc_parameters,
 * inner_headers). Build one with refdrv_field_set(m, REFDRV_MATCH_LEN, "fte_match_param", ...). */
#define REFDRV_MATCH_LEN 0xC0u
#define REFDRV_FTE_MAX_LIST 64

/* CREATE_FLOW_TABLE (T383/T387): type 0 NIC_RX, 1 NIC_TX; miss_action 1 with miss_id. */
int refdrv_create_flow_table(struct refdrv *d, unsigned type, unsigned level, unsigned log_size,
			     unsigned miss_action, uint32_t miss_id, uint32_t *table_id);
int refdrv_modify_flow_table_miss(struct refdrv *d, unsigned type, uint32_t table_id,
				  unsigned miss_action, uint32_t miss_id);
int refdrv_set_flow_table_root(struct refdrv *d, unsigned type, uint32_t table_id);
int refdrv_destroy_flow_table(struct refdrv *d, unsigned type, uint32_t table_id);

/* CREATE_FLOW_GROUP (T405/T406): flows [start, end], the criteria (REFDRV_MATCH_LEN bytes, or
 * NULL for none) under match_criteria_enable. */
int refdrv_create_flow_group(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t start,
			     uint32_t end, unsigned enable, const uint8_t *criteria,
			     uint32_t *group_id);
int refdrv_destroy_flow_group(struct refdrv *d, unsigned type, uint32_t table_id,
			      uint32_t group_id);

/* A flow context (T429/T430): destinations (T433: 1 flow table, 2 TIR) then counters. */
struct refdrv_fte {
	uint32_t group_id;
	unsigned action; /* b0 ALLOW, b1 DROP, b2 FWD_DEST, b3 COUNT */
	uint32_t flow_tag;
	const uint8_t *match; /* REFDRV_MATCH_LEN bytes, or NULL */
	unsigned ndest, ncnt;
	struct {
		uint8_t type;
		uint32_t id;
	} dest[REFDRV_FTE_MAX_LIST];
	uint16_t cnt[REFDRV_FTE_MAX_LIST];
};
/* SET_FLOW_TABLE_ENTRY: op_mod 0 set, 1 modify with modify_enable_mask. */
int refdrv_set_fte(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t index,
		   unsigned op_mod, unsigned modify_mask, const struct refdrv_fte *f);
int refdrv_delete_fte(struct refdrv *d, unsigned type, uint32_t table_id, uint32_t index);

/* Flow counters (T445-T456). */
int refdrv_alloc_flow_counter(struct refdrv *d, uint32_t *id);
int refdrv_dealloc_flow_counter(struct refdrv *d, uint32_t id);
int refdrv_query_flow_counter(struct refdrv *d, uint32_t id, bool clear, uint64_t *packets,
			      uint64_t *octets);

#endif
