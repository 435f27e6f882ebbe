/* Private to libnicref: the RoCEv2 transport (beyond PRM Rev 0.40; docs/roce.md D-ROCE-*), the
 * contract between its parts.
 *
 * The layer sits above eth/ (reference/layers.txt): its row of the subsystem table
 * (roce_subsys.c, placed by device/device.c after eth's) hands the control plane two hooks
 * (cmd/ctl_dev.h struct dev_datapath): roce_rx, which eth/rx_wire.c calls for every frame of a
 * port after its checks (D-ROCE-1), and qp_run, which obj/sq_db.c calls for a send doorbell
 * that names a QP (D-ROCE-2). The control plane tells the layer about QP transitions through
 * dev_notify (DEV_NOTE_QP_MODIFY, DEV_NOTE_QP_DESTROY).
 *
 * The parts (one concern per file):
 *  - roce_pkt.c     parse (frame -> struct roce_pkt or a drop reason), classification;
 *  - roce_build.c   build (a QP, the BTH and extension headers, a payload -> one frame) and
 *                   send (the wire path of eth/: frame_out, loopback);
 *  - roce_icrc.c    the ICRC (nicref_roce_icrc);
 *  - roce_names.c   the opcode and drop-reason tables of nicref/roce.h;
 *  - roce_qp.c      struct roce_qp: made when a QP leaves RST, dropped at RST/DESTROY, O(1) by
 *                   QPN (struct qp.xport), the address path cache; QP errors and the flush;
 *  - roce_wqe.c     send WQEs of a QP (ctrl, raddr, datagram, data/inline segments), receive
 *                   WQEs (the QP's RQ or its SRQ/RMP), gather and scatter through MKeys;
 *  - roce_cqe.c     the QP's CQEs (mlx5 cqe64 for QPs; error syndromes MLX5_CQE_SYNDROME_*);
 *  - roce_ud.c      UD send and receive (DETH, Q_Key, the 40-byte GRH area);
 *  - roce_cc.c      ECN/CNP: the notification point and the reaction point;
 *  - roce_rx.c      the receive entry: parse, QP lookup, the common checks, then UD or RC;
 *  - roce_subsys.c  the row: state, hooks, tick (timers), counters, invariants;
 *  - rc.h, rc_*.c   the RC requester and responder (helper rocerc), entry points in rc.h. */
#ifndef NICREF_ROCE_ROCE_H
#define NICREF_ROCE_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/ctl_dev.h"
#include "nicref/roce.h"
#include "obj/wq.h"

struct roce_qp;
struct roce_pkt;

/* ---- PSN arithmetic (IBTA Vol. 1 §9.7.1: 24-bit, modulo 2^24) ------------------------------ */
#define ROCE_PSN_MASK 0xFFFFFFu
#define ROCE_PSN_HALF 0x800000u
static inline uint32_t roce_psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & ROCE_PSN_MASK;
}
/* a - b as a signed distance in (-2^23, 2^23]: < 0 when a is before b (IBTA §9.7.1: a PSN is
 * "ahead" within half the space). */
static inline int32_t roce_psn_diff(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & ROCE_PSN_MASK;
	return d >= ROCE_PSN_HALF ? (int32_t)d - (int32_t)(ROCE_PSN_MASK + 1) : (int32_t)d;
}
static inline bool roce_psn_before(uint32_t a, uint32_t b)
{
	return roce_psn_diff(a, b) < 0;
}

/* ---- Packets --------------------------------------------------------------------------------
 * One parsed RoCEv2 packet. IPv4 addresses are kept as IPv4-mapped IPv6 addresses
 * (::ffff:a.b.c.d), as the GID table holds them (D-ROCE-1). */
