/* Internals of the RoCE steps of the vector runner (docs/vectors.md "RoCE"):
 *   vectors_roce.c     the two-device form: device b beside the test's device, the step's "dev"
 *                      (device b's fields of struct run swapped in while its step runs), events
 *                      and frames routed to the device that made them, the link (nicref_link),
 *                      the link and link_counters steps, advance_ns on both devices
 *   vectors_roce_qp.c  qp_setup, qp_post, qp_recv and the cqes of a QP
 * Like every step, each checks its value before anything runs (r->checking) and then runs. */
#ifndef NICREF_VECTORS_ROCE_INT_H
#define NICREF_VECTORS_ROCE_INT_H

#include "driver_qp.h"
#include "vectors_int.h"

/* The per-device fields of struct run: device b's while device a's are in struct run, and the
 * other way round while a step of device b runs. */
struct vec_side {
	struct nicref_dev *dev;
	struct nicref_event *ev;
	bool *ev_matched;
	size_t nev, cap_ev, ev_cursor;
	struct posted slot[MAX_SLOTS];
	unsigned dma_faults;
	struct vec_tx tx;
	struct refdrv *drv;
	bool drv_live;
	struct refdrv_sq_stack *sq;
	struct vec_capture *cap;
	struct vec_rx rx;
	struct rx_stack *rxs;
};

/* What the QP steps know of one device: the same whether checking or running. */
struct vec_qpdev {
	bool setup, up;
	unsigned st, nqp, to;
	unsigned log_sq_size, log_rq_size, log_rq_stride;
	uint64_t data_addr, data_size, data_next; /* qp_post's bytes: from data_size / 2 */
	uint32_t q_key;
	struct refdrv_qp_addr peer; /* one device: the vector's end */
	uint32_t peer_qpn;
	struct refdrv_qp_stack *stack; /* running */
};

/* The context of device idx's callbacks. */
struct vec_roce_ctx {
	struct run *r;
	int idx;
};

struct vec_roce {
	unsigned devices; /* of the group being checked or run: 1 or 2 */
	int cur;          /* the device whose fields are in struct run: 0 a, 1 b */
	struct vec_side other;
	struct vec_qpdev q[2];
	bool qp_setup;    /* a qp_setup came (two devices: it set both up) */
	/* checking: the state after the group's setup, for each test */
	struct vec_side saved_b;
	struct vec_qpdev saved_q[2];
	bool saved_qp_setup;
	/* running */
	struct nicref_link *link;
	void (*on_event)(void *ctx, const struct nicref_event *ev); /* vectors.c's */
	struct vec_roce_ctx ctx[2];
	struct vec_options opt_quiet; /* r->opt without --trace, for device b's events */
	const struct vec_options *opt_saved;
	struct refdrv_qp_stack stacks[2];
};

/* The run's RoCE state (made on first use; NULL when memory is short). */
struct vec_roce *vec_roce(struct run *r);
/* Device idx's fields into struct run (the current ones out): returns the previous index. */
int vec_roce_use(struct run *r, int idx);


#endif
