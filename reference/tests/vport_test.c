/* The NIC vport (PRM §7.3 T15-T20), the vport commands (§12.16 T470-T485) and the vport
 * counters (§12.17 T486-T492), with the decisions of docs/vport.md (D-VP-*).
 *
 * Commands are built byte by byte at the offsets the PRM tables print (big-endian dwords, "Byte
 * Endianness") and run through the reference driver's command transport (refdrv_cmd); outputs
 * are read back at the PRM's offsets. Expected values come from the PRM or from the decisions,
 * never from what the model prints. The round-trip test also walks the layout registry so a
 * context field added to the layout without a test here fails. The counters are driven through
 * the internal API the data path uses (obj/vport.h). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "driver.h"
#include "nicref/nicref.h"
#include "prm/layouts.h"

#define OP_QUERY_VPORT_STATE 0x750u
#define OP_MODIFY_VPORT_STATE 0x751u
#define OP_QUERY_NIC_VPORT_CONTEXT 0x754u
#define OP_MODIFY_NIC_VPORT_CONTEXT 0x755u
#define OP_QUERY_VPORT_COUNTER 0x770u

/* T128. */
#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_PARAM 0x03u
#define BAD_INPUT_LEN 0x50u
#define BAD_OUTPUT_LEN 0x51u

/* Sizes of the layout grids (T470-T490) and the context offsets (T480, T482). */
#define Q_CTX 0x10u    /* context in QUERY_NIC_VPORT_CONTEXT output */
#define M_CTX 0x100u   /* context in MODIFY_NIC_VPORT_CONTEXT input */
#define CTX_FIXED 0x100u
#define M_IN (M_CTX + CTX_FIXED)  /* 200h: the first list element of MODIFY */
#define Q_OUT (Q_CTX + CTX_FIXED) /* 110h: the first list element of QUERY */

/* The T483 field_select bits. */
#define FS_LIST (1u << 2)
#define FS_PROMISC (1u << 4)
#define FS_MTU (1u << 6)

/* HCA_CAP defaults (core/caps_default.c, T145 7Ch/90h). */
#define MAX_UC 128u   /* 2^7 */
#define MAX_MC 1024u  /* 2^10 */

/* D-VP-3 power-on values. */
#define PERMANENT_MAC 0x024E49435246ull
#define MIN_INLINE_L2 1u

static struct nicref_dev *dev;
static struct refdrv drv;
static unsigned violations, last_vio;
static uint64_t last_vio_arg;

static void on_event(void *ctx, const struct nicref_event *ev)
{
	(void)ctx;
	if (ev->kind == NICREF_EV_VIOLATION) {
		violations++;
		last_vio = (unsigned)ev->arg[0];
		last_vio_arg = ev->arg[1];
	}
}

static void setup(void)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.trace = on_event;
	violations = 0;
	dev = nicref_dev_create(&cfg);
	cr_assert_not_null(dev);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	cr_assert_eq(refdrv_init(&drv, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&drv, REFDRV_INITIALIZED), 0, "%s", drv.error);
	cr_assert_eq(violations, 0);
}

static void teardown(void)
{
	cr_expect_eq(nicref_dev_check(dev), 0, "invariants broken: %d", nicref_dev_check(dev));
	refdrv_fini(&drv);
	nicref_dev_destroy(dev);
	dev = NULL;
}

TestSuite(vport, .init = setup, .fini = teardown);

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

static uint64_t get64(const uint8_t *b, unsigned off)
{
	return (uint64_t)get32(b + off) << 32 | get32(b + off + 4);
}

/* T19: mac[47:32] at 00h[15:0], mac[31:0] at 04h. */
static void put_mac(uint8_t *b, unsigned off, uint64_t mac)
{
	setf(b, off, 15, 0, (uint32_t)(mac >> 32));
	put32(b + off + 4, (uint32_t)mac);
}

static uint64_t get_mac(const uint8_t *b, unsigned off)
{
	return (uint64_t)getf(b, off, 15, 0) << 32 | get32(b + off + 4);
}

static void header(uint8_t *in, unsigned opcode, unsigned op_mod)
{
	setf(in, 0x00, 31, 16, opcode);
	setf(in, 0x04, 15, 0, op_mod);
}

