/* Which frames an SQ sends also go to the receive side (PRM §3.4: local consumers "communicate
 * via a local loopback mechanism"; the PRM does not say which frames loop). D-TX-5 (docs/tx.md)
 * decides: a frame for an address the function owns stays local, a multicast
 * or broadcast one goes both ways, any other goes to the wire (and loops too under
 * promisc_all). Whether a TIR then takes a looped frame (its transport domain and self_lb_en,
 * §3.4, T45) is the receive path's decision; the frame carries the sender's domain to it. */
#include "eth/eth.h"

static uint64_t mac_at(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 6; i++)
		v = v << 8 | p[i];
	return v;
}

/* The addresses the function owns (D-L2-2, docs/vport.md): its permanent address, its current
 * unicast list (T16), the valid entries of its L2 table (§12.15; with the frame's VLAN where an
 * entry names one). */
static bool own_address(const struct vport *v, uint64_t mac, const uint8_t *frame, size_t len)
{
	if (mac == v->permanent_address)
		return true;
	for (uint32_t i = 0; i < v->list_len[VPORT_LIST_UC]; i++)
		if (v->list[VPORT_LIST_UC][i] == mac)
			return true;
	bool tagged = len >= 16 && frame[12] == 0x81 && frame[13] == 0x00;
	uint16_t vid = tagged ? (uint16_t)((frame[14] & 0x0F) << 8 | frame[15]) : 0;
	return l2_table_has_mac(&v->l2, mac, tagged, vid);
}

enum tx_lb tx_loopback_decide(struct nicref_dev *dev, const uint8_t *frame, size_t len)
{
	const struct vport *v = dev->vport;
	if (len < 6 || !v)
		return TX_LB_WIRE;
	if (frame[0] & 1)
		return TX_LB_BOTH; /* group address bit: multicast, broadcast */
	if (own_address(v, mac_at(frame), frame, len))
		return TX_LB_LOCAL;
	return v->promisc_all ? TX_LB_BOTH : TX_LB_WIRE; /* T16 promisc_all "all traffic" */
}
