/* The reference driver's send-path helpers (harness/driver_sq.c) against the model: the SQ stack
 * comes up and goes down without a single driver violation; a posted WQE lands in the ring where
 * §7.4.1.1 puts it (wrapping at the end), the doorbell record counts its WQEBBs (§7.4.3.1), the
 * doorbell is the WQE's first 8 bytes at offset 0 of alternating Blue Flame buffers (§7.2.2,
 * §7.2.2.1), and a Blue Flame post writes the whole WQE there, which the device takes (the
 * sq_doorbell event says bf 1). */
#include <string.h>

#include "driver_mkey.h"
#include "driver_sq.h"
#include "driver_wq.h"
#include "nicref/layout.h"
#include "testlib.h"

/* Every BAR write the driver makes, for the doorbell tests. */
static struct {
	uint32_t off[512], val[512];
	unsigned n;
} bar;

static void bar_rec(void *ctx, uint32_t off, uint32_t v)
{
	if (bar.n < TL_NELEM(bar.off)) {
		bar.off[bar.n] = off;
		bar.val[bar.n++] = v;
	}
	nicref_bar_write32(ctx, off, v);
}

static struct tl_dev *t;
static struct refdrv_sq_stack s;

/* A device at INITIALIZED with the default stack up; BAR writes recorded from then on. */
static struct tl_dev *stack_up(const struct refdrv_sq_stack_attr *a)
{
	struct refdrv_sq_stack_attr dflt;
	refdrv_sq_stack_defaults(&dflt);
	t = tl_up_to(NULL, REFDRV_INITIALIZED);
	cr_assert_eq(refdrv_sq_stack_up(&t->d, a ? a : &dflt, &s), 0, "%s", t->d.error);
	t->d.ops.bar_write32 = bar_rec;
	memset(&bar, 0, sizeof bar);
	return t;
}

/* The stack goes down, then the device (§8.3): no violation anywhere, invariants hold. */
static void stack_down(void)
{
	cr_expect_eq(refdrv_sq_stack_down(&t->d, &s), 0, "%s", t->d.error);
	cr_expect_eq(refdrv_teardown(&t->d), 0, "%s", t->d.error);
	tl_down_clean(t);
}

static uint8_t byte_at(uint64_t addr)
{
	uint8_t b;
	tl_mem_read(t, addr, &b, 1);
	return b;
}

/* A NOP (T26 opcode 0, ds 1) at the producer counter with completion mode ce. */
static void nop(struct refdrv_wqe *w, unsigned ce)
{
	cr_assert_geq(refdrv_wqe_begin(w, 0x00, s.pc, s.sqn), 0, "%s", w->error);
	struct refdrv_wqe_ctrl c = { .ce = ce };
	cr_assert_eq(refdrv_wqe_finish(w, &c, s.a.wq_signature), 0, "%s", w->error);
}

Test(refdrv_sq, stack_comes_up_and_goes_down_without_a_violation)
{
	stack_up(NULL);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&t->d, s.sqn, &st), 0);
	cr_expect_eq(st.state, 1, "RDY (T63)");
	cr_expect_eq(st.hw_counter, 0);
	cr_expect_eq(st.sw_counter, 0);
	/* T10: lkey = mkey_index << 8 | mkey[7:0]; a PA MKey over the data region, local read. */
	cr_expect_eq(s.lkey, s.mkey_index << 8 | REFDRV_SQ_MKEY_TAG);
	uint8_t q[0x120];
	cr_assert_eq(refdrv_query_mkey(&t->d, s.mkey_index, false, q, sizeof q), 0);
	cr_expect_eq(refdrv_field_get(q, sizeof q, "query_mkey_out", "access_mode"), 0, "PA");
	cr_expect_eq(refdrv_field_get(q, sizeof q, "query_mkey_out", "lr"), 1);
	cr_expect_eq(refdrv_field_get(q, sizeof q, "query_mkey_out", "pd"), s.pd);
	cr_expect_eq(refdrv_field_get(q, sizeof q, "query_mkey_out", "start_addr"), s.a.data_addr);
	cr_expect_eq(refdrv_field_get(q, sizeof q, "query_mkey_out", "len"), s.a.data_size);
	/* §7.12.3.1: every CQE in hardware ownership, opcode 0xF. */
	for (unsigned i = 0; i < 1u << s.a.log_cq_size; i++)
		cr_expect_eq(byte_at(s.a.cq_buf + 64 * i + 0x3F), 0xF1, "CQE %u op_own", i);
	/* T147 wqe_inline_mode 1: the SQ took the vport's minimum, L2 (D-VP-3). */
	cr_expect_eq(s.sq_inline_mode, 1);
	cr_expect_eq(s.user_index, REFDRV_SQ_USER_INDEX, "HCA_CAP.cqe_version 1");
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_VIOLATION), 0);
	stack_down();
}

