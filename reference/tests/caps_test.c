/* Device capabilities: the layouts of PRM T144-T153 (reference/prm/layouts_caps.h), the default
 * profile (reference/core/caps_default.c, docs/caps.md), QUERY_HCA_CAP and SET_HCA_CAP
 * (reference/cmd/cmd_caps.c, PRM §12.3.3-§12.3.4).
 *
 * Commands go through the real queue, posted by the reference driver (harness/driver.h). The
 * expected offsets are transcribed from the PRM field-description tables; the expected values
 * from docs/caps.md, which the caps_doc suite checks field by field against the device. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h" /* one white-box test: caps_set.cache_line_128byte_unsupported */
#include "driver.h"
#include "nicref/nicref.h"

#define CAP 0x1000u      /* T143: capability 10h-100Ch */
#define CAP_IN 0x10u     /* offset of the capability in the command */
#define QUERY_OUT 0x1010u

enum { T_GENERAL = 0, T_ETH = 1, T_FLOW = 7 }; /* T141 op_mod[15:1] */

/* ---- a device, the reference driver, and what the trace said ---------------------------- */

static struct {
	struct nicref_dev *dev;
	struct refdrv drv;
	unsigned vio[NICREF_VIO_COUNT];
	uint64_t vio_arg[NICREF_VIO_COUNT];
	unsigned fails;
	unsigned last_rule;
} t;

static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	if (ev->kind == NICREF_EV_VIOLATION && ev->arg[0] < NICREF_VIO_COUNT) {
		t.vio[ev->arg[0]]++;
		t.vio_arg[ev->arg[0]] = ev->arg[1];
	}
	if (ev->kind == NICREF_EV_CMD_FAIL) {
		t.fails++;
		t.last_rule = (unsigned)ev->arg[2];
	}
}

static unsigned violations(void)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NICREF_VIO_COUNT; i++)
		n += t.vio[i];
	return n;
}

static void clear_seen(void)
{
	memset(t.vio, 0, sizeof t.vio);
	memset(t.vio_arg, 0, sizeof t.vio_arg);
	t.fails = 0;
	t.last_rule = 0;
}

/* A fresh device with the default profile (reserved_check as given), brought to `stage`. */
static void start(enum refdrv_stage stage, unsigned reserved_check)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.reserved_check = (uint8_t)reserved_check;
	cfg.trace = on_event;
	memset(&t, 0, sizeof t);
	t.dev = nicref_dev_create(&cfg);
	cr_assert_not_null(t.dev);
	struct refdrv_ops ops = refdrv_ops_model(t.dev);
	cr_assert_eq(refdrv_init(&t.drv, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t.drv, stage), 0, "%s", t.drv.error);
	cr_assert_eq(violations(), 0, "bring-up caused a violation");
	clear_seen();
}

static void stop(void)
{
	refdrv_fini(&t.drv);
	nicref_dev_destroy(t.dev);
}

/* ---- field access through the layouts, by name ------------------------------------------ */

static const struct nicref_field *field(const char *layout, const char *name)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "layout %s", layout);
	const struct nicref_field *f = nicref_layout_field(l, name);
	cr_assert_not_null(f, "%s.%s", layout, name);
	return f;
}

static uint64_t get(const uint8_t *cap, const char *layout, const char *name)
{
	uint64_t v = 0;
	cr_assert_eq(nicref_field_get(cap, CAP, field(layout, name), &v), 0);
	return v;
}

static void put(uint8_t *cap, const char *layout, const char *name, uint64_t v)
{
	cr_assert_eq(nicref_field_set(cap, CAP, field(layout, name), v), 0, "%s.%s = %llu", layout,
		     name, (unsigned long long)v);
}

#define GEN(cap, n) get((cap), "hca_cap", #n)
#define GEN_SET(cap, n, v) put((cap), "hca_cap", #n, (v))

static void put_cmd_header(uint8_t *in, const char *opcode, unsigned op_mod)
{
	cr_assert_eq(nicref_field_set(in, 16, field("cmd_in", "opcode"),
				      (uint64_t)nicref_opcode_find(opcode)),
		     0);
	cr_assert_eq(nicref_field_set(in, 16, field("cmd_in", "op_mod"), op_mod), 0);
}

/* ---- the two commands --------------------------------------------------------------------- */

