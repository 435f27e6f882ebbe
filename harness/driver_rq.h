/* Reference-driver helpers for the receive path (PRM §7.4.1.2, §7.4.4.3-§7.4.4.5, §7.12), on
 * top of harness/driver.h and the queue helpers (driver_wq.h creates the RQ or RMP,
 * driver_cq.h polls the CQ):
 *
 *   - posting a receive WQE (§7.4.1.2): the scatter entries of T40 (through the library's
 *     recv_wqe_data layout, by name), after a signature segment (T22, when the queue checks
 *     signatures) or the next segment of a shared receive WQE (T42), then a Null entry when the
 *     stride has room, at the stride of the producer counter; then the doorbell record's
 *     receive counter (T24), which is what passes the WQE to the device (§7.4.3);
 *   - a linked list (T55 wq_type 0: an RQ, docs/rx.md D-RX-16, or an RMP, D-RMP-1) kept as a
 *     driver keeps one (Linux mlx5_wq_ll): the device starts at stride 0 and goes on along each
 *     WQE's next segment (T42/T43 Next_WQE_index), so software posts into the stride its last
 *     WQE named and names in each WQE the stride it will fill next, one it owns;
 *   - polling a receive CQE (§7.12.3.2) and reading its fields by name (T67/T68, T73).
 *
 * Like driver.c it never breaks a rule of the driver: it is the example a driver author reads. */
#ifndef NICREF_DRIVER_RQ_H
#define NICREF_DRIVER_RQ_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "driver_cq.h"

/* One scatter entry (T40). byte_count 0 means 2 GB (T40); the Null entry is added by the post. */
struct refdrv_rx_sge {
	uint64_t addr;
	uint32_t lkey;
	uint32_t byte_count;
	bool start_padding; /* §3.3.9, first entry only */
};

/* What software keeps of a receive ring (an RQ's own WQ or an RMP's). */
struct refdrv_rq_ring {
	uint64_t buf;           /* the WQ buffer, contiguous in host memory */
	uint64_t dbr;           /* its doorbell record (receive word at +0, T24) */
	unsigned log_wq_sz, log_wq_stride;
	bool wq_signature;      /* T55: a signature over each WQE (§9.2.3) */
	bool shared;            /* an RMP's WQE: the next segment first (T42) */
	bool linked;            /* an RMP of wq_type 0: next_wqe_index chains the strides */
	bool ctrl_segment;      /* a cyclic RMP WQE carries its 16-byte ctrl segment (T65) */
	uint32_t qn;            /* the RQ (or RMP) number the signature covers */
	uint16_t pc;            /* the producer counter: WQEs posted */
	uint16_t ll_head;       /* linked: the stride refdrv_rq_ll_write fills next (0 after
				 * create and after 2RST, where the device starts: D-RX-16) */
};

/* Posts one WQE of n entries at the producer counter and writes the record. 0, or -1 when the
 * entries do not fit the stride or the memory cannot be written (d->error says why). */
int refdrv_rq_post(struct refdrv *d, struct refdrv_rq_ring *r, const struct refdrv_rx_sge *sge,
		   unsigned n);
/* Writes the WQE only (no record): for a test that passes ownership later. */
int refdrv_rq_write(struct refdrv *d, struct refdrv_rq_ring *r, const struct refdrv_rx_sge *sge,
		    unsigned n);
/* A linked-list ring (r->linked) chained by software: writes the WQE of n entries into stride
 * r->ll_head with Next_WQE_index `next` (T43, in strides), then r->ll_head = next and the
 * producer counter goes up (the record is refdrv_rq_record's). `next` is a stride the driver
 * owns (neither posted nor held by the device) other than r->ll_head: the stride it fills after
 * this one. -1 when `next` is not such a stride of the ring (by number: which strides are free
 * is the caller's), or as refdrv_rq_write. refdrv_rq_write on a linked ring is the special case
 * of a list in buffer order (next = the following stride). */
int refdrv_rq_ll_write(struct refdrv *d, struct refdrv_rq_ring *r, uint16_t next,
		       const struct refdrv_rx_sge *sge, unsigned n);
/* A linked-list ring as software makes it before its first post (mlx5_wq_ll_init_list): every
 * stride zero but its next segment, Next_WQE_index the following stride (the last the first);
 * r->ll_head and r->pc 0. 0, or -1 when the memory cannot be written. */
int refdrv_rq_ll_init(struct refdrv *d, struct refdrv_rq_ring *r);
/* Writes the record with the producer counter (§7.4.3: ownership passes). */
int refdrv_rq_record(struct refdrv *d, const struct refdrv_rq_ring *r);

/* A receive CQE polled (refdrv_cq_poll): 1 with its 64 bytes, 0 when empty, -1 on error. */
int refdrv_rx_poll(struct refdrv *d, struct refdrv_cq *cq, uint8_t cqe[64]);
/* A field of a polled CQE by name: cqe64's fields (T67/T68), or err_cqe's (T73) for an error
 * CQE (opcode 13/14) when cqe64 has no such field. */
uint64_t refdrv_rx_cqe_field(const uint8_t cqe[64], const char *field);

#endif
