/* Shared by the port register test files (reg_*_test.c): ACCESS_REGISTER and the network port
 * registers (reference/reg/), PRM §12.4.1 T221-T224 and §11.1 T104-T126, with the decisions of
 * docs/registers.md (D-REG-*).
 *
 * Commands go through the device's command queue: the input is built byte by byte from the
 * PRM's tables (big-endian dwords, "Byte Endianness"), posted with the host-side builder
 * (harness/cmdbuild.c, through testlib's bare queue) and read back. Expected register contents
 * are transcribed from the PRM or from the decisions, never from what the model prints. The
 * port model's internal API (reg/port.h) is driven directly where the PRM has no command for it
 * (traffic, the link partner).
 *
 * Each test file that includes this header has its own device and trace (the static state
 * below), made by setup() or make_dev(). */
#ifndef NICREF_TESTS_REG_UTIL_H
#define NICREF_TESTS_REG_UTIL_H

#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "reg/port.h"
#include "testlib.h"

#define OP_ENABLE_HCA 0x104u
#define OP_INIT_HCA 0x102u
#define OP_TEARDOWN_HCA 0x103u
#define OP_MANAGE_PAGES 0x108u
#define OP_SET_ISSI 0x10Bu
#define WRITE TL_REG_WRITE /* T222 op_mod */
#define READ TL_REG_READ

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

/* The device of the test and what its trace said. */
static struct nicref_dev *dev;
static struct tl_trace tr;

/* A device with num_ports ports and this reserved_check, its queue ready, ENABLE_HCA done when
 * `enable`; the trace marked. */
static inline struct nicref_dev *make_dev(unsigned num_ports, unsigned reserved_check,
					  bool enable)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.profile.num_ports = (uint8_t)num_ports;
	cfg.profile.reserved_check = (uint8_t)reserved_check;
	memset(&tr, 0, sizeof tr);
	cfg.trace = tl_trace_event;
	cfg.trace_ctx = &tr;
	dev = tl_queue_dev(&cfg);
	if (enable)
		tl_queue_simple(dev, OP_ENABLE_HCA, 0, 0);
	tl_mark(&tr);
	return dev;
}

/* §8.2 to INITIALIZED: SET_ISSI 1, the boot and init pages (default profile 2 + 6), INIT_HCA. */
static inline void to_initialized(void)
{
	tl_queue_simple(dev, OP_SET_ISSI, 0, 1);
	uint8_t in[0x10 + 8 * 8] = { 0 };
	tl_setf(in, 0x00, 31, 16, OP_MANAGE_PAGES);
	tl_setf(in, 0x04, 15, 0, 1); /* ALLOCATION_SUCCESS */
	tl_put32(in + 0x0C, 8);
	for (unsigned i = 0; i < 8; i++)
		tl_put32(in + 0x10 + 8 * i + 4, 0x40000000u + i * 0x1000u);
	cr_assert_eq(tl_queue_cmd(dev, in, sizeof in, 16).status, OK);
	tl_queue_simple(dev, OP_INIT_HCA, 0, 0);
	tl_mark(&tr);
}

static inline void setup(void)
{
	make_dev(1, 1, true);
}

static inline void teardown(void)
{
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- ACCESS_REGISTER commands of a port register ----------------------------------------------- */

/* An ACCESS_REGISTER of a port register: local_port at register 00h[23:16], as every port
 * register has it. */
static inline struct tl_reg reg_cmd(unsigned op_mod, unsigned id, uint32_t size,
				    unsigned local_port)
{
	struct tl_reg c = tl_reg_cmd(op_mod, id, size);
	tl_reg_set(&c, 0x00, 23, 16, local_port);
	return c;
}

/* The port events since the last call, as (port << 8 | subtype). */
static inline size_t port_events(uint32_t *got, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < tr.n; i++)
		if (tr.ev[i].kind == NICREF_EV_PORT_EVENT && n < max)
			got[n++] = (uint32_t)(tr.ev[i].arg[0] << 8 | tr.ev[i].arg[1]);
	tl_mark(&tr);
	return n;
}

static inline void expect_port_events(size_t n, const uint32_t *want)
{
	uint32_t got[16];
	size_t k = port_events(got, 16);
	cr_assert_eq(k, n, "%zu port events, expected %zu", k, n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(got[i], want[i], "port event %zu: 0x%x, expected 0x%x", i, got[i],
			     want[i]);
}

/* Register readers and writers. */
static inline struct tl_result pmtu_read(unsigned port)
{
	struct tl_reg c = reg_cmd(READ, PMTU, 0x10, port);
	return tl_reg_run(dev, &c);
}

static inline struct tl_result pmtu_write(unsigned port, uint32_t admin)
{
	struct tl_reg c = reg_cmd(WRITE, PMTU, 0x10, port);
	tl_reg_set(&c, 0x08, 31, 16, admin);
	return tl_reg_run(dev, &c);
}

static inline struct tl_result ptys_read(unsigned port)
{
	struct tl_reg c = reg_cmd(READ, PTYS, 0x40, port);
	tl_reg_set(&c, 0x00, 2, 0, 0x4);
	return tl_reg_run(dev, &c);
}

static inline struct tl_result ptys_write(unsigned port, uint32_t admin)
{
	struct tl_reg c = reg_cmd(WRITE, PTYS, 0x40, port);
	tl_reg_set(&c, 0x00, 2, 0, 0x4);
	tl_reg_set(&c, 0x18, 31, 0, admin);
	return tl_reg_run(dev, &c);
}

static inline struct tl_result paos_read(unsigned port)
{
	struct tl_reg c = reg_cmd(READ, PAOS, 0x10, port);
	return tl_reg_run(dev, &c);
}

static inline struct tl_result paos_write(unsigned port, unsigned ase, unsigned admin)
{
	struct tl_reg c = reg_cmd(WRITE, PAOS, 0x10, port);
	tl_reg_set(&c, 0x00, 11, 8, admin);
	tl_reg_set(&c, 0x04, 31, 31, ase);
	return tl_reg_run(dev, &c);
}

/* PAOS of `port` reads admin_status `admin` and oper_status `oper`. */
static inline void expect_paos(unsigned port, unsigned admin, unsigned oper)
{
	struct tl_result r = paos_read(port);
	tl_expect_ok(&r);
	cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), port);
	cr_assert_eq(tl_reg_get(&r, 0x00, 11, 8), admin, "admin_status %u, expected %u",
		     tl_reg_get(&r, 0x00, 11, 8), admin);
	cr_assert_eq(tl_reg_get(&r, 0x00, 3, 0), oper, "oper_status %u, expected %u",
		     tl_reg_get(&r, 0x00, 3, 0), oper);
	cr_assert_eq(tl_reg_get(&r, 0x04, 31, 31), 0, "ase is write-only");
}

/* ---- The PPCNT counter groups (T115-T126) ------------------------------------------------------ */

/* A counter of a group: its name and its offset in the group (PPCNT counter_set, 08h). */
struct counter {
	const char *name;
	unsigned off;
};

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

#endif
