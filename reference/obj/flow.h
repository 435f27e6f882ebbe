/* Private to libnicref: flow steering objects (PRM §7.11, §12.14). Owned by obj/flow_table.c,
 * flow_group.c, flow_entry.c, flow_counter.c; walked for frames by steer/classify.c.
 * Decisions: docs/steer.md (D-FT-*, D-FC-*).
 *
 * Flow tables (OBJ_FT), flow groups (OBJ_FG) and flow counters (OBJ_FC) are objects of the
 * tables in struct nicref_dev; flow table entries (FTEs) live in their table, by flow_index.
 * The references they hold (D-OBJ-1, counted in obj_hdr.refs of the object named):
 *   a group names its table; an FTE its group, each flow table and TIR it forwards to and each
 *   flow counter it counts in; a table with an identified miss table names that table.
 * The explicit root of a type (SET_FLOW_TABLE_ROOT) is not a reference: destroying it has its
 * own rule (D-FT-8).
 *
 * The lookup index (§7.11.2 "index order", without a scan of every entry): each group keeps a
 * hash table of its valid FTEs keyed by the match value under the group's mask (one mask per
 * group, §7.11.3.4), each chain sorted by flow_index; a table keeps its groups sorted by
 * start_flow_index. Groups do not overlap, so the first group in that order whose index holds
 * the key holds the lowest matching flow of the table, and within it the head of the chain. */
#ifndef NICREF_OBJ_FLOW_H
#define NICREF_OBJ_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "obj/obj.h"

struct nicref_dev;

/* The part of fte_match_param (T407) a match can use: outer_headers, misc_parameters,
 * inner_headers (00h-BFh); C0h-1FFh are reserved. steer/steer.h's STEER_KEY_LEN equals it. */
#define FLOW_MATCH_LEN 0xC0u
#define FLOW_MATCH_WORDS (FLOW_MATCH_LEN / 4)

enum flow_table_type { FLOW_NIC_RX = 0, FLOW_NIC_TX = 1, FLOW_TYPES = 2 };
/* T430 0Ch action bits. */
enum {
	FLOW_ACT_ALLOW = 1u << 0,
	FLOW_ACT_DROP = 1u << 1,
	FLOW_ACT_FWD = 1u << 2,
	FLOW_ACT_COUNT = 1u << 3,
};
/* T434 destination_type. */
enum { FLOW_DEST_FT = 1, FLOW_DEST_TIR = 2 };

struct flow_dest {
	uint8_t type;
	uint32_t id;
};

struct flow_group;
struct fte {
	uint32_t index;
	uint32_t flow_tag;
	uint16_t action;
	uint32_t ndest, ncnt;
	bool multi; /* more than one destination (§7.11.2.4) */
	struct flow_group *fg;
	struct fte *next; /* the group's hash chain, by index */
	uint32_t hash;
	uint32_t value[FLOW_MATCH_WORDS]; /* match_value under the group's mask, as read */
	struct flow_dest *dest;           /* ndest */
	uint16_t *cnt;                    /* ncnt flow counter ids */
};

struct flow_table;
struct flow_group {
	struct obj_hdr hdr; /* refs: its valid FTEs */
	struct flow_table *ft;
	uint32_t start, end;
	uint8_t enable;                    /* match_criteria_enable */
	uint32_t mask[FLOW_MATCH_WORDS];   /* match_criteria, disabled blocks 0 */
	uint8_t nwords;                    /* dwords of mask not 0 */
	uint8_t word[FLOW_MATCH_WORDS];    /* their indices */
	uint32_t nbuckets;                 /* a power of two */
	struct fte **bucket;
};

struct flow_table {
	struct obj_hdr hdr; /* refs: its groups, FTEs forwarding to it, tables missing to it */
	uint8_t type, level, log_size, miss_action;
	uint32_t miss_id;
	uint32_t ngroups, groups_cap;
	struct flow_group **groups; /* by start_flow_index */
	struct fte **fte;           /* 2^log_size slots, NULL = invalid flow (§7.11.2.6) */
	uint32_t nfte;
	uint32_t nmulti;  /* multi-path FTEs in it */
	uint32_t mp_refs; /* multi-path FTEs forwarding to it (D-FT-16) */
};

struct flow_counter {
	struct obj_hdr hdr; /* refs: FTEs counting in it */
	uint64_t packets, octets;
};

/* Per table type: the explicit root (0: none), the level-0 table (0: none), live tables and
 * valid flows (T151 limits). */
struct flow_dev {
	uint32_t root[FLOW_TYPES];
	uint32_t level0[FLOW_TYPES];
	uint32_t ntables[FLOW_TYPES];
	uint32_t nflows[FLOW_TYPES];
	uint64_t tir_overflow; /* TIR copies beyond STEER_MAX_TIRS (steer/classify.c, D-FT-20) */
};

/* The table classification of type t starts at (§7.11.3.2): the explicit root, else the
 * level-0 table; NULL when there is none (the type's default, §7.11.2.5). */
struct flow_table *flow_root(const struct nicref_dev *dev, unsigned type);
/* The lowest-index valid FTE of g matching key (FLOW_MATCH_WORDS dwords as in the frame's
 * match param), or NULL. No allocation. */
const struct fte *flow_group_lookup(const struct flow_group *g, const uint32_t *key);
/* The lowest-index valid FTE of t matching key, or NULL (a miss). */
const struct fte *flow_table_lookup(const struct flow_table *t, const uint32_t *key);

/* Family hooks (obj/obj.c, obj/obj_check.c). */
void flow_dev_reset(struct nicref_dev *dev);
void flow_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);

/* Shared by the family's files. */
void flow_ref(struct nicref_dev *dev, enum obj_type type, uint32_t h, int d);
/* The group's hash of key (or a value) under its mask. */
uint32_t flow_group_hash(const struct flow_group *g, const uint32_t *key);
/* Opens the flow table, group and counter handle ranges (INIT_HCA, D-OBJ-2, D-FT-12). */
void flow_open_tables(struct nicref_dev *dev);
void fte_free_all(struct nicref_dev *dev, struct flow_table *t);
void flow_group_free(struct nicref_dev *dev, struct flow_group *g);
void flow_counters_reset(struct nicref_dev *dev);

#endif
