/* ACCESS_REGISTER and the network port registers (reference/reg/): PRM §12.4.1 T221-T224 and
 * §11.1 T104-T126, with the decisions of docs/registers.md (D-REG-*).
 *
 * Commands go through the device's command queue: the input is built here byte by byte from
 * the PRM's tables (big-endian dwords, "Byte Endianness"), posted with the host-side builder
 * (harness/cmdbuild.c) and read back. Expected register contents are transcribed from the PRM
 * or from the decisions, never from what the model prints. The port model's internal API
 * (reg/port.h) is driven directly where the PRM has no command for it (traffic, the link
 * partner). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cmdbuild.h"
#include "core/dev.h"
#include "nicref/nicref.h"
#include "reg/port.h"

#define QADDR 0x10000ull
#define IN_MBOX 0x100000ull
#define OUT_MBOX 0x200000ull
#define MAX_EVENTS 256

#define OP_ACCESS_REG 0x805u
#define OP_ENABLE_HCA 0x104u
#define OP_INIT_HCA 0x102u
#define OP_TEARDOWN_HCA 0x103u
#define OP_MANAGE_PAGES 0x108u
#define OP_SET_ISSI 0x10Bu
#define WRITE 0u /* T222 op_mod */
#define READ 1u

/* PRM §11.1 T104. */
#define PMTU 0x5003u
#define PTYS 0x5004u
#define PAOS 0x5006u
#define PFCC 0x5007u
#define PPCNT 0x5008u

/* T128 statuses. */
#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_PARAM 0x03u
#define BAD_SYS_STATE 0x04u
#define BAD_INPUT_LEN 0x50u
#define BAD_OUTPUT_LEN 0x51u

/* D-REG-20 power-on values and the T108 protocol bits. */
#define MAX_MTU 9978u
#define DEFAULT_MTU 1500u
#define ALL_PROTOS 0xF875F0DFu /* bits 0-4, 6, 7, 12-16, 18, 20-22, 27-31 */
#define P_100GBASE_KR4 (1u << 22)
#define P_10GBASE_CR (1u << 12)
#define P_40GBASE_CR4 (1u << 6)
#define P_25GBASE_SR (1u << 29)

static struct nicref_dev *dev;
static struct nicref_event events[MAX_EVENTS];
static size_t nevents;

static void collect(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	cr_assert_lt(nevents, MAX_EVENTS, "trace overflow");
	events[nevents++] = *ev;
}

/* ---- Bytes, as the PRM prints them ----------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Field msb..lsb of the dword at byte `off`. */
static void setf(uint8_t *b, unsigned off, unsigned msb, unsigned lsb, uint32_t v)
{
	uint32_t w = msb - lsb == 31 ? UINT32_MAX : ((1u << (msb - lsb + 1)) - 1) << lsb;
	put32(b + off, (get32(b + off) & ~w) | ((v << lsb) & w));
}

static uint32_t getf(const uint8_t *b, unsigned off, unsigned msb, unsigned lsb)
{
	uint32_t v = get32(b + off) >> lsb;
	return msb - lsb == 31 ? v : v & ((1u << (msb - lsb + 1)) - 1);
}

static uint64_t get64(const uint8_t *b, unsigned off)
{
	return (uint64_t)get32(b + off) << 32 | get32(b + off + 4);
}

/* ---- The device ------------------------------------------------------------------------------ */

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nicref_hostmem_read(ctx, addr, buf, len);
}

struct result {
	uint8_t status;
	uint32_t syndrome;
	uint8_t out[0x400];
};

/* Posts one command in slot 0, rings it and reads the completion back. */
static struct result run_cmd(const uint8_t *in, uint32_t input_length, uint32_t output_length)
{
	struct cmd_post p = {
		.entry_addr = QADDR,
		.in = in,
		.in_len = input_length,
		.input_length = input_length,
		.output_length = output_length,
		.in_mbox = IN_MBOX,
		.out_mbox = OUT_MBOX,
		.token = 0x5A,
		.sign = true,
	};
	struct result r;
	struct cmd_result res;
	memset(&r, 0, sizeof r);
	cr_assert_eq(cmd_post_write(&p, host_write, dev), 0);
	nicref_bar_write32(dev, 0x18, 1);
	cr_assert_eq(cmd_result_read(&p, host_read, dev, r.out, sizeof r.out, &res), 0);
	cr_assert_eq(res.ownership, 0, "command not completed");
	cr_assert_eq(res.delivery, 0, "delivery status 0x%x", res.delivery);
	r.status = res.status;
	r.syndrome = res.syndrome;
	return r;
}

static void simple_cmd(unsigned opcode, unsigned op_mod, uint32_t dw8)
{
	uint8_t in[16] = { 0 };
	setf(in, 0x00, 31, 16, opcode);
	setf(in, 0x04, 15, 0, op_mod);
	put32(in + 0x08, dw8);
	struct result r = run_cmd(in, 16, 16);
	cr_assert_eq(r.status, OK, "opcode 0x%x: status 0x%x", opcode, r.status);
}

static struct nicref_dev *make_dev(unsigned num_ports, unsigned reserved_check, bool enable)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.num_ports = (uint8_t)num_ports;
	cfg.profile.reserved_check = (uint8_t)reserved_check;
	cfg.trace = collect;
	struct nicref_dev *d = nicref_dev_create(&cfg);
	cr_assert_not_null(d);
	dev = d;
	nicref_bar_write32(d, 0x10, (uint32_t)(QADDR >> 32));
	nicref_bar_write32(d, 0x14, (uint32_t)QADDR);
	cr_assert_eq(nicref_bar_read32(d, 0x1FC) >> 31, 0, "device not ready");
	if (enable)
		simple_cmd(OP_ENABLE_HCA, 0, 0);
	nevents = 0;
	return d;
}

/* §8.2 to INITIALIZED: SET_ISSI 1, the boot and init pages (default profile 2 + 6), INIT_HCA. */
static void to_initialized(void)
{
	simple_cmd(OP_SET_ISSI, 0, 1);
	uint8_t in[0x10 + 8 * 8] = { 0 };
	setf(in, 0x00, 31, 16, OP_MANAGE_PAGES);
	setf(in, 0x04, 15, 0, 1); /* ALLOCATION_SUCCESS */
	put32(in + 0x0C, 8);
	for (unsigned i = 0; i < 8; i++)
		put32(in + 0x10 + 8 * i + 4, 0x40000000u + i * 0x1000u);
	cr_assert_eq(run_cmd(in, sizeof in, 16).status, OK);
	simple_cmd(OP_INIT_HCA, 0, 0);
	nevents = 0;
}

static void setup(void)
{
	nevents = 0;
	make_dev(1, 1, true);
}

static void teardown(void)
{
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- ACCESS_REGISTER commands ---------------------------------------------------------------- */

/* An ACCESS_REGISTER input: header (T221/T222) and `size` bytes of register data at 10h. */
struct reg_cmd {
	uint8_t in[0x10 + 0x100];
	uint32_t size; /* register data bytes */
};

static struct reg_cmd reg_cmd(unsigned op_mod, unsigned id, uint32_t size, unsigned local_port)
{
	struct reg_cmd c;
	memset(&c, 0, sizeof c);
	setf(c.in, 0x00, 31, 16, OP_ACCESS_REG);
	setf(c.in, 0x04, 15, 0, op_mod);
	setf(c.in, 0x08, 15, 0, id);
	c.size = size;
	setf(c.in, 0x10, 23, 16, local_port); /* every port register: 00h[23:16] */
	return c;
}

/* Register data field msb..lsb at register offset `off`. */
static void rset(struct reg_cmd *c, unsigned off, unsigned msb, unsigned lsb, uint32_t v)
{
	setf(c->in, 0x10 + off, msb, lsb, v);
}

static uint32_t rget(const struct result *r, unsigned off, unsigned msb, unsigned lsb)
{
	return getf(r->out, 0x10 + off, msb, lsb);
}

static struct result reg_run(const struct reg_cmd *c)
{
	return run_cmd(c->in, 0x10 + c->size, 0x10 + c->size);
}

static void expect_rule(const struct result *r, unsigned status, enum nicref_cmd_rule rule)
{
	cr_assert_eq(r->status, status, "status 0x%02x, expected 0x%02x (%s)", r->status, status,
		     nicref_cmd_rule_name(rule));
	cr_assert_eq(r->syndrome, nicref_cmd_rule_syndrome(rule), "syndrome 0x%08x, expected %s",
		     r->syndrome, nicref_cmd_rule_name(rule));
}

static void expect_ok(const struct result *r)
{
	cr_assert_eq(r->status, OK, "status 0x%02x syndrome 0x%08x", r->status, r->syndrome);
	cr_assert_eq(r->syndrome, 0);
}

static size_t count_kind(enum nicref_event_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < nevents; i++)
		n += events[i].kind == k;
	return n;
}

