/* Reference-driver helpers for completion queues (PRM §7.12, §12.7), on top of refdrv_cmd
 * (harness/driver.h). Command helpers return the status of T128 (0 OK), or -1 when the command
 * did not complete or the arguments cannot be encoded (d->error says why).
 *
 * The create initialises the CQ buffer as §12.7.1 and §7.12.3.1 ask: every CQE invalid (opcode
 * 0xF) and in hardware ownership (owner 1), i.e. the op_own byte 3Fh (7Fh for 128-byte CQEs,
 * D-CQE-2) set to 0xF1 (D-CQ-8), and zeroes the doorbell record. It gives ICM pages when the
 * device asks (refdrv_cmd_paged). */
#ifndef NICREF_DRIVER_CQ_H
#define NICREF_DRIVER_CQ_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "driver_eq.h"

/* A CQ (T75/T76). The buffer is 2^log_cq_size CQEs of 64 << cqe_sz bytes over pages of
 * 4 KB << log_page_size, page k at buf + k * page size. */
struct refdrv_cq_attr {
	uint64_t buf;
	uint64_t dbr; /* doorbell record, 8-byte aligned (§7.12.2) */
	unsigned log_cq_size, log_page_size;
	unsigned cqe_sz; /* 0: 64 B, 1: 128 B */
	uint32_t uar, eqn;
	unsigned cq_period, cq_max_count, cq_period_mode;
	bool oi, cc, scqe_break_moderation_en;
};

/* What software keeps of a CQ to poll and arm it (§7.12.2-§7.12.4). */
struct refdrv_cq {
	uint32_t cqn;
	struct refdrv_cq_attr a;
	uint32_t cc;     /* consumer counter (24 bits) */
	unsigned arm_sn; /* completion events handled, mod 4: the next arm's cmd_sn (D-CQ-4) */
	/* After a resize, the old buffer until its Resize CQE (§7.12.6). */
	bool draining;
	struct refdrv_cq_attr old;
};

/* CREATE_CQ (T260-T263) after initialising the buffer and the record. */
int refdrv_create_cq(struct refdrv *d, const struct refdrv_cq_attr *a, struct refdrv_cq *cq);
/* DESTROY_CQ (T264-T267). */
int refdrv_destroy_cq(struct refdrv *d, uint32_t cqn);
/* QUERY_CQ (T268-T271) into out[0, out_len) (at least 0x110). */
int refdrv_query_cq(struct refdrv *d, uint32_t cqn, uint8_t *out, uint32_t out_len);
/* MODIFY_CQ op_mod 0 (T272-T275): the fields of `select` (bit 0 cq_period, 1 cq_max_count,
 * 2 oi, 3 c_eqn) from a; cq->a follows on success. */
int refdrv_modify_cq(struct refdrv *d, struct refdrv_cq *cq, uint32_t select,
		     const struct refdrv_cq_attr *a);
/* MODIFY_CQ op_mod 1 resize (§7.12.6, T276/T277): the new buffer buf (initialised here) of
 * 2^log_cq_size CQEs of cqe_sz over pages of 4 KB << log_page_size. cq->a follows on success;
 * software then drains the old buffer up to the Resize CQE (refdrv_cq_poll does it). */
int refdrv_resize_cq(struct refdrv *d, struct refdrv_cq *cq, uint64_t buf, unsigned log_cq_size,
		     unsigned cqe_sz, unsigned log_page_size);

/* The CQE at the consumer counter if software owns it (§7.12.3.2: owner == (cc >> log) & 1 and
 * opcode != 0xF): copies its 64-byte CQE (the second half of a 128-byte one), advances cc,
 * writes update_ci to the record and returns 1; 0 when empty, -1 on a host error. */
int refdrv_cq_poll(struct refdrv *d, struct refdrv_cq *cq, uint8_t cqe[64]);
/* Requests a completion notification (§7.12.4): writes cmd_sn/cmd/arm_ci to the record
 * (T69/T70) and rings the UAR CQ doorbell (T13/T14), lower dword first (§7.2.2.2). */
void refdrv_cq_arm(struct refdrv *d, struct refdrv_cq *cq, bool solicited);
/* Software saw a completion event of this CQ: the next arm carries the next cmd_sn. */
void refdrv_cq_event_seen(struct refdrv_cq *cq);

#endif
