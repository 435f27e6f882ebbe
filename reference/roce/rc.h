/* Private to libnicref: the RC transport of RoCEv2 (issue 17 stage 2; docs/roce.md "RC
 * transport", D-ROCE-RC-*): the requester (rc_req*.c) and the responder (rc_resp*.c) of the
 * InfiniBand Reliable Connection service, IBTA Vol. 1 ch. 9 (§9.7 reliable service), as the
 * RoCEv2 annex (Vol. 1 Annex A17) carries it over UDP, and the seed-004 engine's RC_CHK rules
 * ([S004] seed 004 "RDMA engine" note, by line).
 *
 * The two state machines are pure: they read no clock (times are arguments), touch no memory
 * of the device and know no frame layout. What they need from the device (a send WQE, a packet
 * out, a placement, a completion) goes through a table of callbacks (struct rc_req_ops,
 * struct rc_resp_ops) that the device glue (rc_dev*.c) fills with the transport's functions
 * and the unit tests with a model SQ/RQ and memory. D-ROCE-3: the requester keeps no copy of
 * what it sent: a retransmission re-reads the WQE from the SQ in host memory; the QP keeps
 * PSNs, the oldest unacknowledged WQE's index and first PSN, and counters. */
#ifndef NICREF_ROCE_RC_H
#define NICREF_ROCE_RC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/adp.h"

/* ---- PSN arithmetic (IBTA Vol. 1 §9.7.1: 24-bit PSNs, compared in a half window) ---------- */
#define RC_PSN_MASK 0xFFFFFFu
#define RC_PSN_HALF 0x800000u /* 2^23: the PSNs a requester may have outstanding */
static inline uint32_t rc_psn_add(uint32_t a, uint32_t n)
{
	return (a + n) & RC_PSN_MASK;
}
/* a - b as a signed 24-bit distance: > 0 when a is later than b. */
static inline int32_t rc_psn_diff(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & RC_PSN_MASK;
	return (d & RC_PSN_HALF) ? (int32_t)d - 0x1000000 : (int32_t)d;
}

/* ---- BTH opcodes of the RC service (IBTA Vol. 1 §9.2 Table 38 "OpCode field") ------------ */
enum rc_bth_op {
	RC_BTH_SEND_FIRST = 0x00,
	RC_BTH_SEND_MIDDLE = 0x01,
	RC_BTH_SEND_LAST = 0x02,
	RC_BTH_SEND_LAST_IMM = 0x03,
	RC_BTH_SEND_ONLY = 0x04,
	RC_BTH_SEND_ONLY_IMM = 0x05,
	RC_BTH_WRITE_FIRST = 0x06,
	RC_BTH_WRITE_MIDDLE = 0x07,
	RC_BTH_WRITE_LAST = 0x08,
	RC_BTH_WRITE_LAST_IMM = 0x09,
	RC_BTH_WRITE_ONLY = 0x0A,
	RC_BTH_WRITE_ONLY_IMM = 0x0B,
	RC_BTH_READ_REQUEST = 0x0C,
	RC_BTH_READ_RESP_FIRST = 0x0D,
	RC_BTH_READ_RESP_MIDDLE = 0x0E,
	RC_BTH_READ_RESP_LAST = 0x0F,
	RC_BTH_READ_RESP_ONLY = 0x10,
	RC_BTH_ACK = 0x11,
};

/* ---- Messages and their packets ------------------------------------------------------------- */
/* The RC operations the requester runs (the item 3). */
enum rc_msg { RC_MSG_SEND, RC_MSG_SEND_IMM, RC_MSG_WRITE, RC_MSG_WRITE_IMM, RC_MSG_READ, RC_MSG_NONE };
/* The message kind of an mlx5 send opcode (Linux mlx5 MLX5_OPCODE_*: SEND 0x0A, SEND_IMM 0x0B,
 * RDMA_WRITE 0x08, RDMA_WRITE_IMM 0x09, RDMA_READ 0x10), RC_MSG_NONE for any other. */
enum rc_msg rc_msg_of_mlx5(uint8_t opcode);
const char *rc_msg_name(enum rc_msg m);
/* Where a packet sits in its message (IBTA §9.7.2: FIRST, MIDDLE, LAST, ONLY). */
enum rc_pos { RC_POS_FIRST, RC_POS_MIDDLE, RC_POS_LAST, RC_POS_ONLY };