struct roce_pkt {
	unsigned port;
	const uint8_t *frame; /* the whole frame, for the UD GRH area */
	size_t frame_len;
	size_t l3_off;    /* the IP header's offset in the frame */
	uint8_t ipver;    /* 4 or 6 */
	uint8_t smac[6], dmac[6];
	uint8_t sip[16], dip[16];
	uint8_t dscp, ecn; /* the IP traffic class's two parts */
	uint8_t hop_limit; /* TTL for IPv4 */
	uint32_t flow_label;
	uint16_t udp_sport;
	/* BTH (IBTA §9.2). */
	uint8_t opcode;
	bool se, m, fecn, becn, ackreq;
	uint8_t padcnt, tver;
	uint16_t pkey;
	uint32_t dest_qp, psn;
	const struct nicref_roce_opcode_info *op; /* the row of the opcode (never NULL once parsed) */
	unsigned hdrs; /* NICREF_ROCE_H_* present (the opcode's) */
	/* The extension headers (valid when their bit is in hdrs). */
	uint64_t reth_va;
	uint32_t reth_rkey, reth_len;
	uint8_t aeth_syndrome;
	uint32_t aeth_msn;
	uint32_t deth_qkey, deth_src_qp;
	uint32_t imm;       /* ImmDt, big-endian value as carried */
	uint32_t ieth_rkey; /* IETH (parsed; SEND with invalidate is refused as not modelled) */
	/* The payload: after the headers, without the pad bytes and the ICRC. */
	const uint8_t *payload;
	uint32_t payload_len;
};

/* roce_pkt.c: what a frame is to the transport. */
#define ROCE_NOT_ROCE (-1) /* not IPv4/IPv6 + UDP to 4791: the Ethernet path's (D-ROCE-1) */
/* Parses a frame: ROCE_NOT_ROCE, 0 (p filled), or an enum nicref_roce_drop (> 0; p filled as
 * far as the parse got: dest_qp and psn once the BTH was read). check_icrc: whether a bad ICRC
 * is a drop (the fuzz twin turns it off). Does not look at QPs or GIDs. */
int roce_parse(const uint8_t *frame, size_t len, unsigned port, bool check_icrc,
	       struct roce_pkt *p);
/* roce_rx.c: the pre-filter of every frame from a port: false when roce_parse would call it
 * ROCE_NOT_ROCE; true with dip set as roce_parse sets it otherwise (no copy, no clearing). */
bool roce_rx_candidate(const uint8_t *frame, size_t len, uint8_t dip[16]);
/* Bytes of the headers after the UDP header for an opcode of the table: BTH + extensions. */
unsigned roce_hdr_len(unsigned opcode);

/* An address: the QP's primary path (cached at the transitions, from the qpc ads) or a UD WQE's
 * datagram segment. Resolved through the GID table to the source MAC/IP. */
struct roce_av {
	uint8_t rmac[6];
	uint8_t rgid[16];  /* IPv4-mapped for an IPv4 peer */
	uint8_t sgid_index;
	uint8_t tclass;    /* DSCP << 2 | ECN as sent */
	uint8_t hop_limit;
	uint32_t flow_label;
	uint16_t udp_sport; /* 0: the QP's entropy (D-ROCE-7) */
};

/* The headers of one packet to send (roce_build.c). What is not here comes from the QP: the
 * P_Key, TVer 0, the pad count (from the payload length), the addresses. */
struct roce_tx_hdr {
	uint8_t opcode;
	bool se, ackreq;
	uint32_t psn;
	uint32_t dest_qp;            /* the BTH's DestQP (RC: the QP's remote_qpn) */
	uint64_t reth_va;            /* for the opcodes with a RETH */
	uint32_t reth_rkey, reth_len;
	uint8_t aeth_syndrome;       /* for the opcodes with an AETH */
	uint32_t aeth_msn;
	uint32_t deth_qkey, deth_src_qp; /* UD */
	uint32_t imm;                /* ImmDt */
	const struct roce_av *av;    /* UD: the WQE's address vector; NULL: the QP's path */
};

/* Sends one packet of qp: builds the frame (Ethernet, VLAN when the GID entry has one, IPv4 or
 * IPv6 by the GID entry's type, UDP to 4791, BTH, the extensions, the payload, the pad, the
 * ICRC), emits roce_tx and puts it on the wire path (frame_out / loopback, as eth's frames).
 * 0 sent; -1 not sent (no GID entry, over the port MTU, the port down): counted as a drop of
 * the sender, never an error of the caller's QP. */
