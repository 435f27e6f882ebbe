/* The RQ stage of the receive path (eth/rx_rq.c, rx_cqe.c, rx_hdr.c): a frame handed to a TIR
 * lands in the posted receive WQE and its CQE says what the PRM's T68 says (docs/rx.md). */
#include <criterion/criterion.h>

#include "rx_util.h"

TestSuite(rx_rq, .init = rx_setup, .fini = rx_teardown);

/* §7.4.1.2, T68: one entry, one frame: the bytes in host memory and every responder field. */
Test(rx_rq, cqe_fields_of_a_udp_frame)
{
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(58);
	size_t n = rx_frame(f, &o);
	uint8_t guard[4] = { 0xEE, 0xEE, 0xEE, 0xEE };
	tl_mem_write(rdev, rx.data + RX_BUF + n, guard, 4);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(rx_give(f, n, 0xABCDE), RX_DELIVERED);
	rx_mem(RX_BUF, m, n + 4);
	cr_expect_arr_eq(m, f, n, "the frame, byte for byte");
	cr_expect_arr_eq(m + n, guard, 4, "nothing past it");
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2, "T68 2: responder send");
	cr_expect_eq(CQE(c, byte_cnt), n);
	cr_expect_eq(CQE(c, l2_ok), 1);
	cr_expect_eq(CQE(c, l3_ok), 1);
	cr_expect_eq(CQE(c, l4_ok), 1);
	cr_expect_eq(CQE(c, l3_hdr_type), 2, "T68 10: IPv4");
	cr_expect_eq(CQE(c, l4_hdr_type), 2, "T68 2: UDP");
	cr_expect_eq(CQE(c, ip_frag), 0);
	cr_expect_eq(CQE(c, ip_ext_opts), 0);
	cr_expect_eq(CQE(c, cv), 0);
	cr_expect_eq(CQE(c, flow_tag), 0xABCDE, "T68 flow_tag (cqe_version 1)");
	cr_expect_eq(CQE(c, srqn_user_index), 0x654321, "T68 user_index");
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_expect_eq(CQE(c, rx_hash_type), 0, "a Direct TIR hashes nothing");
	cr_expect_eq(CQE(c, s_wqe_opcode), 0, "rx_drop_counter");
	cr_expect_eq(CQE(c, lro_num_seg), 0);
	/* T4, D-RX-10: the folded one's complement sum of the IP header and payload. */
	cr_expect_eq(CQE(c, checksum), rx_fold(rx_sum(0, f + 14, n - 14)));
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_CQE), 1);
}

/* §7.4.1.2: the entries in order, the Null entry ends the list; wqe_counter counts WQEs. */
Test(rx_rq, scatter_over_entries_then_null)
{
	struct rx_opts op = rx_default_opts();
	op.log_stride = 7; /* 8 entries: room for the Null one after 3 */
	rx_setup_opts(&op);
	uint8_t f[256], m[256], c[64];
	rx_post1(RX_BUF + 0x800, 512); /* WQE 0 */
	struct refdrv_rx_sge s[3] = { rx_sge(RX_BUF, 40), rx_sge(RX_BUF + 0x100, 20),
				      rx_sge(RX_BUF + 0x200, 200) };
	rx_post(s, 3); /* WQE 1 */
	struct rx_frame_opts o = rx_udp(60);
	size_t n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 1);
	cr_expect_eq(CQE(c, byte_cnt), n);
	rx_mem(RX_BUF, m, 40);
	cr_expect_arr_eq(m, f, 40);
	rx_mem(RX_BUF + 0x100, m, 20);
	cr_expect_arr_eq(m, f + 40, 20);
	rx_mem(RX_BUF + 0x200, m, n - 60);
	cr_expect_arr_eq(m, f + 60, n - 60);
}

