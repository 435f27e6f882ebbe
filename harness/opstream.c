/* Operation streams: encoder and interpreter. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "opstream.h"

void opstream_init(struct opstream *s)
{
	memset(s, 0, sizeof *s);
}

void opstream_free(struct opstream *s)
{
	free(s->buf);
	memset(s, 0, sizeof *s);
}

static uint8_t *reserve(struct opstream *s, size_t n)
{
	if (s->failed)
		return NULL;
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		while (cap < s->len + n)
			cap *= 2;
		uint8_t *b = realloc(s->buf, cap);
		if (!b) {
			s->failed = 1;
			return NULL;
		}
		s->buf = b;
		s->cap = cap;
	}
	uint8_t *p = s->buf + s->len;
	s->len += n;
	return p;
}

static void be(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

void opstream_bar_write(struct opstream *s, uint32_t offset, uint32_t value)
{
	uint8_t *p = reserve(s, 7);
	if (!p)
		return;
	if (offset == 0x18) { /* the command doorbell has its own, shorter op */
		s->len -= 2;
		p[0] = OPS_DOORBELL;
		be(p + 1, value, 4);
		return;
	}
	p[0] = OPS_BAR_WRITE;
	be(p + 1, offset, 2);
	be(p + 3, value, 4);
}

void opstream_bar_read(struct opstream *s, uint32_t offset)
{
	uint8_t *p = reserve(s, 3);
	if (!p)
		return;
	p[0] = OPS_BAR_READ;
	be(p + 1, offset, 2);
}

void opstream_mem_write(struct opstream *s, uint64_t addr, const void *data, size_t len)
{
	const uint8_t *d = data;
	while (len > 0) {
		size_t n = len > 0xFFFF ? 0xFFFF : len;
		/* the short form while the whole chunk lies below 4 GiB */
		bool wide = addr > 0xFFFFFFFFu || addr + n - 1 > 0xFFFFFFFFu;
		unsigned head = wide ? 11 : 7;
		uint8_t *p = reserve(s, head + n);
		if (!p)
			return;
		p[0] = wide ? OPS_MEM_WRITE64 : OPS_MEM_WRITE;
		be(p + 1, addr, head - 3);
		be(p + head - 2, n, 2);
		memcpy(p + head, d, n);
		d += n;
		addr += n;
		len -= n;
	}
}

void opstream_advance(struct opstream *s, uint64_t ns)
{
	if (ns == 0)
		return;
	bool wide = ns > 0xFFFFFFFFu;
	uint8_t *p = reserve(s, wide ? 9 : 5);
	if (!p)
		return;
	p[0] = wide ? OPS_ADVANCE64 : OPS_ADVANCE;
	be(p + 1, ns, wide ? 8 : 4);
}

void opstream_dma_fault(struct opstream *s, uint64_t addr, uint64_t len, unsigned flags)
{
	bool wide = addr > 0xFFFFFFFFu || len > 0xFFFF;
	uint8_t *p = reserve(s, wide ? 18 : 8);
	if (!p)
		return;
	p[0] = wide ? OPS_DMA_FAULT64 : OPS_DMA_FAULT;
	be(p + 1, addr, wide ? 8 : 4);
	be(p + (wide ? 9 : 5), len, wide ? 8 : 2);
	p[wide ? 17 : 7] = (uint8_t)flags;
}

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

long opstream_run(struct nicref_dev *dev, const uint8_t *data, size_t len,
		  opstream_step_fn step, void *ctx)
{
	static const uint8_t operand_len[OPS_COUNT] = {
		[OPS_BAR_WRITE] = 6,  [OPS_BAR_READ] = 2,	[OPS_MEM_WRITE] = 6,
		[OPS_ADVANCE] = 4,    [OPS_DOORBELL] = 4,	[OPS_DMA_FAULT] = 7,
		[OPS_ADVANCE64] = 8,  [OPS_MEM_WRITE64] = 10, [OPS_DMA_FAULT64] = 17,
	};
	size_t at = 0;
	long ops = 0;

	while (at < len) {
		unsigned op = data[at];
		if (op >= OPS_COUNT) { /* reserved: the byte alone, nothing happens */
			at++;
			continue;
		}
		const uint8_t *a = data + at + 1;
		if (len - at - 1 < operand_len[op])
			break;
		at += 1 + operand_len[op];
		switch ((enum opstream_op)op) {
		case OPS_BAR_WRITE:
			nicref_bar_write32(dev, (uint32_t)rd(a, 2), (uint32_t)rd(a + 2, 4));
			break;
		case OPS_BAR_READ:
			(void)nicref_bar_read32(dev, (uint32_t)rd(a, 2));
			break;
		case OPS_MEM_WRITE:
		case OPS_MEM_WRITE64: {
			unsigned w = op == OPS_MEM_WRITE ? 4 : 8;
			size_t n = (size_t)rd(a + w, 2);
			if (len - at < n)
				n = len - at;
			/* A write past the host memory bound is the host's problem, not the
			 * device's: it is dropped. */
			(void)nicref_hostmem_write(dev, rd(a, w), data + at, n);
			at += n;
			break;
		}
		case OPS_ADVANCE:
			nicref_clock_advance(dev, rd(a, 4));
			break;
		case OPS_ADVANCE64:
			nicref_clock_advance(dev, rd(a, 8));
			break;
		case OPS_DOORBELL:
			nicref_bar_write32(dev, 0x18, (uint32_t)rd(a, 4));
			break;
		case OPS_DMA_FAULT:
			/* Full after 8 ranges: later faults are dropped. */
			(void)nicref_hostmem_fault(dev, rd(a, 4), rd(a + 4, 2), a[6] & 3u);
			break;
		case OPS_DMA_FAULT64:
			(void)nicref_hostmem_fault(dev, rd(a, 8), rd(a + 8, 8), a[16] & 3u);
			break;
		case OPS_COUNT:
			break;
		}
		ops++;
		if (step && step(ctx, dev) != 0)
			return -1;
	}
	return ops;
}