/* QUERY_HCA_CAP; the 4 KB capability into cap (when not NULL). Returns the status. */
static int query(unsigned op_mod, uint8_t *cap)
{
	static uint8_t out[QUERY_OUT];
	uint8_t in[16] = { 0 };
	put_cmd_header(in, "QUERY_HCA_CAP", op_mod);
	int st = refdrv_cmd(&t.drv, in, sizeof in, out, QUERY_OUT);
	cr_assert_geq(st, 0, "%s", t.drv.error);
	if (cap)
		memcpy(cap, out + CAP_IN, CAP);
	return st;
}

static void query_ok(unsigned op_mod, uint8_t *cap)
{
	cr_assert_eq(query(op_mod, cap), 0, "QUERY_HCA_CAP op_mod 0x%x: status 0x%x", op_mod,
		     t.drv.last_status);
}

/* SET_HCA_CAP with the capability `cap`. Returns the status, or -1 when not delivered. */
static int set(unsigned op_mod, const uint8_t *cap)
{
	static uint8_t in[CAP_IN + CAP];
	uint8_t out[16];
	memset(in, 0, sizeof in);
	put_cmd_header(in, "SET_HCA_CAP", op_mod);
	memcpy(in + CAP_IN, cap, CAP);
	return refdrv_cmd(&t.drv, in, sizeof in, out, sizeof out);
}

static void expect_refused(unsigned status, enum nicref_cmd_rule rule)
{
	cr_expect_eq(t.drv.last_status, status, "status 0x%x, expected 0x%x", t.drv.last_status,
		     status);
	cr_expect_eq(t.drv.last_syndrome, nicref_cmd_rule_syndrome(rule),
		     "syndrome 0x%08x, expected rule %s", t.drv.last_syndrome,
		     nicref_cmd_rule_name(rule));
	cr_expect_eq(t.last_rule, (unsigned)rule, "cmd_fail names %s",
		     nicref_cmd_rule_name(t.last_rule));
}

/* A SET the device accepts with nothing to report. */
static void set_ok(unsigned op_mod, const uint8_t *cap)
{
	cr_assert_eq(set(op_mod, cap), 0, "SET_HCA_CAP: status 0x%x rule %s", t.drv.last_status,
		     t.fails ? nicref_cmd_rule_name(t.last_rule) : "-");
}

static uint8_t cur0[CAP], max0[CAP], buf[CAP], after[CAP];

/* ==== Layouts pinned to the PRM ============================================================ */

static void pin(const char *layout, const char *name, unsigned off, unsigned msb, unsigned lsb)
{
	const struct nicref_field *f = field(layout, name);
	cr_expect_eq(f->prm_offset, off, "%s.%s offset 0x%x, PRM 0x%x", layout, name, f->prm_offset,
		     off);
	cr_expect_eq(f->msb, msb, "%s.%s msb", layout, name);
	cr_expect_eq(f->lsb, lsb, "%s.%s lsb", layout, name);
	cr_expect_eq(f->bit_offset, off * 8u + 31u - msb, "%s.%s bit offset", layout, name);
}

static void pin_wide(const char *layout, const char *name, unsigned off, unsigned bits)
{
	const struct nicref_field *f = field(layout, name);
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
	pin("hca_cap", "log_max_cq_sz", 0x18, 23, 16);
	pin("hca_cap", "log_max_cq", 0x18, 4, 0);
	pin("hca_cap", "log_max_eq_sz", 0x1C, 31, 24);
	pin("hca_cap", "log_max_mrw_sz", 0x20, 22, 16);
	pin("hca_cap", "cache_line_128byte", 0x2C, 27, 27);
	pin("hca_cap", "vport_counters", 0x30, 30, 30);
	pin("hca_cap", "port_type", 0x34, 9, 8);
	pin("hca_cap", "num_ports", 0x34, 7, 0);
	pin("hca_cap", "max_tc", 0x38, 19, 16);
	pin("hca_cap", "cqe_version", 0x3C, 3, 0);
	pin("hca_cap", "cmdif_checksum", 0x40, 15, 14);
	pin("hca_cap", "eth_net_offloads", 0x40, 3, 3);
	pin("hca_cap", "cq_period_start_from_cqe", 0x44, 20, 20);
	pin("hca_cap", "uar_sz", 0x48, 21, 16);
	pin("hca_cap", "driver_version", 0x4C, 30, 30);
	pin("hca_cap", "pad_tx_eth_packet", 0x4C, 29, 29);
	pin("hca_cap", "log_max_transport_domain", 0x64, 28, 24);
	pin("hca_cap", "log_max_pd", 0x64, 20, 16);
	pin("hca_cap", "max_flow_counter", 0x68, 15, 0);
	pin("hca_cap", "log_max_sq", 0x6C, 20, 16);
	pin("hca_cap", "basic_cyclic_rcv_wqe", 0x70, 31, 31);
	pin("hca_cap", "log_min_stride_sz_sq", 0x74, 4, 0);
	pin("hca_cap", "log_max_wq_sz", 0x78, 4, 0);
	pin("hca_cap", "log_max_current_uc_list", 0x7C, 4, 0);
	pin("hca_cap", "log_max_l2_table", 0x90, 28, 24);
	pin("hca_cap", "log_uar_page_sz", 0x90, 15, 0);
	pin("hca_cap", "device_frequency_mhz", 0x98, 31, 0);
	/* T145 lists 3Ch[31:16] as reserved; T144's stat_rate_support is not a field. */
	cr_expect_null(nicref_layout_field(nicref_layout_find("hca_cap"), "stat_rate_support"));
	cr_expect_eq(nicref_layout_find("hca_cap")->nfields, 61, "T145 has 61 named fields");
}

