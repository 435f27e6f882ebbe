/* The control plane's part of a snapshot (nicref/snapshot.h): everything cmd/, obj/ and reg/
 * keep in struct nicref_dev (cmd/ctl_dev.h), captured by one row, the objects' (obj/obj.c),
 * because it is one struct those files share.
 *
 * What is captured: the init segment, the lifecycle, the command counter, the interrupt
 * moderation, the object tables' handle ranges (INIT_HCA opens them), the EQ-level state, the
 * flow-steering roots and counts, the vport's settings and counters, the ports, the ADP
 * register, and the words of every live object with the doorbell registers
 * (cmd/ctl_snap_obj.c).
 *
 * Restore takes one of two ways, both without allocating:
 *  - the device was last taken into or restored from this snapshot, no command that may
 *    allocate or free what objects hold succeeded since (queries, modifications in place,
 *    registers and pages do not count: ctl_snap_note) and the same objects are live: the
 *    objects' words come back (cost: the live objects), then the saved state;
 *  - the snapshot holds no object and no vport list: what commands made since goes as
 *    TEARDOWN_HCA takes it (cost: those objects, and reopening the ranges they used), then the
 *    saved state.
 * Otherwise (commands ran over a snapshot holding objects: they may have freed or reallocated
 * what the words point into) the snapshot cannot bring the device back, and says so
 * (snap_restorable) before anything changes. */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "nicref/snapshot.h"

struct ctl_blob {
	struct init_seg iseg;
	uint64_t cmd_completed;
	struct hca hca;
	uint32_t base[OBJ_TYPE_COUNT], limit[OBJ_TYPE_COUNT];
	struct eq_dev eqd; /* its arrays are copied below, its pointers are not used */
	struct flow_dev flow;
	struct vport vport; /* lists and L2 table empty (refused otherwise) */
	struct port port[NICREF_MAX_PORTS];
	struct roce_accl roce_accl;
	uint16_t *int_min_delay;
	uint64_t *vec_last_ns;
	uint8_t *vec_flags, *vec_eqn;
	struct obj_words *objs;
	bool bare; /* no object, no vport list or L2 entry: restorable after any command */
};

static bool objects_live(const struct nicref_dev *dev)
{
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		if (dev->obj[t].nlive)
			return true;
	const struct vport *v = dev->vport;
	for (unsigned t = 0; t < VPORT_LISTS; t++)
		if (v->list_len[t])
			return true;
	return v->l2.n != 0 || dev->eqd.cq.ntimers != 0;
}

void ctl_snap_free(void *blob)
{
	struct ctl_blob *b = blob;
	if (!b)
		return;
	free(b->int_min_delay);
	free(b->vec_last_ns);
	free(b->vec_flags);
	free(b->vec_eqn);
	obj_words_free(b->objs);
	free(b);
}

int ctl_snap_save(const struct nicref_dev *dev, const void *state, void **blob)
{
	(void)state;
	/* QPs hold their buffer's pages and the transport's state by pointer (obj/qp.h): not
	 * captured (docs/roce.md D-ROCE-18). */
	if (dev->obj[OBJ_QP].nlive)
		return NICREF_SNAP_UNSUPPORTED_STATE;
	struct ctl_blob *b = calloc(1, sizeof *b);
	size_t nvec = dev->eqd.nvec, nmsix = dev->core.cfg.profile.msix_vectors;
	*blob = b;
	if (!b || !(b->int_min_delay = malloc((nmsix ? nmsix : 1) * sizeof(uint16_t))) ||
	    !(b->vec_last_ns = malloc((nvec ? nvec : 1) * sizeof(uint64_t))) ||
	    !(b->vec_flags = malloc(nvec ? nvec : 1)) || !(b->vec_eqn = malloc(nvec ? nvec : 1)) ||
	    !(b->objs = obj_words_save(dev)))
		return -1;
	b->bare = !objects_live(dev);
	b->iseg = dev->iseg;
	b->cmd_completed = dev->cmd_completed;
	b->hca = dev->hca;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		b->base[t] = dev->obj[t].base;
		b->limit[t] = dev->obj[t].limit;
	}
	b->eqd = dev->eqd;
	b->flow = dev->flow;
	b->vport = *dev->vport;
	memcpy(b->port, dev->port, sizeof b->port);
	b->roce_accl = dev->roce_accl;
	memcpy(b->int_min_delay, dev->int_min_delay, nmsix * sizeof(uint16_t));
	memcpy(b->vec_last_ns, dev->eqd.vec_last_ns, nvec * sizeof(uint64_t));
	memcpy(b->vec_flags, dev->eqd.vec_flags, nvec);
	memcpy(b->vec_eqn, dev->eqd.vec_eqn, nvec);
	return 0;
}

static void restore_eqd(struct eq_dev *d, const struct ctl_blob *b)
{
	uint64_t *last = d->vec_last_ns;
	uint8_t *flags = d->vec_flags, *eqn = d->vec_eqn;
	*d = b->eqd;
	d->vec_last_ns = last;
	d->vec_flags = flags;
	d->vec_eqn = eqn;
	memcpy(last, b->vec_last_ns, d->nvec * sizeof *last);
	memcpy(flags, b->vec_flags, d->nvec);
	memcpy(eqn, b->vec_eqn, d->nvec);
}

