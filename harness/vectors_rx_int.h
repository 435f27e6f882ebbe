/* Private to harness/vectors_rx*.c: the receive stack a group's rx_setup builds (its fixed
 * placement in host memory and the objects' numbers) and the readers the receive steps share.
 * The steps: vectors_rx.c (rx_setup, rq_post, rx_frame), vectors_rx_steer.c (steer,
 * flow_counters), vectors_rx_lro.c (modify_tir, destroy_tir, rq_state). docs/vectors.md "Receive path". */
#ifndef NICREF_VECTORS_RX_INT_H
#define NICREF_VECTORS_RX_INT_H

#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_rq.h"
#include "vectors_int.h"

/* Fixed placement (docs/vectors.md "Receive path"), clear of the send path's 0x30000000-
 * 0x3101007F and its data region at 0x40000000. */
#define RX_EQ_BUF 0x32000000ull
#define RX_CQ_BUF 0x32100000ull
#define RX_DBR 0x32FF0000ull      /* CQ record; RQ i's at +0x40 (i + 1); the RMP's at +0x1000 */
#define RX_RQ_BUF 0x33000000ull   /* + i * RX_RQ_SPAN */
#define RX_RQ_SPAN 0x100000ull
#define RX_RMP_BUF 0x34000000ull
#define RX_DATA_ADDR 0x50000000ull
#define RX_DATA_SIZE 0x100000ull
#define RX_MKEY_TAG 0xA5u          /* lkey = mkey_index << 8 | 0xA5 */
#define RX_EQ_LOG 6u
#define RX_USER_INDEX_BASE 0x100u  /* RQ i's user_index unless given */
#define NULL_LKEY 0x100u           /* §7.4.1.2 the Null entry */
#define MAX_RX_ENTRIES 32u         /* scatter entries of one rq_post (a 512-byte stride) */

struct rx_stack {
	uint32_t pd, td, uar, mkey_index, lkey, rmpn, rqtn;
	uint32_t all_ft;  /* the steer_all flow's table (its entry at index 0) */
	bool all_live;    /* that entry exists (destroy_tir deletes it first) */
	struct refdrv_eq eq;
	struct refdrv_cq cq;
	uint32_t rqn[VEC_RX_MAX_RQS], tirn[VEC_RX_MAX_TIRS];
	struct refdrv_rq_ring ring[VEC_RX_MAX_RQS], rmp_ring;
	uint32_t table_id[VEC_RX_MAX_NAMES], group_id[VEC_RX_MAX_NAMES],
		counter_id[VEC_RX_MAX_NAMES];
	uint8_t frame[MAX_TX_FRAME];
};

/* The stack of this run (allocated on first use). */
struct rx_stack *vec_rx_stack(struct run *r);
/* A number of obj under key, named "what.key" (or "key") in messages. */
int vec_rx_num_in(struct run *r, const char *what, const json_t *obj, const char *key,
		  unsigned bits, uint64_t dflt, uint64_t *out);
/* A command's status against the step's "status" comparator (default OK); vfail naming
 * `what` otherwise (vectors_rx_steer.c). */
void vec_rx_status(struct run *r, const char *what, const json_t *o, int st);
/* A TIR's LRO group (tirs[].lro, modify_tir.lro; vectors_rx_lro.c): the keys of obj o, their
 * defaults for those absent. 0, or -1 after vbad. */
int vec_rx_lro_values(struct run *r, const char *what, const json_t *o, struct vec_rx_lro *l);
/* An index below n into the list named `list`. */
int vec_rx_index_in(struct run *r, const char *field, const json_t *v, unsigned n,
		    const char *list, uint64_t *out);

#endif