Test(caps_layout, per_protocol_networking_offload_t147)
{
	const char *l = "per_protocol_networking_offload_caps";
	pin_size(l, 0x1000);
	pin(l, "csum_cap", 0x00, 31, 31);
	pin(l, "lro_max_msg_sz_mode", 0x00, 26, 25);
	pin(l, "self_lb_mc", 0x00, 22, 22); /* T147 lost this row's offset cell */
	pin(l, "max_lso_cap", 0x00, 20, 16); /* T147 "max_iso_cap" */
	pin(l, "wqe_inline_mode", 0x00, 13, 12);
	pin(l, "rss_ind_tbl_cap", 0x00, 11, 8);
	pin(l, "lro_min_mss_size", 0x08, 15, 0);
	pin(l, "lro_timer_supported_periods_0", 0x30, 31, 0);
	pin(l, "lro_timer_supported_periods_3", 0x3C, 31, 0);
	cr_expect_eq(nicref_layout_find(l)->nfields, 17);
}

Test(caps_layout, flow_table_t149_t151_t153)
{
	pin_size("flow_table_nic_cap", 0x1000);
	pin("flow_table_nic_cap", "nic_rx_multi_path_tirs", 0x00, 31, 31);
	pin("flow_table_nic_cap", "nic_rx_multi_path_tirs_fts", 0x00, 30, 30);
	pin_wide("flow_table_nic_cap", "flow_table_properties_nic_receive", 0x40, 512);
	pin_wide("flow_table_nic_cap", "flow_table_properties_nic_transmit", 0x100, 512);
	/* T151 (T150 is a dword off from 08h). */
	pin_size("flow_table_properties", 0x40);
	pin("flow_table_properties", "ft_support", 0x00, 31, 31);
	pin("flow_table_properties", "reset_root_to_default", 0x00, 22, 22);
	pin("flow_table_properties", "log_max_ft_size", 0x04, 29, 24);
	pin("flow_table_properties", "max_ft_level", 0x04, 7, 0);
	pin("flow_table_properties", "log_max_ft_num", 0x0C, 7, 0);
	pin("flow_table_properties", "log_max_flow_counter", 0x10, 15, 8);
	pin("flow_table_properties", "log_max_destination", 0x10, 7, 0);
	pin("flow_table_properties", "log_max_flow", 0x14, 7, 0);
	pin_wide("flow_table_properties", "ft_field_support", 0x20, 128);
	pin_wide("flow_table_properties", "ft_field_bitmask_support", 0x30, 128);
	/* T153 (T152 reverses the first three). */
	pin_size("flow_table_fields_supported", 0x10);
	pin("flow_table_fields_supported", "outer_dmac", 0x00, 31, 31);
	pin("flow_table_fields_supported", "outer_smac", 0x00, 30, 30);
	pin("flow_table_fields_supported", "outer_ether_type", 0x00, 29, 29);
	pin("flow_table_fields_supported", "outer_first_prio", 0x00, 27, 27);
	pin("flow_table_fields_supported", "outer_ipv6_flow_label", 0x00, 20, 20);
	pin("flow_table_fields_supported", "outer_tcp_flags", 0x00, 9, 9);
	cr_expect_eq(nicref_layout_find("flow_table_fields_supported")->nfields, 21);
}

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
	cr_expect_eq(violations(), 0);
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
	cr_assert_eq(nicref_field_get(rx, 0x40, field("flow_table_properties", "ft_support"), &v),
		     0);
	cr_expect_eq(v, 1);
	cr_assert_eq(nicref_field_get(rx, 0x40, field("flow_table_properties", "max_ft_level"), &v),
		     0);
	cr_expect_eq(v, 64);
	cr_assert_eq(nicref_field_get(tx, 0x40, field("flow_table_properties", "flow_tag"), &v), 0);
	cr_expect_eq(v, 0, "no flow_tag on transmit");
	cr_assert_eq(nicref_field_get(tx, 0x40, field("flow_table_properties", "flow_counter"), &v),
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
		expect_refused(0x02, NICREF_RULE_BAD_OP_MOD);
	}
	stop();
}

