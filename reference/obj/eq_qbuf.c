/* Page lists of EQ and CQ buffers (PRM §7.12.1, §7.13.2: "The memory associated with this
 * buffer is passed to the HCA as a list of physical pages"; PAS entries T138/T139). */
#include <stdlib.h>

#include "obj/eq_qbuf.h"

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

enum nicref_cmd_rule qbuf_load(struct cmd_ctx *c, size_t pas_off, uint64_t bytes,
			       unsigned log_page_size, enum nicref_cmd_rule short_rule,
			       enum nicref_cmd_rule align_rule, struct qbuf *out)
{
	/* T76/T94 log_page_size: pages of 4 KB << log_page_size (5 bits: at most 2^43 B). */
	uint64_t page = 4096ull << log_page_size;
	uint64_t n = (bytes + page - 1) / page;
	out->pas = NULL;
	out->npas = 0;
	out->log_page_size = (uint8_t)log_page_size;
	/* D-EQ-9: the entries must lie within input_length (and what was gathered). */
	uint64_t end = (uint64_t)pas_off + 8 * n;
	if (end > c->input_length || end > c->in_len)
		return short_rule;
	for (uint64_t i = 0; i < n; i++)
		if (be64(c->in + pas_off + 8 * i) & 0xFFFu)
			return align_rule;
	out->pas = dev_malloc(c->dev, (size_t)n * sizeof *out->pas);
	if (!out->pas)
		return NICREF_RULE_OBJ_NO_MEMORY;
	for (uint64_t i = 0; i < n; i++)
		out->pas[i] = be64(c->in + pas_off + 8 * i);
	out->npas = (uint32_t)n;
	return NICREF_RULE_NONE;
}

void qbuf_query(const struct qbuf *b, struct cmd_ctx *c, size_t pas_off)
{
	size_t room = c->out_len < c->output_length ? c->out_len : c->output_length;
	for (uint32_t i = 0; i < b->npas && pas_off + 8 * ((size_t)i + 1) <= room; i++)
		put_be64(c->out + pas_off + 8 * (size_t)i, b->pas[i]);
}

uint64_t qbuf_addr(const struct qbuf *b, uint64_t off)
{
	/* §7.12.1 / §7.13.2: a virtually-contiguous buffer over the listed pages, page_offset
	 * 0 (T76, T94). Callers stay within the buffer the list was loaded for. */
	unsigned shift = 12u + b->log_page_size;
	uint64_t page = off >> shift;
	NICREF_ASSERT(page < b->npas);
	return b->pas[page] + (off & ((1ull << shift) - 1u));
}

void qbuf_free(struct nicref_dev *dev, struct qbuf *b)
{
	dev_free(dev, b->pas);
	b->pas = NULL;
	b->npas = 0;
}
