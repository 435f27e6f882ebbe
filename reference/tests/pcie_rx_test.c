/* The receiver of one end (PCIe Base §3.6.3.1, seed 003) and the DLLP checks (§3.6.2.2). */
#include "pcie_util.h"

static const struct nicref_pcie_event *last_dllp(const struct pu *u, unsigned from)
{
	unsigned n = pu_count(u, from, NICREF_PCIE_EV_TX, 1);
	return n ? pu_nth(u, from, NICREF_PCIE_EV_TX, 1, n - 1) : NULL;
}

Test(pcie_rx, in_sequence_delivered)
{
	struct pu *u = pu_new(NULL);
	pu_rx(u, 0, 0, 0, false);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_DELIVER, -1), 1);
	cr_assert_eq(u->d.next_rcv_seq, 1);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 1), 0); /* no Ack before the limit */
	pu_free(u);
}

Test(pcie_rx, ack_at_latency_limit)
{
	/* R6/R7: the timer starts at the forwarded TLP; the Ack goes when it reaches 1000. */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 0, 0, 0, false);
	nicref_pcie_advance(&u->d, 999);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 1), 0);
	nicref_pcie_advance(&u->d, 1);
	const struct nicref_pcie_event *a = last_dllp(u, 0);
	cr_assert(a);
	cr_assert_eq(a->dllp[0], NICREF_PCIE_DLLP_ACK);
	cr_assert_eq(a->seq, 0); /* R5: NEXT_RCV_SEQ - 1 */
	cr_assert_eq(a->t, 1000);
	cr_assert_eq(u->d.acknak_latency_timer, 0);
	cr_assert(!u->d.rx_unacked);
	pu_free(u);
}

Test(pcie_rx, bad_lcrc_naks_once)
{
	/* R3: Nak (seq FFFh = NEXT_RCV_SEQ - 1) and Bad TLP; a second bad TLP: no second Nak
	 * (NAK_SCHEDULED), still a Bad TLP (L235 has no condition). */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 0, 0, 1, false);
	const struct nicref_pcie_event *n = last_dllp(u, 0);
	cr_assert(n);
	cr_assert_eq(n->dllp[0], NICREF_PCIE_DLLP_NAK);
	cr_assert_eq(n->seq, 0xFFF);
	cr_assert(u->d.nak_scheduled);
	pu_rx(u, 0, 0, 1, false);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 1), 1);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_TLP], 2);
	pu_rx(u, 0, 0, 0, false); /* in sequence: NAK_SCHEDULED cleared */
	cr_assert(!u->d.nak_scheduled);
	pu_free(u);
}

Test(pcie_rx, out_of_sequence_reports_once)
{
	/* R4 (L246-257), D-DLL-7: Bad TLP only when NAK_SCHEDULED was 0. */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 2, 2, 0, false);
	pu_rx(u, 3, 3, 0, false);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_TLP], 1);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_TX, 1), 1);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_DELIVER, -1), 0);
	pu_free(u);
}

Test(pcie_rx, duplicate_is_acked)
{
	/* R4 (L243-244): d(NEXT_RCV_SEQ, S) <= 2048: Ack, no error. NEXT_RCV_SEQ 1, S 0: d = 1. */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 0, 0, 0, false);
	unsigned from = u->n;
	pu_rx(u, 0, 0, 0, false);
	const struct nicref_pcie_event *a = last_dllp(u, from);
	cr_assert(a);
	cr_assert_eq(a->dllp[0], NICREF_PCIE_DLLP_ACK);
	cr_assert_eq(a->seq, 0);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	pu_free(u);
}

Test(pcie_rx, duplicate_window_edge)
{
	/* NEXT_RCV_SEQ 0: S = 2048 gives d = 2048 (duplicate), S = 2047 gives 2049 (lost). */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 2048, 0, 0, false);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	cr_assert_eq(last_dllp(u, 0)->dllp[0], NICREF_PCIE_DLLP_ACK);
	pu_rx(u, 2047, 0, 0, false);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_TLP], 1);
	cr_assert_eq(last_dllp(u, 0)->dllp[0], NICREF_PCIE_DLLP_NAK);
	pu_free(u);
}

Test(pcie_rx, nullified)
{
	/* R2 (L206-208, erratum E5): EDB with the inverted LCRC: silent; EDB with the good LCRC:
	 * Bad TLP. */
	struct pu *u = pu_new(NULL);
	pu_rx(u, 0, 0, 0xFFFFFFFFu, true);
	cr_assert_eq(u->n, 0);
	pu_rx(u, 0, 0, 0, true);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_TLP], 1);
	cr_assert_eq(u->d.next_rcv_seq, 0);
	pu_free(u);
}

Test(pcie_rx, phy_error_naks_without_error)
{
	/* R1 (L200-204): the PHY reports; the DLL Naks. */
	struct pu *u = pu_new(NULL);
	uint8_t w[4] = { 0 };
	nicref_pcie_rx_tlp(&u->d, w, sizeof w, false, true);
	cr_assert_eq(pu_count(u, 0, NICREF_PCIE_EV_ERROR, -1), 0);
	cr_assert_eq(last_dllp(u, 0)->dllp[0], NICREF_PCIE_DLLP_NAK);
	pu_free(u);
}

Test(pcie_rx, dllp_checks)
{
	/* D2: a bad CRC is a Bad DLLP; D3: another type with a good CRC does nothing. */
	struct pu *u = pu_new(NULL);
	pu_send(u, 0);
	struct nicref_pcie_dllp p = { .type = NICREF_PCIE_DLLP_ACK, .seq = 0 };
	uint8_t b[6];
	nicref_pcie_dllp_encode(&p, b);
	p.crc = (uint16_t)(nicref_pcie_dllp_crc(b) ^ 1u);
	nicref_pcie_dllp_encode(&p, b);
	nicref_pcie_rx_dllp(&u->d, b, false);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_DLLP], 1);
	cr_assert_eq(u->d.ackd_seq, 0xFFF);
	pu_dllp(u, 0x20, 0);
	cr_assert_eq(u->d.ackd_seq, 0xFFF);
	cr_assert_eq(u->d.errors[NICREF_PCIE_ERR_BAD_DLLP], 1);
	pu_free(u);
}
