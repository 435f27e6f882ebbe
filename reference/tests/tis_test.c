/* TIS: CREATE/MODIFY/DESTROY/QUERY_TIS (PRM §7.6 T49-T51, §12.9 T298-T313). Decisions:
 * docs/tir.md (D-TIS-*). */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "obj/tir.h"
#include "testlib.h"

static int create_tis(struct tl_dev *t, uint32_t td, unsigned prio)
{
	tl_begin(t, "create_tis_in", "CREATE_TIS");
	tl_set(t, "create_tis_in", "prio", prio);
	tl_set(t, "create_tis_in", "transport_domain", td);
	return tl_run_paged(t, 0xC0, 16);
}

static uint32_t tis(struct tl_dev *t, uint32_t td, unsigned prio)
{
	cr_assert_eq(create_tis(t, td, prio), 0, "rule %s", tl_rule_of(t->d.last_syndrome));
	return (uint32_t)tl_get(t, "create_tis_out", "tisn");
}

static int query_tis(struct tl_dev *t, uint32_t tisn)
{
	tl_begin(t, "query_tis_in", "QUERY_TIS");
	tl_set(t, "query_tis_in", "tisn", tisn);
	return tl_run_paged(t, 16, 0xB0);
}

static int modify_tis(struct tl_dev *t, uint32_t tisn, uint64_t mask, unsigned prio,
		      uint32_t td)
{
	tl_begin(t, "modify_tis_in", "MODIFY_TIS");
	tl_set(t, "modify_tis_in", "tisn", tisn);
	tl_set(t, "modify_tis_in", "modify_bitmask_63_32", mask >> 32);
	tl_set(t, "modify_tis_in", "modify_bitmask_31_0", mask & 0xFFFFFFFF);
	tl_set(t, "modify_tis_in", "prio", prio);
	tl_set(t, "modify_tis_in", "transport_domain", td); /* not modifiable: 0 unless a test */
	return tl_run_paged(t, 0xC0, 16);
}

static int by_tisn(struct tl_dev *t, const char *opcode, const char *layout, uint32_t tisn)
{
	tl_begin(t, layout, opcode);
	tl_set(t, layout, "tisn", tisn);
	return tl_run_paged(t, 16, 16);
}

Test(tis, query_round_trips_every_context_field)
{
	struct tl_dev *t = tl_up(NULL);
	tl_alloc_td(t);
	uint32_t td = tl_alloc_td(t);
	/* T50: every field at a non-default value; QUERY_TIS returns the context at 10h
	 * (T313, D-TIS-2). */
	struct {
		const char *name;
		uint64_t v;
	} ctx[] = { { "prio", 0xB }, { "transport_domain", td } };
	cr_assert_eq(nicref_layout_find("tisc")->nfields, 2, "every T50 field listed");
	tl_begin(t, "create_tis_in", "CREATE_TIS");
	for (unsigned i = 0; i < 2; i++)
		tl_set(t, "create_tis_in", ctx[i].name, ctx[i].v);
	cr_assert_eq(tl_run_paged(t, 0xC0, 16), 0);
	uint32_t tisn = (uint32_t)tl_get(t, "create_tis_out", "tisn");
	cr_expect_eq(tisn, 1, "the first TIS (D-OBJ-2)");
	cr_assert_eq(query_tis(t, tisn), 0);
	for (unsigned i = 0; i < 2; i++)
		cr_expect_eq(tl_get(t, "query_tis_out", ctx[i].name), ctx[i].v, "%s", ctx[i].name);
	/* The context is at 10h: its prio dword is output 10h, nothing at 20h. */
	cr_expect_eq(t->out[0x11], 0x0B, "prio at 10h[19:16]");
	cr_expect_eq(t->out[0x21], 0);

	/* MODIFY_TIS bit 0: prio. */
	cr_assert_eq(modify_tis(t, tisn, 1, 0x4, 0), 0);
	cr_assert_eq(query_tis(t, tisn), 0);
	cr_expect_eq(tl_get(t, "query_tis_out", "prio"), 0x4);
	cr_expect_eq(tl_get(t, "query_tis_out", "transport_domain"), td);
	/* An empty bitmask with an empty context changes nothing. */
	cr_assert_eq(modify_tis(t, tisn, 0, 0, 0), 0);
	cr_assert_eq(query_tis(t, tisn), 0);
	cr_expect_eq(tl_get(t, "query_tis_out", "prio"), 0x4);
	tl_down_clean(t);
}

