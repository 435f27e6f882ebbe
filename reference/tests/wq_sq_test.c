/* SQs (PRM §7.9, §12.10 T315-T331): CREATE/MODIFY/DESTROY/QUERY_SQ with their refusals, the state
 * machine (D-SQ-1), send doorbells and Blue Flame (§7.2.2, D-DB-2, D-DB-3), flush CQEs (§7.9.2,
 * T73/T74), the QUERY round trip, and a device reset. Shared tools: wq_util.h. */
#include <stdint.h>
#include <string.h>

#include "wq_util.h"

/* ==== SQ ======================================================================================= */

TestSuite(sq, .init = setup_graph, .fini = teardown);

Test(sq, create_refusals)
{
	struct refdrv_sq_attr a;
	uint32_t sqn;
	a = sq_attr();
	a.cqn = cqn + 1;
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_RESOURCE, "no such CQ");
	a = sq_attr();
	a.tisn = tisn + 1;
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_RESOURCE, "no such TIS");
	a = sq_attr();
	a.uar = uar + 1;
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_RESOURCE, "no such UAR");
	a = sq_attr();
	a.wq.pd = pd + 1;
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_RESOURCE, "no such PD");
	a = sq_attr();
	a.wq.wq_type = 0; /* T55: "Send Queue WQ must be set to 1" */
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.wq.log_wq_stride = 5; /* the 64-byte WQEBB (T145 log_min/max_stride_sz_sq 6) */
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.min_wqe_inline_mode = 4; /* §7.9.3.1: reserved */
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.min_wqe_inline_mode = 0; /* below the vport's L2 (§7.9.3, D-VP-3) */
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), BAD_PARAM);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 0);
	a = sq_attr();
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_expect_eq(sqn, 1);
	/* The references hold (D-OBJ-1): the CQ, TIS, PD and UAR cannot go first. */
	cr_expect_eq(cmd16(0x401, cqn, NULL), BAD_RES_STATE, "DESTROY_CQ");
	cr_expect_eq(cmd16(0x914, tisn, NULL), BAD_RES_STATE, "DESTROY_TIS");
	cr_expect_eq(cmd16(0x801, pd, NULL), BAD_RES_STATE, "DEALLOC_PD");
	cr_expect_eq(cmd16(0x803, uar, NULL), BAD_RES_STATE, "DEALLOC_UAR");
	cr_expect_eq(refdrv_destroy_sq(&tdev->d, sqn), OK);
	cr_expect_eq(cmd16(0x914, tisn, NULL), OK, "DESTROY_TIS once the SQ is gone");
}

/* The vport's min_wqe_inline_mode is the profile's (D-VP-3): QUERY_NIC_VPORT_CONTEXT shows it and
 * CREATE_SQ refuses a mode below it (§7.9.3 "An attempt to create SQ with inline mode < minimal
 * required by the Vport NIC will fail"). */
static void setup_vport_tcp(void)
{
	vport_inline = 3; /* §7.9.3.1 mode 3: TCP/UDP */
	setup_graph();
	vport_inline = -1;
}

TestSuite(sq_vport_tcp, .init = setup_vport_tcp, .fini = teardown);

Test(sq_vport_tcp, create_below_the_profile_vport_inline_mode_refused)
{
	uint8_t in[16] = { 0 }, out[0x110] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x754); /* QUERY_NIC_VPORT_CONTEXT */
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x10, 26, 24), 3, "T16 min_wqe_inline_mode: the profile's");
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	a.min_wqe_inline_mode = 2; /* IP: above the default vport's L2, below this one's */
	int st = refdrv_create_sq(&tdev->d, &a, &sqn);
	tl_expect_refused(tdev, (unsigned)st, NICREF_RULE_SQ_INLINE_MODE_BELOW_VPORT);
	a.min_wqe_inline_mode = 3;
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK, "equal to the vport's");
	cr_expect_eq(refdrv_destroy_sq(&tdev->d, sqn), OK);
}

