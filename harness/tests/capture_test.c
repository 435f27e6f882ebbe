/* The capture reader (harness/capture.c), the classification of every frame
 * (harness/roce_class.c) and the walk of a capture (harness/roce_capture.c): frames written byte
 * by byte from the public formats (roce_class.h names them), files written here in the pcap
 * and pcapng formats (the libpcap file format; the pcapng draft's SHB, IDB and EPB blocks). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "roce_capture.h"

/* ---- frames ---- */

struct fb {
	uint8_t b[600];
	size_t n;
};

static void put(struct fb *f, const void *p, size_t n)
{
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void put16(struct fb *f, uint32_t v)
{
	uint8_t x[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	put(f, x, 2);
}

static void eth(struct fb *f, uint32_t type)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	f->n = 0;
	put(f, macs, 12);
	put16(f, type);
}

/* BTH: opcode, DestQP, PSN; then `extra` zero bytes (AETH, DETH, payload) and the ICRC. */
static void bth(struct fb *f, uint8_t op, uint32_t dqp, uint32_t psn, size_t extra)
{
	uint8_t b[12] = { op, 0, 0xff, 0xff, 0, (uint8_t)(dqp >> 16), (uint8_t)(dqp >> 8),
			  (uint8_t)dqp, 0, (uint8_t)(psn >> 16), (uint8_t)(psn >> 8), (uint8_t)psn };
	put(f, b, 12);
	memset(f->b + f->n, 0, extra + 4);
	f->n += extra + 4;
}

/* IPv4 + UDP (source port 0xc001, destination dport) + BTH, from offset `ip`. */
static void roce4(struct fb *f, uint16_t dport, uint8_t op, uint32_t dqp, uint32_t psn,
		  size_t extra)
{
	size_t ip = f->n, ulen = 8 + 12 + extra + 4;
	uint8_t h[20] = { 0x45, 0, (uint8_t)((20 + ulen) >> 8), (uint8_t)(20 + ulen), 0, 0, 0x40,
			  0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2 };
	put(f, h, 20);
	uint8_t u[8] = { 0xc0, 0x01, (uint8_t)(dport >> 8), (uint8_t)dport, (uint8_t)(ulen >> 8),
			 (uint8_t)ulen, 0, 0 };
	put(f, u, 8);
	bth(f, op, dqp, psn, extra);
	(void)ip;
}

static enum roce_class cls(const struct fb *f, enum cap_link link, struct roce_pkt *k)
{
	return roce_classify(f->b, f->n, f->n, link, ROCE_UDP_PORT, k);
}

Test(classify, by_opcode_and_destqp)
{
	static const struct {
		uint8_t op;
		uint32_t dqp;
		enum roce_class c;
	} rows[] = {
		{ 0x04, 0x12, ROCE_CLASS_RC },	     { 0x11, 0x12, ROCE_CLASS_RC },
		{ 0x24, 0x12, ROCE_CLASS_UC },	     { 0x44, 0x12, ROCE_CLASS_RD },
		{ 0x64, 0x12, ROCE_CLASS_UD },	     { 0xa4, 0x12, ROCE_CLASS_XRC },
		{ 0x81, 0x12, ROCE_CLASS_CNP },	     { 0x80, 0x12, ROCE_CLASS_RESERVED },
		{ 0x9f, 0x12, ROCE_CLASS_RESERVED }, { 0xc0, 0x12, ROCE_CLASS_VENDOR },
		{ 0xff, 0x12, ROCE_CLASS_VENDOR },   { 0x64, 0x01, ROCE_CLASS_CM_MAD },
		{ 0x04, 0x01, ROCE_CLASS_CM_MAD },   { 0x81, 0x01, ROCE_CLASS_CM_MAD },
	};
	struct fb f;
	struct roce_pkt k;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		eth(&f, 0x0800);
		roce4(&f, 4791, rows[i].op, rows[i].dqp, 7, 16);
		cr_expect_eq(cls(&f, CAP_LINK_ETHERNET, &k), rows[i].c, "opcode 0x%02x QP %u: %s",
			     rows[i].op, rows[i].dqp, roce_class_name(cls(&f, CAP_LINK_ETHERNET, &k)));
	}
	/* --roce-port: the same frame on port 4792 is RoCE only when asked. */
	eth(&f, 0x0800);
	roce4(&f, 4792, 0x04, 0x12, 7, 0);
	cr_expect_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE);
	cr_expect_eq(roce_classify(f.b, f.n, f.n, CAP_LINK_ETHERNET, 4792, &k), ROCE_CLASS_RC);
}

