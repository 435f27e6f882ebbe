/* Private to libnicref: send, receive and shared receive queues and their work-queue buffers
 * (PRM §7.4, §7.7-§7.10, §12.10, §12.11, §12.13). Owned by obj/wq*.c, sq.c, rq.c, rmp.c;
 * decisions in docs/wq.md (D-WQ-*, D-SQ-*, D-RQ-*, D-RMP-*, D-DB-*).
 *
 * What the rest of the model may use:
 *  - the buffer of a WQ: wq_addr / wq_read (stride addressing over the page list, with wrap);
 *  - the doorbell record: wq_dbr_read;
 *  - the hardware transitions: sq_hw_error / rq_hw_error (a WQE or CQ error puts the queue in
 *    ERR, flushing as the context says), rmp_hw_error;
 *  - receive WQE consumption: rq_dequeue / rq_wqe_done (the RMP limit and catastrophic
 *    events happen here);
 *  - sq_doorbell, the send doorbell the doorbell layer hands an SQ (obj/uar_db.h, obj/sq_db.c). */
#ifndef NICREF_OBJ_WQ_H
#define NICREF_OBJ_WQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/cmd.h"
#include "obj/eq.h"
#include "obj/obj.h"

struct nicref_dev;

/* The WQ_STATE event's type argument (nicref/trace.h) and the states of the contexts (T53,
 * T61, T65: 0x0 RST, 0x1 RDY, 0x3 ERR). */
enum wq_kind { WQ_KIND_SQ = 0, WQ_KIND_RQ = 1, WQ_KIND_RMP = 2 };
enum wq_state { WQ_RST = 0x0, WQ_RDY = 0x1, WQ_ERR = 0x3 };
/* WQ_STATE cause. */
enum wq_cause { WQ_CAUSE_COMMAND = 0, WQ_CAUSE_DEVICE = 1 };

/* The bytes of a context kept from CREATE (T60/T52/T64 with the WQ, pas[] excluded). */
#define WQ_CTX_BYTES 0xF0u
/* Offset of the context in the CREATE, MODIFY and QUERY layouts (T315, T319, T329, ...). */
#define WQ_CTX_OFF 0x20u
/* Offset of the WQ in a context (T52, T60, T64: "30h..."). */
#define WQ_IN_CTX 0x30u

/* A work-queue buffer and its doorbell record as the device uses them (T54/T55). */
struct wq {
	uint64_t dbr_addr;    /* T55 10h/14h, 4-byte aligned */
	uint64_t *pas;        /* page addresses (T138 pa_h:pa_l, low 12 bits clear) */
	uint32_t npas;        /* pages covering page_offset + the queue */
	uint64_t page_size;   /* 4 KB << log_wq_pg_sz */
	uint64_t first_off;   /* page_offset * page_size / 64: byte 0 in pas[0] */
	uint8_t log_stride;   /* stride = 2^log_wq_stride bytes */
	uint8_t log_size;     /* 2^log_wq_sz strides */
	uint8_t type;         /* T55 wq_type: 0 linked list, 1 cyclic */
	uint16_t hw_counter;  /* T55 18h: next stride HW consumes */
	uint16_t sw_counter;  /* T55 1Ch: next stride SW produces, as last read (D-WQ-5) */
	/* Beyond PRM Rev 0.40 (docs/umem.md D-UMEM-7): the UMEMs the buffer and the doorbell
	 * record live in (0: none) and their headers, whose references wq_free gives back. */
	uint32_t buf_umem, dbr_umem;
	struct obj_hdr *umem_hdr[2];
};

struct sq {
	struct obj_hdr hdr;
	uint8_t state;                /* enum wq_state */
	bool flush_in_error_en;       /* T61 00h[28] */
	bool last_wqe_err;            /* the previous WQE completed in error (T26 CE 01b) */
	bool umr_fence_due;           /* the previous WQE was a UMR: the next one should fence
				       * (§10.1.1; eth/sq_exec.c) */
	int8_t bf_reg;                /* the Blue Flame register it rings, -1 before its first */
	uint32_t cqn, tisn, uar, pd;  /* the objects it names (D-OBJ-1) */
	uint32_t user_index;
	struct wq wq;
	uint8_t ctx[WQ_CTX_BYTES];    /* the context as created (rows of create_sq_in) */
};

