/* Private to libnicref: the RC transport's requester and responder (IBTA Vol. 1 §9.7).
 *
 * PLACEHOLDER written by helper rocewire so the contract of roce/roce.h builds: helper rocerc
 * owns this file and replaces it with the real state and the real entry points (rc_*.c). The
 * entry points below are what the rest of roce/ calls; until rocerc lands they do nothing, so
 * an RC QP neither sends nor answers. */
#ifndef NICREF_ROCE_RC_H
#define NICREF_ROCE_RC_H

#include <stdint.h>

struct nicref_dev;
struct roce_qp;
struct roce_pkt;

/* The requester's state inside struct roce_qp (D-ROCE-3: PSNs, the oldest unacknowledged
 * WQE's index and first PSN, counters). */
struct rc_req {
	uint32_t placeholder;
};
/* The responder's state inside struct roce_qp. */
struct rc_resp {
	uint32_t placeholder;
};

/* The QP went from state `from` to `to` (enum qp_state; the context holds the new attributes:
 * next_send_psn, next_rcv_psn, retry_count, rnr_retry, min_rnr_nak, ack_timeout, ...). Also
 * called with from == to == QP_RST... never: the transport state is made at RST -> INIT, where
 * this is called with from QP_RST. */
static inline void rc_modify(struct nicref_dev *dev, struct roce_qp *qp, unsigned from,
			     unsigned to)
{
	(void)dev, (void)qp, (void)from, (void)to;
}
/* A send doorbell of an RC QP in RTS (qp->sq.sw_counter is the record's counter): start what
 * the window allows. */
static inline void rc_sq_run(struct nicref_dev *dev, struct roce_qp *qp)
{
	(void)dev, (void)qp;
}
/* A packet for an RC QP in RTR/RTS/SQD/SQER after the common checks (ICRC, TVer, QP, state,
 * service, P_Key): requests go to the responder, responses and ACKs to the requester. */
static inline void rc_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p)
{
	(void)dev, (void)qp, (void)p;
}
/* The QP's timer (roce_timer_arm) expired. */
static inline void rc_timer(struct nicref_dev *dev, struct roce_qp *qp)
{
	(void)dev, (void)qp;
}

#endif
