/* Work queues (PRM §7.4, §7.7-§7.10) and their commands (§12.10, §12.11, §12.13): the buffer
 * addressing, the layouts' PRM coordinates, CREATE/MODIFY/DESTROY/QUERY of SQ, RQ and RMP with
 * their refusals, the state machines (D-SQ-1), send doorbells and Blue Flame (§7.2.2, D-DB-2,
 * D-DB-3), flush CQEs (§7.7.2, §7.9.2, T73/T74) and the async events (T79, T82/T83, D-EV-1).
 *
 * Dependencies (EQ, CQ, TIS, PD, UAR, TD) are made with their own commands, built byte by byte
 * at the offsets the PRM tables print; expected values come from the PRM and the decisions of
 * docs/wq.md, never from what the model prints. SQs, RQs and RMPs are made with the reference
 * driver's helpers (harness/driver_wq.c). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "driver.h"
#include "driver_wq.h"
#include "nicref/nicref.h"
#include "prm/layouts.h"

/* T128. */
#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_PARAM 0x03u
#define BAD_RESOURCE 0x05u
#define EXCEED_LIM 0x08u
#define BAD_RES_STATE 0x09u
#define NO_RESOURCES 0x0Fu
#define BAD_RESOURCE_STATE 0x10u
#define BAD_INPUT_LEN 0x50u

/* Host memory of the test. */
#define EQ_BUF 0x31000000ull
#define CQ_BUF 0x30000000ull
#define CQ_DBR 0x30100000ull
#define SQ_BUF 0x32000000ull
#define SQ_DBR 0x32100000ull
#define RQ_BUF 0x33000000ull
#define RQ_DBR 0x33100000ull
#define RMP_BUF 0x34000000ull
#define RMP_DBR 0x34100000ull
#define ICM_PAGES 0x11000000ull

static struct nicref_dev *dev;
static struct refdrv drv;
#define MAXEV 512
static struct nicref_event evs[MAXEV];
static unsigned nev;
static bool recording;

static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	if (recording && nev < MAXEV)
		evs[nev++] = *ev;
}

static unsigned count_kind(enum nicref_event_kind k)
{
	unsigned n = 0;
	for (unsigned i = 0; i < nev; i++)
		n += evs[i].kind == k;
	return n;
}

/* The i-th event of kind k, or NULL. */
static const struct nicref_event *nth(enum nicref_event_kind k, unsigned i)
{
	for (unsigned j = 0; j < nev; j++)
		if (evs[j].kind == k && i-- == 0)
			return &evs[j];
	return NULL;
}

/* ---- Bytes, as the PRM prints them ---------------------------------------------------------- */

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

static void mem_write(uint64_t a, const void *p, size_t n)
{
	cr_assert_eq(nicref_hostmem_write(dev, a, p, n), 0);
}

static int run(uint8_t *in, uint32_t len, uint8_t *out, uint32_t out_len)
{
	int st = refdrv_cmd(&drv, in, len, out, out_len);
	cr_assert_geq(st, 0, "%s", drv.error);
	return st;
}

/* A command of a 16-byte input (opcode 00h[31:16], a number at 08h[23:0]); output 08h[23:0]. */
static int cmd16(uint16_t opcode, uint32_t num, uint32_t *result)
{
	uint8_t in[16] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, opcode);
	setf(in, 0x08, 23, 0, num);
	int st = run(in, sizeof in, out, sizeof out);
	if (result)
		*result = getf(out, 0x08, 23, 0);
	return st;
}

/* ---- Dependencies ---------------------------------------------------------------------------- */

static uint32_t pd, uar, td, eqn, cqn, tisn;

/* MANAGE_PAGES op_mod 1 (T134/T135): n pages at ICM_PAGES + 4 KB * k. */
static void give_pages(unsigned n)
{
	uint8_t in[16 + 8 * 32] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x108);
	setf(in, 0x04, 15, 0, 1);
	setf(in, 0x0C, 31, 0, n);
	for (unsigned i = 0; i < n; i++)
		put32(in + 0x14 + 8 * i, (uint32_t)(ICM_PAGES + 0x1000ull * i));
	cr_assert_eq(run(in, 16 + 8 * n, out, sizeof out), OK);
}

/* CREATE_EQ (T243/T244, EQC T93/T94 at 10h): 64 EQEs in one page, mapped to the SQ/RQ/RMP
 * events (bitmask 58h-5Fh, bit i = event type i, bit 0 the LSB of 5Ch). */
static uint32_t create_eq(void)
{
	uint8_t in[0x118] = { 0 }, out[16], owner[64] = { 0 };
	owner[63] = 1; /* L6859: EQEs start in HW ownership */
	for (unsigned i = 0; i < 64; i++)
		mem_write(EQ_BUF + 64 * i, owner, sizeof owner);
	setf(in, 0x00, 31, 16, 0x301);
	setf(in, 0x10 + 0x0C, 28, 24, 6);   /* log_eq_size */
	setf(in, 0x10 + 0x0C, 23, 0, uar);  /* uar_page */
	put32(in + 0x5C, 1u << 0x05 | 1u << 0x12 | 1u << 0x13 | 1u << 0x14);
	put32(in + 0x110, (uint32_t)(EQ_BUF >> 32));
	put32(in + 0x114, (uint32_t)EQ_BUF);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK, "CREATE_EQ");
	return getf(out, 0x08, 7, 0);
}

/* CREATE_CQ (T260/T261, CQC T75/T76 at 10h): 64 CQEs of 64 B, initialised invalid (L7031). */
static uint32_t create_cq(void)
{
	uint8_t in[0x118] = { 0 }, out[16], cqe[64] = { 0 };
	cqe[63] = 0xF1; /* opcode 0xF, owner 1 (D-CQ-8) */
	for (unsigned i = 0; i < 64; i++)
		mem_write(CQ_BUF + 64 * i, cqe, sizeof cqe);
	setf(in, 0x00, 31, 16, 0x400);
	setf(in, 0x10 + 0x0C, 28, 24, 6);  /* log_cq_size */
	setf(in, 0x10 + 0x0C, 23, 0, uar); /* uar_page */
	setf(in, 0x10 + 0x14, 7, 0, eqn);  /* c_eqn */
	put32(in + 0x10 + 0x38, (uint32_t)(CQ_DBR >> 32));
	put32(in + 0x10 + 0x3C, (uint32_t)CQ_DBR);
	put32(in + 0x110, (uint32_t)(CQ_BUF >> 32));
	put32(in + 0x114, (uint32_t)CQ_BUF);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK, "CREATE_CQ");
	return getf(out, 0x08, 23, 0);
}

/* CREATE_TIS (T298/T299, TISC T49/T50 at 20h: transport_domain 24h[23:0]). */
static uint32_t create_tis(void)
{
	uint8_t in[0xC0] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x912);
	setf(in, 0x20 + 0x24, 23, 0, td);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK, "CREATE_TIS");
	return getf(out, 0x08, 23, 0);
}

static bool give_icm = true;
static int log_max_objects = -1; /* profile override, -1: the default */
static int reserved_check = -1;

static void setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = on_event;
	if (log_max_objects >= 0)
		cfg.profile.log_max_objects = (uint8_t)log_max_objects;
	if (reserved_check >= 0)
		cfg.profile.reserved_check = (uint8_t)reserved_check;
	recording = false;
	nev = 0;
	dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	cr_assert_eq(refdrv_init(&drv, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&drv, REFDRV_INITIALIZED), 0, "%s", drv.error);
	recording = true;
	if (give_icm)
		give_pages(16);
	cr_assert_eq(cmd16(0x800, 0, &pd), OK);  /* ALLOC_PD */
	cr_assert_eq(cmd16(0x802, 0, &uar), OK); /* ALLOC_UAR */
	cr_assert_eq(cmd16(0x816, 0, &td), OK);  /* ALLOC_TRANSPORT_DOMAIN */
}

/* Without ICM pages for the contexts: the first create of a type must get some (D-PG-4). */
static void setup_bare(void)
{
	give_icm = false;
	setup();
	give_icm = true;
}