/* The vport's words; its lists and L2 table stay the (empty) ones it holds now. */
static void restore_vport(struct vport *v, const struct vport *saved)
{
	struct vport now = *v;
	*v = *saved;
	for (unsigned t = 0; t < VPORT_LISTS; t++) {
		v->list[t] = now.list[t];
		v->list_len[t] = now.list_len[t];
	}
	v->l2 = now.l2;
}

/* Commands that change objects only in their words or the device's flat state: no allocation
 * an object holds is freed or made (MODIFY_CQ may resize, MODIFY_NIC_VPORT_CONTEXT reallocates
 * the address lists: they are not here; nor is any command this list does not know). */
static const uint16_t in_place_ops[] = {
	NICREF_OP_QUERY_HCA_CAP,	   NICREF_OP_QUERY_ADAPTER,
	NICREF_OP_QUERY_PAGES,		   NICREF_OP_MANAGE_PAGES,
	NICREF_OP_SET_HCA_CAP,		   NICREF_OP_QUERY_ISSI,
	NICREF_OP_SET_DRIVER_VERSION,	   NICREF_OP_QUERY_MKEY,
	NICREF_OP_QUERY_SPECIAL_CONTEXTS,  NICREF_OP_QUERY_EQ,
	NICREF_OP_GEN_EQE,		   NICREF_OP_QUERY_CQ,
	NICREF_OP_QUERY_VPORT_STATE,	   NICREF_OP_MODIFY_VPORT_STATE,
	NICREF_OP_QUERY_NIC_VPORT_CONTEXT, NICREF_OP_QUERY_VPORT_COUNTER,
	NICREF_OP_CONFIG_INT_MODERATION,   NICREF_OP_ACCESS_REG,
	NICREF_OP_NOP,			   NICREF_OP_QUERY_L2_TABLE_ENTRY,
	NICREF_OP_MODIFY_TIR,		   NICREF_OP_QUERY_TIR,
	NICREF_OP_MODIFY_SQ,		   NICREF_OP_QUERY_SQ,
	NICREF_OP_MODIFY_RQ,		   NICREF_OP_QUERY_RQ,
	NICREF_OP_MODIFY_RMP,		   NICREF_OP_QUERY_RMP,
	NICREF_OP_MODIFY_TIS,		   NICREF_OP_QUERY_TIS,
	NICREF_OP_MODIFY_RQT,		   NICREF_OP_QUERY_RQT,
	NICREF_OP_SET_FLOW_TABLE_ROOT,	   NICREF_OP_QUERY_FLOW_TABLE,
	NICREF_OP_QUERY_FLOW_GROUP,	   NICREF_OP_QUERY_FLOW_TABLE_ENTRY,
	NICREF_OP_QUERY_FLOW_COUNTER,	   NICREF_OP_MODIFY_FLOW_TABLE,
};

void ctl_snap_note(struct nicref_dev *dev, unsigned opcode)
{
	for (size_t i = 0; i < sizeof in_place_ops / sizeof in_place_ops[0]; i++)
		if (in_place_ops[i] == opcode)
			return;
	dev->core.snap_last = 0;
}

/* The same objects, and no command since that may have freed or made what they hold: their
 * words are enough. */
static bool words_suffice(const struct nicref_dev *dev, const struct ctl_blob *b)
{
	return dev->core.snap_continues && obj_words_same(dev, b->objs);
}

bool ctl_snap_restorable(const struct nicref_dev *dev, const void *state, const void *blob)
{
	(void)state;
	const struct ctl_blob *b = blob;
	return b->bare || words_suffice(dev, b);
}

void ctl_snap_restore(struct nicref_dev *dev, void *state, const void *blob)
{
	(void)state;
	const struct ctl_blob *b = blob;
	if (words_suffice(dev, b)) {
		obj_words_restore(dev, b->objs);
	} else {
		NICREF_ASSERT(b->bare); /* ctl_snap_restorable said so */
		if (objects_live(dev))
			hca_release_objects(dev);
		uar_db_reset(dev); /* doorbell halves of UARs made and destroyed since */
	}
	/* An empty table over the same range hands out the same handles (the lowest free first,
	 * D-OBJ-2) whatever it held before: only a range that moved is set again. */
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		if (dev->obj[t].base != b->base[t] || dev->obj[t].limit != b->limit[t])
			objtab_reset(&dev->obj[t], b->base[t], b->limit[t], NULL, NULL);
	dev->iseg = b->iseg;
	dev->cmd_completed = b->cmd_completed;
	dev->hca = b->hca;
	restore_eqd(&dev->eqd, b);
	dev->flow = b->flow;
	restore_vport(dev->vport, &b->vport);
	memcpy(dev->port, b->port, sizeof dev->port);
	dev->roce_accl = b->roce_accl;
	memcpy(dev->int_min_delay, b->int_min_delay,
	       dev->core.cfg.profile.msix_vectors * sizeof(uint16_t));
}
