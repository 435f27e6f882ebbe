/* --pcap-dir DIR: what each RQ received, one classic pcap per RQ (DIR/rq<i>.pcap, written by
 * pcap_write.h, which Wireshark opens), one record per responder CQE at the frame's capture
 * time: the byte_cnt bytes the device wrote through the WQE the CQE names (T67 wqe_counter),
 * read back from host memory along its scatter entries (T40), so the file shows what software
 * finds in its buffers: a stripped VLAN tag is not there (§3.3.7, D-RX-3). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pcap_write.h"
#include "replay_int.h"

#define SEG 16u
#define CACHE_LINE 64u /* §3.3.9 start padding: the default line (not cache_line_128byte) */

struct replay_pcaps {
	struct pcap_out *rq[VEC_STACK_MAX_RQS];
	char dir[512];
	uint8_t data[REPLAY_FRAME_MAX];
};

int replay_pcaps_open(const char *dir, const struct vec_stack_rx *x, struct replay_pcaps **out,
		      char *err, size_t errlen)
{
	struct replay_pcaps *pc = calloc(1, sizeof *pc);
	*out = NULL;
	if (!pc) {
		snprintf(err, errlen, "--pcap-dir %s: out of memory", dir);
		return -1;
	}
	snprintf(pc->dir, sizeof pc->dir, "%s", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "--pcap-dir %s: cannot create: %s", dir, strerror(errno));
		free(pc);
		return -1;
	}
	for (unsigned i = 0; i < x->nrq; i++) {
		char path[600];
		snprintf(path, sizeof path, "%s/rq%u.pcap", dir, i);
		if (!(pc->rq[i] = pcap_out_open(path))) {
			snprintf(err, errlen, "--pcap-dir: %s: cannot write: %s", path, strerror(errno));
			replay_pcaps_close(pc, NULL, 0);
			return -1;
		}
	}
	*out = pc;
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The n bytes a WQE's entries received, gathered into pc->data: the bytes gathered. */
static uint32_t gather(struct replay_pcaps *pc, const struct vec_stack_rx *x,
		       const struct refdrv_rq_ring *r, uint16_t wc, uint32_t n)
{
	uint32_t stride = 1u << r->log_wq_stride, slot = wc & ((1u << r->log_wq_sz) - 1u);
	uint8_t w[4096];
	nicref_hostmem_read(x->dev, r->buf + (uint64_t)slot * stride, w, stride);
	/* T22 / T42: a signature or next segment comes first (driver_rq.c writes the same). */
	bool first = r->shared ? (r->linked || r->ctrl_segment || r->wq_signature) : r->wq_signature;
	uint32_t got = 0, skip = 0;
	for (uint32_t at = first ? SEG : 0; at + SEG <= stride && got < n; at += SEG) {
		uint32_t bc = be32(w + at) & 0x7FFFFFFFu, lkey = be32(w + at + 4);
		uint64_t addr = (uint64_t)be32(w + at + 8) << 32 | be32(w + at + 12);
		if (lkey == 0x100u) /* §7.4.1.2: the Null entry ends the list */
			break;
		if (at == (first ? SEG : 0) && (w[at] & 0x80u)) /* §3.3.9 start padding (D-RX-1) */
			skip = (CACHE_LINE - n % CACHE_LINE) % CACHE_LINE;
		uint64_t room = bc ? bc : 0x80000000ull; /* T40: byte_count 0 is 2 GB */
		uint64_t pass = skip < room ? skip : room;
		skip -= (uint32_t)pass;
		uint64_t take = room - pass < (uint64_t)(n - got) ? room - pass : (uint64_t)(n - got);
		if (take && nicref_hostmem_read(x->dev, addr + pass, pc->data + got, (size_t)take))
			break;
		got += (uint32_t)take;
	}
	return got;
}

void replay_pcaps_frame(struct replay_pcaps *pc, const struct vec_stack_rx *x,
			const struct replay_pred *p)
{
	for (unsigned i = 0; i < p->ncopies; i++) {
		const struct replay_copy *c = &p->copy[i];
		if (c->drop || !c->polled || c->rq < 0 || (c->cqe[63] >> 4) != 2)
			continue;
		uint32_t n = be32(c->cqe + 0x2C); /* T67 byte_cnt */
		if (n > REPLAY_FRAME_MAX)
			n = REPLAY_FRAME_MAX;
		uint16_t wc = (uint16_t)((uint32_t)c->cqe[0x3C] << 8 | c->cqe[0x3D]);
		uint32_t got = gather(pc, x, x->ring[c->rq], wc, n);
		pcap_out_frame(pc->rq[c->rq], p->t_ns, pc->data, got);
	}
}

int replay_pcaps_close(struct replay_pcaps *pc, char *err, size_t errlen)
{
	int rc = 0;
	for (unsigned i = 0; i < VEC_STACK_MAX_RQS; i++)
		if (pc->rq[i] && pcap_out_close(pc->rq[i]) != 0 && rc == 0) {
			rc = -1;
			if (err)
				snprintf(err, errlen, "--pcap-dir %s: rq%u.pcap: write failed", pc->dir, i);
		}
	free(pc);
	return rc;
}
