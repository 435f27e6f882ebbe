/* The lifecycle state (PRM §8.2-§8.3; D-INIT-2) as the device holds, reports and checks it:
 * power-on, nicref_hca_info, the invariants of the state and of the pages it holds. Its row of
 * the subsystem table (core/subsys.h); the commands that move it are cmd/cmd_hca.c. */
#include <string.h>

#include "cmd/ctl_dev.h"

static void hca_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	memset(&dev->hca, 0, sizeof dev->hca);
	dev->hca.state = HCA_DISABLED;
}

const char *dev_state_name(enum hca_state st)
{
	static const char *const names[] = { "DISABLED", "ENABLED", "INITIALIZED", "TORN_DOWN",
					     "PANIC" };
	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "(not a state)";
}

static int hca_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	(void)state;
	const struct page_pool *pages = &dev->core.pages;
	const struct nicref_profile *p = &dev->core.cfg.profile;
	if ((unsigned)dev->hca.state > HCA_PANIC)
		return dev_broken(buf, len, NICREF_INV_HCA_STATE_VALID, "HCA state %u",
				  (unsigned)dev->hca.state);
	/* pages: within the limit, and none held while disabled (D-INIT-7) */
	if (pages->count > pages->capacity || (dev->hca.state == HCA_DISABLED && pages->count))
		return dev_broken(buf, len, NICREF_INV_PAGES_WITHIN_LIMIT,
				  "%u pages held, pool of %u, HCA %s", pages->count,
				  pages->capacity, dev_state_name(dev->hca.state));
	/* INIT_HCA needs the boot and init pages, and they stay until TEARDOWN_HCA */
	if (dev->hca.state == HCA_INITIALIZED && pages->count < p->boot_pages + p->init_pages)
		return dev_broken(buf, len, NICREF_INV_INIT_PAGES_HELD,
				  "INITIALIZED with %u pages, boot %u + init %u", pages->count,
				  p->boot_pages, p->init_pages);
	/* D-PG-6: a command waits for the pages of an object, and objects exist only while
	 * INITIALIZED; TEARDOWN_HCA completes (graceful) or drops (panic) what still waits, so
	 * no slot stays the device's into the next ENABLE_HCA. */
	if (dev->hca.slots_waiting && dev->hca.state != HCA_INITIALIZED)
		return dev_broken(buf, len, NICREF_INV_PAGE_WAIT_ONLY_INITIALIZED,
				  "slots 0x%x wait for pages, HCA %s", dev->hca.slots_waiting,
				  dev_state_name(dev->hca.state));
	return 0;
}

const struct dev_subsys hca_subsys = {
	.name = "hca",
	.reset = hca_reset,
	.check = hca_check,
};

void nicref_hca_info(const struct nicref_dev *dev, struct nicref_hca_info *out)
{
	memset(out, 0, sizeof *out);
	out->state = (enum nicref_hca_state)dev->hca.state;
	out->issi = dev->hca.issi;
	out->pages = dev->core.pages.count;
	for (unsigned k = 0; k < 3; k++)
		out->query_pages[k] = pages_query(dev, k + 1);
	out->pds = dev_obj_count(dev, OBJ_PD);
	out->uars = dev_obj_count(dev, OBJ_UAR);
	out->tds = dev_obj_count(dev, OBJ_TD);
	out->mkeys = dev_obj_count(dev, OBJ_MKEY);
	out->eqs = dev_obj_count(dev, OBJ_EQ);
	out->cqs = dev_obj_count(dev, OBJ_CQ);
	out->tiss = dev_obj_count(dev, OBJ_TIS);
	out->sqs = dev_obj_count(dev, OBJ_SQ);
	out->rmps = dev_obj_count(dev, OBJ_RMP);
	out->rqs = dev_obj_count(dev, OBJ_RQ);
	out->rqts = dev_obj_count(dev, OBJ_RQT);
	out->tirs = dev_obj_count(dev, OBJ_TIR);
}
