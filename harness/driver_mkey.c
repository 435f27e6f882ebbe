/* Reference-driver helpers for memory keys (see driver_mkey.h). Fields are written through the
 * public PRM layouts by name, as a driver author transcribes them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define PAGE 4096u
#define MKEY_IN_MAX (0x110u + 16u * 4096u) /* 4096 octwords of entries */

static int fail(struct refdrv *d, const char *what, long v)
{
	snprintf(d->error, sizeof d->error, "%s (%ld)", what, v);
	return -1;
}

int refdrv_create_mkey(struct refdrv *d, const struct refdrv_mkey_attr *a, uint32_t *mkey_index)
{
	static const char L[] = "create_mkey_in";
	uint32_t entries = a->access_mode == 2 ? 2 * a->nklm : a->nmtt; /* 64-bit words */
	uint32_t actual = (entries + 1) / 2;                             /* octwords */
	if (actual > (MKEY_IN_MAX - 0x110) / 16)
		return fail(d, "CREATE_MKEY: too many entries", actual);
	uint32_t in_len = 0x110 + 16 * actual;
	uint8_t *in = calloc(1, in_len), out[16];
	if (!in)
		return fail(d, "CREATE_MKEY: out of memory", 0);
	refdrv_field_set(in, in_len, L, "opcode", (uint64_t)refdrv_opcode("CREATE_MKEY"));
	refdrv_field_set(in, in_len, L, "pg_access", a->pg_access);
	/* T10 */
	refdrv_field_set(in, in_len, L, "free", a->free);
	refdrv_field_set(in, in_len, L, "umr_en", a->umr_en);
	refdrv_field_set(in, in_len, L, "rw", a->rw);
	refdrv_field_set(in, in_len, L, "rr", a->rr);
	refdrv_field_set(in, in_len, L, "lw", a->lw);
	refdrv_field_set(in, in_len, L, "lr", 1);
	refdrv_field_set(in, in_len, L, "access_mode", a->access_mode);
	refdrv_field_set(in, in_len, L, "qpn", 0xFFFFFF);
	refdrv_field_set(in, in_len, L, "mkey_7_0", a->tag);
	refdrv_field_set(in, in_len, L, "length64", a->length64);
	refdrv_field_set(in, in_len, L, "pd", a->pd);
	refdrv_field_set(in, in_len, L, "start_addr", a->start_addr);
	refdrv_field_set(in, in_len, L, "len", a->length64 ? 0 : a->len);
	if (a->access_mode != 0)
		refdrv_field_set(in, in_len, L, "translations_octword_size",
		    a->octword_size ? a->octword_size : (actual + 3) / 4 * 4);
	if (a->access_mode == 1)
		refdrv_field_set(in, in_len, L, "log_entity_size", a->log_entity_size);
	/* T227 60h and 110h.. */
	refdrv_field_set(in, in_len, L, "translations_octword_actual_size", actual);
	if (a->access_mode == 2)
		for (uint32_t k = 0; k < a->nklm; k++) {
			const struct refdrv_klm *e = &a->klm[k];
			refdrv_field_set_elem(in, in_len, L, "klm_pas_mtt", 2 * k,
				 (uint64_t)e->byte_count << 32 | e->mkey);
			refdrv_field_set_elem(in, in_len, L, "klm_pas_mtt", 2 * k + 1, e->address);
		}
	else
		for (uint32_t i = 0; i < a->nmtt; i++)
			refdrv_field_set_elem(in, in_len, L, "klm_pas_mtt", i, a->mtt[i]);
	int st = refdrv_cmd_paged(d, in, in_len, out, sizeof out);
	free(in);
	if (st == 0)
		*mkey_index = (uint32_t)refdrv_field_get(out, sizeof out, "create_mkey_out", "mkey_index");
	return st;
}

static int by_index(struct refdrv *d, const char *opcode, const char *layout, uint32_t index)
{
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, layout, "opcode", (uint64_t)refdrv_opcode(opcode));
	refdrv_field_set(in, sizeof in, layout, "mkey_index", index);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

int refdrv_destroy_mkey(struct refdrv *d, uint32_t mkey_index)
{
	return by_index(d, "DESTROY_MKEY", "destroy_mkey_in", mkey_index);
}

int refdrv_query_mkey(struct refdrv *d, uint32_t mkey_index, bool pg_access, uint8_t *out,
		      uint32_t out_len)
{
	uint8_t in[16] = { 0 };
	refdrv_field_set(in, sizeof in, "query_mkey_in", "opcode", (uint64_t)refdrv_opcode("QUERY_MKEY"));
	refdrv_field_set(in, sizeof in, "query_mkey_in", "mkey_index", mkey_index);
	refdrv_field_set(in, sizeof in, "query_mkey_in", "pg_access", pg_access);
	return refdrv_cmd(d, in, sizeof in, out, out_len);
}

int refdrv_query_special_contexts(struct refdrv *d, uint32_t *resd_lkey)
{
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, "query_special_contexts_in", "opcode",
	    (uint64_t)refdrv_opcode("QUERY_SPECIAL_CONTEXTS"));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*resd_lkey =
			(uint32_t)refdrv_field_get(out, sizeof out, "query_special_contexts_out", "resd_lkey");
	return st;
}