/* §8.2 / spec-map §1.4.1: BAD_SYS_STATE before ENABLE_HCA; allowed after INIT_HCA. */
Test(caps_query, states)
{
	start(REFDRV_QUEUE, 1);
	cr_expect_eq(query(0x1, NULL), 0x04);
	expect_refused(0x04, NICREF_RULE_HCA_NOT_ENABLED);
	stop();
	start(REFDRV_INITIALIZED, 1);
	query_ok(0x1, cur0);
	cr_expect_eq(GEN(cur0, num_ports), 1);
	stop();
}

/* ==== SET_HCA_CAP ========================================================================== */

/* Each RW field of T145, one at a time, then QUERY current shows it and the maximum is as
 * before. */
Test(caps_set, each_rw_field_is_taken)
{
	static const struct {
		const char *name;
		uint64_t v;
	} rw[] = {
		{ "cmdif_checksum", 1 },     { "cmdif_checksum", 0 },
		{ "cmdif_checksum", 3 },     { "cache_line_128byte", 1 },
		{ "cache_line_128byte", 0 }, { "log_max_sq", 10 },
		{ "log_max_sq", 0 },         { "log_max_sq", 16 },
		{ "log_uar_page_sz", 1 },    { "log_uar_page_sz", 8 },
	};
	start(REFDRV_ENABLED, 1);
	query_ok(0x0, max0);
	for (size_t i = 0; i < sizeof rw / sizeof rw[0]; i++) {
		query_ok(0x1, buf);
		put(buf, "hca_cap", rw[i].name, rw[i].v);
		set_ok(0x0, buf);
		query_ok(0x1, after);
		cr_expect_eq(get(after, "hca_cap", rw[i].name), rw[i].v, "%s", rw[i].name);
		cr_expect_eq(memcmp(after, buf, CAP), 0, "%s: only the field changed", rw[i].name);
		query_ok(0x0, buf);
		cr_expect_eq(memcmp(buf, max0, CAP), 0, "the maximum set never changes");
	}
	cr_expect_eq(violations(), 0);
	stop();
}

/* Every other field of the input is ignored (§12.3.4 takes RW fields only). */
Test(caps_set, read_only_fields_are_ignored)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_cq, 3);
	GEN_SET(buf, num_ports, 7);
	GEN_SET(buf, driver_version, 0);
	GEN_SET(buf, log_max_pd, 2);
	GEN_SET(buf, device_frequency_mhz, 1);
	GEN_SET(buf, log_max_sq, 12);
	set_ok(0x0, buf);
	query_ok(0x1, after);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 12);
	cr_expect_eq(memcmp(after, buf, CAP), 0, "only log_max_sq changed");
	stop();
}

/* A SET of a type without RW fields (T147, T149/T151) changes nothing. */
Test(caps_set, types_without_rw_fields_change_nothing)
{
	start(REFDRV_ENABLED, 1);
	static const unsigned types[] = { T_ETH, T_FLOW };
	for (size_t i = 0; i < 2; i++) {
		unsigned op = types[i] << 1;
		query_ok(op | 1, cur0);
		set_ok(op, cur0);
		/* a changed read-only value is ignored */
		memcpy(buf, cur0, CAP);
		buf[0] ^= 0x80; /* csum_cap / nic_rx_multi_path_tirs */
		set_ok(op, buf);
		query_ok(op | 1, after);
		cr_expect_eq(memcmp(after, cur0, CAP), 0, "type %u changed", types[i]);
	}
	cr_expect_eq(violations(), 0);
	stop();
}

static void refused_set(const char *name, uint64_t v, enum nicref_cmd_rule rule)
{
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	put(buf, "hca_cap", name, v);
	cr_expect_eq(set(0x0, buf), 0x03, "%s = %llu accepted", name, (unsigned long long)v);
	expect_refused(0x03, rule);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0, "a refused SET changed the current caps");
}