/* D-RX-2: a frame longer than the WQE's entries: error 0x1, the RQ to ERR. */
Test(rx_rq, frame_longer_than_the_wqe)
{
	uint8_t f[256], c[64];
	struct rx_frame_opts o = rx_udp(100);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 64);
	cr_assert_eq(rx_give(f, n, 7), RX_ERROR);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 14, "T68 14: responder error");
	cr_expect_eq(CQE(c, syndrome), NICREF_CQE_SYN_LOCAL_LENGTH);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_WQE_TOO_SHORT);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rq(&rdev->d, rx.rqn, &st), 0);
	cr_expect_eq(st.state, 3, "ERR");
	/* An RQ in ERR receives nothing (T57). */
	rx_post1(RX_BUF, 512);
	cr_expect_eq(rx_give(f, n, 7), RX_DROPPED);
	cr_expect_eq(rx_drops_of(RX_DROP_RQ_NOT_RDY), 1);
}

/* T68 rx_drop_counter, D-RX-4, D-RX-8: frames with no WQE are dropped, counted in the next
 * CQE and in the vport's Received errors. */
Test(rx_rq, no_wqe_drops_and_counts)
{
	uint8_t f[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	cr_expect_eq(rx_give(f, n, 0), RX_DROPPED);
	cr_expect_eq(rx_give(f, n, 0), RX_DROPPED);
	cr_expect_eq(rx_drops_of(RX_DROP_NO_WQE), 2);
	struct vport_traffic e = vport_counter_get(rdev->dev, VPORT_CNT_RX_ERRORS);
	cr_expect_eq(e.packets, 2);
	cr_expect_eq(e.octets, 2 * (n + 4));
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, s_wqe_opcode), 2, "rx_drop_counter: two since the last CQE");
	rx_cqe(c);
	cr_expect_eq(CQE(c, s_wqe_opcode), 0, "restarted after it was reported");
}

/* §3.3.7, D-RX-3: the C-VLAN tag is stripped and reported; with vsd it stays and is not
 * reported (§3.3.7 reports the tag it removes). */
Test(rx_rq, vlan_strip)
{
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(50);
	o.vid = 0x123;
	o.prio = 5;
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, byte_cnt), n - 4);
	cr_expect_eq(CQE(c, cv), 1);
	cr_expect_eq(CQE(c, up), 5);
	cr_expect_eq(CQE(c, cfi), 0);
	cr_expect_eq(CQE(c, vid), 0x123);
	cr_expect_eq(CQE(c, l4_ok), 1);
	rx_mem(RX_BUF, m, n - 4);
	cr_expect_arr_eq(m, f, 12, "the addresses");
	cr_expect_arr_eq(m + 12, f + 16, n - 16, "then the EtherType: the tag is gone");
}

/* A tagged frame on an RQ set up as op says keeps its tag in the data, and the CQE reports none
 * (D-RX-3: cv/vid are for a tag the device removed). */
static void expect_tag_kept_unreported(const struct rx_opts *op)
{
	rx_setup_opts(op);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(50);
	o.vid = 0x7;
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, byte_cnt), n, "nothing stripped");
	cr_expect_eq(CQE(c, cv), 0, "kept in the data, not reported");
	cr_expect_eq(CQE(c, vid), 0);
	rx_mem(RX_BUF, m, n);
	cr_expect_arr_eq(m, f, n, "the frame as it came, tag and all");
}

Test(rx_rq, vlan_kept_with_vsd)
{
	struct rx_opts op = rx_default_opts();
	op.vsd = true;
	expect_tag_kept_unreported(&op);
}

/* §3.3.7, T147 vlan_cap: a device without VLAN stripping keeps the tag in the data even when the
 * RQ asks for stripping (vsd 0), and reports no tag: cv/vid are for a tag it removed (D-RX-3). */
Test(rx_rq, vlan_kept_without_vlan_cap)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "per_protocol_networking_offload_caps", "vlan_cap",
					    0),
		     NICREF_CAP_SET_OK);
	struct rx_opts op = rx_default_opts();
	op.profile = &p;
	expect_tag_kept_unreported(&op);
}

