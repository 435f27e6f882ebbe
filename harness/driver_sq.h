/* Reference-driver helpers for the send path (PRM §7.4, §7.2.2, §7.12), on top of harness/driver.h
 * and the queue helpers (driver_eq.h, driver_cq.h, driver_wq.h, driver_mkey.h, driver_tir.h):
 *
 *   - an SQ stack brought up as a driver must (PD, TD, UAR, an EQ, a CQ, a TIS, an MKey over a
 *     data region, the SQ, RST -> RDY), and taken down in reverse;
 *   - send WQEs built segment by segment (§7.4.4.1, T25-T41) through the WQE segment layouts,
 *     looked up by name at run time, so a field is written where the library declares it;
 *   - posting (§7.4.3.1): the WQE into the ring at the producer counter (wrapping at the end of
 *     the buffer, §7.4.1.1), the doorbell record, then the doorbell (the WQE's first 8 bytes at
 *     offset 0 of a Blue Flame buffer, §7.2.2) or the whole WQE through Blue Flame (§7.2.2.1);
 *   - CQEs polled with the owner bit (§7.12.3.2, refdrv_cq_poll).
 *
 * Like driver.c it never triggers a driver violation: it is the example a driver author reads for
 * the send path. The lower-level calls (refdrv_sq_write, _record, _ring, _ring_bf) do exactly one
 * step each, so that a test or a vector can post what it likes in the order it likes; the
 * checked order is refdrv_sq_post. */
#ifndef NICREF_DRIVER_SQ_H
#define NICREF_DRIVER_SQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "driver_cq.h"
#include "driver_eq.h"

struct nicref_layout;

/* ---- The WQE segments and their layouts ----------------------------------------------------- */

/* The segments of a send WQE (§7.4.4.1, T31). Each has a layout, found by name in the library's
 * registry at run time (refdrv_wqe_layout_name says which names are tried, in order). */
enum refdrv_wqe_seg {
	REFDRV_SEG_CTRL,     /* T25/T26 ctrl segment */
	REFDRV_SEG_ETH,      /* T27/T28 Eth segment with its inline headers */
	REFDRV_SEG_DATA,     /* T38 memory-pointer data segment */
	REFDRV_SEG_INLINE,   /* T39 inline data segment */
	REFDRV_SEG_UMR_CTRL, /* T32/T33 UMR control segment */
	REFDRV_SEG_MKEY_CTX, /* T31 40h-7Ch: the MKey context (T9/T10) of a UMR WQE */
	REFDRV_SEG_KLM,      /* T36/T37 one KLM */
	REFDRV_SEG_MTT,      /* T11/T12 one MTT entry */
	REFDRV_SEG_UMR_PTR,  /* T34/T35 the UMR pointer to the translations */
	REFDRV_SEG_COUNT
};
/* The segment's layout, or NULL when the library declares none of its names. */
const struct nicref_layout *refdrv_wqe_layout(enum refdrv_wqe_seg seg);
/* The names tried for the segment's layout, "a or b", for messages. */
const char *refdrv_wqe_layout_name(enum refdrv_wqe_seg seg);

/* WQE opcodes (T26 OPCODE): NOP 00h, SEND 0Ah, LSO 0Eh, UMR 25h. Rev 0.40 lists no LSO opcode in
 * T26; 0Eh is the public mlx5 value (MLX5_OPCODE_LSO). */
int refdrv_wqe_opcode_find(const char *name);   /* -1 if unknown */
const char *refdrv_wqe_opcode_name(unsigned op); /* NULL if none */

/* ---- Building a WQE ----------------------------------------------------------------------- */

/* ds is 6 bits (T26): a WQE is at most 63 octowords; the buffer holds one octoword more so that a
 * test can build a WQE that ds cannot describe. */
#define REFDRV_WQE_MAX 1024u
#define REFDRV_WQE_DS_MAX 63u

struct refdrv_wqe {
	uint8_t b[REFDRV_WQE_MAX];
	size_t len;        /* bytes built so far: a multiple of 16 (§7.4.4.1 "Segment size is a
			    * multiple of 16 bytes") */
	const char *error; /* why the last call failed */
};

/* Starts a WQE: its ctrl segment with opcode, wqe_index (the producer counter pc) and sq_number.
 * Each call below appends one segment and returns its offset in w->b, or -1 with w->error set
 * (no such layout in the library, or past REFDRV_WQE_MAX). */
