/* Target: bringup, the init and general commands (PRM §12.3, ACCESS_REG §12.4.1, NOP §12.18.1)
 * in any order, mixed with the reference driver's bring-up and teardown (harness/driver.c),
 * time steps and device resets, against a harness-side model of the lifecycle (PRM §8.2-§8.3,
 * D-INIT-2), the pages (§12.3.1-§12.3.2, D-PG-1..3), the handles (D-OBJ-2, D-UAR-1), the ISSI
 * (§7.1, D-ISSI-1) and the capabilities (§12.3.3-§12.3.4).
 *
 * Input: a sequence of ops, at most MAX_OPS of them. Each op is one op byte followed by its
 * operands, big-endian; operands past the end of the input read as 0, so every byte string is a
 * valid stream. The op codes are fixed numbers (bringup_ops.h); 26-255 are reserved: the op byte
 * alone is consumed and nothing happens (a new op takes the next free code, so no existing input
 * changes meaning):
 *
 *   0-20  a command: op sel:u8 flags:u8 then the command's operands (below). The commands are
 *         0 ENABLE_HCA  1 QUERY_ISSI  2 SET_ISSI  3 QUERY_PAGES  4 MANAGE_PAGES
 *         5 QUERY_HCA_CAP  6 SET_HCA_CAP  7 INIT_HCA  8 SET_DRIVER_VERSION  9 QUERY_ADAPTER
 *         10 ALLOC_PD  11 DEALLOC_PD  12 ALLOC_UAR  13 DEALLOC_UAR  14 ALLOC_TRANSPORT_DOMAIN
 *         15 DEALLOC_TRANSPORT_DOMAIN  16 CONFIG_INT_MODERATION  17 ACCESS_REG  18 NOP
 *         19 TEARDOWN_HCA  20 DISABLE_HCA
 *         sel    op_mod: 00-DF one the PRM describes for the command (sel % their number,
 *                in the order of cmds[] below); E0-FE the raw value sel - E0; FF op_mod:u16
 *         flags  F0-FF set bit (flags >> 2 & 3) of reserved input byte 2 + (flags & 3) (T99:
 *                00h[15:0] and 04h[31:16] are reserved in every command); else nothing
 *   21    BRING_UP stage:u8 — the reference driver's §8.2 sequence up to stage % 7 (0 queue,
 *         1 enabled, 2 issi, 3 boot_pages, 4 caps, 5 init_pages, 6 initialized, fixed by
 *         bu_stages[] whatever stages the driver gains); only from DISABLED
 *   22    DRV_TEARDOWN — the reference driver's §8.3 teardown (TEARDOWN_HCA, page reclaim,
 *         DISABLE_HCA); only from INITIALIZED
 *   23    ADVANCE us:u16 — virtual time moves us microseconds
 *   24    RESET — nicref_dev_reset (host memory stays), then the queue address again
 *   25    RAW opcode:u16 op_mod:u16 — any opcode the model does not implement (one it does is
 *         turned into an unknown one by flipping bit 15): BAD_OP, and nothing changes
 *
 * Command operands (after sel and flags):
 *   SET_ISSI          v:u8 — 00-7F ISSI 1, 80-BF ISSI 0, C0-FE ISSI v - C0, FF issi:u16
 *   MANAGE_PAGES      count:u8 pat:u8 [pick:u8] — count 00-EF entries, F0-FF (count - EF) *
 *                     256 (up to 4096). op_mod 1 (give): pages are fresh and 4 KB aligned; pat
 *                     80-BF makes the first one a page returned earlier (the host's again);
 *                     pat C0-FF breaks entry pick % count by pat & 3: 0 a page the device
 *                     holds, 1 a copy of entry 0, 2 not aligned (low bits (pat >> 2 & 15) + 1),
 *                     3 input_num_entries one more than the entries sent. op_mod 2 (return):
 *                     pat C0-FF makes the output 8 bytes too short for count entries.
 *   SET_HCA_CAP       n:u8 then n % 4 patches of the capability the harness believes current
 *                     for the type: sel:u8 val:u8 — sel 00-BF sets RW field sel % 4
 *                     (cmdif_checksum, cache_line_128byte, log_max_sq, log_uar_page_sz; T145)
 *                     to val; C0-FF then off:u16, sets byte off % 4096 to val
 *   SET_DRIVER_VERSION kind:u8 — kind % 5: 0 "nicref,bringup,1.000.000000"; 1 well formed
 *                     with the version from main:u8 minor:u16 sub:u16; 2 malformed
 *                     "nicref,bringup,1.0.0"; 3 len:u8 then len % 65 bytes (NUL-terminated
 *                     when shorter than 64); 4 64 bytes, no NUL
 *   DEALLOC_PD/UAR/TD pick:u8 — 00-BF a live handle (pick % live; a dead one when none is
 *                     live), C0-DF the last one freed, E0-FE pick - E0, FF handle:u24
 *   CONFIG_INT_MODERATION vec:u8 delay:u16 — vec 00-EF vector vec % msix_vectors, F0-FF
 *                     vector:u16 follows (before delay); min_delay is delay & 0xFFF
 *   ACCESS_REG        reg:u8 arg:u8 len:u8 n:u8 data[n] — reg 00-EF PMTU/PTYS/PAOS/PFCC/PPCNT
 *                     (0x5003/4/6/7/8) by reg % 5, F0-FF register_id:u16 follows; argument 0
 *                     for arg 00-EF, else argument:u32 follows; register data the size of
 *                     register reg % 5 (T105-T114) for len 00-BF, else (len & 3F) * 4 bytes,
 *                     zero with local_port 1, its first n bytes taken from the input
 *   TEARDOWN_HCA      p:u8 — 00-9F profile 0 (graceful), A0-BF 1 (panic), C0-FE p - C0,
 *                     FF profile:u16
 *   others            none
 *
 * Every command goes through harness/cmdbuild.c (signed entry and mailboxes, fresh token,
 * slot 0 of the queue the reference driver latched), so the transport must stay clean.
 *
 * Properties, after every op (a broken one is NICREF_FUZZ_CHECK, a trap):
 * - fuzz_oracle_check_dev: nicref_dev_check is 0, counters agree with the trace; every event
 *   keeps the trace properties of fuzz_oracle.c; no transport-level violation, ever;
 * - nicref_hca_info agrees with the harness: the lifecycle state (tracked from the statuses the
 *   harness saw, D-INIT-2: ENABLE_HCA OK -> ENABLED, INIT_HCA OK -> INITIALIZED, TEARDOWN_HCA
 *   OK -> TORN_DOWN or PANIC, DISABLE_HCA OK -> DISABLED, a refused command changes nothing),
 *   the ISSI, the pages held (the harness's count of pages given minus returned), the live
 *   PDs/UARs/TDs, and in ENABLED/INITIALIZED/TORN_DOWN what QUERY_PAGES would answer (D-PG-2);
 * - every command completes once (none after a panic close: dropped unseen, D-INIT-8) with
 *   delivery status 0, ownership returned, signatures when cmdif_checksum says so, a T128
 *   status, no output past the header when refused (D-CMD-6), and a trace that agrees;
 * - the status is the one the PRM and the decisions give: op_mod not described -> BAD_OP; not
 *   allowed in the state -> BAD_SYS_STATE; a reserved bit -> BAD_PARAM with exactly one
 *   CMD_RESERVED_NOT_ZERO (D-CMD-7 order); then each command's own outcome: INIT_HCA needs the
 *   boot and init pages (NO_RESOURCES), SET_ISSI a supported ISSI, TEARDOWN_HCA profile 0/1,
 *   MANAGE_PAGES all or nothing (BAD_INPUT_LEN, EXCEED_LIM for more than the room left, then
 *   BAD_PARAM for an unaligned or held page; D-PG-3), ALLOC_* the lowest free handle (D-OBJ-2) or EXCEED_LIM only when none is
 *   left, DEALLOC_* OK for a live handle and BAD_RESOURCE for any other, CONFIG_INT_MODERATION
 *   BAD_PARAM beyond the MSI-X vectors, SET_DRIVER_VERSION BAD_PARAM when unterminated;
 * - outputs: QUERY_PAGES num_pages (D-PG-2), MANAGE_PAGES return gives min(count, spare) pages,
 *   exactly pages given and not yet returned, latest first (D-PG-3); QUERY_ISSI current and
 *   supported ISSIs; QUERY_HCA_CAP the capabilities the device had at power-on with the RW
 *   fields SET_HCA_CAP changed (T145); CONFIG_INT_MODERATION the vector's delay;
 * - content violations exactly as predicted: ISSI_NOT_SET on an INIT_HCA without SET_ISSI,
 *   PAGES_NOT_RECLAIMED on a DISABLE_HCA after teardown with pages held,
 *   DRIVER_VERSION_FORMAT when the harness's own T190 parser rejects the string, SET_HCA_CAP_AFTER_INIT_PAGES on a SET_HCA_CAP
 *   after QUERY_PAGES(init) (D-INIT-1); reserved-bit violations iff the refusal says so;
 * - the reference driver brings a DISABLED device up and an INITIALIZED one down without a
 *   single violation and without an error. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bringup_ops.h"
#include "cmdbuild.h"
#include "driver.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"

#define ISEG_CMDQ_DB 0x0018u

/* Host memory plan: the reference driver's queue (slot 0 is used), this target's chains
 * (blocks 1 KiB apart; 64 blocks each at most), the pages it names (never written). */
