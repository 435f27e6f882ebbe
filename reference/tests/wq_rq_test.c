/* RQs (PRM §7.7, §12.11 T332-T348): CREATE/MODIFY/DESTROY/QUERY_RQ with their refusals and the RMP
 * they take from, vlan strip disable, flush CQEs (§7.7.2), the RQ/RMP error events (T79,
 * T82/T83, D-EV-1), the QUERY round trip, and MODIFY fields whose bitmask bit is clear (D-MOD-1)
 * under the strict and the permissive profile (D-CMD-8). Shared tools: wq_util.h. */
#include <stdint.h>
#include <string.h>

#include "wq_util.h"

/* ==== RQ ======================================================================================= */

TestSuite(rq, .init = setup_graph, .fini = teardown);

Test(rq, create_refusals_and_rmp_references)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn, rmpn;
	a.cqn = cqn + 1;
	cr_expect_eq(refdrv_create_rq(&tdev->d, &a, &rqn), BAD_RESOURCE);
	a = rq_attr();
	a.wq.log_wq_stride = 10; /* T145 log_max_stride_sz_rq 9 */
	cr_expect_eq(refdrv_create_rq(&tdev->d, &a, &rqn), BAD_PARAM);
	a = rq_attr();
	a.on_rmp = true;
	a.rmpn = 1;
	cr_expect_eq(refdrv_create_rq(&tdev->d, &a, &rqn), BAD_RESOURCE, "no RMP yet (§3.1 order)");
	struct refdrv_rmp_attr m = rmp_attr();
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &rmpn), OK);
	a.rmpn = rmpn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), BAD_RES_STATE, "an RQ is attached");
	cr_expect_eq(refdrv_destroy_rq(&tdev->d, rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), OK);
	/* mem_rq_type 2 and a non-RMP rmpn (reserved, D-CMD-8) by hand. */
	uint8_t in[0x118] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x908);
	tl_setf(in, 0x20, 27, 24, 2);
	tl_setf(in, 0x28, 23, 0, cqn);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM);
	tl_setf(in, 0x20, 27, 24, 0);
	tl_setf(in, 0x30, 23, 0, 1);
	tl_mark(&tdev->tr);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), BAD_PARAM);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[0], NICREF_VIO_CMD_RESERVED_NOT_ZERO);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x30 << 32 | 1,
		     "T53 10h rmpn: the input dword 30h and its bits (D-CMD-8)");
	tl_mark(&tdev->tr);
}

Test(rq, transitions_and_vsd)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_expect_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 3), BAD_RESOURCE_STATE, "RST2ERR");
	cr_expect_eq(refdrv_modify_rq_vsd(&tdev->d, rqn, 0, 1, true), OK, "T56: vsd in RST2RDY");
	cr_expect_eq(refdrv_modify_rq_vsd(&tdev->d, rqn, 1, 3, false), BAD_PARAM, "not in RDY2ERR");
	cr_expect_eq(refdrv_modify_rq_vsd(&tdev->d, rqn, 1, 1, false), OK, "RDY2RDY");
	uint8_t in[16] = { 0 }, out[0x110];
	tl_setf(in, 0x00, 31, 16, 0x90B);
	tl_setf(in, 0x08, 23, 0, rqn);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x20, 28, 28), 0, "vsd as last modified");
	cr_expect_eq(refdrv_modify_rq(&tdev->d, rqn, 1, 3), OK);
	cr_expect_eq(refdrv_modify_rq(&tdev->d, rqn, 3, 1), BAD_RESOURCE_STATE);
	cr_expect_eq(refdrv_modify_rq(&tdev->d, rqn, 3, 0), OK);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 3);
}