/* T303 20h: "Only fields requested by the mask should be valid. Other fields are reserved"
 * (D-MOD-1): the transport domain (T51 "NONE", never selectable) and prio with bit 0 clear are
 * reserved bits, refused under the strict profile; under the permissive one (reserved_check 0)
 * they are reported and not used. */
Test(tis, modify_unselected_fields_are_reserved)
{
	for (int strict = 1; strict >= 0; strict--) {
		struct nicref_profile p;
		nicref_profile_default(&p);
		p.reserved_check = (uint8_t)strict;
		struct tl_dev *t = tl_up(&p);
		uint32_t td = tl_alloc_td(t);
		uint32_t tisn = tis(t, td, 0xB);
		int st = modify_tis(t, tisn, 1, 0x4, td + 7); /* 44h[23:0] */
		if (strict) {
			tl_reserved(t, st, 0x44ull << 32 | (td + 7));
		} else {
			cr_expect_eq(st, 0);
			cr_expect_eq(t->tr.violations, 1);
			cr_expect_eq(t->tr.last_violation_arg, 0x44ull << 32 | (td + 7));
			t->tr.violations = 0;
		}
		cr_assert_eq(query_tis(t, tisn), 0);
		cr_expect_eq(tl_get(t, "query_tis_out", "prio"), strict ? 0xB : 0x4);
		cr_expect_eq(tl_get(t, "query_tis_out", "transport_domain"), td);
		st = modify_tis(t, tisn, 0, 0x9, 0); /* prio 20h[19:16], bit 0 clear */
		if (strict) {
			tl_reserved(t, st, 0x20ull << 32 | 0x90000);
		} else {
			cr_expect_eq(st, 0);
			cr_expect_eq(t->tr.last_violation_arg, 0x20ull << 32 | 0x90000);
			t->tr.violations = 0;
		}
		cr_assert_eq(query_tis(t, tisn), 0);
		cr_expect_eq(tl_get(t, "query_tis_out", "prio"), strict ? 0xB : 0x4, "not taken");
		tl_down_clean(t);
	}
}