/* §3.3.9, D-RX-1: the first entry's start_padding skips (64 - n % 64) % 64 bytes. */
Test(rx_rq, start_padding)
{
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(58); /* 100 bytes */
	size_t n = rx_frame(f, &o);
	cr_assert_eq(n, 100);
	struct refdrv_rx_sge s = rx_sge(RX_BUF, 512);
	s.start_padding = true;
	rx_post(&s, 1);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, byte_cnt), 100, "byte_cnt excludes the padding");
	rx_mem(RX_BUF + 28, m, n);
	cr_expect_arr_eq(m, f, n, "the data ends on a cache line: 28 + 100 = 128");
}

/* §3.3.10, D-RX-1: end padding writes zeros to the cache line, not past the entry. */
Test(rx_rq, end_padding)
{
	struct rx_opts op = rx_default_opts();
	op.end_pad = 1;
	rx_setup_opts(&op);
	uint8_t f[256], m[64], c[64], ee[64];
	memset(ee, 0xEE, sizeof ee);
	tl_mem_write(rdev, rx.data + RX_BUF, ee, 64);
	tl_mem_write(rdev, rx.data + RX_BUF + 64, ee, 64);
	tl_mem_write(rdev, rx.data + RX_BUF + 128, ee, 64);
	tl_mem_write(rdev, rx.data + RX_BUF + 0x300, ee, 64);
	tl_mem_write(rdev, rx.data + RX_BUF + 0x340, ee, 64);
	struct rx_frame_opts o = rx_udp(58); /* 100 bytes */
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x300, 104); /* the entry ends before the cache line does */
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, byte_cnt), 100);
	rx_mem(RX_BUF + 100, m, 29);
	for (unsigned i = 0; i < 28; i++)
		cr_expect_eq(m[i], 0, "pad byte %u", i);
	cr_expect_eq(m[28], 0xEE, "not past the cache line");
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_mem(RX_BUF + 0x300 + 100, m, 8);
	cr_expect_eq(m[0], 0);
	cr_expect_eq(m[3], 0);
	cr_expect_eq(m[4], 0xEE, "never beyond the scatter entry's length");
}

/* T76 cqe_sz 1 (D-CQE-2): the CQE is the 128-byte entry's second half. */
Test(rx_rq, cqe_128)
{
	struct rx_opts op = rx_default_opts();
	op.cqe_sz = 1;
	rx_setup_opts(&op);
	uint8_t f[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(rx_give(f, n, 5), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2);
	cr_expect_eq(CQE(c, byte_cnt), n);
	cr_expect_eq(CQE(c, flow_tag), 5);
}

/* §9.2.3, T23: a good signature receives; a bad one completes with error 0x2. */
Test(rx_rq, wqe_signature)
{
	struct rx_opts op = rx_default_opts();
	op.wq_signature = true;
	rx_setup_opts(&op);
	uint8_t f[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2);
	rx_post1(RX_BUF, 512);
	uint8_t b = 0x5A; /* break WQE 1's signature */
	tl_mem_write(rdev, rx.ring.buf + 64 + 4, &b, 1);
	cr_assert_eq(rx_give(f, n, 0), RX_ERROR);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 14);
	cr_expect_eq(CQE(c, syndrome), NICREF_CQE_SYN_LOCAL_QP_OPERATION);
	cr_expect_eq(CQE(c, wqe_counter), 1);
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_WQE_SIGNATURE);
}

/* T40, §6.1, D-MKC-6: an L_Key that does not translate for a local write: error 0x4. */
Test(rx_rq, lkey_refused)
{
	uint8_t f[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	struct refdrv_rx_sge s = rx_sge(RX_BUF, 512);
	s.lkey ^= 1; /* wrong tag */
	rx_post(&s, 1);
	cr_assert_eq(rx_give(f, n, 0), RX_ERROR);
	rx_cqe(c);
	cr_expect_eq(CQE(c, syndrome), NICREF_CQE_SYN_LOCAL_PROTECTION);
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_WQE_LKEY);
}

/* T68 l3_ok/l4_ok (D-RX-9): each checksum is checked. */
Test(rx_rq, checksums_checked)
{
	uint8_t f[256], c[64];
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	struct rx_frame_opts o = rx_udp(30);
	o.bad_l4_csum = true;
	size_t n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l3_ok), 1);
	cr_expect_eq(CQE(c, l4_ok), 0);
	o = rx_udp(30);
	o.bad_ip_csum = true;
	n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l3_ok), 0);
	cr_expect_eq(CQE(c, l4_ok), 0);
}

