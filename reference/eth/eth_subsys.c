/* The Ethernet data path's row of the subsystem table (core/subsys.h; placed by
 * device/device.c after the control plane it builds on): its state made at create, with scratch
 * buffers sized from the capabilities so no WQE or frame allocates (D-TX-11); the data-path hook
 * it hands the control plane (cmd/ctl_dev.h); power-on; invariants; counters. */
#include <stdlib.h>

#include "eth/eth.h"
#include "eth/lro.h"
#include "eth/rx.h"

static int eth_create(struct nicref_dev *dev, void **state)
{
	struct eth_state *es = calloc(1, sizeof *es);
	if (!es)
		return -1;
	*state = es;
	/* T147 max_lso_cap: the largest LSO message is 2^max_lso_cap bytes of payload; its
	 * headers are inline, at most the largest WQE (max_wqe_sz_sq). A profile can only lower
	 * the capability (nicref_profile_cap_set), so the maximum sizes the buffers. */
	uint64_t log_lso =
	    CAPS_MAX(dev, CAP_ETH_OFFLOAD, per_protocol_networking_offload_caps, max_lso_cap);
	es->pkt_cap = ((size_t)1 << log_lso) + TX_WQE_MAX;
	es->frame_cap = es->pkt_cap;
	es->pkt = malloc(es->pkt_cap);
	es->frame = malloc(es->frame_cap);
	if (!es->pkt || !es->frame)
		return -1;
	/* The receive engine (eth/rx.h) takes the frames the send path loops back (§3.4). */
	es->rx_state = rx_create(dev);
	if (!es->rx_state)
		return -1;
	es->rx_loopback = rx_loopback;
	dev->datapath.sq_run = eth_sq_run;
	dev->datapath.state = es;
	return 0;
}

static void eth_destroy(struct nicref_dev *dev, void *state)
{
	struct eth_state *es = state;
	if (dev->datapath.state == es)
		dev->datapath = (struct dev_datapath){ 0 };
	if (!es)
		return;
	rx_destroy(es->rx_state);
	free(es->pkt);
	free(es->frame);
	free(es);
}

static void eth_reset(struct nicref_dev *dev, void *state)
{
	(void)dev;
	struct eth_state *es = state;
	es->wqes = es->frames = es->discards = 0;
	rx_reset(es->rx_state);
}

static int eth_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	const struct eth_state *es = state;
	if (!es->pkt || !es->frame || es->pkt_cap <= TX_WQE_MAX || es->frame_cap < es->pkt_cap)
		return dev_broken(buf, len, NICREF_INV_ETH_SCRATCH,
				  "packet buffer %zu bytes, frame buffer %zu bytes", es->pkt_cap,
				  es->frame_cap);
	if (dev->datapath.state != es || dev->datapath.sq_run != eth_sq_run)
		return dev_broken(buf, len, NICREF_INV_ETH_HOOK,
				  "the data-path hook is not the send engine's");
	/* Frames and drops come from WQEs only. */
	if (es->wqes == 0 && (es->frames || es->discards))
		return dev_broken(buf, len, NICREF_INV_ETH_FRAMES_FROM_WQES,
				  "%llu frames and %llu discards from no WQE",
				  (unsigned long long)es->frames, (unsigned long long)es->discards);
	return rx_check(dev, es->rx_state, buf, len);
}

static void eth_counters(const struct nicref_dev *dev, const void *state, struct nicref_stats *out)
{
	(void)dev;
	const struct eth_state *es = state;
	out->send_wqes += es->wqes;
	out->frames_out += es->frames;
	out->tx_discards += es->discards;
	rx_counters(es->rx_state, out);
}

/* The LRO settings of the profile (D-LRO-1, D-LRO-6): a session table of 1 to 4096, a
 * minimum segment above 0 (PRM §3.3.6.2 "lro_min_mss_size > 0"), a mode of T147's two. */
static int eth_profile_ok(const struct nicref_profile *p)
{
	return p->lro_max_sessions >= 1 && p->lro_max_sessions <= LRO_MAX_SESSIONS &&
	       p->lro_min_mss_size >= 1 && p->lro_max_msg_sz_mode <= 1;
}

/* Virtual time moved: LRO sessions whose timer expired complete (D-LRO-5). */
static struct lro_state *lro_of(void *state)
{
	struct eth_state *es = state;
	struct rx_state *rs = es ? es->rx_state : NULL;
	return rs ? rs->lro : NULL; /* NULL only while a failed create is undone */
}

static void eth_tick(struct nicref_dev *dev, void *state)
{
	struct lro_state *ls = lro_of(state);
	if (ls)
		lro_tick(dev, ls);
}

/* The earliest LRO session deadline: the clock stops there (core/subsys.h). */
static bool eth_next_deadline(const struct nicref_dev *dev, const void *state, uint64_t *t)
{
	(void)dev;
	const struct eth_state *es = state;
	const struct rx_state *rs = es ? es->rx_state : NULL;
	return rs && rs->lro && lro_next_deadline(rs->lro, t);
}

/* The control plane changes a TIR or an RQ: its LRO sessions complete first (D-LRO-10). */
static void eth_notify(struct nicref_dev *dev, void *state, enum dev_note note, uint32_t num)
{
	struct lro_state *ls = lro_of(state);
	if (ls)
		lro_notify(dev, ls, note, num);
}

const struct dev_subsys eth_subsys = {
	.name = "eth",
	.profile_ok = eth_profile_ok,
	.create = eth_create,
	.destroy = eth_destroy,
	.reset = eth_reset,
	.tick = eth_tick,
	.next_deadline = eth_next_deadline,
	.notify = eth_notify,
	.check = eth_check,
	.counters = eth_counters,
	.snap_save = eth_snap_save, /* eth/eth_snap.c */
	.snap_restore = eth_snap_restore,
	.snap_free = eth_snap_free,
};
