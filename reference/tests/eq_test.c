/* Event queues and events: CREATE/DESTROY/QUERY_EQ and GEN_EQE (PRM §12.6, T243-T258), EQEs in
 * host memory (§7.13.2, T77/T78), the EQ doorbells and arming (§7.2.2 T13, §7.13.12), interrupt
 * frequency moderation (§7.13.15), event mapping (§7.13.6, §12.6.1), page request, command
 * completion and port state change events (§7.13.9.2, §7.13.10). Decisions: docs/eq.md. */
#include <string.h>

#include "cmd/ctl_dev.h"
#include "driver_eq.h"
#include "testlib.h"

#define OWNER(e) ((e)[0x3F] & 1u)

/* ---- CREATE_EQ and QUERY_EQ -------------------------------------------------------------- */

/* The non-default value this test gives each EQC field of CREATE_EQ (T94), and what QUERY_EQ
 * returns for it. page_offset and the counters must be 0 (T94). */
static uint64_t eqc_value(const char *name, uint32_t uar)
{
	static const struct {
		const char *name;
		uint64_t v;
	} v[] = { { "ec", 1 },	       { "oi", 1 },	      { "page_offset", 0 },
		  { "log_eq_size", 8 }, { "intr", 7 },	      { "log_page_size", 1 },
		  { "consumer_counter", 0 }, { "producer_counter", 0 } };
	if (strcmp(name, "uar_page") == 0)
		return uar;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (strcmp(v[i].name, name) == 0)
			return v[i].v;
	cr_assert_fail("EQC field %s has no test value", name);
	return 0;
}

Test(eq_create, query_round_trips_every_field)
{
	struct tl_dev *t = tl_up(NULL);
	const struct nicref_layout *in = nicref_layout_find("create_eq_in");
	/* 2^8 EQEs of 64 B = 16 KB over 8 KB pages (log_page_size 1): two pas entries. */
	uint64_t buf = tl_hostmem(t, 0x4000);
	uint64_t events = 1ull << 0x04 | 1ull << 0x09 | 1ull << 0x0B;
	tl_begin(t, "create_eq_in", "CREATE_EQ");
	for (uint32_t i = 0; i < in->nfields; i++) {
		const struct nicref_field *f = &in->fields[i];
		if (f->prm_offset >= 0x10 && f->prm_offset < 0x50) /* the EQC (T244 10h-4Ch) */
			tl_set(t, "create_eq_in", f->name, eqc_value(f->name, t->uar));
	}
	tl_set(t, "create_eq_in", "event_bitmask", events);
	tl_set_elem(t, "create_eq_in", "pas", 0, buf);
	tl_set_elem(t, "create_eq_in", "pas", 1, buf + 0x2000);
	cr_assert_eq(tl_run_paged(t, 0x120, 0x10), 0, "%s", tl_rule_of(t->d.last_syndrome));
	uint32_t eqn = (uint32_t)tl_get(t, "create_eq_out", "eq_number");
	cr_expect_eq(eqn, 0, "EQs are numbered from 0 (§7.13.11 'numbered from 0x0', D-OBJ-2)");

	cr_assert_eq(refdrv_query_eq(&t->d, eqn, t->out, 0x120), 0);
	for (uint32_t i = 0; i < in->nfields; i++) {
		const struct nicref_field *f = &in->fields[i];
		if (f->prm_offset < 0x10 || f->prm_offset >= 0x50)
			continue;
		cr_expect_eq(tl_get(t, "query_eq_out", f->name), eqc_value(f->name, t->uar),
			     "QUERY_EQ %s", f->name);
	}
	cr_expect_eq(tl_get(t, "query_eq_out", "event_bitmask"), events);
	cr_expect_eq(tl_get(t, "query_eq_out", "st"), 0xA, "created FIRED (D-EQ-2)");
	cr_expect_eq(tl_get(t, "query_eq_out", "eq_status"), 0, "T94 status OK");
	cr_expect_eq(tl_get_elem(t, "query_eq_out", "pas", 0), buf);
	cr_expect_eq(tl_get_elem(t, "query_eq_out", "pas", 1), buf + 0x2000);
	tl_down(t);
}

