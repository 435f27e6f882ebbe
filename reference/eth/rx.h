/* Private to libnicref: the Ethernet receive engine (PRM §7.3-§7.12, §3.3.7, §3.3.9-§3.3.10,
 * §3.4). Decisions D-RX-* are in docs/rx.md.
 *
 * A frame enters through nicref_wire_rx (a port) or the send path's loopback hook
 * (eth_state.rx_loopback, eth/tx_frame.c), and goes, one stage per file:
 *  - rx_wire.c   the entry: frame_in, the size checks (D-RX-5), the parse, the vport (below),
 *                NIC_RX steering, one copy per TIR the verdict names; the loopback hook;
 *  - rx_vport.c  vport acceptance (§7.3 T16, §12.16, D-RX-6);
 *  - rx_tir.c    the TIR (§7.5, §3.3.3, §3.4): the self-loopback filter, Direct (inline_rqn)
 *                or Indirect (the RSS hash, the RQT);
 *  - rx_rq.c     the RQ (§7.4.1.2, §7.4.4.3-§7.4.4.5, §7.7, §7.10): the WQE (own WQ or RMP),
 *                its signature, the scatter with VLAN stripping and padding;
 *  - rx_hdr.c    what the frame's headers make of the CQE (T68, T4);
 *  - rx_cqe.c    the responder CQE (T67/T68) and the completion with error (T73/T74);
 *  - rx_drop.c   every drop: its trace event and its counters, by one table (D-RX-8);
 *  - rx_state.c  the engine's state (eth_subsys.c creates it with the send engine's).
 * Nothing allocates per frame: the WQE buffer is sized at create from the capabilities, the
 * frame is scattered from where it lies (the stripped VLAN tag is skipped, not copied out). */
#ifndef NICREF_ETH_RX_H
#define NICREF_ETH_RX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/ctl_dev.h"
#include "eth/eth.h"
#include "eth/pkt_parse.h"
#include "eth/rss.h"
#include "steer/steer.h"

/* §3.3.8: 64 bytes on the wire with the FCS, 60 without (D-TX-2, D-RX-5). */
#define RX_MIN_FRAME 60u
/* The 802.1Q C-VLAN tag (§3.3.7: the tag VLAN stripping removes; D-RX-3). */
#define RX_CTAG_TPID 0x8100u
#define RX_TAG_AT 12u
#define RX_TAG_LEN 4u
/* The Null scatter entry (§7.4.1.2): byte_count 0 and this L_Key. */
#define RX_NULL_LKEY 0x100u

/* Why a frame, or one copy of it, was dropped (the rx_drop event's reason; D-RX-8). */
#define RX_DROP_REASONS(X)                                                                      \
	X(UNDERSIZE, 1)                                                                         \
	X(OVER_MTU, 2)                                                                          \
	X(VPORT_DOWN, 3)                                                                        \
	X(VPORT_FILTER, 4)                                                                      \
	X(STEERING, 5)                                                                          \
	X(SELF_LOOPBACK, 6)                                                                     \
	X(NO_DESTINATION, 7)                                                                    \
	X(RQ_NOT_RDY, 8)                                                                        \
	X(NO_WQE, 9)                                                                            \
	X(PORT_DOWN, 10)                                                                        \
	X(HALTED, 11)
enum rx_drop_reason {
#define RX_DROP_ENUM(id, v) RX_DROP_##id = v,
	RX_DROP_REASONS(RX_DROP_ENUM)
#undef RX_DROP_ENUM
};

/* One copy of a frame on its way to an RQ. */
struct rx_pkt {
	const uint8_t *frame;
	size_t len;
	const struct pkt_info *pi;  /* pkt_parse of frame, computed once per frame */
	unsigned port;              /* the local port it arrived on */
	uint32_t flow_tag;          /* the steering verdict's, for this copy (T68) */
	const struct eth_lb_frame *lb; /* from the send path's loopback, NULL from the wire */
	struct rss_result rss;      /* the TIR's hash (rx_tir.c), for the CQE */
};

/* What became of a copy. */
enum rx_outcome {
	RX_DELIVERED = 0, /* scattered, a responder CQE written (or the CQ took none: T68/§7.12.1) */
	RX_DROPPED = 1,   /* an rx_drop event says why */
	RX_ERROR = 2,     /* a completion with error; the RQ went to ERR */
};

struct lro_state;

/* The engine's state (rx_state.c), reached as eth_state.rx_state. */
struct rx_state {
	uint8_t *wqe;	     /* one receive WQE stride: 2^log_max_stride_sz_rq bytes */
	size_t wqe_cap;
	struct lro_state *lro; /* the LRO sessions (eth/lro.h) */
	uint64_t frames_in;  /* nicref_stats */
	uint64_t cqes, drops;
};

/* rx_state.c, for eth_subsys.c. */
struct rx_state *rx_create(struct nicref_dev *dev);
void rx_destroy(struct rx_state *rs);
void rx_reset(struct rx_state *rs);
int rx_check(const struct nicref_dev *dev, const struct rx_state *rs, char *buf, size_t len);
void rx_counters(const struct rx_state *rs, struct nicref_stats *out);
struct rx_state *rx_state_of(struct nicref_dev *dev); /* NULL without the eth row */

/* rx_wire.c: the send path's hook (eth_rx_loopback_fn). */
void rx_loopback(struct nicref_dev *dev, void *rx_state, const struct eth_lb_frame *f);