Test(classify, link_layers_and_roce_v1)
{
	struct fb f, g;
	struct roce_pkt k;
	/* Two tags (802.1ad outer, 802.1Q inner). */
	eth(&f, 0x88a8);
	put16(&f, 5), put16(&f, 0x8100), put16(&f, 6), put16(&f, 0x0800);
	roce4(&f, 4791, 0x0a, 0x33, 9, 0);
	cr_expect_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.dqp, 0x33);
	/* SLL: 16 bytes, protocol at 14; SLL2: 20 bytes, protocol at 0. */
	eth(&g, 0x0800);
	roce4(&g, 4791, 0x0a, 0x33, 9, 0);
	f.n = 0;
	uint8_t sll[14] = { 0, 4, 0, 1, 0, 6 };
	put(&f, sll, 14);
	put16(&f, 0x0800);
	put(&f, g.b + 14, g.n - 14);
	cr_expect_eq(cls(&f, CAP_LINK_LINUX_SLL, &k), ROCE_CLASS_RC);
	f.n = 0;
	put16(&f, 0x0800);
	uint8_t sll2[18] = { 0 };
	put(&f, sll2, 18);
	put(&f, g.b + 14, g.n - 14);
	cr_expect_eq(cls(&f, CAP_LINK_LINUX_SLL2, &k), ROCE_CLASS_RC);
	cr_expect_eq(cls(&f, CAP_LINK_LINUX_SLL, &k), ROCE_CLASS_NOT_ROCE, "SLL2 read as SLL");
	/* RoCEv1: EtherType 0x8915, GRH with next header 0x1B, the GIDs as addresses. */
	eth(&f, 0x8915);
	uint8_t grh[40] = { 0x60, 0, 0, 0, 0, 32, 0x1B, 64 };
	grh[8] = 0xfe, grh[9] = 0x80, grh[23] = 1, grh[24] = 0xfe, grh[25] = 0x80, grh[39] = 2;
	put(&f, grh, 40);
	bth(&f, 0x11, 0x44, 100, 4);
	f.b[14 + 40 + 12] = 0x00; /* AETH: ACK */
	cr_assert_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.roce_ver, 1);
	cr_expect_eq(k.ipver, 6);
	cr_expect_eq(k.has_aeth, 1);
	cr_expect_eq(k.src[15], 1);
	cr_expect_eq(k.dst[15], 2);
	f.b[14 + 6] = 0x11; /* next header not the BTH */
	cr_expect_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED);
	/* IPv6 with a destination-options header before UDP. */
	eth(&f, 0x86dd);
	uint8_t h6[40] = { 0x60, 0, 0, 0, 0, 8 + 8 + 12 + 4, 60, 64 };
	h6[8] = 0xfd, h6[23] = 1, h6[24] = 0xfd, h6[39] = 2;
	put(&f, h6, 40);
	uint8_t dopt[8] = { 17, 0 };
	put(&f, dopt, 8);
	uint8_t u[8] = { 0xc0, 2, 0x12, 0xb7, 0, 24 };
	put(&f, u, 8);
	bth(&f, 0x06, 0x55, 1, 0);
	cr_expect_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC);
	cr_expect_eq(k.ipver, 6);
	cr_expect_eq(k.sport, 0xc002);
	cr_expect_eq(cls(&g, CAP_LINK_RAW_IP, &k), ROCE_CLASS_MALFORMED,
		     "an Ethernet frame read as raw IP: version nibble 0");
}