/* The port events since the last call, as (port << 8 | subtype). */
static size_t port_events(uint32_t *got, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < nevents; i++)
		if (events[i].kind == NICREF_EV_PORT_EVENT && n < max)
			got[n++] = (uint32_t)(events[i].arg[0] << 8 | events[i].arg[1]);
	nevents = 0;
	return n;
}

static void expect_port_events(size_t n, const uint32_t *want)
{
	uint32_t got[16];
	size_t k = port_events(got, 16);
	cr_assert_eq(k, n, "%zu port events, expected %zu", k, n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(got[i], want[i], "port event %zu: 0x%x, expected 0x%x", i, got[i],
			     want[i]);
}

/* Register readers. */
static struct result pmtu_read(unsigned port)
{
	struct reg_cmd c = reg_cmd(READ, PMTU, 0x10, port);
	return reg_run(&c);
}

static struct result pmtu_write(unsigned port, uint32_t admin)
{
	struct reg_cmd c = reg_cmd(WRITE, PMTU, 0x10, port);
	rset(&c, 0x08, 31, 16, admin);
	return reg_run(&c);
}

static struct result ptys_read(unsigned port)
{
	struct reg_cmd c = reg_cmd(READ, PTYS, 0x40, port);
	rset(&c, 0x00, 2, 0, 0x4);
	return reg_run(&c);
}

static struct result ptys_write(unsigned port, uint32_t admin)
{
	struct reg_cmd c = reg_cmd(WRITE, PTYS, 0x40, port);
	rset(&c, 0x00, 2, 0, 0x4);
	rset(&c, 0x18, 31, 0, admin);
	return reg_run(&c);
}

static struct result paos_read(unsigned port)
{
	struct reg_cmd c = reg_cmd(READ, PAOS, 0x10, port);
	return reg_run(&c);
}

static struct result paos_write(unsigned port, unsigned ase, unsigned admin)
{
	struct reg_cmd c = reg_cmd(WRITE, PAOS, 0x10, port);
	rset(&c, 0x00, 11, 8, admin);
	rset(&c, 0x04, 31, 31, ase);
	return reg_run(&c);
}

static void expect_paos(unsigned port, unsigned admin, unsigned oper)
{
	struct result r = paos_read(port);
	expect_ok(&r);
	cr_assert_eq(rget(&r, 0x00, 23, 16), port);
	cr_assert_eq(rget(&r, 0x00, 11, 8), admin, "admin_status %u, expected %u",
		     rget(&r, 0x00, 11, 8), admin);
	cr_assert_eq(rget(&r, 0x00, 3, 0), oper, "oper_status %u, expected %u",
		     rget(&r, 0x00, 3, 0), oper);
	cr_assert_eq(rget(&r, 0x04, 31, 31), 0, "ase is write-only");
}

/* ---- Layouts: the register tables of §11.1 --------------------------------------------------- */

struct row {
	const char *name;
	unsigned off, msb, lsb;
};

static void expect_layout(const char *name, uint32_t size, const struct row *rows, size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(name);
	cr_assert_not_null(l, "no layout %s", name);
	cr_assert_eq(l->size, size, "%s: size 0x%x, expected 0x%x", name, l->size, size);
	cr_assert_eq(l->nfields, n, "%s: %u fields, expected %zu", name, l->nfields, n);
	for (size_t i = 0; i < n; i++) {
		const struct nicref_field *f = nicref_layout_field(l, rows[i].name);
		cr_assert_not_null(f, "%s has no %s", name, rows[i].name);
		cr_assert_eq(f->prm_offset, rows[i].off, "%s.%s offset", name, rows[i].name);
		cr_assert_eq(f->msb, rows[i].msb, "%s.%s msb", name, rows[i].name);
		cr_assert_eq(f->lsb, rows[i].lsb, "%s.%s lsb", name, rows[i].name);
	}
}

Test(reg_layouts, pmtu_t106)
{
	static const struct row r[] = { { "local_port", 0x00, 23, 16 },
					{ "max_mtu", 0x04, 31, 16 },
					{ "admin_mtu", 0x08, 31, 16 },
					{ "oper_mtu", 0x0C, 31, 16 } };
	expect_layout("pmtu", 0x10, r, 4);
}

Test(reg_layouts, ptys_t108)
{
	static const struct row r[] = { { "local_port", 0x00, 23, 16 },
					{ "proto_mask", 0x00, 2, 0 },
					{ "eth_proto_capability", 0x0C, 31, 0 },
					{ "eth_proto_admin", 0x18, 31, 0 },
					{ "eth_proto_oper", 0x24, 31, 0 } };
	expect_layout("ptys", 0x40, r, 5);
}

Test(reg_layouts, paos_t110)
{
	static const struct row r[] = { { "local_port", 0x00, 23, 16 },
					{ "admin_status", 0x00, 11, 8 },
					{ "oper_status", 0x00, 3, 0 },
					{ "ase", 0x04, 31, 31 } };
	expect_layout("paos", 0x10, r, 4);
}

Test(reg_layouts, pfcc_t112)
{
	static const struct row r[] = {
		{ "local_port", 0x00, 23, 16 },
		{ "prio_mask_tx", 0x04, 23, 16 },
		{ "prio_mask_rx", 0x04, 7, 0 },
		{ "pptx", 0x08, 31, 31 },
		{ "aptx", 0x08, 30, 30 },
		{ "pfctx", 0x08, 23, 16 },
		{ "fctx_disabled", 0x08, 8, 8 },
		{ "pprx", 0x0C, 31, 31 },
		{ "aprx", 0x0C, 30, 30 },
		{ "pfcrx", 0x0C, 23, 16 },
		{ "device_stall_minor_watermark", 0x10, 31, 16 },
		{ "device_stall_critical_watermark", 0x10, 15, 0 },
	};
	expect_layout("pfcc", 0x20, r, 12);
}

Test(reg_layouts, ppcnt_t114)
{
	static const struct row r[] = { { "local_port", 0x00, 23, 16 },
					{ "grp", 0x00, 5, 0 },
					{ "clr", 0x04, 31, 31 },
					{ "prio_tc", 0x04, 4, 0 },
					{ "counter_set", 0x08, 31, 0 } };
	expect_layout("ppcnt", 0x100, r, 5);
	const struct nicref_field *cs =
		nicref_layout_field(nicref_layout_find("ppcnt"), "counter_set");
	cr_assert_eq(cs->bit_width, 1984, "T114: counter_set is 1984 bits (08h-FCh)");
}

/* A counter group: every counter as <name>_high at off and <name>_low at off + 4, in the order
 * of the PRM's field table, and nothing else; the group is 08h-FCh of PPCNT (F8h bytes). */
struct counter {
	const char *name;
	unsigned off;
};

static void expect_group(const char *layout, const struct counter *c, size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "no layout %s", layout);
	cr_assert_eq(l->size, 0xF8, "%s: size 0x%x", layout, l->size);
	cr_assert_eq(l->nfields, 2 * n, "%s: %u fields, expected %zu", layout, l->nfields, 2 * n);
	for (size_t i = 0; i < n; i++) {
		char hi[80], lo[80];
		snprintf(hi, sizeof hi, "%s_high", c[i].name);
		snprintf(lo, sizeof lo, "%s_low", c[i].name);
		/* In order: the model reads counter k as fields 2k and 2k + 1. */
		cr_assert_str_eq(l->fields[2 * i].name, hi, "%s field %zu", layout, 2 * i);
		cr_assert_str_eq(l->fields[2 * i + 1].name, lo, "%s field %zu", layout, 2 * i + 1);
		cr_assert_eq(l->fields[2 * i].prm_offset, c[i].off, "%s.%s", layout, hi);
		cr_assert_eq(l->fields[2 * i + 1].prm_offset, c[i].off + 4, "%s.%s", layout, lo);
		cr_assert_eq(l->fields[2 * i].bit_width, 32);
		cr_assert_eq(l->fields[2 * i + 1].bit_width, 32);
	}
}

