/* User memory objects: CREATE_UMEM and DESTROY_UMEM (beyond PRM Rev 0.40: Linux
 * include/linux/mlx5/mlx5_ifc.h create_umem_in/out, destroy_umem_in/out, umem_bits, mtt_bits;
 * docs/umem.md D-UMEM-*), and the translation through a UMEM's pages. */
#include <stdlib.h>

#include "cmd/cmd_table.h"
#include "obj/cq.h"
#include "obj/umem.h"

#define UMEM_MTT_OFF 0x30u          /* [IFC] create_umem_in: umem at 10h, its mtt[] at 20h of it */
#define UMEM_MTT_BYTES 8u           /* [IFC] mtt_bits: 40h bits */
#define UMEM_ADAPTER_PAGE_SHIFT 12u /* [IFC]/devx.c: log_page_size counts from 4 KB */
#define UMEM_MTT_ACCESS 0x3u        /* [IFC] mtt_bits wr_en [1], rd_en [0] */
#define UMEM_MTT_RESERVED 0xFCu     /* [IFC] mtt_bits reserved_at_38 [7:2] */

static uint64_t mtt_entry(const uint8_t *in, uint64_t i)
{
	const uint8_t *p = in + UMEM_MTT_OFF + UMEM_MTT_BYTES * i;
	return (uint64_t)prm_be32(p) << 32 | prm_be32(p + 4);
}

/* D-UMEM-2/3: the entries must be in the input, the offset inside the first page and every
 * page aligned to the page size ([DEVX] gives one entry per page of that size). */