int roce_tx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_tx_hdr *h,
	    const uint8_t *payload, uint32_t len);
/* Whether gid is the address of a RoCEv2 entry of the port's GID table (D-ROCE-1). */
bool roce_gid_is_local(const struct nicref_dev *dev, unsigned port, const uint8_t gid[16]);
/* Whether such an entry holding gid has the frame's destination MAC (and VLAN where it names
 * one): the address the function gave for its GID, one of its own (D-ROCE-23). */
bool roce_gid_owns_dmac(const struct nicref_dev *dev, unsigned port, const uint8_t gid[16],
			const uint8_t *frame, size_t len);
/* The same without a QP (a CNP to a remote QP, D-ROCE-9): av and port give the addresses. */
int roce_tx_raw(struct nicref_dev *dev, unsigned port, uint16_t pkey, const struct roce_av *av,
		const struct roce_tx_hdr *h, const uint8_t *payload, uint32_t len);

/* ---- Send WQEs of a QP (roce_wqe.c) ---------------------------------------------------------
 * The public mlx5 layout: ctrl (T26, qpn in sq_number), then raddr (RDMA WRITE/READ) or the
 * datagram segment (UD), then data segments (T38) or one inline segment (T39). */
enum roce_wqe_op { /* mlx5 MLX5_OPCODE_* (qp.h) */
	ROCE_WQE_RDMA_WRITE = 0x08,
	ROCE_WQE_RDMA_WRITE_IMM = 0x09,
	ROCE_WQE_SEND = 0x0A,
	ROCE_WQE_SEND_IMM = 0x0B,
	ROCE_WQE_RDMA_READ = 0x10,
};
#define ROCE_WQE_MAX_SGE 30u /* 63 octwords less ctrl and raddr/datagram (3): the ds limit */
struct roce_sge {
	uint32_t lkey;
	uint64_t addr;
	uint32_t len;
};
struct roce_swqe {
	uint16_t index;      /* its first WQEBB (the ctrl's wqe_index) */
	uint8_t opcode;      /* enum roce_wqe_op */
	uint8_t ds;          /* octwords */
	uint8_t bbs;         /* WQEBBs it takes */
	uint8_t ce;          /* completion mode (enum wqe_ce in obj/wq.h, T26 CE) */
	bool se, fence;
	uint32_t imm;        /* ctrl 0Ch: immediate data for *_IMM */
	uint64_t raddr;      /* raddr segment */
	uint32_t rkey;
	struct roce_av av;   /* datagram segment (UD) */
	uint32_t ud_dqpn, ud_qkey;
	bool inline_data;    /* one inline segment: the bytes are in inl */
	uint32_t nsge;
	struct roce_sge sge[ROCE_WQE_MAX_SGE];
	uint32_t length;     /* total bytes (the sum of the segments, or the inline length) */
	uint8_t inl[ROCE_WQE_MAX_SGE * 16u + 12u];
};
/* Reads the WQE whose first WQEBB is `index` from the QP's SQ (host memory): 0, or the CQE
 * syndrome its completion with error carries (0x2 LOCAL_QP_OP_ERR for a malformed WQE, an
 * unknown opcode or one the QP's service does not take). */
uint8_t roce_sq_wqe(struct nicref_dev *dev, struct roce_qp *qp, uint16_t index,
		    struct roce_swqe *w);
/* Gathers bytes [off, off + len) of the WQE's message into dst through its L_Keys (local read,
 * the QP's PD): 0, or a syndrome (0x4 LOCAL_PROT_ERR, 0x1 LOCAL_LENGTH_ERR). */
uint8_t roce_gather(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_swqe *w,
		    uint32_t off, uint8_t *dst, uint32_t len);

/* A receive WQE, taken from the QP's RQ or its SRQ/RMP. */
struct roce_rwqe {
	uint32_t index;  /* its stride (wqe_counter of the CQE) */
	uint32_t nsge;
	struct roce_sge sge[ROCE_WQE_MAX_SGE];
	uint32_t length; /* bytes the scatter list holds */
	bool from_rmp;
};
/* Takes the next receive WQE: 0, -2 none posted (RC: RNR NAK; UD: dropped), -1 the RQ cannot
 * be read (a DMA error: the QP goes to ERR). The WQE is consumed: a duplicate never takes it
 * again (the responder keeps it while the message lasts). */
