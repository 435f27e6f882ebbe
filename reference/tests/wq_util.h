/* Shared by the work queue test files (wq_*test.c): work queues (PRM §7.4, §7.7-§7.10) and their
 * commands (§12.10, §12.11, §12.13).
 *
 * Dependencies (EQ, CQ, TIS, PD, UAR, TD) are made with their own commands, built byte by byte
 * at the offsets the PRM tables print; expected values come from the PRM and the decisions of
 * docs/wq.md, never from what the model prints. SQs, RQs and RMPs are made with the reference
 * driver's helpers (harness/driver_wq.c).
 *
 * Each test file that includes this header has its own device and objects (the static state
 * below), made by setup(), setup_bare() or setup_graph(). */
#ifndef NICREF_TESTS_WQ_UTIL_H
#define NICREF_TESTS_WQ_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_wq.h"
#include "prm/layouts.h"
#include "testlib.h"

/* T128. */
#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_PARAM 0x03u
#define BAD_RESOURCE 0x05u
#define EXCEED_LIM 0x08u
#define BAD_RES_STATE 0x09u
#define NO_RESOURCES 0x0Fu
#define BAD_RESOURCE_STATE 0x10u
#define BAD_INPUT_LEN 0x50u

/* Host memory of the test. */
#define EQ_BUF 0x31000000ull
#define CQ_BUF 0x30000000ull
#define CQ_DBR 0x30100000ull
#define SQ_BUF 0x32000000ull
#define SQ_DBR 0x32100000ull
#define RQ_BUF 0x33000000ull
#define RQ_DBR 0x33100000ull
#define RMP_BUF 0x34000000ull
#define RMP_DBR 0x34100000ull
#define ICM_PAGES 0x11000000ull

/* The device of the test, brought up by the reference driver, and what its trace said. */
static struct tl_dev *tdev;

/* A command of a 16-byte input (opcode 00h[31:16], a number at 08h[23:0]); output 08h[23:0]. */
static inline int cmd16(uint16_t opcode, uint32_t num, uint32_t *result)
{
	uint8_t in[16] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, opcode);
	tl_setf(in, 0x08, 23, 0, num);
	int st = tl_cmd(tdev, in, sizeof in, out, sizeof out);
	if (result)
		*result = tl_getf(out, 0x08, 23, 0);
	return st;
}

/* ---- Dependencies ---------------------------------------------------------------------------- */

static uint32_t pd, uar, td, eqn, cqn, tisn;

/* MANAGE_PAGES op_mod 1 (T134/T135): n pages at ICM_PAGES + 4 KB * k. */
static inline void give_pages(unsigned n)
{
	uint8_t in[16 + 8 * 32] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x108);
	tl_setf(in, 0x04, 15, 0, 1);
	tl_setf(in, 0x0C, 31, 0, n);
	for (unsigned i = 0; i < n; i++)
		tl_put32(in + 0x14 + 8 * i, (uint32_t)(ICM_PAGES + 0x1000ull * i));
	cr_assert_eq(tl_cmd(tdev, in, 16 + 8 * n, out, sizeof out), OK);
}

/* CREATE_EQ (T243/T244, EQC T93/T94 at 10h): 64 EQEs in one page, mapped to the SQ/RQ/RMP
 * events (bitmask 58h-5Fh, bit i = event type i, bit 0 the LSB of 5Ch). */
static inline uint32_t create_eq(void)
{
	uint8_t in[0x118] = { 0 }, out[16], owner[64] = { 0 };
	owner[63] = 1; /* L6859: EQEs start in HW ownership */
	for (unsigned i = 0; i < 64; i++)
		tl_mem_write(tdev, EQ_BUF + 64 * i, owner, sizeof owner);
	tl_setf(in, 0x00, 31, 16, 0x301);
	tl_setf(in, 0x10 + 0x0C, 28, 24, 6);   /* log_eq_size */
	tl_setf(in, 0x10 + 0x0C, 23, 0, uar);  /* uar_page */
	tl_put32(in + 0x5C, 1u << 0x05 | 1u << 0x12 | 1u << 0x13 | 1u << 0x14);
	tl_put32(in + 0x110, (uint32_t)(EQ_BUF >> 32));
	tl_put32(in + 0x114, (uint32_t)EQ_BUF);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK, "CREATE_EQ");
	return tl_getf(out, 0x08, 7, 0);
}

