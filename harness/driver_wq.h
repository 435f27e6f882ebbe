/* Reference-driver helpers for send queues, receive queues and receive memory pools (PRM §7.4,
 * §7.7-§7.10, §12.10, §12.11, §12.13), on top of refdrv_cmd (harness/driver.h). Each returns
 * the command status of T128 (0 OK), or -1 when the command did not complete or the arguments
 * cannot be encoded (d->error says why). Outputs are written only on status 0.
 *
 * The creates zero the queue's doorbell record first (§7.4.2 "Doorbell record should be
 * initiated to 0 at the creation") and, when the device answers NO_RESOURCES for want of ICM
 * pages (D-PG-4), give it what QUERY_PAGES(regular) asks for and try once more. */
#ifndef NICREF_DRIVER_WQ_H
#define NICREF_DRIVER_WQ_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* The work queue (T54/T55). The buffer is buf_pages pages of 4 KB << log_wq_pg_sz from buf
 * (page k at buf + k * page size), enough for page_offset + the queue. */
struct refdrv_wq_attr {
	uint64_t buf;           /* host address of the first page (page aligned) */
	uint64_t dbr;           /* doorbell record (4-byte aligned, §7.4.2) */
	unsigned wq_type;       /* 0 linked list, 1 cyclic (an SQ's is 1) */
	unsigned log_wq_sz;     /* 2^log_wq_sz strides */
	unsigned log_wq_stride; /* an SQ's is 6, the WQEBB (§7.4.1.1) */
	unsigned log_wq_pg_sz;  /* page = 4 KB << log_wq_pg_sz */
	unsigned page_offset;   /* in page_size / 64 quanta */
	bool wq_signature;
	unsigned end_padding_mode; /* RQ and RMP */
	uint32_t pd;
};

struct refdrv_sq_attr {
	struct refdrv_wq_attr wq;
	uint32_t cqn, tisn, uar; /* wq.uar_page is the UAR the SQ rings */
	uint32_t user_index;
	unsigned min_wqe_inline_mode;
	bool flush_in_error_en, rlkey, fre;
};

struct refdrv_rq_attr {
	struct refdrv_wq_attr wq; /* not used for an RMP RQ */
	uint32_t cqn;
	bool on_rmp;              /* mem_rq_type MEMORY_RQ_RMP */
	uint32_t rmpn;
	uint32_t user_index;
	bool flush_in_error_en, vlan_strip_disable, rlkey;
};

struct refdrv_rmp_attr {
	struct refdrv_wq_attr wq;
	unsigned lwm;
	bool basic_cyclic_rcv_wqe;
};

/* Pages of 4 KB << log_wq_pg_sz a queue of these sizes spans (T55: page_offset + the queue). */
uint32_t refdrv_wq_pages(const struct refdrv_wq_attr *a);

int refdrv_create_sq(struct refdrv *d, const struct refdrv_sq_attr *a, uint32_t *sqn);
int refdrv_create_rq(struct refdrv *d, const struct refdrv_rq_attr *a, uint32_t *rqn);
int refdrv_create_rmp(struct refdrv *d, const struct refdrv_rmp_attr *a, uint32_t *rmpn);

/* MODIFY_SQ / MODIFY_RQ from state `from` to `to` (0 RST, 1 RDY, 3 ERR), without a bitmask. */
int refdrv_modify_sq(struct refdrv *d, uint32_t sqn, unsigned from, unsigned to);
int refdrv_modify_rq(struct refdrv *d, uint32_t rqn, unsigned from, unsigned to);
/* MODIFY_RQ with bitmask bit 1: vlan_strip_disable (T56, RST2RDY and RDY2RDY). */
int refdrv_modify_rq_vsd(struct refdrv *d, uint32_t rqn, unsigned from, unsigned to, bool vsd);
/* MODIFY_RMP RDY2RDY with bitmask bit 0: the limit watermark (T66). */
int refdrv_modify_rmp_lwm(struct refdrv *d, uint32_t rmpn, unsigned lwm);

int refdrv_destroy_sq(struct refdrv *d, uint32_t sqn);
int refdrv_destroy_rq(struct refdrv *d, uint32_t rqn);
int refdrv_destroy_rmp(struct refdrv *d, uint32_t rmpn);

/* QUERY_SQ / QUERY_RQ / QUERY_RMP: the state and the WQ counters (T55 18h/1Ch). */
struct refdrv_wq_status {
	unsigned state;
	uint16_t hw_counter, sw_counter;
};
int refdrv_query_sq(struct refdrv *d, uint32_t sqn, struct refdrv_wq_status *st);
int refdrv_query_rq(struct refdrv *d, uint32_t rqn, struct refdrv_wq_status *st);
int refdrv_query_rmp(struct refdrv *d, uint32_t rmpn, struct refdrv_wq_status *st);

/* Posts counter to a doorbell record (T24: the receive word at +0, the send word at +4). 0 or
 * -1. */
int refdrv_wq_dbr_write(struct refdrv *d, uint64_t dbr, bool send, uint16_t counter);
/* Rings an SQ's doorbell (§7.2.2, §7.4.3.1): ctrl dwords 0-1 of the WQE at wqe_index, lower
 * dword first (§7.2.2.2), at offset 0 of Blue Flame buffer `bf_buffer` (0 even / 1 odd of
 * register 0, ...) of UAR page `uar` (BAR0 offset uar * 4 KB, D-UAR-1). */
void refdrv_sq_doorbell(struct refdrv *d, uint32_t uar, unsigned bf_buffer, uint32_t sqn,
			uint16_t wqe_index, uint8_t opcode, unsigned ds);

#endif