#define CMDQ_ADDR 0x10000ull
#define IN_MBOX 0x100000ull
#define OUT_MBOX 0x1000000ull
#define FRESH_BASE 0x40000000ull
#define PAGE 4096u

#define MAX_OPS 256
#define MAX_GIVE 4096u                     /* entries of one MANAGE_PAGES */
#define IN_CAP (16u + 8u * MAX_GIVE)      /* the longest input: a give of MAX_GIVE */
#define OUT_CAP (16u + 8u * MAX_GIVE)
#define RING 64             /* pages returned lately, to give again */
#define LIVE_CAP MAX_OPS    /* one ALLOC per op at most */
#define CAP_BYTES 0x1000u
#define MAX_VECTORS 2048u   /* profile limit of msix_vectors (dev.c) */

/* PRM §12.2 T128. */
enum {
	ST_OK = 0x00,
	ST_BAD_OP = 0x02,
	ST_BAD_PARAM = 0x03,
	ST_BAD_SYS_STATE = 0x04,
	ST_BAD_RESOURCE = 0x05,
	ST_EXCEED_LIM = 0x08,
	ST_NO_RESOURCES = 0x0F,
	ST_BAD_INPUT_LEN = 0x50,
	ST_BAD_OUTPUT_LEN = 0x51,
};

/* Lifecycle states as a mask (D-INIT-2). */
#define DIS (1u << NICREF_HCA_DISABLED)
#define ENA (1u << NICREF_HCA_ENABLED)
#define INI (1u << NICREF_HCA_INITIALIZED)
#define TDN (1u << NICREF_HCA_TORN_DOWN)


/* The commands as the PRM and D-INIT-2 describe them, written here rather than taken from the
 * model (cmd/cmd_table.h), so the model's table is checked too. */
struct cmd_desc {
	uint16_t opcode;
	uint8_t states;   /* where D-INIT-2 allows it */
	uint8_t nmods;    /* op_mods the PRM describes (T100: none means 0 only) */
	uint16_t mods[6];
	uint32_t in_len, out_len; /* the fixed input and output (T130-T224) */
};

static const struct cmd_desc cmds[BU_CMD_COUNT] = {
	[BU_ENABLE_HCA] = { NICREF_OP_ENABLE_HCA, DIS, 1, { 0 }, 16, 16 },
	[BU_QUERY_ISSI] = { NICREF_OP_QUERY_ISSI, DIS | ENA | INI, 1, { 0 }, 16, 0x70 },
	[BU_SET_ISSI] = { NICREF_OP_SET_ISSI, ENA, 1, { 0 }, 16, 16 },
	/* T131: 1 boot, 2 init, 3 regular */
	[BU_QUERY_PAGES] = { NICREF_OP_QUERY_PAGES, ENA | INI | TDN, 3, { 1, 2, 3 }, 16, 16 },
	/* T135: 0 allocation fail, 1 allocation success, 2 return pages */
	[BU_MANAGE_PAGES] = { NICREF_OP_MANAGE_PAGES, ENA | INI | TDN, 3, { 1, 2, 0 }, 16, 16 },
	/* T141: bit 0 max/current, bits 15:1 type 0, 1, 7 */
	[BU_QUERY_HCA_CAP] = { NICREF_OP_QUERY_HCA_CAP, ENA | INI, 6, { 1, 0, 3, 2, 15, 14 }, 16,
			      16 + CAP_BYTES },
	/* T155: bit 0 reserved */
	[BU_SET_HCA_CAP] = { NICREF_OP_SET_HCA_CAP, ENA, 3, { 0, 2, 14 }, 16 + CAP_BYTES, 16 },
	[BU_INIT_HCA] = { NICREF_OP_INIT_HCA, ENA, 1, { 0 }, 16, 16 },
	[BU_SET_DRIVER_VERSION] = { NICREF_OP_SET_DRIVER_VERSION, INI, 1, { 0 }, 0x50, 16 },
	[BU_QUERY_ADAPTER] = { NICREF_OP_QUERY_ADAPTER, ENA | INI, 1, { 0 }, 16, 0x110 },
	[BU_ALLOC_PD] = { NICREF_OP_ALLOC_PD, INI, 1, { 0 }, 16, 16 },
	[BU_DEALLOC_PD] = { NICREF_OP_DEALLOC_PD, INI, 1, { 0 }, 16, 16 },
	[BU_ALLOC_UAR] = { NICREF_OP_ALLOC_UAR, INI, 1, { 0 }, 16, 16 },
	[BU_DEALLOC_UAR] = { NICREF_OP_DEALLOC_UAR, INI, 1, { 0 }, 16, 16 },
	[BU_ALLOC_TD] = { NICREF_OP_ALLOC_TRANSPORT_DOMAIN, INI, 1, { 0 }, 16, 16 },
	[BU_DEALLOC_TD] = { NICREF_OP_DEALLOC_TRANSPORT_DOMAIN, INI, 1, { 0 }, 16, 16 },
	/* T210: 0 write, 1 read */
	[BU_CONFIG_INT_MODERATION] = { NICREF_OP_CONFIG_INT_MODERATION, INI, 2, { 0, 1 }, 16, 16 },
	/* T222: 0 write, 1 read */
	[BU_ACCESS_REG] = { NICREF_OP_ACCESS_REG, ENA | INI, 2, { 1, 0 }, 16, 16 },
	[BU_NOP] = { NICREF_OP_NOP, DIS | ENA | INI | TDN, 1, { 0 }, 16, 16 },
	[BU_TEARDOWN_HCA] = { NICREF_OP_TEARDOWN_HCA, INI, 1, { 0 }, 16, 16 },
	[BU_DISABLE_HCA] = { NICREF_OP_DISABLE_HCA, ENA | TDN, 1, { 0 }, 16, 16 },
};