Test(rq, flush_on_error)
{
	/* §7.7.2.1, T53 flush_in_error_en: WQEs 0-2 posted (record 3) flush with opcode 14,
	 * syndrome 0x5, wqe_counter = the WQE index. */
	struct refdrv_rq_attr a = rq_attr();
	a.user_index = 0x123;
	uint32_t rqn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 1), OK);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RQ_DBR, false, 3), 0);
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 1, 3), OK);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 3);
	for (unsigned i = 0; i < 3; i++) {
		cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, i)->arg[2], 14);
		cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, i)->arg[3], 0x05);
		cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, i)->arg[4], i);
	}
	uint8_t cqe[64];
	cr_assert_eq(nicref_hostmem_read(tdev->dev, CQ_BUF, cqe, sizeof cqe), 0);
	cr_expect_eq(tl_getf(cqe, 0x20, 23, 0), 0x123, "user_index (cqe_version 1)");
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 0, "an inline RQ has no Last WQE event");
}

Test(rq, rmp_rq_error_events)
{
	/* §7.7.2.2: an RMP RQ entering ERR flushes the WQEs it took, then Last WQE Reached
	 * (0x13, T82/T83 type 1). T57: an RQ taking from an RMP in ERR goes to ERR with the RQ
	 * catastrophic event (0x05); the RMP's own error raises 0x12 (D-EV-1). */
	struct refdrv_rmp_attr m = rmp_attr();
	m.lwm = 2;
	uint32_t rmpn, rqn;
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &rmpn), OK);
	struct refdrv_rq_attr a = rq_attr();
	a.on_rmp = true;
	a.rmpn = rmpn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 1), OK);
	struct rq *rq = obj_get(tdev->dev, OBJ_RQ, rqn);
	struct rmp *rmp = obj_get(tdev->dev, OBJ_RMP, rmpn);
	uint32_t idx;
	cr_expect_eq(rq_dequeue(tdev->dev, rq, &idx), -2, "nothing posted");
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, RMP_DBR, false, 4), 0);
	tl_mark(&tdev->tr);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_expect_eq(idx, 0);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_expect_eq(idx, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 0, "3 then 2 left: not below lwm 2");
	rq_wqe_done(rq, 0);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 1, "1 left < 2: the limit event (D-WQ-2)");
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->arg[2], 0x14);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), OK);
	cr_expect_eq(st.hw_counter, 3);
	cr_expect_eq(st.sw_counter, 4);
	cr_assert_eq(rq_dequeue(tdev->dev, rq, &idx), 0);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 1, "one-shot: disarmed");
	/* Taken, not done: 1, 2, 3. MODIFY RDY2ERR flushes them, then 0x13. */
	tl_mark(&tdev->tr);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 1, 3), OK);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 3);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, 0)->arg[4], 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_CQE, 2)->arg[4], 3);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->arg[2], 0x13);
	cr_expect(tl_nth(&tdev->tr, NICREF_EV_CQE, 2)->seq < tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->seq, "after the flush");
	uint8_t eqe[64];
	cr_assert_eq(nicref_hostmem_read(tdev->dev, EQ_BUF + 64 * tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->arg[1], eqe,
					 sizeof eqe), 0);
	cr_expect_eq(eqe[0x20 + 0x14], 1, "T83 type RQ");
	cr_expect_eq(tl_getf(eqe, 0x20 + 0x18, 23, 0), rqn);
	/* RMP error: 0x12; then the RQ, back in RDY, fails its next take: ERR, 0x05, 0x13. */
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 3, 0), OK);
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn, 0, 1), OK);
	tl_mark(&tdev->tr);
	rmp_hw_error(tdev->dev, rmp);
	cr_expect_eq(rq_dequeue(tdev->dev, rq, &idx), -1);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_EQE), 3);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 0)->arg[2], 0x12);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 1)->arg[2], 0x05);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_EQE, 2)->arg[2], 0x13);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 2);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_WQ_STATE, 0)->arg[0], 2, "RMP");
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_WQ_STATE, 0)->arg[4], 1, "by the device");
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_WQ_STATE, 1)->arg[0], 1, "RQ");
	cr_assert_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), OK);
	cr_expect_eq(st.state, 3);
	/* §7.7.2.2: recovery is destroying the RQs, then the RMP. */
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), BAD_RES_STATE);
	cr_expect_eq(refdrv_destroy_rq(&tdev->d, rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), OK);
}

