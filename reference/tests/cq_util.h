/* Shared by the completion queue test files (cq_*test.c): CQEs made as a work queue hands them
 * to cq_post (PRM T67/T73), read back from host memory, QUERY_CQ, and the completion events the
 * trace reports. Decisions: docs/cq.md. */
#ifndef NICREF_TESTS_CQ_UTIL_H
#define NICREF_TESTS_CQ_UTIL_H

#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/cq.h"
#include "testlib.h"

/* ---- CQEs as a work queue hands them to cq_post (T67/T73) ---------------------------------- */

static inline void cqe_set(uint8_t *c, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(c, 64, tl_field("cqe64", name), v), 0);
}

/* A requester CQE (opcode 0) of wqe_counter wc, solicited or not. */
static inline void req_cqe(uint8_t c[64], uint16_t wc, bool se)
{
	memset(c, 0, 64);
	cqe_set(c, "opcode", 0);
	cqe_set(c, "wqe_counter", wc);
	cqe_set(c, "s_wqe_opcode", 0x0A);
	cqe_set(c, "srqn_user_index", 0x123456);
	cqe_set(c, "se", se);
}

static inline int post(struct tl_dev *t, const struct refdrv_cq *cq, uint16_t wc, bool se)
{
	uint8_t c[64];
	req_cqe(c, wc, se);
	return cq_post(t->dev, cq->cqn, c);
}

/* The 64-byte CQE of entry `index` of the CQ's (current) buffer. */
static inline void read_cqe(struct tl_dev *t, const struct refdrv_cq_attr *a, unsigned index,
			     uint8_t c[64])
{
	uint32_t esz = 64u << a->cqe_sz;
	tl_mem_read(t, a->buf + (uint64_t)esz * index + esz - 64, c, 64);
}

static inline uint64_t q(struct tl_dev *t, const struct refdrv_cq *cq, const char *field)
{
	cr_assert_eq(refdrv_query_cq(&t->d, cq->cqn, t->out, 0x110), 0);
	return tl_get(t, "query_cq_out", field);
}

/* An EQ taking CQ errors (type 0x04) for the CQs' completion events too. */
static inline struct refdrv_eq async_eq(struct tl_dev *t)
{
	return tl_eq(t, 4, 1ull << 0x04, 0);
}

static inline size_t completions(const struct tl_dev *t, uint32_t cqn)
{
	size_t n = 0;
	for (size_t i = 0; i < t->tr.n; i++)
		if (t->tr.ev[i].kind == NICREF_EV_EQE && t->tr.ev[i].arg[2] == 0)
			n++;
	(void)cqn;
	return n;
}

#endif
