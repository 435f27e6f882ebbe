/* Every drop of the receive path in one place (D-RX-8, docs/rx.md): the rx_drop event and the
 * counters the drop's reason names, from one table. A frame from the wire is port traffic
 * (PPCNT, §11.1.5); a looped frame is not (D-REG-9), so it counts no port counter. */
#include "eth/rx.h"

enum { NO_PORT_CNT = -1 };

static const struct drop_kind {
	enum rx_drop_reason reason;
	/* PPCNT counters of the port-wide groups (-1: none). */
	int port_cnt[3];
	/* PPCNT per_prio rx_discards at the frame's priority (T124). */
	bool prio_discard;
	/* T486 "Received errors" (the vport took the frame and could not deliver it). */
	bool vport_error;
	/* The port received it and refused its size: RFC 2819 counts bad packets too (T120). */
	bool bad_size;
} drop_kinds[] = {
	/* RFC 2863 ifInErrors; and RFC 2819 etherStatsPkts/Octets ("including bad packets") with
	 * etherStatsUndersizePkts ("less than 64 octets ... otherwise well formed"): bad_size. */
	{ RX_DROP_UNDERSIZE, { PORT_CNT_if_in_errors, NO_PORT_CNT, NO_PORT_CNT }, false, false,
	  true },
	/* IEEE 802.3 aFrameTooLongErrors (T116 "exceed the maximum permitted frame size ... (MTU
	 * size)"), RFC 3635 dot3StatsFrameTooLongs, RFC 2863 ifInErrors. */
	{ RX_DROP_OVER_MTU,
	  { PORT_CNT_a_frame_too_long_errors, PORT_CNT_dot3stats_frame_too_long,
	    PORT_CNT_if_in_errors },
	  false, false, true },
	/* RFC 2863 ifInDiscards: "chosen to be discarded even though no errors had been
	 * detected". */
	{ RX_DROP_VPORT_DOWN, { PORT_CNT_if_in_discards, NO_PORT_CNT, NO_PORT_CNT }, false, false,
	  false },
	/* A frame for another station: not this function's traffic, nothing to count. */
	{ RX_DROP_VPORT_FILTER, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, false, false, false },
	{ RX_DROP_STEERING, { PORT_CNT_if_in_discards, NO_PORT_CNT, NO_PORT_CNT }, false, false,
	  false },
	/* §3.4: a TIR that does not take its own domain's frames; the frame is the sender's. */
	{ RX_DROP_SELF_LOOPBACK, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, false, false, false },
	{ RX_DROP_NO_DESTINATION, { PORT_CNT_if_in_discards, NO_PORT_CNT, NO_PORT_CNT }, false,
	  true, false },
	/* No receive buffer: the per-priority rx_discards and the vport's errors. */
	{ RX_DROP_RQ_NOT_RDY, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, true, true, false },
	{ RX_DROP_NO_WQE, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, true, true, false },
	/* The link is down (PAOS oper_status): the MAC received nothing. */
	{ RX_DROP_PORT_DOWN, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, false, false, false },
	/* A fatal error halted the device (PRM §9.2.2, D-H-2): it starts nothing, counts
	 * nothing. */
	{ RX_DROP_HALTED, { NO_PORT_CNT, NO_PORT_CNT, NO_PORT_CNT }, false, false, false },
};

enum port_cast rx_cast(const uint8_t *f, size_t len)
{
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	if (len < 6 || !(f[0] & 1))
		return PORT_UNICAST;
	for (unsigned i = 0; i < 6; i++)
		if (f[i] != bcast[i])
			return PORT_MULTICAST;
	return PORT_BROADCAST;
}

void rx_drop(struct nicref_dev *dev, enum rx_drop_reason reason, uint32_t num,
	     const struct rx_pkt *p)
{
	const struct drop_kind *k = NULL;
	for (size_t i = 0; i < sizeof drop_kinds / sizeof drop_kinds[0]; i++)
		if (drop_kinds[i].reason == reason)
			k = &drop_kinds[i];
	NICREF_ASSERT(k); /* every reason has its row */
	dev_emit3(dev, NICREF_EV_RX_DROP, reason, num, p->len);
	struct rx_state *rs = rx_state_of(dev);
	if (rs)
		rs->drops++;
	if (!p->lb && port_get(dev, p->port)) {
		for (unsigned i = 0; i < 3; i++)
			if (k->port_cnt[i] != NO_PORT_CNT)
				port_counter_add(dev, p->port, (enum port_counter)k->port_cnt[i], 0, 1);
		if (k->bad_size)
			port_count_rx_bad_size(dev, p->port, (uint32_t)p->len,
					       reason == RX_DROP_OVER_MTU);
		if (k->prio_discard)
			port_counter_add(dev, p->port, PORT_CNT_rx_discards,
					 rx_frame_prio(p->frame, p->len), 1);
	}
	/* D-RX-8: octets as D-REG-9 counts them (the FCS included), before VLAN stripping. */
	if (k->vport_error)
		vport_count(dev, VPORT_CNT_RX_ERRORS, (uint64_t)p->len + 4);
}