/* Runs one command; returns its status (the command must complete). */
static unsigned run(const uint8_t *in, uint32_t in_len, uint8_t *out, uint32_t out_len)
{
	int st = refdrv_cmd(&drv, in, in_len, out, out_len);
	cr_assert_geq(st, 0, "command did not complete: %s", drv.error);
	return (unsigned)st;
}

static void expect_refused(unsigned status, unsigned rule)
{
	cr_expect_eq(drv.last_status, status, "status 0x%x, expected 0x%x", drv.last_status,
		     status);
	cr_expect_eq(drv.last_syndrome, nicref_cmd_rule_syndrome(rule), "rule %s expected",
		     nicref_cmd_rule_name(rule));
}

static void set_cap(const struct nicref_field *f, uint64_t v)
{
	prm_set(dev->caps.cur[CAP_GENERAL], CAP_BYTES, f, v);
}

/* ---- QUERY/MODIFY_VPORT_STATE --------------------------------------------------------------- */

static void query_state(unsigned *admin, unsigned *state)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	header(in, OP_QUERY_VPORT_STATE, 0);
	cr_assert_eq(run(in, sizeof in, out, sizeof out), OK);
	*admin = getf(out, 0x0C, 7, 4); /* T473 */
	*state = getf(out, 0x0C, 3, 0);
}

static unsigned modify_state(unsigned admin)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	header(in, OP_MODIFY_VPORT_STATE, 0);
	setf(in, 0x0C, 7, 4, admin); /* T475 */
	return run(in, sizeof in, out, sizeof out);
}

Test(vport, state_at_power_on_is_up)
{
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1, "D-VP-3: administratively up at power-on");
	cr_expect_eq(state, 1, "T473: the port (up at power-on, D-REG-20) carries the vport");
}

Test(vport, admin_state_down_and_up)
{
	unsigned admin, state;
	cr_assert_eq(modify_state(0), OK);
	query_state(&admin, &state);
	cr_expect_eq(admin, 0, "T475 0x0: down");
	cr_expect_eq(state, 0, "D-VP-2: a vport SW wants down is down");
	cr_assert_eq(modify_state(1), OK);
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	cr_expect_eq(state, 1);
}

Test(vport, admin_state_values_beyond_up_refused)
{
	for (unsigned v = 2; v < 16; v++) {
		cr_assert_eq(modify_state(v), BAD_PARAM, "admin_state %u", v);
		expect_refused(BAD_PARAM, NICREF_RULE_VPORT_ADMIN_STATE_INVALID);
	}
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1, "a refused command changes nothing");
}

Test(vport, state_follows_the_physical_port)
{
	unsigned admin, state;
	port_set_peer(dev, 1, false, 0); /* the link partner goes away: port 1 down */
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	cr_expect_eq(state, 0, "T473 state: the port is down");
	cr_expect(!vport_is_up(dev));
	port_set_peer(dev, 1, true, UINT32_MAX);
	query_state(&admin, &state);
	cr_expect_eq(state, 1);
	cr_expect(vport_is_up(dev));
}

Test(vport, op_mod_other_than_zero_refused)
{
	/* T471 "0: vnic_vport", T475 "0: nic_vport", T488 "others: reserved" (T100). */
	static const unsigned ops[] = { OP_QUERY_VPORT_STATE, OP_MODIFY_VPORT_STATE,
					OP_QUERY_NIC_VPORT_CONTEXT, OP_MODIFY_NIC_VPORT_CONTEXT,
					OP_QUERY_VPORT_COUNTER };
	for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		uint8_t in[0x200] = { 0 }, out[0x210] = { 0 };
		header(in, ops[k], 1);
		cr_expect_eq(run(in, sizeof in, out, sizeof out), BAD_OP, "opcode 0x%x", ops[k]);
		expect_refused(BAD_OP, NICREF_RULE_BAD_OP_MOD);
	}
}

/* ---- QUERY/MODIFY_NIC_VPORT_CONTEXT --------------------------------------------------------- */

/* QUERY of list `type` into out (out_len bytes); returns the status. */
static unsigned query_ctx(unsigned type, uint8_t *out, uint32_t out_len)
{
	uint8_t in[0x10] = { 0 };
	header(in, OP_QUERY_NIC_VPORT_CONTEXT, 0);
	setf(in, 0x0C, 26, 24, type); /* T479 */
	memset(out, 0xEE, out_len);
	return run(in, sizeof in, out, out_len);
}

