/* Rules and driver violations of MKeys and special contexts (PRM §6, §12.5).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_MKEY_H
#define NICREF_RULES_MKEY_H

#define NICREF_CMD_RULES_MKEY(X)

#define NICREF_VIOLATIONS_MKEY(X)

#endif