static void setup_vport_none(void)
{
	vport_inline = 0; /* §7.9.3.1 mode 0: none */
	setup_graph();
	vport_inline = -1;
}

TestSuite(sq_vport_none, .init = setup_vport_none, .fini = teardown);

Test(sq_vport_none, create_with_no_inline_headers_under_a_profile_vport_of_none)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	a.min_wqe_inline_mode = 0; /* refused under the default vport (create_refusals) */
	cr_expect_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_expect_eq(refdrv_destroy_sq(&tdev->d, sqn), OK);
}

Test(sq, tis_list_size_and_state_at_create)
{
	/* T61: tis_lst_sz must be 1; T62/Figure 17: created in RST. Built by hand. */
	uint8_t in[0x118] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x904);
	tl_setf(in, 0x20, 26, 24, 1);
	tl_setf(in, 0x28, 23, 0, cqn);
	tl_setf(in, 0x40, 31, 16, 2); /* tis_lst_sz */
	tl_setf(in, 0x4C, 23, 0, tisn);
	tl_setf(in, 0x50, 31, 28, 1);
	tl_setf(in, 0x58, 23, 0, pd);
	tl_setf(in, 0x5C, 23, 0, uar);
	tl_put32(in + 0x64, (uint32_t)SQ_DBR);
	tl_setf(in, 0x70, 19, 16, 6);
	tl_put32(in + 0x114, (uint32_t)SQ_BUF);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM, "tis_lst_sz 2");
	tl_setf(in, 0x40, 31, 16, 1);
	tl_setf(in, 0x20, 23, 20, 1); /* RDY */
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM, "state RDY at create");
	tl_setf(in, 0x20, 23, 20, 0);
	cr_expect_eq(tl_cmd(tdev, in, 0x110, out, sizeof out), BAD_INPUT_LEN, "pas[0] missing");
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
}

Test(sq, transitions)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	/* D-SQ-1 from RST: RST2RDY, 2RST allowed; RST2ERR refused. */
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 3), BAD_RESOURCE_STATE);
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 1), BAD_RESOURCE_STATE, "not RDY");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 0), OK, "RST2RST");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 1), OK, "RDY2RDY");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 2), BAD_RESOURCE_STATE, "2 is no state");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 3), OK);
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 3, 1), BAD_RESOURCE_STATE, "ERR2RDY");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 3, 3), BAD_RESOURCE_STATE, "ERR2ERR");
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn, 3, 0), OK);
	cr_expect_eq(refdrv_modify_sq(&tdev->d, sqn + 1, 0, 1), BAD_RESOURCE);
	/* WQ_STATE: RST->RDY, RDY->ERR, ERR->RST (RST2RST and RDY2RDY change nothing). */
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 3);
	const struct nicref_event *e = tl_nth(&tdev->tr, NICREF_EV_WQ_STATE, 1);
	cr_expect_eq(e->arg[0], 0, "SQ");
	cr_expect_eq(e->arg[1], sqn);
	cr_expect_eq(e->arg[2], 1);
	cr_expect_eq(e->arg[3], 3);
	cr_expect_eq(e->arg[4], 0, "by command");
	/* T62 bitmask: bit 0 only. */
	uint8_t in[0x110] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x905);
	tl_setf(in, 0x08, 23, 0, sqn);
	tl_setf(in, 0x20, 23, 20, 1);
	tl_setf(in, 0x14, 31, 0, 1);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK, "D-SQ-2: bit 0 accepted");
	tl_setf(in, 0x08, 31, 28, 1);
	tl_setf(in, 0x10, 31, 0, 1);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM, "bit 32");
}