/* The stack's commands of one opcode since the device came up. */
static unsigned cmds_of(const char *op)
{
	unsigned n = 0;
	for (size_t i = 0; i < t->tr.n; i++)
		n += t->tr.ev[i].kind == NICREF_EV_CMD_DONE &&
		     t->tr.ev[i].arg[1] == (uint64_t)nicref_opcode_find(op);
	return n;
}

/* A device of profile p at INITIALIZED; the stack of attributes a: refdrv_sq_stack_up's result. */
static int stack_up_on(const struct nicref_profile *p, const struct refdrv_sq_stack_attr *a)
{
	t = tl_up_to(p, REFDRV_INITIALIZED);
	return refdrv_sq_stack_up(&t->d, a, &s);
}

Test(refdrv_sq, the_vport_inline_mode_is_read_never_written)
{
	/* §7.9.3 "SW must query the required minimal inline header by reading the NIC Vport
	 * Context"; T483 has no field_select bit for it (D-VP-3), so no MODIFY. A vport of the
	 * profile's mode 2 (IP): the SQ takes it when the caller names none. */
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.vport_min_wqe_inline_mode = 2;
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	cr_assert_eq(stack_up_on(&p, &a), 0, "%s", t->d.error);
	cr_expect_eq(s.sq_inline_mode, 2);
	cr_expect_eq(cmds_of("QUERY_NIC_VPORT_CONTEXT"), 1);
	cr_expect_eq(cmds_of("MODIFY_NIC_VPORT_CONTEXT"), 0);
	stack_down();
}

Test(refdrv_sq, stack_takes_the_requested_sq_inline_mode)
{
	/* T61 min_wqe_inline_mode: the SQ's own; "must be >= Nic_vport.min_sq_wqe_inline_mode". */
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	a.min_wqe_inline_mode = 3; /* TCP/UDP (§7.9.3.1), above the default vport's L2 */
	cr_assert_eq(stack_up_on(NULL, &a), 0, "%s", t->d.error);
	cr_expect_eq(s.sq_inline_mode, 3);
	cr_expect_eq(cmds_of("MODIFY_NIC_VPORT_CONTEXT"), 0);
	stack_down();
	/* none, below the default vport's L2: CREATE_SQ refuses it (§7.9.3 "will fail") */
	a.min_wqe_inline_mode = 0;
	cr_expect_neq(stack_up_on(NULL, &a), 0);
	cr_expect(strstr(t->d.error, "CREATE_SQ") != NULL, "%s", t->d.error);
	cr_expect_eq(refdrv_sq_stack_down(&t->d, &s), 0, "%s", t->d.error);
	cr_expect_eq(refdrv_teardown(&t->d), 0, "%s", t->d.error);
	tl_down(t);
	/* none, on a vport whose minimum is none (profile) */
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.vport_min_wqe_inline_mode = 0;
	cr_assert_eq(stack_up_on(&p, &a), 0, "%s", t->d.error);
	cr_expect_eq(s.sq_inline_mode, 0);
	stack_down();
}

