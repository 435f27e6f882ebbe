/* UMR (PRM §7.4.4.1.3 T31-T37, §10.1.1; eth/wqe_umr.c, obj/mkey_umr.c, D-TX-13, D-TX-14): a UMR
 * WQE maps an indirect MKey from inline KLMs or through the UMR pointer, with the checks of
 * §10.1.1.1 in order, the MkeyCtx bit mask, and the fence the next WQE needs. Shared tools:
 * tx_util.h. */
#include "obj/mkey.h"
#include "tx_util.h"

TestSuite(tx_umr, .init = tx_setup, .fini = tx_teardown);

#define VA 0x7000000000ull /* where the indirect MKey's region starts once mapped */

/* An indirect MKey (KLM, §6.1) created free with umr_en and a table of `size` octwords. */
static uint32_t indirect_mkey(uint32_t pd, bool umr_en, bool free_, uint32_t size)
{
	struct refdrv_mkey_attr m = { .access_mode = 2,
				      .pd = pd,
				      .tag = 0x33,
				      .umr_en = umr_en,
				      .free = free_,
				      .octword_size = size };
	uint32_t idx;
	cr_assert_eq(refdrv_create_mkey(&tdev->d, &m, &idx), 0, "%s", tdev->d.error);
	tl_mark(&tdev->tr);
	return idx << 8 | 0x33;
}

/* T31: ctrl (UMR, umr_mkey), the UMR control segment at 10h, the MKeyCtx at 40h (free 0, len,
 * start_addr), then n KLMs inline at 80h (T36/T37). */
static void w_umr(struct wqe *w, uint32_t key, unsigned check_free, uint64_t mask,
		  const struct refdrv_klm *k, unsigned n, uint64_t len)
{
	w_ctrl(w, NICREF_SEND_OP_UMR, 2);
	seg_set(w, 0, "send_wqe_ctrl", "umr_mkey", key);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "inline", 1);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "check_free", check_free);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "translation_octword_actual_size", n);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "mkeyctx_bit_mask", mask);
	seg_set(w, 0x40, "mkc", "free", 0);
	seg_set(w, 0x40, "mkc", "len", len);
	seg_set(w, 0x40, "mkc", "start_addr", VA);
	seg_set(w, 0x40, "mkc", "lr", 1);
	for (unsigned i = 0; i < n; i++) {
		size_t at = 0x80 + 16u * i;
		seg_set(w, at, "klm", "byte_count", k[i].byte_count);
		seg_set(w, at, "klm", "mkey", k[i].mkey);
		seg_set(w, at, "klm", "address_h_63_32", k[i].address >> 32);
		seg_set(w, at, "klm", "address_l_31_0", k[i].address & 0xFFFFFFFF);
	}
	w->len = 0x80 + 16u * n;
}

/* T33 mask bits: 0 len, 6 start_addr, 29 free. */
#define MASK (1ull << 0 | 1ull << 6 | 1ull << 29)

/* The packet's first 42 bytes inline, 58 more through the indirect key: 30 from one KLM, 28 from
 * the other. */
static uint8_t pkt[100];
static void klms(struct refdrv_klm k[4])
{
	tx_udp_packet(pkt, sizeof pkt, TX_DMAC);
	k[0] = (struct refdrv_klm){ 30, tx.lkey, tx_data(0x2000, pkt + 42, 30) };
	k[1] = (struct refdrv_klm){ 28, tx.lkey, tx_data(0x3000, pkt + 72, 28) };
	k[2] = (struct refdrv_klm){ 0, tx.lkey, tx.data }; /* the list pads to 64 B (T33) */
	k[3] = k[2];
}

static void send_through(uint32_t key, unsigned fm)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_SEND, 2);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", fm);
	w_eth(&w, 0, 0, 0, pkt, 42);
	w_ptr(&w, key, VA, 58);
	tx_send(&w);
}

Test(tx_umr, inline_klms_map_the_key_for_the_next_wqe)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	/* Before the UMR the key does not translate (§10.1.1: "cannot be used until it is
	 * mapped"). */
	send_through(key, 0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_DATA_LKEY);
	tx_teardown();
	tx_setup();
	key = indirect_mkey(tx.pd, true, true, 4);
	klms(k);
	struct wqe w;
	uint8_t cqe[64];
	w_umr(&w, key, 1, MASK, k, 4, 58);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0, "§10.1.1.1 step 7");
	cr_expect_eq(CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_UMR);
	send_through(key, 1); /* small fence (§10.1.1) */
	tx_expect_frame(0, pkt, sizeof pkt);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_umr, the_next_wqe_should_fence)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, 58);
	tx_send(&w);
	send_through(key, 0);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_UMR_FENCE_MISSING);
	tx_expect_frame(0, pkt, sizeof pkt); /* executed in order: the mapping is there */
}

