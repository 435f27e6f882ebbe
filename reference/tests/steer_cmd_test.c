/* Flow steering commands (PRM §12.14) where a vector cannot reach: the rules of a per-type
 * property (T151) lowered in the device (the vector caps name only top-level T149 fields,
 * harness/conformance.c), and the references nicref_dev_check recounts (D-OBJ-1). */
#include "steer_util.h"

#define RX 0
#define TX 1

Test(steer_cmd, rules_of_lowered_properties)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b, g;
	sprop(t, TX, "ft_support", 0);
	tl_refused(t, refdrv_create_flow_table(&t->d, TX, 0, 1, 0, 0, &a), FT_TYPE_UNSUPPORTED);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 2, 1, 0, 0, &a), 0);
	sprop(t, RX, "identified_miss_table", 0);
	tl_refused(t, refdrv_create_flow_table(&t->d, RX, 1, 1, 1, a, &b), FT_MISS_UNSUPPORTED);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 1, 1, 0, 0, &b), 0);
	sprop(t, RX, "flow_table_modify", 0);
	tl_refused(t, refdrv_modify_flow_table_miss(&t->d, RX, b, 0, 0), FT_MODIFY_UNSUPPORTED);
	sprop(t, RX, "modify_root", 0);
	tl_refused(t, refdrv_set_flow_table_root(&t->d, RX, b), FT_ROOT_UNSUPPORTED);
	sprop(t, RX, "log_max_ft_num", 1); /* two tables live: a third is one too many */
	tl_refused(t, refdrv_create_flow_table(&t->d, RX, 3, 1, 0, 0, NULL), FT_EXHAUSTED);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 1, 0, NULL, &g), 0);
	struct refdrv_fte f = { .group_id = g, .action = 2 };
	cr_assert_eq(refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), 0);
	sprop(t, RX, "flow_modify_en", 0);
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 0, 1, 1, &f), FTE_MODIFY_UNSUPPORTED);
	sprop(t, RX, "log_max_flow", 0); /* one valid flow of the type */
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 1, 0, 0, &f), FTE_FLOWS_EXHAUSTED);
	tl_down(t);
}

static int check(struct tl_dev *t)
{
	char buf[256];
	return nicref_dev_check_explain(t->dev, buf, sizeof buf);
}

/* D-OBJ-1: an FTE holds its group, its TIRs, its tables and its counters; a table its groups'
 * and the tables it misses to. nicref_dev_check recounts them; a count set wrong is caught. */
Test(steer_cmd, references_are_recounted)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b, g, c;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 64, 2, 0, 0, &b), 0);
	cr_assert_eq(refdrv_alloc_flow_counter(&t->d, &c), 0);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 3, 0, NULL, &g), 0);
	struct refdrv_fte f = { .group_id = g, .action = 4 | 8, .ndest = 2, .ncnt = 1 };
	f.dest[0].type = 2, f.dest[0].id = e.tir[0];
	f.dest[1].type = 1, f.dest[1].id = b;
	f.cnt[0] = (uint16_t)c;
	cr_assert_eq(refdrv_set_fte(&t->d, RX, a, 2, 0, 0, &f), 0);
	cr_expect_eq(check(t), 0);
	struct obj_hdr *tir = obj_get(t->dev, OBJ_TIR, e.tir[0]);
	struct obj_hdr *ft = obj_get(t->dev, OBJ_FT, b);
	struct obj_hdr *fc = obj_get(t->dev, OBJ_FC, c);
	struct obj_hdr *fg = obj_get(t->dev, OBJ_FG, g);
	cr_expect_eq(tir->refs, 1);
	cr_expect_eq(ft->refs, 1);
	cr_expect_eq(fc->refs, 1);
	cr_expect_eq(fg->refs, 1);
	struct obj_hdr *hs[] = { tir, ft, fc, fg };
	for (unsigned i = 0; i < 4; i++) {
		hs[i]->refs++;
		cr_expect_eq(check(t), NICREF_INV_REFCOUNT_MATCHES, "object %u", i);
		hs[i]->refs--;
	}
	tl_refused(t, refdrv_destroy_tir(&t->d, e.tir[0]), TIR_IN_USE);
	tl_refused(t, refdrv_destroy_flow_table(&t->d, RX, b), FT_IN_USE);
	tl_refused(t, refdrv_dealloc_flow_counter(&t->d, c), FC_IN_USE);
	tl_refused(t, refdrv_destroy_flow_group(&t->d, RX, a, g), FG_IN_USE);
	/* The free order of §7.11.3.8: the entry, then everything it named can go. */
	cr_assert_eq(refdrv_delete_fte(&t->d, RX, a, 2), 0);
	cr_expect_eq(tir->refs + ft->refs + fc->refs + fg->refs, 0);
	cr_expect_eq(check(t), 0);
	cr_assert_eq(refdrv_destroy_flow_group(&t->d, RX, a, g), 0);
	cr_assert_eq(refdrv_destroy_flow_table(&t->d, RX, a), 0);
	cr_assert_eq(refdrv_destroy_flow_table(&t->d, RX, b), 0);
	cr_assert_eq(refdrv_dealloc_flow_counter(&t->d, c), 0);
	cr_assert_eq(refdrv_destroy_tir(&t->d, e.tir[0]), 0);
	tl_down(t);
}

