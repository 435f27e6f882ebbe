/* Reference-driver helpers for the send path (see driver_sq.h). Every WQE field is written through
 * the library's layouts by name, as a driver author transcribes the PRM tables; the names this
 * file writes itself are the ones in the two tables below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_mkey.h"
#include "driver_sq.h"
#include "driver_tir.h"
#include "driver_vport.h"
#include "driver_wq.h"
#include "nicref/cmd.h"
#include "nicref/layout.h"

/* ---- Names ---------------------------------------------------------------------------------- */

/* The layout of each segment: the first name the library declares. The send WQE layouts are
 * the library's prm/layouts_wqe.h (send_wqe_*); the first names are the ones this driver was
 * written against before they existed (TX_SPEC), kept until the merge aligns them. The MKey
 * context, KLM and MTT entry of a UMR WQE are the structures of §6.4.1 and T36/T37 (mkc, klm,
 * mtt_entry). */
static const char *const seg_names[REFDRV_SEG_COUNT][2] = {
	[REFDRV_SEG_CTRL] = { "wqe_ctrl_seg", "send_wqe_ctrl" },
	[REFDRV_SEG_ETH] = { "wqe_eth_seg", "send_wqe_eth" },
	[REFDRV_SEG_DATA] = { "wqe_data_seg", "send_wqe_data_ptr" },
	[REFDRV_SEG_INLINE] = { "wqe_inline_seg", "send_wqe_data_inline" },
	[REFDRV_SEG_UMR_CTRL] = { "wqe_umr_ctrl_seg", "send_wqe_umr_ctrl" },
	[REFDRV_SEG_MKEY_CTX] = { "wqe_mkey_ctx_seg", "mkc" },
	[REFDRV_SEG_KLM] = { "wqe_klm", "klm" },
	[REFDRV_SEG_MTT] = { "wqe_mtt", "mtt_entry" },
	[REFDRV_SEG_UMR_PTR] = { "wqe_umr_ptr_seg", "send_wqe_umr_pointer" },
};

/* The fields this driver fills, by segment (T26, T28, T38, T39); a caller names any other. */
#define F_OPCODE "opcode"           /* ctrl 00h[7:0] */
#define F_WQE_INDEX "wqe_index"     /* ctrl 00h[23:8] */
#define F_SQ_NUMBER "sq_number"     /* ctrl 04h[31:8] */
#define F_DS "ds"                   /* ctrl 04h[5:0] */
#define F_SIGNATURE "signature"     /* ctrl 08h[31:24] */
#define F_FM "fm"                   /* ctrl 08h[7:5] */
#define F_CE "ce"                   /* ctrl 08h[3:2] */
#define F_SE "se"                   /* ctrl 08h[1] */
#define F_HDR_SIZE "inline_header_size" /* eth 0Ch[25:16] */
#define F_HDRS "inline_headers"     /* eth 0Ch[15:0]: where the header bytes start */
#define F_BYTE_COUNT "byte_count"   /* data 00h[30:0], inline 00h[9:0] */
#define F_LKEY "l_key"              /* data 04h */
#define F_ADDR "local_address"      /* data 08h-0Ch: one 64-bit field, or _63_32 and _31_0 */
#define F_INLINE "inline"           /* inline 00h[31]: 1 */
#define INLINE_DATA_AT 4u           /* T39: "Data & padding" from 04h */

static const struct {
	const char *name;
	int value;
} wqe_opcodes[] = {
	{ "NOP", 0x00 }, /* T26 */
	{ "SEND", 0x0A }, /* T26 */
	{ "LSO", 0x0E },  /* not in Rev 0.40 T26: the public mlx5 MLX5_OPCODE_LSO */
	{ "UMR", 0x25 },  /* T26 */
};

/* Worked out once per segment (the names are constants): a segment's first name may have no
 * layout, and a lookup that finds nothing is not kept by refdrv_layout's table, so each WQE
 * would walk every layout for it again. */
const struct nicref_layout *refdrv_wqe_layout(enum refdrv_wqe_seg seg)
{
	static const struct nicref_layout *found[REFDRV_SEG_COUNT];
	static bool known[REFDRV_SEG_COUNT];
	if ((unsigned)seg >= REFDRV_SEG_COUNT)
		return NULL;
	if (known[seg])
		return found[seg];
	for (unsigned i = 0; i < 2 && !found[seg]; i++)
		found[seg] = seg_names[seg][i] ? refdrv_layout(seg_names[seg][i]) : NULL;
	known[seg] = true;
	return found[seg];
}

