/* Target: device, the whole device under one operation stream (issue 19 item 2): BAR writes,
 * host-memory writes, UAR doorbells, frames from the wire, link faults (the port taken down and
 * up through PAOS, PRM §11.1.3 T110), DMA faults and time steps, over a device the reference
 * driver brought up to INITIALIZED with a send and a receive stack (harness/driver_rxstack.h:
 * PD, transport domain, UAR, EQ, two CQs, TIS, MKey, SQ in RDY, RQ in RDY with its ring posted,
 * a Direct TIR, a NIC_RX flow table, group and entry to it, the vport promiscuous). Families
 * it does not configure (yet): RMP, RQT, flow counters, QPs.
 *
 * Input: ops, each an op byte and its operands (operands past the end read as 0):
 *   0x00  BAR: offset:u16 (& 0xFFFC: the init segment and the first 15 UAR pages), value:u32
 *   0x01  MEM: region:u8 (% 4: the receive stack's rings, its buffers, the send queue, the send
 *         CQ and EQ), offset:u16, n:u8 (1 + n % 64) then n bytes: a host-memory write
 *   0x02  DOORBELL: register:u8 (% 8: CQ 20h/24h, EQ 40h/48h, Blue Flame 800h/804h/900h/A00h),
 *         value:u32 with the number it names biased to the stack's objects, on its UAR
 *   0x03  FRAME: ctl:u8 (bit 0 an Ethernet/IPv4/UDP header under the input's bytes, bit 1 port
 *         2), n:u8 then n bytes: a frame of max(60, n + header) bytes from the wire
 *   0x04  LINK: admin:u8 (% 2: up, down): PAOS of local port 1 with ase (ACCESS_REG)
 *   0x05  TIME: ns:u24 (+ 1)
 *   0x06  FAULT: region:u8 (% 4, as MEM; bits 3:2 read/write/both), offset:u16, len:u8 (+ 1)
 *   0x07-0xFF  reserved: the op byte alone, nothing happens
 * The op loop stops after 256 ops.
 *
 * Properties after every op: the device's invariants (nicref_dev_check) and the trace's
 * (fuzz_oracle: sequence, time, command accounting, no command half done), the built-in host
 * memory within its bound. The input is not a correct driver: violations of driver rules are its
 * right. With NICREF_DUT set, every call is also made on the device under test and compared
 * (fuzzers/fuzz_dut.c).
 *
 * Between inputs the device comes back from a snapshot (fuzz_snap.h), whatever the input's
 * commands created or destroyed (raw doorbells can replay the driver's last command; the
 * restore undoes objects made and destroyed since, D-SNAP-1). */
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "driver_rxstack.h"
#include "fuzz_dev.h"
#include "fuzz_oracle.h"
#include "fuzz_reader.h"
#include "fuzz_snap.h"
#include "fuzz_target.h"
#include "nicref/rx.h"
#include "prm/layouts.h"

#define MAX_OPS 256u
#define FRAME_MAX (60u + 42u + 255u)
#define RX_MEM 0x60000000ull
#define RX_DATA 0x68000000ull

enum { OP_BAR, OP_MEM, OP_DOORBELL, OP_FRAME, OP_LINK, OP_TIME, OP_FAULT, OP_FIRST_RESERVED };

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct refdrv drv;
static struct refdrv_rx_stack st;
static struct fuzz_snap snap;
static struct fuzz_snap_drv snap_drv;

static int dev_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	return dev ? 0 : -1;
}

static void full_bring_up(void)
{
	fuzz_dev_bring_up(dev, &oracle, &drv, NULL);
	struct refdrv_rx_stack_attr a;
	refdrv_rx_stack_defaults(&a);
	a.log_rq = 4;
	a.wqe_bytes = 2048;
	a.log_cq = 6;
	a.mem = RX_MEM;
	a.data = RX_DATA;
	NICREF_FUZZ_CHECK(refdrv_rx_stack_up(&drv, &a, &st) == 0);
	/* The reference driver's configuration breaks no rule. */
	NICREF_FUZZ_CHECK(oracle.violations == 0);
	fuzz_oracle_check_dev(&oracle);
}

/* The device as full_bring_up leaves it, with the reference driver's side (its token, pages). */
static void configure(void)
{
	if (fuzz_dev_snap_restore(&snap, &snap_drv, dev, &oracle, &drv))
		return;
	full_bring_up();
	fuzz_dev_snap_take(&snap, &snap_drv, dev, &oracle, &drv);
}

/* Where MEM and FAULT land: the stack's host memory. */
static uint64_t region(unsigned sel)
{
	const uint64_t base[] = { RX_MEM, RX_DATA, st.sq.a.sq_buf, st.sq.a.cq_buf };
	return base[sel % 4u];
}

static void op_mem(struct reader *r)
{
	uint8_t buf[64];
	uint64_t addr = region(rd8(r)) + rdn(r, 2);
	unsigned n = 1 + rd8(r) % 64u;
	for (unsigned i = 0; i < n; i++)
		buf[i] = rd8(r);
	(void)nicref_hostmem_write(dev, addr, buf, n);
}

