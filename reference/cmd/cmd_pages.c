/* QUERY_PAGES and MANAGE_PAGES (PRM §5.1, §12.3.1-§12.3.2): the pages the driver gives the
 * device for its contexts, and their return. */
#include "cmd/cmd_table.h"

enum { PAGES_BOOT = 1, PAGES_INIT = 2, PAGES_REGULAR = 3 };       /* T131 op_mod */
#define PAS_BYTES 8                                                  /* T138 */

uint32_t dev_pages_required(const struct nicref_dev *dev)
{
	switch (dev->hca.state) {
	case HCA_ENABLED:
	case HCA_INITIALIZED:
	{
		/* D-PG-2: boot and init pages, and the pages the live contexts take; or more while
		 * a Page Request is not yet answered (D-PG-4). */
		uint64_t n = (uint64_t)dev->core.cfg.profile.boot_pages +
			     dev->core.cfg.profile.init_pages + obj_pages_required(dev);
		if (n < dev->hca.pages_wanted)
			n = dev->hca.pages_wanted;
		return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	}
	default:
		return 0;
	}
}

int32_t pages_query(const struct nicref_dev *dev, unsigned op_mod)
{
	const struct nicref_profile *p = &dev->core.cfg.profile;
	int64_t given = dev->core.pages.count;
	int64_t need;
	switch (op_mod) {
	case PAGES_BOOT:
		/* D-PG-2: boot and init answers are what is missing, never negative; the driver
		 * may give boot and init pages at once (§8.2). */
		need = (int64_t)p->boot_pages - given;
		return need > 0 ? (int32_t)need : 0;
	case PAGES_INIT:
		if (dev->hca.state != HCA_ENABLED)
			return 0; /* after INIT_HCA the init pages are held */
		need = (int64_t)p->boot_pages + p->init_pages - given;
		return need > 0 ? (int32_t)need : 0;
	default:
		/* T133 (D-PG-1): > 0 pages to give, < 0 spare pages the driver may reclaim. */
		return (int32_t)((int64_t)dev_pages_required(dev) - given);
	}
}

enum nicref_cmd_rule cmd_query_pages(struct cmd_ctx *c)
{
	if (c->op_mod == PAGES_INIT)
		c->dev->hca.init_pages_queried = true; /* D-INIT-1: SET_HCA_CAP comes before */
	uint32_t n = (uint32_t)pages_query(c->dev, c->op_mod);
	PRM_SET(query_pages_out, num_pages, c->out, c->out_len, n);
	return NICREF_RULE_NONE;
}

static struct nicref_field pas_entry(unsigned i)
{
	return nicref_field_element(PRM_FIELD(manage_pages_in, pas), i);
}

static uint64_t pas_addr(const struct cmd_ctx *c, unsigned i)
{
	struct nicref_field e = pas_entry(i);
	uint64_t v = 0;
	(void)nicref_field_get(c->in, c->in_len, &e, &v);
	return v; /* T138: pa_h 00h[31:0], pa_l 04h[31:12]; bits 11:0 reserved */
}

/* ALLOCATION_SUCCESS: every page aligned, new and distinct, within the device's limit; all or
 * nothing (D-PG-3). */
static enum nicref_cmd_rule give_pages(struct cmd_ctx *c, uint32_t n)
{
	struct nicref_dev *dev = c->dev;
	/* D-PG-3: the count is judged before any entry, as a length is (EXCEED_LIM before the
	 * entries' BAD_PARAM): a list the device cannot take is not read. */
	if (n > dev->core.pages.capacity - dev->core.pages.count)
		return NICREF_RULE_PAGES_BEYOND_LIMIT;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = pas_addr(c, i);
		enum nicref_cmd_rule rule = (a & 0xFFF) ? NICREF_RULE_PAGE_NOT_ALIGNED
				: page_pool_has(&dev->core.pages, a) ? NICREF_RULE_PAGE_DUPLICATE
								 : NICREF_RULE_NONE;
		if (rule != NICREF_RULE_NONE) {
			/* undo this command's earlier entries: a refused command changes nothing */
			while (i--)
				(void)page_pool_take_last(&dev->core.pages);
			return rule;
		}
		NICREF_ASSERT(page_pool_add(&dev->core.pages, a) == 0);
	}
	return NICREF_RULE_NONE;
}

/* HCA_RETURN_PAGES: up to n spare pages, the latest given first, listed in the output. */
static enum nicref_cmd_rule return_pages(struct cmd_ctx *c, uint32_t n)
{
	struct nicref_dev *dev = c->dev;
	if ((uint64_t)PRM_SIZE_manage_pages_out + (uint64_t)n * PAS_BYTES > c->output_length)
		return NICREF_RULE_PAGES_OUTPUT_TOO_SHORT;
	int64_t spare = (int64_t)dev->core.pages.count - dev_pages_required(dev);
	uint32_t k = spare <= 0 ? 0 : spare < n ? (uint32_t)spare : n;
	for (uint32_t i = 0; i < k; i++) {
		struct nicref_field e = nicref_field_element(PRM_FIELD(manage_pages_out, pas), i);
		prm_set(c->out, c->out_len, &e, page_pool_take_last(&dev->core.pages));
	}
	PRM_SET(manage_pages_out, output_num_entries, c->out, c->out_len, k);
	return NICREF_RULE_NONE;
}

static enum nicref_cmd_rule manage(struct cmd_ctx *c)
{
	uint32_t n = (uint32_t)PRM_GET(manage_pages_in, input_num_entries, c->in, c->in_len);
	switch (c->op_mod) {
	case MP_ALLOCATION_FAIL:
		if (c->dev->hca.state == HCA_TORN_DOWN)
			return NICREF_RULE_HCA_TORN_DOWN;
		/* §12.3.2: the driver could not provide the pages it was asked for: the request is
		 * withdrawn; the create that needed them has already failed (D-PG-4). */
		c->dev->hca.pages_wanted = 0;
		return NICREF_RULE_NONE;
	case MP_ALLOCATION_SUCCESS:
		/* §8.3: after TEARDOWN_HCA pages only go back to the host. */
		if (c->dev->hca.state == HCA_TORN_DOWN)
			return NICREF_RULE_HCA_TORN_DOWN;
		if ((uint64_t)PRM_SIZE_manage_pages_in + (uint64_t)n * PAS_BYTES > c->input_length)
			return NICREF_RULE_PAGES_ENTRIES_BEYOND_INPUT;
		return give_pages(c, n);
	default:
		return return_pages(c, n);
	}
}

enum nicref_cmd_rule cmd_manage_pages(struct cmd_ctx *c)
{
	enum nicref_cmd_rule r = manage(c);
	struct hca *h = &c->dev->hca;
	if (r == NICREF_RULE_NONE) {
		/* PRM L3969, L5388: each MANAGE_PAGES re-arms the Page Request event; a request the
		 * pages now held answer is done (D-PG-4). */
		h->page_request_armed = true;
		h->page_request_posted = false;
		if (c->dev->core.pages.count >= h->pages_wanted)
			h->pages_wanted = 0;
	}
	return r;
}