/* The range rules of SET_HCA_CAP (docs/caps.md, rules_caps.h). */
Test(caps_set, range_rules)
{
	start(REFDRV_ENABLED, 1);
	/* T145 40h[15:14]: 2 is not defined. */
	refused_set("cmdif_checksum", 2, NICREF_RULE_CAP_CMDIF_CHECKSUM_INVALID);
	/* log_max_sq <= maximum (16) */
	refused_set("log_max_sq", 17, NICREF_RULE_CAP_LOG_MAX_SQ_ABOVE_MAX);
	refused_set("log_max_sq", 31, NICREF_RULE_CAP_LOG_MAX_SQ_ABOVE_MAX);
	/* 4 KB * 2^log_uar_page_sz <= 1 MB * 2^uar_sz (uar_sz 0) */
	refused_set("log_uar_page_sz", 9, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	refused_set("log_uar_page_sz", 0xFFFF, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	cr_expect_eq(violations(), 0);
	stop();
}

/* All four RW fields at once, one of them bad: nothing changes. */
Test(caps_set, refused_set_changes_nothing)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, cmdif_checksum, 1);
	GEN_SET(buf, cache_line_128byte, 1);
	GEN_SET(buf, log_max_sq, 4);
	GEN_SET(buf, log_uar_page_sz, 20);
	cr_expect_eq(set(0x0, buf), 0x03);
	expect_refused(0x03, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0);
	/* Input signatures are still checked: cmdif_checksum stayed 3. */
	t.drv.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	cr_expect_lt(set(0x0, cur0), 0, "a bad mailbox signature went through");
	cr_expect_eq(t.drv.last_delivery, 0x1, "T96 signature error");
	stop();
}

/* cache_line_128byte = 1 only when the maximum says supported. The default profile supports
 * it, so this test clears the maximum through the library's private state (core/dev.h). */
Test(caps_set, cache_line_128byte_unsupported)
{
	start(REFDRV_ENABLED, 1);
	prm_set(t.dev->caps.max[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, cache_line_128byte), 0);
	refused_set("cache_line_128byte", 1, NICREF_RULE_CAP_CACHE_LINE_128_UNSUPPORTED);
	stop();
}

/* cmdif_checksum takes effect at once (cmd/cmdq.c reads the current capability). */
Test(caps_set, cmdif_checksum_governs_the_queue)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, cmdif_checksum, 1); /* generated, not checked */
	set_ok(0x0, buf);
	t.drv.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	set_ok(0x0, buf); /* a wrong input mailbox signature is no longer checked */
	cr_expect_eq(t.drv.last_delivery, 0);
	t.drv.mistakes = 0;
	t.drv.check_out_sigs = true;
	query_ok(0x1, after); /* output still signed (value 1) */
	GEN_SET(buf, cmdif_checksum, 3);
	set_ok(0x0, buf);
	t.drv.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	cr_expect_lt(set(0x0, buf), 0, "checked again with 3");
	cr_expect_eq(t.drv.last_delivery, 0x1);
	cr_expect_eq(t.vio[NICREF_VIO_MAILBOX_SIGNATURE], 1);
	stop();
}

/* §8.2: SET_HCA_CAP between ENABLE_HCA and INIT_HCA only; op_mod bit 0 reserved (T155). */
Test(caps_set, states_and_op_mod)
{
	memset(buf, 0, sizeof buf);
	start(REFDRV_QUEUE, 1);
	cr_expect_eq(set(0x0, buf), 0x04);
	expect_refused(0x04, NICREF_RULE_HCA_NOT_ENABLED);
	stop();

	start(REFDRV_INITIALIZED, 1);
	query_ok(0x1, cur0);
	cr_expect_eq(set(0x0, cur0), 0x04);
	expect_refused(0x04, NICREF_RULE_HCA_ALREADY_INITIALIZED);
	stop();

	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	static const unsigned bad[] = { 0x1, 0x3, 0xF, 0x4, 0x10 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_expect_eq(set(bad[i], cur0), 0x02, "op_mod 0x%x", bad[i]);
		expect_refused(0x02, NICREF_RULE_BAD_OP_MOD);
	}
	stop();
}

