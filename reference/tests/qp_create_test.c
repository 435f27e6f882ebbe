/* CREATE_QP, DESTROY_QP, QUERY_QP: QPN allocation, service types, references and the size of a
 * QP (issue 17 stage 1, docs/roce.md; decisions D-QP-*). */
#include "cmd/ctl_dev.h"
#include "obj/qp.h"
#include "qp_util.h"

/* D-QP-3 ([S004] L42-44): QPNs are handed out lowest first from 2; 0 and 1 never, even after
 * they would be the lowest free. */
Test(qp_create, qpns_start_at_2_and_never_0_or_1)
{
	struct qt q = qt_up(NULL);
	uint32_t a = qt_qp(&q, QT_RC), b = qt_qp(&q, QT_UD);
	cr_expect_eq(a, 2, "the first QPN");
	cr_expect_eq(b, 3);
	cr_assert_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", a, 0x10), 0);
	cr_expect_eq(qt_qp(&q, QT_RC), 2, "the lowest free again, still not 0 or 1");
	/* QP0 and QP1 name nothing: below the QPN range (D-OBJ-2, D-QP-3). */
	for (uint32_t n = 0; n < 2; n++) {
		cr_expect_eq(qt_query(&q, n), 0x0A, "QP%u", n);
		tl_expect_refused(q.t, 0x0A, NICREF_RULE_QP_INDEX_OUT_OF_RANGE);
	}
	tl_down_clean(q.t);
}

/* [S004] L42: "4096 QPs (含QP0/QP1管理通道)": the seed004 profile holds QPNs 2..4095, and the
 * 4095th create is refused (EXCEED_LIM, D-QP-3). */
Test(qp_create, seed004_holds_4094_qps)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.roce_profile = 1;
	struct qt q = qt_up(&p);
	uint32_t last = 0;
	for (unsigned i = 0; i < 4094; i++)
		last = qt_qp(&q, QT_UD);
	cr_expect_eq(last, 4095);
	cr_expect_eq(qt_create(&q, QT_UD, NULL, NULL), QT_EXCEED_LIM);
	tl_expect_refused(q.t, QT_EXCEED_LIM, NICREF_RULE_QP_EXHAUSTED);
	tl_down_clean(q.t);
}

/* D-QP-5: RC, UC, UD under connectx; UC refused under seed004 ([S004] L33-37 lists RC and UD
 * only); XRC (3) refused under both. */
Test(qp_create, service_types_per_profile)
{
	for (unsigned prof = 0; prof < 2; prof++) {
		struct nicref_profile p;
		nicref_profile_default(&p);
		p.roce_profile = (uint8_t)prof;
		struct qt q = qt_up(&p);
		uint32_t n = 0;
		cr_expect_eq(qt_create(&q, QT_RC, NULL, &n), 0, "RC, profile %u", prof);
		cr_expect_eq(qt_create(&q, QT_UD, NULL, &n), 0, "UD, profile %u", prof);
		int st = qt_create(&q, QT_UC, NULL, &n);
		cr_expect_eq(st, prof ? QT_BAD_PARAM : QT_OK, "UC, profile %u", prof);
		if (prof)
			tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_ST_UNSUPPORTED);
		cr_expect_eq(qt_create(&q, QT_XRC, NULL, &n), QT_BAD_PARAM, "XRC");
		tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_ST_UNSUPPORTED);
		tl_down_clean(q.t);
	}
}

/* The objects a QP names must exist (BAD_RESOURCE), and while it lives they cannot be
 * destroyed (BAD_RES_STATE, D-OBJ-1); after DESTROY_QP they can. */