/* T68 l4_hdr_type (TCP by its ACK flag and payload) and ip_ext_opts. */
Test(rx_rq, tcp_types_and_ip_options)
{
	uint8_t f[256], c[64];
	for (unsigned i = 0; i < 3; i++)
		rx_post1(RX_BUF + 0x200 * i, 512);
	struct rx_frame_opts o = { .vid = -1, .proto = 6, .tcp_flags = 0x10, .payload = 0 };
	size_t n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l4_hdr_type), 3, "ACK, no data");
	cr_expect_eq(CQE(c, l4_ok), 1);
	o.payload = 9;
	o.ip_opts = 2;
	n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "ACK with data");
	cr_expect_eq(CQE(c, ip_ext_opts), 1);
	cr_expect_eq(CQE(c, l3_ok), 1);
	o.tcp_flags = 0x02; /* SYN */
	o.ip_opts = 0;
	n = rx_frame(f, &o);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l4_hdr_type), 1, "TCP without ACK");
}

/* §7.4.4.4, §7.7, D-RMP-1, D-WQ-2: an RQ on a linked-list RMP takes its WQEs in list order,
 * reports the stride index, and the limit event fires as WQEs run low. */
Test(rx_rq, rmp_linked_list_and_limit)
{
	struct rx_opts op = rx_default_opts();
	op.rmp = op.linked = true;
	op.lwm = 2;
	op.eq_events = 1ull << 0x14;
	rx_setup_opts(&op);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_expect_eq(CQE(c, srqn_user_index), 0x654321);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 1);
	rx_mem(RX_BUF + 0x400, m, n);
	cr_expect_arr_eq(m, f, n);
	size_t lim = 0;
	for (size_t i = 0; i < tl_count(&rdev->tr, NICREF_EV_EQE); i++)
		if (tl_nth(&rdev->tr, NICREF_EV_EQE, i)->arg[2] == 0x14)
			lim++;
	cr_expect_eq(lim, 1, "one RMP limit event (D-WQ-2)");
	cr_expect_eq(rx_give(f, n, 0), RX_DROPPED, "the RMP is empty");
}

/* T55 wq_type 0 for an RQ, T42/T43 (D-RX-16): a linked-list RQ takes its WQEs along the
 * Next_WQE_index chain from stride 0, not in buffer order; its scatter list follows the 16-byte
 * next segment; the CQE's wqe_counter and the signature name the stride. */
Test(rx_rq, linked_list_rq_follows_next_wqe_index)
{
	struct rx_opts op = rx_default_opts();
	op.linked = op.wq_signature = true;
	rx_setup_opts(&op);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	/* Strides 0, 1, 2 posted in buffer order, then relinked 0 -> 2 -> 1 -> 3 by hand, each
	 * signature byte corrected for the changed next index. */
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	rx_post1(RX_BUF + 0x800, 512);
	uint64_t stride = 64;
	uint8_t w[64];
	const uint16_t relink[3][2] = { { 0, 2 }, { 2, 1 }, { 1, 3 } };
	for (unsigned k = 0; k < 3; k++) {
		uint16_t at = relink[k][0], next = relink[k][1];
		tl_mem_read(rdev, rx.ring.buf + at * stride, w, sizeof w);
		uint8_t x = (uint8_t)(w[2] ^ w[3] ^ (next >> 8) ^ next);
		w[2] = (uint8_t)(next >> 8);
		w[3] = (uint8_t)next;
		w[4] ^= x; /* the signature byte (T43 31:24) keeps the XOR at 0xFF */
		tl_mem_write(rdev, rx.ring.buf + at * stride, w, sizeof w);
	}
	const uint16_t order[3] = { 0, 2, 1 };
	for (unsigned k = 0; k < 3; k++) {
		memset(f + n - 30, (int)(0x40 + k), 30);
		cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED, "frame %u", k);
		rx_cqe(c);
		cr_expect_eq(CQE(c, opcode), 2, "frame %u: no error (signature over the stride)", k);
		cr_expect_eq(CQE(c, wqe_counter), order[k], "frame %u: the stride along the list", k);
		cr_expect_eq(CQE(c, byte_cnt), n);
		rx_mem(RX_BUF + 0x400u * order[k], m, n);
		cr_expect_arr_eq(m, f, n, "frame %u in stride %u's buffer", k, order[k]);
	}
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_VIOLATION), 0);
}