Test(rq, query_round_trip)
{
	const struct fv fv[] = {
		{ "rlkey", 1 },		{ "vlan_strip_disable", 1 },
		{ "mem_rq_type", 0 },	{ "state", 0 },
		{ "flush_in_error_en", 1 }, { "user_index", 0x54321 },
		{ "cqn", cqn },		{ "rmpn", 0 },
		{ "wq_type", 1 },	{ "wq_signature", 1 },
		{ "end_padding_mode", 1 }, { "page_offset", 2 },
		{ "pd", pd },		{ "dbr_addr_63_32", 0x2 },
		{ "dbr_addr_31_0", 0x44 }, { "log_wq_stride", 7 },
		{ "log_wq_pg_sz", 0 },	{ "log_wq_sz", 6 },
	};
	/* 2^6 * 128 B = 8 KB after 2 * 64 B: three pages. */
	uint8_t in[0x128] = { 0 }, out[0x130] = { 0 };
	tl_setf(in, 0x00, 31, 16, 0x908);
	fill(in, sizeof in, "create_rq_in", fv, sizeof fv / sizeof fv[0]);
	for (unsigned i = 0; i < 3; i++)
		tl_put32(in + 0x114 + 8 * i, 0x7000000 + 0x3000 * i);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, 16), OK);
	uint32_t rqn = tl_getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	tl_setf(q, 0x00, 31, 16, 0x90B);
	tl_setf(q, 0x08, 23, 0, rqn);
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	round_trip("create_rq_in", "query_rq_out", fv, sizeof fv / sizeof fv[0], in, sizeof in, out,
		   sizeof out);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(tl_get32(out + 0x114 + 8 * i), 0x7000000 + 0x3000 * i, "pas[%u]", i);
	cr_expect_eq(tl_get32(out + 0x12C), 0, "no fourth page");
}

static void setup_permissive(void)
{
	reserved_check = 0; /* D-CMD-8: reserved bits reported, the command runs */
	setup_graph();
	reserved_check = -1;
}

TestSuite(wq_permissive, .init = setup_permissive, .fini = teardown);

Test(wq_permissive, conditional_reserved_field_reported_and_run)
{
	/* T53 10h rmpn is reserved for an inline RQ: reported at input dword 30h; with the
	 * permissive profile the RQ is created and QUERY_RQ returns the field as given. */
	struct refdrv_rmp_attr m = rmp_attr();
	uint32_t rmpn, rqn;
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &rmpn), OK);
	tl_mark(&tdev->tr);
	struct refdrv_rq_attr r = rq_attr();
	uint8_t in[0x118] = { 0 }, out[0x118];
	tl_setf(in, 0x00, 31, 16, 0x908);
	tl_setf(in, 0x28, 23, 0, cqn);
	tl_setf(in, 0x30, 23, 0, rmpn);
	tl_setf(in, 0x50, 31, 28, 1);
	tl_setf(in, 0x58, 23, 0, pd);
	tl_put32(in + 0x64, (uint32_t)r.wq.dbr);
	tl_setf(in, 0x70, 19, 16, 5);
	tl_setf(in, 0x70, 4, 0, 4);
	tl_put32(in + 0x114, (uint32_t)r.wq.buf);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, 16), OK);
	rqn = tl_getf(out, 0x08, 23, 0);
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x30 << 32 | rmpn);
	cr_expect_eq(tdev->dev->obj[OBJ_RMP].nlive, 1);
	cr_expect_eq(((struct obj_hdr *)obj_get(tdev->dev, OBJ_RMP, rmpn))->refs, 0,
		     "an inline RQ does not attach to the RMP it names in a reserved field");
	uint8_t q[16] = { 0 };
	tl_setf(q, 0x00, 31, 16, 0x90B);
	tl_setf(q, 0x08, 23, 0, rqn);
	cr_assert_eq(tl_cmd(tdev, q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, 0x30, 23, 0), rmpn);
	tl_mark(&tdev->tr);
}

