/* The tx target's packet headers from a template (fuzzers/tx_hdrs.h). */
#include <string.h>

#include "tx_hdrs.h"
#include "tx_ops.h"
#include "tx_view.h"

static size_t put_ipv4_options(uint8_t *o, unsigned variant)
{
	static const uint8_t opts[4][8] = {
		{ 1, 1, 1, 1 },			 /* NOPs */
		{ 0x83, 7, 4, 192, 0, 2, 9, 0 }, /* LSRR, then EOL (D-TXO-2) */
		{ 7, 7, 4, 0, 0, 0, 0, 0 },	 /* record route, then EOL */
		{ 0x44, 0x28, 5, 0 },		 /* a length past the header: unwalkable */
	};
	static const size_t len[4] = { 4, 8, 8, 4 };
	memcpy(o, opts[variant], len[variant]);
	return len[variant];
}

/* The IPv6 extension headers of a template (var bits 4:3) and a fragment header (cs bit 3). */
static size_t put_ipv6_ext(uint8_t *b, size_t l3, size_t e, unsigned opt, bool ext, bool frag,
			   uint8_t proto)
{
	/* hop-by-hop; routing (a source route, D-TXO-2); destination options and an atomic
	 * fragment; AH (RFC 4302 length) */
	static const uint8_t kinds[4][2] = { { 0, 0 }, { 43, 0 }, { 60, 44 }, { 51, 0 } };
	uint8_t *nh = b + l3 + 6;
	for (int i = 0; ext && i < 2; i++) {
		uint8_t kind = kinds[opt][i];
		if (i == 1 && kind == 0)
			break;
		*nh = kind;
		nh = b + e;
		b[e + 1] = kind == 51 ? 2 : 0;
		if (kind == 0 || kind == 60) {
			b[e + 2] = 1; /* PadN */
			b[e + 3] = 4;
		}
		e += kind == 51 ? 16 : 8;
	}
	if (frag) {
		*nh = 44;
		nh = b + e;
		txv_put16(b + e + 2, 1); /* M: more fragments */
		e += 8;
	}
	*nh = proto;
	return e;
}

void tx_hdrs_build(struct tx_hdrs *h, uint64_t own_mac, uint8_t tmpl, uint8_t var, uint8_t cs,
		   size_t payload)
{
	static const uint8_t dsts[3][6] = { { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
					    { 0x01, 0x00, 0x5E, 0x01, 0x02, 0x03 },
					    { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF } };
	static const uint8_t src[6] = { 0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE };
	uint8_t *b = h->b;
	memset(h, 0, sizeof *h);
	if ((var & 3u) == 3)
		for (int i = 0; i < 6; i++)
			b[i] = (uint8_t)(own_mac >> (40 - 8 * i));
	else
		memcpy(b, dsts[var & 3u], 6);
	memcpy(b + 6, src, 6);
	size_t o = 12;
	for (unsigned i = 0; i < ((tmpl >> 3) & 3u); i++) {
		bool ad = (tmpl >> (5 + (i > 0))) & 1u;
		txv_put16(b + o, ad ? 0x88A8 : 0x8100);
		txv_put16(b + o + 2, 100 + i);
		o += 4;
	}
	h->l2 = o + 2;
	unsigned t = tmpl & 7u, opt = (var >> 3) & 3u;
	bool zero = (var >> 5) & 1u, lenzero = (cs >> 2) & 1u, frag = (cs >> 3) & 1u;
	unsigned junk = zero ? 0 : 0xBEEF;
	if (t == TX_T_ARP) {
		static const uint8_t arp[8] = { 0, 1, 8, 0, 6, 4, 0, 1 };
		txv_put16(b + o, 0x0806);
		memcpy(b + o + 2, arp, sizeof arp);
		h->len = h->l3end = o + 2 + 28;
		return;
	}
	bool v6 = t == TX_T_V6_TCP || t == TX_T_V6_UDP || t == TX_T_V6_EXT_UDP ||
		  t == TX_T_V6_EXT_TCP;
	bool udp = t == TX_T_V4_UDP || t == TX_T_V6_UDP || t == TX_T_V6_EXT_UDP;
	uint8_t proto = udp ? 17 : 6;
	txv_put16(b + o, v6 ? 0x86DD : 0x0800);
	size_t l3 = o + 2, l4;
	if (!v6) {
		size_t optlen = t == TX_T_V4_OPT_TCP ? put_ipv4_options(b + l3 + 20, opt) : 0;
		b[l3] = (uint8_t)(0x40 | (20 + optlen) / 4);
		txv_put16(b + l3 + 4, 0x1234);		   /* identification */
		txv_put16(b + l3 + 6, frag ? 0x2000 : 0x4000); /* MF, or DF */
		b[l3 + 8] = 64;
		b[l3 + 9] = proto;
		txv_put16(b + l3 + 10, zero ? 0 : 0xDEAD);
		txv_put32(b + l3 + 12, 0x0A000001);
		txv_put32(b + l3 + 16, 0x0A000002);
		l4 = l3 + 20 + optlen;
	} else {
		b[l3] = 0x60;
		b[l3 + 7] = 64;
		for (int i = 0; i < 2; i++) {
			txv_put32(b + l3 + 8 + 16 * i, 0x20010DB8);
			b[l3 + 8 + 16 * i + 15] = (uint8_t)(i + 1);
		}
		l4 = put_ipv6_ext(b, l3, l3 + 40, opt, t == TX_T_V6_EXT_UDP || t == TX_T_V6_EXT_TCP,
				  frag, proto);
	}
	size_t l4hdr;
	txv_put16(b + l4, 0x1234);
	txv_put16(b + l4 + 2, 0x5678);
	if (udp) {
		l4hdr = 8;
		txv_put16(b + l4 + 4, (unsigned)((8 + payload) & 0xFFFF));
		txv_put16(b + l4 + 6, junk);
	} else {
		bool ts = (var >> 2) & 1u;
		l4hdr = ts ? 32 : 20;
		txv_put32(b + l4 + 4, 0xFFFFF000u); /* the sequence number wraps within an LSO */
		txv_put32(b + l4 + 8, 0x01020304);
		b[l4 + 12] = (uint8_t)(l4hdr / 4 << 4);
		/* ACK, FIN|PSH (var bit 6), CWR (var bit 7) */
		b[l4 + 13] = (uint8_t)(0x10 | ((var >> 6) & 1u ? 0x09 : 0) | ((var >> 7) & 1u ? 0x80 : 0));
		txv_put16(b + l4 + 14, 0xFFFF);
		txv_put16(b + l4 + 16, junk);
		if (ts) {
			static const uint8_t tso[12] = { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2 };
			memcpy(b + l4 + 20, tso, sizeof tso);
		}
	}
	h->l3end = l4;
	h->len = l4 + l4hdr;
	size_t iplen = lenzero ? 0 : h->len - l3 + payload - (v6 ? 40 : 0);
	txv_put16(b + l3 + (v6 ? 4 : 2), (unsigned)(iplen & 0xFFFF));
}

size_t tx_hdrs_inline_size(const struct tx_hdrs *h, uint8_t sel, size_t total)
{
	size_t H = h->len, n;
	if (sel == 0)
		n = H;
	else if (sel == 1)
		n = 0;
	else if (sel == 2)
		n = h->l2;
	else if (sel == 3)
		n = h->l3end;
	else if (sel < 128)
		n = H > (size_t)(sel - 3) ? H - (sel - 3) : 0;
	else
		n = H + (sel - 128);
	return n < total ? n : total;
}