const char *refdrv_wqe_layout_name(enum refdrv_wqe_seg seg)
{
	static char buf[REFDRV_SEG_COUNT][64];
	if ((unsigned)seg >= REFDRV_SEG_COUNT)
		return "?";
	if (!buf[seg][0])
		snprintf(buf[seg], sizeof buf[seg], "%s%s%s", seg_names[seg][0],
			 seg_names[seg][1] ? " or " : "", seg_names[seg][1] ? seg_names[seg][1] : "");
	return buf[seg];
}

int refdrv_wqe_opcode_find(const char *name)
{
	for (size_t i = 0; i < sizeof wqe_opcodes / sizeof wqe_opcodes[0]; i++)
		if (strcmp(wqe_opcodes[i].name, name) == 0)
			return wqe_opcodes[i].value;
	return -1;
}

const char *refdrv_wqe_opcode_name(unsigned op)
{
	for (size_t i = 0; i < sizeof wqe_opcodes / sizeof wqe_opcodes[0]; i++)
		if ((unsigned)wqe_opcodes[i].value == op)
			return wqe_opcodes[i].name;
	return NULL;
}

/* ---- Building a WQE ----------------------------------------------------------------------- */

static long wqe_fail(struct refdrv_wqe *w, const char *why)
{
	w->error = why;
	return -1;
}

static size_t up16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* n more bytes (a multiple of 16) for a segment of seg: its offset, or -1. */
static long append(struct refdrv_wqe *w, enum refdrv_wqe_seg seg, size_t n)
{
	if (!refdrv_wqe_layout(seg))
		return wqe_fail(w, "the library declares no layout for this WQE segment");
	if (n > REFDRV_WQE_MAX - w->len)
		return wqe_fail(w, "the WQE would be longer than REFDRV_WQE_MAX");
	long off = (long)w->len;
	w->len += n;
	return off;
}

/* A field of the segment at off: 0, or -1 when the layout has no such field or v does not fit. */
static int put(struct refdrv_wqe *w, long off, enum refdrv_wqe_seg seg, const char *name,
	       uint64_t v)
{
	const struct nicref_field *f = refdrv_layout_field(refdrv_wqe_layout(seg), name);
	if (!f || nicref_field_set(w->b + off, w->len - (size_t)off, f, v) != 0)
		return (int)wqe_fail(w, "a WQE field is missing from its layout or the value does "
					"not fit it");
	return 0;
}

/* A 64-bit address: one field of 64 bits, or its two halves (name_63_32, name_31_0). */
static int put_addr(struct refdrv_wqe *w, long off, enum refdrv_wqe_seg seg, const char *name,
		    uint64_t v)
{
	const struct nicref_layout *l = refdrv_wqe_layout(seg);
	const struct nicref_field *f = refdrv_layout_field(l, name);
	if (f && f->bit_width == 64)
		return put(w, off, seg, name, v);
	char hi[64], lo[64];
	snprintf(hi, sizeof hi, "%s_63_32", name);
	snprintf(lo, sizeof lo, "%s_31_0", name);
	return put(w, off, seg, hi, v >> 32) | put(w, off, seg, lo, v & 0xFFFFFFFFu);
}

int refdrv_wqe_address(struct refdrv_wqe *w, uint16_t pc, uint32_t sqn)
{
	return put(w, 0, REFDRV_SEG_CTRL, F_WQE_INDEX, pc) ||
			       put(w, 0, REFDRV_SEG_CTRL, F_SQ_NUMBER, sqn)
		       ? -1
		       : 0;
}

long refdrv_wqe_begin(struct refdrv_wqe *w, unsigned opcode, uint16_t pc, uint32_t sqn)
{
	memset(w, 0, sizeof *w);
	const struct nicref_layout *l = refdrv_wqe_layout(REFDRV_SEG_CTRL);
	long off = append(w, REFDRV_SEG_CTRL, l ? up16(l->size) : 0);
	if (off < 0 || put(w, off, REFDRV_SEG_CTRL, F_OPCODE, opcode) ||
	    refdrv_wqe_address(w, pc, sqn))
		return -1;
	return off;
}

