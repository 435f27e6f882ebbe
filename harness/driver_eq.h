/* Reference-driver helpers for event queues (PRM §7.13, §12.6), on top of refdrv_cmd
 * (harness/driver.h). Each command helper returns the command status of T128 (0 OK), or -1 when
 * the command did not complete or the arguments cannot be encoded (d->error says why).
 *
 * The create initialises the EQ buffer as §12.6.1 says ("the 'ownership' on all EQEs will be
 * equal to '1' (initial HW ownership)") and, when the device answers NO_RESOURCES for want of
 * ICM pages (D-PG-4), gives it what QUERY_PAGES(regular) asks for and tries once more. */
#ifndef NICREF_DRIVER_EQ_H
#define NICREF_DRIVER_EQ_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* An EQ (T93/T94). The buffer is 2^log_eq_size EQEs of 64 bytes over pages of
 * 4 KB << log_page_size, page k at buf + k * page size. */
struct refdrv_eq_attr {
	uint64_t buf;
	unsigned log_eq_size, log_page_size;
	uint32_t uar;    /* uar_page: the UAR whose EQ doorbells control it */
	unsigned intr;   /* MSI-X vector */
	uint64_t events; /* event bitmask (T244), bit i = event type i (bit 0 reserved) */
	bool oi, ec;
};

/* What software keeps of an EQ to poll and arm it (§7.13.2). */
struct refdrv_eq {
	uint32_t eqn;
	struct refdrv_eq_attr a;
	uint32_t cc; /* consumer counter (24 bits) */
};

/* CREATE_EQ (T243-T246) after initialising the buffer. 0 with eq filled, or the status / -1. */
int refdrv_create_eq(struct refdrv *d, const struct refdrv_eq_attr *a, struct refdrv_eq *eq);
/* DESTROY_EQ (T247-T250). */
int refdrv_destroy_eq(struct refdrv *d, uint32_t eqn);
/* QUERY_EQ (T251-T254) into out[0, out_len) (at least 0x110). */
int refdrv_query_eq(struct refdrv *d, uint32_t eqn, uint8_t *out, uint32_t out_len);
/* GEN_EQE (T255-T258) of the 64-byte EQE eqe. */
int refdrv_gen_eqe(struct refdrv *d, uint32_t eqn, const uint8_t eqe[64]);

/* The next EQE if software owns it (§7.13.2.1 -> §7.12.3.1: owner == (cc >> log_eq_size) & 1):
 * copies it, advances eq->cc and returns 1; 0 when the EQ is empty, -1 on a host error. The
 * device learns the new counter at the next doorbell. */
int refdrv_eq_poll(struct refdrv *d, struct refdrv_eq *eq, uint8_t eqe[64]);
/* The EQ doorbell of its UAR page (T13): 40h updates CI and arms, 48h updates CI only. */
void refdrv_eq_doorbell(struct refdrv *d, const struct refdrv_eq *eq, bool arm);
/* BAR0 offset of UAR page `uar` (§7.2: UAR n at n pages of 4 KB << log_uar_page_sz). */
uint64_t refdrv_uar_offset(const struct refdrv *d, uint32_t uar);
/* ALLOC_UAR (T201-T204): 0 with *uar set, or the status / -1. */
int refdrv_alloc_uar(struct refdrv *d, uint32_t *uar);

#endif