/* T116 */
static const struct counter ieee_802_3[] = {
	{ "a_frames_transmitted_ok", 0x00 },
	{ "a_frames_received_ok", 0x08 },
	{ "a_frame_check_sequence_errors", 0x10 },
	{ "a_alignment_errors", 0x18 },
	{ "a_octets_transmitted_ok", 0x20 },
	{ "a_octets_received_ok", 0x28 },
	{ "a_multicast_frames_xmitted_ok", 0x30 },
	{ "a_broadcast_frames_xmitted_ok", 0x38 },
	{ "a_multicast_frames_received_ok", 0x40 },
	{ "a_broadcast_frames_received_ok", 0x48 },
	{ "a_in_range_length_errors", 0x50 },
	{ "a_out_of_range_length_field", 0x58 },
	{ "a_frame_too_long_errors", 0x60 },
	{ "a_symbol_error_during_carrier", 0x68 },
	{ "a_mac_control_frames_transmitted", 0x70 },
	{ "a_mac_control_frames_received", 0x78 },
	{ "a_unsupported_opcodes_received", 0x80 },
	{ "a_pause_mac_ctrl_frames_received", 0x88 },
	{ "a_pause_mac_ctrl_frames_transmitted", 0x90 },
};
/* T118 */
static const struct counter rfc_2863[] = {
	{ "if_in_octets", 0x00 },	   { "if_in_ucast_pkts", 0x08 },
	{ "if_in_discards", 0x10 },	   { "if_in_errors", 0x18 },
	{ "if_in_unknown_protos", 0x20 }, { "if_out_octets", 0x28 },
	{ "if_out_ucast_pkts", 0x30 },	   { "if_out_discards", 0x38 },
	{ "if_out_errors", 0x40 },	   { "if_in_multicast_pkts", 0x48 },
	{ "if_in_broadcast_pkts", 0x50 }, { "if_out_multicast_pkts", 0x58 },
	{ "if_out_broadcast_pkts", 0x60 },
};
/* T120 */
static const struct counter rfc_2819[] = {
	{ "ether_stats_drop_events", 0x00 },
	{ "ether_stats_octets", 0x08 },
	{ "ether_stats_pkts", 0x10 },
	{ "ether_stats_broadcast_pkts", 0x18 },
	{ "ether_stats_multicast_pkts", 0x20 },
	{ "ether_stats_crc_align_errors", 0x28 },
	{ "ether_stats_undersize_pkts", 0x30 },
	{ "ether_stats_oversize_pkts", 0x38 },
	{ "ether_stats_fragments", 0x40 },
	{ "ether_stats_jabbers", 0x48 },
	{ "ether_stats_collisions", 0x50 },
	{ "ether_stats_pkts64octets", 0x58 },
	{ "ether_stats_pkts65to127octets", 0x60 },
	{ "ether_stats_pkts128to255octets", 0x68 },
	{ "ether_stats_pkts256to511octets", 0x70 },
	{ "ether_stats_pkts512to1023octets", 0x78 },
	{ "ether_stats_pkts1024to1518octets", 0x80 },
	{ "ether_stats_pkts1519to2047octets", 0x88 },
	{ "ether_stats_pkts2048to4095octets", 0x90 },
	{ "ether_stats_pkts4096to8191octets", 0x98 },
	{ "ether_stats_pkts8192to10239octets", 0xA0 },
};
/* T122 */
static const struct counter rfc_3635[] = {
	{ "dot3stats_alignment_errors", 0x00 },
	{ "dot3stats_fcs_errors", 0x08 },
	{ "dot3stats_single_collision_frames", 0x10 },
	{ "dot3stats_multiple_collision_frames", 0x18 },
	{ "dot3stats_sqe_test_errors", 0x20 },
	{ "dot3stats_deferred_transmissions", 0x28 },
	{ "dot3stats_late_collisions", 0x30 },
	{ "dot3stats_excessive_collisions", 0x38 },
	{ "dot3stats_internal_mac_transmit_errors", 0x40 },
	{ "dot3stats_carrier_sense_errors", 0x48 },
	{ "dot3stats_frame_too_long", 0x50 },
	{ "dot3stats_internal_mac_receive_errors", 0x58 },
	{ "dot3stats_symbol_errors", 0x60 },
	{ "dot3control_in_unknown_opcodes", 0x68 },
	{ "dot3in_pause_frames", 0x70 },
	{ "dot3out_pause_frames", 0x78 },
};
/* T124 */
static const struct counter per_prio[] = {
	{ "rx_octets", 0x00 },
	{ "rx_frames", 0x20 },
	{ "tx_octets", 0x28 },
	{ "tx_frames", 0x48 },
	{ "rx_pause", 0x50 },
	{ "rx_pause_duration", 0x58 },
	{ "tx_pause", 0x60 },
	{ "tx_pause_duration", 0x68 },
	{ "rx_pause_transition", 0x70 },
	{ "rx_discards", 0x78 },
	{ "device_stall_minor_watermark_cnt", 0x80 },
	{ "device_stall_critical_watermark_cnt", 0x88 },
};
/* T126 */
static const struct counter per_tc[] = {
	{ "transmit_queue", 0x00 },
	{ "no_buffer_discard_uc", 0x08 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

Test(reg_layouts, ppcnt_counter_groups_t115_t126)
{
	expect_group("ppcnt_ieee_802_3", ieee_802_3, NELEM(ieee_802_3));
	expect_group("ppcnt_rfc_2863", rfc_2863, NELEM(rfc_2863));
	expect_group("ppcnt_rfc_2819", rfc_2819, NELEM(rfc_2819));
	expect_group("ppcnt_rfc_3635", rfc_3635, NELEM(rfc_3635));
	expect_group("ppcnt_per_prio", per_prio, NELEM(per_prio));
	expect_group("ppcnt_per_tc", per_tc, NELEM(per_tc));
	/* The port model numbers the same counters, group by group. */
	cr_assert_eq(PORT_NCNT_IEEE_802_3, NELEM(ieee_802_3));
	cr_assert_eq(PORT_NCNT_RFC_2863, NELEM(rfc_2863));
	cr_assert_eq(PORT_NCNT_RFC_2819, NELEM(rfc_2819));
	cr_assert_eq(PORT_NCNT_RFC_3635, NELEM(rfc_3635));
	cr_assert_eq(PORT_NCNT_PER_PRIO, NELEM(per_prio));
	cr_assert_eq(PORT_NCNT_PER_TC, NELEM(per_tc));
	cr_assert_eq(PORT_CNT_FIRST_IEEE_802_3, 0);
	cr_assert_eq(PORT_CNT_a_frames_transmitted_ok, 0);
	cr_assert_eq(PORT_CNT_FIRST_RFC_2863, PORT_CNT_if_in_octets);
	cr_assert_eq(PORT_CNT_FIRST_PER_PRIO, PORT_CNT_rx_octets);
	cr_assert_eq(PORT_CNT_FIRST_PER_TC, PORT_CNT_transmit_queue);
	cr_assert_eq(PORT_CNT_COUNT, 19 + 13 + 21 + 16 + 12 + 2);
}

/* The whole-command views put the register behind the 10h-byte ACCESS_REGISTER header. */
Test(reg_layouts, command_views)
{
	static const struct row pmtu_in[] = { { "opcode", 0x00, 31, 16 },
					      { "op_mod", 0x04, 15, 0 },
					      { "register_id", 0x08, 15, 0 },
					      { "argument", 0x0C, 31, 0 },
					      { "local_port", 0x10, 23, 16 },
					      { "max_mtu", 0x14, 31, 16 },
					      { "admin_mtu", 0x18, 31, 16 },
					      { "oper_mtu", 0x1C, 31, 16 } };
	expect_layout("access_reg_pmtu_in", 0x20, pmtu_in, NELEM(pmtu_in));
	static const struct row paos_out[] = { { "status", 0x00, 31, 24 },
					       { "syndrome", 0x04, 31, 0 },
					       { "local_port", 0x10, 23, 16 },
					       { "admin_status", 0x10, 11, 8 },
					       { "oper_status", 0x10, 3, 0 },
					       { "ase", 0x14, 31, 31 } };
	expect_layout("access_reg_paos_out", 0x20, paos_out, NELEM(paos_out));
	const struct nicref_layout *l = nicref_layout_find("access_reg_ppcnt_per_tc_out");
	cr_assert_not_null(l);
	cr_assert_eq(l->size, 0x110);
	const struct nicref_field *f = nicref_layout_field(l, "no_buffer_discard_uc_low");
	cr_assert_not_null(f);
	cr_assert_eq(f->prm_offset, 0x10 + 0x08 + 0x0C);
	cr_assert_not_null(nicref_layout_find("access_reg_ptys_in"));
	cr_assert_not_null(nicref_layout_find("access_reg_pfcc_out"));
	cr_assert_not_null(nicref_layout_find("access_reg_ppcnt_in"));
	cr_assert_not_null(nicref_layout_find("access_reg_ppcnt_rfc_2819_out"));
}

/* ---- ACCESS_REGISTER framing (§12.4.1) ------------------------------------------------------- */

TestSuite(reg_access, .init = setup, .fini = teardown);

Test(reg_access, before_enable_hca_is_bad_sys_state)
{
	nicref_dev_destroy(dev);
	make_dev(1, 1, false);
	struct result r = pmtu_read(1);
	expect_rule(&r, BAD_SYS_STATE, NICREF_RULE_HCA_NOT_ENABLED);
}

Test(reg_access, unknown_register_is_bad_param)
{
	/* T104 ids are 5003h, 5004h, 5006h-5008h: 5005h and 0 are not registers. */
	static const unsigned ids[] = { 0x0000, 0x5002, 0x5005, 0x5009, 0xFFFF };
	for (size_t i = 0; i < NELEM(ids); i++) {
		for (unsigned op = 0; op < 2; op++) {
			struct reg_cmd c = reg_cmd(op, ids[i], 0x10, 1);
			struct result r = reg_run(&c);
			expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_UNKNOWN);
		}
	}
}

Test(reg_access, op_mod_beyond_read_is_bad_op)
{
	struct reg_cmd c = reg_cmd(2, PMTU, 0x10, 1);
	struct result r = reg_run(&c);
	expect_rule(&r, BAD_OP, NICREF_RULE_BAD_OP_MOD);
}

Test(reg_access, argument_must_be_zero)
{
	struct reg_cmd c = reg_cmd(READ, PMTU, 0x10, 1);
	put32(c.in + 0x0C, 1);
	struct result r = reg_run(&c);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_ARGUMENT_NOT_ZERO);
	c = reg_cmd(WRITE, PAOS, 0x10, 1);
	put32(c.in + 0x0C, 0x80000000u);
	rset(&c, 0x00, 11, 8, 2);
	rset(&c, 0x04, 31, 31, 1);
	r = reg_run(&c);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_ARGUMENT_NOT_ZERO);
	cr_assert_eq(count_kind(NICREF_EV_PORT_EVENT), 0, "a refused write changed the port");
	expect_paos(1, 1, 1);
}

