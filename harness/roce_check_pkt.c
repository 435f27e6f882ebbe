/* `nicref roce check`: every RoCE frame on its own (rules in roce_check.h, docs/roce_check.md). */
#include <stdio.h>
#include <string.h>

#include "nicref/roce.h"
#include "roce_check.h"

#define RCK_NAME(id, name, cite) name,
#define RCK_CITE(id, name, cite) cite,
static const char *const rule_names[] = { ROCE_CHECK_RULES(RCK_NAME) };
static const char *const rule_cites[] = { ROCE_CHECK_RULES(RCK_CITE) };
#undef RCK_NAME
#undef RCK_CITE

const char *rck_rule_name(unsigned r)
{
	return r < RCK_COUNT ? rule_names[r] : "none";
}

const char *rck_rule_citation(unsigned r)
{
	return r < RCK_COUNT ? rule_cites[r] : "";
}

#define RCK_SKIP_NAME(id, name) name,
static const char *const skip_names[] = { RCK_ICRC_SKIPS(RCK_SKIP_NAME) };
#undef RCK_SKIP_NAME

const char *rck_icrc_skip_name(unsigned s)
{
	return s < RCK_SKIP_COUNT ? skip_names[s] : "?";
}

/* The opcodes, from the library's one table (nicref/roce.h NICREF_ROCE_OPCODES: IBTA §9.2.1
 * Table 38, the RC and UD rows, and the CNP of Annex A17), by code: what each carries after the
 * BTH (IBTA §9.3: RETH 16, AETH 4, ImmDt 4, IETH 4, AtomicETH 28, AtomicAckETH 8, DETH 8). */
#define RCK_K_SEND OPK_SEND
#define RCK_K_WRITE OPK_WRITE
#define RCK_K_READ_REQ OPK_READ
#define RCK_K_READ_RESP OPK_READ_RESP
#define RCK_K_ACK OPK_ACK
#define RCK_K_ATOMIC OPK_ATOMIC
#define RCK_K_ATOMIC_ACK OPK_ATOMIC_ACK
#define RCK_K_CNP OPK_CNP
#define HAS(h, f) (((h) & NICREF_ROCE_H_##f) != 0)
#define EXT_LEN(h)                                                                              \
	(HAS(h, DETH) * NICREF_ROCE_DETH_LEN + HAS(h, RETH) * NICREF_ROCE_RETH_LEN +            \
	 HAS(h, ATOMICETH) * NICREF_ROCE_ATOMICETH_LEN + HAS(h, AETH) * NICREF_ROCE_AETH_LEN +  \
	 HAS(h, ATOMICACKETH) * NICREF_ROCE_ATOMICACKETH_LEN +                                  \
	 HAS(h, IMMDT) * NICREF_ROCE_IMMDT_LEN + HAS(h, IETH) * NICREF_ROCE_IETH_LEN)
#define OP_ROW(id, code, nm, svc, k, p, h)                                                      \
	[code] = { nm,                                                                          \
		   NICREF_ROCE_SVC_##svc == NICREF_ROCE_SVC_UD ? OPK_UD : RCK_K_##k,            \
		   OPP_##p,                                                                     \
		   EXT_LEN(h),                                                                  \
		   RCK_K_##k == OPK_CNP ? 2 : HAS(h, PAYLOAD),                                  \
		   HAS(h, RETH),                                                                \
		   HAS(h, AETH),                                                                \
		   HAS(h, IMMDT) },
static const struct rck_op ops[256] = { NICREF_ROCE_OPCODES(OP_ROW) };
#undef OP_ROW

const struct rck_op *rck_op(uint8_t opcode)
{
	return ops[opcode].name ? &ops[opcode] : NULL;
}