int roce_rq_take(struct nicref_dev *dev, struct roce_qp *qp, struct roce_rwqe *w);
/* Scatters len bytes to offset off of the receive WQE through its L_Keys (local write): 0, or a
 * syndrome (0x1 LOCAL_LENGTH_ERR beyond the list, 0x4 LOCAL_PROT_ERR). */
uint8_t roce_scatter(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_rwqe *w,
		     uint32_t off, const uint8_t *src, uint32_t len);
/* The responder's access to its memory through an R_Key (IBTA §9.7.4.1.4? §10.6.3): the MKey
 * with the remote right (MKEY_REMOTE_READ / MKEY_REMOTE_WRITE) and the QP's PD, bounds; then
 * the bytes read into buf (READ) or written from buf (WRITE). 0, or an enum mkey_err (< 0):
 * the responder NAKs Remote Access Error; > 0 a host memory error (Remote Operation Error). */
int roce_remote(struct nicref_dev *dev, struct roce_qp *qp, uint32_t rkey, uint64_t va,
		uint32_t len, unsigned access, uint8_t *buf);

/* ---- Completions (roce_cqe.c) ---------------------------------------------------------------
 * mlx5 cqe64 (Linux include/linux/mlx5/device.h struct mlx5_cqe64 / mlx5_err_cqe). */
enum roce_cqe_opcode { /* MLX5_CQE_* */
	ROCE_CQE_REQ = 0x0,
	ROCE_CQE_RESP_WR_IMM = 0x1,
	ROCE_CQE_RESP_SEND = 0x2,
	ROCE_CQE_RESP_SEND_IMM = 0x3,
	ROCE_CQE_REQ_ERR = 0xD,
	ROCE_CQE_RESP_ERR = 0xE,
};
enum roce_cqe_syndrome { /* MLX5_CQE_SYNDROME_* */
	ROCE_SYND_LOCAL_LENGTH_ERR = 0x01,
	ROCE_SYND_LOCAL_QP_OP_ERR = 0x02,
	ROCE_SYND_LOCAL_PROT_ERR = 0x04,
	ROCE_SYND_WR_FLUSH_ERR = 0x05,
	ROCE_SYND_BAD_RESP_ERR = 0x10,
	ROCE_SYND_LOCAL_ACCESS_ERR = 0x11,
	ROCE_SYND_REMOTE_INVAL_REQ_ERR = 0x12,
	ROCE_SYND_REMOTE_ACCESS_ERR = 0x13,
	ROCE_SYND_REMOTE_OP_ERR = 0x14,
	ROCE_SYND_TRANSPORT_RETRY_EXC_ERR = 0x15,
	ROCE_SYND_RNR_RETRY_EXC_ERR = 0x16,
	ROCE_SYND_REMOTE_ABORTED_ERR = 0x22,
};
struct roce_cqe {
	bool recv;            /* the receive CQ (cqn_rcv), else the send CQ (cqn_snd) */
	bool se;              /* T68 se: "This CQE cause EQE generation for solicited event" */
	uint8_t opcode;       /* enum roce_cqe_opcode */
	uint8_t syndrome;     /* error CQEs */
	uint8_t vendor_syndrome;
	uint8_t s_wqe_opcode; /* requester: the WQE's opcode (enum roce_wqe_op) */
	uint16_t wqe_counter; /* requester: the WQE's first WQEBB; responder: the receive WQE */
	uint32_t byte_cnt;    /* bytes received; a READ's bytes */
	uint32_t imm;         /* the immediate data (RESP_*_IMM) */
	uint32_t src_qp;      /* UD: the DETH source QP */
	bool grh;             /* UD: the GRH area holds a header (always for RoCEv2) */
	uint8_t l3_type;      /* UD: 1 IPv6, 2 IPv4 (MLX5_CQE_ROCE_L3_HEADER_TYPE_*) */
	uint16_t vlan;        /* UD: the frame's VLAN tag, when vlan_present */
	bool vlan_present;
};
/* Whether a send WQE completing with `syndrome` (0 success) under completion mode `ce` gets a
 * CQE (T26, wqe_ce_wants_cqe in obj/wq.h), after the WQE before it in the SQ (qp->sq_prev_err); records this one's outcome for the
 * next (D-ROCE-20). A CQE it asks for is solicited when ce is 11b. */