Test(tis, refusals)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t td = tl_alloc_td(t);
	/* T50 24h: the transport domain must exist; TDs are numbered from 1 (D-OBJ-2). */
	tl_refused(t, create_tis(t, td + 1, 0), TIS_TD_INVALID);
	tl_refused(t, create_tis(t, 0, 0), TIS_TD_OUT_OF_RANGE);
	tl_refused(t, create_tis(t, 0xFFFFFF, 0), TIS_TD_OUT_OF_RANGE);
	uint32_t tisn = tis(t, td, 2);
	/* Handles: 0 and beyond 2^log_max_tis are outside the table; tisn + 1 is free. */
	tl_refused(t, query_tis(t, 0), TIS_INDEX_OUT_OF_RANGE);
	tl_refused(t, query_tis(t, tisn + 1), TIS_NOT_FOUND);
	tl_refused(t, by_tisn(t, "DESTROY_TIS", "destroy_tis_in", tisn + 1), TIS_NOT_FOUND);
	tl_refused(t, by_tisn(t, "DESTROY_TIS", "destroy_tis_in", 1u << 20), TIS_INDEX_OUT_OF_RANGE);
	tl_refused(t, modify_tis(t, tisn + 1, 1, 3, 0), TIS_NOT_FOUND);
	/* T51: only bit 0 exists, in either half of the bitmask. */
	tl_refused(t, modify_tis(t, tisn, 3, 3, 0), TIS_MODIFY_BITMASK);
	tl_refused(t, modify_tis(t, tisn, 1ull << 32 | 1, 3, 0), TIS_MODIFY_BITMASK);
	/* §12.9.2 L7523: only with HCA_CAP.modify_tis (T145 6Ch[31], not writable by
	 * SET_HCA_CAP: the test turns it off in the model). */
	prm_set(t->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, modify_tis), 0);
	tl_refused(t, modify_tis(t, tisn, 1, 3, 0), TIS_MODIFY_UNSUPPORTED);
	prm_set(t->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, modify_tis), 1);
	cr_assert_eq(query_tis(t, tisn), 0);
	cr_expect_eq(tl_get(t, "query_tis_out", "prio"), 2, "refused MODIFY_TIS changed nothing");
	/* DEALLOC_TRANSPORT_DOMAIN of the TIS's domain: BAD_RES_STATE (D-OBJ-1). */
	uint8_t in[16] = { 0 }, out[16];
	nicref_field_set(in, 16, tl_field("dealloc_transport_domain_in", "opcode"),
			 (uint64_t)nicref_opcode_find("DEALLOC_TRANSPORT_DOMAIN"));
	nicref_field_set(in, 16, tl_field("dealloc_transport_domain_in", "transport_domain"), td);
	tl_refused(t, refdrv_cmd(&t->d, in, 16, out, 16), TD_IN_USE);
	cr_expect_eq(by_tisn(t, "DESTROY_TIS", "destroy_tis_in", tisn), 0);
	cr_expect_eq(refdrv_cmd(&t->d, in, 16, out, 16), 0);
	tl_refused(t, query_tis(t, tisn), TIS_NOT_FOUND);
	tl_down_clean(t);
}

Test(tis, count_limit)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.log_max_objects = 1; /* 2^1 TISs (T145 log_max_tis follows the profile) */
	struct tl_dev *t = tl_up(&p);
	uint32_t td = tl_alloc_td(t);
	tis(t, td, 0);
	tis(t, td, 0);
	struct nicref_hca_info before, after;
	nicref_hca_info(t->dev, &before);
	tl_refused(t, create_tis(t, td, 0), TIS_EXHAUSTED);
	nicref_hca_info(t->dev, &after);
	cr_expect_eq(after.tiss, 2);
	cr_expect_eq(after.query_pages[2], before.query_pages[2]);
	tl_down_clean(t);
}

Test(tis, attached_sqs)
{
	struct tl_dev *t = tl_up(NULL);
	uint32_t td = tl_alloc_td(t), pd = tl_alloc_pd(t);
	uint32_t tisn = tis(t, td, 1);
	uint32_t sqn = tl_sq(t, pd, tisn);
	cr_expect_eq(((struct tis *)obj_get(t->dev, OBJ_TIS, tisn))->hdr.refs, 1);
	/* D-OBJ-1: the SQ sends through it. */
	tl_refused(t, by_tisn(t, "DESTROY_TIS", "destroy_tis_in", tisn), TIS_IN_USE);
	/* §12.9.2 L7525: allowed while every attached SQ is not ready: RST ... */
	cr_expect_eq(modify_tis(t, tisn, 1, 5, 0), 0);
	/* ... refused while one is RDY (T128 BAD_RESOURCE_STATE) ... */
	cr_assert_eq(refdrv_modify_sq(&t->d, sqn, 0, 1), 0, "%s", t->d.error);
	tl_refused(t, modify_tis(t, tisn, 1, 6, 0), TIS_MODIFY_SQ_ATTACHED);
	/* ... and allowed again in ERR. */
	cr_assert_eq(refdrv_modify_sq(&t->d, sqn, 1, 3), 0, "%s", t->d.error);
	cr_expect_eq(modify_tis(t, tisn, 1, 7, 0), 0);
	cr_assert_eq(query_tis(t, tisn), 0);
	cr_expect_eq(tl_get(t, "query_tis_out", "prio"), 7);
	cr_assert_eq(refdrv_destroy_sq(&t->d, sqn), 0);
	cr_expect_eq(by_tisn(t, "DESTROY_TIS", "destroy_tis_in", tisn), 0);
	tl_down_clean(t);
}
