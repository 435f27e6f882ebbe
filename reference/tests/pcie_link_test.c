/* The link of two ends (reference/pcie/link.c): delivery under faults, and what the delay
 * fault may and may not do to the order of the Acks. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "nicref/pcie.h"

#define N_TLPS 3000u

struct run {
	struct nicref_pcie_link l;
	unsigned sent, delivered;
	uint8_t tlp[16];
};

static bool tl_next(void *ctx, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify)
{
	struct run *r = ctx;
	if (end != 0 || r->sent == N_TLPS)
		return false;
	memcpy(r->tlp, &r->sent, sizeof r->sent);
	r->sent++;
	*tlp = r->tlp, *len = sizeof r->tlp, *nullify = false;
	return true;
}

static void on_event(void *ctx, unsigned end, const struct nicref_pcie_event *ev)
{
	struct run *r = ctx;
	if (end == 1 && ev->kind == NICREF_PCIE_EV_DELIVER) {
		unsigned n;
		memcpy(&n, ev->tlp, sizeof n);
		cr_assert_eq(n, r->delivered, "TLP %u delivered where %u was next", n, r->delivered);
		r->delivered++;
	}
}

static struct run *run_link(const struct nicref_pcie_faults *f)
{
	struct run *r = calloc(1, sizeof *r);
	size_t sz = nicref_pcie_link_storage_bytes(16);
	uint8_t *st = malloc(sz);
	cr_assert(r && st);
	struct nicref_pcie_params p;
	struct nicref_pcie_link_params lp;
	nicref_pcie_params_default(&p);
	nicref_pcie_link_params_default(&lp);
	lp.faults = *f;
	lp.seed = 42;
	struct nicref_pcie_link_ops ops = { .ctx = r, .event = on_event, .tl_next = tl_next };
	cr_assert_eq(nicref_pcie_link_init(&r->l, &p, &lp, &ops, 16, st, sz), 0);
	for (unsigned k = 0; k < 1000 && !(r->sent == N_TLPS && nicref_pcie_link_idle(&r->l)); k++)
		nicref_pcie_link_run(&r->l, r->l.now + 100000);
	cr_assert(nicref_pcie_link_idle(&r->l), "not idle");
	cr_assert_eq(r->delivered, N_TLPS);
	r->l.end[0].store = NULL;
	free(st);
	return r;
}

Test(pcie_link, delivers_everything_once_in_order_under_faults)
{
	struct nicref_pcie_faults f = { 2000, 2000, 2000, 2000, 2000, 0, 0 };
	struct run *r = run_link(&f);
	cr_expect_gt(r->l.end[0].replays, 0);
	free(r);
}

Test(pcie_link, a_held_ack_never_leaves_after_a_later_one)
{
	/* Half the Acks held back 3000 symbol times: were a later Ack to pass a held one, the
	 * held one would arrive stale and the transmitter would see an AckNak_Seq_Num that is
	 * neither ACKD_SEQ nor unacknowledged: a data link protocol error (T8, L158-159). */
	struct nicref_pcie_faults f = { 0, 0, 0, 0, 0, 32768, 3000 };
	struct run *r = run_link(&f);
	cr_expect_eq(r->l.end[0].errors[NICREF_PCIE_ERR_DL_PROTOCOL], 0);
	free(r);
}

/* ---- REPLAY_TIMER in the link: from the last symbol (D-DLL-22) ---- */

struct one {
	struct nicref_pcie_link l;
	bool sent;
	uint8_t tlp[16];
	uint64_t first_replay; /* the instant of end A's first retransmission */
};

static bool one_tlp(void *ctx, unsigned end, const uint8_t **tlp, size_t *len, bool *nullify)
{
	struct one *o = ctx;
	if (end != 0 || o->sent)
		return false;
	o->sent = true;
	*tlp = o->tlp, *len = sizeof o->tlp, *nullify = false;
	return true;
}

static void on_replay(void *ctx, unsigned end, const struct nicref_pcie_event *ev)
{
	struct one *o = ctx;
	if (end == 0 && ev->kind == NICREF_PCIE_EV_TX && ev->replay && !o->first_replay)
		o->first_replay = ev->t;
}

Test(pcie_link, replay_timer_counts_from_the_tlps_last_symbol)
{
	/* PCIe Base §3.6.2.1 (seed 003 L33, L134): REPLAY_TIMER starts at the last symbol of the
	 * TLP transmitted. End A sends one 16-byte TLP at 0: 22 bytes on the wire with its
	 * sequence number and LCRC, 3 symbol times each, so its last symbol is out at 66; every
	 * DLLP is lost (B's Ack never arrives), so the limit 24000 expires at 66 + 24000. */
	struct one *o = calloc(1, sizeof *o);
	size_t sz = nicref_pcie_link_storage_bytes(16);
	uint8_t *st = malloc(sz);
	cr_assert(o && st);
	struct nicref_pcie_params p;
	struct nicref_pcie_link_params lp;
	nicref_pcie_params_default(&p);
	nicref_pcie_link_params_default(&lp);
	lp.symbol_cost = 3;
	lp.faults.dllp_drop = 65535;
	lp.seed = 7;
	struct nicref_pcie_link_ops ops = { .ctx = o, .event = on_replay, .tl_next = one_tlp };
	cr_assert_eq(nicref_pcie_link_init(&o->l, &p, &lp, &ops, 16, st, sz), 0);
	nicref_pcie_link_run(&o->l, 30000);
	cr_expect_eq(o->first_replay, 22u * 3u + 24000u, "first replay at %llu",
		     (unsigned long long)o->first_replay);
	free(st);
	free(o);
}