/* CREATE_CQ (T260/T261, CQC T75/T76 at 10h): 64 CQEs of 64 B, initialised invalid (L7031). */
static inline uint32_t create_cq(void)
{
	uint8_t in[0x118] = { 0 }, out[16], cqe[64] = { 0 };
	cqe[63] = 0xF1; /* opcode 0xF, owner 1 (D-CQ-8) */
	for (unsigned i = 0; i < 64; i++)
		tl_mem_write(tdev, CQ_BUF + 64 * i, cqe, sizeof cqe);
	tl_setf(in, 0x00, 31, 16, 0x400);
	tl_setf(in, 0x10 + 0x0C, 28, 24, 6);  /* log_cq_size */
	tl_setf(in, 0x10 + 0x0C, 23, 0, uar); /* uar_page */
	tl_setf(in, 0x10 + 0x14, 7, 0, eqn);  /* c_eqn */
	tl_put32(in + 0x10 + 0x38, (uint32_t)(CQ_DBR >> 32));
	tl_put32(in + 0x10 + 0x3C, (uint32_t)CQ_DBR);
	tl_put32(in + 0x110, (uint32_t)(CQ_BUF >> 32));
	tl_put32(in + 0x114, (uint32_t)CQ_BUF);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK, "CREATE_CQ");
	return tl_getf(out, 0x08, 23, 0);
}

/* CREATE_TIS (T298/T299, TISC T49/T50 at 20h: transport_domain 24h[23:0]). */
static inline uint32_t create_tis(void)
{
	uint8_t in[0xC0] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x912);
	tl_setf(in, 0x20 + 0x24, 23, 0, td);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK, "CREATE_TIS");
	return tl_getf(out, 0x08, 23, 0);
}

static bool give_icm = true;
static int log_max_objects = -1; /* profile override, -1: the default */
static int reserved_check = -1;
static int vport_inline = -1; /* profile vport_min_wqe_inline_mode, -1: the default */

static inline void setup(void)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	if (log_max_objects >= 0)
		p.log_max_objects = (uint8_t)log_max_objects;
	if (reserved_check >= 0)
		p.reserved_check = (uint8_t)reserved_check;
	if (vport_inline >= 0)
		p.vport_min_wqe_inline_mode = (uint8_t)vport_inline;
	tdev = tl_up_to(&p, REFDRV_INITIALIZED);
	if (give_icm)
		give_pages(16);
	cr_assert_eq(cmd16(0x800, 0, &pd), OK);  /* ALLOC_PD */
	cr_assert_eq(cmd16(0x802, 0, &uar), OK); /* ALLOC_UAR */
	cr_assert_eq(cmd16(0x816, 0, &td), OK);  /* ALLOC_TRANSPORT_DOMAIN */
}

/* Without ICM pages for the contexts: the first create of a type must get some (D-PG-4). */
static inline void setup_bare(void)
{
	give_icm = false;
	setup();
	give_icm = true;
}

static inline void setup_graph(void)
{
	setup();
	eqn = create_eq();
	cqn = create_cq();
	tisn = create_tis();
	tl_mark(&tdev->tr);
}

/* No violation since the last mark; the model's invariants hold. */
static inline void teardown(void)
{
	tl_down_clean(tdev);
	tdev = NULL;
}

/* ---- Attributes ------------------------------------------------------------------------------ */

static inline struct refdrv_sq_attr sq_attr(void)
{
	struct refdrv_sq_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = SQ_BUF, .dbr = SQ_DBR, .wq_type = 1, .log_wq_sz = 6,
					.log_wq_stride = 6, .pd = pd };
	a.cqn = cqn;
	a.tisn = tisn;
	a.uar = uar;
	a.min_wqe_inline_mode = 1; /* the vport's (D-VP-3: L2) */
	a.flush_in_error_en = true;
	return a;
}

static inline struct refdrv_rq_attr rq_attr(void)
{
	struct refdrv_rq_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = RQ_BUF, .dbr = RQ_DBR, .wq_type = 1, .log_wq_sz = 4,
					.log_wq_stride = 5, .pd = pd };
	a.cqn = cqn;
	a.flush_in_error_en = true;
	return a;
}

