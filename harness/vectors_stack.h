/* A device built by vector steps and kept for a caller that drives it from then on.
 *
 * `nicref replay` (harness/replay.h) builds its receive stack this way: its SETUP file is a
 * vector group's profile, caps and setup steps (docs/vectors.md: bring_up, rx_setup, steer,
 * rq_post, ...), checked and run by the very code that runs the vectors, so a vector's setup can
 * be pasted into a SETUP and means the same thing. After the steps the caller gets the device,
 * the reference driver and what the rx_setup made (queue numbers, rings, the CQ), and takes the
 * device's events. */
#ifndef NICREF_VECTORS_STACK_H
#define NICREF_VECTORS_STACK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_rq.h"
#include "nicref/nicref.h"

#define VEC_STACK_MAX_RQS 16u
#define VEC_STACK_MAX_TIRS 16u

/* What the setup's rx_setup made. Pointers stay valid until vec_stack_close. */
struct vec_stack_rx {
	struct nicref_dev *dev;
	struct refdrv *drv;  /* the bring_up's driver (commands only: its accesses are recorded) */
	struct refdrv_cq *cq;          /* the receive CQ; its consumer counter is the caller's */
	unsigned nrq, ntir;
	uint32_t rqn[VEC_STACK_MAX_RQS], user_index[VEC_STACK_MAX_RQS];
	bool on_rmp[VEC_STACK_MAX_RQS];
	struct refdrv_rq_ring *ring[VEC_STACK_MAX_RQS]; /* RQ i's own WQ, or the RMP's */
	bool rmp_linked;                                 /* an RMP of wq_type 0 */
	uint32_t tirn[VEC_STACK_MAX_TIRS];
	uint64_t data_addr, data_size;
};

struct vec_stack;

enum vec_stack_result {
	VEC_STACK_OK = 0,
	VEC_STACK_BAD = 2, /* the steps were refused, or the device refused one (messages on out) */
};

/* Runs group (an object with "setup" and optionally "profile", "caps", "comment": a vector
 * file's group without its tests) on a fresh device; `file` names the input in messages
 * ("BAD <file>: setup step 2 (rx_setup): ..."). Every refusal and failure is printed to out.
 * The group must hold an rx_setup. */
enum vec_stack_result vec_stack_open(const char *file, const json_t *group, FILE *out,
				     struct vec_stack **s);
const struct vec_stack_rx *vec_stack_rx(const struct vec_stack *s);
/* From now on the device's events go to fn (NULL: nowhere). */
void vec_stack_sink(struct vec_stack *s, void (*fn)(void *ctx, const struct nicref_event *ev),
		    void *ctx);
void vec_stack_close(struct vec_stack *s);

#endif