/* A CREATE_EQ input of a 2-EQE EQ at buf, 4 KB pages, on t->uar, vector 0. */
static void create_in(struct tl_dev *t, uint64_t buf)
{
	tl_begin(t, "create_eq_in", "CREATE_EQ");
	tl_set(t, "create_eq_in", "log_eq_size", 1);
	tl_set(t, "create_eq_in", "uar_page", t->uar);
	tl_set_elem(t, "create_eq_in", "pas", 0, buf);
}

#define REFUSE(field, value, rule)                                                              \
	do {                                                                                    \
		create_in(t, buf);                                                              \
		tl_set(t, "create_eq_in", field, value);                                         \
		tl_refused(t, tl_run_paged(t, 0x118, 0x10), rule);                                \
	} while (0)

Test(eq_create, each_validity_rule)
{
	struct tl_dev *t = tl_up(NULL);
	uint64_t buf = tl_hostmem(t, 0x1000);
	REFUSE("page_offset", 1, EQ_PAGE_OFFSET_NOT_ZERO);          /* T94 "Must be 0" */
	REFUSE("consumer_counter", 1, EQ_COUNTER_NOT_ZERO);         /* T94 */
	REFUSE("producer_counter", 0x10, EQ_COUNTER_NOT_ZERO);      /* T94 */
	REFUSE("event_bitmask", 1, EQ_EVENT_BITMASK_BIT0);          /* T244 bitmask[0] */
	REFUSE("event_bitmask", 1ull << 0x0A | 1, EQ_EVENT_BITMASK_BIT0);
	REFUSE("intr", 64, EQ_INTR_BEYOND_VECTORS);                 /* 64 vectors (default) */
	REFUSE("log_eq_size", 23, EQ_LOG_SIZE_BEYOND_CAP);          /* log_max_eq_sz 22 */
	REFUSE("uar_page", t->uar + 1, EQ_UAR_NOT_ALLOCATED);       /* T94 uar_page */
	REFUSE("uar_page", 0xFFFFFF, EQ_UAR_OUT_OF_RANGE); /* beyond the UAR area (D-OBJ-2) */
	/* 2^7 EQEs = 8 KB: two 4 KB pages, one given (D-EQ-9). */
	REFUSE("log_eq_size", 7, EQ_PAS_SHORT);
	/* T139: pa_l is 31:12. */
	create_in(t, buf);
	tl_set_elem(t, "create_eq_in", "pas", 0, buf + 0x800);
	tl_refused(t, tl_run_paged(t, 0x118, 0x10), EQ_PAS_NOT_ALIGNED);
	/* Nothing was created by any of them; the limits still admit a valid one, eqn 0. */
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	create_in(t, buf);
	tl_set(t, "create_eq_in", "intr", 63);
	tl_set(t, "create_eq_in", "log_eq_size", 6); /* 4 KB: one page */
	cr_assert_eq(tl_run_paged(t, 0x118, 0x10), 0, "%s", tl_rule_of(t->d.last_syndrome));
	cr_expect_eq(tl_get(t, "create_eq_out", "eq_number"), 0);
	tl_down(t);
}

Test(eq_create, needs_icm_pages_and_asks_for_them)
{
	/* One EQ context per page, so the second EQ needs a page of its own. */
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.contexts_per_page = 1;
	struct tl_dev *t = tl_up(&p);
	uint64_t buf = tl_hostmem(t, 0x1000);
	/* D-PG-5: the reference driver gave boot and init pages only, and they hold the first
	 * page of EQ contexts: the first EQ is created. */
	create_in(t, buf);
	cr_assert_eq(tl_run(t, 0x118, 0x10), 0, "%s", tl_rule_of(t->d.last_syndrome));
	/* D-PG-4: the second needs one more page: NO_RESOURCES, and a Page Request event
	 * (T91/T92) that no EQ takes (EQ 0 maps none; §12.6: unmapped events are not
	 * reported). */
	create_in(t, tl_hostmem(t, 0x1000));
	tl_mark(&t->tr);
	tl_refused(t, tl_run(t, 0x118, 0x10), ICM_PAGES_SHORT);
	const struct nicref_event *d = tl_nth(&t->tr, NICREF_EV_EQE_DROPPED, 0);
	cr_assert(d);
	cr_expect_eq(d->arg[0], 0xFFFFFFFFu);
	cr_expect_eq(d->arg[1], 0x0B);
	cr_expect_eq(d->arg[2], 0, "reason: no EQ mapped");
	tl_begin(t, "query_eq_in", "QUERY_EQ");
	tl_set(t, "query_eq_in", "eq_number", 1);
	tl_refused(t, tl_run(t, 0x10, 0x110), EQ_NOT_FOUND);
	tl_down(t);
}