/* A linked-list RQ (D-RX-16) with three WQEs of 512 bytes posted at strides 0-2 (linked
 * as the test driver writes them) and a 30-byte UDP frame in f; returns its length. */
static size_t ll_three_posted(uint8_t *f)
{
	struct rx_opts op = rx_default_opts();
	op.linked = true;
	rx_setup_opts(&op);
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	rx_post1(RX_BUF + 0x800, 512);
	return n;
}

/* D-RX-16, §7.7.2.1: a linked-list RQ in ERR with flush_in_error_en flushes what is posted, each
 * flush CQE naming the stride along the list. */
Test(rx_rq, linked_list_rq_flush_names_strides)
{
	uint8_t f[256], c[64];
	size_t n = ll_three_posted(f);
	/* Stride 0 points to stride 5 (written, not posted: the list, not the buffer, decides),
	 * stride 5 back to 1. */
	uint8_t nx[4] = { 0, 0, 0, 5 };
	tl_mem_write(rdev, rx.ring.buf, nx, 4);
	nx[3] = 1;
	tl_mem_write(rdev, rx.ring.buf + 5 * 64, nx, 4);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_assert_eq(refdrv_modify_rq(&rdev->d, rx.rqn, 1, 3), 0, "RDY2ERR");
	const uint16_t flushed[2] = { 5, 1 };
	for (unsigned k = 0; k < 2; k++) {
		rx_cqe(c);
		cr_expect_eq(CQE(c, opcode), 14, "flush %u", k);
		cr_expect_eq(CQE(c, syndrome), 0x5, "flush %u: WR_Flushed", k);
		cr_expect_eq(CQE(c, wqe_counter), flushed[k], "flush %u: the stride", k);
	}
	cr_expect_eq(refdrv_rx_poll(&rdev->d, &rx.cq, c), 0, "two WQEs were left: two flushes");
}

/* Rewrites the Next_WQE_index (T43 00h[15:0]) of the linked-list WQE in stride `at`, its
 * signature byte (T43 04h[31:24]) corrected so that a signed WQE stays signed for its stride. */
static void ll_relink(uint16_t at, uint16_t next)
{
	uint64_t stride = 1ull << rx.ring.log_wq_stride;
	uint8_t w[8];
	tl_mem_read(rdev, rx.ring.buf + at * stride, w, sizeof w);
	uint8_t x = (uint8_t)(w[2] ^ w[3] ^ (next >> 8) ^ next);
	w[2] = (uint8_t)(next >> 8);
	w[3] = (uint8_t)next;
	w[4] ^= x;
	tl_mem_write(rdev, rx.ring.buf + at * stride, w, sizeof w);
}

/* The one RX_LL_NEXT_BEYOND_RING of the trace names `value` and the stride it led to. */
static void expect_beyond_ring(uint32_t rqn, uint16_t value, uint16_t stride)
{
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_LL_NEXT_BEYOND_RING);
	const struct nicref_event *v = tl_nth(&rdev->tr, NICREF_EV_VIOLATION, 0);
	cr_assert(v);
	cr_expect_eq(v->arg[1], (uint64_t)rqn << 32 | (uint32_t)value << 16 | stride,
		     "arg 0x%llx", (unsigned long long)v->arg[1]);
}

/* Three signed linked-list WQEs of 512 bytes at strides 0-2; stride 0 names next (stride 2
 * modulo the 16-stride ring), stride 2 names 1: three frames (payload bytes fill + k) land in
 * strides 0, 2, 1, each CQE naming the stride read and signed for it, and the one violation
 * names the value followed and the stride taken. */