/* A MODIFY input with room for n list elements, header and field_select set. */
static uint8_t *modify_in(uint32_t fs, uint32_t n, uint32_t *len)
{
	*len = M_IN + 8 * n;
	uint8_t *in = calloc(1, *len);
	cr_assert_not_null(in);
	header(in, OP_MODIFY_NIC_VPORT_CONTEXT, 0);
	put32(in + 0x0C, fs); /* T483 */
	return in;
}

static unsigned modify_run(uint8_t *in, uint32_t len)
{
	uint8_t out[0x10];
	unsigned st = run(in, len, out, sizeof out);
	free(in);
	return st;
}

/* MODIFY of one list: type, n elements from v[]. */
static unsigned modify_list(unsigned type, uint32_t n, const uint64_t *v)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST, n, &len);
	setf(in, M_CTX + 0xF0, 26, 24, type); /* T16 allowed_list_type */
	setf(in, M_CTX + 0xF0, 11, 0, n);     /* allowed_list_size */
	for (uint32_t i = 0; i < n; i++) {
		if (type == 2)
			setf(in, M_IN + 8 * i, 11, 0, (uint32_t)v[i]); /* T17 */
		else
			put_mac(in, M_IN + 8 * i, v[i]); /* T19 */
	}
	return modify_run(in, len);
}

static unsigned modify_mtu(unsigned mtu)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU, 0, &len);
	setf(in, M_CTX + 0x24, 15, 0, mtu);
	return modify_run(in, len);
}

Test(vport, context_at_power_on)
{
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x00, 26, 24), MIN_INLINE_L2, "D-VP-3: L2");
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 0, "T16: 0 = the physical port's MTU");
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 31, 29), 0, "no promiscuous mode");
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 26, 24), 0, "the list asked for");
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 11, 0), 0, "no current addresses");
	cr_expect_eq(get_mac(out, Q_CTX + 0xF4), PERMANENT_MAC, "D-VP-3 permanent address");
	cr_expect_eq(getf(out, Q_CTX + 0xF4, 31, 16), 0, "T19 00h[31:16] reserved");
	cr_expect_eq(vport_min_wqe_inline_mode(dev), MIN_INLINE_L2, "the SQ's accessor agrees");
}

/* Every field of the context layout, with how a driver writes it (T483 field_select bit) and a
 * value other than its power-on one; device-owned fields have no bit (D-VP-3). */
struct ctx_field {
	const char *name;
	uint32_t fs;  /* 0: not writable */
	uint64_t value;
	uint64_t power_on;
};
static const struct ctx_field ctx_fields[] = {
	{ "min_wqe_inline_mode", 0, 3, MIN_INLINE_L2 },
	{ "mtu", FS_MTU, 9000, 0 },
	{ "promisc_uc", FS_PROMISC, 1, 0 },
	{ "promisc_mc", FS_PROMISC, 1, 0 },
	{ "promisc_all", FS_PROMISC, 1, 0 },
	{ "allowed_list_type", FS_LIST, 1, 0 },
	{ "allowed_list_size", FS_LIST, 3, 0 },
	{ "permanent_address_47_32", 0, 0x1234, PERMANENT_MAC >> 32 },
	{ "permanent_address_31_0", 0, 0x89ABCDEF, PERMANENT_MAC & 0xFFFFFFFFu },
	{ "addresses_list", FS_LIST, 0, 0 }, /* elements: see the list tests */
};

static const struct ctx_field *ctx_field_find(const char *name)
{
	for (size_t k = 0; k < sizeof ctx_fields / sizeof ctx_fields[0]; k++)
		if (strcmp(ctx_fields[k].name, name) == 0)
			return &ctx_fields[k];
	return NULL;
}

/* The QUERY round trip (issue 4 "done when"): each writable field set alone through its
 * field_select bit comes back as set, and every other field keeps its value. */