Test(classify, cut_malformed_not_roce)
{
	struct fb f;
	struct roce_pkt k;
	eth(&f, 0x0800);
	roce4(&f, 4791, 0x04, 0x12, 7, 0);
	size_t n = f.n;
	/* Cut by the snapshot length: inside the BTH, inside the UDP header, before the
	 * EtherType; after the BTH it is RC (and truncated: the caller's count). */
	static const size_t cuts[] = { 14 + 20 + 8 + 11, 14 + 20 + 3, 14 + 10, 13 };
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
		cr_expect_eq(roce_classify(f.b, cuts[i], n, CAP_LINK_ETHERNET, 4791, &k),
			     ROCE_CLASS_CUT, "cut at %zu", cuts[i]);
	cr_expect_eq(roce_classify(f.b, 14 + 20 + 8 + 12, n, CAP_LINK_ETHERNET, 4791, &k),
		     ROCE_CLASS_RC);
	/* Malformed: IHL 4; total length beyond the wire; UDP length < 20; the wire ends
	 * inside the BTH. */
	struct fb m = f;
	m.b[14] = 0x44;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED, "IHL 4");
	m = f;
	m.b[14] = 0x55;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED, "version 5");
	m = f;
	m.b[14 + 3] += 40;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED, "total length");
	m = f;
	m.b[14 + 20 + 5] = 19;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED, "UDP length 19");
	m = f;
	m.b[14 + 3] = 20 + 8 + 6, m.b[14 + 20 + 5] = 8 + 12;
	cr_expect_eq(roce_classify(m.b, 14 + 34, 14 + 34, CAP_LINK_ETHERNET, 4791, &k),
		     ROCE_CLASS_MALFORMED, "the wire ends inside the BTH");
	/* A first fragment (MF, offset 0): its UDP length counts the whole datagram, longer
	 * than this packet; the BTH is read and classed (RFC 791, RFC 768). Without MF the same
	 * UDP length is malformed. */
	m = f;
	m.b[14 + 20 + 4] = 0x05, m.b[14 + 20 + 5] = 0xdc; /* UDP length 1500 */
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_MALFORMED, "UDP length past the IP packet");
	m.b[14 + 6] = 0x20; /* MF */
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_RC, "a first fragment");
	/* Not RoCE: a later fragment, TCP, ARP, an 802.3 length field, a short runt. */
	m = f;
	m.b[14 + 7] = 0x10;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE, "fragment");
	m = f;
	m.b[14 + 9] = 6;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE, "TCP");
	m = f;
	m.b[12] = 0x08, m.b[13] = 0x06;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE, "ARP");
	m.b[12] = 0x00, m.b[13] = 0x40;
	cr_expect_eq(cls(&m, CAP_LINK_ETHERNET, &k), ROCE_CLASS_NOT_ROCE, "802.3");
	cr_expect_eq(roce_classify(f.b, 10, 10, CAP_LINK_ETHERNET, 4791, &k),
		     ROCE_CLASS_NOT_ROCE, "runt");
	/* Every prefix of every length, under every link type: a class, no crash. */
	for (int l = 0; l < CAP_LINK_COUNT; l++)
		for (size_t c = 0; c <= n; c++)
			cr_expect_lt(roce_classify(f.b, c, n, (enum cap_link)l, 4791, &k),
				     ROCE_CLASS_COUNT);
}

/* A ConnectRequest and a ConnectReply in UD SEND only to QP1 (BTH, DETH, MAD). */
static void cm_frame(struct fb *f, uint16_t attr, const uint8_t *msg, size_t len)
{
	eth(f, 0x0800);
	roce4(f, 4791, 0x64, 1, 0, 8 + 256);
	uint8_t *mad = f->b + 14 + 20 + 8 + 12 + 8;
	mad[0] = 1, mad[1] = 0x07, mad[2] = 2, mad[3] = 0x03;
	mad[16] = (uint8_t)(attr >> 8), mad[17] = (uint8_t)attr;
	memcpy(mad + 24, msg, len);
}

Test(classify, cm_messages)
{
	struct fb f;
	struct roce_pkt k;
	uint8_t req[48] = { 0, 0, 0x12, 0x34 };
	req[32] = 0x00, req[33] = 0x01, req[34] = 0x23; /* Local QPN 0x123 */
	req[44] = 0xab, req[45] = 0xcd, req[46] = 0xef; /* Starting PSN */
	cm_frame(&f, 0x0010, req, sizeof req);
	cr_assert_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_CM_MAD);
	struct cm_msg m;
	cr_assert_eq(roce_cm_parse(f.b, &k, &m), 0);
	cr_expect_eq(m.kind, CM_REQ);
	cr_expect_eq(m.local_comm, 0x1234);
	cr_expect_eq(m.qpn, 0x123);
	cr_expect_eq(m.psn, 0xabcdef);
	uint8_t rep[24] = { 0, 0, 0, 9, 0, 0, 0x12, 0x34 };
	rep[12] = 0, rep[13] = 0x04, rep[14] = 0x56;
	rep[20] = 0x01, rep[21] = 0x02, rep[22] = 0x03;
	cm_frame(&f, 0x0013, rep, sizeof rep);
	cr_assert_eq(cls(&f, CAP_LINK_ETHERNET, &k), ROCE_CLASS_CM_MAD);
	cr_assert_eq(roce_cm_parse(f.b, &k, &m), 0);
	cr_expect_eq(m.kind, CM_REP);
	cr_expect_eq(m.remote_comm, 0x1234);
	cr_expect_eq(m.qpn, 0x456);
	cr_expect_eq(m.psn, 0x010203);
	/* Cut before the fields: no message. */
	cr_assert_eq(roce_classify(f.b, 14 + 20 + 8 + 12 + 8 + 30, f.n, CAP_LINK_ETHERNET, 4791,
				   &k), ROCE_CLASS_CM_MAD);
	cr_expect_eq(roce_cm_parse(f.b, &k, &m), -1);
}