long refdrv_wqe_eth(struct refdrv_wqe *w, const uint8_t *hdr, size_t n)
{
	const struct nicref_layout *l = refdrv_wqe_layout(REFDRV_SEG_ETH);
	const struct nicref_field *at = refdrv_layout_field(l, F_HDRS);
	if (!l || !at || at->bit_offset % 8)
		return wqe_fail(w, "the library declares no Eth segment with inline_headers");
	/* T28: the headers start at inline_headers (0Eh) and run over as many octowords as they
	 * need; "the last octoword ... can be partially populated". */
	size_t start = at->bit_offset / 8, size = up16(start + n);
	long off = append(w, REFDRV_SEG_ETH, size > up16(l->size) ? size : up16(l->size));
	if (off < 0 || put(w, off, REFDRV_SEG_ETH, F_HDR_SIZE, n))
		return -1;
	if (n)
		memcpy(w->b + off + start, hdr, n);
	return off;
}

long refdrv_wqe_ptr(struct refdrv_wqe *w, uint32_t lkey, uint64_t addr, uint32_t byte_count)
{
	const struct nicref_layout *l = refdrv_wqe_layout(REFDRV_SEG_DATA);
	long off = append(w, REFDRV_SEG_DATA, l ? up16(l->size) : 0);
	if (off < 0 || put(w, off, REFDRV_SEG_DATA, F_BYTE_COUNT, byte_count) ||
	    put(w, off, REFDRV_SEG_DATA, F_LKEY, lkey) ||
	    put_addr(w, off, REFDRV_SEG_DATA, F_ADDR, addr))
		return -1;
	return off;
}

long refdrv_wqe_inline(struct refdrv_wqe *w, const uint8_t *data, size_t n)
{
	long off = append(w, REFDRV_SEG_INLINE, up16(INLINE_DATA_AT + n));
	if (off < 0 || put(w, off, REFDRV_SEG_INLINE, F_INLINE, 1) ||
	    put(w, off, REFDRV_SEG_INLINE, F_BYTE_COUNT, n))
		return -1;
	if (n)
		memcpy(w->b + off + INLINE_DATA_AT, data, n);
	return off;
}

long refdrv_wqe_seg(struct refdrv_wqe *w, enum refdrv_wqe_seg seg)
{
	const struct nicref_layout *l = refdrv_wqe_layout(seg);
	return append(w, seg, l ? up16(l->size) : 0);
}

long refdrv_wqe_entries(struct refdrv_wqe *w, enum refdrv_wqe_seg seg, size_t n)
{
	const struct nicref_layout *l = refdrv_wqe_layout(seg);
	if (l && n > REFDRV_WQE_MAX / (l->size ? l->size : 1))
		return wqe_fail(w, "too many translation entries for a WQE");
	return append(w, seg, l ? (n * l->size + 63) & ~(size_t)63 : 0);
}

uint8_t refdrv_wqe_signature(const uint8_t *wqe, size_t n, uint32_t sqn, uint16_t index)
{
	const struct nicref_field *f =
		refdrv_layout_field(refdrv_wqe_layout(REFDRV_SEG_CTRL), F_SIGNATURE);
	size_t sig = f ? f->bit_offset / 8 : 8;
	uint8_t x = (uint8_t)(sqn >> 16 ^ sqn >> 8 ^ sqn ^ index >> 8 ^ index);
	for (size_t i = 0; i < n; i++)
		if (i != sig)
			x ^= wqe[i];
	return (uint8_t)(x ^ 0xFF);
}

void refdrv_wqe_sign(struct refdrv_wqe *w)
{
	const struct nicref_layout *l = refdrv_wqe_layout(REFDRV_SEG_CTRL);
	const struct nicref_field *fd = refdrv_layout_field(l, F_DS);
	const struct nicref_field *fs = refdrv_layout_field(l, F_SQ_NUMBER);
	const struct nicref_field *fi = refdrv_layout_field(l, F_WQE_INDEX);
	uint64_t ds, sqn, index;
	if (!fd || !fs || !fi || nicref_field_get(w->b, w->len, fd, &ds) ||
	    nicref_field_get(w->b, w->len, fs, &sqn) || nicref_field_get(w->b, w->len, fi, &index))
		return;
	size_t n = ds * 16 < w->len ? (size_t)ds * 16 : w->len;
	(void)put(w, 0, REFDRV_SEG_CTRL, F_SIGNATURE,
		  refdrv_wqe_signature(w->b, n, (uint32_t)sqn, (uint16_t)index));
}