Test(sq, doorbell_and_blue_flame)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	uint8_t wqe[32];
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	/* NOPs of ds 2 (a zero-length data segment pads them, §7.2.2.1), ce 00: no CQE. */
	post_nop_wqe(wqe, 0, 2, 0, sqn, 0x11);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 1), 0);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 0, 0x00, 2);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 0, "T63: RST processes no doorbell");
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 0, 0x00, 2);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	const struct nicref_event *e = tl_nth(&tdev->tr, NICREF_EV_SQ_DOORBELL, 0);
	cr_expect_eq(e->arg[0], sqn);
	cr_expect_eq(e->arg[1], 0, "wqe_index");
	cr_expect_eq(e->arg[2], 0x00, "opcode");
	cr_expect_eq(e->arg[3], 2, "ds");
	cr_expect_eq(e->arg[4], 0, "no Blue Flame content: from memory");
	cr_expect_eq(tdev->tr.violations, 0);
	/* D-DB-2: an index outside [hw_counter, record) is not acted on; at the record it names a
	 * WQE SW has not posted (D-TX-3). */
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, uar, 1, sqn, 1, 0x00, 2);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_DB_AHEAD_OF_RECORD);
	/* Blue Flame (D-DB-3): the WQE's 32 bytes, body first, then dwords 0-1. */
	post_nop_wqe(wqe, 1, 2, 0, sqn, 0x22);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 2), 0);
	/* Register 0's even buffer: the doorbell before used the odd one (§7.2.2.1 "must be used
	 * alternately", D-DB-4). */
	uint32_t bf = uar * 4096 + 0x800;
	for (unsigned i = 8; i < 32; i += 4)
		nicref_bar_write32(tdev->dev, bf + i, tl_get32(wqe + i));
	tl_mark(&tdev->tr);
	nicref_bar_write32(tdev->dev, bf, tl_get32(wqe));
	nicref_bar_write32(tdev->dev, bf + 4, tl_get32(wqe + 4));
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_SQ_DOORBELL, 0)->arg[1], 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_SQ_DOORBELL, 0)->arg[4], 1, "taken from the Blue Flame buffer");
	cr_expect_eq(tdev->tr.violations, 0);
	/* D-TX-4: a whole copy that differs from memory (here in the padding) is executed, and the
	 * difference is the driver's violation. */
	post_nop_wqe(wqe, 2, 2, 0, sqn, 0x33);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 3), 0);
	bf = uar * 4096 + 0x900; /* the odd buffer, alternately */
	for (unsigned i = 8; i < 32; i += 4)
		nicref_bar_write32(tdev->dev, bf + i, i < 20 ? tl_get32(wqe + i) : 0xDEADBEEF);
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, uar, 1, sqn, 2, 0x00, 2);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_SQ_DOORBELL, 0)->arg[4], 1);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_BF_MISMATCH);
	tl_mark(&tdev->tr);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&tdev->d, sqn, &st), OK);
	cr_expect_eq(st.sw_counter, 3, "T55 1Ch: the record as last read (D-WQ-5)");
	cr_expect_eq(st.hw_counter, 3, "the data path ran the three NOPs (§7.4.3)");
}

Test(sq, doorbell_violations)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn, uar2;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK);
	uint8_t wqe[16];
	post_nop_wqe(wqe, 0, 1, 0, sqn, 0);
	post_nop_wqe(wqe, 1, 1, 0, sqn, 0);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 1), 0);
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, uar2, 0, sqn, 0, 0x00, 1); /* §7.2 item 4 */
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn + 5, 0, 0x00, 1);
	nicref_bar_write32(tdev->dev, uar * 4096 + 0xA04, sqn << 8 | 1); /* dword 1 alone */
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 0);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 3);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[0], NICREF_VIO_SQ_DB_WRONG_UAR);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)uar2 << 32 | sqn);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 1)->arg[0], NICREF_VIO_SQ_DB_NO_SQ);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 2)->arg[0], NICREF_VIO_SQ_DB_ORDER);
	/* §7.2.2: one Blue Flame register per SQ. */
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 0, 0x00, 1);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 2), 0);
	refdrv_sq_doorbell(&tdev->d, uar, 2, sqn, 1, 0x00, 1);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 4);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 3)->arg[0], NICREF_VIO_SQ_DB_BF_REGISTER);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 3)->arg[1], (uint64_t)sqn << 8 | 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 2, "both acted on (D-DB-4)");
	tl_mark(&tdev->tr);
}