/* PRM §11.1 T104-T114: the port registers and their sizes. */
static const struct {
	uint16_t id;
	uint16_t size;
} regs[] = { { 0x5003, 0x10 }, { 0x5004, 0x40 }, { 0x5006, 0x10 }, { 0x5007, 0x20 },
	     { 0x5008, 0x100 } };

/* A handle space as the harness sees it: live handles sorted, and the range INIT_HCA opened
 * (D-OBJ-2, D-UAR-1). */
struct handles {
	uint64_t base, limit;
	uint32_t n, h[LIVE_CAP];
	uint32_t last_freed;
};

/* What the harness expects the device to hold. */
struct expect {
	enum nicref_hca_state state;
	uint16_t issi;
	bool issi_set;     /* SET_ISSI since ENABLE_HCA (D-INIT-9) */
	bool init_queried; /* QUERY_PAGES(init) since ENABLE_HCA (D-INIT-1) */
	uint64_t *held;    /* pages given and not returned, in the order given */
	uint32_t held_n;
	uint64_t returned[RING]; /* recently returned: the host's again */
	uint32_t ret_n;
	uint64_t next_fresh;
	struct handles pd, uar, td;
	uint8_t gen_cur[CAP_BYTES]; /* general current capabilities (T144) */
	uint16_t delay[MAX_VECTORS];
	bool delay_known[MAX_VECTORS];
	uint8_t token;
};

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;
static struct nicref_profile prof;
static struct refdrv drv;
static struct expect ex;
static uint32_t held_cap;    /* profile max_icm_pages + one give */
static uint64_t *scratch;    /* held_cap + MAX_GIVE + 1 addresses, for the duplicate check */
/* Power-on capabilities, learnt once at init: index of cmds[BU_QUERY_HCA_CAP].mods. */
static uint8_t caps_power_on[6][CAP_BYTES];
static const struct nicref_field *f_cmdif, *f_cl128, *f_log_max_sq, *f_lups, *f_uar_sz,
	*f_log_max_pd, *f_log_max_td, *f_driver_version;
static uint8_t in[IN_CAP], out[OUT_CAP];
/* T145: the fields SET_HCA_CAP takes (Access RW), in the order the input names them. */
static const struct nicref_field *const *const rw_fields[4] = { &f_cmdif, &f_cl128,
								 &f_log_max_sq, &f_lups };

/* ---- input reader ---------------------------------------------------------------------- */

struct rd {
	const uint8_t *p;
	size_t n, i;
};

static uint8_t u8(struct rd *r)
{
	return r->i < r->n ? r->p[r->i++] : 0;
}

static uint32_t ube(struct rd *r, unsigned bytes)
{
	uint32_t v = 0;
	while (bytes--)
		v = v << 8 | u8(r);
	return v;
}

static void put_be(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

static uint64_t get_be(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t cap_get(const uint8_t *caps, const struct nicref_field *f)
{
	uint64_t v = 0;
	NICREF_FUZZ_CHECK(nicref_field_get(caps, CAP_BYTES, f, &v) == 0);
	return v;
}

/* ---- the harness's model --------------------------------------------------------------- */

static bool generating(void)
{
	return cap_get(ex.gen_cur, f_cmdif) != 0; /* T145 cmdif_checksum */
}

static void handles_clear(struct handles *h)
{
	h->n = 0;
	h->base = h->limit = 0;
}

static bool handle_live(const struct handles *h, uint64_t v)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (h->h[i] == v)
			return true;
	return false;
}

/* D-OBJ-2: the lowest handle from base that is not live. */
static uint64_t handle_lowest_free(const struct handles *h)
{
	uint64_t v = h->base;
	for (uint32_t i = 0; i < h->n && h->h[i] <= v; i++)
		if (h->h[i] == v)
			v++;
	return v;
}

static void handle_add(struct handles *h, uint32_t v)
{
	NICREF_FUZZ_CHECK(h->n < LIVE_CAP);
	uint32_t i = h->n++;
	while (i > 0 && h->h[i - 1] > v) {
		h->h[i] = h->h[i - 1];
		i--;
	}
	h->h[i] = v;
}

static void handle_remove(struct handles *h, uint32_t v)
{
	uint32_t i = 0;
	while (i < h->n && h->h[i] != v)
		i++;
	NICREF_FUZZ_CHECK(i < h->n);
	memmove(&h->h[i], &h->h[i + 1], (h->n - i - 1) * sizeof h->h[0]);
	h->n--;
	h->last_freed = v;
}

/* INIT_HCA opens the handle spaces from the capabilities in force (T145, D-OBJ-2, D-UAR-1). */
static void open_handles(void)
{
	uint64_t log_pd = cap_get(ex.gen_cur, f_log_max_pd);
	uint64_t log_td = cap_get(ex.gen_cur, f_log_max_td);
	uint64_t uar_sz = cap_get(ex.gen_cur, f_uar_sz), lups = cap_get(ex.gen_cur, f_lups);
	handles_clear(&ex.pd);
	handles_clear(&ex.td);
	handles_clear(&ex.uar);
	ex.pd.base = ex.td.base = 1;
	ex.pd.limit = 1 + (1ull << log_pd);
	ex.td.limit = 1 + (1ull << log_td);
	/* D-UAR-1: UAR n is at BAR0 + n * 4 KB * 2^lups; the first uar_base 4 KB pages hold the
	 * init segment; the UAR area is 1 MB * 2^uar_sz (T145). */
	uint64_t page = 4096ull << (lups < 32 ? lups : 32);
	ex.uar.base = ((uint64_t)prof.uar_base * 4096 + page - 1) / page;
	ex.uar.limit = lups > 8 + uar_sz ? 1 : 1ull << (8 + uar_sz - lups);
}

static void release_objects(void)
{
	handles_clear(&ex.pd);
	handles_clear(&ex.td);
	handles_clear(&ex.uar);
}

static void pages_returned(uint64_t a)
{
	if (ex.ret_n < RING)
		ex.returned[ex.ret_n++] = a;
	else
		ex.returned[a / PAGE % RING] = a;
}

/* DISABLE_HCA: pages back to the host (D-INIT-7), objects gone, capabilities at their
 * defaults (D-INIT-7), moderation no longer known to the harness (no decision says). */
static void to_disabled(void)
{
	for (uint32_t i = 0; i < ex.held_n; i++)
		pages_returned(ex.held[i]);
	ex.held_n = 0;
	release_objects();
	memcpy(ex.gen_cur, caps_power_on[0], CAP_BYTES);
	memset(ex.delay_known, 0, sizeof ex.delay_known);
	ex.state = NICREF_HCA_DISABLED;
}

static void expect_reset(void)
{
	ex.state = NICREF_HCA_DISABLED;
	ex.issi = 0;
	ex.issi_set = ex.init_queried = false;
	ex.held_n = ex.ret_n = 0;
	ex.next_fresh = 0;
	release_objects();
	ex.pd.last_freed = ex.td.last_freed = ex.uar.last_freed = 0;
	memcpy(ex.gen_cur, caps_power_on[0], CAP_BYTES);
	memset(ex.delay, 0, sizeof ex.delay); /* power-on: every vector 0 */
	for (unsigned v = 0; v < MAX_VECTORS; v++)
		ex.delay_known[v] = true;
}

/* D-PG-2: what QUERY_PAGES answers (T131 op_mod 1 boot, 2 init, 3 regular; T133 sign). */
static int64_t pages_expected(unsigned op_mod)
{
	int64_t held = ex.held_n, boot = prof.boot_pages, init = prof.init_pages;
	bool live = ex.state == NICREF_HCA_ENABLED || ex.state == NICREF_HCA_INITIALIZED;
	switch (op_mod) {
	case 1:
		return boot - held > 0 ? boot - held : 0;
	case 2:
		if (ex.state != NICREF_HCA_ENABLED)
			return 0;
		return boot + init - held > 0 ? boot + init - held : 0;
	default:
		return (live ? boot + init : 0) - held;
	}
}

/* ---- steps ------------------------------------------------------------------------------ */

/* After every op: the device agrees with the harness. */
static void check_step(void)
{
	struct nicref_hca_info info;

	fuzz_oracle_check_dev(&oracle);
	NICREF_FUZZ_CHECK(oracle.transport_violations == 0);
	nicref_hca_info(dev, &info);
	NICREF_FUZZ_CHECK(info.state == ex.state);
	NICREF_FUZZ_CHECK(info.issi == ex.issi);
	NICREF_FUZZ_CHECK(info.pages == ex.held_n);
	NICREF_FUZZ_CHECK(info.pds == ex.pd.n && info.uars == ex.uar.n && info.tds == ex.td.n);
	if (ex.state == NICREF_HCA_ENABLED || ex.state == NICREF_HCA_INITIALIZED ||
	    ex.state == NICREF_HCA_TORN_DOWN)
		for (unsigned k = 0; k < 3; k++)
			NICREF_FUZZ_CHECK(info.query_pages[k] == pages_expected(k + 1));
}

static int host_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return nicref_hostmem_write(ctx, addr, buf, len);
}

