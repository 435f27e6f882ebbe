/* SEND and LSO WQEs (PRM §7.4.4.1.2 T27/T28, §7.4.4.1.4 T38/T39, §7.4.4.2 T41, §7.9.3; eth/
 * wqe_send.c, eth/wqe_gather.c): the Eth segment and its inline headers, memory-pointer data
 * through the MKeys (lkey, the SQ's PD, rights, the reserved LKey), inline data, their limits,
 * the inline-mode drop (D-TX-6), the hand-over to the offloads (D-TX-10). Shared tools:
 * tx_util.h. */
#include "tx_util.h"

TestSuite(tx_send, .init = tx_setup, .fini = tx_teardown);

static void expect_error(enum nicref_violation rule, uint8_t syndrome)
{
	uint8_t cqe[64];
	tl_expect_one_violation(&tdev->tr, rule);
	cr_assert_eq(tx_poll(cqe), 1, "an error CQE");
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), syndrome);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_SEND);
	cr_expect_eq(tx.nframes, 0, "no frame for a refused WQE");
	cr_expect_eq(tx_query().state, 3);
}

Test(tx_send, every_segment_kind_gathers_in_order)
{
	/* §7.4.4.1.4: "The WQE can contain single or multiple memory pointer segments, single or
	 * multiple in-line Data segments, or any combination"; the packet is the inline headers,
	 * then the data segments in order. */
	uint8_t pkt[200], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 42);
	w_inline(&w, pkt + 42, 10);
	w_ptr(&w, tx.lkey, tx_data(0x1000, pkt + 52, 50), 50);
	w_inline(&w, pkt + 102, 0); /* zero byte_count: "no data will be added" (T39) */
	w_ptr(&w, tx.lkey, tx_data(0x20, pkt + 102, 48), 48);
	w_inline(&w, pkt + 150, 50);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_send, no_data_segments_and_inline_sizes)
{
	/* T39/§7.4.4.1.4: "To send a request with zero data, DS should be set such that no data
	 * segments appear"; inline headers of 14 to 200 bytes, the last octword partly used. */
	uint8_t pkt[200];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	static const size_t sizes[] = { 14, 16, 17, 18, 33, 42, 100, 200 };
	for (unsigned i = 0; i < TL_NELEM(sizes); i++) {
		struct wqe w;
		w_ctrl(&w, NICREF_SEND_OP_SEND, 0);
		w_eth(&w, 0, 0, 0, pkt, sizes[i]);
		tx_send(&w);
		tx_expect_frame(i, pkt, sizes[i]);
	}
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_send, eth_segment_missing)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	tx_send(&w);
	expect_error(NICREF_VIO_TX_ETH_SEGMENT_MISSING, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_send, inline_headers_past_ds)
{
	uint8_t pkt[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 42);
	w.len -= 16; /* ds one octword short of the headers */
	tx_send(&w);
	expect_error(NICREF_VIO_TX_ETH_INLINE_BEYOND_DS, NICREF_CQE_SYN_LOCAL_LENGTH);
}