long refdrv_wqe_begin(struct refdrv_wqe *w, unsigned opcode, uint16_t pc, uint32_t sqn);
/* Sets the ctrl segment's wqe_index and sq_number (of a WQE given whole): 0, or -1. */
int refdrv_wqe_address(struct refdrv_wqe *w, uint16_t pc, uint32_t sqn);
/* The Eth segment (T27/T28): inline_header_size n and the n header bytes from 0Eh, over as many
 * octowords as they need (the last one zero-padded). Offload fields are set by the caller
 * through the layout (l3cs, l4cs, mss). */
long refdrv_wqe_eth(struct refdrv_wqe *w, const uint8_t *hdr, size_t n);
/* A memory-pointer data segment (T38). */
long refdrv_wqe_ptr(struct refdrv_wqe *w, uint32_t lkey, uint64_t addr, uint32_t byte_count);
/* An inline data segment (T39): bit 31 set, byte_count n, the n bytes from 04h, zero-padded to
 * the octoword. */
long refdrv_wqe_inline(struct refdrv_wqe *w, const uint8_t *data, size_t n);
/* A zeroed segment of a fixed-size layout (UMR control, MKey context, UMR pointer). */
long refdrv_wqe_seg(struct refdrv_wqe *w, enum refdrv_wqe_seg seg);
/* Room for n KLMs or MTT entries, zeroed, the list padded to 64 bytes (T33: "KLM list should be
 * aligned to 64B"). Entry i is at the offset returned + i * the layout's size. */
long refdrv_wqe_entries(struct refdrv_wqe *w, enum refdrv_wqe_seg seg, size_t n);

/* The ctrl segment's completion fields (T26). */
struct refdrv_wqe_ctrl {
	unsigned ce; /* 0 CQE on error only, 1 on the first error, 2 always, 3 CQE and EQE */
	bool se;     /* solicited event */
	unsigned fm; /* fence mode */
};
/* Ends the WQE: ce, se, fm, ds (the octowords built) and, when the SQ checks signatures, the
 * signature (refdrv_wqe_sign). 0, or -1 when ds cannot count the WQE. */
int refdrv_wqe_finish(struct refdrv_wqe *w, const struct refdrv_wqe_ctrl *c, bool signature);
/* Sets the ctrl segment's signature (T26, §9.2.3 "In addition to the WQE itself, the SQ/RQ
 * number ... and the index of that particular WQE are considered"): the byte that makes the ds
 * octowords of the WQE (at most w->len bytes), the three bytes of the SQ number and the two of
 * the WQE index (big-endian), those of its ctrl segment, XOR to 0xFF (D-WQE-2). */
void refdrv_wqe_sign(struct refdrv_wqe *w);
/* That signature byte for wqe[0, n) of SQ sqn at WQE index `index`, whatever the WQE's signature
 * byte holds now. */
uint8_t refdrv_wqe_signature(const uint8_t *wqe, size_t n, uint32_t sqn, uint16_t index);

/* ---- The SQ stack ------------------------------------------------------------------------- */

/* What to bring up. Defaults (refdrv_sq_stack_defaults) are the vectors' tx_setup defaults and
 * placement (docs/vectors.md "Send path"). */
struct refdrv_sq_stack_attr {
	unsigned log_sq_size;         /* WQEBBs: 2^log_sq_size of 64 bytes */
	unsigned log_cq_size, cqe_sz; /* CQEs: 2^log_cq_size of 64 << cqe_sz bytes */
	int min_wqe_inline_mode;      /* §7.9.3.1 mode 0-7 of the SQ (T61); -1 (the default):
				       * the vport's minimum (T16) */
	bool flush_in_error_en, wq_signature;
	uint64_t data_addr, data_size; /* the data region the MKey covers */
	uint64_t sq_buf, sq_dbr, cq_buf, cq_dbr, eq_buf; /* host placement */
};
void refdrv_sq_stack_defaults(struct refdrv_sq_stack_attr *a);

#define REFDRV_SQ_MKEY_TAG 0x5Au      /* mkey[7:0] of the data MKey: lkey = index << 8 | tag */
#define REFDRV_SQ_USER_INDEX 0x123456u /* the SQ's user_index when HCA_CAP.cqe_version is 1 */

