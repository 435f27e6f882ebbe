/* Rules and driver violations of EQs and events (PRM §7.13, §12.6).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_EQ_H
#define NICREF_RULES_EQ_H

#define NICREF_CMD_RULES_EQ(X)

#define NICREF_VIOLATIONS_EQ(X)

#endif