Test(eq_create, exhausts_at_two_to_log_max_eq)
{
	struct tl_dev *t = tl_up(NULL);
	/* T145 log_max_eq = 7 (caps_default): EQs 0..127. */
	for (unsigned i = 0; i < 128; i++) {
		struct refdrv_eq eq = tl_eq(t, 0, 0, 0);
		cr_assert_eq(eq.eqn, i);
	}
	create_in(t, tl_hostmem(t, 0x1000));
	tl_refused(t, tl_run_paged(t, 0x118, 0x10), EQ_EXHAUSTED);
	cr_assert_eq(refdrv_destroy_eq(&t->d, 77), 0);
	struct refdrv_eq again = tl_eq(t, 0, 0, 0);
	cr_expect_eq(again.eqn, 77, "the lowest free number (D-OBJ-2)");
	tl_down(t);
}

Test(eq_commands, unknown_eq_number)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0);
	uint8_t eqe[64] = { 0 };
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn + 1), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	cr_expect_eq(refdrv_query_eq(&t->d, 127, t->out, 0x110), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	cr_expect_eq(refdrv_gen_eqe(&t->d, 9, eqe), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0x05, "destroyed twice");
	tl_down(t);
}

/* D-OBJ-2: an eq_number outside the EQ numbers, 0 to 2^log_max_eq - 1 (T145; §7.13.11 "numbered
 * from 0x0"), is BAD_INDEX (T128 0x0A "beyond table size"), as every object's number; one in
 * them that names no EQ stays BAD_RESOURCE (0x05 "unallocated resource"). */
Test(eq_commands, numbers_beyond_the_eq_table_are_bad_index)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0);
	uint8_t eqe[64] = { 0 };
	/* log_max_eq 7 (caps_default): 128 and 255 (the top of the 8-bit field) are beyond. */
	cr_expect_eq(refdrv_query_eq(&t->d, 128, t->out, 0x110), 0x0A);
	tl_refused(t, 0x0A, EQ_INDEX_OUT_OF_RANGE);
	cr_expect_eq(refdrv_destroy_eq(&t->d, 255), 0x0A);
	tl_refused(t, 0x0A, EQ_INDEX_OUT_OF_RANGE);
	cr_expect_eq(refdrv_gen_eqe(&t->d, 200, eqe), 0x0A);
	tl_refused(t, 0x0A, EQ_INDEX_OUT_OF_RANGE);
	/* 127, the last number, is in range: free, so BAD_RESOURCE. */
	cr_expect_eq(refdrv_destroy_eq(&t->d, 127), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	cr_expect_eq(refdrv_gen_eqe(&t->d, 127, eqe), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	cr_expect_eq(refdrv_query_eq(&t->d, eq.eqn, t->out, 0x110), 0, "the live EQ answers");
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	tl_down(t);
}

Test(eq_commands, the_eq_range_follows_log_max_eq)
{
	/* A profile of 2^3 EQs: 8 is beyond, 7 in range (the range comes from the capability,
	 * as obj_open_tables sizes every table). */
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_assert_eq(nicref_profile_cap_set(&p, "hca_cap", "log_max_eq", 3), NICREF_CAP_SET_OK);
	struct tl_dev *t = tl_up(&p);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0);
	cr_expect_eq(refdrv_query_eq(&t->d, 8, t->out, 0x110), 0x0A);
	tl_refused(t, 0x0A, EQ_INDEX_OUT_OF_RANGE);
	cr_expect_eq(refdrv_query_eq(&t->d, 7, t->out, 0x110), 0x05);
	tl_refused(t, 0x05, EQ_NOT_FOUND);
	/* CREATE_CQ's c_eqn takes the same range (D-OBJ-2, docs/cq.md D-CQ-21). */
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	tl_set(t, "create_cq_in", "log_cq_size", 1);
	tl_set(t, "create_cq_in", "uar_page", t->uar);
	tl_set(t, "create_cq_in", "c_eqn", 8);
	tl_set_elem(t, "create_cq_in", "pas", 0, tl_hostmem(t, 0x1000));
	int st = tl_run_paged(t, 0x118, 0x10);
	cr_expect_eq(st, 0x0A);
	tl_refused(t, st, CQ_EQ_OUT_OF_RANGE);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	tl_down(t);
}