Test(vport, round_trip_every_writable_field)
{
	const struct nicref_layout *l = &nicref_layout_nic_vport_context;
	for (uint32_t i = 0; i < l->nfields; i++)
		cr_assert_not_null(ctx_field_find(l->fields[i].name),
				   "context field %s has no round-trip row", l->fields[i].name);
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		const struct ctx_field *cf = ctx_field_find(f->name);
		if (f->flags & NICREF_FIELD_ARRAY)
			continue; /* the list elements: list_round_trip_* below */
		/* MODIFY with only this field (and its selecting bit) non-zero; the list type and
		 * size travel together (size 3 of type 1 needs 3 mc elements). */
		uint32_t n = strcmp(f->name, "allowed_list_size") == 0 ? (uint32_t)cf->value : 0;
		uint32_t len;
		uint8_t *in = modify_in(cf->fs, n, &len);
		struct nicref_field at = *f;
		at.bit_offset += M_CTX * 8;
		cr_assert_eq(nicref_field_set(in, len, &at, cf->value), 0);
		for (uint32_t k = 0; k < n; k++)
			put_mac(in, M_IN + 8 * k, 0x0000000000A0ull + k);
		cr_assert_eq(modify_run(in, len), OK, "MODIFY of %s", f->name);

		/* QUERY of the list type the field concerns: 0, or 1 for the list fields. */
		unsigned qtype = cf->fs == FS_LIST ? (strcmp(f->name, "allowed_list_type") == 0
							      ? (unsigned)cf->value
							      : 0)
						   : 0;
		uint8_t out[Q_OUT + 8 * 8];
		cr_assert_eq(query_ctx(qtype, out, sizeof out), OK);
		for (uint32_t j = 0; j < l->nfields; j++) {
			const struct nicref_field *g = &l->fields[j];
			if (g->flags & NICREF_FIELD_ARRAY)
				continue;
			struct nicref_field gq = *g;
			gq.bit_offset += Q_CTX * 8;
			uint64_t got;
			cr_assert_eq(nicref_field_get(out, sizeof out, &gq, &got), 0);
			const struct ctx_field *cg = ctx_field_find(g->name);
			uint64_t want = cg->power_on;
			if (j == i && cf->fs)
				want = cf->value; /* the field written comes back */
			else if (strcmp(g->name, "allowed_list_type") == 0)
				want = qtype; /* echoes the list asked for */
			cr_expect_eq(got, want, "after MODIFY of %s: %s = 0x%llx, expected 0x%llx",
				     f->name, g->name, (unsigned long long)got,
				     (unsigned long long)want);
		}
		/* back to power-on for the next field */
		vport_dev_reset(dev);
	}
}

/* The same fields at the offsets T16 prints, once: the layout is what the PRM says. */
Test(vport, round_trip_at_prm_offsets)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU | FS_PROMISC, 0, &len);
	setf(in, M_CTX + 0x24, 15, 0, 1500);
	setf(in, M_CTX + 0xF0, 31, 31, 1);
	setf(in, M_CTX + 0xF0, 29, 29, 1);
	cr_assert_eq(modify_run(in, len), OK);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 1500);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 31, 31), 1, "promisc_uc");
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 30, 30), 0, "promisc_mc");
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 29, 29), 1, "promisc_all");
	/* promisc bits are all written by bit 4: clearing them takes a MODIFY with zeros */
	in = modify_in(FS_PROMISC, 0, &len);
	cr_assert_eq(modify_run(in, len), OK);
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 31, 29), 0);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 1500, "mtu not selected: kept");
}

Test(vport, unselected_fields_are_ignored)
{
	cr_assert_eq(modify_mtu(4000), OK);
	/* field_select 0: every field of the input is ignored, even the device-owned ones */
	uint32_t len;
	uint8_t *in = modify_in(0, 0, &len);
	setf(in, M_CTX + 0x00, 26, 24, 7);
	setf(in, M_CTX + 0x24, 15, 0, 100);
	setf(in, M_CTX + 0xF0, 31, 29, 7);
	setf(in, M_CTX + 0xF0, 26, 24, 5); /* an invalid type, not selected */
	put_mac(in, M_CTX + 0xF4, 0x0A0B0C0D0E0Full);
	cr_assert_eq(modify_run(in, len), OK);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x00, 26, 24), MIN_INLINE_L2);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 4000);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 31, 29), 0);
	cr_expect_eq(get_mac(out, Q_CTX + 0xF4), PERMANENT_MAC, "D-VP-3: not writable");
}

Test(vport, field_select_unknown_bits_refused)
{
	/* T483 defines bits 2, 4 and 6 (D-VP-5). */
	for (unsigned b = 0; b < 32; b++) {
		if (b == 2 || b == 4 || b == 6)
			continue;
		uint32_t len;
		uint8_t *in = modify_in(FS_MTU | (1u << b), 0, &len);
		setf(in, M_CTX + 0x24, 15, 0, 1234);
		cr_assert_eq(modify_run(in, len), BAD_PARAM, "bit %u", b);
		expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_FIELD_SELECT_UNKNOWN);
	}
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 0, "the mtu was not changed");
}