struct refdrv_sq_stack {
	struct refdrv_sq_stack_attr a;
	uint32_t pd, td, uar, tisn, mkey_index, lkey, sqn, user_index;
	unsigned sq_inline_mode; /* the SQ's min_wqe_inline_mode as created */
	struct refdrv_eq eq;
	struct refdrv_cq cq;
	/* posting state */
	uint16_t pc;         /* sq_wqebb_counter: the next free WQEBB (§7.4.1.1) */
	bool posted;         /* a WQE was written */
	uint16_t last_index; /* the first WQEBB of the last WQE written */
	uint8_t last_wqe[REFDRV_WQE_MAX];
	size_t last_len;
	unsigned up;         /* how many of the objects exist (for the teardown) */
};

/* Brings the stack up, in this order: ALLOC_PD, ALLOC_TRANSPORT_DOMAIN, ALLOC_UAR, CREATE_EQ (the
 * completion events of its CQ and the asynchronous events of a work queue or CQ: types 04h, 05h,
 * 10h-13h), armed; CREATE_CQ on it, armed for the next completion (§7.12.4); CREATE_TIS;
 * CREATE_MKEY (PA, local read, the PD) over the data region; with HCA_CAP.wqe_inline_mode 1
 * (T147) QUERY_NIC_VPORT_CONTEXT, and when a mode other than the vport's minimum is asked
 * for, MODIFY_NIC_VPORT_CONTEXT of it and QUERY_NIC_VPORT_CONTEXT again: the SQ takes the vport's
 * minimum (§7.9.3 "SW must query the required minimal inline header"); CREATE_SQ in RST with its doorbell record zeroed; MODIFY_SQ RST -> RDY.
 * 0, or -1 with d->error naming the step (what was made stays in s for refdrv_sq_stack_down). */
int refdrv_sq_stack_up(struct refdrv *d, const struct refdrv_sq_stack_attr *a,
		       struct refdrv_sq_stack *s);
/* Destroys what refdrv_sq_stack_up made, in reverse. 0, or -1 with d->error. */
int refdrv_sq_stack_down(struct refdrv *d, struct refdrv_sq_stack *s);

/* The Blue Flame buffer size of the device (T145 log_bf_reg_size: a register of two buffers). */
unsigned refdrv_bf_buffer_size(const struct refdrv *d);

/* ---- Posting (§7.4.3.1) ------------------------------------------------------------------- */

/* Step 1: the WQE into the ring at the producer counter (wrapping at the end of the buffer,
 * §7.4.1.1); the counter advances by the WQE's WQEBBs. The WQE is remembered as the last one
 * written (its first 8 bytes are the doorbell). 0, or -1 (host memory, or longer than the ring). */
int refdrv_sq_write(struct refdrv *d, struct refdrv_sq_stack *s, const uint8_t *wqe, size_t len);
/* Step 2: the doorbell record's sq_wqebb_counter := the producer counter (T24 send word). */
int refdrv_sq_record(struct refdrv *d, struct refdrv_sq_stack *s);
/* Step 3: the send doorbell: dwords 0 and 1 of the last WQE written, lower first (§7.2.2.2), at
 * offset 0 of the SQ's Blue Flame register's buffer for this posting (§7.2.2: "writing the
 * first 8 bytes of the WQE ... to offset 0 of the blue flame register"; the buffers alternate,
 * §7.2.2.1). */
void refdrv_sq_ring(struct refdrv *d, struct refdrv_sq_stack *s);
/* Step 3 through Blue Flame (§7.2.2.1): the whole last WQE into the buffer, padded with zeros to
 * the 64-byte cache line, from its third dword on and then dwords 0 and 1 (out of order is
 * allowed; the device acts at the doorbell dwords). -1 when the WQE is larger than the buffer
 * ("then the WQE cannot be posted using BlueFlame"). */
int refdrv_sq_ring_bf(struct refdrv *d, struct refdrv_sq_stack *s);

enum refdrv_ring {
	REFDRV_RING_DB,     /* record, then the doorbell */
	REFDRV_RING_BF,     /* record, then the WQE through Blue Flame */
	REFDRV_RING_RECORD, /* the record only (§7.4.3.1: "HW may execute WQE after the second step") */
	REFDRV_RING_NONE,   /* post only */
};
/* Writes the WQE and rings as `ring` says, refusing (-1, d->error) what the PRM forbids: Blue
 * Flame for a WQE of ds 1 or larger than the buffer (§7.2.2.1). */
int refdrv_sq_post(struct refdrv *d, struct refdrv_sq_stack *s, const struct refdrv_wqe *w,
		   enum refdrv_ring ring);

#endif
