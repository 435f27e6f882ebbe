/* Private to libnicref: struct nicref_dev, the device as the control plane composes it, and
 * what the control plane (cmd/, obj/, reg/: one layer, reference/layers.txt) shares.
 *
 * Why the whole struct is declared here, one layer above core: core must not see it (it would
 * name every object family), and the control plane's files read one another's state on every
 * command (dev->hca, dev->obj[], dev->eqd, ...), so it is one struct they all see. Core's part
 * comes first (struct dev_core, core/dev.h), so core reaches its own fields through the same
 * pointer without knowing the rest. A layer above the control plane (eth/, steer/, roce/) does
 * not add fields here: it keeps its state in its row of the subsystem table (core/subsys.h),
 * made by the row's create and handed to its hooks. */
#ifndef NICREF_CMD_CTL_DEV_H
#define NICREF_CMD_CTL_DEV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dev.h"
#include "obj/cq.h"
#include "obj/eq.h"
#include "obj/flow.h"
#include "obj/mkey.h"
#include "obj/obj.h"
#include "obj/objtab.h"
#include "obj/qp.h"
#include "obj/tir.h"
#include "obj/uar_db.h"
#include "obj/vport.h"
#include "obj/wq.h"
#include "reg/port.h"
#include "reg/roce_accl.h"

/* PRM §4.3 T7/T8: the initialization segment as the device holds it. */
struct init_seg {
	uint32_t addr_hi;      /* 10h as last written */
	uint32_t addr_lo;      /* 14h[31:12] as last written */
	bool msw_written;      /* 10h written since the last LSW latch */
	bool msw_reported;     /* and reported CMDQ_ADDR_WHILE_ENABLED (D-CMD-19) */
	bool cmdq_valid;       /* an address has been latched */
	uint64_t cmdq_addr;    /* latched at the LSW write (PRM §8.2: MSW first) */
	uint8_t nic_interface; /* 14h[9:8] */
	bool initializing;     /* 1FCh[31] */
	uint64_t ready_at_ns;  /* when initializing clears, once the address is latched */
	uint8_t health_syndrome;
	uint32_t health_counter_frozen;
};

/* The lifecycle of PRM §8.2-§8.3 (D-INIT-2); the values are those of enum nicref_hca_state. */
enum hca_state {
	HCA_DISABLED = NICREF_HCA_DISABLED,
	HCA_ENABLED = NICREF_HCA_ENABLED,
	HCA_INITIALIZED = NICREF_HCA_INITIALIZED,
	HCA_TORN_DOWN = NICREF_HCA_TORN_DOWN,
	HCA_PANIC = NICREF_HCA_PANIC,
};

/* MANAGE_PAGES op_mod (T135). */
enum { MP_ALLOCATION_FAIL, MP_ALLOCATION_SUCCESS, MP_RETURN_PAGES };

/* What the start-up sequence of §8.2 has done so far, for its ordering rules. */
struct hca {
	enum hca_state state;
	uint16_t issi;            /* current ISSI (§7.1): 0 until SET_ISSI */
	bool issi_set;            /* SET_ISSI succeeded since ENABLE_HCA */
	bool init_pages_queried;  /* QUERY_PAGES(init) since ENABLE_HCA (D-INIT-1) */
	char driver_version[64];  /* SET_DRIVER_VERSION, as given */
	/* Page Request events (PRM §7.13.10.2, §12.3.2): at most one outstanding until the next
	 * MANAGE_PAGES re-arms it (D-PG-4). */
	bool page_request_armed;
	bool page_request_posted; /* the outstanding request's EQE was written (D-PG-6) */
	uint32_t pages_wanted; /* total the last request asked for; 0 when answered */
	/* Slots whose command waits for pages (D-PG-6): owned by the device, not completed. */
	uint32_t slots_waiting;
	/* Set while the waiting commands run after MANAGE_PAGES ALLOCATION_FAIL: SW said it
	 * has no pages, so they complete with their refusal instead of waiting on (D-PG-6). */
	bool pages_refused;
	/* HOST_ENDIANNESS (0x7004, beyond PRM Rev 0.40: the public mlx5 interface; D-VFIO-1):
	 * he as last written, 0 at power-on. */
	uint8_t host_endianness;
};

/* What the control plane hands the data path: one small table, set at create by the data
 * path's row of the subsystem table (eth/eth_subsys.c, a row device/device.c places), so that
 * obj/ reaches eth/ without naming it (reference/layers.txt). A NULL member: no data path. */