Test(tx_send, mss_only_for_lso)
{
	uint8_t pkt[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 1000, pkt, 42); /* T28 mss "Must be 0 on non LSO WQEs" */
	tx_send(&w);
	expect_error(NICREF_VIO_TX_ETH_MSS_NOT_LSO, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_send, inline_data_past_ds)
{
	uint8_t pkt[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 14);
	w_inline(&w, pkt + 14, 20); /* 4 + 20 bytes: two octwords */
	w.len -= 16;
	tx_send(&w);
	expect_error(NICREF_VIO_TX_DATA_INLINE_BEYOND_DS, NICREF_CQE_SYN_LOCAL_LENGTH);
}

/* ---- Memory pointers through the MKeys (§6.1; D-MKC-6) --------------------------------------- */

static void send_ptr(uint32_t lkey, uint64_t addr, uint32_t bc)
{
	uint8_t pkt[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 42);
	w_ptr(&w, lkey, addr, bc);
	tx_send(&w);
}

Test(tx_send, lkey_of_no_mkey)
{
	send_ptr(tx.lkey + 0x100, tx.data, 16); /* the next index: no MKey */
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_send, lkey_with_another_tag)
{
	send_ptr(tx.lkey ^ 1, tx.data, 16);
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_send, data_outside_the_region)
{
	send_ptr(tx.lkey, tx.data + TX_DATA_SIZE - 8, 16);
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_send, byte_count_zero_is_two_gigabytes)
{
	/* T38: "A byte count value of zero means 2Gbyte data transfer": beyond the 1 MB region. */
	send_ptr(tx.lkey, tx.data, 0);
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_send, mkey_of_another_pd)
{
	/* §6.1: the MKey's PD must be the SQ's. */
	uint32_t pd2 = tl_alloc_pd(tdev), idx;
	struct refdrv_mkey_attr m = {
		.access_mode = 0, .pd = pd2, .tag = 1, .start_addr = tx.data, .len = TX_DATA_SIZE
	};
	cr_assert_eq(refdrv_create_mkey(&tdev->d, &m, &idx), 0);
	tl_mark(&tdev->tr);
	send_ptr(idx << 8 | 1, tx.data, 16);
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_send, reserved_lkey_needs_rlkey)
{
	/* §6.3, T61 rlkey: without it the reserved LKey (0, D-MKC-3) does not translate. */
	send_ptr(0, tx.data, 16);
	expect_error(NICREF_VIO_TX_DATA_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

static void rlkey_sq(void)
{
	struct tx_opts o = tx_default_opts();
	o.rlkey = true;
	tx_setup_opts(&o);
}

Test(tx_send, reserved_lkey_with_rlkey, .init = rlkey_sq)
{
	/* §6.3: the reserved LKey maps one to one: the pointer is a host address. */
	uint8_t pkt[100], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 2, pkt, len, 42, 0x300);
	seg_set(&w, 0x50, "send_wqe_data_ptr", "l_key", 0); /* after 16 + 64 */
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(tx_poll(cqe), 1);
	cr_expect_eq(tdev->tr.violations, 0);
}

/* ---- The inline modes (§7.9.3, D-TX-6) ------------------------------------------------------ */

Test(tx_send, fewer_inline_headers_than_the_mode_drop_the_packet)
{
	/* The SQ's mode is L2 (1): the Ethernet header's 14 bytes must be inline. 13 are not
	 * enough: T61 "the packet is silently dropped"; the WQE completes (D-TX-6). */
	uint8_t pkt[100], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 2, pkt, len, 13, 0);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_INLINE_HEADERS_SHORT);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)tx.sqn << 32 | 14);
	cr_expect_eq(tx.nframes, 0, "dropped");
	const struct nicref_event *d = tl_only(&tdev->tr, NICREF_EV_TX_DISCARD);
	cr_expect_eq(d->arg[0], tx.sqn);
	cr_expect_eq(d->arg[1], 0, "wqe_counter");
	cr_expect_eq(d->arg[2], 1, "reason: inline headers");
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0, "the WQE completes without error");
	cr_expect_eq(tx_query().state, 1, "RDY");
	/* PPCNT RFC 2863 ifOutDiscards (D-TX-6). */
	cr_expect_eq(port_counter_get(tdev->dev, 1, PORT_CNT_if_out_discards, 0), 1);
	/* 14 are. */
	w_send_packet(&w, 2, pkt, len, 14, 0);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
}

static void tcp_mode_sq(void)
{
	struct tx_opts o = tx_default_opts();
	o.min_inline = 3; /* TCP/UDP (§7.9.3.1) */
	tx_setup_opts(&o);
}

Test(tx_send, mode_3_needs_the_udp_header, .init = tcp_mode_sq)
{
	uint8_t pkt[100];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 41, 0);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_INLINE_HEADERS_SHORT);
	cr_expect_eq(tdev->tr.last_violation_arg & 0xFFFF, 42, "14 + 20 + 8 bytes");
	tl_mark(&tdev->tr);
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(tdev->tr.violations, 0);
}

/* ---- Lengths and the offloads (D-TX-10, D-TX-11) -------------------------------------------- */

