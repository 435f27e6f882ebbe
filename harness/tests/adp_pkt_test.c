/* The RoCEv2 side of `nicref adp check`: the frame parser (harness/adp_pkt.c) on frames written
 * byte by byte from the public formats, flows grouped by key with their ACKs, many flows and
 * their index, acknowledgements paired by PSN, source port and CM exchange, and the capture
 * reader and the checker on the shipped captures (expected verdicts
 * from corpora/adp_captures/captures.json, computed by corpora/adp_captures/gen_captures.py from
 * the seed text, not by nicref). The example profile: adp_tool_util.h. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adp_pkt.h"
#include "adp_tool_util.h"
#include "roce_capture.h"

/* ---- frames ---- */

/* Ethernet + IPv4 + UDP + BTH (+ AETH), written byte by byte from the public formats. */
static size_t frame4(uint8_t *f, uint8_t opcode, uint32_t dqp, uint32_t psn, int aeth,
		     uint8_t syndrome, uint16_t dport, int vlan)
{
	size_t o = 0;
	memset(f, 0, 128);
	o = 12;
	if (vlan) {
		f[o++] = 0x81, f[o++] = 0x00, f[o++] = 0x00, f[o++] = 0x05;
	}
	f[o++] = 0x08, f[o++] = 0x00;
	size_t ip = o, udplen = 8 + 12 + (aeth ? 4 : 0) + 4;
	f[o] = 0x45;
	f[o + 2] = (uint8_t)((20 + udplen) >> 8), f[o + 3] = (uint8_t)(20 + udplen);
	f[o + 8] = 64, f[o + 9] = 17;
	f[o + 12] = 10, f[o + 15] = 1, f[o + 16] = 10, f[o + 19] = 2;
	o = ip + 20;
	f[o] = 0xc0, f[o + 1] = 0x01, f[o + 2] = (uint8_t)(dport >> 8), f[o + 3] = (uint8_t)dport;
	f[o + 4] = (uint8_t)(udplen >> 8), f[o + 5] = (uint8_t)udplen;
	o += 8;
	f[o] = opcode;
	f[o + 2] = 0xff, f[o + 3] = 0xff;
	f[o + 5] = (uint8_t)(dqp >> 16), f[o + 6] = (uint8_t)(dqp >> 8), f[o + 7] = (uint8_t)dqp;
	f[o + 9] = (uint8_t)(psn >> 16), f[o + 10] = (uint8_t)(psn >> 8), f[o + 11] = (uint8_t)psn;
	o += 12;
	if (aeth) {
		f[o] = syndrome, f[o + 3] = 7;
		o += 4;
	}
	return o + 4; /* ICRC */
}

#define CLASSIFY(f, n, link, k) roce_classify((f), (n), (n), (link), ROCE_UDP_PORT, (k))

