/* Frame classification and RoCE header decoding (rules in roce_class.h and docs/captures.md). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "roce_class.h"

#define ROCE_CLASS_NAME(id, name) name,
static const char *const class_names[] = { ROCE_CLASSES(ROCE_CLASS_NAME) };
#undef ROCE_CLASS_NAME

const char *roce_class_name(enum roce_class c)
{
	return (unsigned)c < ROCE_CLASS_COUNT ? class_names[c] : "?";
}

int roce_class_is_roce(enum roce_class c)
{
	return c <= ROCE_CLASS_RESERVED;
}

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | be24(p + 1);
}

/* The frame being walked: `cap` bytes captured of `wire`. */
struct walk {
	const uint8_t *p;
	size_t cap, wire;
	uint16_t port;
	struct roce_pkt *out;
};

/* Whether bytes [0, end) can be read: HAVE; CUT when the capture stopped before them although
 * the wire had them; ABSENT when the frame itself is shorter. */
enum reach { HAVE, CUT, ABSENT };
static enum reach reach(const struct walk *w, size_t end)
{
	if (end <= w->cap)
		return HAVE;
	return end <= w->wire ? CUT : ABSENT;
}

/* The class of a frame whose headers end at `end` before they are read: cut, or `absent`. */
#define NEED(w, end, absent)                                                                    \
	do {                                                                                    \
		enum reach r_ = reach((w), (end));                                              \
		if (r_ != HAVE)                                                                 \
			return r_ == CUT ? ROCE_CLASS_CUT : (absent);                           \
	} while (0)

/* The BTH at `off` (IBTA §9.2: 0 OpCode | 1 SE M PadCnt TVer | 2-3 P_Key | 4 resv | 5-7 DestQP
 * | 8 AckReq | 9-11 PSN), the transport packet ending at `end` on the wire. Class by DestQP 1
 * (GSI: CM MADs, whatever the opcode), then CNP (0x81), then the opcode's bits 7:5 (§9.2.1). */
static enum roce_class bth(const struct walk *w, size_t off, size_t end)
{
	if (end < off + 12)
		return ROCE_CLASS_MALFORMED; /* the packet ends inside the BTH */
	NEED(w, off + 12, ROCE_CLASS_MALFORMED);
	const uint8_t *b = w->p + off;
	struct roce_pkt *k = w->out;
	k->opcode = b[0];
	k->dqp = be24(b + 5);
	k->psn = be24(b + 9);
	k->has_aeth = 0;
	k->syndrome = 0;
	k->msn = 0;
	k->span = 1;
	k->bth_off = (uint16_t)(off > 0xffff ? 0xffff : off);
	size_t have = (end < w->cap ? end : w->cap) - off;
	k->bth_len = (uint16_t)(have > 0xffff ? 0xffff : have);
	if (k->dqp == 1)
		return ROCE_CLASS_CM_MAD;
	if (k->opcode == 0x81)
		return ROCE_CLASS_CNP;
	static const enum roce_class by_transport[8] = {
		ROCE_CLASS_RC,	     ROCE_CLASS_UC,  ROCE_CLASS_RD,	ROCE_CLASS_UD,
		ROCE_CLASS_RESERVED, ROCE_CLASS_XRC, ROCE_CLASS_VENDOR, ROCE_CLASS_VENDOR,
	};
	enum roce_class c = by_transport[k->opcode >> 5];
	if (c != ROCE_CLASS_RC)
		return c;
	if (roce_opcode_has_aeth(k->opcode) && reach(w, off + 16) == HAVE && end >= off + 16) {
		/* AETH (§9.3.5): 0 Syndrome | 1-3 MSN. Cut away, the response is still RC but
		 * acknowledges nothing the checker can use. */
		k->has_aeth = 1;
		k->syndrome = b[12];
		k->msn = be24(b + 13);
	}
	if (k->opcode == 0x0C && reach(w, off + 28) == HAVE && end >= off + 28) {
		/* RDMA READ request: RETH (§9.3.3) 0-7 VA | 8-11 R_Key | 12-15 DMA length. Its
		 * responses take one PSN per path-MTU packet; 256 bytes is the smallest MTU. */
		uint32_t len = be32(b + 24);
		k->span = len > 256 ? (len + 255) / 256 : 1;
	}
	return ROCE_CLASS_RC;
}