static int host_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nicref_hostmem_read(ctx, addr, buf, len);
}

/* One command in flight: what the harness sent and saw. */
struct step {
	enum bringup_op id;
	uint16_t opcode, op_mod;
	uint32_t in_len, out_len;
	bool mod_ok, poke;
	struct cmd_result r;
	bool dropped;
	uint64_t vio_before[NICREF_VIO_COUNT];
	/* content violations the command must raise (the rest must stay at 0) */
	uint64_t want_vio[NICREF_VIO_COUNT];
	bool any_reserved; /* nested structures: any number of reserved-bit violations */
	bool sig_after;    /* signatures expected on the completion */
};

/* Posts in[0..in_len) through slot 0 and reads the completion back. */
static void post(struct step *s)
{
	ex.token = (uint8_t)(ex.token % 255u + 1u);
	struct cmd_post p = {
		.entry_addr = CMDQ_ADDR,
		.in = in,
		.in_len = s->in_len,
		.input_length = s->in_len,
		.output_length = s->out_len,
		.in_mbox = IN_MBOX,
		.out_mbox = OUT_MBOX,
		.token = ex.token,
		.sign = true,
	};
	uint64_t events = oracle.events, done = oracle.cmd_done;
	memcpy(s->vio_before, oracle.vio_by_rule, sizeof s->vio_before);
	NICREF_FUZZ_CHECK(cmd_post_write(&p, host_write, dev) == 0);
	nicref_bar_write32(dev, ISEG_CMDQ_DB, 1u);
	NICREF_FUZZ_CHECK(cmd_result_read(&p, host_read, dev, out, sizeof out, &s->r) == 0);
	if (ex.state == NICREF_HCA_PANIC) {
		/* D-INIT-8: the doorbell is consumed and dropped; nothing is written back. */
		NICREF_FUZZ_CHECK(oracle.events == events && s->r.ownership == 1);
		s->dropped = true;
		return;
	}
	NICREF_FUZZ_CHECK(oracle.cmd_done == done + 1);
	NICREF_FUZZ_CHECK(s->r.ownership == 0 && s->r.delivery == 0);
	NICREF_FUZZ_CHECK(nicref_cmd_status_name(s->r.status) != NULL);
	if (s->r.status != ST_OK) /* D-CMD-6 */
		for (size_t i = 8; i < s->r.out_len; i++)
			NICREF_FUZZ_CHECK(out[i] == 0);
	const struct nicref_event *ev = &oracle.last_done;
	NICREF_FUZZ_CHECK(ev->arg[0] == 0 && ev->arg[1] == s->opcode && ev->arg[2] == s->op_mod);
	NICREF_FUZZ_CHECK(ev->arg[3] == 0 && ev->arg[4] == s->r.status &&
			  ev->arg[5] == s->r.syndrome);
}

static void check_sigs(const struct step *s)
{
	if (!s->dropped && s->sig_after)
		NICREF_FUZZ_CHECK(s->r.entry_sig_ok && s->r.out_sigs_ok);
}

/* The content violations the command raised are exactly those predicted. */
static void check_violations(const struct step *s)
{
	for (unsigned v = 0; v < NICREF_VIO_COUNT; v++) {
		uint64_t got = oracle.vio_by_rule[v] - s->vio_before[v];
		if (v == NICREF_VIO_CMD_RESERVED_NOT_ZERO && s->any_reserved)
			/* strict profile (D-CMD-8): reported iff the command is refused for it */
			NICREF_FUZZ_CHECK((got != 0) ==
					  (oracle.last_rule == NICREF_RULE_RESERVED_NOT_ZERO));
		else if (!fuzz_oracle_transport_violation(v))
			NICREF_FUZZ_CHECK(got == s->want_vio[v]);
	}
}

/* ---- the commands ----------------------------------------------------------------------- */

/* T190: "OS_name,Driver_name,Main.Minor.Sub_minor", Main 1-3 digits, Minor 3, Sub_minor 6;
 * both names present. */