Test(qp_create, references_held_and_released)
{
	struct qt q = qt_up(NULL);
	uint32_t n = 0;
	struct qt_field bad_pd[] = { { "pd", q.pd + 1 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, bad_pd, &n), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_PD_MISSING);
	struct qt_field bad_cq[] = { { "cqn_rcv", q.cqn + 1 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, bad_cq, &n), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_CQ_MISSING);
	struct qt_field bad_uar[] = { { "uar_page", q.t->uar + 1 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, bad_uar, &n), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_UAR_MISSING);
	struct qt_field bad_rmp[] = { { "rq_type", 1 }, { "srqn_rmpn_xrqn", 7 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, bad_rmp, &n), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_RMP_MISSING);
	/* A QP with no RQ (rq_type 3) and no receive CQ names none. */
	struct qt_field no_rq[] = { { "rq_type", 3 }, { "cqn_rcv", 0 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, no_rq, &n), 0);
	cr_expect_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", n, 0x10), 0);

	uint32_t qpn = qt_qp(&q, QT_RC);
	uint32_t in[4] = { 0 }, out[4];
	uint8_t *b = (uint8_t *)in;
	tl_setf(b, 0x00, 31, 16, 0x801); /* DEALLOC_PD */
	tl_setf(b, 0x08, 23, 0, q.pd);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_BAD_RES_STATE, "PD named by the QP");
	memset(in, 0, sizeof in);
	tl_setf(b, 0x00, 31, 16, 0x401); /* DESTROY_CQ */
	tl_setf(b, 0x08, 23, 0, q.cqn);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_BAD_RES_STATE, "CQ named by the QP");
	memset(in, 0, sizeof in);
	tl_setf(b, 0x00, 31, 16, 0x803); /* DEALLOC_UAR */
	tl_setf(b, 0x08, 23, 0, q.t->uar);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_BAD_RES_STATE, "UAR named by the QP");
	cr_expect_eq(nicref_dev_check(q.t->dev), 0, "references add up");
	cr_assert_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", qpn, 0x10), 0);
	cr_expect_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", qpn, 0x10), QT_BAD_RESOURCE);
	tl_expect_refused(q.t, QT_BAD_RESOURCE, NICREF_RULE_QP_NOT_FOUND);
	memset(in, 0, sizeof in);
	tl_setf(b, 0x00, 31, 16, 0x401);
	tl_setf(b, 0x08, 23, 0, q.cqn);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_OK, "the CQ is free again");
	memset(in, 0, sizeof in);
	tl_setf(b, 0x00, 31, 16, 0x801);
	tl_setf(b, 0x08, 23, 0, q.pd);
	cr_expect_eq(tl_cmd(q.t, in, 16, out, 16), QT_OK, "the PD is free again");
	tl_down(q.t);
}

/* QUERY_QP returns the context as CREATE_QP gave it, in RST (D-QP-6: the input state is not
 * taken), at 18h (mlx5_ifc.h query_qp_out). Sizes above HCA_CAP.log_max_wq_sz (16) and an
 * rq_type above 3 are refused. */
Test(qp_create, query_returns_the_context)
{
	struct qt q = qt_up(NULL);
	struct qt_field f[] = { { "state", QT_RTS },	   { "user_index", 0x123456 },
				{ "log_sq_size", 7 },	   { "remote_qpn", 0xABCDEF },
				{ "q_key", 0x80010002u }, { "primary_address_path_sl", 5 },
				{ NULL, 0 } };
	uint32_t n = 0;
	cr_assert_eq(qt_create(&q, QT_UD, f, &n), 0);
	cr_assert_eq(qt_query(&q, n), 0);
	cr_expect_eq(qt_ctx(&q, "state"), QT_RST, "D-QP-6");
	cr_expect_eq(qt_ctx(&q, "st"), QT_UD);
	cr_expect_eq(qt_ctx(&q, "pd"), q.pd);
	cr_expect_eq(qt_ctx(&q, "cqn_snd"), q.cqn);
	for (unsigned i = 1; f[i].name; i++)
		cr_expect_eq(qt_ctx(&q, f[i].name), f[i].v, "%s", f[i].name);
	cr_expect_eq(q.t->out[0x18 + 0x0C + 3], (uint8_t)q.t->uar, "uar_page at 18h + 0Ch");
	struct qt_field big[] = { { "log_sq_size", 15 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_UD, big, &n), 0, "15 fits log_max_wq_sz 16");
	struct qt_field rqt[] = { { "rq_type", 4 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_UD, rqt, &n), QT_BAD_PARAM);
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_RQ_TYPE_BAD);
	tl_down_clean(q.t);
}

/* log_sq_size and log_rq_size at most HCA_CAP.log_max_wq_sz (D-QP-15), here lowered to 10. */
Test(qp_create, sizes_within_log_max_wq_sz)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_wq_sz", 10), NICREF_CAP_SET_OK);
	struct qt q = qt_up(&p);
	uint32_t n = 0;
	struct qt_field ok[] = { { "log_sq_size", 10 }, { "log_rq_size", 10 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, ok, &n), 0);
	struct qt_field sq[] = { { "log_sq_size", 11 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, sq, &n), QT_BAD_PARAM);
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_SIZE_EXCEEDS_CAP);
	struct qt_field rq[] = { { "log_rq_size", 11 }, { NULL, 0 } };
	cr_expect_eq(qt_create(&q, QT_RC, rq, &n), QT_BAD_PARAM);
	tl_expect_refused(q.t, QT_BAD_PARAM, NICREF_RULE_QP_SIZE_EXCEEDS_CAP);
	tl_down_clean(q.t);
}

