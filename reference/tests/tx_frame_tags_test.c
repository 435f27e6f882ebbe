/* The VLAN tags the MTU leaves out of a frame (D-TX-6): the Ethernet header and up to two
 * 802.1Q/802.1ad tags, the tags the device parses (D-TXO-6). Found by the tx fuzz target
 * (fuzzers/tx_fuzz.c FRAME_MAX, FRAME_MTU): while every stacked tag counted as L2, a SEND behind
 * 200 tags left as a 10,792-byte frame on a port of max_mtu 9978, and a TPID 0x9100 tag (neither
 * 802.1Q nor 802.1ad) was left out of the MTU. Shared tools: tx_util.h. */
#include "eth/eth.h"
#include "tx_util.h"

TestSuite(tx_frame_tags, .init = tx_setup, .fini = tx_teardown);

/* A UDP packet whose IP datagram is `ip` bytes, behind `n` tags of tpids[i % 2]; its length. */
static size_t tagged(uint8_t *pkt, size_t ip, const unsigned tpids[2], unsigned n)
{
	size_t len = tx_udp_packet(pkt + 4 * n, ip + 14, TX_DMAC) + 4 * n;
	memmove(pkt, pkt + 4 * n, 12);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *t = pkt + 12 + 4 * i;
		t[0] = (uint8_t)(tpids[i % 2] >> 8);
		t[1] = (uint8_t)tpids[i % 2];
		t[2] = 0x00;
		t[3] = (uint8_t)(7 + i); /* VLAN id */
	}
	return len;
}

/* Sends it, its headers through UDP inline (the inline mode's L2, every tag, §7.9.3.1); whether
 * a frame left (rather than a tx_discard of the MTU, D-TX-6). */
static bool sent(const uint8_t *pkt, size_t len, unsigned n)
{
	unsigned before = tl_count(&tdev->tr, NICREF_EV_FRAME_OUT);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, 42 + 4 * n, 0);
	tx_send(&w);
	return tl_count(&tdev->tr, NICREF_EV_FRAME_OUT) == before + 1;
}

static uint8_t pkt[12000];

Test(tx_frame_tags, two_tags_are_l2)
{
	static const unsigned tpids[2] = { 0x88A8, 0x8100 };
	uint32_t mtu = port_get(tdev->dev, 1)->oper_mtu;
	cr_expect(sent(pkt, tagged(pkt, mtu, tpids, 2), 2), "802.1ad + 802.1Q: the MTU's datagram");
	cr_expect_not(sent(pkt, tagged(pkt, mtu + 1, tpids, 2), 2), "one byte more");
}

Test(tx_frame_tags, a_third_tag_counts_in_the_mtu)
{
	static const unsigned tpids[2] = { 0x8100, 0x8100 };
	uint32_t mtu = port_get(tdev->dev, 1)->oper_mtu;
	cr_expect(sent(pkt, tagged(pkt, mtu - 4, tpids, 3), 3), "the third tag and the datagram: MTU");
	cr_expect_not(sent(pkt, tagged(pkt, mtu - 3, tpids, 3), 3), "one byte more");
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_FRAME_OVER_MTU);
}

Test(tx_frame_tags, tpid_9100_is_not_a_tag)
{
	static const unsigned tpids[2] = { 0x9100, 0x9100 };
	uint32_t mtu = port_get(tdev->dev, 1)->oper_mtu;
	cr_expect(sent(pkt, tagged(pkt, mtu - 4, tpids, 1), 1), "the 0x9100 tag counts: MTU");
	cr_expect_not(sent(pkt, tagged(pkt, mtu - 3, tpids, 1), 1), "one byte more");
}

Test(tx_frame_tags, no_frame_longer_than_max_mtu_and_two_tags)
{
	/* The port at its largest MTU (T106 max_mtu); 200 stacked tags before a datagram of
	 * that size: dropped, not a frame of max_mtu + 814 bytes. */
	static const unsigned tpids[2] = { 0x8100, 0x8100 };
	struct port *p = port_get(tdev->dev, 1);
	p->admin_mtu = p->oper_mtu = p->max_mtu; /* as a PMTU write would (invariant PORT_MTU) */
	size_t len = tagged(pkt, p->max_mtu, tpids, 200);
	cr_expect_not(sent(pkt, len, 200), "a %zu-byte frame", len);
	cr_expect(sent(pkt, tagged(pkt, p->max_mtu - 4 * 198, tpids, 200), 200),
		  "max_mtu counting the 198 tags past the second");
	cr_expect_eq(tx.frames_lost, 1, "the frame, longer than the capture holds");
	tx.frames_lost = 0;
}