static bool version_ok(const char *v, size_t n)
{
	size_t i = 0, commas = 0, field_start = 0;
	for (; i < n && commas < 2; i++)
		if (v[i] == ',') {
			if (i == field_start)
				return false;
			commas++;
			field_start = i + 1;
		}
	if (commas != 2)
		return false;
	static const unsigned lo[3] = { 1, 3, 6 }, hi[3] = { 3, 3, 6 };
	for (unsigned part = 0; part < 3; part++) {
		size_t d = 0;
		while (i < n && v[i] >= '0' && v[i] <= '9') {
			i++;
			d++;
		}
		if (d < lo[part] || d > hi[part])
			return false;
		if (part < 2) {
			if (i >= n || v[i] != '.')
				return false;
			i++;
		}
	}
	return i == n;
}

static unsigned digits_to(char *p, uint32_t v, unsigned width)
{
	for (unsigned i = width; i-- > 0; v /= 10)
		p[i] = (char)('0' + v % 10);
	return width;
}

/* The pages of a give (op_mod 1), built into in[]; returns the entries written. */
static uint32_t build_give(struct rd *r, uint32_t n, bool *lie)
{
	uint8_t pat = u8(r);
	uint32_t pick = pat >= 0xC0 ? u8(r) : 0;
	for (uint32_t i = 0; i < n; i++)
		put_be(in + 16 + 8 * i, FRESH_BASE + (uint64_t)PAGE * ex.next_fresh++, 8);
	if (n && pat >= 0x80 && pat < 0xC0 && ex.ret_n)
		put_be(in + 16, ex.returned[ex.ret_n - 1], 8);
	*lie = false;
	if (n && pat >= 0xC0) {
		uint32_t at = pick % n;
		switch (pat & 3) {
		case 0:
			if (ex.held_n)
				put_be(in + 16 + 8 * at, ex.held[pick % ex.held_n], 8);
			break;
		case 1:
			memcpy(in + 16 + 8 * at, in + 16, 8);
			break;
		case 2:
			in[16 + 8 * at + 7] |= (uint8_t)((pat >> 2 & 15) + 1);
			break;
		default:
			*lie = true;
			break;
		}
	}
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The all-or-nothing outcome of a give (D-PG-3). */
static unsigned give_outcome(uint32_t n, bool lie)
{
	if (lie)
		return ST_BAD_INPUT_LEN; /* entries beyond input_length (T135) */
	/* T139 alignment; a page held or listed twice (sorted, so one pass finds a pair) */
	bool bad = false;
	memcpy(scratch, ex.held, ex.held_n * sizeof *scratch);
	for (uint32_t i = 0; i < n; i++) {
		scratch[ex.held_n + i] = get_be(in + 16 + 8 * i, 8);
		bad |= (scratch[ex.held_n + i] & 0xFFF) != 0;
	}
	uint32_t total = ex.held_n + n;
	qsort(scratch, total, sizeof *scratch, cmp_u64);
	for (uint32_t i = 1; i < total && !bad; i++)
		bad = scratch[i] == scratch[i - 1];
	/* D-PG-3: the count against the room left first, like a length; then the entries. */
	if ((uint64_t)ex.held_n + n > prof.max_icm_pages)
		return ST_EXCEED_LIM;
	return bad ? ST_BAD_PARAM : ST_OK;
}

static void run_cmd(enum bringup_op id, struct rd *r)
{
	const struct cmd_desc *d = &cmds[id];
	struct step s;
	memset(&s, 0, sizeof s);
	s.id = id;
	s.opcode = d->opcode;
	s.in_len = d->in_len;
	s.out_len = d->out_len;

	uint8_t sel = u8(r), flags = u8(r);
	s.op_mod = sel < 0xE0 ? d->mods[sel % d->nmods] : sel < 0xFF ? sel - 0xE0 : (uint16_t)ube(r, 2);
	s.mod_ok = false;
	for (unsigned i = 0; i < d->nmods; i++)
		s.mod_ok |= d->mods[i] == s.op_mod;
	s.poke = flags >= 0xF0;
	memset(in, 0, 16);

	/* Command operands and prediction inputs. */
	uint32_t n = 0, handle = 0, vec = 0, delay = 0;
	bool lie = false, short_out = false, unterminated = false, well_formed = false;
	uint64_t issi = 0, profile = 0;
	int cap_idx = -1;
	switch (id) {
	case BU_SET_ISSI: {
		uint8_t v = u8(r);
		issi = v < 0x80 ? 1 : v < 0xC0 ? 0 : v < 0xFF ? v - 0xC0u : ube(r, 2);
		put_be(in + 0x0A, issi, 2); /* T186 current_issi 08h[15:0] */
		break;
	}
	case BU_MANAGE_PAGES: {
		uint8_t c = u8(r);
		n = c < 0xF0 ? c : (c - 0xEFu) * 256u;
		if (s.op_mod == 1 && s.mod_ok) {
			n = build_give(r, n, &lie);
			s.in_len = 16 + 8 * n;
			put_be(in + 0x0C, n + lie, 4); /* T135 input_num_entries */
		} else {
			uint8_t pat = u8(r);
			short_out = pat >= 0xC0 && n > 0;
			s.out_len = 16 + 8 * n - (short_out ? 8 : 0);
			put_be(in + 0x0C, n, 4);
		}
		break;
	}
	case BU_QUERY_HCA_CAP:
		for (unsigned i = 0; i < 6; i++)
			if (d->mods[i] == s.op_mod)
				cap_idx = (int)i;
		break;
	case BU_SET_HCA_CAP: {
		/* the capability the harness believes current for the type (T155: bits 15:1) */
		const uint8_t *tmpl = s.op_mod >> 1 == 0 ? ex.gen_cur
				      : s.op_mod >> 1 == 1 ? caps_power_on[2]
							   : caps_power_on[4];
		memcpy(in + 16, tmpl, CAP_BYTES);
		unsigned np = u8(r) % 4;
		for (unsigned k = 0; k < np; k++) {
			uint8_t ps = u8(r), val = u8(r);
			if (ps < 0xC0) {
				const struct nicref_field *f = *rw_fields[ps % 4];
				uint64_t mask = f->bit_width >= 64 ? ~0ull : (1ull << f->bit_width) - 1;
				NICREF_FUZZ_CHECK(nicref_field_set(in + 16, CAP_BYTES, f, val & mask) == 0);
			} else {
				in[16 + ube(r, 2) % CAP_BYTES] = val;
			}
		}
		break;
	}
	case BU_SET_DRIVER_VERSION: {
		char *v = (char *)in + 0x10; /* T190 driver_version 10h-4Ch */
		memset(v, 0, 64);
		switch (u8(r) % 5) {
		case 0:
			memcpy(v, "nicref,bringup,1.000.000000", 27);
			break;
		case 1: {
			uint32_t mj = u8(r), mi = ube(r, 2) % 1000, sub = ube(r, 2);
			memcpy(v, "Linux,mlx5_core,", 16);
			unsigned k = 16;
			k += digits_to(v + k, mj, mj >= 100 ? 3 : mj >= 10 ? 2 : 1);
			v[k++] = '.';
			k += digits_to(v + k, mi, 3);
			v[k++] = '.';
			digits_to(v + k, sub, 6);
			break;
		}
		case 2:
			memcpy(v, "nicref,bringup,1.0.0", 20);
			break;
		case 3: {
			unsigned len = u8(r) % 65;
			for (unsigned i = 0; i < len; i++)
				v[i] = (char)u8(r);
			break;
		}
		default:
			memset(v, 'a', 64);
			break;
		}
		const char *nul = memchr(v, '\0', 64);
		unterminated = nul == NULL;
		well_formed = nul && version_ok(v, (size_t)(nul - v));
		break;
	}
	case BU_DEALLOC_PD:
	case BU_DEALLOC_UAR:
	case BU_DEALLOC_TD: {
		const struct handles *h = id == BU_DEALLOC_PD ? &ex.pd
					  : id == BU_DEALLOC_UAR ? &ex.uar
								: &ex.td;
		uint8_t pick = u8(r);
		if (pick < 0xC0)
			handle = h->n ? h->h[pick % h->n] : h->last_freed;
		else if (pick < 0xE0)
			handle = h->last_freed;
		else if (pick < 0xFF)
			handle = pick - 0xE0u;
		else
			handle = ube(r, 3);
		put_be(in + 0x09, handle, 3); /* T198/T206/T218 08h[23:0] */
		break;
	}
	case BU_CONFIG_INT_MODERATION: {
		uint8_t v = u8(r);
		vec = v < 0xF0 ? v % prof.msix_vectors : ube(r, 2);
		delay = ube(r, 2) & 0xFFF;
		put_be(in + 0x08, (uint32_t)delay << 16 | vec, 4); /* T210 08h */
		break;
	}
	case BU_ACCESS_REG: {
		uint8_t rs = u8(r), ar = u8(r), ln = u8(r), nd = u8(r);
		uint32_t id16 = rs < 0xF0 ? regs[rs % 5].id : ube(r, 2);
		uint32_t arg = ar < 0xF0 ? 0 : ube(r, 4);
		uint32_t size = regs[rs % 5].size;
		uint32_t dlen = ln < 0xC0 ? size : (ln & 0x3Fu) * 4u;
		put_be(in + 0x0A, id16, 2); /* T222 register_id 08h[15:0] */
		put_be(in + 0x0C, arg, 4);  /* argument 0Ch */
		memset(in + 0x10, 0, dlen);
		if (dlen >= 2)
			in[0x11] = 1; /* local_port 00h[23:16] (T106-T114) */
		for (uint32_t i = 0; i < nd; i++) {
			uint8_t b = u8(r);
			if (i < dlen)
				in[0x10 + i] = b;
		}
		s.in_len = 0x10 + dlen;
		s.out_len = 0x10 + dlen;
		s.any_reserved = true; /* register data is the register's (D-CMD-8) */
		break;
	}
	case BU_TEARDOWN_HCA: {
		uint8_t p = u8(r);
		profile = p < 0xA0 ? 0 : p < 0xC0 ? 1 : p < 0xFF ? p - 0xC0u : ube(r, 2);
		put_be(in + 0x0A, profile, 2); /* T170 profile 08h[15:0] */
		break;
	}
	default:
		break;
	}
	if (id == BU_SET_HCA_CAP)
		s.any_reserved = true; /* the capability structure (D-CMD-8) */

	put_be(in, s.opcode, 2);      /* T99 opcode 00h[31:16] */
	put_be(in + 6, s.op_mod, 2);  /* op_mod 04h[15:0] */
	if (s.poke)
		in[2 + (flags & 3)] |= (uint8_t)(1u << (flags >> 2 & 3));

	enum nicref_hca_state before = ex.state;
	s.sig_after = generating();
	post(&s);
	if (s.dropped) {
		check_step();
		return;
	}
	unsigned st = s.r.status;
	bool allowed = d->states & (1u << before);

	/* D-CMD-7: op_mod, then the state, then reserved bits, then the command's own rules. */
	if (!s.mod_ok) {
		NICREF_FUZZ_CHECK(st == ST_BAD_OP);
	} else if (!allowed) {
		NICREF_FUZZ_CHECK(st == ST_BAD_SYS_STATE);
	} else if (s.poke) {
		NICREF_FUZZ_CHECK(st == ST_BAD_PARAM &&
				  oracle.last_rule == NICREF_RULE_RESERVED_NOT_ZERO);
		s.any_reserved = false;
		s.want_vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO] = 1;
	} else {
		switch (id) {
		case BU_ENABLE_HCA:
			NICREF_FUZZ_CHECK(st == ST_OK);
			ex.state = NICREF_HCA_ENABLED;
			ex.issi = 0; /* §7.1: ISSI 0 until SET_ISSI */
			ex.issi_set = ex.init_queried = false;
			break;
		case BU_QUERY_ISSI:
			NICREF_FUZZ_CHECK(st == ST_OK);
			NICREF_FUZZ_CHECK(get_be(out + 0x0A, 2) == ex.issi); /* T184 08h[15:0] */
			for (unsigned b = 0; b < 640; b++) /* T184 supported_issi, bit N = ISSI N */
				NICREF_FUZZ_CHECK((out[0x6F - b / 8] >> (b % 8) & 1) ==
						  (b < 16 && (prof.supported_issi >> b & 1)));
			break;
		case BU_SET_ISSI:
			if (issi < 16 && (prof.supported_issi >> issi & 1)) {
				NICREF_FUZZ_CHECK(st == ST_OK);
				ex.issi = (uint16_t)issi;
				ex.issi_set = true;
			} else {
				NICREF_FUZZ_CHECK(st == ST_BAD_PARAM);
			}
			break;
		case BU_QUERY_PAGES:
			NICREF_FUZZ_CHECK(st == ST_OK);
			NICREF_FUZZ_CHECK((int32_t)get_be(out + 0x0C, 4) == pages_expected(s.op_mod));
			if (s.op_mod == 2)
				ex.init_queried = true;
			break;
		case BU_MANAGE_PAGES:
			if (s.op_mod == 0) { /* ALLOCATION_FAIL: recorded; not after teardown */
				NICREF_FUZZ_CHECK(st == (before == NICREF_HCA_TORN_DOWN ? ST_BAD_SYS_STATE
											  : ST_OK));
			} else if (s.op_mod == 1) {
				unsigned want = before == NICREF_HCA_TORN_DOWN ? ST_BAD_SYS_STATE
									       : give_outcome(n, lie);
				NICREF_FUZZ_CHECK(st == want);
				if (st == ST_OK) {
					NICREF_FUZZ_CHECK(ex.held_n + n <= held_cap);
					for (uint32_t i = 0; i < n; i++)
						ex.held[ex.held_n++] = get_be(in + 16 + 8 * i, 8);
				}
			} else if (short_out) {
				NICREF_FUZZ_CHECK(st == ST_BAD_OUTPUT_LEN); /* T137 */
			} else {
				/* D-PG-3: min(count, spare) pages, the latest given first. */
				int64_t spare = -pages_expected(3);
				uint32_t k = spare <= 0 ? 0 : spare < n ? (uint32_t)spare : n;
				NICREF_FUZZ_CHECK(st == ST_OK && get_be(out + 0x08, 4) == k);
				for (uint32_t i = 0; i < k; i++) {
					uint64_t a = get_be(out + 0x10 + 8 * i, 8);
					NICREF_FUZZ_CHECK(a == ex.held[ex.held_n - 1]);
					pages_returned(a);
					ex.held_n--;
				}
			}
			break;
		case BU_QUERY_HCA_CAP:
			/* the power-on values, and the RW fields SET_HCA_CAP changed (T145) */
			NICREF_FUZZ_CHECK(st == ST_OK && cap_idx >= 0);
			NICREF_FUZZ_CHECK(memcmp(out + 16, s.op_mod == 1 ? ex.gen_cur
									 : caps_power_on[cap_idx],
						 CAP_BYTES) == 0);
			break;
		case BU_SET_HCA_CAP:
			NICREF_FUZZ_CHECK(st == ST_OK || st == ST_BAD_PARAM);
			if (st == ST_OK) {
				/* D-INIT-1, and the RW fields take effect, signatures at once */
				s.want_vio[NICREF_VIO_SET_HCA_CAP_AFTER_INIT_PAGES] = ex.init_queried;
				if (s.op_mod == 0) {
					for (unsigned k = 0; k < 4; k++)
						NICREF_FUZZ_CHECK(nicref_field_set(
									  ex.gen_cur, CAP_BYTES, *rw_fields[k],
									  cap_get(in + 16, *rw_fields[k])) == 0);
					s.sig_after = generating();
				}
			}
			break;
		case BU_INIT_HCA:
			if (ex.held_n >= prof.boot_pages + prof.init_pages) {
				NICREF_FUZZ_CHECK(st == ST_OK);
				s.want_vio[NICREF_VIO_ISSI_NOT_SET] = !ex.issi_set; /* D-INIT-9 */
				ex.state = NICREF_HCA_INITIALIZED;
				open_handles();
			} else {
				NICREF_FUZZ_CHECK(st == ST_NO_RESOURCES); /* §8.2 */
			}
			break;
		case BU_SET_DRIVER_VERSION:
			if (!cap_get(ex.gen_cur, f_driver_version))
				NICREF_FUZZ_CHECK(st == ST_BAD_OP); /* T145 4Ch[30] */
			else if (unterminated)
				NICREF_FUZZ_CHECK(st == ST_BAD_PARAM);
			else
				NICREF_FUZZ_CHECK(st == ST_OK);
			s.want_vio[NICREF_VIO_DRIVER_VERSION_FORMAT] = st == ST_OK && !well_formed;
			break;
		case BU_QUERY_ADAPTER:
		case BU_NOP:
			NICREF_FUZZ_CHECK(st == ST_OK);
			break;
		case BU_ALLOC_PD:
		case BU_ALLOC_UAR:
		case BU_ALLOC_TD: {
			struct handles *h = id == BU_ALLOC_PD ? &ex.pd : id == BU_ALLOC_UAR ? &ex.uar
											      : &ex.td;
			uint64_t want = handle_lowest_free(h);
			if (want >= h->limit) {
				NICREF_FUZZ_CHECK(st == ST_EXCEED_LIM);
			} else {
				/* T196/T204/T216 08h[23:0]; never a live handle; D-OBJ-2 */
				uint32_t got = (uint32_t)get_be(out + 0x09, 3);
				NICREF_FUZZ_CHECK(st == ST_OK && !handle_live(h, got) && got == want);
				handle_add(h, got);
			}
			break;
		}
		case BU_DEALLOC_PD:
		case BU_DEALLOC_UAR:
		case BU_DEALLOC_TD: {
			struct handles *h = id == BU_DEALLOC_PD ? &ex.pd : id == BU_DEALLOC_UAR ? &ex.uar
												 : &ex.td;
			if (handle_live(h, handle)) {
				NICREF_FUZZ_CHECK(st == ST_OK);
				handle_remove(h, handle);
			} else {
				NICREF_FUZZ_CHECK(st == ST_BAD_RESOURCE); /* T128, D-OBJ-2 */
			}
			break;
		}
		case BU_CONFIG_INT_MODERATION:
			if (vec >= prof.msix_vectors) {
				NICREF_FUZZ_CHECK(st == ST_BAD_PARAM); /* T210 */
				break;
			}
			NICREF_FUZZ_CHECK(st == ST_OK);
			if (s.op_mod == 0) {
				ex.delay[vec] = (uint16_t)delay;
				ex.delay_known[vec] = true;
			}
			/* T212: the vector and its setting */
			NICREF_FUZZ_CHECK(get_be(out + 0x0A, 2) == vec);
			if (ex.delay_known[vec])
				NICREF_FUZZ_CHECK((get_be(out + 0x08, 2) & 0xFFF) == ex.delay[vec]);
			break;
		case BU_ACCESS_REG:
			/* the registers are checked by the reg vectors; here only that they exist */
			NICREF_FUZZ_CHECK(st != ST_BAD_OP && st != ST_BAD_SYS_STATE);
			break;
		case BU_TEARDOWN_HCA:
			if (profile > 1) {
				NICREF_FUZZ_CHECK(st == ST_BAD_PARAM); /* T170 */
				break;
			}
			NICREF_FUZZ_CHECK(st == ST_OK);
			release_objects(); /* "releases all HCA allocated resources" (D-INIT-3) */
			ex.state = profile ? NICREF_HCA_PANIC : NICREF_HCA_TORN_DOWN;
			break;
		case BU_DISABLE_HCA:
			NICREF_FUZZ_CHECK(st == ST_OK);
			/* D-INIT-7: only after TEARDOWN_HCA can SW reclaim every page */
			s.want_vio[NICREF_VIO_PAGES_NOT_RECLAIMED] =
				ex.held_n != 0 && ex.state == NICREF_HCA_TORN_DOWN;
			to_disabled();
			break;
		default: /* not a command */
			break;
		}
	}
	/* Strict profile: a command that ran had no reserved bit set. */
	if (st == ST_OK)
		NICREF_FUZZ_CHECK(oracle.vio_by_rule[NICREF_VIO_CMD_RESERVED_NOT_ZERO] ==
				  s.vio_before[NICREF_VIO_CMD_RESERVED_NOT_ZERO]);
	if (!(s.mod_ok && allowed && !s.poke))
		s.any_reserved = false;
	check_sigs(&s);
	check_violations(&s);
	check_step();
}

