/* The inline modes (PRM §7.9.3, §7.9.3.1; eth/tx_inline.c, D-TX-6, D-TX-12): how many header bytes
 * each mode requires of a packet (L2 with VLAN tags and LLC/SNAP, IPv4 with options and
 * fragments, IPv6 with extension headers, TCP and UDP), and which mode an SQ is held to by
 * HCA_CAP.wqe_inline_mode (T147). The byte counts are worked out from the protocol headers by
 * hand. Shared tools: tx_util.h. */
#include "eth/eth.h"
#include "tx_util.h"

enum { NONE = 0, L2 = 1, IP = 2, L4 = 3, INNER_L2 = 5, INNER_IP = 6, INNER_L4 = 7 };

static size_t req(const uint8_t *p, size_t len, unsigned mode)
{
	return tx_inline_required(p, len, mode);
}

/* Ethernet II, `tags` 802.1Q tags, then EtherType `type`. */
static size_t l2(uint8_t *p, unsigned tags, unsigned type)
{
	memset(p, 0, 14);
	p[0] = 0x02;
	size_t at = 12;
	for (unsigned i = 0; i < tags; i++, at += 4)
		p[at] = 0x81, p[at + 1] = 0x00, p[at + 2] = 0, p[at + 3] = (uint8_t)(i + 1);
	p[at] = (uint8_t)(type >> 8), p[at + 1] = (uint8_t)type;
	return at + 2;
}

Test(tx_inline, l2_till_the_last_ethertype)
{
	uint8_t p[200] = { 0 };
	/* §7.9.3.1 mode 1: "L2 headers till the last EtherType". */
	cr_expect_eq(req(p, 100, NONE), 0, "mode 0: none");
	l2(p, 0, 0x0800);
	cr_expect_eq(req(p, 100, L2), 14);
	l2(p, 1, 0x0800);
	cr_expect_eq(req(p, 100, L2), 18, "one VLAN tag (§3.3.7)");
	l2(p, 2, 0x88B5);
	cr_expect_eq(req(p, 100, L2), 22, "two tags");
	cr_expect_eq(req(p, 100, L4), 22, "not IP: the L2 rule (modes 2, 3)");
	cr_expect_eq(req(p, 10, L2), 10, "a packet shorter than its header: all of it");
}

Test(tx_inline, llc_snap_is_at_least_17)
{
	/* Mode 1: "for LLC/SNAP frames ... Max (17 Bytes, L2 headers till the last EtherType)". */
	uint8_t p[100] = { 0 };
	size_t at = l2(p, 0, 60);			  /* an 802.3 length */
	p[at] = 0x42, p[at + 1] = 0x42, p[at + 2] = 0x03; /* LLC, not SNAP */
	cr_expect_eq(req(p, 100, L2), 17);
	p[at] = 0xAA, p[at + 1] = 0xAA, p[at + 2] = 0x03; /* SNAP: OUI, then the EtherType */
	cr_expect_eq(req(p, 100, L2), 22);
	cr_expect_eq(req(p, 100, IP), 22, "IP behind SNAP is not looked for (D-TX-12)");
}

/* IPv4 with `opts` bytes of options, protocol proto, fragment offset frag. */
static size_t ipv4(uint8_t *p, size_t at, unsigned opts, unsigned proto, unsigned frag)
{
	memset(p + at, 0, 20 + opts);
	p[at] = (uint8_t)(0x40 | (5 + opts / 4));
	p[at + 6] = (uint8_t)(frag >> 8), p[at + 7] = (uint8_t)frag;
	p[at + 9] = (uint8_t)proto;
	return at + 20 + opts;
}

