/* Private to libnicref: what every object of the control plane shares (PRM §3.1).
 *
 * Each object type has an object table (obj/objtab.h) in struct nicref_dev, numbered from its
 * base (D-OBJ-2), and each object struct starts with a struct obj_hdr. An object that another
 * one names (a CQ named by an SQ's cqn, a PD by an MKey, ...) holds a reference count; the
 * creator takes the reference when its create succeeds and drops it when it is destroyed, and
 * a destroy of an object with references is refused with BAD_RES_STATE, changing nothing
 * (D-OBJ-1). nicref_dev_check recounts every reference from the objects that hold them. */
#ifndef NICREF_OBJ_OBJ_H
#define NICREF_OBJ_OBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicref/cmd.h"

/* The object types of the model, in creation order (§3.1 Figure 3). */
#define NICREF_OBJ_TYPES(X)                                                                     \
	X(PD, pd)                                                                               \
	X(UAR, uar)                                                                             \
	X(TD, td)                                                                               \
	X(MKEY, mkey)                                                                           \
	X(EQ, eq)                                                                               \
	X(CQ, cq)                                                                               \
	X(TIS, tis)                                                                             \
	X(SQ, sq)                                                                               \
	X(RMP, rmp)                                                                             \
	X(RQ, rq)                                                                               \
	X(RQT, rqt)                                                                             \
	X(TIR, tir)                                                                             \
	X(FC, fc)                                                                               \
	X(FT, ft)                                                                               \
	X(FG, fg)                                                                               \
	X(QP, qp) /* beyond PRM Rev 0.40 (issue 17, docs/roce.md) */                          \
	X(UMEM, umem) /* beyond PRM Rev 0.40 (issue 14 M2, docs/umem.md) */

enum obj_type {
#define OBJ_TYPE_ENUM(T, t) OBJ_##T,
	NICREF_OBJ_TYPES(OBJ_TYPE_ENUM)
#undef OBJ_TYPE_ENUM
	OBJ_TYPE_COUNT
};

struct obj_hdr {
	uint32_t refs;   /* live objects that name this one */
	uint32_t handle; /* its number in its table */
};

struct nicref_dev;

/* The object of type `type` and handle h, or NULL when none is live. */
void *obj_get(const struct nicref_dev *dev, enum obj_type type, uint32_t h);

/* D-OBJ-2, D-MKC-13: whether h lies in the range of type's table, [base, limit). A command
 * that names a handle outside it answers BAD_INDEX (T128 0x0A "Index out of range (might be
 * beyond table size ...)"), one in range but not live BAD_RESOURCE (0x05 "unallocated
 * resource"). The one range test of every family. */
bool obj_in_range(const struct nicref_dev *dev, enum obj_type type, uint32_t h);
/* The live object a command names, or NULL with *r the rule it breaks: `beyond` (a BAD_INDEX
 * rule) outside the range, `missing` (a BAD_RESOURCE rule) in range but not live. */
void *obj_find(const struct nicref_dev *dev, enum obj_type type, uint32_t h,
	       enum nicref_cmd_rule beyond, enum nicref_cmd_rule missing, enum nicref_cmd_rule *r);

/* ICM pages (D-PG-2, D-PG-4): contexts live in pages the driver gave. Each type costs one
 * page per profile.contexts_per_page live contexts (rounded up). obj_charge reserves the room
 * for one more object of `type`: 0, or -1 when the pages held do not cover it; the device then
 * asks the driver for the missing pages with a Page Request event (PRM §7.13.10.2 T91/T92) and
 * the create fails with NO_RESOURCES (T128 0x0F). obj_uncharge gives the room back (a destroy,
 * or a create refused after charging). */
int obj_charge(struct nicref_dev *dev, enum obj_type type);
void obj_uncharge(struct nicref_dev *dev, enum obj_type type);
/* Pages the live objects need (part of QUERY_PAGES regular). */
uint32_t obj_pages_required(const struct nicref_dev *dev);


/* Invariants: each family reports the references its live objects hold (the type and handle of
 * each object they name); obj_subsys's check then checks that each names a live object and that, per
 * type, the reference counts add up to the references reported. */
typedef void (*obj_ref_visit)(void *ctx, enum obj_type type, uint32_t handle);
void eq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
void cq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
void wq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
void mkey_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);
void tir_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx);

/* Objects that are only a handle and a reference count (PD, UAR, TD). alloc: the handle, -1
 * when the range is full, -2 out of memory. free: 0, -1 not live, -2 still named (D-OBJ-1). */
int64_t obj_alloc_plain(struct nicref_dev *dev, enum obj_type type);
int obj_free_plain(struct nicref_dev *dev, enum obj_type type, uint32_t h);

/* The object tables' life, time and invariants are obj_subsys (obj/obj.c, cmd/ctl_dev.h): its
 * row of the subsystem table creates the tables with the device, empties them at reset
 * (hca_release_objects), and checks them and every family (nicref/invariants.h) with
 * obj_dev_check (obj/obj_check.c): 0, or the first broken, described into buf as dev_broken
 * does. */
int obj_dev_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len);

/* PD, UAR and TD hold no context; the other types take ICM (D-PG-4). A UMEM's translation is
 * the model's host-side state, charged to no ICM page (docs/umem.md D-UMEM-1). */
static inline bool obj_takes_icm(enum obj_type t)
{
	return t != OBJ_PD && t != OBJ_UAR && t != OBJ_TD && t != OBJ_UMEM;
}

#endif
