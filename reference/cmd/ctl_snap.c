/* The control plane's part of a snapshot (nicref/snapshot.h): everything cmd/, obj/ and reg/
 * keep in struct nicref_dev (cmd/ctl_dev.h), captured by one row, the objects' (obj/obj.c),
 * because it is one struct those files share.
 *
 * What is captured here: the init segment, the lifecycle, the command counter, the ICM
 * charges, the interrupt moderation, the EQ-level state, the flow-steering roots and counts,
 * the vport's words and L2 table, the ports, the ADP register, the GID table, the doorbell
 * registers, and which objects are live in each table (cmd/ctl_snap_obj.c). What the objects
 * are made of (their structs, page lists, rings, flow entries, address lists, a QP's transport
 * state) is core's allocator's (core/devmem.h): the snapshot holds those blocks, so objects
 * created, destroyed or reallocated since come back as they were (D-SNAP-1).
 *
 * Restore allocates nothing in steady state; its cost is what changed: the tables' undo logs,
 * the blocks made or freed since, the bytes of the live blocks, and a few flat words. The GID
 * table (32 KB) and the L2 table are copied back only when a command wrote them since. */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "nicref/snapshot.h"

struct ctl_blob {
	struct init_seg iseg;
	uint64_t cmd_completed;
	struct hca hca;
	uint32_t obj_charged[OBJ_TYPE_COUNT];
	struct eq_dev eqd; /* its arrays are copied below, its pointers are not used */
	struct flow_dev flow;
	struct vport vport; /* its words; the L2 table's entries below */
	struct l2_entry *l2;
	struct port port[NICREF_MAX_PORTS];
	struct roce_accl roce_accl;
	uint64_t roce_addr_writes;
	uint8_t *roce_addr;
	uint16_t *int_min_delay;
	uint64_t *vec_last_ns;
	uint8_t *vec_flags, *vec_eqn;
	void *uar; /* the doorbell registers (uar_db_snap_save) */
	struct obj_live *live;
};

static size_t roce_addr_bytes(void)
{
	return (size_t)NICREF_MAX_PORTS * ROCE_ADDR_ENTRIES * ROCE_ADDR_BYTES;
}

void ctl_snap_free(void *blob)
{
	struct ctl_blob *b = blob;
	if (!b)
		return;
	free(b->l2);
	free(b->roce_addr);
	free(b->int_min_delay);
	free(b->vec_last_ns);
	free(b->vec_flags);
	free(b->vec_eqn);
	free(b->uar);
	obj_live_free(b->live);
	free(b);
}

int ctl_snap_save(struct nicref_dev *dev, const void *state, void **blob)
{
	(void)state;
	struct ctl_blob *b = calloc(1, sizeof *b);
	size_t nvec = dev->eqd.nvec, nmsix = dev->core.cfg.profile.msix_vectors;
	size_t nl2 = dev->vport->l2.n;
	*blob = b;
	if (!b || !(b->int_min_delay = malloc((nmsix ? nmsix : 1) * sizeof(uint16_t))) ||
	    !(b->vec_last_ns = malloc((nvec ? nvec : 1) * sizeof(uint64_t))) ||
	    !(b->vec_flags = malloc(nvec ? nvec : 1)) || !(b->vec_eqn = malloc(nvec ? nvec : 1)) ||
	    !(b->l2 = malloc((nl2 ? nl2 : 1) * sizeof *b->l2)) ||
	    !(b->roce_addr = malloc(roce_addr_bytes())) ||
	    !(b->uar = malloc(uar_db_snap_bytes(dev))) || !(b->live = obj_live_save(dev)))
		return -1;
	b->iseg = dev->iseg;
	b->cmd_completed = dev->cmd_completed;
	b->hca = dev->hca;
	memcpy(b->obj_charged, dev->obj_charged, sizeof b->obj_charged);
	b->eqd = dev->eqd;
	b->flow = dev->flow;
	b->vport = *dev->vport;
	if (nl2)
		memcpy(b->l2, dev->vport->l2.e, nl2 * sizeof *b->l2);
	memcpy(b->port, dev->port, sizeof b->port);
	b->roce_accl = dev->roce_accl;
	b->roce_addr_writes = dev->roce_addr_writes;
	memcpy(b->roce_addr, dev->roce_addr, roce_addr_bytes());
	memcpy(b->int_min_delay, dev->int_min_delay, nmsix * sizeof(uint16_t));
	memcpy(b->vec_last_ns, dev->eqd.vec_last_ns, nvec * sizeof(uint64_t));
	memcpy(b->vec_flags, dev->eqd.vec_flags, nvec);
	memcpy(b->vec_eqn, dev->eqd.vec_eqn, nvec);
	uar_db_snap_save(dev, b->uar);
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

/* The vport's words (its address lists are the allocator's blocks: the pointers are good);
 * its L2 table, which is not the allocator's (obj/l2_table.c), stays the one it holds and
 * gets the saved entries back when they differ. */
static void restore_vport(struct vport *v, const struct ctl_blob *b)
{
	struct l2_table l2 = v->l2;
	*v = b->vport;
	v->l2 = l2;
	size_t n = b->vport.l2.n;
	if (l2.n == n && (n == 0 || memcmp(l2.e, b->l2, n * sizeof *b->l2) == 0))
		return;
	l2_table_clear(&v->l2);
	for (size_t i = 0; i < n; i++) /* sorted: each goes at the end */
		NICREF_ASSERT(l2_table_insert(&v->l2, &b->l2[i]) == 0);
}

void ctl_snap_restore(struct nicref_dev *dev, void *state, const void *blob)
{
	(void)state;
	const struct ctl_blob *b = blob;
	obj_live_restore(dev, b->live);
	dev->iseg = b->iseg;
	dev->cmd_completed = b->cmd_completed;
	dev->hca = b->hca;
	memcpy(dev->obj_charged, b->obj_charged, sizeof dev->obj_charged);
	restore_eqd(&dev->eqd, b);
	dev->flow = b->flow;
	restore_vport(dev->vport, b);
	/* The profile's ports only (6 KB for all four, most of it counters): a port past
	 * profile.num_ports is no port of the device (port_get refuses it) and only a reset
	 * writes it, with the power-on values it held at the snapshot. */
	memcpy(dev->port, b->port, dev->core.cfg.profile.num_ports * sizeof dev->port[0]);
	dev->roce_accl = b->roce_accl;
	if (dev->roce_addr_writes != b->roce_addr_writes || !dev->core.snap_continues)
		memcpy(dev->roce_addr, b->roce_addr, roce_addr_bytes());
	dev->roce_addr_writes = b->roce_addr_writes;
	memcpy(dev->int_min_delay, b->int_min_delay,
	       dev->core.cfg.profile.msix_vectors * sizeof(uint16_t));
	uar_db_snap_restore(dev, b->uar);
}