static void expect_umr_error(enum nicref_violation rule, uint8_t syndrome)
{
	uint8_t cqe[64];
	tl_expect_one_violation(&tdev->tr, rule);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(ERR_CQE(cqe, "opcode"), 13);
	cr_expect_eq(ERR_CQE(cqe, "syndrome"), syndrome);
	cr_expect_eq(ERR_CQE(cqe, "s_wqe_opcode"), NICREF_SEND_OP_UMR);
}

Test(tx_umr, step_1_the_mkey_is_valid)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key ^ 0x01, 0, MASK, k, 4, 58); /* another tag */
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_MKEY_INVALID, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_umr, step_2_check_free)
{
	/* T33 Check_free 01: fail if not free. */
	uint32_t key = indirect_mkey(tx.pd, true, false, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 1, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_CHECK_FREE, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_umr, step_2_check_free_10)
{
	/* T33 Check_free 10: fail if free. */
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 2, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_CHECK_FREE, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_umr, check_free_11_is_reserved)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 3, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_CHECK_FREE_RESERVED, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_umr, step_3_the_sq_pd)
{
	uint32_t key = indirect_mkey(tl_alloc_pd(tdev), true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_PD, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_umr, step_4_umr_en)
{
	uint32_t key = indirect_mkey(tx.pd, false, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_NOT_ENABLED, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

Test(tx_umr, step_5_the_table_size)
{
	/* 8 octwords into a table of 4 (T10 translations_octword_size). */
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[8];
	klms(k);
	klms(k + 4);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 8, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_TRANSLATIONS_BEYOND, NICREF_CQE_SYN_LOCAL_LENGTH);
}

Test(tx_umr, translation_offset)
{
	/* T33: "translation_offset ... to write klms/mtts at some offset ... changing only some":
	 * the first 4 octwords of a table of 8; then 4 more at offset 4, right after them
	 * (D-TX-13: an offset past the delivered octwords would leave a gap, refused). */
	uint32_t key = indirect_mkey(tx.pd, true, true, 8);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	uint8_t cqe[64];
	w_umr(&w, key, 0, MASK, k, 4, 58);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	/* The region's first 58 bytes are entries 0-1's, whatever entries 4-7 hold. */
	w_umr(&w, key, 0, 0, k, 4, 58);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", 1);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset_en", 1);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset", 4);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	send_through(key, 1);
	tx_expect_frame(0, pkt, sizeof pkt);
	/* Past the table: offset 8 + 4. */
	w_umr(&w, key, 0, 0, k, 4, 58);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", 1);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset_en", 1);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset", 8);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	expect_umr_error(NICREF_VIO_TX_UMR_TRANSLATIONS_BEYOND, NICREF_CQE_SYN_LOCAL_LENGTH);
}

Test(tx_umr, sizes_align_to_64_bytes)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 2, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_ALIGN, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_umr, reserved_mask_bits_change_nothing)
{
	/* T33 "other bits are reserved"; §10.1.1 "HW will block changing fields that should not
	 * be changed": bit 2 reported, the UMR done. */
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	uint8_t cqe[64];
	w_umr(&w, key, 0, MASK | 1ull << 2, k, 4, 58);
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_UMR_MASK_RESERVED);
	cr_expect_eq(tdev->tr.last_violation_arg, 1ull << 2);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
}

Test(tx_umr, a_klm_over_2gb)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	k[3].byte_count = 0x80000001u; /* T37 "Must be up to 2GB" */
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, 58);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_KLM_BYTE_COUNT, NICREF_CQE_SYN_LOCAL_LENGTH);
}

Test(tx_umr, inline_translations_past_ds)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, 58);
	w.len -= 16;
	tx_send(&w);
	tl_expect_one_violation(&tdev->tr, NICREF_VIO_TX_UMR_INLINE_BEYOND_DS);
}

Test(tx_umr, too_short_for_its_segments)
{
	struct wqe w;
	w_ctrl(&w, NICREF_SEND_OP_UMR, 2);
	w.len = 0x70; /* T31: ctrl, UMR control, MKeyCtx take 80h */
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_SEGMENTS, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

/* ---- The UMR pointer (inline = 0, T34/T35) --------------------------------------------------- */

static void w_umr_pointer(struct wqe *w, uint32_t key, uint32_t lkey, uint64_t addr)
{
	w_umr(w, key, 0, MASK, NULL, 0, 58);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "inline", 0);
	seg_set(w, 0x10, "send_wqe_umr_ctrl", "translation_octword_actual_size", 4);
	seg_set(w, 0x80, "send_wqe_umr_pointer", "mkey", lkey);
	seg_set(w, 0x80, "send_wqe_umr_pointer", "address_h_63_32", addr >> 32);
	seg_set(w, 0x80, "send_wqe_umr_pointer", "address_l_31_0", addr & 0xFFFFFFFF);
	w->len = 0x90;
}