Test(tx_inline, ip_and_l4_over_ipv4)
{
	uint8_t p[200] = { 0 };
	size_t at = ipv4(p, l2(p, 0, 0x0800), 0, 17, 0);
	/* Mode 2: "up to the end of the IP header"; mode 3: "the TCP/UDP header". */
	cr_expect_eq(req(p, 100, IP), 34);
	cr_expect_eq(req(p, 100, L4), 42, "UDP: 8 bytes");
	at = ipv4(p, l2(p, 1, 0x0800), 8, 6, 0);
	p[at + 12] = 0x80; /* TCP data offset 8: 32 bytes with options */
	cr_expect_eq(req(p, 150, IP), 18 + 28, "IHL 7");
	cr_expect_eq(req(p, 150, L4), 18 + 28 + 32);
	ipv4(p, l2(p, 0, 0x0800), 0, 47, 0);
	cr_expect_eq(req(p, 100, L4), 34, "GRE: no TCP/UDP header, the IP rule");
	ipv4(p, l2(p, 0, 0x0800), 0, 17, 0x00B9);
	cr_expect_eq(req(p, 100, L4), 34, "a later fragment carries no UDP header");
	ipv4(p, l2(p, 0, 0x0800), 0, 17, 0x2000);
	cr_expect_eq(req(p, 100, L4), 42, "the first fragment (MF) does");
	/* Modes 5-7: Rev 0.40 has no tunnels, every packet takes the mode 3 rule (D-TX-12). */
	ipv4(p, l2(p, 0, 0x0800), 0, 17, 0);
	cr_expect_eq(req(p, 100, INNER_L2), 42);
	cr_expect_eq(req(p, 100, INNER_IP), 42);
	cr_expect_eq(req(p, 100, INNER_L4), 42);
}

Test(tx_inline, ipv6_with_extension_headers)
{
	uint8_t p[300] = { 0 };
	size_t at = l2(p, 0, 0x86DD);
	p[at] = 0x60;
	p[at + 6] = 0; /* hop-by-hop */
	size_t ext = at + 40;
	p[ext] = 43, p[ext + 1] = 0;	 /* 8 bytes, then routing */
	p[ext + 8] = 44, p[ext + 9] = 1; /* 16 bytes, then fragment */
	p[ext + 24] = 6;		 /* fragment (8 bytes, offset 0), then TCP */
	p[ext + 32 + 12] = 0x50;	 /* TCP, 20 bytes */
	cr_expect_eq(req(p, 200, IP), 14 + 40 + 32, "the IPv6 header and its extensions");
	cr_expect_eq(req(p, 200, L4), 14 + 40 + 32 + 20);
	p[ext + 24 + 2] = 0x01; /* fragment offset 32 bytes: a later fragment */
	cr_expect_eq(req(p, 200, L4), 14 + 40 + 32);
}

/* ---- Which mode (T147 wqe_inline_mode) ------------------------------------------------------ */

TestSuite(tx_inline_mode, .init = tx_setup, .fini = tx_teardown);

static void set_eth_cap(const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(tdev->dev->core.caps.cur[CAP_ETH_OFFLOAD], CAP_BYTES,
				      tl_field("per_protocol_networking_offload_caps", name), v),
		     0);
}

static void send_with(size_t inl)
{
	uint8_t pkt[100];
	size_t len = tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	struct wqe w;
	w_send_packet(&w, 0, pkt, len, inl, 0);
	tx_send(&w);
}

Test(tx_inline_mode, cap_0_is_l2_cap_2_is_none)
{
	struct sq *sq = obj_get(tdev->dev, OBJ_SQ, tx.sqn);
	/* §7.9.3: "Mode 0 - The inline mode is L2"; "Mode 2 - No inline headers are required";
	 * mode 1: the SQ's (min_wqe_inline_mode 1 here). */
	set_eth_cap("wqe_inline_mode", 0);
	cr_expect_eq(tx_inline_mode(tdev->dev, sq), L2);
	set_eth_cap("wqe_inline_mode", 2);
	cr_expect_eq(tx_inline_mode(tdev->dev, sq), NONE);
	send_with(0);
	cr_expect_eq(tx.nframes, 1, "nothing inline, sent");
	cr_expect_eq(tdev->tr.violations, 0);
	set_eth_cap("wqe_inline_mode", 1);
	cr_expect_eq(tx_inline_mode(tdev->dev, sq), L2);
	send_with(0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_INLINE_HEADERS_SHORT);
	cr_expect_eq(tx.nframes, 1);
}