/* rx_vport.c: 0 when the vport takes the frame, else RX_DROP_VPORT_DOWN / _FILTER. */
enum rx_drop_reason rx_vport_accept(struct nicref_dev *dev, const uint8_t *frame, size_t len,
				    const struct pkt_info *pi);
/* The same, the destination address taken as the function's own when owned (the vlan list
 * still decides; D-ROCE-23: a RoCE frame to the MAC of its destination GID's entry). */
enum rx_drop_reason rx_vport_accept_owned(struct nicref_dev *dev, const uint8_t *frame,
					  size_t len, bool owned);

/* rx_tir.c: one copy to TIR tirn (the stage below steering; unit tests drive it directly). */
enum rx_outcome rx_deliver(struct nicref_dev *dev, uint32_t tirn, struct rx_pkt *p);
/* The same for a frame from the wire on port 1 with its parse and the verdict's flow tag. */
enum rx_outcome rx_deliver_tir(struct nicref_dev *dev, uint32_t tirn, const uint8_t *frame,
			       size_t len, const struct pkt_info *pi, uint32_t flow_tag);

/* rx_rq.c: one copy to RQ rqn (p->rss set by the TIR, zero for a Direct one). */
enum rx_outcome rx_deliver_rq(struct nicref_dev *dev, uint32_t rqn, struct rx_pkt *p);

/* rx_hdr.c: the CQE fields the frame's headers give (T68, T4; D-RX-3, D-RX-9, D-RX-10). */
struct rx_hdr {
	bool l2_ok, l3_ok, l4_ok, ip_frag, ip_ext_opts, cv;
	uint8_t l3_hdr_type, l4_hdr_type;
	uint8_t up, cfi;
	uint16_t vid;
	uint16_t checksum;
	bool strip_tag; /* the outermost tag is a C-VLAN: stripped unless vsd (§3.3.7) */
};
void rx_hdr_fields(const uint8_t *frame, size_t len, const struct pkt_info *pi,
		   struct rx_hdr *h);

/* rx_rq.c, in steps, for LRO (eth/lro.h, PRM §3.3.6.5): a frame placed in the RQ's next WQE
 * with its completion still to be written; more data appended to that WQE; the completion. */
struct rx_slot {
	struct rq *rq;
	uint32_t rqn;
	uint32_t index;       /* rq_dequeue's */
	uint32_t srqn;
	uint16_t wqe_counter;
	bool strip;           /* the frame's C-VLAN tag was stripped (§3.3.7) */
	size_t pad;           /* the start padding before the data (§3.3.9) */
	uint32_t byte_cnt;    /* the frame's bytes as scattered */
	struct rx_hdr h;      /* what its headers make of the CQE */
};
/* The LRO fields of a session's CQE (T68, T5; D-LRO-7). */
struct rx_lro_cqe {
	uint8_t num_seg, abrt, min_ttl;
	bool psh, ts_valid;
	uint16_t win;
	uint32_t ack, tsval, tsecr;
};
/* RX_DELIVERED: scattered, no CQE yet (*sl says where); RX_DROPPED; RX_ERROR: a completion
 * with error was written and the RQ went to ERR. */
enum rx_outcome rx_rq_place(struct nicref_dev *dev, uint32_t rqn, struct rx_pkt *p,
			    struct rx_slot *sl);
/* Writes n bytes at data position `at` of the slot's WQE (position 0: the frame's first byte,
 * after the start padding): 0, or the syndrome of the completion with error (nothing is
 * completed: the caller fails the slot). */
uint8_t rx_rq_append(struct nicref_dev *dev, const struct rx_slot *sl, size_t at,
		     const uint8_t *data, size_t n);
/* The responder CQE of the slot (with LRO fields when lro): 0, or -1 when the CQ took none (the
 * RQ then goes to ERR, unless rq_leaving: it is leaving RDY already). */
int rx_rq_complete(struct nicref_dev *dev, const struct rx_slot *sl, const struct rx_pkt *p,
		   const struct rx_lro_cqe *lro, bool rq_leaving);
/* The completion with error of the slot; the RQ goes to ERR. */
void rx_rq_fail(struct nicref_dev *dev, const struct rx_slot *sl, const struct rx_pkt *p,
		uint8_t syndrome);
/* The priority a frame is counted at (its outermost tag's PCP, 0 untagged): PPCNT per_prio. */
unsigned rx_frame_prio(const uint8_t *frame, size_t len);

/* rx_cqe.c. The responder CQE of a frame scattered into the WQE of counter wqe_counter. */
struct rx_done {
	struct rq *rq;
	uint32_t srqn;        /* the RMP's number for an RMP RQ, 0 otherwise (T67 srqn) */
	uint16_t wqe_counter; /* T68: rq_wqe_counter (cyclic) or the WQE index (linked list) */
	uint32_t byte_cnt;
	const struct rx_hdr *h;
	const struct rx_pkt *p;
	const struct rx_lro_cqe *lro; /* an LRO session's CQE (h carries its checksum and l4 type) */
};
/* 0, or -1 when the CQ took no CQE (the RQ then goes to ERR, §7.12.1). */
int rx_cqe_ok(struct nicref_dev *dev, const struct rx_done *d);
int rx_cqe_error(struct nicref_dev *dev, const struct rx_done *d, uint8_t syndrome);

/* rx_drop.c: one drop (the event, the counters of D-RX-8). */
void rx_drop(struct nicref_dev *dev, enum rx_drop_reason reason, uint32_t num,
	     const struct rx_pkt *p);
/* The frame as a destination cast, for the counters. */
enum port_cast rx_cast(const uint8_t *frame, size_t len);

#endif