/* What a BTH opcode is to the RC transport: -1 message kind when it is not an RC request or
 * response of the table. */
struct rc_op_info {
	int8_t msg;       /* enum rc_msg of a request; RC_MSG_READ for read responses */
	uint8_t pos;      /* enum rc_pos */
	bool reth, imm, aeth, resp;
};
/* The opcode's row, or NULL when the opcode is none of the RC requests and responses. */
const struct rc_op_info *rc_op_info(uint8_t opcode);

/* Packets of a message of len bytes at path MTU pmtu (IBTA §9.7.2: FIRST and MIDDLE carry
 * exactly the MTU, a zero-length message is one ONLY packet). */
uint32_t rc_npkts(uint32_t len, uint32_t pmtu);
/* The k-th packet (0-based) of a request message (not READ: its request is one packet). */
struct rc_seg {
	uint8_t opcode; /* enum rc_bth_op */
	uint8_t pos;    /* enum rc_pos */
	bool reth, imm, ackreq;
	uint32_t off, len; /* payload: bytes [off, off + len) of the message */
};
/* The AckReq policy (D-ROCE-RC-3): the last packet of a message and every RC_ACKREQ_EVERY-th
 * packet of a message ask for an acknowledgement. */
#define RC_ACKREQ_EVERY 8u
void rc_seg_of(enum rc_msg m, uint32_t len, uint32_t pmtu, uint32_t k, struct rc_seg *out);
/* The READ response opcode of response k of n (IBTA §9.7.2). */
uint8_t rc_read_resp_op(uint32_t k, uint32_t n);

/* ---- AETH (IBTA Vol. 1 §9.3.5; the syndrome encoding of §9.7.5.2: ACK, RNR NAK, NAK) ------ */
enum rc_aeth_kind { RC_AETH_ACK = 0, RC_AETH_RNR = 1, RC_AETH_RESERVED = 2, RC_AETH_NAK = 3 };
enum rc_nak_code {
	RC_NAK_PSN_SEQ = 0,
	RC_NAK_INV_REQ = 1,
	RC_NAK_REM_ACCESS = 2,
	RC_NAK_REM_OP = 3,
	RC_NAK_INV_RD_REQ = 4,
};
#define RC_AETH_CREDIT_INVALID 0x1Fu /* end-to-end credits not used (D-ROCE-RC-8) */
static inline uint8_t rc_aeth_syn(enum rc_aeth_kind k, unsigned v)
{
	return (uint8_t)(((unsigned)k & 3u) << 5 | (v & 0x1Fu));
}
static inline enum rc_aeth_kind rc_aeth_kind_of(uint8_t syn)
{
	return (enum rc_aeth_kind)(syn >> 5 & 3u);
}
/* IBTA Vol. 1 Table 45 "Encoding for RNR NAK timer field": the RNR wait of a 5-bit
 * code in ns (code 0 is 655.36 ms). */
uint64_t rc_rnr_timer_ns(unsigned code);

/* ---- mlx5 CQE error syndromes (Linux include/linux/mlx5/cq.h / rdma-core mlx5dv.h
 * MLX5_CQE_SYNDROME_*) the RC transport writes ------------------------------------------- */
enum rc_cqe_syn {
	RC_SYN_OK = 0x00,
	RC_SYN_LOCAL_LENGTH = 0x01,
	RC_SYN_LOCAL_QP_OP = 0x02,
	RC_SYN_LOCAL_PROT = 0x04,
	RC_SYN_WR_FLUSH = 0x05,
	RC_SYN_BAD_RESP = 0x10,
	RC_SYN_LOCAL_ACCESS = 0x11,
	RC_SYN_REMOTE_INVAL_REQ = 0x12,
	RC_SYN_REMOTE_ACCESS = 0x13,
	RC_SYN_REMOTE_OP = 0x14,
	RC_SYN_RETRY_EXC = 0x15,
	RC_SYN_RNR_RETRY_EXC = 0x16,
};