Test(reg_access, local_port_is_1_to_num_ports)
{
	static const struct {
		unsigned id, size;
	} regs[] = { { PMTU, 0x10 }, { PTYS, 0x40 }, { PAOS, 0x10 }, { PFCC, 0x20 },
		     { PPCNT, 0x100 } };
	for (size_t i = 0; i < NELEM(regs); i++) {
		static const unsigned bad[] = { 0, 2, 255 };
		for (size_t k = 0; k < NELEM(bad); k++) {
			struct reg_cmd c = reg_cmd(READ, regs[i].id, regs[i].size, bad[k]);
			rset(&c, 0x00, 2, 0, regs[i].id == PTYS ? 4 : 0);
			struct result r = reg_run(&c);
			expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_LOCAL_PORT);
		}
		struct reg_cmd c = reg_cmd(READ, regs[i].id, regs[i].size, 1);
		rset(&c, 0x00, 2, 0, regs[i].id == PTYS ? 4 : 0);
		struct result r = reg_run(&c);
		expect_ok(&r);
		cr_assert_eq(rget(&r, 0x00, 23, 16), 1, "register 0x%x: local_port not echoed",
			     regs[i].id);
	}
}

Test(reg_access, second_port_with_two_ports)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct result r = pmtu_write(2, 4000);
	expect_ok(&r);
	r = pmtu_read(2);
	expect_ok(&r);
	cr_assert_eq(rget(&r, 0x00, 23, 16), 2);
	cr_assert_eq(rget(&r, 0x08, 31, 16), 4000);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU, "port 1 changed with port 2");
	r = pmtu_read(3);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_REG_LOCAL_PORT);
}

Test(reg_access, input_must_hold_the_register)
{
	/* D-REG-10: the whole register on READ and WRITE. */
	struct reg_cmd c = reg_cmd(READ, PPCNT, 0x100, 1);
	struct result r = run_cmd(c.in, 0x10 + 0xFF, 0x110);
	expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	r = run_cmd(c.in, 0x10, 0x110); /* only the ACCESS_REGISTER header */
	expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x08, 31, 16, 2000);
	r = run_cmd(c.in, 0x1C, 0x20);
	expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU, "a refused write changed admin_mtu");
	/* Longer is fine; the extra bytes are not looked at. */
	c = reg_cmd(READ, PMTU, 0x10, 1);
	memset(c.in + 0x20, 0xFF, 0x20);
	r = run_cmd(c.in, 0x40, 0x20);
	expect_ok(&r);
}

Test(reg_access, read_output_must_hold_the_register)
{
	struct reg_cmd c = reg_cmd(READ, PTYS, 0x40, 1);
	rset(&c, 0x00, 2, 0, 4);
	struct result r = run_cmd(c.in, 0x50, 0x4F);
	expect_rule(&r, BAD_OUTPUT_LEN, NICREF_RULE_REG_OUTPUT_TOO_SHORT);
	r = run_cmd(c.in, 0x50, 0x10);
	expect_rule(&r, BAD_OUTPUT_LEN, NICREF_RULE_REG_OUTPUT_TOO_SHORT);
	/* A WRITE's output register data is reserved (T224): the header is enough. */
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x08, 31, 16, 2000);
	r = run_cmd(c.in, 0x20, 0x10);
	expect_ok(&r);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), 2000);
}

Test(reg_access, write_output_register_data_is_zero)
{
	struct reg_cmd c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x08, 31, 16, 2000);
	struct result r = reg_run(&c);
	expect_ok(&r);
	for (unsigned i = 0x08; i < 0x20; i++)
		cr_assert_eq(r.out[i], 0, "output byte 0x%x of a WRITE", i);
}

Test(reg_access, reserved_bit_in_write_data)
{
	/* PMTU 00h[31:24] is reserved (T106 covers only 23:16 there). */
	struct reg_cmd c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x00, 31, 31, 1);
	rset(&c, 0x08, 31, 16, 2000);
	struct result r = reg_run(&c);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	for (size_t i = 0; i < nevents; i++)
		if (events[i].kind == NICREF_EV_VIOLATION) {
			cr_assert_eq(events[i].arg[0], NICREF_VIO_CMD_RESERVED_NOT_ZERO);
			cr_assert_eq(events[i].arg[1], (uint64_t)0x10 << 32 | 0x80000000u,
				     "arg 0x%llx", (unsigned long long)events[i].arg[1]);
		}
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU, "refused write changed admin_mtu");
	/* PMTU admin_mtu 08h[15:0] is reserved too. */
	c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x08, 31, 16, 2000);
	rset(&c, 0x08, 0, 0, 1);
	r = reg_run(&c);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
}

Test(reg_access, reserved_bit_permissive_profile_runs_the_write)
{
	nicref_dev_destroy(dev);
	make_dev(1, 0, true);
	struct reg_cmd c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x0C, 0, 0, 1);
	rset(&c, 0x08, 31, 16, 2000);
	struct result r = reg_run(&c);
	expect_ok(&r);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), 2000);
}

Test(reg_access, read_input_beyond_the_index_is_not_checked)
{
	/* D-REG-11: T222 "For read - reserved"; only the index fields are used. */
	struct reg_cmd c = reg_cmd(READ, PMTU, 0x10, 1);
	rset(&c, 0x00, 31, 24, 0xFF);
	rset(&c, 0x08, 31, 16, 100); /* admin_mtu in a READ: ignored */
	struct result r = reg_run(&c);
	expect_ok(&r);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 0);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU);
}

Test(reg_access, allowed_when_initialized_and_not_after_teardown)
{
	to_initialized();
	struct result r = pmtu_read(1);
	expect_ok(&r);
	simple_cmd(OP_TEARDOWN_HCA, 0, 0); /* graceful: ports untouched */
	cr_assert_eq(count_kind(NICREF_EV_PORT_EVENT), 0);
	r = pmtu_read(1);
	expect_rule(&r, BAD_SYS_STATE, NICREF_RULE_HCA_TORN_DOWN);
}

/* ---- PMTU (§11.1.1) -------------------------------------------------------------------------- */

TestSuite(reg_pmtu, .init = setup, .fini = teardown);