static void setup_graph(void)
{
	setup();
	eqn = create_eq();
	cqn = create_cq();
	tisn = create_tis();
	nev = 0;
}

static void teardown(void)
{
	cr_expect_eq(count_kind(NICREF_EV_VIOLATION), 0, "unexpected violations");
	cr_expect_eq(nicref_dev_check(dev), 0, "invariants broken: %d", nicref_dev_check(dev));
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- Attributes ------------------------------------------------------------------------------ */

static struct refdrv_sq_attr sq_attr(void)
{
	struct refdrv_sq_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = SQ_BUF, .dbr = SQ_DBR, .wq_type = 1, .log_wq_sz = 6,
					.log_wq_stride = 6, .pd = pd };
	a.cqn = cqn;
	a.tisn = tisn;
	a.uar = uar;
	a.min_wqe_inline_mode = 1; /* the vport's (D-VP-3: L2) */
	a.flush_in_error_en = true;
	return a;
}

static struct refdrv_rq_attr rq_attr(void)
{
	struct refdrv_rq_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = RQ_BUF, .dbr = RQ_DBR, .wq_type = 1, .log_wq_sz = 4,
					.log_wq_stride = 5, .pd = pd };
	a.cqn = cqn;
	a.flush_in_error_en = true;
	return a;
}

static struct refdrv_rmp_attr rmp_attr(void)
{
	struct refdrv_rmp_attr a = { 0 };
	a.wq = (struct refdrv_wq_attr){ .buf = RMP_BUF, .dbr = RMP_DBR, .wq_type = 1, .log_wq_sz = 4,
					.log_wq_stride = 5, .pd = pd };
	return a;
}

/* A send WQE ctrl segment (T25/T26) of ds octowords at WQEBB index idx of the SQ. */
static void post_send_wqe(uint16_t idx, uint8_t opcode, unsigned ds, unsigned ce, uint32_t sqn)
{
	uint8_t ctrl[16] = { 0 };
	put32(ctrl, (uint32_t)idx << 8 | opcode);
	put32(ctrl + 4, sqn << 8 | ds);
	ctrl[11] = (uint8_t)(ce << 2);
	mem_write(SQ_BUF + 64u * (idx % 64), ctrl, sizeof ctrl);
}

/* ==== The buffer ============================================================================== */

TestSuite(wq_buffer, .init = setup, .fini = teardown);

Test(wq_buffer, addresses_across_pages_and_wrap)
{
	/* T55: 2^3 strides of 2^10 B in 4 KB pages (log_wq_pg_sz 0), the first at page_offset 16
	 * quanta of 4096/64 = 1 KB: strides 0-2 in page 0 (at 1, 2, 3 KB), 3-6 in page 1, 7 in
	 * page 2; index 8 is stride 0 again (§7.4.1). */
	uint64_t pas[3] = { 0x5000000, 0x7000000, 0x6000000 };
	struct wq w = { .pas = pas, .npas = 3, .page_size = 4096, .first_off = 16 * 64,
			.log_stride = 10, .log_size = 3, .type = 1 };
	cr_expect_eq(wq_addr(&w, 0), 0x5000400);
	cr_expect_eq(wq_addr(&w, 2), 0x5000C00);
	cr_expect_eq(wq_addr(&w, 3), 0x7000000);
	cr_expect_eq(wq_addr(&w, 6), 0x7000C00);
	cr_expect_eq(wq_addr(&w, 7), 0x6000000);
	cr_expect_eq(wq_addr(&w, 8), 0x5000400, "wraps");
	cr_expect_eq(wq_addr(&w, 0xFFFF), 0x6000000, "16-bit counters index modulo the size");
	/* 8 KB pages (log_wq_pg_sz 1): quanta of 128 B. */
	struct wq w2 = { .pas = pas, .npas = 2, .page_size = 8192, .first_off = 3 * 128,
			 .log_stride = 6, .log_size = 7, .type = 1 };
	cr_expect_eq(wq_addr(&w2, 0), 0x5000180);
	cr_expect_eq(wq_addr(&w2, 121), 0x5001FC0, "last stride of page 0: 384 + 121 * 64");
	cr_expect_eq(wq_addr(&w2, 122), 0x7000000, "first of page 1");
	cr_expect_eq(wq_addr(&w2, 127), 0x7000140);
}

Test(wq_buffer, read_across_page_boundary_and_wrap)
{
	/* 4 strides of 1 KB in two 4 KB pages, first_off 3 KB: stride 0 is the last KB of page
	 * 0, strides 1-3 start page 1. A read from stride 3 byte 1000 for 100 bytes takes 24
	 * bytes of stride 3 (page 1) and 76 of stride 0 (page 0): the wrap. A read from stride 0
	 * byte 1000 takes 24 bytes of page 0 and 76 of page 1. */
	uint64_t pas[2] = { 0x5000000, 0x7000000 };
	struct wq w = { .pas = pas, .npas = 2, .page_size = 4096, .first_off = 3072,
			.log_stride = 10, .log_size = 2, .type = 1 };
	uint8_t a[4096], b[4096];
	for (unsigned i = 0; i < 4096; i++) {
		a[i] = (uint8_t)(i * 7 + 1);
		b[i] = (uint8_t)(i * 13 + 5);
	}
	mem_write(0x5000000, a, sizeof a);
	mem_write(0x7000000, b, sizeof b);
	uint8_t got[100];
	cr_assert_eq(wq_read(dev, &w, 3, 1000, got, sizeof got), 0);
	cr_expect_eq(memcmp(got, b + 2048 + 1000, 24), 0, "end of stride 3 in page 1");
	cr_expect_eq(memcmp(got + 24, a + 3072, 76), 0, "then stride 0 at 3 KB of page 0");
	cr_assert_eq(wq_read(dev, &w, 0, 1000, got, sizeof got), 0);
	cr_expect_eq(memcmp(got, a + 3072 + 1000, 24), 0);
	cr_expect_eq(memcmp(got + 24, b, 76), 0, "page 1 follows page 0");
	cr_assert_eq(wq_read(dev, &w, 5, 0, got, 8), 0, "index 5 is stride 1");
	cr_expect_eq(memcmp(got, b, 8), 0);
}

Test(wq_buffer, doorbell_record_words)
{
	/* T24: receive counter at 00h[15:0], send counter at 04h[15:0] (D-DB-1). */
	uint8_t rec[8] = { 0xAA, 0xBB, 0x12, 0x34, 0xCC, 0xDD, 0x56, 0x78 };
	mem_write(0x8000, rec, sizeof rec);
	struct wq w = { .dbr_addr = 0x8000 };
	uint16_t c;
	cr_assert_eq(wq_dbr_read(dev, &w, false, &c), 0);
	cr_expect_eq(c, 0x1234);
	cr_assert_eq(wq_dbr_read(dev, &w, true, &c), 0);
	cr_expect_eq(c, 0x5678);
	cr_assert_eq(nicref_hostmem_fault(dev, 0x8000, 8, NICREF_FAULT_READ), 0);
	cr_expect_eq(wq_dbr_read(dev, &w, true, &c), -1);
	nev = 0; /* the dma_error event is the fault's */
}

/* ==== Layout coordinates ======================================================================= */

static void expect_at(const char *layout, const char *name, unsigned off, unsigned msb,
		      unsigned lsb)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "%s", layout);
	const struct nicref_field *f = nicref_layout_field(l, name);
	cr_assert_not_null(f, "%s.%s", layout, name);
	cr_expect_eq(f->bit_offset, off * 8 + 31 - msb, "%s.%s", layout, name);
	cr_expect_eq(f->bit_width, msb - lsb + 1, "%s.%s", layout, name);
}

static void expect_array(const char *layout, const char *name, unsigned off)
{
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find(layout), name);
	cr_assert_not_null(f, "%s.%s", layout, name);
	cr_expect_eq(f->bit_offset, off * 8, "%s.%s", layout, name);
	cr_expect_eq(f->bit_width, 64, "T138: 64-bit entries");
	cr_expect(f->flags & NICREF_FIELD_ARRAY);
}

