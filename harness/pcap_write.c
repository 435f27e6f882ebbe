/* A classic pcap writer (see pcap_write.h), by hand rather than through libpcap's pcap_dump so
 * that the file's byte order, and so its bytes, do not depend on the host. */
#include <stdio.h>
#include <stdlib.h>

#include "pcap_write.h"

#define PCAP_MAGIC_NS 0xA1B23C4Du /* nanosecond timestamps */
#define LINKTYPE_ETHERNET 1u

struct pcap_out {
	FILE *f;
	uint64_t frames;
	int failed;
};

static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put(struct pcap_out *p, const void *b, size_t n)
{
	if (n && fwrite(b, 1, n, p->f) != n)
		p->failed = 1;
}

struct pcap_out *pcap_out_open(const char *path)
{
	struct pcap_out *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	if (!(p->f = fopen(path, "wb"))) {
		free(p);
		return NULL;
	}
	/* magic, version 2.4, thiszone 0, sigfigs 0, snaplen, network */
	uint8_t h[24] = { 0 };
	le32(h, PCAP_MAGIC_NS);
	h[4] = 2;
	h[6] = 4;
	le32(h + 16, PCAP_OUT_SNAPLEN);
	le32(h + 20, LINKTYPE_ETHERNET);
	put(p, h, sizeof h);
	return p;
}

int pcap_out_frame(struct pcap_out *p, uint64_t ts_ns, const uint8_t *frame, size_t len)
{
	uint32_t orig = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	uint32_t incl = orig < PCAP_OUT_SNAPLEN ? orig : PCAP_OUT_SNAPLEN;
	uint64_t sec = ts_ns / 1000000000u;
	uint8_t h[16];
	le32(h, sec > UINT32_MAX ? UINT32_MAX : (uint32_t)sec);
	le32(h + 4, (uint32_t)(ts_ns % 1000000000u));
	le32(h + 8, incl);
	le32(h + 12, orig);
	put(p, h, sizeof h);
	put(p, frame, incl);
	p->frames++;
	return p->failed ? -1 : 0;
}

uint64_t pcap_out_count(const struct pcap_out *p)
{
	return p->frames;
}

int pcap_out_close(struct pcap_out *p)
{
	if (!p)
		return 0;
	int rc = p->failed;
	if (fclose(p->f) != 0)
		rc = 1;
	free(p);
	return rc ? -1 : 0;
}