bool roce_sq_cqe_wanted(struct roce_qp *qp, uint8_t ce, uint8_t syndrome);
/* Writes the CQE to the QP's send or receive CQ (cq_post: owner, signature, events). A CQE
 * that cannot be written (overrun, CQ in error) puts the QP in ERR (the CQ rule of PRM
 * §7.12.1, D-ROCE-10). 0 written, -1 not. */
int roce_cqe(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_cqe *c);

/* ---- QPs (roce_qp.c) ------------------------------------------------------------------------ */
#define ROCE_OUTSTANDING_MAX 16u /* seed 004 L126-133 */

/* The transport state of one QP (D-ROCE-3). rc.h (rocerc) defines the RC parts. */
#include "roce/rc.h"

/* A work queue of the QP's buffer as the transport keeps it: its size (and the SQ's
 * counters); its pages, its place in the buffer and the doorbell record come from the QP's
 * context when a WQE is read (roce_qp_wq, D-ROCE-RC-24). */
struct roce_wq_size {
	uint8_t log_size;    /* 2^log_size strides */
	uint8_t log_stride;  /* stride = 2^log_stride bytes */
};
struct roce_sq {
	uint16_t sw_counter; /* the doorbell record's SQ counter as last read */
	uint16_t hw_counter; /* the next WQEBB the requester has not started */
	uint8_t log_size;    /* 2^log_size WQEBBs of 64 bytes */
};

/* 184 bytes (gcc and clang, x86-64; docs/roce.md "make bench", D-ROCE-RC-24): what the
 * context holds is read from it (the address path, the PD and CQs, the queues' places), not
 * kept twice; the RC and the UD parts share their room. */
struct roce_qp {
	struct qp *qp;      /* the control-plane object (obj/qp.h) */
	/* The QP's timer (requester retransmission, RNR; rocerc arms it): 0 disarmed. */
	uint64_t deadline_ns;
	/* ECN/CNP (roce_cc.c). */
	uint64_t np_last_cnp_ns; /* notification point: last CNP this QP caused (rate limit) */
	uint64_t rp_restore_ns;  /* when rp_limit goes back up (0: not reduced) */
	uint32_t tprev, tnext; /* on the armed list (a timer or rp_restore_ns set): the QPNs of
				* the neighbours, 0 none (QPN 0 is never a QP, D-QP-3) */
	uint32_t qpn;
	uint32_t remote_qpn;
	uint32_t rq_head;   /* the next receive WQE to take (own RQ) */
	uint16_t pkey;      /* the QP's partition key (D-ROCE-8) */
	uint16_t pmtu;      /* bytes: 256 << (qpc mtu - 1) */
	/* The work queues in the QP's buffer (qpc log_rq_size/stride, log_sq_size, the pas): the
	 * RQ first, the SQ after it (mlx5). sq.sw_counter: the SQ counter of the doorbell record
	 * as last read; sq.hw_counter: the next WQEBB the requester has not started;
	 * sq_head: the oldest WQEBB not completed (the flush starts there). */
	uint16_t sq_head;
	struct roce_sq sq;
	struct roce_wq_size rq;
	uint8_t st;         /* enum qp_st */
	uint8_t port;       /* primary_address_path vhca_port_num (1 when 0) */
	uint8_t state;      /* the QP state the transport last saw (enum qp_state) */
	uint8_t rp_limit;   /* reaction point: outstanding requests allowed now */
	bool np_sent_any : 1;
	bool armed : 1;
	/* In ERR with its own RQ: receive WQEs posted later are flushed at the next tick
	 * (D-ROCE-RC-28); keeps the QP on the armed list. (Bits: D-ROCE-RC-24's budget.) */
	bool rq_watch : 1;
	/* In the tick's queue of due timers (roce_qp_tick, D-ROCE-RC-30): tprev and tnext are
	 * its children there, off the armed list. */
	bool queued : 1;
	/* The send WQE completed last completed in error (T26 CE 01b; D-ROCE-20). */
	bool sq_prev_err : 1;
	union {
		struct { /* RC (st QP_ST_RC) */
			struct rc_req req;
			struct rc_resp resp;
		};
		struct { /* UD */
			uint32_t qkey;   /* the QP's Q_Key */
			uint32_t ud_psn; /* the PSN of the next packet (qpc next_send_psn at
					  * RTR2RTS) */
		};
	};
};

