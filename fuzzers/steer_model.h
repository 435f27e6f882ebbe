/* The fuzz targets' own model of flow steering (PRM §7.11, §12.14; docs/steer.md), shared by
 * the steer and rx targets (steer_model.c):
 *
 *  - the flow-table commands, posted through the reference driver (harness/driver_steer.h) from
 *    fixed-size operands, and mirrored into a plain model of tables, groups, entries and
 *    counters when the device completes them with status OK (the model never decides whether a
 *    command is legal: the device's answer does; it decides what a frame meets afterwards);
 *  - frames built from a small menu of header values, with the match key (T407-T416) the
 *    harness writes itself from the frame it built, field by field through the layouts, not
 *    through the model's parser (D-FT-5: what the frame does not have reads 0; D-FT-3, D-FT-10);
 *  - a linear reference classifier: every flow of a table in index order, the first that
 *    matches under its group's criteria wins, then the rules of §7.11.2 as docs/steer.md
 *    decides them (D-FT-7 ALLOW is the default, D-FT-20 multi-path copies, at most 64 TIR
 *    copies), with flow counters counted as the frame passes.
 *
 * Operand encodings (all fixed; what a byte means never depends on the model's state except
 * which live object a slot selector names):
 *   type    bit 0: 0 NIC_RX, 1 NIC_TX
 *   tsel    a table: bit 7 clear, slot tsel % SM_TABLES (its handle, or 0 when the slot is
 *           empty); bit 7 set, the raw handle tsel & 0x7F
 *   gsel    a group, the same over SM_GROUPS
 *   csel    a counter, the same over SM_COUNTERS
 *   dsel    a destination: bit 6 set, a TIR (bit 5 set: the raw number dsel & 0x1F, else the
 *           target's TIR dsel % 4); bit 6 clear, a flow table (tsel of dsel & 0xBF) */
#ifndef NICREF_FUZZ_STEER_MODEL_H
#define NICREF_FUZZ_STEER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "fuzz_reader.h"

#define SM_KEY 0xC0u     /* the matchable part of fte_match_param (T407) */
#define SM_TABLES 8u
#define SM_GROUPS 16u
#define SM_COUNTERS 8u
#define SM_LOG_MAX 5u    /* tables of at most 32 flows (log_size % 6) */
#define SM_LIST 8u       /* destinations and counters of one flow */
#define SM_MAX_TIRS 64u  /* STEER_MAX_TIRS (D-FT-20) */
#define SM_FRAME_SEL 16u /* the bytes of a frame's selectors (sm_frame) */
#define SM_FRAME_MAX 128u

struct sm_fte {
	bool valid;
	uint8_t group; /* slot */
	uint16_t action;
	uint32_t tag;
	uint8_t value[SM_KEY];
	uint8_t ndest, ncnt;
	uint8_t dtype[SM_LIST];
	uint32_t did[SM_LIST];
	uint32_t cnt[SM_LIST];
};

struct sm_table {
	bool live;
	uint32_t id;
	uint8_t type, level, log_size, miss_action;
	uint32_t miss_id;
	struct sm_fte fte[1u << SM_LOG_MAX];
};

struct sm_group {
	bool live;
	uint32_t id;
	uint8_t table; /* slot */
	uint32_t start, end;
	uint8_t mask[SM_KEY]; /* the criteria with the blocks match_criteria_enable leaves off 0 */
};

struct sm_counter {
	bool live;
	uint32_t id;
	uint64_t packets, octets;
};

struct steer_model {
	struct sm_table t[SM_TABLES];
	struct sm_group g[SM_GROUPS];
	struct sm_counter c[SM_COUNTERS];
	uint32_t root[2]; /* SET_FLOW_TABLE_ROOT's, 0 none */
	uint32_t tirs[4]; /* the target's TIRs, which a destination selector names (kept) */
	uint64_t cmds, ok; /* commands posted, completed OK */
};

/* What a frame meets (steer/steer.h's verdict, computed by the model). */
struct sm_verdict {
	unsigned action; /* enum steer_action: 0 DROP, 1 DEFAULT, 2 DELIVER */
	unsigned why;    /* enum steer_why */
	unsigned ntirs;
	uint32_t tirn[SM_MAX_TIRS], tag[SM_MAX_TIRS];
	uint64_t overflow; /* TIR copies beyond SM_MAX_TIRS */
};

/* The flow-table ops both targets share, their codes fixed (the targets' headers give the
 * operands). */
enum sm_op {
	SM_OP_CREATE_FT = 0x00,  /* type level log_size miss tsel(miss) */
	SM_OP_DESTROY_FT = 0x01, /* type tsel */
	SM_OP_CREATE_FG = 0x02,  /* type tsel start end enable fields:u32 partial */
	SM_OP_DESTROY_FG = 0x03, /* type tsel gsel */
	SM_OP_SET_FTE = 0x04,    /* type tsel index op_mod mask gsel action tag:u16 values:u32
				  * ndest (dsel)*8 ncnt (csel)*8 */
	SM_OP_DELETE_FTE = 0x05, /* type tsel index */
	SM_OP_ROOT = 0x06,       /* type tsel */
	SM_OP_MODIFY_FT = 0x07,  /* type tsel miss tsel(miss) */
	SM_OP_ALLOC_FC = 0x08,   /* (none) */
	SM_OP_DEALLOC_FC = 0x09, /* csel */
	SM_OP_QUERY_FC = 0x0A,   /* csel clear */
	SM_OP_COUNT = 0x0B
};

/* Runs flow-table op `op` (< SM_OP_COUNT) with its operands from r: the command through d,
 * the model updated when it completes with status OK. Returns the status, -1 when the command
 * did not complete (a finding for the caller). QUERY_FC compares what the device counted
 * with the model: *mismatch set when they differ. */
int sm_op(struct steer_model *m, struct refdrv *d, unsigned op, struct reader *r, bool *mismatch);

/* A frame from SM_FRAME_SEL selector bytes (read from r): its bytes into f (at most
 * SM_FRAME_MAX, at least 60) and the match key the harness reads in it. Returns its length;
 * *type is the table type the frame is classified through (the first selector's bit 7). */
size_t sm_frame(struct reader *r, uint8_t *f, uint8_t key[SM_KEY], unsigned *type);

/* The linear reference classifier. */
void sm_classify(struct steer_model *m, unsigned type, const uint8_t key[SM_KEY], uint32_t len,
		 struct sm_verdict *v);

/* Every live object of the model destroyed through d, in an order the device accepts; 0 when
 * the model is empty afterwards, -1 otherwise (an explicit root cannot be destroyed, D-FT-8:
 * the caller then resets the device). The model is cleared either way. */
int sm_teardown(struct steer_model *m, struct refdrv *d);
/* m as after sm_teardown (no flow object, the TIRs kept) without commands, for a device a
 * snapshot brought back: only the table slots that were used are cleared (m is 74 KB). */
void sm_clear(struct steer_model *m);

/* Every live flow counter of m queried through d (QUERY_FLOW_COUNTER, no clear): the device's
 * packets and octets are the model's, else property `prop` is broken (fuzz_property_failed).
 * Returns how many it queried (commands the device ran). */
unsigned sm_check_counters(const struct steer_model *m, struct refdrv *d, const char *prop);

/* The model's view of the name of a field of the menu, for messages. */
const char *sm_field_name(unsigned i);

#endif
