/* SQ execution (PRM §7.4.1.1, §7.4.3, §7.9, §7.2.2.1; eth/sq_exec.c, D-TX-3, D-TX-4): an
 * acted-on doorbell of a RDY SQ runs the WQEs from the device's counter to the record, over the
 * WQEBB ring and its wrap, from memory or from the Blue Flame buffer; the doorbell index rules;
 * frames leave through ops.wire_tx with a frame_out event. Shared tools: tx_util.h. */
#include <malloc.h>

#include "tx_util.h"

TestSuite(tx_exec, .init = tx_setup, .fini = tx_teardown);

/* A NOP (T26 0x00: "creates a completion, but does nothing else") of ce 10: one CQE. */
static void w_nop(struct wqe *w, unsigned ce)
{
	w_ctrl(w, NICREF_SEND_OP_NOP, ce);
}

Test(tx_exec, one_send_one_frame_one_cqe)
{
	uint8_t pkt[100], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 2, pkt, len, 14, 0);
	tx_send(&w);
	/* §7.4.4.1.2: the frame is the inline headers, then the gathered data. */
	cr_assert_eq(tx.nframes, 1);
	tx_expect_frame(0, pkt, len);
	const struct nicref_event *f = tl_only(&tdev->tr, NICREF_EV_FRAME_OUT);
	cr_expect_eq(f->arg[0], 1, "port");
	cr_expect_eq(f->arg[1], len, "len");
	/* D-TX-2: the CRC-32 of the bytes, as zlib computes it: crc32 of the frame. */
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < len; i++) {
		c ^= pkt[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	cr_expect_eq(f->arg[2], c ^ 0xFFFFFFFFu, "crc");
	cr_assert_eq(tx_poll(cqe), 1, "ce 10: a CQE");
	cr_expect_eq(CQE(cqe, "opcode"), 0, "T68 requester");
	cr_expect_eq(CQE(cqe, "wqe_counter"), 0);
	cr_expect_eq(CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_SEND);
	cr_expect_eq(tx_poll(cqe), 0);
	cr_expect_eq(tx_query().hw_counter, 1, "§7.4.3: executed, the counter past it");
	struct nicref_stats s;
	nicref_stats_get(tdev->dev, &s);
	cr_expect_eq(s.send_wqes, 1);
	cr_expect_eq(s.frames_out, 1);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_exec, one_doorbell_runs_every_wqe_up_to_the_record)
{
	/* §7.4.3.1: "Software can post a list of WQEs together ... updating the DoorBell record
	 * once and ringing one DoorBell ... the wqe_index in the DoorBell should point to the
	 * first wqebb of the last WQE posted." */
	struct wqe w[3];
	for (int i = 0; i < 3; i++) {
		w_nop(&w[i], 2);
		tx_post(&w[i]);
	}
	tx_ring(&w[2]);
	uint8_t cqe[64];
	for (unsigned i = 0; i < 3; i++) {
		cr_assert_eq(tx_poll(cqe), 1, "CQE %u", i);
		cr_expect_eq(CQE(cqe, "wqe_counter"), i);
		cr_expect_eq(CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_NOP);
	}
	cr_expect_eq(tx_poll(cqe), 0);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_exec, rst_and_err_do_not_run)
{
	/* T63 RST: "Doorbells are not processed". */
	struct wqe w;
	cr_assert_eq(refdrv_modify_sq(&tdev->d, tx.sqn, 1, 0), 0);
	w_nop(&w, 2);
	tx_send(&w);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 0, "RST");
	cr_expect_eq(tx_query().hw_counter, 0);
	/* T63 ERR with flush_in_error_en: flushed (opcode 13, syndrome 0x5), not executed. */
	tx.pc = 0;
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, 0), 0);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, tx.sqn, 0, 1), 0);
	cr_assert_eq(refdrv_modify_sq(&tdev->d, tx.sqn, 1, 3), 0);
	tl_mark(&tdev->tr);
	w_nop(&w, 2);
	tx_send(&w);
	uint8_t cqe[64];
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_WR_FLUSHED);
}