static void expect_absent(const char *layout, const char *name)
{
	cr_expect_null(nicref_layout_field(nicref_layout_find(layout), name), "%s.%s", layout,
		       name);
}

Test(wq_buffer, layouts_at_prm_coordinates)
{
	/* T54/T55 (page_offset and lwm at 04h, D-WQ-3), the WQ at 30h of each context. */
	expect_at("wq", "wq_type", 0x00, 31, 28);
	expect_at("wq", "end_padding_mode", 0x00, 26, 25);
	expect_at("wq", "page_offset", 0x04, 20, 16);
	expect_at("wq", "lwm", 0x04, 15, 0);
	expect_at("wq", "uar_page", 0x0C, 23, 0);
	expect_at("wq", "hw_counter", 0x18, 31, 0);
	expect_at("wq", "log_wq_stride", 0x20, 19, 16);
	expect_at("wq", "log_wq_pg_sz", 0x20, 12, 8);
	expect_at("wq", "log_wq_sz", 0x20, 4, 0);
	expect_array("wq", "pas", 0xC0);
	/* T315/T60: context at 20h. */
	expect_at("create_sq_in", "min_wqe_inline_mode", 0x20, 26, 24);
	expect_at("create_sq_in", "state", 0x20, 23, 20);
	expect_at("create_sq_in", "cqn", 0x28, 23, 0);
	expect_at("create_sq_in", "tis_lst_sz", 0x40, 31, 16);
	expect_at("create_sq_in", "tis_num_0", 0x4C, 23, 0);
	expect_at("create_sq_in", "pd", 0x58, 23, 0);
	expect_at("create_sq_in", "uar_page", 0x5C, 23, 0);
	expect_at("create_sq_in", "dbr_addr_31_0", 0x64, 31, 0);
	expect_array("create_sq_in", "pas", 0x110);
	expect_array("query_rmp_out", "pas", 0x110);
	expect_absent("create_sq_in", "hw_counter"); /* T55: query only */
	expect_absent("create_sq_in", "lwm");        /* T62: N/A */
	expect_absent("create_sq_in", "end_padding_mode");
	expect_at("query_sq_out", "sw_counter", 0x6C, 31, 0);
	/* T332/T53. */
	expect_at("create_rq_in", "vlan_strip_disable", 0x20, 28, 28);
	expect_at("create_rq_in", "mem_rq_type", 0x20, 27, 24);
	expect_at("create_rq_in", "flush_in_error_en", 0x20, 18, 18);
	expect_at("create_rq_in", "rmpn", 0x30, 23, 0);
	expect_absent("create_rq_in", "uar_page"); /* T56: N/A */
	/* T366/T65, T370/T371. */
	expect_at("create_rmp_in", "basic_cyclic_rcv_wqe", 0x24, 31, 31);
	expect_at("create_rmp_in", "lwm", 0x54, 15, 0);
	expect_at("modify_rmp_in", "rmp_state", 0x08, 31, 28);
	expect_at("modify_rmp_in", "lwm", 0x54, 15, 0);
	expect_at("modify_sq_in", "modify_bitmask_31_0", 0x14, 31, 0);
	/* T24, T26. */
	expect_at("wq_doorbell_record", "send_counter", 0x04, 15, 0);
	expect_at("send_wqe_ctrl", "wqe_index", 0x00, 23, 8);
	expect_at("send_wqe_ctrl", "ds", 0x04, 5, 0);
}

/* ==== RMP (needs only a PD) ==================================================================== */

TestSuite(rmp, .init = setup, .fini = teardown);

Test(rmp, create_query_modify_destroy)
{
	struct refdrv_rmp_attr a = rmp_attr();
	a.lwm = 5;
	uint32_t rmpn;
	cr_assert_eq(refdrv_create_rmp(&drv, &a, &rmpn), OK);
	cr_expect_eq(rmpn, 1, "D-OBJ-2: the first handle is 1");
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&drv, rmpn, &st), OK);
	cr_expect_eq(st.state, 1, "T65: created RDY");
	cr_expect_eq(refdrv_modify_rmp_lwm(&drv, rmpn, 9), OK);
	uint8_t in[16] = { 0 }, out[0x118];
	setf(in, 0x00, 31, 16, 0x90F);
	setf(in, 0x08, 23, 0, rmpn);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x20 + 0x30 + 0x04, 15, 0), 9, "T66 bit 0: lwm modified");
	cr_expect_eq(get32(out + 0x114), (uint32_t)RMP_BUF, "pas[0]");
	cr_expect_eq(refdrv_destroy_rmp(&drv, rmpn), OK);
	cr_expect_eq(refdrv_query_rmp(&drv, rmpn, &st), BAD_RESOURCE);
	cr_expect_eq(count_kind(NICREF_EV_WQ_STATE), 0, "no state changed");
}

Test(rmp, refusals)
{
	struct refdrv_rmp_attr a = rmp_attr();
	uint32_t rmpn;
	a.wq.log_wq_stride = 3; /* T145 log_min_stride_sz_rq 4 */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.log_wq_sz = 17; /* T145 log_max_wq_sz 16 (D-WQ-1) */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), EXCEED_LIM);
	a = rmp_attr();
	a.wq.pd = pd + 1;
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_RESOURCE, "no such PD");
	a = rmp_attr();
	a.wq.dbr = RMP_DBR + 2; /* §7.4.2: 4-byte aligned */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.wq_type = 0;
	a.basic_cyclic_rcv_wqe = true; /* T65: cyclic only */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.wq_type = 2;
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.end_padding_mode = 2; /* T55: reserved */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	a = rmp_attr();
	a.wq.page_offset = 1; /* 64 B quanta: the 32-byte stride is aligned, accepted */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), OK);
	a.wq.log_wq_stride = 9; /* 512-byte strides need a 512-byte aligned first WQE (L2042) */
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &rmpn), BAD_PARAM);
	/* MODIFY (T66: RDY2RDY only; current state must match, §12.13.2). */
	uint8_t in[0x110] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x90D);
	setf(in, 0x08, 23, 0, 1);
	setf(in, 0x08, 31, 28, 3); /* ERR: not the RMP's state */
	setf(in, 0x20, 23, 20, 1);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_RESOURCE_STATE);
	setf(in, 0x08, 31, 28, 1);
	setf(in, 0x20, 23, 20, 3); /* RDY2ERR is no command transition of an RMP */
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_RESOURCE_STATE);
	setf(in, 0x20, 23, 20, 1);
	setf(in, 0x14, 31, 0, 2); /* T66 defines bit 0 only */
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM);
	setf(in, 0x08, 23, 0, 77);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_RESOURCE, "no such RMP");
	cr_expect_eq(refdrv_destroy_rmp(&drv, 77), BAD_RESOURCE);
	cr_expect_eq(refdrv_destroy_rmp(&drv, 1), OK);
}

TestSuite(rmp_pages, .init = setup_bare, .fini = teardown);

Test(rmp_pages, create_gets_pages_first)
{
	/* D-PG-4: no page holds an RMP context yet: CREATE_RMP answers NO_RESOURCES (T128 0x0F)
	 * and changes nothing; QUERY_PAGES(regular) then asks for one page (64 contexts a page),
	 * and the create succeeds once it is given. */
	uint8_t in[0x118] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x90C);
	setf(in, 0x20, 23, 20, 1);
	setf(in, 0x50, 31, 28, 1);
	setf(in, 0x58, 23, 0, pd);
	put32(in + 0x64, (uint32_t)RMP_DBR);
	setf(in, 0x70, 19, 16, 4);
	put32(in + 0x114, (uint32_t)RMP_BUF);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), NO_RESOURCES);
	cr_expect_eq(dev->obj[OBJ_RMP].nlive, 0);
	uint8_t qp[16] = { 0 };
	setf(qp, 0x00, 31, 16, 0x107);
	setf(qp, 0x04, 15, 0, 3);
	cr_assert_eq(run(qp, sizeof qp, out, sizeof out), OK);
	cr_expect_eq((int32_t)get32(out + 0x0C), 1, "T133 num_pages");
	give_pages(1);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x08, 23, 0), 1);
	/* A second RMP fits the same page. */
	struct refdrv_rmp_attr a = rmp_attr();
	uint32_t n;
	cr_expect_eq(refdrv_create_rmp(&drv, &a, &n), OK);
	nev = 0; /* the page request event is the EQ family's */
}

