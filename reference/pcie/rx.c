/* The TLP receiver of one end (PCIe Base §3.6.3.1, Figure 3-19) and the DLLP checks of
 * §3.6.2.2 (Figure 3-17). Rule names R1-R8 and D1-D5 are docs/pcie.md's. */
#include "pcie/pcie_int.h"

/* R6 (L195, L288): the timer restarts from 0 whenever an Ack or Nak is scheduled. */
static void schedule_nak(struct nicref_pcie_dll *d)
{
	/* "If NAK_SCHEDULED is clear: schedule a Nak at once, set NAK_SCHEDULED" (L201-203,
	 * L210-214, L227-231, L248-252). */
	if (d->nak_scheduled)
		return;
	d->nak_scheduled = true;
	d->nak_pending = true;
	d->acknak_latency_timer = 0;
}

static void schedule_ack(struct nicref_pcie_dll *d)
{
	d->ack_pending = true;
	d->acknak_latency_timer = 0;
}

static void bad_tlp(struct nicref_pcie_dll *d, enum nicref_pcie_rule rule)
{
	schedule_nak(d);
	pcie_error(d, NICREF_PCIE_ERR_BAD_TLP, rule); /* L216, L235 */
}

void nicref_pcie_rx_tlp(struct nicref_pcie_dll *d, const uint8_t *pkt, size_t len, bool edb,
			bool phy_error)
{
	if (phy_error) {
		/* R1 (L200-204): discard; the PHY reports the error, the DLL does not. */
		schedule_nak(d);
		pcie_flush(d);
		return;
	}
	/* A packet without room for a sequence header, a byte of TLP and an LCRC has no LCRC to
	 * match: R3. */
	if (len < NICREF_PCIE_SEQHDR_BYTES + 1u + NICREF_PCIE_LCRC_BYTES) {
		bad_tlp(d, NICREF_PCIE_RULE_R3_LCRC);
		pcie_flush(d);
		return;
	}
	size_t tlp_len = len - NICREF_PCIE_SEQHDR_BYTES - NICREF_PCIE_LCRC_BYTES;
	const uint8_t *tlp = pkt + NICREF_PCIE_SEQHDR_BYTES, *l = tlp + tlp_len;
	uint32_t calc = nicref_pcie_lcrc(pkt, tlp, tlp_len);
	uint32_t got = (uint32_t)l[0] | (uint32_t)l[1] << 8 | (uint32_t)l[2] << 16 |
		       (uint32_t)l[3] << 24;
	if (edb) {
		/* R2 (L206): nullified and its LCRC the inverse of the computed value: discarded,
		 * no error. L208 (erratum E5): otherwise a Bad TLP. */
		if (got != ~calc)
			bad_tlp(d, NICREF_PCIE_RULE_R2_NULLIFIED_BAD);
		pcie_flush(d);
		return;
	}
	if (got != calc) {
		bad_tlp(d, NICREF_PCIE_RULE_R3_LCRC); /* R3 (L219-235) */
		pcie_flush(d);
		return;
	}
	/* The 4 reserved bits entered the LCRC and are otherwise ignored (D-DLL-19). */
	uint16_t seq = (uint16_t)((pkt[0] & 0xFu) << 8 | pkt[1]);
	if (seq != d->next_rcv_seq) {
		/* R4 (L238-244): discard; a duplicate is acknowledged. */
		if (seq_diff(d->next_rcv_seq, seq) <= NICREF_PCIE_WINDOW) {
			schedule_ack(d);
		} else {
			/* L246-257: TLPs were lost. Bad TLP only when NAK_SCHEDULED was clear
			 * (D-DLL-7, the recommendation of L257). */
			bool was = d->nak_scheduled;
			schedule_nak(d);
			if (!was)
				pcie_error(d, NICREF_PCIE_ERR_BAD_TLP, NICREF_PCIE_RULE_R4_LOST);
		}
		pcie_flush(d);
		return;
	}
	/* L258-268: to the TL without header and LCRC; NEXT_RCV_SEQ += 1; NAK_SCHEDULED := 0. */
	struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_DELIVER, .seq = seq, .tlp = tlp,
					.len = (uint32_t)tlp_len };
	pcie_emit(d, &ev);
	d->next_rcv_seq = seq_add(seq, 1);
	d->nak_scheduled = false;
	/* R6 (L196): with nothing outstanding, the timer starts counting now. */
	if (!d->rx_unacked) {
		d->rx_unacked = true;
		d->acknak_latency_timer = 0;
	}
	pcie_ack_check(d);
	pcie_flush(d);
}