Test(tx_exec, the_ring_wraps_and_a_wqe_spans_its_end)
{
	/* §7.4.1.1 Figure 14: "WQE can wrap around the Send WQ if it starts close to the edge". A
	 * 64-WQEBB ring: 63 NOPs, then a 2-WQEBB SEND at WQEBB 63 whose second half is WQEBB 0. */
	struct wqe w;
	uint8_t cqe[64];
	for (int i = 0; i < 63; i++) {
		w_nop(&w, 0);
		tx_send(&w);
	}
	cr_expect_eq(tx_query().hw_counter, 63);
	uint8_t pkt[80];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 42); /* 16 + 48 bytes */
	w_inline(&w, pkt + 42, 38);  /* 48 bytes: ds 8, two WQEBBs */
	cr_assert_eq(w.len, 128);
	tx_send(&w);
	cr_assert_eq(w.index, 63);
	tx_expect_frame(0, pkt, len);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "wqe_counter"), 63);
	cr_expect_eq(tx_query().hw_counter, 65, "the counter wraps at 0xFFFF, not at the ring");
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_exec, doorbell_index_rules)
{
	struct wqe w;
	w_nop(&w, 2);
	tx_send(&w);
	uint8_t cqe[64];
	cr_assert_eq(tx_poll(cqe), 1);
	/* §7.4.3.1: "Ringing DoorBell for WQE that has already been executed makes no harm - such
	 * a DoorBell is ignored". */
	tl_mark(&tdev->tr);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, 0, 0, 1);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_SQ_DOORBELL), 0);
	cr_expect_eq(tdev->tr.violations, 0, "an old index is no violation");
	/* A doorbell ahead of the record (D-TX-3): the WQE it names is not posted. */
	w_nop(&w, 2);
	tx_post(&w);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, w.index, 0, 1);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_DB_AHEAD_OF_RECORD);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)tx.sqn << 32 | 1u << 16 | 1u);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 0, "nothing executed");
	tl_mark(&tdev->tr);
	tx_ring(&w);
	cr_expect_eq(tx_poll(cqe), 1, "once the record covers it");
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_exec, record_overflow_and_a_wqe_past_the_record)
{
	/* D-TX-3: a record more WQEBBs ahead than the ring holds (64). */
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, 65), 0);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, 0, 0, 1);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_DB_RECORD_OVERFLOW);
	cr_expect_eq(tx_query().hw_counter, 0);
	tl_mark(&tdev->tr);
	/* A 2-WQEBB WQE with the record past its first WQEBB only: not wholly posted (§7.4.3). */
	uint8_t pad[64] = { 0 };
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_NOP, 2);
	for (int i = 0; i < 5; i++)
		w_inline(&w, pad, 0); /* zero-length data segments pad a NOP (§7.2.2.1) */
	tx_post(&w);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, 1), 0);
	refdrv_sq_doorbell(&tdev->d, tdev->uar, 0, tx.sqn, 0, 0, 6);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_WQE_BEYOND_RECORD);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CQE), 0);
	cr_expect_eq(tx_query().hw_counter, 0, "it stays posted");
	tl_mark(&tdev->tr);
	tx_ring(&w);
	uint8_t cqe[64];
	cr_expect_eq(tx_poll(cqe), 1);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_exec, blue_flame_copy_runs)
{
	uint8_t pkt[64], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 14);
	w_inline(&w, pkt + 14, len - 14);
	tx_send_bf(&w);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_SQ_DOORBELL)->arg[4], 1, "D-DB-3: whole");
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(tx_poll(cqe), 1);
	cr_expect_eq(tdev->tr.violations, 0);
	/* D-TX-4: the copy is what runs: memory rewritten after the post (the driver's mistake,
	 * §7.4.3 "Neither WQE nor data buffers ... can be modified") is not what goes out. */
	tl_mark(&tdev->tr);
	uint8_t other[64];
	memcpy(other, pkt, sizeof other);
	other[50] ^= 0xFF;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 14);
	w_inline(&w, pkt + 14, len - 14);
	tx_post(&w);
	cr_assert_eq(refdrv_wq_dbr_write(&tdev->d, tx.sq_dbr, true, tx.pc), 0);
	uint32_t buf = tdev->uar * 4096u + 0x800 + (tx.bf_post++ & 1) * 0x100;
	for (size_t i = 8; i < w.len; i += 4)
		nicref_bar_write32(tdev->dev, buf + (uint32_t)i, tl_get32(w.b + i));
	struct wqe m = w;
	memcpy(m.b + 0x24, other + 14, len - 14); /* the inline data in memory differs */
	tl_mem_write(tdev, tx.sq_buf + 64u * w.index, m.b, m.len);
	nicref_bar_write32(tdev->dev, buf, tl_get32(w.b));
	nicref_bar_write32(tdev->dev, buf + 4, tl_get32(w.b + 4));
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_BF_MISMATCH);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)tx.sqn << 32 | w.index);
	tx_expect_frame(1, pkt, len);
}