/* UDP (RFC 768) at `off`, the datagram's room in its IP packet ending at `end`. In a first
 * fragment (`first_frag`) the UDP length counts the whole datagram, which goes on in the later
 * fragments: it may exceed this packet, and the BTH is read within the packet. */
static enum roce_class udp(const struct walk *w, size_t off, size_t end, bool first_frag)
{
	if (end < off + 8)
		return ROCE_CLASS_MALFORMED; /* no room for the UDP header in the IP packet */
	NEED(w, off + 4, ROCE_CLASS_MALFORMED);
	if (be16(w->p + off + 2) != w->port)
		return ROCE_CLASS_NOT_ROCE;
	NEED(w, off + 8, ROCE_CLASS_MALFORMED);
	size_t ulen = be16(w->p + off + 4);
	if (ulen < 8 + 12 || (off + ulen > end && !first_frag))
		return ROCE_CLASS_MALFORMED; /* no BTH, or longer than its IP packet */
	w->out->roce_ver = 2;
	w->out->sport = (uint16_t)be16(w->p + off);
	return bth(w, off + 8, off + ulen < end ? off + ulen : end);
}

/* IPv4 (RFC 791): only unfragmented datagrams and first fragments carry the UDP header. */
static enum roce_class ipv4(const struct walk *w, size_t off)
{
	NEED(w, off + 20, ROCE_CLASS_MALFORMED);
	const uint8_t *p = w->p + off;
	size_t ihl = (size_t)(p[0] & 0xf) * 4, total = be16(p + 2);
	if (p[0] >> 4 != 4 || ihl < 20 || total < ihl || off + total > w->wire)
		return ROCE_CLASS_MALFORMED;
	if ((be16(p + 6) & 0x1fff) != 0 || p[9] != 17)
		return ROCE_CLASS_NOT_ROCE; /* a later fragment, or not UDP */
	w->out->ipver = 4;
	memset(w->out->src, 0, sizeof w->out->src);
	memset(w->out->dst, 0, sizeof w->out->dst);
	memcpy(w->out->src, p + 12, 4);
	memcpy(w->out->dst, p + 16, 4);
	return udp(w, off + ihl, off + total, (be16(p + 6) & 0x2000) != 0); /* MF: a first fragment */
}

/* IPv6 (RFC 8200), through hop-by-hop (0), routing (43), destination-options (60) and fragment
 * (44) headers; a fragment with a non-zero offset is a later fragment. */
static enum roce_class ipv6(const struct walk *w, size_t off)
{
	NEED(w, off + 40, ROCE_CLASS_MALFORMED);
	const uint8_t *p = w->p + off;
	size_t end = off + 40 + be16(p + 4);
	if (p[0] >> 4 != 6 || end > w->wire)
		return ROCE_CLASS_MALFORMED;
	uint8_t next = p[6];
	size_t h = off + 40;
	bool first_frag = false;
	for (int hops = 0; next != 17; hops++) {
		if (hops == 8 || (next != 0 && next != 43 && next != 60 && next != 44))
			return ROCE_CLASS_NOT_ROCE;
		if (h + 8 > end)
			return ROCE_CLASS_MALFORMED;
		NEED(w, h + 8, ROCE_CLASS_MALFORMED);
		const uint8_t *x = w->p + h;
		if (next == 44 && (be16(x + 2) & 0xfff8) != 0)
			return ROCE_CLASS_NOT_ROCE;
		if (next == 44)
			first_frag = (x[3] & 1) != 0; /* M: more fragments follow */
		h += next == 44 ? 8 : ((size_t)x[1] + 1) * 8;
		next = x[0];
	}
	w->out->ipver = 6;
	memcpy(w->out->src, p + 8, 16);
	memcpy(w->out->dst, p + 24, 16);
	return udp(w, h, end, first_frag);
}

