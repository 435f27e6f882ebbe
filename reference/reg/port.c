/* The port model behind the network port registers (PRM §11.1): the link state machine of
 * PAOS, the speed PTYS trains at, and the PPCNT counters. Decisions: docs/registers.md. */
#include <string.h>

#include "cmd/ctl_dev.h"

/* D-REG-20: the power-on settings, which the PRM leaves to the device. max_mtu is the largest
 * L3 MTU a ConnectX-4 Ethernet port takes (9978, the public mlx5 figure: its netdev MTU, PMTU
 * max_mtu 10000 less 22 bytes of L2 in the driver's reading, D-REG-5); admin_mtu starts at the
 * Ethernet standard 1500. */
#define PORT_MAX_MTU 9978
#define PORT_DEFAULT_MTU 1500

/* PRM §11.1.2 T108 eth_proto_capability: the bit of each protocol and its speed in Gb/s
 * (SGMII counted as 1 Gb/s). T108 glues "Bit 18 - 50GBase-SR2" and "Bit 16 - 40GBase LR4/ER4"
 * into one line; both are bits. */
static const uint8_t proto_gbps[32] = {
	[0] = 1,   /* SGMII */
	[1] = 1,   /* 1000Base KX */
	[2] = 10,  /* 10GBase-CX4 */
	[3] = 10,  /* 10GBase KX4 */
	[4] = 10,  /* 10GBase KR */
	[6] = 40,  /* 40GBase CR4 */
	[7] = 40,  /* 40GBase KR4 */
	[12] = 10, /* 10GBase CR */
	[13] = 10, /* 10GBase SR */
	[14] = 10, /* 10GBase ER/LR */
	[15] = 40, /* 40GBase SR4 */
	[16] = 40, /* 40GBase LR4/ER4 */
	[18] = 50, /* 50GBase-SR2 */
	[20] = 100, /* 100GBase CR4 */
	[21] = 100, /* 100GBase SR4 */
	[22] = 100, /* 100GBase KR4 */
	[27] = 25, /* 25GBase-CR */
	[28] = 25, /* 25GBase-KR */
	[29] = 25, /* 25GBase-SR */
	[30] = 50, /* 50GBase-CR2 */
	[31] = 50, /* 50GBase-KR2 */
};

uint32_t port_proto_all(void)
{
	uint32_t m = 0;
	for (unsigned b = 0; b < 32; b++)
		if (proto_gbps[b])
			m |= 1u << b;
	return m;
}

uint32_t port_proto_best(uint32_t mask)
{
	unsigned best = 32;
	for (unsigned b = 0; b < 32; b++)
		if ((mask >> b & 1) && proto_gbps[b] &&
		    (best == 32 || proto_gbps[b] >= proto_gbps[best]))
			best = b;
	return best == 32 ? 0 : 1u << best;
}

struct port *port_get(struct nicref_dev *dev, unsigned local_port)
{
	if (local_port == 0 || local_port > dev->core.cfg.profile.num_ports)
		return NULL;
	return &dev->port[local_port - 1];
}

static struct port *port_must(struct nicref_dev *dev, unsigned local_port)
{
	struct port *p = port_get(dev, local_port);
	NICREF_ASSERT(p != NULL);
	return p;
}

/* PRM §7.13.9.2: the Port State Change event (type 09h) ev, EQ_EVENT_PORT_ACTIVE or _DOWN:
 * its sub_type is its row's (T88, D-REG-23), port_num at event data 08h[31:28] (T86/T87). The
 * port_event trace records the change in any case; the EQE exists only when an EQ takes the
 * type (D-EQ-6). */
static void port_state_event(struct nicref_dev *dev, unsigned local_port, enum eq_event ev)
{
	dev_emit2(dev, NICREF_EV_PORT_EVENT, local_port, eq_event_desc(ev)->sub_type);
	if (eq_event_mapped(dev, ev)) {
		uint8_t eqe[EQE_SIZE] = { 0 };
		PRM_SET(eqe_port_state, port_num, eqe, sizeof eqe, local_port & 0xFu);
		eq_post_event(dev, ev, eqe);
	}
}