Test(sq, flush_on_error)
{
	/* T61 flush_in_error_en, §7.9.2, T73/T74: the WQEs posted (hw_counter to the record)
	 * complete with syndrome 0x5, opcode 13, wqe_counter = their first WQEBB; T26 CE 01b
	 * WQEs after an error completion get none. WQE 0: 1 WQEBB (ds 4); WQE 1: 2 WQEBBs (ds 5);
	 * WQE 3: CE 01b, no CQE; WQE 4: ds 1. Record: 5. */
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	post_send_wqe(0, 0x0A, 4, 0, sqn);
	post_send_wqe(1, 0x00, 5, 2, sqn);
	post_send_wqe(3, 0x0A, 1, 1, sqn);
	post_send_wqe(4, 0x0A, 1, 3, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 5), 0);
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 3), OK);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 1);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 3);
	static const uint16_t counters[3] = { 0, 1, 4 };
	for (unsigned i = 0; i < 3; i++) {
		const struct nicref_event *e = tl_nth(&tdev->tr, NICREF_EV_CQE, i);
		cr_expect_eq(e->arg[0], cqn);
		cr_expect_eq(e->arg[1], i, "producer counter");
		cr_expect_eq(e->arg[2], 13, "requester error");
		cr_expect_eq(e->arg[3], 0x05, "WR_Flushed");
		cr_expect_eq(e->arg[4], counters[i]);
	}
	uint8_t cqe[64];
	cr_assert_eq(nicref_hostmem_read(tdev->dev, CQ_BUF + 64, cqe, sizeof cqe), 0);
	cr_expect_eq(cqe[0x38], 0x00, "s_wqe_opcode of WQE 1 (NOP)");
	cr_expect_eq(cqe[0x37], 0x05);
	cr_expect_eq(cqe[0x3F] >> 4, 13);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&tdev->d, sqn, &st), OK);
	cr_expect_eq(st.state, 3);
	cr_expect_eq(st.hw_counter, 5);
	cr_expect_eq(st.sw_counter, 5);
	/* T63: in ERR, WQEs posted later are flushed too, at their doorbell. */
	post_send_wqe(5, 0x0A, 1, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 6), 0);
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 5, 0x0A, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, 0)->arg[4], 5);
	/* 2RST starts over. */
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 3, 0), OK);
	cr_assert_eq(refdrv_query_sq(&tdev->d, sqn, &st), OK);
	cr_expect_eq(st.hw_counter, 0);
	cr_expect_eq(st.sw_counter, 0);
}

Test(sq, no_flush_without_flush_in_error_en)
{
	struct refdrv_sq_attr a = sq_attr();
	a.flush_in_error_en = false;
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	post_send_wqe(0, 0x0A, 1, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, SQ_DBR, true, 1), 0);
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 3), OK);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 0, 0x0A, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 0, "T61: not forced to flush (D-SQ-4)");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 0, "§7.9.2: cannot be submitted");
}

/* The SQ context round trip: every CREATE row (T62 "R") set to a non-default value comes back
 * from QUERY_SQ; the loop walks the layout so a row added without a value here fails. */