/* The QP's send (sq) or receive queue as struct wq for the WQ functions of obj/wq.h: the
 * pages and the doorbell record from the context, the counters from qp->sq / qp->rq. */
void roce_qp_wq(const struct roce_qp *qp, bool sq, struct wq *out);
/* The doorbell record's SQ (send) or RQ counter of the QP (wq_dbr_read): 0, or non-zero. */
int roce_qp_dbr(struct nicref_dev *dev, const struct roce_qp *qp, bool send, uint16_t *counter);
/* Reads bytes [off, off + len) of WQE index of the QP's SQ or RQ (wq_read): 0, or non-zero. */
int roce_qp_wq_read(struct nicref_dev *dev, const struct roce_qp *qp, bool sq, uint32_t index,
		    uint32_t off, void *buf, size_t len);
/* The primary address path of the context (INIT2RTR, RTS2RTS set it). */
void roce_qp_av(const struct roce_qp *qp, struct roce_av *av);
/* The UDP source port of the QP's packets: the path's, or the QP's entropy (D-ROCE-7). */
uint16_t roce_qp_sport(const struct roce_qp *qp);
/* The ADP mode a QP takes at RTS, shared by every QP that took the same (D-ROCE-RC-24): NULL
 * when out of memory. Each get is matched by a put when the QP's requester goes. */
const struct nicref_adp_mode *roce_adp_mode_get(struct nicref_dev *dev,
						const struct nicref_adp_mode *m);
void roce_adp_mode_put(struct nicref_dev *dev, const struct nicref_adp_mode *m);

/* The QP of number qpn with transport state, or NULL (O(1): the objects table). */
struct roce_qp *roce_qp_get(struct nicref_dev *dev, uint32_t qpn);
/* Arms (at_ns > 0) or disarms (0) the QP's one timer; tick calls rc_timer when it expires. */
void roce_timer_arm(struct nicref_dev *dev, struct roce_qp *qp, uint64_t at_ns);
/* Puts the QP in ERR (qp_state cause 1): its outstanding send WQEs from sq_head and its posted
 * receive WQEs complete with WR_FLUSH_ERR (the first error CQE is the caller's). */
void roce_qp_error(struct nicref_dev *dev, struct roce_qp *qp);
/* Completes what is outstanding with WR_FLUSH_ERR (a QP in ERR; also at each later doorbell). */
void roce_qp_flush(struct nicref_dev *dev, struct roce_qp *qp);
/* Completes the send WQEs from sq_head up to end (not included) with WR_FLUSH_ERR, in order,
 * moving sq_head past each: 0 when it reached end; -1 when it stopped at a WQE it could not
 * read or whose CQE the CQ refused (sq_head stays there: that WQE is not completed). */
int roce_sq_flush_to(struct nicref_dev *dev, struct roce_qp *qp, uint16_t end);
/* The outstanding-request limit in force (the profile's, or the reaction point's). */
unsigned roce_outstanding_limit(const struct nicref_dev *dev, const struct roce_qp *qp);
/* A responder NAK was sent (the roce_nak event and the counters; the packet is roce_tx's). */
void roce_nak_sent(struct nicref_dev *dev, struct roce_qp *qp, uint32_t psn, uint8_t syndrome);
/* A requester restarts (the roce_retx event, the counter; reason as the event's). */
void roce_retx(struct nicref_dev *dev, struct roce_qp *qp, uint32_t from_psn, unsigned reason);
/* An RNR NAK was received (the counter). */
void roce_rnr_nak_received(struct nicref_dev *dev, struct roce_qp *qp);
/* A packet was dropped (the roce_drop event and the counters). */
void roce_drop(struct nicref_dev *dev, unsigned port, enum nicref_roce_drop reason,
	       uint32_t qpn, uint32_t psn);