Test(eq_commands, destroy_refused_while_a_cq_reports_to_it)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0);
	struct refdrv_cq cq = tl_cq(t, 1, eq.eqn);
	/* D-EQ-1 (D-OBJ-1): BAD_RES_STATE, nothing changes. */
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0x09);
	tl_refused(t, 0x09, EQ_IN_USE);
	cr_expect_eq(refdrv_query_eq(&t->d, eq.eqn, t->out, 0x110), 0);
	cr_expect_eq(refdrv_destroy_cq(&t->d, cq.cqn), 0);
	cr_expect_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	tl_down(t);
}

/* ---- EQEs in host memory ----------------------------------------------------------------- */

static void read_eqe(struct tl_dev *t, const struct refdrv_eq *eq, unsigned index, uint8_t e[64])
{
	tl_mem_read(t, eq->a.buf + 64u * index, e, 64);
}

static void gen(struct tl_dev *t, const struct refdrv_eq *eq, uint8_t type, uint8_t data0)
{
	uint8_t eqe[64] = { 0 };
	eqe[1] = type;   /* T78 00h[23:16] */
	eqe[3] = 0x5;    /* event_sub_type */
	eqe[0x20] = data0; /* event_data 20h */
	cr_assert_eq(refdrv_gen_eqe(&t->d, eq->eqn, eqe), 0);
}

Test(eq_eqe, ownership_and_signature_across_a_wrap)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0); /* 2 EQEs */
	uint8_t e[64];
	tl_mark(&t->tr);
	gen(t, &eq, 0x17, 0xA0);
	gen(t, &eq, 0x17, 0xA1);
	for (unsigned i = 0; i < 2; i++) {
		read_eqe(t, &eq, i, e);
		/* T78: type and sub type as generated; event data kept; owner of the first pass
		 * (pc >> 1) & 1 = 0 (§7.12.3.1, the buffer was initialised to 1). */
		cr_expect_eq(e[1], 0x17);
		cr_expect_eq(e[3], 0x5);
		cr_expect_eq(e[0x20], 0xA0 + i);
		cr_expect_eq(OWNER(e), 0);
		/* T78: XOR of the EQE and its index is 0xFF (D-CQE-1). */
		cr_expect_eq(tl_xor_index(e, 64, i), 0xFF, "EQE %u signature", i);
		const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, i);
		cr_assert(ev);
		cr_expect_eq(ev->arg[0], eq.eqn);
		cr_expect_eq(ev->arg[1], i);
		cr_expect_eq(ev->arg[2], 0x17);
		cr_expect_eq(ev->arg[3], 0x5);
	}
	/* Software polls both (owner == (cc >> 1) & 1), then the EQ is empty. */
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 0);
	refdrv_eq_doorbell(&t->d, &eq, false); /* 48h: CI 2 */
	gen(t, &eq, 0x17, 0xA2);
	read_eqe(t, &eq, 0, e);
	/* The second pass: pc = 2, owner (2 >> 1) & 1 = 1; signature over index 2. */
	cr_expect_eq(OWNER(e), 1);
	cr_expect_eq(e[0x20], 0xA2);
	cr_expect_eq(tl_xor_index(e, 64, 2), 0xFF);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1, "software owns it (cc 2 -> owner 1)");
	cr_assert_eq(refdrv_query_eq(&t->d, eq.eqn, t->out, 0x110), 0);
	cr_expect_eq(tl_get(t, "query_eq_out", "producer_counter"), 3);
	cr_expect_eq(tl_get(t, "query_eq_out", "consumer_counter"), 2, "last CI seen by HW (T94)");
	tl_down(t);
}

