/* The reference driver's MKey, TIS, TIR and RQT helpers (driver_mkey.h, driver_tir.h) build
 * their part of the object graph of PRM §3.1 Figure 3 and take it down in reverse order, with
 * the ICM pages given on demand (D-PG-4), without a single driver violation or refused
 * command, and with the model's invariants holding after every step. */
#include <criterion/criterion.h>
#include <string.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"
#include "driver_mkey.h"
#include "driver_tir.h"
#include "driver_wq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"
#include "nicref/nicref.h"
#include "nicref/trace.h"

struct seen {
	unsigned violations, fails;
};

static void on_event(void *ctx, const struct nicref_event *ev)
{
	struct seen *s = ctx;
	s->violations += ev->kind == NICREF_EV_VIOLATION;
	/* The page shortfalls (D-PG-4) are the only refusals the helpers expect and answer. */
	s->fails += ev->kind == NICREF_EV_CMD_FAIL && ev->arg[2] != NICREF_RULE_ICM_PAGES_SHORT;
}

static uint32_t alloc(struct refdrv *d, const char *opcode, const char *layout, const char *f)
{
	uint8_t in[16] = { 0 }, out[16];
	nicref_field_set(in, 16, nicref_layout_field(nicref_layout_find("cmd_in"), "opcode"),
			 (uint64_t)nicref_opcode_find(opcode));
	cr_assert_eq(refdrv_cmd(d, in, 16, out, 16), 0);
	uint64_t v = 0;
	nicref_field_get(out, 16, nicref_layout_field(nicref_layout_find(layout), f), &v);
	return (uint32_t)v;
}

