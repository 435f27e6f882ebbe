/* Reference-driver helpers for memory keys (see driver_mkey.h). Fields are written through the
 * public PRM layouts by name, as a driver author transcribes them from the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

#define PAGE 4096u
#define PAGES_PER_CMD 256u
#define MKEY_IN_MAX (0x110u + 16u * 4096u) /* 4096 octwords of entries */

static void set(void *buf, size_t len, const char *layout, const char *field, uint64_t v)
{
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find(layout), field);
	if (f)
		(void)nicref_field_set(buf, len, f, v);
}

static uint64_t get(const void *buf, size_t len, const char *layout, const char *field)
{
	uint64_t v = 0;
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find(layout), field);
	if (f)
		(void)nicref_field_get(buf, len, f, &v);
	return v;
}

static void set_elem(void *buf, size_t len, const char *layout, const char *field, uint32_t i,
		     uint64_t v)
{
	const struct nicref_field *f = nicref_layout_field(nicref_layout_find(layout), field);
	if (f) {
		struct nicref_field e = nicref_field_element(f, i);
		(void)nicref_field_set(buf, len, &e, v);
	}
}

static int fail(struct refdrv *d, const char *what, long v)
{
	snprintf(d->error, sizeof d->error, "%s (%ld)", what, v);
	return -1;
}

/* §12.3.1 T130-T133: pages the device wants now (op_mod 3 regular); < 0 on error. */
static int64_t regular_pages(struct refdrv *d)
{
	uint8_t in[16] = { 0 }, out[16];
	set(in, sizeof in, "query_pages_in", "opcode", (uint64_t)nicref_opcode_find("QUERY_PAGES"));
	set(in, sizeof in, "query_pages_in", "op_mod", 3);
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st != 0)
		return st < 0 ? -1 : fail(d, "QUERY_PAGES regular: status", st);
	return (int32_t)get(out, sizeof out, "query_pages_out", "num_pages");
}

/* §12.3.2 T134/T135 op_mod 1: n more pages, after those the driver already gave. */
static int give(struct refdrv *d, uint32_t n)
{
	static const uint32_t in_max = 16 + 8 * PAGES_PER_CMD;
	uint8_t *in = malloc(in_max), out[16];
	if (!in)
		return fail(d, "MANAGE_PAGES: out of memory", 0);
	int rc = 0;
	while (n && rc == 0) {
		uint32_t k = n < PAGES_PER_CMD ? n : PAGES_PER_CMD;
		if (d->npages + k > d->pages_cap) {
			uint32_t cap = (d->npages + k) * 2;
			uint64_t *p = realloc(d->pages, cap * sizeof *p);
			if (!p) {
				rc = fail(d, "MANAGE_PAGES: out of memory", 0);
				break;
			}
			d->pages = p;
			d->pages_cap = cap;
		}
		uint32_t len = 16 + 8 * k;
		memset(in, 0, len);
		set(in, len, "manage_pages_in", "opcode",
		    (uint64_t)nicref_opcode_find("MANAGE_PAGES"));
		set(in, len, "manage_pages_in", "op_mod", 1); /* ALLOCATION_SUCCESS */
		set(in, len, "manage_pages_in", "input_num_entries", k);
		uint32_t first = d->next_page;
		for (uint32_t i = 0; i < k; i++)
			set_elem(in, len, "manage_pages_in", "pas", i,
				 d->page_addr + (uint64_t)PAGE * (first + i));
		int st = refdrv_cmd(d, in, len, out, sizeof out);
		if (st != 0) {
			rc = st < 0 ? -1 : fail(d, "MANAGE_PAGES: status", st);
			break;
		}
		for (uint32_t i = 0; i < k; i++)
			d->pages[d->npages + i] = d->page_addr + (uint64_t)PAGE * (first + i);
		d->next_page += k;
		d->npages += k;
		n -= k;
	}
	free(in);
	return rc;
}

