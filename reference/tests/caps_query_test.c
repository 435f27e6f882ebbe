/* QUERY_HCA_CAP (PRM §12.3.3 T141-T143): the maximum and current sets of each capability type
 * with values of docs/caps.md, an undefined type, and the states it is allowed in. Shared tools:
 * caps_util.h. */
#include <stdint.h>
#include <string.h>

#include "caps_util.h"

static uint8_t cur0[CAP], max0[CAP], buf[CAP];

/* ==== QUERY_HCA_CAP ======================================================================== */

/* op_mod 0/1 general: a few values of docs/caps.md, and max vs current. */
Test(caps_query, general_max_and_current)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x0, max0);
	query_ok(0x1, cur0);
	cr_expect_eq(GEN(max0, log_max_cq_sz), 22);
	cr_expect_eq(GEN(max0, num_ports), 1);
	cr_expect_eq(GEN(max0, port_type), 1);
	cr_expect_eq(GEN(max0, cqe_version), 1);
	cr_expect_eq(GEN(max0, log_max_pd), 16);
	cr_expect_eq(GEN(max0, log_max_transport_domain), 16);
	cr_expect_eq(GEN(max0, driver_version), 1);
	cr_expect_eq(GEN(max0, uar_sz), 0);
	cr_expect_eq(GEN(max0, device_frequency_mhz), 156);
	/* The RW fields: maximum vs what is in force. */
	cr_expect_eq(GEN(max0, cache_line_128byte), 1);
	cr_expect_eq(GEN(cur0, cache_line_128byte), 0, "§3.3.10: 64-byte lines by default");
	cr_expect_eq(GEN(max0, cmdif_checksum), 3);
	cr_expect_eq(GEN(cur0, cmdif_checksum), 3, "profile cmdif_checksum (D-CMD-5)");
	cr_expect_eq(GEN(cur0, log_max_sq), 16);
	cr_expect_eq(GEN(cur0, log_uar_page_sz), 0);
	/* Everything else is the same in both sets. */
	memcpy(buf, max0, CAP);
	GEN_SET(buf, cache_line_128byte, 0);
	cr_expect_eq(memcmp(buf, cur0, CAP), 0, "max and current differ beyond the RW fields");
	cr_expect_eq(tdev->tr.violations, 0);
	stop();
}

Test(caps_query, ethernet_offload)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x2, max0);
	query_ok(0x3, cur0);
	const char *l = "per_protocol_networking_offload_caps";
	cr_expect_eq(get(max0, l, "csum_cap"), 1);
	cr_expect_eq(get(max0, l, "lro_cap"), 1);
	cr_expect_eq(get(max0, l, "max_lso_cap"), 16);
	cr_expect_eq(get(max0, l, "wqe_inline_mode"), 1);
	cr_expect_eq(get(max0, l, "rss_ind_tbl_cap"), 8);
	cr_expect_eq(get(max0, l, "lro_timer_supported_periods_0"), 8);
	cr_expect_eq(get(max0, l, "lro_timer_supported_periods_3"), 1024);
	cr_expect_eq(memcmp(max0, cur0, CAP), 0, "T147 has no RW field");
	stop();
}

Test(caps_query, flow_table_nic)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0xE, max0);
	query_ok(0xF, cur0);
	cr_expect_eq(get(max0, "flow_table_nic_cap", "nic_rx_multi_path_tirs"), 1);
	/* receive block at 40h, transmit block at 100h (T149); fields of T151 within */
	const uint8_t *rx = max0 + 0x40, *tx = max0 + 0x100;
	uint64_t v;
	cr_assert_eq(nicref_field_get(rx, 0x40, tl_field("flow_table_properties", "ft_support"), &v),
		     0);
	cr_expect_eq(v, 1);
	cr_assert_eq(nicref_field_get(rx, 0x40, tl_field("flow_table_properties", "max_ft_level"), &v),
		     0);
	cr_expect_eq(v, 64);
	cr_assert_eq(nicref_field_get(tx, 0x40, tl_field("flow_table_properties", "flow_tag"), &v), 0);
	cr_expect_eq(v, 0, "no flow_tag on transmit");
	cr_assert_eq(nicref_field_get(tx, 0x40, tl_field("flow_table_properties", "flow_counter"), &v),
		     0);
	cr_expect_eq(v, 0, "D-FT-4");
	/* ft_field_support (receive, 60h): T153 bits 31:29, 27:25, 23:9 */
	cr_expect_eq(max0[0x60], 0xEE);
	cr_expect_eq(max0[0x61], 0xFF);
	cr_expect_eq(max0[0x62], 0xFE);
	cr_expect_eq(max0[0x63], 0x00);
	cr_expect_eq(memcmp(max0, cur0, CAP), 0, "T149/T151 have no RW field");
	stop();
}

/* T141 defines types 0, 1 and 7 only. */
Test(caps_query, undefined_type_is_bad_op)
{
	start(REFDRV_ENABLED, 1);
	static const unsigned bad[] = { 0x4, 0x5, 0x6, 0xC, 0x10, 0x11, 0xFFFE };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_expect_eq(query(bad[i], NULL), 0x02, "op_mod 0x%x", bad[i]);
		tl_expect_refused(tdev, 0x02, NICREF_RULE_BAD_OP_MOD);
	}
	stop();
}

/* §8.2 / D-INIT-2 (docs/decisions.md): BAD_SYS_STATE before ENABLE_HCA; allowed after INIT_HCA. */
Test(caps_query, states)
{
	start(REFDRV_QUEUE, 1);
	cr_expect_eq(query(0x1, NULL), 0x04);
	tl_expect_refused(tdev, 0x04, NICREF_RULE_HCA_NOT_ENABLED);
	stop();
	start(REFDRV_INITIALIZED, 1);
	query_ok(0x1, cur0);
	cr_expect_eq(GEN(cur0, num_ports), 1);
	stop();
}