struct rq {
	struct obj_hdr hdr;
	uint8_t state;
	bool flush_in_error_en;       /* T53 00h[18], reserved for an RMP RQ */
	bool on_rmp;                  /* mem_rq_type MEMORY_RQ_RMP (T53 00h[27:24] = 1) */
	uint32_t cqn, rmpn, pd;       /* pd: 0 for an RMP RQ, whose WQ is not used (D-RQ-4) */
	uint32_t user_index;
	uint16_t head;                /* linked list (wq_type 0): the next WQE to take (T43) */
	struct wq wq;
	/* WQEs this RQ took from its RMP and has not completed (§7.7.2.2), in the order taken:
	 * a ring of taken_cap slots allocated at CREATE_RQ from the RMP's size (obj/rq.c), so
	 * that taking and completing WQEs never allocate. A WQE completed before an older one
	 * keeps its slot, marked done, until the older ones complete. */
	uint32_t *taken;
	uint32_t taken_cap;             /* slots, a power of 2; 0 for an inline RQ */
	uint32_t taken_head, taken_len; /* the oldest slot, slots in use (done ones included) */
	uint32_t ntaken;                /* WQEs held: slots in use not marked done */
	/* T68 rx_drop_counter: frames dropped for want of a WQE since the last CQE, saturating
	 * at 255 (the data path's, eth/rx_rq.c; D-RX-4). */
	uint8_t rx_drop_counter;
	uint8_t ctx[WQ_CTX_BYTES];
};

struct rmp {
	struct obj_hdr hdr;           /* refs: the RQs attached to it */
	uint8_t state;                /* RDY or ERR (§7.10.1) */
	uint16_t lwm;                 /* T55 04h[15:0]; 0 = disarmed (D-WQ-2) */
	uint16_t head;                /* linked list: the next WQE to hand out (T43) */
	uint32_t pd;
	struct wq wq;
	uint8_t ctx[WQ_CTX_BYTES];
};

void wq_dev_reset(struct nicref_dev *dev); /* destroys every RQ, RMP and SQ */

/* PRM §7.4.4.1 T26 CE, the completion mode of a send WQE (the Ethernet SQ's and a QP's send
 * queue alike): "00 - Generate CQE only on WQE completion with error. 01 - Generate CQE only on
 * first WQE completion with error (i.e if CQE on previous WQE completed in error, no CQE will
 * be generated) 10 - Generate CQE on WQE completion (good or bad) 11 - Generate CQE and EQE
 * (local Solicited event)." */
enum wqe_ce { WQE_CE_ERRORS = 0, WQE_CE_FIRST_ERROR = 1, WQE_CE_ALWAYS = 2, WQE_CE_AND_EVENT = 3 };
/* Whether a WQE completing in error or not under mode ce gets a CQE, the WQE before it in the
 * same send queue having completed in error (prev_err) or not. A flush is an error. */
static inline bool wqe_ce_wants_cqe(unsigned ce, bool error, bool prev_err)
{
	return error ? !(ce == WQE_CE_FIRST_ERROR && prev_err) : ce >= WQE_CE_ALWAYS;
}

/* ---- The buffer (obj/wq.c) --------------------------------------------------------------
 * PRM §7.4.1, T55: stride i of the queue (i taken modulo 2^log_wq_sz: the queue is circular)
 * starts at queue byte i * 2^log_wq_stride; queue byte b lies in page (first_off + b) /
 * page_size at offset (first_off + b) % page_size, first_off = page_offset * page_size / 64. */
uint64_t wq_addr(const struct wq *wq, uint32_t index);
/* Reads len bytes from byte `off` of stride `index` on, across strides, pages and the wrap
 * (a send WQE of several WQEBBs may wrap, §7.4.1.1 Figure 14). 0, or non-zero on a DMA error. */
int wq_read(struct nicref_dev *dev, const struct wq *wq, uint32_t index, uint32_t off, void *buf,
	    size_t len);
/* The queue's counter in its doorbell record (T24): the send word for an SQ, the receive word
 * otherwise (D-DB-1). 0, or -1 when the record cannot be read. */
int wq_dbr_read(struct nicref_dev *dev, const struct wq *wq, bool send, uint16_t *counter);

/* ---- Hardware transitions -------------------------------------------------------------- */
/* A WQE or completion error puts a RDY queue in ERR (PRM §7.9.2, §7.7.2, §7.12.1 step 2),
 * flushing as its context says; no effect in RST or ERR. */
void sq_hw_error(struct nicref_dev *dev, struct sq *sq);
void rq_hw_error(struct nicref_dev *dev, struct rq *rq);
/* A failure while de-queuing puts a RDY RMP in ERR with its catastrophic event (§7.7.2.2,
 * D-EV-1 0x12). */
void rmp_hw_error(struct nicref_dev *dev, struct rmp *rmp);

/* ---- Receive WQE consumption (the data path) -------------------------------------------
 * Takes the next receive WQE of a RDY RQ: from its own WQ, or from its RMP (T57): 0 with its
 * stride index, -1 when the RQ is not RDY or has just failed (RMP in ERR: the RQ goes to ERR
 * with the RQ catastrophic event, T57), -2 when no WQE is posted (or, D-RQ-7, when the RQ
 * already holds as many WQEs of its RMP as the RMP has strides). Taking from an RMP may fire
 * its limit event (D-WQ-2). */
