/* Rules and driver violations of the NIC vport, its counters and the L2 table (PRM §12.15-§12.17).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_VPORT_H
#define NICREF_RULES_VPORT_H

#define NICREF_CMD_RULES_VPORT(X)

#define NICREF_VIOLATIONS_VPORT(X)

#endif