Test(sq, query_round_trip)
{
	/* 8 KB pages (log_wq_pg_sz 1), page_offset 3 (3 * 128 B), 2^5 WQEBBs: one page. */
	const uint64_t dbr = 0x1000000000ull | SQ_DBR;
	const struct fv fv[] = {
		{ "rlkey", 1 },	      { "fre", 1 },
		{ "flush_in_error_en", 1 }, { "min_wqe_inline_mode", 3 },
		{ "state", 0 },	      { "user_index", 0xABCDE },
		{ "cqn", cqn },	      { "tis_lst_sz", 1 },
		{ "tis_num_0", tisn },      { "wq_type", 1 },
		{ "wq_signature", 1 },      { "page_offset", 3 },
		{ "pd", pd },	      { "uar_page", uar },
		{ "dbr_addr_63_32", dbr >> 32 }, { "dbr_addr_31_0", dbr & 0xFFFFFFFF },
		{ "log_wq_stride", 6 },     { "log_wq_pg_sz", 1 },
		{ "log_wq_sz", 5 },
	};
	uint8_t in[0x118] = { 0 }, out[0x120] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x904);
	fill(in, sizeof in, "create_sq_in", fv, sizeof fv / sizeof fv[0]);
	tl_put32(in + 0x110, 0x5);
	tl_put32(in + 0x114, 0x6000E000);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, 16), OK);
	uint32_t sqn = tl_getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	tl_setf(q, 0x00, 31, 16, 0x907);
	tl_setf(q, 0x08, 23, 0, sqn);
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	round_trip("create_sq_in", "query_sq_out", fv, sizeof fv / sizeof fv[0], in, sizeof in, out,
		   sizeof out);
	/* Counters through a doorbell and a flush: record 2, two 1-WQEBB WQEs flushed. */
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	uint8_t ctrl[16] = { 0 };
	for (unsigned i = 0; i < 2; i++) {
		/* NOPs, ce 00, signed (wq_signature 1): the XOR of the WQE, the SQ number's three
		 * bytes and the index's two is 0xFF (§9.2.3, D-TX-8). */
		tl_put32(ctrl, i << 8 | 0x00);
		tl_put32(ctrl + 4, sqn << 8 | 1);
		ctrl[8] = 0;
		ctrl[8] = (uint8_t)(0xFF ^ tl_xor(ctrl, sizeof ctrl) ^ (sqn >> 16) ^ (sqn >> 8) ^ sqn ^
				    (i >> 8) ^ i);
		tl_mem_write(tdev, 0x56000E000ull + 384 + 64 * i, ctrl, sizeof ctrl);
	}
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, dbr, true, 2), 0);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 1, 0x00, 1);
	cr_expect_eq(tdev->tr.violations, 0, "the signatures hold");
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x20, 23, 20), 1, "state RDY now");
	cr_expect_eq(tl_getf(out, 0x20 + 0x30 + 0x1C, 15, 0), 2, "sw_counter");
	cr_expect_eq(tl_getf(out, 0x20 + 0x30 + 0x18, 15, 0), 2, "hw_counter: both ran");
	cr_expect_eq(tl_get32(out + 0x110), 0x5, "pas[0] high");
	cr_expect_eq(tl_get32(out + 0x114), 0x6000E000, "pas[0] low");
	cr_expect_eq(tl_get32(out + 0x118), 0, "one page only");
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 1, 3), OK);
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x20 + 0x30 + 0x18, 15, 0), 2, "hw_counter: nothing to flush");
}

/* ==== Device reset ============================================================================= */

Test(sq, teardown_releases_everything)
{
	struct refdrv_sq_attr a = sq_attr();
	struct refdrv_rmp_attr m = rmp_attr();
	struct refdrv_rq_attr r = rq_attr();
	uint32_t n;
	cr_assert_eq(refdrv_create_sq(&tdev->d, &a, &n), OK);
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &n), OK);
	r.on_rmp = true;
	r.rmpn = n;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &r, &n), OK);
	nicref_dev_reset(tdev->dev);
	cr_expect_eq(tdev->dev->obj[OBJ_SQ].nlive, 0);
	cr_expect_eq(tdev->dev->obj[OBJ_RQ].nlive, 0);
	cr_expect_eq(tdev->dev->obj[OBJ_RMP].nlive, 0);
	tl_mark(&tdev->tr);
}