/* RAW: an opcode the model does not implement answers BAD_OP in every state and changes
 * nothing (T127, D-CMD-7 step 2). */
static void run_raw(struct rd *r)
{
	struct step s;
	memset(&s, 0, sizeof s);
	s.opcode = (uint16_t)ube(r, 2);
	s.op_mod = (uint16_t)ube(r, 2);
	if (nicref_opcode_modelled(s.opcode))
		s.opcode ^= 0x8000;
	s.in_len = s.out_len = 16;
	memset(in, 0, 16);
	put_be(in, s.opcode, 2);
	put_be(in + 6, s.op_mod, 2);
	s.sig_after = generating();
	post(&s);
	if (!s.dropped)
		NICREF_FUZZ_CHECK(s.r.status == ST_BAD_OP);
	check_sigs(&s);
	check_violations(&s);
	check_step();
}

/* ---- the reference driver --------------------------------------------------------------- */

static void drv_prepare(void)
{
	drv.check_out_sigs = generating();
	drv.mistakes = 0;
	drv.error[0] = '\0';
}

/* §8.2 from DISABLED: a correct driver, so no violation and no error. */
/* BRING_UP's operand, stage % 7: fixed, so a stage the reference driver gains does not change
 * what an input means. */
static const enum refdrv_stage bu_stages[] = {
	REFDRV_QUEUE,	    REFDRV_ENABLED,	 REFDRV_ISSI,	     REFDRV_BOOT_PAGES,
	REFDRV_CAPS,	    REFDRV_INIT_PAGES, REFDRV_INITIALIZED,
};