/* ==== SQ ======================================================================================= */

TestSuite(sq, .init = setup_graph, .fini = teardown);

Test(sq, create_refusals)
{
	struct refdrv_sq_attr a;
	uint32_t sqn;
	a = sq_attr();
	a.cqn = cqn + 1;
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_RESOURCE, "no such CQ");
	a = sq_attr();
	a.tisn = tisn + 1;
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_RESOURCE, "no such TIS");
	a = sq_attr();
	a.uar = uar + 1;
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_RESOURCE, "no such UAR");
	a = sq_attr();
	a.wq.pd = pd + 1;
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_RESOURCE, "no such PD");
	a = sq_attr();
	a.wq.wq_type = 0; /* T55: "Send Queue WQ must be set to 1" */
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.wq.log_wq_stride = 5; /* the 64-byte WQEBB (T145 log_min/max_stride_sz_sq 6) */
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.min_wqe_inline_mode = 4; /* §7.9.3.1: reserved */
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_PARAM);
	a = sq_attr();
	a.min_wqe_inline_mode = 0; /* below the vport's L2 (§7.9.3, D-VP-3) */
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), BAD_PARAM);
	cr_expect_eq(count_kind(NICREF_EV_WQ_STATE), 0);
	a = sq_attr();
	cr_expect_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	cr_expect_eq(sqn, 1);
	/* The references hold (D-OBJ-1): the CQ, TIS, PD and UAR cannot go first. */
	cr_expect_eq(cmd16(0x401, cqn, NULL), BAD_RES_STATE, "DESTROY_CQ");
	cr_expect_eq(cmd16(0x914, tisn, NULL), BAD_RES_STATE, "DESTROY_TIS");
	cr_expect_eq(cmd16(0x801, pd, NULL), BAD_RES_STATE, "DEALLOC_PD");
	cr_expect_eq(cmd16(0x803, uar, NULL), BAD_RES_STATE, "DEALLOC_UAR");
	cr_expect_eq(refdrv_destroy_sq(&drv, sqn), OK);
	cr_expect_eq(cmd16(0x914, tisn, NULL), OK, "DESTROY_TIS once the SQ is gone");
}

Test(sq, tis_list_size_and_state_at_create)
{
	/* T61: tis_lst_sz must be 1; T62/Figure 17: created in RST. Built by hand. */
	uint8_t in[0x118] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x904);
	setf(in, 0x20, 26, 24, 1);
	setf(in, 0x28, 23, 0, cqn);
	setf(in, 0x40, 31, 16, 2); /* tis_lst_sz */
	setf(in, 0x4C, 23, 0, tisn);
	setf(in, 0x50, 31, 28, 1);
	setf(in, 0x58, 23, 0, pd);
	setf(in, 0x5C, 23, 0, uar);
	put32(in + 0x64, (uint32_t)SQ_DBR);
	setf(in, 0x70, 19, 16, 6);
	put32(in + 0x114, (uint32_t)SQ_BUF);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM, "tis_lst_sz 2");
	setf(in, 0x40, 31, 16, 1);
	setf(in, 0x20, 23, 20, 1); /* RDY */
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM, "state RDY at create");
	setf(in, 0x20, 23, 20, 0);
	cr_expect_eq(run(in, 0x110, out, sizeof out), BAD_INPUT_LEN, "pas[0] missing");
	cr_expect_eq(run(in, sizeof in, out, sizeof out), OK);
}

Test(sq, transitions)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	/* D-SQ-1 from RST: RST2RDY, 2RST allowed; RST2ERR refused. */
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 0, 3), BAD_RESOURCE_STATE);
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 1, 1), BAD_RESOURCE_STATE, "not RDY");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 0, 0), OK, "RST2RST");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 1, 1), OK, "RDY2RDY");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 1, 2), BAD_RESOURCE_STATE, "2 is no state");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 1, 3), OK);
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 3, 1), BAD_RESOURCE_STATE, "ERR2RDY");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 3, 3), BAD_RESOURCE_STATE, "ERR2ERR");
	cr_expect_eq(refdrv_modify_sq(&drv, sqn, 3, 0), OK);
	cr_expect_eq(refdrv_modify_sq(&drv, sqn + 1, 0, 1), BAD_RESOURCE);
	/* WQ_STATE: RST->RDY, RDY->ERR, ERR->RST (RST2RST and RDY2RDY change nothing). */
	cr_assert_eq(count_kind(NICREF_EV_WQ_STATE), 3);
	const struct nicref_event *e = nth(NICREF_EV_WQ_STATE, 1);
	cr_expect_eq(e->arg[0], 0, "SQ");
	cr_expect_eq(e->arg[1], sqn);
	cr_expect_eq(e->arg[2], 1);
	cr_expect_eq(e->arg[3], 3);
	cr_expect_eq(e->arg[4], 0, "by command");
	/* T62 bitmask: bit 0 only. */
	uint8_t in[0x110] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x905);
	setf(in, 0x08, 23, 0, sqn);
	setf(in, 0x20, 23, 20, 1);
	setf(in, 0x14, 31, 0, 1);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), OK, "D-SQ-2: bit 0 accepted");
	setf(in, 0x08, 31, 28, 1);
	setf(in, 0x10, 31, 0, 1);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM, "bit 32");
}

Test(sq, doorbell_and_blue_flame)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	post_send_wqe(0, 0x0A, 2, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 1), 0);
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 0, 0x0A, 2);
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 0, "T63: RST processes no doorbell");
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	nev = 0;
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 0, 0x0A, 2);
	cr_assert_eq(count_kind(NICREF_EV_SQ_DOORBELL), 1);
	const struct nicref_event *e = nth(NICREF_EV_SQ_DOORBELL, 0);
	cr_expect_eq(e->arg[0], sqn);
	cr_expect_eq(e->arg[1], 0, "wqe_index");
	cr_expect_eq(e->arg[2], 0x0A, "opcode");
	cr_expect_eq(e->arg[3], 2, "ds");
	cr_expect_eq(e->arg[4], 0, "no Blue Flame content: from memory");
	/* D-DB-2: an index outside [hw_counter, record) is ignored. */
	nev = 0;
	refdrv_sq_doorbell(&drv, uar, 1, sqn, 1, 0x0A, 2);
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 0);
	/* Blue Flame (D-DB-3): the WQE's 32 bytes, body first, then dwords 0-1. */
	post_send_wqe(1, 0x0A, 2, 2, sqn);
	uint8_t wqe[32] = { 0 };
	put32(wqe, 1u << 8 | 0x0A);
	put32(wqe + 4, sqn << 8 | 2);
	wqe[11] = 2 << 2;
	for (unsigned i = 16; i < 32; i++)
		wqe[i] = (uint8_t)i;
	mem_write(SQ_BUF + 64, wqe, sizeof wqe);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 2), 0);
	uint32_t bf = uar * 4096 + 0x900; /* register 0, odd buffer */
	for (unsigned i = 8; i < 32; i += 4)
		nicref_bar_write32(dev, bf + i, get32(wqe + i));
	nev = 0;
	nicref_bar_write32(dev, bf, get32(wqe));
	nicref_bar_write32(dev, bf + 4, get32(wqe + 4));
	cr_assert_eq(count_kind(NICREF_EV_SQ_DOORBELL), 1);
	cr_expect_eq(nth(NICREF_EV_SQ_DOORBELL, 0)->arg[1], 1);
	cr_expect_eq(nth(NICREF_EV_SQ_DOORBELL, 0)->arg[4], 1, "taken from the Blue Flame buffer");
	/* A BF copy that differs from memory is not used. */
	post_send_wqe(2, 0x0A, 2, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 3), 0);
	bf = uar * 4096 + 0x800;
	for (unsigned i = 8; i < 32; i += 4)
		nicref_bar_write32(dev, bf + i, 0xDEADBEEF);
	nev = 0;
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 2, 0x0A, 2);
	cr_assert_eq(count_kind(NICREF_EV_SQ_DOORBELL), 1);
	cr_expect_eq(nth(NICREF_EV_SQ_DOORBELL, 0)->arg[4], 0);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&drv, sqn, &st), OK);
	cr_expect_eq(st.sw_counter, 3, "T55 1Ch: the record as last read (D-WQ-5)");
	cr_expect_eq(st.hw_counter, 0, "nothing executed: the data path runs WQEs");
}

