/* Reference-driver helper: one receive stack, ready for frames from the wire (PRM §7.3-§7.12,
 * §3.3.6), on top of the send stack (driver_sq.h: PD, transport domain, UAR, EQ) and the queue,
 * TIR and steering helpers. Used by `nicref lro explain` (harness/lro_explain.c), the lro fuzz
 * target and the lro bench; the receive set-ups of rx_bench and rx_fuzz could use it too.
 *
 * What it builds, in this order: the send stack; an MKey with local write over the data region;
 * a CQ; a cyclic RQ of 2^log_rq WQEs of one scatter entry each (WQE slot i scatters into buffer
 * i of wqe_bytes bytes, so re-posting a slot is only the doorbell record), RST -> RDY, every
 * WQE posted; a Direct TIR to the RQ with the attribute's LRO settings; the vport promiscuous
 * (promisc_all, T16, when asked: a capture's frames are for any address); a NIC_RX root flow
 * table whose one entry forwards every frame to the TIR (§7.11).
 *
 * Re-posting: the device consumes the WQEs in order but an LRO session keeps its WQE until it
 * ends, so completions come back out of order. A slot goes back to the device only when every
 * WQE before it has completed (refdrv_rx_stack_done): the producer counter is the oldest WQE
 * not yet completed plus the ring size, so a WQE a session holds is never posted again. */
#ifndef NICREF_DRIVER_RXSTACK_H
#define NICREF_DRIVER_RXSTACK_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_rq.h"
#include "driver_sq.h"
#include "driver_tir.h"

#define REFDRV_RX_MAX_LOG_RQ 14u

struct refdrv_rx_stack_attr {
	unsigned log_rq;       /* 2^log_rq WQEs (at most REFDRV_RX_MAX_LOG_RQ) */
	uint32_t wqe_bytes;    /* the buffer of each WQE */
	unsigned log_cq;       /* 2^log_cq CQEs */
	bool vlan_strip_disable;
	bool promisc;          /* the vport takes every frame */
	bool flush_in_error_en;
	/* The TIR: its LRO fields (lro_enable_mask 0: no LRO); inline_rqn and td are filled. */
	struct refdrv_tir_attr tir;
	uint64_t mem;          /* CQ, RQ ring and doorbell records: 2^log_cq * 64 + 2^log_rq * 16
				* + 8 KB from here */
	uint64_t data;         /* the buffers: 2^log_rq * wqe_bytes from here */
};
/* A 256-WQE ring of 64 KB + 1 KB buffers, 2^10 CQEs, LRO off, promiscuous, placed clear of the
 * send stack's defaults. */
void refdrv_rx_stack_defaults(struct refdrv_rx_stack_attr *a);

struct refdrv_rx_stack {
	struct refdrv_rx_stack_attr a;
	struct refdrv_sq_stack sq;
	uint32_t mkey_index, lkey, rqn, tirn, ft, fg;
	struct refdrv_cq cq;
	struct refdrv_rq_ring ring;
	uint16_t head; /* the oldest WQE not completed */
	uint8_t done[(1u << REFDRV_RX_MAX_LOG_RQ) / 8]; /* completed slots at or after head */
};

/* Builds the stack. 0, or -1 with d->error naming the step. */
int refdrv_rx_stack_up(struct refdrv *d, const struct refdrv_rx_stack_attr *a,
		       struct refdrv_rx_stack *s);
/* The buffer of the WQE of this counter. */
uint64_t refdrv_rx_stack_buf(const struct refdrv_rx_stack *s, uint16_t wqe_counter);
/* The WQE of this counter completed (its CQE was polled): its slot, and every completed slot
 * after it, go back to the device. 0, or -1 (host memory). */
int refdrv_rx_stack_done(struct refdrv *d, struct refdrv_rx_stack *s, uint16_t wqe_counter);
/* The RQ to RST (from RDY or ERR; LRO sessions on it end first, with their CQEs, which the
 * caller polls before refdrv_rx_stack_recover). 0 or -1. */
int refdrv_rx_stack_stop(struct refdrv *d, struct refdrv_rx_stack *s);
/* After the RQ went to ERR or RST, and its CQEs were polled: RST, RDY again, the ring posted
 * again from counter 0. 0 or -1. */
int refdrv_rx_stack_recover(struct refdrv *d, struct refdrv_rx_stack *s);
/* MODIFY_TIR of the LRO group (T48 bit 0) to lro_enable_mask/timeout/max_msg_sz; s->a.tir
 * follows on success. */
int refdrv_rx_stack_modify_lro(struct refdrv *d, struct refdrv_rx_stack *s, unsigned enable_mask,
			       unsigned timeout_usecs, unsigned max_msg_sz);

/* The device's LRO capabilities (T147, QUERY_HCA_CAP of the per-protocol networking offloads,
 * current values). */
struct refdrv_lro_caps {
	bool lro_cap, psh_flag, time_stamp;
	unsigned max_msg_sz_mode, min_mss_size;
	uint32_t periods[4]; /* lro_timer_supported_periods, µs */
};
int refdrv_lro_caps_query(struct refdrv *d, struct refdrv_lro_caps *c);
/* The period a TIR asking for `want` µs runs with (T45 10h[27:12]: a period the device does not
 * support is "adjusted to the nearest timeout period which is < requested"); 0 when below the
 * smallest (LRO does not work on the TIR). */
unsigned refdrv_lro_period(const struct refdrv_lro_caps *c, unsigned want);

#endif
