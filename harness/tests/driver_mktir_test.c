/* The reference driver's MKey, TIS, TIR and RQT helpers (driver_mkey.h, driver_tir.h) build
 * their part of the object graph of PRM §3.1 Figure 3 and take it down in reverse order, with
 * the ICM pages given on demand (D-PG-4), without a single driver violation or refused
 * command, and with the model's invariants holding after every step. */
#include <string.h>

#include "driver_mkey.h"
#include "driver_tir.h"
#include "testlib.h"

/* The commands refused since the mark, but for the page shortfalls (D-PG-4): the only refusals
 * the helpers expect and answer. */
static unsigned fails(const struct tl_trace *tr)
{
	cr_assert_eq(tr->dropped, 0);
	unsigned n = 0;
	for (size_t i = 0; i < tr->n; i++)
		n += tr->ev[i].kind == NICREF_EV_CMD_FAIL &&
		     tr->ev[i].arg[2] != NICREF_RULE_ICM_PAGES_SHORT;
	return n;
}

#define OK(dev, call)                                                                           \
	do {                                                                                    \
		cr_assert_eq((call), 0, #call ": %s", t->d.error);                              \
		cr_assert_eq(nicref_dev_check(dev), 0, "invariants after " #call);              \
	} while (0)

Test(refdrv_mktir, builds_and_tears_down_its_objects)
{
	struct tl_dev *t = tl_up_to(NULL, REFDRV_INITIALIZED);

	uint32_t pd = tl_alloc(t, "ALLOC_PD", "alloc_pd_out", "pd");
	uint32_t td = tl_alloc(t, "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out",
			       "transport_domain");
	uint32_t resd = 1;
	OK(t->dev, refdrv_query_special_contexts(&t->d, &resd));
	cr_expect_eq(resd, 0, "D-MKC-3");

	/* PD <- MKey (MTT over two pages), and an indirect MKey over it. */
	static const uint64_t mtt[] = { 0x40000000, 0x40003000 };
	struct refdrv_mkey_attr ma = { .access_mode = 1, .pd = pd, .tag = 0x77, .lw = true,
				       .start_addr = 0x7000, .len = 0x2000,
				       .log_entity_size = 12, .mtt = mtt, .nmtt = 2 };
	uint32_t mk = 0, ik = 0;
	OK(t->dev, refdrv_create_mkey(&t->d, &ma, &mk));
	struct refdrv_klm klm = { 0x2000, mk << 8 | 0x77, 0x7000 };
	struct refdrv_mkey_attr ia = { .access_mode = 2, .pd = pd, .tag = 1, .start_addr = 0,
				       .len = 0x2000, .klm = &klm, .nklm = 1 };
	OK(t->dev, refdrv_create_mkey(&t->d, &ia, &ik));
	uint8_t q[0x120];
	OK(t->dev, refdrv_query_mkey(&t->d, ik, false, q, sizeof q));

	/* UAR, EQ, CQ (their helpers), then TD <- TIS <- SQ and RQs <- RQT <- TIRs. */
	uint32_t uar;
	OK(t->dev, refdrv_alloc_uar(&t->d, &uar));
	struct refdrv_eq_attr ea = { .buf = 0x30000000, .log_eq_size = 4, .uar = uar };
	struct refdrv_eq eq;
	OK(t->dev, refdrv_create_eq(&t->d, &ea, &eq));
	struct refdrv_cq_attr ca = { .buf = 0x30100000, .dbr = 0x30200000, .log_cq_size = 6,
				     .uar = uar, .eqn = eq.eqn };
	struct refdrv_cq cq;
	OK(t->dev, refdrv_create_cq(&t->d, &ca, &cq));
	uint32_t tisn;
	OK(t->dev, refdrv_create_tis(&t->d, td, 2, &tisn));
	OK(t->dev, refdrv_modify_tis_prio(&t->d, tisn, 6));
	struct refdrv_sq_attr sa = { .cqn = cq.cqn, .tisn = tisn, .uar = uar,
				     .min_wqe_inline_mode = 1 };
	sa.wq = (struct refdrv_wq_attr){ .buf = 0x31000000, .dbr = 0x3100F000, .wq_type = 1,
					 .log_wq_sz = 4, .log_wq_stride = 6, .pd = pd };
	uint32_t sqn;
	OK(t->dev, refdrv_create_sq(&t->d, &sa, &sqn));
	uint32_t rq[2];
	for (int i = 0; i < 2; i++) {
		struct refdrv_rq_attr ra = { .cqn = cq.cqn };
		ra.wq = (struct refdrv_wq_attr){ .buf = 0x32000000 + 0x10000u * i,
						 .dbr = 0x3200F000 + 0x10000u * i, .wq_type = 1,
						 .log_wq_sz = 4, .log_wq_stride = 4, .pd = pd };
		OK(t->dev, refdrv_create_rq(&t->d, &ra, &rq[i]));
	}
	uint32_t rqtn;
	const uint32_t list[] = { rq[0], rq[1], rq[1], rq[0] };
	OK(t->dev, refdrv_create_rqt(&t->d, 8, list, 4, &rqtn));
	OK(t->dev, refdrv_modify_rqt(&t->d, rqtn, list, 2));
	static const uint8_t key[40] = { 1, 2, 3 };
	struct refdrv_tir_attr ind = { .indirect = true, .rqt = rqtn, .hash_fn = 2,
				       .toeplitz_key = key, .sel_outer = 0x3, .td = td,
				       .lro_enable_mask = 1, .lro_timeout_usecs = 32,
				       .lro_max_msg_sz = 64 };
	struct refdrv_tir_attr dir = { .inline_rqn = rq[1], .td = td, .self_lb_en = 1 };
	uint32_t ti, tdir;
	OK(t->dev, refdrv_create_tir(&t->d, &ind, &ti));
	OK(t->dev, refdrv_create_tir(&t->d, &dir, &tdir));
	ind.hash_fn = 1;
	OK(t->dev, refdrv_modify_tir(&t->d, ti, 0x15, &ind));

	struct nicref_hca_info info;
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.mkeys, 2);
	cr_expect_eq(info.tiss, 1);
	cr_expect_eq(info.tirs, 2);
	cr_expect_eq(info.rqts, 1);

	/* §3.2.1 tear-down: the reverse order. */
	OK(t->dev, refdrv_destroy_tir(&t->d, tdir));
	OK(t->dev, refdrv_destroy_tir(&t->d, ti));
	OK(t->dev, refdrv_destroy_rqt(&t->d, rqtn));
	for (int i = 0; i < 2; i++)
		OK(t->dev, refdrv_destroy_rq(&t->d, rq[i]));
	OK(t->dev, refdrv_destroy_sq(&t->d, sqn));
	OK(t->dev, refdrv_destroy_tis(&t->d, tisn));
	OK(t->dev, refdrv_destroy_cq(&t->d, cq.cqn));
	OK(t->dev, refdrv_destroy_eq(&t->d, eq.eqn));
	OK(t->dev, refdrv_destroy_mkey(&t->d, ik));
	OK(t->dev, refdrv_destroy_mkey(&t->d, mk));
	OK(t->dev, refdrv_teardown(&t->d));
	cr_expect_eq(t->tr.violations, 0);
	cr_expect_eq(fails(&t->tr), 0, "no refusal but the page shortfalls the helpers answer");
	tl_down(t);
}