static void no_inline_sq(void)
{
	/* An SQ of mode 0 (§7.9.3.1 "None"), which CREATE_SQ allows on a vport whose own minimum
	 * is 0: the profile's (D-VP-3). */
	static struct nicref_profile p;
	nicref_profile_default(&p);
	p.vport_min_wqe_inline_mode = 0;
	struct tx_opts o = tx_default_opts();
	o.min_inline = 0;
	o.profile = &p;
	tx_setup_opts(&o);
}

Test(tx_send, an_empty_send_is_a_local_length_error, .init = no_inline_sq)
{
	/* No inline header and no data segment (ds 2: ctrl and Eth): §7.4.4.1.4's "request with
	 * zero data" makes no Ethernet frame; the offloads' TX_ERR_LENGTH (D-TX-10). */
	struct wqe w;
	const uint8_t none[1] = { 0 };
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, none, 0);
	tx_send(&w);
	expect_error(NICREF_VIO_TX_OFFLOAD_LENGTH, NICREF_CQE_SYN_LOCAL_LENGTH);
	const struct nicref_event *v = tl_nth(&tdev->tr, NICREF_EV_VIOLATION, 0);
	cr_assert(v);
	cr_expect(strstr(nicref_violation_citation((unsigned)v->arg[0]), "§7.4.4.1.4") != NULL,
		  "the rule cites the zero-data clause: %s",
		  nicref_violation_citation((unsigned)v->arg[0]));
}


Test(tx_send, short_frames_are_padded)
{
	/* §3.3.8: "Ethernet packets shorter than 64 bytes are automatically padded ... to 64
	 * bytes": 60 without the FCS (D-TX-2); the request asks the offloads for it. */
	uint8_t pkt[42];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 42, 0);
	tx_send(&w);
	tx_expect_frame(0, pkt, len);
	cr_expect_eq(tx.frames[0].len, 60);
}

Test(tx_send, a_message_longer_than_any_lso)
{
	/* 2^max_lso_cap (64 KB) plus the largest WQE: a SEND that long exceeds every MTU and is
	 * dropped; an LSO completes with error 0x1 (D-TX-11). */
	uint8_t pkt[64], cqe[64];
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, 42);
	w_ptr(&w, tx.lkey, tx.data, 0x11000);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_MESSAGE_TOO_LONG);
	cr_expect_eq(tx.nframes, 0);
	cr_expect_eq(tl_only(&tdev->tr, NICREF_EV_TX_DISCARD)->arg[2], 2, "reason: MTU");
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	tl_mark(&tdev->tr);
	w_ctrl(&w, NICREF_SEND_OP_LSO, 2);
	w_eth(&w, 1, 1, 1000, pkt, 42);
	w_ptr(&w, tx.lkey, tx.data, 0x11000);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_MESSAGE_TOO_LONG);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), NICREF_CQE_SYN_LOCAL_LENGTH);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_LSO);
}

Test(tx_send, lso_has_one_cqe)
{
	/* §3.3.2: an LSO WQE completes with a single CQE whatever it sends; its opcode (D-TX-1)
	 * is reported in s_wqe_opcode. */
	static const uint8_t
	    hdr
		[54] = {
			0x02, 0,    0,	  0,	0,    0x02, 0x02, 0, 0,	   0,
			0,    0x01, 0x08, 0x00, /* Ethernet */
			0x45, 0,    0,	  0,	0,    1,    0x40, 0, 0x40, 0x06,
			0,    0,    10,	  0,	0,    1,    10,	  0, 0,	   2, /* IPv4 */
			0x04, 0xD2, 0x16, 0x2E, 0,    0,    0,	  1, 0,	   0,
			0,    0,    0x50, 0x10, 0xFF, 0xFF, 0,	  0, 0,	   0, /* TCP */
		};
	uint8_t payload[1000], cqe[64];
	for (size_t i = 0; i < sizeof payload; i++)
		payload[i] = (uint8_t)(i * 3);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_LSO, 2);
	w_eth(&w, 1, 1, 500, hdr, sizeof hdr);
	w_ptr(&w, tx.lkey, tx_data(0, payload, sizeof payload), sizeof payload);
	tx_send(&w);
	cr_expect_geq(tx.nframes, 1, "the offloads emit the frames (TX-B: two segments)");
	cr_expect_eq(tdev->tr.violations, 0);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_LSO);
	cr_expect_eq(tx_poll(cqe), 0, "one CQE");
}

