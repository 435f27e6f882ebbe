/* Reference-driver helpers for TISs, TIRs and RQTs (PRM §7.5-§7.8, §12.8, §12.9, §12.12), on
 * top of harness/driver.h. Each create runs through refdrv_cmd_paged (driver.h), so the
 * ICM pages a new context needs are given on demand (D-PG-4). Functions return the command
 * status (T128, 0 = OK) or -1 when the command did not complete (d->error). */
#ifndef NICREF_DRIVER_TIR_H
#define NICREF_DRIVER_TIR_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* TIS (T49/T50). */
int refdrv_create_tis(struct refdrv *d, uint32_t td, unsigned prio, uint32_t *tisn);
int refdrv_modify_tis_prio(struct refdrv *d, uint32_t tisn, unsigned prio);
int refdrv_destroy_tis(struct refdrv *d, uint32_t tisn);

/* TIR (T44-T47). Fields a dispatch type or hash function makes reserved are not written. */
struct refdrv_tir_attr {
	bool indirect;        /* disp_type 1: indirect_table and a hash; else inline_rqn */
	uint32_t inline_rqn;  /* Direct */
	uint32_t rqt;         /* Indirect: indirect_table */
	unsigned hash_fn;     /* 1 INVERTED_XOR8, 2 TOEPLITZ (Indirect) */
	bool symmetric;
	const uint8_t *toeplitz_key; /* 40 bytes (TOEPLITZ) */
	uint32_t sel_outer;   /* RX_HASH_FIELD_SELECT (T46) */
	uint32_t td;
	unsigned self_lb_en;  /* b0 unicast, b1 multicast */
	unsigned lro_enable_mask, lro_timeout_usecs, lro_max_msg_sz;
};
int refdrv_create_tir(struct refdrv *d, const struct refdrv_tir_attr *a, uint32_t *tirn);
/* MODIFY_TIR with the T48 bitmask `mask`, the groups taken from a. */
int refdrv_modify_tir(struct refdrv *d, uint32_t tirn, uint32_t mask,
		      const struct refdrv_tir_attr *a);
int refdrv_destroy_tir(struct refdrv *d, uint32_t tirn);

/* RQT (T58/T59): max_size entries, the list rq[0, n). */
int refdrv_create_rqt(struct refdrv *d, unsigned max_size, const uint32_t *rq, unsigned n,
		      uint32_t *rqtn);
int refdrv_modify_rqt(struct refdrv *d, uint32_t rqtn, const uint32_t *rq, unsigned n);
int refdrv_destroy_rqt(struct refdrv *d, uint32_t rqtn);

#endif
