/* The reference driver's SQ/RQ/RMP helpers (harness/driver_wq.c) against the model: on a device
 * that holds no ICM page for any context yet, each create gets its pages (QUERY_PAGES regular,
 * MANAGE_PAGES, D-PG-4) and succeeds; the whole life of each queue (PRM §12.10, §12.11, §12.13)
 * runs without a single driver violation. */
#include <string.h>

#include "driver_tir.h"
#include "testlib.h"

static struct tl_dev *tdev;

static void setup(void)
{
	tdev = tl_up_to(NULL, REFDRV_INITIALIZED);
}

/* The helpers caused no driver violation; the model's invariants hold. */
static void teardown(void)
{
	tl_down_clean(tdev);
}

TestSuite(refdrv_wq, .init = setup, .fini = teardown);

#define OK 0
#define BAD_RES_STATE 0x09

/* A 16-byte command with an object number in 08h[23:0] of the output (ALLOC_PD, ALLOC_TD). */
static uint32_t alloc(uint16_t opcode)
{
	uint8_t in[16] = { 0 }, out[16];
	in[0] = (uint8_t)(opcode >> 8);
	in[1] = (uint8_t)opcode;
	cr_assert_eq(refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out), OK, "%s", tdev->d.error);
	return (uint32_t)out[9] << 16 | (uint32_t)out[10] << 8 | out[11];
}

Test(refdrv_wq, whole_life_of_each_queue)
{
	uint32_t pd = alloc(0x800), td = alloc(0x816), uar, tisn, sqn, rqn, rmpn, rqn2;
	cr_assert_eq(refdrv_alloc_uar(&tdev->d, &uar), OK);
	struct refdrv_eq_attr ea = { .buf = 0x31000000, .log_eq_size = 3, .uar = uar };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&tdev->d, &ea, &eq), OK, "%s", tdev->d.error);
	struct refdrv_cq_attr ca = { .buf = 0x30000000, .dbr = 0x30100000, .log_cq_size = 3,
				     .uar = uar, .eqn = eq.eqn };
	struct refdrv_cq cq;
	cr_assert_eq(refdrv_create_cq(&tdev->d, &ca, &cq), OK, "%s", tdev->d.error);
	cr_assert_eq(refdrv_create_tis(&tdev->d, td, 0, &tisn), OK, "%s", tdev->d.error);

	/* SQ: the first of its type, so the helper first gives the device a page. */
	struct refdrv_sq_attr sa = { .wq = { .buf = 0x32000000, .dbr = 0x32100000, .wq_type = 1,
					     .log_wq_sz = 6, .log_wq_stride = 6, .pd = pd },
				     .cqn = cq.cqn, .tisn = tisn, .uar = uar,
				     .min_wqe_inline_mode = 1, .flush_in_error_en = true };
	cr_assert_eq(refdrv_create_sq(&tdev->d, &sa, &sqn), OK, "%s", tdev->d.error);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, sqn, 0, 1), OK);
	/* Post one NOP WQE (T26: opcode 0, ds 1) and ring (§7.4.3.1). */
	uint8_t ctrl[16] = { 0, 0, 0, 0x00, (uint8_t)(sqn >> 16), (uint8_t)(sqn >> 8), (uint8_t)sqn, 1 };
	cr_assert_eq(nicref_hostmem_write(tdev->dev, sa.wq.buf, ctrl, sizeof ctrl), 0);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, sa.wq.dbr, true, 1), 0);
	refdrv_sq_doorbell(&tdev->d, uar, 0, sqn, 0, 0x00, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 1);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&tdev->d, sqn, &st), OK);
	cr_expect_eq(st.state, 1);
	cr_expect_eq(st.sw_counter, 1);

	/* RMP, an RQ on it, and an inline RQ. */
	struct refdrv_rmp_attr ma = { .wq = { .buf = 0x34000000, .dbr = 0x34100000, .wq_type = 1,
					      .log_wq_sz = 4, .log_wq_stride = 5, .pd = pd },
				      .lwm = 2 };
	cr_assert_eq(refdrv_create_rmp(&tdev->d, &ma, &rmpn), OK, "%s", tdev->d.error);
	struct refdrv_rq_attr ra = { .cqn = cq.cqn, .on_rmp = true, .rmpn = rmpn };
	cr_assert_eq(refdrv_create_rq(&tdev->d, &ra, &rqn), OK, "%s", tdev->d.error);
	struct refdrv_rq_attr ia = { .wq = { .buf = 0x33000000, .dbr = 0x33100000, .wq_type = 1,
					     .log_wq_sz = 4, .log_wq_stride = 5, .pd = pd,
					     .end_padding_mode = 1 },
				     .cqn = cq.cqn, .flush_in_error_en = true };
	cr_assert_eq(refdrv_create_rq(&tdev->d, &ia, &rqn2), OK, "%s", tdev->d.error);
	cr_assert_eq(refdrv_modify_rq_vsd(&tdev->d, rqn2, 0, 1, true), OK);
	cr_assert_eq(refdrv_modify_rmp_lwm(&tdev->d, rmpn, 7), OK);
	cr_assert_eq(refdrv_query_rmp(&tdev->d, rmpn, &st), OK);
	cr_expect_eq(st.state, 1);
	cr_assert_eq(refdrv_query_rq(&tdev->d, rqn2, &st), OK);
	cr_expect_eq(st.state, 1);
	cr_expect_eq(refdrv_destroy_rmp(&tdev->d, rmpn), BAD_RES_STATE, "an RQ is attached");

	/* Tear-down in the reverse order (§3.2.1). */
	cr_assert_eq(refdrv_modify_rq(&tdev->d, rqn2, 1, 3), OK);
	cr_assert_eq(refdrv_destroy_rq(&tdev->d, rqn2), OK);
	cr_assert_eq(refdrv_destroy_rq(&tdev->d, rqn), OK);
	cr_assert_eq(refdrv_destroy_rmp(&tdev->d, rmpn), OK);
	cr_assert_eq(refdrv_destroy_sq(&tdev->d, sqn), OK);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_WQ_STATE), 3, "SQ RST2RDY, RQ RST2RDY, RQ RDY2ERR");
	cr_expect_eq(refdrv_wq_pages(&sa.wq), 1);
	struct refdrv_wq_attr big = { .log_wq_sz = 8, .log_wq_stride = 6, .page_offset = 1 };
	cr_expect_eq(refdrv_wq_pages(&big), 5, "64 B in, then 16 KB: five 4 KB pages");
}