/* D-QP-13: the target is at most 512 bytes per live QP. */
Test(qp_create, sizeof_qp)
{
	cr_log_info("sizeof(struct qp) = %zu", sizeof(struct qp));
	cr_expect_leq(sizeof(struct qp), 320, "the QP object (%zu B) with its context", sizeof(struct qp));
}

/* An SRQ QP (rq_type 1) names its RMP: DESTROY_RMP is refused while the QP lives (D-OBJ-1,
 * rule RMP_IN_USE) and allowed after DESTROY_QP. */
Test(qp_create, rmp_held_by_an_srq_qp)
{
	struct qt q = qt_up(NULL);
	struct refdrv_rmp_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = tl_hostmem(q.t, 0x10000),
					.dbr = tl_hostmem(q.t, 0x1000),
					.wq_type = 1,
					.log_wq_sz = 4,
					.log_wq_stride = 5,
					.pd = q.pd };
	uint32_t rmpn = 0;
	cr_assert_eq(refdrv_create_rmp(&q.t->d, &a, &rmpn), 0, "%s", q.t->d.error);
	struct qt_field srq[] = { { "rq_type", 1 }, { "srqn_rmpn_xrqn", rmpn }, { NULL, 0 } };
	uint32_t qpn = 0;
	cr_assert_eq(qt_create(&q, QT_RC, srq, &qpn), 0);
	cr_expect_eq(refdrv_destroy_rmp(&q.t->d, rmpn), QT_BAD_RES_STATE);
	tl_expect_refused(q.t, QT_BAD_RES_STATE, NICREF_RULE_RMP_IN_USE);
	cr_expect_eq(nicref_dev_check(q.t->dev), 0, "references add up");
	cr_assert_eq(qt_by_qpn(&q, "destroy_qp_in", "DESTROY_QP", qpn, 0x10), 0);
	cr_expect_eq(refdrv_destroy_rmp(&q.t->d, rmpn), 0);
	tl_down(q.t);
}

/* CREATE_QP keeps the qpc field by field: a reserved bit the permissive profile lets through
 * (reserved_check 0, D-CMD-8: reported as a violation) is not stored, so QUERY_QP reads 0 there
 * (qpc reserved_at_10, dword 0 bit 15). */
Test(qp_create, reserved_bits_are_not_kept)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.reserved_check = 0;
	struct qt q = qt_up(&p);
	qt_qp(&q, QT_UD); /* the QPs' ICM page: the command below runs once */
	tl_begin(q.t, "create_qp_in", "CREATE_QP");
	tl_set(q.t, "create_qp_in", "st", QT_UD);
	tl_set(q.t, "create_qp_in", "pd", q.pd);
	tl_set(q.t, "create_qp_in", "uar_page", q.t->uar);
	tl_set(q.t, "create_qp_in", "cqn_snd", q.cqn);
	tl_set(q.t, "create_qp_in", "cqn_rcv", q.cqn);
	tl_set_elem(q.t, "create_qp_in", "pas", 0, QT_BUF); /* its one page (D-QP-12) */
	q.t->in[0x18 + 2] |= 0x80;
	tl_mark(&q.t->tr);
	cr_assert_eq(tl_run_paged(q.t, 0x118, 0x10), 0);
	cr_expect_eq(q.t->tr.vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO], 1,
		     "the reserved bit is reported once");
	cr_expect_eq(q.t->tr.violations, 1);
	uint32_t qpn = (uint32_t)tl_get(q.t, "create_qp_out", "qpn");
	cr_assert_eq(qt_query(&q, qpn), 0);
	cr_expect_eq(q.t->out[0x18 + 2] & 0x80, 0, "not kept");
	cr_expect_eq(qt_ctx(&q, "st"), QT_UD);
	tl_down(q.t);
}

/* D-QP-12, D-WQ-6: the transport reads the buffer pas[] maps (D-ROCE-4), so CREATE_QP needs a
 * page address for every page its sizes imply; an input holding fewer is BAD_INPUT_LEN
 * (QP_PAS_SHORT), as CREATE_SQ/RQ/RMP answer, and no QP is made. */
