/* Private to libnicref: completion queues (PRM §7.12, §12.7). Owned by obj/cq*.c. The work
 * queues complete only through this interface.
 *
 *  - cq.c       the device-level hooks, invariants and references;
 *  - cq_cmd.c   CREATE_CQ, DESTROY_CQ, QUERY_CQ, MODIFY_CQ (moderation, remap, resize);
 *  - cq_post.c  CQE writing (ownership, signature, overrun), arming (cq_arm, which the
 *               doorbell layer obj/uar_db.c calls), the event state machine and completion
 *               event moderation (§7.12.4, §7.13.14).
 * Decisions D-CQ-* are in docs/cq.md. */
#ifndef NICREF_OBJ_CQ_H
#define NICREF_OBJ_CQ_H

#include <stdbool.h>
#include <stdint.h>

#include "obj/obj.h"

struct nicref_dev;

/* PRM T76 st and status. */
enum { CQ_ST_SOL_ARMED = 0x6, CQ_ST_ARMED = 0x9, CQ_ST_FIRED = 0xA };
enum { CQ_STATUS_OK = 0x0, CQ_STATUS_OVERFLOW = 0x9, CQ_STATUS_WRITE_FAIL = 0xA };
/* T68 opcodes. */
enum { CQE_OP_REQ = 0x0, CQE_OP_RESP_SEND = 0x2, CQE_OP_RESIZE = 0x5, CQE_OP_REQ_ERR = 0xD,
       CQE_OP_RESP_ERR = 0xE, CQE_OP_INVALID = 0xF };
#define CQ_COUNTER_MASK 0xFFFFFFu /* T76: 24-bit counters */
#define CQE_SIZE 64u

/* A queue buffer in host memory (EQ and CQ): the pas[] entries as given (T138/T139, 4 KB
 * aligned) over pages of 4 KB << log_page_size. obj/eq_qbuf.c. */
struct qbuf {
	uint64_t *pas;
	uint32_t npas;
	uint8_t log_page_size;
};
/* The host address of byte `off` of the buffer (page_offset is always 0: T76, T94). */
uint64_t qbuf_addr(const struct qbuf *b, uint64_t off);
void qbuf_free(struct nicref_dev *dev, struct qbuf *b);

struct cq {
	struct obj_hdr hdr;
	struct qbuf buf;
	uint8_t log_size;  /* 2^log_size CQEs */
	uint8_t cqe_sz;    /* 0: 64 B, 1: 128 B */
	uint8_t status;    /* CQ_STATUS_* */
	uint8_t st;        /* CQ_ST_* */
	uint8_t sn;        /* completion events generated, mod 4 (D-CQ-4) */
	uint8_t period_mode, mini_cqe_res_format;
	bool cc, scqe_break, oi, compression;
	uint8_t c_eqn;
	uint32_t uar;
	uint16_t cq_period, cq_max_count;
	uint64_t dbr_addr; /* where the device reads the doorbell record */
	/* Beyond PRM Rev 0.40 (docs/umem.md D-UMEM-5/6): the UMEMs the buffer and the doorbell
	 * record live in (0: none, pas[] and dbr_addr as the PRM has them), and dbr_addr as given
	 * (an offset into dbr_umem), which QUERY_CQ returns. */
	uint32_t buf_umem, dbr_umem;
	uint64_t dbr_given;
	uint32_t cc_seen; /* consumer counter last seen (record update_ci, arm ci) */
	uint32_t pc;
	uint32_t last_notified, last_solicit;
	bool solicit_seen; /* a solicited CQE has been written (last_solicit is meaningful) */
	/* Completion event moderation (§7.13.14): completions since the last event, an event
	 * held back, and when the cq_period timer last (re)started. */
	uint32_t since_event;
	bool pending;
	uint64_t timer_ns;
	struct cq *tprev, *tnext; /* on the device's timer list while pending with a period */
	bool on_timers;
};

/* Device-level CQ state (inside struct eq_dev). */
struct cq_dev {
	struct cq *timers; /* CQs whose held event waits for cq_period */
	uint32_t ntimers;
};

void cq_dev_reset(struct nicref_dev *dev);

/* Writes a 64-byte CQE (fields as T67/T73 lay them out; the device fills owner and signature
 * and, for 128-byte CQEs, the placement) to CQ cqn, then raises the completion event as the CQ's
 * arm state and moderation allow. 0 when written; -1 when it was not (overrun with oi = 0, CQ
 * in error, write failure): the caller's work queue then goes to ERR (PRM §7.12.1). */
int cq_post(struct nicref_dev *dev, uint32_t cqn, const uint8_t cqe[64]);
/* Virtual time moved (moderation period, PRM §7.13.14): whether a completion event is held, with
 * the deadline of the one due first, and firing that one (its deadline <= now). The device's
 * tick (obj.c) fires CQ events and held interrupts in deadline order. */
bool cq_next_due(const struct nicref_dev *dev, uint64_t *due);
void cq_fire_next(struct nicref_dev *dev);

/* cq_post.c, for the commands. */
struct cq *cq_get(const struct nicref_dev *dev, uint32_t cqn);
/* The held event fires if the moderation now allows it; keeps the timer list. */
void cq_moderate(struct nicref_dev *dev, struct cq *cq);
/* Leaves the timer list (destroy). */
void cq_timer_drop(struct nicref_dev *dev, struct cq *cq);
/* Reads the doorbell record's update_ci: 0, or -1 on a DMA error. */
int cq_read_update_ci(struct nicref_dev *dev, struct cq *cq, uint32_t *ci);
/* Writes a Resize CQE (§7.12.6 T72) at the producer index of the current buffer. */
/* `outstanding`: pc - update_ci as RESIZE_CQ read it (D-CQ-7: a full old buffer is reported). */
void cq_write_resize_cqe(struct nicref_dev *dev, struct cq *cq, uint32_t outstanding);

#endif