struct dev_datapath {
	/* An SQ's doorbell was acted on (obj/sq_db.c, after the D-DB-2 index rules) while the SQ
	 * is RDY: run the WQEs from sq->wq.hw_counter up to the doorbell record's counter, which
	 * sq_db.c has just read into sq->wq.sw_counter. The WQE at db->wqe_index comes from the
	 * Blue Flame buffer db->bf when bf_ok (D-DB-3: whole, ds >= 2, within the buffer). */
	void (*sq_run)(struct nicref_dev *dev, struct sq *sq, const struct sq_db *db, bool bf_ok);
	void *state; /* the data path row's state */
	/* The RoCE transport (roce/, set by its row; docs/roce.md). roce_rx: a frame of a port
	 * that passed the receive path's port checks (eth/rx_wire.c, after frame_in, before the
	 * vport and NIC_RX steering): true when the transport took it (IPv4/IPv6 + UDP 4791 to a
	 * RoCEv2 GID of the port, D-ROCE-1), false to let the Ethernet path go on. qp_run: a send
	 * doorbell that names a QP (D-ROCE-2), acted on after the D-DB-2 rules (obj/sq_db.c) with
	 * the doorbell record's SQ counter read into the QP's SQ. */
	bool (*roce_rx)(struct nicref_dev *dev, unsigned port, const uint8_t *frame, size_t len);
	void (*qp_run)(struct nicref_dev *dev, struct qp *qp, const struct sq_db *db, bool bf_ok);
	void *roce; /* the roce row's state */
};

struct nicref_dev {
	struct dev_core core; /* first: core/dev.h dev_core() */
	struct init_seg iseg;
	/* Gather/scatter buffers of one command, sized for the longest chain the profile allows,
	 * so no command allocates (cmd/cmdq_state.c). */
	uint8_t *cmd_in, *cmd_out;
	size_t cmd_buf_len;
	/* Address and control part (200h-23Fh) of each output mailbox block, kept from
	 * validation so the scatter writes back what was checked. */
	uint64_t *out_block_addr;
	uint8_t *out_block_ctrl;
	uint64_t cmd_completed; /* command entries completed (nicref_stats.commands) */

	struct hca hca;
	/* Every object, by type (obj/obj.h), and what the live ones cost in ICM pages. */
	struct objtab obj[OBJ_TYPE_COUNT];
	uint32_t obj_charged[OBJ_TYPE_COUNT];
	struct eq_dev eqd;
	struct flow_dev flow; /* obj/flow_*.c: flow steering per table type */
	struct vport *vport;
	struct uar_db *uar_db;   /* obj/uar_db.c: the registers of the UAR pages */
	uint16_t *int_min_delay; /* CONFIG_INT_MODERATION, per vector (profile.msix_vectors) */
	struct port port[NICREF_MAX_PORTS];
	struct roce_accl roce_accl; /* reg/roce_accl.c: ADP register state (issue 5) */
	/* obj/roce_addr.c: the GID table, ROCE_ADDR_ENTRIES entries per port (docs/roce.md) */
	uint8_t *roce_addr;
	uint64_t roce_addr_writes; /* SETs and clears of it: a snapshot copies it back only then */
	struct dev_datapath datapath; /* set by the data path's row at create; kept by reset */
};
_Static_assert(offsetof(struct nicref_dev, core) == 0, "core's part comes first (dev_core)");

/* obj_get (obj/obj.h, out of line) inline, for a type known when compiling: a received frame
 * looks up its TIR, RQT, RQ, CQ, MKey and flow table. */
static inline void *obj_at(const struct nicref_dev *dev, enum obj_type type, uint32_t h)
{
	return objtab_get(&dev->obj[type], h);
}

/* The control plane's rows of the subsystem table (core/subsys.h), each beside its code; the
 * order is device/device.c's. */
extern const struct dev_subsys init_seg_subsys;       /* cmd/init_seg.c */
extern const struct dev_subsys cmdq_subsys;           /* cmd/cmdq_state.c */
extern const struct dev_subsys hca_subsys;            /* cmd/hca.c */
extern const struct dev_subsys int_moderation_subsys; /* cmd/cmd_int_moderation.c */
extern const struct dev_subsys obj_subsys;            /* obj/obj.c */
extern const struct dev_subsys port_subsys;           /* reg/port.c */
extern const struct dev_subsys roce_accl_subsys;      /* reg/roce_accl.c */

