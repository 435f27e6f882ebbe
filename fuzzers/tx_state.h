/* The tx target's state, which its files share: tx_fuzz.c (the ops, the bring-up and the
 * restores, the op loop) and tx_follow.c (the device followed from outside, the properties);
 * tx_wqe.c sees only its part (struct tx_wqe_env). Only the tx target uses it.
 *
 * It is one global, tx (tx_state.c), rather than a pointer handed around: the device's hooks
 * carry no context of the target's, and ASan checks every access through a pointer but not a
 * direct one to a global, which the hooks make on every DMA read, BAR write and event. */
#ifndef NICREF_FUZZ_TX_STATE_H
#define NICREF_FUZZ_TX_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "driver_sq.h"
#include "fuzz_oracle.h"
#include "tx_wqe.h"

#define TX_BF_AREA 0x800u /* the Blue Flame area of a UAR page (§7.2.2 T13) */
#define TX_BF_BYTES 0x800u

enum { TX_ST_RST = 0, TX_ST_RDY = 1, TX_ST_ERR = 3 }; /* the SQ's states (T63) */

/* Learnt once (the same after every reset). */
struct tx_known {
	uint32_t umr_index;
	unsigned oper_mtu, vport_mtu, max_mtu;
	bool pad, vport_up, wq_signature;
	unsigned vport_admin;
	uint64_t uar_off;
	unsigned bf_size;
};

/* What this input did to the stack (reset per input). */
struct tx_input {
	unsigned oper_mtu, vport_mtu;
	bool vport_up;
	bool cq_broken; /* the CQ refused a CQE (overrun, error): CQE accounting stops */
	uint8_t bf[TX_BF_BYTES]; /* the Blue Flame area of the SQ's UAR page as written */
	int ring_buf;         /* the buffer whose doorbell dword is being written */
	bool sq_touched;      /* the SQ was rung or changed state in this op */
	unsigned vport_admin; /* the vport's admin_state as last queried */
	/* What the next light restore puts back (light_restore; the data region written is in
	 * struct tx_wqe_env). */
	bool config_dirty;       /* the port's or the vport's MTU or state changed */
	bool umr_dirty;          /* a UMR of the UMR MKey ran */
	uint8_t bf_d0, bf_dirty; /* per buffer: dword 0 written / dwords written, not rung */
	/* Per Blue Flame register: its next posting goes to the odd buffer (§7.2.2.1, D-DB-4).
	 * Every doorbell rung on the register sets it to the buffer the ring did not use
	 * (tx_follow_bar_write); clear at the start of an input, as the device's page then is. */
	uint8_t bf_odd;
};

/* The target's state. */
struct tx_target {
	struct nicref_dev *dev;
	struct fuzz_oracle oracle;
	struct refdrv drv;
	struct refdrv_sq_stack st;
	struct tx_known k;
	struct tx_input in;
	struct tx_wqe_env w;   /* what the WQE builders use (its pointers into this) */
	unsigned op_no;        /* the op running, counted from 0 (findings name it) */
	const char *op_name;
};

extern struct tx_target tx;

/* The SQ ring's bytes. */
static inline uint32_t tx_ring_bytes(void)
{
	return 64u << tx.st.a.log_sq_size;
}

#endif