/* ---- Requester ------------------------------------------------------------------------------ */
/* A send WQE as the requester needs it (the glue parses ctrl, raddr and data segments). */
struct rc_wqe {
	uint8_t msg;       /* enum rc_msg */
	uint8_t ce;        /* ctrl CE (PRM §7.4.4.1 T26; the glue reads it: D-ROCE-20) */
	bool se;           /* solicited event (BTH SE on the last packet) */
	uint32_t len;      /* message bytes: the gather list's sum (or the inline data) */
	uint64_t va;       /* raddr (WRITE, READ) */
	uint32_t rkey;
	uint32_t imm;      /* immediate data (SEND_IMM, WRITE_IMM), as the WQE carries it */
	uint8_t bbs;       /* WQEBBs the WQE takes: the next one's index is idx + bbs (0 as 1) */
};

/* One request packet to build: the BTH fields, the extension headers and where its payload
 * comes from (bytes [off, off + len) of WQE `wqe`'s gather list). */
struct rc_tx {
	uint8_t opcode;
	bool ackreq, se, reth, imm;
	uint16_t wqe;
	uint32_t psn;
	uint32_t off, len;
	uint64_t va;        /* RETH */
	uint32_t rkey, dma_len;
	uint32_t imm_data;
};

/* Why the requester goes back: the values are the roce_retx event's reasons (nicref/trace.h),
 * which the glue passes on as they are. 0 the ACK timer; 1 a NAK PSN Sequence Error; 2 the end
 * of an RNR wait; 3 an implied NAK: lost READ responses, shown by a READ response after a
 * missing one or an ACK beyond a READ whose responses are missing (IBTA Vol. 1 §9.7.4.1.4;
 * D-ROCE-RC-26). */
enum rc_retx_reason { RC_RETX_TIMEOUT = 0, RC_RETX_NAK_SEQ = 1, RC_RETX_RNR = 2, RC_RETX_READ_GAP = 3 };

struct rc_req_ops {
	/* Reads send WQE idx (16-bit counter) into *w: 0, or an mlx5 error syndrome (a WQE the
	 * transport cannot run: RC_SYN_LOCAL_QP_OP). */
	int (*wqe)(void *ctx, uint16_t idx, struct rc_wqe *w);
	/* Builds and sends one request packet: 0, or the syndrome of a gather that failed
	 * (RC_SYN_LOCAL_PROT, RC_SYN_LOCAL_LENGTH): the WQE fails. A packet the wire path
	 * cannot send is not the QP's error: 0 (the timer recovers). */
	int (*emit)(void *ctx, const struct rc_tx *t);
	/* READ response payload into the WQE's scatter list at byte off: 0, or an error
	 * syndrome (RC_SYN_LOCAL_PROT, RC_SYN_LOCAL_LENGTH). */
	int (*scatter)(void *ctx, uint16_t idx, uint32_t off, const uint8_t *data, uint32_t len);
	/* WQE idx completed successfully (the glue writes a CQE when it is signalled). */
	void (*done)(void *ctx, uint16_t idx, const struct rc_wqe *w);
	/* WQE idx failed with syndrome: error CQE, the QP to ERR, the rest flushed. idx may lie
	 * after the oldest WQE not completed (a fatal NAK after a READ whose responses are
	 * missing, D-ROCE-RC-27): the glue flushes the WQEs before it first, in order. */
	void (*fail)(void *ctx, uint16_t idx, uint8_t syndrome);
	/* A go-back-N from psn (trace, counters). */
	void (*retx)(void *ctx, uint32_t psn, enum rc_retx_reason why);
	/* An ACK timer expiry was judged (ADP counters, D-ADP-18). */
	void (*timeout)(void *ctx, const struct nicref_adp_qp *adp, bool retransmitted);
};

enum rc_req_state {
	RC_REQ_OFF = 0,  /* not in RTS: sends nothing */
	RC_REQ_RUN = 1,
	RC_REQ_RNR = 2,  /* waiting out an RNR NAK's timer */
	RC_REQ_ERR = 3,  /* a WQE failed: nothing more until the QP is reset */
};

/* The ADP engine's per-QP state without its copy of the mode (struct nicref_adp_qp up to
 * `mode`, its last member): the requester keeps these bytes and a pointer to the mode, which
 * the device keeps once for all the QPs that took it (roce_qp.c, D-ROCE-RC-24); rc_req.c puts
 * the two together for each call of the engine. */
#define RC_ADP_BYTES offsetof(struct nicref_adp_qp, mode)

