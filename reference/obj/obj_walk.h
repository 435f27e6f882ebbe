/* Private to libnicref: the invariants' one walk of the object tables (obj/obj_check.c).
 *
 * nicref_dev_check runs after every op of every fuzz target. It walked each table three times:
 * once for the references its objects hold (the families' *_dev_refs), once for the reference
 * counts, once for each family's own invariants (*_dev_check). Now each family gives, per
 * object of each of its types, the references it holds and its own invariants, and
 * obj_dev_check walks every table once, doing all three on each object; it keeps what each
 * table found first and reports in the order the three walks did (obj_check.c), so a broken
 * device reports the same invariant as before. The families' *_dev_refs loop over the same
 * per-object functions (the explanation of a broken reference count calls them). */
#ifndef NICREF_OBJ_OBJ_WALK_H
#define NICREF_OBJ_OBJ_WALK_H

#include <stdint.h>

#include "obj/eq.h"
#include "obj/flow.h"
#include "obj/obj.h"

struct nicref_dev;

/* The type-to-EQ map (T244) as the EQs it names (eqn + 1) and the types mapped to each, built
 * in one pass over the 64 types before the EQs are checked (obj/eq.c). */
struct eq_map {
	unsigned n;
	uint32_t named[EQ_EVENT_TYPES]; /* type_eq values, each once */
	uint64_t types[EQ_EVENT_TYPES]; /* bit t: type_eq[t] == named[i] */
};

/* What a family's checks add up over its objects, for its checks at the end of the walk. */
struct obj_walk {
	struct eq_map eq;
	uint32_t cq_timers;                                 /* CQs marked on the timer list */
	uint32_t ft_tables[FLOW_TYPES], ft_flows[FLOW_TYPES]; /* live tables, valid flows */
};

/* One live object `o` of handle h: the references it holds (obj.h), and its own invariants
 * (0, or the family's number: nicref/invariants.h), adding to w what the family's end check
 * needs. Each type's pair is in its family's file. */
typedef void (*obj_refs_fn)(const void *o, obj_ref_visit visit, void *ctx);
typedef int (*obj_check_fn)(const struct nicref_dev *dev, uint32_t h, const void *o,
			    struct obj_walk *w);

void eq_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void cq_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void sq_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void rq_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void rmp_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void mkey_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void tir_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void rqt_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void tis_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void ft_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void fg_obj_refs(const void *o, obj_ref_visit visit, void *ctx);
void qp_obj_refs(const void *o, obj_ref_visit visit, void *ctx);

int eq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int cq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int sq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int rq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int rmp_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int mkey_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int tir_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int rqt_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int tis_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);
int ft_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w);

/* Before the walk: what the object checks read (the EQ map, obj/eq.c), the sums at zero. */
void eq_map_build(const struct nicref_dev *dev, struct eq_map *m);
void obj_walk_start(const struct nicref_dev *dev, struct obj_walk *w);
/* After every object of the family passed: the family's checks of the whole (0 or its
 * number). */
int eq_check_end(const struct nicref_dev *dev, const struct obj_walk *w);
int cq_check_end(const struct nicref_dev *dev, const struct obj_walk *w);
int flow_check_end(const struct nicref_dev *dev, const struct obj_walk *w);

/* Walks one table with a type's functions (the families' *_dev_refs), or its checks (0, or the
 * first broken). */
void obj_table_refs(const struct nicref_dev *dev, enum obj_type type, obj_refs_fn refs,
		    obj_ref_visit visit, void *ctx);
int obj_table_check(const struct nicref_dev *dev, enum obj_type type, obj_check_fn check,
		    struct obj_walk *w);

#endif
