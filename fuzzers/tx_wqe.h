/* The tx target's WQEs (fuzzers/tx_wqe.c): TX_OP_WQE's, built segment by segment through the
 * segment layouts (§7.4.4.1, T25-T41) from the operands tx_fuzz.c's header documents, and
 * TX_OP_WQE_RAW's bytes with the fixes tx_ops.h lists; either is written at the SQ's producer
 * counter (refdrv_sq_write), not rung. A built WQE longer than ds can count (63 octowords) is
 * not written. Only the tx target uses it. */
#ifndef NICREF_FUZZ_TX_WQE_H
#define NICREF_FUZZ_TX_WQE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "driver_sq.h"
#include "fuzz_reader.h"

#define TX_DATA_BYTES 0x100000u    /* the data MKey's region (refdrv_sq_stack_defaults) */
#define TX_UMR_TAG 0xC3u           /* mkey[7:0] of the UMR MKey as made */
#define TX_WQE_LEN_MAX (63u * 16u) /* ds is 6 bits (T26) */

/* What the builders need of the target, which owns it. */
struct tx_wqe_env {
	/* Set once. */
	struct nicref_dev *dev;     /* the data region's host memory */
	struct refdrv *drv;         /* the reference driver, which posts the WQE */
	struct refdrv_sq_stack *st; /* its SQ stack: the SQ, its producer counter, the data MKey */
	uint64_t own_mac;           /* the vport's permanent address (a destination template) */
	/* Per input (the target sets them when an input starts). */
	uint32_t umr_key;           /* the UMR MKey's key as of now (tx_follow.c follows a UMR that
				     * changes its tag) */
	bool signature;             /* the SQ checks WQE signatures (TX_OP_SQ_CONFIG): the WQEs
				     * built are signed */
	uint64_t data_lo, data_hi;  /* the bytes of the data region written (the light restore
				     * zeroes them) */
};

/* TX_OP_WQE: kind:u8 ctrl:u8 and the kind's operands from r. */
void tx_wqe_build(struct tx_wqe_env *env, struct reader *r);
/* TX_OP_WQE_RAW: n:u8 flags:u8 and the bytes from r. */
void tx_wqe_raw(struct tx_wqe_env *env, struct reader *r);
/* n bytes at addr, in the data region, written and remembered (data_lo, data_hi). */
void tx_wqe_data_write(struct tx_wqe_env *env, uint64_t addr, const void *p, size_t n);

#endif