/* §3.3.1: "Checksum offload support is reported through the csum_cap bit" (T147 00h[31]). A
 * device that reports none (the profile lowers it) does not apply l3cs/l4cs (D-TXO-16). */
static void no_csum_cap(void)
{
	static struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "per_protocol_networking_offload_caps", "csum_cap", 0),
		     NICREF_CAP_SET_OK);
	struct tx_opts o = tx_default_opts();
	o.profile = &p;
	tx_setup_opts(&o);
}

static uint32_t ones_sum(const uint8_t *b, size_t n)
{
	uint32_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return s;
}

Test(tx_send, without_csum_cap_l3cs_l4cs_are_not_applied, .init = no_csum_cap)
{
	/* D-TXO-16: with csum_cap 0 a WQE asking l3cs/l4cs is the driver's mistake
	 * (TX_CSUM_NO_CAP); the checksums go out as posted and the WQE completes. */
	uint8_t pkt[64], cqe[64];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	pkt[24] = 0xBE; /* IPv4 header checksum */
	pkt[25] = 0xEF;
	pkt[40] = 0xBE; /* UDP checksum */
	pkt[41] = 0xEF;
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 1, 1, 0, pkt, len);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_CSUM_NO_CAP);
	cr_assert_eq(tx.nframes, 1);
	tx_expect_frame(0, pkt, len);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0, "the WQE completes");
	tl_mark(&tdev->tr);
	/* Neither bit asked: nothing to report. */
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	w_eth(&w, 0, 0, 0, pkt, len);
	tx_send(&w);
	cr_expect_eq(tdev->tr.violations, 0);
	cr_assert_eq(tx.nframes, 2);
	tx_expect_frame(1, pkt, len);
}

Test(tx_send, without_csum_cap_lso_still_computes_its_checksums, .init = no_csum_cap)
{
	/* D-TXO-16 with D-TXO-10: LSO (max_lso_cap, T147) computes the checksums of the segments
	 * it builds whatever l3cs/l4cs say; csum_cap does not change that, and no violation. */
	uint8_t hdr[54] = { 0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00, /* Ethernet */
			    0x45, 0, 0, 0, 0, 1, 0x40, 0, 0x40, 0x06, 0xBE, 0xEF, 10, 0, 0, 1,
			    10, 0, 0, 2, /* IPv4, checksum 0xBEEF */
			    0x04, 0xD2, 0x16, 0x2E, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0xFF, 0xFF,
			    0xBE, 0xEF, 0, 0 /* TCP, checksum 0xBEEF */ };
	uint8_t payload[600], cqe[64];
	for (size_t i = 0; i < sizeof payload; i++)
		payload[i] = (uint8_t)(i * 3);
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_LSO, 2);
	w_eth(&w, 0, 0, 500, hdr, sizeof hdr);
	w_ptr(&w, tx.lkey, tx_data(0, payload, sizeof payload), sizeof payload);
	tx_send(&w);
	cr_expect_eq(tdev->tr.violations, 0);
	cr_assert_eq(tx.nframes, 2, "two segments of at most 500 bytes");
	for (unsigned i = 0; i < 2; i++) {
		const uint8_t *f = tx.frames[i].b;
		cr_expect_eq(ones_sum(f + 14, 20), 0xFFFF, "segment %u: IPv4 header checksum", i);
		/* RFC 793 pseudo-header: addresses, protocol, TCP length; then the segment. */
		size_t tcp_len = (size_t)(f[16] << 8 | f[17]) - 20;
		uint8_t ph[12];
		memcpy(ph, f + 26, 8);
		ph[8] = 0;
		ph[9] = 6;
		ph[10] = (uint8_t)(tcp_len >> 8);
		ph[11] = (uint8_t)tcp_len;
		uint32_t s = ones_sum(ph, 12) + ones_sum(f + 34, tcp_len);
		while (s >> 16)
			s = (s & 0xFFFF) + (s >> 16);
		cr_expect_eq(s, 0xFFFF, "segment %u: TCP checksum", i);
	}
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
}