/* IBTA Table 45 (Encoding for RNR NAK Timer), in units of 0.01 ms: field 0 is 655.36 ms. */
static const uint32_t rnr_10us[32] = {
	65536, 1,    2,    3,    4,    6,    8,     12,    16,    24,    32,
	48,    64,   96,   128,  192,  256,  384,   512,   768,   1024,  1536,
	2048,  3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

uint64_t rck_rnr_ns(uint8_t timer)
{
	/* Table 45 in units of 0.01 ms: 0.01 ms = 10,000 ns. */
	return (uint64_t)rnr_10us[timer & 31] * 10000u;
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

/* The IP header's offset after the link header and up to two VLAN tags (as roce_class.c walks
 * them); the frame was classified RoCEv2, so they are there. */
static size_t ip_offset(const uint8_t *p, size_t caplen, enum cap_link link)
{
	size_t off;
	uint32_t type;
	switch (link) {
	case CAP_LINK_ETHERNET:
		off = 14;
		type = be16(p + 12);
		break;
	case CAP_LINK_LINUX_SLL:
		off = 16;
		type = be16(p + 14);
		break;
	case CAP_LINK_LINUX_SLL2:
		off = 20;
		type = be16(p);
		break;
	default:
		return 0;
	}
	for (int tags = 0; (type == 0x8100 || type == 0x88a8) && tags < 2 && off + 4 <= caplen;
	     tags++) {
		type = be16(p + off + 2);
		off += 4;
	}
	return off;
}

/* The rule of each detail (RCK_WHYS). */
#define RCK_WHY_RULE(id, rule) rule,
static const uint8_t why_rule[RCK_WHY_COUNT] = { RCK_WHYS(RCK_WHY_RULE) };
#undef RCK_WHY_RULE

/* The frame breaks the rule of detail `why`; n: the byte count the detail names. */
static void fail(struct rck_pkt *o, enum rck_why why, size_t n)
{
	o->rule = why_rule[why];
	o->why = (uint8_t)why;
	o->why_n = (uint32_t)n; /* a count within one frame's transport packet (< 2^17) */
}

void rck_pkt_why(const struct rck_pkt *p, char *buf, size_t len)
{
	const struct rck_op *op = rck_op(p->opcode);
	const char *name = op ? op->name : "?";
	size_t n = p->why_n, hdr = op ? 12u + op->ext : 12u;
	buf[0] = '\0';
	if (p->rule == RCK_NONE)
		return;
	switch ((enum rck_why)p->why) {
	case RCK_WHY_NONE:
	case RCK_WHY_COUNT:
		break;
	case RCK_WHY_GRH_BEYOND:
		snprintf(buf, len, "the GRH's PayLen runs %zu bytes beyond the frame", n);
		break;
	case RCK_WHY_GRH_SHORT:
		snprintf(buf, len, "the GRH's PayLen leaves %zu bytes, less than a BTH", n);
		break;
	case RCK_WHY_ICRC:
		snprintf(buf, len, "ICRC 0x%08x, the packet's invariant fields give 0x%08x",
			 p->icrc_got, p->icrc_want);
		break;
	case RCK_WHY_TVER:
		snprintf(buf, len, "BTH TVer %u, not 0", p->tver);
		break;
	case RCK_WHY_OPCODE:
		snprintf(buf, len, "opcode 0x%02x is reserved", p->opcode);
		break;
	case RCK_WHY_SHORT:
		snprintf(buf, len, "%zu bytes from the BTH to the end: %s needs %zu headers and a "
			 "4-byte ICRC", n, name, hdr);
		break;
	case RCK_WHY_ALIGN:
		snprintf(buf, len, "the transport packet is %zu bytes, not a multiple of 4 (PadCnt "
			 "%u)", n, p->padcnt);
		break;
	case RCK_WHY_NO_PAYLOAD:
		snprintf(buf, len, "%s carries no payload, but %zu bytes follow its headers (PadCnt "
			 "%u)", name, n, p->padcnt);
		break;
	case RCK_WHY_CNP:
		snprintf(buf, len, "a CNP carries 16 reserved bytes and PadCnt 0, this one %zu bytes "
			 "and PadCnt %u", n, p->padcnt);
		break;
	case RCK_WHY_PAD:
		snprintf(buf, len, "PadCnt %u but only %zu payload bytes", p->padcnt, n);
		break;
	}
}

/* The ICRC of a RoCEv2 frame whose IP packet starts at `ip` and ends at `end`. */
static void check_icrc(const uint8_t *data, size_t ip, size_t udp, size_t end, struct rck_pkt *o)
{
	const uint8_t *p = data + ip;
	o->icrc_state = 2;
	if (p[0] >> 4 == 4 && (be16(p + 6) & 0x2000)) {
		o->icrc_why = RCK_SKIP_FRAGMENT;
		return;
	}
	if (p[0] >> 4 == 6 && udp != ip + 40) {
		o->icrc_why = RCK_SKIP_IPV6_EXT;
		return;
	}
	uint32_t want;
	if (nicref_roce_icrc(p, end - ip, &want) != 0)
		return; /* too short: pkt.length says so */
	const uint8_t *c = data + end - 4;
	o->icrc_got = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
		      (uint32_t)c[3] << 24;
	o->icrc_want = want;
	o->icrc_state = o->icrc_got == want ? 0 : 1;
}

void rck_pkt_inspect(const uint8_t *data, size_t caplen, size_t wirelen, enum cap_link link,
		     enum roce_class cls, const struct roce_pkt *k, struct rck_pkt *o)
{
	memset(o, 0, sizeof *o);
	o->rule = RCK_NONE;
	o->frame = k->frame;
	o->t_ns = k->t_ns;
	o->cls = (uint8_t)cls;
	o->roce_ver = k->roce_ver;
	o->opcode = k->opcode;
	o->psn = k->psn;
	o->icrc_state = 2;
	if (cls == ROCE_CLASS_CUT || cls == ROCE_CLASS_MALFORMED)
		return;
	const uint8_t *b = data + k->bth_off;
	o->se = b[1] >> 7;
	o->padcnt = (b[1] >> 4) & 3;
	o->tver = b[1] & 0xf;
	o->pkey = (uint16_t)be16(b + 2);
	o->ackreq = b[8] >> 7;
	/* The transport packet: from the BTH to the end of the ICRC, as its UDP length (RoCEv2)
	 * or the frame (RoCEv1) says. */
	size_t end, ip = 0, udp = 0;
	if (k->roce_ver == 2) {
		udp = (size_t)k->bth_off - 8;
		end = udp + be16(data + udp + 4);
		ip = link == CAP_LINK_RAW_IP ? 0 : ip_offset(data, caplen, link);
		if (k->ipver == 4)
			o->ecn = data[ip + 1] & 3;
		else
			o->ecn = (uint8_t)((be16(data + ip) >> 4) & 3);
	} else {
		/* GRH PayLen (IBTA §8.3.1): the bytes after the GRH through the ICRC. */
		end = (size_t)k->bth_off + be16(data + k->bth_off - 40 + 4);
		o->icrc_why = RCK_SKIP_V1;
	}
	o->whole = end <= caplen;
	if (!o->whole && k->roce_ver == 2)
		o->icrc_why = k->ipver == 4 && (be16(data + ip + 6) & 0x2000) ? RCK_SKIP_FRAGMENT
										: RCK_SKIP_CUT;
	if (o->whole && k->roce_ver == 2 && k->ipver == 4 && end > ip) {
		size_t total = be16(data + ip + 2);
		if (ip + total < end)
			end = ip + total; /* never beyond the IP packet (roce_class checked it) */
	}
	if (k->roce_ver == 1 && end > wirelen) {
		fail(o, RCK_WHY_GRH_BEYOND, end - wirelen);
		return;
	}
	if (end < (size_t)k->bth_off + 12) {
		fail(o, RCK_WHY_GRH_SHORT, end > k->bth_off ? end - k->bth_off : 0);
		return;
	}
	size_t tlen = end - k->bth_off; /* BTH .. ICRC */
	/* The ICRC first, whatever the opcode, as a receiver checks it (IBTA §9.6.1.1; seed 004
	 * L85): a packet whose ICRC fails is judged on that alone, since any other field may be
	 * the corruption. */
	if (o->whole && k->roce_ver == 2)
		check_icrc(data, ip, udp, end, o);
	if (o->icrc_state == 1) {
		fail(o, RCK_WHY_ICRC, 0);
		return;
	}
	if (o->tver != 0) {
		fail(o, RCK_WHY_TVER, 0);
		return;
	}
	const struct rck_op *op = rck_op(o->opcode);
	bool rc = cls == ROCE_CLASS_RC;
	if (!op && (rc || cls == ROCE_CLASS_UD || cls == ROCE_CLASS_CNP)) {
		fail(o, RCK_WHY_OPCODE, 0);
		return;
	}
	if (!op)
		return; /* uc, rd, xrc, vendor, reserved, cm: counted, not checked further */
	size_t hdr = 12u + op->ext;
	if (tlen < hdr + 4) {
		fail(o, RCK_WHY_SHORT, tlen);
		return;
	}
	size_t body = tlen - hdr - 4; /* payload and pad */
	if (tlen % 4 != 0) {
		fail(o, RCK_WHY_ALIGN, tlen);
		return;
	}
	if (op->payload == 0 && (body != 0 || o->padcnt != 0)) {
		fail(o, RCK_WHY_NO_PAYLOAD, body);
		return;
	}
	if (op->payload == 2 && (body != 16 || o->padcnt != 0)) {
		fail(o, RCK_WHY_CNP, body);
		return;
	}
	if (o->padcnt > body) {
		fail(o, RCK_WHY_PAD, body);
		return;
	}
	o->payload = (uint32_t)(body - o->padcnt);
	if (o->whole || caplen >= (size_t)k->bth_off + hdr) {
		const uint8_t *x = b + 12;
		if (op->reth) {
			o->has_reth = 1;
			o->va = (uint64_t)be32(x) << 32 | be32(x + 4);
			o->rkey = be32(x + 8);
			o->dlen = be32(x + 12);
		}
		if (op->aeth) {
			o->has_aeth = 1;
			o->syndrome = x[0];
			o->msn = be24(x + 1);
		}
		o->has_imm = op->imm;
	}
}

const struct rck_pkt *rck_frames_find(const struct rck_frames *fr, uint32_t frame)
{
	size_t lo = 0, hi = fr->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (fr->p[mid].frame < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fr->n && fr->p[lo].frame == frame ? &fr->p[lo] : NULL;
}

void rck_opts_default(struct rck_opts *o)
{
	memset(o, 0, sizeof *o);
	o->window = 16;       /* seed 004 L132 */
	o->cnp_window = 8;    /* seed 004 L137-142 */
	o->cnp_timer_ns = 100000;
	o->cnp_interval_ns = 50000;
}