Test(eq_eqe, overrun_drops_and_breaks_the_eq)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 0, 0);
	uint8_t before[64], after[64];
	gen(t, &eq, 0x17, 1);
	gen(t, &eq, 0x17, 2);
	read_eqe(t, &eq, 0, before);
	tl_mark(&t->tr);
	/* D-EQ-4: pc - cc == 2 == 2^log_eq_size: full; oi = 0: the EQE is dropped, the EQ broken. */
	gen(t, &eq, 0x17, 3);
	const struct nicref_event *d = tl_nth(&t->tr, NICREF_EV_EQE_DROPPED, 0);
	cr_assert(d);
	cr_expect_eq(d->arg[0], eq.eqn);
	cr_expect_eq(d->arg[1], 0x17);
	cr_expect_eq(d->arg[2], 1, "reason: overrun");
	tl_violation(t, EQ_OVERRUN, eq.eqn);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 0);
	read_eqe(t, &eq, 0, after);
	cr_expect_eq(memcmp(before, after, 64), 0, "entry 0 not overwritten");
	/* An EQ without asynchronous events: not the fatal ASYNCHRONOUS_EQ_BUF_OVERRUN. */
	cr_expect_eq(nicref_bar_read32(t->dev, 0x1010) >> 24, 0);
	/* Even after software catches up, the EQ stays broken (reason 2). */
	eq.cc = 2;
	refdrv_eq_doorbell(&t->d, &eq, false);
	tl_mark(&t->tr);
	gen(t, &eq, 0x17, 4);
	d = tl_nth(&t->tr, NICREF_EV_EQE_DROPPED, 0);
	cr_assert(d);
	cr_expect_eq(d->arg[2], 2, "reason: EQ in error");
	tl_down(t);
}

Test(eq_eqe, overrun_of_an_async_eq_is_fatal)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 1, 1ull << 0x09, 0);
	gen(t, &eq, 0x17, 1);
	gen(t, &eq, 0x17, 2);
	tl_mark(&t->tr);
	gen(t, &eq, 0x17, 3);
	/* D-EQ-4, T8: health_syndrome 0xC ASYNCHRONOUS_EQ_BUF_OVERRUN. */
	cr_expect_eq(nicref_bar_read32(t->dev, 0x1010) >> 24, 0xC);
	tl_violation(t, EQ_OVERRUN, eq.eqn);
	tl_down(t);
}

Test(eq_eqe, overrun_ignore_overwrites_and_collapse_writes_entry_0)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq_attr a = { .buf = tl_hostmem(t, 0x1000), .log_eq_size = 1, .uar = t->uar,
				    .oi = true };
	struct refdrv_eq eq;
	cr_assert_eq(refdrv_create_eq(&t->d, &a, &eq), 0);
	uint8_t e[64];
	tl_mark(&t->tr);
	for (unsigned i = 0; i < 3; i++)
		gen(t, &eq, 0x17, (uint8_t)i);
	/* T94 oi: the third EQE overwrites entry 0, owner (2 >> 1) & 1 = 1. */
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 3);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE_DROPPED), 0);
	read_eqe(t, &eq, 0, e);
	cr_expect_eq(e[0x20], 2);
	cr_expect_eq(OWNER(e), 1);

	struct refdrv_eq_attr b = { .buf = tl_hostmem(t, 0x1000), .log_eq_size = 2, .uar = t->uar,
				    .ec = true };
	struct refdrv_eq ec;
	cr_assert_eq(refdrv_create_eq(&t->d, &b, &ec), 0);
	for (unsigned i = 0; i < 5; i++)
		gen(t, &ec, 0x17, (uint8_t)(0x40 + i));
	/* T94 ec: "all EQEs are written (collapsed) to first EQ entry"; entry 1 untouched. */
	read_eqe(t, &ec, 0, e);
	cr_expect_eq(e[0x20], 0x44);
	cr_expect_eq(tl_xor_index(e, 64, 4), 0xFF);
	tl_mem_read(t, ec.a.buf + 64, e, 64);
	cr_expect_eq(e[0x3F], 0x01, "entry 1 still as initialised");
	tl_down(t);
}