static void expect_list(unsigned type, uint32_t n, const uint64_t *v)
{
	uint32_t olen = Q_OUT + 8 * n;
	uint8_t *out = calloc(1, olen);
	cr_assert_not_null(out);
	cr_assert_eq(query_ctx(type, out, olen), OK);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 26, 24), type);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 11, 0), n, "list %u size", type);
	for (uint32_t i = 0; i < n; i++) {
		if (type == 2) {
			cr_expect_eq(getf(out, Q_OUT + 8 * i, 11, 0), v[i], "vlan[%u]", i);
			cr_expect_eq(getf(out, Q_OUT + 8 * i, 31, 12), 0, "T17 reserved");
			cr_expect_eq(get32(out + Q_OUT + 8 * i + 4), 0, "T17 04h reserved");
		} else {
			cr_expect_eq(get_mac(out, Q_OUT + 8 * i), v[i], "mac[%u]", i);
			cr_expect_eq(getf(out, Q_OUT + 8 * i, 31, 16), 0, "T19 reserved");
		}
	}
	free(out);
}

Test(vport, list_round_trip_each_type)
{
	static const uint64_t uc[] = { 0x001122334455ull, 0x02AABBCCDDEEull };
	static const uint64_t mc[] = { 0x01005E000001ull, 0x333300000001ull, 0x01005E7FFFFAull };
	static const uint64_t vl[] = { 0, 1, 100, 4095 };
	cr_assert_eq(modify_list(0, 2, uc), OK);
	cr_assert_eq(modify_list(1, 3, mc), OK);
	cr_assert_eq(modify_list(2, 4, vl), OK);
	/* T16: one list per allowed_list_type; each MODIFY replaced only its own */
	expect_list(0, 2, uc);
	expect_list(1, 3, mc);
	expect_list(2, 4, vl);
	/* a shorter list replaces the whole list; an empty one clears it */
	cr_assert_eq(modify_list(1, 1, mc + 2), OK);
	expect_list(1, 1, mc + 2);
	cr_assert_eq(modify_list(0, 0, NULL), OK);
	expect_list(0, 0, NULL);
	expect_list(2, 4, vl);
	cr_expect_eq(dev->vport->list_len[0], 0);
	cr_expect_null(dev->vport->list[0], "an empty list holds no memory");
}

Test(vport, list_sizes_up_to_the_capabilities)
{
	/* D-VP-1: allowed_list_size <= 2^log_max_current_uc_list / _mc_list. */
	uint64_t *v = calloc(0xFFF, sizeof *v);
	cr_assert_not_null(v);
	for (uint32_t i = 0; i <= MAX_MC; i++)
		v[i] = 0x01005E000000ull + i;
	cr_expect_eq(modify_list(0, MAX_UC, v), OK);
	cr_expect_eq(modify_list(0, MAX_UC + 1, v), BAD_PARAM);
	expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_UC_LIST_TOO_LONG);
	expect_list(0, MAX_UC, v);
	cr_expect_eq(modify_list(1, MAX_MC, v), OK);
	cr_expect_eq(modify_list(1, MAX_MC + 1, v), BAD_PARAM);
	expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_MC_LIST_TOO_LONG);
	expect_list(1, MAX_MC, v);
	/* The vlan bound (2^12) is beyond the 12-bit allowed_list_size with the default
	 * capabilities: the longest list the field can state is taken ... */
	for (uint32_t i = 0; i < 0xFFF; i++)
		v[i] = i;
	cr_expect_eq(modify_list(2, 0xFFF, v), OK);
	expect_list(2, 0xFFF, v);
	/* ... and a smaller log_max_vlan_list shows the rule. */
	set_cap(PRM_FIELD(hca_cap, log_max_vlan_list), 2);
	cr_expect_eq(modify_list(2, 4, v), OK);
	cr_expect_eq(modify_list(2, 5, v), BAD_PARAM);
	expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_VLAN_LIST_TOO_LONG);
	expect_list(2, 4, v);
	free(v);
}