Test(sq, doorbell_violations)
{
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn, uar2;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	cr_assert_eq(cmd16(0x802, 0, &uar2), OK);
	post_send_wqe(0, 0x0A, 1, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 1), 0);
	nev = 0;
	refdrv_sq_doorbell(&drv, uar2, 0, sqn, 0, 0x0A, 1); /* §7.2 item 4 */
	refdrv_sq_doorbell(&drv, uar, 0, sqn + 5, 0, 0x0A, 1);
	nicref_bar_write32(dev, uar * 4096 + 0xA04, sqn << 8 | 1); /* dword 1 alone */
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 0);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 3);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[0], NICREF_VIO_SQ_DB_WRONG_UAR);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)uar2 << 32 | sqn);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 1)->arg[0], NICREF_VIO_SQ_DB_NO_SQ);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 2)->arg[0], NICREF_VIO_SQ_DB_ORDER);
	/* §7.2.2: one Blue Flame register per SQ. */
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 0, 0x0A, 1);
	refdrv_sq_doorbell(&drv, uar, 2, sqn, 0, 0x0A, 1);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 4);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 3)->arg[0], NICREF_VIO_SQ_DB_BF_REGISTER);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 3)->arg[1], (uint64_t)sqn << 8 | 1);
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 2, "both acted on (D-DB-4)");
	nev = 0;
}

Test(sq, flush_on_error)
{
	/* T61 flush_in_error_en, §7.9.2, T73/T74: the WQEs posted (hw_counter to the record)
	 * complete with syndrome 0x5, opcode 13, wqe_counter = their first WQEBB; T26 CE 01b
	 * WQEs after an error completion get none. WQE 0: 1 WQEBB (ds 4); WQE 1: 2 WQEBBs (ds 5);
	 * WQE 3: CE 01b, no CQE; WQE 4: ds 1. Record: 5. */
	struct refdrv_sq_attr a = sq_attr();
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	post_send_wqe(0, 0x0A, 4, 0, sqn);
	post_send_wqe(1, 0x00, 5, 2, sqn);
	post_send_wqe(3, 0x0A, 1, 1, sqn);
	post_send_wqe(4, 0x0A, 1, 3, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 5), 0);
	nev = 0;
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 1, 3), OK);
	cr_assert_eq(count_kind(NICREF_EV_WQ_STATE), 1);
	cr_assert_eq(count_kind(NICREF_EV_CQE), 3);
	static const uint16_t counters[3] = { 0, 1, 4 };
	for (unsigned i = 0; i < 3; i++) {
		const struct nicref_event *e = nth(NICREF_EV_CQE, i);
		cr_expect_eq(e->arg[0], cqn);
		cr_expect_eq(e->arg[1], i, "producer counter");
		cr_expect_eq(e->arg[2], 13, "requester error");
		cr_expect_eq(e->arg[3], 0x05, "WR_Flushed");
		cr_expect_eq(e->arg[4], counters[i]);
	}
	uint8_t cqe[64];
	cr_assert_eq(nicref_hostmem_read(dev, CQ_BUF + 64, cqe, sizeof cqe), 0);
	cr_expect_eq(cqe[0x38], 0x00, "s_wqe_opcode of WQE 1 (NOP)");
	cr_expect_eq(cqe[0x37], 0x05);
	cr_expect_eq(cqe[0x3F] >> 4, 13);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_sq(&drv, sqn, &st), OK);
	cr_expect_eq(st.state, 3);
	cr_expect_eq(st.hw_counter, 5);
	cr_expect_eq(st.sw_counter, 5);
	/* T63: in ERR, WQEs posted later are flushed too, at their doorbell. */
	post_send_wqe(5, 0x0A, 1, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 6), 0);
	nev = 0;
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 5, 0x0A, 1);
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 1);
	cr_assert_eq(count_kind(NICREF_EV_CQE), 1);
	cr_expect_eq(nth(NICREF_EV_CQE, 0)->arg[4], 5);
	/* 2RST starts over. */
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 3, 0), OK);
	cr_assert_eq(refdrv_query_sq(&drv, sqn, &st), OK);
	cr_expect_eq(st.hw_counter, 0);
	cr_expect_eq(st.sw_counter, 0);
}

Test(sq, no_flush_without_flush_in_error_en)
{
	struct refdrv_sq_attr a = sq_attr();
	a.flush_in_error_en = false;
	uint32_t sqn;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &sqn), OK);
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	post_send_wqe(0, 0x0A, 1, 2, sqn);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, SQ_DBR, true, 1), 0);
	nev = 0;
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 1, 3), OK);
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 0, 0x0A, 1);
	cr_expect_eq(count_kind(NICREF_EV_CQE), 0, "T61: not forced to flush (D-SQ-4)");
	cr_expect_eq(count_kind(NICREF_EV_SQ_DOORBELL), 0, "§7.9.2: cannot be submitted");
}

/* The SQ context round trip: every CREATE row (T62 "R") set to a non-default value comes back
 * from QUERY_SQ; the loop walks the layout so a row added without a value here fails. */
struct fv {
	const char *name;
	uint64_t v;
};

static void round_trip(const char *in_layout, const char *out_layout, const struct fv *fv,
		       size_t nfv, const uint8_t *in, size_t in_len, const uint8_t *out,
		       size_t out_len)
{
	const struct nicref_layout *li = nicref_layout_find(in_layout);
	const struct nicref_layout *lo = nicref_layout_find(out_layout);
	unsigned checked = 0;
	for (uint32_t i = 0; i < li->nfields; i++) {
		const struct nicref_field *f = &li->fields[i];
		if (f->bit_offset < 0x20 * 8 || f->flags & NICREF_FIELD_ARRAY)
			continue;
		size_t k = 0;
		while (k < nfv && strcmp(fv[k].name, f->name))
			k++;
		cr_assert_lt(k, nfv, "%s.%s has no test value", in_layout, f->name);
		uint64_t sent = 0, got = 0;
		cr_assert_eq(nicref_field_get(in, in_len, f, &sent), 0);
		cr_expect_eq(sent, fv[k].v, "%s set", f->name);
		const struct nicref_field *g = nicref_layout_field(lo, f->name);
		cr_assert_not_null(g, "%s.%s", out_layout, f->name);
		cr_assert_eq(nicref_field_get(out, out_len, g, &got), 0);
		cr_expect_eq(got, fv[k].v, "QUERY %s: 0x%llx, expected 0x%llx", f->name,
			     (unsigned long long)got, (unsigned long long)fv[k].v);
		checked++;
	}
	cr_expect_gt(checked, 10);
}

static void fill(uint8_t *in, size_t len, const char *layout, const struct fv *fv, size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(nicref_field_set(in, len, nicref_layout_field(l, fv[i].name), fv[i].v), 0,
			     "%s", fv[i].name);
}

