/* Rules that refuse ACCESS_REG (PRM §12.4.1) and the port registers (PRM §9, T104-T126); rows
 * as in NICREF_CMD_RULES (nicref/cmd.h): X(ID, STATUS, "citation", "text"). */
#ifndef NICREF_RULES_REG_H
#define NICREF_RULES_REG_H

#define NICREF_CMD_RULES_REG(X)

#endif