/* ---- files ---- */

static FILE *pcap_file(char *path, uint32_t linktype, uint32_t snaplen)
{
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	/* Nanosecond pcap, little-endian: magic A1B23C4D, 2.4, snaplen, link type. */
	uint32_t h[6] = { 0xa1b23c4d, 0x00040002, 0, 0, snaplen, linktype };
	fwrite(h, sizeof h, 1, f);
	return f;
}

static void pcap_rec(FILE *f, uint64_t t, const uint8_t *p, uint32_t cap, uint32_t wire)
{
	uint32_t r[4] = { (uint32_t)(t / 1000000000u), (uint32_t)(t % 1000000000u), cap, wire };
	fwrite(r, sizeof r, 1, f);
	fwrite(p, cap, 1, f);
}

static struct roce_load_opts opts(void)
{
	return (struct roce_load_opts){ .roce_port = ROCE_UDP_PORT,
					     .reorder_tol_ns = CAP_REORDER_TOL_DEFAULT_NS };
}

Test(capture, timestamps_inversions_tolerated_and_refused)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	FILE *f = pcap_file(path, 1, 65535);
	struct fb a;
	eth(&a, 0x0800);
	roce4(&a, 4791, 0x04, 0x12, 1, 0);
	/* Frame 3 is stamped 1 us before frame 2: tolerated. */
	static const uint64_t t1[] = { 1000000, 2000000, 1999000, 3000000 };
	for (int i = 0; i < 4; i++)
		pcap_rec(f, t1[i], a.b, (uint32_t)a.n, (uint32_t)a.n);
	fclose(f);
	struct roce_capture rc;
	char err[1024];
	struct roce_load_opts o = opts();
	cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
	cr_expect_eq(rc.sum.frames, 4);
	cr_expect_eq(rc.sum.inv_tolerated, 1);
	cr_expect_eq(rc.sum.inv_beyond, 0);
	cr_expect_eq(rc.nrc, 4);
	cr_expect_eq(rc.rc[2].t_ns, 1999000, "never reordered, never restamped");
	cr_expect_eq(rc.rc[2].frame, 3);
	roce_capture_free(&rc);
	/* A tolerance below the inversion refuses it, naming both frames. */
	o.reorder_tol_ns = 999;
	cr_expect_eq(roce_capture_load(path, &o, &rc, err, sizeof err), -1);
	cr_expect(strstr(err, "frame 3 is stamped 1.000 us before frame 2") &&
			  strstr(err, "reordercap") && strstr(err, "--reorder-tolerance-ns") &&
			  strstr(err, path), "%s", err);
	unlink(path);
}