/* RoCEv1: the GRH (IBTA §8.3: 0-3 IPVer TClass FlowLabel | 4-5 PayLen | 6 NxtHdr | 7 HopLmt |
 * 8-23 SGID | 24-39 DGID), next header 0x1B (the BTH), then the BTH. */
static enum roce_class grh(const struct walk *w, size_t off)
{
	NEED(w, off + 40, ROCE_CLASS_MALFORMED);
	const uint8_t *g = w->p + off;
	if (g[6] != 0x1B)
		return ROCE_CLASS_MALFORMED;
	struct roce_pkt *k = w->out;
	k->roce_ver = 1;
	k->ipver = 6;
	k->sport = 0;
	memcpy(k->src, g + 8, 16);
	memcpy(k->dst, g + 24, 16);
	return bth(w, off + 40, w->wire);
}

/* After the link header: up to two 802.1Q / 802.1ad tags, then the EtherType's protocol. */
static enum roce_class l3(const struct walk *w, uint32_t type, size_t off)
{
	for (int tags = 0; (type == 0x8100 || type == 0x88a8) && tags < 2; tags++) {
		NEED(w, off + 4, ROCE_CLASS_NOT_ROCE);
		type = be16(w->p + off + 2);
		off += 4;
	}
	switch (type) {
	case 0x8915:
		return grh(w, off);
	case 0x0800:
		return ipv4(w, off);
	case 0x86dd:
		return ipv6(w, off);
	default:
		return ROCE_CLASS_NOT_ROCE;
	}
}

enum roce_class roce_classify(const uint8_t *p, size_t caplen, size_t wirelen, enum cap_link link,
			      uint16_t roce_port, struct roce_pkt *out)
{
	struct walk w = { p, caplen, wirelen < caplen ? caplen : wirelen, roce_port, out };
	out->roce_ver = 0;
	out->sport = 0;
	switch (link) {
	case CAP_LINK_ETHERNET: /* dst 6, src 6, EtherType (or an 802.3 length < 0x600) */
		NEED(&w, 14, ROCE_CLASS_NOT_ROCE);
		return l3(&w, be16(p + 12), 14);
	case CAP_LINK_LINUX_SLL: /* 16 bytes, the protocol type at 14 */
		NEED(&w, 16, ROCE_CLASS_NOT_ROCE);
		return l3(&w, be16(p + 14), 16);
	case CAP_LINK_LINUX_SLL2: /* 20 bytes, the protocol type at 0 */
		NEED(&w, 20, ROCE_CLASS_NOT_ROCE);
		return l3(&w, be16(p), 20);
	case CAP_LINK_RAW_IP: /* the IP version nibble says which */
		NEED(&w, 1, ROCE_CLASS_NOT_ROCE);
		if (p[0] >> 4 == 4)
			return ipv4(&w, 0);
		if (p[0] >> 4 == 6)
			return ipv6(&w, 0);
		return ROCE_CLASS_MALFORMED;
	case CAP_LINK_LOOPBACK: /* a 4-byte address family, then IP by its version nibble */
		NEED(&w, 5, ROCE_CLASS_NOT_ROCE);
		if (p[4] >> 4 == 4)
			return ipv4(&w, 4);
		if (p[4] >> 4 == 6)
			return ipv6(&w, 4);
		return ROCE_CLASS_MALFORMED;
	case CAP_LINK_COUNT:
		break;
	}
	return ROCE_CLASS_NOT_ROCE;
}