/* D-INIT-1: after QUERY_PAGES(init), SET_HCA_CAP is a violation and still applied. */
Test(caps_set, after_init_pages_query)
{
	start(REFDRV_BOOT_PAGES, 1);
	query_ok(0x1, cur0);
	set_ok(0x0, cur0); /* before QUERY_PAGES(init): fine */
	cr_expect_eq(violations(), 0);
	uint8_t in[16] = { 0 }, out[16];
	put_cmd_header(in, "QUERY_PAGES", 2);
	cr_assert_eq(refdrv_cmd(&t.drv, in, sizeof in, out, sizeof out), 0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 5);
	set_ok(0x0, buf);
	cr_expect_eq(t.vio[NICREF_VIO_SET_HCA_CAP_AFTER_INIT_PAGES], 1);
	cr_expect_eq(violations(), 1);
	query_ok(0x1, after);
	cr_expect_eq(GEN(after, log_max_sq), 5, "applied anyway");
	/* A refused SET is not reported (it changed nothing). */
	GEN_SET(buf, log_max_sq, 30);
	cr_expect_eq(set(0x0, buf), 0x03);
	cr_expect_eq(violations(), 1);
	stop();
}

/* ENABLE_HCA after DISABLE_HCA starts from the default current values again. */
Test(caps_set, disable_hca_restores_defaults)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 3);
	GEN_SET(buf, cache_line_128byte, 1);
	set_ok(0x0, buf);
	uint8_t in[16] = { 0 }, out[16];
	put_cmd_header(in, "DISABLE_HCA", 0);
	cr_assert_eq(refdrv_cmd(&t.drv, in, sizeof in, out, sizeof out), 0);
	put_cmd_header(in, "ENABLE_HCA", 0);
	cr_assert_eq(refdrv_cmd(&t.drv, in, sizeof in, out, sizeof out), 0);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0);
	stop();
}

/* Reserved bits of the capability (T128 "reserved not equal 0", D-CMD-8): each dword is a
 * violation, arg = input byte offset << 32 | bits; strict profile refuses. */
static void reserved_case(unsigned op_mod, unsigned cap_off, uint32_t bits)
{
	query_ok(op_mod | 1, cur0);
	memcpy(buf, cur0, CAP);
	for (unsigned k = 0; k < 4; k++)
		buf[cap_off + k] |= (uint8_t)(bits >> (24 - 8 * k));
	clear_seen();
	int st = set(op_mod, buf);
	cr_expect_eq(t.vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO], 1, "cap %03Xh", cap_off);
	cr_expect_eq(t.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO],
		     (uint64_t)(CAP_IN + cap_off) << 32 | bits, "cap %03Xh: arg 0x%llx", cap_off,
		     (unsigned long long)t.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO]);
	cr_expect_eq(st, 0x03, "cap %03Xh: status 0x%x", cap_off, st);
	expect_refused(0x03, NICREF_RULE_RESERVED_NOT_ZERO);
}

Test(caps_set, reserved_bits_strict)
{
	static uint8_t gen[CAP];
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, gen);
	reserved_case(0x0, 0x3C, 0x00010000);  /* T145 3Ch[31:16] (T144: stat_rate_support) */
	reserved_case(0x0, 0x00, 0x80000000);  /* T144 00h-0Ch */
	reserved_case(0x0, 0x40, 0x80000000);  /* T145 40h[31] */
	reserved_case(0x0, 0xFFC, 0x00000001); /* past T144's FCh (D-CAP-6) */
	reserved_case(0x2, 0x04, 0x00000001);  /* T147: 04h not a field */
	reserved_case(0x2, 0x40, 0x00000001);  /* T146 40h-FCh */
	reserved_case(0xE, 0x04, 0x00000001);  /* T148 04h-3Ch */
	reserved_case(0xE, 0x48, 0x00000001);  /* T151 receive 08h */
	reserved_case(0xE, 0x40, 0x00200000);  /* T151 00h[21] */
	reserved_case(0xE, 0x60, 0x10000000);  /* T153 receive ft_field_support 00h[28] */
	reserved_case(0xE, 0x74, 0x00000001);  /* T152 receive bitmask support 04h */
	reserved_case(0xE, 0x130, 0x00000100); /* T153 transmit bitmask 00h[8] */
	reserved_case(0xE, 0x80, 0x00000001);  /* T148 80h-BCh: no block there */
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, gen, CAP), 0, "a refused SET changed the current caps");
	stop();
}