Test(vport, list_type_beyond_vlan_refused)
{
	uint64_t mac = 0x001122334455ull;
	for (unsigned t = 3; t < 8; t++) {
		cr_expect_eq(modify_list(t, 1, &mac), BAD_PARAM, "MODIFY type %u", t);
		expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID);
		uint8_t out[Q_OUT];
		cr_expect_eq(query_ctx(t, out, sizeof out), BAD_PARAM, "QUERY type %u", t);
		expect_refused(BAD_PARAM, NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID);
	}
	expect_list(0, 0, NULL);
}

Test(vport, list_beyond_input_length_refused)
{
	/* D-VP-6: allowed_list_size 3 with room for 2 elements. */
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST | FS_MTU, 2, &len);
	setf(in, M_CTX + 0xF0, 11, 0, 3);
	setf(in, M_CTX + 0x24, 15, 0, 2000);
	put_mac(in, M_IN, 0x001122334455ull);
	put_mac(in, M_IN + 8, 0x001122334456ull);
	cr_expect_eq(modify_run(in, len), BAD_INPUT_LEN);
	expect_refused(BAD_INPUT_LEN, NICREF_RULE_NIC_VPORT_LIST_BEYOND_INPUT);
	expect_list(0, 0, NULL);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 0, "nothing of the refused command kept");
}

Test(vport, list_element_reserved_bits_refused)
{
	/* T19 00h[31:16] is reserved; strict profile (D-CMD-8): BAD_PARAM and a violation
	 * naming input offset 208h (element 1) and the bits. */
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST, 2, &len);
	setf(in, M_CTX + 0xF0, 11, 0, 2);
	put_mac(in, M_IN, 0x001122334455ull);
	put_mac(in, M_IN + 8, 0x001122334456ull);
	setf(in, M_IN + 8, 31, 16, 0x8001);
	cr_expect_eq(modify_run(in, len), BAD_PARAM);
	expect_refused(BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_expect_eq(violations, 1);
	cr_expect_eq(last_vio, NICREF_VIO_CMD_RESERVED_NOT_ZERO);
	cr_expect_eq(last_vio_arg, (uint64_t)(M_IN + 8) << 32 | 0x80010000u);
	expect_list(0, 0, NULL);
	/* T17: a vlan element uses 00h[11:0] only */
	violations = 0;
	in = modify_in(FS_LIST, 1, &len);
	setf(in, M_CTX + 0xF0, 26, 24, 2);
	setf(in, M_CTX + 0xF0, 11, 0, 1);
	put32(in + M_IN + 4, 1);
	cr_expect_eq(modify_run(in, len), BAD_PARAM);
	cr_expect_eq(last_vio_arg, (uint64_t)(M_IN + 4) << 32 | 1u);
	violations = 0;
}

Test(vport, query_list_fills_the_output_it_is_given)
{
	/* D-VP-6: four addresses, room for two: two written, the size says four. */
	static const uint64_t uc[] = { 0x0000000000A1ull, 0x0000000000A2ull, 0x0000000000A3ull,
				       0x0000000000A4ull };
	cr_assert_eq(modify_list(0, 4, uc), OK);
	uint8_t out[Q_OUT + 8 * 4];
	uint8_t in[0x10] = { 0 };
	header(in, OP_QUERY_NIC_VPORT_CONTEXT, 0);
	memset(out, 0xEE, sizeof out);
	cr_assert_eq(run(in, sizeof in, out, Q_OUT + 16), OK);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 11, 0), 4);
	cr_expect_eq(get_mac(out, Q_OUT), uc[0]);
	cr_expect_eq(get_mac(out, Q_OUT + 8), uc[1]);
	/* the fixed part alone: the minimum output (D-VP-4) */
	cr_assert_eq(run(in, sizeof in, out, Q_OUT), OK);
	cr_expect_eq(getf(out, Q_CTX + 0xF0, 11, 0), 4);
	cr_expect_eq(run(in, sizeof in, out, Q_OUT - 4), BAD_OUTPUT_LEN);
	expect_refused(BAD_OUTPUT_LEN, NICREF_RULE_OUTPUT_TOO_SHORT);
}

Test(vport, minimum_lengths_are_the_fixed_parts)
{
	/* D-VP-4: MODIFY input 200h (T482 context at 100h, fixed part 100h). */
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU, 0, &len);
	cr_expect_eq(modify_run(in, len - 4), BAD_INPUT_LEN);
	expect_refused(BAD_INPUT_LEN, NICREF_RULE_INPUT_TOO_SHORT);
}

