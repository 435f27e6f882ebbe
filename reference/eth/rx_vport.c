/* Vport acceptance (PRM §7.3 T16, §12.16; D-RX-6, docs/rx.md): whether the function's NIC
 * vport takes a frame that arrived on its port, before any flow table sees it. The vport is
 * down (D-VP-2): nothing. promisc_all "allow all traffic". Otherwise the destination address
 * decides: broadcast always; a unicast address the function owns (its permanent address, its
 * current_uc_mac_address list, a valid L2 table entry with the frame's VLAN where the entry
 * names one: D-L2-2, as the send path's loopback decides) or any unicast under promisc_uc; a
 * multicast address of the current_mc_mac_address list or any under promisc_mc. Then the vlan
 * list: when it is not empty, a frame whose outermost C-VLAN tag names a VLAN not in it is not
 * taken (T16 promisc_uc/_mc allow any address "on vlan list"); untagged frames are. */
#include "eth/pkt_hdr.h"
#include "eth/rx.h"

static uint64_t mac_at(const uint8_t *p)
{
	return (uint64_t)hdr_get16(p) << 32 | hdr_get32(p + 2); /* the six bytes, big-endian */
}

static bool in_list(const struct vport *v, enum vport_list t, uint64_t x)
{
	for (uint32_t i = 0; i < v->list_len[t]; i++)
		if (v->list[t][i] == x)
			return true;
	return false;
}

/* The frame's outermost C-VLAN (802.1Q TPID 0x8100): its VID, or -1 untagged. */
static int frame_vid(const uint8_t *f, size_t len)
{
	if (len < RX_TAG_AT + RX_TAG_LEN || hdr_get16(f + RX_TAG_AT) != RX_CTAG_TPID)
		return -1;
	return hdr_get16(f + RX_TAG_AT + 2) & 0xFFF;
}

static bool address_ok(const struct vport *v, const uint8_t *f, int vid)
{
	uint64_t mac = mac_at(f);
	if (mac == 0xFFFFFFFFFFFFull)
		return true; /* broadcast */
	if (f[0] & 1)
		return v->promisc_mc || in_list(v, VPORT_LIST_MC, mac);
	return v->promisc_uc || mac == v->permanent_address || in_list(v, VPORT_LIST_UC, mac) ||
	       l2_table_has_mac(&v->l2, mac, vid >= 0, vid >= 0 ? (uint16_t)vid : 0);
}

enum rx_drop_reason rx_vport_accept(struct nicref_dev *dev, const uint8_t *frame, size_t len,
				    const struct pkt_info *pi)
{
	(void)pi;
	return rx_vport_accept_owned(dev, frame, len, false);
}

/* owned: the caller's layer knows the destination address for one of the function's own (the
 * RoCE transport: the MAC of the GID entry the frame is addressed to, D-ROCE-23); the vlan list
 * still applies. */
enum rx_drop_reason rx_vport_accept_owned(struct nicref_dev *dev, const uint8_t *frame,
					  size_t len, bool owned)
{
	const struct vport *v = dev->vport;
	if (!v || !vport_is_up(dev))
		return RX_DROP_VPORT_DOWN; /* D-VP-2 */
	if (v->promisc_all)
		return 0; /* T16 "allow all traffic" */
	int vid = frame_vid(frame, len);
	if (!owned && !address_ok(v, frame, vid))
		return RX_DROP_VPORT_FILTER;
	if (vid >= 0 && v->list_len[VPORT_LIST_VLAN] && !in_list(v, VPORT_LIST_VLAN, (uint64_t)vid))
		return RX_DROP_VPORT_FILTER;
	return 0;
}