void pcie_ack_check(struct nicref_pcie_dll *d)
{
	/* R7 (L272-291): DL_Active (always, between link_down's reset and now), a forwarded TLP
	 * unacknowledged, the timer at the Ack Latency Limit (D-DLL-8), L0, NAK_SCHEDULED clear.
	 * "The link is free" is the pacing of nicref_pcie_pump. */
	if (d->rx_unacked && !d->ack_pending && !d->nak_scheduled && !d->retraining &&
	    d->acknak_latency_timer >= d->p.ack_latency_limit)
		schedule_ack(d);
}

static void send_acknak(struct nicref_pcie_dll *d, uint8_t type)
{
	/* R5 (L293): AckNak_Seq_Num = NEXT_RCV_SEQ - 1. */
	struct nicref_pcie_dllp p = { .type = type,
				      .seq = seq_add(d->next_rcv_seq, NICREF_PCIE_SEQ_MOD - 1u) };
	uint8_t body[NICREF_PCIE_DLLP_BYTES];
	nicref_pcie_dllp_encode(&p, body);
	p.crc = nicref_pcie_dllp_crc(body);
	struct nicref_pcie_event ev = { .kind = NICREF_PCIE_EV_TX, .is_dllp = true, .seq = p.seq };
	nicref_pcie_dllp_encode(&p, ev.dllp);
	pcie_emit(d, &ev);
}

bool pcie_send_nak(struct nicref_pcie_dll *d)
{
	if (!d->nak_pending || d->retraining)
		return false;
	/* R8: the Nak leaves; NAK_SCHEDULED stays set until an in-sequence TLP. */
	d->nak_pending = false;
	send_acknak(d, NICREF_PCIE_DLLP_NAK);
	return true;
}

bool pcie_send_ack(struct nicref_pcie_dll *d)
{
	if (!d->ack_pending || d->retraining)
		return false;
	d->ack_pending = false;
	send_acknak(d, NICREF_PCIE_DLLP_ACK);
	/* R6 (L195): every received TLP acknowledged by an Ack: 0, until the next forwarded. */
	d->rx_unacked = false;
	d->acknak_latency_timer = 0;
	return true;
}

void nicref_pcie_rx_dllp(struct nicref_pcie_dll *d, const uint8_t pkt[6], bool phy_error)
{
	/* D1 (L142): a receiver error: discarded, reported by the PHY. */
	if (phy_error)
		return;
	struct nicref_pcie_dllp p;
	nicref_pcie_dllp_decode(pkt, &p);
	/* D2 (L143-147): the CRC over the 4 body bytes. */
	if (nicref_pcie_dllp_crc(pkt) != p.crc) {
		pcie_error(d, NICREF_PCIE_ERR_BAD_DLLP, NICREF_PCIE_RULE_D2_CRC);
		return;
	}
	/* D3 (L148): another type (FC, PM: not modelled, D-DLL-18) has no effect here. D4
	 * (L149): reserved bits ignored. D5 (L157): Ack and Nak go to T8. */
	if (p.type != NICREF_PCIE_DLLP_ACK && p.type != NICREF_PCIE_DLLP_NAK)
		return;
	pcie_acknak(d, p.type == NICREF_PCIE_DLLP_NAK, p.seq);
	pcie_flush(d);
}