int refdrv_wqe_finish(struct refdrv_wqe *w, const struct refdrv_wqe_ctrl *c, bool signature)
{
	if (w->len / 16 > REFDRV_WQE_DS_MAX)
		return (int)wqe_fail(w, "the WQE is longer than ds can count (63 octowords, T26)");
	if (put(w, 0, REFDRV_SEG_CTRL, F_CE, c->ce) || put(w, 0, REFDRV_SEG_CTRL, F_SE, c->se) ||
	    put(w, 0, REFDRV_SEG_CTRL, F_FM, c->fm) ||
	    put(w, 0, REFDRV_SEG_CTRL, F_DS, w->len / 16))
		return -1;
	if (signature)
		refdrv_wqe_sign(w);
	return 0;
}

/* ---- The SQ stack ------------------------------------------------------------------------- */

#define PAGE 4096u
#define BF_AREA 0x800u  /* §7.2.2 T13: DB_BlueFlame_Buffer0_even */
#define EQ_LOG_SIZE 6u
/* CREATE_EQ event_bitmask (T244): the asynchronous events of a work queue or a CQ. T79 gives
 * CQ_Error (04h) and Last_WQE_Reached (13h); 05h and 10h-12h are the public mlx5 work-queue
 * error types, where a device reports an SQ that went to ERR. */
#define EQ_EVENTS (1ull << 0x04 | 1ull << 0x05 | 1ull << 0x10 | 1ull << 0x11 | 1ull << 0x12 | \
		   1ull << 0x13)

enum { UP_PD = 1, UP_TD, UP_UAR, UP_EQ, UP_CQ, UP_TIS, UP_MKEY, UP_SQ, UP_RDY };

void refdrv_sq_stack_defaults(struct refdrv_sq_stack_attr *a)
{
	*a = (struct refdrv_sq_stack_attr){
		.log_sq_size = 6,
		.log_cq_size = 6,
		.min_wqe_inline_mode = -1,
		.flush_in_error_en = true,
		.data_addr = 0x40000000,
		.data_size = 0x100000,
		.sq_buf = 0x30000000,
		.cq_buf = 0x30800000,
		.eq_buf = 0x31000000,
		.sq_dbr = 0x31010000,
		.cq_dbr = 0x31010040,
	};
}

/* The outcome of one bring-up command: 0 and one more object up, or -1 with d->error. */
static int made(struct refdrv *d, struct refdrv_sq_stack *s, const char *what, int st)
{
	if (st == 0) {
		s->up++;
		return 0;
	}
	if (st > 0)
		snprintf(d->error, sizeof d->error, "%s: status 0x%x, syndrome 0x%08x", what,
			 (unsigned)st, (unsigned)d->last_syndrome);
	return -1;
}

/* ALLOC_PD / ALLOC_TRANSPORT_DOMAIN: the status, and the handle in *h. */
static int alloc(struct refdrv *d, const char *op, const char *out_layout, const char *field,
		 uint32_t *h)
{
	uint8_t in[16] = { 0 }, out[16] = { 0 };
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode(op));
	int st = refdrv_cmd(d, in, sizeof in, out, sizeof out);
	if (st == 0)
		*h = (uint32_t)refdrv_field_get(out, sizeof out, out_layout, field);
	return st;
}

static int dealloc(struct refdrv *d, const char *op, const char *in_layout, const char *field,
		   uint32_t h)
{
	uint8_t in[16] = { 0 }, out[16];
	refdrv_field_set(in, sizeof in, in_layout, "opcode", (uint64_t)refdrv_opcode(op));
	refdrv_field_set(in, sizeof in, in_layout, field, h);
	return refdrv_cmd(d, in, sizeof in, out, sizeof out);
}

/* T147 wqe_inline_mode of the current Ethernet offload capabilities (QUERY_HCA_CAP type 1); 0
 * (L2) when the device has none (T145 eth_net_offloads). */
