/* Private to libnicref: the Ethernet send engine (PRM §7.4, §7.9, §7.12, §3.3, §3.4, §10.1.1).
 * Decisions D-TX-* are in docs/tx.md.
 *
 * An acted-on send doorbell reaches the engine through the data-path hook of cmd/ctl_dev.h
 * (obj/sq_db.c calls dev->datapath.sq_run). The engine runs the SQ's WQEs from the device's
 * counter to the doorbell record, one at a time and in order:
 *  - sq_exec.c    the loop: fetch (memory or Blue Flame), ctrl checks, the opcode table, the
 *                 completion, the advance of the counter;
 *  - wqe_ctrl.c   the ctrl segment (T26) and the signature (§9.2.3);
 *  - wqe_send.c   SEND and LSO (T27/T28, T41): inline headers, inline mode, the offloads;
 *  - wqe_gather.c the data segments (T38/T39) through the MKeys (obj/mkey.h);
 *  - wqe_umr.c    UMR (T31-T37, §10.1.1), applied by obj/mkey_umr.c;
 *  - tx_inline.c  the inline modes (§7.9.3.1);
 *  - tx_frame.c   each frame out: MTU, NIC_TX steering (tx_steer.c), loopback
 *                 (tx_loopback.c), the wire, the counters;
 *  - tx_cqe.c     requester CQEs and completions with error (§7.12);
 *  - eth_subsys.c the row of the subsystem table: scratch sized at create, reset, invariants,
 *                 counters, and the hook it sets.
 * No allocation per WQE or frame: the scratch buffers are made at create. */
#ifndef NICREF_ETH_ETH_H
#define NICREF_ETH_ETH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/ctl_dev.h"
#include "eth/tx_offload.h"

#define TX_OCTWORD 16u
#define TX_WQEBB 64u
/* max_wqe_sz_sq: 63 octowords, the 6-bit ds of T26 (core/caps_default.c). */
#define TX_WQE_MAX (63u * TX_OCTWORD)
/* The function's one port: an SQ transmits on local_port 1 (D-TX-7). */
#define TX_PORT 1u
/* §3.3.8: 64 bytes on the wire, FCS included; the model's frames carry no FCS (D-TX-2). */
#define TX_MIN_FRAME 60u

/* A frame looped back to the receive side (§3.4; D-TX-5): the receive path decides per TIR
 * (transport domain, self_lb_en). */
struct eth_lb_frame {
	const uint8_t *frame;
	size_t len;
	unsigned port;
	uint32_t sqn;
	uint32_t td;	/* the transport domain of the sending SQ's TIS */
	bool multicast; /* destination multicast or broadcast (self_lb_en bit 1, else bit 0) */
};
/* The receive path's entry for looped-back frames; NULL until the receive issue plugs in. */
typedef void (*eth_rx_loopback_fn)(struct nicref_dev *dev, void *rx_state,
				   const struct eth_lb_frame *f);

/* The engine's state: the eth row's (eth_subsys.c), reached as dev->datapath.state. */
struct eth_state {
	uint8_t *pkt;	/* the packet as the WQE describes it: inline headers, then the data */
	size_t pkt_cap; /* 2^max_lso_cap + the largest WQE (D-TX-11) */
	uint8_t *frame; /* tx_offload's scratch, where each frame is built */
	size_t frame_cap;
	uint8_t wqe[TX_WQE_MAX]; /* the WQE being executed */
	uint8_t mem[TX_WQE_MAX]; /* its memory copy, when the Blue Flame copy is executed */
	eth_rx_loopback_fn rx_loopback;
	void *rx_state;
	uint64_t wqes, frames, discards; /* since reset (nicref_stats) */
};

/* eth_snap.c: the row's snapshot hooks (core/subsys.h). */
int eth_snap_save(struct nicref_dev *dev, const void *state, void **blob);
void eth_snap_restore(struct nicref_dev *dev, void *state, const void *blob);
void eth_snap_free(void *blob);