static uint64_t klm_list_at(uint64_t off, const struct refdrv_klm k[4])
{
	uint8_t list[64] = { 0 };
	for (unsigned i = 0; i < 4; i++) {
		tl_put32(list + 16 * i, k[i].byte_count);
		tl_put32(list + 16 * i + 4, k[i].mkey);
		tl_put32(list + 16 * i + 8, (uint32_t)(k[i].address >> 32));
		tl_put32(list + 16 * i + 12, (uint32_t)k[i].address);
	}
	return tx_data(off, list, sizeof list);
}

Test(tx_umr, the_list_behind_a_pointer)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	uint8_t cqe[64];
	w_umr_pointer(&w, key, tx.lkey, klm_list_at(0x8000, k));
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	send_through(key, 1);
	tx_expect_frame(0, pkt, sizeof pkt);
	cr_expect_eq(tdev->tr.violations, 0);
}

Test(tx_umr, the_pointer_is_2kb_aligned)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr_pointer(&w, key, tx.lkey, klm_list_at(0x8040, k));
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_POINTER_ALIGN, NICREF_CQE_SYN_LOCAL_QP_OPERATION);
}

Test(tx_umr, the_pointer_translates)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr_pointer(&w, key, tx.lkey ^ 1, klm_list_at(0x8000, k));
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_POINTER_LKEY, NICREF_CQE_SYN_LOCAL_PROTECTION);
}

/* D-TX-13 (revmkey finding 1): a list read through the MKey the UMR rewrites would be read
 * through a half-rewritten translation (§10.1.1.1 step 6 copies the list after the checks); it
 * is refused before anything changes, and the MKey keeps its translation and invariants. */
static int first_piece(void *ctx, uint64_t pa, uint64_t len)
{
	uint64_t *p = ctx;
	if (!p[1]++)
		p[0] = pa;
	(void)len;
	return 0;
}

Test(tx_umr, the_list_is_not_read_through_the_target)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 32);
	struct wqe w;
	uint8_t cqe[64];
	/* UMR 1 (inline): KLM 0 = 4 KB at data + 0x8000, the region [VA, VA + 4 KB). */
	struct refdrv_klm k[4] = { { 0x1000, tx.lkey, tx.data + 0x8000 },
				   { 0, tx.lkey, tx.data },
				   { 0, tx.lkey, tx.data },
				   { 0, tx.lkey, tx.data } };
	w_umr(&w, key, 0, MASK, k, 4, 0x1000);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_assert_eq(CQE(cqe, "opcode"), 0);
	/* UMR 2: 20 KLMs read through `key` itself at VA (= data + 0x8000); KLM 0 names no key. */
	uint8_t list[20 * 16] = { 0 };
	tl_put32(list, 0x800);
	tl_put32(list + 4, 0x00DEAD33);
	tx_data(0x8000, list, sizeof list);
	w_umr_pointer(&w, key, key, VA);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_octword_actual_size", 20);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "mkeyctx_bit_mask", 0);
	seg_set(&w, 0, "send_wqe_ctrl", "fm", 1);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_POINTER_SELF, NICREF_CQE_SYN_LOCAL_PROTECTION);
	char why[256];
	cr_expect_eq(nicref_dev_check_explain(tdev->dev, why, sizeof why), 0, "%s", why);
	/* The MKey as UMR 1 left it: VA + 0x10 still at data + 0x8010. */
	uint64_t got[2] = { 0, 0 };
	struct mkey_req r = { key, tx.pd, VA + 0x10, 16, MKEY_LOCAL_READ, false };
	cr_expect_eq(mkey_translate(tdev->dev, &r, first_piece, got), MKEY_OK);
	cr_expect_eq(got[0], tx.data + 0x8010);
}

/* D-TX-13 (revmkey finding 3): T145 20h[22:16] log_max_mrw_sz bounds an MKey's len (CREATE_MKEY
 * refuses more, D-MKC-5); a UMR setting a longer len is a local length error (T74 0x1) and
 * changes nothing. The default profile's log_max_mrw_sz is 48. */
Test(tx_umr, len_within_log_max_mrw_sz)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	w_umr(&w, key, 0, MASK, k, 4, (1ull << 48) + 1);
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_MKEY_TOO_LONG, NICREF_CQE_SYN_LOCAL_LENGTH);
	/* Nothing changed: the MKey is still free (the mask's free bit was not applied). */
	struct mkey_req r = { key, tx.pd, VA, 16, MKEY_LOCAL_READ, false };
	cr_expect_eq(mkey_translate(tdev->dev, &r, NULL, NULL), MKEY_ERR_FREE);
}

