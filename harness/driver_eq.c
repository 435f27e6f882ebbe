/* Reference-driver helpers for event queues (see driver_eq.h). Fields are written through the
 * public PRM layouts by name, as a driver author transcribes them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_eq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define PAGE 4096u

static int fail(struct refdrv *d, const char *what, long v)
{
	snprintf(d->error, sizeof d->error, "%s (%ld)", what, v);
	return -1;
}

/* ---- UARs ---------------------------------------------------------------------------------- */

uint64_t refdrv_uar_offset(const struct refdrv *d, uint32_t uar)
{
	/* §7.2, T145 log_uar_page_sz: UAR pages of 4 KB << log_uar_page_sz from BAR0 0. */
	uint64_t log = refdrv_field_get(d->caps_cur, sizeof d->caps_cur, "hca_cap", "log_uar_page_sz");
	return (uint64_t)uar << (12 + (log < 20 ? log : 20));
}

int refdrv_alloc_uar(struct refdrv *d, uint32_t *uar)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	refdrv_field_set(in, sizeof in, "alloc_uar_in", "opcode", (uint64_t)refdrv_opcode("ALLOC_UAR"));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0) {
		*uar = (uint32_t)refdrv_field_get(out, sizeof out, "alloc_uar_out", "uar");
		/* A page given out anew starts its Blue Flame postings at the even buffers. */
		d->bf_odd[*uar % REFDRV_BF_UARS] = 0;
	}
	return st;
}

/* ---- EQs ----------------------------------------------------------------------------------- */

static uint32_t eq_pages(const struct refdrv_eq_attr *a)
{
	uint64_t page = (uint64_t)PAGE << a->log_page_size;
	return (uint32_t)(((64ull << a->log_eq_size) + page - 1) / page);
}

int refdrv_create_eq(struct refdrv *d, const struct refdrv_eq_attr *a, struct refdrv_eq *eq)
{
	static const char L[] = "create_eq_in";
	if (a->log_eq_size > 22 || a->log_page_size > 20)
		return fail(d, "CREATE_EQ: sizes out of range", a->log_eq_size);
	/* §12.6.1 L6859: every EQE's owner bit (3Ch[0], T78) set to 1, HW ownership. */
	uint8_t eqe[64] = { 0 };
	eqe[0x3F] = 1;
	for (uint64_t i = 0; i < (1ull << a->log_eq_size); i++)
		if (d->ops.mem_write(d->ops.ctx, a->buf + 64 * i, eqe, sizeof eqe) != 0)
			return fail(d, "CREATE_EQ: buffer write", (long)i);
	uint32_t npas = eq_pages(a);
	uint32_t in_len = 0x110 + 8 * npas;
	uint8_t *in = calloc(1, in_len), out[16] = { 0 };
	if (!in)
		return fail(d, "CREATE_EQ: out of memory", 0);
	refdrv_field_set(in, in_len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_EQ"));
	refdrv_field_set(in, in_len, L, "ec", a->ec);
	refdrv_field_set(in, in_len, L, "oi", a->oi);
	refdrv_field_set(in, in_len, L, "log_eq_size", a->log_eq_size);
	refdrv_field_set(in, in_len, L, "uar_page", a->uar);
	refdrv_field_set(in, in_len, L, "intr", a->intr);
	refdrv_field_set(in, in_len, L, "log_page_size", a->log_page_size);
	refdrv_field_set(in, in_len, L, "event_bitmask", a->events);
	for (uint32_t k = 0; k < npas; k++) /* T138: pa_h, pa_l[31:12] */
		refdrv_field_set_elem(in, in_len, L, "pas", k, a->buf + ((uint64_t)k << (12 + a->log_page_size)));
	int st = refdrv_cmd_paged(d, in, in_len, out, sizeof out);
	free(in);
	if (st == 0) {
		memset(eq, 0, sizeof *eq);
		eq->eqn = (uint32_t)refdrv_field_get(out, sizeof out, "create_eq_out", "eq_number");
		eq->a = *a;
	}
	return st;
}

static int by_eqn(struct refdrv *d, const char *opcode, uint32_t eqn, uint8_t *out,
		  uint32_t out_len)
{
	uint8_t in[16] = { 0 }, small[16];
	refdrv_field_set(in, sizeof in, "destroy_eq_in", "opcode", (uint64_t)refdrv_opcode(opcode));
	refdrv_field_set(in, sizeof in, "destroy_eq_in", "eq_number", eqn); /* 08h[7:0] in T248 and T252 */
	return out ? refdrv_cmd(d, in, sizeof in, out, out_len)
		   : refdrv_cmd(d, in, sizeof in, small, sizeof small);
}

int refdrv_destroy_eq(struct refdrv *d, uint32_t eqn)
{
	return by_eqn(d, "DESTROY_EQ", eqn, NULL, 0);
}

int refdrv_query_eq(struct refdrv *d, uint32_t eqn, uint8_t *out, uint32_t out_len)
{
	if (out_len < 0x110)
		return fail(d, "QUERY_EQ: output shorter than T253", out_len);
	return by_eqn(d, "QUERY_EQ", eqn, out, out_len);
}

int refdrv_gen_eqe(struct refdrv *d, uint32_t eqn, const uint8_t eqe[64])
{
	uint8_t in[0x50] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, "gen_eqe_in", "opcode", (uint64_t)refdrv_opcode("GEN_EQE"));
	refdrv_field_set(in, sizeof in, "gen_eqe_in", "eq_number", eqn);
	memcpy(in + 0x10, eqe, 64); /* T256 eqe 10h-4Ch */
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_eq_poll(struct refdrv *d, struct refdrv_eq *eq, uint8_t eqe[64])
{
	uint32_t size = 1u << eq->a.log_eq_size;
	uint64_t off = 64ull * (eq->a.ec ? 0 : (eq->cc & (size - 1)));
	uint64_t page = (uint64_t)PAGE << eq->a.log_page_size;
	uint64_t addr = eq->a.buf + off / page * page + off % page;
	if (d->ops.mem_read(d->ops.ctx, addr, eqe, 64) != 0)
		return fail(d, "EQ poll: read", (long)eq->cc);
	/* §7.12.3.1 (via §7.13.2.1): software owns the entry when its owner bit equals
	 * (consumer counter >> log size) & 1. */
	if ((eqe[0x3F] & 1u) != ((eq->cc >> eq->a.log_eq_size) & 1u))
		return 0;
	eq->cc = (eq->cc + 1) & 0xFFFFFFu;
	return 1;
}

void refdrv_eq_doorbell(struct refdrv *d, const struct refdrv_eq *eq, bool arm)
{
	/* T13: eqn 31:24, consumer index 23:0; 40h "update CI and Arm", 48h "update CI". */
	uint32_t v = eq->eqn << 24 | (eq->cc & 0xFFFFFFu);
	d->ops.bar_write32(d->ops.ctx, (uint32_t)(refdrv_uar_offset(d, eq->a.uar) + (arm ? 0x40 : 0x48)),
			   v);
}