/* The control plane's snapshot hooks (cmd/ctl_snap.c), on the objects' row (core/subsys.h). */
int ctl_snap_save(struct nicref_dev *dev, const void *state, void **blob);
void ctl_snap_restore(struct nicref_dev *dev, void *state, const void *blob);
void ctl_snap_free(void *blob);
/* Which objects are live, table by table (cmd/ctl_snap_obj.c): saved (and every table's undo
 * log started); put back, by the tables' undo logs when they hold every change since (the
 * device continues from this snapshot), else table by table from the saved list; freed. */
struct obj_live;
struct obj_live *obj_live_save(struct nicref_dev *dev);
void obj_live_restore(struct nicref_dev *dev, const struct obj_live *w);
void obj_live_free(struct obj_live *w);

/* Pages the device needs now (boot + init + what live objects use; 0 once torn down). */
uint32_t dev_pages_required(const struct nicref_dev *dev);
/* QUERY_PAGES op_mod 1 boot, 2 init, 3 regular: > 0 pages needed, < 0 pages reclaimable
 * (PRM T133; D-PG-1). */
int32_t pages_query(const struct nicref_dev *dev, unsigned op_mod);
/* Destroys every object, the last created first (TEARDOWN_HCA, reset). */
void hca_release_objects(struct nicref_dev *dev);
/* Opens each object table's handle range from the capabilities in force (INIT_HCA). */
void obj_open_tables(struct nicref_dev *dev);
/* Live objects of a type. */
static inline uint32_t dev_obj_count(const struct nicref_dev *dev, enum obj_type t)
{
	return dev->obj[t].nlive;
}
/* The lifecycle state's name (D-INIT-2), for explanations (cmd/hca.c). */
const char *dev_state_name(enum hca_state st);

/* Handle spaces (D-OBJ-2): PDs and TDs are numbered from 1, 2^log_max_pd of them; UARs from
 * profile.uar_base to the end of the UAR area (D-UAR-1); EQs from 0; every other type from 1,
 * 2^log_max_<type> of them. Capacities are the widest the PRM's handle fields hold. */
#define DEV_PD_BASE 1u
#define DEV_TD_BASE 1u
#define DEV_LOG_MAX_PD 24
#define DEV_LOG_MAX_TD 24
#define DEV_MAX_UARS 256u /* 1 MB UAR area (uar_sz 0) of 4 KB pages */

/* BAR0 below the UAR pages: the init segment (cmd/init_seg.c; PRM §4.3 T7/T8). The BAR0 map
 * (device/bar0.c) hands it the offsets below PRM_SIZE_init_seg. */
uint32_t init_seg_read(struct nicref_dev *dev, uint32_t offset);
/* The free-running internal timer (T8 1000h/1004h; D-TS-1): what CQE timestamps sample
 * (§7.12.10). */
uint64_t init_seg_timer(const struct nicref_dev *dev);
void init_seg_write(struct nicref_dev *dev, uint32_t offset, uint32_t value);
/* A fatal error (PRM §9.2.2, §7.13.9.1; D-H-2): T8 1010h health_syndrome takes `syndrome`
 * (the first error's stays), the health counter freezes (D-H-1), the internal error buffer
 * reports it (D-H-3), a `fatal` event, and the device halts until the reset. */
void init_seg_fatal(struct nicref_dev *dev, uint8_t syndrome);

/* Command queue (cmd/cmdq.c). */
void cmdq_doorbell(struct nicref_dev *dev, uint32_t vector);

/* One delivered command, as the transport hands it to dispatch (cmd/dispatch.c). */
struct cmd_exec {
	unsigned slot;
	uint32_t input_length, output_length; /* as the entry states them */
	const uint8_t *in;                    /* gathered input */
	size_t in_len;                        /* bytes gathered (less when refused as too long) */
	uint8_t *out;                         /* output to scatter, zeroed by dispatch */
	size_t out_len;                       /* bytes the transport will write back */
	bool in_too_long, out_too_long;       /* beyond profile.max_mailbox_blocks */
};
/* Runs the command; fills x->out[0..out_len) with status, syndrome and output. */
void cmd_execute(struct nicref_dev *dev, struct cmd_exec *x);

#endif