/* Whether the administrative state lets the link up (T110): admin 1, or 3 until its link has
 * gone down once. */
static bool admin_lets_up(const struct port *p)
{
	return p->admin_status == PORT_ADMIN_UP ||
	       (p->admin_status == PORT_ADMIN_UP_ONCE && !p->up_once_failed);
}

/* Whether an up link stays up: the partner is still there and still runs the protocol the link
 * trained at. eth_proto_admin is not looked at: PRM §11.1.2 note before T107, the admin fields
 * "shall only take effect during link training and negotiation. When set while the link is up,
 * the changes will not take effect unless the port goes back to training". */
bool port_link_holds(const struct port *p)
{
	return admin_lets_up(p) && p->peer_present && (p->eth_proto_oper & p->peer_proto) != 0;
}

/* Whether a down link trains now: with the admin protocols the partner also has (§11.1.2). */
bool port_link_trains(const struct port *p)
{
	return admin_lets_up(p) && p->peer_present &&
	       port_proto_best(p->eth_proto_admin & p->peer_proto) != 0;
}

void port_update_link(struct nicref_dev *dev, unsigned local_port)
{
	struct port *p = port_must(dev, local_port);
	if (p->oper_status == PORT_OPER_UP) {
		if (port_link_holds(p))
			return;
		/* T110 "up once": "if the port goes up and then down, the operational status
		 * should go to 'down by port failure' and can only go back up upon explicit
		 * command" -- whatever took it down (the partner, or anything else but a PAOS
		 * write, which sets another admin_status first). */
		if (p->admin_status == PORT_ADMIN_UP_ONCE)
			p->up_once_failed = true;
		p->eth_proto_oper = 0;
		p->oper_status = p->up_once_failed ? PORT_OPER_FAILED : PORT_OPER_DOWN;
		port_state_event(dev, local_port, EQ_EVENT_PORT_DOWN);
		/* Falls through: an admin-up port whose partner changed goes back to training
		 * at once and may come up again with the new common set. */
	}
	if (port_link_trains(p)) {
		/* Link training (§11.1.2 note): the admin protocols take effect now. */
		p->eth_proto_oper = port_proto_best(p->eth_proto_admin & p->peer_proto);
		p->oper_status = PORT_OPER_UP;
		port_state_event(dev, local_port, EQ_EVENT_PORT_ACTIVE);
		return;
	}
	/* D-REG-15: 2 <-> 4 changes are not Port State Change events (T88 says up or down). */
	p->oper_status = p->up_once_failed ? PORT_OPER_FAILED : PORT_OPER_DOWN;
}

void port_set_admin(struct nicref_dev *dev, unsigned local_port, enum port_admin admin)
{
	struct port *p = port_must(dev, local_port);
	p->admin_status = (uint8_t)admin;
	p->up_once_failed = false;
	port_update_link(dev, local_port);
}

void port_set_peer(struct nicref_dev *dev, unsigned local_port, bool present, uint32_t proto)
{
	struct port *p = port_must(dev, local_port);
	p->peer_present = present;
	p->peer_proto = proto;
	port_update_link(dev, local_port);
}

/* The profile's ports: 1 to NICREF_MAX_PORTS (PRM local_port numbers them from 1). */
static int port_profile_ok(const struct nicref_profile *p)
{
	return p->num_ports != 0 && p->num_ports <= NICREF_MAX_PORTS;
}

/* Power-on state of every port (D-REG-20): admin up, the partner present, so the link is up at
 * the best common speed. No event: nothing changed, the device just started. */
