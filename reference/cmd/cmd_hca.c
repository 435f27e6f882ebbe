/* The HCA lifecycle commands: ENABLE_HCA, INIT_HCA, TEARDOWN_HCA and DISABLE_HCA (PRM §8.2,
 * §8.3, §12.3.6-§12.3.9). Dispatch has already checked that each is allowed in the current
 * state (D-INIT-2); what is left here are their own rules and effects. */
#include <string.h>

#include "cmd/cmd_table.h"

/* PRM §12.3.8: ENABLE_HCA starts the §8.2 sequence afresh. */
enum nicref_cmd_rule cmd_enable_hca(struct cmd_ctx *c)
{
	struct hca *h = &c->dev->hca;
	h->state = HCA_ENABLED;
	h->issi = 0; /* PRM §7.1: ISSI 0 until SET_ISSI */
	h->issi_set = false;
	h->init_pages_queried = false;
	h->page_request_armed = true; /* PRM §7.13.10.2: until the first request */
	h->page_request_posted = false;
	h->pages_wanted = 0;
	return NICREF_RULE_NONE;
}

/* PRM §12.3.6, §8.2. */
enum nicref_cmd_rule cmd_init_hca(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	const struct nicref_profile *p = &dev->core.cfg.profile;
	/* §8.2: boot pages, then init pages, before INIT_HCA. */
	if (dev->core.pages.count < p->boot_pages + p->init_pages)
		return NICREF_RULE_INIT_PAGES_MISSING;
	/* §7.1: "SW must perform a query of the supported ISSIs ... and then set the
	 * actual_issi". The device goes on at ISSI 0, as it would (D-INIT-9). */
	if (!dev->hca.issi_set)
		dev_violation(dev, NICREF_VIO_ISSI_NOT_SET, dev->hca.issi);
	obj_open_tables(dev);
	dev->hca.state = HCA_INITIALIZED;
	return NICREF_RULE_NONE;
}

/* PRM §12.3.7 T170: profile 0 graceful close, 1 panic close. */
enum nicref_cmd_rule cmd_teardown_hca(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	unsigned profile = (unsigned)PRM_GET(teardown_hca_in, profile, c->in, c->in_len);
	if (profile > 1)
		return NICREF_RULE_TEARDOWN_BAD_PROFILE;
	/* §12.3.7 L5983: before a graceful close SW destroys its queues (D-INIT-3); a panic close
	 * takes them down with the rest. */
	if (profile == 0 &&
	    (dev_obj_count(dev, OBJ_EQ) || dev_obj_count(dev, OBJ_CQ) ||
	     dev_obj_count(dev, OBJ_SQ) || dev_obj_count(dev, OBJ_RQ) || dev_obj_count(dev, OBJ_RMP)))
		return NICREF_RULE_OBJECTS_LIVE_AT_TEARDOWN;
	/* "The command releases all HCA allocated resources." */
	hca_release_objects(dev);
	if (profile == 1) {
		/* Panic: bus mastering stops and the ports go down; later doorbells are dropped
		 * (cmd/cmdq.c). This command's own completion is still written (D-INIT-8). */
		port_panic(dev);
		dev->hca.state = HCA_PANIC;
		/* The commands waiting for pages (D-PG-6) are dropped unfinished: a device that
		 * no longer masters the bus writes no completion; reset gives the queue back. */
		dev->hca.slots_waiting = 0;
	} else {
		dev->hca.state = HCA_TORN_DOWN;
	}
	return NICREF_RULE_NONE;
}

/* PRM §12.3.9, §8.3: after TEARDOWN_HCA and page reclaim (or straight after ENABLE_HCA). */
enum nicref_cmd_rule cmd_disable_hca(struct cmd_ctx *c)
{
	struct nicref_dev *dev = c->dev;
	/* §8.3 reclaims every page between TEARDOWN_HCA and DISABLE_HCA. The device lets go of
	 * the rest: they are the host's again. A start-up abandoned before INIT_HCA could not
	 * reclaim what the device still needed, so that is no violation (D-INIT-7). */
	if (dev->core.pages.count && dev->hca.state == HCA_TORN_DOWN)
		dev_violation(dev, NICREF_VIO_PAGES_NOT_RECLAIMED, dev->core.pages.count);
	page_pool_clear(&dev->core.pages);
	hca_release_objects(dev);
	caps_reset(dev);
	dev->hca.state = HCA_DISABLED;
	return NICREF_RULE_NONE;
}
