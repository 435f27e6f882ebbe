/* The reference driver's QP helpers (harness/driver_qp.c) against the model: a connected RC pair
 * and a UD pair of two devices come up in one call without a driver violation, each QP in RTS
 * (QUERY_QP state 3) with the context the helpers promise (docs/vectors.md "qp_setup": the peer's
 * QPN, the PSNs, the path naming the peer's GID and MAC, the GID table entry), and a send WQE of a
 * QP lands in its SQ after the RQ in the QP's buffer with the doorbell record's send counter. */
#include <string.h>

#include "driver_qp.h"
#include "nicref/layout.h"
#include "testlib.h"

static struct tl_dev *ta, *tb;
static struct refdrv_qp_stack sa, sb;

static void pair(unsigned st, unsigned nqp)
{
	struct refdrv_qp_attr aa, ab;
	refdrv_qp_defaults(&aa);
	aa.st = st;
	aa.nqp = nqp;
	aa.local.mac = 0x024E4943520Aull;
	ab = aa;
	refdrv_qp_addr_ip(&ab.local, "192.0.2.2");
	ab.local.mac = 0x024E4943520Bull;
	ab.sq_psn = 0xFFFFFE;
	aa.rq_psn = ab.sq_psn;
	ta = tl_up_to(NULL, REFDRV_INITIALIZED);
	tb = tl_up_to(NULL, REFDRV_INITIALIZED);
	int which;
	int st_ = refdrv_qp_pair(&ta->d, &aa, &sa, &tb->d, &ab, &sb, &which);
	cr_assert_eq(st_, 0, "device %c: %s", which ? 'b' : 'a',
		     which ? tb->d.error : ta->d.error);
}

static void down(void)
{
	tl_down_clean(ta);
	tl_down_clean(tb);
}

/* QUERY_QP of qpn on t: the field of query_qp_out. */
static uint64_t query(struct tl_dev *t, uint32_t qpn, const char *field)
{
	uint8_t in[0x10] = { 0 }, out[0x200] = { 0 };
	refdrv_field_set(in, sizeof in, "query_qp_in", "opcode",
			 (uint64_t)nicref_opcode_find("QUERY_QP"));
	refdrv_field_set(in, sizeof in, "query_qp_in", "qpn", qpn);
	cr_assert_eq(refdrv_cmd(&t->d, in, sizeof in, out, sizeof out), 0, "%s", t->d.error);
	return refdrv_field_get(out, sizeof out, "query_qp_out", field);
}

Test(refdrv_qp, rc_pair_comes_up_connected_in_rts)
{
	pair(REFDRV_QP_ST_RC, 2);
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(query(ta, sa.qp[i].qpn, "state"), 3);
		cr_assert_eq(query(tb, sb.qp[i].qpn, "state"), 3);
		cr_assert_eq(query(ta, sa.qp[i].qpn, "remote_qpn"), sb.qp[i].qpn);
		cr_assert_eq(query(tb, sb.qp[i].qpn, "remote_qpn"), sa.qp[i].qpn);
		cr_assert_eq(query(ta, sa.qp[i].qpn, "next_rcv_psn"), 0xFFFFFE);
		cr_assert_eq(query(tb, sb.qp[i].qpn, "next_send_psn"), 0xFFFFFE);
		cr_assert_eq(query(ta, sa.qp[i].qpn, "primary_address_path_rmac_31_0"),
			     0x4943520Bu);
		cr_assert_eq(query(ta, sa.qp[i].qpn, "primary_address_path_udp_sport"), 0xC000 + i);
		cr_assert_eq(query(ta, sa.qp[i].qpn, "mtu"), 3);
	}
	/* D-QP-3: lowest free from 2 on a fresh device. */
	cr_assert_eq(sa.qp[0].qpn, 2);
	cr_assert_eq(sa.qp[1].qpn, 3);
	cr_assert_eq(sa.key, 0x13C, "the device's first MKey, index 1 (D-OBJ-2), tag 0x3C");
	down();
}

Test(refdrv_qp, ud_pair_comes_up_in_rts_with_its_q_key)
{
	pair(REFDRV_QP_ST_UD, 1);
	cr_assert_eq(query(ta, sa.qp[0].qpn, "state"), 3);
	cr_assert_eq(query(tb, sb.qp[0].qpn, "state"), 3);
	cr_assert_eq(query(tb, sb.qp[0].qpn, "q_key"), 0x11111111u);
	cr_assert_eq(query(tb, sb.qp[0].qpn, "st"), 2);
	down();
}

Test(refdrv_qp, gid_entry_is_the_local_address)
{
	pair(REFDRV_QP_ST_RC, 1);
	uint8_t in[0x10] = { 0 }, out[0x40] = { 0 };
	const char *L = "query_roce_address_in";
	refdrv_field_set(in, sizeof in, L, "opcode", (uint64_t)nicref_opcode_find("QUERY_ROCE_ADDRESS"));
	refdrv_field_set(in, sizeof in, L, "roce_address_index", 0);
	refdrv_field_set(in, sizeof in, L, "vhca_port_num", 1);
	cr_assert_eq(refdrv_cmd(&tb->d, in, sizeof in, out, sizeof out), 0, "%s", tb->d.error);
	const char *O = "query_roce_address_out";
	cr_assert_eq(refdrv_field_get(out, sizeof out, O, "roce_version"), 2);
	cr_assert_eq(refdrv_field_get(out, sizeof out, O, "roce_l3_type"), 0);
	cr_assert_eq(refdrv_field_get(out, sizeof out, O, "source_mac_31_0"), 0x4943520Bu);
	const uint8_t gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 2 };
	uint8_t got[16];
	nicref_field_get_bytes(out, sizeof out, refdrv_field(O, "source_l3_address"), got, 16);
	cr_assert_arr_eq(got, gid, 16);
	down();
}

Test(refdrv_qp, send_wqe_lands_after_the_rq_and_the_record_counts_it)
{
	pair(REFDRV_QP_ST_RC, 1);
	struct refdrv_qp *q = &sa.qp[0];
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, REFDRV_QP_OP_SEND, q->sq.pc, q->qpn), 0, "%s", w.error);
	cr_assert_geq(refdrv_wqe_ptr(&w, sa.key, sa.a.data_addr, 64), 0, "%s", w.error);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0, "%s", w.error);
	cr_assert_eq(refdrv_sq_post(&ta->d, &q->sq, &w, REFDRV_RING_RECORD), 0, "%s", ta->d.error);
	/* RQ: 64 WQEs of 64 bytes = 4 KB; the SQ right after it. */
	uint8_t got[32];
	tl_mem_read(ta, 0x61000000ull + 0x1000, got, sizeof got);
	cr_assert_arr_eq(got, w.b, sizeof got);
	cr_assert_eq(got[3], 0x0A, "ctrl opcode SEND");
	cr_assert_eq((uint32_t)got[4] << 16 | got[5] << 8 | got[6], q->qpn, "ctrl names the QP");
	uint8_t rec[8];
	tl_mem_read(ta, 0x60FF0000ull, rec, sizeof rec);
	cr_assert_eq(rec[6] << 8 | rec[7], 1, "dword 1: the send counter");
	cr_assert_eq(rec[2] << 8 | rec[3], 0, "dword 0: the receive counter");
	down();
}