static void port_reset(struct nicref_dev *dev, void *state)
{
	(void)state;
	memset(dev->port, 0, sizeof dev->port);
	for (unsigned i = 0; i < NICREF_MAX_PORTS; i++) {
		struct port *p = &dev->port[i];
		p->admin_status = PORT_ADMIN_UP;
		p->peer_present = true;
		p->peer_proto = UINT32_MAX;
		p->max_mtu = PORT_MAX_MTU;
		p->admin_mtu = p->oper_mtu = PORT_DEFAULT_MTU;
		p->eth_proto_capability = p->eth_proto_admin = port_proto_all();
		p->oper_status = PORT_OPER_UP;
		p->eth_proto_oper = port_proto_best(p->eth_proto_admin);
	}
}

const struct dev_subsys port_subsys = {
	.name = "port",
	.profile_ok = port_profile_ok,
	.reset = port_reset,
	.check = port_check,
};

void port_panic(struct nicref_dev *dev)
{
	for (unsigned n = 1; n <= dev->core.cfg.profile.num_ports; n++) {
		struct port *p = port_must(dev, n);
		p->admin_status = PORT_ADMIN_DISABLED;
		p->up_once_failed = false;
		port_update_link(dev, n);
	}
}

/* ---- Counters ------------------------------------------------------------------------------ */

uint64_t *port_counter(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
		       unsigned set)
{
	struct port *p = port_must(dev, local_port);
	NICREF_ASSERT(id >= 0 && id < PORT_CNT_COUNT);
	if (id < PORT_CNT_FIRST_PER_PRIO) {
		NICREF_ASSERT(set == 0);
		return &p->cnt_port[id];
	}
	if (id < PORT_CNT_FIRST_PER_TC) {
		NICREF_ASSERT(set < PORT_PRIOS);
		return &p->cnt_prio[set][id - PORT_CNT_FIRST_PER_PRIO];
	}
	NICREF_ASSERT(set < PORT_TCS);
	return &p->cnt_tc[set][id - PORT_CNT_FIRST_PER_TC];
}

void port_counter_add(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
		      unsigned set, uint64_t n)
{
	*port_counter(dev, local_port, id, set) += n; /* 64-bit counters wrap (T114) */
}

uint64_t port_counter_get(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
			  unsigned set)
{
	return *port_counter(dev, local_port, id, set);
}

/* RFC 2819 etherStatsPkts<a>to<b>Octets: the bin of a frame of `octets` (FCS included), or -1
 * below 64 (undersize) and above 10239 (no bin). */
static int size_bin(uint64_t octets)
{
	static const struct {
		uint32_t max;
		enum port_counter id;
	} bins[] = {
		{ 64, PORT_CNT_ether_stats_pkts64octets },
		{ 127, PORT_CNT_ether_stats_pkts65to127octets },
		{ 255, PORT_CNT_ether_stats_pkts128to255octets },
		{ 511, PORT_CNT_ether_stats_pkts256to511octets },
		{ 1023, PORT_CNT_ether_stats_pkts512to1023octets },
		{ 1518, PORT_CNT_ether_stats_pkts1024to1518octets },
		{ 2047, PORT_CNT_ether_stats_pkts1519to2047octets },
		{ 4095, PORT_CNT_ether_stats_pkts2048to4095octets },
		{ 8191, PORT_CNT_ether_stats_pkts4096to8191octets },
		{ 10239, PORT_CNT_ether_stats_pkts8192to10239octets },
	};
	if (octets < 64)
		return -1;
	if (octets == 64)
		return bins[0].id;
	/* 65 to 1023 octets: the bins are the powers of two from 64 on (65-127 holds 2^6 up,
	 * 128-255 2^7 up ...), so the bit length picks the bin without the walk (this runs once
	 * a received frame). */
	if (octets < 1024)
		return bins[63 - __builtin_clzll(octets) - 5].id;
	for (unsigned i = 5; i < sizeof bins / sizeof bins[0]; i++)
		if (octets <= bins[i].max)
			return bins[i].id;
	return -1;
}

