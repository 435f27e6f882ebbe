/* The capability layouts pinned to the PRM: HCA_CAP T145, the Ethernet offloads T147, the flow
 * table capabilities T149/T151/T153. Shared tools: caps_util.h. */
#include <stdint.h>

#include "caps_util.h"

/* ==== Layouts pinned to the PRM ============================================================ */

static void pin_wide(const char *layout, const char *name, unsigned off, unsigned bits)
{
	const struct nicref_field *f = tl_field(layout, name);
	cr_expect_eq(f->bit_offset, off * 8u, "%s.%s at 0x%x", layout, name, f->bit_offset / 8);
	cr_expect_eq(f->bit_width, bits, "%s.%s width", layout, name);
}

static void pin_size(const char *layout, unsigned size)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "%s", layout);
	cr_expect_eq(l->size, size, "%s: size 0x%x", layout, l->size);
}

/* T145 (the rows the SET rules and other modules depend on, and a few on each side). */
Test(caps_layout, hca_cap_t145)
{
	pin_size("hca_cap", 0x1000);
	tl_pin("hca_cap", "log_max_cq_sz", 0x18, 23, 16);
	tl_pin("hca_cap", "log_max_cq", 0x18, 4, 0);
	tl_pin("hca_cap", "log_max_eq_sz", 0x1C, 31, 24);
	tl_pin("hca_cap", "log_max_mrw_sz", 0x20, 22, 16);
	tl_pin("hca_cap", "cache_line_128byte", 0x2C, 27, 27);
	tl_pin("hca_cap", "vport_counters", 0x30, 30, 30);
	tl_pin("hca_cap", "port_type", 0x34, 9, 8);
	tl_pin("hca_cap", "num_ports", 0x34, 7, 0);
	tl_pin("hca_cap", "max_tc", 0x38, 19, 16);
	tl_pin("hca_cap", "cqe_version", 0x3C, 3, 0);
	tl_pin("hca_cap", "cmdif_checksum", 0x40, 15, 14);
	tl_pin("hca_cap", "eth_net_offloads", 0x40, 3, 3);
	tl_pin("hca_cap", "cq_period_start_from_cqe", 0x44, 20, 20);
	tl_pin("hca_cap", "uar_sz", 0x48, 21, 16);
	tl_pin("hca_cap", "driver_version", 0x4C, 30, 30);
	tl_pin("hca_cap", "pad_tx_eth_packet", 0x4C, 29, 29);
	tl_pin("hca_cap", "log_max_transport_domain", 0x64, 28, 24);
	tl_pin("hca_cap", "log_max_pd", 0x64, 20, 16);
	tl_pin("hca_cap", "max_flow_counter", 0x68, 15, 0);
	tl_pin("hca_cap", "log_max_sq", 0x6C, 20, 16);
	tl_pin("hca_cap", "basic_cyclic_rcv_wqe", 0x70, 31, 31);
	tl_pin("hca_cap", "log_min_stride_sz_sq", 0x74, 4, 0);
	tl_pin("hca_cap", "log_max_wq_sz", 0x78, 4, 0);
	tl_pin("hca_cap", "log_max_current_uc_list", 0x7C, 4, 0);
	tl_pin("hca_cap", "log_max_l2_table", 0x90, 28, 24);
	tl_pin("hca_cap", "log_uar_page_sz", 0x90, 15, 0);
	tl_pin("hca_cap", "device_frequency_mhz", 0x98, 31, 0);
	/* T145 lists 3Ch[31:16] as reserved; T144's stat_rate_support is not a field. */
	cr_expect_null(nicref_layout_field(nicref_layout_find("hca_cap"), "stat_rate_support"));
	/* Beyond Rev 0.40: umem_uid_0, where the public mlx5 interface places it (D-VFIO-2). */
	tl_pin("hca_cap", "umem_uid_0", 0x48, 13, 13);
	cr_expect_eq(nicref_layout_find("hca_cap")->nfields, 62,
		     "T145 has 61 named fields, and umem_uid_0 (D-VFIO-2)");
}

Test(caps_layout, per_protocol_networking_offload_t147)
{
	const char *l = "per_protocol_networking_offload_caps";
	pin_size(l, 0x1000);
	tl_pin(l, "csum_cap", 0x00, 31, 31);
	tl_pin(l, "lro_max_msg_sz_mode", 0x00, 26, 25);
	tl_pin(l, "self_lb_mc", 0x00, 22, 22); /* T147 lost this row's offset cell */
	tl_pin(l, "max_lso_cap", 0x00, 20, 16); /* T147 "max_iso_cap" */
	tl_pin(l, "wqe_inline_mode", 0x00, 13, 12);
	tl_pin(l, "rss_ind_tbl_cap", 0x00, 11, 8);
	tl_pin(l, "lro_min_mss_size", 0x08, 15, 0);
	tl_pin(l, "lro_timer_supported_periods_0", 0x30, 31, 0);
	tl_pin(l, "lro_timer_supported_periods_3", 0x3C, 31, 0);
	cr_expect_eq(nicref_layout_find(l)->nfields, 17);
}

Test(caps_layout, flow_table_t149_t151_t153)
{
	pin_size("flow_table_nic_cap", 0x1000);
	tl_pin("flow_table_nic_cap", "nic_rx_multi_path_tirs", 0x00, 31, 31);
	tl_pin("flow_table_nic_cap", "nic_rx_multi_path_tirs_fts", 0x00, 30, 30);
	pin_wide("flow_table_nic_cap", "flow_table_properties_nic_receive", 0x40, 512);
	pin_wide("flow_table_nic_cap", "flow_table_properties_nic_transmit", 0x100, 512);
	/* T151 (T150 is a dword off from 08h). */
	pin_size("flow_table_properties", 0x40);
	tl_pin("flow_table_properties", "ft_support", 0x00, 31, 31);
	tl_pin("flow_table_properties", "reset_root_to_default", 0x00, 22, 22);
	tl_pin("flow_table_properties", "log_max_ft_size", 0x04, 29, 24);
	tl_pin("flow_table_properties", "max_ft_level", 0x04, 7, 0);
	tl_pin("flow_table_properties", "log_max_ft_num", 0x0C, 7, 0);
	tl_pin("flow_table_properties", "log_max_flow_counter", 0x10, 15, 8);
	tl_pin("flow_table_properties", "log_max_destination", 0x10, 7, 0);
	tl_pin("flow_table_properties", "log_max_flow", 0x14, 7, 0);
	pin_wide("flow_table_properties", "ft_field_support", 0x20, 128);
	pin_wide("flow_table_properties", "ft_field_bitmask_support", 0x30, 128);
	/* T153 (T152 reverses the first three). */
	pin_size("flow_table_fields_supported", 0x10);
	tl_pin("flow_table_fields_supported", "outer_dmac", 0x00, 31, 31);
	tl_pin("flow_table_fields_supported", "outer_smac", 0x00, 30, 30);
	tl_pin("flow_table_fields_supported", "outer_ether_type", 0x00, 29, 29);
	tl_pin("flow_table_fields_supported", "outer_first_prio", 0x00, 27, 27);
	tl_pin("flow_table_fields_supported", "outer_ipv6_flow_label", 0x00, 20, 20);
	tl_pin("flow_table_fields_supported", "outer_tcp_flags", 0x00, 9, 9);
	cr_expect_eq(nicref_layout_find("flow_table_fields_supported")->nfields, 21);
}
