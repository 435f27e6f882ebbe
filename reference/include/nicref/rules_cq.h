/* Rules and driver violations of CQs (PRM §7.12, §12.7).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_CQ_H
#define NICREF_RULES_CQ_H

#define NICREF_CMD_RULES_CQ(X)

#define NICREF_VIOLATIONS_CQ(X)

#endif