#define FCS_BYTES 4

/* RFC 2819 size bins ("including bad packets") and etherStatsUndersizePkts of a received frame
 * of `octets` (FCS included). */
static void port_count_rmon_size(struct nicref_dev *dev, unsigned local_port, uint64_t octets)
{
	int bin = size_bin(octets);
	if (bin >= 0)
		port_counter_add(dev, local_port, (enum port_counter)bin, 0, 1);
	else if (octets < 64)
		port_counter_add(dev, local_port, PORT_CNT_ether_stats_undersize_pkts, 0, 1);
}

void port_count_rx_bad_size(struct nicref_dev *dev, unsigned local_port, uint32_t len,
			    bool over_mtu)
{
	uint64_t octets = (uint64_t)len + FCS_BYTES;
	/* T120 ether_stats_pkts "including bad packets", ether_stats_octets "including those in
	 * bad packets ... including FCS octets" (RFC 2819); the bins and undersize as a good
	 * frame's; ether_stats_oversize_pkts "longer than MTU octets ... but otherwise well
	 * formed" (T120 reads RFC 2819's 1518 as the MTU). No good-frame counter
	 * (aFramesReceivedOK, ifIn*) moves. */
	port_counter_add(dev, local_port, PORT_CNT_ether_stats_pkts, 0, 1);
	port_counter_add(dev, local_port, PORT_CNT_ether_stats_octets, 0, octets);
	if (over_mtu)
		port_counter_add(dev, local_port, PORT_CNT_ether_stats_oversize_pkts, 0, 1);
	port_count_rmon_size(dev, local_port, octets);
}

void port_count(struct nicref_dev *dev, unsigned local_port, enum port_dir dir,
		enum port_cast cast, unsigned prio, uint32_t len)
{
	uint64_t octets = (uint64_t)len + FCS_BYTES;
	NICREF_ASSERT(prio < PORT_PRIOS);
#define ADD(id, n) port_counter_add(dev, local_port, PORT_CNT_##id, 0, (n))
	if (dir == PORT_TX) {
		ADD(a_frames_transmitted_ok, 1);
		ADD(a_octets_transmitted_ok, octets);
		ADD(if_out_octets, octets);
		if (cast == PORT_MULTICAST) {
			ADD(a_multicast_frames_xmitted_ok, 1);
			ADD(if_out_multicast_pkts, 1);
		} else if (cast == PORT_BROADCAST) {
			ADD(a_broadcast_frames_xmitted_ok, 1);
			ADD(if_out_broadcast_pkts, 1);
		} else {
			ADD(if_out_ucast_pkts, 1);
		}
		port_counter_add(dev, local_port, PORT_CNT_tx_octets, prio, octets);
		port_counter_add(dev, local_port, PORT_CNT_tx_frames, prio, 1);
		return;
	}
	ADD(a_frames_received_ok, 1);
	ADD(a_octets_received_ok, octets);
	ADD(if_in_octets, octets);
	/* RFC 2819 etherStats count what the port receives (T120 "received"). */
	ADD(ether_stats_octets, octets);
	ADD(ether_stats_pkts, 1);
	if (cast == PORT_MULTICAST) {
		ADD(a_multicast_frames_received_ok, 1);
		ADD(if_in_multicast_pkts, 1);
		ADD(ether_stats_multicast_pkts, 1);
	} else if (cast == PORT_BROADCAST) {
		ADD(a_broadcast_frames_received_ok, 1);
		ADD(if_in_broadcast_pkts, 1);
		ADD(ether_stats_broadcast_pkts, 1);
	} else {
		ADD(if_in_ucast_pkts, 1);
	}
	port_count_rmon_size(dev, local_port, octets);
#undef ADD
	port_counter_add(dev, local_port, PORT_CNT_rx_octets, prio, octets);
	port_counter_add(dev, local_port, PORT_CNT_rx_frames, prio, 1);
}