/* ---- Arming and interrupts ----------------------------------------------------------------- */

static uint64_t st_of(struct tl_dev *t, const struct refdrv_eq *eq)
{
	cr_assert_eq(refdrv_query_eq(&t->d, eq->eqn, t->out, 0x110), 0);
	return tl_get(t, "query_eq_out", "st");
}

Test(eq_arm, one_interrupt_per_arm)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 3);
	uint8_t e[64];
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true); /* 40h, CI 0 = pc: nothing pending */
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 0);
	cr_expect_eq(st_of(t, &eq), 0x9, "ARMED (T94)");
	gen(t, &eq, 0x17, 0);
	/* §7.13.12: an EQE on an armed EQ interrupts on its vector and disarms it. */
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	const struct nicref_event *irq = tl_nth(&t->tr, NICREF_EV_INTERRUPT, 0);
	cr_expect_eq(irq->arg[0], 3);
	cr_expect_eq(irq->arg[1], eq.eqn);
	cr_expect_gt(irq->seq, tl_nth(&t->tr, NICREF_EV_EQE, 0)->seq, "the EQE before the interrupt");
	cr_expect_eq(st_of(t, &eq), 0xA, "FIRED");
	gen(t, &eq, 0x17, 1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1, "no further interrupt until re-armed");
	/* 48h updates CI without arming. */
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, false);
	cr_expect_eq(st_of(t, &eq), 0xA);
	gen(t, &eq, 0x17, 2);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	/* D-EQ-3: arming with EQEs not consumed (cc 1, pc 3) interrupts at once. */
	refdrv_eq_doorbell(&t->d, &eq, true);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 2);
	cr_expect_eq(st_of(t, &eq), 0xA);
	/* All consumed, armed: the next EQE interrupts. */
	while (refdrv_eq_poll(&t->d, &eq, e) == 1)
		;
	refdrv_eq_doorbell(&t->d, &eq, true);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 2);
	gen(t, &eq, 0x17, 3);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 3);
	tl_down(t);
}

Test(eq_arm, doorbell_violations_change_nothing)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 0, 0);
	uint32_t uar2;
	cr_assert_eq(refdrv_alloc_uar(&t->d, &uar2), 0);
	uint32_t page = (uint32_t)refdrv_uar_offset(&t->d, t->uar);
	tl_mark(&t->tr);
	/* T13: no EQ 9. */
	nicref_bar_write32(t->dev, page + 0x40, 9u << 24);
	tl_violation(t, EQ_DB_NO_EQ, 9);
	/* §7.2 item 4: the EQ's page is t->uar, not uar2. */
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, (uint32_t)refdrv_uar_offset(&t->d, uar2) + 0x40, eq.eqn << 24);
	tl_violation(t, EQ_DB_WRONG_UAR, eq.eqn);
	/* §7.13.2: CI 1 with no EQE written. */
	tl_mark(&t->tr);
	nicref_bar_write32(t->dev, page + 0x48, eq.eqn << 24 | 1);
	tl_violation(t, EQ_DB_CI_BEYOND_PC, (uint64_t)eq.eqn << 24 | 1);
	cr_expect_eq(st_of(t, &eq), 0xA, "none of them armed it");
	cr_expect_eq(tl_get(t, "query_eq_out", "consumer_counter"), 0);
	tl_down(t);
}

/* CONFIG_INT_MODERATION (T209/T210) op_mod 0 write: vector 3, min_delay 10 us. */
static void moderate_vector3(struct tl_dev *t)
{
	tl_int_moderation(t, 3, 10);
}