static int eth_inline_cap(struct refdrv *d, unsigned *mode)
{
	*mode = 0;
	if (!refdrv_field_get(d->caps_cur, sizeof d->caps_cur, "hca_cap", "eth_net_offloads"))
		return 0;
	static const unsigned out_len = 0x1010;
	uint8_t in[16] = { 0 }, *out = malloc(out_len);
	if (!out)
		return -1;
	refdrv_field_set(in, sizeof in, "cmd_in", "opcode", (uint64_t)refdrv_opcode("QUERY_HCA_CAP"));
	refdrv_field_set(in, sizeof in, "cmd_in", "op_mod", 1u << 1 | 1u); /* §12.3.3: type 1, current */
	int st = refdrv_cmd(d, in, sizeof in, out, out_len);
	if (st == 0)
		*mode = (unsigned)refdrv_field_get(out + 0x10, 0x1000,
						   "per_protocol_networking_offload_caps",
						   "wqe_inline_mode");
	free(out);
	return st;
}

/* §7.9.3: the SQ's min_wqe_inline_mode (T61). With wqe_inline_mode 1 the vport sets the minimum:
 * the driver reads it ("SW must query the required minimal inline header by reading the NIC Vport
 * Context") and creates the SQ with the mode asked for, or with the vport's when none is ("the
 * NIC driver must set the minimal required inline header for the created SQ"); a mode below the
 * vport's is the caller's to ask for (CREATE_SQ refuses it). No command changes the vport's
 * (T483 has no field_select bit for it; D-VP-3). Otherwise the SQ takes the mode asked for, none
 * when none is. */
static int sq_inline_mode(struct refdrv *d, struct refdrv_sq_stack *s)
{
	unsigned cap;
	int m = s->a.min_wqe_inline_mode, st = eth_inline_cap(d, &cap);
	if (st != 0)
		return made(d, s, "QUERY_HCA_CAP(Ethernet offloads)", st);
	s->sq_inline_mode = m < 0 ? 0 : (unsigned)m;
	if (cap != 1 || m >= 0)
		return 0;
	struct refdrv_nic_vport v;
	if ((st = refdrv_query_nic_vport_context(d, REFDRV_LIST_UC, &v, NULL, 0)) != 0)
		return made(d, s, "QUERY_NIC_VPORT_CONTEXT", st);
	s->sq_inline_mode = v.min_wqe_inline_mode;
	return 0;
}

int refdrv_sq_stack_up(struct refdrv *d, const struct refdrv_sq_stack_attr *a,
		       struct refdrv_sq_stack *s)
{
	memset(s, 0, sizeof *s);
	s->a = *a;
	if (made(d, s, "ALLOC_PD", alloc(d, "ALLOC_PD", "alloc_pd_out", "pd", &s->pd)) ||
	    made(d, s, "ALLOC_TRANSPORT_DOMAIN",
		 alloc(d, "ALLOC_TRANSPORT_DOMAIN", "alloc_transport_domain_out",
		       "transport_domain", &s->td)) ||
	    made(d, s, "ALLOC_UAR", refdrv_alloc_uar(d, &s->uar)))
		return -1;
	struct refdrv_eq_attr ea = { .buf = a->eq_buf, .log_eq_size = EQ_LOG_SIZE, .uar = s->uar,
				     .events = EQ_EVENTS };
	if (made(d, s, "CREATE_EQ", refdrv_create_eq(d, &ea, &s->eq)))
		return -1;
	refdrv_eq_doorbell(d, &s->eq, true); /* §7.13.4: armed, so an EQE raises its interrupt */
	struct refdrv_cq_attr ca = { .buf = a->cq_buf, .dbr = a->cq_dbr,
				     .log_cq_size = a->log_cq_size, .cqe_sz = a->cqe_sz,
				     .uar = s->uar, .eqn = s->eq.eqn };
	if (made(d, s, "CREATE_CQ", refdrv_create_cq(d, &ca, &s->cq)))
		return -1;
	refdrv_cq_arm(d, &s->cq, false); /* §7.12.4: an event for the next completion */
	if (made(d, s, "CREATE_TIS", refdrv_create_tis(d, s->td, 0, &s->tisn)))
		return -1;
	/* §6.4: the data region, physical addresses (access_mode PA), local read (lr, T10). */
	struct refdrv_mkey_attr ma = { .access_mode = 0, .pd = s->pd, .tag = REFDRV_SQ_MKEY_TAG,
				       .start_addr = a->data_addr, .len = a->data_size };
	if (made(d, s, "CREATE_MKEY", refdrv_create_mkey(d, &ma, &s->mkey_index)))
		return -1;
	s->lkey = s->mkey_index << 8 | REFDRV_SQ_MKEY_TAG;
	if (sq_inline_mode(d, s))
		return -1;
	/* T61 user_index: "Reserved if HCA_CAP.cqe_version==0". */
	if (refdrv_field_get(d->caps_cur, sizeof d->caps_cur, "hca_cap", "cqe_version"))
		s->user_index = REFDRV_SQ_USER_INDEX;
	struct refdrv_sq_attr sa = {
		.wq = { .buf = a->sq_buf, .dbr = a->sq_dbr, .wq_type = 1, /* cyclic */
			.log_wq_sz = a->log_sq_size, .log_wq_stride = 6,  /* the WQEBB, §7.4.1.1 */
			.wq_signature = a->wq_signature, .pd = s->pd },
		.cqn = s->cq.cqn, .tisn = s->tisn, .uar = s->uar, .user_index = s->user_index,
		.min_wqe_inline_mode = s->sq_inline_mode, .flush_in_error_en = a->flush_in_error_en,
	};
	if (made(d, s, "CREATE_SQ", refdrv_create_sq(d, &sa, &s->sqn)) ||
	    made(d, s, "MODIFY_SQ(RST->RDY)", refdrv_modify_sq(d, s->sqn, 0, 1)))
		return -1;
	return 0;
}