Test(sq, query_round_trip)
{
	/* 8 KB pages (log_wq_pg_sz 1), page_offset 3 (3 * 128 B), 2^5 WQEBBs: one page. */
	const uint64_t dbr = 0x1000000000ull | SQ_DBR;
	const struct fv fv[] = {
		{ "rlkey", 1 },	      { "fre", 1 },
		{ "flush_in_error_en", 1 }, { "min_wqe_inline_mode", 3 },
		{ "state", 0 },	      { "user_index", 0xABCDE },
		{ "cqn", cqn },	      { "tis_lst_sz", 1 },
		{ "tis_num_0", tisn },      { "wq_type", 1 },
		{ "wq_signature", 1 },      { "page_offset", 3 },
		{ "pd", pd },	      { "uar_page", uar },
		{ "dbr_addr_63_32", dbr >> 32 }, { "dbr_addr_31_0", dbr & 0xFFFFFFFF },
		{ "log_wq_stride", 6 },     { "log_wq_pg_sz", 1 },
		{ "log_wq_sz", 5 },
	};
	uint8_t in[0x118] = { 0 }, out[0x120] = { 0 };
	setf(in, 0x00, 31, 16, 0x904);
	fill(in, sizeof in, "create_sq_in", fv, sizeof fv / sizeof fv[0]);
	put32(in + 0x110, 0x5);
	put32(in + 0x114, 0x6000E000);
	cr_assert_eq(run(in, sizeof in, out, 16), OK);
	uint32_t sqn = getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	setf(q, 0x00, 31, 16, 0x907);
	setf(q, 0x08, 23, 0, sqn);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	round_trip("create_sq_in", "query_sq_out", fv, sizeof fv / sizeof fv[0], in, sizeof in, out,
		   sizeof out);
	/* Counters through a doorbell and a flush: record 2, two 1-WQEBB WQEs flushed. */
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 0, 1), OK);
	uint8_t ctrl[16] = { 0 };
	for (unsigned i = 0; i < 2; i++) {
		put32(ctrl, i << 8 | 0x0A);
		put32(ctrl + 4, sqn << 8 | 1);
		mem_write(0x56000E000ull + 384 + 64 * i, ctrl, sizeof ctrl);
	}
	cr_assert_eq(refdrv_wq_dbr_write(&drv, dbr, true, 2), 0);
	refdrv_sq_doorbell(&drv, uar, 0, sqn, 1, 0x0A, 1);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x20, 23, 20), 1, "state RDY now");
	cr_expect_eq(getf(out, 0x20 + 0x30 + 0x1C, 15, 0), 2, "sw_counter");
	cr_expect_eq(getf(out, 0x20 + 0x30 + 0x18, 15, 0), 0, "hw_counter");
	cr_expect_eq(get32(out + 0x110), 0x5, "pas[0] high");
	cr_expect_eq(get32(out + 0x114), 0x6000E000, "pas[0] low");
	cr_expect_eq(get32(out + 0x118), 0, "one page only");
	cr_assert_eq(refdrv_modify_sq(&drv, sqn, 1, 3), OK);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x20 + 0x30 + 0x18, 15, 0), 2, "hw_counter after the flush");
}

/* ==== RQ ======================================================================================= */

TestSuite(rq, .init = setup_graph, .fini = teardown);

Test(rq, create_refusals_and_rmp_references)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn, rmpn;
	a.cqn = cqn + 1;
	cr_expect_eq(refdrv_create_rq(&drv, &a, &rqn), BAD_RESOURCE);
	a = rq_attr();
	a.wq.log_wq_stride = 10; /* T145 log_max_stride_sz_rq 9 */
	cr_expect_eq(refdrv_create_rq(&drv, &a, &rqn), BAD_PARAM);
	a = rq_attr();
	a.on_rmp = true;
	a.rmpn = 1;
	cr_expect_eq(refdrv_create_rq(&drv, &a, &rqn), BAD_RESOURCE, "no RMP yet (§3.1 order)");
	struct refdrv_rmp_attr m = rmp_attr();
	cr_assert_eq(refdrv_create_rmp(&drv, &m, &rmpn), OK);
	a.rmpn = rmpn;
	cr_assert_eq(refdrv_create_rq(&drv, &a, &rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&drv, rmpn), BAD_RES_STATE, "an RQ is attached");
	cr_expect_eq(refdrv_destroy_rq(&drv, rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&drv, rmpn), OK);
	/* mem_rq_type 2 and a non-RMP rmpn (reserved, D-CMD-8) by hand. */
	uint8_t in[0x118] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x908);
	setf(in, 0x20, 27, 24, 2);
	setf(in, 0x28, 23, 0, cqn);
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM);
	setf(in, 0x20, 27, 24, 0);
	setf(in, 0x30, 23, 0, 1);
	nev = 0;
	cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_PARAM);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[0], NICREF_VIO_CMD_RESERVED_NOT_ZERO);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x30 << 32 | 1,
		     "T53 10h rmpn: the input dword 30h and its bits (D-CMD-8)");
	nev = 0;
}

Test(rq, transitions_and_vsd)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn;
	cr_assert_eq(refdrv_create_rq(&drv, &a, &rqn), OK);
	cr_expect_eq(refdrv_modify_rq(&drv, rqn, 0, 3), BAD_RESOURCE_STATE, "RST2ERR");
	cr_expect_eq(refdrv_modify_rq_vsd(&drv, rqn, 0, 1, true), OK, "T56: vsd in RST2RDY");
	cr_expect_eq(refdrv_modify_rq_vsd(&drv, rqn, 1, 3, false), BAD_PARAM, "not in RDY2ERR");
	cr_expect_eq(refdrv_modify_rq_vsd(&drv, rqn, 1, 1, false), OK, "RDY2RDY");
	uint8_t in[16] = { 0 }, out[0x110];
	setf(in, 0x00, 31, 16, 0x90B);
	setf(in, 0x08, 23, 0, rqn);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x20, 28, 28), 0, "vsd as last modified");
	cr_expect_eq(refdrv_modify_rq(&drv, rqn, 1, 3), OK);
	cr_expect_eq(refdrv_modify_rq(&drv, rqn, 3, 1), BAD_RESOURCE_STATE);
	cr_expect_eq(refdrv_modify_rq(&drv, rqn, 3, 0), OK);
	cr_expect_eq(count_kind(NICREF_EV_WQ_STATE), 3);
}

Test(rq, flush_on_error)
{
	/* §7.7.2.1, T53 flush_in_error_en: WQEs 0-2 posted (record 3) flush with opcode 14,
	 * syndrome 0x5, wqe_counter = the WQE index. */
	struct refdrv_rq_attr a = rq_attr();
	a.user_index = 0x123;
	uint32_t rqn;
	cr_assert_eq(refdrv_create_rq(&drv, &a, &rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 0, 1), OK);
	cr_assert_eq(refdrv_wq_dbr_write(&drv, RQ_DBR, false, 3), 0);
	nev = 0;
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 1, 3), OK);
	cr_assert_eq(count_kind(NICREF_EV_CQE), 3);
	for (unsigned i = 0; i < 3; i++) {
		cr_expect_eq(nth(NICREF_EV_CQE, i)->arg[2], 14);
		cr_expect_eq(nth(NICREF_EV_CQE, i)->arg[3], 0x05);
		cr_expect_eq(nth(NICREF_EV_CQE, i)->arg[4], i);
	}
	uint8_t cqe[64];
	cr_assert_eq(nicref_hostmem_read(dev, CQ_BUF, cqe, sizeof cqe), 0);
	cr_expect_eq(getf(cqe, 0x20, 23, 0), 0x123, "user_index (cqe_version 1)");
	cr_expect_eq(count_kind(NICREF_EV_EQE), 0, "an inline RQ has no Last WQE event");
}