Test(reg_pmtu, power_on)
{
	struct result r = pmtu_read(1);
	expect_ok(&r);
	cr_assert_eq(rget(&r, 0x00, 23, 16), 1);
	cr_assert_eq(rget(&r, 0x04, 31, 16), MAX_MTU);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU);
	cr_assert_eq(rget(&r, 0x0C, 31, 16), DEFAULT_MTU);
	for (unsigned off = 0; off < 0x10; off += 4)
		cr_assert_eq(rget(&r, off, off ? 15 : 31, off ? 0 : 24), 0, "reserved bits");
}

Test(reg_pmtu, admin_up_to_max)
{
	static const uint32_t ok[] = { 9000, MAX_MTU, 68, 0 };
	for (size_t i = 0; i < NELEM(ok); i++) {
		struct result r = pmtu_write(1, ok[i]);
		expect_ok(&r);
		r = pmtu_read(1);
		cr_assert_eq(rget(&r, 0x08, 31, 16), ok[i]);
		cr_assert_eq(rget(&r, 0x0C, 31, 16), ok[i], "D-REG-5: oper_mtu follows");
		cr_assert_eq(rget(&r, 0x04, 31, 16), MAX_MTU);
	}
}

Test(reg_pmtu, admin_above_max_refused)
{
	struct result r = pmtu_write(1, MAX_MTU + 1);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PMTU_ADMIN_ABOVE_MAX);
	r = pmtu_write(1, 0xFFFF);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PMTU_ADMIN_ABOVE_MAX);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x08, 31, 16), DEFAULT_MTU);
	cr_assert_eq(rget(&r, 0x0C, 31, 16), DEFAULT_MTU);
}

Test(reg_pmtu, read_only_fields_ignored_on_write)
{
	struct reg_cmd c = reg_cmd(WRITE, PMTU, 0x10, 1);
	rset(&c, 0x04, 31, 16, 100);   /* max_mtu */
	rset(&c, 0x08, 31, 16, 4000);  /* admin_mtu */
	rset(&c, 0x0C, 31, 16, 12345); /* oper_mtu */
	struct result r = reg_run(&c);
	expect_ok(&r);
	r = pmtu_read(1);
	cr_assert_eq(rget(&r, 0x04, 31, 16), MAX_MTU);
	cr_assert_eq(rget(&r, 0x08, 31, 16), 4000);
	cr_assert_eq(rget(&r, 0x0C, 31, 16), 4000);
}

/* ---- PTYS (§11.1.2) -------------------------------------------------------------------------- */

TestSuite(reg_ptys, .init = setup, .fini = teardown);

Test(reg_ptys, power_on)
{
	struct result r = ptys_read(1);
	expect_ok(&r);
	cr_assert_eq(rget(&r, 0x00, 23, 16), 1);
	cr_assert_eq(rget(&r, 0x00, 2, 0), 4);
	cr_assert_eq(rget(&r, 0x0C, 31, 0), ALL_PROTOS);
	cr_assert_eq(rget(&r, 0x18, 31, 0), ALL_PROTOS);
	/* D-REG-6: the fastest (100G), highest bit among them (22, 100GBase KR4). */
	cr_assert_eq(rget(&r, 0x24, 31, 0), P_100GBASE_KR4);
}

Test(reg_ptys, proto_mask_must_be_ethernet)
{
	static const unsigned bad[] = { 0, 1, 2, 3, 5, 6, 7 };
	for (size_t i = 0; i < NELEM(bad); i++) {
		for (unsigned op = 0; op < 2; op++) {
			struct reg_cmd c = reg_cmd(op, PTYS, 0x40, 1);
			rset(&c, 0x00, 2, 0, bad[i]);
			rset(&c, 0x18, 31, 0, P_10GBASE_CR);
			struct result r = reg_run(&c);
			expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_PROTO_MASK);
		}
	}
	struct result r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x18, 31, 0), ALL_PROTOS, "refused write changed admin");
}

Test(reg_ptys, admin_within_capability)
{
	/* Bits 5, 8-11, 17, 19, 23-26 name no protocol in T108. */
	static const uint32_t bad[] = { 1u << 5, 1u << 8, 1u << 11, 1u << 17, 1u << 19,
					1u << 23, 1u << 26, P_10GBASE_CR | 1u << 5 };
	for (size_t i = 0; i < NELEM(bad); i++) {
		struct result r = ptys_write(1, bad[i]);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_ADMIN_NOT_CAPABLE);
	}
	struct result r = ptys_write(1, 0);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PTYS_ADMIN_EMPTY);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x18, 31, 0), ALL_PROTOS);
}

Test(reg_ptys, admin_takes_effect_at_training)
{
	struct result r = ptys_write(1, P_10GBASE_CR | P_40GBASE_CR4);
	expect_ok(&r);
	cr_assert_eq(count_kind(NICREF_EV_PORT_EVENT), 0, "an up link does not retrain");
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x18, 31, 0), P_10GBASE_CR | P_40GBASE_CR4);
	cr_assert_eq(rget(&r, 0x24, 31, 0), P_100GBASE_KR4, "oper changed while up");
	/* "Software can force training by disabling and enabling the port." */
	r = paos_write(1, 1, 2);
	expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x24, 31, 0), 0, "D-REG-6: no protocol while down");
	r = paos_write(1, 1, 1);
	expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x24, 31, 0), P_40GBASE_CR4);
	const uint32_t want[] = { 1u << 8 | 1, 1u << 8 | 4 };
	expect_port_events(2, want);
}

Test(reg_ptys, read_only_fields_ignored_on_write)
{
	struct reg_cmd c = reg_cmd(WRITE, PTYS, 0x40, 1);
	rset(&c, 0x00, 2, 0, 4);
	rset(&c, 0x0C, 31, 0, 0x1);
	rset(&c, 0x18, 31, 0, P_25GBASE_SR);
	rset(&c, 0x24, 31, 0, 0x2);
	struct result r = reg_run(&c);
	expect_ok(&r);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x0C, 31, 0), ALL_PROTOS);
	cr_assert_eq(rget(&r, 0x18, 31, 0), P_25GBASE_SR);
	cr_assert_eq(rget(&r, 0x24, 31, 0), P_100GBASE_KR4);
}

Test(reg_ptys, down_link_trains_with_new_admin)
{
	/* The partner only does 25GBase-SR; our admin lacks it, so the link cannot train. */
	struct result r = ptys_write(1, P_10GBASE_CR);
	expect_ok(&r);
	port_set_peer(dev, 1, true, P_25GBASE_SR);
	expect_paos(1, 1, 2);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x24, 31, 0), 0);
	nevents = 0;
	r = ptys_write(1, P_10GBASE_CR | P_25GBASE_SR);
	expect_ok(&r);
	const uint32_t want[] = { 1u << 8 | 4 };
	expect_port_events(1, want);
	r = ptys_read(1);
	cr_assert_eq(rget(&r, 0x24, 31, 0), P_25GBASE_SR);
}

Test(reg_ptys, best_protocol)
{
	cr_assert_eq(port_proto_all(), ALL_PROTOS);
	cr_assert_eq(port_proto_best(0), 0);
	cr_assert_eq(port_proto_best(1u << 5), 0, "bit 5 is not a protocol");
	cr_assert_eq(port_proto_best(1u << 0 | 1u << 1), 1u << 1, "1G tie: highest bit");
	cr_assert_eq(port_proto_best(P_10GBASE_CR | P_25GBASE_SR), P_25GBASE_SR);
	cr_assert_eq(port_proto_best(1u << 31 | 1u << 20), 1u << 20, "100G beats 50G");
	cr_assert_eq(port_proto_best(1u << 18 | 1u << 30 | 1u << 31), 1u << 31);
	cr_assert_eq(port_proto_best(1u << 16 | 1u << 7), 1u << 16);
}

/* ---- PAOS (§11.1.3) and the link model ------------------------------------------------------- */

TestSuite(reg_paos, .init = setup, .fini = teardown);

Test(reg_paos, power_on_up)
{
	expect_paos(1, 1, 1);
}

Test(reg_paos, down_and_up_raise_port_events)
{
	struct result r = paos_write(1, 1, 2);
	expect_ok(&r);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 2, 2);
	r = paos_write(1, 1, 1);
	expect_ok(&r);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 1, 1);
	/* The same state again: no change, no event. */
	r = paos_write(1, 1, 1);
	expect_ok(&r);
	expect_port_events(0, NULL);
}

Test(reg_paos, without_ase_nothing_changes)
{
	static const unsigned admin[] = { 2, 4, 0, 15 };
	for (size_t i = 0; i < NELEM(admin); i++) {
		struct result r = paos_write(1, 0, admin[i]);
		expect_ok(&r);
	}
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
}

