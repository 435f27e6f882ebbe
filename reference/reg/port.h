/* Private to libnicref: the port model behind the network port registers of PRM §11.1
 * (T104-T126): administrative and operational status (PAOS), speed (PTYS), MTU (PMTU), flow
 * control settings (PFCC) and the performance counters (PPCNT). Deterministic: nothing here
 * draws on the PRNG. docs/registers.md gives the decisions (D-REG-*). */
#ifndef NICREF_REG_PORT_H
#define NICREF_REG_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prm/layouts_regs.h"

struct nicref_dev;

#define NICREF_MAX_PORTS 4
#define PORT_PRIOS 8 /* PPCNT prio_tc 0-7 (T114), PFCC prio masks (T112) */
#define PORT_TCS 8   /* HCA_CAP max_tc is 4 bits, 0 meaning 8 (T145); the device has 8 */

/* PAOS admin_status and oper_status (T110). */
enum port_admin {
	PORT_ADMIN_UP = 1,
	PORT_ADMIN_DOWN = 2,
	PORT_ADMIN_UP_ONCE = 3,
	PORT_ADMIN_DISABLED = 4, /* by the system: only the hardware sets it */
};
enum port_oper {
	PORT_OPER_UP = 1,
	PORT_OPER_DOWN = 2,
	PORT_OPER_FAILED = 4, /* down by port failure */
};

/* The PPCNT counter groups (T114 grp), in the order their counters are numbered below: the
 * port-wide groups first, then the per-priority and per-traffic-class sets.
 * X(ID, grp, layout suffix) */
#define PORT_CNT_GROUPS(X)                                                                      \
	X(IEEE_802_3, 0x00, ieee_802_3)                                                         \
	X(RFC_2863, 0x01, rfc_2863)                                                             \
	X(RFC_2819, 0x02, rfc_2819)                                                             \
	X(RFC_3635, 0x03, rfc_3635)                                                             \
	X(PER_PRIO, 0x10, per_prio)                                                             \
	X(PER_TC, 0x11, per_tc)

/* Every counter of every group, named as the PRM names it without _high/_low: one identifier
 * per counter of prm/layouts_regs.h (PORT_CNT_a_frames_transmitted_ok, ...). Each group opens
 * with PORT_CNT_FIRST_<group>, which takes the value of its first counter (the _REWIND
 * enumerator steps back so the counter gets the same value). */
#define PORT_CNT_ENUM(a, b, c, n, off) PORT_CNT_##n,
#define PORT_CNT_GROUP_ENUM(ID, grp, sfx)                                                       \
	PORT_CNT_FIRST_##ID, PORT_CNT_REWIND_##ID = PORT_CNT_FIRST_##ID - 1,                    \
			     PRM_C_ppcnt_##sfx(PORT_CNT_ENUM, _, _, _)
enum port_counter { PORT_CNT_GROUPS(PORT_CNT_GROUP_ENUM) PORT_CNT_COUNT };
#undef PORT_CNT_GROUP_ENUM

/* Counters per group: PORT_NCNT_<group>. */
#define PORT_CNT_ONE(a, b, c, n, off) +1
#define PORT_CNT_GROUP_N(ID, grp, sfx) PORT_NCNT_##ID = 0 PRM_C_ppcnt_##sfx(PORT_CNT_ONE, _, _, _),
enum { PORT_CNT_GROUPS(PORT_CNT_GROUP_N) };
#undef PORT_CNT_GROUP_N

struct port {
	/* PAOS (T110) and the link partner. */
	uint8_t admin_status, oper_status;
	bool up_once_failed;   /* admin "up once" went down: stays down until the next write */
	bool peer_present;     /* the link partner is there (port_set_peer) */
	uint32_t peer_proto;   /* what the partner can train at (PTYS bits) */
	/* PMTU (T106), bytes of L3 payload (D-REG-5). */
	uint16_t max_mtu, admin_mtu, oper_mtu;
	/* PTYS (T108): Ethernet protocol bitmasks. */
	uint32_t eth_proto_capability, eth_proto_admin, eth_proto_oper;
	/* PFCC (T112). aptx/aprx mirror pptx/pprx (ppan = 0, D-REG-7). */
	bool pptx, pprx, fctx_disabled;
	uint8_t pfctx, pfcrx;
	uint16_t stall_minor_wm, stall_critical_wm;
	/* PPCNT counters (T115-T126), 64 bits each. */
	uint64_t cnt_port[PORT_CNT_FIRST_PER_PRIO];
	uint64_t cnt_prio[PORT_PRIOS][PORT_NCNT_PER_PRIO];
	uint64_t cnt_tc[PORT_TCS][PORT_NCNT_PER_TC];
};

