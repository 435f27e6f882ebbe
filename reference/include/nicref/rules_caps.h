/* Rules that refuse QUERY_HCA_CAP and SET_HCA_CAP (PRM §12.3.3-§12.3.4); rows as in
 * NICREF_CMD_RULES (nicref/cmd.h): X(ID, STATUS, "citation", "text"). */
#ifndef NICREF_RULES_CAPS_H
#define NICREF_RULES_CAPS_H

#define NICREF_CMD_RULES_CAPS(X)

#endif