Test(capture, link_types_snaplen_and_refusals)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	struct fb a;
	eth(&a, 0x0800);
	roce4(&a, 4791, 0x04, 0x12, 1, 200);
	/* Snapshot length 64: the RC frame cut after its BTH is rc and truncated; an ARP frame
	 * is not RoCE. */
	FILE *f = pcap_file(path, 1, 64);
	pcap_rec(f, 1000, a.b, 64, (uint32_t)a.n);
	struct fb arp;
	eth(&arp, 0x0806);
	memset(arp.b + 14, 0, 28);
	pcap_rec(f, 2000, arp.b, 42, 42);
	pcap_rec(f, 3000, a.b, 45, (uint32_t)a.n); /* cut inside the UDP header */
	fclose(f);
	struct roce_capture rc;
	char err[1024];
	struct roce_load_opts o = opts();
	cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
	cr_expect_eq(rc.sum.frames, 3);
	cr_expect_eq(rc.sum.link[CAP_LINK_ETHERNET], 3);
	cr_expect_eq(rc.sum.truncated, 2);
	cr_expect_eq(rc.sum.cls[ROCE_CLASS_RC], 1);
	cr_expect_eq(rc.sum.cls[ROCE_CLASS_NOT_ROCE], 1);
	cr_expect_eq(rc.sum.cls[ROCE_CLASS_CUT], 1);
	cr_expect_eq(rc.sum.roce_v2, 1);
	json_t *j = cap_summary_json(&rc.sum);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(j, "classes"), "cut")), 1);
	cr_expect_eq(json_object_size(json_object_get(j, "link_types")), 5, "every link type");
	cr_expect_eq(json_object_size(json_object_get(j, "classes")), 12, "every class");
	json_decref(j);
	roce_capture_free(&rc);
	unlink(path);

	/* Linux cooked v2 (276). */
	strcpy(path, "/tmp/nicref_cap_XXXXXX");
	f = pcap_file(path, 276, 65535);
	struct fb s2;
	s2.n = 0;
	put16(&s2, 0x0800);
	memset(s2.b + 2, 0, 18);
	s2.n = 20;
	put(&s2, a.b + 14, a.n - 14);
	pcap_rec(f, 1000, s2.b, (uint32_t)s2.n, (uint32_t)s2.n);
	fclose(f);
	cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
	cr_expect_eq(rc.sum.link[CAP_LINK_LINUX_SLL2], 1);
	cr_expect_eq(rc.sum.cls[ROCE_CLASS_RC], 1);
	roce_capture_free(&rc);
	unlink(path);

	/* ERF (197): refused, the link type named, what nicref reads said. */
	strcpy(path, "/tmp/nicref_cap_XXXXXX");
	f = pcap_file(path, 197, 65535);
	pcap_rec(f, 1000, a.b, (uint32_t)a.n, (uint32_t)a.n);
	fclose(f);
	cr_expect_eq(roce_capture_load(path, &o, &rc, err, sizeof err), -1);
	cr_expect(strstr(err, "ERF") && strstr(err, "Ethernet") && strstr(err, "raw IP") &&
			  strstr(err, path), "%s", err);
	unlink(path);
	/* Not a capture at all. */
	strcpy(path, "/tmp/nicref_cap_XXXXXX");
	f = fdopen(mkstemp(path), "w");
	fputs("hello, not a capture at all\n", f);
	fclose(f);
	cr_expect_eq(roce_capture_load(path, &o, &rc, err, sizeof err), -1);
	cr_expect(strstr(err, "editcap") && strstr(err, path), "%s", err);
	unlink(path);
}

/* pcapng: SHB, one IDB per (link type, snaplen), EPBs naming their interface. */
static void ng_block(FILE *f, uint32_t type, const void *body, uint32_t len)
{
	uint32_t pad = (4 - len % 4) % 4, total = 12 + len + pad, zero = 0;
	fwrite(&type, 4, 1, f);
	fwrite(&total, 4, 1, f);
	fwrite(body, len, 1, f);
	fwrite(&zero, pad, 1, f);
	fwrite(&total, 4, 1, f);
}

static void pcapng(const char *path, uint16_t link1, uint32_t snap1, uint16_t link2,
		   uint32_t snap2, const struct fb *fr)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	uint8_t shb[16];
	uint32_t bom = 0x1a2b3c4d;
	uint16_t ver[2] = { 1, 0 };
	int64_t sec_len = -1;
	memcpy(shb, &bom, 4);
	memcpy(shb + 4, ver, 4);
	memcpy(shb + 8, &sec_len, 8);
	ng_block(f, 0x0a0d0d0a, shb, 16);
	const uint16_t links[2] = { link1, link2 };
	const uint32_t snaps[2] = { snap1, snap2 };
	for (int i = 0; i < 2; i++) {
		uint8_t idb[8] = { 0 };
		memcpy(idb, &links[i], 2);
		memcpy(idb + 4, &snaps[i], 4);
		ng_block(f, 1, idb, 8);
	}
	for (uint32_t i = 0; i < 4; i++) {
		uint8_t epb[20 + 600];
		uint32_t hdr[5] = { i % 2, 0, 1000 * (i + 1), (uint32_t)fr->n, (uint32_t)fr->n };
		memcpy(epb, hdr, 20);
		memcpy(epb + 20, fr->b, fr->n);
		ng_block(f, 6, epb, 20 + (uint32_t)fr->n);
	}
	fclose(f);
}

Test(capture, pcapng_merged_from_two_interfaces)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	close(mkstemp(path));
	struct fb a;
	eth(&a, 0x0800);
	roce4(&a, 4791, 0x04, 0x12, 1, 0);
	pcapng(path, 1, 65535, 1, 65535, &a);
	struct roce_capture rc;
	char err[1024];
	struct roce_load_opts o = opts();
	cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
	cr_expect_eq(rc.sum.frames, 4, "the frames of both interfaces");
	cr_expect_eq(rc.sum.cls[ROCE_CLASS_RC], 4);
	roce_capture_free(&rc);
	pcapng(path, 1, 65535, 1, 128, &a);
	cr_expect_eq(roce_capture_load(path, &o, &rc, err, sizeof err), -1);
	cr_expect(strstr(err, "editcap") && strstr(err, path), "%s", err);
	pcapng(path, 1, 65535, 113, 65535, &a);
	cr_expect_eq(roce_capture_load(path, &o, &rc, err, sizeof err), -1);
	cr_expect(strstr(err, "editcap") && strstr(err, "frame_interface") == NULL, "%s", err);
	unlink(path);
}