Test(refdrv_sq, a_posted_wqe_is_in_the_ring_the_record_and_the_doorbell)
{
	stack_up(NULL);
	struct refdrv_wqe w;
	nop(&w, 2);
	cr_assert_eq(w.len, 16);
	cr_assert_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_DB), 0, "%s", t->d.error);
	/* T26: 00h wqe_index 0, opcode 0; 04h sq_number, ds 1; 08h ce 10b at bits 3:2. */
	uint8_t got[16], want[16] = { 0, 0, 0, 0x00, (uint8_t)(s.sqn >> 16), (uint8_t)(s.sqn >> 8),
				      (uint8_t)s.sqn, 0x01, 0, 0, 0, 0x08 };
	tl_mem_read(t, s.a.sq_buf, got, sizeof got);
	cr_expect_arr_eq(got, want, sizeof want);
	/* §7.4.3.1: the record counts one WQEBB (T24, send counter at +4). */
	uint8_t rec[4];
	tl_mem_read(t, s.a.sq_dbr + 4, rec, 4);
	cr_expect_eq(tl_get32(rec), 1);
	cr_expect_eq(s.pc, 1);
	/* §7.2.2: the first 8 bytes at offset 0 of Blue Flame register 0 (800h of the SQ's UAR
	 * page), dword 0 first (§7.2.2.2). */
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, s.uar);
	cr_assert_eq(bar.n, 2);
	cr_expect_eq(bar.off[0], page + 0x800);
	cr_expect_eq(bar.val[0], 0x00000000u);
	cr_expect_eq(bar.off[1], page + 0x804);
	cr_expect_eq(bar.val[1], s.sqn << 8 | 1);
	const struct nicref_event *e = tl_only(&t->tr, NICREF_EV_SQ_DOORBELL);
	cr_expect_eq(e->arg[0], s.sqn);
	cr_expect_eq(e->arg[1], 0, "wqe_index");
	cr_expect_eq(e->arg[3], 1, "ds");
	cr_expect_eq(e->arg[4], 0, "not through Blue Flame");
	/* §7.2.2.1: the next posting uses the odd buffer (buffer size 2^log_bf_reg_size / 2). */
	nop(&w, 2);
	cr_assert_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_DB), 0, "%s", t->d.error);
	cr_assert_eq(bar.n, 4);
	cr_expect_eq(bar.off[2], page + 0x800 + refdrv_bf_buffer_size(&t->d));
	cr_expect_eq(bar.val[2], 1u << 8, "wqe_index 1, opcode NOP");
	stack_down();
}

/* §7.2.2.1 "The two buffers in the BlueFlame register must be used alternately": the parity is
 * the register's, not the SQ's. A second ring of the same page (here a copy of the stack made
 * before the first rings, as the QPs of a QP stack share their page, driver_qp.c) takes the odd
 * buffer after the first took the even one; its doorbell names a WQE already run, ignored. */
Test(refdrv_sq, two_rings_of_one_page_alternate_its_register)
{
	stack_up(NULL);
	struct refdrv_wqe w;
	nop(&w, 2);
	cr_assert_eq(refdrv_sq_write(&t->d, &s, w.b, w.len), 0, "%s", t->d.error);
	cr_assert_eq(refdrv_sq_record(&t->d, &s), 0, "%s", t->d.error);
	struct refdrv_sq_stack other = s;
	refdrv_sq_ring(&t->d, &s);
	refdrv_sq_ring(&t->d, &other);
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, s.uar);
	cr_assert_eq(bar.n, 4);
	cr_expect_eq(bar.off[0], page + 0x800);
	cr_expect_eq(bar.off[2], page + 0x800 + refdrv_bf_buffer_size(&t->d), "the odd buffer");
	stack_down();
}

Test(refdrv_sq, a_wqe_past_the_end_of_the_ring_wraps)
{
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	a.log_sq_size = 2; /* 4 WQEBBs */
	stack_up(&a);
	struct refdrv_wqe w;
	for (unsigned i = 0; i < 3; i++) {
		nop(&w, 0);
		cr_assert_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_NONE), 0, "%s", t->d.error);
	}
	/* A WQE of 96 bytes (2 WQEBBs) at WQEBB 3: its first 64 bytes there, the rest from the
	 * buffer's start (§7.4.1.1 Figure 14). */
	uint8_t big[96];
	for (unsigned i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(0xA0 + i);
	cr_assert_eq(refdrv_sq_write(&t->d, &s, big, sizeof big), 0, "%s", t->d.error);
	uint8_t got[96];
	tl_mem_read(t, s.a.sq_buf + 3 * 64, got, 64);
	tl_mem_read(t, s.a.sq_buf, got + 64, 32);
	cr_expect_arr_eq(got, big, sizeof big);
	cr_expect_eq(s.last_index, 3);
	cr_expect_eq(s.pc, 5, "3 NOPs and a WQE of 2 WQEBBs");
	cr_assert_eq(refdrv_sq_record(&t->d, &s), 0);
	uint8_t rec[4];
	tl_mem_read(t, s.a.sq_dbr + 4, rec, 4);
	cr_expect_eq(tl_get32(rec), 5);
	stack_down();
}