Test(reg_paos, admin_values)
{
	struct result r = paos_write(1, 1, 4);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PAOS_ADMIN_BY_HW);
	static const unsigned bad[] = { 0, 5, 6, 8, 15 };
	for (size_t i = 0; i < NELEM(bad); i++) {
		r = paos_write(1, 1, bad[i]);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PAOS_ADMIN_INVALID);
	}
	expect_port_events(0, NULL);
	expect_paos(1, 1, 1);
}

Test(reg_paos, oper_status_is_read_only)
{
	struct reg_cmd c = reg_cmd(WRITE, PAOS, 0x10, 1);
	rset(&c, 0x00, 3, 0, 2);
	struct result r = reg_run(&c);
	expect_ok(&r);
	expect_paos(1, 1, 1);
}

Test(reg_paos, link_partner_loss_with_admin_up)
{
	port_set_peer(dev, 1, false, UINT32_MAX);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 1, 2);
	port_set_peer(dev, 1, true, UINT32_MAX);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 1, 1);
}

Test(reg_paos, up_once_stays_down_until_written)
{
	struct result r = paos_write(1, 1, 3);
	expect_ok(&r);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 1);
	/* T110: "if the port goes up and then down, the operational status should go to 'down
	 * by port failure' and can only go back up upon explicit command". */
	port_set_peer(dev, 1, false, UINT32_MAX);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(1, 3, 4);
	port_set_peer(dev, 1, true, UINT32_MAX);
	expect_port_events(0, NULL);
	expect_paos(1, 3, 4);
	r = paos_write(1, 1, 3);
	expect_ok(&r);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 3, 1);
}

Test(reg_paos, up_once_failure_then_admin_down_is_no_event)
{
	struct result r = paos_write(1, 1, 3);
	expect_ok(&r);
	port_set_peer(dev, 1, false, UINT32_MAX);
	nevents = 0;
	r = paos_write(1, 1, 2);
	expect_ok(&r);
	expect_port_events(0, NULL); /* D-REG-15: 4 -> 2 is down to down */
	expect_paos(1, 2, 2);
}

Test(reg_paos, up_once_never_up_is_not_a_failure)
{
	port_set_peer(dev, 1, false, UINT32_MAX);
	nevents = 0;
	struct result r = paos_write(1, 1, 3);
	expect_ok(&r);
	expect_paos(1, 3, 2);
	port_set_peer(dev, 1, true, UINT32_MAX);
	const uint32_t up[] = { 1u << 8 | 4 };
	expect_port_events(1, up);
	expect_paos(1, 3, 1);
}

Test(reg_paos, second_port_events_name_it)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct result r = paos_write(2, 1, 2);
	expect_ok(&r);
	const uint32_t down[] = { 2u << 8 | 1 };
	expect_port_events(1, down);
	expect_paos(2, 2, 2);
	expect_paos(1, 1, 1);
}

Test(reg_paos, teardown_panic_takes_every_port_down)
{
	nicref_dev_destroy(dev);
	make_dev(2, 1, true);
	struct result r = paos_write(2, 1, 2); /* port 2 already down: no second event */
	expect_ok(&r);
	to_initialized();
	simple_cmd(OP_TEARDOWN_HCA, 0, 1);
	const uint32_t down[] = { 1u << 8 | 1 };
	expect_port_events(1, down);
	cr_assert_eq(dev->port[0].admin_status, 4, "D-REG-15: disabled by system");
	cr_assert_eq(dev->port[0].oper_status, 2);
	cr_assert_eq(dev->port[1].oper_status, 2);
	cr_assert_eq(dev->port[0].eth_proto_oper, 0);
}

Test(reg_paos, reset_restores_power_on_without_events)
{
	struct result r = paos_write(1, 1, 2);
	expect_ok(&r);
	nevents = 0;
	nicref_dev_reset(dev);
	cr_assert_eq(count_kind(NICREF_EV_PORT_EVENT), 0);
	cr_assert_eq(dev->port[0].admin_status, 1);
	cr_assert_eq(dev->port[0].oper_status, 1);
	cr_assert_eq(dev->port[0].admin_mtu, DEFAULT_MTU);
}

/* ---- PFCC (§11.1.4) -------------------------------------------------------------------------- */

TestSuite(reg_pfcc, .init = setup, .fini = teardown);

struct pfcc {
	unsigned mask_tx, mask_rx, pptx, pfctx, fctx_disabled, pprx, pfcrx, minor, critical;
	unsigned aptx, aprx;
};

static struct result pfcc_write(const struct pfcc *v)
{
	struct reg_cmd c = reg_cmd(WRITE, PFCC, 0x20, 1);
	rset(&c, 0x04, 23, 16, v->mask_tx);
	rset(&c, 0x04, 7, 0, v->mask_rx);
	rset(&c, 0x08, 31, 31, v->pptx);
	rset(&c, 0x08, 30, 30, v->aptx);
	rset(&c, 0x08, 23, 16, v->pfctx);
	rset(&c, 0x08, 8, 8, v->fctx_disabled);
	rset(&c, 0x0C, 31, 31, v->pprx);
	rset(&c, 0x0C, 30, 30, v->aprx);
	rset(&c, 0x0C, 23, 16, v->pfcrx);
	rset(&c, 0x10, 31, 16, v->minor);
	rset(&c, 0x10, 15, 0, v->critical);
	return reg_run(&c);
}

static void expect_pfcc(unsigned pptx, unsigned pfctx, unsigned pprx, unsigned pfcrx)
{
	struct reg_cmd c = reg_cmd(READ, PFCC, 0x20, 1);
	struct result r = reg_run(&c);
	expect_ok(&r);
	cr_assert_eq(rget(&r, 0x04, 31, 0), 0, "prio masks are write-only");
	cr_assert_eq(rget(&r, 0x08, 31, 31), pptx, "pptx");
	cr_assert_eq(rget(&r, 0x08, 30, 30), pptx, "aptx follows pptx (D-REG-7)");
	cr_assert_eq(rget(&r, 0x08, 23, 16), pfctx, "pfctx 0x%x", rget(&r, 0x08, 23, 16));
	cr_assert_eq(rget(&r, 0x0C, 31, 31), pprx, "pprx");
	cr_assert_eq(rget(&r, 0x0C, 30, 30), pprx, "aprx follows pprx");
	cr_assert_eq(rget(&r, 0x0C, 23, 16), pfcrx, "pfcrx 0x%x", rget(&r, 0x0C, 23, 16));
}

Test(reg_pfcc, power_on_defaults)
{
	/* T112 "(default)": never generate, ignore received pause frames, no PFC. */
	expect_pfcc(0, 0, 0, 0);
	struct reg_cmd c = reg_cmd(READ, PFCC, 0x20, 1);
	struct result r = reg_run(&c);
	cr_assert_eq(rget(&r, 0x08, 8, 8), 0);
	cr_assert_eq(rget(&r, 0x10, 31, 0), 0, "watermarks inactive");
}

Test(reg_pfcc, global_pause)
{
	struct pfcc v = { .pptx = 1, .pprx = 1 };
	struct result r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(1, 0, 1, 0);
	v = (struct pfcc){ .pptx = 0, .pprx = 1 };
	r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(0, 0, 1, 0);
}

Test(reg_pfcc, pfc_bits_change_only_under_the_mask)
{
	struct pfcc v = { .mask_tx = 0x0F, .pfctx = 0xFF, .mask_rx = 0xF0, .pfcrx = 0xFF };
	struct result r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(0, 0x0F, 0, 0xF0);
	v = (struct pfcc){ .mask_tx = 0x03, .pfctx = 0x02, .mask_rx = 0, .pfcrx = 0 };
	r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(0, 0x0E, 0, 0xF0);
}