/* MODIFY_RQ and MODIFY_RMP with a bitmask field whose bit is clear: T337/T371 20h "Only fields
 * requested by the mask should be valid. Other fields are reserved" (D-MOD-1). vsd is MODIFY_RQ
 * input 20h[28] (T52 00h[28] + 20h), lwm MODIFY_RMP input 54h[15:0] (T54 04h + 30h + 20h). */
static int modify_rq_raw(uint32_t rqn, unsigned cur, unsigned next, uint32_t mask, unsigned vsd)
{
	uint8_t in[0x110] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x909);
	tl_setf(in, 0x08, 31, 28, cur);
	tl_setf(in, 0x08, 23, 0, rqn);
	tl_put32(in + 0x14, mask);
	tl_setf(in, 0x20, 28, 28, vsd);
	tl_setf(in, 0x20, 23, 20, next);
	return tl_cmd(tdev, in, sizeof in, out, sizeof out);
}

static int modify_rmp_raw(uint32_t rmpn, uint32_t mask, unsigned lwm)
{
	uint8_t in[0x110] = { 0 }, out[16];
	tl_setf(in, 0x00, 31, 16, 0x90D);
	tl_setf(in, 0x08, 31, 28, 1);
	tl_setf(in, 0x08, 23, 0, rmpn);
	tl_put32(in + 0x14, mask);
	tl_setf(in, 0x20, 23, 20, 1);
	tl_setf(in, 0x54, 15, 0, lwm);
	return tl_cmd(tdev, in, sizeof in, out, sizeof out);
}

static unsigned query_vsd(uint32_t rqn)
{
	uint8_t in[16] = { 0 }, out[0x110];
	tl_setf(in, 0x00, 31, 16, 0x90B);
	tl_setf(in, 0x08, 23, 0, rqn);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	return tl_getf(out, 0x20, 28, 28);
}

static unsigned query_lwm(uint32_t rmpn)
{
	uint8_t in[16] = { 0 }, out[0x118];
	tl_setf(in, 0x00, 31, 16, 0x90F);
	tl_setf(in, 0x08, 23, 0, rmpn);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, sizeof out), OK);
	return tl_getf(out, 0x20 + 0x30 + 0x04, 15, 0);
}

/* Both profiles: strict refuses (BAD_PARAM, nothing changes), permissive runs the command
 * without taking the field; each reports one violation at the field's dword. */
static void unselected_modify_fields(bool strict)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn, rmpn;
	cr_assert_eq(refdrv_create_rq(&tdev->d, &a, &rqn), OK);
	cr_assert_eq(modify_rq_raw(rqn, 0, 1, 0, 0), OK, "RST2RDY, nothing else");
	tl_mark(&tdev->tr);
	cr_expect_eq(modify_rq_raw(rqn, 1, 1, 0, 1), strict ? BAD_PARAM : OK, "vsd, bit 1 clear");
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x20 << 32 | 0x10000000);
	cr_expect_eq(query_vsd(rqn), 0, "vsd not taken");
	cr_expect_eq(modify_rq_raw(rqn, 1, 1, 2, 1), OK, "with bit 1 it is");
	cr_expect_eq(query_vsd(rqn), 1);

	struct refdrv_rmp_attr m = rmp_attr();
	m.lwm = 5;
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &m, &rmpn), OK);
	tl_mark(&tdev->tr);
	cr_expect_eq(modify_rmp_raw(rmpn, 0, 300), strict ? BAD_PARAM : OK, "lwm, bit 0 clear");
	cr_assert_eq(tl_count(&tdev->tr, NICREF_EV_VIOLATION), 1);
	cr_expect_eq(tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x54 << 32 | 300);
	cr_expect_eq(query_lwm(rmpn), 5, "lwm not taken");
	cr_expect_eq(modify_rmp_raw(rmpn, 1, 300), OK, "with bit 0 it is");
	cr_expect_eq(query_lwm(rmpn), 300);
	tl_mark(&tdev->tr);
}

Test(rq, unselected_modify_fields_are_reserved)
{
	unselected_modify_fields(true);
}

Test(wq_permissive, unselected_modify_fields_reported_not_taken)
{
	unselected_modify_fields(false);
}