Test(rq, rmp_rq_error_events)
{
	/* §7.7.2.2: an RMP RQ entering ERR flushes the WQEs it took, then Last WQE Reached
	 * (0x13, T82/T83 type 1). T57: an RQ taking from an RMP in ERR goes to ERR with the RQ
	 * catastrophic event (0x05); the RMP's own error raises 0x12 (D-EV-1). */
	struct refdrv_rmp_attr m = rmp_attr();
	m.lwm = 2;
	uint32_t rmpn, rqn;
	cr_assert_eq(refdrv_create_rmp(&drv, &m, &rmpn), OK);
	struct refdrv_rq_attr a = rq_attr();
	a.on_rmp = true;
	a.rmpn = rmpn;
	cr_assert_eq(refdrv_create_rq(&drv, &a, &rqn), OK);
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 0, 1), OK);
	struct rq *rq = obj_get(dev, OBJ_RQ, rqn);
	struct rmp *rmp = obj_get(dev, OBJ_RMP, rmpn);
	uint32_t idx;
	cr_expect_eq(rq_dequeue(dev, rq, &idx), -2, "nothing posted");
	cr_assert_eq(refdrv_wq_dbr_write(&drv, RMP_DBR, false, 4), 0);
	nev = 0;
	cr_assert_eq(rq_dequeue(dev, rq, &idx), 0);
	cr_expect_eq(idx, 0);
	cr_assert_eq(rq_dequeue(dev, rq, &idx), 0);
	cr_expect_eq(idx, 1);
	cr_expect_eq(count_kind(NICREF_EV_EQE), 0, "3 then 2 left: not below lwm 2");
	rq_wqe_done(rq, 0);
	cr_assert_eq(rq_dequeue(dev, rq, &idx), 0);
	cr_assert_eq(count_kind(NICREF_EV_EQE), 1, "1 left < 2: the limit event (D-WQ-2)");
	cr_expect_eq(nth(NICREF_EV_EQE, 0)->arg[2], 0x14);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&drv, rmpn, &st), OK);
	cr_expect_eq(st.hw_counter, 3);
	cr_expect_eq(st.sw_counter, 4);
	cr_assert_eq(rq_dequeue(dev, rq, &idx), 0);
	cr_expect_eq(count_kind(NICREF_EV_EQE), 1, "one-shot: disarmed");
	/* Taken, not done: 1, 2, 3. MODIFY RDY2ERR flushes them, then 0x13. */
	nev = 0;
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 1, 3), OK);
	cr_assert_eq(count_kind(NICREF_EV_CQE), 3);
	cr_expect_eq(nth(NICREF_EV_CQE, 0)->arg[4], 1);
	cr_expect_eq(nth(NICREF_EV_CQE, 2)->arg[4], 3);
	cr_assert_eq(count_kind(NICREF_EV_EQE), 1);
	cr_expect_eq(nth(NICREF_EV_EQE, 0)->arg[2], 0x13);
	cr_expect(nth(NICREF_EV_CQE, 2)->seq < nth(NICREF_EV_EQE, 0)->seq, "after the flush");
	uint8_t eqe[64];
	cr_assert_eq(nicref_hostmem_read(dev, EQ_BUF + 64 * nth(NICREF_EV_EQE, 0)->arg[1], eqe,
					 sizeof eqe), 0);
	cr_expect_eq(eqe[0x20 + 0x14], 1, "T83 type RQ");
	cr_expect_eq(getf(eqe, 0x20 + 0x18, 23, 0), rqn);
	/* RMP error: 0x12; then the RQ, back in RDY, fails its next take: ERR, 0x05, 0x13. */
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 3, 0), OK);
	cr_assert_eq(refdrv_modify_rq(&drv, rqn, 0, 1), OK);
	nev = 0;
	rmp_hw_error(dev, rmp);
	cr_expect_eq(rq_dequeue(dev, rq, &idx), -1);
	cr_assert_eq(count_kind(NICREF_EV_EQE), 3);
	cr_expect_eq(nth(NICREF_EV_EQE, 0)->arg[2], 0x12);
	cr_expect_eq(nth(NICREF_EV_EQE, 1)->arg[2], 0x05);
	cr_expect_eq(nth(NICREF_EV_EQE, 2)->arg[2], 0x13);
	cr_assert_eq(count_kind(NICREF_EV_WQ_STATE), 2);
	cr_expect_eq(nth(NICREF_EV_WQ_STATE, 0)->arg[0], 2, "RMP");
	cr_expect_eq(nth(NICREF_EV_WQ_STATE, 0)->arg[4], 1, "by the device");
	cr_expect_eq(nth(NICREF_EV_WQ_STATE, 1)->arg[0], 1, "RQ");
	cr_assert_eq(refdrv_query_rmp(&drv, rmpn, &st), OK);
	cr_expect_eq(st.state, 3);
	/* §7.7.2.2: recovery is destroying the RQs, then the RMP. */
	cr_expect_eq(refdrv_destroy_rmp(&drv, rmpn), BAD_RES_STATE);
	cr_expect_eq(refdrv_destroy_rq(&drv, rqn), OK);
	cr_expect_eq(refdrv_destroy_rmp(&drv, rmpn), OK);
}

Test(rq, query_round_trip)
{
	const struct fv fv[] = {
		{ "rlkey", 1 },		{ "vlan_strip_disable", 1 },
		{ "mem_rq_type", 0 },	{ "state", 0 },
		{ "flush_in_error_en", 1 }, { "user_index", 0x54321 },
		{ "cqn", cqn },		{ "rmpn", 0 },
		{ "wq_type", 1 },	{ "wq_signature", 1 },
		{ "end_padding_mode", 1 }, { "page_offset", 2 },
		{ "pd", pd },		{ "dbr_addr_63_32", 0x2 },
		{ "dbr_addr_31_0", 0x44 }, { "log_wq_stride", 7 },
		{ "log_wq_pg_sz", 0 },	{ "log_wq_sz", 6 },
	};
	/* 2^6 * 128 B = 8 KB after 2 * 64 B: three pages. */
	uint8_t in[0x128] = { 0 }, out[0x130] = { 0 };
	setf(in, 0x00, 31, 16, 0x908);
	fill(in, sizeof in, "create_rq_in", fv, sizeof fv / sizeof fv[0]);
	for (unsigned i = 0; i < 3; i++)
		put32(in + 0x114 + 8 * i, 0x7000000 + 0x3000 * i);
	cr_assert_eq(run(in, sizeof in, out, 16), OK);
	uint32_t rqn = getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	setf(q, 0x00, 31, 16, 0x90B);
	setf(q, 0x08, 23, 0, rqn);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	round_trip("create_rq_in", "query_rq_out", fv, sizeof fv / sizeof fv[0], in, sizeof in, out,
		   sizeof out);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(get32(out + 0x114 + 8 * i), 0x7000000 + 0x3000 * i, "pas[%u]", i);
	cr_expect_eq(get32(out + 0x12C), 0, "no fourth page");
}

Test(rmp, query_round_trip)
{
	const struct fv fv[] = {
		{ "state", 1 },		  { "basic_cyclic_rcv_wqe", 1 },
		{ "wq_type", 1 },	  { "wq_signature", 1 },
		{ "end_padding_mode", 1 }, { "page_offset", 4 },
		{ "lwm", 0x77 },	  { "pd", pd },
		{ "dbr_addr_63_32", 0x3 }, { "dbr_addr_31_0", 0x1000 },
		{ "log_wq_stride", 8 },	  { "log_wq_pg_sz", 2 },
		{ "log_wq_sz", 3 },
	};
	uint8_t in[0x118] = { 0 }, out[0x118] = { 0 };
	setf(in, 0x00, 31, 16, 0x90C);
	fill(in, sizeof in, "create_rmp_in", fv, sizeof fv / sizeof fv[0]);
	put32(in + 0x114, 0x9000000);
	cr_assert_eq(run(in, sizeof in, out, 16), OK);
	uint32_t rmpn = getf(out, 0x08, 23, 0);
	uint8_t q[16] = { 0 };
	setf(q, 0x00, 31, 16, 0x90F);
	setf(q, 0x08, 23, 0, rmpn);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	round_trip("create_rmp_in", "query_rmp_out", fv, sizeof fv / sizeof fv[0], in, sizeof in,
		   out, sizeof out);
	cr_expect_eq(get32(out + 0x114), 0x9000000);
}

/* ==== Device reset ============================================================================= */

Test(sq, teardown_releases_everything)
{
	struct refdrv_sq_attr a = sq_attr();
	struct refdrv_rmp_attr m = rmp_attr();
	struct refdrv_rq_attr r = rq_attr();
	uint32_t n;
	cr_assert_eq(refdrv_create_sq(&drv, &a, &n), OK);
	cr_assert_eq(refdrv_create_rmp(&drv, &m, &n), OK);
	r.on_rmp = true;
	r.rmpn = n;
	cr_assert_eq(refdrv_create_rq(&drv, &r, &n), OK);
	nicref_dev_reset(dev);
	cr_expect_eq(dev->obj[OBJ_SQ].nlive, 0);
	cr_expect_eq(dev->obj[OBJ_RQ].nlive, 0);
	cr_expect_eq(dev->obj[OBJ_RMP].nlive, 0);
	nev = 0;
}