Test(reg_pfcc, pause_and_pfc_are_exclusive)
{
	/* T112: "pfctx, pptx must be mutually exclusive"; note: one mechanism for RX and TX. */
	const struct pfcc bad[] = {
		{ .pptx = 1, .mask_tx = 0x01, .pfctx = 0x01 },
		{ .pprx = 1, .mask_rx = 0x80, .pfcrx = 0x80 },
		{ .pptx = 1, .mask_rx = 0x01, .pfcrx = 0x01 },
		{ .pprx = 1, .mask_tx = 0x01, .pfctx = 0x01 },
	};
	for (size_t i = 0; i < NELEM(bad); i++) {
		struct result r = pfcc_write(&bad[i]);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_PAUSE_AND_PFC);
	}
	expect_pfcc(0, 0, 0, 0);
	/* PFC in force, then global pause without clearing it: refused (D-REG-16). */
	struct pfcc v = { .mask_tx = 0x08, .pfctx = 0x08 };
	struct result r = pfcc_write(&v);
	expect_ok(&r);
	v = (struct pfcc){ .pptx = 1 };
	r = pfcc_write(&v);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_PAUSE_AND_PFC);
	expect_pfcc(0, 0x08, 0, 0);
	/* Clearing PFC and enabling pause in one write is fine. */
	v = (struct pfcc){ .pptx = 1, .mask_tx = 0x08, .pfctx = 0 };
	r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(1, 0, 0, 0);
	/* PFC bits outside the mask do not count. */
	v = (struct pfcc){ .pptx = 1, .mask_tx = 0, .pfctx = 0xFF };
	r = pfcc_write(&v);
	expect_ok(&r);
	expect_pfcc(1, 0, 0, 0);
}

Test(reg_pfcc, watermark_range)
{
	static const unsigned ok[] = { 0, 0x50, 0x51, 0x1000, 0x1F40 };
	static const unsigned bad[] = { 1, 0x4F, 0x1F41, 0xFFFF };
	for (size_t i = 0; i < NELEM(ok); i++) {
		struct pfcc v = { .minor = ok[i], .critical = ok[NELEM(ok) - 1 - i] };
		struct result r = pfcc_write(&v);
		expect_ok(&r);
		struct reg_cmd c = reg_cmd(READ, PFCC, 0x20, 1);
		r = reg_run(&c);
		cr_assert_eq(rget(&r, 0x10, 31, 16), ok[i]);
		cr_assert_eq(rget(&r, 0x10, 15, 0), ok[NELEM(ok) - 1 - i]);
	}
	for (size_t i = 0; i < NELEM(bad); i++) {
		struct pfcc v = { .minor = bad[i], .critical = 0x50 };
		struct result r = pfcc_write(&v);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_WATERMARK_RANGE);
		v = (struct pfcc){ .minor = 0x50, .critical = bad[i] };
		r = pfcc_write(&v);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_WATERMARK_RANGE);
	}
	struct reg_cmd c = reg_cmd(READ, PFCC, 0x20, 1);
	struct result r = reg_run(&c);
	cr_assert_eq(rget(&r, 0x10, 31, 16), 0x1F40, "refused write changed a watermark");
}

Test(reg_pfcc, fctx_disabled_is_read_write_and_active_bits_read_only)
{
	struct pfcc v = { .fctx_disabled = 1, .aptx = 1, .aprx = 1 };
	struct result r = pfcc_write(&v);
	expect_ok(&r);
	struct reg_cmd c = reg_cmd(READ, PFCC, 0x20, 1);
	r = reg_run(&c);
	cr_assert_eq(rget(&r, 0x08, 8, 8), 1);
	expect_pfcc(0, 0, 0, 0);
}

/* ---- PPCNT (§11.1.5) and the counters -------------------------------------------------------- */

TestSuite(reg_ppcnt, .init = setup, .fini = teardown);

static struct result ppcnt(unsigned op, unsigned grp, unsigned prio_tc, unsigned clr)
{
	struct reg_cmd c = reg_cmd(op, PPCNT, 0x100, 1);
	rset(&c, 0x00, 5, 0, grp);
	rset(&c, 0x04, 31, 31, clr);
	rset(&c, 0x04, 4, 0, prio_tc);
	return reg_run(&c);
}

/* Counter at counter_set offset `off` (PPCNT 08h + off): _high then _low. */
static uint64_t cnt(const struct result *r, unsigned off)
{
	return get64(r->out, 0x10 + 0x08 + off);
}

Test(reg_ppcnt, every_group_reads_zero_at_power_on)
{
	static const struct {
		unsigned grp;
		const struct counter *c;
		size_t n;
	} g[] = {
		{ 0x00, ieee_802_3, NELEM(ieee_802_3) }, { 0x01, rfc_2863, NELEM(rfc_2863) },
		{ 0x02, rfc_2819, NELEM(rfc_2819) },     { 0x03, rfc_3635, NELEM(rfc_3635) },
		{ 0x10, per_prio, NELEM(per_prio) },     { 0x11, per_tc, NELEM(per_tc) },
	};
	for (size_t i = 0; i < NELEM(g); i++) {
		struct result r = ppcnt(READ, g[i].grp, 0, 0);
		expect_ok(&r);
		cr_assert_eq(rget(&r, 0x00, 23, 16), 1);
		cr_assert_eq(rget(&r, 0x00, 5, 0), g[i].grp);
		for (unsigned b = 0x18; b < 0x110; b++)
			cr_assert_eq(r.out[b], 0, "grp 0x%x: byte 0x%x", g[i].grp, b);
	}
}

Test(reg_ppcnt, raw_counters_land_at_their_offsets)
{
	/* A distinct 64-bit value in every counter of every set, read back through PPCNT at the
	 * offsets transcribed from T116-T126. */
	static const struct {
		unsigned grp;
		const struct counter *c;
		size_t n;
		enum port_counter first;
		unsigned sets;
	} g[] = {
		{ 0x00, ieee_802_3, NELEM(ieee_802_3), PORT_CNT_FIRST_IEEE_802_3, 1 },
		{ 0x01, rfc_2863, NELEM(rfc_2863), PORT_CNT_FIRST_RFC_2863, 1 },
		{ 0x02, rfc_2819, NELEM(rfc_2819), PORT_CNT_FIRST_RFC_2819, 1 },
		{ 0x03, rfc_3635, NELEM(rfc_3635), PORT_CNT_FIRST_RFC_3635, 1 },
		{ 0x10, per_prio, NELEM(per_prio), PORT_CNT_FIRST_PER_PRIO, 8 },
		{ 0x11, per_tc, NELEM(per_tc), PORT_CNT_FIRST_PER_TC, 8 },
	};
	for (size_t i = 0; i < NELEM(g); i++)
		for (unsigned s = 0; s < g[i].sets; s++)
			for (size_t k = 0; k < g[i].n; k++)
				port_counter_add(dev, 1, (enum port_counter)(g[i].first + (int)k), s,
						 0x0123456700000000ull * (i + 1) + s * 0x100 + k);
	for (size_t i = 0; i < NELEM(g); i++)
		for (unsigned s = 0; s < g[i].sets; s++) {
			struct result r = ppcnt(READ, g[i].grp, s, 0);
			expect_ok(&r);
			cr_assert_eq(rget(&r, 0x04, 4, 0), s);
			for (size_t k = 0; k < g[i].n; k++)
				cr_assert_eq(cnt(&r, g[i].c[k].off),
					     0x0123456700000000ull * (i + 1) + s * 0x100 + k,
					     "grp 0x%x set %u %s", g[i].grp, s, g[i].c[k].name);
		}
}

Test(reg_ppcnt, counters_are_64_bit_and_wrap)
{
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, UINT64_MAX);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), UINT64_MAX);
	struct result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), UINT64_MAX);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 2);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 1);
}

Test(reg_ppcnt, tx_frame_counts)
{
	port_count(dev, 1, PORT_TX, PORT_UNICAST, 3, 60);
	port_count(dev, 1, PORT_TX, PORT_MULTICAST, 3, 1000);
	port_count(dev, 1, PORT_TX, PORT_BROADCAST, 0, 100);
	/* D-REG-9: octets count the frame and its 4-byte FCS. */
	const uint64_t octets = 64 + 1004 + 104;
	struct result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x00), 3, "a_frames_transmitted_ok");
	cr_assert_eq(cnt(&r, 0x20), octets, "a_octets_transmitted_ok");
	cr_assert_eq(cnt(&r, 0x30), 1, "a_multicast_frames_xmitted_ok");
	cr_assert_eq(cnt(&r, 0x38), 1, "a_broadcast_frames_xmitted_ok");
	cr_assert_eq(cnt(&r, 0x08), 0, "nothing received");
	r = ppcnt(READ, 0x01, 0, 0);
	cr_assert_eq(cnt(&r, 0x28), octets, "if_out_octets");
	cr_assert_eq(cnt(&r, 0x30), 1, "if_out_ucast_pkts");
	cr_assert_eq(cnt(&r, 0x58), 1, "if_out_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x60), 1, "if_out_broadcast_pkts");
	cr_assert_eq(cnt(&r, 0x00), 0, "if_in_octets");
	r = ppcnt(READ, 0x02, 0, 0);
	cr_assert_eq(cnt(&r, 0x10), 0, "RFC 2819 counts received packets only");
	r = ppcnt(READ, 0x10, 3, 0);
	cr_assert_eq(cnt(&r, 0x28), 64 + 1004, "tx_octets prio 3");
	cr_assert_eq(cnt(&r, 0x48), 2, "tx_frames prio 3");
	r = ppcnt(READ, 0x10, 0, 0);
	cr_assert_eq(cnt(&r, 0x28), 104, "tx_octets prio 0");
	cr_assert_eq(cnt(&r, 0x48), 1, "tx_frames prio 0");
}