/* Permissive profile (reserved_check 0): reported, and the SET is applied. */
Test(caps_set, reserved_bits_permissive)
{
	start(REFDRV_ENABLED, 0);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	buf[0x3D] = 0x01; /* 3Ch[16] */
	GEN_SET(buf, log_max_sq, 9);
	set_ok(0x0, buf);
	cr_expect_eq(t.vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO], 1);
	cr_expect_eq(t.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO], (uint64_t)0x4C << 32 | 0x10000);
	query_ok(0x1, after);
	cr_expect_eq(GEN(after, log_max_sq), 9);
	cr_expect_eq(after[0x3D], 0, "a reserved bit is not stored");
	stop();
}

/* The driver flow of §8.2 (QUERY max and current, SET with what QUERY gave) stays silent. */
Test(caps_set, write_back_of_query_is_accepted)
{
	start(REFDRV_ENABLED, 1);
	for (unsigned type = 0; type < 8; type++) {
		if (type != T_GENERAL && type != T_ETH && type != T_FLOW)
			continue;
		query_ok(type << 1, max0);
		query_ok(type << 1 | 1, cur0);
		set_ok(type << 1, cur0);
		query_ok(type << 1 | 1, after);
		cr_expect_eq(memcmp(after, cur0, CAP), 0);
	}
	cr_expect_eq(violations(), 0);
	cr_expect_eq(t.fails, 0);
	stop();
}

/* ==== docs/caps.md agrees with the device ================================================= */

/* The sub-structure a wide field holds (T149: T150 blocks; T151: T152 blocks). */
static const char *sub_layout(const char *field_name)
{
	if (strncmp(field_name, "flow_table_properties_", 22) == 0)
		return "flow_table_properties";
	if (strncmp(field_name, "ft_field_", 9) == 0)
		return "flow_table_fields_supported";
	return NULL;
}

static const char *top_layout(unsigned type)
{
	return type == T_GENERAL ? "hca_cap"
	       : type == T_ETH	 ? "per_protocol_networking_offload_caps"
				 : "flow_table_nic_cap";
}

/* Leaves of a layout tree (wide fields descend into their sub-structure). */
static unsigned count_leaves(const char *layout)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	unsigned n = 0;
	for (uint32_t i = 0; i < l->nfields; i++) {
		const char *sub = sub_layout(l->fields[i].name);
		n += sub ? count_leaves(sub) : 1;
	}
	return n;
}

static int parse_num(const char *s, uint64_t *v)
{
	while (*s == ' ')
		s++;
	char *end;
	*v = strtoull(s, &end, 0);
	return end == s ? -1 : 0;
}

struct doc_row {
	char path[128], off[16], bits[16], max[160], cur[160];
};

/* "| `path` | 18h | 23:16 | 22 | 22 | why |" */
static int parse_row(const char *line, struct doc_row *r)
{
	char cells[6][160];
	const char *p = line + 1;
	for (int k = 0; k < 6; k++) {
		const char *bar = strchr(p, '|');
		if (!bar)
			return -1;
		size_t n = (size_t)(bar - p);
		if (n >= sizeof cells[k])
			n = sizeof cells[k] - 1;
		memcpy(cells[k], p, n);
		cells[k][n] = '\0';
		p = bar + 1;
	}
	if (sscanf(cells[0], " `%127[^`]`", r->path) != 1 ||
	    sscanf(cells[1], " %15s", r->off) != 1 || sscanf(cells[2], " %15s", r->bits) != 1)
		return -1;
	snprintf(r->max, sizeof r->max, "%s", cells[3]);
	snprintf(r->cur, sizeof r->cur, "%s", cells[4]);
	return 0;
}