int roce_opcode_is_rc_request(uint8_t op)
{
	/* RC: SEND 0x00-0x05, RDMA WRITE 0x06-0x0B, RDMA READ request 0x0C, CmpSwap 0x13,
	 * FetchAdd 0x14, SEND last/only with invalidate 0x16/0x17. */
	return op <= 0x0C || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

int roce_opcode_has_aeth(uint8_t op)
{
	/* RC READ response first 0x0D, last 0x0F, only 0x10, Acknowledge 0x11, ATOMIC
	 * Acknowledge 0x12 carry an AETH; READ response middle 0x0E does not. */
	return op == 0x0D || op == 0x0F || op == 0x10 || op == 0x11 || op == 0x12;
}

/* On QP1 a MAD travels in a UD SEND only (opcode 0x64) behind the DETH (8 bytes). The MAD
 * header (IBTA §13.4.3): 0 BaseVersion | 1 MgmtClass (0x07: CM) | 2 ClassVersion | 3 Method
 * | ... | 16-17 AttributeID; the CM message follows at byte 24. ConnectRequest (0x0010, §12.6.5):
 * Local Communication ID at 0, Local QPN at 32 (24 bits), Starting PSN at 44 (24 bits).
 * ConnectReply (0x0013, §12.6.8): Local Communication ID at 0, Remote Communication ID at 4,
 * Local QPN at 12, Starting PSN at 20. ReadyToUse (0x0014): the two IDs at 0 and 4. */
int roce_cm_parse(const uint8_t *frame, const struct roce_pkt *k, struct cm_msg *m)
{
	enum { DETH = 8, MAD_HDR = 24 };
	if (k->dqp != 1 || k->opcode != 0x64 || k->bth_len < 12 + DETH + MAD_HDR)
		return -1;
	const uint8_t *mad = frame + k->bth_off + 12 + DETH;
	size_t len = (size_t)k->bth_len - 12 - DETH;
	if (mad[1] != 0x07)
		return -1;
	memset(m, 0, sizeof *m);
	m->frame = k->frame;
	m->ipver = k->ipver;
	memcpy(m->src, k->src, 16);
	memcpy(m->dst, k->dst, 16);
	const uint8_t *c = mad + MAD_HDR;
	switch (be16(mad + 16)) {
	case 0x0010:
		if (len < MAD_HDR + 48)
			return -1;
		m->kind = CM_REQ;
		m->local_comm = be32(c);
		m->qpn = be24(c + 32);
		m->psn = be24(c + 44);
		return 0;
	case 0x0013:
		if (len < MAD_HDR + 24)
			return -1;
		m->kind = CM_REP;
		m->local_comm = be32(c);
		m->remote_comm = be32(c + 4);
		m->qpn = be24(c + 12);
		m->psn = be24(c + 20);
		return 0;
	case 0x0014:
		if (len < MAD_HDR + 8)
			return -1;
		m->kind = CM_RTU;
		m->local_comm = be32(c);
		m->remote_comm = be32(c + 4);
		return 0;
	default:
		m->kind = CM_OTHER;
		return 0;
	}
}

void roce_addr_format(uint8_t ipver, const uint8_t *a, char *buf, size_t len)
{
	if (ipver == 4) {
		snprintf(buf, len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (memcmp(a, mapped, 12) == 0) { /* RFC 5952 §5: IPv4-mapped in mixed notation */
		snprintf(buf, len, "::ffff:%u.%u.%u.%u", a[12], a[13], a[14], a[15]);
		return;
	}
	/* RFC 5952 §4: lower-case hex, the longest run (>= 2, the first of equal runs) of zero
	 * groups as "::". */
	int best = -1, bestlen = 1;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && be16(a + 2 * j) == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
		i = j > i ? j : i + 1;
	}
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < 8 && o < len; i++) {
		int n;
		if (i == best) {
			n = snprintf(buf + o, len - o, "::");
			i += bestlen - 1;
		} else {
			bool sep = i > 0 && i != best + bestlen;
			n = snprintf(buf + o, len - o, sep ? ":%x" : "%x", be16(a + 2 * i));
		}
		if (n < 0)
			break;
		o += (size_t)n;
	}
}