#define OK(dev, call)                                                                           \
	do {                                                                                    \
		cr_assert_eq((call), 0, #call ": %s", d.error);                                 \
		cr_assert_eq(nicref_dev_check(dev), 0, "invariants after " #call);              \
	} while (0)

Test(refdrv_mktir, builds_and_tears_down_its_objects)
{
	struct seen s = { 0 };
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = on_event;
	cfg.trace_ctx = &s;
	struct nicref_dev *dev = nicref_dev_create(&cfg);
	cr_assert(dev);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	struct refdrv d;
	cr_assert_eq(refdrv_init(&d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&d, REFDRV_INITIALIZED), 0, "%s", d.error);

	uint32_t pd = alloc(&d, "ALLOC_PD", "alloc_pd_out", "pd");
	uint32_t td = alloc(&d, "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out",
			    "transport_domain");
	uint32_t resd = 1;
	OK(dev, refdrv_query_special_contexts(&d, &resd));
	cr_expect_eq(resd, 0, "D-MKC-3");

	/* PD <- MKey (MTT over two pages), and an indirect MKey over it. */
	static const uint64_t mtt[] = { 0x40000000, 0x40003000 };
	struct refdrv_mkey_attr ma = { .access_mode = 1, .pd = pd, .tag = 0x77, .lw = true,
				       .start_addr = 0x7000, .len = 0x2000,
				       .log_entity_size = 12, .mtt = mtt, .nmtt = 2 };
	uint32_t mk = 0, ik = 0;
	OK(dev, refdrv_create_mkey(&d, &ma, &mk));
	struct refdrv_klm klm = { 0x2000, mk << 8 | 0x77, 0x7000 };
	struct refdrv_mkey_attr ia = { .access_mode = 2, .pd = pd, .tag = 1, .start_addr = 0,
				       .len = 0x2000, .klm = &klm, .nklm = 1 };
	OK(dev, refdrv_create_mkey(&d, &ia, &ik));
	uint8_t q[0x120];
	OK(dev, refdrv_query_mkey(&d, ik, false, q, sizeof q));

	/* UAR, EQ, CQ (their helpers), then TD <- TIS <- SQ and RQs <- RQT <- TIRs. */
	uint32_t uar;
	OK(dev, refdrv_alloc_uar(&d, &uar));
	struct refdrv_eq_attr ea = { .buf = 0x30000000, .log_eq_size = 4, .uar = uar };
	struct refdrv_eq eq;
	OK(dev, refdrv_create_eq(&d, &ea, &eq));
	struct refdrv_cq_attr ca = { .buf = 0x30100000, .dbr = 0x30200000, .log_cq_size = 6,
				     .uar = uar, .eqn = eq.eqn };
	struct refdrv_cq cq;
	OK(dev, refdrv_create_cq(&d, &ca, &cq));
	uint32_t tisn;
	OK(dev, refdrv_create_tis(&d, td, 2, &tisn));
	OK(dev, refdrv_modify_tis_prio(&d, tisn, 6));
	struct refdrv_sq_attr sa = { .cqn = cq.cqn, .tisn = tisn, .uar = uar,
				     .min_wqe_inline_mode = 1 };
	sa.wq = (struct refdrv_wq_attr){ .buf = 0x31000000, .dbr = 0x3100F000, .wq_type = 1,
					 .log_wq_sz = 4, .log_wq_stride = 6, .pd = pd };
	uint32_t sqn;
	OK(dev, refdrv_create_sq(&d, &sa, &sqn));
	uint32_t rq[2];
	for (int i = 0; i < 2; i++) {
		struct refdrv_rq_attr ra = { .cqn = cq.cqn };
		ra.wq = (struct refdrv_wq_attr){ .buf = 0x32000000 + 0x10000u * i,
						 .dbr = 0x3200F000 + 0x10000u * i, .wq_type = 1,
						 .log_wq_sz = 4, .log_wq_stride = 4, .pd = pd };
		OK(dev, refdrv_create_rq(&d, &ra, &rq[i]));
	}
	uint32_t rqtn;
	const uint32_t list[] = { rq[0], rq[1], rq[1], rq[0] };
	OK(dev, refdrv_create_rqt(&d, 8, list, 4, &rqtn));
	OK(dev, refdrv_modify_rqt(&d, rqtn, list, 2));
	static const uint8_t key[40] = { 1, 2, 3 };
	struct refdrv_tir_attr ind = { .indirect = true, .rqt = rqtn, .hash_fn = 2,
				       .toeplitz_key = key, .sel_outer = 0x3, .td = td,
				       .lro_enable_mask = 1, .lro_timeout_usecs = 32,
				       .lro_max_msg_sz = 64 };
	struct refdrv_tir_attr dir = { .inline_rqn = rq[1], .td = td, .self_lb_en = 1 };
	uint32_t ti, tdir;
	OK(dev, refdrv_create_tir(&d, &ind, &ti));
	OK(dev, refdrv_create_tir(&d, &dir, &tdir));
	ind.hash_fn = 1;
	OK(dev, refdrv_modify_tir(&d, ti, 0x15, &ind));

	struct nicref_hca_info info;
	nicref_hca_info(dev, &info);
	cr_expect_eq(info.mkeys, 2);
	cr_expect_eq(info.tiss, 1);
	cr_expect_eq(info.tirs, 2);
	cr_expect_eq(info.rqts, 1);

	/* §3.2.1 tear-down: the reverse order. */
	OK(dev, refdrv_destroy_tir(&d, tdir));
	OK(dev, refdrv_destroy_tir(&d, ti));
	OK(dev, refdrv_destroy_rqt(&d, rqtn));
	for (int i = 0; i < 2; i++)
		OK(dev, refdrv_destroy_rq(&d, rq[i]));
	OK(dev, refdrv_destroy_sq(&d, sqn));
	OK(dev, refdrv_destroy_tis(&d, tisn));
	OK(dev, refdrv_destroy_cq(&d, cq.cqn));
	OK(dev, refdrv_destroy_eq(&d, eq.eqn));
	OK(dev, refdrv_destroy_mkey(&d, ik));
	OK(dev, refdrv_destroy_mkey(&d, mk));
	OK(dev, refdrv_teardown(&d));
	cr_expect_eq(s.violations, 0);
	cr_expect_eq(s.fails, 0, "no refusal but the page shortfalls the helpers answer");
	refdrv_fini(&d);
	nicref_dev_destroy(dev);
}