/* ---- the mapped reader (capture.c's fast path) and libpcap taking over ---- */

static void put_be32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	fwrite(b, sizeof b, 1, f);
}

/* A big-endian microsecond pcap (magic A1B2C3D4 written most significant byte first: the other
 * byte order from the host's): records 1 and 3 are read from the mapping, record 2 is longer
 * than the snapshot length (libpcap's to cut), record 4 is cut by the end of the file. Every
 * record comes out with the file's values and its number, in order, and the cut one is
 * libpcap's "truncated" error naming frame 4. */
Test(capture, mapped_records_and_libpcap_takeover)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	const uint32_t snap = 100;
	put_be32(f, 0xA1B2C3D4u);
	put_be32(f, 0x00020004u); /* version 2.4: major then minor, 16 bits each */
	put_be32(f, 0);
	put_be32(f, 0);
	put_be32(f, snap);
	put_be32(f, 1); /* LINKTYPE_ETHERNET */
	uint8_t body[200];
	for (size_t i = 0; i < sizeof body; i++)
		body[i] = (uint8_t)(i * 7 + 3);
	static const struct { uint32_t s, us, cap, wire; } r[] = {
		{ 5, 7, 64, 64 }, { 6, 0, 150, 150 }, { 6, 999999, 90, 1514 }, { 7, 1, 80, 80 },
	};
	for (int i = 0; i < 4; i++) {
		put_be32(f, r[i].s);
		put_be32(f, r[i].us);
		put_be32(f, r[i].cap);
		put_be32(f, r[i].wire);
		fwrite(body, i == 3 ? 20 : r[i].cap, 1, f); /* record 4: 20 of its 80 bytes */
	}
	fclose(f);
	struct capture *c;
	char err[512];
	cr_assert_eq(capture_open(path, &c, err, sizeof err), 0, "%s", err);
	struct cap_frame fr;
	long long at = capture_tell(c);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(capture_next(c, &fr, err, sizeof err), 1, "record %d: %s", i + 1, err);
		cr_expect_eq(fr.number, (uint64_t)i + 1);
		cr_expect_eq(fr.t_ns, r[i].s * 1000000000ull + r[i].us * 1000ull, "record %d", i + 1);
		cr_expect_eq(fr.link, CAP_LINK_ETHERNET);
		if (i == 1) /* past the snapshot length: at most snaplen bytes, whatever libpcap does */
			cr_expect_leq(fr.caplen, snap);
		else {
			cr_expect_eq(fr.caplen, r[i].cap, "record %d", i + 1);
			cr_expect_eq(fr.wirelen, r[i].wire, "record %d", i + 1);
			cr_expect_eq(memcmp(fr.data, body, fr.caplen), 0, "record %d", i + 1);
		}
		long long now = capture_tell(c);
		cr_expect_gt(now, at, "record %d: the position moves on", i + 1);
		at = now;
	}
	cr_expect_eq(capture_next(c, &fr, err, sizeof err), -1);
	cr_expect(strstr(err, "frame 4") && strstr(err, "truncated") && strstr(err, path), "%s",
		  err);
	capture_close(c);
	unlink(path);
}

/* ---- what a file says that it should not (session 29 review) ---- */

static int next(struct capture *c, struct cap_frame *f)
{
	char err[1024];
	int r = capture_next(c, f, err, sizeof err);
	cr_assert_geq(r, 0, "%s", err);
	return r;
}

/* A microsecond pcap, little-endian, record by record with its own fields. */
static FILE *upcap(char *path, uint32_t linktype, uint32_t snaplen)
{
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	uint32_t h[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, snaplen, linktype };
	fwrite(h, sizeof h, 1, f);
	return f;
}

static void urec(FILE *f, uint32_t sec, uint32_t sub, const uint8_t *p, uint32_t cap, uint32_t len)
{
	uint32_t r[4] = { sec, sub, cap, len };
	fwrite(r, sizeof r, 1, f);
	fwrite(p, cap, 1, f);
}

/* Seconds from 2038 on (the field is unsigned), a captured length over the wire length, a
 * sub-second field of two seconds, a record longer than the header's snapshot length: on the
 * mapped path (Ethernet) and through libpcap (raw IP, which the mapping does not read). */
