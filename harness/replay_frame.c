/* A capture record into the frame the port receives (docs/replay.md "Messy captures"). The
 * capture reader (capture.h) yields records of four link types; the port takes Ethernet frames
 * without FCS (nicref_wire_rx). Each record gets one defined outcome, counted in the summary. */
#include <string.h>

#include "replay_int.h"

#define NAME(id, name) name,
static const char *const skip_names[] = { REPLAY_SKIPS(NAME) };
#undef NAME

const char *replay_skip_name(enum replay_skip s)
{
	return (unsigned)s < REPLAY_SKIP_COUNT ? skip_names[s] : "?";
}

/* IEEE 802.3 §4.2.3.3: a MAC pads a frame to minFrameSize (64 bytes with the FCS, 60 without).
 * A capture taken on the sending host holds its frames before the MAC padded them. */
#define MIN_FRAME 60u
#define ETH_HDR 14u

/* The EtherType of a raw IP packet, by its version nibble (IPv4 0x0800, IPv6 0x86DD). */
static int ip_type(const uint8_t *p, uint32_t n)
{
	if (n < 1)
		return -1;
	return p[0] >> 4 == 4 ? 0x0800 : p[0] >> 4 == 6 ? 0x86DD : -1;
}

/* How each link type's header becomes an Ethernet header: its length, where the protocol is
 * (-1: from the IP version), where the source address is and the byte holding its length (-1:
 * none), the byte holding the packet type (Linux cooked captures: 1 broadcast; -1: none). A cooked or
 * raw-IP record has lost its destination address: the frame is sent to the function's own
 * address (or broadcast), which the vport takes (D-RX-6). */
static const struct link_hdr {
	uint32_t hdr;
	int proto, addr, addr_len, pkttype;
} link_hdrs[CAP_LINK_COUNT] = {
	[CAP_LINK_ETHERNET] = { 0, 0, 0, 0, 0 },
	/* LINKTYPE_LINUX_SLL: packet type (2), ARPHRD (2), address length (2), address (8), protocol */
	[CAP_LINK_LINUX_SLL] = { 16, 14, 6, 5, 1 },
	/* LINKTYPE_LINUX_SLL2: protocol (2), reserved (2), ifindex (4), ARPHRD (2), packet type
	 * (1), address length (1), address (8) */
	[CAP_LINK_LINUX_SLL2] = { 20, 0, 12, 11, 10 },
	[CAP_LINK_RAW_IP] = { 0, -1, -1, -1, -1 },
	/* LINKTYPE_NULL / LINKTYPE_LOOP: a 4-byte address family (host / network byte order,
	 * values differing between systems for IPv6): the IP version nibble says which. */
	[CAP_LINK_LOOPBACK] = { 4, -1, -1, -1, -1 },
};

uint32_t replay_frame(const struct cap_frame *f, const uint8_t mac[6], bool pad, uint8_t *buf,
		      struct replay_pred *p)
{
	const uint8_t *bytes;
	uint32_t n = replay_frame_at(f, mac, pad, buf, p, &bytes);
	if (bytes != buf)
		memcpy(buf, bytes, n);
	return n;
}

uint32_t replay_frame_at(const struct cap_frame *f, const uint8_t mac[6], bool pad, uint8_t *buf,
			 struct replay_pred *p, const uint8_t **bytes)
{
	*bytes = buf;
	p->skip = REPLAY_SKIP_NONE;
	p->padded = p->converted = false;
	if (f->caplen < f->wirelen) {
		p->skip = REPLAY_SKIP_TRUNCATED;
		return 0;
	}
	uint32_t n = f->caplen;
	if (f->link == CAP_LINK_ETHERNET) {
		/* Shorter than an Ethernet header (IEEE 802.3 §3.1.1: 6 + 6 + 2 bytes): no
		 * EtherType, as a cooked or raw-IP record without its header. */
		if (n < ETH_HDR) {
			p->skip = REPLAY_SKIP_NOT_ETHERNET;
			return 0;
		}
		if (n > REPLAY_FRAME_MAX) {
			p->skip = REPLAY_SKIP_TOO_LONG;
			return 0;
		}
		if (n >= MIN_FRAME || !pad) {
			*bytes = f->data;
			return n;
		}
		memcpy(buf, f->data, n);
	} else {
		const struct link_hdr *h = &link_hdrs[f->link];
		if (n < h->hdr) {
			p->skip = REPLAY_SKIP_NOT_ETHERNET;
			return 0;
		}
		const uint8_t *pkt = f->data + h->hdr;
		uint32_t len = n - h->hdr;
		int type = h->proto < 0 ? ip_type(pkt, len)
					: (int)((uint32_t)f->data[h->proto] << 8 | f->data[h->proto + 1]);
		if (type < 0x600) { /* not an EtherType (IEEE 802.3 length, or no IP version) */
			p->skip = REPLAY_SKIP_NOT_ETHERNET;
			return 0;
		}
		if (len + 14 > REPLAY_FRAME_MAX) {
			p->skip = REPLAY_SKIP_TOO_LONG;
			return 0;
		}
		bool bcast = h->pkttype >= 0 && f->data[h->pkttype] == 1;
		if (bcast)
			memset(buf, 0xFF, 6);
		else
			memcpy(buf, mac, 6);
		memset(buf + 6, 0, 6);
		if (h->addr >= 0 && f->data[h->addr_len] == 6)
			memcpy(buf + 6, f->data + h->addr, 6);
		buf[12] = (uint8_t)(type >> 8);
		buf[13] = (uint8_t)type;
		memcpy(buf + 14, pkt, len);
		n = len + 14;
		p->converted = true;
	}
	if (n < MIN_FRAME && pad) {
		memset(buf + n, 0, MIN_FRAME - n);
		n = MIN_FRAME;
		p->padded = true;
	}
	return n;
}