static void op_doorbell(struct reader *r)
{
	static const uint32_t regs[] = { 0x20, 0x24, 0x40, 0x48, 0x800, 0x804, 0x900, 0xA00 };
	uint32_t reg = regs[rd8(r) % 8u];
	uint32_t v = (uint32_t)rdn(r, 4);
	/* The number the register names (EQ 31:24 T13, CQ 23:0 of 24h, SQ 31:8 of 804h): one of
	 * the stack's when the input's low bits say so, else the input's own. */
	const uint32_t cqs[] = { st.sq.cq.cqn, st.cq.cqn };
	if ((reg == 0x40 || reg == 0x48) && !(v & 0x80u))
		v = (v & 0xFFFFFFu) | st.sq.eq.eqn << 24;
	else if (reg == 0x24 && !(v & 0x80000000u))
		v = (v & 0xFF000000u) | cqs[v & 1u];
	else if (reg == 0x804 && !(v & 0x80u))
		v = (v & 0x7Fu) | st.sq.sqn << 8;
	nicref_bar_write32(dev, st.sq.uar * 4096u + reg, v);
}

/* An Ethernet II / IPv4 / UDP header (42 bytes) with consistent lengths for a payload of n. */
static size_t udp_header(uint8_t *f, size_t n)
{
	static const uint8_t eth_ip[] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00,
					  0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17 };
	memcpy(f, eth_ip, sizeof eth_ip);
	memset(f + sizeof eth_ip, 0, 42 - sizeof eth_ip);
	size_t ip_len = 28 + n, udp_len = 8 + n;
	f[16] = (uint8_t)(ip_len >> 8), f[17] = (uint8_t)ip_len;
	f[26] = 10, f[29] = 1, f[30] = 10, f[33] = 2; /* 10.0.0.1 -> 10.0.0.2 */
	f[34] = 0x30, f[35] = 0x39, f[36] = 0x00, f[37] = 0x35;
	f[38] = (uint8_t)(udp_len >> 8), f[39] = (uint8_t)udp_len;
	return 42;
}

static void op_frame(struct reader *r)
{
	uint8_t f[FRAME_MAX];
	unsigned ctl = rd8(r), n = rd8(r);
	size_t at = (ctl & 1) ? udp_header(f, n) : 0;
	for (unsigned i = 0; i < n; i++)
		f[at + i] = rd8(r);
	size_t len = at + n;
	if (len < 60) {
		memset(f + len, 0, 60 - len);
		len = 60;
	}
	(void)nicref_wire_rx(dev, (ctl & 2) ? 2 : 1, f, len);
}

/* PAOS (T110) of local port 1: admin_status 1 up, 2 down, with ase, by ACCESS_REG (T221). */
static void op_link(struct reader *r)
{
	uint8_t in[PRM_SIZE_access_reg_paos_in] = { 0 }, out[PRM_SIZE_access_reg_paos_out];
	PRM_SET(access_reg_paos_in, opcode, in, sizeof in, NICREF_OP_ACCESS_REG);
	PRM_SET(access_reg_paos_in, op_mod, in, sizeof in, 0); /* write */
	PRM_SET(access_reg_paos_in, register_id, in, sizeof in, 0x5006);
	PRM_SET(access_reg_paos_in, local_port, in, sizeof in, 1);
	PRM_SET(access_reg_paos_in, admin_status, in, sizeof in, 1u + rd8(r) % 2u);
	PRM_SET(access_reg_paos_in, ase, in, sizeof in, 1);
	/* BAR writes of the input may have moved or disabled the queue: any outcome. */
	(void)refdrv_cmd(&drv, in, sizeof in, out, sizeof out);
}

static void op_fault(struct reader *r)
{
	unsigned sel = rd8(r);
	uint64_t addr = region(sel) + rdn(r, 2);
	unsigned flags = 1u + (sel >> 2) % 3u;
	(void)nicref_hostmem_fault(dev, addr, 1u + rd8(r), flags);
}

static void device_one_input(const uint8_t *data, size_t len)
{
	fuzz_trace("input");
	configure();
	fuzz_trace("configured"); /* what follows is the same with and without a snapshot */
	struct reader r = { data, len };
	for (unsigned ops = 0; r.n && ops < MAX_OPS;) {
		uint8_t op = rd8(&r);
		if (op >= OP_FIRST_RESERVED)
			continue;
		switch (op) {
		case OP_BAR: {
			uint32_t off = (uint32_t)rdn(&r, 2) & 0xFFFCu;
			nicref_bar_write32(dev, off, (uint32_t)rdn(&r, 4));
			break;
		}
		case OP_MEM:
			op_mem(&r);
			break;
		case OP_DOORBELL:
			op_doorbell(&r);
			break;
		case OP_FRAME:
			op_frame(&r);
			break;
		case OP_LINK:
			op_link(&r);
			break;
		case OP_TIME:
			nicref_clock_advance(dev, 1 + rdn(&r, 3));
			break;
		case OP_FAULT:
			op_fault(&r);
			break;
		}
		ops++;
		fuzz_oracle_check_dev(&oracle);
		NICREF_FUZZ_CHECK(nicref_hostmem_pages(dev) <= 16384u);
	}
}

NICREF_FUZZ_TARGET(dev_init, device_one_input)