Test(eq_arm, interrupt_frequency_moderation)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 4, 0, 3);
	uint8_t e[64];
	moderate_vector3(t);
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 0);
	/* §7.13.15: the timer is zero: the interrupt fires now and reloads it. */
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	uint64_t t0 = nicref_clock_now(t->dev);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 1);
	/* The timer runs: the request waits until it expires. */
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	cr_expect_eq(st_of(t, &eq), 0xA, "the EQ fired (its interrupt is held by the vector)");
	nicref_clock_advance(t->dev, 9999);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	nicref_clock_advance(t->dev, 1);
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 2);
	const struct nicref_event *irq = tl_nth(&t->tr, NICREF_EV_INTERRUPT, 1);
	cr_expect_eq(irq->arg[0], 3);
	cr_expect_eq(irq->arg[1], eq.eqn);
	cr_expect_eq(irq->time_ns, t0 + 10000);
	/* Long after the last one, a request fires immediately again. */
	nicref_clock_advance(t->dev, 50000);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 2);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 3);
	tl_down(t);
}

/* §7.13.15 "Every time interrupt is fired ... the timer is re-loaded": a held interrupt
 * released by a clock advance fired at its deadline, so the timer reloads there whatever the
 * size of the advance (D-EQ-11). Returns the interrupts after a third request 10 us after the
 * held one's deadline. */
static size_t held_irq_then_third(unsigned steps)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 4, 0, 3);
	uint8_t e[64];
	moderate_vector3(t);
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 0); /* fires at T, the timer reloads */
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 1); /* held, due at T + 10 us */
	for (unsigned i = 0; i < steps; i++)
		nicref_clock_advance(t->dev, 20000 / steps);
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 2);
	cr_expect_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, true);
	gen(t, &eq, 0x17, 2); /* T + 20 us */
	size_t n = tl_count(&t->tr, NICREF_EV_INTERRUPT);
	tl_down(t);
	return n;
}

Test(eq_arm, held_interrupt_reloads_the_timer_at_its_deadline)
{
	cr_expect_eq(held_irq_then_third(2), 3, "two 10 us steps: the third interrupt at once");
	cr_expect_eq(held_irq_then_third(1), 3,
		     "one 20 us step: the timer reloaded at the deadline (T + 10 us), not later");
}

/* ---- Event mapping and the device's events ------------------------------------------------- */

static void paos_admin(struct tl_dev *t, unsigned admin)
{
	tl_begin(t, "access_reg_paos_in", "ACCESS_REG");
	tl_set(t, "access_reg_paos_in", "register_id", 0x5006);
	tl_set(t, "access_reg_paos_in", "local_port", 1);
	tl_set(t, "access_reg_paos_in", "admin_status", admin);
	tl_set(t, "access_reg_paos_in", "ase", 1);
	cr_assert_eq(tl_run(t, 0x20, 0x20), 0);
}

Test(eq_events, mapping_moves_and_port_state_change)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq a = tl_eq(t, 2, 1ull << 0x09, 0);
	struct refdrv_eq b = tl_eq(t, 2, 1ull << 0x09 | 1ull << 0x04, 0);
	/* L6806: "If the event group was previously mapped to another EQ, it will be remapped". */
	cr_assert_eq(refdrv_query_eq(&t->d, a.eqn, t->out, 0x110), 0);
	cr_expect_eq(tl_get(t, "query_eq_out", "event_bitmask"), 0, "D-EQ-5: mapped now");
	cr_assert_eq(refdrv_query_eq(&t->d, b.eqn, t->out, 0x110), 0);
	cr_expect_eq(tl_get(t, "query_eq_out", "event_bitmask"), 1ull << 0x09 | 1ull << 0x04);
	tl_mark(&t->tr);
	paos_admin(t, 2); /* down: §7.13.9.2, sub_type 0x1 (D-REG-23) */
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[0], b.eqn);
	cr_expect_eq(ev->arg[2], 0x09);
	cr_expect_eq(ev->arg[3], 0x1);
	uint8_t e[64];
	read_eqe(t, &b, 0, e);
	cr_expect_eq(e[0x20 + 0x08] >> 4, 1, "T87 port_num at event data 08h[31:28]");
	/* Destroying B unmaps its events (L6808): the next change makes no EQE (D-EQ-6). */
	cr_assert_eq(refdrv_destroy_eq(&t->d, b.eqn), 0);
	tl_mark(&t->tr);
	paos_admin(t, 1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_PORT_EVENT), 1);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE_DROPPED), 0);
	tl_down(t);
}