int refdrv_sq_stack_down(struct refdrv *d, struct refdrv_sq_stack *s)
{
	int rc = 0;
#define DOWN(level, what, call)                                                                 \
	if (s->up >= (level)) {                                                                 \
		int st_ = (call);                                                               \
		if (st_ != 0 && rc == 0) {                                                      \
			if (st_ > 0)                                                            \
				snprintf(d->error, sizeof d->error, "%s: status 0x%x", what,    \
					 (unsigned)st_);                                        \
			rc = -1;                                                        \
		}                                                                       \
	}
	DOWN(UP_SQ, "DESTROY_SQ", refdrv_destroy_sq(d, s->sqn))
	DOWN(UP_MKEY, "DESTROY_MKEY", refdrv_destroy_mkey(d, s->mkey_index))
	DOWN(UP_TIS, "DESTROY_TIS", refdrv_destroy_tis(d, s->tisn))
	DOWN(UP_CQ, "DESTROY_CQ", refdrv_destroy_cq(d, s->cq.cqn))
	DOWN(UP_EQ, "DESTROY_EQ", refdrv_destroy_eq(d, s->eq.eqn))
	DOWN(UP_UAR, "DEALLOC_UAR", dealloc(d, "DEALLOC_UAR", "dealloc_uar_in", "uar", s->uar))
	DOWN(UP_TD, "DEALLOC_TRANSPORT_DOMAIN",
	     dealloc(d, "DEALLOC_TRANSPORT_DOMAIN", "dealloc_transport_domain_in",
		     "transport_domain", s->td))
	DOWN(UP_PD, "DEALLOC_PD", dealloc(d, "DEALLOC_PD", "dealloc_pd_in", "pd", s->pd))
#undef DOWN
	s->up = 0;
	return rc;
}

unsigned refdrv_bf_buffer_size(const struct refdrv *d)
{
	/* T145 log_bf_reg_size: a register of 2^n bytes holds two buffers; the Blue Flame area of a
	 * 4 KB UAR page (800h-FFFh) holds at most one register of 2 KB. */
	uint64_t log = refdrv_field_get(d->caps_cur, sizeof d->caps_cur, "hca_cap", "log_bf_reg_size");
	return (1u << (log < 2 ? 2 : log > 11 ? 11 : log)) / 2;
}

/* ---- Posting ------------------------------------------------------------------------------ */

static int sq_fail(struct refdrv *d, const char *what)
{
	snprintf(d->error, sizeof d->error, "%s", what);
	return -1;
}