/* D-ROCE-RC-1, D-ROCE-RC-24: 72 bytes (gcc and clang, x86-64); every field at the width its
 * values need. */
struct rc_req {
	const struct nicref_adp_mode *mode; /* the ADP mode the QP took at RTS (not owned) */
	uint64_t deadline_ns; /* the ACK timer, or in RC_REQ_RNR the RNR wait (virtual ns);
			       * 0 disarmed */
	uint32_t npsn;       /* PSN of the next packet */
	uint32_t hpsn;       /* PSN after the last one ever sent: npsn before it while going
			      * back; responses up to it are awaited (D-ROCE-RC-21) */
	uint32_t una_psn;    /* oldest unacknowledged PSN (npsn when nothing is outstanding) */
	uint32_t una_wqe_psn; /* first PSN of WQE una */
	uint32_t next_pkt;   /* PSNs of WQE next already sent (a message stopped part way) */
	uint16_t una;        /* oldest WQE not completed (its first WQEBB) */
	uint16_t next;       /* the WQE being sent, or the next one to start */
	uint16_t pi;         /* WQEBBs posted (the doorbell record's counter) */
	uint16_t nout;       /* messages outstanding: started (a packet sent) and not completed */
	uint16_t pmtu;       /* path MTU in bytes */
	uint8_t state;       /* enum rc_req_state */
	uint8_t limit;       /* outstanding messages allowed, 0 none (profile; CNP reaction) */
	uint8_t rnr_retry;   /* the QP's rnr_retry (7 = infinite, IBTA §9.7.5.2) */
	uint8_t rnr_left;
	bool acked_any;      /* some PSN was acknowledged: an ACK of una_psn - 1 is a duplicate
			      * ACK, not a ghost (D-ROCE-RC-6) */
	bool retry_latch;    /* a NAK sequence error or a READ gap started a go-back: the same
			      * loss shown again starts no other until progress or a timeout
			      * (D-ROCE-RC-22) */
	uint8_t adp[RC_ADP_BYTES]; /* the ACK timer's engine state (up to its mode) */
};

/* The QP enters RTS (IBTA §10.3.1): sq_psn, the counters of the QP, the ADP mode and the
 * initial draw (nicref_adp_qp_init). */
struct rc_req_attr {
	uint32_t sq_psn;
	uint16_t pmtu;
	uint8_t rnr_retry;
	uint8_t limit;
	uint16_t sq_head; /* the WQE counter the first message will take */
};
/* mode must outlive the requester's use of it (the device's shared copy, or a test's). */
void rc_req_init(struct rc_req *q, const struct rc_req_attr *a, const struct nicref_adp_mode *mode,
		 const struct nicref_adp_qp_attr *adp_attr, uint64_t now_ns, uint64_t random);
/* The ADP engine's per-QP state as the engine's API has it (mode included). */
void rc_req_adp(const struct rc_req *q, struct nicref_adp_qp *out);
/* Messages started (some packet sent) and not completed (D-ROCE-RC-4). */
unsigned rc_req_outstanding(const struct rc_req *q);
/* Sends what the doorbell, the window and the state allow. */
void rc_req_run(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t now_ns);
/* An acknowledgement or a READ response for this QP (a parsed packet): true when the requester
 * took it, false for a response nothing waits for (a ghost, a duplicate, one out of place:
 * D-ROCE-RC-6), which the device counts as a response_unexpected drop. */
struct rc_pkt;
bool rc_req_rx(struct rc_req *q, const struct rc_pkt *p, const struct rc_req_ops *ops, void *ctx,
	       uint64_t now_ns);
/* Time moved to now: the ACK timer or the RNR wait, when due (one expiry per call,
 * D-ROCE-RC-19). */
void rc_req_tick(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t now_ns);
/* The earliest deadline the requester waits for (0 none). */
uint64_t rc_req_deadline(const struct rc_req *q);

/* ---- A parsed packet as the RC transport reads it ------------------------------------------- */
struct rc_pkt {
	uint8_t opcode;
	bool se, ackreq;
	uint16_t pkey;
	uint32_t psn;
	bool has_reth, has_aeth, has_imm;
	uint64_t va;
	uint32_t rkey, dma_len;
	uint8_t syndrome; /* AETH */
	uint32_t msn;
	uint32_t imm;
	const uint8_t *payload;
	uint32_t len;
};