Test(tx_umr, len_of_2_to_log_max_mrw_sz)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 4);
	struct refdrv_klm k[4];
	klms(k);
	struct wqe w;
	uint8_t cqe[64];
	w_umr(&w, key, 0, MASK, k, 4, 1ull << 48);
	tx_send(&w);
	cr_assert_eq(tx_poll(cqe), 1);
	cr_expect_eq(CQE(cqe, "opcode"), 0);
	cr_expect_eq(tdev->tr.violations, 0);
}

/* D-MKC-8, D-TX-13 (revmkey finding 2): only delivered entries translate, so a UMR whose
 * translation_offset lies past the octwords delivered so far (a gap of entries never written,
 * which an MTT table would translate to address 0) is step 5's error and changes nothing. */
Test(tx_umr, an_offset_past_the_delivered_entries)
{
	struct refdrv_mkey_attr a = { .access_mode = 1, .pd = tx.pd, .tag = 0x44, .umr_en = true,
				      .free = true, .log_entity_size = 12, .octword_size = 8 };
	uint32_t idx;
	cr_assert_eq(refdrv_create_mkey(&tdev->d, &a, &idx), 0, "%s", tdev->d.error);
	tl_mark(&tdev->tr);
	uint32_t key = idx << 8 | 0x44;
	struct wqe w;
	w_umr(&w, key, 0, MASK, NULL, 0, 0x10000);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_octword_actual_size", 4);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset_en", 1);
	seg_set(&w, 0x10, "send_wqe_umr_ctrl", "translation_offset", 4);
	for (unsigned i = 0; i < 8; i++) { /* MTT entries 8-15: pages 8-15 of the region */
		uint64_t pa = tx.data + 0x10000 + 0x1000ull * i;
		tl_put32(w.b + 0x80 + 8 * i, (uint32_t)(pa >> 32));
		tl_put32(w.b + 0x84 + 8 * i, (uint32_t)pa);
	}
	w.len = 0x80 + 64;
	tx_send(&w);
	expect_umr_error(NICREF_VIO_TX_UMR_TRANSLATIONS_BEYOND, NICREF_CQE_SYN_LOCAL_LENGTH);
	/* Nothing changed: still free, no entry delivered. */
	struct mkey_req r = { key, tx.pd, VA, 16, MKEY_LOCAL_READ, false };
	cr_expect_eq(mkey_translate(tdev->dev, &r, NULL, NULL), MKEY_ERR_FREE);
	const struct mkey *m = mkey_find(tdev->dev, key);
	cr_assert_not_null(m);
	cr_expect_eq(m->octwords, 0u);
}

/* The backstop of mkey_umr (obj/mkey_umr.c): should the copy pass's read fail after the check
 * pass's succeeded (a list whose translation changes under the copy; eth/wqe_umr.c refuses the
 * one way to make that happen), the KLM offsets still follow the entries (invariant -306). */
struct flaky_list {
	unsigned calls, fail_at;
	uint32_t bc; /* KLM k's byte_count: bc + k */
};

static int flaky_fetch(void *ctx, uint32_t first, uint32_t n, uint8_t *buf)
{
	struct flaky_list *f = ctx;
	if (++f->calls == f->fail_at)
		return 1;
	memset(buf, 0, (size_t)n * 16);
	for (uint32_t k = 0; k < n; k++)
		tl_put32(buf + 16 * k, f->bc + first + k);
	return 0;
}

Test(tx_umr, a_failed_copy_pass_keeps_the_invariants)
{
	uint32_t key = indirect_mkey(tx.pd, true, true, 32);
	uint8_t mkc[PRM_SIZE_mkc];
	memset(mkc, 0, sizeof mkc);
	/* 32 KLMs of 0x100 + k bytes delivered. */
	struct flaky_list f = { 0, 0, 0x100 };
	struct mkey_umr_req r = { key, tx.pd, 0, 0, mkc, 0, 32, flaky_fetch, &f };
	cr_assert_eq(mkey_umr(tdev->dev, &r), MKEY_UMR_OK);
	cr_assert_eq(nicref_dev_check(tdev->dev), 0);
	/* Rewritten with 0x200 + k: two chunks of 16, the check pass reads calls 1-2, the copy
	 * pass 3-4; call 4 fails after chunk 0 is written. */
	f = (struct flaky_list){ 0, 4, 0x200 };
	cr_expect_eq(mkey_umr(tdev->dev, &r), MKEY_UMR_READ);
	cr_expect_eq(f.calls, 4u);
	char why[256];
	cr_expect_eq(nicref_dev_check_explain(tdev->dev, why, sizeof why), 0, "%s", why);
}