static void expect_list_wraps(struct rx_opts *op, uint16_t next, uint8_t fill)
{
	op->linked = op->wq_signature = true;
	rx_setup_opts(op);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(30);
	size_t n = rx_frame(f, &o);
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	rx_post1(RX_BUF + 0x800, 512);
	ll_relink(0, next);
	ll_relink(2, 1);
	const uint16_t order[3] = { 0, 2, 1 };
	for (unsigned k = 0; k < 3; k++) {
		memset(f + n - 30, (int)(fill + k), 30);
		cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED, "frame %u", k);
		rx_cqe(c);
		cr_expect_eq(CQE(c, opcode), 2, "frame %u: no error (signed for its stride)", k);
		cr_expect_eq(CQE(c, wqe_counter), order[k], "frame %u: the stride read", k);
		rx_mem(RX_BUF + 0x400u * order[k], m, n);
		cr_expect_arr_eq(m, f, n, "frame %u in stride %u's buffer", k, order[k]);
	}
	expect_beyond_ring(rx.rqn, next, 2);
}

/* D-RX-16, T43, T55: a Next_WQE_index at or beyond the ring (2^log_wq_sz strides) is a driver
 * violation; the device takes the stride it names modulo the ring, as every index of the
 * circular buffer (§7.4.1), and that stride is the WQE everywhere: the CQE's wqe_counter, the
 * index its signature covers (§9.2.3), the buffer written. */
Test(rx_rq, linked_list_rq_next_beyond_ring_wraps)
{
	struct rx_opts op = rx_default_opts();
	expect_list_wraps(&op, 0x12, 0x40);
}

/* D-RX-16, §7.7.2.1: the flush of flush_in_error_en follows the list the same way, each flush
 * CQE naming the stride it reached through a Next_WQE_index beyond the ring. */
Test(rx_rq, linked_list_rq_flush_beyond_ring_names_strides)
{
	uint8_t f[256], c[64];
	size_t n = ll_three_posted(f);
	ll_relink(0, 0xFFF5); /* stride 5 modulo 16 */
	ll_relink(5, 1);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_assert_eq(refdrv_modify_rq(&rdev->d, rx.rqn, 1, 3), 0, "RDY2ERR");
	const uint16_t flushed[2] = { 5, 1 };
	for (unsigned k = 0; k < 2; k++) {
		rx_cqe(c);
		cr_expect_eq(CQE(c, syndrome), 0x5, "flush %u: WR_Flushed", k);
		cr_expect_eq(CQE(c, wqe_counter), flushed[k], "flush %u: the stride", k);
	}
	cr_expect_eq(refdrv_rx_poll(&rdev->d, &rx.cq, c), 0, "two WQEs were left: two flushes");
	expect_beyond_ring(rx.rqn, 0xFFF5, 5);
}

/* D-RMP-1, D-RX-16: an RQ on a linked-list RMP reaching a Next_WQE_index beyond the RMP's
 * ring takes the stride modulo the ring, reports it, and the RMP stays RDY. */
Test(rx_rq, rmp_linked_list_next_beyond_ring_wraps)
{
	struct rx_opts op = rx_default_opts();
	op.rmp = true;
	expect_list_wraps(&op, 0x22, 0x50);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_WQ_STATE), 0, "nothing left RDY");
}

/* §3.3.9, D-RX-1: start_padding on an entry other than the first is ignored. */
Test(rx_rq, start_padding_not_first)
{
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(58);
	size_t n = rx_frame(f, &o);
	struct refdrv_rx_sge s[2] = { rx_sge(RX_BUF, 64), rx_sge(RX_BUF + 0x100, 256) };
	s[1].start_padding = true;
	rx_post(s, 2);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_START_PAD_NOT_FIRST);
	rx_mem(RX_BUF + 0x100, m, n - 64);
	cr_expect_arr_eq(m, f + 64, n - 64, "not padded");
}