/* ---- ECN / CNP (roce_cc.c) ------------------------------------------------------------------ */
/* The notification point: a packet taken with ECN CE (11b) -> a CNP to its source QP, at most
 * one per the profile's interval per QP (D-ROCE-9). */
void roce_np_packet(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p);
/* The reaction point: a CNP for qp (seed 004 L137-143). */
void roce_rp_cnp(struct nicref_dev *dev, struct roce_qp *qp);
/* Virtual time: the reaction point's restore. */
void roce_rp_tick(struct nicref_dev *dev, struct roce_qp *qp);

/* ---- UD (roce_ud.c) ------------------------------------------------------------------------- */
/* Runs a UD QP's send WQEs up to the doorbell record. */
void roce_ud_run(struct nicref_dev *dev, struct roce_qp *qp);
/* A UD packet for qp (after the common checks). */
void roce_ud_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p);

/* The entries (roce_rx, qp_run, tick) bracket their work so loopback packets are delivered at
 * the end of the outermost one (D-ROCE-12). */
void roce_enter(struct nicref_dev *dev);
void roce_leave(struct nicref_dev *dev);
/* Every live roce_qp freed (teardown). */
void roce_qp_release_all(struct nicref_dev *dev);
/* The notes of obj/ (DEV_NOTE_QP_MODIFY, DEV_NOTE_QP_DESTROY, DEV_NOTE_OBJECTS_RELEASED). */
void roce_qp_notify(struct nicref_dev *dev, enum dev_note note, uint32_t qpn);
/* Virtual time: the QPs' timers and the reaction point (roce_qp.c). */
void roce_qp_tick(struct nicref_dev *dev);

/* ---- The layer's row (roce_subsys.c) -------------------------------------------------------- */
/* The counters of nicref_stats the layer keeps (since reset). */
struct roce_counters {
	uint64_t pkts_in, pkts_out;
	uint64_t drops[NICREF_ROCE_DROP_COUNT]; /* [0]: all reasons */
	uint64_t retransmits, naks_sent, rnr_naks_sent, rnr_naks_received;
	uint64_t cnps_sent, cnps_received, ecn_marked;
};
struct roce_state {
	uint8_t *frame;     /* scratch: the frame being built (one at a time; no allocation) */
	size_t frame_cap;
	uint8_t *msg;       /* scratch: a payload gathered or scattered (frame_cap bytes) */
	uint32_t armed;     /* the QPN of the first QP whose timer is armed (0 none) */
	struct roce_adp_mode *modes; /* the ADP modes QPs took (roce_adp_mode_get) */
	uint32_t nqps;      /* live struct roce_qp */
	/* Packets to a local GID (D-ROCE-12): queued, delivered by the outermost entry (a
	 * doorbell, a received frame, a tick) once its own work is done, so no packet is
	 * handled inside another's handling. lb holds [lb_head, lb_tail) as length-prefixed
	 * frames; depth counts the entries in progress. */
	uint8_t *lb;
	size_t lb_cap, lb_head, lb_tail;
	unsigned depth;
	bool check_icrc;    /* false only for the fuzz twin (nicref_roce_... test hook) */
	struct roce_counters cnt;
};
struct roce_state *roce_state_of(struct nicref_dev *dev);
struct roce_adp_mode;
/* dev->datapath.roce_rx: true when the transport took the frame (D-ROCE-1). */
bool roce_rx(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len);
/* dev->datapath.qp_run: a QP's send doorbell (D-ROCE-2). */
void roce_qp_run(struct nicref_dev *dev, struct qp *q, const struct sq_db *db, bool bf_ok);
/* The row (device/device.c places it after eth's). */
extern const struct dev_subsys roce_subsys;

#endif
