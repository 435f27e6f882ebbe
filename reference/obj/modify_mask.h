/* Private to libnicref: what a MODIFY command's bitmask leaves of its context (PRM §12.8-§12.13;
 * decision D-MOD-1 in docs/decisions.md), used by MODIFY_TIR, MODIFY_TIS, MODIFY_RQT
 * (obj/tir.c, tis.c, rqt.c) and MODIFY_SQ, MODIFY_RQ, MODIFY_RMP (obj/sq.c, rq.c, rmp.c); and
 * the context fields another field's value makes reserved (CREATE/MODIFY_TIR, D-TIR-3). */
#ifndef NICREF_OBJ_MODIFY_MASK_H
#define NICREF_OBJ_MODIFY_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "nicref/cmd.h"
#include "nicref/layout.h"

struct cmd_ctx;

/* A field of a MODIFY input layout (its index, PRMF_<layout>__<field>) and the modify_bitmask
 * bit that selects it (T48, T51, T56, T62, T66, T354), or MODIFY_ALWAYS for a field every
 * MODIFY carries (the state of T56/T62/T66, "R" in every transition). */
struct modify_sel {
	uint16_t field;
	uint8_t bit;
};
#define MODIFY_ALWAYS 0xFFu

/* T286/T303/T320/T337/T354/T371: "Only fields requested by the mask should be valid. Other
 * fields are reserved." Every field of `l` at or after byte `ctx_off` (the context) that no row
 * of `sel` selects under `mask` is reserved here, as a bit no field covers is (D-CMD-8): each
 * input dword with such a bit set is a violation CMD_RESERVED_NOT_ZERO, arg (byte offset of the
 * dword << 32 | the bits), and the result is RESERVED_NOT_ZERO under the strict profile
 * (reserved_check 1), NONE otherwise (the fields are then not used). Arrays past the fixed
 * part are not the layout's to judge (D-CMD-8). D-MOD-1. */
enum nicref_cmd_rule modify_check_unselected(struct cmd_ctx *c, const struct nicref_layout *l,
					     size_t ctx_off, const struct modify_sel *sel,
					     size_t nsel, uint64_t mask);

/* Fields that another field's value makes reserved (T45 "Reserved when disp_type != Indirect",
 * "Reserved for HASH_NONE", ...): the fields (indices) of layout l, which sits at byte `off` of
 * the command input, are reserved in this input, with D-CMD-8's one rule as above: a violation
 * CMD_RESERVED_NOT_ZERO per input dword with one of their bits set, and RESERVED_NOT_ZERO
 * under the strict profile, NONE otherwise (D-TIR-3, D-WQ-8). */
enum nicref_cmd_rule fields_reserved_here(struct cmd_ctx *c, const struct nicref_layout *l,
					  size_t off, const uint16_t *fields, size_t n);

#endif