Test(vport, mtu_any_value_stored)
{
	/* D-VP-7: T16 states no bound. */
	static const unsigned v[] = { 1, 68, 1500, 9000, 0xFFFF, 0 };
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
		cr_assert_eq(modify_mtu(v[k]), OK);
		uint8_t out[Q_OUT];
		cr_assert_eq(query_ctx(0, out, sizeof out), OK);
		cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), v[k]);
		cr_expect_eq(dev->vport->mtu, v[k]);
	}
}

/* ---- QUERY_VPORT_COUNTER -------------------------------------------------------------------- */

/* T489 offsets, in enum vport_counter order. */
static const unsigned cnt_off[VPORT_CNT_COUNT] = { 0x10, 0x20, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0 };

static unsigned query_counters(bool clear, uint8_t out[0x210])
{
	uint8_t in[0x20] = { 0 };
	header(in, OP_QUERY_VPORT_COUNTER, 0);
	setf(in, 0x18, 31, 31, clear); /* T488 */
	memset(out, 0xEE, 0x210);
	return run(in, sizeof in, out, 0x210);
}

Test(vport, counters_zero_at_power_on)
{
	uint8_t out[0x210];
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(get64(out, cnt_off[k]), 0, "counter %u packets", k);
		cr_expect_eq(get64(out, cnt_off[k] + 8), 0, "counter %u octets", k);
	}
	/* reserved parts of the output stay zero (08h-0Ch, 30h-6Ch, D0h-20Ch) */
	for (unsigned o = 0x30; o < 0x70; o += 4)
		cr_expect_eq(get32(out + o), 0, "reserved %xh", o);
	for (unsigned o = 0xD0; o < 0x210; o += 4)
		cr_expect_eq(get32(out + o), 0, "reserved %xh", o);
}

Test(vport, counters_count_and_clear)
{
	/* Each counter k counts k + 1 packets of 64 + k bytes, through the data path's API. */
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++)
		for (unsigned p = 0; p <= k; p++)
			vport_count(dev, (enum vport_counter)k, 64 + k);
	uint8_t out[0x210];
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(get64(out, cnt_off[k]), k + 1, "T491 packets of counter %u", k);
		cr_expect_eq(get64(out, cnt_off[k] + 8), (k + 1) * (64 + k), "octets %u", k);
	}
	/* a plain query does not reset */
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(get64(out, 0x90), VPORT_CNT_RX_UNICAST + 1);
	/* T488 clear: "Read and reset counter value": this read has the values ... */
	cr_assert_eq(query_counters(true, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++)
		cr_expect_eq(get64(out, cnt_off[k]), k + 1, "clear returns the value read");
	/* ... the next one zero */
	cr_assert_eq(query_counters(false, out), OK);
	for (unsigned k = 0; k < VPORT_CNT_COUNT; k++) {
		cr_expect_eq(get64(out, cnt_off[k]), 0);
		cr_expect_eq(get64(out, cnt_off[k] + 8), 0);
		struct vport_traffic t = vport_counter_get(dev, (enum vport_counter)k);
		cr_expect_eq(t.packets, 0);
		cr_expect_eq(t.octets, 0);
	}
	/* counting goes on from zero */
	vport_count(dev, VPORT_CNT_TX_MULTICAST, 1500);
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(get64(out, 0xC0), 1);
	cr_expect_eq(get64(out, 0xC8), 1500);
}

Test(vport, counters_64_bits_wide)
{
	dev->vport->cnt[VPORT_CNT_RX_ERRORS].packets = 0x123456789ull;
	dev->vport->cnt[VPORT_CNT_RX_ERRORS].octets = 0xFFFFFFFFFFFFFFFEull;
	vport_count(dev, VPORT_CNT_RX_ERRORS, 1);
	uint8_t out[0x210];
	cr_assert_eq(query_counters(true, out), OK);
	cr_expect_eq(get32(out + 0x10), 0x1, "T492 packets[63:32]");
	cr_expect_eq(get32(out + 0x14), 0x2345678A, "packets[31:0]");
	cr_expect_eq(get64(out, 0x18), 0xFFFFFFFFFFFFFFFFull);
}