/* ---- Responder ------------------------------------------------------------------------------ */
/* The checks of an arriving request (D-ROCE-RC-10: the order is the profile's). */
enum rc_chk {
	RC_CHK_OPCODE,  /* an RC request the responder runs (seed004: Send, Write) */
	RC_CHK_LENGTH,  /* payload length against the MTU and the position */
	RC_CHK_PKEY,
	RC_CHK_DESTQP,  /* the QP receives: RTR or RTS */
	RC_CHK_RQ,      /* a receive WQE for a message that takes one, else RNR NAK */
	RC_CHK_RKEY,    /* R_Key, PD, range, remote rights (RETH) */
	RC_CHK_CQ,      /* the receive CQ can take a completion */
	RC_CHK_PSN,     /* valid, duplicate or out of sequence */
	RC_CHK_SEQ,     /* the opcode follows the message in progress */
	RC_CHK_COUNT
};
const char *rc_chk_name(enum rc_chk c);
const char *rc_chk_citation(enum rc_chk c);

/* What the responder did with a packet (returned, for tests and counters). */
enum rc_verdict {
	RC_V_OK,        /* executed (placed, answered) */
	RC_V_DROP,      /* silently dropped */
	RC_V_DUP,       /* a duplicate: answered again, nothing placed */
	RC_V_NAK_SEQ,   /* out of sequence: NAK sent (or latched) */
	RC_V_RNR,       /* RNR NAK */
	RC_V_NAK_INV,   /* NAK invalid request; QP to ERR */
	RC_V_NAK_ACC,   /* NAK remote access error; QP to ERR */
	RC_V_NAK_OP,    /* NAK remote operational error; QP to ERR */
	RC_V_FATAL,     /* a local fatal error (CQ overflow, host write): QP to ERR, no NAK */
	RC_V_COUNT
};
const char *rc_verdict_name(enum rc_verdict v);

/* Receive WQE room and the QP's rights as the checks read them. */
struct rc_resp_env {
	uint16_t pmtu;
	uint16_t pkey;      /* the QP's P_Key (table index 0, D-QP-9) */
	bool receives;      /* RTR or RTS */
	bool rwe, rre;      /* remote write / read enabled (qpc) */
	bool seed004;       /* profile: check order and P_Key rule */
	uint8_t min_rnr;    /* qpc min_rnr_nak, the RNR NAK timer code */
};

/* The receive WQE a message holds: taken from the RQ (or the RMP) by the message's first packet
 * (SEND) or its last (WRITE with immediate), kept by index while the message lasts. */
struct rc_rwqe_ref {
	uint32_t index;  /* the WQE's index in its queue (wqe_counter of the completion) */
	uint32_t room;   /* bytes its scatter list holds */
	bool rmp;        /* from the QP's RMP (SRQ) */
	bool held;       /* a message in progress holds it */
};

struct rc_resp_ops {
	/* Whether a receive WQE is posted (the RQ check, which takes nothing). */
	bool (*rq_avail)(void *ctx);
	/* Takes the next receive WQE into *ref: 0, or -1 (none, or it cannot be read). */
	int (*rq_take)(void *ctx, struct rc_rwqe_ref *ref);
	/* Places a SEND's payload at byte off of the WQE: 0, or an mlx5 syndrome. */
	int (*rq_place)(void *ctx, const struct rc_rwqe_ref *ref, uint32_t off, const uint8_t *data,
			uint32_t len);
	/* Completes the WQE (SEND or WRITE_IMM): byte_cnt, the immediate, syndrome 0 or an
	 * error's, se the BTH SE of the message's last packet (a solicited completion, IBTA Vol.
	 * 1 §9.2, §11.4.2.2; D-ROCE-21). 0, or -1 when the CQ cannot take it. */
	int (*rq_done)(void *ctx, const struct rc_rwqe_ref *ref, enum rc_msg m, uint32_t byte_cnt,
		       bool has_imm, uint32_t imm, uint8_t syndrome, bool se);
	/* R_Key check for [va, va + len) with write (WRITE) or read (READ) access: 0, or < 0
	 * (an mkey_err). */
	int (*rkey)(void *ctx, uint32_t rkey, uint64_t va, uint32_t len, bool write);
	/* WRITE payload to [va, va + len) under rkey: 0, or non-zero (a host write error). */
	int (*mem_put)(void *ctx, uint32_t rkey, uint64_t va, const uint8_t *data, uint32_t len);
	/* Whether the receive CQ has room for a completion. */
	bool (*cq_ok)(void *ctx);
	/* Sends an ACK or NAK (BTH opcode ACKNOWLEDGE, AETH syndrome, msn, psn). */
	void (*ack)(void *ctx, uint32_t psn, uint8_t syndrome, uint32_t msn);
	/* Sends READ response psn (opcode op) with bytes [va, va + len) read under rkey, with an
	 * AETH (syndrome, msn) when the opcode has one: 0, or non-zero (the read failed). */
	int (*read_resp)(void *ctx, uint8_t op, uint32_t psn, uint32_t rkey, uint64_t va, uint32_t len,
			 uint8_t syndrome, uint32_t msn);
	/* A fatal responder error: the QP to ERR (the receive WQEs flushed). */
	void (*fatal)(void *ctx, enum rc_verdict v);
};