/* §3.3.9 "supported only when HCA_CAP.start_pad==1": without it, no padding. */
Test(rx_rq, start_padding_unsupported)
{
	tl_set_cap(rdev, "start_pad", 0);
	uint8_t f[256], m[256], c[64];
	struct rx_frame_opts o = rx_udp(58);
	size_t n = rx_frame(f, &o);
	struct refdrv_rx_sge s = rx_sge(RX_BUF, 512);
	s.start_padding = true;
	rx_post(&s, 1);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_START_PAD_UNSUPPORTED);
	rx_mem(RX_BUF, m, n);
	cr_expect_arr_eq(m, f, n, "at the entry's start");
}

/* T68 over IPv6 (D-RX-10, D-PARSE-5): a fragment other than the first carries no L4 header,
 * whatever its first bytes look like: l4_hdr_type 0, ip_frag 1, ip_ext_opts 1 (the fragment
 * header, RFC 8200 §4.5); l3_hdr_type 1 (IPv6). */
Test(rx_rq, ipv6_later_fragment_has_no_l4)
{
	uint8_t f[128] = { 0 }, c[64];
	rx_post1(RX_BUF, 512);
	memcpy(f, rx_own_mac, 6);
	f[11] = 0x99;
	f[12] = 0x86, f[13] = 0xDD;
	uint8_t *ip = f + 14;
	ip[0] = 0x60;
	ip[5] = 8 + 16; /* payload: the fragment header and 16 bytes */
	ip[6] = 44;     /* next header: Fragment */
	ip[7] = 64;
	ip[8] = 0xfd, ip[23] = 1;
	ip[24] = 0xfd, ip[39] = 2;
	uint8_t *fh = ip + 40;
	fh[0] = 17;   /* the fragmented datagram is UDP */
	fh[3] = 8;    /* offset 1 (8 bytes), M 0: the last fragment, not the first */
	fh[7] = 0x42; /* identification */
	uint8_t *pl = fh + 8; /* payload that looks like a UDP header */
	pl[0] = 0x12, pl[1] = 0x34, pl[2] = 0x56, pl[3] = 0x78, pl[5] = 16;
	size_t n = 14 + 40 + 8 + 16;
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l3_hdr_type), 1);
	cr_expect_eq(CQE(c, l4_hdr_type), 0);
	cr_expect_eq(CQE(c, ip_frag), 1);
	cr_expect_eq(CQE(c, ip_ext_opts), 1);
	cr_expect_eq(CQE(c, l4_ok), 0);
}

/* RFC 8200 §4.5: behind the Fragment header of a fragment other than the first is fragment
 * data, even when the Fragment header's next header names an extension header (Destination
 * Options may follow a Fragment header): the parse stops there (D-PARSE-5). Before, the
 * payload was walked as a Destination Options header whose length ran past the frame, and the
 * packet read as an incomplete IPv6 header: l3_ok 0. */
Test(rx_rq, ipv6_later_fragment_payload_is_not_a_header)
{
	uint8_t f[128] = { 0 }, c[64];
	rx_post1(RX_BUF, 512);
	memcpy(f, rx_own_mac, 6);
	f[11] = 0x99;
	f[12] = 0x86, f[13] = 0xDD;
	uint8_t *ip = f + 14;
	ip[0] = 0x60;
	ip[5] = 8 + 16;
	ip[6] = 44; /* Fragment */
	ip[7] = 64;
	ip[8] = 0xfd, ip[23] = 1;
	ip[24] = 0xfd, ip[39] = 2;
	uint8_t *fh = ip + 40;
	fh[0] = 60; /* the fragmented part starts with Destination Options */
	fh[3] = 8;  /* offset 1, M 0 */
	uint8_t *pl = fh + 8;
	pl[0] = 17, pl[1] = 0xff; /* as a header: 2040 bytes long, past the frame */
	size_t n = 14 + 40 + 8 + 16;
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	rx_cqe(c);
	cr_expect_eq(CQE(c, l3_hdr_type), 1);
	cr_expect_eq(CQE(c, l3_ok), 1, "a whole IPv6 header with a consistent payload length");
	cr_expect_eq(CQE(c, l4_hdr_type), 0);
	cr_expect_eq(CQE(c, ip_frag), 1);
}