Test(tx_exec, blue_flame_of_ds_one)
{
	/* §7.2.2.1 "For WQEs with DS=1, blue flame is not supported": the device reads memory
	 * (D-DB-3) and the driver broke the rule. */
	struct wqe w;
	w_nop(&w, 2);
	tx_send_bf(&w);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_SQ_DOORBELL)->arg[4], 0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_SQ_BF_DS_ONE);
	uint8_t cqe[64];
	cr_expect_eq(tx_poll(cqe), 1, "executed from memory");
}

/* Heap bytes in use by the process (glibc). */
static size_t heap_bytes(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

Test(tx_exec, no_allocation_per_wqe_or_frame)
{
	size_t p0 = heap_bytes();
	void *probe = malloc(64 * 1024);
	size_t p1 = heap_bytes();
	free(probe);
	if (!probe || p1 < p0 + 64 * 1024)
		cr_skip_test("mallinfo2 does not see this process's allocations");
	uint8_t pkt[1500], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 2, pkt, len, 42, 0);
	tx_send(&w); /* the first one may touch host memory pages (the model's, not the device's) */
	cr_assert_eq(tx_poll(cqe), 1);
	size_t before = heap_bytes();
	for (int i = 0; i < 40; i++) {
		w_send_packet(&w, 2, pkt, len, 42, 0);
		tx_send(&w);
		tx_poll(cqe);
	}
	size_t after = heap_bytes();
	cr_expect_eq(after, before, "40 WQEs allocated %zd bytes", (ssize_t)(after - before));
	cr_expect_eq(tx.nframes, 41);
}

/* The eth row (eth/eth_subsys.c, D-TX-11): its buffers are sized from max_lso_cap at create; a
 * device reset zeroes its counters; its invariants hold. */
static struct nicref_profile small_lso;
static void small_lso_sq(void)
{
	nicref_profile_default(&small_lso);
	cr_assert_eq(nicref_profile_cap_set(&small_lso, "per_protocol_networking_offload_caps",
					    "max_lso_cap", 8),
		     NICREF_CAP_SET_OK);
	struct tx_opts o = tx_default_opts();
	o.profile = &small_lso;
	tx_setup_opts(&o);
}

Test(tx_exec, scratch_follows_max_lso_cap, .init = small_lso_sq)
{
	/* 2^8 + 1008 bytes: a 1500-byte SEND is longer than any LSO message of this device. */
	uint8_t pkt[1500];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_MESSAGE_TOO_LONG);
	cr_expect_eq(tx.nframes, 0);
	tl_mark(&tdev->tr);
	len = tx_udp_packet(pkt, 1000, TX_DMAC);
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(nicref_dev_check(tdev->dev), 0);
}

Test(tx_exec, reset_zeroes_the_counters)
{
	uint8_t pkt[100];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
	struct nicref_stats s;
	nicref_stats_get(tdev->dev, &s);
	cr_expect_eq(s.send_wqes, 1);
	cr_expect_eq(s.frames_out, 1);
	cr_expect_eq(s.tx_discards, 0);
	char why[200];
	cr_expect_eq(nicref_dev_check_explain(tdev->dev, why, sizeof why), 0, "%s", why);
	nicref_dev_reset(tdev->dev);
	nicref_stats_get(tdev->dev, &s);
	cr_expect_eq(s.send_wqes, 0);
	cr_expect_eq(s.frames_out, 0);
	cr_expect_eq(nicref_dev_check(tdev->dev), 0, "the hook survives a reset");
	cr_expect_not_null(tdev->dev->datapath.sq_run);
	/* the driver's objects went with the reset: bring the driver back for the teardown */
	struct refdrv_ops ops = refdrv_ops_model(tdev->dev);
	refdrv_fini(&tdev->d);
	cr_assert_eq(refdrv_init(&tdev->d, &ops), 0);
}