Test(vport, counters_need_the_capability)
{
	/* §12.17: "supported only when HCA_CAP.vport_counters == 1". */
	vport_count(dev, VPORT_CNT_RX_UNICAST, 60);
	set_cap(PRM_FIELD(hca_cap, vport_counters), 0);
	uint8_t out[0x210];
	cr_expect_eq(query_counters(true, out), BAD_OP);
	expect_refused(BAD_OP, NICREF_RULE_VPORT_COUNTERS_UNSUPPORTED);
	cr_expect_eq(vport_counter_get(dev, VPORT_CNT_RX_UNICAST).packets, 1, "clear refused too");
	set_cap(PRM_FIELD(hca_cap, vport_counters), 1);
}

Test(vport, counter_query_short_output_refused)
{
	/* T489: the output grid runs to 20Ch: 210h bytes. */
	uint8_t in[0x20] = { 0 }, out[0x210];
	header(in, OP_QUERY_VPORT_COUNTER, 0);
	cr_expect_eq(run(in, sizeof in, out, 0xD0), BAD_OUTPUT_LEN);
	expect_refused(BAD_OUTPUT_LEN, NICREF_RULE_OUTPUT_TOO_SHORT);
}

/* ---- Life cycle and invariants -------------------------------------------------------------- */

Test(vport, teardown_returns_the_vport_to_power_on)
{
	static const uint64_t uc[] = { 0x001122334455ull };
	cr_assert_eq(modify_list(0, 1, uc), OK);
	cr_assert_eq(modify_mtu(9000), OK);
	cr_assert_eq(modify_state(0), OK);
	vport_count(dev, VPORT_CNT_TX_UNICAST, 100);
	cr_assert_eq(refdrv_teardown(&drv), 0, "%s", drv.error);
	cr_expect_eq(nicref_dev_check(dev), 0);
	cr_assert_eq(refdrv_bring_up(&drv, REFDRV_INITIALIZED), 0, "%s", drv.error);
	unsigned admin, state;
	query_state(&admin, &state);
	cr_expect_eq(admin, 1);
	expect_list(0, 0, NULL);
	uint8_t out[0x210];
	cr_assert_eq(query_ctx(0, out, Q_OUT), OK);
	cr_expect_eq(getf(out, Q_CTX + 0x24, 15, 0), 0);
	cr_assert_eq(query_counters(false, out), OK);
	cr_expect_eq(get64(out, 0xA0), 0);
}

Test(vport, invariants_catch_a_broken_vport)
{
	cr_assert_eq(nicref_dev_check(dev), 0);
	dev->vport->admin_state = 2;
	cr_expect_eq(vport_dev_check(dev), -401);
	dev->vport->admin_state = 1;
	dev->vport->min_wqe_inline_mode = 4;
	cr_expect_eq(vport_dev_check(dev), -402);
	dev->vport->min_wqe_inline_mode = MIN_INLINE_L2;
	dev->vport->permanent_address = 1ull << 48;
	cr_expect_eq(vport_dev_check(dev), -403);
	dev->vport->permanent_address = PERMANENT_MAC;
	dev->vport->list_len[VPORT_LIST_UC] = MAX_UC + 1;
	cr_expect_eq(vport_dev_check(dev), -404);
	dev->vport->list_len[VPORT_LIST_UC] = 1;
	cr_expect_eq(vport_dev_check(dev), -405, "a length without elements");
	dev->vport->list_len[VPORT_LIST_UC] = 0;
	static const uint64_t vl[] = { 7 };
	cr_assert_eq(modify_list(2, 1, vl), OK);
	dev->vport->list[VPORT_LIST_VLAN][0] = 0x1000;
	cr_expect_eq(vport_dev_check(dev), -406);
	dev->vport->list[VPORT_LIST_VLAN][0] = 7;
	cr_expect_eq(nicref_dev_check(dev), 0);
	/* outside INIT_HCA..TEARDOWN_HCA the vport holds its power-on values */
	dev->hca.state = HCA_TORN_DOWN;
	cr_expect_eq(vport_dev_check(dev), -408);
	dev->hca.state = HCA_INITIALIZED;
	struct vport *saved = dev->vport;
	dev->vport = NULL;
	cr_expect_eq(vport_dev_check(dev), -400);
	cr_expect_eq(vport_min_wqe_inline_mode(dev), 0);
	dev->vport = saved;
}