/* ==== Profiles ================================================================================= */

static void setup_two_each(void)
{
	log_max_objects = 1; /* T145 log_max_sq/rq/rmp (and cq, tis) 1: two of each */
	setup_graph();
	log_max_objects = -1;
}

TestSuite(wq_limits, .init = setup_two_each, .fini = teardown);

Test(wq_limits, counts_beyond_the_capabilities)
{
	/* T145 6Ch/70h: 2^log_max_sq SQs, 2^log_max_rq RQs, 2^log_max_rmp RMPs; one more is
	 * EXCEED_LIM (T128 0x08) and takes nothing (the ICM charge is given back, D-PG-4). */
	struct refdrv_sq_attr a = sq_attr();
	struct refdrv_rmp_attr m = rmp_attr();
	struct refdrv_rq_attr r = rq_attr();
	uint32_t n;
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(refdrv_create_sq(&drv, &a, &n), OK);
		cr_assert_eq(refdrv_create_rmp(&drv, &m, &n), OK);
		cr_assert_eq(refdrv_create_rq(&drv, &r, &n), OK);
	}
	cr_expect_eq(refdrv_create_sq(&drv, &a, &n), EXCEED_LIM);
	cr_expect_eq(refdrv_create_rmp(&drv, &m, &n), EXCEED_LIM);
	cr_expect_eq(refdrv_create_rq(&drv, &r, &n), EXCEED_LIM);
	cr_expect_eq(dev->obj_charged[OBJ_SQ], 2);
	cr_expect_eq(refdrv_destroy_sq(&drv, 2), OK);
	cr_expect_eq(refdrv_create_sq(&drv, &a, &n), OK);
	cr_expect_eq(n, 2, "the freed handle again (D-OBJ-2)");
}

static void setup_permissive(void)
{
	reserved_check = 0; /* D-CMD-8: reserved bits reported, the command runs */
	setup_graph();
	reserved_check = -1;
}

TestSuite(wq_permissive, .init = setup_permissive, .fini = teardown);

Test(wq_permissive, conditional_reserved_field_reported_and_run)
{
	/* T53 10h rmpn is reserved for an inline RQ: reported at input dword 30h; with the
	 * permissive profile the RQ is created and QUERY_RQ returns the field as given. */
	struct refdrv_rmp_attr m = rmp_attr();
	uint32_t rmpn, rqn;
	cr_assert_eq(refdrv_create_rmp(&drv, &m, &rmpn), OK);
	nev = 0;
	struct refdrv_rq_attr r = rq_attr();
	uint8_t in[0x118] = { 0 }, out[0x118];
	setf(in, 0x00, 31, 16, 0x908);
	setf(in, 0x28, 23, 0, cqn);
	setf(in, 0x30, 23, 0, rmpn);
	setf(in, 0x50, 31, 28, 1);
	setf(in, 0x58, 23, 0, pd);
	put32(in + 0x64, (uint32_t)r.wq.dbr);
	setf(in, 0x70, 19, 16, 5);
	setf(in, 0x70, 4, 0, 4);
	put32(in + 0x114, (uint32_t)r.wq.buf);
	cr_assert_eq(run(in, sizeof in, out, 16), OK);
	rqn = getf(out, 0x08, 23, 0);
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x30 << 32 | rmpn);
	cr_expect_eq(dev->obj[OBJ_RMP].nlive, 1);
	cr_expect_eq(((struct obj_hdr *)obj_get(dev, OBJ_RMP, rmpn))->refs, 0,
		     "an inline RQ does not attach to the RMP it names in a reserved field");
	uint8_t q[16] = { 0 };
	setf(q, 0x00, 31, 16, 0x90B);
	setf(q, 0x08, 23, 0, rqn);
	cr_assert_eq(run(q, sizeof q, out, sizeof out), OK);
	cr_expect_eq(getf(out, 0x30, 23, 0), rmpn);
	nev = 0;
}

/* MODIFY_RQ and MODIFY_RMP with a bitmask field whose bit is clear: T337/T371 20h "Only fields
 * requested by the mask should be valid. Other fields are reserved" (D-MOD-1). vsd is MODIFY_RQ
 * input 20h[28] (T52 00h[28] + 20h), lwm MODIFY_RMP input 54h[15:0] (T54 04h + 30h + 20h). */
static int modify_rq_raw(uint32_t rqn, unsigned cur, unsigned next, uint32_t mask, unsigned vsd)
{
	uint8_t in[0x110] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x909);
	setf(in, 0x08, 31, 28, cur);
	setf(in, 0x08, 23, 0, rqn);
	put32(in + 0x14, mask);
	setf(in, 0x20, 28, 28, vsd);
	setf(in, 0x20, 23, 20, next);
	return run(in, sizeof in, out, sizeof out);
}

static int modify_rmp_raw(uint32_t rmpn, uint32_t mask, unsigned lwm)
{
	uint8_t in[0x110] = { 0 }, out[16];
	setf(in, 0x00, 31, 16, 0x90D);
	setf(in, 0x08, 31, 28, 1);
	setf(in, 0x08, 23, 0, rmpn);
	put32(in + 0x14, mask);
	setf(in, 0x20, 23, 20, 1);
	setf(in, 0x54, 15, 0, lwm);
	return run(in, sizeof in, out, sizeof out);
}

static unsigned query_vsd(uint32_t rqn)
{
	uint8_t in[16] = { 0 }, out[0x110];
	setf(in, 0x00, 31, 16, 0x90B);
	setf(in, 0x08, 23, 0, rqn);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK);
	return getf(out, 0x20, 28, 28);
}

static unsigned query_lwm(uint32_t rmpn)
{
	uint8_t in[16] = { 0 }, out[0x118];
	setf(in, 0x00, 31, 16, 0x90F);
	setf(in, 0x08, 23, 0, rmpn);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK);
	return getf(out, 0x20 + 0x30 + 0x04, 15, 0);
}

/* Both profiles: strict refuses (BAD_PARAM, nothing changes), permissive runs the command
 * without taking the field; each reports one violation at the field's dword. */
static void unselected_modify_fields(bool strict)
{
	struct refdrv_rq_attr a = rq_attr();
	uint32_t rqn, rmpn;
	cr_assert_eq(refdrv_create_rq(&drv, &a, &rqn), OK);
	cr_assert_eq(modify_rq_raw(rqn, 0, 1, 0, 0), OK, "RST2RDY, nothing else");
	nev = 0;
	cr_expect_eq(modify_rq_raw(rqn, 1, 1, 0, 1), strict ? BAD_PARAM : OK, "vsd, bit 1 clear");
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x20 << 32 | 0x10000000);
	cr_expect_eq(query_vsd(rqn), 0, "vsd not taken");
	cr_expect_eq(modify_rq_raw(rqn, 1, 1, 2, 1), OK, "with bit 1 it is");
	cr_expect_eq(query_vsd(rqn), 1);

	struct refdrv_rmp_attr m = rmp_attr();
	m.lwm = 5;
	cr_assert_eq(refdrv_create_rmp(&drv, &m, &rmpn), OK);
	nev = 0;
	cr_expect_eq(modify_rmp_raw(rmpn, 0, 300), strict ? BAD_PARAM : OK, "lwm, bit 0 clear");
	cr_assert_eq(count_kind(NICREF_EV_VIOLATION), 1);
	cr_expect_eq(nth(NICREF_EV_VIOLATION, 0)->arg[1], (uint64_t)0x54 << 32 | 300);
	cr_expect_eq(query_lwm(rmpn), 5, "lwm not taken");
	cr_expect_eq(modify_rmp_raw(rmpn, 1, 300), OK, "with bit 0 it is");
	cr_expect_eq(query_lwm(rmpn), 300);
	nev = 0;
}

Test(rq, unselected_modify_fields_are_reserved)
{
	unselected_modify_fields(true);
}

Test(wq_permissive, unselected_modify_fields_reported_not_taken)
{
	unselected_modify_fields(false);
}
