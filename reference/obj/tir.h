/* Private to libnicref: transport interface send and receive objects and RQ tables (PRM
 * §7.5-§7.8, §12.8, §12.9, §12.12). Owned by obj/tis.c, tir.c, rqt.c. Decisions: docs/tir.md.
 *
 * What the rest of the model may use: the objects below, looked up with obj_get (OBJ_TIS,
 * OBJ_TIR, OBJ_RQT), and rqt_entry for the RQ an RSS hash selects. The references they hold
 * (D-OBJ-1): a TIS names its transport domain; a TIR its transport domain and either its
 * inline RQ (Direct) or its RQT (Indirect); an RQT each RQ of its list, once per entry
 * (D-RQT-2). */
#ifndef NICREF_OBJ_TIR_H
#define NICREF_OBJ_TIR_H

#include <stdbool.h>
#include <stdint.h>

#include "obj/obj.h"

struct nicref_dev;

int tir_dev_init(struct nicref_dev *dev);
void tir_dev_fini(struct nicref_dev *dev);
void tir_dev_reset(struct nicref_dev *dev); /* destroys every TIR, RQT and TIS */

/* TIS context (T49/T50). */
struct tis {
	struct obj_hdr hdr; /* refs: the SQs naming it (SQC tis_num_0) */
	uint8_t prio;       /* 00h[19:16]: the Ethernet priority is prio[3:1] (D-TIS-3) */
	uint32_t td;        /* 24h[23:0] */
};

/* TIR context (T44/T45). Fields a setting makes reserved are kept 0 (D-TIR-3). */
enum tir_disp { TIR_DIRECT = 0, TIR_INDIRECT = 1 };
enum tir_hash { TIR_HASH_NONE = 0, TIR_HASH_XOR8 = 1, TIR_HASH_TOEPLITZ = 2 };
struct tir {
	struct obj_hdr hdr; /* refs: flow table entries naming it (D-TIR-1) */
	uint8_t disp_type;
	uint8_t lro_enable_mask;      /* 10h[11:8] b0 IPv4, b1 IPv6 */
	uint8_t lro_max_msg_sz;       /* 10h[7:0], 256-byte units */
	uint16_t lro_timeout;         /* 10h[27:12] as requested */
	uint16_t lro_timeout_eff;     /* the supported period in force (QUERY_TIR, D-TIR-4) */
	uint32_t inline_rqn;          /* 1Ch, Direct */
	uint32_t indirect_table;      /* 20h[23:0], Indirect */
	bool rx_hash_symmetric;       /* 20h[31] */
	bool tunneled_offload_en;     /* 20h[29] (D-TIR-2) */
	uint8_t rx_hash_fn;           /* 24h[31:28] */
	uint8_t self_lb_en;           /* 24h[25:24] b0 unicast, b1 multicast */
	uint32_t td;                  /* 24h[23:0] */
	uint8_t toeplitz_key[40];     /* 28h-4Fh, byte 28h first */
	uint32_t sel_outer, sel_inner; /* 50h, 54h (T46) */
};

/* RQT context (T58/T59): rq[0, actual_size) are live; max_size entries are held. */
struct rqt {
	struct obj_hdr hdr; /* refs: the Indirect TIRs naming it */
	uint16_t max_size, actual_size;
	uint32_t rq[];
};

/* The RQN of entry i of an RQT (i taken modulo rqt_actual_size, D-RSS-1). */
static inline uint32_t rqt_entry(const struct rqt *t, uint32_t i)
{
	return t->rq[i & (uint32_t)(t->actual_size - 1)];
}

/* Family internals shared by tis.c, tir.c and rqt.c. */
void tis_dev_reset(struct nicref_dev *dev);
void rqt_dev_reset(struct nicref_dev *dev);
void tis_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
void rqt_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);

#endif
