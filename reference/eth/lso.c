/* Large Send Offload (PRM §3.3.2: "a header template which is updated automatically for every
 * generated segment", "compatible with NDIS LSOv2"). The template is the packet's headers
 * through the TCP header, all of them inline (D-TXO-11); the TCP payload after them is cut into
 * segments of mss bytes, the last one shorter (D-TXO-9); both checksums are computed for every
 * segment whatever l3cs and l4cs say (D-TXO-10). */
#include <string.h>

#include "eth/csum.h"
#include "eth/pkt_hdr.h"
#include "eth/tx_offload_int.h"

/* The checks of D-TXO-12, in that order: the first that fails is the result. */
static enum tx_result lso_check(const struct tx_request *rq, const struct pkt_info *pi)
{
	if (rq->max_lso_cap == 0)
		return TX_ERR_LSO_CAP;
	if (rq->mss == 0)
		return TX_ERR_LSO_MSS;
	if (pi->l4 != PKT_L4_TCP || pi->fragment)
		return TX_ERR_LSO_NOT_TCP;
	size_t hdr = pi->l4_off + pi->l4_hdr_len;
	if (hdr > rq->inline_hdr_sz)
		return TX_ERR_LSO_HDR;
	size_t payload = rq->len - hdr;
	if (rq->max_lso_cap < 64 && payload > (uint64_t)1 << rq->max_lso_cap)
		return TX_ERR_LSO_SIZE;
	/* The IP length of the longest segment must fit its 16-bit field. T28's 10-bit
	 * inline_header_size and 14-bit mss keep it there; the request's fields are wider. */
	size_t seg = payload < rq->mss ? payload : rq->mss;
	size_t ip_hdr = pi->l3 == PKT_L3_IPV4 ? 0 : HDR_IPV6_LEN;
	if (hdr - pi->l3_off - ip_hdr + seg > 0xFFFF)
		return TX_ERR_LENGTH;
	return TX_OK;
}

/* The template's fields each segment rewrites. */
struct lso_template {
	size_t hdr;      /* the headers' length: L2, L3, TCP */
	uint16_t ip_id;  /* IPv4 identification of the first segment */
	uint32_t seq;    /* TCP sequence number of the first segment */
	uint8_t flags;   /* TCP flags byte 13 */
};

/* Rewrites the headers at f (copied from the template) for segment k of n, which carries len
 * payload bytes after them, and computes its checksums (D-TXO-9, D-TXO-10). */
static void lso_fix(uint8_t *f, const struct pkt_info *pi, const struct lso_template *t,
		    size_t mss, size_t k, size_t n, size_t len)
{
	uint8_t *ip = f + pi->l3_off, *tcp = f + pi->l4_off;
	size_t end = t->hdr + len;
	if (pi->l3 == PKT_L3_IPV4) {
		hdr_put16(ip + HDR_IPV4_TOT_LEN, (uint16_t)(end - pi->l3_off));
		hdr_put16(ip + HDR_IPV4_ID, (uint16_t)(t->ip_id + k));
	} else {
		hdr_put16(ip + HDR_IPV6_PLEN, (uint16_t)(end - pi->l3_off - HDR_IPV6_LEN));
	}
	hdr_put32(tcp + HDR_TCP_SEQ, (uint32_t)(t->seq + (uint32_t)(k * mss)));
	uint8_t flags = t->flags;
	if (k + 1 < n)
		flags &= (uint8_t)~(HDR_TCP_FIN | HDR_TCP_PSH);
	if (k > 0)
		flags &= (uint8_t)~HDR_TCP_CWR;
	tcp[HDR_TCP_FLAGS] = flags;
	if (pi->l3 == PKT_L3_IPV4)
		csum_ipv4_hdr(f, pi);
	/* A source route leaves the TCP checksum as the template has it (D-TXO-2). */
	if (!pi->src_route)
		csum_l4(f, pi, end);
}

enum tx_result lso_segment(const struct tx_request *rq, const struct pkt_info *pi,
			   uint8_t *scratch, size_t scratch_len, tx_emit_fn *emit, void *ctx)
{
	enum tx_result r = lso_check(rq, pi);
	if (r != TX_OK)
		return r;
	const uint8_t *tcp = rq->pkt + pi->l4_off;
	struct lso_template t = {
		.hdr = pi->l4_off + pi->l4_hdr_len,
		.ip_id = pi->l3 == PKT_L3_IPV4 ? hdr_get16(rq->pkt + pi->l3_off + HDR_IPV4_ID) : 0,
		.seq = hdr_get32(tcp + HDR_TCP_SEQ),
		.flags = tcp[HDR_TCP_FLAGS],
	};
	size_t payload = rq->len - t.hdr, mss = rq->mss;
	/* A payload of 0 still makes one segment: the headers alone (D-TXO-12). */
	size_t n = payload == 0 ? 1 : (payload + mss - 1) / mss;
	size_t longest = t.hdr + (payload < mss ? payload : mss);
	if (scratch_len < longest || scratch_len < rq->min_frame)
		return TX_ERR_SCRATCH;
	for (size_t k = 0; k < n; k++) {
		size_t off = k * mss, len = payload - off < mss ? payload - off : mss;
		memcpy(scratch, rq->pkt, t.hdr);
		memcpy(scratch + t.hdr, rq->pkt + t.hdr + off, len);
		lso_fix(scratch, pi, &t, mss, k, n, len);
		txo_pad_emit(scratch, t.hdr + len, rq->min_frame, emit, ctx);
	}
	return TX_OK;
}