static void run_bring_up(unsigned stage)
{
	if (ex.state != NICREF_HCA_DISABLED)
		return;
	drv_prepare();
	drv.reached = REFDRV_QUEUE; /* the queue address stays latched (driver.h) */
	drv.npages = 0;
	drv.next_page = 0; /* a disabled device holds no page: the addresses are free */
	uint64_t violations = oracle.violations;
	NICREF_FUZZ_CHECK(refdrv_bring_up(&drv, (enum refdrv_stage)stage) == 0);
	NICREF_FUZZ_CHECK(oracle.violations == violations);
	if (stage >= REFDRV_ENABLED) {
		ex.state = NICREF_HCA_ENABLED;
		ex.issi = 0;
		ex.issi_set = ex.init_queried = false;
	}
	if (stage >= REFDRV_ISSI) {
		ex.issi = drv.issi;
		ex.issi_set = true;
	}
	for (uint32_t i = 0; i < drv.npages; i++)
		ex.held[ex.held_n++] = drv.pages[i];
	if (stage >= REFDRV_INIT_PAGES)
		ex.init_queried = true;
	if (stage >= REFDRV_INITIALIZED) {
		ex.state = NICREF_HCA_INITIALIZED;
		open_handles();
	}
	check_step();
}

/* §8.3 from INITIALIZED: the driver learns the pages the harness gave, and reclaims them all. */
static void run_drv_teardown(void)
{
	if (ex.state != NICREF_HCA_INITIALIZED)
		return;
	drv_prepare();
	if (ex.held_n > drv.pages_cap) {
		uint64_t *p = realloc(drv.pages, ex.held_n * sizeof *p);
		NICREF_FUZZ_CHECK(p != NULL);
		drv.pages = p;
		drv.pages_cap = ex.held_n;
	}
	/* Any order is correct; this one (latest first, then the rest as given) keeps the driver's
	 * search of its list O(1) per page while the device returns the latest first (D-PG-3). */
	if (ex.held_n) {
		drv.pages[0] = ex.held[ex.held_n - 1];
		memcpy(drv.pages + 1, ex.held, (ex.held_n - 1) * sizeof *ex.held);
	}
	drv.npages = ex.held_n;
	uint64_t violations = oracle.violations;
	NICREF_FUZZ_CHECK(refdrv_teardown(&drv) == 0);
	NICREF_FUZZ_CHECK(oracle.violations == violations);
	to_disabled();
	check_step();
}

