/* Rules and driver violations of TIS, TIR and RQT (PRM §7.5-§7.8, §12.8, §12.9, §12.12).
 * Rows as in nicref/rules_ctrl.h. */
#ifndef NICREF_RULES_TIR_H
#define NICREF_RULES_TIR_H

#define NICREF_CMD_RULES_TIR(X)

#define NICREF_VIOLATIONS_TIR(X)

#endif