int refdrv_sq_write(struct refdrv *d, struct refdrv_sq_stack *s, const uint8_t *wqe, size_t len)
{
	uint32_t nbb = 1u << s->a.log_sq_size;
	size_t bbs = (len + 63) / 64, ring = (size_t)nbb * 64;
	if (len == 0 || len > REFDRV_WQE_MAX || bbs > nbb)
		return sq_fail(d, "SQ: the WQE is empty, or longer than the ring or REFDRV_WQE_MAX");
	/* §7.4.1.1: the WQE at its first WQEBB; one that runs past the end of the buffer wraps. */
	size_t off = (size_t)(s->pc & (nbb - 1)) * 64, first = len < ring - off ? len : ring - off;
	if (d->ops.mem_write(d->ops.ctx, s->a.sq_buf + off, wqe, first) != 0 ||
	    (first < len && d->ops.mem_write(d->ops.ctx, s->a.sq_buf, wqe + first, len - first) != 0))
		return sq_fail(d, "SQ: host memory refused the WQE");
	s->last_index = s->pc;
	memset(s->last_wqe, 0, sizeof s->last_wqe);
	memcpy(s->last_wqe, wqe, len);
	s->last_len = len;
	s->posted = true;
	s->pc = (uint16_t)(s->pc + bbs); /* "sq_wqebb_counter wraps around 0xFFFF" */
	return 0;
}

int refdrv_sq_record(struct refdrv *d, struct refdrv_sq_stack *s)
{
	/* §7.4.3.1 step 2: the record counts every WQEBB posted. */
	if (refdrv_wq_dbr_write(d, s->a.sq_dbr, true, s->pc) != 0)
		return sq_fail(d, "SQ: host memory refused the doorbell record");
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The Blue Flame buffer of this posting: register 0 of the SQ's UAR page, its buffers used
 * alternately, even then odd (§7.2.2.1 "must be used alternately"). The parity belongs to the
 * register, not to the SQ: the QPs of a stack share one page (driver_qp.c), and every send
 * doorbell on the register, plain or Blue Flame, counts (D-DB-4). */
static uint32_t bf_buffer(struct refdrv *d, struct refdrv_sq_stack *s)
{
	uint8_t *odd = &d->bf_odd[s->uar % REFDRV_BF_UARS];
	uint32_t at = (uint32_t)(refdrv_uar_offset(d, s->uar) + BF_AREA +
				 (*odd & 1u) * refdrv_bf_buffer_size(d));
	*odd ^= 1u;
	return at;
}

void refdrv_sq_ring(struct refdrv *d, struct refdrv_sq_stack *s)
{
	uint32_t at = bf_buffer(d, s);
	d->ops.bar_write32(d->ops.ctx, at, be32(s->last_wqe));
	d->ops.bar_write32(d->ops.ctx, at + 4, be32(s->last_wqe + 4));
}

int refdrv_sq_ring_bf(struct refdrv *d, struct refdrv_sq_stack *s)
{
	/* §7.2.2.1: "padded up to the closest cache line boundary"; a WQE larger than the buffer
	 * "cannot be posted using BlueFlame". */
	size_t padded = (s->last_len + 63) & ~(size_t)63;
	if (padded > refdrv_bf_buffer_size(d))
		return sq_fail(d, "SQ: the WQE is larger than a Blue Flame buffer (§7.2.2.1)");
	uint32_t at = bf_buffer(d, s);
	for (size_t i = 8; i < padded; i += 4)
		d->ops.bar_write32(d->ops.ctx, at + (uint32_t)i, be32(s->last_wqe + i));
	d->ops.bar_write32(d->ops.ctx, at, be32(s->last_wqe));
	d->ops.bar_write32(d->ops.ctx, at + 4, be32(s->last_wqe + 4));
	return 0;
}

int refdrv_sq_post(struct refdrv *d, struct refdrv_sq_stack *s, const struct refdrv_wqe *w,
		   enum refdrv_ring ring)
{
	if (ring == REFDRV_RING_BF) {
		const struct nicref_layout *l = refdrv_wqe_layout(REFDRV_SEG_CTRL);
		uint64_t ds = l ? refdrv_field_get(w->b, w->len, l->name, F_DS) : 0;
		if (ds < 2)
			return sq_fail(d, "SQ: \"For WQEs with DS=1, blue flame is not supported\" "
					  "(§7.2.2.1)");
		if (((w->len + 63) & ~(size_t)63) > refdrv_bf_buffer_size(d))
			return sq_fail(d, "SQ: the WQE is larger than a Blue Flame buffer (§7.2.2.1)");
	}
	if (refdrv_sq_write(d, s, w->b, w->len) != 0)
		return -1;
	if (ring == REFDRV_RING_NONE)
		return 0;
	if (refdrv_sq_record(d, s) != 0)
		return -1;
	if (ring == REFDRV_RING_DB)
		refdrv_sq_ring(d, s);
	else if (ring == REFDRV_RING_BF)
		return refdrv_sq_ring_bf(d, s);
	return 0;
}
