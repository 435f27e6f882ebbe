/* Rules and driver violations of SQs, RQs and RMPs and their work queues (PRM §7.4, §7.7-§7.10, §12.10, §12.11, §12.13).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_WQ_H
#define NICREF_RULES_WQ_H

#define NICREF_CMD_RULES_WQ(X)

#define NICREF_VIOLATIONS_WQ(X)

#endif