/* PFCC T112 10h: "The special value of 0, indicates that the ... watermark is inactive. Range:
 * 0x0050 - 0x1F40" (mSec); D-REG-17. */
#define PORT_WM_MIN 0x0050
#define PORT_WM_MAX 0x1F40
static inline bool port_watermark_ok(uint64_t v)
{
	return v == 0 || (v >= PORT_WM_MIN && v <= PORT_WM_MAX);
}

/* Power-on: port_subsys (reg/port.c, cmd/ctl_dev.h) resets every port (D-REG-20). */
/* TEARDOWN_HCA panic close: "Moves the network ports to the Link down state" (PRM §12.3.7):
 * admin_status becomes 4 (disabled by system) and every port that was up goes down, with a
 * Port State Change event each (D-REG-15). */
void port_panic(struct nicref_dev *dev);

/* Ports are numbered as local_port, 1..profile.num_ports (D-REG-4); NULL outside. */
struct port *port_get(struct nicref_dev *dev, unsigned local_port);

/* PAOS with ase = 1: a new administrative state (1, 2 or 3; the caller validated it). Any such
 * write re-arms "up once" after a failure (T110 "can only go back up upon explicit command"). */
void port_set_admin(struct nicref_dev *dev, unsigned local_port, enum port_admin admin);
/* The link partner appears (present, able to train at the PTYS protocols `proto`) or goes
 * away: the hook through which tests, and later the wire model, fail or restore a link. */
void port_set_peer(struct nicref_dev *dev, unsigned local_port, bool present, uint32_t proto);
/* Re-evaluates the link after a setting changed. An up link stays up while admin_status lets
 * it and the partner still runs eth_proto_oper: a PTYS admin change does not retrain it (PRM
 * §11.1.2 note before T107). A down link trains at once with admin ∧ partner. A link that
 * goes down under "up once" latches the failure (T110). Emits the Port State Change event when
 * the port goes up or down (down then up when a partner change makes the link retrain). */
void port_update_link(struct nicref_dev *dev, unsigned local_port);

/* Whether an up link stays up (admin_status lets it, the partner is present and still runs
 * eth_proto_oper), and whether a down link trains now (admin ∧ partner has a protocol). */
bool port_link_holds(const struct port *p);
bool port_link_trains(const struct port *p);
/* The port invariants (NICREF_INVARIANTS_PORT), port_subsys's check (reg/port_check.c). */
int port_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len);

/* The Ethernet protocol the link trains at: the fastest of `mask` (ties: the highest bit,
 * D-REG-6); 0 if mask has none of the PTYS protocols. */
uint32_t port_proto_best(uint32_t mask);
/* The protocols T108 lists, which the model's ports support (D-REG-20). */
uint32_t port_proto_all(void);

/* ---- Counters (PPCNT) ---------------------------------------------------------------------- */

/* Counter `id`; `set` is the priority (PER_PRIO) or traffic class (PER_TC) and 0 for the
 * port-wide groups. A bad port, id or set is a model bug (trap). */
uint64_t *port_counter(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
		       unsigned set);
void port_counter_add(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
		      unsigned set, uint64_t n);
uint64_t port_counter_get(struct nicref_dev *dev, unsigned local_port, enum port_counter id,
			  unsigned set);

/* A good frame on the wire, counted in every group it belongs to (D-REG-9). `len` is the frame
 * from the destination MAC to the end of the payload, without FCS; octet counters and the RFC
 * 2819 size bins count len + 4 (the FCS). */
enum port_dir { PORT_TX, PORT_RX };
enum port_cast { PORT_UNICAST, PORT_MULTICAST, PORT_BROADCAST };
void port_count(struct nicref_dev *dev, unsigned local_port, enum port_dir dir,
		enum port_cast cast, unsigned prio, uint32_t len);
/* A frame the port received and refused for its size (undersize, over the MTU): the RFC 2819
 * counters that count bad packets too (T120), nothing else. */
void port_count_rx_bad_size(struct nicref_dev *dev, unsigned local_port, uint32_t len,
			    bool over_mtu);

#endif