/* One WQE being executed. */
struct tx_wqe {
	struct nicref_dev *dev;
	struct eth_state *es;
	struct sq *sq;
	const uint8_t *b; /* its ds * 16 bytes (16 for ds 0) */
	size_t len;
	uint16_t index; /* the WQEBB counter of its first WQEBB (T26 WQE Index) */
	uint8_t opcode;
	uint8_t ce, fm;
	bool se;
};

/* sq_exec.c: dev->datapath.sq_run. */
void eth_sq_run(struct nicref_dev *dev, struct sq *sq, const struct sq_db *db, bool bf_ok);

/* A driver violation about the WQE: argument sqn << 32 | low. */
void tx_violation(const struct tx_wqe *w, enum nicref_violation rule, uint64_t low);
uint32_t tx_be32(const uint8_t *p);

/* The WQE's checks and handlers: 0 when it completes, or the syndrome of its completion with
 * error (T74; D-TX-9). Each reports its driver violations. */
uint8_t wqe_ctrl_check(struct tx_wqe *w); /* wqe_ctrl.c */
uint8_t wqe_nop(struct tx_wqe *w);	  /* wqe_ctrl.c */
uint8_t wqe_send(struct tx_wqe *w);	  /* wqe_send.c: SEND and LSO */
uint8_t wqe_umr(struct tx_wqe *w);	  /* wqe_umr.c */

/* wqe_gather.c: the data segments from byte `off` of the WQE to its end, gathered to dst (cap
 * bytes): 0 with *got set, a syndrome (> 0), or TX_GATHER_TOO_LONG when they hold more than
 * cap bytes. */
#define TX_GATHER_TOO_LONG (-1)
int tx_gather(struct tx_wqe *w, size_t off, uint8_t *dst, size_t cap, size_t *got);

/* tx_inline.c: the inline mode the SQ's WQEs are held to (§7.9.3, T147 wqe_inline_mode), and
 * the inline header bytes that mode requires of this packet (§7.9.3.1). */
unsigned tx_inline_mode(const struct nicref_dev *dev, const struct sq *sq);
size_t tx_inline_required(const uint8_t *pkt, size_t len, unsigned mode);

/* tx_frame.c: tx_offload's emit (ctx: the struct tx_wqe), and a drop of `len` bytes. */
enum tx_discard_reason {
	TX_DISCARD_INLINE = 1,
	TX_DISCARD_MTU = 2,
	TX_DISCARD_VPORT_DOWN = 3,
	TX_DISCARD_STEERING = 4, /* a NIC_TX DROP flow (§7.11.4.2, D-TX-16) */
};
void tx_frame_emit(void *ctx, const uint8_t *frame, size_t len);
void tx_discard(struct tx_wqe *w, enum tx_discard_reason reason, size_t len);

/* tx_steer.c: false when the NIC_TX flow tables drop the frame (§7.11.4.2, D-TX-16). */
bool tx_steer_allows(struct nicref_dev *dev, const uint8_t *frame, size_t len);

/* tx_loopback.c (§3.4; D-TX-5). */
enum tx_lb { TX_LB_WIRE = 0, TX_LB_LOCAL = 1, TX_LB_BOTH = 2 };
enum tx_lb tx_loopback_decide(struct nicref_dev *dev, const uint8_t *frame, size_t len);

/* tx_cqe.c: the WQE's completion as its ce mode says (T26), then the advance of the SQ's
 * counter; an error puts the SQ in ERR (§7.12.1, §7.9.2). */
void tx_complete(struct tx_wqe *w, uint8_t syndrome, uint16_t bbs);

/* crc32.c: CRC-32 of the IEEE 802.3 FCS polynomial, reflected (zlib's crc32). */
uint32_t eth_crc32(const uint8_t *p, size_t n);
/* The same continued from the CRC of what came before (zlib crc32(crc, p, n)). */
uint32_t eth_crc32_update(uint32_t crc, const uint8_t *p, size_t n);
/* The same by the tables alone, whatever the CPU (the reference eth_crc32 is checked against). */
uint32_t eth_crc32_portable(const uint8_t *p, size_t n);

/* The eth row of the subsystem table (eth_subsys.c; device/device.c places it). */
extern const struct dev_subsys eth_subsys;

#endif