Test(capture, y2038_caplen_over_len_bad_subsec_and_cut_by_libpcap)
{
	static const uint32_t links[] = { 1, 101 };
	for (int l = 0; l < 2; l++) {
		char path[] = "/tmp/nicref_cap_XXXXXX";
		struct fb a;
		eth(&a, 0x0800);
		roce4(&a, 4791, 0x04, 0x12, 1, 40);
		const uint8_t *d = links[l] == 1 ? a.b : a.b + 14;
		uint32_t n = (uint32_t)(links[l] == 1 ? a.n : a.n - 14);
		FILE *f = upcap(path, links[l], n + 10);
		urec(f, 0x80000001u, 5, d, n, n);
		urec(f, 0x80000001u, 6, d, n, n - 20);
		urec(f, 0x80000001u, 2000000, d, n, n);
		urec(f, 0x80000002u, 0, d, n, n);
		/* Longer than the snapshot length (n + 10): libpcap hands back n + 10 bytes. */
		uint8_t big[700] = { 0 };
		memcpy(big, d, n);
		urec(f, 0x80000002u, 1, big, n + 30, n + 30);
		urec(f, 0x80000002u, 2, d, n, n);
		fclose(f);
		struct capture *c;
		char err[1024];
		cr_assert_eq(capture_open(path, &c, err, sizeof err), 0, "%s", err);
		struct cap_frame fr;
		const uint64_t t0 = 0x80000001ull * 1000000000u;
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.t_ns, t0 + 5000, "link %u: 2038 is not negative", links[l]);
		cr_expect_eq(fr.time, CAP_TIME_OK);
		cr_expect(!fr.caplen_over_len && fr.file_caplen == 0);
		cr_assert_eq(next(c, &fr), 1);
		cr_expect(fr.caplen_over_len, "link %u", links[l]);
		cr_expect_eq(fr.origlen, n - 20);
		cr_expect_eq(fr.caplen, n);
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.time, CAP_TIME_BAD_SUBSEC, "link %u", links[l]);
		cr_expect_eq(fr.t_ns, t0 + 6000, "the time of the record before");
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.time, CAP_TIME_OK);
		cr_expect_eq(fr.t_ns, t0 + 1000000000u);
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.caplen, n + 10);
		cr_expect_eq(fr.file_caplen, n + 30, "link %u: the file holds the whole record",
			     links[l]);
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.number, 6);
		cr_expect_eq(fr.file_caplen, 0);
		cr_expect_eq(fr.t_ns, t0 + 1000002000u);
		cr_expect_eq(next(c, &fr), 0);
		capture_close(c);
		unlink(path);
	}
}

/* pcapng: a Simple Packet Block (no timestamp) first and in the middle takes the time of the
 * block before it: no clock 53 years back, no inversion for roce check. */
static void ng_spb(FILE *f, const struct fb *fr)
{
	uint8_t b[4 + 600];
	uint32_t len = (uint32_t)fr->n;
	memcpy(b, &len, 4);
	memcpy(b + 4, fr->b, fr->n);
	ng_block(f, 3, b, 4 + len);
}

static void ng_epb(FILE *f, uint64_t t_us, const struct fb *fr)
{
	uint8_t epb[20 + 600];
	uint32_t hdr[5] = { 0, (uint32_t)(t_us >> 32), (uint32_t)t_us, (uint32_t)fr->n,
			    (uint32_t)fr->n };
	memcpy(epb, hdr, 20);
	memcpy(epb + 20, fr->b, fr->n);
	ng_block(f, 6, epb, 20 + (uint32_t)fr->n);
}

static void ng_head(FILE *f, uint32_t snap)
{
	uint8_t shb[16];
	uint32_t bom = 0x1a2b3c4d;
	uint16_t ver[2] = { 1, 0 };
	int64_t sec_len = -1;
	memcpy(shb, &bom, 4);
	memcpy(shb + 4, ver, 4);
	memcpy(shb + 8, &sec_len, 8);
	ng_block(f, 0x0a0d0d0a, shb, 16);
	uint8_t idb[8] = { 1, 0, 0, 0 };
	memcpy(idb + 4, &snap, 4);
	ng_block(f, 1, idb, 8);
}

