/* The receive engine's state (eth/rx.h): made with the send engine's (eth/eth_subsys.c), its
 * WQE buffer sized from the capabilities so that no frame allocates (D-RX-11). */
#include <stdlib.h>

#include "eth/lro.h"
#include "eth/rx.h"

struct rx_state *rx_create(struct nicref_dev *dev)
{
	struct rx_state *rs = calloc(1, sizeof *rs);
	if (!rs)
		return NULL;
	/* T145 74h log_max_stride_sz_rq: the largest receive WQE stride (RQ and RMP). A profile
	 * can only lower it, so the maximum sizes the buffer. */
	rs->wqe_cap = (size_t)1 << CAPS_MAX(dev, CAP_GENERAL, hca_cap, log_max_stride_sz_rq);
	rs->wqe = malloc(rs->wqe_cap);
	rs->lro = lro_create(dev); /* PRM §3.3.6.2: the sessions, all of them now */
	if (!rs->wqe || !rs->lro) {
		rx_destroy(rs);
		return NULL;
	}
	return rs;
}

void rx_destroy(struct rx_state *rs)
{
	if (!rs)
		return;
	lro_destroy(rs->lro);
	free(rs->wqe);
	free(rs);
}

void rx_reset(struct rx_state *rs)
{
	rs->frames_in = rs->cqes = rs->drops = 0;
	lro_reset(rs->lro);
}

int rx_check(const struct nicref_dev *dev, const struct rx_state *rs, char *buf, size_t len)
{
	const struct eth_state *es = dev->datapath.state;
	/* The send path's hook may be another's (a test watching the loopback); the state is
	 * the engine's. */
	if (!rs->wqe || rs->wqe_cap < 16 || es->rx_state != rs)
		return dev_broken(buf, len, NICREF_INV_RX_STATE, "WQE buffer %zu bytes%s",
				  rs->wqe_cap, es->rx_state != rs ? ", not the engine's state" : "");
	return lro_check(dev, rs->lro, buf, len);
}

void rx_counters(const struct rx_state *rs, struct nicref_stats *out)
{
	out->frames_in += rs->frames_in;
	out->rx_cqes += rs->cqes;
	out->rx_drops += rs->drops;
	lro_counters(rs->lro, out);
}

struct rx_state *rx_state_of(struct nicref_dev *dev)
{
	struct eth_state *es = dev->datapath.state;
	return es ? es->rx_state : NULL;
}