Test(qp_create, fewer_pas_than_the_buffer_spans_is_a_short_input)
{
	struct qt q = qt_up(NULL);
	struct tl_dev *t = q.t;
	tl_begin(t, "create_qp_in", "CREATE_QP");
	tl_set(t, "create_qp_in", "st", QT_RC);
	tl_set(t, "create_qp_in", "pd", q.pd);
	tl_set(t, "create_qp_in", "uar_page", t->uar);
	tl_set(t, "create_qp_in", "cqn_snd", q.cqn);
	tl_set(t, "create_qp_in", "cqn_rcv", q.cqn);
	tl_set(t, "create_qp_in", "log_rq_size", 4);
	tl_set(t, "create_qp_in", "log_rq_stride", 2); /* RQ: 16 x 64 B = 1 KB */
	tl_set(t, "create_qp_in", "log_sq_size", 8);   /* SQ: 256 x 64 B = 16 KB */
	cr_assert_eq(qt_pages(t), 5);
	for (uint32_t i = 0; i < 5; i++)
		tl_set_elem(t, "create_qp_in", "pas", i, QT_BUF + 0x1000ull * i);
	for (uint32_t given = 0; given < 5; given++) {
		int st = tl_run_paged(t, 0x110 + 8 * given, 0x10);
		tl_expect_refused(t, 0x50, NICREF_RULE_QP_PAS_SHORT);
		cr_expect_eq(st, 0x50, "%u of 5 pages given", given);
	}
	cr_expect_eq(t->dev->obj[OBJ_QP].nlive, 0, "no QP was made");
	cr_expect_eq(tl_run_paged(t, 0x110 + 8 * 5, 0x10), 0, "every page given");
	uint32_t qpn = (uint32_t)tl_get(t, "create_qp_out", "qpn");
	const struct qp *qp = obj_get(t->dev, OBJ_QP, qpn);
	cr_assert(qp);
	cr_expect_eq(qp->npas, 5);
	for (uint32_t i = 0; i < 5; i++)
		cr_expect_eq(qp->pas[i], QT_BUF + 0x1000ull * i, "pas[%u]", i);
	tl_down_clean(t);
}

/* D-OBJ-2: a number outside its table's range answers BAD_INDEX (T128 0x0A "Index out of range
 * (might be beyond table size or attempt to access a reserved resource)"), one in range but not
 * live BAD_RESOURCE: the QPN (from 2, D-QP-3) and the objects CREATE_QP names. */
Test(qp_create, numbers_beyond_their_tables_are_bad_index)
{
	struct qt q = qt_up(NULL);
	struct tl_dev *t = q.t;
	(void)qt_qp(&q, QT_RC); /* QPN 2 */
	static const uint32_t beyond[] = { 0, 1, 0xFFFFFF };
	for (size_t i = 0; i < 3; i++) {
		qt_query(&q, beyond[i]);
		tl_expect_refused(t, 0x0A, NICREF_RULE_QP_INDEX_OUT_OF_RANGE);
		tl_begin(t, "destroy_qp_in", "DESTROY_QP");
		tl_set(t, "destroy_qp_in", "qpn", beyond[i]);
		(void)tl_run(t, 0x10, 0x10);
		tl_expect_refused(t, 0x0A, NICREF_RULE_QP_INDEX_OUT_OF_RANGE);
	}
	qt_query(&q, 100);
	tl_expect_refused(t, QT_BAD_RESOURCE, NICREF_RULE_QP_NOT_FOUND);
	static const struct {
		const char *field;
		enum nicref_cmd_rule rule;
	} refs[] = {
		{ "pd", NICREF_RULE_QP_PD_OUT_OF_RANGE },
		{ "cqn_snd", NICREF_RULE_QP_CQ_OUT_OF_RANGE },
		{ "cqn_rcv", NICREF_RULE_QP_CQ_OUT_OF_RANGE },
		{ "uar_page", NICREF_RULE_QP_UAR_OUT_OF_RANGE },
		{ "srqn_rmpn_xrqn", NICREF_RULE_QP_RMP_OUT_OF_RANGE },
	};
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
		struct qt_field f[] = { { refs[i].field, 0xFFFFFF }, { "rq_type", 0 }, { NULL, 0 } };
		if (refs[i].rule == NICREF_RULE_QP_RMP_OUT_OF_RANGE)
			f[1].v = 1; /* an SRQ: the RMP is named */
		qt_create(&q, QT_RC, f, NULL);
		tl_expect_refused(t, 0x0A, refs[i].rule);
	}
	struct qt_field near[] = { { "pd", 77 }, { NULL, 0 } };
	qt_create(&q, QT_RC, near, NULL);
	tl_expect_refused(t, QT_BAD_RESOURCE, NICREF_RULE_QP_PD_MISSING);
	cr_expect_eq(t->dev->obj[OBJ_QP].nlive, 1, "only QPN 2");
	tl_down_clean(t);
}