int rq_dequeue(struct nicref_dev *dev, struct rq *rq, uint32_t *index);
/* The stride a linked list (T55 wq_type 0: an RQ's or an RMP's) leads to when its head, a
 * Next_WQE_index (T43), is `head`: that index modulo the ring; one at or beyond the ring is the
 * violation RX_LL_NEXT_BEYOND_RING of rqn, the RQ (or the QP of an SRQ) taking the WQE (D-RX-16,
 * D-RMP-1). Called once each time the device follows the list. */
uint16_t rq_ll_take(struct nicref_dev *dev, const struct wq *wq, uint16_t head, uint32_t rqn);
/* The WQE of `index` that rq took from its RMP completed (its CQE was written); no effect when
 * rq holds no such WQE. */
void rq_wqe_done(struct rq *rq, uint32_t index);

/* ---- Shared by sq.c, rq.c, rmp.c (obj/wq.c) ------------------------------------------- */
struct cmd_ctx;
struct nicref_layout;
/* What a queue type allows in its WQ (T55 columns, T62/T56/T66). */
struct wq_rules {
	enum wq_kind kind;
	unsigned min_log_stride, max_log_stride; /* HCA_CAP 74h */
};
/* Validates the WQ of a CREATE input (context at 20h, pas[] at 110h) and fills w (pas[]
 * allocated): NONE, or the rule that refuses it (nothing allocated then). */
enum nicref_cmd_rule wq_parse(struct cmd_ctx *c, const struct wq_rules *r, struct wq *w);
void wq_free(struct nicref_dev *dev, struct wq *w);
/* Keeps the context rows of layout l (a CREATE input) in ctx. */
void wq_ctx_store(uint8_t ctx[WQ_CTX_BYTES], const struct nicref_layout *l, const uint8_t *in,
		  size_t in_len);
/* QUERY output: the kept context at 20h, the queue's state and counters, then pas[] as far as
 * the output holds (T329, T346, T380). */
void wq_query_out(struct cmd_ctx *c, const uint8_t ctx[WQ_CTX_BYTES], const struct wq *w,
		  uint8_t state);
/* A field of a CREATE context that the PRM reserves in this case (T53 rmpn, T61 user_index,
 * ...): reported and refused like any reserved bit (D-CMD-8). */
enum nicref_cmd_rule wq_reserved_field(struct cmd_ctx *c, const struct nicref_layout *l, unsigned field);
/* Records a state change (WQ_STATE event). */
void wq_set_state(struct nicref_dev *dev, enum wq_kind kind, uint32_t num, uint8_t *state,
		  uint8_t to, enum wq_cause cause);
/* Posts an SQ/RQ async event ev, an event of the eqe_wq layout (T79/T82/T83: 14h[31:24] type,
 * 18h[23:0] number). */
void wq_post_event(struct nicref_dev *dev, enum eq_event ev, uint8_t qtype, uint32_t num);
/* Writes a flush error CQE (T73/T74: syndrome 0x5 WR_Flushed; opcode 13 requester, 14
 * responder, T68) to CQ cqn: cq_post's result. */
int wq_flush_cqe(struct nicref_dev *dev, uint32_t cqn, bool send, uint16_t wqe_counter,
		 uint8_t wqe_opcode, uint32_t user_index);
/* The MODIFY state machine (D-SQ-1): whether from -> to is a transition of the queue kind. */
bool wq_transition_ok(enum wq_kind kind, unsigned from, unsigned to);
/* Flushes what an SQ in ERR holds (T61 flush_in_error_en): WQEs from hw_counter to the
 * doorbell record. */
void sq_flush(struct nicref_dev *dev, struct sq *sq);
/* Enters ERR (from a command or the device) with its flush and events. */
void sq_enter_error(struct nicref_dev *dev, struct sq *sq, enum wq_cause cause);
void rq_enter_error(struct nicref_dev *dev, struct rq *rq, enum wq_cause cause);
/* References to the objects a queue names (D-OBJ-1): taken at create, dropped at destroy. */
void wq_ref(struct nicref_dev *dev, enum obj_type t, uint32_t h);
void wq_unref(struct nicref_dev *dev, enum obj_type t, uint32_t h);
/* Frees an object of the family without touching the objects it names (reset). */
void sq_free(struct nicref_dev *dev, struct sq *sq);
void rq_free(struct nicref_dev *dev, struct rq *rq);
void rmp_free(struct nicref_dev *dev, struct rmp *rmp);

#endif
