/* ECN and CNP ([IBTA-A17] §A17.9: RoCEv2 congestion management): the notification point turns
 * a packet that arrives with ECN Congestion Experienced (IP ECN 11b) into a CNP to the QP that
 * sent it, at most one per interval per QP (D-ROCE-9); the reaction point reacts to a CNP for
 * one of its QPs as the profile says (D-ROCE-16): seed 004 (L135-143) halves the outstanding
 * requests of the QP, 16 -> 8, raises an event and restores 16 after CNP_TIMER_THRD; the
 * ConnectX-like profile counts it (its rate limiter, DCQCN, is not modelled). */
#include <string.h>

#include "roce/roce.h"

#define ECN_CE 3u

/* The profile's parameters (docs/roce.md "Device profiles", D-ROCE-9, D-ROCE-16). */
struct cc_profile {
	uint64_t np_interval_ns; /* the least time between two CNPs caused by one QP */
	unsigned rp_reduced;     /* outstanding requests after a CNP (0: no window change) */
	uint64_t rp_restore_ns;  /* CNP_TIMER_THRD: when the limit goes back up */
};
static const struct cc_profile cc_profiles[] = {
	[ROCE_PROFILE_CONNECTX] = { .np_interval_ns = 4000, .rp_reduced = 0, .rp_restore_ns = 0 },
	[ROCE_PROFILE_SEED004] = { .np_interval_ns = 0, .rp_reduced = 8, .rp_restore_ns = 100000 },
};

static const struct cc_profile *cc_of(const struct nicref_dev *dev)
{
	unsigned p = dev->core.cfg.profile.roce_profile;
	return &cc_profiles[p < sizeof cc_profiles / sizeof cc_profiles[0] ? p : 0];
}

void roce_np_packet(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p)
{
	struct roce_state *rs = roce_state_of(dev);
	if (p->ecn != ECN_CE)
		return;
	rs->cnt.ecn_marked++;
	/* Responses and ACKs carry marks too; a CNP answers any packet of the flow. */
	uint64_t now = nicref_clock_now(dev);
	const struct cc_profile *cc = cc_of(dev);
	if (qp->np_sent_any && now - qp->np_last_cnp_ns < cc->np_interval_ns)
		return;
	qp->np_sent_any = true;
	qp->np_last_cnp_ns = now;
	/* To the sender: its address as the packet carries it, its QP (RC: the connected QP;
	 * UD: the DETH's source QP); the CNP's P_Key is the packet's, its PSN 0. */
	struct roce_av path;
	roce_qp_av(qp, &path);
	struct roce_av av = { .sgid_index = path.sgid_index, .hop_limit = 64,
			      .tclass = 0, .udp_sport = roce_qp_sport(qp) };
	memcpy(av.rmac, p->smac, 6);
	memcpy(av.rgid, p->sip, 16);
	if (qp->st == QP_ST_UD) {
		/* A UD QP's path names no peer: the source GID is the one the packet came to. */
		for (unsigned i = 0; i < ROCE_ADDR_ENTRIES; i++) {
			const uint8_t *e = roce_addr_entry(dev, p->port, i);
			uint8_t g[16];
			if (e && PRM_GET(roce_addr_layout, roce_version, e, ROCE_ADDR_BYTES) == 2 &&
			    !nicref_field_get_bytes(e, ROCE_ADDR_BYTES,
						    PRM_FIELD(roce_addr_layout, source_l3_address),
						    g, 16) &&
			    !memcmp(g, p->dip, 16)) {
				av.sgid_index = (uint8_t)i;
				break;
			}
		}
	}
	static const uint8_t zero[NICREF_ROCE_CNP_PAYLOAD];
	struct roce_tx_hdr h = { .opcode = NICREF_ROCE_OP_CNP,
				 .dest_qp = qp->st == QP_ST_UD ? p->deth_src_qp : qp->remote_qpn };
	rs->cnt.cnps_sent++;
	dev_emit2(dev, NICREF_EV_ROCE_CNP, qp->qpn, 0);
	(void)roce_tx_raw(dev, p->port, p->pkey, &av, &h, zero, sizeof zero);
}

void roce_rp_cnp(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct roce_state *rs = roce_state_of(dev);
	rs->cnt.cnps_received++;
	dev_emit2(dev, NICREF_EV_ROCE_CNP, qp->qpn, 1);
	const struct cc_profile *cc = cc_of(dev);
	if (!cc->rp_reduced)
		return;
	/* seed 004 L137-143: 16 -> 8, an interrupt to the application, a timer; a CNP while
	 * reduced starts the timer again. */
	bool was = qp->rp_limit == cc->rp_reduced;
	qp->rp_limit = (uint8_t)cc->rp_reduced;
	qp->rp_restore_ns = nicref_clock_now(dev) + cc->rp_restore_ns;
	roce_timer_arm(dev, qp, qp->deadline_ns); /* keeps it on the list for the restore */
	if (!was)
		dev_emit3(dev, NICREF_EV_ROCE_CC, qp->qpn, cc->rp_reduced, 0);
}

void roce_rp_tick(struct nicref_dev *dev, struct roce_qp *qp)
{
	qp->rp_restore_ns = 0;
	qp->rp_limit = 0;
	dev_emit3(dev, NICREF_EV_ROCE_CC, qp->qpn, ROCE_OUTSTANDING_MAX, 1);
	/* The window opened: the requester may send what waited. */
	if (qp->st == QP_ST_RC && qp->qp->state == QP_RTS)
		rc_sq_run(dev, qp);
}
