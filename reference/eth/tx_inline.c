/* The inline modes (PRM §7.9.3, §7.9.3.1): how many bytes of a packet's headers a send WQE must
 * inline in its Eth segment. Decisions D-TX-6, D-TX-12 (docs/tx.md). */
#include "eth/eth.h"

/* §7.9.3.1 modes. */
enum { MODE_NONE = 0, MODE_L2 = 1, MODE_IP = 2, MODE_L4 = 3 };

/* T147 wqe_inline_mode: 0 "The inline mode is L2", 1 "set by SQ.min_wqe_inline_mode", 2 "No
 * inline headers are required"; 3 is not defined and is read as 1 (D-TX-12). -1: the SQ's. */
static const int8_t cap_mode[4] = { MODE_L2, -1, MODE_NONE, -1 };

unsigned tx_inline_mode(const struct nicref_dev *dev, const struct sq *sq)
{
	unsigned cap = (unsigned)CAPS_CUR(dev, CAP_ETH_OFFLOAD,
					  per_protocol_networking_offload_caps, wqe_inline_mode);
	int m = cap_mode[cap & 3u];
	if (m >= 0)
		return (unsigned)m;
	/* T61 min_wqe_inline_mode, at least the vport's since CREATE_SQ (§7.9.3). */
	return (unsigned)PRM_GET(sqc, min_wqe_inline_mode, sq->ctx, WQ_CTX_BYTES);
}

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static bool is_vlan_tpid(unsigned t)
{
	return t == 0x8100 || t == 0x88A8 || t == 0x9100; /* 802.1Q, 802.1ad, QinQ [PUB] */
}

/* IPv6 extension headers (T68 ip_ext_opts: "Hop By Hop, Routing, Fragment, Destination,
 * Authentication, Mobile") and their lengths [PUB RFC 8200, 4302, 6275]: (h[1] + plus) * unit
 * bytes, or `plus` bytes when unit is 0. */
struct ext_hdr {
	uint8_t nh, unit, plus;
};
static const struct ext_hdr ext_hdrs[] = {
	{ 0, 8, 1 },   /* hop-by-hop options */
	{ 43, 8, 1 },  /* routing */
	{ 44, 0, 8 },  /* fragment */
	{ 51, 4, 2 },  /* authentication */
	{ 60, 8, 1 },  /* destination options */
	{ 135, 8, 1 }, /* mobility */
};

/* The length of extension header h of type nh, 0 when nh is none of them. */
static size_t ext_len(unsigned nh, const uint8_t *h)
{
	for (size_t i = 0; i < sizeof ext_hdrs / sizeof ext_hdrs[0]; i++)
		if (ext_hdrs[i].nh == nh)
			return ext_hdrs[i].unit
				   ? ((size_t)h[1] + ext_hdrs[i].plus) * ext_hdrs[i].unit
				   : ext_hdrs[i].plus;
	return 0;
}

static size_t at_most(size_t need, size_t len)
{
	return need < len ? need : len;
}

/* The end of the L4 header (TCP data offset, UDP 8 bytes) at `at`, protocol p; 0 when p is
 * neither or the header does not fit. */
static size_t l4_end(const uint8_t *pkt, size_t len, size_t at, unsigned p)
{
	if (p == 17)
		return at + 8 <= len ? at + 8 : 0;
	if (p == 6 && at + 13 <= len)
		return at + (size_t)(pkt[at + 12] >> 4) * 4;
	return 0;
}

size_t tx_inline_required(const uint8_t *pkt, size_t len, unsigned mode)
{
	if (mode >= 5)
		mode = MODE_L4; /* modes 5-7: no packet is tunnelled in Rev 0.40 (D-TX-12) */
	if (mode == MODE_NONE || mode == 4)
		return 0;
	/* L2 "till the last EtherType": the Ethernet header and every VLAN tag. */
	size_t l2 = 14;
	if (len < l2)
		return len; /* shorter than an Ethernet header: all of it */
	unsigned type = be16(pkt + 12);
	while (is_vlan_tpid(type) && l2 + 4 <= len) {
		type = be16(pkt + l2 + 2);
		l2 += 4;
	}
	size_t need = l2;
	if (type < 0x0600) {
		/* An 802.3 length: LLC, with SNAP (AA AA 03, OUI, EtherType) when it says so.
		 * "Max (17 Bytes, L2 headers till the last EtherType)"; IP is not looked for behind
		 * a SNAP header (D-TX-12). */
		bool snap =
		    l2 + 3 <= len && pkt[l2] == 0xAA && pkt[l2 + 1] == 0xAA && pkt[l2 + 2] == 0x03;
		need = snap ? l2 + 8 : l2;
		return at_most(need < 17 ? 17 : need, len);
	}
	if (mode == MODE_L2)
		return at_most(need, len);
	size_t ip_end = 0, l4 = 0;
	unsigned proto = 256;
	if (type == 0x0800 && l2 + 20 <= len) {
		size_t ihl = (size_t)(pkt[l2] & 0x0F) * 4;
		ip_end = l2 + (ihl < 20 ? 20 : ihl);
		/* A fragment after the first carries no L4 header. */
		if ((be16(pkt + l2 + 6) & 0x1FFF) == 0)
			proto = pkt[l2 + 9];
	} else if (type == 0x86DD && l2 + 40 <= len) {
		unsigned nh = pkt[l2 + 6];
		ip_end = l2 + 40;
		bool later_fragment = false;
		for (size_t n; ip_end + 8 <= len && (n = ext_len(nh, pkt + ip_end)) != 0;) {
			if (nh == 44 && (be16(pkt + ip_end + 2) & 0xFFF8) != 0)
				later_fragment = true;
			nh = pkt[ip_end];
			ip_end += n;
		}
		if (!later_fragment)
			proto = nh;
	}
	if (!ip_end)
		return at_most(need, len); /* not IP: the L2 rule (§7.9.3.1 mode 2) */
	need = ip_end;
	if (mode == MODE_L4 && (l4 = l4_end(pkt, len, ip_end, proto)) != 0)
		need = l4;
	return at_most(need, len);
}
