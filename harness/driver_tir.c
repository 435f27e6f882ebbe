/* Reference-driver helpers for TISs, TIRs and RQTs (see driver_tir.h). Fields are written
 * through the public PRM layouts by name, as a driver author transcribes them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "driver_tir.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define RQT_MAX_ENTRIES 0x8000u /* rqt_max_size is 16 bits; the largest power of two */

static void opcode(void *buf, size_t len, const char *layout, const char *name)
{
	refdrv_field_set(buf, len, layout, "opcode", (uint64_t)refdrv_opcode(name));
}

static void bitmask(void *buf, size_t len, const char *layout, uint64_t mask)
{
	refdrv_field_set(buf, len, layout, "modify_bitmask_63_32", mask >> 32);
	refdrv_field_set(buf, len, layout, "modify_bitmask_31_0", mask & 0xFFFFFFFFu);
}

/* A command naming one object by `field` (DESTROY_*): the status. */
static int by_handle(struct refdrv *d, const char *name, const char *layout, const char *field,
		     uint32_t h)
{
	uint8_t in[16] = { 0 }, out[16];
	opcode(in, sizeof in, layout, name);
	refdrv_field_set(in, sizeof in, layout, field, h);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

/* ---- TIS: T298-T309 ---- */

int refdrv_create_tis(struct refdrv *d, uint32_t td, unsigned prio, uint32_t *tisn)
{
	static const char L[] = "create_tis_in";
	uint8_t in[0xC0] = { 0 }, out[16];
	opcode(in, sizeof in, L, "CREATE_TIS");
	refdrv_field_set(in, sizeof in, L, "prio", prio);
	refdrv_field_set(in, sizeof in, L, "transport_domain", td);
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*tisn = (uint32_t)refdrv_field_get(out, sizeof out, "create_tis_out", "tisn");
	return st;
}

int refdrv_modify_tis_prio(struct refdrv *d, uint32_t tisn, unsigned prio)
{
	static const char L[] = "modify_tis_in";
	uint8_t in[0xC0] = { 0 }, out[16];
	opcode(in, sizeof in, L, "MODIFY_TIS");
	refdrv_field_set(in, sizeof in, L, "tisn", tisn);
	bitmask(in, sizeof in, L, 1); /* T51 bit 0: prio */
	refdrv_field_set(in, sizeof in, L, "prio", prio);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_destroy_tis(struct refdrv *d, uint32_t tisn)
{
	return by_handle(d, "DESTROY_TIS", "destroy_tis_in", "tisn", tisn);
}

/* ---- TIR: T281-T292 ---- */

/* The T48 groups of a into a CREATE/MODIFY input (context at 20h). */
static void tir_ctx(uint8_t *in, size_t len, const char *L, uint32_t mask,
		    const struct refdrv_tir_attr *a)
{
	if (mask & 1) { /* LRO: the period and size are reserved with LRO off (T45 10h) */
		refdrv_field_set(in, len, L, "lro_enable_mask", a->lro_enable_mask);
		if (a->lro_enable_mask) {
			refdrv_field_set(in, len, L, "lro_timeout_period_usecs", a->lro_timeout_usecs);
			refdrv_field_set(in, len, L, "lro_max_msg_sz", a->lro_max_msg_sz);
		}
	}
	if ((mask & 2) && a->indirect)
		refdrv_field_set(in, len, L, "indirect_table", a->rqt);
	if ((mask & 4) && a->indirect) { /* hash: Direct TIRs are HASH_NONE (T45 04h) */
		refdrv_field_set(in, len, L, "rx_hash_fn", a->hash_fn);
		refdrv_field_set(in, len, L, "rx_hash_symmetric", a->symmetric);
		refdrv_field_set(in, len, L, "rx_hash_field_selector_outer", a->sel_outer);
		if (a->hash_fn == 2 && a->toeplitz_key)
			(void)nicref_field_set_bytes(
				in, len,
				refdrv_layout_field(refdrv_layout(L), "rx_hash_toeplitz_key"),
				a->toeplitz_key, 40);
	}
	if (mask & 0x10)
		refdrv_field_set(in, len, L, "self_lb_en", a->self_lb_en);
}

int refdrv_create_tir(struct refdrv *d, const struct refdrv_tir_attr *a, uint32_t *tirn)
{
	static const char L[] = "create_tir_in";
	uint8_t in[0x110] = { 0 }, out[16];
	opcode(in, sizeof in, L, "CREATE_TIR");
	refdrv_field_set(in, sizeof in, L, "disp_type", a->indirect);
	if (!a->indirect)
		refdrv_field_set(in, sizeof in, L, "inline_rqn", a->inline_rqn);
	refdrv_field_set(in, sizeof in, L, "transport_domain", a->td);
	/* T48: every group is required at create. */
	tir_ctx(in, sizeof in, L, 0x17, a);
	int st = refdrv_cmd_paged(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*tirn = (uint32_t)refdrv_field_get(out, sizeof out, "create_tir_out", "tirn");
	return st;
}

int refdrv_modify_tir(struct refdrv *d, uint32_t tirn, uint32_t mask,
		      const struct refdrv_tir_attr *a)
{
	static const char L[] = "modify_tir_in";
	uint8_t in[0x110] = { 0 }, out[16];
	opcode(in, sizeof in, L, "MODIFY_TIR");
	refdrv_field_set(in, sizeof in, L, "tirn", tirn);
	bitmask(in, sizeof in, L, mask);
	tir_ctx(in, sizeof in, L, mask, a);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_destroy_tir(struct refdrv *d, uint32_t tirn)
{
	return by_handle(d, "DESTROY_TIR", "destroy_tir_in", "tirn", tirn);
}

/* ---- RQT: T349-T360 ---- */

static int rqt_cmd(struct refdrv *d, const char *L, const char *name, uint32_t rqtn,
		   unsigned max_size, const uint32_t *rq, unsigned n, uint32_t *out_rqtn)
{
	if (n > RQT_MAX_ENTRIES) {
		snprintf(d->error, sizeof d->error, "%s: %u entries", name, n);
		return -1;
	}
	uint32_t len = 0x110 + 4 * n;
	uint8_t *in = calloc(1, len), out[16];
	if (!in) {
		snprintf(d->error, sizeof d->error, "%s: out of memory", name);
		return -1;
	}
	opcode(in, len, L, name);
	if (out_rqtn) {
		refdrv_field_set(in, len, L, "rqt_max_size", max_size);
	} else {
		refdrv_field_set(in, len, L, "rqtn", rqtn);
		bitmask(in, len, L, 1); /* T354 bit 0: the size and the list */
	}
	refdrv_field_set(in, len, L, "rqt_actual_size", n);
	const struct nicref_field *f = refdrv_layout_field(refdrv_layout(L), "rq_num");
	for (unsigned i = 0; i < n; i++) {
		struct nicref_field e = nicref_field_element(f, i);
		(void)nicref_field_set(in, len, &e, rq[i]);
	}
	int st = out_rqtn ? refdrv_cmd_paged(d, in, len, out, sizeof out)
			  : refdrv_cmd(d, in, len, out, sizeof out);
	free(in);
	if (st == 0 && out_rqtn)
		*out_rqtn = (uint32_t)refdrv_field_get(out, sizeof out, "create_rqt_out", "rqtn");
	return st;
}

int refdrv_create_rqt(struct refdrv *d, unsigned max_size, const uint32_t *rq, unsigned n,
		      uint32_t *rqtn)
{
	return rqt_cmd(d, "create_rqt_in", "CREATE_RQT", 0, max_size, rq, n, rqtn);
}

int refdrv_modify_rqt(struct refdrv *d, uint32_t rqtn, const uint32_t *rq, unsigned n)
{
	return rqt_cmd(d, "modify_rqt_in", "MODIFY_RQT", rqtn, 0, rq, n, NULL);
}

int refdrv_destroy_rqt(struct refdrv *d, uint32_t rqtn)
{
	return by_handle(d, "DESTROY_RQT", "destroy_rqt_in", "rqtn", rqtn);
}