Test(refdrv_sq, blue_flame_writes_the_whole_wqe_then_the_doorbell)
{
	stack_up(NULL);
	/* A NOP padded with a zero-length inline data segment to ds 2, which §7.2.2.1 allows through
	 * Blue Flame ("pad the WQE with extra zero length data segment"). */
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, 0x00, s.pc, s.sqn), 0, "%s", w.error);
	w.len = 32;
	w.b[16] = 0x80; /* T39: inline, byte_count 0 */
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0, "%s", w.error);
	cr_assert_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_BF), 0, "%s", t->d.error);
	/* Dwords 2..15 (the WQE padded to its 64-byte cache line), then dwords 0 and 1. */
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, s.uar);
	cr_assert_eq(bar.n, 16);
	for (unsigned i = 0; i < 14; i++) {
		cr_expect_eq(bar.off[i], page + 0x800 + 8 + 4 * i, "write %u", i);
		cr_expect_eq(bar.val[i], i == 2 ? 0x80000000u : i == 0 ? 0x00000008u : 0, "write %u", i);
	}
	cr_expect_eq(bar.off[14], page + 0x800);
	cr_expect_eq(bar.off[15], page + 0x804);
	cr_expect_eq(bar.val[15], s.sqn << 8 | 2);
	const struct nicref_event *e = tl_only(&t->tr, NICREF_EV_SQ_DOORBELL);
	cr_expect_eq(e->arg[3], 2, "ds");
	cr_expect_eq(e->arg[4], 1, "the device took the WQE from the Blue Flame buffer (D-DB-3)");
	stack_down();
}

Test(refdrv_sq, blue_flame_refuses_what_the_prm_forbids)
{
	stack_up(NULL);
	struct refdrv_wqe w;
	nop(&w, 2);
	/* §7.2.2.1: "For WQEs with DS=1, blue flame is not supported". */
	cr_expect_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_BF), -1);
	cr_expect(strstr(t->d.error, "DS=1"), "%s", t->d.error);
	/* A WQE larger than the buffer "cannot be posted using BlueFlame". */
	w.len = refdrv_bf_buffer_size(&t->d) + 16;
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0, "%s", w.error);
	cr_expect_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_BF), -1);
	cr_expect_eq(s.pc, 0, "nothing was posted");
	cr_expect_eq(bar.n, 0);
	stack_down();
}

Test(refdrv_sq, a_signed_wqe_xors_to_ff)
{
	struct refdrv_sq_stack_attr a;
	refdrv_sq_stack_defaults(&a);
	a.wq_signature = true;
	stack_up(&a);
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, 0x0A, 7, s.sqn), 0, "%s", w.error);
	w.len = 48;
	for (unsigned i = 16; i < 48; i++)
		w.b[i] = (uint8_t)(i * 37);
	struct refdrv_wqe_ctrl c = { .ce = 3, .se = true };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, true), 0, "%s", w.error);
	/* T26 08h[31:24], §9.2.3 (D-WQE-2): the ds octowords, the SQ number's three bytes and the
	 * WQE index's two XOR to 0xFF. */
	uint8_t ids[5] = { (uint8_t)(s.sqn >> 16), (uint8_t)(s.sqn >> 8), (uint8_t)s.sqn, 0, 7 };
	cr_expect_eq(tl_xor(w.b, 48) ^ tl_xor(ids, sizeof ids), 0xFF);
	cr_expect_neq(tl_xor(w.b, 48), 0xFF, "the SQ number and index count (sqn %u)", s.sqn);
	cr_expect_eq(tl_getf(w.b, 0x04, 5, 0), 3, "ds");
	cr_expect_eq(tl_getf(w.b, 0x08, 3, 2), 3, "ce");
	cr_expect_eq(tl_getf(w.b, 0x08, 1, 1), 1, "se");
	cr_expect_eq(tl_getf(w.b, 0x00, 23, 8), 7, "wqe_index");
	cr_expect_eq(tl_getf(w.b, 0x00, 7, 0), 0x0A, "opcode SEND");
	stack_down();
}

