/* The RoCEv2 ICRC (nicref_roce_icrc; IBTA Vol. 1 §7.8.1, Annex A17 §A17.3.3) against frames
 * Scapy built (scapy.contrib.roce BTH.compute_icrc, an implementation independent of the
 * model), and the opcode and drop-reason tables of nicref/roce.h. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "nicref/nicref.h"

static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;
	for (; s[0] && s[1]; s += 2) {
		unsigned v;
		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
	}
	return n;
}

/* Ether/IP(tos=0x62, ttl=64, DF)/UDP(4791, chksum 0)/BTH(RC_SEND_ONLY, SE, AckReq, dqpn
 * 0x123456, psn 0xABCDEF)/"hello roce icrc!" */
static const char *const scapy_send =
	"02000000000202000000000108004562003c123440004011a4c7c0a80101c0a80102c00012b70028000004"
	"80ffff0012345680abcdef68656c6c6f20726f636520696372632141b7f03d";
/* Ether/IP(ttl=1)/UDP(1234 -> 4791, checksum set)/BTH(RC_ACKNOWLEDGE, FECN, BECN, dqpn 2, psn
 * 7)/AETH(0x1f, msn 5) */
static const char *const scapy_ack =
	"020000000002020000000001080045000030000100000111a5ba0a0000010a00000204d212b7001c0ccd1100"
	"ffffc0000002000000071f00000581495605";

static uint32_t carried(const uint8_t *f, size_t n)
{
	/* Least significant byte first, as scapy's pack_icrc writes it. */
	return (uint32_t)f[n - 4] | (uint32_t)f[n - 3] << 8 | (uint32_t)f[n - 2] << 16 |
	       (uint32_t)f[n - 1] << 24;
}

Test(roce_icrc, matches_scapy)
{
	const char *const frames[] = { scapy_send, scapy_ack };
	for (unsigned i = 0; i < 2; i++) {
		uint8_t f[128];
		size_t n = unhex(frames[i], f);
		uint32_t icrc = 0;
		cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &icrc), 0);
		cr_expect_eq(icrc, carried(f, n), "frame %u: computed %08x, carried %08x", i, icrc,
			     carried(f, n));
	}
}

Test(roce_icrc, masked_fields_do_not_count_others_do)
{
	uint8_t f[128];
	size_t n = unhex(scapy_send, f);
	uint32_t ref, v;
	cr_assert_eq(nicref_roce_icrc(f + 14, n - 14, &ref), 0);
	/* TOS, TTL, IP checksum, UDP checksum, BTH byte 4 (FECN/BECN/resv6): masked. */
	const unsigned masked[] = { 14 + 1, 14 + 8, 14 + 10, 14 + 11, 34 + 6, 34 + 7, 42 + 4 };
	for (unsigned i = 0; i < sizeof masked / sizeof masked[0]; i++) {
		uint8_t g[128];
		memcpy(g, f, n);
		g[masked[i]] ^= 0x5A;
		cr_assert_eq(nicref_roce_icrc(g + 14, n - 14, &v), 0);
		cr_expect_eq(v, ref, "byte %u is masked", masked[i]);
	}
	/* The source address, the UDP source port, the opcode, the PSN, the payload: covered. */
	const unsigned covered[] = { 14 + 12, 34 + 0, 42 + 0, 42 + 11, 54 };
	for (unsigned i = 0; i < sizeof covered / sizeof covered[0]; i++) {
		uint8_t g[128];
		memcpy(g, f, n);
		g[covered[i]] ^= 0x01;
		cr_assert_eq(nicref_roce_icrc(g + 14, n - 14, &v), 0);
		cr_expect_neq(v, ref, "byte %u is covered", covered[i]);
	}
}

Test(roce_icrc, refuses_what_is_not_roce)
{
	uint8_t f[128];
	size_t n = unhex(scapy_send, f);
	uint32_t v;
	cr_expect_eq(nicref_roce_icrc(f + 14, 14 + 20, &v), -1, "shorter than IP+UDP+BTH+ICRC");
	f[14 + 9] = 6; /* TCP */
	cr_expect_eq(nicref_roce_icrc(f + 14, n - 14, &v), -1);
	f[14 + 9] = 17;
	f[14] = 0x55; /* version 5 */
	cr_expect_eq(nicref_roce_icrc(f + 14, n - 14, &v), -1);
	cr_expect_eq(nicref_roce_icrc(NULL, 10, &v), -1);
}

Test(roce_names, opcode_table)
{
	/* IBTA Table 38 spot checks, and the headers each carries. */
	const struct nicref_roce_opcode_info *op = nicref_roce_opcode(0x0B);
	cr_assert(op);
	cr_expect_str_eq(op->name, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE");
	cr_expect_eq(op->headers, NICREF_ROCE_H_RETH | NICREF_ROCE_H_IMMDT | NICREF_ROCE_H_PAYLOAD);
	cr_expect_eq(nicref_roce_ext_len(0x0B), 20u);
	cr_expect_eq(nicref_roce_ext_len(0x11), 4u, "ACK: AETH");
	cr_expect_eq(nicref_roce_ext_len(0x65), 12u, "UD SEND ONLY IMM: DETH + ImmDt");
	cr_expect_eq(nicref_roce_ext_len(0x0C), 16u, "READ request: RETH");
	cr_expect_eq(nicref_roce_opcode(0x0D)->pos, NICREF_ROCE_POS_FIRST);
	cr_expect_eq(nicref_roce_opcode(0x81)->service, NICREF_ROCE_SVC_CNP);
	cr_expect_null(nicref_roce_opcode(0x15), "reserved in Table 38");
	cr_expect_null(nicref_roce_opcode(0x24), "UC: not modelled");
	cr_expect_eq(nicref_roce_opcode_find("UD_SEND_ONLY"), 0x64);
	cr_expect_eq(nicref_roce_opcode_find("nope"), -1);
}

Test(roce_names, drop_table)
{
	for (unsigned r = 1; r < NICREF_ROCE_DROP_COUNT; r++) {
		const char *n = nicref_roce_drop_name(r);
		cr_assert(n, "reason %u has a name", r);
		cr_expect_eq(nicref_roce_drop_find(n), (int)r);
		cr_expect(nicref_roce_drop_citation(r) && nicref_roce_drop_text(r));
	}
	cr_expect_null(nicref_roce_drop_name(0));
	cr_expect_null(nicref_roce_drop_name(NICREF_ROCE_DROP_COUNT));
	cr_expect_eq(nicref_roce_drop_find("icrc"), NICREF_ROCE_DROP_ICRC);
}