static enum nicref_cmd_rule check_umem(struct cmd_ctx *c, uint64_t nmtt, unsigned log_page)
{
	uint64_t page = 1ull << log_page;
	if (nmtt == 0)
		return NICREF_RULE_UMEM_NO_MTT;
	size_t room = c->input_length < c->in_len ? c->input_length : c->in_len;
	if (nmtt > (room - UMEM_MTT_OFF) / UMEM_MTT_BYTES)
		return NICREF_RULE_UMEM_MTT_BEYOND_INPUT;
	if (PRM_GET(create_umem_in, page_offset, c->in, c->in_len) >= page)
		return NICREF_RULE_UMEM_PAGE_OFFSET_BAD;
	for (uint64_t i = 0; i < nmtt; i++)
		if (mtt_entry(c->in, i) & (page - 1) & ~(uint64_t)(UMEM_MTT_ACCESS | UMEM_MTT_RESERVED))
			return NICREF_RULE_UMEM_MTT_MISALIGNED;
	/* [IFC] mtt_bits [7:2] reserved: D-CMD-8's rule, as for T138's pas[] (wq.c). The
	 * dispatcher's check covers the fixed fields only, not the entries of an array. */
	for (uint64_t i = 0; i < nmtt; i++) {
		enum nicref_cmd_rule r = cmd_check_reserved(
			c, &nicref_layout_umem_mtt, UMEM_MTT_OFF + UMEM_MTT_BYTES * (size_t)i);
		if (r != NICREF_RULE_NONE)
			return r;
	}
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_create_umem(struct cmd_ctx *c)
{
	uint64_t nmtt = PRM_GET(create_umem_in, num_of_mtt, c->in, c->in_len);
	/* A 5-bit log_page_size: pages of 4 KB to 2^43 bytes. */
	unsigned log_page = UMEM_ADAPTER_PAGE_SHIFT +
			    (unsigned)PRM_GET(create_umem_in, log_page_size, c->in, c->in_len);
	enum nicref_cmd_rule rule = check_umem(c, nmtt, log_page);
	if (rule != NICREF_RULE_NONE)
		return rule;
	const struct objtab *t = &c->dev->obj[OBJ_UMEM];
	if (t->nlive >= t->limit - t->base)
		return NICREF_RULE_UMEM_EXHAUSTED;
	struct umem *u = dev_calloc(c->dev, 1, sizeof *u + nmtt * sizeof u->mtt[0]);
	if (!u)
		return NICREF_RULE_OBJ_NO_MEMORY;
	u->log_page = log_page;
	u->page_offset = PRM_GET(create_umem_in, page_offset, c->in, c->in_len);
	u->nmtt = nmtt;
	/* nmtt * page < 2^64: nmtt entries fit a mailbox chain, pages are at most 2^43 bytes. */
	u->size = (nmtt << log_page) - u->page_offset;
	for (uint64_t i = 0; i < nmtt; i++)
		u->mtt[i] = mtt_entry(c->in, i) & ~((1ull << log_page) - 1);
	int64_t h = objtab_alloc(&c->dev->obj[OBJ_UMEM], u);
	if (h < 0) {
		dev_free(c->dev, u);
		return h == -1 ? NICREF_RULE_UMEM_EXHAUSTED : NICREF_RULE_OBJ_NO_MEMORY;
	}
	u->hdr.handle = (uint32_t)h;
	PRM_SET(create_umem_out, umem_id, c->out, c->out_len, (uint64_t)h);
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule cmd_destroy_umem(struct cmd_ctx *c)
{
	uint32_t id = (uint32_t)PRM_GET(destroy_umem_in, umem_id, c->in, c->in_len);
	enum nicref_cmd_rule r;
	struct umem *u = obj_find(c->dev, OBJ_UMEM, id, NICREF_RULE_UMEM_INDEX_OUT_OF_RANGE,
				  NICREF_RULE_UMEM_NOT_FOUND, &r);
	if (!u) /* D-OBJ-2: BAD_INDEX outside the umem_ids, BAD_RESOURCE for one not live */
		return r;
	if (u->hdr.refs) /* D-UMEM-5: a live object's buffer or record is in it */
		return NICREF_RULE_UMEM_IN_USE;
	objtab_remove(&c->dev->obj[OBJ_UMEM], id);
	dev_free(c->dev, u);
	return NICREF_RULE_NONE;
}

int umem_translate(const struct nicref_dev *dev, uint32_t id, uint64_t off, uint64_t len,
		   uint64_t *addr)
{
	const struct umem *u = obj_get(dev, OBJ_UMEM, id);
	if (!u || len == 0 || off >= u->size || len > u->size - off)
		return -1;
	uint64_t at = u->page_offset + off;
	uint64_t in_page = at & ((1ull << u->log_page) - 1);
	if (len > (1ull << u->log_page) - in_page)
		return -1;
	*addr = u->mtt[at >> u->log_page] + in_page;
	return 0;
}

#define QBUF_PAGE 4096u /* struct qbuf pages of log_page_size 0 */

enum nicref_cmd_rule umem_qbuf(struct nicref_dev *dev, uint32_t id, uint64_t off,
			       uint64_t bytes, struct qbuf *out)
{
	enum nicref_cmd_rule r;
	const struct umem *u = obj_find(dev, OBJ_UMEM, id, NICREF_RULE_UMEM_REF_OUT_OF_RANGE,
					NICREF_RULE_UMEM_REF_NOT_FOUND, &r);
	if (!u) /* D-OBJ-2 */
		return r;
	/* Every UMEM page is a multiple of 4 KB, so a buffer starting on a 4 KB boundary of the
	 * pages has each of its 4 KB pages inside one UMEM page. */
	if ((u->page_offset + off) % QBUF_PAGE)
		return NICREF_RULE_UMEM_REF_MISALIGNED;
	if (bytes == 0 || off >= u->size || bytes > u->size - off)
		return NICREF_RULE_UMEM_REF_BEYOND;
	uint64_t n = (bytes + QBUF_PAGE - 1) / QBUF_PAGE;
	if (n > UINT32_MAX)
		return NICREF_RULE_UMEM_REF_BEYOND;
	uint64_t *pas = dev_malloc(dev, n * sizeof *pas);
	if (!pas)
		return NICREF_RULE_OBJ_NO_MEMORY;
	for (uint64_t i = 0; i < n; i++) {
		/* The last page may end past the UMEM only when the buffer does not reach it. */
		uint64_t at = u->page_offset + off + i * QBUF_PAGE;
		pas[i] = u->mtt[at >> u->log_page] + (at & ((1ull << u->log_page) - 1));
	}
	*out = (struct qbuf){ .pas = pas, .npas = (uint32_t)n, .log_page_size = 0 };
	return NICREF_RULE_NONE;
}

enum nicref_cmd_rule umem_record(const struct nicref_dev *dev, uint32_t id, uint64_t off,
				 uint64_t len, uint64_t *addr)
{
	enum nicref_cmd_rule r;
	if (!obj_find(dev, OBJ_UMEM, id, NICREF_RULE_UMEM_REF_OUT_OF_RANGE,
		      NICREF_RULE_UMEM_REF_NOT_FOUND, &r))
		return r; /* D-OBJ-2 */
	return umem_translate(dev, id, off, len, addr) ? NICREF_RULE_UMEM_REF_BEYOND
							 : NICREF_RULE_NONE;
}

void umem_ref(struct nicref_dev *dev, uint32_t id, int delta)
{
	struct umem *u = id ? obj_get(dev, OBJ_UMEM, id) : NULL;
	if (u)
		u->hdr.refs = (uint32_t)((int64_t)u->hdr.refs + delta);
}
