/* The device composed: its subsystems in the order they run (the table core walks, core/subsys.h)
 * and nicref_dev_create, which hands that table to core. The top of the model: nothing of
 * reference/ uses this folder (reference/layers.txt).
 *
 * The order is the one each hook runs in (destroy runs it backwards). Power-on: the init
 * segment first (initializing set), then the command queue, the lifecycle, the interrupt
 * settings, the objects (every one released), the ports and the ADP register. Time: the init
 * segment (initializing may clear), then the objects (CQ moderation, then EQ interrupts).
 * Checks: the init segment, the lifecycle and its pages, the objects, the ADP register, after
 * core's own; then the Ethernet data path (eth/), whose create hands the control plane its
 * data-path hook (cmd/ctl_dev.h). A layer to come (steer/, roce/, pcie/) adds its row here, after
 * the rows it builds on. */
#include "cmd/ctl_dev.h"
#include "device/device.h"
#include "eth/eth.h"
#include "roce/roce.h"

const struct dev_subsys *const device_subsystems[] = {
	&init_seg_subsys,	/* cmd/init_seg.c */
	&cmdq_subsys,		/* cmd/cmdq_state.c */
	&hca_subsys,		/* cmd/hca.c */
	&int_moderation_subsys, /* cmd/cmd_int_moderation.c */
	&obj_subsys,		/* obj/obj.c, with the doorbell layer obj/uar_db.c */
	&port_subsys,		/* reg/port.c */
	&roce_accl_subsys,	/* reg/roce_accl.c */
	&eth_subsys,		/* eth/eth_subsys.c: the send engine, after the objects it runs */
	&roce_subsys,		/* roce/roce_subsys.c: the RoCE transport, over eth's wire path */
};

const unsigned device_nsubsystems = sizeof device_subsystems / sizeof device_subsystems[0];

struct nicref_dev *nicref_dev_create(const struct nicref_config *cfg)
{
	return dev_create(cfg, device_subsystems, device_nsubsystems, sizeof(struct nicref_dev));
}