Test(eq_events, page_request_event)
{
	struct nicref_profile p; /* D-PG-4's refusal: page_wait 0 (D-PG-6) */
	nicref_profile_default(&p);
	p.page_wait = 0;
	struct tl_dev *t = tl_up(&p);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x0B, 0);
	/* A CQ context needs a page the device does not have (D-PG-4): NO_RESOURCES and a Page
	 * Request (T91/T92) of 1 page on the EQ that takes type 0x0B. */
	tl_begin(t, "create_cq_in", "CREATE_CQ");
	tl_set(t, "create_cq_in", "uar_page", t->uar);
	tl_set(t, "create_cq_in", "c_eqn", eq.eqn);
	tl_set(t, "create_cq_in", "dbr_addr", tl_hostmem(t, 8));
	tl_set_elem(t, "create_cq_in", "pas", 0, tl_hostmem(t, 0x1000));
	tl_mark(&t->tr);
	tl_refused(t, tl_run(t, 0x118, 0x10), ICM_PAGES_SHORT);
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[2], 0x0B);
	uint8_t e[64];
	read_eqe(t, &eq, 0, e);
	cr_expect_eq(e[0x24] << 24 | e[0x25] << 16 | e[0x26] << 8 | e[0x27], 1,
		     "T92 num_pages at event data 04h");
	/* L3969: no second request before MANAGE_PAGES. */
	tl_mark(&t->tr);
	tl_refused(t, tl_run(t, 0x118, 0x10), ICM_PAGES_SHORT);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 0);
	tl_down(t);
}

static void nop(struct tl_dev *t)
{
	tl_begin(t, "nop_in", "NOP");
	cr_assert_eq(tl_run(t, 0x10, 0x10), 0);
}

Test(eq_events, command_completion_events)
{
	struct tl_dev *t = tl_up(NULL);
	tl_mark(&t->tr);
	/* L6810: no event for the CREATE_EQ that maps command completions. */
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x0A, 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE), 0);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_VIOLATION), 0, "the queue was empty");
	tl_mark(&t->tr);
	nop(t); /* §12.18.1: NOP "creates a command completion event" */
	const struct nicref_event *ev = tl_nth(&t->tr, NICREF_EV_EQE, 0);
	cr_assert(ev);
	cr_expect_eq(ev->arg[2], 0x0A);
	cr_expect_gt(ev->seq, tl_nth(&t->tr, NICREF_EV_CMD_DONE, 0)->seq, "after the ownership update");
	uint8_t e[64];
	read_eqe(t, &eq, 0, e);
	cr_expect_eq(e[0x23], 0x01, "T90: vector bit 0, slot 0");
	cr_expect_eq(e[0x20] | e[0x21] | e[0x22], 0);
	/* L6865: none for the DESTROY_EQ that unmaps them, none afterwards. */
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_destroy_eq(&t->d, eq.eqn), 0);
	nop(t);
	cr_expect_eq(tl_count(&t->tr, NICREF_EV_EQE) + tl_count(&t->tr, NICREF_EV_EQE_DROPPED), 0);
	tl_down(t);
}

Test(eq_events, command_completion_eq_created_with_commands_posted)
{
	struct tl_dev *t = tl_up(NULL);
	/* Slot 1 posted (T96 ownership 1) but not rung. */
	uint8_t own = 1;
	tl_mem_write(t, t->d.cmdq_addr + (1u << t->d.log_cmdq_stride) + 0x3F, &own, 1);
	tl_mark(&t->tr);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x0A, 0);
	/* §7.14 L4142: "must be posted to the command queue while it is empty". */
	tl_violation(t, EQ_CMD_EVENTS_QUEUE_BUSY, 1u << 1);
	(void)eq;
	tl_down(t);
}

Test(eq_events, reset_releases_every_eq)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 2, 1ull << 0x0A | 1ull << 0x09, 5);
	(void)tl_cq(t, 2, eq.eqn);
	nicref_dev_reset(t->dev);
	struct nicref_hca_info info;
	nicref_hca_info(t->dev, &info);
	cr_expect_eq(info.eqs, 0);
	cr_expect_eq(info.cqs, 0);
	cr_expect_eq(nicref_dev_check(t->dev), 0);
	tl_down(t);
}