/* TEARDOWN / reset releases the steering objects with the rest (hca_release_objects). */
Test(steer_cmd, reset_releases_everything)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b, g, c;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 3, 2, 0, 0, &b), 0);
	cr_assert_eq(refdrv_modify_flow_table_miss(&t->d, RX, a, 1, b), 0);
	cr_assert_eq(refdrv_alloc_flow_counter(&t->d, &c), 0);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 3, 0, NULL, &g), 0);
	struct refdrv_fte f = { .group_id = g, .action = 4 | 8, .ndest = 1, .ncnt = 1 };
	f.dest[0].type = 2, f.dest[0].id = e.tir[1];
	f.cnt[0] = (uint16_t)c;
	cr_assert_eq(refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), 0);
	cr_assert_eq(refdrv_set_flow_table_root(&t->d, RX, b), 0);
	nicref_dev_reset(t->dev);
	for (unsigned k = OBJ_FC; k <= OBJ_FG; k++)
		cr_expect_eq(t->dev->obj[k].nlive, 0);
	cr_expect_eq(check(t), 0);
	tl_down(t);
}

/* The top-level T149 bit `name` of flow_table_nic_cap set to v in the device's current caps. */
static void snic(struct tl_dev *t, const char *name, uint64_t v)
{
	uint8_t *caps = t->dev->core.caps.cur[CAP_FLOW_TABLE_NIC];
	cr_assert_eq(nicref_field_set(caps, 0x40, tl_field("flow_table_nic_cap", name), v), 0);
}

/* D-FT-19: the last flow table of a multi-path list may be below level 64 when either
 * nic_rx_multi_path_tirs (§7.11.3.3) or nic_rx_multi_path_tirs_fts (T149 00h[30] note:
 * "Regardless of whether the destination list includes TIRs or not, the last Flow Table ...
 * is not required to have a level equal or greater than 64") is set; neither: refused. */
Test(steer_cmd, last_table_exempt_under_either_multi_path_cap)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b, c, g;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 64, 2, 0, 0, &b), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 2, 2, 0, 0, &c), 0);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 3, 0, NULL, &g), 0);
	struct refdrv_fte f = { .group_id = g, .action = 4, .ndest = 2 };
	f.dest[0].type = 1, f.dest[0].id = b;
	f.dest[1].type = 1, f.dest[1].id = c;
	snic(t, "nic_rx_multi_path_tirs", 0);
	snic(t, "nic_rx_multi_path_tirs_fts", 1);
	cr_expect_eq(refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), 0);
	snic(t, "nic_rx_multi_path_tirs", 1);
	snic(t, "nic_rx_multi_path_tirs_fts", 0);
	cr_expect_eq(refdrv_set_fte(&t->d, RX, a, 1, 0, 0, &f), 0);
	snic(t, "nic_rx_multi_path_tirs", 0);
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 2, 0, 0, &f), FTE_MULTI_LEVEL);
	cr_expect_eq(check(t), 0);
	tl_down(t);
}