static inline struct refdrv_rmp_attr rmp_attr(void)
{
	struct refdrv_rmp_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = RMP_BUF, .dbr = RMP_DBR, .wq_type = 1, .log_wq_sz = 4,
					.log_wq_stride = 5, .pd = pd };
	return a;
}

/* A send WQE ctrl segment (T25/T26) of ds octowords at WQEBB index idx of the SQ. */
static inline void post_send_wqe(uint16_t idx, uint8_t opcode, unsigned ds, unsigned ce,
				 uint32_t sqn)
{
	uint8_t ctrl[16] = { 0 };
	tl_put32(ctrl, (uint32_t)idx << 8 | opcode);
	tl_put32(ctrl + 4, sqn << 8 | ds);
	ctrl[11] = (uint8_t)(ce << 2);
	tl_mem_write(tdev, SQ_BUF + 64u * (idx % 64), ctrl, sizeof ctrl);
}

/* A NOP (T26 opcode 0x00) of ds octowords at WQEBB idx: its ctrl segment, then ds - 1 inline
 * data segments of byte_count 0, the padding §7.2.2.1 allows a WQE, whose padding bytes hold
 * `fill` (T39: the rest of the octword). The NOP completes without a frame; with ce 0 without
 * a CQE. Into wqe (ds * 16 bytes) and memory. */
static inline void post_nop_wqe(uint8_t *wqe, uint16_t idx, unsigned ds, unsigned ce,
				uint32_t sqn, uint8_t fill)
{
	memset(wqe, fill, ds * 16u);
	memset(wqe, 0, 16);
	tl_put32(wqe, (uint32_t)idx << 8 | 0x00);
	tl_put32(wqe + 4, sqn << 8 | ds);
	wqe[11] = (uint8_t)(ce << 2);
	for (unsigned o = 16; o < ds * 16u; o += 16)
		tl_put32(wqe + o, 0x80000000u);
	tl_mem_write(tdev, SQ_BUF + 64u * (idx % 64), wqe, ds * 16u);
}

/* ---- Context round trips ---------------------------------------------------------------------- */

/* A context round trip (SQ, RQ, RMP): every CREATE row (T62 "R") set to a non-default value
 * comes back from the QUERY; the loop walks the layout so a row added without a value here
 * fails. */
struct fv {
	const char *name;
	uint64_t v;
};

static inline void round_trip(const char *in_layout, const char *out_layout,
			      const struct fv *fv, size_t nfv, const uint8_t *in, size_t in_len,
			      const uint8_t *out, size_t out_len)
{
	const struct nicref_layout *li = nicref_layout_find(in_layout);
	const struct nicref_layout *lo = nicref_layout_find(out_layout);
	unsigned checked = 0;
	for (uint32_t i = 0; i < li->nfields; i++) {
		const struct nicref_field *f = &li->fields[i];
		if (f->bit_offset < 0x20 * 8 || f->flags & NICREF_FIELD_ARRAY)
			continue;
		/* The UMEM fields beyond PRM Rev 0.40 are CREATE's only (docs/umem.md D-UMEM-7,
		 * umem_test.c). */
		if (strstr(f->name, "umem"))
			continue;
		size_t k = 0;
		while (k < nfv && strcmp(fv[k].name, f->name))
			k++;
		cr_assert_lt(k, nfv, "%s.%s has no test value", in_layout, f->name);
		uint64_t sent = 0, got = 0;
		cr_assert_eq(nicref_field_get(in, in_len, f, &sent), 0);
		cr_expect_eq(sent, fv[k].v, "%s set", f->name);
		const struct nicref_field *g = nicref_layout_field(lo, f->name);
		cr_assert_not_null(g, "%s.%s", out_layout, f->name);
		cr_assert_eq(nicref_field_get(out, out_len, g, &got), 0);
		cr_expect_eq(got, fv[k].v, "QUERY %s: 0x%llx, expected 0x%llx", f->name,
			     (unsigned long long)got, (unsigned long long)fv[k].v);
		checked++;
	}
	cr_expect_gt(checked, 10);
}

static inline void fill(uint8_t *in, size_t len, const char *layout, const struct fv *fv,
			size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(nicref_field_set(in, len, nicref_layout_field(l, fv[i].name), fv[i].v), 0,
			     "%s", fv[i].name);
}

#endif
