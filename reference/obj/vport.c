/* The function's NIC vport (PRM §7.3, §12.16, §12.17): its state at power-on and reset, the
 * accessors the SQ and data path use, the traffic counters and the invariants. The commands
 * are in obj/vport_cmd.c (vport, context, counters) and obj/vport_l2.c (L2 table). */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"

int vport_dev_init(struct nicref_dev *dev)
{
	dev->vport = calloc(1, sizeof *dev->vport);
	if (!dev->vport)
		return -1;
	vport_dev_reset(dev);
	return 0;
}

void vport_dev_fini(struct nicref_dev *dev)
{
	if (!dev->vport)
		return;
	vport_dev_reset(dev);
	free(dev->vport);
	dev->vport = NULL;
}

void vport_dev_reset(struct nicref_dev *dev)
{
	struct vport *v = dev->vport;
	if (!v)
		return;
	for (unsigned t = 0; t < VPORT_LISTS; t++)
		dev_free(dev, v->list[t]);
	l2_table_clear(&v->l2);
	memset(v, 0, sizeof *v);
	/* D-VP-3: the vport starts administratively up (T475 "0x1: up"), so its state follows
	 * the physical port; nothing in §8.2 asks the driver to raise it. */
	v->admin_state = 1;
	/* T16: "In query, 0 means MTU of Vport equal to external physical port": no MTU of its
	 * own until MODIFY_NIC_VPORT_CONTEXT sets one. */
	v->mtu = 0;
	/* D-VP-3: the device's own values, which no field_select bit of T483 modifies; the
	 * inline mode is the profile's (L2 by default). */
	v->min_wqe_inline_mode = dev->core.cfg.profile.vport_min_wqe_inline_mode;
	v->permanent_address = VPORT_PERMANENT_ADDRESS;
}

/* PRM §7.3 T16 00h[26:24]. */
unsigned vport_min_wqe_inline_mode(const struct nicref_dev *dev)
{
	return dev->vport ? dev->vport->min_wqe_inline_mode : 0;
}

bool vport_is_up(struct nicref_dev *dev)
{
	/* T473 "state: port state" against "admin_state: the state required by SW": the vport is
	 * up when SW wants it up and its port carries traffic (D-VP-2). It exists only from
	 * INIT_HCA to TEARDOWN_HCA (§12.17: its counters are "created" with it; TEARDOWN_HCA
	 * returns it to power-on, -408): before and after, the data path finds it down. */
	const struct port *p = port_get(dev, VPORT_PORT);
	return dev->vport && dev->hca.state == HCA_INITIALIZED && dev->vport->admin_state == 1 &&
	       p && p->oper_status == PORT_OPER_UP;
}

void vport_count(struct nicref_dev *dev, enum vport_counter c, uint64_t octets)
{
	/* T486/T491: every counter counts packets and octets. */
	NICREF_ASSERT((unsigned)c < VPORT_CNT_COUNT && dev->vport);
	dev->vport->cnt[c].packets++;
	dev->vport->cnt[c].octets += octets;
}

enum vport_counter vport_counter_of(bool rx, const uint8_t *frame, size_t len)
{
	/* T486 "Ethernet broadcast/unicast/multicast": the destination address's I/G bit (IEEE
	 * 802.3 §3.2.3), broadcast being all ones. */
	static const enum vport_counter by[2][3] = {
		{ VPORT_CNT_TX_UNICAST, VPORT_CNT_TX_MULTICAST, VPORT_CNT_TX_BROADCAST },
		{ VPORT_CNT_RX_UNICAST, VPORT_CNT_RX_MULTICAST, VPORT_CNT_RX_BROADCAST },
	};
	unsigned cast = 0;
	if (len >= 6 && (frame[0] & 1)) {
		cast = 2;
		for (unsigned i = 0; i < 6; i++)
			if (frame[i] != 0xFF)
				cast = 1;
	}
	return by[rx][cast];
}

struct vport_traffic vport_counter_get(const struct nicref_dev *dev, enum vport_counter c)
{
	NICREF_ASSERT((unsigned)c < VPORT_CNT_COUNT && dev->vport);
	return dev->vport->cnt[c];
}

/* Most elements each list may hold: 2^HCA_CAP.log_max_<list> (T16, D-VP-1). */
uint64_t vport_list_max(const struct nicref_dev *dev, enum vport_list t)
{
	uint64_t log;
	if (t == VPORT_LIST_UC)
		log = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_current_uc_list);
	else if (t == VPORT_LIST_MC)
		log = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_current_mc_list);
	else
		log = CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_vlan_list);
	return 1ull << log; /* the fields are 5 bits wide (T145) */
}

uint64_t vport_l2_table_size(const struct nicref_dev *dev)
{
	/* T145 90h[28:24]: 2^log_max_l2_table entries (D-L2-1). */
	return 1ull << CAPS_CUR(dev, CAP_GENERAL, hca_cap, log_max_l2_table);
}

int vport_dev_check(const struct nicref_dev *dev)
{
	const struct vport *v = dev->vport;
	if (!v)
		return -400; /* vport_dev_init allocates it for the device's life */
	if (v->admin_state > 1)
		return -401; /* T475: 0 or 1 */
	if (v->min_wqe_inline_mode > 7 || v->min_wqe_inline_mode == 4)
		return -402; /* §7.9.3.1: modes 0-3 and 5-7 */
	if (v->permanent_address >> 48)
		return -403; /* T19: 48 bits */
	for (unsigned t = 0; t < VPORT_LISTS; t++) {
		if (v->list_len[t] > vport_list_max(dev, (enum vport_list)t) ||
		    v->list_len[t] > 0xFFF)
			return -404; /* T16 allowed_list_size bound (D-VP-1) */
		if (v->list_len[t] && !v->list[t])
			return -405;
		uint64_t width_mask = t == VPORT_LIST_VLAN ? 0xFFFull : 0xFFFFFFFFFFFFull;
		for (uint32_t i = 0; i < v->list_len[t]; i++)
			if (v->list[t][i] & ~width_mask)
				return -406; /* T17/T19 element wider than its field */
	}
	if (!CAPS_CUR(dev, CAP_GENERAL, hca_cap, vport_group_manager) && v->l2.n)
		return -407; /* §12.15: only a vport group manager sets L2 entries */
	if (dev->hca.state != HCA_INITIALIZED) {
		/* Outside INIT_HCA..TEARDOWN_HCA no command reaches the vport, and TEARDOWN_HCA
		 * returned it to its power-on values. */
		bool power_on = v->admin_state == 1 && v->mtu == 0 && !v->promisc_uc &&
				!v->promisc_mc && !v->promisc_all && !v->roce_en && v->l2.n == 0;
		for (unsigned t = 0; t < VPORT_LISTS; t++)
			power_on = power_on && v->list_len[t] == 0;
		for (unsigned k = 0; k < VPORT_CNT_COUNT; k++)
			power_on = power_on && v->cnt[k].packets == 0 && v->cnt[k].octets == 0;
		if (!power_on)
			return -408;
	}
	return l2_table_check(&v->l2, vport_l2_table_size(dev));
}