Test(refdrv_sq, wqe_opcodes_by_name)
{
	cr_expect_eq(refdrv_wqe_opcode_find("NOP"), 0x00);
	cr_expect_eq(refdrv_wqe_opcode_find("SEND"), 0x0A);
	cr_expect_eq(refdrv_wqe_opcode_find("UMR"), 0x25);
	cr_expect_eq(refdrv_wqe_opcode_find("LSO"), 0x0E);
	cr_expect_eq(refdrv_wqe_opcode_find("send"), -1);
	cr_expect_str_eq(refdrv_wqe_opcode_name(0x25), "UMR");
	cr_expect_null(refdrv_wqe_opcode_name(0x01));
}

/* ---- What waits for TX-A's layouts (layouts_wqe.h) and send engine ----------------------------- */

Test(refdrv_sq, eth_pointer_and_inline_segments_are_built_where_the_prm_puts_them)
{
	stack_up(NULL);
	struct refdrv_wqe w;
	static const uint8_t hdr[18] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 0x4E, 0x49, 0x43,
					 0x52, 0x08, 0x00, 0x45, 0x00, 0x00, 0x2E };
	cr_assert_geq(refdrv_wqe_begin(&w, 0x0A, s.pc, s.sqn), 0, "%s", w.error);
	cr_assert_eq(refdrv_wqe_eth(&w, hdr, sizeof hdr), 16, "%s", w.error);
	/* T28: inline_header_size 0Ch[25:16]; the headers from 0Eh over two octowords. */
	cr_expect_eq(tl_getf(w.b + 16, 0x0C, 25, 16), 18);
	cr_expect_arr_eq(w.b + 16 + 0x0E, hdr, sizeof hdr);
	cr_expect_eq(w.len, 48);
	cr_assert_eq(refdrv_wqe_ptr(&w, s.lkey, s.a.data_addr + 0x40, 100), 48, "%s", w.error);
	/* T38: byte_count 00h[30:0], L_key 04h, local address 08h-0Ch. */
	cr_expect_eq(tl_get32(w.b + 48), 100);
	cr_expect_eq(tl_get32(w.b + 52), s.lkey);
	cr_expect_eq(tl_get64(w.b, 56), s.a.data_addr + 0x40);
	static const uint8_t data[5] = { 1, 2, 3, 4, 5 };
	cr_assert_eq(refdrv_wqe_inline(&w, data, sizeof data), 64, "%s", w.error);
	/* T39: bit 31 set, byte_count 00h[9:0], the bytes from 04h. */
	cr_expect_eq(tl_get32(w.b + 64), 0x80000005u);
	cr_expect_arr_eq(w.b + 68, data, sizeof data);
	cr_expect_eq(w.len, 80);
	stack_down();
}

Test(refdrv_sq, a_nop_completes_with_a_requester_cqe)
{
	stack_up(NULL);
	struct refdrv_wqe w;
	nop(&w, 2);
	cr_assert_eq(refdrv_sq_post(&t->d, &s, &w, REFDRV_RING_DB), 0, "%s", t->d.error);
	uint8_t cqe[64];
	cr_assert_eq(refdrv_cq_poll(&t->d, &s.cq, cqe), 1, "one CQE");
	/* T68: requester opcode 0, wqe_counter the WQE's index, s_wqe_opcode NOP. */
	cr_expect_eq(refdrv_field_get(cqe, 64, "cqe64", "opcode"), 0);
	cr_expect_eq(refdrv_field_get(cqe, 64, "cqe64", "wqe_counter"), 0);
	cr_expect_eq(refdrv_field_get(cqe, 64, "cqe64", "s_wqe_opcode"), 0x00);
	cr_expect_eq(refdrv_field_get(cqe, 64, "cqe64", "srqn_user_index"), s.user_index);
	cr_expect_eq(refdrv_cq_poll(&t->d, &s.cq, cqe), 0, "and no other");
	stack_down();
}
