/* RMPs (PRM §7.10, §12.13 T366-T381): CREATE/MODIFY/DESTROY/QUERY_RMP with their refusals, the
 * ICM pages a first create needs (D-PG-4), and the QUERY round trip. Shared tools: wq_util.h. */
#include <stdint.h>
#include <string.h>

#include "wq_util.h"

/* ==== RMP (needs only a PD) ==================================================================== */

TestSuite(rmp, .init = setup, .fini = teardown);

Test(rmp, create_query_modify_destroy)
{
	struct refdrv_rmp_attr a = rmp_attr();
	a.lwm = 5;
	uint32_t rmpn;
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), OK);
	cr_expect_eq(rmpn, 1, "D-OBJ-2: the first handle is 1");
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), OK);
	cr_expect_eq(st.state, 1, "T65: created RDY");
	cr_expect_eq(refdrv_modify_rmp_lwm(&tdev->d, rmpn, 9), OK);
	uint8_t in[16] = { 0 }, out[0x118];
	tl_setf(in, 0x00, 31, 16, 0x90F);
	tl_setf(in, 0x08, 23, 0, rmpn);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x20 + 0x30 + 0x04, 15, 0), 9, "T66 bit 0: lwm modified");
	cr_expect_eq(tl_get32(out + 0x114), (uint32_t)RMP_BUF, "pas[0]");
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), OK);
	cr_expect_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), BAD_RESOURCE);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 0, "no state changed");
}

Test(rmp, refusals)
{
	struct refdrv_rmp_attr a = rmp_attr();
	uint32_t rmpn;
	a.wq.log_wq_stride = 3; /* T145 log_min_stride_sz_rq 4 */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.log_wq_sz = 17; /* T145 log_max_wq_sz 16: T55 "less than" (D-WQ-1) */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), EXCEED_LIM);
	a = rmp_attr();
	a.wq.pd = pd + 1;
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_RESOURCE, "no such PD");
	a = rmp_attr();
	a.wq.dbr = RMP_DBR + 2; /* §7.4.2: 4-byte aligned */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.wq_type = 0;
	a.basic_cyclic_rcv_wqe = true; /* T65: cyclic only */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.wq_type = 2;
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.end_padding_mode = 2; /* T55: reserved */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.page_offset = 1; /* 64 B quanta: the 32-byte stride is aligned, accepted */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), OK);
	a.wq.log_wq_stride = 9; /* 512-byte strides need a 512-byte aligned first WQE (L2042) */
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &rmpn), BAD_PARAM);
	/* MODIFY (T66: RDY2RDY only; current state must match, §12.13.2). */
	uint8_t in[0x110] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x90D);
	tl_setf(in, 0x08, 23, 0, 1);
	tl_setf(in, 0x08, 31, 28, 3); /* ERR: not the RMP's state */
	tl_setf(in, 0x20, 23, 20, 1);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_RESOURCE_STATE);
	tl_setf(in, 0x08, 31, 28, 1);
	tl_setf(in, 0x20, 23, 20, 3); /* RDY2ERR is no command transition of an RMP */
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_RESOURCE_STATE);
	tl_setf(in, 0x20, 23, 20, 1);
	tl_setf(in, 0x14, 31, 0, 2); /* T66 defines bit 0 only */
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM);
	tl_setf(in, 0x08, 23, 0, 77);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_RESOURCE, "no such RMP");
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, 77), BAD_RESOURCE);
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, 1), OK);
}

TestSuite(rmp_pages, .init = setup_bare, .fini = teardown);

Test(rmp_pages, create_gets_pages_first)
{
	/* D-PG-4: no page holds an RMP context yet: CREATE_RMP answers NO_RESOURCES (T128 0x0F)
	 * and changes nothing; QUERY_PAGES(regular) then asks for one page (64 contexts a page),
	 * and the create succeeds once it is given. */
	uint8_t in[0x118] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x90C);
	tl_setf(in, 0x20, 23, 20, 1);
	tl_setf(in, 0x50, 31, 28, 1);
	tl_setf(in, 0x58, 23, 0, pd);
	tl_put32(in + 0x64, (uint32_t)RMP_DBR);
	tl_setf(in, 0x70, 19, 16, 4);
	tl_put32(in + 0x114, (uint32_t)RMP_BUF);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), NO_RESOURCES);
	cr_expect_eq(tdev->dev->obj[OBJ_RMP].nlive, 0);
	uint8_t qp[16] = { 0 };
	tl_setf(qp, 0x00, 31, 16, 0x107);
	tl_setf(qp, 0x04, 15, 0, 3);
	cr_assert_eq(tl_cmd(tdev, qp, sizeof qp, out, sizeof out), OK);
	cr_expect_eq((int32_t)tl_get32(out + 0x0C), 1, "T133 num_pages");
	give_pages(1);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x08, 23, 0), 1);
	/* A second RMP fits the same page. */
	struct refdrv_rmp_attr a = rmp_attr();
	uint32_t n;
	cr_expect_eq(refdrv_create_rmp(&tdev->d, &a, &n), OK);
	tl_mark(&tdev->tr); /* the page request event is the EQ family's */
}

Test(rmp, query_round_trip)
{
	const struct fv fv[] = {
		{ "state", 1 },		  { "basic_cyclic_rcv_wqe", 1 },
		{ "wq_type", 1 },	  { "wq_signature", 1 },
		{ "end_padding_mode", 1 }, { "page_offset", 4 },
		{ "lwm", 0x77 },	  { "pd", pd },
		{ "dbr_addr_63_32", 0x3 }, { "dbr_addr_31_0", 0x1000 },
		{ "log_wq_stride", 8 },	  { "log_wq_pg_sz", 2 },
		{ "log_wq_sz", 3 },
	};
	uint8_t in[0x118] = { 0 }, out[0x118] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x90C);
	fill(in, sizeof in, "create_rmp_in", fv, sizeof fv / sizeof fv[0]);
	tl_put32(in + 0x114, 0x9000000);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, 16), OK);
	uint32_t rmpn = tl_getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	tl_setf(q, 0x00, 31, 16, 0x90F);
	tl_setf(q, 0x08, 23, 0, rmpn);
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	round_trip("create_rmp_in", "query_rmp_out", fv, sizeof fv / sizeof fv[0], in, sizeof in,
		   out, sizeof out);
	cr_expect_eq(tl_get32(out + 0x114), 0x9000000);
}