Test(adp_pkt, ethernet_ipv4_bth)
{
	uint8_t f[128];
	struct roce_pkt k;
	size_t n = frame4(f, 0x04, 0x123456, 0xabcdef, 0, 0, 4791, 0);
	cr_assert_eq(CLASSIFY(f, n, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.ipver, 4);
	cr_expect_eq(k.roce_ver, 2);
	cr_expect_eq(k.sport, 0xc001);
	cr_expect_eq(k.opcode, 0x04);
	cr_expect_eq(k.dqp, 0x123456);
	cr_expect_eq(k.psn, 0xabcdef);
	cr_expect_eq(k.has_aeth, 0);
	cr_expect_eq(k.src[0], 10);
	cr_expect_eq(k.dst[3], 2);
	n = frame4(f, 0x11, 0x11, 42, 1, 0x60, 4791, 1); /* VLAN-tagged ACK: a NAK, code 0 */
	cr_assert_eq(CLASSIFY(f, n, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.has_aeth, 1);
	cr_expect_eq(k.syndrome, 0x60);
	cr_expect_eq(k.msn, 7);
	cr_expect_eq(k.psn, 42);
	/* Not RoCEv2 (another UDP port); cut (the snap length cut the BTH). */
	n = frame4(f, 0x04, 1, 1, 0, 0, 4792, 0);
	cr_expect_eq(CLASSIFY(f, n, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE);
	n = frame4(f, 0x04, 2, 1, 0, 0, 4791, 0);
	cr_expect_eq(roce_classify(f, 14 + 20 + 8 + 6, n, CAP_LINK_ETHERNET, ROCE_UDP_PORT, &k),
		     ROCE_CLASS_CUT);
	/* The same packet without the link header, as raw IP and under a Linux cooked header. */
	cr_expect_eq(CLASSIFY(f + 14, n - 14, CAP_LINK_RAW_IP, &k), ROCE_CLASS_RC);
	uint8_t sll[160] = { 0 };
	sll[14] = 0x08;
	memcpy(sll + 16, f + 14, n - 14);
	cr_expect_eq(CLASSIFY(sll, n + 2, CAP_LINK_LINUX_SLL, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.psn, 1);
	/* Garbage of every length never crashes and is never RC. */
	uint8_t junk[64];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	for (size_t l = 0; l <= sizeof junk; l++)
		cr_expect_neq(CLASSIFY(junk, l, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
}

Test(adp_pkt, ipv6_address_text)
{
	uint8_t a[16] = { 0xfd, 0, [15] = 1 }, b[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1,
							 0, 0, 0, 0, 0, 0, 0, 1 };
	uint8_t m[16] = { [10] = 0xff, [11] = 0xff, [12] = 10, [15] = 1 };
	char s[48];
	adp_addr_format(6, a, s, sizeof s);
	cr_expect_str_eq(s, "fd00::1");
	adp_addr_format(6, b, s, sizeof s);
	cr_expect_str_eq(s, "2001:db8:0:1::1");
	adp_addr_format(6, m, s, sizeof s); /* RFC 5952 §5: IPv4-mapped in mixed notation */
	cr_expect_str_eq(s, "::ffff:10.0.0.1");
}

static struct roce_pkt pkt(uint64_t t, int from_req, uint8_t op, uint32_t dqp, uint32_t psn)
{
	struct roce_pkt k = { .t_ns = t, .frame = (uint32_t)(t + 1), .ipver = 4, .roce_ver = 2,
			      .opcode = op, .dqp = dqp, .psn = psn, .has_aeth = op == 0x11,
			      .span = 1, .sport = 0xc000 };
	k.src[0] = k.dst[0] = 10;
	k.src[3] = from_req ? 1 : 2;
	k.dst[3] = from_req ? 2 : 1;
	return k;
}

Test(adp_pkt, ambiguous_ack_named_and_resolved_by_ack_qp)
{
	/* Two responder QPs behind the same address pair, the same source port, the same PSN
	 * outstanding in both, no CM exchange: nothing separates them but --ack-qp. */
	struct roce_pkt p[] = { pkt(0, 1, 0x04, 0x12, 1), pkt(1, 1, 0x04, 0x13, 1),
				pkt(2, 0, 0x11, 0x11, 1) };
	struct adp_flowset fs;
	char err[512];
	cr_expect_eq(adp_flows_build(p, 3, NULL, 0, NULL, 0, &fs, err, sizeof err), -1);
	cr_expect(strstr(err, "frame 3") && strstr(err, "--ack-qp") && strstr(err, "0x12") &&
			  strstr(err, "0x13"), "%s", err);
	struct adp_pair pair = { .data_qp = 0x13, .ack_qp = 0x11 };
	cr_assert_eq(adp_flows_build(p, 3, NULL, 0, &pair, 1, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, 2);
	cr_assert_eq(fs.nrecs, 3);
	cr_expect_eq(fs.recs[2].flow, 1);
	cr_expect_eq(fs.recs[2].kind, ADP_REC_ACK);
	cr_expect_eq(fs.flows[1].ack_qp, 0x11);
	cr_expect_str_eq(adp_paired_name(fs.flows[1].paired_by), "option");
	cr_expect_eq(fs.flows[0].paired_by, ADP_PAIRED_NONE);
	adp_flows_free(&fs);
}

/* rxe derives each side's UDP source port from its own QPN: with crossed QP numbers the ACK
 * of flow 0x12 carries the port flow 0x13's requests use. The port is trusted only where the
 * PSN agrees (D-CAPT-3), so the PSN pairs it (before, the port tied it to 0x13). */
Test(adp_pkt, port_of_another_flow_does_not_pair)
{
	struct roce_pkt p[] = { pkt(0, 1, 0x04, 0x12, 100), pkt(1, 1, 0x04, 0x13, 900),
				pkt(2, 0, 0x11, 0x11, 100) };
	p[0].sport = 0xd012;
	p[1].sport = 0xd013;
	p[2].sport = 0xd013;
	struct adp_flowset fs;
	char err[512];
	cr_assert_eq(adp_flows_build(p, 3, NULL, 0, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, 2);
	cr_expect_eq(fs.flows[0].ack_qp, 0x11);
	cr_expect_str_eq(adp_paired_name(fs.flows[0].paired_by), "psn");
	cr_expect_eq(fs.flows[1].ack_qp, ~0u);
	adp_flows_free(&fs);
}

/* Sixteen QP pairs between two hosts (each ACK carrying a PSN only one flow has outstanding):
 * before issue 21 every ACK was refused as ambiguous. */
Test(adp_pkt, acks_paired_by_psn_sport_and_cm)
{
	enum { Q = 16 };
	struct roce_pkt p[3 * Q];
	size_t n = 0;
	for (uint32_t q = 0; q < Q; q++) {
		uint32_t psn = (q * 0x9e3779u) & 0xffffff; /* distinct initial PSNs */
		struct roce_pkt a = pkt(n, 1, 0x04, 0x100 + q, psn), b = a;
		b.psn = (psn + 1) & 0xffffff;
		b.t_ns = n + 1;
		a.sport = b.sport = (uint16_t)(0xc000 + (q % 3)); /* shared: no port singles out */
		p[n++] = a;
		p[n++] = b;
	}
	for (uint32_t q = 0; q < Q; q++) {
		uint32_t psn = ((q * 0x9e3779u) + 1) & 0xffffff; /* coalesced: acks both */
		struct roce_pkt ack = pkt(n, 0, 0x11, 0x200 + q, psn);
		ack.sport = 0x1234;
		p[n++] = ack;
	}
	struct adp_flowset fs;
	char err[512];
	cr_assert_eq(adp_flows_build(p, n, NULL, 0, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, Q);
	for (uint32_t q = 0; q < Q; q++) {
		cr_expect_eq(fs.flows[q].ack_qp, 0x200 + q, "flow %u", q);
		cr_expect_eq(fs.flows[q].paired_by, ADP_PAIRED_PSN, "flow %u", q);
		cr_expect_eq(fs.flows[q].nack, 1);
	}
	adp_flows_free(&fs);

	/* Each QP pair its own source port, the same in both directions (ConnectX): paired by
	 * the port even when every flow has the ACK's PSN outstanding. */
	n = 0;
	for (uint32_t q = 0; q < Q; q++) {
		struct roce_pkt a = pkt(n, 1, 0x04, 0x100 + q, 5);
		a.sport = (uint16_t)(0xd000 + q);
		p[n++] = a;
	}
	for (uint32_t q = 0; q < Q; q++) {
		struct roce_pkt ack = pkt(n, 0, 0x11, 0x200 + q, 5);
		ack.sport = (uint16_t)(0xd000 + q);
		p[n++] = ack;
	}
	cr_assert_eq(adp_flows_build(p, n, NULL, 0, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	for (uint32_t q = 0; q < Q; q++) {
		cr_expect_eq(fs.flows[q].ack_qp, 0x200 + q, "flow %u", q);
		cr_expect_eq(fs.flows[q].paired_by, ADP_PAIRED_UDP_SPORT, "flow %u", q);
	}
	adp_flows_free(&fs);

	/* Random source ports and the same PSN everywhere: only the CM exchange pairs them.
	 * ConnectRequest from the requester 10.0.0.1 (its QP 0x200 + q), ConnectReply from
	 * 10.0.0.2 (its QP 0x100 + q). */
	struct cm_msg cm[2 * Q];
	for (uint32_t q = 0; q < Q; q++) {
		struct roce_pkt r = pkt(0, 1, 0x64, 1, 0);
		cm[2 * q] = (struct cm_msg){ .kind = CM_REQ, .ipver = 4, .local_comm = 77 + q,
					     .qpn = 0x200 + q, .psn = 5 };
		memcpy(cm[2 * q].src, r.src, 16);
		memcpy(cm[2 * q].dst, r.dst, 16);
		cm[2 * q + 1] = (struct cm_msg){ .kind = CM_REP, .ipver = 4, .local_comm = 900 + q,
						 .remote_comm = 77 + q, .qpn = 0x100 + q, .psn = 9 };
		memcpy(cm[2 * q + 1].src, r.dst, 16);
		memcpy(cm[2 * q + 1].dst, r.src, 16);
	}
	for (size_t i = 0; i < n; i++)
		p[i].sport = (uint16_t)(0x4000 + i * 7919 % 4096);
	cr_expect_eq(adp_flows_build(p, n, NULL, 0, NULL, 0, &fs, err, sizeof err), -1,
		     "without the CM exchange nothing separates them");
	cr_assert_eq(adp_flows_build(p, n, cm, 2 * Q, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	for (uint32_t q = 0; q < Q; q++) {
		cr_expect_eq(fs.flows[q].ack_qp, 0x200 + q, "flow %u", q);
		cr_expect_eq(fs.flows[q].paired_by, ADP_PAIRED_CM, "flow %u", q);
	}
	adp_flows_free(&fs);
}

/* ---- the shipped captures (expected verdicts from corpora/adp_captures/captures.json) ---- */

static struct adp_check_cfg cfg_from_args(const json_t *args)
{
	bool classic = false;
	struct adp_check_cfg c = example_cfg();
	for (size_t i = 0; i < json_array_size(args); i++) {
		const char *a = json_string_value(json_array_get(args, i));
		const char *v = i + 1 < json_array_size(args)
					? json_string_value(json_array_get(args, i + 1))
					: "";
		if (!strcmp(a, "--classic"))
			classic = true;
		else if (!strcmp(a, "--timeout"))
			c.attr.timeout = (uint8_t)atoi(v);
		else if (!strcmp(a, "--retry-cnt"))
			c.attr.retry_cnt = (uint8_t)atoi(v);
		else if (!strcmp(a, "--profile"))
			cr_assert_str_eq(v, EXAMPLE);
	}
	if (classic) {
		c.mode.adp = false;
		c.mode.retrans_en = false;
	}
	return c;
}

static void expect_u8s(const json_t *arr, const uint8_t *v, uint32_t n, const char *what,
		       const char *file)
{
	cr_assert_eq(json_array_size(arr), n, "%s %s: count", file, what);
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(json_integer_value(json_array_get(arr, i)), v[i], "%s %s[%u]", file,
			     what, i);
}

Test(adp_captures, every_capture_as_the_generator_expects)
{
	json_error_t je;
	json_t *m = json_load_file("corpora/adp_captures/captures.json", 0, &je);
	cr_assert(m, "captures.json: %s", je.text);
	json_t *caps = json_object_get(m, "captures");
	cr_assert_geq(json_array_size(caps), 8);
	size_t nonconf = 0;
	for (size_t ci = 0; ci < json_array_size(caps); ci++) {
		const json_t *cap = json_array_get(caps, ci);
		const char *file = json_string_value(json_object_get(cap, "file"));
		struct adp_check_cfg c = cfg_from_args(json_object_get(cap, "args"));
		struct roce_capture rc;
		char err[1024];
		struct roce_load_opts lo = { .roce_port = ROCE_UDP_PORT,
						     .reorder_tol_ns = CAP_REORDER_TOL_DEFAULT_NS };
		cr_assert_eq(roce_capture_load(file, &lo, &rc, err, sizeof err), 0, "%s", err);
		cr_expect_eq(rc.sum.frames, rc.nrc, "%s: every frame is RoCEv2 RC", file);
		cr_expect_eq(rc.sum.roce_v2, rc.nrc);
		cr_expect_eq(rc.sum.cls[ROCE_CLASS_RC], rc.nrc);
		cr_expect_eq(rc.sum.truncated, 0);
		struct adp_flowset fs;
		cr_assert_eq(adp_flows_build(rc.rc, rc.nrc, rc.cm, rc.ncm, NULL, 0, &fs, err,
					     sizeof err), 0, "%s", err);
		roce_capture_free(&rc);
		const json_t *flows = json_object_get(cap, "flows");
		cr_assert_eq(fs.nflows, json_array_size(flows), "%s: flows", file);
		for (size_t fi = 0; fi < fs.nflows; fi++) {
			const json_t *want = NULL;
			for (size_t k = 0; k < json_array_size(flows); k++)
				if ((uint32_t)json_integer_value(json_object_get(
					    json_array_get(flows, k), "qp")) == fs.flows[fi].dqp)
					want = json_array_get(flows, k);
			cr_assert(want, "%s: QP 0x%x not expected", file, fs.flows[fi].dqp);
			static struct adp_verdict v;
			cr_assert_eq(adp_check_flow(&c, fs.recs, fs.nrecs, (uint32_t)fi, &v, err,
						    sizeof err), 0, "%s", err);
			bool conf = json_is_true(json_object_get(want, "conforming"));
			cr_assert_eq(v.conforming, conf, "%s QP 0x%x", file, fs.flows[fi].dqp);
			const json_t *ie = json_object_get(want, "initial_exponents");
			if (conf) {
				expect_u8s(ie, v.explain_e, c.mode.adp ? v.nexplain : 0,
					   "initial_exponents", file);
				continue;
			}
			nonconf++;
			cr_expect_eq(v.psn, json_integer_value(json_object_get(want, "psn")), "%s", file);
			cr_expect_eq(v.retx, json_integer_value(json_object_get(want, "retransmission")),
				     "%s", file);
			cr_expect_str_eq(adp_fail_name(v.kind),
					 json_string_value(json_object_get(want, "kind")), "%s", file);
			const json_t *al = json_object_get(want, "allowed_ns");
			cr_assert_eq(json_array_size(al), v.nallowed, "%s allowed", file);
			for (uint32_t k = 0; k < v.nallowed; k++)
				cr_expect_eq((uint64_t)json_integer_value(json_array_get(al, k)),
					     v.allowed[k], "%s allowed[%u]", file, k);
			if (v.kind == ADP_FAIL_GAP || v.kind == ADP_FAIL_MISSING)
				cr_expect_eq(v.gap_ns, (uint64_t)json_integer_value(
							       json_object_get(want, "gap_ns")),
					     "%s gap", file);
			expect_u8s(ie, v.reach_e, c.mode.adp ? v.nreach : 0, "initial_exponents",
				   file);
		}
		adp_flows_free(&fs);
	}
	cr_expect_geq(nonconf, 6, "the non-conforming captures are all there");
	json_decref(m);
}

/* ---- many flows: grouped by key and decided from their own records ---- */

/* Flow i of n: requester 10.x.y.z (10.0.0.0 + i + 1) to 11.0.0.1, responder QP i + 1, one
 * request of PSN 0 at i us (every 7th resent after the classic timer 4.096 us << 3), its ACK
 * (to requester QP 0x800000 + i) 3 us after the last transmission; in time order. */
static size_t many_flows(struct roce_pkt *p, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t a = 0x0a000000u + (uint32_t)i + 1;
		struct roce_pkt req = { .ipver = 4, .roce_ver = 2, .opcode = 0x04,
					.dqp = (uint32_t)i + 1, .span = 1 };
		req.src[0] = (uint8_t)(a >> 24);
		req.src[1] = (uint8_t)(a >> 16);
		req.src[2] = (uint8_t)(a >> 8);
		req.src[3] = (uint8_t)a;
		req.dst[0] = 11;
		req.dst[3] = 1;
		struct roce_pkt ack = { .ipver = 4, .roce_ver = 2, .opcode = 0x11,
					.dqp = 0x800000u + (uint32_t)i, .has_aeth = 1 };
		memcpy(ack.src, req.dst, 16);
		memcpy(ack.dst, req.src, 16);
		uint64_t t = (uint64_t)i * US;
		req.t_ns = t;
		p[k++] = req;
		if (i % 7 == 0) {
			req.t_ns = t + (4096u << 3);
			p[k++] = req;
			t += 4096u << 3;
		}
		ack.t_ns = t + 3 * US;
		p[k++] = ack;
	}
	/* Insertion by time (stable: a request before an ACK of the same time). */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && p[j - 1].t_ns > p[j].t_ns; j--) {
			struct roce_pkt x = p[j];
			p[j] = p[j - 1];
			p[j - 1] = x;
		}
	for (size_t i = 0; i < k; i++)
		p[i].frame = (uint32_t)i + 1;
	return k;
}

Test(adp_pkt, many_flows_grouped_by_key)
{
	enum { N = 3000 };
	struct roce_pkt *p = calloc(3 * N, sizeof *p);
	cr_assert(p);
	size_t np = many_flows(p, N);
	struct adp_flowset fs;
	char err[256];
	cr_assert_eq(adp_flows_build(p, np, NULL, 0, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, N);
	cr_assert_eq(fs.nrecs, np);
	cr_expect_eq(fs.ignored_acks, 0);
	for (size_t f = 0; f < N; f++) {
		/* Flows in the order of their first request: flow f is responder QP f + 1. */
		cr_expect_eq(fs.flows[f].dqp, f + 1);
		cr_expect_eq(fs.flows[f].ndata, f % 7 == 0 ? 2u : 1u, "flow %zu", f);
		cr_expect_eq(fs.flows[f].nack, 1, "flow %zu", f);
		cr_expect_eq(fs.flows[f].ack_qp, 0x800000u + f, "flow %zu", f);
	}
	for (size_t i = 0; i < np; i++)
		cr_expect_eq(fs.flows[fs.recs[i].flow].dqp,
			     p[i].opcode == 0x11 ? p[i].dqp - 0x800000u + 1 : p[i].dqp,
			     "record %zu", i);
	free(p);

	/* The index gives each flow its records in capture order, and the same verdict as the
	 * walk over every record. */
	struct adp_flow_index ix;
	cr_assert_eq(adp_flow_index_build(fs.recs, fs.nrecs, fs.nflows, &ix), 0);
	cr_expect_eq(ix.start[0], 0);
	cr_expect_eq(ix.start[N], fs.nrecs);
	struct adp_check_cfg c = classic_cfg(3, 7);
	static struct adp_verdict a, b;
	for (uint32_t f = 0; f < N; f += 97) {
		for (size_t k = ix.start[f]; k < ix.start[f + 1]; k++) {
			cr_expect_eq(fs.recs[ix.rec[k]].flow, f);
			cr_expect(k == ix.start[f] || ix.rec[k] > ix.rec[k - 1], "capture order");
		}
		cr_assert_eq(adp_check_flow(&c, fs.recs, fs.nrecs, f, &a, err, sizeof err), 0);
		cr_assert_eq(adp_check_flow_indexed(&c, fs.recs, &ix, f, &b, err, sizeof err), 0);
		cr_expect(a.conforming && b.conforming, "flow %u", f);
		cr_expect_eq(a.data, b.data);
		cr_expect_eq(a.retransmissions, b.retransmissions);
		cr_expect_eq(a.expiries, b.expiries);
		cr_expect_eq(a.progress, b.progress);
		cr_expect_eq(a.t0_ns, b.t0_ns);
		cr_expect_eq(b.t0_ns, (uint64_t)f * US, "the flow's first packet");
		cr_expect_eq(b.retransmissions, f % 7 == 0);
	}
	/* A flow beyond the index is an error, not a read past it. */
	cr_expect_eq(adp_check_flow_indexed(&c, fs.recs, &ix, N, &b, err, sizeof err), -1);
	adp_flow_index_free(&ix);
	adp_flows_free(&fs);
}