Test(reg_ppcnt, rx_frame_counts_and_size_bins)
{
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 60);    /* 64 octets */
	port_count(dev, 1, PORT_RX, PORT_MULTICAST, 5, 1514); /* 1518 */
	port_count(dev, 1, PORT_RX, PORT_BROADCAST, 5, 1515); /* 1519 */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 10235);  /* 10239 */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 10236);  /* 10240: no bin */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 59);     /* 63: undersize */
	const uint64_t octets = 64 + 1518 + 1519 + 10239 + 10240 + 63;
	struct result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), 6, "a_frames_received_ok");
	cr_assert_eq(cnt(&r, 0x28), octets, "a_octets_received_ok");
	cr_assert_eq(cnt(&r, 0x40), 1, "a_multicast_frames_received_ok");
	cr_assert_eq(cnt(&r, 0x48), 1, "a_broadcast_frames_received_ok");
	r = ppcnt(READ, 0x01, 0, 0);
	cr_assert_eq(cnt(&r, 0x00), octets, "if_in_octets");
	cr_assert_eq(cnt(&r, 0x08), 4, "if_in_ucast_pkts");
	cr_assert_eq(cnt(&r, 0x48), 1, "if_in_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x50), 1, "if_in_broadcast_pkts");
	r = ppcnt(READ, 0x02, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), octets, "ether_stats_octets");
	cr_assert_eq(cnt(&r, 0x10), 6, "ether_stats_pkts");
	cr_assert_eq(cnt(&r, 0x18), 1, "ether_stats_broadcast_pkts");
	cr_assert_eq(cnt(&r, 0x20), 1, "ether_stats_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x30), 1, "ether_stats_undersize_pkts");
	cr_assert_eq(cnt(&r, 0x58), 1, "pkts64octets");
	cr_assert_eq(cnt(&r, 0x80), 1, "pkts1024to1518octets");
	cr_assert_eq(cnt(&r, 0x88), 1, "pkts1519to2047octets");
	cr_assert_eq(cnt(&r, 0xA0), 1, "pkts8192to10239octets");
	uint64_t bins = 0;
	for (unsigned off = 0x58; off <= 0xA0; off += 8)
		bins += cnt(&r, off);
	cr_assert_eq(bins, 4);
	r = ppcnt(READ, 0x10, 5, 0);
	cr_assert_eq(cnt(&r, 0x00), octets, "rx_octets prio 5");
	cr_assert_eq(cnt(&r, 0x20), 6, "rx_frames prio 5");
}

Test(reg_ppcnt, clr_on_get_returns_then_clears_the_set)
{
	port_counter_add(dev, 1, PORT_CNT_rx_frames, 2, 7);
	port_counter_add(dev, 1, PORT_CNT_rx_frames, 3, 9);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 5);
	struct result r = ppcnt(READ, 0x10, 2, 1);
	expect_ok(&r);
	cr_assert_eq(cnt(&r, 0x20), 7, "D-REG-18: the values before the clear");
	cr_assert_eq(rget(&r, 0x04, 31, 31), 0, "clr is not echoed");
	r = ppcnt(READ, 0x10, 2, 0);
	cr_assert_eq(cnt(&r, 0x20), 0);
	r = ppcnt(READ, 0x10, 3, 0);
	cr_assert_eq(cnt(&r, 0x20), 9, "only the addressed priority is cleared");
	r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), 5, "other groups untouched");
}

Test(reg_ppcnt, clr_on_set)
{
	port_counter_add(dev, 1, PORT_CNT_if_in_octets, 0, 100);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 5);
	struct result r = ppcnt(WRITE, 0x01, 0, 0);
	expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_in_octets, 0), 100, "Set without clr");
	r = ppcnt(WRITE, 0x01, 0, 1);
	expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_in_octets, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 5);
}

Test(reg_ppcnt, group_63_clears_everything_but_gauges)
{
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 1);
	port_counter_add(dev, 1, PORT_CNT_if_out_errors, 0, 2);
	port_counter_add(dev, 1, PORT_CNT_ether_stats_jabbers, 0, 3);
	port_counter_add(dev, 1, PORT_CNT_dot3out_pause_frames, 0, 4);
	port_counter_add(dev, 1, PORT_CNT_tx_pause, 7, 5);
	port_counter_add(dev, 1, PORT_CNT_no_buffer_discard_uc, 6, 6);
	port_counter_add(dev, 1, PORT_CNT_transmit_queue, 6, 7);
	struct result r = ppcnt(READ, 63, 0, 1);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR);
	r = ppcnt(WRITE, 63, 0, 0);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR);
	r = ppcnt(WRITE, 63, 1, 1);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 1);
	r = ppcnt(WRITE, 63, 0, 1);
	expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_out_errors, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_ether_stats_jabbers, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_dot3out_pause_frames, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_tx_pause, 7), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_no_buffer_discard_uc, 6), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_transmit_queue, 6), 7,
		     "a queue depth is not a counter (D-REG-18)");
}

Test(reg_ppcnt, group_values)
{
	static const unsigned bad[] = { 0x04, 0x0F, 0x12, 0x15, 0x20, 0x3E };
	for (size_t i = 0; i < NELEM(bad); i++)
		for (unsigned op = 0; op < 2; op++) {
			struct result r = ppcnt(op, bad[i], 0, 1);
			expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_INVALID);
		}
}

Test(reg_ppcnt, prio_tc_ranges)
{
	/* T114: priorities 0-7; traffic classes 0..max_tc-1 (D-REG-19, default 8); other groups 0. */
	for (unsigned s = 0; s < 8; s++) {
		struct result r = ppcnt(READ, 0x10, s, 0);
		expect_ok(&r);
		r = ppcnt(READ, 0x11, s, 0);
		expect_ok(&r);
	}
	static const unsigned grp[] = { 0x10, 0x11 };
	for (size_t i = 0; i < NELEM(grp); i++)
		for (unsigned s = 8; s < 32; s += 7) {
			struct result r = ppcnt(READ, grp[i], s, 0);
			expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
		}
	static const unsigned plain[] = { 0x00, 0x01, 0x02, 0x03 };
	for (size_t i = 0; i < NELEM(plain); i++) {
		struct result r = ppcnt(READ, plain[i], 1, 0);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
		r = ppcnt(WRITE, plain[i], 31, 1);
		expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	}
}

Test(reg_ppcnt, a_refused_clear_clears_nothing)
{
	port_counter_add(dev, 1, PORT_CNT_tx_frames, 0, 3);
	struct result r = ppcnt(WRITE, 0x10, 8, 1);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	struct reg_cmd c = reg_cmd(WRITE, PPCNT, 0x100, 1);
	rset(&c, 0x00, 5, 0, 0x10);
	rset(&c, 0x04, 31, 31, 1);
	rset(&c, 0x00, 8, 8, 1); /* reserved */
	r = reg_run(&c);
	expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_tx_frames, 0), 3);
}

/* ---- The register table ---------------------------------------------------------------------- */

Test(reg_layouts, register_table_is_t104)
{
	static const struct {
		unsigned id, size;
		const char *name;
	} t104[] = { { PMTU, 0x10, "PMTU" }, { PTYS, 0x40, "PTYS" }, { PAOS, 0x10, "PAOS" },
		     { PFCC, 0x20, "PFCC" }, { PPCNT, 0x100, "PPCNT" } };
	for (size_t i = 0; i < NELEM(t104); i++) {
		cr_assert_str_eq(nicref_register_name(t104[i].id), t104[i].name);
		cr_assert_eq(nicref_register_size(t104[i].id), t104[i].size, "%s", t104[i].name);
		cr_assert_eq(nicref_register_find(t104[i].name), (int)t104[i].id);
	}
	cr_assert_null(nicref_register_name(0x5005));
	cr_assert_eq(nicref_register_size(0x5005), 0);
	cr_assert_eq(nicref_register_find("pmtu"), -1);
	/* Issue 5's ROCE_ACCL, under nicref's own id (docs/adp.md; tests/roce_accl_test.c). */
	cr_assert_eq(nicref_register_find("ROCE_ACCL"), 0x4050);
}