int refdrv_mkey_cmd_paged(struct refdrv *d, const void *in, uint32_t in_len, void *out,
			  uint32_t out_len)
{
	int st = refdrv_cmd(d, in, in_len, out, out_len);
	if (st != 0x0F) /* T128 NO_RESOURCES */
		return st;
	/* D-PG-4: the device wants pages for the new context; QUERY_PAGES regular says how
	 * many. */
	int64_t n = regular_pages(d);
	if (n < 0)
		return -1;
	if (n == 0)
		return st; /* not a page shortage: the refusal stands */
	if (give(d, (uint32_t)n) != 0)
		return -1;
	return refdrv_cmd(d, in, in_len, out, out_len);
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
	set(in, in_len, L, "opcode", (uint64_t)nicref_opcode_find("CREATE_MKEY"));
	set(in, in_len, L, "pg_access", a->pg_access);
	/* T10 */
	set(in, in_len, L, "free", a->free);
	set(in, in_len, L, "umr_en", a->umr_en);
	set(in, in_len, L, "rw", a->rw);
	set(in, in_len, L, "rr", a->rr);
	set(in, in_len, L, "lw", a->lw);
	set(in, in_len, L, "lr", 1);
	set(in, in_len, L, "access_mode", a->access_mode);
	set(in, in_len, L, "qpn", 0xFFFFFF);
	set(in, in_len, L, "mkey_7_0", a->tag);
	set(in, in_len, L, "length64", a->length64);
	set(in, in_len, L, "pd", a->pd);
	set(in, in_len, L, "start_addr", a->start_addr);
	set(in, in_len, L, "len", a->length64 ? 0 : a->len);
	if (a->access_mode != 0)
		set(in, in_len, L, "translations_octword_size",
		    a->octword_size ? a->octword_size : (actual + 3) / 4 * 4);
	if (a->access_mode == 1)
		set(in, in_len, L, "log_entity_size", a->log_entity_size);
	/* T227 60h and 110h.. */
	set(in, in_len, L, "translations_octword_actual_size", actual);
	if (a->access_mode == 2)
		for (uint32_t k = 0; k < a->nklm; k++) {
			const struct refdrv_klm *e = &a->klm[k];
			set_elem(in, in_len, L, "klm_pas_mtt", 2 * k,
				 (uint64_t)e->byte_count << 32 | e->mkey);
			set_elem(in, in_len, L, "klm_pas_mtt", 2 * k + 1, e->address);
		}
	else
		for (uint32_t i = 0; i < a->nmtt; i++)
			set_elem(in, in_len, L, "klm_pas_mtt", i, a->mtt[i]);
	int st = refdrv_mkey_cmd_paged(d, in, in_len, out, sizeof out);
	free(in);
	if (st == 0)
		*mkey_index = (uint32_t)get(out, sizeof out, "create_mkey_out", "mkey_index");
	return st;
}

static int by_index(struct refdrv *d, const char *opcode, const char *layout, uint32_t index)
{
	uint8_t in[16] = { 0 }, out[16];
	set(in, sizeof in, layout, "opcode", (uint64_t)nicref_opcode_find(opcode));
	set(in, sizeof in, layout, "mkey_index", index);
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
	set(in, sizeof in, "query_mkey_in", "opcode", (uint64_t)nicref_opcode_find("QUERY_MKEY"));
	set(in, sizeof in, "query_mkey_in", "mkey_index", mkey_index);
	set(in, sizeof in, "query_mkey_in", "pg_access", pg_access);
	return refdrv_cmd(d, in, sizeof in, out, out_len);
}

int refdrv_query_special_contexts(struct refdrv *d, uint32_t *resd_lkey)
{
	uint8_t in[16] = { 0 }, out[16];
	set(in, sizeof in, "query_special_contexts_in", "opcode",
	    (uint64_t)nicref_opcode_find("QUERY_SPECIAL_CONTEXTS"));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*resd_lkey =
			(uint32_t)get(out, sizeof out, "query_special_contexts_out", "resd_lkey");
	return st;
}