Test(caps_doc, docs_caps_md_is_the_default_profile)
{
	static uint8_t qmax[3][CAP], qcur[3][CAP], covered[3][CAP];
	static const unsigned types[3] = { T_GENERAL, T_ETH, T_FLOW };
	start(REFDRV_ENABLED, 1);
	for (int k = 0; k < 3; k++) {
		query_ok(types[k] << 1, qmax[k]);
		query_ok(types[k] << 1 | 1, qcur[k]);
	}
	stop();
	memset(covered, 0, sizeof covered);

	FILE *f = fopen("docs/caps.md", "r");
	cr_assert_not_null(f, "docs/caps.md not found (run from the repository root)");
	char line[1024];
	int k = -1;
	unsigned rows[3] = { 0 }, leaves[3] = { 0 };
	while (fgets(line, sizeof line, f)) {
		unsigned ty;
		if (sscanf(line, "### op_mod type %u", &ty) == 1) {
			k = ty == T_GENERAL ? 0 : ty == T_ETH ? 1 : ty == T_FLOW ? 2 : -1;
			cr_assert_geq(k, 0, "docs/caps.md: type %u", ty);
			continue;
		}
		if (strncmp(line, "## ", 3) == 0)
			k = -1;
		if (k < 0 || strncmp(line, "| `", 3) != 0)
			continue;
		struct doc_row r;
		cr_assert_eq(parse_row(line, &r), 0, "docs/caps.md: bad row %s", line);
		rows[k]++;
		/* Walk the path through the layouts: a.b.c or a.b.* */
		const char *layout = top_layout(types[k]);
		uint32_t base = 0;
		char path[128];
		snprintf(path, sizeof path, "%s", r.path);
		char *save = NULL;
		const struct nicref_field *fl = NULL;
		int all = 0;
		for (char *name = strtok_r(path, ".", &save); name;
		     name = strtok_r(NULL, ".", &save)) {
			if (strcmp(name, "*") == 0) {
				all = 1;
				break;
			}
			cr_assert_not_null(layout, "docs/caps.md: %s descends into a plain field",
					   r.path);
			fl = field(layout, name);
			const char *sub = sub_layout(name);
			if (sub) {
				base += fl->bit_offset;
				layout = sub;
			} else {
				layout = NULL;
			}
		}
		uint64_t vmax, vcur;
		cr_assert_eq(parse_num(r.max, &vmax), 0, "%s: max '%s'", r.path, r.max);
		cr_assert_eq(parse_num(r.cur, &vcur), 0, "%s: current '%s'", r.path, r.cur);
		const struct nicref_layout *l = all ? nicref_layout_find(layout) : NULL;
		uint32_t n = all ? l->nfields : 1;
		if (all) {
			char want[16];
			snprintf(want, sizeof want, "%02Xh", base / 8);
			cr_expect_str_eq(r.off, want, "%s: offset", r.path);
		}
		for (uint32_t i = 0; i < n; i++) {
			struct nicref_field e = all ? l->fields[i] : *fl;
			if (!all) {
				/* the field itself, not a sub-structure */
				cr_assert_null(layout, "%s is a structure", r.path);
				char want_off[16], want_bits[16];
				snprintf(want_off, sizeof want_off, "%02Xh",
					 base / 8 + fl->prm_offset);
				if (fl->msb == fl->lsb)
					snprintf(want_bits, sizeof want_bits, "%u", fl->msb);
				else
					snprintf(want_bits, sizeof want_bits, "%u:%u", fl->msb,
						 fl->lsb);
				cr_expect_str_eq(r.off, want_off, "%s: offset", r.path);
				cr_expect_str_eq(r.bits, want_bits, "%s: bits", r.path);
			}
			e.bit_offset += base;
			uint64_t gm = 0, gc = 0;
			cr_assert_eq(nicref_field_get(qmax[k], CAP, &e, &gm), 0);
			cr_assert_eq(nicref_field_get(qcur[k], CAP, &e, &gc), 0);
			cr_expect_eq(gm, vmax, "%s%s%s: max %llu, docs/caps.md %llu", r.path,
				     all ? " " : "", all ? e.name : "", (unsigned long long)gm,
				     (unsigned long long)vmax);
			cr_expect_eq(gc, vcur, "%s%s%s: current %llu, docs/caps.md %llu", r.path,
				     all ? " " : "", all ? e.name : "", (unsigned long long)gc,
				     (unsigned long long)vcur);
			for (uint32_t b = e.bit_offset; b < e.bit_offset + e.bit_width; b++) {
				cr_expect_eq(covered[k][b / 8] >> (7 - b % 8) & 1, 0,
					     "%s: bit %u listed twice", r.path, b);
				covered[k][b / 8] |= (uint8_t)(0x80u >> (b % 8));
			}
			leaves[k]++;
		}
	}
	fclose(f);
	for (k = 0; k < 3; k++) {
		cr_expect_eq(leaves[k], count_leaves(top_layout(types[k])),
			     "type %u: docs/caps.md lists %u of %u fields", types[k], leaves[k],
			     count_leaves(top_layout(types[k])));
		cr_expect_gt(rows[k], 0);
		/* Every bit no row lists is reserved and reads 0. */
		for (unsigned b = 0; b < CAP; b++) {
			cr_expect_eq(qmax[k][b] & ~covered[k][b], 0, "type %u max byte %03Xh",
				     types[k], b);
			cr_expect_eq(qcur[k][b] & ~covered[k][b], 0, "type %u current byte %03Xh",
				     types[k], b);
		}
	}
}