Test(capture, pcapng_simple_packet_blocks_are_untimed)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	close(mkstemp(path));
	struct fb a;
	eth(&a, 0x0800);
	roce4(&a, 4791, 0x04, 0x12, 1, 0);
	FILE *f = fopen(path, "wb");
	ng_head(f, 65535);
	ng_spb(f, &a);
	ng_epb(f, 1700000000000000ull, &a);
	ng_spb(f, &a);
	ng_epb(f, 1700000000000010ull, &a);
	fclose(f);
	struct capture *c;
	char err[1024];
	cr_assert_eq(capture_open(path, &c, err, sizeof err), 0, "%s", err);
	struct cap_frame fr;
	static const enum cap_time want[] = { CAP_TIME_NONE, CAP_TIME_OK, CAP_TIME_NONE, CAP_TIME_OK };
	static const uint64_t t[] = { 0, 1700000000000000000ull, 1700000000000000000ull,
				      1700000000000010000ull };
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(next(c, &fr), 1);
		cr_expect_eq(fr.time, want[i], "frame %d", i + 1);
		cr_expect_eq(fr.t_ns, t[i], "frame %d", i + 1);
	}
	capture_close(c);
	struct roce_capture rc;
	struct roce_load_opts o = opts();
	cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
	cr_expect_eq(rc.sum.untimed, 2);
	cr_expect_eq(rc.sum.untimed_first, 1);
	cr_expect_eq(rc.sum.inv_beyond + rc.sum.inv_tolerated, 0, "an SPB is no inversion");
	roce_capture_free(&rc);
	unlink(path);
}

/* libpcap's refusals of a pcapng record longer than its interface's snapshot length, and of a
 * second section in the other byte order, come with what to do. */
Test(capture, pcapng_refusals_with_a_hint)
{
	char path[] = "/tmp/nicref_cap_XXXXXX";
	close(mkstemp(path));
	struct fb a;
	eth(&a, 0x0800);
	roce4(&a, 4791, 0x04, 0x12, 1, 60);
	FILE *f = fopen(path, "wb");
	ng_head(f, 64);
	ng_epb(f, 1, &a);
	fclose(f);
	struct capture *c;
	struct cap_frame fr;
	char err[1024];
	cr_assert_eq(capture_open(path, &c, err, sizeof err), 0, "%s", err);
	cr_expect_eq(capture_next(c, &fr, err, sizeof err), -1);
	cr_expect(strstr(err, "bigger than snaplen") && strstr(err, "mergecap -F pcap -s 262144"),
		  "%s", err);
	capture_close(c);
	/* A second section, big-endian. */
	f = fopen(path, "wb");
	ng_head(f, 65535);
	ng_epb(f, 1, &a);
	static const uint8_t shb_be[28] = { 0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28, 0x1a, 0x2b, 0x3c,
					    0x4d, 0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					    0xff, 0xff, 0, 0, 0, 28 };
	static const uint8_t idb_be[20] = { 0, 0, 0, 1, 0, 0, 0, 20, 0, 1, 0, 0,
					    0, 0, 0xff, 0xff, 0, 0, 0, 20 };
	fwrite(shb_be, sizeof shb_be, 1, f);
	fwrite(idb_be, sizeof idb_be, 1, f);
	fclose(f);
	cr_assert_eq(capture_open(path, &c, err, sizeof err), 0, "%s", err);
	cr_assert_eq(capture_next(c, &fr, err, sizeof err), 1);
	int r = capture_next(c, &fr, err, sizeof err);
	cr_expect_eq(r, -1);
	cr_expect(strstr(err, "other byte order") && strstr(err, "tshark -r FILE -w"), "%s", err);
	capture_close(c);
	unlink(path);
}

/* BSD loopback (LINKTYPE_NULL 0, LINKTYPE_LOOP 108): read as raw IP after the 4-byte family. */
Test(capture, bsd_loopback_read_as_ip)
{
	static const uint32_t links[] = { 0, 108 };
	for (int l = 0; l < 2; l++) {
		char path[] = "/tmp/nicref_cap_XXXXXX";
		struct fb a;
		eth(&a, 0x0800);
		roce4(&a, 4791, 0x04, 0x12, 1, 0);
		uint8_t b[600] = { 2, 0, 0, 0 };
		if (links[l] == 108)
			b[0] = 0, b[3] = 2;
		memcpy(b + 4, a.b + 14, a.n - 14);
		FILE *f = upcap(path, links[l], 65535);
		urec(f, 1, 0, b, (uint32_t)a.n - 10, (uint32_t)a.n - 10);
		fclose(f);
		struct roce_capture rc;
		char err[1024];
		struct roce_load_opts o = opts();
		cr_assert_eq(roce_capture_load(path, &o, &rc, err, sizeof err), 0, "%s", err);
		cr_expect_eq(rc.sum.link[CAP_LINK_LOOPBACK], 1);
		cr_expect_eq(rc.sum.cls[ROCE_CLASS_RC], 1, "link %u", links[l]);
		roce_capture_free(&rc);
		unlink(path);
	}
}