/* 40 bytes (D-ROCE-RC-24): the receive WQE's reference is kept field by field so that the
 * flags share one word. */
struct rc_resp {
	uint64_t va;       /* WRITE in progress: where the next packet goes */
	uint32_t rkey;
	uint32_t left;     /* WRITE in progress: DMA length not yet received */
	uint32_t off;      /* bytes of the message in progress received */
	uint32_t epsn;     /* expected PSN */
	uint32_t msn;      /* messages completed (AETH MSN, 24 bits) */
	uint32_t rwqe_room;  /* the receive WQE the message in progress holds: its bytes, */
	uint16_t rwqe_index; /* its index (a WQE counter: 16 bits, as the CQE's wqe_counter) */
	bool rwqe_rmp, rwqe_held;
	uint8_t cur;       /* message in progress: enum rc_msg, RC_MSG_NONE between messages */
	bool nak_latch;    /* a NAK sequence error was sent for epsn (IBTA §9.7.5.1.2) */
	bool err;          /* a fatal error: the QP is in ERR */
};
void rc_resp_init(struct rc_resp *r, uint32_t rq_psn);
enum rc_verdict rc_resp_rx(struct rc_resp *r, const struct rc_resp_env *env, const struct rc_pkt *p,
			   const struct rc_resp_ops *ops, void *ctx);
/* The QP entered ERR: the receive WQE a message in progress holds completes with WR_FLUSH_ERR
 * (before the posted ones). 0 (also when none is held), or -1 when the CQ could not take it
 * (the WQE stays held). */
int rc_resp_flush(struct rc_resp *r, const struct rc_resp_ops *ops, void *ctx);

/* ---- On a device (rc_dev.c, rc_dev_resp.c): the entry points the RoCE layer calls ---------- */
struct nicref_dev;
struct roce_qp;
struct roce_pkt;
/* The QP went from state `from` to `to` (enum qp_state), its context holding the new
 * attributes: the responder starts at RTR, the requester at RTS. */
void rc_modify(struct nicref_dev *dev, struct roce_qp *qp, unsigned from, unsigned to);
/* A send doorbell of an RC QP (qp->sq.sw_counter the doorbell record's counter). */
void rc_sq_run(struct nicref_dev *dev, struct roce_qp *qp);
/* A packet for an RC QP after the layer's common checks: requests go to the responder,
 * responses and ACKs to the requester. */
void rc_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p);
/* The QP's timer (roce_timer_arm) expired. */
void rc_timer(struct nicref_dev *dev, struct roce_qp *qp);
/* rc_dev_rq.c: whether a receive WQE is posted (taking none), and the WQE at index of the
 * QP's RQ (or its RMP) read again. */
struct roce_rwqe;
bool rc_rq_avail(struct nicref_dev *dev, struct roce_qp *qp);
int rc_rq_at(struct nicref_dev *dev, struct roce_qp *qp, uint32_t index, bool rmp, struct roce_rwqe *w);
/* The responder's part of rc_rx. */
void rc_resp_dev_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct rc_pkt *p);
/* rc_resp_flush on the device (the layer's flush of a QP in ERR calls it first). */
int rc_resp_dev_flush(struct nicref_dev *dev, struct roce_qp *qp);

#endif