/* Power-on, then the queue address (§8.2), which stays latched until the next reset. */
static void device_reset(void)
{
	nicref_dev_reset(dev);
	fuzz_oracle_reset(&oracle);
	expect_reset();
	NICREF_FUZZ_CHECK(nicref_clock_now(dev) == 0);
	drv_prepare();
	drv.reached = -1;
	NICREF_FUZZ_CHECK(refdrv_bring_up(&drv, REFDRV_QUEUE) == 0);
	NICREF_FUZZ_CHECK(oracle.ready && oracle.violations == 0);
	check_step();
}

/* ---- the target ------------------------------------------------------------------------- */

static const struct nicref_field *hca_field(const char *name)
{
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find("hca_cap"), name);
	NICREF_FUZZ_CHECK(f != NULL);
	return f;
}

static int bringup_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	if (!dev)
		return -1;
	nicref_profile_default(&prof);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	held_cap = prof.max_icm_pages + MAX_GIVE;
	ex.held = malloc(held_cap * sizeof *ex.held);
	scratch = malloc((held_cap + MAX_GIVE + 1) * sizeof *scratch);
	if (!ex.held || !scratch || refdrv_init(&drv, &ops) != 0 || prof.msix_vectors > MAX_VECTORS)
		return -1;
	f_cmdif = hca_field("cmdif_checksum");
	f_cl128 = hca_field("cache_line_128byte");
	f_log_max_sq = hca_field("log_max_sq");
	f_lups = hca_field("log_uar_page_sz");
	f_uar_sz = hca_field("uar_sz");
	f_log_max_pd = hca_field("log_max_pd");
	f_log_max_td = hca_field("log_max_transport_domain");
	f_driver_version = hca_field("driver_version");

	/* The device's power-on capabilities, learnt once: the reference driver up to the boot
	 * pages, then QUERY_HCA_CAP of every type, maximum and current. */
	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(&oracle);
	if (refdrv_bring_up(&drv, REFDRV_BOOT_PAGES) != 0)
		return -1;
	for (unsigned i = 0; i < 6; i++) {
		uint8_t q[16] = { 0 };
		uint16_t m = cmds[BU_QUERY_HCA_CAP].mods[i];
		put_be(q, NICREF_OP_QUERY_HCA_CAP, 2);
		put_be(q + 6, m, 2);
		if (refdrv_cmd(&drv, q, sizeof q, out, 16 + CAP_BYTES) != 0)
			return -1;
		memcpy(caps_power_on[i], out + 16, CAP_BYTES);
	}
	return 0;
}

static void bringup_one_input(const uint8_t *data, size_t len)
{
	struct rd r = { data, len, 0 };

	nicref_hostmem_clear(dev);
	device_reset();
	for (unsigned ops = 0; r.i < r.n && ops < MAX_OPS; ops++) {
		unsigned op = u8(&r);
		if (op >= BU_OP_COUNT) /* reserved */
			continue;
		static const char *const drv_ops[] = { "BRING_UP", "DRV_TEARDOWN", "ADVANCE", "RESET",
							"RAW" };
		_Static_assert(sizeof drv_ops / sizeof drv_ops[0] == BU_OP_COUNT - BU_CMD_COUNT,
			       "a name per op that is not a command");
		fuzz_trace("op 0x%02x %s at byte %zu", op,
			   op < BU_CMD_COUNT ? nicref_opcode_name(cmds[op].opcode)
					     : drv_ops[op - BU_CMD_COUNT],
			   r.i - 1);
		switch (op) {
		case BU_BRING_UP:
			run_bring_up(bu_stages[u8(&r) % (sizeof bu_stages / sizeof bu_stages[0])]);
			break;
		case BU_DRV_TEARDOWN:
			run_drv_teardown();
			break;
		case BU_ADVANCE: {
			uint64_t t = nicref_clock_now(dev), us = ube(&r, 2);
			nicref_clock_advance(dev, us * 1000);
			NICREF_FUZZ_CHECK(nicref_clock_now(dev) == t + us * 1000);
			check_step();
			break;
		}
		case BU_RESET:
			device_reset();
			break;
		case BU_RAW:
			run_raw(&r);
			break;
		default:
			run_cmd((enum bringup_op)op, &r);
			break;
		}
	}
}

NICREF_FUZZ_TARGET(bringup_init, bringup_one_input)
