/* Private to libnicref: the doorbell layer. Every write to a UAR page is decoded in one place,
 * obj/uar_db.c (PRM §7.2 T13/T14, §7.2.2), and handed to its queue through the small interface
 * below, which the queue families implement. The split CQ doorbell's first half and the Blue
 * Flame buffers are held there, in storage made when a UAR number is first allocated: no
 * doorbell and no Blue Flame write allocates.
 *
 * It sits in obj/ (the control plane's layer, reference/layers.txt) because everything it
 * reads is there: the UAR objects that say which pages may be rung (ALLOC_UAR) and the queues
 * it hands each doorbell to; the BAR0 map above (device/bar0.c) hands it the UAR area. */
#ifndef NICREF_OBJ_UAR_DB_H
#define NICREF_OBJ_UAR_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nicref_dev;

/* The registers' life (obj/obj.c calls them with the object families): made with the device,
 * emptied when the objects go (TEARDOWN_HCA, DISABLE_HCA, reset). init: 0, or -1 out of
 * memory. */
int uar_db_init(struct nicref_dev *dev);
void uar_db_fini(struct nicref_dev *dev);
void uar_db_reset(struct nicref_dev *dev);
/* ALLOC_UAR gave out UAR number `uar`: its page's registers exist from now on (made at the
 * number's first allocation, kept until the device goes). 0, or -1 out of memory. */
int uar_db_open(struct nicref_dev *dev, uint32_t uar);

/* Snapshots of the registers (cmd/ctl_snap_obj.c): a blob of uar_db_snap_bytes; restore needs
 * the pages saved to exist (they do: a page stays until the device goes). */
size_t uar_db_snap_bytes(const struct nicref_dev *dev);
void uar_db_snap_save(struct nicref_dev *dev, void *blob);
void uar_db_snap_restore(struct nicref_dev *dev, const void *blob);

/* A BAR0 dword write at `offset`, in the UAR area (past profile.uar_base pages). */
void uar_db_write(struct nicref_dev *dev, uint32_t offset, uint32_t value);

/* ---- What the doorbell layer hands each queue (the queue families implement these) ------ */

/* The CQ doorbell (T13 20h-27h, T14), both halves written: request a completion notification
 * of CQ cqn rung on UAR page `uar`. cmd_sn ("cmds", 20h[29:28]), cmd (20h[24]: 0 ARM_NEXT,
 * 1 ARM_SOLICITED), ci (20h[23:0]) and cqn (24h[23:0]). obj/cq_post.c. */
void cq_arm(struct nicref_dev *dev, uint32_t uar, uint32_t cqn, unsigned cmd_sn, unsigned cmd,
	    uint32_t ci);

/* An EQ doorbell (T13): eqn 31:24, the consumer index 23:0; `arm` for 40h (update CI and arm),
 * not for 48h (update CI only). obj/eq_event.c. */
void eq_doorbell(struct nicref_dev *dev, uint32_t uar, uint32_t eqn, uint32_t ci, bool arm);

/* A send doorbell: the first two dwords of a Blue Flame buffer, the WQE's ctrl dwords 0-1
 * (T26: wqe_index << 8 | opcode, sqn << 8 | ds), written lower dword first (§7.2.2.2), on Blue
 * Flame register bf_reg (a pair of buffers, even and odd). With it, the Blue Flame post: the
 * buffer as written since its last doorbell (§7.2.2.1), whose first `whole` bytes (the
 * doorbell dwords included) were all written. obj/sq_db.c. */
struct sq_db {
	uint32_t d0, d1;     /* as written */
	uint32_t sqn;        /* d1[31:8] */
	uint16_t wqe_index;  /* d0[23:8] */
	uint8_t opcode, ds;  /* d0[7:0], d1[5:0] */
	unsigned bf_reg;     /* the Blue Flame register of the buffer rung */
	const uint8_t *bf;   /* the buffer, big-endian like the WQE in memory */
	unsigned bf_size;    /* its bytes: 2^log_bf_reg_size / 2 */
	unsigned bf_whole;   /* bytes from its start all written since its last doorbell */
};
void sq_doorbell(struct nicref_dev *dev, uint32_t uar, const struct sq_db *db);

#endif
